/* exercises30.h - the formulas of chapter 30 a student writes and `make grade30` grades
 * (lab/ch30/grade/), one sheet a page of the chapter: lab/ch30/exercises.c (exercises 1 to
 * 7, the chapter's page) and lab/ch30/sheets/ (8 to 24: the skeleton, DQS, normals and
 * policies, the packed vertex, bone heat, the GLSL shader in shader.glsl, whose interface
 * that file states, and the production fixes). `make grade30 SHEET=dqs` grades one sheet. Each function is one
 * formula of the article, in the lab's conventions (src/math/linalg.h): column vectors, p' = M p, mat4_mul(A, B) = A B
 * with B acting first, radians inside.
 *
 * The shipped bodies say NOT_WRITTEN_YET(); and return a placeholder: the grader reports
 * such an exercise as "not written yet". Delete that line when you write the body. Any
 * function of src/math/ may be called (mat4_mul, mat4_mul_vec4, vec4_add, quat_dot,
 * dualquat_add, ...); the lab's own answers (skin_lbs_point, dualquat_blend,
 * mat4_linear_inverse_transpose, rig30_radius_ratio) are what the grader compares with,
 * so calling them teaches nothing. A body must compute from its arguments alone: the
 * grader calls each case twice, in two orders, and a fresh copy of every array, of exactly
 * its size, each time; it compares every const input with the case after the call (a write
 * into one is a wrong answer). Each sheet is compiled on its own, so one that does not
 * compile never stops another's grading; M_PI and LAB_PI may be used (below).
 */
#ifndef EXERCISES30_H
#define EXERCISES30_H

#include <math.h>
#include <stdbool.h>

#include "math/dualquat.h"
#include "math/linalg.h"

/* pi: a sheet may write M_PI (C11 itself does not define it, so this header does where
 * <math.h> did not) or the lab's LAB_PI (src/math/linalg.h); they are the same double. */
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* Set by a body that is not written yet; the grader clears it before each call. */
extern bool grade_not_written;
#define NOT_WRITTEN_YET() (grade_not_written = true)

/* 1. "Hierarchy evaluation and vertex blending are two steps": a joint's world matrix from
 *    its parent's and its own local, G_i = G_parent L_i. */
mat4 ex30_world_matrix(mat4 parent_world, mat4 local);

/* 2. "Mesh coordinates and joint coordinates": the skin matrix C_j = G_j B_j^-1, given the
 *    joint's world matrix G_j and its inverse bind matrix B_j^-1. */
mat4 ex30_skin_matrix(mat4 world, mat4 inverse_bind);

/* 3. "Vertex blending": linear blend skinning of one vertex p with k influences
 *    (1 <= k <= 8), p~' = sum_i w_i C_{joint_i} p~ with p~ = (x, y, z, 1); influence i is
 *    (joint[i], weight[i]) and joint[i] indexes the palette (any order, repeats allowed).
 *    Return the (x, y, z) of the sum as it is (with valid weights its w is 1). */
vec3 ex30_lbs_point(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette);

/* 4. "The average of two rigid rotations is not rigid": the radius ratio of a ring whose
 *    child weight is w (0 <= w <= 1) under a twist of theta radians (any sign, any number of
 *    turns), r'/r = sqrt(1 - 4 w (1-w) sin^2(theta/2)). */
double ex30_ring_radius_ratio(double w, double theta);

/* 5. The weight rules: a vertex's k weights (k >= 0) are valid when each is finite and
 *    non-negative and they sum to 1 within 1e-12 (|sum - 1| <= 1e-12). Return one of
 *    these, and never change the weights: data that breaks a rule is refused, not repaired.
 *    The weights are read in order, and the first weight that breaks a rule decides: NaN or
 *    an infinity is EX30_WEIGHTS_NOT_FINITE, a weight below 0 is EX30_WEIGHTS_NEGATIVE (-0.0
 *    is not below 0). Only when every weight is finite and non-negative does the sum
 *    decide; no weights at all (k = 0) sum to 0, not 1. */
typedef enum {
    EX30_WEIGHTS_VALID = 0,
    EX30_WEIGHTS_NEGATIVE,
    EX30_WEIGHTS_NOT_SUMMING_TO_ONE,
    EX30_WEIGHTS_NOT_FINITE
} ex30_weights;
ex30_weights ex30_check_weights(const double *weight, int k);

