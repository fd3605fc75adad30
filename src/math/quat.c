/* quat.c - quaternion rotations (chapter 29). */
#include "math/quat.h"

#include <math.h>

quat quat_identity(void) { return (quat){1, 0, 0, 0}; }

quat quat_from_axis_angle(vec3 axis, double radians)
{
    double len = vec3_length(axis);
    if (!(len > 0.0))
        return quat_identity();
    double s = sin(0.5 * radians) / len;
    return (quat){cos(0.5 * radians), axis.x * s, axis.y * s, axis.z * s};
}

quat quat_mul(quat a, quat b)
{
    return (quat){
        a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
        a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
        a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
        a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
    };
}

quat quat_conjugate(quat q) { return (quat){q.w, -q.x, -q.y, -q.z}; }
double quat_dot(quat a, quat b) { return a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z; }
double quat_norm(quat q) { return sqrt(quat_dot(q, q)); }

quat quat_normalize(quat q)
{
    double n = quat_norm(q);
    if (!(n > 0.0))
        return q;
    return (quat){q.w / n, q.x / n, q.y / n, q.z / n};
}

vec3 quat_rotate(quat q, vec3 p)
{
    quat v = {0.0, p.x, p.y, p.z};
    quat r = quat_mul(quat_mul(q, v), quat_conjugate(q));
    return (vec3){r.x, r.y, r.z};
}

mat4 quat_to_mat4(quat q)
{
    double w = q.w, x = q.x, y = q.y, z = q.z;
    mat4 r = mat4_identity();
    r.m[0][0] = 1 - 2 * (y * y + z * z);
    r.m[0][1] = 2 * (x * y - w * z);
    r.m[0][2] = 2 * (x * z + w * y);
    r.m[1][0] = 2 * (x * y + w * z);
    r.m[1][1] = 1 - 2 * (x * x + z * z);
    r.m[1][2] = 2 * (y * z - w * x);
    r.m[2][0] = 2 * (x * z - w * y);
    r.m[2][1] = 2 * (y * z + w * x);
    r.m[2][2] = 1 - 2 * (x * x + y * y);
    return r;
}

quat quat_from_mat4(mat4 m)
{
    double (*r)[4] = m.m; /* m is our copy */
    double trace = r[0][0] + r[1][1] + r[2][2];
    quat q;
    if (trace > r[0][0] && trace > r[1][1] && trace > r[2][2]) {
        double s = 2.0 * sqrt(1.0 + trace); /* s = 4 w */
        q = (quat){0.25 * s, (r[2][1] - r[1][2]) / s, (r[0][2] - r[2][0]) / s, (r[1][0] - r[0][1]) / s};
    } else if (r[0][0] >= r[1][1] && r[0][0] >= r[2][2]) {
        double s = 2.0 * sqrt(1.0 + r[0][0] - r[1][1] - r[2][2]); /* s = 4 x */
        q = (quat){(r[2][1] - r[1][2]) / s, 0.25 * s, (r[0][1] + r[1][0]) / s, (r[0][2] + r[2][0]) / s};
    } else if (r[1][1] >= r[2][2]) {
        double s = 2.0 * sqrt(1.0 + r[1][1] - r[0][0] - r[2][2]); /* s = 4 y */
        q = (quat){(r[0][2] - r[2][0]) / s, (r[0][1] + r[1][0]) / s, 0.25 * s, (r[1][2] + r[2][1]) / s};
    } else {
        double s = 2.0 * sqrt(1.0 + r[2][2] - r[0][0] - r[1][1]); /* s = 4 z */
        q = (quat){(r[1][0] - r[0][1]) / s, (r[0][2] + r[2][0]) / s, (r[1][2] + r[2][1]) / s, 0.25 * s};
    }
    if (q.w < 0.0)
        q = (quat){-q.w, -q.x, -q.y, -q.z};
    return quat_normalize(q);
}

quat quat_slerp(quat a, quat b, double t)
{
    double d = quat_dot(a, b);
    if (d < 0.0) { /* the short way round */
        b = (quat){-b.w, -b.x, -b.y, -b.z};
        d = -d;
    }
    double ka, kb;
    if (d > 0.9995) { /* nearly parallel: sin(angle) ~ 0, lerp is accurate and safe */
        ka = 1.0 - t;
        kb = t;
    } else {
        double angle = acos(d);
        double s = sin(angle);
        ka = sin((1.0 - t) * angle) / s;
        kb = sin(t * angle) / s;
    }
    quat r = {ka * a.w + kb * b.w, ka * a.x + kb * b.x, ka * a.y + kb * b.y, ka * a.z + kb * b.z};
    return quat_normalize(r);
}
