/* ex13_dq_transform.c - exercise 13 of chapter 30, whole: Kavan's point transform, p' = R p +
 * t with t = 2 q_e q_0* (ex30_dq_transform_point on lab/ch30/sheets/dqs.c, declared in
 * exercises30.h). Its cases (the chapter's named ones, then generated ones from the seed), the
 * lab's answer on a case, the call of the student's function, the mistakes the pages warn
 * about (each written as a student would), its picture, and the exercise as the engine takes
 * it (src/grade/exercise.h), on the chapter's ordered list (GRADE30_LIST, grade30_table.h). */
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

/* The sheet's function, weak: the grader links no sheet (each is a shared object of its
 * own, opened by name in the grading child), so `reference` is NULL there; the suites link
 * the reference solutions. */
#pragma weak ex30_dq_transform_point

/* ---- the cases and the lab's answer ----------------------------------------------------------- */
static void dq_transform_case(int i, uint64_t seed, grade30_case *c)
{
    grade30_case_clear(c);
    static const struct { const char *what; vec3 axis; double deg; vec3 t, p; } named[] = {
        {"the identity: p stays", {0, 0, 1}, 0, {0, 0, 0}, {1, 2, 3}},
        {"a pure move by (1, 2, 3) of p = (1, 0, 0)", {0, 0, 1}, 0, {1, 2, 3}, {1, 0, 0}},
        {"T(1, 0, 0) Rz(90) on p = (1, 0, 0): (1, 1, 0)", {0, 0, 1}, 90, {1, 0, 0}, {1, 0, 0}},
    };
    if (i < COUNT(named)) {
        snprintf(c->what, sizeof c->what, "%s", named[i].what);
        c->q[0] = dualquat_from_rigid(quat_from_axis_angle(named[i].axis, DEG(named[i].deg)), named[i].t);
        c->p = named[i].p;
        return;
    }
    rng r = stream(seed, GRADE30_DQ_TRANSFORM, i);
    char d[200], rot[120];
    quat q = grade30_rotation_words(&r, rot, sizeof rot);
    vec3 t = offset(&r, 3);
    c->q[0] = dualquat_from_rigid(q, t);
    if (below(&r, 2)) /* -q^: the same transform */
        c->q[0] = dualquat_scale(c->q[0], -1);
    c->p = offset(&r, 2);
    snprintf(d, sizeof d, "T(%.3g, %.3g, %.3g) %s on p = (%.3g, %.3g, %.3g)", t.x, t.y, t.z, rot, c->p.x, c->p.y, c->p.z);
    words(c, d, seed);
}

static grade30_answer dq_transform_expected(const grade30_case *c)
{
    return grade30_answer_point(dualquat_transform_point(c->q[0], c->p));
}

/* The lab's own function, in the sheet's signature: the other side of the picture (where
 * the student's picture is the lab's, the pose cannot show the mistake). */
static vec3 lab(dualquat q, vec3 p) { return dualquat_transform_point(q, p); }

/* ---- the call, as a student's function is called (src/grade/arrays.h) ------------------------- */
static void call(const grade_exercise *x, grade_fn g, const grade30_case *c, grade_call *k, grade_answer *a)
{
    (void)x;
    if (!grade_call_ready(k)) /* no arrays: the inputs come by value */
        return;
    grade30_fn f = grade30_fn_of(g);
    grade30_put_point(a, f.dq_transform_point(c->q[0], c->p));
}

/* ---- the known mistakes, each named in the chapter's words ------------------------------------ */
typedef enum { POINT_NO_TRANSLATION, POINT_NO_TWO, POINT_ORDER, POINT_CONJUGATE, POINT_MOVE_FIRST } point_slip;
static vec3 transform(point_slip slip, dualquat q, vec3 p)
{
    quat tq = slip == POINT_ORDER ? quat_mul(quat_conjugate(q.real), q.dual) : quat_mul(q.dual, quat_conjugate(q.real));
    vec3 t = vec3_scale(vec3_make(tq.x, tq.y, tq.z), slip == POINT_NO_TWO ? 1 : 2);
    if (slip == POINT_NO_TRANSLATION)
        t = vec3_make(0, 0, 0);
    if (slip == POINT_MOVE_FIRST)
        return quat_rotate(q.real, vec3_add(p, t));
    return vec3_add(quat_rotate(slip == POINT_CONJUGATE ? quat_conjugate(q.real) : q.real, p), t);
}
static vec3 mistake_point_no_translation(dualquat q, vec3 p) { return transform(POINT_NO_TRANSLATION, q, p); }
static vec3 mistake_point_no_two(dualquat q, vec3 p) { return transform(POINT_NO_TWO, q, p); }
static vec3 mistake_point_order(dualquat q, vec3 p) { return transform(POINT_ORDER, q, p); }
static vec3 mistake_point_conjugate(dualquat q, vec3 p) { return transform(POINT_CONJUGATE, q, p); }
static vec3 mistake_point_move_first(dualquat q, vec3 p) { return transform(POINT_MOVE_FIRST, q, p); }

static const grade_mistake dq_point_mistakes[] = {
    {"the translation forgotten: p' = R p + t", (grade_fn)mistake_point_no_translation},
    {"t = q_e q_0* without its 2: q_e holds half the translation", (grade_fn)mistake_point_no_two},
    {"t = 2 q_0* q_e: the order of the product is q_e q_0*", (grade_fn)mistake_point_order},
    {"rotated by q_0*: p turns by q_0 p q_0*, the conjugate on the right", (grade_fn)mistake_point_conjugate},
    {"moved before it is turned: R (p + t) for R p + t", (grade_fn)mistake_point_move_first},
};

/* ---- the picture ------------------------------------------------------------------------------ */
static void points_dq_transform(grade_fn g, const grade30_case *failing, grade30_picture_data *out) { (void)failing; grade30_dq_ring(grade30_fn_of(g), YOUR_TRANSFORM, out); }
static lab_error draw_dq_transform(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    return grade30_draw_ring("13. exercise 6's ring, each point moved\nby yours (blend: the lab's)\ngrey: the bind pose",
                             yours, out, d);
}

/* ---- the exercise ----------------------------------------------------------------------------- */
const grade_exercise grade30_ex_dq_transform = {
    .title = "Kavan's point transform, p' = R p + t with t = 2 q_e q_0*",
    .function = "ex30_dq_transform_point",
    .page = "lab/ch30/lab30-dqs/README.md",
    .heading = "Exercise 13: Kavan's point transform",
    .reference = (grade_fn)ex30_dq_transform_point,
    .shape = GRADE_POINT,
    .named = 3,
    .generated = GRADE30_GENERATED,
    .make_case = dq_transform_case,
    .expected = dq_transform_expected,
    .tolerance = 1e-9,
    GRADE30_MISTAKES(dq_point_mistakes),
    .picture_points = points_dq_transform,
    .picture = draw_dq_transform,
    .sheet = GRADE30_SHEET_DQS,
    GRADE30_COMMON,
    .call = call,
    .lab = (grade_fn)lab,
};
