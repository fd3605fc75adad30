/* ex23_cor_point.c - exercise 23 of chapter 30, whole: a vertex about its centre of rotation,
 * R (p - p*) + sum w C p* (ex30_cor_point on lab/ch30/sheets/fixes.c, declared in
 * exercises30.h). Its cases (the chapter's named ones, then generated ones from the seed), the
 * lab's answer on a case, the call of the student's function, the mistakes the pages warn
 * about (each written as a student would), its picture, and the exercise as the engine takes
 * it (src/grade/exercise.h), on the chapter's ordered list (GRADE30_LIST, grade30_table.h). */
#include <stdio.h>

#include "base/diag.h"
#include "draw/diagram.h"
#include "math/linalg.h"
#include "math/quat.h"
#include "skin/blend.h"

#include "grade30_figure.h"
#include "grade30_random.h"
#include "grade30_table.h"

/* The sheet's function, weak: the grader links no sheet (each is a shared object of its
 * own, opened by name in the grading child), so `reference` is NULL there; the suites link
 * the reference solutions. */
#pragma weak ex30_cor_point

/* ---- the cases and the lab's answer ----------------------------------------------------------- */
/* A rigid palette of n matrices (the skin matrices a rig's joints give), words aside. */
static void palette_of(rng *r, grade30_case *c, int n)
{
    char ignored[200] = "";
    c->palette_count = n;
    for (int j = 0; j < n; j++)
        c->palette[j] = rigid(r, ignored, sizeof ignored, "C");
}

static void cor_case(int i, uint64_t seed, grade30_case *c)
{
    grade30_case_clear(c);
    if (i < 2) { /* the twist at 180: the middle ring's vertex and its centre on the axis */
        snprintf(c->what, sizeof c->what, "%s",
                 i == 0 ? "the twist at 180 deg, the middle ring (w = 1/2): p = (1, 0, 1), p* = (0, 0, 1), R = Rz(90)"
                        : "the twist at 180 deg, ring 2 (w = 1/4): p = (0, 1, 0.5), p* = (0, 0, 0.5), R = Rz(45)");
        c->p = i == 0 ? vec3_make(1, 0, 1) : vec3_make(0, 1, 0.5);
        c->centre = vec3_make(0, 0, c->p.z);
        c->rotation = quat_from_axis_angle(vec3_make(0, 0, 1), DEG(i == 0 ? 90 : 45));
        c->k = 2, c->palette_count = 2, c->joint[0] = 0, c->joint[1] = 1;
        c->weight[1] = i == 0 ? 0.5 : 0.25, c->weight[0] = 1 - c->weight[1];
        c->palette[0] = mat4_identity(), c->palette[1] = mat4_rotate_z(DEG(180));
        return;
    }
    rng r = stream(seed, GRADE30_COR_POINT, i);
    palette_of(&r, c, 2 + below(&r, GRADE30_MAX_PALETTE - 1));
    c->k = 1 + below(&r, c->palette_count);
    double total = 0;
    for (int j = 0; j < c->k; j++)
        c->joint[j] = below(&r, c->palette_count), total += (c->weight[j] = uniform(&r, 0.05, 1));
    for (int j = 0; j < c->k; j++)
        c->weight[j] /= total;
    vec3 ax;
    double deg;
    c->rotation = rotation(&r, &ax, &deg);
    c->p = offset(&r, 2), c->centre = offset(&r, 2);
    char d[200];
    snprintf(d, sizeof d, "p = (%.3g, %.3g, %.3g), p* = (%.3g, %.3g, %.3g), R %.4g deg, %d of %d matrices", c->p.x, c->p.y,
             c->p.z, c->centre.x, c->centre.y, c->centre.z, deg, c->k, c->palette_count);
    words(c, d, seed);
}

static grade30_answer cor_expected(const grade30_case *c)
{
    vec4 lbs = skin_lbs_point(c->centre, c->joint, c->weight, c->k, c->palette);
    return grade30_answer_point(vec3_add(quat_rotate(c->rotation, vec3_sub(c->p, c->centre)), vec3_make(lbs.x, lbs.y, lbs.z)));
}

/* The lab's own function, in the sheet's signature: the other side of the picture (where
 * the student's picture is the lab's, the pose cannot show the mistake). */
