/* test_grade30.c - the grader's verdicts, in this process: the reference solution is
 * correct on every exercise at several seeds; every exercise's known mistake, put in
 * place of the reference's function, is found wrong and named by its own name (no other
 * mistake's); the generator covers what the page says; answers that depend on earlier
 * calls, NaN and infinity are wrong answers with their case; every exercise's heading is
 * on its page. make grade30 itself: test_grade30_make.c. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_all.h"
#include "testutil.h"

#include "exercises30.h"
#include "grade30.h"
#include "math/quat.h"

#define SEED 30

static void show(int x, const grade_result *r) { grade30_print(x, r, stdout); }

/* Each exercise's count of named cases is its case list's: the last named case is one of
 * the chapter's, the next one generated (a case added to a list without its count, or a
 * count raised without a case, fails here). */
static void test_grade30_named_counts_are_the_lists(void **state)
{
    (void)state;
    grade30_case c;
    for (int x = 0; x < GRADE30_EXERCISE_COUNT; x++) {
        const grade30_entry *e = grade30_exercises[x];
        if (e->shape == GRADE_ELSEWHERE || e->named == 0)
            continue;
        e->make_case(e->named - 1, SEED, &c);
        if (!strncmp(c.what, "generated", 9))
            fail_msg("exercise %d: case %d (its last named) is a generated one: \"%s\"", x + 1, e->named, c.what);
        e->make_case(e->named, SEED, &c);
        if (strncmp(c.what, "generated", 9))
            fail_msg("exercise %d: case %d (the first generated) is a named one: \"%s\"", x + 1, e->named + 1, c.what);
    }
}

/* The ordered list (GRADE30_LIST) is the exercises' order: entry x is exercise x + 1 under
 * its page's heading "Exercise x + 1: ...", each entry once, and a sheet's exercises follow
 * one another (the sheets' ranges come from the list). */
static void test_grade30_the_list_is_in_order(void **state)
{
    (void)state;
    for (int x = 0; x < GRADE30_EXERCISE_COUNT; x++) {
        char want[32];
        snprintf(want, sizeof want, "Exercise %d: ", x + 1);
        if (strncmp(grade30_exercises[x]->heading, want, strlen(want)) != 0)
            fail_msg("exercise %d stands under \"%s\"", x + 1, grade30_exercises[x]->heading);
        if (x > 0)
            assert_true(grade30_exercises[x]->sheet >= grade30_exercises[x - 1]->sheet);
        for (int y = 0; y < x; y++)
            assert_ptr_not_equal(grade30_exercises[x], grade30_exercises[y]);
    }
}

static void test_grade30_the_reference_is_correct(void **state)
{
    (void)state;
    for (int x = 0; x < GRADE30_EXERCISE_COUNT; x++) {
        const grade30_entry *e = grade30_exercises[x];
        if (e->shape == GRADE_ELSEWHERE) /* graded on the GPU: test_grade30_shader.c */
            continue;
        grade_result r;
        assert_int_equal(grade30_check(e, e->reference, SEED, &r), LAB_OK);
        if (r.verdict != GRADE_CORRECT)
            show(x, &r);
        assert_int_equal(r.verdict, GRADE_CORRECT);
        assert_int_equal(r.cases, e->named + e->generated);
        assert_true(e->generated >= 200);
        /* other seeds, other cases, the same verdict */
        static const uint64_t seeds[] = {0, 1, 12345, 2147483647};
        for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; s++) {
            assert_int_equal(grade30_check(e, e->reference, seeds[s], &r), LAB_OK);
            if (r.verdict != GRADE_CORRECT)
                show(x, &r);
            assert_int_equal(r.verdict, GRADE_CORRECT);
        }
    }
}

/* Every known mistake of the exercises' in place of the reference: wrong, and named by its own
 * entry, so that no mistake is named for another (a missing inverse bind for a 3x3 part,
 * a missing flip for a test on the dual part). */
