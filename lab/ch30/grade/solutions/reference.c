/* reference.c - one correct answer to lab/ch30/exercises.c, for the grader's tests
 * (test_grade30: every exercise correct) and for a student who wants to compare after
 * trying: make grade30 EXERCISES=lab/ch30/grade/solutions/reference.c exits 0. Each formula in its
 * own lines, as a student would write it. */
#include <math.h>

#include "exercises30.h"

/* G_i = G_parent L_i: the local acts first, then the parent's world. */
mat4 ex30_world_matrix(mat4 parent_world, mat4 local) { return mat4_mul(parent_world, local); }

/* C_j = G_j B_j^-1: B_j^-1 takes a bind-space point into joint j's frame, G_j out to the world. */
mat4 ex30_skin_matrix(mat4 world, mat4 inverse_bind) { return mat4_mul(world, inverse_bind); }

/* p~' = sum_j w_j C_j p~ */
vec3 ex30_lbs_point(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette)
{
    vec4 sum = {0, 0, 0, 0};
    for (int i = 0; i < k; i++)
        sum = vec4_add(sum, vec4_scale(mat4_mul_vec4(palette[joint[i]], vec4_point(p)), weight[i]));
    return vec3_make(sum.x, sum.y, sum.z);
}

/* r'/r = sqrt(1 - 4 w (1-w) sin^2(theta/2)) */
double ex30_ring_radius_ratio(double w, double theta)
{
    double s = sin(theta / 2.0);
    return sqrt(fmax(0.0, 1.0 - 4.0 * w * (1.0 - w) * s * s));
}

ex30_weights ex30_check_weights(const double *weight, int k)
{
    double sum = 0;
    for (int i = 0; i < k; i++) {
        if (!isfinite(weight[i]))
            return EX30_WEIGHTS_NOT_FINITE;
        if (weight[i] < 0.0)
            return EX30_WEIGHTS_NEGATIVE;
        sum += weight[i];
    }
    return fabs(sum - 1.0) <= 1e-12 ? EX30_WEIGHTS_VALID : EX30_WEIGHTS_NOT_SUMMING_TO_ONE;
}

dualquat ex30_dqs_blend(const dualquat *q, const double *weight, int k)
{
    int pivot = 0;
    for (int i = 1; i < k; i++)
        if (weight[i] > weight[pivot])
            pivot = i;
    dualquat sum = {{0, 0, 0, 0}, {0, 0, 0, 0}};
    for (int i = 0; i < k; i++) {
        double s = quat_dot(q[i].real, q[pivot].real) < 0.0 ? -weight[i] : weight[i];
        sum = dualquat_add(sum, dualquat_scale(q[i], s));
    }
    return sum;
}

/* N = (A^-1)^T for A = M's 3x3 part: the cofactor matrix of A divided by det A. */
mat4 ex30_normal_matrix(mat4 m)
{
    double (*a)[4] = m.m;
    mat4 n = mat4_identity();
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            int r1 = (r + 1) % 3, r2 = (r + 2) % 3, c1 = (c + 1) % 3, c2 = (c + 2) % 3;
            n.m[r][c] = a[r1][c1] * a[r2][c2] - a[r1][c2] * a[r2][c1]; /* cofactor (r, c) */
        }
    double det = a[0][0] * n.m[0][0] + a[0][1] * n.m[0][1] + a[0][2] * n.m[0][2];
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            n.m[r][c] /= det;
    return n;
}
