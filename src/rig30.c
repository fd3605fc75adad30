/* rig30.c - chapter 30's rigs on the cylinder: skeleton, weights, bind pose and one
 * skinned pose (see rig30.h). */
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

void rig30_weights(rig30_kind kind, const mesh *m, skin_influence *out)
{
    for (int v = 0; v < m->vertex_count; v++) {
        double z = m->vertices[v].z;
        double w1 = kind == RIG30_BEND ? band_weight(z) : z / RIG30_HEIGHT;
        out[v] = (skin_influence){{0, 1}, {1.0 - w1, w1}};
    }
}

double rig30_child_weight(const skin_influence *influence)
{
    double w = 0.0;
    for (int s = 0; s < SKIN_SLOTS; s++)
        if (influence->joint[s] == 1)
            w += influence->weight[s];
    return w;
}

void rig30_rig_free(rig30_rig *rig)
{
    mesh_free(&rig->bind);
    free(rig->influences);
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
    if (e == LAB_OK && !(rig->influences = malloc(sizeof *rig->influences *
                                                   (size_t)rig->bind.vertex_count)))
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "influences", "%d vertices", rig->bind.vertex_count);
    if (e == LAB_OK) {
        rig30_weights(kind, &rig->bind, rig->influences);
        for (int s = 0; middle_weights && s < RIG30_SEGMENTS; s++) {
            skin_influence *in =
                &rig->influences[mesh_cylinder_index(RIG30_SEGMENTS, RIG30_MIDDLE_RING, s)];
            in->weight[0] = middle_weights[0];
            in->weight[1] = middle_weights[1];
        }
        e = skin_validate_influences(rig->influences, rig->bind.vertex_count, RIG30_JOINTS, d);
    }
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

lab_error rig30_pose_with(const rig30_rig *rig, const scene_node *joints, const dualquat *joints_dq,
                          skin_blend blend, rig30_pose *out, lab_diag *d)
{
    memcpy(out->joints, joints, sizeof out->joints);
    skin_pose_job job = {
        .joints = joints,
        .joint_count = RIG30_JOINTS,
        .inverse_bind = rig->inverse_bind,
        .bind_positions = rig->bind.vertices,
        .influences = rig->influences,
        .vertex_count = rig->bind.vertex_count,
        .blend = blend,
        .local_dq = joints_dq,
        .out_world = out->world,
        .out_palette = out->palette,
        .out_positions = out->positions,
    };
    return skin_pose_run(&job, d);
}

lab_error rig30_pose_at(const rig30_rig *rig, double theta, skin_blend blend, rig30_pose *out,
                        lab_diag *d)
{
    scene_node joints[RIG30_JOINTS];
    dualquat joints_dq[RIG30_JOINTS];
    rig30_joints(rig->kind, theta, joints);
    rig30_joint_dualquats(rig->kind, theta, joints_dq);
    out->theta = theta;
    return rig30_pose_with(rig, joints, joints_dq, blend, out, d);
}

lab_error rig30_set_influences(rig30_rig *rig, const skin_influence *influences,
                               skin_weight_policy policy, skin_weight_report *report, lab_diag *d)
{
    int n = rig->bind.vertex_count;
    skin_influence *copy = malloc(sizeof *copy * (size_t)n);
    if (!copy)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "influences", "%d vertices", n);
    memcpy(copy, influences, sizeof *copy * (size_t)n);
    lab_error e = skin_apply_weight_policy(copy, n, RIG30_JOINTS, policy, report, d);
    if (e == LAB_OK)
        memcpy(rig->influences, copy, sizeof *copy * (size_t)n);
    free(copy);
    return e;
}

void rig30_bind_normals(const rig30_rig *rig, vec3 *out)
{
    for (int v = 0; v < rig->bind.vertex_count; v++) {
        vec3 p = rig->bind.vertices[v];
        out[v] = vec3_normalize(vec3_make(p.x, p.y, 0.0));
    }
}

