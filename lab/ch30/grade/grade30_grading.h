/* grade30_grading.h - between the grader's cases (grade30_cases.c) and its machinery
 * (grade30_check.c): an exercise being graded, the known mistakes' values on a case, and the
 * comparison that records a case's outcome. Not for students: exercises30.h is theirs. */
#ifndef GRADE30_GRADING_H
#define GRADE30_GRADING_H

#include "grade30.h"

enum { MAX_MISTAKES = 6 };
#define TIGHT 1e-9 /* an answer "is" a mistake's when it is this close to it */

/* An exercise being graded: its result, and which known mistakes the answers have matched
 * on every case so far. The student's function runs on every case, so that a mistake is
 * named only when it explains all of them (two mistakes can agree on one case: the
 * transpose and the inverse of a rotation). */
typedef struct {
    grade30_result *r;
    bool stop;                   /* the body is not written */
    bool failed;
    int mistakes;                /* how many mistakes this exercise knows (the same every case) */
    const char *mistake[MAX_MISTAKES];
    bool matches[MAX_MISTAKES];
} grading;

/* A known mistake on one case: its name and the value it gives there (the field of the
 * exercise's type). */
typedef struct { const char *name; mat4 m; vec3 p; double x; dualquat q; ex30_weights w; } mistake;

/* True when the body just called said it is not written (the verdict is then set). */
bool not_written(grading *g);

/* One case's outcome: the answer's distance to the expected value and to each of the n
 * mistakes' values (twin_diff), the two values as text. The first case beyond its
 * tolerance is the verdict's. */
void outcome(grading *g, const char *what, double diff, double tolerance, const char *computed,
             const char *expected, const mistake *m, const double *twin_diff, int n);

/* outcome for a case whose answer is a matrix, a point, a number or a dual quaternion
 * (up to its sign: q^ and -q^ are one transform). */
void check_mat4(grading *g, const char *what, mat4 got, mat4 want, double tolerance, const mistake *m, int n);
void check_vec3(grading *g, const char *what, vec3 got, vec3 want, double tolerance, const mistake *m, int n);
void check_double(grading *g, const char *what, double got, double want, double tolerance, const mistake *m, int n);
void check_dualquat(grading *g, const char *what, dualquat got, dualquat want, double tolerance, const mistake *m,
                    int n);
const char *weights_name(ex30_weights w); /* "EX30_WEIGHTS_VALID", ... */

/* The seven exercises' cases, in grade30_exercise's order. */
extern void (*const grade30_cases[GRADE30_EXERCISE_COUNT])(const grade30_exercises *ex, grading *g);

#endif
