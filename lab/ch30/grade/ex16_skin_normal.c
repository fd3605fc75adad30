/* ex16_skin_normal.c - exercise 16 of chapter 30, whole: a normal skinned three ways: rigid,
 * blended inverse transpose, per bone (ex30_skin_normal on lab/ch30/sheets/normals.c, declared
 * in exercises30.h). Its cases (the chapter's named ones, then generated ones from the seed),
 * the lab's answer on a case, the call of the student's function, the mistakes the pages warn
 * about (each written as a student would), its picture, and the exercise as the engine takes
 * it (src/grade/exercise.h), on the chapter's ordered list (GRADE30_LIST, grade30_table.h). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/diag.h"
#include "draw/diagram.h"
#include "draw/figure.h"
#include "draw/plot.h"
#include "math/linalg.h"
#include "skin/influences.h"
#include "skin/normals.h"
#include "solve/sparse.h"

#include "grade30_cases.h"
#include "grade30_figure.h"
#include "grade30_random.h"
#include "grade30_table.h"

/* The sheet's function, weak: the grader links no sheet (each is a shared object of its
 * own, opened by name in the grading child), so `reference` is NULL there; the suites link
 * the reference solutions. */
#pragma weak ex30_skin_normal

/* ---- the cases and the lab's answer ----------------------------------------------------------- */
static const char *const method_names[] = {"rigid", "blended inverse transpose", "per-bone inverse transpose"};

/* Whether every linear part the methods invert is far from singular. */
static bool invertible(const grade30_case *c)
{
    mat4 sum = mat4_scale_by(mat4_identity(), 0);
    double sv[3];
    for (int i = 0; i < c->k; i++) {
        mat4_linear_singular_values(c->palette[c->joint[i]], sv);
        if (!(sv[2] > 0.05))
            return false;
        sum = mat4_add(sum, mat4_scale_by(c->palette[c->joint[i]], c->weight[i]));
    }
    mat4_linear_singular_values(sum, sv);
    return sv[2] > 0.05;
}

static void normal_skin_case(int i, uint64_t seed, grade30_case *c)
{
    grade30_case_clear(c);
    rng r = stream(seed, GRADE30_SKIN_NORMAL, i);
    if (i < 6) { /* the chapter's: a turn (the three agree), an uneven scale (they part), each method */
        bool scaled = i >= 3;
        c->method = i % 3, c->k = 2, c->palette_count = 2;
        c->joint[0] = 0, c->joint[1] = 1, c->weight[0] = 0.5, c->weight[1] = 0.5;
        c->palette[0] = mat4_identity();
        c->palette[1] = scaled ? mat4_mul(mat4_rotate_z(DEG(60)), mat4_scale(3, 1, 0.5)) : mat4_rotate_z(DEG(90));
        c->p = vec3_normalize(vec3_make(1, 1, 0.5));
        snprintf(c->what, sizeof c->what, "%s: n = (1, 1, 0.5)/|.|, weights 0.5, 0.5, C_1 = %s", method_names[c->method],
                 scaled ? "Rz(60) S(3, 1, 0.5): the methods part" : "Rz(90): the three agree");
        return;
    }
    do {
        c->palette_count = 2 + below(&r, GRADE30_MAX_PALETTE - 1);
        c->k = 1 + below(&r, c->palette_count);
        for (int j = 0; j < c->palette_count; j++) {
            char ignored[200] = "";
            vec3 s = scales(&r);
            c->palette[j] = mat4_mul(rigid(&r, ignored, sizeof ignored, "C"), mat4_scale(s.x, s.y, s.z));
            if (below(&r, 4) == 0) /* a shear */
                c->palette[j].m[0][1] += uniform(&r, -1, 1);
        }
        for (int j = 0; j < c->k; j++)
            c->joint[j] = below(&r, c->palette_count);
        grade30_weights(&r, c->weight, c->k);
    } while (!invertible(c));
    c->method = below(&r, 3);
    c->p = vec3_normalize(offset(&r, 1));
    char d[200];
    snprintf(d, sizeof d, "%s, %d influences of %d palette matrices (scaled, some sheared)", method_names[c->method],
             c->k, c->palette_count);
    words(c, d, seed);
}

static grade30_answer normal_skin_expected(const grade30_case *c)
{
    skin_influences in = {1, c->k, (int *)c->joint, (double *)c->weight};
    vec3 out;
    if (normals_skin(&c->p, &in, c->palette, c->palette_count, (normals_method)c->method, &out, NULL) != LAB_OK)
        abort(); /* the generator keeps every case valid */
    return grade30_answer_point(out);
}

