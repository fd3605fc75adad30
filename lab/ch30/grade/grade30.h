/* grade30.h - the grader of chapter 30's exercises (lab/ch30/exercises.c, declared in
 * exercises30.h): `make grade30` links a student's file into build/grade30/grade30 and runs
 * it (lab/ch30/grade/README.md says how to read it).
 *
 * The exercises are one table, grade30_table (grade30_table.c): per exercise its function
 * on the student's sheet, its cases (the chapter's named ones, then generated ones from a
 * seeded generator), the lab's own answer on a case, the known mistakes (each one function
 * of the exercise's signature, mistakes.c), the page heading that teaches it, and its
 * picture. The machinery (grade30_check.c) runs every case twice, in two orders, in a
 * child process the parent limits (grade30_sandbox.c); the verdict is "not written yet",
 * "correct", or the first case it gets wrong with both values and, when one known mistake
 * explains every case, the mistake's name.
 *
 *     grade30_result r;
 *     grade30_run(&grade30_table[x], grade30_table[x].sheet, 30, &r, &d);
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
#include "grade30_table.h"

typedef enum {
    GRADE30_NOT_WRITTEN, GRADE30_CORRECT, GRADE30_WRONG, GRADE30_CRASHED, GRADE30_TOO_SLOW, GRADE30_UNDEFINED,
    GRADE30_NOT_GRADED, /* the shader exercise where this machine has no EGL: never "correct" */
    GRADE30_DOES_NOT_COMPILE /* its sheet does not compile or link, or has no such function */
} grade30_verdict;

/* One exercise's verdict. Flat: it crosses from the child in shared memory. */
typedef struct {
    grade30_verdict verdict;
    int cases;                        /* the cases it was checked on */
    int failed;                       /* WRONG, CRASHED, TOO_SLOW, UNDEFINED: the case (1-based; 0 none) */
    int failed_pass;                  /* the pass it failed in (1 in order, 2 in the second order) */
    char failed_case[200];            /* its words */
    char computed[320], expected[320];
    char detail[480];                 /* CRASHED, UNDEFINED, a history: what happened */
    double difference, tolerance;     /* WRONG: the distance (NaN or inf when the answer was) */
    int mistake;                      /* WRONG: the known mistake explaining every case, or -1 */
} grade30_result;

const char *grade30_verdict_name(grade30_verdict v); /* "not written yet", "correct", ... */

/* The parent's limits on one child: wall-clock seconds for all of an exercise's calls
 * (each case twice), then its whole process group is killed. */
extern double grade30_seconds;

/* Grades exercise x through f in a child process the parent limits (grade30_sandbox.c):
 * the verdict of every case run twice, in order and in a second order from seed; then, in
 * the same child, the picture's points into *picture (may be NULL; drawn false when the
 * exercise is not written or the child did not finish them). Errors: LAB_ERR_OUT_OF_MEMORY
 * when no child could be started or it ran out of memory. */
lab_error grade30_run(const grade30_entry *x, grade30_fn f, uint64_t seed, grade30_result *out,
                      grade30_picture_data *picture, lab_diag *d);

/* The same for the function x->function of a sheet built into the shared object `object`
 * (src/grade/build.h), which only the child opens: an object that does not open, or has
 * no such function, is the verdict "does not compile", with the loader's words. */
lab_error grade30_run_object(const grade30_entry *x, const char *object, uint64_t seed, grade30_result *out,
                             grade30_picture_data *picture, lab_diag *d);

/* The same in this process, without limits: the tests' way for answers that cannot crash. */
lab_error grade30_check(const grade30_entry *x, grade30_fn f, uint64_t seed, grade30_result *out);

/* Exercise 22: the shader sheet at `path` (shader.glsl) on this machine's EGL/GLES, in a child
 * process (grade30_shader.c); its picture's points (the GPU's cylinder at 120 degrees) into
 * *picture. Errors: LAB_ERR_OUT_OF_MEMORY only; the rest is the verdict. */
lab_error grade30_shader_run(const char *path, uint64_t seed, grade30_result *out, grade30_picture_data *picture,
                             lab_diag *d);
/* The picture of exercise 22: the lab's cylinder beside the GPU's through the student's shader. */
lab_error grade30_draw_shader(const grade30_picture_data *yours, canvas *out, lab_diag *d);

/* Prints one exercise's verdict as the grader's page shows it. */
void grade30_print(int x, const grade30_result *r, FILE *out);

/* The heading's anchor as the pages' renderers make it ("exercise-1-the-world-matrix"). */
void grade30_anchor(const char *heading, char *out, size_t size);

/* Where a sanitizer's report names the student's file: each sheet's path (the shipped ones
 * unless main is told of others). */
extern const char *grade30_sheet_paths[GRADE30_SHEET_COUNT];

#endif
