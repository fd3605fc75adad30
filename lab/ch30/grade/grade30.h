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

/* An answer of any exercise: the field of its kind, and for the weight rules whether the
 * function changed the weights it was given. */
typedef enum { GRADE30_MATRIX, GRADE30_POINT, GRADE30_NUMBER, GRADE30_RULE, GRADE30_DUALQUAT } grade30_kind;
typedef struct {
    mat4 m;
    vec3 p;
    double x;
    ex30_weights rule;
    bool changed;
    dualquat q;
} grade30_answer;

/* A known mistake: its name in the chapter's words, and the mistake itself. */
typedef struct {
    const char *name;
    grade30_fn fn;
} grade30_mistake;

/* What a picture shows: up to GRADE30_PICTURE_POINTS points (or values) the student's
 * code made, beside the lab's; `drawn` false when the student's code could not make them. */
enum { GRADE30_PICTURE_POINTS = 240 };
typedef struct {
    int count;
    bool drawn;
    vec3 yours[GRADE30_PICTURE_POINTS];
} grade30_picture_data;

/* One exercise: everything the grader knows of it. */
typedef struct {
    const char *title;                /* "the world matrix G_i = G_parent L_i" */
    const char *function;             /* "ex30_world_matrix" */
    const char *page;                 /* the page that teaches it: "lab/ch30/README.md" */
    const char *heading;              /* and its heading there: "Exercise 1: the world matrix" */
    grade30_fn sheet;                 /* the function of the student's sheet */
    grade30_kind kind;
    int named;                        /* the chapter's named cases (the first ones) */
    int generated;                    /* then this many from the seeded generator */
    /* case i (named first) into *c; generated cases from (seed, i) alone */
    void (*make_case)(int i, uint64_t seed, grade30_case *c);
    /* the lab's own answer on a case (grade30_table.c says which function gives it) */
    grade30_answer (*expected)(const grade30_case *c);
    double tolerance;                 /* relative: |got - want| <= tolerance max(1, |want|) */
    const grade30_mistake *mistakes;
    int mistake_count;
    /* in the child: the points the picture needs, through f (the student's function);
     * both NULL for an exercise without a picture */
    void (*picture_points)(grade30_fn f, grade30_picture_data *out);
    /* in the parent: the picture of the student's points beside the lab's */
    lab_error (*picture)(const grade30_picture_data *yours, canvas *out, lab_diag *d);
} grade30_entry;

extern const grade30_entry grade30_table[GRADE30_EXERCISE_COUNT];

/* Calls f on case c as a student's function is called: its arrays are fresh allocations
 * of exactly their size (a read past one is a read past the allocation). ok false when an
 * allocation failed. */
grade30_answer grade30_call(const grade30_entry *x, grade30_fn f, const grade30_case *c, bool *ok);

/* In a grading child: the arrays of the call under way (NULL, 0: none), so that a
 * sanitizer's report of a bad access names the array and the index ("reads joint[4], past
 * the 4 influences"). */
void grade30_sandbox_arrays(const int *joint, int joints, const double *weight, int weights, const mat4 *palette,
                            int palette_count, const dualquat *q, int qs);

typedef enum {
    GRADE30_NOT_WRITTEN, GRADE30_CORRECT, GRADE30_WRONG, GRADE30_CRASHED, GRADE30_TOO_SLOW, GRADE30_UNDEFINED
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
 * the verdict of every case run twice, in order and in a second order from seed. Errors:
 * LAB_ERR_OUT_OF_MEMORY when no child could be started or it ran out of memory. */
lab_error grade30_run(const grade30_entry *x, grade30_fn f, uint64_t seed, grade30_result *out, lab_diag *d);

/* The same in this process, without limits: the tests' way for answers that cannot crash. */
lab_error grade30_check(const grade30_entry *x, grade30_fn f, uint64_t seed, grade30_result *out);

/* The picture's points through f, in a limited child; out->drawn false when f crashed,
 * ran too long or is not written. */
lab_error grade30_picture_points(const grade30_entry *x, grade30_fn f, grade30_picture_data *out, lab_diag *d);

/* Prints one exercise's verdict as the grader's page shows it. */
void grade30_print(int x, const grade30_result *r, FILE *out);

/* The heading's anchor as the pages' renderers make it ("exercise-1-the-world-matrix"). */
void grade30_anchor(const char *heading, char *out, size_t size);

/* Where a sanitizer's report names the student's file: the sheet's path (set by main). */
extern const char *grade30_sheet_path;

#endif
