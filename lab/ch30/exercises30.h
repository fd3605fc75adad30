/* exercises30.h - the formulas of chapter 30 a student writes (lab/ch30/exercises.c) and
 * `make grade30` grades (lab/ch30/grade/). Each function is one formula of the article, in
 * the lab's conventions (src/math/linalg.h): column vectors, p' = M p, mat4_mul(A, B) = A B
 * with B acting first, radians inside.
 *
 * The shipped bodies say NOT_WRITTEN_YET(); and return a placeholder: the grader reports
 * such an exercise as "not written yet". Delete that line when you write the body. Any
 * function of src/math/ may be called (mat4_mul, mat4_mul_vec4, vec4_add, quat_dot,
 * dualquat_add, ...); the lab's own answers (skin_lbs_point, dualquat_blend,
 * mat4_linear_inverse_transpose, rig30_radius_ratio) are what the grader compares with,
 * so calling them teaches nothing. A body must compute from its arguments alone: the
 * grader calls each case twice, in two orders, and a fresh copy of every array, of exactly
 * its size, each time.
 */
#ifndef EXERCISES30_H
#define EXERCISES30_H

#include <stdbool.h>

#include "math/dualquat.h"
#include "math/linalg.h"

/* Set by a body that is not written yet; the grader clears it before each call. */
extern bool exercise30_not_written;
#define NOT_WRITTEN_YET() (exercise30_not_written = true)

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

#endif
