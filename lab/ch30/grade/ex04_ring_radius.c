/* ex04_ring_radius.c - exercise 4 of chapter 30, whole: the ring radius r'/r = sqrt(1 - 4 w
 * (1-w) sin^2(theta/2)) (ex30_ring_radius_ratio on lab/ch30/exercises.c, declared in
 * exercises30.h). Its cases (the chapter's named ones, then generated ones from the seed), the
 * lab's answer on a case, the call of the student's function, the mistakes the pages warn
 * about (each written as a student would), its picture, and the exercise as the engine takes
 * it (src/grade/exercise.h), on the chapter's ordered list (GRADE30_LIST, grade30_table.h). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "base/diag.h"
#include "draw/diagram.h"
#include "draw/plot.h"
#include "draw/raster.h"
#include "math/linalg.h"
#include "mesh/mesh.h"

#include "grade30_figure.h"
#include "grade30_random.h"
#include "grade30_table.h"
#include "rig30_check.h"

/* The sheet's function, weak: the grader links no sheet (each is a shared object of its
 * own, opened by name in the grading child), so `reference` is NULL there; the suites link
 * the reference solutions. */
#pragma weak ex30_ring_radius_ratio

/* ---- the cases and the lab's answer ----------------------------------------------------------- */
static void radius_case(int i, uint64_t seed, grade30_case *c)
{
    static const struct { const char *what; double w, theta_deg; } named[] = {
        {"the middle ring (w = 0.5) at 180 deg: the collapse, r' = 0", 0.5, 180},
        {"the middle ring (w = 0.5) at 90 deg: sqrt(1/2)", 0.5, 90},
        {"a quarter weight: w = 0.25 at 120 deg: sqrt(7)/4", 0.25, 120},
        {"ring 1 (w = 0.125) at -270 deg", 0.125, -270},
        {"the ends (w = 0 and 1) keep r' = r at any twist: w = 1 at 123 deg", 1, 123},
    };
    grade30_case_clear(c);
    if (i < COUNT(named)) {
        snprintf(c->what, sizeof c->what, "%s", named[i].what);
        c->w = named[i].w, c->theta = DEG(named[i].theta_deg);
        return;
    }
    static const double weights[] = {0, 1, 0.5, 0.25, 0.125, 0.875};
    rng r = stream(seed, 3, i);
    c->w = below(&r, 5) == 0 ? weights[below(&r, COUNT(weights))] : uniform(&r, 0, 1);
    double deg = angle_deg(&r);
    c->theta = DEG(deg);
    char d[96];
    snprintf(d, sizeof d, "w = %.17g, theta = %.17g deg (%.17g rad)", c->w, deg, c->theta);
    words(c, d, seed);
}

static grade30_answer radius_expected(const grade30_case *c)
{
    return grade30_answer_number(rig30_radius_ratio(c->w, c->theta));
}

/* The lab's own function, in the sheet's signature: the other side of the picture (where
 * the student's picture is the lab's, the pose cannot show the mistake). */
static double lab(double w, double theta) { return rig30_radius_ratio(w, theta); }

/* ---- the call, as a student's function is called (src/grade/arrays.h) ------------------------- */
static void call(const grade_exercise *x, grade_fn g, const grade30_case *c, grade_call *k, grade_answer *a)
{
    (void)x;
    if (!grade_call_ready(k)) /* no arrays: the inputs come by value */
        return;
    grade30_fn f = grade30_fn_of(g);
    grade_put(a, f.ring_radius_ratio(c->w, c->theta));
}

/* ---- the known mistakes, each named in the chapter's words ------------------------------------ */
static double mistake_sin_not_squared(double w, double theta) { return sqrt(fmax(0, 1 - 4 * w * (1 - w) * sin(theta / 2))); }
static double mistake_full_angle(double w, double theta)
{
    double s = sin(theta);
    return sqrt(fmax(0, 1 - 4 * w * (1 - w) * s * s));
}
static double mistake_degrees(double w, double theta)
{
    double s = sin(theta * acos(-1.0) / 180.0 / 2);
    return sqrt(fmax(0, 1 - 4 * w * (1 - w) * s * s));
}
static double mistake_ratio_squared(double w, double theta)
{
    double s = sin(theta / 2);
    return fmax(0, 1 - 4 * w * (1 - w) * s * s);
}
static double mistake_middle_ring_form(double w, double theta)
{
    (void)w;
    return fabs(cos(theta / 2));
}
static double mistake_without_four(double w, double theta)
{
    double s = sin(theta / 2);
    return sqrt(fmax(0, 1 - w * (1 - w) * s * s));
}