/* The lab's own function, in the sheet's signature: the other side of the picture (where
 * the student's picture is the lab's, the pose cannot show the mistake). */
static vec3 lab(vec3 n, const int *joint, const double *weight, int k, const mat4 *palette, ex30_normal_method method)
{
    skin_influences in = {1, k, (int *)joint, (double *)weight};
    int slots = 0; /* the palette's size: the highest joint named, plus one */
    for (int j = 0; j < k; j++)
        slots = joint[j] + 1 > slots ? joint[j] + 1 : slots;
    vec3 out = vec3_make(NAN, NAN, NAN);
    normals_skin(&n, &in, palette, slots, (normals_method)method, &out, NULL);
    return out;
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
    grade30_put_point(a, f.skin_normal(c->p, joint, weight, c->k, palette, (ex30_normal_method)c->method));
}

/* ---- the known mistakes, each named in the chapter's words ------------------------------------ */
typedef enum { NORMAL_RIGHT, NORMAL_NOT_RENORMALISED, NORMAL_NO_INVERSE_TRANSPOSE, NORMAL_PER_BONE_AS_BLENDED,
               NORMAL_INVERSE_ONLY, NORMAL_AS_POINT } normal_slip;

static mat4 inverse_transpose(mat4 a, bool transposed)
{
    mat4 out = mat4_identity();
    (void)mat4_linear_inverse_transpose(a, &out, "normal", NULL);
    return transposed ? out : mat4_transpose(out);
}

static vec3 skin_normal(normal_slip slip, vec3 n, const int *joint, const double *weight, int k, const mat4 *palette,
                        ex30_normal_method method)
{
    bool per_bone = method == EX30_NORMAL_PER_BONE && slip != NORMAL_PER_BONE_AS_BLENDED;
    bool blended = method == EX30_NORMAL_BLENDED || (method == EX30_NORMAL_PER_BONE && slip == NORMAL_PER_BONE_AS_BLENDED);
    bool inverts = slip != NORMAL_NO_INVERSE_TRANSPOSE, transposed = slip != NORMAL_INVERSE_ONLY;
    mat4 sum = mat4_scale_by(mat4_identity(), 0);
    for (int i = 0; i < k; i++) {
        mat4 s = palette[joint[i]];
        sum = mat4_add(sum, mat4_scale_by(per_bone && inverts ? inverse_transpose(s, transposed) : s, weight[i]));
    }
    if (blended && inverts)
        sum = inverse_transpose(sum, transposed);
    vec3 out = slip == NORMAL_AS_POINT ? mat4_transform_point(sum, n) : mat4_transform_direction(sum, n);
    return slip == NORMAL_NOT_RENORMALISED ? out : vec3_normalize(out);
}
#define NORMAL_MISTAKE(name, slip)                                                                                   \
    static vec3 name(vec3 n, const int *joint, const double *weight, int k, const mat4 *palette, ex30_normal_method method) \
    {                                                                                                                \
        return skin_normal(slip, n, joint, weight, k, palette, method);                                             \
    }
NORMAL_MISTAKE(mistake_normal_not_renormalised, NORMAL_NOT_RENORMALISED)
NORMAL_MISTAKE(mistake_normal_no_inverse_transpose, NORMAL_NO_INVERSE_TRANSPOSE)
NORMAL_MISTAKE(mistake_normal_per_bone_as_blended, NORMAL_PER_BONE_AS_BLENDED)
NORMAL_MISTAKE(mistake_normal_inverse_only, NORMAL_INVERSE_ONLY)
NORMAL_MISTAKE(mistake_normal_as_point, NORMAL_AS_POINT)

static const grade_mistake skin_normal_mistakes[] = {
    {"not renormalised: a blended or inverse-transposed normal changes length", (grade_fn)mistake_normal_not_renormalised},
    {"no inverse transpose: the blended and per-bone methods carry n by (L^-1)^T", (grade_fn)mistake_normal_no_inverse_transpose},
    {"per bone as blended: per-bone sums the inverse transposes, sum w_i (S_i^-1)^T, not (sum w_i S_i)^-T",
     (grade_fn)mistake_normal_per_bone_as_blended},
    {"the inverse without the transpose", (grade_fn)mistake_normal_inverse_only},
    {"the normal carried as a point: a normal is a direction, no translation", (grade_fn)mistake_normal_as_point},
};

