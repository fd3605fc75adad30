/* packed.c - building packed vertex streams and float palettes (see packed.h). */
#include "skin/packed.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void packed_mesh_free(packed_mesh *m)
{
    free(m->position);
    free(m->normal);
    free(m->joint);
    free(m->weight);
    free(m->joint8);
    free(m->weight16);
    free(m->weight8);
    free(m->position16);
    *m = (packed_mesh){0};
}

size_t packed_bytes_per_vertex(int influences, int with_normals)
{
    return packed_mesh_bytes_per_vertex(&(packed_mesh){.influences = influences}, with_normals);
}

size_t packed_mesh_bytes_per_vertex(const packed_mesh *m, int with_normals)
{
    static const size_t weight_bytes[] = {[PACKED_WEIGHT_FLOAT] = 4, [PACKED_WEIGHT_UNORM16] = 2,
                                          [PACKED_WEIGHT_UNORM8] = 1};
    size_t k = (size_t)m->influences;
    return (m->position16 ? 6 : 12) + (with_normals ? 12 : 0) +
           k * (m->joint_format == PACKED_JOINT_U8 ? 1 : 2) + (k - 1) * weight_bytes[m->weight_format];
}

float packed_implied_weight(const packed_mesh *m, int v)
{
    float w[PACKED_MAX_INFLUENCES];
    packed_vertex_weights(m, v, w);
    return w[m->influences - 1];
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
    packed_mesh m = {.count = vertex_count, .influences = k, .position = malloc(12 * n + 1),
                     .normal = malloc(12 * n + 1), .joint = malloc(2 * n * (size_t)k + 1),
                     .weight = malloc(4 * n * (size_t)(k - 1) + 1)};
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

/* ---- the compressed vertex ------------------------------------------------------------- */

/* Largest remainder: the K weights (summing to 1 up to float rounding) as integers that sum
 * to exactly `one`, each the floor or the ceiling of its exact share. */
static void quantize_weights(const float *w, int k, unsigned one, unsigned *q)
{
    double sum = 0.0, frac[PACKED_MAX_INFLUENCES];
    for (int i = 0; i < k; i++)
        sum += w[i] > 0.0f ? (double)w[i] : 0.0;
    unsigned total = 0;
    for (int i = 0; i < k; i++) {
        double exact = sum > 0.0 && w[i] > 0.0f ? (double)w[i] / sum * one : 0.0;
        q[i] = (unsigned)floor(exact);
        frac[i] = exact - q[i];
        total += q[i];
    }
    for (unsigned left = one - total; left > 0; left--) { /* at most K - 1 units go */
        int best = 0;
        for (int i = 1; i < k; i++)
            if (frac[i] > frac[best])
                best = i;
        q[best]++;
        frac[best] = -1.0;
    }
}

lab_error packed_mesh_compress(const packed_mesh *in, packed_joint_format joints,
                               packed_weight_format weights, bool quantize_positions,
                               packed_mesh *out, packed_compress_report *report, lab_diag *d)
{
    *out = (packed_mesh){0};
    const int k = in->influences, n = in->count;
    if (in->joint_format != PACKED_JOINT_U16 || in->weight_format != PACKED_WEIGHT_FLOAT || in->position16)
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "compressing", "%s",
                         "the input must be the uncompressed float format");
    if (joints == PACKED_JOINT_U8 && in->max_joint > UINT8_MAX)
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "compressing",
                         "joint %d does not fit 8 bits (at most 255): use 16-bit joints", in->max_joint);
    size_t nn = (size_t)n, nk = nn * (size_t)k, ns = nn * (size_t)(k - 1);
    packed_mesh m = {.count = n, .influences = k, .max_joint = in->max_joint, .joint_format = joints,
                     .weight_format = weights};
    bool ok = true;
#define TAKE(field, bytes) ok = ok && ((m.field = malloc((bytes) + 1)) != NULL)
    if (quantize_positions)
        TAKE(position16, 6 * nn);
    else
        TAKE(position, 12 * nn);
    if (in->normal)
        TAKE(normal, 12 * nn);
    if (joints == PACKED_JOINT_U8)
        TAKE(joint8, nk);
    else
        TAKE(joint, 2 * nk);
    if (weights == PACKED_WEIGHT_FLOAT)
        TAKE(weight, 4 * ns);
    else if (weights == PACKED_WEIGHT_UNORM16)
        TAKE(weight16, 2 * ns);
    else
        TAKE(weight8, ns);
