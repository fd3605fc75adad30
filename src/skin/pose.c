/* pose.c - the one pose function: locals, world matrices, the palette C_j = G_j B_j^-1 and
 * its dual quaternions, and the pose job that ends in the blend (see pose.h). */
#include "skin/pose.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

lab_error skin_inverse_binds(const mat4 *bind_world, int joint_count, mat4 *out_inverse_bind,
                             lab_diag *d)
{
    char where[128];
    for (int j = 0; j < joint_count; j++) {
        lab_error e = mat4_invert_translation(
            bind_world[j], &out_inverse_bind[j],
            diag_where(where, sizeof where, "bind matrix B_%d of joint %d", j, j), d);
        if (e != LAB_OK)
            return e;
    }
    return LAB_OK;
}

void skin_palette_run(const mat4 *world, const int *joint_node, const mat4 *inverse_bind, int joint_count,
                      mat4 *out_palette)
{
    for (int j = 0; j < joint_count; j++) /* C_j = G_j B_j^-1: B^-1 acts first */
        out_palette[j] = mat4_mul(world[joint_node ? joint_node[j] : j], inverse_bind[j]);
}

lab_error skin_palette(const mat4 *world, const mat4 *inverse_bind, int joint_count,
                       mat4 *out_palette, lab_diag *d)
{
    char where[128];
    for (int j = 0; j < joint_count; j++) {
        lab_error e = mat4_validate(world[j],
                                    diag_where(where, sizeof where, "world matrix G_%d", j), d);
        if (e == LAB_OK)
            e = mat4_validate(inverse_bind[j],
                              diag_where(where, sizeof where, "inverse bind B_%d^-1", j), d);
        if (e != LAB_OK)
            return e;
    }
    skin_palette_run(world, NULL, inverse_bind, joint_count, out_palette);
    for (int j = 0; j < joint_count; j++) {
        lab_error e = mat4_validate(out_palette[j],
                                    diag_where(where, sizeof where, "skin matrix C_%d", j), d);
        if (e != LAB_OK)
            return e;
    }
    return LAB_OK;
}

lab_error skin_palette_dualquats(const scene_node *joints, const dualquat *local, int joint_count,
                                 const mat4 *inverse_bind, dualquat *out_palette, lab_diag *d)
{
    char where[128];
    lab_error e = scene_validate(joints, joint_count, d);
    /* out_palette holds the world Q_j first; parents come first, so Q_parent is ready */
    for (int j = 0; e == LAB_OK && j < joint_count; j++) {
        int p = joints[j].parent;
        out_palette[j] = p == SCENE_NO_PARENT ? local[j] : dualquat_mul(out_palette[p], local[j]);
    }
    for (int j = joint_count - 1; e == LAB_OK && j >= 0; j--) {
        dualquat inverse_bind_dq;
        e = dualquat_from_mat4(inverse_bind[j], &inverse_bind_dq,
                               diag_where(where, sizeof where, "inverse bind B_%d^-1", j), d);
        if (e == LAB_OK)
            out_palette[j] = dualquat_mul(out_palette[j], inverse_bind_dq);
    }
    return e;
}

lab_error skin_pose_palette(const scene_node *joints, int joint_count, const mat4 *inverse_bind,
                            const dualquat *local_dq, mat4 *out_world, mat4 *out_palette,
                            dualquat *out_palette_dq, lab_diag *d)
{
    /* G_j = G_parent(j) L_j, validated, parents first */
    lab_error e = scene_evaluate(joints, joint_count, out_world, d);
    /* C_j = G_j B_j^-1 */
    if (e == LAB_OK)
        e = skin_palette(out_world, inverse_bind, joint_count, out_palette, d);
    /* the same palette from the joints' own rotations, signs kept */
    if (e == LAB_OK && local_dq && out_palette_dq)
        e = skin_palette_dualquats(joints, local_dq, joint_count, inverse_bind, out_palette_dq, d);
    return e;
}

lab_error skin_pose_run(const skin_pose_job *job, lab_diag *d)
{
    skin_blend blend = job->blend;
    dualquat *palette_dq = NULL;
    lab_error e = LAB_OK;
    if (blend.method == SKIN_DQS && job->local_dq) {
        palette_dq = malloc(sizeof *palette_dq * (size_t)(job->joint_count > 0 ? job->joint_count : 1));
        if (!palette_dq)
            e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "DQS palette", "%d joints", job->joint_count);
        blend.palette_dq = palette_dq;
    }
    /* skin_deform validates the points and influences; the skeleton is checked here. */
    if (e == LAB_OK)
        e = skin_pose_palette(job->joints, job->joint_count, job->inverse_bind, palette_dq ? job->local_dq : NULL,
                              job->out_world, job->out_palette, palette_dq, d);
    if (e == LAB_OK)
        e = skin_deform(job->bind_positions, job->influences, job->out_palette, job->joint_count,
                        blend, job->out_positions, d);
    free(palette_dq);
    return e;
}
