/* normals.c - the three skinned-normal methods and their measurement (see normals.h). */
#include "skin/normals.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>

const char *normals_method_name(normals_method method)
{
    static const char *const names[NORMALS_METHOD_COUNT] = {"rigid", "blended", "per-bone"};
    return (int)method >= 0 && method < NORMALS_METHOD_COUNT ? names[method] : "?";
}

const char *normals_method_formula(normals_method method)
{
    static const char *const formulas[NORMALS_METHOD_COUNT] = {
        "normalize(sum w_i (S_i)3x3 n)",
        "normalize((L^-1)^T n), L = sum w_i (S_i)3x3",
        "normalize(sum w_i ((S_i)3x3^-1)^T n)",
    };
    return (int)method >= 0 && method < NORMALS_METHOD_COUNT ? formulas[method] : "?";
}

/* sum_i w_i A_i over vertex v's influences, 3x3 parts only. */
static mat4 blend_linear(const skin_influences *in, int v, const mat4 *matrices)
{
    mat4 sum = {{{0}}};
    const int *joint = in->joint + v * in->per_vertex;
    const double *weight = in->weight + v * in->per_vertex;
    for (int s = 0; s < in->per_vertex; s++)
        sum = mat4_add(sum, mat4_scale_by(mat4_linear_part(matrices[joint[s]]), weight[s]));
    sum.m[3][3] = 1.0;
    return sum;
}

static lab_error per_bone_inverse_transposes(const mat4 *palette, int joint_count, mat4 *out,
                                             lab_diag *d)
{
    char where[128];
    for (int j = 0; j < joint_count; j++) {
        lab_error e = mat4_linear_inverse_transpose(
            palette[j], &out[j], diag_where(where, sizeof where, "skin matrix C_%d of joint %d", j, j), d);
        if (e != LAB_OK)
            return e;
    }
    return LAB_OK;
}

/* One vertex's normal under `method`; inverse holds the per-bone inverse transposes. */
static lab_error skin_one(vec3 n, const skin_influences *in, const mat4 *palette,
                          const mat4 *inverse, normals_method method, int v, vec3 *out, lab_diag *d)
{
    if (method == NORMALS_RIGID) {
        *out = vec3_normalize(mat4_transform_direction(blend_linear(in, v, palette), n));
    } else if (method == NORMALS_PER_BONE_INVERSE_TRANSPOSE) {
        *out = vec3_normalize(mat4_transform_direction(blend_linear(in, v, inverse), n));
    } else {
        mat4 it;
        char where[128];
        lab_error e = mat4_linear_inverse_transpose(
            blend_linear(in, v, palette), &it,
            diag_where(where, sizeof where, "vertex %d, L = sum w_i (S_i)3x3", v), d);
        if (e != LAB_OK) {
            if (d)
                d->vertex = v;
            return e;
        }
        *out = vec3_normalize(mat4_transform_direction(it, n));
    }
    return LAB_OK;
}

lab_error normals_skin(const vec3 *normals, const skin_influences *influences,
                       const mat4 *palette, int joint_count, normals_method method, vec3 *out,
                       lab_diag *d)
{
    char where[128];
    int count = influences->vertex_count;
    mat4 *inverse = malloc(sizeof *inverse * (size_t)(joint_count > 0 ? joint_count : 1));
    lab_error e = inverse ? skin_validate_points(normals, count, d)
                          : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "normals", "%d joints", joint_count);
    if (e == LAB_OK)
        e = skin_validate_influences(influences, joint_count, d);
    for (int j = 0; e == LAB_OK && j < joint_count; j++)
        e = mat4_validate(palette[j], diag_where(where, sizeof where, "skin matrix C_%d", j), d);
    if (e == LAB_OK && method == NORMALS_PER_BONE_INVERSE_TRANSPOSE)
        e = per_bone_inverse_transposes(palette, joint_count, inverse, d);
    for (int v = 0; e == LAB_OK && v < count; v++)
        e = skin_one(normals[v], influences, palette, inverse, method, v, &out[v], d);
    free(inverse);
    return e;
}

lab_error normals_to_world(const vec3 *normals, int count, mat4 model, vec3 *out, lab_diag *d)
{
    mat4 it;
    lab_error e = mat4_linear_inverse_transpose(model, &it, "model matrix M_model", d);
    for (int v = 0; e == LAB_OK && v < count; v++)
        out[v] = vec3_normalize(mat4_transform_direction(it, normals[v]));
    return e;
}

void normals_from_faces(const vec3 *positions, int vertex_count, const mesh_triangle *triangles,
                        int triangle_count, vec3 *out)
{
    for (int v = 0; v < vertex_count; v++)
        out[v] = vec3_make(0, 0, 0);
    for (int t = 0; t < triangle_count; t++) {
        const int *i = triangles[t].v;
        vec3 face = vec3_cross(vec3_sub(positions[i[1]], positions[i[0]]),
                               vec3_sub(positions[i[2]], positions[i[0]])); /* |face| = 2 area */
        for (int k = 0; k < 3; k++)
            out[i[k]] = vec3_add(out[i[k]], face);
    }
    for (int v = 0; v < vertex_count; v++)
        out[v] = vec3_normalize(out[v]);
}

double normals_angle_deg(vec3 a, vec3 b)
{
    return atan2(vec3_length(vec3_cross(a, b)), vec3_dot(a, b)) * (180.0 / acos(-1.0));
}

normals_error normals_compare(const vec3 *a, const vec3 *truth, int count, double *out_deg)
{
    normals_error r = {0.0, 0.0, -1};
    for (int v = 0; v < count; v++) {
        double deg = normals_angle_deg(a[v], truth[v]);
        if (out_deg)
            out_deg[v] = deg;
        r.mean_deg += deg / count;
        if (deg > r.max_deg || r.max_vertex < 0) {
            r.max_deg = deg;
            r.max_vertex = v;
        }
    }
    return r;
}
