/* reference_normals.c - one correct answer to the sheet of normals and policies (lab/ch30/sheets/normals.c, exercises 16 and 17), for the grader's
 * tests and for a student who wants to compare after trying:
 * make grade30 SHEET=normals EXERCISES=lab/ch30/grade/solutions/reference_normals.c exits 0. Each
 * formula in its own lines, as a student would write it. */
#include <math.h>
#include <stdbool.h>

#include "exercises30.h"
#include "math/quat.h"

/* 16: the three ways */
static mat4 inverse_transpose(mat4 a)
{
    mat4 out = mat4_identity();
    (void)mat4_linear_inverse_transpose(a, &out, "normal", NULL);
    return out;
}
vec3 ex30_skin_normal(vec3 n, const int *joint, const double *weight, int k, const mat4 *palette,
                      ex30_normal_method method)
{
    mat4 sum = mat4_scale_by(mat4_identity(), 0);
    for (int i = 0; i < k; i++) {
        mat4 s = palette[joint[i]];
        sum = mat4_add(sum, mat4_scale_by(method == EX30_NORMAL_PER_BONE ? inverse_transpose(s) : s, weight[i]));
    }
    if (method == EX30_NORMAL_BLENDED)
        sum = inverse_transpose(sum);
    return vec3_normalize(mat4_transform_direction(sum, n));
}

/* 17: refuse what breaks a rule, then the policy on the sum */
ex30_policy_result ex30_apply_policy(int *joint, double *weight, int k, ex30_policy policy, int fallback_joint)
{
    double sum = 0;
    for (int i = 0; i < k; i++) {
        if (!isfinite(weight[i]))
            return EX30_POLICY_NOT_FINITE;
        if (weight[i] < 0)
            return EX30_POLICY_NEGATIVE;
        sum += weight[i];
    }
    bool off = fabs(sum - 1) > 1e-12;
    if (policy == EX30_STRICT)
        return off ? EX30_POLICY_NOT_SUMMING_TO_ONE : EX30_POLICY_KEPT;
    if (sum <= 1e-6) {
        if (policy == EX30_NORMALIZE)
            return EX30_POLICY_WEIGHTLESS;
        joint[0] = fallback_joint, weight[0] = 1;
        for (int i = 1; i < k; i++)
            weight[i] = 0;
        return EX30_POLICY_FELL_BACK;
    }
    if (!off)
        return EX30_POLICY_KEPT;
    for (int i = 0; i < k; i++)
        weight[i] /= sum;
    return EX30_POLICY_NORMALIZED;
}
