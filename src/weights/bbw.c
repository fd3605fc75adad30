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

/* A's block over the free vertices (those not fixed), factored: index maps a vertex to its
 * free unknown (-1 where fixed), f of them. One block serves every right-hand side with the
 * same fixed set: each joint's first round, where only the handles are fixed. */
typedef struct {
    int n, f;
    int *index;
    sparse_triplets AFF;
    sparse_cholesky c;
    double a_norm;            /* |A_FF| in the infinity norm, for the backward error */
    double flops;             /* CHOLMOD's count for its factorisation, by the analysis */
} free_block;

static void free_block_free(free_block *fb)
{
    sparse_cholesky_free(&fb->c);
    sparse_free(&fb->AFF);
    free(fb->index);
    *fb = (free_block){0};
}

/* max_flops > 0: refused (LAB_ERR_LIMIT) after the analysis, before the factorisation, when
 * it would count more; fb->flops holds the count either way. */
static lab_error free_block_make(const sparse_triplets *A, const bool *fixed, double max_flops, free_block *fb,
                                 lab_diag *d)
{
    int n = A->n;
    *fb = (free_block){.n = n};
    fb->index = malloc(((size_t)n + 1) * sizeof *fb->index);
    double *row = calloc((size_t)n + 1, sizeof *row);
    if (!fb->index || !row) {
        free(row), free_block_free(fb);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "biharmonic weights", "%d vertices", n);
    }
    for (int i = 0; i < n; i++)
        fb->index[i] = fixed[i] ? -1 : fb->f++;
    size_t entries = 0; /* the block's, so that its triplets take what they need */
    for (size_t k = 0; k < A->count; k++)
        entries += fb->index[A->row[k]] >= 0 && fb->index[A->col[k]] >= 0;
    lab_error e = fb->f > 0 ? sparse_init(&fb->AFF, fb->f, entries + 1, d) : LAB_OK;
    for (size_t k = 0; e == LAB_OK && fb->f > 0 && k < A->count; k++) {
        int i = fb->index[A->row[k]], j = fb->index[A->col[k]];
        if (i >= 0 && j >= 0)
            e = sparse_add(&fb->AFF, i, j, A->value[k], d);
    }
    if (e == LAB_OK && fb->f > 0)
        e = sparse_cholesky_factor_within(&fb->AFF, max_flops, &fb->flops, &fb->c, d);
    for (size_t k = 0; e == LAB_OK && k < fb->AFF.count; k++)
        row[fb->AFF.row[k]] += fabs(fb->AFF.value[k]);
    for (int i = 0; e == LAB_OK && i < fb->f; i++)
        fb->a_norm = fmax(fb->a_norm, row[i]);
    free(row);
    if (e != LAB_OK) {
        double flops = fb->flops;
        free_block_free(fb);
        fb->flops = flops;
    }
    return e;
}

/* A_FF w_F = -A_FX w_X on fb's free vertices, the fixed ones held at w_i. *backward: the
 * solve's normwise backward error, in the infinity norms, the largest so far. */
static lab_error free_block_solve(const free_block *fb, const sparse_triplets *A, double *w, double *backward,
                                  lab_diag *d)
{
    int f = fb->f;
    if (f == 0)
        return LAB_OK;
    double *b = malloc(((size_t)f + 1) * sizeof *b), *x = malloc(((size_t)f + 1) * sizeof *x);
    if (!b || !x) {
        free(b), free(x);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "biharmonic weights", "%d vertices", fb->n);
    }
    for (int i = 0; i < f; i++)
        b[i] = 0.0;
    for (size_t k = 0; k < A->count; k++) {
        int i = fb->index[A->row[k]];
        if (i >= 0 && fb->index[A->col[k]] < 0)
            b[i] -= A->value[k] * w[A->col[k]];
    }
    lab_error e = sparse_cholesky_solve(&fb->c, b, x, d);
    if (e == LAB_OK) {
        double x_norm = 0.0, b_norm = 0.0, r = sparse_residual(&fb->AFF, x, b);
        for (int i = 0; i < f; i++)
            x_norm = fmax(x_norm, fabs(x[i])), b_norm = fmax(b_norm, fabs(b[i]));
        if (r < 0.0)
            e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "biharmonic weights", "the residual's scratch vector");
        else
            *backward = fmax(*backward, r / (fb->a_norm * x_norm + b_norm + 1e-300));
        for (int i = 0; e == LAB_OK && i < fb->n; i++)
            if (fb->index[i] >= 0)
                w[i] = x[fb->index[i]];
    }
    free(b), free(x);
    return e;
}

/* A_FF w_F = -A_FX w_X for one fixed set, factored for this solve alone; *flops: CHOLMOD's
 * count for the factorisation, added (refused or not: see free_block_make, max_flops). */
