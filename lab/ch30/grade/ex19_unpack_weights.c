/* ex19_unpack_weights.c - exercise 19 of chapter 30, whole: the implied last weight of the
 * compressed vertex (ex30_unpack_weights on lab/ch30/sheets/palette.c, declared in
 * exercises30.h). Its cases (the chapter's named ones, then generated ones from the seed), the
 * lab's answer on a case, the call of the student's function, the mistakes the pages warn
 * about (each written as a student would), its picture, and the exercise as the engine takes
 * it (src/grade/exercise.h), on the chapter's ordered list (GRADE30_LIST, grade30_table.h). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "draw/diagram.h"
#include "mesh/mesh.h"
#include "skin/packed.h"
#include "solve/sparse.h"

#include "grade30_figure.h"
#include "grade30_random.h"
#include "grade30_table.h"

/* The sheet's function, weak: the grader links no sheet (each is a shared object of its
 * own, opened by name in the grading child), so `reference` is NULL there; the suites link
 * the reference solutions. */
#pragma weak ex30_unpack_weights

/* ---- the cases and the lab's answer ----------------------------------------------------------- */
static void unpack_case(int i, uint64_t seed, grade30_case *c)
{
    grade30_case_clear(c);
    static const struct { const char *what; unsigned short s[3]; } named[] = {
        {"one joint takes all: 65535, 0, 0", {65535, 0, 0}},
        {"32768 + 32767: the implied fourth is 0", {32768, 32767, 0}},
        {"nothing stored: the fourth takes all", {0, 0, 0}},
        {"10000, 20000, 30000: the fourth 5535/65535", {10000, 20000, 30000}},
    };
    if (i < COUNT(named)) {
        snprintf(c->what, sizeof c->what, "%s", named[i].what);
        memcpy(c->stored, named[i].s, sizeof c->stored);
        return;
    }
    rng r = stream(seed, GRADE30_UNPACK_WEIGHTS, i);
    int left = 65535;
    for (int j = 0; j < 3; j++) {
        int s = below(&r, left + 1);
        c->stored[j] = (unsigned short)s, left -= s;
    }
    char d[200];
    snprintf(d, sizeof d, "stored %u, %u, %u", c->stored[0], c->stored[1], c->stored[2]);
    words(c, d, seed);
}

static grade30_answer unpack_expected(const grade30_case *c)
{
    grade30_answer a;
    grade30_answer_clear(&a);
    a.n = 4;
    int implied = 65535 - c->stored[0] - c->stored[1] - c->stored[2]; /* in integers, as the kernels */
    for (int j = 0; j < 3; j++)
        a.v[j] = c->stored[j] / 65535.0;
    a.v[3] = implied / 65535.0;
    /* the kernels' own reading (float) agrees to float precision */
    uint16_t w16[3] = {c->stored[0], c->stored[1], c->stored[2]};
    packed_mesh m = {.count = 1, .influences = 4, .weight_format = PACKED_WEIGHT_UNORM16, .weight16 = w16};
    float w[4];
    packed_weights_at(&m, 0, 4, PACKED_WEIGHT_UNORM16, w);
    for (int j = 0; j < 4; j++)
        if (!(fabs(w[j] - a.v[j]) <= 1e-7))
            abort();
    return a;
}

/* The lab's own function, in the sheet's signature: the other side of the picture (where
 * the student's picture is the lab's, the pose cannot show the mistake). */
static void lab(const unsigned short stored[3], double w[4])
{
    grade30_case c = {.stored = {stored[0], stored[1], stored[2]}};
    grade30_answer a = unpack_expected(&c);
    memcpy(w, a.v, 4 * sizeof *w);
}

/* ---- the call, as a student's function is called (src/grade/arrays.h) ------------------------- */
static void call(const grade_exercise *x, grade_fn g, const grade30_case *c, grade_call *k, grade_answer *a)
{
    (void)x;
    const unsigned short *stored = grade_input(k, "stored", "stored weights", c->stored, sizeof *c->stored, 3);
    double *w = grade_output(k, "w", "weights", sizeof *w, 4);
    if (!grade_call_ready(k))
        return;
    grade30_fn_of(g).unpack_weights(stored, w);
    for (int i = 0; i < 4; i++)
        grade_put(a, w[i]);
}

