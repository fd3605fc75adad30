/* alternative_weights.c - a second correct answer to the bone heat sheet, written apart from
 * reference_weights.c in other forms (each angle from atan2, its cotangent as 1 / tan, the
 * row walked edge by edge; the heat's right-hand side simplified to M c / d^2):
 * test_grade30_make grades it correct through make grade30 SHEET=weights. */
#include <math.h>
#include "exercises30.h"
static double angle(vec3 at, vec3 a, vec3 b)
{
    vec3 u = vec3_sub(a, at), v = vec3_sub(b, at);
    return atan2(vec3_length(vec3_cross(u, v)), vec3_dot(u, v));
}
void ex30_cotan_row(vec3 center, const vec3 *ring, int n, bool closed, double *row)
{
    double diagonal = 0;
    for (int k = 0; k < n; k++) {
        double sum = 0;
        int before = k - 1, after = k + 1;
        if (before < 0) before = closed ? n - 1 : -1;
        if (after == n) after = closed ? 0 : -1;
        if (after >= 0) sum += 1 / tan(angle(ring[after], center, ring[k]));   /* triangle (c, k, k+1) */
        if (before >= 0) sum += 1 / tan(angle(ring[before], center, ring[k])); /* triangle (c, k-1, k) */
        row[k] = sum / 2;
        diagonal -= row[k];
    }
    row[n] = diagonal;
}
void ex30_heat_row(double laplacian_ii, double area, double distance, int k, bool nearest, double c,
                   double *diagonal, double *rhs)
{
    double per_bone = c / (distance * distance);
    *diagonal = area * per_bone * k - laplacian_ii;
    *rhs = nearest ? area * per_bone : 0;
}
