/* grade30_table.h - what an exercise of chapter 30 is, for the grader's table
 * (grade30_table.c): which exercises there are, the signatures of their functions, and the
 * inputs a case can give them. With grade30_table.c and the mistakes it names (mistakes.c),
 * this is all of the grader an added exercise touches; the rest is the sheet
 * (exercises30.h, exercises.c) and its reference (solutions/reference.c). */
#ifndef GRADE30_TABLE_H
#define GRADE30_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/diag.h"
#include "draw/raster.h"
#include "exercises30.h"
#include "grade/exercise.h"
#include "grade/grader.h"
#include "math/quat.h"

/* The exercises in the order of exercises30.h. */
typedef enum {
    GRADE30_WORLD_MATRIX, GRADE30_SKIN_MATRIX, GRADE30_LBS_POINT, GRADE30_RING_RADIUS,
    GRADE30_CHECK_WEIGHTS, GRADE30_DQS_BLEND, GRADE30_NORMAL_MATRIX,
    GRADE30_SKELETON_WORLD, GRADE30_PALETTE, GRADE30_SKIN_MESH,
    GRADE30_DQ_FROM_RIGID, GRADE30_DQ_NORMALIZE, GRADE30_DQ_TRANSFORM, GRADE30_LBS_TURN, GRADE30_DQS_TURN,
    GRADE30_SKIN_NORMAL, GRADE30_POLICY,
    GRADE30_KEEP_HEAVIEST, GRADE30_UNPACK_WEIGHTS,
    GRADE30_COTAN_ROW, GRADE30_HEAT_ROW,
    GRADE30_SHADER,
    GRADE30_COR_POINT, GRADE30_CORRECTIVE,
    GRADE30_EXERCISE_COUNT
} grade30_exercise;

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

enum { GRADE30_MAX_K = 8, GRADE30_MAX_PALETTE = 8, GRADE30_MAX_VERTICES = 240, GRADE30_MAX_RING = 8 };
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

/* The sheet exercise x is on. */
grade30_sheet_id grade30_sheet_of(int x);

/* The chapter's exercises in order, exercise x + 1 at x (grade30_table.c): the chapter's
 * own sheet's entries there, the other sheets' in grade30_table_sheets.c. */
extern const grade_exercise *const grade30_exercises[GRADE30_EXERCISE_COUNT];
extern const grade30_entry grade30_sheet_entries[GRADE30_EXERCISE_COUNT - GRADE30_SKELETON_WORLD];

/* How both halves of the table write an entry: a mistake list with its count, and what
 * every exercise of the chapter shares (its case type and its call). */
#define GRADE30_MISTAKES(list) .mistakes = list, .mistake_count = (int)(sizeof(list) / sizeof((list)[0]))
#define GRADE30_COMMON .case_size = sizeof(grade30_case), .call = grade30_call

/* The call of an exercise's function f on case c as a student's function is called
 * (grade30_call.c, every entry's `call`): its arrays through the engine's (exact heap
 * copies, compared after the call; exact outputs), its answer in the exercise's shape. */
void grade30_call(const grade_exercise *x, grade_fn f, const grade30_case *c, grade_call *k, grade_answer *a);

/* The whole chapter for the engine's grade_main (grade30_sheets.c). */
extern const grade_chapter grade30_chapter;

/* The pictures the entries name (grade30_figure.c): grade30_points_X runs in the grading child and makes the points the
 * picture needs through the student's function; grade30_draw_X draws them beside the lab's
 * in the parent, on a rig where the exercise's mistakes show:
 *   1, 2  the hand control's Ty(1) Rz(90), in its plane;
 *   3     the chapter's cylinder at a 120 degree twist, the lab's palette, your blend;
 *   4     the ring radius against theta for w = 1/2 and 1/4, yours beside the closed form;
 *   5     weight sets of every rule, your verdict beside the rules';
 *   6     the middle ring of a twist by -q^ and a move, blended by yours then normalised;
 *   7     normals on a sheared, unevenly scaled plane beside the true normal. */
enum { GRADE30_PICTURE_W = GRADE_PICTURE_W, GRADE30_PICTURE_H = GRADE_PICTURE_H };

void grade30_points_world(grade_fn f, const grade30_case *failing, grade30_picture_data *out);
void grade30_points_skin(grade_fn f, const grade30_case *failing, grade30_picture_data *out);
void grade30_points_lbs(grade_fn f, const grade30_case *failing, grade30_picture_data *out);
void grade30_points_radius(grade_fn f, const grade30_case *failing, grade30_picture_data *out);
void grade30_points_weights(grade_fn f, const grade30_case *failing, grade30_picture_data *out);
void grade30_points_dqs(grade_fn f, const grade30_case *failing, grade30_picture_data *out);
void grade30_points_normal(grade_fn f, const grade30_case *failing, grade30_picture_data *out);