static void test_grade30_names_every_known_mistake(void **state)
{
    (void)state;
    int named = 0;
    for (int x = 0; x < GRADE30_EXERCISE_COUNT; x++) {
        const grade30_entry *e = grade30_exercises[x];
        for (int m = 0; m < e->mistake_count && e->shape != GRADE_ELSEWHERE; m++) {
            grade_result r;
            assert_int_equal(grade30_check(e, e->mistakes[m].fn, SEED, &r), LAB_OK);
            if (r.verdict != GRADE_WRONG || r.mistake != m) {
                show(x, &r);
                fail_msg("exercise %d, \"%s\": graded %s, named %s", x + 1, e->mistakes[m].name,
                         grade_verdict_name(r.verdict), r.mistake >= 0 ? e->mistakes[r.mistake].name : "none");
            }
            assert_true(r.failed > 0 && r.failed_case[0] && r.computed[0] && r.expected[0]);
            named++;
        }
    }
    printf("  %d known mistakes, each named\n", named);
}

/* Exercise 3's generated cases at the shipped seed and two others, with floors: joints in
 * an order that is not ascending (a blend that pairs weight[i] with palette[i] only agrees
 * when they are), more than two influences, and palettes that move (a translation, which a
 * point taken as a direction loses). */
static void test_grade30_lbs_cases_cover_their_floors(void **state)
{
    (void)state;
    const grade_exercise *e = grade30_exercises[GRADE30_LBS_POINT];
    static const uint64_t seeds[3] = {SEED, 31, 4242};
    grade30_case c;
    for (int s = 0; s < 3; s++) {
        int permuted = 0, above_two = 0, moving = 0;
        for (int i = e->named; i < e->named + e->generated; i++) {
            e->make_case(i, seeds[s], &c);
            bool descends = false, moves = false;
            for (int j = 1; j < c.k; j++)
                descends |= c.joint[j] < c.joint[j - 1];
            for (int j = 0; j < c.palette_count; j++)
                moves |= fabs(c.palette[j].m[0][3]) + fabs(c.palette[j].m[1][3]) + fabs(c.palette[j].m[2][3]) > 1e-6;
            permuted += descends, above_two += c.k > 2, moving += moves;
        }
        printf("  seed %llu: %d of %d cases with joints out of order, %d with k > 2, %d with a palette that moves\n",
               (unsigned long long)seeds[s], permuted, e->generated, above_two, moving);
        assert_true(permuted >= e->generated / 2 && above_two >= e->generated / 2 && moving >= e->generated * 3 / 4);
    }
}

/* The generated cases cover what the grader's page promises (so that a generator that
 * drifts back to convenient values fails here, not silently). */