/* ---- the known mistakes, each named in the chapter's words ------------------------------------ */
static void unpack(double unit, bool implied, bool from_first, const unsigned short s[3], double w[4])
{
    for (int i = 0; i < 3; i++)
        w[i] = s[i] / unit;
    w[3] = !implied ? 0 : from_first ? (unit - s[0]) / unit : (unit - s[0] - s[1] - s[2]) / unit;
}
static void mistake_unpack_65536(const unsigned short s[3], double w[4]) { unpack(65536, true, false, s, w); }
static void mistake_unpack_no_implied(const unsigned short s[3], double w[4]) { unpack(65535, false, false, s, w); }
static void mistake_unpack_from_first(const unsigned short s[3], double w[4]) { unpack(65535, true, true, s, w); }
static void mistake_unpack_255(const unsigned short s[3], double w[4]) { unpack(255, true, false, s, w); }

static const grade_mistake unpack_mistakes[] = {
    {"divided by 65536: UNORM16's 1 is 65535", (grade_fn)mistake_unpack_65536},
    {"the implied fourth left at 0: it is 1 minus the three stored", (grade_fn)mistake_unpack_no_implied},
    {"the fourth as 1 - w0: the implied weight takes what all three leave", (grade_fn)mistake_unpack_from_first},
    {"divided by 255: that is UNORM8's unit", (grade_fn)mistake_unpack_255},
};

/* ---- the picture ------------------------------------------------------------------------------ */
static const unsigned short unpack_sets[3][3] = {{65535, 0, 0}, {10000, 20000, 30000}, {0, 0, 0}};

static void points_unpack(grade_fn g, const grade30_case *failing, grade30_picture_data *out)
{
    grade30_fn f = grade30_fn_of(g);
    (void)failing; /* the named pose shows this exercise's mistakes */
    out->count = 12, out->drawn = true;
    for (int s = 0; s < 3; s++) {
        double w[4];
        f.unpack_weights(unpack_sets[s], w);
        for (int i = 0; i < 4; i++)
            out->yours[4 * s + i].x = w[i];
    }
}

static lab_error draw_unpack(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    lab_error e = grade30_blank(out, "19. three UNORM16 vertices, 4 weights:\n(65535, 0, 0), (10000, 20000, 30000)\nand (0, 0, 0)", d);
    double lab[12], mine[12];
    for (int s = 0; s < 3; s++) {
        grade30_case c = {0};
        memcpy(c.stored, unpack_sets[s], sizeof c.stored);
        grade30_answer a = unpack_expected(&c);
        for (int i = 0; i < 4; i++)
            lab[4 * s + i] = a.v[i], mine[4 * s + i] = yours->yours[4 * s + i].x;
    }
    static const char *const names[] = {"w0", "w1", "w2", "w3", "w0", "w1", "w2", "w3", "w0", "w1", "w2", "w3"};
    if (e == LAB_OK)
        grade30_bars(out, 90, 220, lab, mine, yours->drawn, 12, 0, 1, names);
    return e;
}

/* ---- the exercise ----------------------------------------------------------------------------- */
const grade_exercise grade30_ex_unpack_weights = {
    .title = "the implied last weight of the compressed vertex",
    .function = "ex30_unpack_weights",
    .page = "lab/ch30/lab30-palette/README.md",
    .heading = "Exercise 19: the implied last weight",
    .reference = (grade_fn)ex30_unpack_weights,
    .shape = GRADE_VALUES,
    .named = 4,
    .generated = GRADE30_GENERATED,
    .make_case = unpack_case,
    .expected = unpack_expected,
    .tolerance = 1e-12,
    GRADE30_MISTAKES(unpack_mistakes),
    .picture_points = points_unpack,
    .picture = draw_unpack,
    .sheet = GRADE30_SHEET_PALETTE,
    GRADE30_COMMON,
    .call = call,
    .lab = (grade_fn)lab,
};
