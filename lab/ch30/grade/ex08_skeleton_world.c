/* ex08_skeleton_world.c - exercise 8 of chapter 30, whole: the world matrices of a skeleton,
 * parents first (ex30_skeleton_world on lab/ch30/sheets/skeleton.c, declared in
 * exercises30.h). Its cases (the chapter's named ones, then generated ones from the seed), the
 * lab's answer on a case, the call of the student's function, the mistakes the pages warn
 * about (each written as a student would), its picture, and the exercise as the engine takes
 * it (src/grade/exercise.h), on the chapter's ordered list (GRADE30_LIST, grade30_table.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "draw/diagram.h"
#include "draw/plot.h"
#include "math/linalg.h"
#include "mesh/scene.h"

#include "grade30_cases.h"
#include "grade30_figure.h"
#include "grade30_random.h"
#include "grade30_table.h"
#include "mistakes.h"

/* The sheet's function, weak: the grader links no sheet (each is a shared object of its
 * own, opened by name in the grading child), so `reference` is NULL there; the suites link
 * the reference solutions. */
#pragma weak ex30_skeleton_world

/* ---- the cases and the lab's answer ----------------------------------------------------------- */
/* The first node that breaks "a parent is listed before its child", or -1. */
static int first_out_of_order(const int *parent, int n)
{
    for (int i = 0; i < n; i++)
        if (parent[i] < -1 || parent[i] >= i)
            return i;
    return -1;
}

static void skeleton_case(int i, uint64_t seed, grade30_case *c)
{
    static const struct { const char *what; int n, parent[5]; } named[] = {
        {"the chapter's twist rig at 90 deg: L_0 = I, L_1 = Tz(2) Rz(90)", 2, {-1, 0}},
        {"a chain of three, each turning and moving: G_2 = L_0 L_1 L_2", 3, {-1, 0, 1}},
        {"RiggedSimple's five nodes, a branch: nodes 2 and 3 both under node 1", 5, {-1, 0, 1, 1, 3}},
        {"a child listed before its parent: parents {-1, 2, 0}, so node 1 breaks the rule", 3, {-1, 2, 0}},
        {"a node that is its own parent: parents {-1, 1}", 2, {-1, 1}},
        {"two roots, the second after a child of the first: parents {-1, 0, -1, 2}", 4, {-1, 0, -1, 2}},
        {"two nodes break the rule, node 1 first: parents {-1, 3, -3, 0}; the first decides", 4, {-1, 3, -3, 0}},
        {"a parent below -1: parents {-1, 0, -2, 1}, so node 2 breaks the rule (no world[-2])", 4, {-1, 0, -2, 1}},
    };
    grade30_case_clear(c);
    rng r = stream(seed, GRADE30_SKELETON_WORLD, i);
    if (i < COUNT(named)) {
        snprintf(c->what, sizeof c->what, "%s", named[i].what);
        c->nodes = named[i].n;
        memcpy(c->parent, named[i].parent, sizeof named[i].parent);
        for (int j = 0; j < c->nodes; j++)
            c->local[j] = grade30_local_of(&r);
        if (i == 0)
            c->local[0] = mat4_identity(), c->local[1] = mat4_mul(mat4_translate(0, 0, 2), mat4_rotate_z(DEG(90)));
        return;
    }
    c->nodes = 1 + below(&r, EX30_MAX_NODES);
    grade30_parents(&r, c->nodes, c->parent);
    for (int j = 0; j < c->nodes; j++)
        c->local[j] = grade30_local_of(&r);
    char d[200];
    int bad = -1;
    int broken = 0;
    if (below(&r, 4) == 0) /* a quarter of them break the rule at one to three nodes: the first decides */
        for (int b = 1 + below(&r, 3); b > 0; b--) {
            bad = below(&r, c->nodes);
            broken += c->parent[bad] >= -1 && c->parent[bad] < bad;
            c->parent[bad] = below(&r, 4) == 0 ? -2 - below(&r, 3) : bad + below(&r, c->nodes - bad);
        }
    snprintf(d, sizeof d, "%d nodes, parents first%s", c->nodes,
             broken > 1 ? "; several nodes break the rule" : broken ? "; one node breaks the rule" : "");
    words(c, d, seed);
}

