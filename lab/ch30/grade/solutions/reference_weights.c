/* reference_weights.c - one correct answer to the bone heat sheet (lab/ch30/sheets/weights.c, exercises 20 and 21), for the grader's
 * tests and for a student who wants to compare after trying:
 * make grade30 SHEET=weights EXERCISES=lab/ch30/grade/solutions/reference_weights.c exits 0. Each
 * formula in its own lines, as a student would write it. */
#include <math.h>
#include <stdbool.h>

#include "exercises30.h"
#include "math/quat.h"

/* 20: the cotangent of the angle at b in triangle (a, b, c): cos / sin by dot and cross */
static double cot_at(vec3 a, vec3 b, vec3 c)
{
    vec3 u = vec3_sub(a, b), v = vec3_sub(c, b);
    return vec3_dot(u, v) / vec3_length(vec3_cross(u, v));
}
void ex30_cotan_row(vec3 center, const vec3 *ring, int n, bool closed, double *row)
{
    for (int k = 0; k <= n; k++)
        row[k] = 0;
    int triangles = closed ? n : n - 1;
    for (int t = 0; t < triangles; t++) {
        int a = t, b = (t + 1) % n;
        /* edge (center, ring[a]) is opposite the angle at ring[b]; (center, ring[b]) at ring[a] */
        row[a] += cot_at(center, ring[b], ring[a]) / 2;
        row[b] += cot_at(center, ring[a], ring[b]) / 2;
    }
    for (int k = 0; k < n; k++)
        row[n] -= row[k];
}

/* 21 */
void ex30_heat_row(double laplacian_ii, double area, double distance, int k, bool nearest, double c,
                   double *diagonal, double *rhs)
{
    double h = k * c / (distance * distance);
    *diagonal = -laplacian_ii + area * h;
    *rhs = nearest ? area * h / k : 0;
}
