/* ex10_skin_mesh.c - exercise 10 of chapter 30, whole: the whole loop: a skeleton, a skin and
 * a mesh (the cylinder, RiggedSimple) (ex30_skin_mesh on lab/ch30/sheets/skeleton.c, declared
 * in exercises30.h). Its cases (the chapter's named ones, then generated ones from the seed),
 * the lab's answer on a case, the call of the student's function, the mistakes the pages warn
 * about (each written as a student would), its picture, and the exercise as the engine takes
 * it (src/grade/exercise.h), on the chapter's ordered list (GRADE30_LIST, grade30_table.h). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "draw/diagram.h"
#include "draw/figure.h"
#include "draw/plot.h"
#include "gltf/gltf.h"
#include "math/linalg.h"
#include "math/quat.h"
#include "mesh/scene.h"
#include "skin/blend.h"
#include "skin/pose.h"

#include "grade30_cases.h"
#include "grade30_figure.h"
#include "grade30_random.h"
#include "grade30_table.h"
#include "mistakes.h"
#include "rig30.h"

/* The sheet's function, weak: the grader links no sheet (each is a shared object of its
 * own, opened by name in the grading child), so `reference` is NULL there; the suites link
 * the reference solutions. */
#pragma weak ex30_skin_mesh

/* ---- the cases and the lab's answer ----------------------------------------------------------- */
static void skin_mesh_case(int i, uint64_t seed, grade30_case *c)
{
    grade30_case_clear(c);
    if (i < grade30_scene_cases()) { /* the chapter's cylinder and RiggedSimple first */
        grade30_scene_case(i, c);
        return;
    }
    rng r = stream(seed, GRADE30_SKIN_MESH, i);
    c->nodes = 2 + below(&r, EX30_MAX_NODES - 1);
    grade30_parents(&r, c->nodes, c->parent);
    for (int j = 0; j < c->nodes; j++)
        c->local[j] = grade30_local_of(&r);
    c->joints = 1 + below(&r, c->nodes);
    int order[EX30_MAX_NODES];
    shuffled(&r, order, c->nodes);
    memcpy(c->skin_joints, order, sizeof(int) * (size_t)c->joints);
    c->no_inverse_bind = below(&r, 5) == 0;
    for (int j = 0; j < c->joints; j++)
        c->inverse_bind[j] = c->no_inverse_bind ? mat4_identity() : grade30_local_of(&r);
    c->vertices = 1 + below(&r, 40);
    for (int v = 0; v < c->vertices; v++) {
        c->position[v] = offset(&r, 2);
        double total = 0;
        int used = 1 + below(&r, 4); /* the rest weigh 0, as glTF pads a vertex */
        for (int s = 0; s < 4; s++) {
            c->vertex_joint[4 * v + s] = below(&r, c->joints);
            c->vertex_weight[4 * v + s] = s < used ? uniform(&r, 0.05, 1) : 0;
            total += c->vertex_weight[4 * v + s];
        }
        for (int s = 0; s < 4; s++)
            c->vertex_weight[4 * v + s] /= total;
    }
    char d[200];
    snprintf(d, sizeof d, "%d nodes, %d joints (skin.joints {%d, ...}), %d vertices%s", c->nodes, c->joints,
             c->skin_joints[0], c->vertices, c->no_inverse_bind ? ", no inverseBindMatrices" : "");
    words(c, d, seed);
}

static grade30_answer skin_mesh_expected(const grade30_case *c)
{
    grade30_answer a;
    grade30_answer_clear(&a);
    a.n = 3 * c->vertices;
    vec3 *out = malloc(sizeof *out * GRADE30_MAX_VERTICES);
    if (!out)
        abort();
    if (c->source != GRADE30_GENERATED_CASE) {
        grade30_scene_answer(c, out);
    } else {
        mat4 world[EX30_MAX_NODES], palette[EX30_MAX_NODES];
        grade30_worlds(c, world);
        skin_palette_run(world, c->skin_joints, c->inverse_bind, c->joints, palette);
        for (int v = 0; v < c->vertices; v++) {
            vec4 p = skin_lbs_point(c->position[v], c->vertex_joint + 4 * v, c->vertex_weight + 4 * v, 4, palette);
            out[v] = vec3_make(p.x, p.y, p.z);
        }
    }
    for (int v = 0; v < c->vertices; v++)
        a.v[3 * v] = out[v].x, a.v[3 * v + 1] = out[v].y, a.v[3 * v + 2] = out[v].z;
    free(out);
    return a;
}

