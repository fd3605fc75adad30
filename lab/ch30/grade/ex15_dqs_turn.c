/* ex15_dqs_turn.c - exercise 15 of chapter 30, whole: the DQS ring's turn, 2 atan2(w sin(t/2),
 * (1-w) + w cos(t/2)) (ex30_dqs_turn_angle on lab/ch30/sheets/dqs.c, declared in
 * exercises30.h). Its cases (the chapter's named ones, then generated ones from the seed), the
 * lab's answer on a case, the call of the student's function, the mistakes the pages warn
 * about (each written as a student would), its picture, and the exercise as the engine takes
 * it (src/grade/exercise.h), on the chapter's ordered list (GRADE30_LIST, grade30_table.h). */
#include <math.h>

#include "base/diag.h"
#include "draw/diagram.h"

#include "grade30_cases.h"
#include "grade30_figure.h"
#include "grade30_table.h"
#include "mistakes.h"
#include "rig30_check.h"

/* The sheet's function, weak: the grader links no sheet (each is a shared object of its
 * own, opened by name in the grading child), so `reference` is NULL there; the suites link
 * the reference solutions. */
#pragma weak ex30_dqs_turn_angle

/* ---- the cases and the lab's answer ----------------------------------------------------------- */
static void dqs_turn_case(int i, uint64_t seed, grade30_case *c) { grade30_turn_case(true, i, seed, c); }

static grade30_answer dqs_turn_expected(const grade30_case *c)
{
    return grade30_answer_number(rig30_dqs_twist_angle(c->w, c->theta));
}

/* The lab's own function, in the sheet's signature: the other side of the picture (where
 * the student's picture is the lab's, the pose cannot show the mistake). */
static double lab(double w, double theta) { return rig30_dqs_twist_angle(w, theta); }

/* ---- the call, as a student's function is called (src/grade/arrays.h) ------------------------- */
static void call(const grade_exercise *x, grade_fn g, const grade30_case *c, grade_call *k, grade_answer *a)
{
    (void)x;
    if (!grade_call_ready(k)) /* no arrays: the inputs come by value */
        return;
    grade30_fn f = grade30_fn_of(g);
    grade_put(a, f.turn_angle(c->w, c->theta));
}

/* ---- the known mistakes, each named in the chapter's words ------------------------------------ */
static double mistake_turn_no_hemisphere(double w, double theta) { return mistake_dqs_angle(false, w, theta); }
static double mistake_turn_lbs_form(double w, double theta) { return atan2(w * sin(theta), (1 - w) + w * cos(theta)); }
static double mistake_turn_without_two(double w, double theta) { return mistake_dqs_angle(true, w, theta) / 2; }
static double mistake_turn_linear_wrapped(double w, double theta) { return w * remainder(theta, 2 * 3.14159265358979323846); }

static const grade_mistake dqs_turn_mistakes[] = {
    {"the hemisphere rule missing: past 180 deg the child's quaternion is flipped (t wrapped into [-pi, pi])",
     (grade_fn)mistake_turn_no_hemisphere},
    {"the LBS ring's angle: DQS blends the half angles, 2 atan2(w sin(t/2), (1-w) + w cos(t/2))",
     (grade_fn)mistake_turn_lbs_form},
    {"the half angle returned: the rotation turns by twice the quaternion's angle", (grade_fn)mistake_turn_without_two},
    {"w t: the blend of unit quaternions is not a linear share of the angle", (grade_fn)mistake_turn_linear_wrapped},
};

/* ---- the picture ------------------------------------------------------------------------------ */
static void points_dqs_turn(grade_fn g, const grade30_case *failing, grade30_picture_data *out) { (void)failing; grade30_turn_points(grade30_fn_of(g), out); }
static lab_error draw_dqs_turn(const grade30_picture_data *yours, canvas *out, lab_diag *d) { return grade30_turn_plot(true, yours, out, d); }

/* ---- the exercise ----------------------------------------------------------------------------- */
const grade_exercise grade30_ex_dqs_turn = {
    .title = "the DQS ring's turn, 2 atan2(w sin(t/2), (1-w) + w cos(t/2))",
    .function = "ex30_dqs_turn_angle",
    .page = "lab/ch30/lab30-dqs/README.md",
    .heading = "Exercise 15: the DQS ring's turn",
    .reference = (grade_fn)ex30_dqs_turn_angle,
    .shape = GRADE_ANGLE,
    .named = 6,
    .generated = GRADE30_GENERATED,
    .make_case = dqs_turn_case,
    .expected = dqs_turn_expected,
    .tolerance = 1e-12,
    GRADE30_MISTAKES(dqs_turn_mistakes),
    .picture_points = points_dqs_turn,
    .picture = draw_dqs_turn,
    .sheet = GRADE30_SHEET_DQS,
    GRADE30_COMMON,
    .call = call,
    .lab = (grade_fn)lab,
};