lab_error grade30_draw_world(const grade30_picture_data *yours, canvas *out, lab_diag *d);
lab_error grade30_draw_skin(const grade30_picture_data *yours, canvas *out, lab_diag *d);
lab_error grade30_draw_lbs(const grade30_picture_data *yours, canvas *out, lab_diag *d);
lab_error grade30_draw_radius(const grade30_picture_data *yours, canvas *out, lab_diag *d);
lab_error grade30_draw_weights(const grade30_picture_data *yours, canvas *out, lab_diag *d);
lab_error grade30_draw_dqs(const grade30_picture_data *yours, canvas *out, lab_diag *d);
lab_error grade30_draw_normal(const grade30_picture_data *yours, canvas *out, lab_diag *d);
/* the sheets' (grade30_figure_sheets.c, _weights.c, _heat.c):
 *   8     a branching skeleton's joints;  9  a skin of three nodes, skin.joints {2, 1};
 *   10    the cylinder at 120 degrees skinned by your whole loop;
 *   11-13 exercise 6's ring through your dual quaternions, normalisation, point transform;
 *   14-15 the turn angles against theta; 16 a ring's normals under a light, each method;
 *   17    weight sets under each policy; 18, 19 weights as bars; 20 a Laplacian row;
 *   21    the cylinder's heat weights solved from your rows;
 *   23, 24 the twist's middle ring at 180 degrees by centres of rotation and by a
 *         corrective shape after skinning (grade30_figure_fixes.c) */
void grade30_points_cor(grade_fn f, const grade30_case *failing, grade30_picture_data *out);
void grade30_points_corrective(grade_fn f, const grade30_case *failing, grade30_picture_data *out);
lab_error grade30_draw_cor(const grade30_picture_data *yours, canvas *out, lab_diag *d);
lab_error grade30_draw_corrective(const grade30_picture_data *yours, canvas *out, lab_diag *d);
void grade30_points_skeleton(grade_fn f, const grade30_case *failing, grade30_picture_data *out);
void grade30_points_palette(grade_fn f, const grade30_case *failing, grade30_picture_data *out);
void grade30_points_mesh(grade_fn f, const grade30_case *failing, grade30_picture_data *out);
void grade30_points_dq_rigid(grade_fn f, const grade30_case *failing, grade30_picture_data *out);
void grade30_points_dq_normalize(grade_fn f, const grade30_case *failing, grade30_picture_data *out);
void grade30_points_dq_transform(grade_fn f, const grade30_case *failing, grade30_picture_data *out);
void grade30_points_lbs_turn(grade_fn f, const grade30_case *failing, grade30_picture_data *out);
void grade30_points_dqs_turn(grade_fn f, const grade30_case *failing, grade30_picture_data *out);
void grade30_points_skin_normal(grade_fn f, const grade30_case *failing, grade30_picture_data *out);
void grade30_points_policy(grade_fn f, const grade30_case *failing, grade30_picture_data *out);
void grade30_points_heaviest(grade_fn f, const grade30_case *failing, grade30_picture_data *out);
void grade30_points_unpack(grade_fn f, const grade30_case *failing, grade30_picture_data *out);
void grade30_points_cotan(grade_fn f, const grade30_case *failing, grade30_picture_data *out);
void grade30_points_heat_row(grade_fn f, const grade30_case *failing, grade30_picture_data *out);
lab_error grade30_draw_skeleton(const grade30_picture_data *yours, canvas *out, lab_diag *d);
lab_error grade30_draw_palette(const grade30_picture_data *yours, canvas *out, lab_diag *d);
lab_error grade30_draw_mesh(const grade30_picture_data *yours, canvas *out, lab_diag *d);
lab_error grade30_draw_dq_rigid(const grade30_picture_data *yours, canvas *out, lab_diag *d);
lab_error grade30_draw_dq_normalize(const grade30_picture_data *yours, canvas *out, lab_diag *d);
lab_error grade30_draw_dq_transform(const grade30_picture_data *yours, canvas *out, lab_diag *d);
lab_error grade30_draw_lbs_turn(const grade30_picture_data *yours, canvas *out, lab_diag *d);
lab_error grade30_draw_dqs_turn(const grade30_picture_data *yours, canvas *out, lab_diag *d);
lab_error grade30_draw_skin_normal(const grade30_picture_data *yours, canvas *out, lab_diag *d);
lab_error grade30_draw_policy(const grade30_picture_data *yours, canvas *out, lab_diag *d);
lab_error grade30_draw_heaviest(const grade30_picture_data *yours, canvas *out, lab_diag *d);
lab_error grade30_draw_unpack(const grade30_picture_data *yours, canvas *out, lab_diag *d);
lab_error grade30_draw_cotan(const grade30_picture_data *yours, canvas *out, lab_diag *d);
lab_error grade30_draw_heat_row(const grade30_picture_data *yours, canvas *out, lab_diag *d);

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
/* the sheets (grade30_cases_skeleton.c with _scenes.c, _dqs.c, _weights.c, _heat.c) */
void grade30_skeleton_case(int i, uint64_t seed, grade30_case *c);
grade30_answer grade30_skeleton_expected(const grade30_case *c);
void grade30_palette_case(int i, uint64_t seed, grade30_case *c);
grade30_answer grade30_palette_expected(const grade30_case *c);
void grade30_skin_mesh_case(int i, uint64_t seed, grade30_case *c);
grade30_answer grade30_skin_mesh_expected(const grade30_case *c);
/* exercise 10's named scenes (grade30_cases_scenes.c): how many, scene i into *c, and the
 * lab's own path on one (c->vertices positions into out) */