/* 6. "Dual quaternion skinning": the blend of k unit dual quaternions (1 <= k <= 8), before
 *    normalising, sum_i s_i w_i q^_i (real and dual parts alike), where s_i = -1 when q^_i's
 *    real part points away from the pivot's (quat_dot of the real parts below 0; exactly 0
 *    keeps s_i = 1) and s_i = 1 otherwise. The pivot is the influence of largest weight,
 *    the first of equals. q^ and -q^ are the same rigid transform, and the hemisphere rule
 *    keeps the blend from going the long way round. The answer is graded up to its overall
 *    sign (q^ and -q^ again). */
dualquat ex30_dqs_blend(const dualquat *q, const double *weight, int k);

/* 7. "Normals are not points": the matrix that carries normals under M, the inverse
 *    transpose of M's 3x3 part, in a mat4 whose last row and column are those of the
 *    identity (translation none: a normal is a direction). M's 3x3 part is invertible; it
 *    may shear, scale unevenly and mirror (a negative determinant). */
mat4 ex30_normal_matrix(mat4 m);

/* ---- the skeleton (lab/ch30/sheets/skeleton.c; lab/ch30/lab30-gltf/README.md) ----------- */

enum { EX30_MAX_NODES = 16, EX30_MAX_VERTICES = 240 }; /* exercise 10's nodes and vertices, at most */

/* 8. "The hierarchy over a skeleton": the world matrices of n nodes (1 <= n <= 16) listed
 *    parents first, in one pass in order: world[i] = world[parent[i]] local[i], and
 *    world[i] = local[i] for a root (parent[i] = -1). The rule "a parent is listed before
 *    its child" is checked as the loop meets each node: return -1 when every node keeps
 *    it (-1 <= parent[i] < i), else the first node i that breaks it (its parent listed at
 *    or after it, or below -1); world's contents are then not graded. */
int ex30_skeleton_world(int n, const int *parent, const mat4 *local, mat4 *world);

/* 9. "The palette through skin.joints": a glTF skin's palette of `count` joints
 *    (1 <= count <= 16). Palette slot j is the node skin_joints[j] (an index into node_world,
 *    which holds every node of the scene, in the scene's order), and
 *    C_j = G_{skin_joints[j]} IBM_j, IBM_j = inverse_bind[j]; inverse_bind NULL (a skin
 *    without inverseBindMatrices) means every IBM_j is the identity. */
void ex30_palette(int count, const int *skin_joints, const mat4 *node_world, const mat4 *inverse_bind,
                  mat4 *palette);

/* 10. The whole loop over a skeleton and a mesh, as an engine runs it for one glTF skin:
 *     the nodes' world matrices (exercise 8), the palette (exercise 9), then every vertex v
 *     by LBS over its four influences, p~' = sum_i w_i C_{joints[4v+i]} p~, where
 *     joints[4v+i] is a JOINTS_0 value: a palette slot (an index into skin_joints), not a
 *     node. The weights sum to 1; the nodes keep the rule of exercise 8. out holds
 *     vertex_count points. Calling your exercises 8 and 9 is the way to write it. */
typedef struct {
    int node_count;                /* 1..16, parents first */
    const int *parent;             /* parent[i] < i, or -1 for a root */
    const mat4 *local;             /* L_i in this pose */
    int joint_count;               /* skin.joints' length, 1..16 */
    const int *skin_joints;        /* skin_joints[j]: the node of palette slot j */
    const mat4 *inverse_bind;      /* joint_count IBM_j, or NULL: the identity */
    int vertex_count;              /* 1..240 */
    const vec3 *position;          /* the bind positions */
    const int *joints;             /* 4 per vertex: JOINTS_0, palette slots */
    const double *weights;         /* 4 per vertex: WEIGHTS_0 */
} ex30_skin;
void ex30_skin_mesh(const ex30_skin *skin, vec3 *out);

/* ---- dual quaternions (lab/ch30/sheets/dqs.c; lab/ch30/lab30-dqs/README.md) -------------- */

