/* ex24_corrective.c - exercise 24 of chapter 30, whole: a corrective shape, M (p + s d) before
 * skinning, M p + s R d after (ex30_corrective_point on lab/ch30/sheets/fixes.c, declared in
 * exercises30.h). Its cases (the chapter's named ones, then generated ones from the seed), the
 * lab's answer on a case, the call of the student's function, the mistakes the pages warn
 * about (each written as a student would), its picture, and the exercise as the engine takes
 * it (src/grade/exercise.h), on the chapter's ordered list (GRADE30_LIST, grade30_table.h). */
#include <stdbool.h>
#include <stdio.h>

#include "base/diag.h"
#include "draw/diagram.h"
#include "math/linalg.h"
#include "math/quat.h"

#include "grade30_figure.h"
#include "grade30_random.h"
#include "grade30_table.h"

/* The sheet's function, weak: the grader links no sheet (each is a shared object of its
 * own, opened by name in the grading child), so `reference` is NULL there; the suites link
 * the reference solutions. */
#pragma weak ex30_corrective_point

/* ---- the cases and the lab's answer ----------------------------------------------------------- */
static void corrective_case(int i, uint64_t seed, grade30_case *c)
{
    grade30_case_clear(c);
    if (i < 4) { /* the twist's middle ring at 180 deg: M squashes x, R turns by 90 */
        static const char *const what[] = {
            "before skinning, s = 1 (the trained pose): p = (1, 0, 1), d = (0, 1, 0), M the middle ring's blend at 180",
            "after skinning, s = 1: the delta turned by R = Rz(90)",
            "after skinning, s = 7/6 (the twist at 210): a weight above 1",
            "before skinning, s = -0.5: a weight below 0",
        };
        snprintf(c->what, sizeof c->what, "%s", what[i]);
        c->p = vec3_make(1, 0, 1), c->delta = vec3_make(0, 1, 0.2);
        c->a = mat4_add(mat4_scale_by(mat4_identity(), 0.5), mat4_scale_by(mat4_rotate_z(DEG(180)), 0.5));
        c->a.m[3][3] = 1, c->a.m[0][3] = 0.25; /* and moved, so that a translation taken twice shows */
        c->rotation = quat_from_axis_angle(vec3_make(0, 0, 1), DEG(90));
        c->after = i == 1 || i == 2, c->s = i == 2 ? 7.0 / 6 : i == 3 ? -0.5 : 1;
        return;
    }
    rng r = stream(seed, GRADE30_CORRECTIVE, i);
    char ignored[200] = "";
    vec3 sc = scales(&r), ax;
    double deg;
    c->a = mat4_mul(rigid(&r, ignored, sizeof ignored, "M"), mat4_scale(sc.x, sc.y, sc.z));
    c->rotation = rotation(&r, &ax, &deg);
    c->p = offset(&r, 2), c->delta = offset(&r, 0.5), c->s = uniform(&r, -1, 2), c->after = below(&r, 2);
    char d[200];
    snprintf(d, sizeof d, "%s skinning, s = %.4g, p = (%.3g, %.3g, %.3g), d = (%.3g, %.3g, %.3g), R %.4g deg",
             c->after ? "after" : "before", c->s, c->p.x, c->p.y, c->p.z, c->delta.x, c->delta.y, c->delta.z, deg);
    words(c, d, seed);
}

static grade30_answer corrective_expected(const grade30_case *c)
{
    vec3 p = c->after ? vec3_add(mat4_transform_point(c->a, c->p), vec3_scale(quat_rotate(c->rotation, c->delta), c->s))
                      : mat4_transform_point(c->a, vec3_add(c->p, vec3_scale(c->delta, c->s)));
    return grade30_answer_point(p);
}

/* The lab's own function, in the sheet's signature: the other side of the picture (where
 * the student's picture is the lab's, the pose cannot show the mistake). */
static vec3 lab(vec3 p, vec3 delta, double s, mat4 blend, quat rotation, bool after)
{
    if (after) /* the delta in the vertex's frame: turned with it, never moved */
        return vec3_add(mat4_transform_point(blend, p), vec3_scale(quat_rotate(rotation, delta), s));
    return mat4_transform_point(blend, vec3_add(p, vec3_scale(delta, s)));
}

