/* rig30_fixes.c - what the fixes are trained or precomputed from: the corrective shape's
 * targets and deltas, the centres of rotation, the volume (see rig30_fixes.h). */
#include "rig30_fixes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rig30_check.h"
#include "mesh/scene.h"
#include "base/diag.h"
#include "math/dualquat.h"
#include "math/linalg.h"
#include "math/quat.h"
#include "mesh/mesh.h"
#include "rig30.h"
#include "skin/blend.h"
#include "skin/influences.h"
#include "skin/pose.h"

/* ---- the corrective shape ---------------------------------------------------------------- */

double rig30_trained_angle(rig30_kind kind) { return kind == RIG30_TWIST ? acos(-1.0) : acos(-1.0) / 2; }

vec3 rig30_corrective_target(const rig30_rig *rig, int v, lab_diag *d)
{
    mat4 share[RIG30_JOINTS];
    double w1 = rig30_child_weight(&rig->influences, v);
    if (rig30_palettes(rig, w1 * rig30_trained_angle(rig->kind), share, NULL, d) != LAB_OK)
        return vec3_make(NAN, NAN, NAN);
    return mat4_transform_point(share[1], rig->bind.vertices[v]); /* C_1(w1 trained) p */
}

lab_error rig30_blended_rotation(const skin_influences *in, int v, const dualquat *dq, quat *out, lab_diag *d)
{
    dualquat unit = dualquat_identity();
    lab_error e = skin_dqs_blend(in->joint + (size_t)v * in->per_vertex, in->weight + (size_t)v * in->per_vertex,
                                 in->per_vertex, dq, true, &unit, "blended rotation", d);
    if (e != LAB_OK && d)
        d->vertex = v;
    *out = unit.real;
    return e;
}

static vec3 lbs_point(const skin_influences *in, int v, vec3 p, const mat4 *palette)
{
    vec4 q = skin_lbs_point(p, in->joint + (size_t)v * in->per_vertex, in->weight + (size_t)v * in->per_vertex,
                            in->per_vertex, palette);
    return vec3_make(q.x, q.y, q.z);
}

lab_error rig30_corrective_deltas(const rig30_rig *rig, rig30_order order, vec3 *deltas, bool *unreachable,
                                    lab_diag *d)
{
    mat4 palette[RIG30_JOINTS];
    dualquat dq[RIG30_JOINTS];
    lab_error e = rig30_palettes(rig, rig30_trained_angle(rig->kind), palette, dq, d);
    const skin_influences *in = &rig->influences;
    for (int v = 0; e == LAB_OK && v < rig->bind.vertex_count; v++) {
        if (unreachable)
            unreachable[v] = false;
        vec3 p = rig->bind.vertices[v], t = rig30_corrective_target(rig, v, d);
        if (order == FIXES30_AFTER_SKINNING) { /* d = R^-1 (t - M p) */
            quat r;
            e = rig30_blended_rotation(in, v, dq, &r, d);
            deltas[v] = quat_rotate(quat_conjugate(r), vec3_sub(t, lbs_point(in, v, p, palette)));
            continue;
        }
        /* M = sum w_j C_j at the trained pose; p + d = M^-1 t = L^-1 (t - b) */
        mat4 m = skin_blend_matrix(in->joint + (size_t)v * in->per_vertex, in->weight + (size_t)v * in->per_vertex,
                                   in->per_vertex, palette), inverse_transpose;
        if (mat4_linear_inverse_transpose(m, &inverse_transpose, "corrective", NULL) != LAB_OK) {
            deltas[v] = vec3_make(0, 0, 0); /* singular: nothing before skinning reaches it */
            if (unreachable)
                unreachable[v] = true;
            continue;
        }
        vec3 r = vec3_make(t.x - m.m[0][3], t.y - m.m[1][3], t.z - m.m[2][3]), q;
        /* L^-1 r = (L^-T)^T r: the columns of the inverse transpose dotted with r */
        q.x = inverse_transpose.m[0][0] * r.x + inverse_transpose.m[1][0] * r.y + inverse_transpose.m[2][0] * r.z;
        q.y = inverse_transpose.m[0][1] * r.x + inverse_transpose.m[1][1] * r.y + inverse_transpose.m[2][1] * r.z;
        q.z = inverse_transpose.m[0][2] * r.x + inverse_transpose.m[1][2] * r.y + inverse_transpose.m[2][2] * r.z;
        deltas[v] = vec3_sub(q, p);
    }
    return e;
}

