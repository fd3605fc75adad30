/* ex12_dq_normalize.c - exercise 12 of chapter 30, whole: the normalisation b / |b_0|, refused
 * at a zero norm (ex30_dq_normalize on lab/ch30/sheets/dqs.c, declared in exercises30.h). Its
 * cases (the chapter's named ones, then generated ones from the seed), the lab's answer on a
 * case, the call of the student's function, the mistakes the pages warn about (each written as
 * a student would), its picture, and the exercise as the engine takes it
 * (src/grade/exercise.h), on the chapter's ordered list (GRADE30_LIST, grade30_table.h). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "base/diag.h"
#include "draw/diagram.h"
#include "draw/plot.h"
#include "math/dualquat.h"
#include "math/linalg.h"
#include "math/quat.h"

#include "grade30_cases.h"
#include "grade30_figure.h"
#include "grade30_random.h"
#include "grade30_table.h"
#include "mistakes.h"

/* The sheet's function, weak: the grader links no sheet (each is a shared object of its
 * own, opened by name in the grading child), so `reference` is NULL there; the suites link
 * the reference solutions. */
#pragma weak ex30_dq_normalize

/* ---- the cases and the lab's answer ----------------------------------------------------------- */
static dualquat rigid_dq(rng *r)
{
    char ignored[120];
    quat q = grade30_rotation_words(r, ignored, sizeof ignored);
    return dualquat_from_rigid(q, offset(r, 3));
}

static void dq_normalize_case(int i, uint64_t seed, grade30_case *c)
{
    grade30_case_clear(c);
    c->q[1] = (dualquat){{7, 7, 7, 7}, {7, 7, 7, 7}}; /* what a refusal must leave in *out */
    dualquat id = dualquat_identity(), turn = dualquat_from_rigid(quat_from_axis_angle(vec3_make(0, 0, 1), DEG(90)),
                                                                  vec3_make(1, 0, 0));
    dualquat turned = dualquat_from_rigid(quat_from_axis_angle(vec3_make(0, 0, 1), DEG(360)), vec3_make(0, 0, 0));
    const struct { const char *what; dualquat b; } named[] = {
        {"0.5 I + 0.5 T(1,0,0) Rz(90): |b_0| = 0.924", dualquat_add(dualquat_scale(id, 0.5), dualquat_scale(turn, 0.5))},
        {"0.5 q^ + 0.5 (-q^) for the identity q^ (a 360 deg turn kept its sign): b_0 = 0, refused",
         dualquat_add(dualquat_scale(id, 0.5), dualquat_scale(turned, 0.5))},
        {"a unit dual quaternion already: unchanged", turn},
        {"|b_0| = 1e-10, below 1e-9: refused", dualquat_scale(turn, 1e-10)},
        {"a NaN in the real part: refused", {{NAN, 0, 0, 0}, {0, 0, 0, 0}}},
        {"an infinite real part: refused", {{INFINITY, 0, 0, 0}, {0, 1, 0, 0}}},
        {"a large blend, |b_0| = 3e8: divided", dualquat_scale(turn, 3e8)},
        {"|b_0| exactly 1e-9 (real part (1e-9, 0, 0, 0)): not above 1e-9, refused", {{1e-9, 0, 0, 0}, {0, 0.5, 0, 0}}},
        {"|b_0| the next double above 1e-9: divided", {{0x1.12e0be826d696p-30, 0, 0, 0}, {0, 0.5, 0, 0}}},
        {"a NaN in the dual part, the real part a unit: divided (only |b_0| decides)", {{0, 0, 0, 1}, {NAN, 0, 0, 0}}},
        {"an infinite dual part, the real part finite: divided", {{0.6, 0.8, 0, 0}, {0, -INFINITY, 0, 0}}},
        {"a NaN real x beside a finite w: |b_0| is NaN, refused", {{0.5, NAN, 0, 0}, {0, 0, 0, 0}}},
        {"a NaN real part and an infinite dual part: refused", {{NAN, 0, 0, 0}, {INFINITY, 0, 0, 0}}},
    };
    if (i < COUNT(named)) {
        snprintf(c->what, sizeof c->what, "%s", named[i].what);
        c->q[0] = named[i].b;
        return;
    }
    rng r = stream(seed, GRADE30_DQ_NORMALIZE, i);
    int k = 1 + below(&r, 4);
    dualquat b = {{0, 0, 0, 0}, {0, 0, 0, 0}};
    for (int j = 0; j < k; j++)
        b = dualquat_add(b, dualquat_scale(rigid_dq(&r), uniform(&r, 0.05, 1)));
    int mode = below(&r, 10);
    double scale = mode == 0 ? pow(10, -uniform(&r, 6, 12.5)) : mode == 1 ? pow(10, uniform(&r, 1, 8)) : 1;
    b = dualquat_scale(b, scale);
    if (mode == 2) /* opposite rotations, half and half: the real part cancels */
        b.real = (quat){0, 0, 0, 0};
    if (mode == 3) { /* |b_0| on the threshold, or a double either side of it */
        static const double edge[] = {1e-9, 0x1.12e0be826d696p-30, 0x1.12e0be826d694p-30};
        b.real = (quat){edge[below(&r, 3)], 0, 0, 0};
    }
    if (mode == 4) { /* a NaN or an infinity in one number of either part, or in both parts */
        static const double bad[] = {NAN, INFINITY, -INFINITY};
        quat *part[2] = {&b.real, &b.dual};
        int which = below(&r, 3); /* 0 the real part, 1 the dual part, 2 both */
        for (int p = 0; p < 2; p++)
            if (which == p || which == 2) {
                double x = bad[below(&r, 3)];
                switch (below(&r, 4)) {
                case 0: part[p]->w = x; break;
                case 1: part[p]->x = x; break;
                case 2: part[p]->y = x; break;
                default: part[p]->z = x; break;
                }
            }
    }
    c->q[0] = b;
    char d[200];
    snprintf(d, sizeof d, "a blend of %d rigid dual quaternions, |b_0| = %.3g", k, quat_norm(b.real));
    words(c, d, seed);
}

