/* ex02_skin_matrix.c - exercise 2 of chapter 30, whole: the skin matrix C_j = G_j B_j^-1
 * (ex30_skin_matrix on lab/ch30/exercises.c, declared in exercises30.h). Its cases (the
 * chapter's named ones, then generated ones from the seed), the lab's answer on a case, the
 * call of the student's function, the mistakes the pages warn about (each written as a student
 * would), its picture, and the exercise as the engine takes it (src/grade/exercise.h), on the
 * chapter's ordered list (GRADE30_LIST, grade30_table.h). */
#include <stdio.h>
#include <string.h>

#include "base/diag.h"
#include "draw/diagram.h"
#include "draw/plot.h"
#include "draw/raster.h"
#include "math/linalg.h"
#include "math/quat.h"
#include "skin/pose.h"

#include "grade30_figure.h"
#include "grade30_random.h"
#include "grade30_table.h"

/* The sheet's function, weak: the grader links no sheet (each is a shared object of its
 * own, opened by name in the grading child), so `reference` is NULL there; the suites link
 * the reference solutions. */
#pragma weak ex30_skin_matrix

/* ---- the cases and the lab's answer ----------------------------------------------------------- */
static void skin_case(int i, uint64_t seed, grade30_case *c)
{
    static const struct { const char *what; double turn, bind_y, bind_z; } named[] = {
        {"the bind pose: G_1(0) = B_1 = Tz(2), so C_1 = I", 0, 0, 2},
        {"the hand control: G_1 = Ty(1) Rz(90), B_1 = Ty(1)", 90, 1, 0},
        {"the chapter's twist at 120 deg: G_1 = Tz(2) Rz(120), B_1 = Tz(2)", 120, 0, 2},
    };
    grade30_case_clear(c);
    if (i < COUNT(named)) {
        snprintf(c->what, sizeof c->what, "%s", named[i].what);
        mat4 bind = mat4_translate(0, named[i].bind_y, named[i].bind_z);
        c->a = mat4_mul(bind, mat4_rotate_z(DEG(named[i].turn)));
        c->b = mat4_translate(0, -named[i].bind_y, -named[i].bind_z);
        return;
    }
    rng r = stream(seed, 1, i);
    char d[200] = "";
    c->a = rigid(&r, d, sizeof d, "G");
    /* B = T(t) R S, so B^-1 = S^-1 R^T T(-t): an inverse bind that turns, scales and moves */
    vec3 ax, t = offset(&r, 3), s = scales(&r);
    double deg;
    mat4 turn = quat_to_mat4(rotation(&r, &ax, &deg));
    c->b = mat4_mul(mat4_mul(mat4_scale(1 / s.x, 1 / s.y, 1 / s.z), mat4_transpose(turn)),
                    mat4_translate(-t.x, -t.y, -t.z));
    size_t used = strlen(d);
    snprintf(d + used, sizeof d - used, "; B = T(%.3g, %.3g, %.3g) R(%.4g deg) S(%.3g, %.3g, %.3g)", t.x, t.y, t.z,
             deg, s.x, s.y, s.z);
    words(c, d, seed);
}

static grade30_answer skin_expected(const grade30_case *c)
{
    mat4 want; /* the library's palette product */
    int node = 0;
    skin_palette_run(&c->a, &node, &c->b, 1, &want);
    return grade30_answer_matrix(want);
}

/* The lab's own function, in the sheet's signature: the other side of the picture (where
 * the student's picture is the lab's, the pose cannot show the mistake). */
static mat4 lab(mat4 world, mat4 inverse_bind)
{
    mat4 out; /* the library's palette product over one joint */
    skin_palette_run(&world, &(int){0}, &inverse_bind, 1, &out);
    return out;
}

/* ---- the call, as a student's function is called (src/grade/arrays.h) ------------------------- */
static void call(const grade_exercise *x, grade_fn g, const grade30_case *c, grade_call *k, grade_answer *a)
{
    (void)x;
    if (!grade_call_ready(k)) /* no arrays: the inputs come by value */
        return;
    grade30_fn f = grade30_fn_of(g);
    grade30_put_matrix(a, f.skin_matrix(c->a, c->b));
}