static void test_grade30_the_generator_covers_what_the_page_says(void **state)
{
    (void)state;
    int axes[3] = {0}, sizes[GRADE30_MAX_PALETTE + 1] = {0}, ks[GRADE30_MAX_K + 1] = {0}, not_from_zero = 0,
        repeats = 0, moved = 0, ties = 0, scaled_binds = 0, nan = 0, inf = 0, negzero = 0, none = 0, mirror = 0,
        sheared = 0, seams = 0, quats = 0;
    grade30_case c;
    for (int x = 0; x < grade30_sheet_exercises(GRADE30_SHEET_LAB30, &(int){0}); x++) {
        const grade30_entry *e = grade30_exercises[x];
        for (int i = e->named; i < e->named + e->generated; i++) {
            e->make_case(i, SEED, &c);
            switch ((grade30_exercise)x) {
            case GRADE30_WORLD_MATRIX:
                for (int a = 0; a < 3; a++) /* a local turning about exactly one principal axis */
                    axes[a] += fabs(c.b.m[a][a] - 1) < 1e-12 && fabs(c.b.m[(a + 1) % 3][(a + 1) % 3] - 1) > 1e-6;
                break;
            case GRADE30_SKIN_MATRIX:
                scaled_binds += fabs(mat4_linear_det(c.b) - 1) > 1e-3;
                break;
            case GRADE30_LBS_POINT: {
                sizes[c.palette_count]++, ks[c.k]++;
                bool zero = false, twice = false;
                for (int j = 0; j < c.k; j++) {
                    zero |= c.joint[j] == 0;
                    for (int m = 0; m < j; m++)
                        twice |= c.joint[m] == c.joint[j];
                }
                not_from_zero += !zero, repeats += twice;
                break;
            }
            case GRADE30_RING_RADIUS:
                seams += fabs(fmod(fabs(c.theta), LAB_PI)) < 1e-12;
                break;
            case GRADE30_CHECK_WEIGHTS:
                none += c.k == 0;
                for (int j = 0; j < c.k; j++)
                    nan += isnan(c.weight[j]), inf += isinf(c.weight[j]), negzero += c.weight[j] == 0 && signbit(c.weight[j]);
                break;
            case GRADE30_DQS_BLEND:
                for (int j = 0; j < c.k; j++) {
                    moved += quat_norm(c.q[j].dual) > 1e-3, quats++;
                    for (int m = 0; m < j; m++)
                        ties += c.weight[m] == c.weight[j];
                }
                break;
            case GRADE30_NORMAL_MATRIX:
                mirror += mat4_linear_det(c.a) < 0;
                sheared += fabs(vec3_dot(vec3_make(c.a.m[0][0], c.a.m[1][0], c.a.m[2][0]),
                                         vec3_make(c.a.m[0][1], c.a.m[1][1], c.a.m[2][1]))) > 1e-6;
                break;
            default: break; /* the sheets': test_grade30_generators.c */
            }
        }
    }
    for (int a = 0; a < 3; a++)
        assert_true(axes[a] > 0);
    for (int n = 3; n <= GRADE30_MAX_PALETTE; n++)
        assert_true(sizes[n] > 0);
    for (int k = 1; k <= GRADE30_MAX_K; k++)
        assert_true(ks[k] > 0);
    assert_true(not_from_zero > 0 && repeats > 0 && 2 * moved > quats && ties > 0 && scaled_binds > 0);
    assert_true(nan > 0 && inf > 0 && negzero > 0 && none > 0 && mirror > 0 && sheared > 0 && seams > 0);
}

/* ---- wrong answers no exercise names ------------------------------------------- */

static mat4 scaled_by_two(mat4 a, mat4 b)
{
    (void)a, (void)b;
    return mat4_scale(2, 2, 2);
}

static int calls;
/* right twice, then wrong: a body that keeps state */
static double goes_wrong_later(double w, double theta)
{
    double s = sin(theta / 2), r = sqrt(fmax(0, 1 - 4 * w * (1 - w) * s * s));
    return ++calls > 2 ? r + 1e-3 : r;
}

/* right on every call of the first order, then its cache answers the second */
static double cached(double w, double theta)
{
    static double last_w = -1, last_theta, last;
    if (calls++ > 300 && w == last_w && theta == last_theta)
        return last;
    double s = sin(theta / 2);
    last_w = w, last_theta = theta, last = sqrt(fmax(0, 1 - 4 * w * (1 - w) * s * s));
    return calls > 300 ? last * (1 + 1e-6) : last;
}

static mat4 nan_matrix(mat4 a, mat4 b)
{
    mat4 g = mat4_mul(a, b);
    g.m[1][2] = NAN;
    return g;
}

static double infinite(double w, double theta)
{
    (void)w, (void)theta;
    return INFINITY;
}

static dualquat nan_blend(const dualquat *q, const double *weight, int k)
{
    (void)q, (void)weight, (void)k;
    return (dualquat){{NAN, NAN, NAN, NAN}, {NAN, NAN, NAN, NAN}};
}

static ex30_weights nan_passes(const double *weight, int k)
{
    double sum = 0;
    for (int i = 0; i < k; i++) {
        if (weight[i] < 0)
            return EX30_WEIGHTS_NEGATIVE;
        sum += weight[i];
    }
    return !(fabs(sum - 1) > 1e-12) ? EX30_WEIGHTS_VALID : EX30_WEIGHTS_NOT_SUMMING_TO_ONE;
}

