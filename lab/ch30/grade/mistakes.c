/* mistakes.c - the known mistakes of chapter 30's exercises (mistakes.h), each written
 * once, as a student would write it: where several mistakes slip in one formula, the
 * formula is written once with the slip as a parameter. */
#include <math.h>
#include <stdbool.h>

#include "mistakes.h"

/* ---- 1 -------------------------------------------------------------------------------- */
mat4 mistake_l_g(mat4 parent_world, mat4 local) { return mat4_mul(local, parent_world); }
mat4 mistake_local_alone(mat4 parent_world, mat4 local)
{
    (void)parent_world;
    return local;
}
mat4 mistake_parent_alone(mat4 parent_world, mat4 local)
{
    (void)local;
    return parent_world;
}
/* the rotations multiplied, the translations summed */
mat4 mistake_translations_added(mat4 parent_world, mat4 local)
{
    mat4 g = mat4_mul(mat4_linear_part(parent_world), mat4_linear_part(local));
    for (int r = 0; r < 3; r++)
        g.m[r][3] = parent_world.m[r][3] + local.m[r][3];
    return g;
}

/* ---- 2 -------------------------------------------------------------------------------- */
mat4 mistake_binv_g(mat4 world, mat4 inverse_bind) { return mat4_mul(inverse_bind, world); }
mat4 mistake_no_inverse_bind(mat4 world, mat4 inverse_bind)
{
    (void)inverse_bind;
    return world;
}
/* B^-1 inverted again: (A^-1, -A^-1 t) with A^-1 the transpose of the inverse transpose */
mat4 mistake_bind_for_inverse(mat4 world, mat4 inverse_bind)
{
    mat4 it, b;
    if (mat4_linear_inverse_transpose(inverse_bind, &it, "mistake", NULL) != LAB_OK)
        return world;
    b = mat4_transpose(it);
    vec3 t = mat4_transform_direction(b, vec3_make(inverse_bind.m[0][3], inverse_bind.m[1][3], inverse_bind.m[2][3]));
    b.m[0][3] = -t.x, b.m[1][3] = -t.y, b.m[2][3] = -t.z;
    return mat4_mul(world, b);
}
mat4 mistake_inverse_bind_linear_only(mat4 world, mat4 inverse_bind)
{
    return mat4_mul(world, mat4_linear_part(inverse_bind));
}

/* ---- 3 -------------------------------------------------------------------------------- */
/* The sum as a student wrote it, with one thing changed as `how` says. */
typedef enum { WEIGHT_ONE, WEIGHT_SQUARED, WEIGHT_REVERSED, SLOT_BY_POSITION, LAST_DROPPED, AS_DIRECTION, DIVIDED } lbs_slip;
static vec3 lbs(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette, lbs_slip how)
{
    vec4 sum = {0, 0, 0, 0}, point = vec4_point(p);
    if (how == AS_DIRECTION)
        point.w = 0;
    for (int i = 0; i < (how == LAST_DROPPED ? k - 1 : k); i++) {
        double w = how == WEIGHT_ONE ? 1 : how == WEIGHT_SQUARED ? weight[i] * weight[i]
                 : how == WEIGHT_REVERSED ? weight[k - 1 - i] : weight[i];
        sum = vec4_add(sum, vec4_scale(mat4_mul_vec4(palette[how == SLOT_BY_POSITION ? i : joint[i]], point), w));
    }
    return how == DIVIDED ? vec3_make(sum.x / sum.w, sum.y / sum.w, sum.z / sum.w) : vec3_make(sum.x, sum.y, sum.z);
}
vec3 mistake_weights_not_applied(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette)
{
    return lbs(p, joint, weight, k, palette, WEIGHT_ONE);
}
vec3 mistake_weights_twice(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette)
{
    return lbs(p, joint, weight, k, palette, WEIGHT_SQUARED);
}
vec3 mistake_divides_by_w(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette)
{
    return lbs(p, joint, weight, k, palette, DIVIDED);
}
vec3 mistake_weights_swapped(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette)
{
    return lbs(p, joint, weight, k, palette, WEIGHT_REVERSED);
}
vec3 mistake_palette_by_position(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette)
{
    return lbs(p, joint, weight, k, palette, SLOT_BY_POSITION);
}
vec3 mistake_last_influence_dropped(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette)
{
    return lbs(p, joint, weight, k, palette, LAST_DROPPED);
}
vec3 mistake_point_as_direction(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette)
{
    return lbs(p, joint, weight, k, palette, AS_DIRECTION);
}

