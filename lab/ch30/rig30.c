/* rig30.c - chapter 30's rigs on the cylinder: skeleton, weights, bind pose and one
 * skinned pose (see rig30.h). */
#include "base/diag.h"
#include "math/dualquat.h"
#include "math/linalg.h"
#include "math/quat.h"
#include "mesh/mesh.h"
#include "mesh/scene.h"
#include "skin/blend.h"
#include "skin/influences.h"
#include "skin/pose.h"

#include "rig30.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *rig30_kind_name(rig30_kind kind) { return kind == RIG30_BEND ? "bend" : "twist"; }

void rig30_joints(rig30_kind kind, double angle, scene_node out[RIG30_JOINTS])
{
    out[0] = (scene_node){"root", SCENE_NO_PARENT, mat4_identity()};
    if (kind == RIG30_BEND)
        out[1] = (scene_node){"child", 0, mat4_mul(mat4_translate(0, 0, RIG30_BEND_JOINT_Z),
                                                   mat4_rotate_x(angle))};
    else
        out[1] = (scene_node){"child", 0,
                              mat4_mul(mat4_translate(0, 0, RIG30_HEIGHT), mat4_rotate_z(angle))};
}

void rig30_joint_dualquats(rig30_kind kind, double angle, dualquat out[RIG30_JOINTS])
{
    out[0] = dualquat_identity();
    if (kind == RIG30_BEND)
        out[1] = dualquat_from_rigid(quat_from_axis_angle(vec3_make(1, 0, 0), angle),
                                     vec3_make(0, 0, RIG30_BEND_JOINT_Z));
    else
        out[1] = dualquat_from_rigid(quat_from_axis_angle(vec3_make(0, 0, 1), angle),
                                     vec3_make(0, 0, RIG30_HEIGHT));
}

/* The bend's band: 0 below it, smoothstep across it, 1 above it. */
static double band_weight(double z)
{
    double u = (z - (RIG30_BEND_JOINT_Z - RIG30_BEND_BAND_HALF)) / (2.0 * RIG30_BEND_BAND_HALF);
    u = u < 0.0 ? 0.0 : u > 1.0 ? 1.0 : u;
    return u * u * (3.0 - 2.0 * u);
}

lab_error rig30_weights(rig30_kind kind, const mesh *m, skin_influences *out, lab_diag *d)
{
    lab_error e = skin_influences_init(out, m->vertex_count, RIG30_JOINTS, d);
    for (int v = 0; e == LAB_OK && v < m->vertex_count; v++) {
        double z = m->vertices[v].z;
        double w1 = kind == RIG30_BEND ? band_weight(z) : z / RIG30_HEIGHT;
        out->joint[2 * v] = 0, out->weight[2 * v] = 1.0 - w1;
        out->joint[2 * v + 1] = 1, out->weight[2 * v + 1] = w1;
    }
    return e;
}

void rig30_set_middle_ring(skin_influences *in, const double weights[2])
{
    for (int s = 0; s < RIG30_SEGMENTS; s++) {
        int v = mesh_cylinder_index(RIG30_SEGMENTS, RIG30_MIDDLE_RING, s);
        in->weight[2 * v] = weights[0];
        in->weight[2 * v + 1] = weights[1];
    }
}

double rig30_child_weight(const skin_influences *in, int v) { return skin_joint_weight(in, v, 1); }

void rig30_rig_free(rig30_rig *rig)
{
    mesh_free(&rig->bind);
    skin_influences_free(&rig->influences);
    memset(rig, 0, sizeof *rig);
}

lab_error rig30_rig_build(rig30_rig *rig, rig30_kind kind, const double *middle_weights,
                          lab_diag *d)
{
    memset(rig, 0, sizeof *rig);
    rig->kind = kind;
    lab_error e = mesh_cylinder(RIG30_RINGS, RIG30_SEGMENTS, RIG30_RADIUS, RIG30_HEIGHT,
                                &rig->bind, d);
    if (e == LAB_OK)
        e = mesh_check(&rig->bind, RIG30_MIN_AREA, &rig->stats, d);
    if (e == LAB_OK)
        e = rig30_weights(kind, &rig->bind, &rig->influences, d);
    if (e == LAB_OK && middle_weights)
        rig30_set_middle_ring(&rig->influences, middle_weights);
    if (e == LAB_OK)
        e = skin_validate_influences(&rig->influences, RIG30_JOINTS, d);
    if (e == LAB_OK) {
        rig30_joints(kind, 0.0, rig->bind_joints);
        e = scene_evaluate(rig->bind_joints, RIG30_JOINTS, rig->bind_world, d);
    }
    if (e == LAB_OK)
        e = skin_inverse_binds(rig->bind_world, RIG30_JOINTS, rig->inverse_bind, d);
    if (e != LAB_OK)
        rig30_rig_free(rig);
    return e;
}

