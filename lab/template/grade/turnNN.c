/* turn@NN@.c - exercise 1 of chapter @NN@, whole: p' = Rz(theta) p (exercises@NN@.h). Its
 * cases (the chapter's named ones, then generated ones that a convenient value cannot hide
 * behind: every sign, the seams at multiples of 90 degrees, beyond one turn, points off the
 * axis and off the plane), the lab's answer (the library's rotation matrix, mat4_rotate_z),
 * the call of the student's function, the mistakes the chapter warns about, each written as
 * a student would, and the picture: the failing case when there is one, else a ring turned
 * by 120 degrees, the student's points (red) beside the lab's (green). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "draw/diagram.h"
#include "draw/figure.h"

#include "exercises@NN@.h"
#include "grade@NN@.h"

/* The sheet's function, weak: the grader links no sheet (each is a shared object of its
 * own, opened by name in the grading child), so the reference is NULL there; the suite links
 * solutions/reference.c, and it is that. */
#pragma weak ex@NN@_turn

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

typedef vec3 (*turn_fn)(vec3 p, double theta);

static turn_fn typed(grade_fn f)
{
    turn_fn t;
    memcpy(&t, &f, sizeof f);
    return t;
}

/* ---- the cases ----------------------------------------------------------------------------- */

/* splitmix64: case i's numbers from (seed, i) alone */
static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static double uniform(uint64_t *s, double lo, double hi) { return lo + (hi - lo) * (double)(next(s) >> 11) * 0x1p-53; }

static void turn_case(int i, uint64_t seed, grade_case *c)
{
    static const struct { const char *what; vec3 p; double deg; } named[] = {
        {"(1, 0, 0) by 90 deg: (0, 1, 0), counter-clockwise seen from +z", {1, 0, 0}, 90},
        {"(1, 0, 0.5) by 0 deg: unchanged", {1, 0, 0.5}, 0},
        {"(0, 1, 2) by 180 deg: (0, -1, 2), the height kept", {0, 1, 2}, 180},
        {"(1, 0, 0) by -90 deg: clockwise, (0, -1, 0)", {1, 0, 0}, -90},
        {"(1, 1, 0) by 450 deg: beyond one turn, as 90", {1, 1, 0}, 450},
        {"(0.5, -2, 1) by -3600 deg: ten turns back, unchanged", {0.5, -2, 1}, -3600},
    };
    memset(c, 0, sizeof *c);
    if (i < COUNT(named)) {
        snprintf(c->what, sizeof c->what, "%s", named[i].what);
        c->p = named[i].p, c->theta = deg_to_rad(named[i].deg);
        return;
    }
    uint64_t s = seed * 0x100000001B3ull ^ (uint64_t)i;
    c->p = vec3_make(uniform(&s, -3, 3), uniform(&s, -3, 3), uniform(&s, -3, 3));
    int mode = (int)(next(&s) % 3);
    if (mode == 0) /* any angle within four turns either way */
        c->theta = uniform(&s, -8 * LAB_PI, 8 * LAB_PI);
    else if (mode == 1) /* a seam: a multiple of 90 degrees, up to two turns either way */
        c->theta = deg_to_rad(90.0 * (double)((int)(next(&s) % 17) - 8));
    else /* a small angle, of either sign */
        c->theta = uniform(&s, -0.1, 0.1);
    snprintf(c->what, sizeof c->what, "generated (seed %llu, case %d): (%.6g, %.6g, %.6g) by %.9g deg",
             (unsigned long long)seed, i, c->p.x, c->p.y, c->p.z, rad_to_deg(c->theta));
}

/* The lab's answer: the library's matrix, applied. */
static grade_answer turn_expected(const grade_case *c)
{
    grade_answer a;
    grade_answer_clear(&a);
    vec3 q = mat4_transform_point(mat4_rotate_z(c->theta), c->p);
    grade_put(&a, q.x), grade_put(&a, q.y), grade_put(&a, q.z);
    return a;
}

static void turn_call(const grade_exercise *x, grade_fn f, const grade_case *c, grade_call *k, grade_answer *a)
{
    (void)x;
    if (!grade_call_ready(k)) /* no arrays: p and theta come by value */
        return;
    vec3 q = typed(f)(c->p, c->theta);
    grade_put(a, q.x), grade_put(a, q.y), grade_put(a, q.z);
}

/* ---- the mistakes, as a student would write them --------------------------------------------- */

