/* ex05_check_weights.c - exercise 5 of chapter 30, whole: the weight rules (finite, w_j >= 0,
 * sum 1 within 1e-12; refuse, never repair) (ex30_check_weights on lab/ch30/exercises.c,
 * declared in exercises30.h). Its cases (the chapter's named ones, then generated ones from
 * the seed), the lab's answer on a case, the call of the student's function, the mistakes the
 * pages warn about (each written as a student would), its picture, and the exercise as the
 * engine takes it (src/grade/exercise.h), on the chapter's ordered list (GRADE30_LIST,
 * grade30_table.h). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base/diag.h"
#include "draw/diagram.h"
#include "draw/figure.h"
#include "draw/plot.h"
#include "draw/raster.h"
#include "mesh/mesh.h"
#include "skin/influences.h"

#include "grade30_figure.h"
#include "grade30_random.h"
#include "grade30_table.h"

/* The sheet's function, weak: the grader links no sheet (each is a shared object of its
 * own, opened by name in the grading child), so `reference` is NULL there; the suites link
 * the reference solutions. */
#pragma weak ex30_check_weights

/* ---- the cases and the lab's answer ----------------------------------------------------------- */
static void weights_case(int i, uint64_t seed, grade30_case *c)
{
    static const struct { const char *what; double w[2]; } named[] = {
        {"the middle ring's weights 0.5, 0.5", {0.5, 0.5}},
        {"a quarter weight: 0.75, 0.25", {0.75, 0.25}},
        {"weights 0.4, 0.4 (sum 0.8, \"Weights that do not sum to 1\")", {0.4, 0.4}},
        {"weights -0.5, 1.5: sum 1, one negative", {-0.5, 1.5}},
        {"weights 0.5, 0.5 + 1e-13: within 1e-12 of 1", {0.5, 0.5 + 1e-13}},
        {"weights 0.5, 0.5 + 1e-11: beyond 1e-12", {0.5, 0.5 + 1e-11}},
        {"weights 0, 1: an end ring, valid", {0, 1}},
        /* 1 + 1e-12 itself rounds to 1 + 4504 * 2^-52, so |sum - 1| <= 1e-12 and sum <= 1 + 1e-12
         * differ on that one double: the cases stand either side of it, where every form agrees */
        {"weights 0.5, 0.5 + 4503 * 2^-52: the sum the last double within 1e-12 above 1", {0.5, 0.5 + 4503 * 0x1p-52}},
        {"weights 0.5, 0.5 + 4505 * 2^-52: the sum beyond 1e-12 above 1 in every form", {0.5, 0.5 + 4505 * 0x1p-52}},
        {"weights 0.5, 0.5 - 9007 * 2^-53: the sum the last double within 1e-12 below 1", {0.5, 0.5 - 9007 * 0x1p-53}},
        {"weights 0.5, 0.5 - 9008 * 2^-53: the sum the first double beyond 1e-12 below 1", {0.5, 0.5 - 9008 * 0x1p-53}},
    };
    grade30_case_clear(c);
    if (i < COUNT(named)) {
        snprintf(c->what, sizeof c->what, "%s", named[i].what);
        c->k = 2, c->weight[0] = named[i].w[0], c->weight[1] = named[i].w[1];
        return;
    }
    rng r = stream(seed, 4, i);
    int k = below(&r, GRADE30_MAX_K + 1), kind = i % 8;
    double total = 0;
    for (int j = 0; j < k; j++)
        total += c->weight[j] = uniform(&r, 0.05, 1);
    for (int j = 0; j < k; j++)
        c->weight[j] /= total;
    int at = k ? below(&r, k) : 0, other = k > 1 ? (at + 1 + below(&r, k - 1)) % k : at;
    static const char *const kinds[] = {"valid",           "one negative, the sum kept", "off the sum",
                                        "a NaN",           "an infinity",                "-0.0 among valid ones",
                                        "two rules broken", "the sum at the tolerance's edge"};
    if (k > 0)
        switch (kind) {
        case 1: c->weight[other] += c->weight[at] + 0.25, c->weight[at] = -0.25; break;
        case 2: {
            double by = (below(&r, 2) ? 1 : -1) * (below(&r, 2) ? uniform(&r, 1e-11, 1e-6) : uniform(&r, 0.01, 0.5));
            for (int j = 0; j < k; j++)
                c->weight[j] *= 1 + by;
            break;
        }
        case 3: c->weight[at] = NAN; break;
        case 4: c->weight[at] = below(&r, 2) ? INFINITY : -INFINITY; break;
        case 5: c->weight[other] += c->weight[at], c->weight[at] = -0.0; break;
        case 6: /* a negative and an off sum, or a NaN beside a negative, in either order */
            c->weight[at] = -uniform(&r, 0.01, 1);
            if (k > 1)
                c->weight[other] = below(&r, 2) ? NAN : c->weight[other] * 3;
            break;
        case 7: {
            double by = (below(&r, 2) ? 1 : -1) * (below(&r, 2) ? 4e-13 : 4e-12);
            for (int j = 0; j < k; j++)
                c->weight[j] *= 1 + by;
            break;
        }
        default: break;
        }
    c->k = k;
    char d[200];
    size_t used = (size_t)snprintf(d, sizeof d, "%s, k = %d:", k ? kinds[kind] : "no influences", k);
    for (int j = 0; j < k && used < sizeof d; j++)
        used += (size_t)snprintf(d + used, sizeof d - used, " %.17g", c->weight[j]);
    words(c, d, seed);
}

