/* ex11_dq_from_rigid.c - exercise 11 of chapter 30, whole: the rigid transform as a unit dual
 * quaternion, q_e = 1/2 t q_0 (ex30_dq_from_rigid on lab/ch30/sheets/dqs.c, declared in
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
#include "mistakes.h"

/* The sheet's function, weak: the grader links no sheet (each is a shared object of its
 * own, opened by name in the grading child), so `reference` is NULL there; the suites link
 * the reference solutions. */
#pragma weak ex30_dq_from_rigid

/* ---- the cases and the lab's answer ----------------------------------------------------------- */
static void dq_rigid_case(int i, uint64_t seed, grade30_case *c)
{
    grade30_case_clear(c);
    static const struct { const char *what; vec3 axis; double deg; vec3 t; } named[] = {
        {"a pure move by (1, 2, 3): q_0 = 1, q_e = (0, t/2)", {0, 0, 1}, 0, {1, 2, 3}},
        {"the chapter's child at 90 deg: T(0, 0, 2) Rz(90)", {0, 0, 1}, 90, {0, 0, 2}},
        {"a half turn about x and a move along y off the axis: T(0, 1, 0) Rx(180)", {1, 0, 0}, 180, {0, 1, 0}},
    };
    if (i < COUNT(named)) {
        snprintf(c->what, sizeof c->what, "%s", named[i].what);
        c->rotation = quat_from_axis_angle(named[i].axis, DEG(named[i].deg)), c->p = named[i].t;
        return;
    }
    rng r = stream(seed, GRADE30_DQ_FROM_RIGID, i);
    char d[200], rot[120];
    c->rotation = grade30_rotation_words(&r, rot, sizeof rot);
    c->p = offset(&r, 3);
    snprintf(d, sizeof d, "T(%.3g, %.3g, %.3g) %s", c->p.x, c->p.y, c->p.z, rot);
    words(c, d, seed);
}

static grade30_answer dq_rigid_expected(const grade30_case *c)
{
    return grade30_answer_dualquat(dualquat_from_rigid(c->rotation, c->p));
}

/* The lab's own function, in the sheet's signature: the other side of the picture (where
 * the student's picture is the lab's, the pose cannot show the mistake). */
static dualquat lab(quat rotation, vec3 translation) { return dualquat_from_rigid(rotation, translation); }

/* ---- the call, as a student's function is called (src/grade/arrays.h) ------------------------- */
static void call(const grade_exercise *x, grade_fn g, const grade30_case *c, grade_call *k, grade_answer *a)
{
    (void)x;
    if (!grade_call_ready(k)) /* no arrays: the inputs come by value */
        return;
    grade30_fn f = grade30_fn_of(g);
    grade30_put_dualquat(a, f.dq_from_rigid(c->rotation, c->p));
}

/* ---- the known mistakes, each named in the chapter's words ------------------------------------ */
typedef enum { RIGID_NO_HALF, RIGID_Q0_T, RIGID_NO_Q0, RIGID_CONJUGATE } rigid_slip;
static dualquat slip_rigid(rigid_slip slip, quat q, vec3 t)
{
    quat tq = {0, t.x, t.y, t.z};
    quat dual = slip == RIGID_Q0_T ? quat_mul(q, tq) : slip == RIGID_NO_Q0 ? tq
                : slip == RIGID_CONJUGATE ? quat_mul(tq, quat_conjugate(q)) : quat_mul(tq, q);
    return (dualquat){q, mistake_scaled(dual, slip == RIGID_NO_HALF ? 1 : 0.5)};
}
static dualquat mistake_dq_no_half(quat q, vec3 t) { return slip_rigid(RIGID_NO_HALF, q, t); }
static dualquat mistake_dq_q0_t(quat q, vec3 t) { return slip_rigid(RIGID_Q0_T, q, t); }
static dualquat mistake_dq_no_q0(quat q, vec3 t) { return slip_rigid(RIGID_NO_Q0, q, t); }
static dualquat mistake_dq_conjugate(quat q, vec3 t) { return slip_rigid(RIGID_CONJUGATE, q, t); }

static const grade_mistake dq_rigid_mistakes[] = {
    {"a dual quaternion translation without its 1/2: q_e = 1/2 t q_0", (grade_fn)mistake_dq_no_half},
    {"q_0 t for t q_0: the translation acts after the rotation, so t stands on the left", (grade_fn)mistake_dq_q0_t},
    {"q_e = t/2 without q_0: the dual part carries the rotation too", (grade_fn)mistake_dq_no_q0},
    {"t q_0* for t q_0: the conjugate belongs to the translation's read-back, t = 2 q_e q_0*",
     (grade_fn)mistake_dq_conjugate},
};

/* ---- the picture ------------------------------------------------------------------------------ */
static void points_dq_rigid(grade_fn g, const grade30_case *failing, grade30_picture_data *out) { (void)failing; grade30_dq_ring(grade30_fn_of(g), YOUR_JOINTS, out); }

static lab_error draw_dq_rigid(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    return grade30_draw_ring("11. exercise 6's ring: the joints' dual\nquaternions yours, the blend the lab's\ngrey: the bind pose",
                             yours, out, d);
}

/* ---- the exercise ----------------------------------------------------------------------------- */
const grade_exercise grade30_ex_dq_from_rigid = {
    .title = "the rigid transform as a unit dual quaternion, q_e = 1/2 t q_0",
    .function = "ex30_dq_from_rigid",
    .page = "lab/ch30/lab30-dqs/README.md",
    .heading = "Exercise 11: the rigid transform as a dual quaternion",
    .reference = (grade_fn)ex30_dq_from_rigid,
    .shape = GRADE_DUALQUAT,
    .named = 3,
    .generated = GRADE30_GENERATED,
    .make_case = dq_rigid_case,
    .expected = dq_rigid_expected,
    .tolerance = 1e-9,
    GRADE30_MISTAKES(dq_rigid_mistakes),
    .picture_points = points_dq_rigid,
    .picture = draw_dq_rigid,
    .sheet = GRADE30_SHEET_DQS,
    GRADE30_COMMON,
    .call = call,
    .lab = (grade_fn)lab,
};
