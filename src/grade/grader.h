/* grader.h - a chapter's grader, whole: its exercises (exercise.h) in one ordered list, its
 * sheets, and one main that every chapter's grader program is (`make gradeN`).
 *
 *     static const grade_exercise *const exercises[] = {&grade31_turn};   (each defined in its file)
 *     static const grade_sheet sheets[] = {{"lab31", "lab/ch31/exercises.c", page, heading, topics}};
 *     static const grade_chapter chapter = {"grade31", "Grades chapter 31's exercises.", exercises,
 *                                           COUNT(exercises), sheets, COUNT(sheets), headers, cc};
 *     int main(int argc, char **argv) { return grade_main(&chapter, argc, argv); }
 *
 * grade_main takes the options --seed N, --seconds S (each exercise's wall clock), --only
 * SHEET, --sheet FILE (the file graded as that sheet) and --cc COMMAND (the compiler and
 * its flags; make gradeN sets it), and OUTDIR. It removes its previous outputs, compiles
 * each C sheet on its own into a shared object (build.h: a sheet that does not compile is
 * its exercises' verdict, and every other sheet is still graded), grades each exercise in
 * the sandbox's child, which alone opens the sheet (sandbox.h), prints each verdict
 * (grade_print), draws each exercise's picture beside the lab's, writes the pictures and the
 * verdicts as records all or nothing, and prints a summary line a sheet. Exit codes: 0 every
 * exercise graded correct; 1 one is not written yet, wrong, crashed, too slow, undefined,
 * not graded here or does not compile; 2 usage; 3 OUTDIR or a write failed, or out of
 * memory.
 *
 * An exercise's number is its place in the list, from 1; a sheet's exercises are those that
 * name it, in the list's order: nothing is counted by hand.
 */
#ifndef GRADE_GRADER_H
#define GRADE_GRADER_H

#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "grade/exercise.h"

typedef struct {
    const char *name;                 /* "dqs": SHEET=dqs */
    const char *file;                 /* the shipped sheet: "lab/ch30/sheets/dqs.c" */
    const char *page;                 /* the page whose topics it practises */
    const char *heading;              /* its exercises' section there: "Exercises: dual quaternions" */
    const char *topics;               /* in words, for the summary */
    /* a sheet that is not C, graded by its own runner (a shader on the GPU): exercise x on
     * the file at path; NULL for a C sheet */
    lab_error (*run)(const char *path, int x, uint64_t seed, grade_result *out, grade_picture *picture, lab_diag *d);
} grade_sheet;

typedef struct {
    const char *program;              /* "grade30": its outputs' prefix */
    const char *description;          /* --help's first line */
    const grade_exercise *const *exercises; /* the one ordered list: number x + 1 is exercises[x] */
    int exercise_count;
    const grade_sheet *sheets;
    int sheet_count;
    const char *const *headers;       /* the sheets' headers, NULL-ended: their bytes name each
                                       * sheet's object with its own */
    const char *compile;              /* the compile command when --cc is not given */
    size_t picture_size;              /* sizeof(struct grade_picture); 0: no pictures */
} grade_chapter;

/* Where the student's function comes from: f itself (the suites), or the shared object a
 * sheet was built into, which only the child opens, and its symbol x->function. */
typedef struct {
    grade_fn f;
    const char *object;
} grade_code;

/* Exercise x of ch graded in the sandbox's child, within `seconds` of wall clock for all
 * its calls (a second more for the picture's points after them): *out, and the picture's
 * data into picture (may be NULL; zeroed where the child did not make it). `source` names
 * the student's file in a sanitizer's report. Errors: LAB_ERR_OUT_OF_MEMORY only (no child,
 * or it ran out of memory grading); the rest is the verdict. */
lab_error grade_exercise_run(const grade_chapter *ch, int x, grade_code code, const char *source, uint64_t seed,
                             double seconds, grade_result *out, grade_picture *picture, lab_diag *d);

/* The whole grader (above). */
int grade_main(const grade_chapter *ch, int argc, char **argv);

#endif
