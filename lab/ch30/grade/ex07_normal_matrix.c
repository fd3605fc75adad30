/* ex07_normal_matrix.c - exercise 7 of chapter 30, whole: the normal matrix (M_3x3^-1)^T
 * (ex30_normal_matrix on lab/ch30/exercises.c, declared in exercises30.h). Its cases (the
 * chapter's named ones, then generated ones from the seed), the lab's answer on a case, the
 * call of the student's function, the mistakes the pages warn about (each written as a student
 * would), its picture, and the exercise as the engine takes it (src/grade/exercise.h), on the
 * chapter's ordered list (GRADE30_LIST, grade30_table.h). */
#include <stdio.h>
#include <string.h>

#include "base/diag.h"
#include "draw/diagram.h"
#include "draw/figure.h"
#include "draw/plot.h"
#include "draw/raster.h"
#include "math/linalg.h"
#include "math/quat.h"

#include "grade30_figure.h"
#include "grade30_random.h"
#include "grade30_table.h"

/* The sheet's function, weak: the grader links no sheet (each is a shared object of its
 * own, opened by name in the grading child), so `reference` is NULL there; the suites link
 * the reference solutions. */
#pragma weak ex30_normal_matrix

/* ---- the cases and the lab's answer ----------------------------------------------------------- */
static void normal_case(int i, uint64_t seed, grade30_case *c)
{
    mat4 shear = mat4_identity();
    shear.m[0][1] = 0.5;
    const struct { const char *what; mat4 m; } named[] = {
        {"a rotation Rz(30): the normal matrix is the rotation itself", mat4_rotate_z(DEG(30))},
        {"the scaled child: S(2, 1, 1)", mat4_scale(2, 1, 1)},
        {"a shear: x += 0.5 y", shear},
        {"Tz(2) Rz(45) S(1, 1, 3): translation must not reach a normal",
         mat4_mul(mat4_mul(mat4_translate(0, 0, 2), mat4_rotate_z(DEG(45))), mat4_scale(1, 1, 3))},
        {"a mirror S(-1, 2, 1): det < 0", mat4_scale(-1, 2, 1)},
    };
    grade30_case_clear(c);
    if (i < COUNT(named)) {
        snprintf(c->what, sizeof c->what, "%s", named[i].what);
        c->a = named[i].m;
        return;
    }
    rng r = stream(seed, 6, i);
    char d[200] = "";
    mat4 outer = rigid(&r, d, sizeof d, "T R"), inner = quat_to_mat4(quat_from_axis_angle(axis(&r), DEG(angle_deg(&r))));
    mat4 s = mat4_identity();
    for (int j = 0; j < 3; j++)
        s.m[j][j] = (below(&r, 3) == 0 ? -1 : 1) * uniform(&r, 0.4, 2.5);
    int sheared = below(&r, 3), from = below(&r, 3), to = (from + 1 + below(&r, 2)) % 3;
    mat4 sh = mat4_identity();
    if (sheared)
        sh.m[to][from] = uniform(&r, -1, 1);
    c->a = mat4_mul(mat4_mul(mat4_mul(outer, sh), s), inner);
    size_t used = strlen(d);
    snprintf(d + used, sizeof d - used, "; S(%.3g, %.3g, %.3g)%s", s.m[0][0], s.m[1][1], s.m[2][2],
             sheared ? ", sheared" : "");
    words(c, d, seed);
}

static grade30_answer normal_expected(const grade30_case *c)
{
    mat4 want = mat4_identity();
    mat4_linear_inverse_transpose(c->a, &want, "grade30", NULL);
    return grade30_answer_matrix(want);
}

/* The lab's own function, in the sheet's signature: the other side of the picture (where
 * the student's picture is the lab's, the pose cannot show the mistake). */
static mat4 lab(mat4 m)
{
    mat4 out = mat4_identity();
    mat4_linear_inverse_transpose(m, &out, "grade30", NULL);
    return out;
}

/* ---- the call, as a student's function is called (src/grade/arrays.h) ------------------------- */
static void call(const grade_exercise *x, grade_fn g, const grade30_case *c, grade_call *k, grade_answer *a)
{
    (void)x;
    if (!grade_call_ready(k)) /* no arrays: the inputs come by value */
        return;
    grade30_fn f = grade30_fn_of(g);
    grade30_put_matrix(a, f.normal_matrix(c->a));
}

