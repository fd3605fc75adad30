/* grade30_cases_skeleton.c - the cases of the skeleton sheet (grade30_table.h): 8 the
 * hierarchy over a skeleton, 9 the palette through skin.joints, 10 the whole loop over the
 * chapter's cylinder and RiggedSimple (grade30_cases_scenes.c) and generated scenes. The
 * lab's answers: scene_world after the rule's check, skin_palette_run, and for the
 * generated scenes of 10 scene_world, skin_palette_run and skin_lbs_point. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "math/linalg.h"
#include "mesh/scene.h"
#include "skin/blend.h"
#include "skin/pose.h"

#include "grade30_random.h"
#include "grade30_table.h"
#include "rig30.h"

/* The local of a generated node: T R S, scales of 0.5 to 2. */
static mat4 local_of(rng *r)
{
    char ignored[200] = "";
    vec3 s = scales(r);
    return mat4_mul(rigid(r, ignored, sizeof ignored, "L"), mat4_scale(s.x, s.y, s.z));
}

/* Parents first: node 0 a root, each later one a root a sixth of the time. */
static void parents(rng *r, int n, int *parent)
{
    for (int i = 0; i < n; i++)
        parent[i] = i == 0 || below(r, 6) == 0 ? -1 : below(r, i);
}

/* The first node that breaks "a parent is listed before its child", or -1. */
static int first_out_of_order(const int *parent, int n)
{
    for (int i = 0; i < n; i++)
        if (parent[i] < -1 || parent[i] >= i)
            return i;
    return -1;
}

static void worlds(const grade30_case *c, mat4 *world)
{
    scene_node nodes[EX30_MAX_NODES] = {{0}};
    for (int i = 0; i < c->nodes; i++)
        nodes[i] = (scene_node){NULL, c->parent[i], c->local[i]};
    scene_world(nodes, c->nodes, NULL, world);
}

void grade30_matrices_value_name(const grade30_case *c, int i, char *out, size_t size)
{
    (void)c;
    snprintf(out, size, "matrix %d, row %d, column %d", i / 16, i % 16 / 4, i % 4);
}

/* ---- 8. the hierarchy over a skeleton ---------------------------------------------------- */

void grade30_skeleton_case(int i, uint64_t seed, grade30_case *c)
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
            c->local[j] = local_of(&r);
        if (i == 0)
            c->local[0] = mat4_identity(), c->local[1] = mat4_mul(mat4_translate(0, 0, 2), mat4_rotate_z(DEG(90)));
        return;
    }
    c->nodes = 1 + below(&r, EX30_MAX_NODES);
    parents(&r, c->nodes, c->parent);
    for (int j = 0; j < c->nodes; j++)
        c->local[j] = local_of(&r);
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

grade30_answer grade30_skeleton_expected(const grade30_case *c)
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
        worlds(c, world);
        for (int j = 0; j < c->nodes; j++)
            memcpy(a.v + a.n + 16 * j, &world[j].m[0][0], 16 * sizeof(double));
        a.n += 16 * c->nodes;
    }
    return a;
}

void grade30_skeleton_value_name(const grade30_case *c, int i, char *out, size_t size)
{
    (void)c;
    if (i == 0)
        snprintf(out, size, "the returned node (-1: every node keeps the rule)");
    else
        snprintf(out, size, "world[%d], row %d, column %d", (i - 1) / 16, (i - 1) % 16 / 4, (i - 1) % 4);
}

/* ---- 9. the palette through skin.joints -------------------------------------------------- */

void grade30_palette_case(int i, uint64_t seed, grade30_case *c)
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
        c->node_world[j] = local_of(&r);
    for (int j = 0; j < c->joints; j++)
        c->inverse_bind[j] = c->no_inverse_bind ? mat4_identity() : local_of(&r);
    if (i == 0)
        c->node_world[0] = mat4_identity(), c->node_world[1] = mat4_mul(mat4_translate(0, 0, 2), mat4_rotate_z(DEG(90))),
        c->inverse_bind[0] = mat4_identity(), c->inverse_bind[1] = mat4_translate(0, 0, -2);
}

grade30_answer grade30_palette_expected(const grade30_case *c)
{
    grade30_answer a;
    grade30_answer_clear(&a);
    a.n = 16 * c->joints;
    mat4 palette[EX30_MAX_NODES];
    skin_palette_run(c->node_world, c->skin_joints, c->inverse_bind, c->joints, palette);
    memcpy(a.v, palette, sizeof(mat4) * (size_t)c->joints);
    return a;
}

/* ---- 10. the whole loop ------------------------------------------------------------------ */

void grade30_skin_mesh_case(int i, uint64_t seed, grade30_case *c)
{
    grade30_case_clear(c);
    if (i < grade30_scene_cases()) { /* the chapter's cylinder and RiggedSimple first */
        grade30_scene_case(i, c);
        return;
    }
    rng r = stream(seed, GRADE30_SKIN_MESH, i);
    c->nodes = 2 + below(&r, EX30_MAX_NODES - 1);
    parents(&r, c->nodes, c->parent);
    for (int j = 0; j < c->nodes; j++)
        c->local[j] = local_of(&r);
    c->joints = 1 + below(&r, c->nodes);
    int order[EX30_MAX_NODES];
    shuffled(&r, order, c->nodes);
    memcpy(c->skin_joints, order, sizeof(int) * (size_t)c->joints);
    c->no_inverse_bind = below(&r, 5) == 0;
    for (int j = 0; j < c->joints; j++)
        c->inverse_bind[j] = c->no_inverse_bind ? mat4_identity() : local_of(&r);
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

grade30_answer grade30_skin_mesh_expected(const grade30_case *c)
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
        worlds(c, world);
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

void grade30_skin_mesh_value_name(const grade30_case *c, int i, char *out, size_t size)
{
    (void)c;
    snprintf(out, size, "vertex %d's %c", i / 3, "xyz"[i % 3]);
}