/* 11. The rigid transform T(t) R(q_0) as a unit dual quaternion: real part q_0 (a unit
 *     quaternion), dual part q_e = 1/2 t q_0, with t = (0, t) a pure quaternion and the
 *     product quat_mul. */
dualquat ex30_dq_from_rigid(quat rotation, vec3 translation);

/* 12. The normalisation of a blended dual quaternion b: both parts divided by |b_0|, the
 *     length of the real part. Return false, and leave *out as it is, when |b_0| is not
 *     above 1e-9 or not finite (the blend of opposite rotations, or a NaN): a zero norm
 *     is refused, never divided by. */
bool ex30_dq_normalize(dualquat b, dualquat *out);

/* 13. Kavan's point transform by a unit dual quaternion q = (q_0, q_e): rotate p by q_0,
 *     then translate by t = 2 q_e q_0* (the vector part of that product). */
vec3 ex30_dq_transform_point(dualquat q, vec3 p);

/* 14. The LBS ring's turn angle: a ring whose child weight is w (0 <= w <= 1) under a twist
 *     of theta radians (any sign, any number of turns) turns by
 *     psi = atan2(w sin theta, (1-w) + w cos theta). Graded as an angle, up to whole turns;
 *     not graded where the ring has collapsed (radius below 1e-6 of its own: no angle). */
double ex30_lbs_turn_angle(double w, double theta);

/* 15. The DQS ring's turn angle: the same ring under DQS keeps its radius and turns by
 *     phi = 2 atan2(w sin(t/2), (1-w) + w cos(t/2)), t = theta wrapped into [-pi, pi]:
 *     the hemisphere rule flips the child's quaternion when cos(theta/2) < 0. Graded as an
 *     angle, up to whole turns; not graded at odd multiples of pi, where both hemispheres
 *     are as near. */
double ex30_dqs_turn_angle(double w, double theta);

/* ---- normals and weight policies (lab/ch30/sheets/normals.c; lab/ch30/lab30-normals/README.md) */

/* 16. "Three ways to skin a normal": the unit normal n of a vertex with k influences
 *     (1 <= k <= 8; joint[i] indexes the palette, weights valid), with S_i = palette[joint[i]]
 *     and (S)3x3 its linear part:
 *       EX30_NORMAL_RIGID     n' = normalize(sum w_i (S_i)3x3 n)
 *       EX30_NORMAL_BLENDED   L = sum w_i (S_i)3x3, n' = normalize((L^-1)^T n)
 *       EX30_NORMAL_PER_BONE  n' = normalize(sum w_i ((S_i)3x3^-1)^T n)
 *     Every L and (S_i)3x3 of a case is invertible. */
typedef enum { EX30_NORMAL_RIGID = 0, EX30_NORMAL_BLENDED, EX30_NORMAL_PER_BONE } ex30_normal_method;
vec3 ex30_skin_normal(vec3 n, const int *joint, const double *weight, int k, const mat4 *palette,
                      ex30_normal_method method);

/* 17. "Weight policies": one vertex's k weights (1 <= k <= 8) under a policy, in place.
 *     First, in order, the first weight that is not finite (EX30_POLICY_NOT_FINITE) or below
 *     0 (EX30_POLICY_NEGATIVE; -0.0 is not) refuses the vertex under every policy. Then
 *     W = the weights' sum, added in order:
 *       EX30_STRICT      |W - 1| > 1e-12 is EX30_POLICY_NOT_SUMMING_TO_ONE, else EX30_POLICY_KEPT;
 *       EX30_NORMALIZE   W <= 1e-6 is EX30_POLICY_WEIGHTLESS (refused); else |W - 1| > 1e-12
 *                        divides each weight by W (EX30_POLICY_NORMALIZED), else EX30_POLICY_KEPT;
 *       EX30_FALLBACK    as EX30_NORMALIZE, but W <= 1e-6 binds the vertex to fallback_joint:
 *                        joint[0] = fallback_joint, weight[0] = 1, the other weights 0
 *                        (EX30_POLICY_FELL_BACK).
 *     A refused vertex is left as it came: nothing is repaired behind the caller's back. */
