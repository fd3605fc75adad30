/* test_grade30_guarantees.c - what the grader promises for every exercise, against answers
 * written here (apart from the exercises' own mistakes and the solutions), each of which an earlier
 * grader graded correct: a write into a const input is wrong and names the element; a
 * skeleton with several broken nodes, a norm exactly on 1e-9 and a finite real part beside
 * a non-finite dual part separate the rule's mistakes; state kept between calls is named;
 * the mistakes the pages warn about are named.
 * A write past *out, which only the sanitized build sees: test_grade30_make.c. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cmocka_all.h"

#include "exercises30.h"
#include "grade30.h"
#include "test_grade30_wrong.h"

/* ---- answers that write into their inputs ------------------------------------------------ */

static int sk_writes_local(int n, const int *parent, const mat4 *local, mat4 *world)
{
    int r = ex30_skeleton_world(n, parent, local, world);
    if (n > 0) /* "scaled in place": the caller's matrices changed */
        ((mat4 *)local)[n - 1].m[3][3] = 2;
    return r;
}
static vec3 normal_writes_palette(vec3 n, const int *joint, const double *weight, int k, const mat4 *palette,
                                  ex30_normal_method method)
{
    vec3 r = ex30_skin_normal(n, joint, weight, k, palette, method);
    ((mat4 *)palette)[joint[0]].m[3][3] = 7;
    return r;
}
static void cotan_writes_ring(vec3 center, const vec3 *ring, int n, bool closed, double *row)
{
    ex30_cotan_row(center, ring, n, closed, row);
    if (n > 0)
        ((vec3 *)ring)[0].x += 1; /* the neighbours moved to the centre's frame, in place */
}
static vec3 cor_writes_weight(vec3 p, vec3 centre, quat rotation, const int *joint, const double *weight, int k,
                              const mat4 *palette)
{
    vec3 r = ex30_cor_point(p, centre, rotation, joint, weight, k, palette);
    ((double *)weight)[k - 1] += 0.125;
    return r;
}

/* An answer graded wrong, with `words` in the verdict's detail and, where given, the
 * exercise's mistake of that name. */
typedef struct {
    int x;
    grade_fn f;
    const char *words, *mistake;
} expected_wrong;

static void expect_wrong(const expected_wrong *w, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const grade30_entry *e = grade30_exercises[w[i].x];
        grade_result r;
        assert_int_equal(grade30_check(e, w[i].f, SEED, &r), LAB_OK);
        grade30_print(w[i].x, &r, stdout);
        assert_int_equal(r.verdict, GRADE_WRONG);
        if (w[i].words && !strstr(r.detail, w[i].words))
            fail_msg("exercise %d: \"%s\" not in \"%s\"", w[i].x + 1, w[i].words, r.detail);
        if (w[i].mistake && (r.mistake < 0 || !strstr(e->mistakes[r.mistake].name, w[i].mistake)))
            fail_msg("exercise %d: the mistake \"%s\" not named (named: %s)", w[i].x + 1, w[i].mistake,
                     r.mistake < 0 ? "none" : e->mistakes[r.mistake].name);
    }
}

static void test_grade30_a_write_into_an_input_is_wrong_and_named(void **state)
{
    (void)state;
    const expected_wrong writes[] = {
        {GRADE30_SKELETON_WORLD, (grade_fn)sk_writes_local, "it changed its input local[", NULL},
        {GRADE30_SKIN_NORMAL, (grade_fn)normal_writes_palette, "it changed its input palette[", NULL},
        {GRADE30_COTAN_ROW, (grade_fn)cotan_writes_ring, "it changed its input ring[0]", NULL},
        {GRADE30_COR_POINT, (grade_fn)cor_writes_weight, "it changed its input weight[", NULL},
    };
    expect_wrong(writes, sizeof writes / sizeof writes[0]);
}

/* ---- answers at the rules' edges --------------------------------------------------------- */