/* ---- the known mistakes, each named in the chapter's words ------------------------------------ */
static mat4 mistake_binv_g(mat4 world, mat4 inverse_bind) { return mat4_mul(inverse_bind, world); }
static mat4 mistake_no_inverse_bind(mat4 world, mat4 inverse_bind)
{
    (void)inverse_bind;
    return world;
}
/* B^-1 inverted again: (A^-1, -A^-1 t) with A^-1 the transpose of the inverse transpose */
static mat4 mistake_bind_for_inverse(mat4 world, mat4 inverse_bind)
{
    mat4 it, b;
    if (mat4_linear_inverse_transpose(inverse_bind, &it, "mistake", NULL) != LAB_OK)
        return world;
    b = mat4_transpose(it);
    vec3 t = mat4_transform_direction(b, vec3_make(inverse_bind.m[0][3], inverse_bind.m[1][3], inverse_bind.m[2][3]));
    b.m[0][3] = -t.x, b.m[1][3] = -t.y, b.m[2][3] = -t.z;
    return mat4_mul(world, b);
}
static mat4 mistake_inverse_bind_linear_only(mat4 world, mat4 inverse_bind)
{
    return mat4_mul(world, mat4_linear_part(inverse_bind));
}

static const grade_mistake skin_mistakes[] = {
    {"B^-1 G for G B^-1: B_j^-1 acts first, so it stands on the right", (grade_fn)mistake_binv_g},
    {"a missing inverse bind: C_j = G_j moves the bind pose by B_j", (grade_fn)mistake_no_inverse_bind},
    {"B_j for B_j^-1: the inverse bind inverted back into the bind matrix", (grade_fn)mistake_bind_for_inverse},
    {"B_j^-1's translation dropped: only its 3x3 part used", (grade_fn)mistake_inverse_bind_linear_only},
};

/* ---- the picture ------------------------------------------------------------------------------ */
/* The hand control's point p = (1, 1, 0) with a square about it and its bone from the
 * joint at (0, 1), in the bind pose. */
static const vec3 bind_shape[] = {{0, 1, 0}, {1, 1, 0}, {1.2, 1.2, 0}, {0.8, 1.2, 0}, {0.8, 0.8, 0},
                                  {1.2, 0.8, 0}, {1.2, 1.2, 0}};
#define BIND_POINTS ((int)(sizeof bind_shape / sizeof bind_shape[0]))

static void points_skin(grade_fn g, const grade30_case *failing, grade30_picture_data *out)
{
    grade30_fn f = grade30_fn_of(g);
    (void)failing; /* the named pose shows this exercise's mistakes */
    mat4 c = f.skin_matrix(mat4_mul(mat4_translate(0, 1, 0), mat4_rotate_z(deg_to_rad(90))), mat4_translate(0, -1, 0));
    out->count = BIND_POINTS, out->drawn = true;
    for (int i = 0; i < BIND_POINTS; i++)
        out->yours[i] = mat4_transform_point(c, bind_shape[i]);
}

static lab_error draw_skin(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    diagram g;
    mat4 c = mat4_mul(mat4_mul(mat4_translate(0, 1, 0), mat4_rotate_z(deg_to_rad(90))), mat4_translate(0, -1, 0));
    return grade30_hand_panel(&g, out, "2. the skin matrix on the hand control:\nG = Ty(1) Rz(90), B = Ty(1); grey: bind", c,
                      bind_shape, BIND_POINTS, true, yours, d);
}

/* ---- the exercise ----------------------------------------------------------------------------- */
const grade_exercise grade30_ex_skin_matrix = {
    .title = "the skin matrix C_j = G_j B_j^-1",
    .function = "ex30_skin_matrix",
    .page = "lab/ch30/README.md",
    .heading = "Exercise 2: the skin matrix",
    .reference = (grade_fn)ex30_skin_matrix,
    .shape = GRADE_MATRIX,
    .named = 3,
    .generated = GRADE30_GENERATED,
    .make_case = skin_case,
    .expected = skin_expected,
    .tolerance = 1e-9,
    GRADE30_MISTAKES(skin_mistakes),
    .picture_points = points_skin,
    .picture = draw_skin,
    .sheet = GRADE30_SHEET_LAB30,
    GRADE30_COMMON,
    .call = call,
    .lab = (grade_fn)lab,
};
