/* bbw.c - bounded biharmonic weights by an active-set method (see src/weights/bbw.h). */
#include "weights/bbw.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "solve/sparse.h"

void bbw_result_free(bbw_result *r)
{
    free(r->weights);
    free(r->raw);
    free(r->iterations);
    *r = (bbw_result){0};
}

/* A's rows with their duplicates summed: row i holds col[start[i] .. start[i + 1]). */
typedef struct {
    int n, *start, *col;
    double *val;
} rows;

static void rows_free(rows *r)
{
    free(r->start), free(r->col), free(r->val);
    *r = (rows){0};
}

static int by_column(const void *a, const void *b)
{
    const int *x = a, *y = b;
    return (*x > *y) - (*x < *y);
}

static lab_error compress(const sparse_triplets *a, rows *out, lab_diag *d)
{
    int n = a->n;
    *out = (rows){.n = n};
    out->start = calloc((size_t)n + 1, sizeof *out->start);
    int *order = malloc((a->count + 1) * sizeof *order), *fill = calloc((size_t)n + 1, sizeof *fill);
    out->col = malloc((a->count + 1) * sizeof *out->col);
    out->val = malloc((a->count + 1) * sizeof *out->val);
    if (!out->start || !order || !fill || !out->col || !out->val) {
        free(order), free(fill), rows_free(out);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "biharmonic weights", "%zu matrix entries", a->count);
    }
    for (size_t k = 0; k < a->count; k++)
        out->start[a->row[k] + 1]++;
    for (int i = 0; i < n; i++)
        out->start[i + 1] += out->start[i];
    for (size_t k = 0; k < a->count; k++) /* triplets grouped by row */
        order[out->start[a->row[k]] + fill[a->row[k]]++] = (int)k;
    int widest = 0; /* the longest row: one scratch of (column, triplet) pairs serves all */
    for (int i = 0; i < n; i++)
        widest = out->start[i + 1] - out->start[i] > widest ? out->start[i + 1] - out->start[i] : widest;
    int (*pair)[2] = malloc(((size_t)widest + 1) * sizeof *pair);
    if (!pair) {
        free(order), free(fill), rows_free(out);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "biharmonic weights", "a row of %d entries", widest);
    }
    int kept = 0;
    for (int i = 0; i < n; i++) {
        int first = out->start[i], last = out->start[i + 1], begin = kept;
        /* (column, triplet) pairs sorted by column, then summed */
        for (int k = first; k < last; k++)
            pair[k - first][0] = a->col[order[k]], pair[k - first][1] = order[k];
        qsort(pair, (size_t)(last - first), sizeof *pair, by_column);
        for (int k = 0; k < last - first; k++) {
            if (kept == begin || out->col[kept - 1] != pair[k][0])
                out->col[kept] = pair[k][0], out->val[kept++] = 0.0;
            out->val[kept - 1] += a->value[pair[k][1]];
        }
        out->start[i] = begin;
    }
    free(pair);
    out->start[n] = kept;
    free(order), free(fill);
    return LAB_OK;
}

/* Q = L M^-1 L, entry by entry: Q_ik = sum_m L_im L_mk / M_m (L is symmetric). */
static lab_error assemble_q(const rows *L, const double *mass, sparse_triplets *Q, lab_diag *d)
{
    size_t count = 0;
    for (int m = 0; m < L->n; m++)
        count += (size_t)(L->start[m + 1] - L->start[m]) * (size_t)(L->start[m + 1] - L->start[m]);
    lab_error e = sparse_init(Q, L->n, count + 1, d);
    for (int m = 0; e == LAB_OK && m < L->n; m++)
        for (int a = L->start[m]; e == LAB_OK && a < L->start[m + 1]; a++)
            for (int b = L->start[m]; e == LAB_OK && b < L->start[m + 1]; b++)
                e = sparse_add(Q, L->col[a], L->col[b], L->val[a] * L->val[b] / mass[m], d);
    return e;
}

/* A_FF w_F = -A_FX w_X: the free vertices' values with the fixed ones (fixed[i]) held at
 * w_i. *backward: the solve's normwise backward error, in the infinity norms. */
