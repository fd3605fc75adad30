/* ex03_lbs_point.c - exercise 3 of chapter 30, whole: the LBS blend p~' = sum_j w_j C_j p~
 * (ex30_lbs_point on lab/ch30/exercises.c, declared in exercises30.h). Its cases (the
 * chapter's named ones, then generated ones from the seed), the lab's answer on a case, the
 * call of the student's function, the mistakes the pages warn about (each written as a student
 * would), its picture, and the exercise as the engine takes it (src/grade/exercise.h), on the
 * chapter's ordered list (GRADE30_LIST, grade30_table.h). */
#include <stdio.h>

#include "base/diag.h"
#include "draw/diagram.h"
#include "draw/plot.h"
#include "draw/raster.h"
#include "math/linalg.h"
#include "math/quat.h"
#include "mesh/mesh.h"
#include "skin/blend.h"
#include "skin/influences.h"

#include "grade30_figure.h"
#include "grade30_random.h"
#include "grade30_table.h"
#include "rig30.h"

/* The sheet's function, weak: the grader links no sheet (each is a shared object of its
 * own, opened by name in the grading child), so `reference` is NULL there; the suites link
 * the reference solutions. */
#pragma weak ex30_lbs_point

/* ---- the cases and the lab's answer ----------------------------------------------------------- */
static void lbs_case(int i, uint64_t seed, grade30_case *c)
{
    const mat4 hand = mat4_mul(mat4_mul(mat4_translate(0, 1, 0), mat4_rotate_z(DEG(90))), mat4_translate(0, -1, 0));
    const struct { const char *what; vec3 p; mat4 c1; double w[2]; } named[] = {
        {"the bind pose: C_0 = C_1 = I, weights 0.5, 0.5; no vertex may move", {1, 0, 1}, mat4_identity(), {0.5, 0.5}},
        {"the hand control: p = (1,1,0), C_0 = I, C_1 = Ty(1) Rz(90) Ty(-1), weights 0.5, 0.5", {1, 1, 0}, hand,
         {0.5, 0.5}},
        {"ring 2 (z = 0.5, w0 = 0.75, w1 = 0.25) at a 90 deg twist, vertex (1, 0, 0.5)", {1, 0, 0.5},
         mat4_rotate_z(DEG(90)), {0.75, 0.25}},
        {"weights 0.4 + 0.4 at the bind pose (\"Weights that do not sum to 1\"): w = 0.8, so 0.8 p", {1, 0, 1},
         mat4_identity(), {0.4, 0.4}},
    };
    grade30_case_clear(c);
    if (i < COUNT(named)) {
        snprintf(c->what, sizeof c->what, "%s", named[i].what);
        c->p = named[i].p, c->k = 2, c->palette_count = 2;
        c->joint[0] = 0, c->joint[1] = 1, c->weight[0] = named[i].w[0], c->weight[1] = named[i].w[1];
        c->palette[0] = mat4_identity(), c->palette[1] = named[i].c1;
        return;
    }
    rng r = stream(seed, 2, i);
    int n = 3 + below(&r, GRADE30_MAX_PALETTE - 2), k = 1 + below(&r, n); /* k <= n: palette[i] stays inside */
    char d[200] = "";
    for (int j = 0; j < n; j++) {
        char ignored[200] = "";
        vec3 s = scales(&r);
        c->palette[j] = mat4_mul(rigid(&r, ignored, sizeof ignored, "C"), mat4_scale(s.x, s.y, s.z));
    }
    /* joints: a permutation of distinct slots, slots with repeats, or slots that avoid 0 */
    int mode = below(&r, 3), order[GRADE30_MAX_PALETTE];
    shuffled(&r, order, n);
    double total = 0;
    for (int j = 0; j < k; j++) {
        c->joint[j] = mode == 0 ? order[j] : mode == 2 ? 1 + below(&r, n - 1) : below(&r, n);
        c->weight[j] = uniform(&r, 0.05, 1);
        total += c->weight[j];
    }
    for (int j = 0; j < k; j++)
        c->weight[j] /= total;
    c->k = k, c->palette_count = n;
    c->p = offset(&r, 2);
    size_t used = 0;
    used += (size_t)snprintf(d, sizeof d, "p = (%.3g, %.3g, %.3g), %d of %d palette matrices, joints", c->p.x, c->p.y,
                             c->p.z, k, n);
    for (int j = 0; j < k && used < sizeof d; j++)
        used += (size_t)snprintf(d + used, sizeof d - used, " %d", c->joint[j]);
    words(c, d, seed);
}

static grade30_answer lbs_expected(const grade30_case *c)
{
    vec4 want = skin_lbs_point(c->p, c->joint, c->weight, c->k, c->palette); /* the library's blend */
    return grade30_answer_point(vec3_make(want.x, want.y, want.z));
}

/* The lab's own function, in the sheet's signature: the other side of the picture (where
 * the student's picture is the lab's, the pose cannot show the mistake). */
static vec3 lab(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette)
{
    vec4 q = skin_lbs_point(p, joint, weight, k, palette);
    return vec3_make(q.x, q.y, q.z);
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
    grade30_put_point(a, f.lbs_point(c->p, joint, weight, c->k, palette));
}