static void expect_wrong(int x, grade_fn f, const char *detail)
{
    grade_result r;
    assert_int_equal(grade30_check(grade30_exercises[x], f, SEED, &r), LAB_OK);
    show(x, &r);
    assert_int_equal(r.verdict, GRADE_WRONG);
    assert_true(r.failed > 0);
    if (detail && !strstr(r.detail, detail) && !strstr(r.computed, detail))
        fail_msg("expected \"%s\" in the verdict", detail);
}

static void test_grade30_unknown_history_nan_and_infinity_are_wrong(void **state)
{
    (void)state;
    grade_result r;
    assert_int_equal(grade30_check(grade30_exercises[GRADE30_SKIN_MATRIX], (grade_fn)scaled_by_two,
                                   SEED, &r),
                     LAB_OK);
    assert_int_equal(r.verdict, GRADE_WRONG);
    assert_int_equal(r.mistake, -1); /* no name for a mistake no exercise knows */
    assert_int_equal(r.failed, 1);

    calls = 0;
    expect_wrong(GRADE30_RING_RADIUS, (grade_fn)goes_wrong_later, NULL);
    calls = 0;
    expect_wrong(GRADE30_RING_RADIUS, (grade_fn)cached, "depends on earlier calls");
    expect_wrong(GRADE30_WORLD_MATRIX, (grade_fn)nan_matrix, "nan");
    expect_wrong(GRADE30_RING_RADIUS, (grade_fn)infinite, "inf");
    expect_wrong(GRADE30_DQS_BLEND, (grade_fn)nan_blend, "nan");
    expect_wrong(GRADE30_CHECK_WEIGHTS, (grade_fn)nan_passes, NULL);
}

/* ---- the pages ------------------------------------------------------------------------- */

/* Every entry's heading is a heading of its page, and the page links the same anchor; every
 * sheet's section is a heading of its page, and its exercises are the ones under it. */
static void test_grade30_every_verdict_points_to_a_heading(void **state)
{
    (void)state;
    for (int s = 0; s < GRADE30_SHEET_COUNT; s++) {
        const grade_sheet *sh = &grade30_sheets[s];
        int first = 0, count = grade30_sheet_exercises(s, &first);
        char *page = tu_read_file(sh->page, NULL), heading[160];
        assert_non_null(page);
        snprintf(heading, sizeof heading, "\n## %s\n", sh->heading);
        if (!strstr(page, heading))
            fail_msg("%s has no heading \"## %s\"", sh->page, sh->heading);
        for (int x = first; x < first + count; x++)
            assert_string_equal(grade30_exercises[x]->page, sh->page);
        free(page);
    }
    for (int x = 0; x < GRADE30_EXERCISE_COUNT; x++) {
        const grade30_entry *e = grade30_exercises[x];
        char *page = tu_read_file(e->page, NULL), heading[160];
        assert_non_null(page);
        snprintf(heading, sizeof heading, "\n### %s\n", e->heading);
        if (!strstr(page, heading))
            fail_msg("%s has no heading \"### %s\"", e->page, e->heading);
        free(page);
        char anchor[128];
        grade_anchor(e->heading, anchor, sizeof anchor);
        char want[32];
        snprintf(want, sizeof want, "exercise-%d-", x + 1);
        assert_int_equal(strncmp(anchor, want, strlen(want)), 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grade30_every_verdict_points_to_a_heading),
        cmocka_unit_test(test_grade30_named_counts_are_the_lists),
        cmocka_unit_test(test_grade30_the_list_is_in_order),
        cmocka_unit_test(test_grade30_the_reference_is_correct),
        cmocka_unit_test(test_grade30_names_every_known_mistake),
        cmocka_unit_test(test_grade30_the_generator_covers_what_the_page_says),
        cmocka_unit_test(test_grade30_lbs_cases_cover_their_floors),
        cmocka_unit_test(test_grade30_unknown_history_nan_and_infinity_are_wrong),
    };
    return cmocka_run_group_tests_name("the grader of chapter 30's exercises", tests, NULL, NULL);
}