lab_error rig30_build_both(rig30_rig rigs[2], mesh_edge **edges, int *edge_count, lab_diag *d)
{
    lab_error e = rig30_rig_build(&rigs[RIG30_TWIST], RIG30_TWIST, NULL, d);
    if (e == LAB_OK)
        e = rig30_rig_build(&rigs[RIG30_BEND], RIG30_BEND, NULL, d);
    if (e == LAB_OK)
        e = mesh_unique_edges(rigs[0].bind.triangles, rigs[0].bind.triangle_count, edges, edge_count, d);
    return e;
}

lab_error rig30_pose_alloc(const rig30_rig *rig, rig30_pose *out, lab_diag *d)
{
    *out = (rig30_pose){.positions = malloc(sizeof(vec3) * (size_t)rig->bind.vertex_count)};
    return out->positions ? LAB_OK
                          : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "pose", "%d vertices", rig->bind.vertex_count);
}

void rig30_pose_free(rig30_pose *p)
{
    free(p->positions);
    p->positions = NULL;
}

/* The library's pose job on the rig's bind mesh, influences and inverse binds. */
static skin_pose_job rig_job(const rig30_rig *rig, const scene_node *joints, const dualquat *joints_dq,
                             skin_blend blend, rig30_pose *out)
{
    return (skin_pose_job){
        .joints = joints,
        .joint_count = RIG30_JOINTS,
        .inverse_bind = rig->inverse_bind,
        .bind_positions = rig->bind.vertices,
        .influences = &rig->influences,
        .blend = blend,
        .local_dq = joints_dq,
        .out_world = out->world,
        .out_palette = out->palette,
        .out_positions = out->positions,
    };
}

lab_error rig30_pose_with(const rig30_rig *rig, const scene_node *joints, const dualquat *joints_dq,
                          skin_blend blend, rig30_pose *out, lab_diag *d)
{
    memcpy(out->joints, joints, sizeof out->joints);
    skin_pose_job job = rig_job(rig, out->joints, joints_dq, blend, out);
    return skin_pose_run(&job, d);
}

lab_error rig30_palettes(const rig30_rig *rig, double theta, mat4 *skin, dualquat *dq, lab_diag *d)
{
    scene_node joints[RIG30_JOINTS];
    dualquat local[RIG30_JOINTS];
    mat4 world[RIG30_JOINTS];
    rig30_joints(rig->kind, theta, joints);
    rig30_joint_dualquats(rig->kind, theta, local);
    return skin_pose_palette(joints, RIG30_JOINTS, rig->inverse_bind, local, world, skin, dq, d);
}

lab_error rig30_pose_at(const rig30_rig *rig, double theta, skin_blend blend, rig30_pose *out,
                        lab_diag *d)
{
    dualquat joints_dq[RIG30_JOINTS];
    out->theta = theta;
    rig30_joints(rig->kind, theta, out->joints);
    rig30_joint_dualquats(rig->kind, theta, joints_dq);
    skin_pose_job job = rig_job(rig, out->joints, joints_dq, blend, out);
    return skin_pose_run(&job, d);
}

lab_error rig30_set_influences(rig30_rig *rig, const skin_influences *influences,
                               skin_weight_policy policy, skin_weight_report *report, lab_diag *d)
{
    if (influences->vertex_count != rig->bind.vertex_count)
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "influences", "%d vertices for a rig of %d",
                         influences->vertex_count, rig->bind.vertex_count);
    skin_influences copy;
    lab_error e = skin_influences_copy(influences, &copy, d);
    if (e == LAB_OK)
        e = skin_apply_weight_policy(&copy, RIG30_JOINTS, policy, report, d);
    if (e == LAB_OK) {
        skin_influences_free(&rig->influences);
        rig->influences = copy;
    } else {
        skin_influences_free(&copy);
    }
    return e;
}

void rig30_bind_normals(const rig30_rig *rig, vec3 *out)
{
    for (int v = 0; v < rig->bind.vertex_count; v++) {
        vec3 p = rig->bind.vertices[v];
        out[v] = vec3_normalize(vec3_make(p.x, p.y, 0.0));
    }
}

lab_error rig30_edge_masks(const rig30_rig *rig, const mesh_edge *edges, int edge_count,
                           bool **middle, bool **band, lab_diag *d)
{
    size_t n = (size_t)(edge_count > 0 ? edge_count : 1);
    *middle = calloc(n, sizeof **middle);
    if (band)
        *band = calloc(n, sizeof **band);
    if (!*middle || (band && !*band)) {
        free(*middle);
        *middle = NULL;
        if (band)
            free(*band), *band = NULL;
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "edge masks", "%d edges", edge_count);
    }
    for (int i = 0; i < edge_count; i++) {
        int a = edges[i].a, b = edges[i].b;
        double wa = rig30_child_weight(&rig->influences, a), wb = rig30_child_weight(&rig->influences, b);
        (*middle)[i] = a / RIG30_SEGMENTS == RIG30_MIDDLE_RING && b / RIG30_SEGMENTS == RIG30_MIDDLE_RING;
        if (band)
            (*band)[i] = wa > 0.0 && wa < 1.0 && wb > 0.0 && wb < 1.0;
    }
    return LAB_OK;
}
