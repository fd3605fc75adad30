/* ex17_policy.c - exercise 17 of chapter 30, whole: the weight policies strict, normalize and
 * fallback=J (ex30_apply_policy on lab/ch30/sheets/normals.c, declared in exercises30.h). Its
 * cases (the chapter's named ones, then generated ones from the seed), the lab's answer on a
 * case, the call of the student's function, the mistakes the pages warn about (each written as
 * a student would), its picture, and the exercise as the engine takes it
 * (src/grade/exercise.h), on the chapter's ordered list (GRADE30_LIST, grade30_table.h). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "draw/diagram.h"
#include "draw/figure.h"
#include "draw/plot.h"
#include "mesh/mesh.h"
#include "skin/influences.h"
#include "solve/sparse.h"

#include "grade30_cases.h"
#include "grade30_figure.h"
#include "grade30_random.h"
#include "grade30_table.h"

/* The sheet's function, weak: the grader links no sheet (each is a shared object of its
 * own, opened by name in the grading child), so `reference` is NULL there; the suites link
 * the reference solutions. */
#pragma weak ex30_apply_policy

/* ---- the cases and the lab's answer ----------------------------------------------------------- */
static const char *const policy_names[] = {"strict", "normalize", "fallback"};

static void policy_case(int i, uint64_t seed, grade30_case *c)
{
    grade30_case_clear(c);
    static const struct { const char *what; int policy, k; double w[3]; } named[] = {
        {"strict, weights 0.5 + 0.5: kept", EX30_STRICT, 2, {0.5, 0.5}},
        {"strict, 0.4 + 0.4: refused, nothing changed", EX30_STRICT, 2, {0.4, 0.4}},
        {"normalize, 0.4 + 0.4: divided by W = 0.8", EX30_NORMALIZE, 2, {0.4, 0.4}},
        {"normalize, 0 + 0: weightless, refused", EX30_NORMALIZE, 2, {0, 0}},
        {"fallback=1, 0 + 0: bound to joint 1", EX30_FALLBACK, 2, {0, 0}},
        {"fallback=1, one weight of exactly 1e-6 (W <= 1e-6): bound to joint 1", EX30_FALLBACK, 1, {1e-6}},
        {"normalize, 0.5 and NaN: refused as not finite", EX30_NORMALIZE, 2, {0.5, NAN}},
        {"fallback=1, -0.0 + 1: kept (-0.0 is not below 0)", EX30_FALLBACK, 2, {-0.0, 1}},
        {"normalize, 0.6 - 0.1 + 0.5 (sums to 1): refused as negative", EX30_NORMALIZE, 3, {0.6, -0.1, 0.5}},
        {"normalize, 0.5 + (0.5 + 2e-12): divided (|W - 1| > 1e-12)", EX30_NORMALIZE, 2, {0.5, 0.5 + 2e-12}},
        {"strict, 0.25 + (0.75 + 4e-13): kept (|W - 1| <= 1e-12)", EX30_STRICT, 2, {0.25, 0.75 + 4e-13}},
        {"strict, 0.5 + (0.5 + 1e-9): refused (a tolerance is 1e-12, not float's)", EX30_STRICT, 2, {0.5, 0.5 + 1e-9}},
        {"normalize, W = 1 + 4503 * 2^-52 (the last double within 1e-12 above 1): kept", EX30_NORMALIZE, 2,
         {0.5, 0.5 + 4503 * 0x1p-52}},
        {"normalize, W = 1 + 4505 * 2^-52 (beyond 1e-12 in every form; 1 + 1e-12 rounds to 4504): divided",
         EX30_NORMALIZE, 2, {0.5, 0.5 + 4505 * 0x1p-52}},
        {"fallback=1, one weight the double above 1e-6: not weightless, normalised", EX30_FALLBACK, 1,
         {0x1.0c6f7a0b5ed8ep-20}},
        {"normalize, NaN then -1: two rules broken, the first weight (not finite) decides", EX30_NORMALIZE, 3,
         {NAN, -1, 2}},
    };
    if (i < COUNT(named)) {
        snprintf(c->what, sizeof c->what, "%s", named[i].what);
        c->method = named[i].policy, c->k = named[i].k, c->fallback = 1;
        for (int j = 0; j < c->k; j++)
            c->joint[j] = j + 2, c->weight[j] = named[i].w[j];
        return;
    }
    rng r = stream(seed, GRADE30_POLICY, i);
    c->method = below(&r, 3), c->k = 1 + below(&r, GRADE30_MAX_K), c->fallback = below(&r, 8);
    for (int j = 0; j < c->k; j++)
        c->joint[j] = below(&r, 8);
    grade30_weights(&r, c->weight, c->k);
    int mode = below(&r, 8);
    const char *how = "valid";
    if (mode == 0 || mode == 1) { /* off the sum */
        double f = uniform(&r, 0.3, 1.7);
        for (int j = 0; j < c->k; j++)
            c->weight[j] *= f;
        how = "off their sum";
    } else if (mode == 2) { /* nearly weightless, or weightless */
        double f = below(&r, 2) ? 0 : uniform(&r, 1e-9, 9e-7);
        for (int j = 0; j < c->k; j++)
            c->weight[j] *= f;
        how = "weightless (W <= 1e-6)";
    } else if (mode == 3) { /* one weight breaks a rule */
        static const double bad[] = {NAN, INFINITY, -INFINITY, -0.25, -1e-300};
        c->weight[below(&r, c->k)] = bad[below(&r, COUNT(bad))];
        if (below(&r, 2)) /* and another, later or earlier */
            c->weight[below(&r, c->k)] = bad[below(&r, COUNT(bad))];
        how = "with a weight that breaks a rule";
    } else if (mode == 4) { /* off by less than the tolerance */
        c->weight[0] += 3e-13;
        how = "off their sum by 3e-13";
    } else if (mode == 6) { /* off by more than the tolerance, but little: 1e-11 to 1e-7 */
        c->weight[below(&r, c->k)] += (below(&r, 2) ? 1 : -1) * pow(10, -uniform(&r, 7, 11));
        how = "off their sum by 1e-11 to 1e-7";
    } else if (mode == 5 && c->k > 1) {
        c->weight[below(&r, c->k)] = -0.0;
        how = "with a -0.0";
    }
    char d[200];
    if (c->method == EX30_FALLBACK)
        snprintf(d, sizeof d, "fallback=%d, %d weights %s", c->fallback, c->k, how);
    else
        snprintf(d, sizeof d, "%s, %d weights %s", policy_names[c->method], c->k, how);
    words(c, d, seed);
}

