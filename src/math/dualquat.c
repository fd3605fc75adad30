/* dualquat.c - dual quaternions and DLB (Kavan et al. 2007); see dualquat.h. */
#include "math/dualquat.h"

#include <math.h>

static quat quat_add(quat a, quat b) { return (quat){a.w + b.w, a.x + b.x, a.y + b.y, a.z + b.z}; }
static quat quat_scale(quat a, double s) { return (quat){a.w * s, a.x * s, a.y * s, a.z * s}; }

dualquat dualquat_identity(void) { return (dualquat){quat_identity(), {0, 0, 0, 0}}; }

dualquat dualquat_from_rigid(quat rotation, vec3 translation)
{
    quat t = {0.0, translation.x, translation.y, translation.z};
    return (dualquat){rotation, quat_scale(quat_mul(t, rotation), 0.5)};
}

dualquat dualquat_mul(dualquat a, dualquat b)
{
    return (dualquat){quat_mul(a.real, b.real),
                      quat_add(quat_mul(a.real, b.dual), quat_mul(a.dual, b.real))};
}

dualquat dualquat_conjugate(dualquat a)
{
    return (dualquat){quat_conjugate(a.real), quat_conjugate(a.dual)};
}

dualquat dualquat_scale(dualquat a, double s)
{
    return (dualquat){quat_scale(a.real, s), quat_scale(a.dual, s)};
}

dualquat dualquat_add(dualquat a, dualquat b)
{
    return (dualquat){quat_add(a.real, b.real), quat_add(a.dual, b.dual)};
}

double dualquat_norm(dualquat a) { return quat_norm(a.real); }

lab_error dualquat_normalize(dualquat a, dualquat *out, const char *where, lab_diag *d)
{
    double n = dualquat_norm(a);
    if (!(n > DUALQUAT_MIN_NORM))
        return diag_fail(d, LAB_ERR_DQ_ZERO_NORM, where, "|q_0| = %.3g", n);
    *out = dualquat_scale(a, 1.0 / n);
    return LAB_OK;
}

/* t = 2 q_e q_0* for a normalised q^ (vector part). */
static vec3 translation_of(dualquat a)
{
    quat t = quat_mul(a.dual, quat_conjugate(a.real));
    return vec3_make(2.0 * t.x, 2.0 * t.y, 2.0 * t.z);
}

mat4 dualquat_to_mat4(dualquat a)
{
    mat4 m = quat_to_mat4(a.real);
    vec3 t = translation_of(a);
    m.m[0][3] = t.x;
    m.m[1][3] = t.y;
    m.m[2][3] = t.z;
    return m;
}

vec3 dualquat_transform_point(dualquat a, vec3 p)
{
    vec3 d0 = {a.real.x, a.real.y, a.real.z}, de = {a.dual.x, a.dual.y, a.dual.z};
    double a0 = a.real.w, ae = a.dual.w;
    vec3 rotated = vec3_add(p, vec3_scale(vec3_cross(d0, vec3_add(vec3_cross(d0, p),
                                                                  vec3_scale(p, a0))),
                                          2.0));
    vec3 shift = vec3_add(vec3_sub(vec3_scale(de, a0), vec3_scale(d0, ae)), vec3_cross(d0, de));
    return vec3_add(rotated, vec3_scale(shift, 2.0));
}

lab_error dualquat_from_mat4(mat4 m, dualquat *out, const char *where, lab_diag *d)
{
    return dualquat_from_mat4_within(m, DUALQUAT_RIGID_TOLERANCE, out, where, d);
}

lab_error dualquat_from_mat4_within(mat4 m, double tolerance, dualquat *out, const char *where, lab_diag *d)
{
    lab_error e = mat4_validate(m, where, d);
    if (e != LAB_OK)
        return e;
    vec3 c[3];
    for (int k = 0; k < 3; k++)
        c[k] = vec3_make(m.m[0][k], m.m[1][k], m.m[2][k]);
    double shear = fmax(fabs(vec3_dot(c[0], c[1])),
                        fmax(fabs(vec3_dot(c[1], c[2])), fabs(vec3_dot(c[0], c[2]))));
    double det = vec3_dot(c[0], vec3_cross(c[1], c[2]));
    double scale_error = 0.0;
    for (int k = 0; k < 3; k++)
        scale_error = fmax(scale_error, fabs(vec3_length(c[k]) - 1.0));
    if (!(scale_error <= tolerance && shear <= tolerance && det > 0.0))
        return diag_fail(d, LAB_ERR_NOT_RIGID, where,
                         "column scales (%.6g, %.6g, %.6g), largest |c_i . c_j| %.3g, det %.6g (tolerance %.3g)",
                         vec3_length(c[0]), vec3_length(c[1]), vec3_length(c[2]), shear, det, tolerance);
    *out = dualquat_from_rigid(quat_from_mat4(m), vec3_make(m.m[0][3], m.m[1][3], m.m[2][3]));
    return LAB_OK;
}

dualquat dualquat_blend(const dualquat *q, const double *w, int n, bool hemisphere_fix)
{
    int pivot = 0;
    for (int i = 1; i < n; i++)
        if (w[i] > w[pivot])
            pivot = i;
    dualquat sum = {{0, 0, 0, 0}, {0, 0, 0, 0}};
    for (int i = 0; i < n; i++) {
        double s = w[i];
        if (hemisphere_fix && quat_dot(q[i].real, q[pivot].real) < 0.0)
            s = -s; /* -q^ is the same transform, on the pivot's side */
        sum = dualquat_add(sum, dualquat_scale(q[i], s));
    }
    return sum;
}
