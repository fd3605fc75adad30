/* alternative.c - a second correct answer to lab/ch30/exercises.c, written apart from
 * reference.c in other algebraic forms (products as loops, the blended matrix applied once,
 * the radius as the length of (1-w) + w e^(i theta), a Gauss-Jordan inverse, the dot
 * products by hand): test_grade30 grades it correct through make grade30, so that the
 * tolerances take every correct form, not only the reference's. */
#include <math.h>
#include "exercises30.h"
mat4 ex30_world_matrix(mat4 p, mat4 l)
{
    mat4 g;
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            double s = 0;
            for (int k = 0; k < 4; k++) s += p.m[r][k] * l.m[k][c];
            g.m[r][c] = s;
        }
    return g;
}
mat4 ex30_skin_matrix(mat4 w, mat4 ib) { return ex30_world_matrix(w, ib); }
vec3 ex30_lbs_point(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette)
{
    double M[3][4] = {{0}};
    for (int i = 0; i < k; i++)
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 4; c++) M[r][c] += weight[i] * palette[joint[i]].m[r][c];
    return vec3_make(M[0][0]*p.x + M[0][1]*p.y + M[0][2]*p.z + M[0][3],
                     M[1][0]*p.x + M[1][1]*p.y + M[1][2]*p.z + M[1][3],
                     M[2][0]*p.x + M[2][1]*p.y + M[2][2]*p.z + M[2][3]);
}
double ex30_ring_radius_ratio(double w, double theta)
{
    return hypot((1 - w) + w * cos(theta), w * sin(theta));
}
ex30_weights ex30_check_weights(const double *weight, int k)
{
    for (int i = 0; i < k; i++) {
        if (isnan(weight[i]) || isinf(weight[i])) return EX30_WEIGHTS_NOT_FINITE;
        if (!(weight[i] >= 0)) return EX30_WEIGHTS_NEGATIVE;
    }
    double s = 0;
    for (int i = k - 1; i >= 0; i--) s += weight[i];
    if (s > 1 + 1e-12 || s < 1 - 1e-12) return EX30_WEIGHTS_NOT_SUMMING_TO_ONE;
    return EX30_WEIGHTS_VALID;
}
dualquat ex30_dqs_blend(const dualquat *q, const double *weight, int k)
{
    int pv = 0;
    double best = -1;
    for (int i = 0; i < k; i++) if (weight[i] > best) best = weight[i], pv = i;
    dualquat s = {{0,0,0,0},{0,0,0,0}};
    for (int i = 0; i < k; i++) {
        double d = q[i].real.w*q[pv].real.w + q[i].real.x*q[pv].real.x + q[i].real.y*q[pv].real.y + q[i].real.z*q[pv].real.z;
        double c = d < 0 ? -weight[i] : weight[i];
        s.real.w += c*q[i].real.w; s.real.x += c*q[i].real.x; s.real.y += c*q[i].real.y; s.real.z += c*q[i].real.z;
        s.dual.w += c*q[i].dual.w; s.dual.x += c*q[i].dual.x; s.dual.y += c*q[i].dual.y; s.dual.z += c*q[i].dual.z;
    }
    return s;
}
mat4 ex30_normal_matrix(mat4 m)
{
    /* Gauss-Jordan on the 3x3 part, then the transpose */
    double a[3][6];
    for (int r = 0; r < 3; r++) for (int c = 0; c < 6; c++) a[r][c] = c < 3 ? m.m[r][c] : (c - 3 == r);
    for (int c = 0; c < 3; c++) {
        int p = c;
        for (int r = c + 1; r < 3; r++) if (fabs(a[r][c]) > fabs(a[p][c])) p = r;
        for (int j = 0; j < 6; j++) { double t = a[c][j]; a[c][j] = a[p][j]; a[p][j] = t; }
        double d = a[c][c];
        for (int j = 0; j < 6; j++) a[c][j] /= d;
        for (int r = 0; r < 3; r++) if (r != c) { double f = a[r][c]; for (int j = 0; j < 6; j++) a[r][j] -= f * a[c][j]; }
    }
    mat4 n = mat4_identity();
    for (int r = 0; r < 3; r++) for (int c = 0; c < 3; c++) n.m[r][c] = a[c][3 + r];
    return n;
}