static void skin_mesh_value_name(const grade30_case *c, int i, char *out, size_t size)
{
    (void)c;
    snprintf(out, size, "vertex %d's %c", i / 3, "xyz"[i % 3]);
}

/* The lab's own function, in the sheet's signature: the other side of the picture (where
 * the student's picture is the lab's, the pose cannot show the mistake). */
static void lab(const ex30_skin *s, vec3 *out)
{
    scene_node nodes[EX30_MAX_NODES];
    mat4 world[EX30_MAX_NODES], palette[EX30_MAX_NODES], identity[EX30_MAX_NODES];
    for (int i = 0; i < s->node_count; i++)
        nodes[i] = (scene_node){NULL, s->parent[i], s->local[i]};
    for (int j = 0; j < s->joint_count; j++)
        identity[j] = mat4_identity();
    scene_world(nodes, s->node_count, NULL, world);
    skin_palette_run(world, s->skin_joints, s->inverse_bind ? s->inverse_bind : identity, s->joint_count, palette);
    for (int v = 0; v < s->vertex_count; v++) {
        vec4 p = skin_lbs_point(s->position[v], s->joints + 4 * v, s->weights + 4 * v, 4, palette);
        out[v] = vec3_make(p.x, p.y, p.z);
    }
}

/* ---- the call, as a student's function is called (src/grade/arrays.h) ------------------------- */
static void call(const grade_exercise *x, grade_fn g, const grade30_case *c, grade_call *k, grade_answer *a)
{
    (void)x;
#define IN(name, noun, src, count) grade_input(k, name, noun, src, sizeof *(src), count)
    const int *parent = IN("parent", "nodes", c->parent, c->nodes);
    const mat4 *local = IN("local", "nodes", c->local, c->nodes);
    const int *skin_joints = IN("skin_joints", "joints", c->skin_joints, c->joints);
    const mat4 *ibm = c->no_inverse_bind ? NULL : IN("inverse_bind", "joints", c->inverse_bind, c->joints);
    const vec3 *position = IN("position", "vertices", c->position, c->vertices);
    const int *joints = IN("joints", "influences (4 a vertex)", c->vertex_joint, 4 * c->vertices);
    const double *weights = IN("weights", "weights (4 a vertex)", c->vertex_weight, 4 * c->vertices);
#undef IN
    const ex30_skin skin = {c->nodes, parent, local, c->joints, skin_joints, ibm, c->vertices, position, joints, weights};
    /* the struct itself on the heap too (not compared: it is this call's own, and its
     * arrays are compared one by one) */
    const ex30_skin *given = grade_inout(k, "skin", "skin (one)", &skin, sizeof skin, 1);
    vec3 *out = grade_output(k, "out", "vertices", sizeof *out, c->vertices);
    if (!grade_call_ready(k))
        return;
    grade30_fn_of(g).skin_mesh(given, out);
    for (int v = 0; v < c->vertices; v++)
        grade30_put_point(a, out[v]);
}

/* ---- the known mistakes, each named in the chapter's words ------------------------------------ */
typedef enum { MESH_JOINTS_AS_NODES, MESH_NO_HIERARCHY, MESH_NO_IBM, MESH_FIRST_INFLUENCE } mesh_slip;
static void skin_mesh(mesh_slip slip, const ex30_skin *s, vec3 *out)
{
    mat4 world[EX30_MAX_NODES], pal[EX30_MAX_NODES], node_pal[EX30_MAX_NODES];
    if (slip == MESH_NO_HIERARCHY)
        memcpy(world, s->local, sizeof *world * (size_t)s->node_count);
    else
        mistake_skeleton(SKELETON_RIGHT, s->node_count, s->parent, s->local, world);
    mistake_palette(slip == MESH_NO_IBM ? PALETTE_NO_IBM : PALETTE_RIGHT, s->joint_count, s->skin_joints, world,
            s->inverse_bind, pal);
    for (int j = 0; j < s->joint_count; j++) /* the JOINTS value as a node: G_{value} IBM_{value} */
        node_pal[j] = mat4_mul(world[j], s->inverse_bind ? s->inverse_bind[j] : mat4_identity());
    for (int v = 0; v < s->vertex_count; v++) {
        vec3 sum = {0, 0, 0};
        for (int i = 0; i < (slip == MESH_FIRST_INFLUENCE ? 1 : 4); i++) {
            int slot = s->joints[4 * v + i];
            double w = slip == MESH_FIRST_INFLUENCE ? 1 : s->weights[4 * v + i];
            mat4 c = slip == MESH_JOINTS_AS_NODES ? node_pal[slot] : pal[slot];
            sum = vec3_add(sum, vec3_scale(mat4_transform_point(c, s->position[v]), w));
        }
        out[v] = sum;
    }
}
static void mistake_mesh_joints_as_nodes(const ex30_skin *s, vec3 *o) { skin_mesh(MESH_JOINTS_AS_NODES, s, o); }
static void mistake_mesh_no_hierarchy(const ex30_skin *s, vec3 *o) { skin_mesh(MESH_NO_HIERARCHY, s, o); }
static void mistake_mesh_no_inverse_bind(const ex30_skin *s, vec3 *o) { skin_mesh(MESH_NO_IBM, s, o); }
static void mistake_mesh_first_influence(const ex30_skin *s, vec3 *o) { skin_mesh(MESH_FIRST_INFLUENCE, s, o); }

