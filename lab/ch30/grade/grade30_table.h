/* grade30_table.h - what chapter 30's exercises share in its grader: the one ordered list of
 * the exercises (GRADE30_LIST: their numbers, their enum, the grader's list, the suites'
 * counts all come from it), the sheets, the signatures of the sheets' functions, the case
 * every exercise's cases are, the answers' shapes and the picture's data. Each exercise is
 * one file, exNN_name.c (its cases, the lab's answer, its call, its mistakes, its picture and
 * its grade_exercise); adding one is its file, its name on GRADE30_LIST, and one function on
 * a sheet (exercises30.h) with its reference (solutions/reference.c). */
#ifndef GRADE30_TABLE_H
#define GRADE30_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/diag.h"
#include "draw/raster.h"
#include "exercises30.h"
#include "grade/arrays.h"
#include "grade/exercise.h"
#include "grade/grader.h"
#include "math/quat.h"

/* The exercises in the order of exercises30.h: exercise x + 1 is GRADE30_<NAME> = x, defined
 * as grade30_ex_<name> in exNN_<name>.c. The one list; everything that counts or orders the
 * exercises expands it. */
#define GRADE30_LIST(X)                                                                          \
    X(WORLD_MATRIX, world_matrix) X(SKIN_MATRIX, skin_matrix) X(LBS_POINT, lbs_point)            \
    X(RING_RADIUS, ring_radius) X(CHECK_WEIGHTS, check_weights) X(DQS_BLEND, dqs_blend)          \
    X(NORMAL_MATRIX, normal_matrix) X(SKELETON_WORLD, skeleton_world) X(PALETTE, palette)        \
    X(SKIN_MESH, skin_mesh) X(DQ_FROM_RIGID, dq_from_rigid) X(DQ_NORMALIZE, dq_normalize)        \
    X(DQ_TRANSFORM, dq_transform) X(LBS_TURN, lbs_turn) X(DQS_TURN, dqs_turn)                    \
    X(SKIN_NORMAL, skin_normal) X(POLICY, policy) X(KEEP_HEAVIEST, keep_heaviest)                \
    X(UNPACK_WEIGHTS, unpack_weights) X(COTAN_ROW, cotan_row) X(HEAT_ROW, heat_row)              \
    X(SHADER, shader) X(COR_POINT, cor_point) X(CORRECTIVE, corrective)

#define GRADE30_ENUM(NAME, name) GRADE30_##NAME,
typedef enum { GRADE30_LIST(GRADE30_ENUM) GRADE30_EXERCISE_COUNT } grade30_exercise;
#undef GRADE30_ENUM
#define GRADE30_EXTERN(NAME, name) extern const grade_exercise grade30_ex_##name;
GRADE30_LIST(GRADE30_EXTERN)
#undef GRADE30_EXTERN

/* The sheets: the exercises of one page of the chapter, in one file of the student's
 * (`make grade30 SHEET=name`; every sheet when none is named). */
typedef enum {
    GRADE30_SHEET_LAB30, GRADE30_SHEET_SKELETON, GRADE30_SHEET_DQS, GRADE30_SHEET_NORMALS, GRADE30_SHEET_PALETTE,
    GRADE30_SHEET_WEIGHTS, GRADE30_SHEET_SHADER, GRADE30_SHEET_FIXES, GRADE30_SHEET_COUNT
} grade30_sheet_id;
extern const grade_sheet grade30_sheets[GRADE30_SHEET_COUNT];

