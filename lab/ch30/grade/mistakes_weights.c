/* mistakes_weights.c - the known mistakes of the sheets of normals and policies, the
 * packed vertex and bone heat (exercises 16 to 21, mistakes.h), each written once, as a
 * student would write it; where several slip in one formula, the formula is written once
 * with the slip as a parameter. */
#include <math.h>
#include <stdbool.h>

#include "mistakes.h"

/* ---- 16: a normal skinned three ways ------------------------------------------------------ */
typedef enum { NORMAL_RIGHT, NORMAL_NOT_RENORMALISED, NORMAL_NO_INVERSE_TRANSPOSE, NORMAL_PER_BONE_AS_BLENDED,
               NORMAL_INVERSE_ONLY, NORMAL_AS_POINT } normal_slip;

static mat4 inverse_transpose(mat4 a, bool transposed)
{
    mat4 out = mat4_identity();
    (void)mat4_linear_inverse_transpose(a, &out, "normal", NULL);
    return transposed ? out : mat4_transpose(out);
}

static vec3 skin_normal(normal_slip slip, vec3 n, const int *joint, const double *weight, int k, const mat4 *palette,
                        ex30_normal_method method)
{
    bool per_bone = method == EX30_NORMAL_PER_BONE && slip != NORMAL_PER_BONE_AS_BLENDED;
    bool blended = method == EX30_NORMAL_BLENDED || (method == EX30_NORMAL_PER_BONE && slip == NORMAL_PER_BONE_AS_BLENDED);
    bool inverts = slip != NORMAL_NO_INVERSE_TRANSPOSE, transposed = slip != NORMAL_INVERSE_ONLY;
    mat4 sum = mat4_scale_by(mat4_identity(), 0);
    for (int i = 0; i < k; i++) {
        mat4 s = palette[joint[i]];
        sum = mat4_add(sum, mat4_scale_by(per_bone && inverts ? inverse_transpose(s, transposed) : s, weight[i]));
    }
    if (blended && inverts)
        sum = inverse_transpose(sum, transposed);
    vec3 out = slip == NORMAL_AS_POINT ? mat4_transform_point(sum, n) : mat4_transform_direction(sum, n);
    return slip == NORMAL_NOT_RENORMALISED ? out : vec3_normalize(out);
}
#define NORMAL_MISTAKE(name, slip)                                                                                   \
    vec3 name(vec3 n, const int *joint, const double *weight, int k, const mat4 *palette, ex30_normal_method method) \
    {                                                                                                                \
        return skin_normal(slip, n, joint, weight, k, palette, method);                                             \
    }
NORMAL_MISTAKE(mistake_normal_not_renormalised, NORMAL_NOT_RENORMALISED)
NORMAL_MISTAKE(mistake_normal_no_inverse_transpose, NORMAL_NO_INVERSE_TRANSPOSE)
NORMAL_MISTAKE(mistake_normal_per_bone_as_blended, NORMAL_PER_BONE_AS_BLENDED)
NORMAL_MISTAKE(mistake_normal_inverse_only, NORMAL_INVERSE_ONLY)
NORMAL_MISTAKE(mistake_normal_as_point, NORMAL_AS_POINT)

/* ---- 17: the weight policies ---------------------------------------------------------------- */
typedef enum { POLICY_RIGHT, POLICY_STRICT_NORMALISES, POLICY_NO_WEIGHTLESS, POLICY_FALLBACK_KEEPS_REST,
               POLICY_FALLBACK_OLD_JOINT, POLICY_ALWAYS_DIVIDES, POLICY_EPS_STRICT, POLICY_NO_FINITE } policy_slip;

