/* test_grade30_sheets_weights.c - the exercises of the sheets of normals and policies, the
 * packed vertex, bone heat and the production fixes (16 to 24) against answers written here,
 * apart from the exercises' own mistakes (exNN_*.c) and from the solutions: realistic wrong
 * answers, each graded wrong (no false accept). Exercises 8 to 15: test_grade30_sheets.c. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_all.h"

#include "exercises30.h"
#include "grade30.h"
#include "math/quat.h"
#include "skin/blend.h"
#include "test_grade30_wrong.h"

/* ---- wrong answers, written here ---------------------------------------------------------------- */

/* 16 */
static vec3 nrm_rigid_always(vec3 n, const int *j, const double *w, int k, const mat4 *p, ex30_normal_method m)
{
    (void)m;
    return ex30_skin_normal(n, j, w, k, p, EX30_NORMAL_RIGID);
}
static vec3 nrm_unnormalised(vec3 n, const int *j, const double *w, int k, const mat4 *p, ex30_normal_method m)
{
    vec3 r = ex30_skin_normal(n, j, w, k, p, m); /* then scaled back by the blend's stretch of n */
    mat4 sum = mat4_scale_by(mat4_identity(), 0);
    for (int i = 0; i < k; i++)
        sum = mat4_add(sum, mat4_scale_by(p[j[i]], w[i]));
    return vec3_scale(r, vec3_length(mat4_transform_direction(sum, n)));
}
static vec3 nrm_blended_for_per_bone(vec3 n, const int *j, const double *w, int k, const mat4 *p, ex30_normal_method m)
{
    return ex30_skin_normal(n, j, w, k, p, m == EX30_NORMAL_PER_BONE ? EX30_NORMAL_BLENDED : m);
}
/* 17 */
static ex30_policy_result pol_loose_strict(int *j, double *w, int k, ex30_policy p, int f)
{
    double s = 0;
    for (int i = 0; i < k; i++)
        s += w[i];
    if (p == EX30_STRICT && isfinite(s) && fabs(s - 1) <= 1e-6 && fabs(s - 1) > 1e-12)
        return EX30_POLICY_KEPT;
    return ex30_apply_policy(j, w, k, p, f);
}
static ex30_policy_result pol_refused_yet_repaired(int *j, double *w, int k, ex30_policy p, int f)
{
    ex30_policy_result r = ex30_apply_policy(j, w, k, p, f);
    if (r == EX30_POLICY_NOT_SUMMING_TO_ONE) {
        double s = 0;
        for (int i = 0; i < k; i++)
            s += w[i];
        for (int i = 0; i < k; i++)
            w[i] /= s;
    }
    return r;
}
static ex30_policy_result pol_fallback_slot(int *j, double *w, int k, ex30_policy p, int f)
{
    int first = j[0];
    ex30_policy_result r = ex30_apply_policy(j, w, k, p, f);
    if (r == EX30_POLICY_FELL_BACK)
        j[0] = first; /* the weight moved, the joint not */
    return r;
}
/* 18 */
static int heavy_keeps_three(const int *j, const double *w, int k, int *oj, double *ow)
{
    int kept = ex30_keep_heaviest(j, w, k, oj, ow);
    if (kept == 4) {
        double s = ow[0] + ow[1] + ow[2];
        ow[0] /= s, ow[1] /= s, ow[2] /= s;
        return 3;
    }
    return kept;
}
static int heavy_unsorted(const int *j, const double *w, int k, int *oj, double *ow)
{
    int kept = ex30_keep_heaviest(j, w, k, oj, ow);
    if (kept >= 2) { /* the kept ones in the order they came */
        int t = oj[0];
        double u = ow[0];
        oj[0] = oj[kept - 1], ow[0] = ow[kept - 1], oj[kept - 1] = t, ow[kept - 1] = u;
    }
    return kept;
}
/* 19 */
static void unpack_float_unit(const unsigned short s[3], double w[4])
{
    for (int i = 0; i < 3; i++)
        w[i] = s[i] / 65536.0;
    w[3] = 1 - (w[0] + w[1] + w[2]);
}
static void unpack_stored_only(const unsigned short s[3], double w[4])
{
    for (int i = 0; i < 3; i++)
        w[i] = s[i] / 65535.0;
    w[3] = 0;
}
static void unpack_fourth_first(const unsigned short s[3], double w[4])
{
    w[0] = (65535 - s[0] - s[1] - s[2]) / 65535.0;
    for (int i = 0; i < 3; i++)
        w[i + 1] = s[i] / 65535.0;
}
/* 20 */
static void cot_full(vec3 c, const vec3 *r, int n, bool closed, double *row)
{
    ex30_cotan_row(c, r, n, closed, row);
    for (int k = 0; k <= n; k++)
        row[k] *= 2;
}
static void cot_always_closed(vec3 c, const vec3 *r, int n, bool closed, double *row)
{
    (void)closed;
    ex30_cotan_row(c, r, n, true, row);
}
static void cot_positive_diagonal(vec3 c, const vec3 *r, int n, bool closed, double *row)
{
    ex30_cotan_row(c, r, n, closed, row);
    row[n] = -row[n];
}
/* 21 */
static void heat_distance_linear(double l, double a, double d, int k, bool near, double c, double *diag, double *rhs)
{
    ex30_heat_row(l, a, sqrt(d), k, near, c, diag, rhs);
}
static void heat_no_share(double l, double a, double d, int k, bool near, double c, double *diag, double *rhs)
{
    ex30_heat_row(l, a, d, k, near, c, diag, rhs);
    *rhs *= k;
}
static void heat_no_area(double l, double a, double d, int k, bool near, double c, double *diag, double *rhs)
{
    (void)a;
    ex30_heat_row(l, 1, d, k, near, c, diag, rhs);
}

