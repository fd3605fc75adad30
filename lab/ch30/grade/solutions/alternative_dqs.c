/* alternative_dqs.c - a second correct answer to the dual quaternion sheet, written apart
 * from reference_dqs.c in other forms (the dual part's components written out, the norm
 * squared, the point moved by the shader's form, the angles through complex numbers and an
 * actual quaternion blend): test_grade30_make grades it correct through make grade30
 * SHEET=dqs. */
#include <complex.h>
#include <math.h>
#include "exercises30.h"
dualquat ex30_dq_from_rigid(quat q, vec3 t)
{
    /* 1/2 (0, t) (w, v) = 1/2 (-t.v, w t + t x v) */
    dualquat r;
    r.real = q;
    r.dual.w = -0.5 * (t.x * q.x + t.y * q.y + t.z * q.z);
    r.dual.x = 0.5 * (q.w * t.x + t.y * q.z - t.z * q.y);
    r.dual.y = 0.5 * (q.w * t.y + t.z * q.x - t.x * q.z);
    r.dual.z = 0.5 * (q.w * t.z + t.x * q.y - t.y * q.x);
    return r;
}
bool ex30_dq_normalize(dualquat b, dualquat *out)
{
    double n2 = b.real.w * b.real.w + b.real.x * b.real.x + b.real.y * b.real.y + b.real.z * b.real.z;
    if (isnan(n2) || isinf(n2) || sqrt(n2) <= 1e-9)
        return false;
    double inv = 1 / sqrt(n2);
    out->real = (quat){b.real.w * inv, b.real.x * inv, b.real.y * inv, b.real.z * inv};
    out->dual = (quat){b.dual.w * inv, b.dual.x * inv, b.dual.y * inv, b.dual.z * inv};
    return true;
}
vec3 ex30_dq_transform_point(dualquat q, vec3 p)
{
    /* p + 2 d0 x (d0 x p + a0 p) + 2 (a0 de - ae d0 + d0 x de) */
    double a0 = q.real.w, ae = q.dual.w;
    vec3 d0 = vec3_make(q.real.x, q.real.y, q.real.z), de = vec3_make(q.dual.x, q.dual.y, q.dual.z);
    vec3 inner = vec3_add(vec3_cross(d0, p), vec3_scale(p, a0));
    vec3 t = vec3_add(vec3_sub(vec3_scale(de, a0), vec3_scale(d0, ae)), vec3_cross(d0, de));
    return vec3_add(vec3_add(p, vec3_scale(vec3_cross(d0, inner), 2)), vec3_scale(t, 2));
}
double ex30_lbs_turn_angle(double w, double theta) { return carg((1 - w) + w * cexp(I * theta)); }
double ex30_dqs_turn_angle(double w, double theta)
{
    double complex q = cexp(I * theta / 2); /* the child's quaternion in the twist's plane */
    if (creal(q) < 0)
        q = -q;
    return 2 * carg((1 - w) + w * q);
}