static ex30_policy_result policy(policy_slip slip, int *joint, double *weight, int k, ex30_policy p, int fallback)
{
    double sum = 0;
    for (int i = 0; i < k; i++) {
        if (!isfinite(weight[i]) && slip != POLICY_NO_FINITE)
            return EX30_POLICY_NOT_FINITE;
        if (weight[i] < 0)
            return EX30_POLICY_NEGATIVE;
        sum += weight[i];
    }
    bool off = fabs(sum - 1) > 1e-12 || slip == POLICY_ALWAYS_DIVIDES;
    if (p == EX30_STRICT && slip != POLICY_STRICT_NORMALISES)
        return off ? EX30_POLICY_NOT_SUMMING_TO_ONE : EX30_POLICY_KEPT;
    bool weightless = slip == POLICY_EPS_STRICT ? sum < 1e-6 : sum <= 1e-6;
    if (weightless && slip != POLICY_NO_WEIGHTLESS) {
        if (p != EX30_FALLBACK)
            return EX30_POLICY_WEIGHTLESS;
        if (slip != POLICY_FALLBACK_OLD_JOINT)
            joint[0] = fallback;
        weight[0] = 1;
        for (int i = 1; i < k && slip != POLICY_FALLBACK_KEEPS_REST; i++)
            weight[i] = 0;
        return EX30_POLICY_FELL_BACK;
    }
    if (!off)
        return EX30_POLICY_KEPT;
    for (int i = 0; i < k; i++)
        weight[i] /= sum;
    return EX30_POLICY_NORMALIZED;
}
#define POLICY_MISTAKE(name, slip)                                                                     \
    ex30_policy_result name(int *joint, double *weight, int k, ex30_policy p, int fallback_joint) \
    {                                                                                                 \
        return policy(slip, joint, weight, k, p, fallback_joint);                                     \
    }
POLICY_MISTAKE(mistake_policy_strict_normalises, POLICY_STRICT_NORMALISES)
POLICY_MISTAKE(mistake_policy_no_weightless, POLICY_NO_WEIGHTLESS)
POLICY_MISTAKE(mistake_policy_fallback_keeps_rest, POLICY_FALLBACK_KEEPS_REST)
POLICY_MISTAKE(mistake_policy_fallback_old_joint, POLICY_FALLBACK_OLD_JOINT)
POLICY_MISTAKE(mistake_policy_always_divides, POLICY_ALWAYS_DIVIDES)
POLICY_MISTAKE(mistake_policy_eps_strict, POLICY_EPS_STRICT)
POLICY_MISTAKE(mistake_policy_no_finite, POLICY_NO_FINITE)

/* ---- 18: the four heaviest ------------------------------------------------------------------ */
typedef enum { HEAVIEST_RIGHT, HEAVIEST_NOT_RENORMALISED, HEAVIEST_FIRST_FOUR, HEAVIEST_TIES_BY_POSITION,
               HEAVIEST_LIGHTEST_FIRST } heaviest_slip;

static int heaviest(heaviest_slip slip, const int *joint, const double *weight, int k, int *out_joint, double *out_weight)
{
    bool taken[8] = {false};
    int kept = k < 4 ? k : 4;
    double sum = 0;
    for (int s = 0; s < kept; s++) {
        int best = slip == HEAVIEST_FIRST_FOUR ? s : -1;
        for (int i = 0; i < k && slip != HEAVIEST_FIRST_FOUR; i++) {
            if (taken[i])
                continue;
            bool better = best < 0 || (slip == HEAVIEST_LIGHTEST_FIRST ? weight[i] < weight[best] : weight[i] > weight[best]) ||
                          (weight[i] == weight[best] && slip != HEAVIEST_TIES_BY_POSITION && joint[i] < joint[best]);
            if (better)
                best = i;
        }
        taken[best] = true;
        out_joint[s] = joint[best], out_weight[s] = weight[best];
        sum += weight[best];
    }
    for (int s = 0; s < kept && slip != HEAVIEST_NOT_RENORMALISED; s++)
        out_weight[s] /= sum;
    return kept;
}
#define HEAVIEST_MISTAKE(name, slip)                                                        \
    int name(const int *joint, const double *weight, int k, int *out_joint, double *out_w) \
    {                                                                                      \
        return heaviest(slip, joint, weight, k, out_joint, out_w);                         \
    }
HEAVIEST_MISTAKE(mistake_heaviest_not_renormalised, HEAVIEST_NOT_RENORMALISED)
HEAVIEST_MISTAKE(mistake_heaviest_first_four, HEAVIEST_FIRST_FOUR)
HEAVIEST_MISTAKE(mistake_heaviest_ties_by_position, HEAVIEST_TIES_BY_POSITION)
HEAVIEST_MISTAKE(mistake_heaviest_lightest_first, HEAVIEST_LIGHTEST_FIRST)