/* The lab's strict validation of one vertex of k influences (every slot joint 0 of a
 * one-joint palette, so only the weights' rules speak). */
static grade30_answer weights_expected(const grade30_case *c)
{
    if (c->k == 0)
        return grade30_answer_rule(EX30_WEIGHTS_NOT_SUMMING_TO_ONE);
    int joint[GRADE30_MAX_K] = {0};
    double weight[GRADE30_MAX_K];
    memcpy(weight, c->weight, sizeof weight);
    skin_influences in = {.vertex_count = 1, .per_vertex = c->k, .joint = joint, .weight = weight};
    switch (skin_validate_influences(&in, 1, NULL)) {
    case LAB_OK: return grade30_answer_rule(EX30_WEIGHTS_VALID);
    case LAB_ERR_WEIGHT_NOT_FINITE: return grade30_answer_rule(EX30_WEIGHTS_NOT_FINITE);
    case LAB_ERR_WEIGHT_NEGATIVE: return grade30_answer_rule(EX30_WEIGHTS_NEGATIVE);
    default: return grade30_answer_rule(EX30_WEIGHTS_NOT_SUMMING_TO_ONE);
    }
}

/* The lab's own function, in the sheet's signature: the other side of the picture (where
 * the student's picture is the lab's, the pose cannot show the mistake). */
static ex30_weights lab(const double *weight, int k)
{
    grade30_case c = {.k = k};
    memcpy(c.weight, weight, sizeof *weight * (size_t)(k < GRADE30_MAX_K ? k : GRADE30_MAX_K));
    return (ex30_weights)weights_expected(&c).v[0];
}

/* ---- the call, as a student's function is called (src/grade/arrays.h) ------------------------- */
static void call(const grade_exercise *x, grade_fn g, const grade30_case *c, grade_call *k, grade_answer *a)
{
    (void)x;
    const double *weight = grade_input(k, "weight", "weights", c->weight, sizeof *c->weight, c->k);
    if (grade_call_ready(k))
        grade_put(a, grade30_fn_of(g).check_weights(weight, c->k));
}

/* ---- the known mistakes, each named in the chapter's words ------------------------------------ */
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
static ex30_weights mistake_normalises(const double *weight, int k) { return rules(weight, k, REPAIRS); }
static ex30_weights mistake_no_sign_rule(const double *weight, int k) { return rules(weight, k, NO_SIGN_RULE); }
static ex30_weights mistake_no_finite_rule(const double *weight, int k) { return rules(weight, k, NO_FINITE_RULE); }
static ex30_weights mistake_one_sided_tolerance(const double *weight, int k) { return rules(weight, k, ONE_SIDED); }
static ex30_weights mistake_exact_sum(const double *weight, int k) { return rules(weight, k, EXACT_SUM); }
static ex30_weights mistake_sum_first(const double *weight, int k) { return rules(weight, k, SUM_FIRST); }
static ex30_weights mistake_negative_zero(const double *weight, int k) { return rules(weight, k, SIGNBIT); }
static ex30_weights mistake_none_valid(const double *weight, int k) { return rules(weight, k, NONE_VALID); }

static const grade_mistake weights_mistakes[] = {
    {"weights silently normalised: data that breaks a rule is refused, never repaired behind the caller's back",
     (grade_fn)mistake_normalises},
    {"the sign rule missing: -0.5 + 1.5 sums to 1, and a negative weight still pushes the vertex away from its bone",
     (grade_fn)mistake_no_sign_rule},
    {"the finiteness rule missing: NaN fails every comparison, so it needs its own test (isfinite)",
     (grade_fn)mistake_no_finite_rule},
    {"a one-sided tolerance: sum - 1 <= 1e-12 without fabs accepts any sum below 1",
     (grade_fn)mistake_one_sided_tolerance},
    {"the sum compared exactly: sum == 1 refuses sums that rounding moved by 1e-16",
     (grade_fn)mistake_exact_sum},
    {"the sum judged before the signs: the first weight that breaks a rule decides",
     (grade_fn)mistake_sum_first},
    {"-0.0 called negative (signbit): -0.0 is not below 0", (grade_fn)mistake_negative_zero},
    {"no weights called valid: k = 0 weights sum to 0, not 1", (grade_fn)mistake_none_valid},
};

/* ---- the picture ------------------------------------------------------------------------------ */
static const struct { const char *words; double w[3]; int k; } weight_sets[] = {
    {"0.5, 0.5", {0.5, 0.5}, 2},          {"0.4, 0.4", {0.4, 0.4}, 2},
    {"-0.5, 1.5", {-0.5, 1.5}, 2},        {"NaN, 1", {NAN, 1}, 2},
    {"-0, 1", {-0.0, 1}, 2},              {"0.2, 0.3, 0.5 + 1e-11", {0.2, 0.3, 0.5 + 1e-11}, 3},
    {"(none)", {0}, 0},                   {"-1, inf", {-1, INFINITY}, 2},
};
#define WEIGHT_SETS ((int)(sizeof weight_sets / sizeof weight_sets[0]))