/* ---- the call, as a student's function is called (src/grade/arrays.h) ------------------------- */
static void call(const grade_exercise *x, grade_fn g, const grade30_case *c, grade_call *k, grade_answer *a)
{
    (void)x;
    if (!grade_call_ready(k)) /* no arrays: the inputs come by value */
        return;
    grade30_fn f = grade30_fn_of(g);
    grade30_put_point(a, f.corrective_point(c->p, c->delta, c->s, c->a, c->rotation, c->after));
}

/* ---- the known mistakes, each named in the chapter's words ------------------------------------ */
typedef enum { SHAPE_UNSCALED, SHAPE_NOT_SKINNED, SHAPE_NO_ROTATION, SHAPE_ORDERS_SWAPPED, SHAPE_MOVED_TWICE } shape_slip;
static vec3 shape(shape_slip slip, vec3 p, vec3 d, double s, mat4 m, quat r, bool after)
{
    if (slip == SHAPE_UNSCALED)
        s = 1;
    if (slip == SHAPE_ORDERS_SWAPPED)
        after = !after;
    if (after)
        return vec3_add(mat4_transform_point(m, p), vec3_scale(slip == SHAPE_NO_ROTATION ? d : quat_rotate(r, d), s));
    if (slip == SHAPE_NOT_SKINNED)
        return vec3_add(mat4_transform_point(m, p), vec3_scale(d, s));
    if (slip == SHAPE_MOVED_TWICE) /* each term skinned as a point: M's translation twice */
        return vec3_add(mat4_transform_point(m, p), mat4_transform_point(m, vec3_scale(d, s)));
    return mat4_transform_point(m, vec3_add(p, vec3_scale(d, s)));
}
#define SHAPE_MISTAKE(name, slip)                                                        \
    static vec3 name(vec3 p, vec3 d, double s, mat4 m, quat r, bool after)                    \
    {                                                                                    \
        return shape(slip, p, d, s, m, r, after);                                        \
    }
SHAPE_MISTAKE(mistake_shape_unscaled, SHAPE_UNSCALED)
SHAPE_MISTAKE(mistake_shape_not_skinned, SHAPE_NOT_SKINNED)
SHAPE_MISTAKE(mistake_shape_no_rotation, SHAPE_NO_ROTATION)
SHAPE_MISTAKE(mistake_shape_orders_swapped, SHAPE_ORDERS_SWAPPED)
SHAPE_MISTAKE(mistake_shape_moved_twice, SHAPE_MOVED_TWICE)

static const grade_mistake corrective_mistakes[] = {
    {"the shape's weight left out: the delta is scaled by s, 1 only at the trained pose", (grade_fn)mistake_shape_unscaled},
    {"the morph target not skinned: before skinning the delta is added to p and skinned with it",
     (grade_fn)mistake_shape_not_skinned},
    {"after skinning without R: the delta is in the vertex's frame, so it turns with it", (grade_fn)mistake_shape_no_rotation},
    {"the orders swapped: before is M (p + s d), after is M p + s R d", (grade_fn)mistake_shape_orders_swapped},
    {"the delta skinned as a point: a delta is a direction, M's translation taken once",
     (grade_fn)mistake_shape_moved_twice},
};

/* ---- the picture ------------------------------------------------------------------------------ */
static void points_corrective(grade_fn g, const grade30_case *failing, grade30_picture_data *out) { (void)failing; grade30_fix_points(grade30_fn_of(g), false, out); }
static lab_error draw_corrective(const grade30_picture_data *yours, canvas *out, lab_diag *d) { return grade30_fix_draw(false, yours, out, d); }

/* ---- the exercise ----------------------------------------------------------------------------- */
const grade_exercise grade30_ex_corrective = {
    .title = "a corrective shape, M (p + s d) before skinning, M p + s R d after",
    .function = "ex30_corrective_point",
    .page = "lab/ch30/lab30-fixes/README.md",
    .heading = "Exercise 24: a corrective shape",
    .reference = (grade_fn)ex30_corrective_point,
    .shape = GRADE_POINT,
    .named = 4,
    .generated = GRADE30_GENERATED,
    .make_case = corrective_case,
    .expected = corrective_expected,
    .tolerance = 1e-9,
    GRADE30_MISTAKES(corrective_mistakes),
    .picture_points = points_corrective,
    .picture = draw_corrective,
    .sheet = GRADE30_SHEET_FIXES,
    GRADE30_COMMON,
    .call = call,
    .lab = (grade_fn)lab,
};