static grade30_answer dq_normalize_expected(const grade30_case *c)
{
    grade30_answer a;
    grade30_answer_clear(&a);
    a.n = 9;
    dualquat out = c->q[1];
    bool refused = !isfinite(dualquat_norm(c->q[0])) || dualquat_normalize(c->q[0], &out, "b", NULL) != LAB_OK;
    if (refused)
        out = c->q[1];
    a.v[0] = !refused;
    const quat *part[2] = {&out.real, &out.dual};
    for (int p = 0; p < 2; p++)
        a.v[1 + 4 * p] = part[p]->w, a.v[2 + 4 * p] = part[p]->x, a.v[3 + 4 * p] = part[p]->y,
        a.v[4 + 4 * p] = part[p]->z;
    return a;
}

static void dq_normalize_value_name(const grade30_case *c, int i, char *out, size_t size)
{
    (void)c;
    static const char *const names[] = {"the returned bool", "out's real w", "out's real x", "out's real y",
                                        "out's real z", "out's dual w", "out's dual x", "out's dual y", "out's dual z"};
    snprintf(out, size, "%s", i >= 0 && i < 9 ? names[i] : "?");
}

/* The lab's own function, in the sheet's signature: the other side of the picture (where
 * the student's picture is the lab's, the pose cannot show the mistake). */
static bool lab(dualquat b, dualquat *out)
{
    dualquat n;
    if (!isfinite(dualquat_norm(b)) || dualquat_normalize(b, &n, "b", NULL) != LAB_OK)
        return false; /* refused: *out as it was */
    *out = n;
    return true;
}

/* ---- the call, as a student's function is called (src/grade/arrays.h) ------------------------- */
static void call(const grade_exercise *x, grade_fn g, const grade30_case *c, grade_call *k, grade_answer *a)
{
    (void)x;
    /* *out on the heap, holding what a refusal must leave as it is */
    dualquat *out = grade_inout(k, "out", "dual quaternion (one: *out)", &c->q[1], sizeof c->q[1], 1);
    if (!grade_call_ready(k))
        return;
    grade_put(a, grade30_fn_of(g).dq_normalize(c->q[0], out));
    grade30_put_dualquat(a, *out);
}