static grade30_answer skeleton_expected(const grade30_case *c)
{
    grade30_answer a;
    grade30_answer_clear(&a);
    a.n = 1;
    a.v[0] = first_out_of_order(c->parent, c->nodes);
    scene_node nodes[EX30_MAX_NODES] = {{0}};
    for (int i = 0; i < c->nodes; i++)
        nodes[i] = (scene_node){NULL, c->parent[i], c->local[i]};
    if ((scene_validate(nodes, c->nodes, NULL) == LAB_OK) != (a.v[0] == -1))
        abort(); /* the rule written here and the library's disagree: the grader's own bug */
    if (a.v[0] == -1) {
        mat4 world[EX30_MAX_NODES];
        grade30_worlds(c, world);
        for (int j = 0; j < c->nodes; j++)
            memcpy(a.v + a.n + 16 * j, &world[j].m[0][0], 16 * sizeof(double));
        a.n += 16 * c->nodes;
    }
    return a;
}

static void skeleton_value_name(const grade30_case *c, int i, char *out, size_t size)
{
    (void)c;
    if (i == 0)
        snprintf(out, size, "the returned node (-1: every node keeps the rule)");
    else
        snprintf(out, size, "world[%d], row %d, column %d", (i - 1) / 16, (i - 1) % 16 / 4, (i - 1) % 4);
}

/* The lab's own function, in the sheet's signature: the other side of the picture (where
 * the student's picture is the lab's, the pose cannot show the mistake). */
static int lab(int n, const int *parent, const mat4 *local, mat4 *world)
{
    int first = first_out_of_order(parent, n);
    scene_node nodes[EX30_MAX_NODES];
    for (int i = 0; first == -1 && i < n; i++)
        nodes[i] = (scene_node){NULL, parent[i], local[i]};
    if (first == -1)
        scene_world(nodes, n, NULL, world);
    return first;
}

/* ---- the call, as a student's function is called (src/grade/arrays.h) ------------------------- */
static void call(const grade_exercise *x, grade_fn g, const grade30_case *c, grade_call *k, grade_answer *a)
{
    (void)x;
    const int *parent = grade_input(k, "parent", "nodes", c->parent, sizeof *c->parent, c->nodes);
    const mat4 *local = grade_input(k, "local", "nodes", c->local, sizeof *c->local, c->nodes);
    mat4 *world = grade_output(k, "world", "nodes", sizeof *world, c->nodes);
    if (!grade_call_ready(k))
        return;
    int first = grade30_fn_of(g).skeleton_world(c->nodes, parent, local, world);
    grade_put(a, first);
    for (int i = 0; first == -1 && i < c->nodes; i++)
        grade30_put_matrix(a, world[i]);
}

/* ---- the known mistakes, each named in the chapter's words ------------------------------------ */
static int mistake_skeleton_last_bad(int n, const int *p, const mat4 *l, mat4 *w) { return mistake_skeleton(SKELETON_LAST_BAD, n, p, l, w); }
static int mistake_skeleton_zero_for_valid(int n, const int *p, const mat4 *l, mat4 *w)
{
    return mistake_skeleton(SKELETON_ZERO_FOR_VALID, n, p, l, w);
}
static int mistake_skeleton_no_rule(int n, const int *p, const mat4 *l, mat4 *w) { return mistake_skeleton(SKELETON_NO_RULE, n, p, l, w); }
static int mistake_skeleton_l_g(int n, const int *p, const mat4 *l, mat4 *w) { return mistake_skeleton(SKELETON_L_G, n, p, l, w); }
static int mistake_skeleton_root_identity(int n, const int *p, const mat4 *l, mat4 *w)
{
    return mistake_skeleton(SKELETON_ROOT_IDENTITY, n, p, l, w);
}
static int mistake_skeleton_parent_local(int n, const int *p, const mat4 *l, mat4 *w)
{
    return mistake_skeleton(SKELETON_PARENT_LOCAL, n, p, l, w);
}
static int mistake_skeleton_self_allowed(int n, const int *p, const mat4 *l, mat4 *w)
{
    return mistake_skeleton(SKELETON_SELF_ALLOWED, n, p, l, w);
}