static grade30_answer policy_expected(const grade30_case *c)
{
    int joint[GRADE30_MAX_K];
    double weight[GRADE30_MAX_K];
    memcpy(joint, c->joint, sizeof joint), memcpy(weight, c->weight, sizeof weight);
    skin_influences in = {1, c->k, joint, weight};
    skin_weight_policy policy = {(skin_policy_kind)c->method, c->fallback, 0, 0};
    skin_weight_report report = {0};
    lab_diag d = {0};
    lab_error e = skin_apply_weight_policy(&in, 8, policy, &report, &d);
    ex30_policy_result result = e == LAB_ERR_WEIGHT_NOT_FINITE      ? EX30_POLICY_NOT_FINITE
                                : e == LAB_ERR_WEIGHT_NEGATIVE      ? EX30_POLICY_NEGATIVE
                                : e == LAB_ERR_WEIGHT_SUM           ? EX30_POLICY_NOT_SUMMING_TO_ONE
                                : e == LAB_ERR_WEIGHT_SUM_ZERO      ? EX30_POLICY_WEIGHTLESS
                                : e != LAB_OK                       ? (abort(), EX30_POLICY_KEPT)
                                : report.fallback_count             ? EX30_POLICY_FELL_BACK
                                : report.normalized_count           ? EX30_POLICY_NORMALIZED
                                                                    : EX30_POLICY_KEPT;
    skin_weight_report_free(&report);
    grade30_answer a;
    grade30_answer_clear(&a);
    a.n = 1 + 2 * c->k;
    a.v[0] = result;
    for (int j = 0; j < c->k; j++)
        a.v[1 + j] = joint[j], a.v[1 + c->k + j] = weight[j];
    return a;
}

static void policy_value_name(const grade30_case *c, int i, char *out, size_t size)
{
    if (i == 0)
        snprintf(out, size, "the returned ex30_policy_result");
    else if (i <= c->k)
        snprintf(out, size, "joint[%d] after the call", i - 1);
    else
        snprintf(out, size, "weight[%d] after the call", i - 1 - c->k);
}

/* The lab's own function, in the sheet's signature: the other side of the picture (where
 * the student's picture is the lab's, the pose cannot show the mistake). */
static ex30_policy_result lab(int *joint, double *weight, int k, ex30_policy policy, int fallback_joint)
{
    grade30_case c = {.k = k, .method = (int)policy, .fallback = fallback_joint};
    memcpy(c.joint, joint, sizeof *joint * (size_t)k), memcpy(c.weight, weight, sizeof *weight * (size_t)k);
    grade30_answer a = policy_expected(&c);
    for (int j = 0; j < k; j++)
        joint[j] = (int)a.v[1 + j], weight[j] = a.v[1 + k + j];
    return (ex30_policy_result)a.v[0];
}

/* ---- the call, as a student's function is called (src/grade/arrays.h) ------------------------- */
static void call(const grade_exercise *x, grade_fn g, const grade30_case *c, grade_call *k, grade_answer *a)
{
    (void)x;
    /* the weights are the function's to change: its answer */
    int *joint = grade_inout(k, "joint", "influences", c->joint, sizeof *c->joint, c->k);
    double *weight = grade_inout(k, "weight", "weights", c->weight, sizeof *c->weight, c->k);
    if (!grade_call_ready(k))
        return;
    grade_put(a, grade30_fn_of(g).apply_policy(joint, weight, c->k, (ex30_policy)c->method, c->fallback));
    for (int i = 0; i < c->k; i++)
        grade_put(a, joint[i]);
    for (int i = 0; i < c->k; i++)
        grade_put(a, weight[i]);
}