/* ---- the known mistakes, each named in the chapter's words ------------------------------------ */
typedef enum {
    NORM_EIGHT, NORM_REAL_ONLY, NORM_NO_REFUSAL, NORM_SQUARED, NORM_REFUSAL_WRITES, NORM_NAN_PASSES, NORM_AT_THRESHOLD,
    NORM_DUAL_JUDGED
} norm_slip;
static bool dual_finite(quat d) { return isfinite(d.w) && isfinite(d.x) && isfinite(d.y) && isfinite(d.z); }
static bool normalize(norm_slip slip, dualquat b, dualquat *out)
{
    double n = quat_norm(b.real);
    if (slip == NORM_EIGHT)
        n = sqrt(quat_dot(b.real, b.real) + quat_dot(b.dual, b.dual));
    bool refuse = slip == NORM_NAN_PASSES     ? n <= 1e-9 /* NaN, and an infinity, pass it */
                  : slip == NORM_AT_THRESHOLD ? n < 1e-9 || !isfinite(n)
                  : slip == NORM_DUAL_JUDGED  ? !(n > 1e-9) || !isfinite(n) || !dual_finite(b.dual)
                                              : !(n > 1e-9) || !isfinite(n);
    if (slip != NORM_NO_REFUSAL && refuse) {
        if (slip == NORM_REFUSAL_WRITES)
            *out = (dualquat){{0, 0, 0, 0}, {0, 0, 0, 0}};
        return false;
    }
    double by = slip == NORM_SQUARED ? n * n : n;
    *out = (dualquat){mistake_scaled(b.real, 1 / by), slip == NORM_REAL_ONLY ? b.dual : mistake_scaled(b.dual, 1 / by)};
    return true;
}
static bool mistake_norm_eight(dualquat b, dualquat *o) { return normalize(NORM_EIGHT, b, o); }
static bool mistake_norm_real_only(dualquat b, dualquat *o) { return normalize(NORM_REAL_ONLY, b, o); }
static bool mistake_norm_no_refusal(dualquat b, dualquat *o) { return normalize(NORM_NO_REFUSAL, b, o); }
static bool mistake_norm_squared(dualquat b, dualquat *o) { return normalize(NORM_SQUARED, b, o); }
static bool mistake_norm_refusal_writes(dualquat b, dualquat *o) { return normalize(NORM_REFUSAL_WRITES, b, o); }
static bool mistake_norm_nan_passes(dualquat b, dualquat *o) { return normalize(NORM_NAN_PASSES, b, o); }
static bool mistake_norm_at_threshold(dualquat b, dualquat *o) { return normalize(NORM_AT_THRESHOLD, b, o); }
static bool mistake_norm_dual_judged(dualquat b, dualquat *o) { return normalize(NORM_DUAL_JUDGED, b, o); }

static const grade_mistake dq_normalize_mistakes[] = {
    {"divided by the length of all eight numbers: the norm is the real part's, |b_0|", (grade_fn)mistake_norm_eight},
    {"only the real part divided: the dual part is divided by |b_0| too", (grade_fn)mistake_norm_real_only},
    {"a zero norm divided by: |b_0| <= 1e-9 (or not finite) is refused", (grade_fn)mistake_norm_no_refusal},
    {"divided by |b_0|^2: the norm is a length, sqrt(b_0 . b_0)", (grade_fn)mistake_norm_squared},
    {"a refusal that still writes *out: a refused blend leaves *out as it was", (grade_fn)mistake_norm_refusal_writes},
    {"a NaN slipping past a comparison: n <= 1e-9 is false for NaN (and an infinity); refuse unless n > 1e-9 "
     "and n is finite",
     (grade_fn)mistake_norm_nan_passes},
    {"1e-9 itself divided by: a norm not above 1e-9 is refused (n <= 1e-9), 1e-9 too", (grade_fn)mistake_norm_at_threshold},
    {"the dual part judged: only |b_0| decides, a non-finite dual part is divided like any other",
     (grade_fn)mistake_norm_dual_judged},
};

/* ---- the picture ------------------------------------------------------------------------------ */
static void points_dq_normalize(grade_fn g, const grade30_case *failing, grade30_picture_data *out) { (void)failing; grade30_dq_ring(grade30_fn_of(g), YOUR_NORMALISATION, out); }
static lab_error draw_dq_normalize(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    return grade30_draw_ring("12. exercise 6's ring, normalised by\nyours (blended, moved by the lab)\ngrey: the bind pose", yours, out, d);
}

/* ---- the exercise ----------------------------------------------------------------------------- */
const grade_exercise grade30_ex_dq_normalize = {
    .title = "the normalisation b / |b_0|, refused at a zero norm",
    .function = "ex30_dq_normalize",
    .page = "lab/ch30/lab30-dqs/README.md",
    .heading = "Exercise 12: the normalisation",
    .reference = (grade_fn)ex30_dq_normalize,
    .shape = GRADE_VALUES,
    .named = 13,
    .generated = GRADE30_GENERATED,
    .make_case = dq_normalize_case,
    .expected = dq_normalize_expected,
    .tolerance = 1e-9,
    GRADE30_MISTAKES(dq_normalize_mistakes),
    .picture_points = points_dq_normalize,
    .picture = draw_dq_normalize,
    .value_name = dq_normalize_value_name,
    .sheet = GRADE30_SHEET_DQS,
    GRADE30_COMMON,
    .call = call,
    .lab = (grade_fn)lab,
};
