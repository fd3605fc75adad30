/* grade30_table.h - what an exercise of chapter 30 is, for the grader's table
 * (grade30_table.c): which exercises there are, the signatures of their functions, and the
 * inputs a case can give them. With grade30_table.c and the mistakes it names (mistakes.c),
 * this is all of the grader an added exercise touches; the rest is the sheet
 * (exercises30.h, exercises.c) and its reference (solutions/reference.c). */
#ifndef GRADE30_TABLE_H
#define GRADE30_TABLE_H

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

#endif