/* ---- centres of rotation ----------------------------------------------------------------- */

/* The paper's weight similarity of two 2-joint weight vectors: one pair (j, k) = (0, 1). */
static double similarity(const double *wp, const double *wv)
{
    double cross = wp[0] * wv[1] - wp[1] * wv[0];
    return wp[0] * wp[1] * wv[0] * wv[1] * exp(-cross * cross / (FIXES30_COR_SIGMA * FIXES30_COR_SIGMA));
}

long rig30_cor_centres(const rig30_rig *rig, vec3 *centres)
{
    const mesh *m = &rig->bind;
    long contributing = 0;
    for (int i = 0; i < m->vertex_count; i++) {
        double wi[2] = {1.0 - rig30_child_weight(&rig->influences, i), rig30_child_weight(&rig->influences, i)};
        vec3 sum = vec3_make(0, 0, 0);
        double total = 0.0;
        for (int t = 0; t < m->triangle_count; t++) { /* every triangle for every vertex: O(V T) */
            const int *v = m->triangles[t].v;
            vec3 a = m->vertices[v[0]], b = m->vertices[v[1]], c = m->vertices[v[2]];
            double wt[2] = {0, 0};
            for (int k = 0; k < 3; k++) {
                double w1 = rig30_child_weight(&rig->influences, v[k]);
                wt[0] += (1.0 - w1) / 3, wt[1] += w1 / 3;
            }
            double area = 0.5 * vec3_length(vec3_cross(vec3_sub(b, a), vec3_sub(c, a)));
            double weight = similarity(wi, wt) * area;
            contributing += weight > 0.0;
            sum = vec3_add(sum, vec3_scale(vec3_scale(vec3_add(vec3_add(a, b), c), 1.0 / 3), weight));
            total += weight;
        }
        centres[i] = total > 0.0 ? vec3_scale(sum, 1.0 / total) : m->vertices[i];
    }
    return contributing;
}

/* ---- volume ------------------------------------------------------------------------------ */

double rig30_volume(const rig30_rig *rig, const vec3 *positions)
{
    const mesh *m = &rig->bind;
    double volume = 0.0;
    for (int t = 0; t < m->triangle_count; t++) {
        const int *v = m->triangles[t].v;
        volume += vec3_dot(positions[v[0]], vec3_cross(positions[v[1]], positions[v[2]])) / 6.0;
    }
    /* the two ends closed by fans to their rings' centroids, facing outwards (the bottom
     * ring down, the top ring up: opposite windings) */
    for (int end = 0; end < 2; end++) {
        int ring = end == 0 ? 0 : RIG30_RINGS - 1;
        vec3 centre = vec3_make(0, 0, 0);
        for (int s = 0; s < RIG30_SEGMENTS; s++)
            centre = vec3_add(centre, positions[ring * RIG30_SEGMENTS + s]);
        centre = vec3_scale(centre, 1.0 / RIG30_SEGMENTS);
        for (int s = 0; s < RIG30_SEGMENTS; s++) {
            vec3 a = positions[ring * RIG30_SEGMENTS + s], b = positions[ring * RIG30_SEGMENTS + (s + 1) % RIG30_SEGMENTS];
            double fan = vec3_dot(centre, vec3_cross(a, b)) / 6.0;
            volume += end == 0 ? -fan : fan;
        }
    }
    return fabs(volume);
}
