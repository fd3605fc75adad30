/* grade30.h - the grader of chapter 30's exercises (lab/ch30/exercises.c and
 * lab/ch30/sheets/, declared in exercises30.h): `make grade30` links build/grade30/grade30
 * and runs it (lab/ch30/grade/README.md says how to read it).
 *
 * The grader is the engine's (src/grade/: the exercise model, the sandbox, the sheets'
 * build, the main) over this chapter's ordered list of exercises (GRADE30_LIST,
 * grade30_table.h), each one file, exNN_name.c: its function on the student's sheet, its
 * cases (the chapter's named ones, then generated ones from a seeded generator), the lab's
 * own answer on a case, its call, the known mistakes (each one function of the exercise's
 * signature), the page heading that teaches it, and its picture. What is left here is what
 * the suites call, and the shader exercise's runner, which runs on the GPU.
 *
 *     grade_result r;
 *     grade30_run(grade30_exercises[x], grade30_exercises[x]->reference, 30, &r, NULL, &d);
 *     grade30_print(x, &r, stdout);
 */
#ifndef GRADE30_H
#define GRADE30_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/diag.h"
#include "draw/raster.h"
#include "exercises30.h"
#include "grade/exercise.h"
#include "grade30_table.h"

/* The wall-clock seconds grade30_run gives each exercise for all its calls (each case
 * twice); make grade30's are grade_main's --seconds. */
extern double grade30_seconds;

/* Grades exercise x through f in the engine's limited child: the verdict of every case run
 * twice, then the picture's data into *picture (may be NULL; zeroed where not made).
 * Errors: LAB_ERR_OUT_OF_MEMORY when no child could be started or it ran out of memory. */
lab_error grade30_run(const grade30_entry *x, grade_fn f, uint64_t seed, grade_result *out,
                      grade30_picture_data *picture, lab_diag *d);

/* The same in this process, without limits: the suites' way for answers that cannot crash. */
lab_error grade30_check(const grade30_entry *x, grade_fn f, uint64_t seed, grade_result *out);

/* Exercise 22: the shader sheet at `path` (shader.glsl) on this machine's EGL/GLES, in the
 * engine's child (grade30_shader.c); its picture's points (the GPU's cylinder at 120
 * degrees) into *picture. Errors: LAB_ERR_OUT_OF_MEMORY only; the rest is the verdict. */
lab_error grade30_shader_run(const char *path, uint64_t seed, grade_result *out, grade30_picture_data *picture,
                             lab_diag *d);

/* The number of exercises on sheet s, and the first of them in *first (GRADE30_LIST's order). */
int grade30_sheet_exercises(int s, int *first);

/* Prints one exercise's verdict as the grader's page shows it. */
void grade30_print(int x, const grade_result *r, FILE *out);

#endif
