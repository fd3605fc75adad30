/* reference_dqs.c - one correct answer to the dual quaternion sheet (lab/ch30/sheets/dqs.c, exercises 11 to 15), for the grader's
 * tests and for a student who wants to compare after trying:
 * make grade30 SHEET=dqs EXERCISES=lab/ch30/grade/solutions/reference_dqs.c exits 0. Each
 * formula in its own lines, as a student would write it. */
#include <math.h>
#include <stdbool.h>

#include "exercises30.h"
#include "math/quat.h"

static quat scaled(quat q, double s) { return (quat){q.w * s, q.x * s, q.y * s, q.z * s}; }

/* 11: q_e = 1/2 t q_0 */
dualquat ex30_dq_from_rigid(quat rotation, vec3 translation)
{
    quat t = {0, translation.x, translation.y, translation.z};
    return (dualquat){rotation, scaled(quat_mul(t, rotation), 0.5)};
}

/* 12: divide by |b_0|, refuse a zero norm */
bool ex30_dq_normalize(dualquat b, dualquat *out)
{
    double n = quat_norm(b.real);
    if (!(n > 1e-9) || !isfinite(n))
        return false;
    *out = (dualquat){scaled(b.real, 1 / n), scaled(b.dual, 1 / n)};
    return true;
}

/* 13: R p + t, t = 2 q_e q_0* */
vec3 ex30_dq_transform_point(dualquat q, vec3 p)
{
    quat t = scaled(quat_mul(q.dual, quat_conjugate(q.real)), 2);
    return vec3_add(quat_rotate(q.real, p), vec3_make(t.x, t.y, t.z));
}

/* 14 */
double ex30_lbs_turn_angle(double w, double theta) { return atan2(w * sin(theta), (1 - w) + w * cos(theta)); }

/* 15: the hemisphere rule on the half angle */
double ex30_dqs_turn_angle(double w, double theta)
{
    double c = cos(theta / 2), s = sin(theta / 2);
    if (c < 0)
        c = -c, s = -s;
    return 2 * atan2(w * s, (1 - w) + w * c);
}