static vec3 turned(vec3 p, double c, double s, double z) { return vec3_make(c * p.x - s * p.y, s * p.x + c * p.y, z); }
static vec3 as_degrees(vec3 p, double theta) { return turned(p, cos(deg_to_rad(theta)), sin(deg_to_rad(theta)), p.z); }
static vec3 clockwise(vec3 p, double theta) { return turned(p, cos(theta), -sin(theta), p.z); }
static vec3 sin_for_cos(vec3 p, double theta) { return turned(p, sin(theta), cos(theta), p.z); }
static vec3 height_lost(vec3 p, double theta) { return turned(p, cos(theta), sin(theta), 0); }

static const grade_mistake turn_mistakes[] = {
    {"degrees for radians: theta arrives in radians", (grade_fn)as_degrees},
    {"clockwise: Rz(theta) turns x towards y, counter-clockwise seen from +z", (grade_fn)clockwise},
    {"sin and cos swapped: x' = x cos theta - y sin theta", (grade_fn)sin_for_cos},
    {"the height lost: a turn about z keeps z", (grade_fn)height_lost},
};

/* ---- the picture --------------------------------------------------------------------------- */

static void turn_points(grade_fn f, const grade_case *failing, grade_picture *out)
{
    out->failing = failing != NULL;
    out->theta = failing ? failing->theta : deg_to_rad(120);
    out->count = failing ? 1 : GRADE@NN@_PICTURE_POINTS;
    for (int k = 0; k < out->count; k++) {
        double a = 2 * LAB_PI * k / GRADE@NN@_PICTURE_POINTS;
        out->from[k] = failing ? failing->p : vec3_make(cos(a), sin(a), 0);
        out->yours[k] = typed(f)(out->from[k], out->theta);
    }
    out->drawn = true;
}

/* The plane z = 0 seen from +z: the input (grey), the lab's turn of it (green), yours (red). */
static lab_error turn_picture(const grade_picture *yours, canvas *out, lab_diag *d)
{
    double extent = 1.2;
    for (int k = 0; yours->drawn && k < yours->count; k++) {
        vec3 lab = mat4_transform_point(mat4_rotate_z(yours->theta), yours->from[k]);
        extent = fmax(extent, 1.2 * fmax(fmax(fabs(yours->yours[k].x), fabs(yours->yours[k].y)),
                                          fmax(fabs(lab.x), fabs(lab.y))));
    }
    if (!isfinite(extent))
        extent = 1.2;
    char title[160];
    snprintf(title, sizeof title, "1. the turn by %.6g deg%s\ngreen the lab's, red yours", rad_to_deg(yours->theta),
             yours->failing ? ": the first failing case" : "");
    diagram g;
    lab_error e = diagram_init(&g, out, GRADE_PICTURE_W, GRADE_PICTURE_H, GRADE_PICTURE_W / 2.0,
                               GRADE_PICTURE_H / 2.0 + 20, 150 / extent, title, d);
    if (e != LAB_OK)
        return e;
    diagram_axes(&g, -extent, extent, -extent, extent, extent > 5 ? 2 : 1, "x", "y");
    for (int k = 0; k < yours->count; k++) {
        vec3 from = yours->from[k], lab = mat4_transform_point(mat4_rotate_z(yours->theta), from);
        diagram_point(&g, from.x, from.y, DIAGRAM_GREY, DIAGRAM_LEFT, "%s", yours->count == 1 ? "p" : "");
        diagram_point(&g, lab.x, lab.y, DIAGRAM_GREEN, DIAGRAM_RIGHT, "%s", yours->count == 1 ? "lab" : "");
        if (yours->drawn && isfinite(yours->yours[k].x) && isfinite(yours->yours[k].y))
            diagram_point(&g, yours->yours[k].x, yours->yours[k].y, DIAGRAM_RED, DIAGRAM_ABOVE, "%s",
                          yours->count == 1 ? "yours" : "");
    }
    return LAB_OK;
}

/* ---- the exercise -------------------------------------------------------------------------- */

const grade_exercise grade@NN@_turn = {
    .title = "the turn p' = Rz(theta) p",
    .function = "ex@NN@_turn",
    .page = "lab/ch@NN@/README.md",
    .heading = "Exercise 1: the turn",
    .reference = (grade_fn)ex@NN@_turn,
    .shape = GRADE_POINT,
    .named = 6,
    .generated = 240,
    .make_case = turn_case,
    .expected = turn_expected,
    .tolerance = 1e-9,
    .mistakes = turn_mistakes,
    .mistake_count = COUNT(turn_mistakes),
    .picture_points = turn_points,
    .picture = turn_picture,
    .picture_draws_failing = true,
    .sheet = 0,
    .case_size = sizeof(grade_case),
    .call = turn_call,
};