/* ---- the known mistakes, each named in the chapter's words ------------------------------------ */
static mat4 mistake_transpose(mat4 m) { return mat4_transpose(mat4_linear_part(m)); }
static mat4 mistake_inverse_only(mat4 m)
{
    mat4 it;
    return mat4_linear_inverse_transpose(m, &it, "mistake", NULL) == LAB_OK ? mat4_transpose(it) : m;
}
static mat4 mistake_m_itself(mat4 m) { return m; }
static mat4 mistake_linear_part(mat4 m) { return mat4_linear_part(m); }
static mat4 mistake_cofactor_only(mat4 m)
{
    mat4 it;
    if (mat4_linear_inverse_transpose(m, &it, "mistake", NULL) != LAB_OK)
        return m;
    double det = mat4_linear_det(m);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            it.m[r][c] *= det;
    return it;
}
static mat4 mistake_translation_kept(mat4 m)
{
    mat4 it;
    if (mat4_linear_inverse_transpose(m, &it, "mistake", NULL) != LAB_OK)
        return m;
    for (int r = 0; r < 3; r++)
        it.m[r][3] = m.m[r][3];
    return it;
}

static const grade_mistake normal_mistakes[] = {
    {"the transpose for the inverse transpose: a normal must stay perpendicular to the transformed surface",
     (grade_fn)mistake_transpose},
    {"the inverse without the transpose", (grade_fn)mistake_inverse_only},
    {"M itself: normals carried like points", (grade_fn)mistake_m_itself},
    {"M's 3x3 part: normals carried like directions, which holds for rotations only", (grade_fn)mistake_linear_part},
    {"the cofactor matrix without the division by det M: the right direction, the wrong length, and turned "
     "inside out where det M < 0",
     (grade_fn)mistake_cofactor_only},
    {"M's translation kept: a normal is a direction, the last column stays (0, 0, 0, 1)",
     (grade_fn)mistake_translation_kept},
};

/* ---- the picture ------------------------------------------------------------------------------ */
enum { SAMPLES = 9 };

/* The plane y = 0, sheared (y += 0.8 x) and scaled unevenly. */
static mat4 sheared(void)
{
    mat4 m = mat4_scale(1.5, 0.7, 1);
    m.m[1][0] = 0.8 * 0.7;
    return m;
}

static void points_normal(grade_fn g, const grade30_case *failing, grade30_picture_data *out)
{
    grade30_fn f = grade30_fn_of(g);
    (void)failing; /* the named pose shows this exercise's mistakes */
    mat4 n = f.normal_matrix(sheared());
    out->count = 1, out->drawn = true;
    out->yours[0] = vec3_normalize(mat4_transform_direction(n, vec3_make(0, 1, 0)));
}

static lab_error draw_normal(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    diagram g;
    lab_error e = grade30_diagram_panel(&g, out, 250, 186, 70,
                                "7. normals of the plane y = 0 under\nshear y += 0.8 x, then S(1.5, 0.7, 1)", d);
    if (e != LAB_OK)
        return e;
    diagram_axes(&g, -2.4, 2.4, -1.4, 1.8, 1, "x", "y");
    mat4 m = sheared();
    /* the true normal: the cross product of the surface's turned tangents (z, then x) */
    vec3 truth = vec3_normalize(vec3_cross(mat4_transform_direction(m, vec3_make(0, 0, 1)),
                                           mat4_transform_direction(m, vec3_make(1, 0, 0))));
    vec3 a = mat4_transform_point(m, vec3_make(-1.3, 0, 0)), b = mat4_transform_point(m, vec3_make(1.3, 0, 0));
    diagram_segment(&g, a.x, a.y, b.x, b.y, 0, FIGURE_EDGE);
    for (int i = 0; i < SAMPLES; i++) {
        vec3 p = mat4_transform_point(m, vec3_make(-1.2 + 2.4 * i / (SAMPLES - 1), 0, 0));
        diagram_segment(&g, p.x, p.y, p.x + 0.6 * truth.x, p.y + 0.6 * truth.y, 0, LABS);
        if (yours->drawn)
            diagram_segment(&g, p.x, p.y, p.x + 0.45 * yours->yours[0].x, p.y + 0.45 * yours->yours[0].y, 3, YOURS);
    }
    if (!yours->drawn)
        grade30_not_drawn(out);
    return LAB_OK;
}

/* ---- the exercise ----------------------------------------------------------------------------- */
const grade_exercise grade30_ex_normal_matrix = {
    .title = "the normal matrix (M_3x3^-1)^T",
    .function = "ex30_normal_matrix",
    .page = "lab/ch30/README.md",
    .heading = "Exercise 7: the normal matrix",
    .reference = (grade_fn)ex30_normal_matrix,
    .shape = GRADE_MATRIX,
    .named = 5,
    .generated = GRADE30_GENERATED,
    .make_case = normal_case,
    .expected = normal_expected,
    .tolerance = 1e-9,
    GRADE30_MISTAKES(normal_mistakes),
    .picture_points = points_normal,
    .picture = draw_normal,
    .sheet = GRADE30_SHEET_LAB30,
    GRADE30_COMMON,
    .call = call,
    .lab = (grade_fn)lab,
};