/* 23, 24 */
static vec3 cor_no_rotation(vec3 p, vec3 centre, quat r, const int *j, const double *w, int k, const mat4 *pal)
{
    (void)r;
    vec4 c = skin_lbs_point(centre, j, w, k, pal);
    return vec3_add(vec3_sub(p, centre), vec3_make(c.x, c.y, c.z));
}
static vec3 cor_half_lbs(vec3 p, vec3 centre, quat r, const int *j, const double *w, int k, const mat4 *pal)
{
    vec3 right = ex30_cor_point(p, centre, r, j, w, k, pal); /* the average of CoR and LBS */
    vec4 l = skin_lbs_point(p, j, w, k, pal);
    return vec3_scale(vec3_add(right, vec3_make(l.x, l.y, l.z)), 0.5);
}
static vec3 shape_always_before(vec3 p, vec3 d, double s, mat4 m, quat r, bool after)
{
    (void)after;
    return ex30_corrective_point(p, d, s, m, r, false);
}
static vec3 shape_clamped(vec3 p, vec3 d, double s, mat4 m, quat r, bool after)
{
    return ex30_corrective_point(p, d, s < 0 ? 0 : s > 1 ? 1 : s, m, r, after); /* the weight held in [0, 1] */
}

/* Every wrong answer above is graded wrong, on the generated cases. */
static void test_grade30_sheets_weights_grade_wrong_answers_wrong(void **state)
{
    (void)state;
    static const wrong_answer wrong[] = {
        {GRADE30_SKIN_NORMAL, (grade_fn)nrm_rigid_always, "rigid for every method"},
        {GRADE30_SKIN_NORMAL, (grade_fn)nrm_unnormalised, "not unit"},
        {GRADE30_SKIN_NORMAL, (grade_fn)nrm_blended_for_per_bone, "blended for per bone"},
        {GRADE30_POLICY, (grade_fn)pol_loose_strict, "strict within 1e-6"},
        {GRADE30_POLICY, (grade_fn)pol_refused_yet_repaired, "refused, yet repaired"},
        {GRADE30_POLICY, (grade_fn)pol_fallback_slot, "the fallback's joint not set"},
        {GRADE30_KEEP_HEAVIEST, (grade_fn)heavy_keeps_three, "three kept"},
        {GRADE30_KEEP_HEAVIEST, (grade_fn)heavy_unsorted, "not heaviest first"},
        {GRADE30_UNPACK_WEIGHTS, (grade_fn)unpack_float_unit, "1/65536"},
        {GRADE30_UNPACK_WEIGHTS, (grade_fn)unpack_stored_only, "no implied weight"},
        {GRADE30_UNPACK_WEIGHTS, (grade_fn)unpack_fourth_first, "the implied weight first"},
        {GRADE30_COTAN_ROW, (grade_fn)cot_full, "without 1/2"},
        {GRADE30_COTAN_ROW, (grade_fn)cot_always_closed, "always closed"},
        {GRADE30_COTAN_ROW, (grade_fn)cot_positive_diagonal, "positive diagonal"},
        {GRADE30_HEAT_ROW, (grade_fn)heat_distance_linear, "d, not d^2"},
        {GRADE30_HEAT_ROW, (grade_fn)heat_no_share, "no 1/k"},
        {GRADE30_HEAT_ROW, (grade_fn)heat_no_area, "no area"},
        {GRADE30_COR_POINT, (grade_fn)cor_no_rotation, "no rotation"},
        {GRADE30_COR_POINT, (grade_fn)cor_half_lbs, "half LBS"},
        {GRADE30_CORRECTIVE, (grade_fn)shape_always_before, "always before"},
        {GRADE30_CORRECTIVE, (grade_fn)shape_clamped, "s clamped to [0, 1]"},
    };
    expect_all_wrong(wrong, (int)(sizeof wrong / sizeof wrong[0]), "the normals, palette, weights and fixes sheets");
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_grade30_sheets_weights_grade_wrong_answers_wrong)};
    return cmocka_run_group_tests_name("the normals, palette, weights and fixes sheets' exercises", tests, NULL, NULL);
}
