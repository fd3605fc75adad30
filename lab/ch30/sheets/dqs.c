/* dqs.c - chapter 30's dual quaternion sheet (exercises 11 to 15, taught on
 * lab/ch30/lab30-dqs/README.md#exercises-dual-quaternions): the rigid transform as a unit
 * dual quaternion, its normalisation, Kavan's point transform, and the two rings' turn
 * angles. exercises30.h says what each takes and returns. Then
 *
 *     make grade30 SHEET=dqs */
#include <math.h>

#include "exercises30.h"

/* q_0 = the rotation, q_e = 1/2 t q_0. */
dualquat ex30_dq_from_rigid(quat rotation, vec3 translation)
{
    (void)rotation, (void)translation;
    NOT_WRITTEN_YET();
    return dualquat_identity();
}

/* b / |b_0|, refused when |b_0| is not above 1e-9 or not finite. */
bool ex30_dq_normalize(dualquat b, dualquat *out)
{
    (void)b, (void)out;
    NOT_WRITTEN_YET();
    return false;
}

/* p' = R(q_0) p + t, t = 2 q_e q_0*. */
vec3 ex30_dq_transform_point(dualquat q, vec3 p)
{
    (void)q;
    NOT_WRITTEN_YET();
    return p;
}

/* psi = atan2(w sin theta, (1-w) + w cos theta). */
double ex30_lbs_turn_angle(double w, double theta)
{
    (void)w, (void)theta;
    NOT_WRITTEN_YET();
    return 0;
}

/* phi = 2 atan2(w sin(t/2), (1-w) + w cos(t/2)), t = theta wrapped into [-pi, pi]. */
double ex30_dqs_turn_angle(double w, double theta)
{
    (void)w, (void)theta;
    NOT_WRITTEN_YET();
    return 0;
}