/* ---- 4 -------------------------------------------------------------------------------- */
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
double mistake_ratio_squared(double w, double theta)
{
    double s = sin(theta / 2);
    return fmax(0, 1 - 4 * w * (1 - w) * s * s);
}
double mistake_middle_ring_form(double w, double theta)
{
    (void)w;
    return fabs(cos(theta / 2));
}
double mistake_without_four(double w, double theta)
{
    double s = sin(theta / 2);
    return sqrt(fmax(0, 1 - w * (1 - w) * s * s));
}

/* ---- 5 -------------------------------------------------------------------------------- */
/* The rules as a student wrote them, with one slip. */
typedef enum { REPAIRS, NO_SIGN_RULE, NO_FINITE_RULE, ONE_SIDED, EXACT_SUM, SUM_FIRST, SIGNBIT, NONE_VALID } rule_slip;
static ex30_weights rules(const double *weight, int k, rule_slip slip)
{
    double sum = 0;
    for (int i = 0; i < k; i++)
        sum += weight[i];
    bool sum_ok = slip == ONE_SIDED ? sum - 1 <= 1e-12 : slip == EXACT_SUM ? sum == 1 : fabs(sum - 1) <= 1e-12;
    if (slip == NONE_VALID && k == 0)
        return EX30_WEIGHTS_VALID;
    if (slip == SUM_FIRST && isfinite(sum) && !sum_ok)
        return EX30_WEIGHTS_NOT_SUMMING_TO_ONE;
    for (int i = 0; i < k; i++) {
        if (slip != NO_FINITE_RULE && !isfinite(weight[i]))
            return EX30_WEIGHTS_NOT_FINITE;
        if (slip != NO_SIGN_RULE && (slip == SIGNBIT ? signbit(weight[i]) : weight[i] < 0))
            return EX30_WEIGHTS_NEGATIVE;
    }
    if (slip == REPAIRS && sum > 0) { /* divides by the sum instead of refusing it */
        double *w = (double *)weight;
        for (int i = 0; i < k; i++)
            w[i] /= sum;
        return EX30_WEIGHTS_VALID;
    }
    return sum_ok ? EX30_WEIGHTS_VALID : EX30_WEIGHTS_NOT_SUMMING_TO_ONE;
}
ex30_weights mistake_normalises(const double *weight, int k) { return rules(weight, k, REPAIRS); }
ex30_weights mistake_no_sign_rule(const double *weight, int k) { return rules(weight, k, NO_SIGN_RULE); }
ex30_weights mistake_no_finite_rule(const double *weight, int k) { return rules(weight, k, NO_FINITE_RULE); }
ex30_weights mistake_one_sided_tolerance(const double *weight, int k) { return rules(weight, k, ONE_SIDED); }
ex30_weights mistake_exact_sum(const double *weight, int k) { return rules(weight, k, EXACT_SUM); }
ex30_weights mistake_sum_first(const double *weight, int k) { return rules(weight, k, SUM_FIRST); }
ex30_weights mistake_negative_zero(const double *weight, int k) { return rules(weight, k, SIGNBIT); }
ex30_weights mistake_none_valid(const double *weight, int k) { return rules(weight, k, NONE_VALID); }