static void points_weights(grade_fn g, const grade30_case *failing, grade30_picture_data *out)
{
    grade30_fn f = grade30_fn_of(g);
    (void)failing; /* the named pose shows this exercise's mistakes */
    out->count = WEIGHT_SETS, out->drawn = true;
    for (int i = 0; i < WEIGHT_SETS; i++) {
        double w[3];
        memcpy(w, weight_sets[i].w, sizeof w);
        out->yours[i].x = f.check_weights(w, weight_sets[i].k);
        out->yours[i].y = memcmp(w, weight_sets[i].w, sizeof w) != 0;
    }
}

static const char *rule_word(int rule)
{
    static const char *const words[] = {"valid", "negative", "not summing to 1", "not finite"};
    return rule >= 0 && rule < 4 ? words[rule] : "(no such value)";
}

static lab_error draw_weights(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    lab_error e = canvas_init(out, W, H, FIGURE_BACKGROUND, d);
    if (e != LAB_OK)
        return e;
    raster_text(out, 8, 8, FIGURE_TEXT_SCALE, "5. the weight rules:", FIGURE_TEXT);
    raster_text(out, 8, 30, FIGURE_TEXT_SCALE, "weights / the rules / yours", FIGURE_TEXT);
    for (int i = 0; i < WEIGHT_SETS; i++) {
        int joint[3] = {0, 0, 0};
        double w[3];
        memcpy(w, weight_sets[i].w, sizeof w);
        int rule = EX30_WEIGHTS_NOT_SUMMING_TO_ONE;
        if (weight_sets[i].k > 0) {
            skin_influences in = {.vertex_count = 1, .per_vertex = weight_sets[i].k, .joint = joint, .weight = w};
            lab_error v = skin_validate_influences(&in, 1, NULL);
            rule = v == LAB_OK ? EX30_WEIGHTS_VALID
                   : v == LAB_ERR_WEIGHT_NOT_FINITE ? EX30_WEIGHTS_NOT_FINITE
                   : v == LAB_ERR_WEIGHT_NEGATIVE   ? EX30_WEIGHTS_NEGATIVE
                                                    : EX30_WEIGHTS_NOT_SUMMING_TO_ONE;
        }
        int y = 60 + 36 * i;
        raster_text(out, 8, y, FIGURE_TEXT_SCALE, weight_sets[i].words, FIGURE_TEXT);
        raster_text(out, 8, y + 16, FIGURE_TEXT_SCALE, rule_word(rule), LABS);
        if (yours->drawn) {
            int got = (int)yours->yours[i].x;
            char text[64];
            snprintf(text, sizeof text, "%s%s", rule_word(got), yours->yours[i].y ? " *" : "");
            raster_text(out, 240, y + 16, FIGURE_TEXT_SCALE, text,
                        got == rule && !yours->yours[i].y ? LABS : YOURS);
        }
    }
    if (!yours->drawn)
        raster_text(out, 240, 30, FIGURE_TEXT_SCALE, "(not drawn)", YOURS);
    raster_text(out, 8, H - 30, FIGURE_TEXT_SCALE, "*: your function changed the weights", YOURS);
    return LAB_OK;
}

/* ---- the exercise ----------------------------------------------------------------------------- */
/* Exercise 5's answers by name. */
static const char *rule_name(int value)
{
    switch ((ex30_weights)value) {
    case EX30_WEIGHTS_VALID: return "EX30_WEIGHTS_VALID";
    case EX30_WEIGHTS_NEGATIVE: return "EX30_WEIGHTS_NEGATIVE";
    case EX30_WEIGHTS_NOT_SUMMING_TO_ONE: return "EX30_WEIGHTS_NOT_SUMMING_TO_ONE";
    case EX30_WEIGHTS_NOT_FINITE: return "EX30_WEIGHTS_NOT_FINITE";
    }
    return "(not an ex30_weights value)";
}

const grade_exercise grade30_ex_check_weights = {
    .title = "the weight rules (finite, w_j >= 0, sum 1 within 1e-12; refuse, never repair)",
    .function = "ex30_check_weights",
    .page = "lab/ch30/README.md",
    .heading = "Exercise 5: the weight rules",
    .reference = (grade_fn)ex30_check_weights,
    .shape = GRADE_RULE,
    .named = 11,
    .generated = GRADE30_GENERATED,
    .make_case = weights_case,
    .expected = weights_expected,
    .tolerance = 0,
    GRADE30_MISTAKES(weights_mistakes),
    .picture_points = points_weights,
    .picture = draw_weights,
    .sheet = GRADE30_SHEET_LAB30,
    GRADE30_COMMON,
    .call = call,
    .lab = (grade_fn)lab,
    .rule_name = rule_name,
};
