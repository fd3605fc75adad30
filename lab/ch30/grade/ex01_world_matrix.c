/* ex01_world_matrix.c - exercise 1 of chapter 30, whole: the world matrix G_i = G_parent L_i
 * (ex30_world_matrix on lab/ch30/exercises.c, declared in exercises30.h). Its cases (the
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
#include "mesh/scene.h"

#include "grade30_figure.h"
#include "grade30_random.h"
#include "grade30_table.h"

/* The sheet's function, weak: the grader links no sheet (each is a shared object of its
 * own, opened by name in the grading child), so `reference` is NULL there; the suites link
 * the reference solutions. */
#pragma weak ex30_world_matrix

/* ---- the cases and the lab's answer ----------------------------------------------------------- */
static void world_case(int i, uint64_t seed, grade30_case *c)
{
    grade30_case_clear(c);
    if (i == 0) {
        snprintf(c->what, sizeof c->what, "the chapter's twist at 90 deg: G_0 = I, L_1 = Tz(2) Rz(90)");
        c->a = mat4_identity(), c->b = mat4_mul(mat4_translate(0, 0, 2), mat4_rotate_z(DEG(90)));
        return;
    }
    if (i == 1) {
        snprintf(c->what, sizeof c->what, "the hand control's chain: G_parent = Ty(1) Rz(90), L = Tx(1) Rz(30)");
        c->a = mat4_mul(mat4_translate(0, 1, 0), mat4_rotate_z(DEG(90)));
        c->b = mat4_mul(mat4_translate(1, 0, 0), mat4_rotate_z(DEG(30)));
        return;
    }
    rng r = stream(seed, 0, i);
    char d[200] = "";
    c->a = rigid(&r, d, sizeof d, "G_parent"), c->b = rigid(&r, d, sizeof d, "L");
    if (below(&r, 3) == 0) { /* a scaled parent: a joint's world may carry its parent's scale */
        vec3 s = scales(&r);
        c->a = mat4_mul(c->a, mat4_scale(s.x, s.y, s.z));
    }
    words(c, d, seed);
}

static grade30_answer world_expected(const grade30_case *c)
{
    /* the lab's hierarchy product over a two-node chain, parents first */
    scene_node nodes[2] = {{.parent = SCENE_NO_PARENT, .local = c->a}, {.parent = 0, .local = c->b}};
    mat4 world[2];
    scene_world(nodes, 2, NULL, world);
    return grade30_answer_matrix(world[1]);
}

/* The lab's own function, in the sheet's signature: the other side of the picture (where
 * the student's picture is the lab's, the pose cannot show the mistake). */
static mat4 lab(mat4 parent_world, mat4 local) { return mat4_mul(parent_world, local); }

/* ---- the call, as a student's function is called (src/grade/arrays.h) ------------------------- */
static void call(const grade_exercise *x, grade_fn g, const grade30_case *c, grade_call *k, grade_answer *a)
{
    (void)x;
    if (!grade_call_ready(k)) /* no arrays: the inputs come by value */
        return;
    grade30_fn f = grade30_fn_of(g);
    grade30_put_matrix(a, f.world_matrix(c->a, c->b));
}

/* ---- the known mistakes, each named in the chapter's words ------------------------------------ */
static mat4 mistake_l_g(mat4 parent_world, mat4 local) { return mat4_mul(local, parent_world); }
static mat4 mistake_local_alone(mat4 parent_world, mat4 local)
{
    (void)parent_world;
    return local;
}
static mat4 mistake_parent_alone(mat4 parent_world, mat4 local)
{
    (void)local;
    return parent_world;
}
/* the rotations multiplied, the translations summed */
static mat4 mistake_translations_added(mat4 parent_world, mat4 local)
{
    mat4 g = mat4_mul(mat4_linear_part(parent_world), mat4_linear_part(local));
    for (int r = 0; r < 3; r++)
        g.m[r][3] = parent_world.m[r][3] + local.m[r][3];
    return g;
}

static const grade_mistake world_mistakes[] = {
    {"L G for G L: the parent's world acts last, G_i = G_parent L_i", (grade_fn)mistake_l_g},
    {"the local alone: G_i forgot its parent's world", (grade_fn)mistake_local_alone},
    {"the parent alone: G_i forgot its own local", (grade_fn)mistake_parent_alone},
    {"translations added, not carried: the parent turns (and scales) the local's translation too",
     (grade_fn)mistake_translations_added},
};

/* ---- the picture ------------------------------------------------------------------------------ */
/* A bone of length 1 along the child's x with a hand at its end, in the child's frame. */
static const vec3 hand_shape[] = {{0, 0, 0}, {1, 0, 0}, {1.25, 0.2, 0}, {1, 0, 0}, {1.25, -0.2, 0}};
#define HAND_POINTS ((int)(sizeof hand_shape / sizeof hand_shape[0]))

static mat4 chain_parent(void) { return mat4_mul(mat4_translate(0, 1, 0), mat4_rotate_z(deg_to_rad(90))); }
static mat4 chain_local(void) { return mat4_mul(mat4_translate(1, 0, 0), mat4_rotate_z(deg_to_rad(30))); }

static void points_world(grade_fn g, const grade30_case *failing, grade30_picture_data *out)
{
    grade30_fn f = grade30_fn_of(g);
    (void)failing; /* the named pose shows this exercise's mistakes */
    mat4 world = f.world_matrix(chain_parent(), chain_local());
    out->count = HAND_POINTS, out->drawn = true;
    for (int i = 0; i < HAND_POINTS; i++)
        out->yours[i] = mat4_transform_point(world, hand_shape[i]);
}

static lab_error draw_world(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    diagram g;
    mat4 parent = chain_parent();
    lab_error e = grade30_hand_panel(&g, out, "1. the world matrix on the hand control:\nG_parent = Ty(1) Rz(90), L = Tx(1) Rz(30)",
                             mat4_mul(parent, chain_local()), hand_shape, HAND_POINTS, false, yours, d);
    if (e != LAB_OK)
        return e;
    vec3 bone[2] = {mat4_transform_point(parent, vec3_make(0, 0, 0)), mat4_transform_point(parent, vec3_make(1, 0, 0))};
    diagram_segment(&g, 0, 0, bone[0].x, bone[0].y, 4, DIAGRAM_GREY);
    grade30_polyline(&g, bone, 2, 0, DIAGRAM_BLUE);
    diagram_label(&g, bone[0].x, bone[0].y, DIAGRAM_BLUE, DIAGRAM_RIGHT, "parent");
    return LAB_OK;
}

/* ---- the exercise ----------------------------------------------------------------------------- */
const grade_exercise grade30_ex_world_matrix = {
    .title = "the world matrix G_i = G_parent L_i",
    .function = "ex30_world_matrix",
    .page = "lab/ch30/README.md",
    .heading = "Exercise 1: the world matrix",
    .reference = (grade_fn)ex30_world_matrix,
    .shape = GRADE_MATRIX,
    .named = 2,
    .generated = GRADE30_GENERATED,
    .make_case = world_case,
    .expected = world_expected,
    .tolerance = 1e-9,
    GRADE30_MISTAKES(world_mistakes),
    .picture_points = points_world,
    .picture = draw_world,
    .sheet = GRADE30_SHEET_LAB30,
    GRADE30_COMMON,
    .call = call,
    .lab = (grade_fn)lab,
};
