/* ex09_palette.c - exercise 9 of chapter 30, whole: the palette through skin.joints, C_j =
 * G_{skin.joints[j]} IBM_j (ex30_palette on lab/ch30/sheets/skeleton.c, declared in
 * exercises30.h). Its cases (the chapter's named ones, then generated ones from the seed), the
 * lab's answer on a case, the call of the student's function, the mistakes the pages warn
 * about (each written as a student would), its picture, and the exercise as the engine takes
 * it (src/grade/exercise.h), on the chapter's ordered list (GRADE30_LIST, grade30_table.h). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base/diag.h"
#include "draw/diagram.h"
#include "draw/plot.h"
#include "math/linalg.h"
#include "skin/pose.h"

#include "grade30_cases.h"
#include "grade30_figure.h"
#include "grade30_random.h"
#include "grade30_table.h"
#include "mistakes.h"

/* The sheet's function, weak: the grader links no sheet (each is a shared object of its
 * own, opened by name in the grading child), so `reference` is NULL there; the suites link
 * the reference solutions. */
#pragma weak ex30_palette

/* ---- the cases and the lab's answer ----------------------------------------------------------- */
static void matrices_value_name(const grade30_case *c, int i, char *out, size_t size)
{
    (void)c;
    snprintf(out, size, "matrix %d, row %d, column %d", i / 16, i % 16 / 4, i % 4);
}

static void palette_case(int i, uint64_t seed, grade30_case *c)
{
    grade30_case_clear(c);
    rng r = stream(seed, GRADE30_PALETTE, i);
    static const struct { const char *what; int nodes, joints, skin_joints[3]; bool no_ibm; } named[] = {
        {"the chapter's rig: skin.joints {0, 1}, IBM_1 = Tz(-2)", 2, 2, {0, 1}, false},
        {"RiggedSimple's skin: skin.joints {3, 4} of 5 nodes, so slot 0 is node 3", 5, 2, {3, 4}, false},
        {"no inverseBindMatrices (every IBM_j the identity), skin.joints {2, 0, 1}", 3, 3, {2, 0, 1}, true},
    };
    if (i < COUNT(named)) {
        snprintf(c->what, sizeof c->what, "%s", named[i].what);
        c->nodes = named[i].nodes, c->joints = named[i].joints, c->no_inverse_bind = named[i].no_ibm;
        memcpy(c->skin_joints, named[i].skin_joints, sizeof named[i].skin_joints);
    } else {
        c->nodes = 2 + below(&r, EX30_MAX_NODES - 1);
        c->joints = 1 + below(&r, c->nodes);
        int order[EX30_MAX_NODES];
        shuffled(&r, order, c->nodes);
        memcpy(c->skin_joints, order, sizeof(int) * (size_t)c->joints);
        c->no_inverse_bind = below(&r, 4) == 0;
        char d[200];
        snprintf(d, sizeof d, "%d joints of %d nodes, skin.joints {%d, ...}%s", c->joints, c->nodes, c->skin_joints[0],
                 c->no_inverse_bind ? ", no inverseBindMatrices" : "");
        words(c, d, seed);
    }
    for (int j = 0; j < c->nodes; j++)
        c->node_world[j] = grade30_local_of(&r);
    for (int j = 0; j < c->joints; j++)
        c->inverse_bind[j] = c->no_inverse_bind ? mat4_identity() : grade30_local_of(&r);
    if (i == 0)
        c->node_world[0] = mat4_identity(), c->node_world[1] = mat4_mul(mat4_translate(0, 0, 2), mat4_rotate_z(DEG(90))),
        c->inverse_bind[0] = mat4_identity(), c->inverse_bind[1] = mat4_translate(0, 0, -2);
}

static grade30_answer palette_expected(const grade30_case *c)
{
    grade30_answer a;
    grade30_answer_clear(&a);
    a.n = 16 * c->joints;
    mat4 palette[EX30_MAX_NODES];
    skin_palette_run(c->node_world, c->skin_joints, c->inverse_bind, c->joints, palette);
    memcpy(a.v, palette, sizeof(mat4) * (size_t)c->joints);
    return a;
}

