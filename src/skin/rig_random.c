/* rig_random.c - the deterministic random rig (see rig_random.h). */
#include "skin/rig_random.h"

#include <stdlib.h>

double rig_random_uniform(rig_random_lcg *g)
{
    g->state = g->state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(g->state >> 11) / 9007199254740992.0;
}

void rig_random_palette(rig_random_lcg *g, int joint_count, mat4 *skin, dualquat *dq)
{
    for (int j = 0; j < joint_count; j++) {
        double u[7]; /* drawn in order: C leaves the order of a call's arguments open */
        for (int i = 0; i < 7; i++)
            u[i] = rig_random_uniform(g);
        vec3 axis = vec3_make(u[0] - 0.5, u[1] - 0.5, u[2] - 0.5);
        double angle = 2.0 * (u[3] - 0.5);
        vec3 t = vec3_make(u[4], u[5], u[6]);
        dualquat q = dualquat_from_rigid(quat_from_axis_angle(axis, angle), t);
        if (dq)
            dq[j] = q;
        if (skin)
            skin[j] = dualquat_to_mat4(q);
    }
}

lab_error rig_random_build(int vertex_count, int joint_count, int influences, unsigned long long seed,
                           rig_random *out, lab_diag *d)
{
    *out = (rig_random){vertex_count, joint_count, influences, NULL, NULL, {0}, NULL, NULL};
    rig_random_lcg g = {seed};
    size_t n = (size_t)vertex_count, j = (size_t)joint_count;
    out->positions = malloc(sizeof(vec3) * (n ? n : 1));
    out->normals = malloc(sizeof(vec3) * (n ? n : 1));
    out->skin = malloc(sizeof(mat4) * (j ? j : 1));
    out->dq = malloc(sizeof(dualquat) * (j ? j : 1));
    lab_error e = out->positions && out->normals && out->skin && out->dq
                      ? skin_influences_init(&out->in, vertex_count, influences, d)
                      : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "random rig", "%d vertices, %d joints", vertex_count,
                                  joint_count);
    if (e != LAB_OK) {
        rig_random_free(out);
        return e;
    }
    rig_random_palette(&g, joint_count, out->skin, out->dq);
    for (int v = 0; v < vertex_count; v++) {
        double p[3];
        for (int c = 0; c < 3; c++)
            p[c] = 2.0 * rig_random_uniform(&g) - 1.0;
        out->positions[v] = vec3_make(p[0], p[1], p[2]);
        out->normals[v] = vec3_make(1, 0, 0);
        double *w = out->in.weight + (size_t)v * influences, sum = 0.0;
        for (int i = 0; i < influences; i++) {
            w[i] = 0.05 + rig_random_uniform(&g);
            sum += w[i];
            out->in.joint[(size_t)v * influences + i] = (int)(rig_random_uniform(&g) * joint_count);
        }
        for (int i = 0; i < influences; i++)
            w[i] /= sum;
    }
    return LAB_OK;
}

void rig_random_free(rig_random *r)
{
    free(r->positions);
    free(r->normals);
    free(r->skin);
    free(r->dq);
    skin_influences_free(&r->in);
    *r = (rig_random){0};
}
