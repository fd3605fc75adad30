/* alternative_normals.c - a second correct answer to the sheet of normals and policies,
 * written apart from reference_normals.c in other forms (the inverse transpose as the
 * cofactor matrix over the determinant, written out; the rigid normal as a weighted sum of
 * each bone's; the policy checked in separate passes): test_grade30_make grades it correct
 * through make grade30 SHEET=normals. */
#include <math.h>
#include "exercises30.h"
/* cof(A) / det(A) of the 3x3 part: the inverse transpose */
static void inverse_transpose(const double a[3][3], double out[3][3])
{
    double det = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
                 a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            int r1 = (r + 1) % 3, r2 = (r + 2) % 3, c1 = (c + 1) % 3, c2 = (c + 2) % 3;
            out[r][c] = (a[r1][c1] * a[r2][c2] - a[r1][c2] * a[r2][c1]) / det;
        }
}
vec3 ex30_skin_normal(vec3 n, const int *joint, const double *weight, int k, const mat4 *palette,
                      ex30_normal_method method)
{
    double sum[3][3] = {{0}}, v[3] = {n.x, n.y, n.z}, out[3] = {0};
    for (int i = 0; i < k; i++) {
        double s[3][3], t[3][3];
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) s[r][c] = palette[joint[i]].m[r][c];
        if (method == EX30_NORMAL_PER_BONE)
            inverse_transpose(s, t);
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) sum[r][c] += weight[i] * (method == EX30_NORMAL_PER_BONE ? t[r][c] : s[r][c]);
    }
    if (method == EX30_NORMAL_BLENDED) {
        double t[3][3];
        inverse_transpose(sum, t);
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) sum[r][c] = t[r][c];
    }
    for (int r = 0; r < 3; r++)
        out[r] = sum[r][0] * v[0] + sum[r][1] * v[1] + sum[r][2] * v[2];
    double len = hypot(hypot(out[0], out[1]), out[2]);
    return vec3_make(out[0] / len, out[1] / len, out[2] / len);
}
ex30_policy_result ex30_apply_policy(int *joint, double *weight, int k, ex30_policy policy, int fallback_joint)
{
    for (int i = 0; i < k; i++) {
        if (isnan(weight[i]) || isinf(weight[i])) return EX30_POLICY_NOT_FINITE;
        if (weight[i] < 0) return EX30_POLICY_NEGATIVE;
    }
    double w = 0;
    for (int i = 0; i < k; i++) w += weight[i];
    switch (policy) {
    case EX30_STRICT: return fabs(w - 1) <= 1e-12 ? EX30_POLICY_KEPT : EX30_POLICY_NOT_SUMMING_TO_ONE;
    case EX30_NORMALIZE:
    case EX30_FALLBACK:
        if (!(w > 1e-6)) {
            if (policy == EX30_NORMALIZE) return EX30_POLICY_WEIGHTLESS;
            for (int i = 0; i < k; i++) weight[i] = i == 0 ? 1 : 0;
            joint[0] = fallback_joint;
            return EX30_POLICY_FELL_BACK;
        }
        if (fabs(w - 1) <= 1e-12) return EX30_POLICY_KEPT;
        for (int i = 0; i < k; i++) weight[i] = weight[i] / w;
        return EX30_POLICY_NORMALIZED;
    }
    return EX30_POLICY_KEPT;
}
