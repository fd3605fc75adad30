/* blend.c - the one LBS and the one DQS blend in double precision, and skin_deform, which
 * runs them over a mesh (see blend.h). */
#include "skin/blend.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

lab_error skin_validate_points(const vec3 *points, int count, lab_diag *d)
{
    for (int v = 0; v < count; v++)
        if (!vec3_is_finite(points[v]))
            return diag_fail_at_vertex(d, LAB_ERR_POINT_NOT_FINITE, v, NULL, "(%g, %g, %g)", points[v].x,
                                       points[v].y, points[v].z);
    return LAB_OK;
}

vec4 skin_lbs_point(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette)
{
    vec4 sum = {0, 0, 0, 0};
    vec4 ph = vec4_point(p);
    for (int s = 0; s < k; s++)
        sum = vec4_add(sum, vec4_scale(mat4_mul_vec4(palette[joint[s]], ph), weight[s]));
    return sum;
}

mat4 skin_blend_matrix(const int *joint, const double *weight, int k, const mat4 *palette)
{
    mat4 m = {{{0}}};
    for (int s = 0; s < k; s++)
        m = mat4_add(m, mat4_scale_by(palette[joint[s]], weight[s]));
    return m;
}

const char *skin_method_name(skin_method method) { return method == SKIN_DQS ? "DQS" : "LBS"; }

lab_error skin_dqs_blend(const int *joint, const double *weight, int k, const dualquat *palette,
                         bool hemisphere_fix, dualquat *out_unit, const char *where, lab_diag *d)
{
    dualquat q[SKIN_MAX_INFLUENCES];
    k = k < SKIN_MAX_INFLUENCES ? k : SKIN_MAX_INFLUENCES; /* skin_influences_init's limit */
    for (int s = 0; s < k; s++)
        q[s] = palette[joint[s]];
    return dualquat_normalize(dualquat_blend(q, weight, k, hemisphere_fix), out_unit, where, d);
}

lab_error skin_dqs_point(vec3 p, const int *joint, const double *weight, int k,
                         const dualquat *palette, bool hemisphere_fix, vec3 *out,
                         const char *where, lab_diag *d)
{
    dualquat unit;
    lab_error e = skin_dqs_blend(joint, weight, k, palette, hemisphere_fix, &unit, where, d);
    if (e == LAB_OK)
        *out = dualquat_transform_point(unit, p);
    return e;
}

/* The palette as dual quaternions, once per call rather than once per vertex: from the
 * matrices (which must be rigid), or the caller's signed ones checked against them. */
static lab_error palette_to_dualquats(const mat4 *palette, int joint_count, const dualquat *given,
                                      double tolerance, dualquat **out, lab_diag *d)
{
    char where[128];
    *out = malloc(sizeof **out * (size_t)(joint_count > 0 ? joint_count : 1));
    if (!*out)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "DQS palette", "%d joints", joint_count);
    for (int j = 0; j < joint_count; j++) {
        diag_where(where, sizeof where, "skin matrix C_%d of joint %d", j, j);
        lab_error e = dualquat_from_mat4_within(palette[j], tolerance > 0.0 ? tolerance : DUALQUAT_RIGID_TOLERANCE,
                                                &(*out)[j], where, d);
        if (e != LAB_OK)
            return e;
        if (!given)
            continue;
        dualquat unit;
        e = dualquat_normalize(given[j], &unit, where, d);
        if (e != LAB_OK)
            return e;
        double diff = mat4_max_abs_diff(dualquat_to_mat4(unit), palette[j]);
        if (!(diff <= 1e-9))
            return diag_fail(d, LAB_ERR_DQ_MISMATCH, where, "largest element difference %.3g", diff);
        (*out)[j] = unit;
    }
    return LAB_OK;
}

lab_error skin_deform(const vec3 *bind_positions, const skin_influences *in, const mat4 *palette,
                      int joint_count, skin_blend blend, vec3 *out_positions, lab_diag *d)
{
    char where[128];
    int k = in->per_vertex;
    lab_error e = skin_validate_points(bind_positions, in->vertex_count, d);
    if (e == LAB_OK)
        e = skin_validate_influences(in, joint_count, d);
    for (int j = 0; e == LAB_OK && j < joint_count; j++)
        e = mat4_validate(palette[j], diag_where(where, sizeof where, "skin matrix C_%d", j), d);
    dualquat *palette_dq = NULL;
    if (e == LAB_OK && blend.method == SKIN_DQS)
        e = palette_to_dualquats(palette, joint_count, blend.palette_dq, blend.rigid_tolerance, &palette_dq, d);
    for (int v = 0; e == LAB_OK && v < in->vertex_count; v++) {
        const int *joint = in->joint + v * k;
        const double *weight = in->weight + v * k;
        if (blend.method == SKIN_DQS) {
            e = skin_dqs_point(bind_positions[v], joint, weight, k, palette_dq, !blend.skip_hemisphere_fix,
                               &out_positions[v], diag_where(where, sizeof where, "vertex %d", v), d);
            if (e != LAB_OK && d)
                d->vertex = v;
        } else {
            /* With affine C_j and weights summing to 1, the homogeneous w of the sum is 1. */
            vec4 r = skin_lbs_point(bind_positions[v], joint, weight, k, palette);
            out_positions[v] = vec3_make(r.x, r.y, r.z);
        }
    }
    free(palette_dq);
    return e;
}