/* One exercise's function, in its own signature (the member of its kind). */
typedef union {
    mat4 (*world_matrix)(mat4 parent_world, mat4 local);
    mat4 (*skin_matrix)(mat4 world, mat4 inverse_bind);
    vec3 (*lbs_point)(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette);
    double (*ring_radius_ratio)(double w, double theta);
    ex30_weights (*check_weights)(const double *weight, int k);
    dualquat (*dqs_blend)(const dualquat *q, const double *weight, int k);
    mat4 (*normal_matrix)(mat4 m);
    int (*skeleton_world)(int n, const int *parent, const mat4 *local, mat4 *world);
    void (*palette)(int count, const int *skin_joints, const mat4 *node_world, const mat4 *inverse_bind,
                    mat4 *palette);
    void (*skin_mesh)(const ex30_skin *skin, vec3 *out);
    dualquat (*dq_from_rigid)(quat rotation, vec3 translation);
    bool (*dq_normalize)(dualquat b, dualquat *out);
    vec3 (*dq_transform_point)(dualquat q, vec3 p);
    double (*turn_angle)(double w, double theta);
    vec3 (*skin_normal)(vec3 n, const int *joint, const double *weight, int k, const mat4 *palette,
                        ex30_normal_method method);
    ex30_policy_result (*apply_policy)(int *joint, double *weight, int k, ex30_policy policy, int fallback_joint);
    int (*keep_heaviest)(const int *joint, const double *weight, int k, int *out_joint, double *out_weight);
    void (*unpack_weights)(const unsigned short stored[3], double w[4]);
    void (*cotan_row)(vec3 center, const vec3 *ring, int n, bool closed, double *row);
    void (*heat_row)(double laplacian_ii, double area, double distance, int k, bool nearest, double c,
                     double *diagonal, double *rhs);
    vec3 (*cor_point)(vec3 p, vec3 centre, quat rotation, const int *joint, const double *weight, int k,
                      const mat4 *palette);
    vec3 (*corrective_point)(vec3 p, vec3 delta, double s, mat4 blend, quat rotation, bool after);
} grade30_fn;

/* The engine's function (grade_fn, exercise.h) as the member of its exercise's kind. */
static inline grade30_fn grade30_fn_of(grade_fn g)
{
    grade30_fn f;
    memcpy(&f, &g, sizeof g);
    return f;
}

enum { GRADE30_MAX_K = 8, GRADE30_MAX_PALETTE = 8, GRADE30_MAX_VERTICES = EX30_MAX_VERTICES, GRADE30_MAX_RING = 8 };
/* the engine's answer holds the largest of the chapter's: a mesh's points, a skeleton's
 * status and matrices */
_Static_assert(3 * GRADE30_MAX_VERTICES <= GRADE_MAX_VALUES && 1 + 16 * EX30_MAX_NODES <= GRADE_MAX_VALUES,
               "an answer of chapter 30 fits the engine's grade_answer");

/* One case's inputs (the fields its exercise reads) and its words, first (the engine reads
 * them there, exercise.h): this grader's struct grade_case. */
typedef struct grade_case grade30_case;
struct grade_case {
    char what[GRADE_CASE_WORDS];
    mat4 a, b;                        /* 1: parent, local; 2: world, inverse bind; 7: M */
    vec3 p;                           /* 3: the vertex */
    int k;                            /* 3, 5, 6: influences */
    int joint[GRADE30_MAX_K];
    double weight[GRADE30_MAX_K];
    int palette_count;                /* 3 */
    mat4 palette[GRADE30_MAX_PALETTE];
    double w, theta;                  /* 4 */
    dualquat q[GRADE30_MAX_K];        /* 6, 12 (q[0]), 13 (q[0]) */
    quat rotation;                    /* 11 */
    /* 8 to 10: a scene's nodes and a skin; 16, 17: method or policy and fallback joint */
    int nodes, parent[EX30_MAX_NODES];
    int joints, skin_joints[EX30_MAX_NODES];
    bool no_inverse_bind;
    int vertices;                     /* 10: the mesh, four influences a vertex */
    int method, fallback;
    unsigned short stored[3];         /* 19 */
    vec3 ring[GRADE30_MAX_RING];      /* 20: p is the centre, k the neighbours */
    bool closed;
    double laplacian_ii, area, distance, c; /* 21 */
    int ties;
    bool nearest;
    vec3 centre, delta;               /* 23, 24 (24's blend in a, its rotation in rotation) */
    double s;
    bool after;
    /* 10, 21: where a named case comes from (the chapter's cylinder, an asset) and which */
    enum { GRADE30_GENERATED_CASE = 0, GRADE30_FROM_CYLINDER, GRADE30_FROM_ASSET } source;
    int source_index;
    /* the tail (from `local` on), the large arrays: written where a case uses them, as far
     * as its counts say, and never cleared (grade30_case_clear), so that the other
     * exercises' cases do not pay for them */
    mat4 local[EX30_MAX_NODES], node_world[EX30_MAX_NODES], inverse_bind[EX30_MAX_NODES];
    vec3 position[GRADE30_MAX_VERTICES];
    int vertex_joint[4 * GRADE30_MAX_VERTICES];
    double vertex_weight[4 * GRADE30_MAX_VERTICES];
};