typedef enum { EX30_STRICT = 0, EX30_NORMALIZE, EX30_FALLBACK } ex30_policy;
typedef enum {
    EX30_POLICY_KEPT = 0,
    EX30_POLICY_NORMALIZED,
    EX30_POLICY_FELL_BACK,
    EX30_POLICY_NOT_FINITE,
    EX30_POLICY_NEGATIVE,
    EX30_POLICY_NOT_SUMMING_TO_ONE,
    EX30_POLICY_WEIGHTLESS
} ex30_policy_result;
ex30_policy_result ex30_apply_policy(int *joint, double *weight, int k, ex30_policy policy, int fallback_joint);

/* ---- the packed vertex (lab/ch30/sheets/palette.c; lab/ch30/lab30-palette/README.md) ----- */

/* 18. "The packed vertex" keeps four influences: of k valid influences (1 <= k <= 8,
 *     distinct joints, weights finite, >= 0, summing to 1), keep the min(k, 4) heaviest,
 *     heaviest first, ties by the lower joint, and divide the kept weights by their sum.
 *     Writes out_joint and out_weight (4 each) and returns how many were kept. */
int ex30_keep_heaviest(const int *joint, const double *weight, int k, int *out_joint, double *out_weight);

/* 19. The implied last weight of the compressed vertex: three stored UNORM16 weights
 *     (units of 1/65535, their sum at most 65535) and the fourth implied. The four weights,
 *     w_i = stored[i] / 65535 and w_3 = (65535 - the stored sum) / 65535, the implied one
 *     computed in integers so that the four sum to exactly 1 before they are divided. */
void ex30_unpack_weights(const unsigned short stored[3], double w[4]);

/* ---- where weights come from (lab/ch30/sheets/weights.c; lab/ch30/lab30-weights/README.md) */

/* 20. "The system": the cotangent Laplacian's row of a vertex at `center` with n neighbours
 *     (3 <= n <= 8) listed in order around it: triangle t is (center, ring[t], ring[t+1]),
 *     t = 0..n-1 with ring[n] = ring[0] when `closed` (an inner vertex), t = 0..n-2 when not
 *     (a vertex of an open end). row[k] = L_ik = (cot alpha + cot beta) / 2 over the angles
 *     opposite the edge (center, ring[k]) in its one or two triangles (a boundary edge keeps
 *     its one cot alpha / 2), and row[n] = L_ii = -sum_k L_ik. */
void ex30_cotan_row(vec3 center, const vec3 *ring, int n, bool closed, double *row);

/* 21. The heat system's row i for bone j, (-L + M H) w_j = M H p_j, on the paper's model:
 *     H_ii = k c / d^2 for the k bones (k >= 1) at the nearest distance d from vertex i,
 *     p_j(i) = 1/k when bone j is one of those k (nearest true), else 0. Given L_ii (the
 *     row's diagonal, exercise 20), the vertex's area M_ii, d, k, nearest and c, write the
 *     system's diagonal A_ii = -L_ii + M_ii H_ii into *diagonal and its right-hand side
 *     b_i = M_ii H_ii p_j(i) into *rhs. */
void ex30_heat_row(double laplacian_ii, double area, double distance, int k, bool nearest, double c,
                   double *diagonal, double *rhs);

/* ---- the production fixes (lab/ch30/sheets/fixes.c; lab/ch30/lab30-fixes/README.md) ------ */

/* 23. "Centres of rotation" (Le and Hodgins 2016): a vertex p with its centre of rotation
 *     `centre` (p*), its blended unit rotation R and its k influences (1 <= k <= 8; joint[i]
 *     indexes the palette, weights valid) moves to p' = R (p - p*) + sum_i w_i C_{joint_i} p*~:
 *     the rotation turns the vertex about its centre, and the centre alone is skinned by LBS. */
vec3 ex30_cor_point(vec3 p, vec3 centre, quat rotation, const int *joint, const double *weight, int k,
                    const mat4 *palette);

/* 24. "A corrective shape": a vertex p with its delta d at the shape's weight s (any real:
 *     outside [0, 1] too), its blended matrix M = sum_i w_i C_i and its blended unit rotation R.
 *     Before skinning (a morph target, as glTF orders them): p' = M (p + s d). After skinning,
 *     in the vertex's frame: p' = M p + s R d. `after` says which. */
vec3 ex30_corrective_point(vec3 p, vec3 delta, double s, mat4 blend, quat rotation, bool after);

#endif