/* ---- the known mistakes, each named in the chapter's words ------------------------------------ */
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
    static ex30_policy_result name(int *joint, double *weight, int k, ex30_policy p, int fallback_joint) \
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

static const grade_mistake policy_mistakes[] = {
    {"strict that divides: strict refuses a bad sum and changes nothing", (grade_fn)mistake_policy_strict_normalises},
    {"no weightless check: W <= 1e-6 is refused (normalize) or falls back, never divided by",
     (grade_fn)mistake_policy_no_weightless},
    {"the fallback keeps the other weights: the vertex follows the fallback joint alone", (grade_fn)mistake_policy_fallback_keeps_rest},
    {"the fallback weight on the old joint: joint[0] becomes fallback_joint", (grade_fn)mistake_policy_fallback_old_joint},
    {"weights within the tolerance divided too: only |W - 1| > 1e-12 is normalised", (grade_fn)mistake_policy_always_divides},
    {"W < 1e-6 for W <= 1e-6: a sum of exactly 1e-6 is weightless", (grade_fn)mistake_policy_eps_strict},
    {"the finiteness rule missing: NaN fails every comparison, so it needs its own test", (grade_fn)mistake_policy_no_finite},
};

/* ---- the picture ------------------------------------------------------------------------------ */
static const struct { const char *words; double w[2]; } policy_sets[] = {
    {"0.5 + 0.5", {0.5, 0.5}}, {"0.4 + 0.4", {0.4, 0.4}}, {"0 + 0", {0, 0}},
    {"NaN + 1", {NAN, 1}},     {"-0.1 + 1.1", {-0.1, 1.1}}, {"-0 + 1", {-0.0, 1}},
};
#define POLICY_SETS ((int)(sizeof policy_sets / sizeof policy_sets[0]))
static const char *const result_words[] = {"kept", "normalized", "fell back", "not finite", "negative", "not summing", "weightless"};

static void points_policy(grade_fn g, const grade30_case *failing, grade30_picture_data *out)
{
    grade30_fn f = grade30_fn_of(g);
    (void)failing; /* the named pose shows this exercise's mistakes */
    out->count = 3 * POLICY_SETS, out->drawn = true;
    for (int p = 0; p < 3; p++)
        for (int i = 0; i < POLICY_SETS; i++) {
            int joint[2] = {2, 3};
            double w[2] = {policy_sets[i].w[0], policy_sets[i].w[1]};
            out->yours[p * POLICY_SETS + i].x = f.apply_policy(joint, w, 2, (ex30_policy)p, 1);
        }
}

static lab_error draw_policy(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    lab_error e = grade30_blank(out, "17. weight sets under each policy\n(fallback=1): the lab's verdict, and\nyours in red where it differs", d);
    static const char *const heads[] = {"strict", "normalize", "fallback"};
    for (int p = 0; e == LAB_OK && p < 3; p++)
        raster_text(out, 130 + p * 125, 90, FIGURE_TEXT_SCALE, heads[p], FIGURE_EDGE);
    for (int i = 0; e == LAB_OK && i < POLICY_SETS; i++) {
        int y = 118 + i * 40;
        raster_text(out, 8, y, FIGURE_TEXT_SCALE, policy_sets[i].words, FIGURE_EDGE);
        for (int p = 0; p < 3; p++) {
            grade30_case c = {.k = 2, .method = p, .fallback = 1, .joint = {2, 3}, .weight = {policy_sets[i].w[0], policy_sets[i].w[1]}};
            int lab = (int)policy_expected(&c).v[0];
            double mine = yours->drawn ? yours->yours[p * POLICY_SETS + i].x : NAN;
            raster_text(out, 130 + p * 125, y, 1, result_words[lab], LABS);
            if (!(mine == lab))
                raster_text(out, 130 + p * 125, y + 14, 1,
                            mine >= 0 && mine <= 6 && mine == (int)mine ? result_words[(int)mine] : "(not a result)", YOURS);
        }
    }
    return e;
}

/* ---- the exercise ----------------------------------------------------------------------------- */
const grade_exercise grade30_ex_policy = {
    .title = "the weight policies strict, normalize and fallback=J",
    .function = "ex30_apply_policy",
    .page = "lab/ch30/lab30-normals/README.md",
    .heading = "Exercise 17: the weight policies",
    .reference = (grade_fn)ex30_apply_policy,
    .shape = GRADE_VALUES,
    .named = 16,
    .generated = GRADE30_GENERATED,
    .make_case = policy_case,
    .expected = policy_expected,
    .tolerance = 1e-12,
    GRADE30_MISTAKES(policy_mistakes),
    .picture_points = points_policy,
    .picture = draw_policy,
    .value_name = policy_value_name,
    .sheet = GRADE30_SHEET_NORMALS,
    GRADE30_COMMON,
    .call = call,
    .lab = (grade_fn)lab,
};
