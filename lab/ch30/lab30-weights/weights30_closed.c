/* weights30_closed.c - what lab30-weights checks its solves against, each computed on its own
 * (see weights30.h): the cotangent Laplacian of a regular hexagon, whose weights are known;
 * the closed form of the paper's bone heat on the chapter's cylinder, and the continuum's;
 * the cylinder's biharmonic system reduced to one unknown a ring and solved densely. */
#include <math.h>

#include "base/diag.h"
#include "math/linalg.h"
#include "mesh/mesh.h"
#include "solve/sparse.h"

#include "weights/heat.h"
#include "rig30.h"
#include "weights30.h"

/* A regular hexagon of side 1 as six equilateral triangles around vertex 0: every angle is
 * 60 degrees, so a spoke (two triangles) has L = (cot 60 + cot 60) / 2 = 1 / sqrt(3), a rim
 * edge (one triangle, a boundary) 1 / (2 sqrt(3)), the centre L_00 = -6 / sqrt(3), and the
 * centre's Voronoi area is a third of each triangle's, 6 (sqrt(3) / 4) / 3 = sqrt(3) / 2. */
lab_error weights30_check_laplacian(weights30_laplacian_check *c, report_checks *checks, lab_diag *d)
{
    vec3 v[7] = {{0, 0, 0}};
    mesh_triangle t[6];
    for (int k = 0; k < 6; k++) {
        double a = k * acos(-1.0) / 3.0;
        v[1 + k] = vec3_make(cos(a), sin(a), 0);
        t[k] = (mesh_triangle){{0, 1 + k, 1 + (k + 1) % 6}};
    }
    mesh hexagon = {7, v, 6, t};
    sparse_triplets L;
    double mass[7];
    lab_error e = heat_laplacian(&hexagon, HEAT_PAPER, &L, mass, NULL, d);
    if (e != LAB_OK)
        return e;
    const double s3 = sqrt(3.0);
    *c = (weights30_laplacian_check){.spoke = sparse_entry(&L, 0, 1), .spoke_expected = 1 / s3,
                                     .rim = sparse_entry(&L, 1, 2), .rim_expected = 1 / (2 * s3),
                                     .centre = sparse_entry(&L, 0, 0), .centre_expected = -6 / s3,
                                     .mass = mass[0], .mass_expected = s3 / 2};
    for (int i = 0; i < 7; i++) { /* L 1 = 0: each row sums to zero */
        double sum = 0.0;
        for (int j = 0; j < 7; j++)
            sum += sparse_entry(&L, i, j);
        c->row_sum = max_or_nan(c->row_sum, fabs(sum));
    }
    sparse_free(&L);
    check_compare(checks, "spoke L_0k = (cot a + cot b) / 2", c->spoke, c->spoke_expected, 1e-15);
    check_compare(checks, "rim edge (boundary) L = cot a / 2", c->rim, c->rim_expected, 1e-15);
    check_compare(checks, "centre L_00 = -sum_k L_0k", c->centre, c->centre_expected, 1e-14);
    check_compare(checks, "centre's mixed Voronoi area", c->mass, c->mass_expected, 1e-15);
    check_bound(checks, "max_i |sum_k L_ik| (L 1 = 0)", c->row_sum, 1e-14);
    return LAB_OK;
}

/* The closed form of the cylinder's system (see the top of lab30-weights.c), ring by ring, and of
 * the differential equation it discretises. h the ring spacing, k^2 = c / R^2.
 *   bend:  p = 1 (child) above the middle ring, 1/2 on it (a tie), 0 below; the solution
 *          is odd about the middle ring: w(z) = cosh(mu z) / (2 cosh(mu)) for z <= 1 and
 *          1 - w(2 - z) above.
 *   twist: p = 1/2 on the top ring only (where the two bones meet; k = 2 there, so its H
 *          doubles) and 0 elsewhere: w = a cosh(mu z), a from the top ring's own row,
 *          2 (w_7 - w_8) / h^2 = 2 k^2 (w_8 - 1/2).
 * The continuum's versions replace mu by k (and the top ring's row by its limit). */
void weights30_heat_closed_forms(rig30_kind kind, double c, double out[RIG30_RINGS], double continuum[RIG30_RINGS])
{
    const double h = RIG30_HEIGHT / (RIG30_RINGS - 1), k2 = c / (RIG30_RADIUS * RIG30_RADIUS);
    const double mu = acosh(1.0 + k2 * h * h / 2.0) / h, k = sqrt(k2), top = RIG30_HEIGHT;
    const double a = (k2 * h * h / 2.0) / (k2 * h * h * cosh(mu * top) - cosh(mu * (top - h)) + cosh(mu * top));
    for (int ring = 0; ring < RIG30_RINGS; ring++) {
        double z = ring * h;
        if (kind == RIG30_BEND) {
            double lower = z <= 1.0 ? z : 2.0 - z, sign = z <= 1.0 ? 1.0 : -1.0;
            out[ring] = (z <= 1.0 ? 0.0 : 1.0) + sign * cosh(mu * lower) / (2.0 * cosh(mu));
            continuum[ring] = (z <= 1.0 ? 0.0 : 1.0) + sign * cosh(k * lower) / (2.0 * cosh(k));
        } else {
            out[ring] = a * cosh(mu * z);
            /* none to compare with: the heat enters through the top ring's strip alone,
             * h / 2 wide, so the continuum's limit is w = 0 and the weight a leaf joint
             * gets depends on the mesh's resolution (see the chapter page) */
            continuum[ring] = NAN;
        }
    }
}