/* ---- the known mistakes, each named in the chapter's words ------------------------------------ */
/* The sum as a student wrote it, with one thing changed as `how` says. */
typedef enum { WEIGHT_ONE, WEIGHT_SQUARED, WEIGHT_REVERSED, SLOT_BY_POSITION, LAST_DROPPED, AS_DIRECTION, DIVIDED } lbs_slip;
static vec3 lbs(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette, lbs_slip how)
{
    vec4 sum = {0, 0, 0, 0}, point = vec4_point(p);
    if (how == AS_DIRECTION)
        point.w = 0;
    for (int i = 0; i < (how == LAST_DROPPED ? k - 1 : k); i++) {
        double w = how == WEIGHT_ONE ? 1 : how == WEIGHT_SQUARED ? weight[i] * weight[i]
                 : how == WEIGHT_REVERSED ? weight[k - 1 - i] : weight[i];
        sum = vec4_add(sum, vec4_scale(mat4_mul_vec4(palette[how == SLOT_BY_POSITION ? i : joint[i]], point), w));
    }
    return how == DIVIDED ? vec3_make(sum.x / sum.w, sum.y / sum.w, sum.z / sum.w) : vec3_make(sum.x, sum.y, sum.z);
}
static vec3 mistake_weights_not_applied(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette)
{
    return lbs(p, joint, weight, k, palette, WEIGHT_ONE);
}
static vec3 mistake_weights_twice(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette)
{
    return lbs(p, joint, weight, k, palette, WEIGHT_SQUARED);
}
static vec3 mistake_divides_by_w(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette)
{
    return lbs(p, joint, weight, k, palette, DIVIDED);
}
static vec3 mistake_weights_swapped(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette)
{
    return lbs(p, joint, weight, k, palette, WEIGHT_REVERSED);
}
static vec3 mistake_palette_by_position(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette)
{
    return lbs(p, joint, weight, k, palette, SLOT_BY_POSITION);
}
static vec3 mistake_last_influence_dropped(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette)
{
    return lbs(p, joint, weight, k, palette, LAST_DROPPED);
}
static vec3 mistake_point_as_direction(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette)
{
    return lbs(p, joint, weight, k, palette, AS_DIRECTION);
}

static const grade_mistake lbs_mistakes[] = {
    {"weights not applied: sum_j C_j p~ counts every bone fully", (grade_fn)mistake_weights_not_applied},
    {"weights applied twice: w_j^2 C_j p~", (grade_fn)mistake_weights_twice},
    {"a homogeneous w divided although it is not 1: the chapter keeps p~' as it is, so data whose weights sum "
     "to 0.8 shows as 0.8 p",
     (grade_fn)mistake_divides_by_w},
    {"the weights in reverse order: weight[i] belongs to joint[i]", (grade_fn)mistake_weights_swapped},
    {"palette[i] for palette[joint[i]]: an influence names its palette slot", (grade_fn)mistake_palette_by_position},
    {"the last influence left out: the loop runs i < k - 1", (grade_fn)mistake_last_influence_dropped},
    {"p~ = (x, y, z, 0): a point carries w = 1, so the palette's translations move it",
     (grade_fn)mistake_point_as_direction},
};

/* ---- the picture ------------------------------------------------------------------------------ */
static void points_lbs(grade_fn g, const grade30_case *failing, grade30_picture_data *out)
{
    grade30_fn f = grade30_fn_of(g);
    (void)failing; /* the named pose shows this exercise's mistakes */
    rig30_rig rig = {0};
    mat4 palette[RIG30_JOINTS];
    out->drawn = grade30_twist_rig(&rig, palette, NULL) == LAB_OK;
    const skin_influences *in = &rig.influences;
    for (int v = 0; out->drawn && v < VERTICES; v++)
        out->yours[v] = f.lbs_point(rig.bind.vertices[v], in->joint + v * in->per_vertex,
                                    in->weight + v * in->per_vertex, in->per_vertex, palette);
    out->count = VERTICES;
    rig30_rig_free(&rig);
}

static lab_error draw_lbs(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    return grade30_draw_cylinder("3. the lab's blend", "yours (lab palette)", yours, out, d);
}

/* ---- the exercise ----------------------------------------------------------------------------- */
const grade_exercise grade30_ex_lbs_point = {
    .title = "the LBS blend p~' = sum_j w_j C_j p~",
    .function = "ex30_lbs_point",
    .page = "lab/ch30/README.md",
    .heading = "Exercise 3: the LBS blend",
    .reference = (grade_fn)ex30_lbs_point,
    .shape = GRADE_POINT,
    .named = 4,
    .generated = GRADE30_GENERATED,
    .make_case = lbs_case,
    .expected = lbs_expected,
    .tolerance = 1e-9,
    GRADE30_MISTAKES(lbs_mistakes),
    .picture_points = points_lbs,
    .picture = draw_lbs,
    .sheet = GRADE30_SHEET_LAB30,
    GRADE30_COMMON,
    .call = call,
    .lab = (grade_fn)lab,
};
