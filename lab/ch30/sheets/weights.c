/* weights.c - chapter 30's sheet of where weights come from (exercises 20 and 21, taught
 * on lab/ch30/lab30-weights/README.md#exercises-bone-heat): the cotangent Laplacian's row
 * of a vertex, and the heat system's row. exercises30.h says what each takes and returns.
 * Exercise 21's picture solves the cylinder's heat system from your rows. Then
 *
 *     make grade30 SHEET=weights */
#include <math.h>

#include "exercises30.h"

/* L_ik = (cot alpha + cot beta) / 2, L_ii = -sum_k L_ik. */
void ex30_cotan_row(vec3 center, const vec3 *ring, int n, bool closed, double *row)
{
    (void)center, (void)ring, (void)closed;
    for (int k = 0; k <= n; k++)
        row[k] = 0;
    NOT_WRITTEN_YET();
}

/* A_ii = -L_ii + M_ii H_ii, b_i = M_ii H_ii p_j(i), H_ii = k c / d^2, p_j(i) = 1/k or 0. */
void ex30_heat_row(double laplacian_ii, double area, double distance, int k, bool nearest, double c,
                   double *diagonal, double *rhs)
{
    (void)laplacian_ii, (void)area, (void)distance, (void)k, (void)nearest, (void)c;
    *diagonal = *rhs = 0;
    NOT_WRITTEN_YET();
}