static lab_error solve_free(const sparse_triplets *A, const bool *fixed, double *w, double *backward, lab_diag *d)
{
    int n = A->n, f = 0;
    int *index = malloc(((size_t)n + 1) * sizeof *index); /* vertex -> free unknown, or -1 */
    double *b = malloc(((size_t)n + 1) * sizeof *b), *x = malloc(((size_t)n + 1) * sizeof *x);
    double *row = calloc((size_t)n + 1, sizeof *row);
    if (!index || !b || !x || !row) {
        free(index), free(b), free(x), free(row);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "biharmonic weights", "%d vertices", n);
    }
    for (int i = 0; i < n; i++)
        index[i] = fixed[i] ? -1 : f++;
    sparse_triplets AFF = {0};
    sparse_cholesky c = {0};
    lab_error e = f > 0 ? sparse_init(&AFF, f, A->count + 1, d) : LAB_OK;
    for (int i = 0; i < f; i++)
        b[i] = 0.0;
    for (size_t k = 0; e == LAB_OK && f > 0 && k < A->count; k++) {
        int i = index[A->row[k]], j = index[A->col[k]];
        if (i < 0)
            continue;
        if (j >= 0)
            e = sparse_add(&AFF, i, j, A->value[k], d);
        else
            b[i] -= A->value[k] * w[A->col[k]];
    }
    if (e == LAB_OK && f > 0)
        e = sparse_cholesky_factor(&AFF, &c, d);
    if (e == LAB_OK && f > 0)
        e = sparse_cholesky_solve(&c, b, x, d);
    if (e == LAB_OK && f > 0) {
        double a_norm = 0.0, x_norm = 0.0, b_norm = 0.0, r = sparse_residual(&AFF, x, b);
        for (size_t k = 0; k < AFF.count; k++)
            row[AFF.row[k]] += fabs(AFF.value[k]);
        for (int i = 0; i < f; i++)
            a_norm = fmax(a_norm, row[i]), x_norm = fmax(x_norm, fabs(x[i])), b_norm = fmax(b_norm, fabs(b[i]));
        if (r < 0.0)
            e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "biharmonic weights", "the residual's scratch vector");
        else
            *backward = fmax(*backward, r / (a_norm * x_norm + b_norm + 1e-300));
        for (int i = 0; e == LAB_OK && i < n; i++)
            if (index[i] >= 0)
                w[i] = x[index[i]];
    }
    sparse_cholesky_free(&c);
    sparse_free(&AFF);
    free(index), free(b), free(x), free(row);
    return e;
}

/* The handles' values for joint j: 1 on its own, 0 on the others'; fixed where a handle. */
static void handle_values(const int *handle, int n, int j, bool *fixed, double *w)
{
    for (int i = 0; i < n; i++) {
        fixed[i] = handle[i] >= 0;
        w[i] = handle[i] == j ? 1.0 : 0.0;
    }
}

lab_error bbw_harmonic(const sparse_triplets *L, const int *handle, int joint_count, double *weights, lab_diag *d)
{
    int n = L->n;
    sparse_triplets A = {0}; /* -L: positive semidefinite, definite on the free block */
    bool *fixed = malloc(((size_t)n + 1) * sizeof *fixed);
    double *w = malloc(((size_t)n + 1) * sizeof *w), backward = 0.0;
    lab_error e = fixed && w ? sparse_init(&A, n, L->count + 1, d)
                             : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "harmonic weights", "%d vertices", n);
    for (size_t k = 0; e == LAB_OK && k < L->count; k++)
        e = sparse_add(&A, L->row[k], L->col[k], -L->value[k], d);
    for (int j = 0; e == LAB_OK && j < joint_count; j++) {
        handle_values(handle, n, j, fixed, w);
        e = solve_free(&A, fixed, w, &backward, d); /* L w = 0 where free */
        for (int i = 0; e == LAB_OK && i < n; i++)
            weights[(size_t)i * joint_count + j] = w[i];
    }
    sparse_free(&A);
    free(fixed), free(w);
    return e;
}

