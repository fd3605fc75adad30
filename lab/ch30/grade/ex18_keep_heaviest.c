/* ex18_keep_heaviest.c - exercise 18 of chapter 30, whole: the four heaviest influences,
 * renormalised (ex30_keep_heaviest on lab/ch30/sheets/palette.c, declared in exercises30.h).
 * Its cases (the chapter's named ones, then generated ones from the seed), the lab's answer on
 * a case, the call of the student's function, the mistakes the pages warn about (each written
 * as a student would), its picture, and the exercise as the engine takes it
 * (src/grade/exercise.h), on the chapter's ordered list (GRADE30_LIST, grade30_table.h). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base/diag.h"
#include "draw/diagram.h"
#include "mesh/mesh.h"
#include "skin/influences.h"
#include "solve/sparse.h"

#include "grade30_figure.h"
#include "grade30_random.h"
#include "grade30_table.h"

/* The sheet's function, weak: the grader links no sheet (each is a shared object of its
 * own, opened by name in the grading child), so `reference` is NULL there; the suites link
 * the reference solutions. */
#pragma weak ex30_keep_heaviest

/* ---- the cases and the lab's answer ----------------------------------------------------------- */
static void heaviest_case(int i, uint64_t seed, grade30_case *c)
{
    grade30_case_clear(c);
    static const struct { const char *what; int k, joint[8]; double w[8]; } named[] = {
        {"two influences, 0.75 on joint 1: kept as they are", 2, {1, 0}, {0.75, 0.25}},
        {"five, the lightest (0.1) dropped: the kept four divided by 0.9", 5, {0, 1, 2, 3, 4}, {0.3, 0.25, 0.2, 0.15, 0.1}},
        {"six equal weights on joints 5, 3, 1, 0, 2, 4: the lower joints win the ties", 6, {5, 3, 1, 0, 2, 4},
         {1 / 6.0, 1 / 6.0, 1 / 6.0, 1 / 6.0, 1 / 6.0, 1 / 6.0}},
        {"four out of order: 0.1, 0.4, 0.2, 0.3, heaviest first", 4, {7, 6, 5, 4}, {0.1, 0.4, 0.2, 0.3}},
        {"eight, the heaviest last", 8, {0, 1, 2, 3, 4, 5, 6, 7}, {0.02, 0.03, 0.05, 0.05, 0.1, 0.15, 0.2, 0.4}},
    };
    if (i < COUNT(named)) {
        snprintf(c->what, sizeof c->what, "%s", named[i].what);
        c->k = named[i].k;
        memcpy(c->joint, named[i].joint, sizeof c->joint), memcpy(c->weight, named[i].w, sizeof c->weight);
        return;
    }
    rng r = stream(seed, GRADE30_KEEP_HEAVIEST, i);
    c->k = 1 + below(&r, GRADE30_MAX_K);
    int order[16];
    shuffled(&r, order, 16);
    bool ties = below(&r, 3) == 0;
    double total = 0;
    for (int j = 0; j < c->k; j++) {
        c->joint[j] = order[j];
        c->weight[j] = ties ? 1 + below(&r, 3) : uniform(&r, 0.01, 1);
        if (below(&r, 8) == 0)
            c->weight[j] = 0;
        total += c->weight[j];
    }
    if (total == 0)
        c->weight[0] = total = 1;
    for (int j = 0; j < c->k; j++)
        c->weight[j] /= total;
    char d[200];
    snprintf(d, sizeof d, "%d influences on joints {%d, ...}%s", c->k, c->joint[0], ties ? ", with ties" : "");
    words(c, d, seed);
}

static grade30_answer heaviest_expected(const grade30_case *c)
{
    int joint[GRADE30_MAX_K];
    double weight[GRADE30_MAX_K], sum = 0;
    memcpy(joint, c->joint, sizeof joint), memcpy(weight, c->weight, sizeof weight);
    skin_sort_heaviest_first(joint, weight, c->k); /* the engines' order (packed.h) */
    int kept = c->k < 4 ? c->k : 4;
    for (int j = 0; j < kept; j++)
        sum += weight[j];
    grade30_answer a;
    grade30_answer_clear(&a);
    a.n = 1 + 2 * kept;
    a.v[0] = kept;
    for (int j = 0; j < kept; j++)
        a.v[1 + j] = joint[j], a.v[1 + kept + j] = weight[j] / sum;
    return a;
}

static void heaviest_value_name(const grade30_case *c, int i, char *out, size_t size)
{
    int kept = c->k < 4 ? c->k : 4;
    if (i == 0)
        snprintf(out, size, "the returned count");
    else if (i <= kept)
        snprintf(out, size, "out_joint[%d]", i - 1);
    else
        snprintf(out, size, "out_weight[%d]", i - 1 - kept);
}

/* The lab's own function, in the sheet's signature: the other side of the picture (where
 * the student's picture is the lab's, the pose cannot show the mistake). */
static int lab(const int *joint, const double *weight, int k, int *out_joint, double *out_weight)
{
    grade30_case c = {.k = k};
    memcpy(c.joint, joint, sizeof *joint * (size_t)k), memcpy(c.weight, weight, sizeof *weight * (size_t)k);
    grade30_answer a = heaviest_expected(&c);
    int kept = (int)a.v[0];
    for (int j = 0; j < kept; j++)
        out_joint[j] = (int)a.v[1 + j], out_weight[j] = a.v[1 + kept + j];
    return kept;
}