/* ---- the picture ------------------------------------------------------------------------------ */
enum { LIT = 24 };
static const vec3 light = {0.6, -0.3, 0.74};

static void lit_rig(mat4 palette[2], vec3 *normals)
{
    palette[0] = mat4_identity();
    palette[1] = mat4_mul(mat4_rotate_z(deg_to_rad(60)), mat4_scale(2.5, 1, 0.6));
    for (int s = 0; s < LIT; s++)
        normals[s] = vec3_make(cos(2 * LAB_PI * s / LIT), sin(2 * LAB_PI * s / LIT), 0);
}

static void points_skin_normal(grade_fn g, const grade30_case *failing, grade30_picture_data *out)
{
    grade30_fn f = grade30_fn_of(g);
    (void)failing; /* the named pose shows this exercise's mistakes */
    mat4 palette[2];
    vec3 n[LIT];
    lit_rig(palette, n);
    const int joint[2] = {0, 1};
    const double weight[2] = {0.5, 0.5};
    out->count = 3 * LIT, out->drawn = true;
    for (int m = 0; m < 3; m++)
        for (int s = 0; s < LIT; s++)
            out->yours[m * LIT + s] = f.skin_normal(n[s], joint, weight, 2, palette, (ex30_normal_method)m);
}

static lab_error draw_skin_normal(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    lab_error e = grade30_blank(out, "16. a ring's normals under a light,\nC_1 = Rz(60) S(2.5, 1, 0.6), w 0.5 0.5\nthe lab's row above yours", d);
    mat4 palette[2];
    vec3 n[LIT], lab[LIT];
    lit_rig(palette, n);
    skin_influences in = {LIT, 2, malloc(sizeof(int) * 2 * LIT), malloc(sizeof(double) * 2 * LIT)};
    if (e == LAB_OK && (!in.joint || !in.weight))
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "grade30", "a picture");
    for (int s = 0; e == LAB_OK && s < LIT; s++)
        in.joint[2 * s] = 0, in.joint[2 * s + 1] = 1, in.weight[2 * s] = in.weight[2 * s + 1] = 0.5;
    static const char *const names[] = {"rigid", "blended", "per-bone"};
    vec3 l = vec3_normalize(light);
    for (int m = 0; e == LAB_OK && m < 3; m++) {
        e = normals_skin(n, &in, palette, 2, (normals_method)m, lab, d);
        int top = 100 + m * 90, size = (W - 110) / LIT;
        raster_text(out, 8, top + 12, FIGURE_TEXT_SCALE, names[m], FIGURE_EDGE);
        for (int s = 0; e == LAB_OK && s < LIT; s++) {
            double shade[2] = {figure_lambert(lab[s], l), NAN};
            const vec3 *mine = &yours->yours[m * LIT + s];
            if (yours->drawn && vec3_is_finite(*mine))
                shade[1] = figure_lambert(*mine, l) * fmin(1, vec3_length(*mine)); /* a normal not unit shows darker or lighter */
            for (int k = 0; k < 2; k++) {
                int g = isfinite(shade[k]) ? (int)(40 + 215 * fmin(fmax(shade[k], 0), 1)) : 0;
                rgb c = isfinite(shade[k]) ? (rgb){(unsigned char)g, (unsigned char)g, (unsigned char)g} : YOURS;
                raster_fill_rect(out, 100 + s * size, top + k * (size + 4), size - 1, size, c);
            }
        }
    }
    free(in.joint), free(in.weight);
    return e;
}

/* ---- the exercise ----------------------------------------------------------------------------- */
const grade_exercise grade30_ex_skin_normal = {
    .title = "a normal skinned three ways: rigid, blended inverse transpose, per bone",
    .function = "ex30_skin_normal",
    .page = "lab/ch30/lab30-normals/README.md",
    .heading = "Exercise 16: three ways to skin a normal",
    .reference = (grade_fn)ex30_skin_normal,
    .shape = GRADE_POINT,
    .named = 6,
    .generated = GRADE30_GENERATED,
    .make_case = normal_skin_case,
    .expected = normal_skin_expected,
    .tolerance = 1e-9,
    GRADE30_MISTAKES(skin_normal_mistakes),
    .picture_points = points_skin_normal,
    .picture = draw_skin_normal,
    .sheet = GRADE30_SHEET_NORMALS,
    GRADE30_COMMON,
    .call = call,
    .lab = (grade_fn)lab,
};