lab_error bbw_solve(const sparse_triplets *L, const double *mass, const int *handle, int joint_count, bool bounded,
                      bbw_result *out, lab_diag *d)
{
    int n = L->n;
    *out = (bbw_result){.vertex_count = n, .joint_count = joint_count};
    rows Lr = {0};
    sparse_triplets Q = {0};
    bool *fixed = malloc(((size_t)n + 1) * sizeof *fixed);
    signed char *bound = malloc((size_t)n + 1); /* -1 held at 0, +1 held at 1, 0 free */
    double *w = malloc(((size_t)n + 1) * sizeof *w), *g = malloc(((size_t)n + 1) * sizeof *g);
    out->weights = malloc(((size_t)n * joint_count + 1) * sizeof *out->weights);
    out->raw = malloc(((size_t)n * joint_count + 1) * sizeof *out->raw);
    out->iterations = calloc((size_t)joint_count + 1, sizeof *out->iterations);
    lab_error e = fixed && bound && w && g && out->weights && out->raw && out->iterations
                      ? compress(L, &Lr, d)
                      : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "biharmonic weights", "%d vertices", n);
    /* Q = L M^-1 L, the discrete Laplacian energy (Jacobson et al. 2011, section 4) */
    if (e == LAB_OK)
        e = assemble_q(&Lr, mass, &Q, d);
    out->q_nonzeros = (double)Q.count;
    double q_norm = 0.0; /* the multipliers' tolerance scales with Q */
    for (size_t k = 0; e == LAB_OK && k < Q.count; k++)
        q_norm = fmax(q_norm, fabs(Q.value[k]));
    const double tol = 1e-12 * q_norm;
    out->q_scale = q_norm;
    for (int j = 0; e == LAB_OK && j < joint_count; j++) {
        handle_values(handle, n, j, fixed, w);
        memset(bound, 0, (size_t)n);
        bool settled = false;
        while (e == LAB_OK && !settled) {
            if (++out->iterations[j] > BBW_MAX_ITERATIONS) {
                e = diag_fail(d, LAB_ERR_LIMIT, "biharmonic weights", "joint %d: the active set did not settle in %d rounds",
                              j, BBW_MAX_ITERATIONS);
                break;
            }
            for (int i = 0; i < n; i++) /* the bound vertices sit on their bound */
                if (bound[i])
                    fixed[i] = true, w[i] = bound[i] > 0 ? 1.0 : 0.0;
            e = solve_free(&Q, fixed, w, &out->backward_error, d);
            if (e != LAB_OK || !bounded)
                break;
            /* a free vertex outside [0, 1] is held at the bound it crossed */
            settled = true;
            for (int i = 0; i < n; i++)
                if (!fixed[i] && (w[i] < 0.0 || w[i] > 1.0))
                    bound[i] = w[i] < 0.0 ? -1 : 1, settled = false;
            if (!settled)
                continue;
            /* a held vertex whose multiplier has the wrong sign is released: the gradient
             * g = Q w must point into the box, g >= 0 at 0 and g <= 0 at 1 */
            sparse_multiply(&Q, w, g);
            for (int i = 0; i < n; i++)
                if (bound[i] && bound[i] * g[i] > tol) {
                    bound[i] = 0, fixed[i] = false, settled = false;
                }
        }
        /* the KKT residual by the assembled Q */
        if (e == LAB_OK)
            sparse_multiply(&Q, w, g);
        for (int i = 0; e == LAB_OK && i < n; i++) {
            out->active += bound[i] != 0;
            double r = handle[i] >= 0 ? 0.0 : bound[i] < 0 ? fmax(0.0, -g[i]) : bound[i] > 0 ? fmax(0.0, g[i]) : fabs(g[i]);
            r /= q_norm;
            if (bounded)
                r = fmax(r, fmax(-w[i], w[i] - 1.0));
            out->kkt = fmax(out->kkt, r);
            out->weights[(size_t)i * joint_count + j] = out->raw[(size_t)i * joint_count + j] = w[i];
        }
    }
    /* partition of unity: each vertex's weights divided by their sum (as libigl does) */
    for (int i = 0; e == LAB_OK && i < n; i++) {
        double *wi = out->weights + (size_t)i * joint_count, sum = 0.0;
        for (int j = 0; j < joint_count; j++)
            sum += wi[j];
        out->sum_error = fmax(out->sum_error, fabs(sum - 1.0));
        if (!(sum > 0.0)) {
            e = diag_fail_at_vertex(d, LAB_ERR_WEIGHT_SUM_ZERO, i, NULL, "its biharmonic weights sum to %.17g", sum);
            break;
        }
        for (int j = 0; j < joint_count; j++)
            wi[j] /= sum;
    }
    rows_free(&Lr);
    sparse_free(&Q);
    free(fixed), free(bound), free(w), free(g);
    if (e != LAB_OK)
        bbw_result_free(out);
    return e;
}
