/* grade30_figure_heat.c - the pictures of the bone heat sheet (exercises 20 and 21,
 * declared in grade30_table.h): a vertex's Laplacian row as bars, and the chapter's
 * cylinder's heat weights along its height, solved from the student's rows beside the
 * lab's. Both systems are solved here the same way (Gaussian elimination with partial
 * pivoting on the 216 x 216 matrix), so that the picture shows the rows, not a solver. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "draw/figure.h"
#include "draw/plot.h"
#include "math/linalg.h"
#include "mesh/mesh.h"

#include "grade30_figure.h"
#include "grade30_table.h"
#include "rig30.h"

/* ---- 20. the row of a fan with an obtuse angle ----------------------------------------------- */

static void fan(grade30_case *c) { grade30_cotan_case(3, 0, c); }

void grade30_points_cotan(grade_fn g, const grade30_case *failing, grade30_picture_data *out)
{
    grade30_fn f = grade30_fn_of(g);
    (void)failing; /* the named pose shows this exercise's mistakes */
    grade30_case c;
    fan(&c);
    double row[GRADE30_MAX_RING + 1];
    f.cotan_row(c.p, c.ring, c.k, c.closed, row);
    out->count = c.k + 1, out->drawn = true;
    for (int i = 0; i <= c.k; i++)
        out->yours[i].x = row[i];
}

lab_error grade30_draw_cotan(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    grade30_case c;
    fan(&c);
    grade30_answer want = grade30_cotan_expected(&c);
    double lab[GRADE30_MAX_RING + 1], mine[GRADE30_MAX_RING + 1], x[GRADE30_MAX_RING + 1], low = 0, high = 0;
    for (int i = 0; i <= c.k; i++) {
        x[i] = i, lab[i] = want.v[i], mine[i] = yours->drawn ? yours->yours[i].x : NAN;
        low = fmin(low, floor(lab[i])), high = fmax(high, ceil(lab[i]));
    }
    plot_series s[2] = {
        {x, lab, c.k + 1, LABS, 0, 2, "lab", 0, 0},
        {x, mine, c.k + 1, YOURS, 6, 1, "yours", 0, 0},
    };
    plot_spec spec = {.title = "20. a fan with an obtuse angle: L_ik\nfor neighbours 0..3, then L_ii",
                      .x_label = "entry", .y_label = "L",
                      .x_min = 0, .x_max = c.k, .x_step = 1, .y_min = low - 1, .y_max = high + 1, .y_step = 2,
                      .series = s, .series_count = 2};
    return plot_draw(out, W, H, &spec, d);
}

/* ---- 21. the cylinder's heat weights ---------------------------------------------------------- */

enum { N = GRADE30_CYLINDER_VERTICES };

/* Solves A x = b in place (A n x n, row-major); false when a pivot is not finite or zero. */
static bool solve(double *a, double *b, int n)
{
    for (int k = 0; k < n; k++) {
        int p = k;
        for (int i = k + 1; i < n; i++)
            if (fabs(a[i * n + k]) > fabs(a[p * n + k]))
                p = i;
        if (!(fabs(a[p * n + k]) > 0) || !isfinite(a[p * n + k]))
            return false;
        if (p != k) {
            for (int j = 0; j < n; j++) {
                double t = a[k * n + j];
                a[k * n + j] = a[p * n + j], a[p * n + j] = t;
            }
            double t = b[k];
            b[k] = b[p], b[p] = t;
        }
        for (int i = k + 1; i < n; i++) {
            double m = a[i * n + k] / a[k * n + k];
            for (int j = k; j < n; j++)
                a[i * n + j] -= m * a[k * n + j];
            b[i] -= m * b[k];
        }
    }
    for (int k = n - 1; k >= 0; k--) {
        for (int j = k + 1; j < n; j++)
            b[k] -= a[k * n + j] * b[j];
        b[k] /= a[k * n + k];
    }
    return true;
}

/* The child bone's weights w_1 along segment 0, one a ring, from the rows `row` gives:
 * A = -L off the diagonal (the lab's), diagonal and right-hand side from row(i). */
static bool profile(void (*row)(int v, const grade30_heat_system *s, grade30_fn f, double *diag, double *rhs), grade30_fn f,
                    double *out)
{
    const grade30_heat_system *s = grade30_heat_cylinder();
    double *a = calloc((size_t)N * N, sizeof *a), *b = malloc(sizeof *b * N);
    bool ok = a && b;
    for (int e = 0; ok && e < s->off_count; e++)
        a[s->off_row[e] * N + s->off_col[e]] -= s->off_value[e];
    for (int v = 0; ok && v < N; v++)
        row(v, s, f, &a[v * N + v], &b[v]);
    ok = ok && solve(a, b, N);
    for (int r = 0; ok && r < RIG30_RINGS; r++)
        out[r] = b[mesh_cylinder_index(RIG30_SEGMENTS, r, 0)];
    free(a), free(b);
    return ok;
}

static void lab_row(int v, const grade30_heat_system *s, grade30_fn f, double *diag, double *rhs)
{
    (void)f;
    *diag = -s->laplacian[v] + s->area[v] * s->heat[v];
    *rhs = s->area[v] * s->heat[v] * s->p[2 * v + 1];
}

static void your_row(int v, const grade30_heat_system *s, grade30_fn f, double *diag, double *rhs)
{
    f.heat_row(s->laplacian[v], s->area[v], s->distance[v], s->ties[v], s->p[2 * v + 1] > 0, 1.0, diag, rhs);
}

void grade30_points_heat_row(grade_fn g, const grade30_case *failing, grade30_picture_data *out)
{
    grade30_fn f = grade30_fn_of(g);
    (void)failing; /* the named pose shows this exercise's mistakes */
    double w[RIG30_RINGS];
    out->count = RIG30_RINGS;
    out->drawn = profile(your_row, f, w);
    for (int r = 0; out->drawn && r < RIG30_RINGS; r++)
        out->yours[r].x = w[r];
}

lab_error grade30_draw_heat_row(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    double z[RIG30_RINGS], lab[RIG30_RINGS], mine[RIG30_RINGS];
    grade30_fn none = {0};
    if (!profile(lab_row, none, lab))
        return diag_fail(d, LAB_ERR_SINGULAR, "grade30", "the cylinder's heat system");
    for (int r = 0; r < RIG30_RINGS; r++)
        z[r] = RIG30_HEIGHT * r / (RIG30_RINGS - 1), mine[r] = yours->drawn ? yours->yours[r].x : NAN;
    plot_series s[2] = {
        {z, lab, RIG30_RINGS, LABS, 0, 2, "lab", 0, 0},
        {z, mine, RIG30_RINGS, YOURS, 6, 1, "yours", 0, 0},
    };
    plot_spec spec = {.title = yours->drawn ? "21. the child bone's heat weight on\nthe cylinder, from your rows (c = 1)"
                                            : "21. the child bone's heat weight\n(yours: the system has no solution)",
                      .x_label = "z", .y_label = "w_1",
                      .x_min = 0, .x_max = 2, .x_step = 0.5, .y_min = -0.1, .y_max = 1.1, .y_step = 0.25,
                      .series = s, .series_count = 2};
    return plot_draw(out, W, H, &spec, d);
}
