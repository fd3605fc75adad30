/* ex06_dqs_blend.c - exercise 6 of chapter 30, whole: the DQS blend with the hemisphere rule
 * (ex30_dqs_blend on lab/ch30/exercises.c, declared in exercises30.h). Its cases (the
 * chapter's named ones, then generated ones from the seed), the lab's answer on a case, the
 * call of the student's function, the mistakes the pages warn about (each written as a student
 * would), its picture, and the exercise as the engine takes it (src/grade/exercise.h), on the
 * chapter's ordered list (GRADE30_LIST, grade30_table.h). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "base/diag.h"
#include "draw/diagram.h"
#include "draw/plot.h"
#include "draw/raster.h"
#include "math/dualquat.h"
#include "math/linalg.h"
#include "math/quat.h"

#include "grade30_figure.h"
#include "grade30_random.h"
#include "grade30_table.h"

/* The sheet's function, weak: the grader links no sheet (each is a shared object of its
 * own, opened by name in the grading child), so `reference` is NULL there; the suites link
 * the reference solutions. */
#pragma weak ex30_dqs_blend

/* ---- the cases and the lab's answer ----------------------------------------------------------- */
static void dqs_case(int i, uint64_t seed, grade30_case *c)
{
    grade30_case_clear(c);
    const dualquat turned = dualquat_from_rigid(quat_from_axis_angle(vec3_make(0, 0, 1), DEG(90)), vec3_make(0, 0, 0));
    const dualquat far = dualquat_from_rigid(quat_from_axis_angle(vec3_make(0, 0, 1), DEG(200)), vec3_make(0, 0, 0));
    const dualquat half = dualquat_from_rigid((quat){0, 1, 0, 0}, vec3_make(0, 0, 2)); /* w exactly 0 */
    const struct { const char *what; dualquat q1; double w[2]; } named[] = {
        {"the twist at 90 deg, weights 0.5, 0.5 (both in one hemisphere)", turned, {0.5, 0.5}},
        {"the same joint given as -q^ (the same rotation), weights 0.75, 0.25", dualquat_scale(turned, -1),
         {0.75, 0.25}},
        {"a 200 deg twist, weights 0.25, 0.75: the pivot is the heavier joint", far, {0.25, 0.75}},
        {"a half turn about x, moved by Tz(2): real parts at dot 0 exactly, so s = 1", half, {0.6, 0.4}},
    };
    if (i < COUNT(named)) {
        snprintf(c->what, sizeof c->what, "%s", named[i].what);
        c->k = 2, c->q[0] = dualquat_identity(), c->q[1] = named[i].q1;
        c->weight[0] = named[i].w[0], c->weight[1] = named[i].w[1];
        return;
    }
    rng r = stream(seed, 5, i);
    int k = 1 + below(&r, GRADE30_MAX_K);
    double total = 0;
    for (int j = 0; j < k; j++) {
        vec3 ax;
        double deg;
        quat turn = rotation(&r, &ax, &deg);
        c->q[j] = dualquat_from_rigid(turn, offset(&r, 3));
        if (below(&r, 2))
            c->q[j] = dualquat_scale(c->q[j], -1);
        total += c->weight[j] = uniform(&r, 0.05, 1);
    }
    int kind = k > 1 ? below(&r, 3) : 0, a = below(&r, k), b = k > 1 ? (a + 1 + below(&r, k - 1)) % k : a;
    if (kind == 1) { /* equal largest weights: the pivot is the first of them */
        double top = 0;
        for (int j = 0; j < k; j++)
            top = fmax(top, c->weight[j]);
        total += 2 * top + 0.5 - c->weight[a] - c->weight[b];
        c->weight[a] = c->weight[b] = top + 0.25;
    } else if (kind == 2) { /* real parts at a negative dot whose w's share a sign, one the pivot */
        vec3 u = axis(&r);
        double s = sqrt(1 - 0.3 * 0.3);
        c->q[a] = dualquat_from_rigid((quat){0.3, s * u.x, s * u.y, s * u.z}, offset(&r, 3));
        c->q[b] = dualquat_from_rigid((quat){0.3, -s * u.x, -s * u.y, -s * u.z}, offset(&r, 3));
        total += 2 - c->weight[a];
        c->weight[a] = 2;
    }
    for (int j = 0; j < k; j++)
        c->weight[j] /= total;
    c->k = k;
    static const char *const kinds[] = {"rotations and translations", "equal largest weights",
                                        "two real parts at a negative dot with w's of one sign"};
    char d[200];
    size_t used = (size_t)snprintf(d, sizeof d, "%s, k = %d, weights", kinds[kind], k);
    for (int j = 0; j < k && used < sizeof d; j++)
        used += (size_t)snprintf(d + used, sizeof d - used, " %.4g", c->weight[j]);
    words(c, d, seed);
}

static grade30_answer dqs_expected(const grade30_case *c)
{
    return grade30_answer_dualquat(dualquat_blend(c->q, c->weight, c->k, true));
}

/* The lab's own function, in the sheet's signature: the other side of the picture (where
 * the student's picture is the lab's, the pose cannot show the mistake). */
static dualquat lab(const dualquat *q, const double *weight, int k) { return dualquat_blend(q, weight, k, true); }