#undef TAKE
    if (!ok) {
        packed_mesh_free(&m);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "compressing", "%d vertices", n);
    }
    packed_compress_report r = {0.0, -1, 0.0, -1};
    /* positions: the bounding box in 65535 steps per axis */
    for (int c = 0; c < 3; c++) {
        float lo = n ? in->position[c] : 0.0f, hi = lo;
        for (int v = 1; v < n; v++) {
            lo = fminf(lo, in->position[3 * (size_t)v + c]);
            hi = fmaxf(hi, in->position[3 * (size_t)v + c]);
        }
        m.position_offset[c] = quantize_positions ? lo : 0.0f;
        m.position_scale[c] = quantize_positions ? (hi - lo) / 65535.0f : 1.0f;
    }
    for (int v = 0; v < n; v++) {
        const float *p = in->position + 3 * (size_t)v;
        double error2 = 0.0;
        for (int c = 0; c < 3; c++) {
            if (!quantize_positions) {
                m.position[3 * (size_t)v + c] = p[c];
                continue;
            }
            float scale = m.position_scale[c];
            double q = scale > 0.0f ? floor(((double)p[c] - m.position_offset[c]) / scale + 0.5) : 0.0;
            q = q < 0.0 ? 0.0 : q > 65535.0 ? 65535.0 : q;
            m.position16[3 * (size_t)v + c] = (uint16_t)q;
            double back = (double)m.position_offset[c] + (double)scale * q - p[c];
            error2 += back * back;
        }
        if (sqrt(error2) > r.largest_position_error) {
            r.largest_position_error = sqrt(error2);
            r.largest_position_error_vertex = v;
        }
        if (m.normal)
            memcpy(m.normal + 3 * (size_t)v, in->normal + 3 * (size_t)v, 12);
        for (int i = 0; i < k; i++) {
            uint16_t j = in->joint[(size_t)v * k + i];
            if (joints == PACKED_JOINT_U8)
                m.joint8[(size_t)v * k + i] = (uint8_t)j;
            else
                m.joint[(size_t)v * k + i] = j;
        }
        float w[PACKED_MAX_INFLUENCES], back[PACKED_MAX_INFLUENCES];
        packed_vertex_weights(in, v, w);
        unsigned q[PACKED_MAX_INFLUENCES];
        if (weights != PACKED_WEIGHT_FLOAT)
            quantize_weights(w, k, weights == PACKED_WEIGHT_UNORM16 ? 65535u : 255u, q);
        for (int i = 0; i + 1 < k; i++) {
            size_t at = (size_t)v * (size_t)(k - 1) + (size_t)i;
            if (weights == PACKED_WEIGHT_FLOAT)
                m.weight[at] = w[i];
            else if (weights == PACKED_WEIGHT_UNORM16)
                m.weight16[at] = (uint16_t)q[i];
            else
                m.weight8[at] = (uint8_t)q[i];
        }
        packed_vertex_weights(&m, v, back);
        for (int i = 0; i < k; i++)
            if (fabs((double)back[i] - w[i]) > r.largest_weight_error) {
                r.largest_weight_error = fabs((double)back[i] - w[i]);
                r.largest_weight_error_vertex = v;
            }
    }
    *out = m;
    if (report)
        *report = r;
    return LAB_OK;
}

void palette_columns_from_matrices(const palette_matrix *rows, int joint_count, palette_columns *out)
{
    for (int j = 0; j < joint_count; j++)
        for (int c = 0; c < 4; c++) {
            for (int r = 0; r < 3; r++)
                out[j].c[c][r] = rows[j].m[r][c];
            out[j].c[c][3] = c == 3 ? 1.0f : 0.0f;
        }
}

void palette_columns_dequantize(const palette_columns *in, int joint_count, const packed_mesh *m,
                                palette_columns *out)
{
    for (int j = 0; j < joint_count; j++) {
        palette_columns k = in[j]; /* in and out may be the same array */
        for (int r = 0; r < 4; r++) {
            /* K (offset + scale q) = (K offset) + sum over axes of (scale_a K_a) q_a */
            float t = k.c[3][r];
            for (int a = 0; a < 3; a++)
                t += k.c[a][r] * m->position_offset[a];
            for (int a = 0; a < 3; a++)
                out[j].c[a][r] = k.c[a][r] * m->position_scale[a];
            out[j].c[3][r] = t;
        }
    }
}
