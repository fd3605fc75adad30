/* grade30_table.h - what an exercise of chapter 30 is, for the grader's table
 * (grade30_table.c): which exercises there are, the signatures of their functions, and the
 * inputs a case can give them. With grade30_table.c and the mistakes it names (mistakes.c),
 * this is all of the grader an added exercise touches; the rest is the sheet
 * (exercises30.h, exercises.c) and its reference (solutions/reference.c). */
#ifndef GRADE30_TABLE_H
#define GRADE30_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "draw/raster.h"
#include "exercises30.h"

/* The exercises in the order of exercises30.h. */
typedef enum {
    GRADE30_WORLD_MATRIX, GRADE30_SKIN_MATRIX, GRADE30_LBS_POINT, GRADE30_RING_RADIUS,
    GRADE30_CHECK_WEIGHTS, GRADE30_DQS_BLEND, GRADE30_NORMAL_MATRIX, GRADE30_EXERCISE_COUNT
} grade30_exercise;

/* One exercise's function, in its own signature (the member of its kind). */
typedef union {
    mat4 (*world_matrix)(mat4 parent_world, mat4 local);
    mat4 (*skin_matrix)(mat4 world, mat4 inverse_bind);
    vec3 (*lbs_point)(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette);
    double (*ring_radius_ratio)(double w, double theta);
    ex30_weights (*check_weights)(const double *weight, int k);
    dualquat (*dqs_blend)(const dualquat *q, const double *weight, int k);
    mat4 (*normal_matrix)(mat4 m);
} grade30_fn;

enum { GRADE30_MAX_K = 8, GRADE30_MAX_PALETTE = 8 };

/* One case's inputs (the fields its exercise reads) and its words. */
typedef struct {
    char what[200];
    mat4 a, b;                        /* 1: parent, local; 2: world, inverse bind; 7: M */
    vec3 p;                           /* 3: the vertex */
    int k;                            /* 3, 5, 6: influences */
    int joint[GRADE30_MAX_K];
    double weight[GRADE30_MAX_K];
    int palette_count;                /* 3 */
    mat4 palette[GRADE30_MAX_PALETTE];
    double w, theta;                  /* 4 */
    dualquat q[GRADE30_MAX_K];        /* 6 */
} grade30_case;

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

/* The bad access at address `at` (a read, or a write) in the words of the arrays of the call
 * grade30_call has under way, when it lies within 256 bytes of one of them: "reads
 * joint[4], past the 4 influences"; else the address. For a sanitizer's report. */
void grade30_name_access(uintptr_t at, bool write, char *out, size_t size);

/* The pictures the entries name (grade30_figure.c): grade30_points_X runs in the grading child and makes the points the
 * picture needs through the student's function; grade30_draw_X draws them beside the lab's
 * in the parent, on a rig where the exercise's mistakes show:
 *   1, 2  the hand control's Ty(1) Rz(90), in its plane;
 *   3     the chapter's cylinder at a 120 degree twist, the lab's palette, your blend;
 *   4     the ring radius against theta for w = 1/2 and 1/4, yours beside the closed form;
 *   5     weight sets of every rule, your verdict beside the rules';
 *   6     the middle ring of a twist by -q^ and a move, blended by yours then normalised;
 *   7     normals on a sheared, unevenly scaled plane beside the true normal. */
enum { GRADE30_PICTURE_W = 500, GRADE30_PICTURE_H = 400 };

void grade30_points_world(grade30_fn f, grade30_picture_data *out);
void grade30_points_skin(grade30_fn f, grade30_picture_data *out);
void grade30_points_lbs(grade30_fn f, grade30_picture_data *out);
void grade30_points_radius(grade30_fn f, grade30_picture_data *out);
void grade30_points_weights(grade30_fn f, grade30_picture_data *out);
void grade30_points_dqs(grade30_fn f, grade30_picture_data *out);
void grade30_points_normal(grade30_fn f, grade30_picture_data *out);

lab_error grade30_draw_world(const grade30_picture_data *yours, canvas *out, lab_diag *d);
lab_error grade30_draw_skin(const grade30_picture_data *yours, canvas *out, lab_diag *d);
lab_error grade30_draw_lbs(const grade30_picture_data *yours, canvas *out, lab_diag *d);
lab_error grade30_draw_radius(const grade30_picture_data *yours, canvas *out, lab_diag *d);
lab_error grade30_draw_weights(const grade30_picture_data *yours, canvas *out, lab_diag *d);
lab_error grade30_draw_dqs(const grade30_picture_data *yours, canvas *out, lab_diag *d);
lab_error grade30_draw_normal(const grade30_picture_data *yours, canvas *out, lab_diag *d);

/* Each exercise's cases and the lab's answer on a case (grade30_cases_*.c, which the table
 * names): case i (the chapter's named ones first, then generated ones from (seed, i) alone,
 * grade30_random.h) into *c; the lab's own answer on it. */
enum { GRADE30_GENERATED = 240 }; /* generated cases an exercise */

void grade30_world_case(int i, uint64_t seed, grade30_case *c);
grade30_answer grade30_world_expected(const grade30_case *c);
void grade30_skin_case(int i, uint64_t seed, grade30_case *c);
grade30_answer grade30_skin_expected(const grade30_case *c);
void grade30_lbs_case(int i, uint64_t seed, grade30_case *c);
grade30_answer grade30_lbs_expected(const grade30_case *c);
void grade30_radius_case(int i, uint64_t seed, grade30_case *c);
grade30_answer grade30_radius_expected(const grade30_case *c);
void grade30_weights_case(int i, uint64_t seed, grade30_case *c);
grade30_answer grade30_weights_expected(const grade30_case *c);
void grade30_dqs_case(int i, uint64_t seed, grade30_case *c);
grade30_answer grade30_dqs_expected(const grade30_case *c);
void grade30_normal_case(int i, uint64_t seed, grade30_case *c);
grade30_answer grade30_normal_expected(const grade30_case *c);

#endif
