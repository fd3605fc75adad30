/* packed.c - building packed vertex streams and float palettes (see packed.h). */
#include "packed.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void packed_mesh_free(packed_mesh *m)
{
    free(m->position);
    free(m->normal);
    free(m->joint);
    free(m->weight);
    *m = (packed_mesh){0};
}

size_t packed_bytes_per_vertex(int influences, int with_normals)
{
    return 12 + (with_normals ? 12 : 0) + 2 * (size_t)influences + 4 * (size_t)(influences - 1);
}

float packed_implied_weight(const packed_mesh *m, int v)
{
    int stored = m->influences - 1;
    float sum = 0.0f;
    for (int i = 0; i < stored; i++)
        sum += m->weight[(size_t)v * stored + i];
    return 1.0f - sum;
}

/* One vertex's influences, sorted heaviest first (skin_sort_heaviest_first), into k slots. */
static lab_error pack_vertex(const int *joints, const double *weights, int in_count, int k, int v,
                             packed_mesh *m, packed_report *r, lab_diag *d)
{
    double kept = 0.0, dropped = 0.0;
    for (int i = 0; i < in_count; i++)
        *(i < k ? &kept : &dropped) += weights[i];
    if (dropped > 0.0) {
        r->truncated_vertices++;
        double heaviest = weights[k]; /* sorted: the first dropped is the largest */
        if (heaviest > r->largest_dropped_weight) {
            r->largest_dropped_weight = heaviest;
            r->largest_dropped_vertex = v;
        }
    }
    if (!(kept > 0.0))
        return diag_fail(d, LAB_ERR_WEIGHT_SUM_ZERO, "packing", "vertex %d keeps no weight", v);
    int stored = k - 1;
    for (int i = 0; i < k; i++) {
        int joint = i < in_count ? joints[i] : 0; /* unused slots: joint 0, weight 0 */
        if (joint < 0 || joint > UINT16_MAX)
            return diag_fail(d, LAB_ERR_JOINT_SLOT_RANGE, "packing", "vertex %d joint %d", v, joint);
        m->joint[(size_t)v * k + i] = (uint16_t)joint;
        m->max_joint = joint > m->max_joint ? joint : m->max_joint;
        if (i < stored)
            m->weight[(size_t)v * stored + i] = (float)(i < in_count ? weights[i] / kept : 0.0);
    }
    float implied = packed_implied_weight(m, v);
    if (implied < -PACKED_WEIGHT_TOLERANCE) {
        char where[64];
        diag_fail(d, LAB_ERR_WEIGHT_NEGATIVE, diag_where(where, sizeof where, "vertex %d", v),
                  "implied weight 1 - (w0 + ... + w%d) = %g < 0", stored - 1, (double)implied);
        if (d)
            d->vertex = v;
        return LAB_ERR_WEIGHT_NEGATIVE;
    }
    return LAB_OK;
}

lab_error packed_mesh_build(const vec3 *positions, const vec3 *normals, const skin_influences *in,
                            int influences, packed_mesh *out, packed_report *report, lab_diag *d)
{
    *out = (packed_mesh){0};
    int vertex_count = in->vertex_count, in_count = in->per_vertex;
    const int *joints = in->joint;
    const double *weights = in->weight;
    packed_report r = {0, 0.0, -1};
    int k = influences;
    if (k < 1 || k > PACKED_MAX_INFLUENCES || in_count < 1 || in_count > SKIN_MAX_INFLUENCES)
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "packing", "K = %d (1 to %d), %d input influences (1 to %d)", k,
                         PACKED_MAX_INFLUENCES, in_count, SKIN_MAX_INFLUENCES);
    size_t n = (size_t)vertex_count;
    packed_mesh m = {vertex_count, k, 0, malloc(12 * n + 1), malloc(12 * n + 1),
                     malloc(2 * n * (size_t)k + 1), malloc(4 * n * (size_t)(k - 1) + 1)};
    lab_error e = (m.position && m.normal && m.joint && m.weight)
                      ? LAB_OK
                      : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "packing", "%d vertices", vertex_count);
    int sorted_joints[SKIN_MAX_INFLUENCES];
    double sorted_weights[SKIN_MAX_INFLUENCES];
    for (int v = 0; e == LAB_OK && v < vertex_count; v++) {
        vec3 pos = positions[v], nor = normals ? normals[v] : vec3_make(0, 0, 0);
        const float pf[3] = {(float)pos.x, (float)pos.y, (float)pos.z};
        const float nf[3] = {(float)nor.x, (float)nor.y, (float)nor.z};
        memcpy(&m.position[3 * (size_t)v], pf, sizeof pf);
        memcpy(&m.normal[3 * (size_t)v], nf, sizeof nf);
        memcpy(sorted_joints, joints + (size_t)v * in_count, sizeof(int) * (size_t)in_count);
        memcpy(sorted_weights, weights + (size_t)v * in_count, sizeof(double) * (size_t)in_count);
        skin_sort_heaviest_first(sorted_joints, sorted_weights, in_count);
        e = pack_vertex(sorted_joints, sorted_weights, in_count, k, v, &m, &r, d);
    }
    if (e != LAB_OK) {
        packed_mesh_free(&m);
        return e;
    }
    *out = m;
    if (report)
        *report = r;
    return LAB_OK;
}

void palette_from_mat4(const mat4 *skin, int joint_count, const mat4 *model_to_world,
                       palette_matrix *out)
{
    for (int j = 0; j < joint_count; j++) {
        mat4 k = model_to_world ? mat4_mul(*model_to_world, skin[j]) : skin[j];
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 4; c++)
                out[j].m[r][c] = (float)k.m[r][c];
    }
}

void palette_from_dualquats(const dualquat *skin, int joint_count, palette_dualquat *out)
{
    for (int j = 0; j < joint_count; j++) {
        const quat *q[2] = {&skin[j].real, &skin[j].dual};
        float *dst[2] = {out[j].real, out[j].dual};
        for (int h = 0; h < 2; h++) {
            dst[h][0] = (float)q[h]->w;
            dst[h][1] = (float)q[h]->x;
            dst[h][2] = (float)q[h]->y;
            dst[h][3] = (float)q[h]->z;
        }
    }
}