/* ---- 19: the implied last weight ------------------------------------------------------------ */
static void unpack(double unit, bool implied, bool from_first, const unsigned short s[3], double w[4])
{
    for (int i = 0; i < 3; i++)
        w[i] = s[i] / unit;
    w[3] = !implied ? 0 : from_first ? (unit - s[0]) / unit : (unit - s[0] - s[1] - s[2]) / unit;
}
void mistake_unpack_65536(const unsigned short s[3], double w[4]) { unpack(65536, true, false, s, w); }
void mistake_unpack_no_implied(const unsigned short s[3], double w[4]) { unpack(65535, false, false, s, w); }
void mistake_unpack_from_first(const unsigned short s[3], double w[4]) { unpack(65535, true, true, s, w); }
void mistake_unpack_255(const unsigned short s[3], double w[4]) { unpack(255, true, false, s, w); }

/* ---- 20: the cotangent row --------------------------------------------------------------------- */
typedef enum { COTAN_RIGHT, COTAN_NO_HALF, COTAN_AT_CENTRE, COTAN_DIAGONAL_SIGN, COTAN_OPEN_CLOSED } cotan_slip;
static double cot_at(vec3 a, vec3 b, vec3 c)
{
    vec3 u = vec3_sub(a, b), v = vec3_sub(c, b);
    return vec3_dot(u, v) / vec3_length(vec3_cross(u, v));
}
static void cotan(cotan_slip slip, vec3 center, const vec3 *ring, int n, bool closed, double *row)
{
    for (int k = 0; k <= n; k++)
        row[k] = 0;
    int triangles = closed || slip == COTAN_OPEN_CLOSED ? n : n - 1;
    double half = slip == COTAN_NO_HALF ? 1 : 0.5;
    for (int t = 0; t < triangles; t++) {
        int a = t, b = (t + 1) % n;
        if (slip == COTAN_AT_CENTRE) { /* the angle between the two edges, at the vertex itself */
            double c = cot_at(ring[a], center, ring[b]) * half;
            row[a] += c, row[b] += c;
            continue;
        }
        row[a] += cot_at(center, ring[b], ring[a]) * half;
        row[b] += cot_at(center, ring[a], ring[b]) * half;
    }
    for (int k = 0; k < n; k++)
        row[n] += slip == COTAN_DIAGONAL_SIGN ? row[k] : -row[k];
}
#define COTAN_MISTAKE(name, slip)                                                   \
    void name(vec3 center, const vec3 *ring, int n, bool closed, double *row) \
    {                                                                               \
        cotan(slip, center, ring, n, closed, row);                                  \
    }
COTAN_MISTAKE(mistake_cotan_no_half, COTAN_NO_HALF)
COTAN_MISTAKE(mistake_cotan_at_centre, COTAN_AT_CENTRE)
COTAN_MISTAKE(mistake_cotan_diagonal_sign, COTAN_DIAGONAL_SIGN)
COTAN_MISTAKE(mistake_cotan_open_closed, COTAN_OPEN_CLOSED)

/* ---- 21: the heat system's row ------------------------------------------------------------------ */
typedef enum { HEAT_RIGHT, HEAT_NO_K, HEAT_NOT_SQUARED, HEAT_RHS_NO_SHARE, HEAT_LAPLACIAN_SIGN, HEAT_RHS_EVERY_BONE } heat_slip;
static void heat(heat_slip slip, double l, double area, double d, int k, bool nearest, double c, double *diag, double *rhs)
{
    double h = (slip == HEAT_NO_K ? 1 : k) * c / (slip == HEAT_NOT_SQUARED ? d : d * d);
    *diag = (slip == HEAT_LAPLACIAN_SIGN ? l : -l) + area * h;
    *rhs = nearest || slip == HEAT_RHS_EVERY_BONE ? area * h / (slip == HEAT_RHS_NO_SHARE ? 1 : k) : 0;
}
#define HEAT_MISTAKE(name, slip)                                                                             \
    void name(double l, double area, double d, int k, bool nearest, double c, double *diag, double *rhs) \
    {                                                                                                        \
        heat(slip, l, area, d, k, nearest, c, diag, rhs);                                                    \
    }
HEAT_MISTAKE(mistake_heat_no_k, HEAT_NO_K)
HEAT_MISTAKE(mistake_heat_not_squared, HEAT_NOT_SQUARED)
HEAT_MISTAKE(mistake_heat_rhs_no_share, HEAT_RHS_NO_SHARE)
HEAT_MISTAKE(mistake_heat_laplacian_sign, HEAT_LAPLACIAN_SIGN)
HEAT_MISTAKE(mistake_heat_rhs_every_bone, HEAT_RHS_EVERY_BONE)