/* The cylinder's biharmonic system ring by ring, solved on its own by dense elimination.
 * With a weight per ring, (L w) at ring r is (s/h) (w_{r+1} - 2 w_r + w_{r-1}) (one-sided at
 * the end rings: a vertical edge's cot is s/h, a diagonal's cot 90 = 0), each vertex's area
 * is s h (s h / 2 on an end ring: every quad gives each corner a quarter), so
 * Q w = L M^-1 L w is D diag(1/A) D w with D the second difference and A_r = 1 (1/2 at the
 * ends), up to the common factor s / h^3. The end rings hold 0 and 1. */
void weights30_bbw_ring_system(double out[RIG30_RINGS])
{
    enum { N = RIG30_RINGS, F = RIG30_RINGS - 2 };
    double D[N][N] = {{0}}, A[N], Q[N][N] = {{0}}, m[F][F + 1];
    for (int r = 0; r < N; r++) {
        A[r] = r == 0 || r == N - 1 ? 0.5 : 1.0;
        if (r > 0)
            D[r][r - 1] += 1.0, D[r][r] -= 1.0;
        if (r < N - 1)
            D[r][r + 1] += 1.0, D[r][r] -= 1.0;
    }
    for (int r = 0; r < N; r++)
        for (int c = 0; c < N; c++)
            for (int k = 0; k < N; k++)
                Q[r][c] += D[r][k] * D[k][c] / A[k];
    for (int r = 0; r < F; r++) { /* rows 1..N-2, w_0 = 0, w_{N-1} = 1 moved right */
        for (int c = 0; c < F; c++)
            m[r][c] = Q[r + 1][c + 1];
        m[r][F] = -Q[r + 1][N - 1];
    }
    for (int k = 0; k < F; k++) /* Gauss-Jordan; Q's free block is positive definite */
        for (int r = 0; r < F; r++) {
            if (r == k)
                continue;
            double f = m[r][k] / m[k][k];
            for (int c = k; c <= F; c++)
                m[r][c] -= f * m[k][c];
        }
    out[0] = 0.0, out[N - 1] = 1.0;
    for (int r = 0; r < F; r++)
        out[r + 1] = m[r][F] / m[r][r];
}

/* The checks of one model's solution: properties of the system, not imposed on it. */
void weights30_measure_solution(weights30_rig *w, heat_model model)
{
    const double *S = w->heat[model].solution; /* vertex-major, RIG30_JOINTS a vertex */
    w->min_weight[model] = INFINITY;
    for (int v = 0; v < WEIGHTS30_VERTS; v++) {
        w->sum_error[model] = max_or_nan(w->sum_error[model], fabs(S[2 * v] + S[2 * v + 1] - 1.0));
        w->min_weight[model] = fmin(w->min_weight[model], fmin(S[2 * v], S[2 * v + 1]));
    }
    for (int j = 0; j < RIG30_JOINTS; j++)
        w->backward_error[model] = max_or_nan(w->backward_error[model], w->heat[model].backward_error[j]);
    for (int ring = 0; ring < RIG30_RINGS; ring++) {
        double lo = INFINITY, hi = -INFINITY;
        for (int s = 0; s < RIG30_SEGMENTS; s++) {
            double x = S[2 * (ring * RIG30_SEGMENTS + s) + 1];
            lo = fmin(lo, x), hi = fmax(hi, x);
        }
        w->ring_spread[model] = max_or_nan(w->ring_spread[model], hi - lo);
    }
}

void weights30_check_model(const weights30_rig *w, heat_model model, report_checks *c)
{
    check_bound(c, "max_i |sum_j w_ij - 1|", w->sum_error[model], RIG30_CHECK_TOLERANCE);
    check_bound(c, "max(0, -min w_ij) (w >= 0)", max_or_nan(0.0, -w->min_weight[model]), RIG30_CHECK_TOLERANCE);
    check_bound(c, "|Aw - b| / (|A| |w| + |b|)", w->backward_error[model], 1e-14);
    check_bound(c, "spread of a ring's weights", w->ring_spread[model], RIG30_CHECK_TOLERANCE);
}

/* A bone runs from its joint to its child joint; a leaf (joint 1 here) continues its
 * parent's bone, as long, as an animator's tool gives every bone a tail. Twist: (0,0,0) to
 * (0,0,2), then (0,0,2) to (0,0,4); bend: (0,0,0) to (0,0,1), then (0,0,1) to (0,0,2). */
void weights30_rig_bones(const rig30_rig *rig, heat_bone out[WEIGHTS30_BONES])
{
    vec3 o[RIG30_JOINTS];
    for (int j = 0; j < RIG30_JOINTS; j++)
        o[j] = mat4_transform_point(rig->bind_world[j], vec3_make(0, 0, 0));
    out[0] = (heat_bone){o[0], o[1], 0};
    out[1] = (heat_bone){o[1], vec3_add(o[1], vec3_sub(o[1], o[0])), 1};
}