static vec3 lab(vec3 p, vec3 centre, quat rotation, const int *joint, const double *weight, int k, const mat4 *palette)
{
    vec4 moved = skin_lbs_point(centre, joint, weight, k, palette); /* the centre's LBS carries the vertex */
    return vec3_add(quat_rotate(rotation, vec3_sub(p, centre)), vec3_make(moved.x, moved.y, moved.z));
}

/* ---- the call, as a student's function is called (src/grade/arrays.h) ------------------------- */
static void call(const grade_exercise *x, grade_fn g, const grade30_case *c, grade_call *k, grade_answer *a)
{
    (void)x;
    const int *joint;
    const double *weight;
    const mat4 *palette;
    if (!grade30_influences(k, c, &joint, &weight, &palette))
        return;
    grade30_fn f = grade30_fn_of(g);
    grade30_put_point(a, f.cor_point(c->p, c->centre, c->rotation, joint, weight, c->k, palette));
}

/* ---- the known mistakes, each named in the chapter's words ------------------------------------ */
typedef enum { COR_NOT_ABOUT_CENTRE, COR_LBS_OF_VERTEX, COR_CENTRE_NOT_SKINNED, COR_INVERSE } cor_slip;
static vec3 cor(cor_slip slip, vec3 p, vec3 centre, quat r, const int *joint, const double *weight, int k,
                const mat4 *palette)
{
    vec4 lbs = skin_lbs_point(slip == COR_LBS_OF_VERTEX ? p : centre, joint, weight, k, palette);
    vec3 moved = slip == COR_CENTRE_NOT_SKINNED ? centre : vec3_make(lbs.x, lbs.y, lbs.z);
    vec3 arm = slip == COR_NOT_ABOUT_CENTRE ? p : vec3_sub(p, centre);
    return vec3_add(quat_rotate(slip == COR_INVERSE ? quat_conjugate(r) : r, arm), moved);
}
#define COR_MISTAKE(name, slip)                                                                                      \
    static vec3 name(vec3 p, vec3 centre, quat r, const int *joint, const double *weight, int k, const mat4 *palette) \
    {                                                                                                                \
        return cor(slip, p, centre, r, joint, weight, k, palette);                                                 \
    }
COR_MISTAKE(mistake_cor_not_about_centre, COR_NOT_ABOUT_CENTRE)
COR_MISTAKE(mistake_cor_lbs_of_vertex, COR_LBS_OF_VERTEX)
COR_MISTAKE(mistake_cor_centre_not_skinned, COR_CENTRE_NOT_SKINNED)
COR_MISTAKE(mistake_cor_inverse, COR_INVERSE)

static const grade_mistake cor_mistakes[] = {
    {"turned about the origin: R (p - p*), the vertex turns about its own centre", (grade_fn)mistake_cor_not_about_centre},
    {"the vertex skinned by LBS, not its centre: the centre's LBS carries the vertex", (grade_fn)mistake_cor_lbs_of_vertex},
    {"the centre not skinned: p* moves with the joints, sum w C p*", (grade_fn)mistake_cor_centre_not_skinned},
    {"turned by R*: the blended rotation itself turns the vertex", (grade_fn)mistake_cor_inverse},
};

/* ---- the picture ------------------------------------------------------------------------------ */
static void points_cor(grade_fn g, const grade30_case *failing, grade30_picture_data *out) { (void)failing; grade30_fix_points(grade30_fn_of(g), true, out); }
static lab_error draw_cor(const grade30_picture_data *yours, canvas *out, lab_diag *d) { return grade30_fix_draw(true, yours, out, d); }

/* ---- the exercise ----------------------------------------------------------------------------- */
const grade_exercise grade30_ex_cor_point = {
    .title = "a vertex about its centre of rotation, R (p - p*) + sum w C p*",
    .function = "ex30_cor_point",
    .page = "lab/ch30/lab30-fixes/README.md",
    .heading = "Exercise 23: centres of rotation",
    .reference = (grade_fn)ex30_cor_point,
    .shape = GRADE_POINT,
    .named = 2,
    .generated = GRADE30_GENERATED,
    .make_case = cor_case,
    .expected = cor_expected,
    .tolerance = 1e-9,
    GRADE30_MISTAKES(cor_mistakes),
    .picture_points = points_cor,
    .picture = draw_cor,
    .sheet = GRADE30_SHEET_FIXES,
    GRADE30_COMMON,
    .call = call,
    .lab = (grade_fn)lab,
};
