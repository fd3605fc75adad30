/* exercises.c - chapter 30's formulas, for you to write. Each function below is one
 * formula of the article; its comment quotes the section and the formula, and
 * exercises30.h says what it takes and returns (and what it must return on the edges).
 * Replace NOT_WRITTEN_YET(); and the placeholder with the formula, then
 *
 *     make grade30
 *
 * builds the grader against this file and prints, per exercise, "not written yet",
 * "correct", or the first case it gets wrong: what it computed, what was expected, the
 * heading of the chapter's page that teaches it and, when one known mistake explains every
 * answer, the mistake's name. It draws each exercise beside the lab's into build/grade30/
 * (grade/README.md). To grade another file: make grade30 EXERCISES=path/to/file.c
 *
 * The lab itself never uses this file: make lab30 and out/ch30/ stay as they are.
 */
#include <math.h>

#include "exercises30.h"

/* "Hierarchy evaluation and vertex blending are two steps": G_i = G_parent L_i. */
mat4 ex30_world_matrix(mat4 parent_world, mat4 local)
{
    (void)parent_world, (void)local;
    NOT_WRITTEN_YET();
    return mat4_identity();
}

/* "Mesh coordinates and joint coordinates": C_j = G_j B_j^-1. */
mat4 ex30_skin_matrix(mat4 world, mat4 inverse_bind)
{
    (void)world, (void)inverse_bind;
    NOT_WRITTEN_YET();
    return mat4_identity();
}

/* "Vertex blending": p~' = sum_j w_j C_j p~, p~ = (x, y, z, 1). */
vec3 ex30_lbs_point(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette)
{
    (void)joint, (void)weight, (void)k, (void)palette;
    NOT_WRITTEN_YET();
    return p;
}

/* "The average of two rigid rotations is not rigid": r'/r = sqrt(1 - 4 w (1-w) sin^2(theta/2)). */
double ex30_ring_radius_ratio(double w, double theta)
{
    (void)w, (void)theta;
    NOT_WRITTEN_YET();
    return 1.0;
}

/* The weight rules: each w_j finite and >= 0, sum_j w_j = 1 within 1e-12; refuse, never
 * repair; the first weight that breaks a rule decides. */
ex30_weights ex30_check_weights(const double *weight, int k)
{
    (void)weight, (void)k;
    NOT_WRITTEN_YET();
    return EX30_WEIGHTS_VALID;
}

/* "Dual quaternion skinning": sum_i s_i w_i q^_i, s_i = -1 when q_i0 . q_pivot0 < 0. */
dualquat ex30_dqs_blend(const dualquat *q, const double *weight, int k)
{
    (void)q, (void)weight, (void)k;
    NOT_WRITTEN_YET();
    return dualquat_identity();
}

/* "Normals are not points": N = (M_3x3^-1)^T. */
mat4 ex30_normal_matrix(mat4 m)
{
    (void)m;
    NOT_WRITTEN_YET();
    return mat4_identity();
}
