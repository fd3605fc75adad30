/* mistakes.c - the known mistakes of chapter 30's exercises, each written as a student
 * would write it (test_grade30 puts one in place of the reference's function and expects
 * the grader to name it). */
#include <math.h>

#include "exercises30.h"

/* 1 */ mat4 mistake_l_g(mat4 parent_world, mat4 local) { return mat4_mul(local, parent_world); }

/* 2 */ mat4 mistake_binv_g(mat4 world, mat4 inverse_bind) { return mat4_mul(inverse_bind, world); }
mat4 mistake_no_inverse_bind(mat4 world, mat4 inverse_bind)
{
    (void)inverse_bind;
    return world;
}

/* 3: the sum with each weight changed as `how` says */
static vec3 lbs(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette, int how)
{
    vec4 sum = {0, 0, 0, 0};
    for (int i = 0; i < k; i++) {
        double w = how == 0 ? 1.0 : how == 1 ? weight[i] * weight[i] : weight[k - 1 - i];
        sum = vec4_add(sum, vec4_scale(mat4_mul_vec4(palette[joint[i]], vec4_point(p)), w));
    }
    return vec3_make(sum.x, sum.y, sum.z);
}
vec3 mistake_weights_not_applied(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette)
{
    return lbs(p, joint, weight, k, palette, 0);
}
vec3 mistake_weights_twice(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette)
{
    return lbs(p, joint, weight, k, palette, 1);
}
vec3 mistake_weights_swapped(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette)
{
    return lbs(p, joint, weight, k, palette, 2);
}
vec3 mistake_divides_by_w(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette)
{
    vec4 sum = {0, 0, 0, 0};
    for (int i = 0; i < k; i++)
        sum = vec4_add(sum, vec4_scale(mat4_mul_vec4(palette[joint[i]], vec4_point(p)), weight[i]));
    return vec3_make(sum.x / sum.w, sum.y / sum.w, sum.z / sum.w);
}

/* 4 */
double mistake_sin_not_squared(double w, double theta) { return sqrt(fmax(0, 1 - 4 * w * (1 - w) * sin(theta / 2))); }
double mistake_full_angle(double w, double theta)
{
    double s = sin(theta);
    return sqrt(fmax(0, 1 - 4 * w * (1 - w) * s * s));
}
double mistake_degrees(double w, double theta)
{
    double s = sin(theta * acos(-1.0) / 180.0 / 2);
    return sqrt(fmax(0, 1 - 4 * w * (1 - w) * s * s));
}

/* 5: repairs the sum instead of refusing it */
ex30_weights mistake_normalises(const double *weight, int k)
{
    double *w = (double *)weight, sum = 0;
    for (int i = 0; i < k; i++) {
        if (w[i] < 0)
            return EX30_WEIGHTS_NEGATIVE;
        sum += w[i];
    }
    for (int i = 0; i < k && sum > 0; i++)
        w[i] /= sum;
    return EX30_WEIGHTS_VALID;
}

/* 6: no hemisphere rule */
dualquat mistake_no_hemisphere(const dualquat *q, const double *weight, int k)
{
    dualquat sum = {{0, 0, 0, 0}, {0, 0, 0, 0}};
    for (int i = 0; i < k; i++)
        sum = dualquat_add(sum, dualquat_scale(q[i], weight[i]));
    return sum;
}

/* 7: the transpose of the 3x3 part */
mat4 mistake_transpose(mat4 m)
{
    mat4 t = mat4_identity();
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            t.m[r][c] = m.m[c][r];
    return t;
}