static const grade_mistake mesh_mistakes[] = {
    {"the JOINTS value used as a node index: JOINTS_0 holds palette slots, C_j = G_{skin_joints[j]} IBM_j",
     (grade_fn)mistake_mesh_joints_as_nodes},
    {"the locals used as world matrices: every node's world is its parent's world times its local",
     (grade_fn)mistake_mesh_no_hierarchy},
    {"the inverse bind matrices left out: C_j = G_j", (grade_fn)mistake_mesh_no_inverse_bind},
    {"only the first influence, rigidly: every vertex blends its four", (grade_fn)mistake_mesh_first_influence},
};

/* ---- the picture ------------------------------------------------------------------------------ */
static void points_mesh(grade_fn g, const grade30_case *failing, grade30_picture_data *out)
{
    grade30_fn f = grade30_fn_of(g);
    (void)failing; /* the named pose shows this exercise's mistakes */
    rig30_rig rig = {0};
    out->count = RIG30_RINGS * RIG30_SEGMENTS;
    if (rig30_rig_build(&rig, RIG30_TWIST, NULL, NULL) != LAB_OK)
        return;
    scene_node joints[RIG30_JOINTS];
    rig30_joints(RIG30_TWIST, deg_to_rad(120), joints);
    int parent[RIG30_JOINTS], slots[RIG30_JOINTS], *vj = malloc(sizeof *vj * 4 * (size_t)out->count);
    mat4 local[RIG30_JOINTS];
    double *vw = malloc(sizeof *vw * 4 * (size_t)out->count);
    for (int j = 0; j < RIG30_JOINTS; j++)
        parent[j] = joints[j].parent, local[j] = joints[j].local, slots[j] = j;
    for (int v = 0; vj && vw && v < out->count; v++)
        for (int s = 0; s < 4; s++)
            vj[4 * v + s] = s < 2 ? rig.influences.joint[2 * v + s] : 0, vw[4 * v + s] = s < 2 ? rig.influences.weight[2 * v + s] : 0;
    if (vj && vw) {
        const ex30_skin skin = {RIG30_JOINTS, parent, local, RIG30_JOINTS, slots, rig.inverse_bind,
                                out->count, rig.bind.vertices, vj, vw};
        f.skin_mesh(&skin, out->yours);
        out->drawn = true;
    }
    free(vj), free(vw);
    rig30_rig_free(&rig);
}

static lab_error draw_mesh(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    return grade30_draw_cylinder("10. the lab's loop", "yours (your loop)", yours, out, d);
}

/* ---- the exercise ----------------------------------------------------------------------------- */
const grade_exercise grade30_ex_skin_mesh = {
    .title = "the whole loop: a skeleton, a skin and a mesh (the cylinder, RiggedSimple)",
    .function = "ex30_skin_mesh",
    .page = "lab/ch30/lab30-gltf/README.md",
    .heading = "Exercise 10: the whole loop",
    .reference = (grade_fn)ex30_skin_mesh,
    .shape = GRADE_VALUES,
    .named = 8,
    .generated = GRADE30_GENERATED,
    .make_case = skin_mesh_case,
    .expected = skin_mesh_expected,
    .tolerance = 1e-9,
    GRADE30_MISTAKES(mesh_mistakes),
    .picture_points = points_mesh,
    .picture = draw_mesh,
    .value_name = skin_mesh_value_name,
    .sheet = GRADE30_SHEET_SKELETON,
    GRADE30_COMMON,
    .call = call,
    .lab = (grade_fn)lab,
};
