/* exercise.h - an exercise as the grader engine grades it, whatever its chapter: its cases,
 * the lab's answer on each, the call of the student's function, the known mistakes, and the
 * verdict. A chapter lists its exercises in one ordered array of grade_exercise (their
 * numbers are their places in it, from 1) and hands it to grade_main (grader.h).
 *
 * A case is the chapter's own type: the engine knows it as `struct grade_case`, which each
 * chapter's grader defines once (a chapter's grader is a program of its own), and moves it
 * by `case_size`. An answer is a list of numbers (grade_answer) in one of the shapes below,
 * which say how it is compared and printed.
 *
 *     static const grade_exercise exercises[] = {
 *         {"the world matrix G_i = G_parent L_i", "ex30_world_matrix", page, heading, sheet,
 *          GRADE_MATRIX, 1e-9, named, 240, world_case, world_call, world_expected, mistakes, ...},
 *     };
 *
 * The two passes (grade_exercise_grade, _answer and _judge): every case is called twice, in order and then in
 * a shuffled order from the seed; the first case outside the tolerance is the verdict,
 * with both answers; an answer that changed between the passes is state kept between
 * calls, and says so; a write into a const input is wrong and names the element
 * (src/grade/arrays.h); a known mistake is named when it explains every case. NaN and
 * infinity are wrong answers: every distance propagates NaN.
 */
#ifndef GRADE_EXERCISE_H
#define GRADE_EXERCISE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/diag.h"
#include "draw/raster.h"
#include "grade/arrays.h"
#include "grade/sandbox.h"

/* A student's function, in its own signature when called (the chapter's call converts it). */
typedef void (*grade_fn)(void);

typedef enum {
    GRADE_NOT_WRITTEN, GRADE_CORRECT, GRADE_WRONG, GRADE_CRASHED, GRADE_TOO_SLOW, GRADE_UNDEFINED,
    GRADE_NOT_GRADED,       /* the machine cannot run it (no EGL for a shader): never "correct" */
    GRADE_DOES_NOT_COMPILE  /* its sheet does not compile or link, or has no such function */
} grade_verdict;

const char *grade_verdict_name(grade_verdict v); /* "not written yet", "correct", ... */

/* One exercise's verdict. Flat: it crosses from the child in shared memory. */
typedef struct {
    grade_verdict verdict;
    int cases;                        /* the cases it was checked on */
    int failed;                       /* the case (1-based; 0 none) */
    int failed_pass;                  /* the pass it failed in (1 in order, 2 in the second order) */
    char failed_case[200];            /* its words */
    char computed[320], expected[320];
    char detail[480];                 /* what happened, in words */
    double difference, tolerance;     /* WRONG: the distance (NaN or inf when the answer was) */
    int mistake;                      /* WRONG: the known mistake explaining every case, or -1 */
    int failed_got, failed_want;      /* WRONG: the numbers of the failing case's answers, and */
    double got[16], want[16];         /* the first 16 of each (the failing case's picture) */
    bool pose_hides;                  /* WRONG: the exercise's picture of its pose is the same
                                       * through the student's function as through the lab's,
                                       * so only the failing case is drawn */
} grade_result;

/* How an answer is compared and printed. */
typedef enum {
    GRADE_VALUES,     /* n numbers, within tolerance times the largest |expected| (at least 1); a
                       * count that differs is as far as can be */
    GRADE_MATRIX,     /* a 4x4 matrix, row by row, likewise */
    GRADE_POINT,      /* x, y, z, likewise */
    GRADE_NUMBER,     /* one number, likewise */
    GRADE_ANGLE,      /* one angle in radians, up to whole turns */
    GRADE_DUALQUAT,   /* real (w, x, y, z) then dual: up to the overall sign */
    GRADE_RULE,       /* one enum value, exactly, and whether the function changed its inputs:
                       * for a function that must refuse, never repair */
    GRADE_ELSEWHERE   /* graded by the sheet's own runner (a shader on the GPU) */
} grade_shape;

enum { GRADE_MAX_VALUES = 800 };
typedef struct {
    bool changed;                     /* the call wrote into an input */
    char input_changed[48];           /* the first element it changed ("local[3]"), or "" */
    int n;
    double v[GRADE_MAX_VALUES];       /* last: a copy takes the n used (grade_answer_copy) */
} grade_answer;

/* An answer with no values, and the values a shape holds. */
void grade_answer_clear(grade_answer *a);
void grade_answer_copy(grade_answer *to, const grade_answer *from);
void grade_put(grade_answer *a, double x); /* one more value (dropped past GRADE_MAX_VALUES) */

/* A known mistake: its name in the chapter's words, and the mistake itself as a function of
 * the exercise's signature. */
typedef struct {
    const char *name;
    grade_fn fn;
} grade_mistake;

/* The chapter's case type (one definition a grader); the engine moves it by case_size. */
typedef struct grade_case grade_case;
/* A picture's panel, in pixels: every exercise's picture, and its failing case's. */
enum { GRADE_PICTURE_W = 500, GRADE_PICTURE_H = 400 };

/* The chapter's picture data (one definition a grader), made in the child through the
 * student's function and drawn in the parent; the engine moves it by the chapter's size. */