/* ---- 6 -------------------------------------------------------------------------------- */
static int heaviest(const double *weight, int k, bool last_of_equals)
{
    int pivot = 0;
    for (int i = 1; i < k; i++)
        if (weight[i] > weight[pivot] || (last_of_equals && weight[i] == weight[pivot]))
            pivot = i;
    return pivot;
}
/* the blend with s_i = -1 where side(i) says so, and the parts it keeps */
typedef enum { BY_REAL_DOT, BY_REAL_DOT_OR_ZERO, BY_W, BY_DUAL_DOT, NONE } side_rule;
static dualquat blend(const dualquat *q, const double *weight, int k, int pivot, side_rule rule, bool flip_dual,
                      bool keep_dual)
{
    dualquat sum = {{0, 0, 0, 0}, {0, 0, 0, 0}};
    for (int i = 0; i < k; i++) {
        bool away = rule == BY_REAL_DOT           ? quat_dot(q[i].real, q[pivot].real) < 0
                    : rule == BY_REAL_DOT_OR_ZERO ? quat_dot(q[i].real, q[pivot].real) <= 0
                    : rule == BY_W                ? q[i].real.w * q[pivot].real.w < 0
                    : rule == BY_DUAL_DOT ? quat_dot(q[i].dual, q[pivot].dual) < 0
                                          : false;
        dualquat t = q[i];
        if (away) {
            t.real = (quat){-t.real.w, -t.real.x, -t.real.y, -t.real.z};
            if (flip_dual)
                t.dual = (quat){-t.dual.w, -t.dual.x, -t.dual.y, -t.dual.z};
        }
        if (!keep_dual)
            t.dual = (quat){0, 0, 0, 0};
        sum = dualquat_add(sum, dualquat_scale(t, weight[i]));
    }
    return sum;
}
dualquat mistake_no_hemisphere(const dualquat *q, const double *weight, int k)
{
    return blend(q, weight, k, 0, NONE, true, true);
}
dualquat mistake_flip_against_first(const dualquat *q, const double *weight, int k)
{
    return blend(q, weight, k, 0, BY_REAL_DOT, true, true);
}
dualquat mistake_pivot_last_of_equals(const dualquat *q, const double *weight, int k)
{
    return blend(q, weight, k, heaviest(weight, k, true), BY_REAL_DOT, true, true);
}
dualquat mistake_hemisphere_by_w(const dualquat *q, const double *weight, int k)
{
    return blend(q, weight, k, heaviest(weight, k, false), BY_W, true, true);
}
dualquat mistake_hemisphere_by_dual(const dualquat *q, const double *weight, int k)
{
    return blend(q, weight, k, heaviest(weight, k, false), BY_DUAL_DOT, true, true);
}
dualquat mistake_flip_real_only(const dualquat *q, const double *weight, int k)
{
    return blend(q, weight, k, heaviest(weight, k, false), BY_REAL_DOT, false, true);
}
dualquat mistake_no_dual_part(const dualquat *q, const double *weight, int k)
{
    return blend(q, weight, k, heaviest(weight, k, false), BY_REAL_DOT, true, false);
}
dualquat mistake_normalised_already(const dualquat *q, const double *weight, int k)
{
    dualquat sum = blend(q, weight, k, heaviest(weight, k, false), BY_REAL_DOT, true, true);
    double n = quat_norm(sum.real);
    return n > 0 ? dualquat_scale(sum, 1 / n) : sum;
}

dualquat mistake_flip_at_zero(const dualquat *q, const double *weight, int k)
{
    return blend(q, weight, k, heaviest(weight, k, false), BY_REAL_DOT_OR_ZERO, true, true);
}

/* ---- 7 -------------------------------------------------------------------------------- */
mat4 mistake_transpose(mat4 m) { return mat4_transpose(mat4_linear_part(m)); }
mat4 mistake_inverse_only(mat4 m)
{
    mat4 it;
    return mat4_linear_inverse_transpose(m, &it, "mistake", NULL) == LAB_OK ? mat4_transpose(it) : m;
}
mat4 mistake_m_itself(mat4 m) { return m; }
mat4 mistake_linear_part(mat4 m) { return mat4_linear_part(m); }
mat4 mistake_cofactor_only(mat4 m)
{
    mat4 it;
    if (mat4_linear_inverse_transpose(m, &it, "mistake", NULL) != LAB_OK)
        return m;
    double det = mat4_linear_det(m);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            it.m[r][c] *= det;
    return it;
}
mat4 mistake_translation_kept(mat4 m)
{
    mat4 it;
    if (mat4_linear_inverse_transpose(m, &it, "mistake", NULL) != LAB_OK)
        return m;
    for (int r = 0; r < 3; r++)
        it.m[r][3] = m.m[r][3];
    return it;
}
