/* quat.h - unit quaternions for rotations (chapter 29).
 *
 * q = w + xi + yj + zk, stored {w, x, y, z}. A rotation by angle a about the unit axis n
 * is q = (cos(a/2), sin(a/2) n); it rotates a point p as q p q* (counter-clockwise about
 * +n, the same sense as mat4_rotate_*). q and -q are the same rotation.
 */
#ifndef QUAT_H
#define QUAT_H

#include "math/linalg.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct { double w, x, y, z; } quat;

quat quat_identity(void);
quat quat_from_axis_angle(vec3 axis, double radians); /* axis need not be unit; zero -> identity */
quat quat_mul(quat a, quat b);       /* Hamilton product a*b: b acts first */
quat quat_conjugate(quat q);
double quat_dot(quat a, quat b);
double quat_norm(quat q);
quat quat_normalize(quat q);         /* q / |q|; the zero quaternion stays zero */
vec3 quat_rotate(quat q, vec3 p);    /* q p q*, for unit q */
mat4 quat_to_mat4(quat q);           /* rotation matrix of unit q, no translation */
/* The unit quaternion of the rotation in m's 3x3 part (Shepperd's method: it divides by
 * the largest of 1 + trace and the diagonal terms, so it is stable for every angle).
 * m's 3x3 part must be a rotation; the result has w >= 0 where that is a free choice. */
quat quat_from_mat4(mat4 m);
/* Spherical interpolation from a (t = 0) to b (t = 1) the short way round: b is flipped
 * when a.b < 0. Falls back to normalised linear interpolation when a and b nearly agree. */
quat quat_slerp(quat a, quat b, double t);

#ifdef __cplusplus
}
#endif

#endif