/* The lab's own function, in the sheet's signature: the other side of the picture (where
 * the student's picture is the lab's, the pose cannot show the mistake). */
static void lab(int count, const int *skin_joints, const mat4 *node_world, const mat4 *inverse_bind, mat4 *palette)
{
    mat4 identity[EX30_MAX_NODES];
    for (int j = 0; j < count; j++)
        identity[j] = mat4_identity();
    skin_palette_run(node_world, skin_joints, inverse_bind ? inverse_bind : identity, count, palette);
}

/* ---- the call, as a student's function is called (src/grade/arrays.h) ------------------------- */
static void call(const grade_exercise *x, grade_fn g, const grade30_case *c, grade_call *k, grade_answer *a)
{
    (void)x;
    const int *skin_joints = grade_input(k, "skin_joints", "joints", c->skin_joints, sizeof *c->skin_joints, c->joints);
    const mat4 *world = grade_input(k, "node_world", "nodes", c->node_world, sizeof *c->node_world, c->nodes);
    const mat4 *ibm = c->no_inverse_bind ? NULL
                                         : grade_input(k, "inverse_bind", "joints", c->inverse_bind,
                                                       sizeof *c->inverse_bind, c->joints);
    mat4 *palette = grade_output(k, "palette", "joints", sizeof *palette, c->joints);
    if (!grade_call_ready(k))
        return;
    grade30_fn_of(g).palette(c->joints, skin_joints, world, ibm, palette);
    for (int j = 0; j < c->joints; j++)
        grade30_put_matrix(a, palette[j]);
}

/* ---- the known mistakes, each named in the chapter's words ------------------------------------ */
static void mistake_palette_slot_as_node(int n, const int *s, const mat4 *w, const mat4 *b, mat4 *o)
{
    mistake_palette(PALETTE_SLOT_AS_NODE, n, s, w, b, o);
}
static void mistake_palette_ibm_first(int n, const int *s, const mat4 *w, const mat4 *b, mat4 *o) { mistake_palette(PALETTE_IBM_FIRST, n, s, w, b, o); }
static void mistake_palette_no_ibm(int n, const int *s, const mat4 *w, const mat4 *b, mat4 *o) { mistake_palette(PALETTE_NO_IBM, n, s, w, b, o); }
static void mistake_palette_ibm_inverted(int n, const int *s, const mat4 *w, const mat4 *b, mat4 *o)
{
    mistake_palette(PALETTE_IBM_INVERTED, n, s, w, b, o);
}

static const grade_mistake palette_mistakes[] = {
    {"the slot used as a node index: palette slot j is node skin_joints[j]", (grade_fn)mistake_palette_slot_as_node},
    {"IBM_j G for G IBM_j: the inverse bind acts first, so it stands on the right", (grade_fn)mistake_palette_ibm_first},
    {"the inverse bind matrices left out: C_j = G_j moves the bind pose by the bind", (grade_fn)mistake_palette_no_ibm},
    {"IBM_j inverted again: inverseBindMatrices already holds B_j^-1", (grade_fn)mistake_palette_ibm_inverted},
};

/* ---- the picture ------------------------------------------------------------------------------ */
enum { SQUARE = 5 };
static const vec3 square[SQUARE] = {{-0.2, -0.2, 0}, {0.2, -0.2, 0}, {0.2, 0.2, 0}, {-0.2, 0.2, 0}, {-0.2, -0.2, 0}};
static const int skin_joints[2] = {2, 1};