/* ---- the call, as a student's function is called (src/grade/arrays.h) ------------------------- */
static void call(const grade_exercise *x, grade_fn g, const grade30_case *c, grade_call *k, grade_answer *a)
{
    (void)x;
    const int *joint = grade_input(k, "joint", "influences", c->joint, sizeof *c->joint, c->k);
    const double *weight = grade_input(k, "weight", "weights", c->weight, sizeof *c->weight, c->k);
    int *out_joint = grade_output(k, "out_joint", "kept influences", sizeof *out_joint, 4);
    double *out_weight = grade_output(k, "out_weight", "kept weights", sizeof *out_weight, 4);
    if (!grade_call_ready(k))
        return;
    int kept = grade30_fn_of(g).keep_heaviest(joint, weight, c->k, out_joint, out_weight);
    grade_put(a, kept);
    for (int i = 0; i < kept && i < 4; i++)
        grade_put(a, out_joint[i]);
    for (int i = 0; i < kept && i < 4; i++)
        grade_put(a, out_weight[i]);
}

/* ---- the known mistakes, each named in the chapter's words ------------------------------------ */
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
    static int name(const int *joint, const double *weight, int k, int *out_joint, double *out_w) \
    {                                                                                      \
        return heaviest(slip, joint, weight, k, out_joint, out_w);                         \
    }
HEAVIEST_MISTAKE(mistake_heaviest_not_renormalised, HEAVIEST_NOT_RENORMALISED)
HEAVIEST_MISTAKE(mistake_heaviest_first_four, HEAVIEST_FIRST_FOUR)
HEAVIEST_MISTAKE(mistake_heaviest_ties_by_position, HEAVIEST_TIES_BY_POSITION)
HEAVIEST_MISTAKE(mistake_heaviest_lightest_first, HEAVIEST_LIGHTEST_FIRST)

static const grade_mistake heaviest_mistakes[] = {
    {"not renormalised: the kept weights are divided by their own sum", (grade_fn)mistake_heaviest_not_renormalised},
    {"the first four kept, not the heaviest", (grade_fn)mistake_heaviest_first_four},
    {"ties by position: of equal weights the lower joint is kept first", (grade_fn)mistake_heaviest_ties_by_position},
    {"the lightest first: the packed vertex keeps the heaviest, heaviest first", (grade_fn)mistake_heaviest_lightest_first},
};

/* ---- the picture ------------------------------------------------------------------------------ */
static const int heavy_joint[7] = {6, 2, 5, 0, 3, 1, 4};
static const double heavy_weight[7] = {0.05, 0.3, 0.1, 0.2, 0.1, 0.15, 0.1};

static void points_heaviest(grade_fn g, const grade30_case *failing, grade30_picture_data *out)
{
    grade30_fn f = grade30_fn_of(g);
    (void)failing; /* the named pose shows this exercise's mistakes */
    int j[4] = {-1, -1, -1, -1};
    double w[4] = {NAN, NAN, NAN, NAN};
    int kept = f.keep_heaviest(heavy_joint, heavy_weight, 7, j, w);
    out->count = 8, out->drawn = kept == 4;
    for (int i = 0; i < 8; i++)
        out->yours[i].x = 0;
    for (int i = 0; out->drawn && i < 4; i++) /* per joint: the kept weight, 0 where dropped */
        if (j[i] >= 0 && j[i] < 8)
            out->yours[j[i]].x += w[i];
}

static lab_error draw_heaviest(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    lab_error e = grade30_blank(out, "18. seven influences, four kept and\nrenormalised (0.1 on joints 3, 4, 5:\nthe lower joint wins), per joint", d);
    grade30_case c = {.k = 7};
    memcpy(c.joint, heavy_joint, sizeof heavy_joint), memcpy(c.weight, heavy_weight, sizeof heavy_weight);
    grade30_answer want = heaviest_expected(&c);
    double lab[7] = {0}, mine[7];
    for (int i = 0; i < 4; i++)
        lab[(int)want.v[1 + i]] = want.v[5 + i];
    for (int i = 0; i < 7; i++)
        mine[i] = yours->yours[i].x;
    static const char *const names[] = {"joint 0", "1", "2", "3", "4", "5", "6"};
    if (e == LAB_OK)
        grade30_bars(out, 90, 220, lab, mine, yours->drawn, 7, 0, 0.5, names);
    return e;
}

/* ---- the exercise ----------------------------------------------------------------------------- */
const grade_exercise grade30_ex_keep_heaviest = {
    .title = "the four heaviest influences, renormalised",
    .function = "ex30_keep_heaviest",
    .page = "lab/ch30/lab30-palette/README.md",
    .heading = "Exercise 18: the four heaviest",
    .reference = (grade_fn)ex30_keep_heaviest,
    .shape = GRADE_VALUES,
    .named = 5,
    .generated = GRADE30_GENERATED,
    .make_case = heaviest_case,
    .expected = heaviest_expected,
    .tolerance = 1e-12,
    GRADE30_MISTAKES(heaviest_mistakes),
    .picture_points = points_heaviest,
    .picture = draw_heaviest,
    .value_name = heaviest_value_name,
    .sheet = GRADE30_SHEET_PALETTE,
    GRADE30_COMMON,
    .call = call,
    .lab = (grade_fn)lab,
};
