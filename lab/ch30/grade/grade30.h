/* grade30.h - the grader of chapter 30's exercises (lab/ch30/exercises.c, declared in
 * exercises30.h): `make grade30` links a student's file into build/grade30/grade30 and runs
 * it (lab/ch30/grade/README.md says how to read it).
 *
 * Each exercise is checked on the cases the chapter's programs already check: the bind
 * pose, the hand control, the radii, the invalid inputs, DQS against its closed form and
 * normals against the true normal. The expected values come from the lab's own code (the
 * library's blend, palette and inverse transpose, rig30's closed forms), never from the
 * student's. Per exercise the verdict is "not written yet", "correct", or the first case
 * that fails with the computed and the expected value, the section of the article it
 * tests and, when the answer is what a known mistake gives on that case, the mistake's
 * name in the chapter's words.
 *
 * Every exercise runs in a child process with a time limit, so a crash or an endless loop
 * in a student's code is that exercise's verdict, not the grader's end.
 */
#ifndef GRADE30_H
#define GRADE30_H

#include <stdbool.h>
#include <stdio.h>

#include "base/diag.h"
#include "exercises30.h"

/* The functions under grading: the student's, or a test's (the reference with one of them
 * replaced by a mistake). */
typedef struct {
    mat4 (*world_matrix)(mat4 parent_world, mat4 local);
    mat4 (*skin_matrix)(mat4 world, mat4 inverse_bind);
    vec3 (*lbs_point)(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette);
    double (*ring_radius_ratio)(double w, double theta);
    ex30_weights (*check_weights)(const double *weight, int k);
    dualquat (*dqs_blend)(const dualquat *q, const double *weight, int k);
    mat4 (*normal_matrix)(mat4 m);
} grade30_exercises;

/* The exercises in the order of exercises30.h. */
typedef enum {
    GRADE30_WORLD_MATRIX, GRADE30_SKIN_MATRIX, GRADE30_LBS_POINT, GRADE30_RING_RADIUS,
    GRADE30_CHECK_WEIGHTS, GRADE30_DQS_BLEND, GRADE30_NORMAL_MATRIX, GRADE30_EXERCISE_COUNT
} grade30_exercise;

typedef enum { GRADE30_NOT_WRITTEN, GRADE30_CORRECT, GRADE30_WRONG, GRADE30_CRASHED } grade30_verdict;

/* One exercise's verdict. Flat (static strings and arrays): it crosses from the child. */
typedef struct {
    grade30_verdict verdict;
    int cases;                   /* how many cases it was checked on (passed, when correct) */
    char failed_case[160];       /* WRONG: the first failing case; CRASHED: what the child did */
    char computed[320], expected[320];
    double difference, tolerance;
    const char *mistake;         /* WRONG: the known mistake its answer matches, or NULL */
} grade30_result;

/* The exercise's name ("C_j = G_j B_j^-1") and the article's section it grades. */
const char *grade30_name(grade30_exercise x);
const char *grade30_section(grade30_exercise x);
const char *grade30_verdict_name(grade30_verdict v); /* "not written yet", "correct", ... */

/* Grades exercise x of ex in a child process (a crash or a run past grade30_seconds, 10 by
 * default, is CRASHED). LAB_ERR_OUT_OF_MEMORY when the child could not be started or answered. */
extern unsigned grade30_seconds;
lab_error grade30_run(const grade30_exercises *ex, grade30_exercise x, grade30_result *out, lab_diag *d);

/* In a grading child: the default action for a crash's signal, and the time limit. */
void grade30_child_limits(void);

/* The same in this process (the tests' way: no fork, a mistake's crash is a test's crash). */
void grade30_check(const grade30_exercises *ex, grade30_exercise x, grade30_result *out);

/* Prints one exercise's verdict as the grader's page shows it. */
void grade30_print(grade30_exercise x, const grade30_result *r, FILE *out);

/* The student's skinning of the chapter's cylinder at a twist of theta_deg (their world
 * matrix, skin matrix and blend) beside the lab's, as dir/grade30.png; where an exercise
 * the picture needs is not written, its panel says so. Run in a child like the checks.
 * With it, the verdicts as records (checks, one an exercise: src/base/report.h), written
 * as dir/grade30-checks.json in the programs' format (cli_add_checks). */
struct report_checks;
lab_error grade30_figure(const grade30_exercises *ex, double theta_deg, const struct report_checks *checks,
                         const char *dir, lab_diag *d);

#endif