int grade30_scene_cases(void);
void grade30_scene_case(int i, grade30_case *c);
void grade30_scene_answer(const grade30_case *c, vec3 *out);
void grade30_dq_rigid_case(int i, uint64_t seed, grade30_case *c);
grade30_answer grade30_dq_rigid_expected(const grade30_case *c);
void grade30_dq_normalize_case(int i, uint64_t seed, grade30_case *c);
grade30_answer grade30_dq_normalize_expected(const grade30_case *c);
void grade30_dq_transform_case(int i, uint64_t seed, grade30_case *c);
grade30_answer grade30_dq_transform_expected(const grade30_case *c);
void grade30_lbs_turn_case(int i, uint64_t seed, grade30_case *c);
grade30_answer grade30_lbs_turn_expected(const grade30_case *c);
void grade30_dqs_turn_case(int i, uint64_t seed, grade30_case *c);
grade30_answer grade30_dqs_turn_expected(const grade30_case *c);
void grade30_normal_skin_case(int i, uint64_t seed, grade30_case *c);
grade30_answer grade30_normal_skin_expected(const grade30_case *c);
void grade30_policy_case(int i, uint64_t seed, grade30_case *c);
grade30_answer grade30_policy_expected(const grade30_case *c);
void grade30_heaviest_case(int i, uint64_t seed, grade30_case *c);
grade30_answer grade30_heaviest_expected(const grade30_case *c);
void grade30_unpack_case(int i, uint64_t seed, grade30_case *c);
grade30_answer grade30_unpack_expected(const grade30_case *c);
void grade30_cotan_case(int i, uint64_t seed, grade30_case *c);
grade30_answer grade30_cotan_expected(const grade30_case *c);
void grade30_heat_row_case(int i, uint64_t seed, grade30_case *c);
grade30_answer grade30_heat_row_expected(const grade30_case *c);
void grade30_cor_case(int i, uint64_t seed, grade30_case *c);
grade30_answer grade30_cor_expected(const grade30_case *c);
void grade30_corrective_case(int i, uint64_t seed, grade30_case *c);
grade30_answer grade30_corrective_expected(const grade30_case *c);
/* what value i of an answer is, in words (grade30_entry.value_name) */
void grade30_matrices_value_name(const grade30_case *c, int i, char *out, size_t size);
void grade30_skeleton_value_name(const grade30_case *c, int i, char *out, size_t size);
void grade30_skin_mesh_value_name(const grade30_case *c, int i, char *out, size_t size);
void grade30_dq_normalize_value_name(const grade30_case *c, int i, char *out, size_t size);
void grade30_policy_value_name(const grade30_case *c, int i, char *out, size_t size);
void grade30_heaviest_value_name(const grade30_case *c, int i, char *out, size_t size);
void grade30_cotan_value_name(const grade30_case *c, int i, char *out, size_t size);
void grade30_heat_row_value_name(const grade30_case *c, int i, char *out, size_t size);

/* The chapter's cylinder's heat system under the paper's model (the bend's two bones, c = 1):
 * what exercise 21's named cases and its picture take (grade30_cases_heat.c). */
enum { GRADE30_CYLINDER_VERTICES = 216, GRADE30_HEAT_OFF = 216 * 16 }; /* L's triplets off the diagonal: 2,304 */
typedef struct {
    double laplacian[GRADE30_CYLINDER_VERTICES], area[GRADE30_CYLINDER_VERTICES], heat[GRADE30_CYLINDER_VERTICES];
    double p[2 * GRADE30_CYLINDER_VERTICES], z[GRADE30_CYLINDER_VERTICES], distance[GRADE30_CYLINDER_VERTICES];
    int ties[GRADE30_CYLINDER_VERTICES];
    int off_count, off_row[GRADE30_HEAT_OFF], off_col[GRADE30_HEAT_OFF]; /* L's entries off the diagonal */
    double off_value[GRADE30_HEAT_OFF];
} grade30_heat_system;
const grade30_heat_system *grade30_heat_cylinder(void); /* heat: H_ii */

#endif