/* A case's fields zeroed up to its tail (the tail is the case's own to write). */
static inline void grade30_case_clear(grade30_case *c) { memset(c, 0, offsetof(grade30_case, local)); }

/* An answer: the engine's list of numbers (exercise.h) in its exercise's shape. */
typedef grade_answer grade30_answer;
static inline void grade30_answer_clear(grade30_answer *a) { grade_answer_clear(a); }
static inline void grade30_put_matrix(grade30_answer *a, mat4 m)
{
    for (int r = 0; r < 4; r++)
        for (int k = 0; k < 4; k++)
            grade_put(a, m.m[r][k]);
}
static inline void grade30_put_point(grade30_answer *a, vec3 p) { grade_put(a, p.x), grade_put(a, p.y), grade_put(a, p.z); }
static inline void grade30_put_dualquat(grade30_answer *a, dualquat q)
{
    const quat *part[2] = {&q.real, &q.dual};
    for (int i = 0; i < 2; i++)
        grade_put(a, part[i]->w), grade_put(a, part[i]->x), grade_put(a, part[i]->y), grade_put(a, part[i]->z);
}
static inline grade30_answer grade30_answer_matrix(mat4 m)
{
    grade30_answer a;
    grade30_answer_clear(&a);
    grade30_put_matrix(&a, m);
    return a;
}
static inline grade30_answer grade30_answer_point(vec3 p)
{
    grade30_answer a;
    grade30_answer_clear(&a);
    grade30_put_point(&a, p);
    return a;
}
static inline grade30_answer grade30_answer_number(double x)
{
    grade30_answer a;
    grade30_answer_clear(&a);
    grade_put(&a, x);
    return a;
}
static inline grade30_answer grade30_answer_rule(ex30_weights rule) { return grade30_answer_number(rule); }
static inline grade30_answer grade30_answer_dualquat(dualquat q)
{
    grade30_answer a;
    grade30_answer_clear(&a);
    grade30_put_dualquat(&a, q);
    return a;
}

/* What a picture shows: up to GRADE30_PICTURE_POINTS points (or values) the student's
 * code made, beside the lab's; `drawn` false when the student's code could not make them. */
enum { GRADE30_PICTURE_POINTS = 240 };
typedef struct grade_picture grade30_picture_data;
struct grade_picture {
    int count;
    bool drawn;
    vec3 yours[GRADE30_PICTURE_POINTS];
};

/* One exercise: the engine's (exercise.h). */
typedef grade_exercise grade30_entry;

/* The chapter's exercises in order, exercise x + 1 at x: GRADE30_LIST's (grade30_table.c). */
extern const grade_exercise *const grade30_exercises[GRADE30_EXERCISE_COUNT];

/* How an exercise's file writes its grade_exercise: a mistake list with its count, and what
 * every exercise of the chapter shares (its case type). */
#define GRADE30_MISTAKES(list) .mistakes = list, .mistake_count = (int)(sizeof(list) / sizeof((list)[0]))
#define GRADE30_COMMON .case_size = sizeof(grade30_case)

/* The whole chapter for the engine's grade_main (grade30_sheets.c). */
extern const grade_chapter grade30_chapter;

/* The pictures' size: the engine's. */
enum { GRADE30_PICTURE_W = GRADE_PICTURE_W, GRADE30_PICTURE_H = GRADE_PICTURE_H };

/* The generated cases an exercise (after its named ones), each from (seed, i) alone
 * (grade30_random.h). */
enum { GRADE30_GENERATED = 240 };

/* A point's influences and its palette (exercises 3, 16 and 23) through the engine's call
 * arrays (src/grade/arrays.h): exact heap copies, compared after the call; false when the
 * call is not to be made. */
static inline bool grade30_influences(grade_call *k, const grade30_case *c, const int **joint, const double **weight,
                                      const mat4 **palette)
{
    *joint = grade_input(k, "joint", "influences", c->joint, sizeof *c->joint, c->k);
    *weight = grade_input(k, "weight", "weights", c->weight, sizeof *c->weight, c->k);
    *palette = grade_input(k, "palette", "matrices of the palette", c->palette, sizeof *c->palette, c->palette_count);
    return grade_call_ready(k);
}

#endif
