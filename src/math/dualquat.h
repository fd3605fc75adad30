/* dualquat.h - unit dual quaternions for rigid transforms, and dual-quaternion linear
 * blending (DLB, Kavan et al. 2007, "Skinning with Dual Quaternions").
 *
 *   q^ = q_0 + eps q_e, eps^2 = 0
 *   a rigid transform "rotate by r, then translate by t":  q_0 = r,  q_e = 1/2 (0, t) r
 *   back:  t = 2 q_e q_0*  (vector part),  rotation = q_0
 *   product a^ b^ = (a_0 b_0, a_0 b_e + a_e b_0): b^ acts first, as mat4_mul.
 *
 * DLB blends sum_i w_i q^_i and divides by |sum_i w_i q_i0|. q and -q are the same
 * rotation, so before blending every q^_i is brought into the hemisphere of a pivot
 * (the influence with the largest weight, the first one on ties): q^_i is negated when
 * q_i0 . pivot_0 < 0. Without that fix a blend can take the long way round or cancel.
 */
#ifndef DUALQUAT_H
#define DUALQUAT_H

#include <stdbool.h>

#include "base/diag.h"
#include "math/quat.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    quat real;   /* q_0: the rotation */
    quat dual;   /* q_e: 1/2 t q_0 */
} dualquat;

/* Below this |q_0| a blend has no usable rotation: an error, never a division. */
#define DUALQUAT_MIN_NORM 1e-9
/* How far a skin matrix's 3x3 part may be from a rotation and still count as rigid. */
#define DUALQUAT_RIGID_TOLERANCE 1e-9

dualquat dualquat_identity(void);
dualquat dualquat_from_rigid(quat rotation, vec3 translation);
dualquat dualquat_mul(dualquat a, dualquat b);
dualquat dualquat_conjugate(dualquat a);              /* (q_0*, q_e*) */
dualquat dualquat_scale(dualquat a, double s);
dualquat dualquat_add(dualquat a, dualquat b);
double dualquat_norm(dualquat a);                     /* |q_0| */
/* q^ / |q_0|. Fails with LAB_ERR_DQ_ZERO_NORM when |q_0| <= DUALQUAT_MIN_NORM. */
lab_error dualquat_normalize(dualquat a, dualquat *out, const char *where, lab_diag *d);
/* The rigid transform of a normalised q^ as a matrix (rotation, then translation). */
mat4 dualquat_to_mat4(dualquat a);
/* Kavan's point transform for a normalised q^ (Algorithm 1):
 *   p' = p + 2 d0 x (d0 x p + a0 p) + 2 (a0 de - ae d0 + d0 x de)
 * with q_0 = (a0, d0), q_e = (ae, de). */
vec3 dualquat_transform_point(dualquat a, vec3 p);

/* The rigid transform in m as a dual quaternion. m must be finite, affine and rigid:
 * its 3x3 part orthonormal with determinant +1 within DUALQUAT_RIGID_TOLERANCE;
 * otherwise LAB_ERR_NOT_RIGID names `where` and the column scales and shear found. */
lab_error dualquat_from_mat4(mat4 m, dualquat *out, const char *where, lab_diag *d);
/* The same within `tolerance` (column lengths off 1, and |c_i . c_j|, at most that): a
 * matrix built from float32 data, such as glTF's, is rigid only to float precision. */
lab_error dualquat_from_mat4_within(mat4 m, double tolerance, dualquat *out, const char *where, lab_diag *d);

/* sum_i w_i q^_i over n influences, with the hemisphere fix against the pivot when
 * `hemisphere_fix` is true. Not normalised: see dualquat_normalize. */
dualquat dualquat_blend(const dualquat *q, const double *w, int n, bool hemisphere_fix);

#ifdef __cplusplus
}
#endif

#endif