/* Three nodes; slot 0 is node 2, bound at (1, 0, 0); slot 1 is node 1, bound at (0, 1, 0). */
static void skin_scene(mat4 world[3], mat4 ibm[2], vec3 bind[2])
{
    world[0] = mat4_translate(-1, 0, 0);
    world[1] = mat4_mul(mat4_translate(-0.8, 1.6, 0), mat4_rotate_z(deg_to_rad(30)));
    world[2] = mat4_mul(mat4_translate(1.5, 0.5, 0), mat4_rotate_z(deg_to_rad(-45)));
    bind[0] = vec3_make(1, 0, 0), bind[1] = vec3_make(0, 1, 0);
    ibm[0] = mat4_translate(-1, 0, 0), ibm[1] = mat4_translate(0, -1, 0);
}

static void squares_under(const mat4 palette[2], const vec3 bind[2], vec3 *out)
{
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < SQUARE; i++)
            out[j * SQUARE + i] = mat4_transform_point(palette[j], vec3_add(bind[j], square[i]));
}

static void points_palette(grade_fn g, const grade30_case *failing, grade30_picture_data *out)
{
    grade30_fn f = grade30_fn_of(g);
    (void)failing; /* the named pose shows this exercise's mistakes */
    mat4 world[3], ibm[2], palette[2];
    vec3 bind[2];
    skin_scene(world, ibm, bind);
    f.palette(2, skin_joints, world, ibm, palette);
    out->drawn = true, out->count = 2 * SQUARE;
    squares_under(palette, bind, out->yours);
}

static lab_error draw_palette(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    diagram g;
    lab_error e = grade30_panel(&g, out, 230, 200, 70,
                        "9. three nodes, skin.joints {2, 1}:\neach slot's square from its bind\nplace (grey)", d);
    if (e != LAB_OK)
        return e;
    mat4 world[3], ibm[2], palette[2];
    vec3 bind[2], lab[2 * SQUARE], grey[2 * SQUARE];
    skin_scene(world, ibm, bind);
    skin_palette_run(world, skin_joints, ibm, 2, palette);
    squares_under(palette, bind, lab);
    mat4 identity[2] = {mat4_identity(), mat4_identity()};
    squares_under(identity, bind, grey);
    for (int j = 0; j < 2; j++)
        for (int i = 0; i + 1 < SQUARE; i++) {
            int a = j * SQUARE + i;
            diagram_segment(&g, grey[a].x, grey[a].y, grey[a + 1].x, grey[a + 1].y, 0, DIAGRAM_GREY);
            diagram_segment(&g, lab[a].x, lab[a].y, lab[a + 1].x, lab[a + 1].y, 0, LABS);
            if (yours->drawn && grade30_finite_and_near(yours->yours, 2 * SQUARE))
                diagram_segment(&g, yours->yours[a].x, yours->yours[a].y, yours->yours[a + 1].x, yours->yours[a + 1].y, 4,
                                YOURS);
        }
    for (int j = 0; j < 2; j++)
        diagram_label(&g, lab[j * SQUARE + 2].x, lab[j * SQUARE + 2].y, LABS, DIAGRAM_RIGHT, "slot %d", j);
    if (!yours->drawn || !grade30_finite_and_near(yours->yours, 2 * SQUARE))
        grade30_not_drawn(out);
    return LAB_OK;
}

/* ---- the exercise ----------------------------------------------------------------------------- */
const grade_exercise grade30_ex_palette = {
    .title = "the palette through skin.joints, C_j = G_{skin.joints[j]} IBM_j",
    .function = "ex30_palette",
    .page = "lab/ch30/lab30-gltf/README.md",
    .heading = "Exercise 9: the palette through skin.joints",
    .reference = (grade_fn)ex30_palette,
    .shape = GRADE_VALUES,
    .named = 3,
    .generated = GRADE30_GENERATED,
    .make_case = palette_case,
    .expected = palette_expected,
    .tolerance = 1e-9,
    GRADE30_MISTAKES(palette_mistakes),
    .picture_points = points_palette,
    .picture = draw_palette,
    .value_name = matrices_value_name,
    .sheet = GRADE30_SHEET_SKELETON,
    GRADE30_COMMON,
    .call = call,
    .lab = (grade_fn)lab,
};