static int sk_last_bad(int n, const int *parent, const mat4 *local, mat4 *world)
{
    int bad = -1;
    for (int i = 0; i < n; i++)
        if (parent[i] < -1 || parent[i] >= i)
            bad = i;
    return bad >= 0 ? bad : ex30_skeleton_world(n, parent, local, world);
}
static int sk_zero_for_valid(int n, const int *parent, const mat4 *local, mat4 *world)
{
    int r = ex30_skeleton_world(n, parent, local, world);
    return r < 0 ? 0 : r;
}
static bool norm_accepts_threshold(dualquat b, dualquat *out)
{
    double n = sqrt(b.real.w * b.real.w + b.real.x * b.real.x + b.real.y * b.real.y + b.real.z * b.real.z);
    if (n < 1e-9 || !isfinite(n))
        return false;
    *out = dualquat_scale(b, 1 / n);
    return true;
}
static bool norm_nan_passes(dualquat b, dualquat *out)
{
    double n = sqrt(b.real.w * b.real.w + b.real.x * b.real.x + b.real.y * b.real.y + b.real.z * b.real.z);
    if (n <= 1e-9)
        return false;
    *out = dualquat_scale(b, 1 / n);
    return true;
}
static bool norm_refuses_dual(dualquat b, dualquat *out)
{
    if (!(isfinite(b.dual.w) && isfinite(b.dual.x) && isfinite(b.dual.y) && isfinite(b.dual.z)))
        return false;
    return ex30_dq_normalize(b, out);
}

/* Each graded wrong, and the exercise's mistake named. */
static void test_grade30_the_rules_edges_separate_the_mistakes(void **state)
{
    (void)state;
    const expected_wrong edges[] = {
        {GRADE30_SKELETON_WORLD, (grade_fn)sk_last_bad, NULL, "the last node that breaks the rule"},
        {GRADE30_SKELETON_WORLD, (grade_fn)sk_zero_for_valid, NULL, "0 returned for a valid skeleton"},
        {GRADE30_DQ_NORMALIZE, (grade_fn)norm_accepts_threshold, NULL, "1e-9 itself divided by"},
        {GRADE30_DQ_NORMALIZE, (grade_fn)norm_nan_passes, NULL, "a NaN slipping past a comparison"},
        {GRADE30_DQ_NORMALIZE, (grade_fn)norm_refuses_dual, NULL, "the dual part judged"},
    };
    expect_wrong(edges, sizeof edges / sizeof edges[0]);
}

/* ---- state between calls ------------------------------------------------------------------ */

/* The ring radius cached by w: a case of another theta but the same w gets the old answer. */
static double radius_cached(double w, double theta)
{
    static double last_w = -1, last;
    if (w == last_w)
        return last;
    last_w = w;
    return last = ex30_ring_radius_ratio(w, theta);
}

/* Right only in the first pass's order: it ignores its inputs and returns, call by call, the
 * lab's answers to the cases in the order the first pass calls them (learned here, as a body
 * could learn a fixed order). A second pass in the same order would grade it correct. */
enum { ORDERED_MAX = 1024 };
static double ordered_answers[ORDERED_MAX];
static int ordered_count;
static double radius_by_call_order(double w, double theta)
{
    static int calls;
    (void)w, (void)theta;
    return ordered_answers[calls++ % ordered_count];
}

static void test_grade30_state_between_calls_is_named(void **state)
{
    (void)state;
    const grade_exercise *x = grade30_exercises[GRADE30_RING_RADIUS];
    grade_result r;
    assert_int_equal(grade30_check(x, (grade_fn)radius_cached, SEED, &r), LAB_OK);
    grade30_print(GRADE30_RING_RADIUS, &r, stdout);
    assert_int_equal(r.verdict, GRADE_WRONG);
    assert_non_null(strstr(r.detail, "its answer depends on earlier calls"));
    ordered_count = x->named + x->generated;
    assert_true(ordered_count <= ORDERED_MAX);
    grade30_case c;
    for (int i = 0; i < ordered_count; i++) { /* the first pass: the cases in their own order */
        x->make_case(i, SEED, &c);
        ordered_answers[i] = x->expected(&c).v[0];
    }
    assert_int_equal(grade30_check(x, (grade_fn)radius_by_call_order, SEED, &r), LAB_OK);
    grade30_print(GRADE30_RING_RADIUS, &r, stdout);
    assert_int_equal(r.verdict, GRADE_WRONG);
    assert_int_equal(r.failed_pass, 2); /* right through the first pass, caught in the second */
    assert_non_null(strstr(r.detail, "its answer depends on earlier calls"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grade30_a_write_into_an_input_is_wrong_and_named),
        cmocka_unit_test(test_grade30_the_rules_edges_separate_the_mistakes),
        cmocka_unit_test(test_grade30_state_between_calls_is_named),
    };
    return cmocka_run_group_tests_name("the grader's guarantees", tests, NULL, NULL);
}