static lab_error solve_free(const sparse_triplets *A, const bool *fixed, double *w, double *backward, double *flops,
                            double max_flops, lab_diag *d)
{
    free_block fb;
    lab_error e = free_block_make(A, fixed, max_flops, &fb, d);
    *flops += fb.flops;
    if (e == LAB_OK)
        e = free_block_solve(&fb, A, w, backward, d);
    free_block_free(&fb);
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
    bool *fixed = calloc((size_t)n + 1, sizeof *fixed);
    double *w = malloc(((size_t)n + 1) * sizeof *w), backward = 0.0, flops = 0.0;
    lab_error e = fixed && w ? sparse_init(&A, n, L->count + 1, d)
                             : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "harmonic weights", "%d vertices", n);
    for (size_t k = 0; e == LAB_OK && k < L->count; k++)
        e = sparse_add(&A, L->row[k], L->col[k], -L->value[k], d);
    for (int j = 0; e == LAB_OK && j < joint_count; j++) {
        handle_values(handle, n, j, fixed, w);
        e = solve_free(&A, fixed, w, &backward, &flops, 0.0, d); /* L w = 0 where free */
        for (int i = 0; e == LAB_OK && i < n; i++)
            weights[(size_t)i * joint_count + j] = w[i];
    }
    sparse_free(&A);
    free(fixed), free(w);
    return e;
}

lab_error bbw_solve(const sparse_triplets *L, const double *mass, const int *handle, int joint_count, bool bounded,
                      double max_work, bbw_result *out, lab_diag *d)
{
    int n = L->n;
    *out = (bbw_result){.vertex_count = n, .joint_count = joint_count};
    rows Lr = {0};
    sparse_triplets Q = {0};
    bool *fixed = calloc((size_t)n + 1, sizeof *fixed);
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
    /* each joint's first round fixes the handles alone: one factorisation serves every joint
     * there; a joint without a handle vertex has 0 on every handle, so its minimiser is 0
     * (inside the bounds: one round, no solve) */
    bool *has_handle = calloc((size_t)joint_count + 1, sizeof *has_handle);
    free_block handles_only = {0};
    if (e == LAB_OK && !has_handle)
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "biharmonic weights", "%d joints", joint_count);
    for (int i = 0; e == LAB_OK && i < n; i++)
        fixed[i] = handle[i] >= 0, has_handle[handle[i] >= 0 ? handle[i] : joint_count] = true;
    if (e == LAB_OK)
        e = free_block_make(&Q, fixed, max_work, &handles_only, d);
    out->work = handles_only.flops;
    if (e == LAB_ERR_LIMIT) /* the analysis alone: over before any round */
        e = diag_fail(d, LAB_ERR_LIMIT, "biharmonic weights", "the first factorisation, before any round: %.3g "
                      "operations (CHOLMOD's analysis counts its flops), over the %.3g allowed", out->work, max_work);
    for (int j = 0; e == LAB_OK && j < joint_count; j++) {
        handle_values(handle, n, j, fixed, w);
        memset(bound, 0, (size_t)n);
        bool settled = !has_handle[j];
        if (settled) /* handle_values left w = 0 */
            out->iterations[j] = 1;
        while (e == LAB_OK && !settled) {
            if (++out->iterations[j] > BBW_MAX_ITERATIONS) {
                e = diag_fail(d, LAB_ERR_LIMIT, "biharmonic weights", "joint %d: the active set did not settle in %d rounds",
                              j, BBW_MAX_ITERATIONS);
                break;
            }
            bool any_bound = false;
            for (int i = 0; i < n; i++) /* the bound vertices sit on their bound */
                if (bound[i])
                    fixed[i] = true, w[i] = bound[i] > 0 ? 1.0 : 0.0, any_bound = true;
            out->work += 4.0 * (double)Q.count; /* assembled, solved for, multiplied: Q's entries */
            double left = max_work - out->work; /* a factorisation past it is refused unmade */
            if (max_work > 0.0 && left <= 0.0)
                e = LAB_ERR_LIMIT;
            else
                e = any_bound ? solve_free(&Q, fixed, w, &out->backward_error, &out->work, max_work > 0.0 ? left : 0.0, d)
                              : free_block_solve(&handles_only, &Q, w, &out->backward_error, d);
            if (e == LAB_ERR_LIMIT || (e == LAB_OK && max_work > 0.0 && out->work > max_work)) {
                e = diag_fail(d, LAB_ERR_LIMIT, "biharmonic weights", "joint %d of %d, active-set round %d: %.3g "
                              "operations (CHOLMOD's factorisations' flops and Q's entries), over the %.3g allowed", j,
                              joint_count, out->iterations[j], out->work, max_work);
                break;
            }
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
    free_block_free(&handles_only);
    free(has_handle);
    rows_free(&Lr);
    sparse_free(&Q);
    free(fixed), free(bound), free(w), free(g);
    bool over = max_work > 0.0 && out->work > max_work;
    if (e != LAB_OK)
        bbw_result_free(out);
    out->over_budget = over;
    return e;
}