static const grade_mistake skeleton_mistakes[] = {
    {"the rule never checked: a parent listed at or after its child is read before it is computed",
     (grade_fn)mistake_skeleton_no_rule},
    {"L G for G L: the parent's world acts last, world[i] = world[parent[i]] local[i]", (grade_fn)mistake_skeleton_l_g},
    {"a root's world taken as the identity: a root's world is its own local", (grade_fn)mistake_skeleton_root_identity},
    {"the parent's local for its world: only one level of the hierarchy", (grade_fn)mistake_skeleton_parent_local},
    {"a node its own parent let through: the rule is parent[i] < i", (grade_fn)mistake_skeleton_self_allowed},
    {"the last node that breaks the rule returned: the first one decides (return at the first)",
     (grade_fn)mistake_skeleton_last_bad},
    {"0 returned for a valid skeleton: -1 says every parent came first (0 names node 0)",
     (grade_fn)mistake_skeleton_zero_for_valid},
};

/* ---- the picture ------------------------------------------------------------------------------ */
enum { BRANCH = 5 };
static const int branch_parent[BRANCH] = {-1, 0, 1, 1, 3};

static void branch_locals(mat4 *local)
{
    static const double at[BRANCH][3] = {{0, -1.5, 90}, {1, 0, 20}, {0.7, 0.4, -70}, {1, -0.2, 40}, {0.8, 0, 40}};
    for (int i = 0; i < BRANCH; i++)
        local[i] = mat4_mul(mat4_translate(at[i][0], at[i][1], 0), mat4_rotate_z(deg_to_rad(at[i][2])));
}

static void points_skeleton(grade_fn g, const grade30_case *failing, grade30_picture_data *out)
{
    grade30_fn f = grade30_fn_of(g);
    (void)failing; /* the named pose shows this exercise's mistakes */
    mat4 local[BRANCH], world[BRANCH];
    branch_locals(local);
    out->drawn = f.skeleton_world(BRANCH, branch_parent, local, world) == -1;
    out->count = BRANCH;
    for (int i = 0; out->drawn && i < BRANCH; i++)
        out->yours[i] = mat4_transform_point(world[i], vec3_make(0, 0, 0));
}

static void bones(const diagram *g, const vec3 *p, int dash, rgb color)
{
    for (int i = 0; i < BRANCH; i++)
        if (branch_parent[i] >= 0)
            diagram_segment(g, p[branch_parent[i]].x, p[branch_parent[i]].y, p[i].x, p[i].y, dash, color);
}

static lab_error draw_skeleton(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    diagram g;
    lab_error e = grade30_panel(&g, out, 250, 230, 70, "8. a branching skeleton's joints:\nparents {-1, 0, 1, 1, 3}, locals T R", d);
    if (e != LAB_OK)
        return e;
    mat4 local[BRANCH], world[BRANCH];
    branch_locals(local);
    scene_node nodes[BRANCH];
    for (int i = 0; i < BRANCH; i++)
        nodes[i] = (scene_node){NULL, branch_parent[i], local[i]};
    scene_world(nodes, BRANCH, NULL, world);
    vec3 lab[BRANCH];
    for (int i = 0; i < BRANCH; i++)
        lab[i] = mat4_transform_point(world[i], vec3_make(0, 0, 0));
    bones(&g, lab, 0, LABS);
    for (int i = 0; i < BRANCH; i++)
        diagram_point(&g, lab[i].x, lab[i].y, LABS, DIAGRAM_RIGHT, "%d", i);
    if (yours->drawn && grade30_finite_and_near(yours->yours, BRANCH))
        bones(&g, yours->yours, 4, YOURS);
    else
        grade30_not_drawn(out);
    return LAB_OK;
}

/* ---- the exercise ----------------------------------------------------------------------------- */
const grade_exercise grade30_ex_skeleton_world = {
    .title = "the world matrices of a skeleton, parents first",
    .function = "ex30_skeleton_world",
    .page = "lab/ch30/lab30-gltf/README.md",
    .heading = "Exercise 8: the skeleton's world matrices",
    .reference = (grade_fn)ex30_skeleton_world,
    .shape = GRADE_VALUES,
    .named = 8,
    .generated = GRADE30_GENERATED,
    .make_case = skeleton_case,
    .expected = skeleton_expected,
    .tolerance = 1e-9,
    GRADE30_MISTAKES(skeleton_mistakes),
    .picture_points = points_skeleton,
    .picture = draw_skeleton,
    .value_name = skeleton_value_name,
    .sheet = GRADE30_SHEET_SKELETON,
    GRADE30_COMMON,
    .call = call,
    .lab = (grade_fn)lab,
};