static const grade_mistake radius_mistakes[] = {
    {"sin for sin^2: the squared sine of half the angle", (grade_fn)mistake_sin_not_squared},
    {"theta for theta/2: the half angle, sin^2(theta/2)", (grade_fn)mistake_full_angle},
    {"degrees for radians: theta arrives in radians", (grade_fn)mistake_degrees},
    {"the square of the ratio: the closed form ends in a square root", (grade_fn)mistake_ratio_squared},
    {"|cos(theta/2)| for every ring: that is the middle ring's (w = 1/2) only",
     (grade_fn)mistake_middle_ring_form},
    {"w (1-w) without its factor 4", (grade_fn)mistake_without_four},
};

/* ---- the picture ------------------------------------------------------------------------------ */
enum { RADIUS_STEPS = 120 };
static const double radius_weights[2] = {0.5, 0.25};
static double radius_theta_deg(int i) { return -360 + 720.0 * i / (RADIUS_STEPS - 1); }

static void points_radius(grade_fn g, const grade30_case *failing, grade30_picture_data *out)
{
    grade30_fn f = grade30_fn_of(g);
    (void)failing; /* the named pose shows this exercise's mistakes */
    out->count = 2 * RADIUS_STEPS, out->drawn = true;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < RADIUS_STEPS; i++)
            out->yours[k * RADIUS_STEPS + i].x = f.ring_radius_ratio(radius_weights[k], deg_to_rad(radius_theta_deg(i)));
}

static lab_error draw_radius(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    double theta[RADIUS_STEPS], lab[2][RADIUS_STEPS], mine[2][RADIUS_STEPS];
    for (int i = 0; i < RADIUS_STEPS; i++) {
        theta[i] = radius_theta_deg(i);
        for (int k = 0; k < 2; k++) {
            lab[k][i] = rig30_radius_ratio(radius_weights[k], deg_to_rad(theta[i]));
            mine[k][i] = yours->drawn ? yours->yours[k * RADIUS_STEPS + i].x : NAN;
        }
    }
    plot_series s[4] = {
        {theta, lab[0], RADIUS_STEPS, LABS, 0, 2, "lab, w = 1/2", 0, 0},
        {theta, lab[1], RADIUS_STEPS, LABS, 6, 2, "lab, w = 1/4", 0, 0},
        {theta, mine[0], RADIUS_STEPS, YOURS, 0, 1, "yours, 1/2", 0, 0},
        {theta, mine[1], RADIUS_STEPS, YOURS, 6, 1, "yours, 1/4", 0, 0},
    };
    plot_spec spec = {.title = yours->drawn ? "4. r'/r against theta" : "4. r'/r (yours: not drawn)",
                      .x_label = "theta (deg)", .y_label = "r'/r",
                      .x_min = -360, .x_max = 360, .x_step = 180, .y_min = 0, .y_max = 1.25, .y_step = 0.25,
                      .series = s, .series_count = 4};
    return plot_draw(out, W, H, &spec, d);
}

/* ---- the exercise ----------------------------------------------------------------------------- */
/* Exercise 4's second rule: an answer whose square is within 4e-15 of the expected square
 * (near the collapse r' = sqrt(x) moves by 1e-16 / (2 sqrt(x)), whichever correct form
 * computed it). */
static bool radius_square_within(const grade_answer *got, const grade_answer *want)
{
    double g = got->v[0], w = want->v[0];
    return got->n == 1 && want->n == 1 && g >= 0 && fabs(g * g - w * w) <= 4e-15;
}

const grade_exercise grade30_ex_ring_radius = {
    .title = "the ring radius r'/r = sqrt(1 - 4 w (1-w) sin^2(theta/2))",
    .function = "ex30_ring_radius_ratio",
    .page = "lab/ch30/README.md",
    .heading = "Exercise 4: the ring radius",
    .reference = (grade_fn)ex30_ring_radius_ratio,
    .shape = GRADE_NUMBER,
    .named = 5,
    .generated = GRADE30_GENERATED,
    .make_case = radius_case,
    .expected = radius_expected,
    .tolerance = 1e-12,
    GRADE30_MISTAKES(radius_mistakes),
    .picture_points = points_radius,
    .picture = draw_radius,
    .sheet = GRADE30_SHEET_LAB30,
    GRADE30_COMMON,
    .call = call,
    .lab = (grade_fn)lab,
    .also_within = radius_square_within,
};
