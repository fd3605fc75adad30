/* rig30_fixes.c - what the fixes are trained or precomputed from: the corrective shape's
 * targets and deltas, the centres of rotation, the volume (see rig30_fixes.h). */
#include "rig30_fixes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rig30_check.h"
#include "mesh/scene.h"
#include "base/bytes.h"
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

/* ---- the fixes, each written out: twist joints, a corrective shape in both orders,
 * centres of rotation (lab30-fixes measures them, view30 draws them) ------------------- */

/* Twist joints (001, "Formula": extra joints): k helpers between the root and the child
 * share the twist. Joint i (0 .. k+1) sits at z_i = 2i/(k+1) and turns by theta/(k+1); a
 * vertex at height z blends its segment's two joints linearly, w_{i+1} = (z - z_i)(k+1)/2.
 * *closed_error: the largest |r - rig30_radius_ratio(w, theta/(k+1))|, the chapter's formula
 * pair by pair. */
lab_error rig30_skin_twist_joints(const rig30_rig *twist, int k, double theta, vec3 *out, double *closed_error,
                                    lab_diag *d)
{
    if (k < 0 || k > FIXES30_MAX_HELPERS)
        return diag_fail(d, LAB_ERR_LIMIT, "twist joints", "%d helpers, 0 to %d", k, FIXES30_MAX_HELPERS);
    const int joints = k + 2, n = twist->bind.vertex_count;
    const double step = RIG30_HEIGHT / (k + 1), share = theta / (k + 1);
    scene_node chain[2][FIXES30_MAX_HELPERS + 2];
    mat4 world[FIXES30_MAX_HELPERS + 2], bind_world[FIXES30_MAX_HELPERS + 2], inverse_bind[FIXES30_MAX_HELPERS + 2],
        palette[FIXES30_MAX_HELPERS + 2];
    /* the chain at rest (the bind pose, B_i = G_i(0) = Tz(z_i)) and at theta:
     * L_i = Tz(step) Rz(share) below the root */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < joints; i++)
            chain[pass][i] = (scene_node){"twist joint", i - 1,
                                          i == 0 ? mat4_identity()
                                                 : mat4_mul(mat4_translate(0, 0, step), mat4_rotate_z(pass ? share : 0.0))};
    lab_error e = scene_evaluate(chain[0], joints, bind_world, d);
    if (e == LAB_OK) /* the chapter's inverse-bind rule: pure translations only */
        e = skin_inverse_binds(bind_world, joints, inverse_bind, d);
    if (e == LAB_OK) /* C_i = G_i B_i^-1 */
        e = skin_pose_palette(chain[1], joints, inverse_bind, NULL, world, palette, NULL, d);
    skin_influences in;
    if (e == LAB_OK)
        e = skin_influences_init(&in, n, 2, d);
    if (e != LAB_OK)
        return e;
    for (int v = 0; v < n; v++) { /* linear between the segment's two joints */
        double u = twist->bind.vertices[v].z / step; /* in segments: 0 .. k + 1 */
        int s = (int)floor(u);
        s = s < 0 ? 0 : s > k ? k : s;
        double w = fmin(fmax(u - s, 0.0), 1.0); /* rounding must not push a weight below 0 */
        in.joint[2 * v] = s, in.weight[2 * v] = 1.0 - w;
        in.joint[2 * v + 1] = s + 1, in.weight[2 * v + 1] = w;
    }
    e = skin_deform(twist->bind.vertices, &in, palette, joints, (skin_blend){.method = SKIN_LBS}, out, d);
    double worst = 0.0;
    for (int v = 0; e == LAB_OK && v < n; v++) { /* the chapter's formula, pair by pair */
        double r = hypot(out[v].x, out[v].y);
        worst = max_or_nan(worst, fabs(r - RIG30_RADIUS * rig30_radius_ratio(in.weight[2 * v + 1], share)));
    }
    if (closed_error)
        *closed_error = worst;
    skin_influences_free(&in);
    return e;
}

/* A corrective shape (001, "Formula": a morph target beside the skin), its weight driven
 * by the rig's angle, s = theta / trained:
 *   before skinning (glTF's order)   p' = M(theta) (p + s d)
 *   after skinning (the vertex's frame)  p' = M(theta) p + s R(theta) d,
 * M = sum_j w_j C_j the blend, R the vertex's blended, normalised rotation. */
lab_error rig30_skin_corrective(const rig30_rig *rig, rig30_order order, const vec3 *deltas, double theta,
                                  vec3 *out, lab_diag *d)
{
    const int n = rig->bind.vertex_count;
    const double s = theta / rig30_trained_angle(rig->kind); /* the driver: 1 at the trained pose */
    vec3 *morphed = malloc(sizeof(vec3) * (size_t)n);
    mat4 palette[RIG30_JOINTS];
    dualquat dq[RIG30_JOINTS];
    lab_error e = morphed ? rig30_palettes(rig, theta, palette, dq, d)
                          : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "corrective shape", "%d vertices", n);
    for (int v = 0; e == LAB_OK && v < n; v++) /* before skinning: the morph target first, then the skin */
        morphed[v] = order == FIXES30_BEFORE_SKINNING ? vec3_add(rig->bind.vertices[v], vec3_scale(deltas[v], s))
                                                      : rig->bind.vertices[v];
    if (e == LAB_OK)
        e = skin_deform(morphed, &rig->influences, palette, RIG30_JOINTS, (skin_blend){.method = SKIN_LBS}, out, d);
    for (int v = 0; e == LAB_OK && order == FIXES30_AFTER_SKINNING && v < n; v++) { /* after: + s R d */
        quat r;
        e = rig30_blended_rotation(&rig->influences, v, dq, &r, d);
        out[v] = vec3_add(out[v], vec3_scale(quat_rotate(r, deltas[v]), s));
    }
    free(morphed);
    return e;
}

/* Centres of rotation (Le and Hodgins 2016): the rotation blended as a quaternion, the
 * translation LBS of the vertex's centre p*:  p' = R (p - p*) + sum_j w_j C_j p*. */
lab_error rig30_skin_cor(const rig30_rig *rig, const vec3 *centres, double theta, vec3 *out, lab_diag *d)
{
    mat4 palette[RIG30_JOINTS];
    dualquat dq[RIG30_JOINTS];
    lab_error e = rig30_palettes(rig, theta, palette, dq, d);
    const skin_influences *in = &rig->influences;
    const int K = in->per_vertex;
    for (int v = 0; e == LAB_OK && v < rig->bind.vertex_count; v++) {
        quat r;
        e = rig30_blended_rotation(in, v, dq, &r, d);
        vec4 lbs = skin_lbs_point(centres[v], in->joint + v * K, in->weight + v * K, K, palette);
        out[v] = vec3_add(quat_rotate(r, vec3_sub(rig->bind.vertices[v], centres[v])), vec3_make(lbs.x, lbs.y, lbs.z));
    }
    return e;
}