/* ---- the call, as a student's function is called (src/grade/arrays.h) ------------------------- */
static void call(const grade_exercise *x, grade_fn g, const grade30_case *c, grade_call *k, grade_answer *a)
{
    (void)x;
    const dualquat *q = grade_input(k, "q", "dual quaternions", c->q, sizeof *c->q, c->k);
    const double *weight = grade_input(k, "weight", "weights", c->weight, sizeof *c->weight, c->k);
    if (grade_call_ready(k))
        grade30_put_dualquat(a, grade30_fn_of(g).dqs_blend(q, weight, c->k));
}

/* ---- the known mistakes, each named in the chapter's words ------------------------------------ */
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
static dualquat mistake_no_hemisphere(const dualquat *q, const double *weight, int k)
{
    return blend(q, weight, k, 0, NONE, true, true);
}
static dualquat mistake_flip_against_first(const dualquat *q, const double *weight, int k)
{
    return blend(q, weight, k, 0, BY_REAL_DOT, true, true);
}
static dualquat mistake_pivot_last_of_equals(const dualquat *q, const double *weight, int k)
{
    return blend(q, weight, k, heaviest(weight, k, true), BY_REAL_DOT, true, true);
}
static dualquat mistake_hemisphere_by_w(const dualquat *q, const double *weight, int k)
{
    return blend(q, weight, k, heaviest(weight, k, false), BY_W, true, true);
}
static dualquat mistake_hemisphere_by_dual(const dualquat *q, const double *weight, int k)
{
    return blend(q, weight, k, heaviest(weight, k, false), BY_DUAL_DOT, true, true);
}
static dualquat mistake_flip_real_only(const dualquat *q, const double *weight, int k)
{
    return blend(q, weight, k, heaviest(weight, k, false), BY_REAL_DOT, false, true);
}
static dualquat mistake_no_dual_part(const dualquat *q, const double *weight, int k)
{
    return blend(q, weight, k, heaviest(weight, k, false), BY_REAL_DOT, true, false);
}
static dualquat mistake_normalised_already(const dualquat *q, const double *weight, int k)
{
    dualquat sum = blend(q, weight, k, heaviest(weight, k, false), BY_REAL_DOT, true, true);
    double n = quat_norm(sum.real);
    return n > 0 ? dualquat_scale(sum, 1 / n) : sum;
}

static dualquat mistake_flip_at_zero(const dualquat *q, const double *weight, int k)
{
    return blend(q, weight, k, heaviest(weight, k, false), BY_REAL_DOT_OR_ZERO, true, true);
}

static const grade_mistake dqs_mistakes[] = {
    {"a missing hemisphere flip: q^ and -q^ are one rotation, so each q^_i joins the pivot's side before the sum",
     (grade_fn)mistake_no_hemisphere},
    {"flipped against q^_0, not the pivot: the pivot is the heaviest influence", (grade_fn)mistake_flip_against_first},
    {"the pivot is the last of equal weights, not the first", (grade_fn)mistake_pivot_last_of_equals},
    {"the hemisphere judged by w alone: the test is the dot product of the real parts",
     (grade_fn)mistake_hemisphere_by_w},
    {"the hemisphere judged by the dual parts: the test is the dot product of the real parts",
     (grade_fn)mistake_hemisphere_by_dual},
    {"only the real part flipped: -q^ negates the dual part too", (grade_fn)mistake_flip_real_only},
    {"the dual part dropped: it carries the translation", (grade_fn)mistake_no_dual_part},
    {"normalised already: the exercise asks for the blend before the division by |q_0|",
     (grade_fn)mistake_normalised_already},
    {"a dot product of exactly 0 flipped: the rule flips below 0 only", (grade_fn)mistake_flip_at_zero},
};

/* ---- the picture ------------------------------------------------------------------------------ */
static void points_dqs(grade_fn g, const grade30_case *failing, grade30_picture_data *out)
{
    grade30_fn f = grade30_fn_of(g);
    (void)failing; /* the named pose shows this exercise's mistakes */
    dualquat q[2];
    grade30_ring_joints(q);
    const double w[2] = {0.6, 0.4};
    out->count = GRADE30_RING + 1;
    out->drawn = grade30_ring_under(f.dqs_blend(q, w, 2), out->yours);
}

static lab_error draw_dqs(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    return grade30_draw_ring("6. DQS on a ring: weights 0.6 and 0.4,\nthe child -q^ of Rz(160) moved (0.5, 0, 0)\ngrey: the bind pose",
                             yours, out, d);
}

/* ---- the exercise ----------------------------------------------------------------------------- */
const grade_exercise grade30_ex_dqs_blend = {
    .title = "the DQS blend with the hemisphere rule",
    .function = "ex30_dqs_blend",
    .page = "lab/ch30/README.md",
    .heading = "Exercise 6: the DQS blend",
    .reference = (grade_fn)ex30_dqs_blend,
    .shape = GRADE_DUALQUAT,
    .named = 4,
    .generated = GRADE30_GENERATED,
    .make_case = dqs_case,
    .expected = dqs_expected,
    .tolerance = 1e-9,
    GRADE30_MISTAKES(dqs_mistakes),
    .picture_points = points_dqs,
    .picture = draw_dqs,
    .sheet = GRADE30_SHEET_LAB30,
    GRADE30_COMMON,
    .call = call,
    .lab = (grade_fn)lab,
};
