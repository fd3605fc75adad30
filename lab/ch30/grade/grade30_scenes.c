/* grade30_scenes.c - exercise 10's named scenes (grade30_cases.h; the exercise:
 * ex10_skin_mesh.c): the chapter's cylinder at its twists and bends, and RiggedSimple at four
 * times of its clip, each as exercise 10's case, with the lab's own path on it (the rig's
 * pose job; lab30-gltf's reader, sampler and skinning). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gltf/gltf.h"
#include "math/linalg.h"
#include "skin/blend.h"
#include "skin/pose.h"

#include "grade30_cases.h"
#include "rig30.h"

#define RIGGED_SIMPLE "assets/RiggedSimple.gltf"
#define RIGGED_SIMPLE_NODE 2 /* the skinned mesh's node */

/* RiggedSimple, read once a process through the lab's reader. */
static const gltf_document *rigged_simple(void)
{
    static gltf_document doc;
    static int state; /* 0 not read, 1 read, -1 refused */
    if (state == 0) {
        lab_diag d = {0};
        state = gltf_load(RIGGED_SIMPLE, &doc, &d) == LAB_OK && gltf_validate(&doc, &d) == LAB_OK ? 1 : -1;
        if (state < 0) {
            char msg[400];
            diag_format(&d, msg, sizeof msg);
            fprintf(stderr, "grade30: %s could not be read: %s\n", RIGGED_SIMPLE, msg);
            abort();
        }
    }
    return &doc;
}

static const double rigged_simple_times[] = {0.25, 0.8, 1.4, 2.0}; /* within its 0.04 .. 2.08 s */
static const double cylinder_angles[][2] = {{RIG30_TWIST, 90}, {RIG30_TWIST, 180}, {RIG30_TWIST, -270},
                                             {RIG30_BEND, 90}};

static void cylinder_case(int i, grade30_case *c)
{
    rig30_kind kind = (rig30_kind)cylinder_angles[i][0];
    double deg = cylinder_angles[i][1];
    rig30_rig rig;
    if (rig30_rig_build(&rig, kind, NULL, NULL) != LAB_OK)
        abort();
    snprintf(c->what, sizeof c->what, "the chapter's cylinder, the %s at %g deg (2 nodes, 216 vertices)",
             rig30_kind_name(kind), deg);
    c->source = GRADE30_FROM_CYLINDER, c->source_index = i;
    scene_node joints[RIG30_JOINTS];
    rig30_joints(kind, DEG(deg), joints);
    c->nodes = c->joints = RIG30_JOINTS;
    for (int j = 0; j < RIG30_JOINTS; j++)
        c->parent[j] = joints[j].parent, c->local[j] = joints[j].local, c->skin_joints[j] = j,
        c->inverse_bind[j] = rig.inverse_bind[j];
    c->vertices = rig.bind.vertex_count;
    for (int v = 0; v < c->vertices; v++) {
        c->position[v] = rig.bind.vertices[v];
        for (int s = 0; s < 4; s++) {
            bool held = s < rig.influences.per_vertex;
            c->vertex_joint[4 * v + s] = held ? rig.influences.joint[v * rig.influences.per_vertex + s] : 0;
            c->vertex_weight[4 * v + s] = held ? rig.influences.weight[v * rig.influences.per_vertex + s] : 0;
        }
    }
    rig30_rig_free(&rig);
}

static void rigged_simple_case(int i, grade30_case *c)
{
    const gltf_document *doc = rigged_simple();
    double t = rigged_simple_times[i];
    snprintf(c->what, sizeof c->what,
             "RiggedSimple (assets/) at t = %g s: 5 nodes, skin.joints {3, 4}, 160 vertices", t);
    c->source = GRADE30_FROM_ASSET, c->source_index = i;
    gltf_skin_input in;
    mat4 locals[EX30_MAX_NODES];
    if (doc->node_count > EX30_MAX_NODES || gltf_sample_locals(doc, 0, t, locals, NULL) != LAB_OK ||
        gltf_skin_input_read(doc, RIGGED_SIMPLE_NODE, 0, NULL, SKIN_POLICY_NORMALIZE, &in, NULL) != LAB_OK)
        abort();
    c->nodes = doc->node_count;
    for (int n = 0; n < c->nodes; n++)
        c->parent[n] = doc->nodes[n].parent, c->local[n] = locals[n];
    c->joints = in.joint_count;
    for (int j = 0; j < c->joints; j++)
        c->skin_joints[j] = in.joints[j], c->inverse_bind[j] = in.inverse_bind[j];
    c->vertices = in.vertex_count;
    for (int v = 0; v < c->vertices && v < GRADE30_MAX_VERTICES; v++) {
        c->position[v] = in.bind[v];
        for (int s = 0; s < 4; s++)
            c->vertex_joint[4 * v + s] = in.influences.joint[4 * v + s],
                                  c->vertex_weight[4 * v + s] = in.influences.weight[4 * v + s];
    }
    if (in.influences.per_vertex != 4 || c->vertices > GRADE30_MAX_VERTICES)
        abort();
    gltf_skin_input_free(&in);
}

int grade30_scene_cases(void)
{
    return COUNT(cylinder_angles) + COUNT(rigged_simple_times);
}

void grade30_scene_case(int i, grade30_case *c)
{
    if (i < COUNT(cylinder_angles))
        cylinder_case(i, c);
    else
        rigged_simple_case(i - COUNT(cylinder_angles), c);
}

void grade30_scene_answer(const grade30_case *c, vec3 *out)
{
    if (c->source == GRADE30_FROM_CYLINDER) { /* the rig's own pose: skin_pose_run */
        int which = c->source_index;
        rig30_rig rig;
        rig30_pose pose;
        if (rig30_rig_build(&rig, (rig30_kind)cylinder_angles[which][0], NULL, NULL) != LAB_OK ||
            rig30_pose_alloc(&rig, &pose, NULL) != LAB_OK ||
            rig30_pose_at(&rig, DEG(cylinder_angles[which][1]), (skin_blend){.method = SKIN_LBS}, &pose, NULL) != LAB_OK)
            abort();
        memcpy(out, pose.positions, sizeof *out * (size_t)c->vertices);
        rig30_pose_free(&pose), rig30_rig_free(&rig);
    } else { /* lab30-gltf's path: the reader, the sampler, the skinning */
        double t = rigged_simple_times[c->source_index];
        if (gltf_skin_at(rigged_simple(), 0, t, RIGGED_SIMPLE_NODE, 0, SKIN_LBS, SKIN_POLICY_NORMALIZE, out, NULL,
                         NULL, NULL) != LAB_OK)
            abort();
    }
}