typedef struct grade_picture grade_picture;

typedef struct grade_exercise {
    const char *title;                /* "the world matrix G_i = G_parent L_i" */
    const char *function;             /* the sheet's symbol: "ex30_world_matrix" */
    const char *page;                 /* the page that teaches it */
    const char *heading;              /* and its heading there: "Exercise 1: the world matrix" */
    grade_fn reference;               /* a correct function where the program links one (the
                                       * suites'), else NULL: the grader opens each sheet */
    grade_shape shape;
    int named;                        /* the chapter's named cases (the first ones) */
    int generated;                    /* then this many from the seeded generator */
    /* case i (named first; a generated one from (seed, i) alone) into *c */
    void (*make_case)(int i, uint64_t seed, grade_case *c);
    /* the lab's own answer on c */
    grade_answer (*expected)(const grade_case *c);
    double tolerance;                 /* relative: |got - want| <= tolerance max(1, |want|) */
    const grade_mistake *mistakes;
    int mistake_count;
    /* optional: the picture's data through f, in the child (the engine zeroes it where the
     * child did not finish it), on `failing` when the answer is wrong (the first case it
     * failed, NULL otherwise: a picture that can show the difference draws that case);
     * drawn beside the lab's, in the parent */
    void (*picture_points)(grade_fn f, const grade_case *failing, grade_picture *out);
    lab_error (*picture)(const grade_picture *yours, canvas *out, lab_diag *d);
    /* optional: value i of an answer in words ("vertex 12's y") */
    void (*value_name)(const grade_case *c, int i, char *out, size_t size);
    int sheet;                        /* its sheet: an index into the chapter's sheets */
    size_t case_size;                 /* sizeof(struct grade_case) */
    /* the call of f on c (f converted to the exercise's own signature), its arrays through
     * k (grade_input, grade_output, ..., then grade_call_ready before the call), its answer
     * into a */
    void (*call)(const struct grade_exercise *x, grade_fn f, const grade_case *c, grade_call *k, grade_answer *a);
    /* optional: an answer also within when the tolerance's test is not (a closed form's
     * other rounding), and an enum value's name for GRADE_RULE */
    bool (*also_within)(const grade_answer *got, const grade_answer *want);
    const char *(*rule_name)(int value);
    bool picture_draws_failing;       /* the picture shows the failing case itself; else, for a
                                       * wrong answer, the engine draws the failing case's
                                       * numbers, yours beside the lab's, under it */
    /* optional: the lab's own function in the sheet's signature (never the sheet's). The
     * engine draws the picture through it too, in the grader, and where a wrong answer's
     * picture is the lab's pixel for pixel the pose cannot show the mistake: the failing
     * case alone is drawn (grade_result.pose_hides) */
    grade_fn lab;
} grade_exercise;

/* The case's words: the engine reads them at the start of the chapter's case, which begins
 * with char what[200] (GRADE_CASE_WORDS). */
enum { GRADE_CASE_WORDS = 200 };

/* The flag a body not written yet sets (the sheets' NOT_WRITTEN_YET()); the engine clears it
 * before each call. Defined by the engine, resolved by the sheets' shared objects in the
 * grader (linked with -rdynamic). */
extern bool grade_not_written;

/* Every case of x through f, twice, in this process, into *out: the suites' way for
 * functions that cannot crash. False when an allocation failed. */
bool grade_exercise_grade(const grade_exercise *x, grade_fn f, uint64_t seed, grade_result *out);

/* In the grading child: every call of the two passes through f, each answer written to fd
 * as a record, in order (first a record that says the sheet is open); it stops after an
 * answer not written yet or a call that started a process (`shared`: which process grades).
 * Every case is made first, then before_calls (may be NULL: the sandbox's seal, after which
 * no file opens) runs, then the calls.
 * No verdict is made there: whatever the student's code does in that process, the verdict
 * is the parent's own comparison. */
void grade_exercise_answer(const grade_exercise *x, grade_fn f, uint64_t seed, int fd, const grade_shared_head *shared,
                           void (*before_calls)(void));

/* In the parent: the child's records judged against the lab's own cases, answers and
 * mistakes. GRADE_JUDGE_STOPPED when the records end (or come back out of order) before
 * the two passes do: *stopped_pass and *stopped_case are the call whose answer did not
 * come (pass 0: not even the sheet opened), for the verdict of how the child ended. */
typedef enum { GRADE_JUDGED, GRADE_JUDGE_STOPPED, GRADE_JUDGE_NO_MEMORY } grade_judgement;
grade_judgement grade_exercise_judge(const grade_exercise *x, uint64_t seed, const void *stream, size_t len,
                                     grade_result *out, int *stopped_pass, int *stopped_case);

/* The second order of the cases: a shuffle from the seed, never the first order when there
 * are two cases or more (both sides of the stream make it). */
void grade_second_order(int *order, int n, uint64_t seed);

/* Prints one exercise's verdict (number x + 1) as the graders' pages show it. */
void grade_print(int x, const grade_exercise *e, const grade_result *r, FILE *out);

/* The heading's anchor as the pages' renderers make it ("exercise-1-the-world-matrix"). */
void grade_anchor(const char *heading, char *out, size_t size);

#endif
