/* sparse.c - sparse symmetric systems through CHOLMOD (see sparse.h). */
#include "solve/sparse.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include <suitesparse/cholmod.h> /* its types and prototypes; the functions come from sparse_load */

#include "base/library.h"

/* The shared library whose header this file was compiled against: its SONAME, which
 * scripts/ensure-deps.sh reads from the installed libcholmod.so. */
#ifndef SPARSE_CHOLMOD_LIBRARY
#error "SPARSE_CHOLMOD_LIBRARY (CHOLMOD's SONAME) is set by the build (scripts/ensure-deps.sh)"
#endif

/* The CHOLMOD functions this file calls (cholmod_start as cholmod.start), each through a
 * pointer of its prototype's type. */
#define SPARSE_CHOLMOD_FUNCTIONS(X)                                                                     \
    X(int, start, (cholmod_common *))                                                                   \
    X(int, finish, (cholmod_common *))                                                                  \
    X(cholmod_triplet *, allocate_triplet, (size_t, size_t, size_t, int, int, cholmod_common *))        \
    X(int, free_triplet, (cholmod_triplet **, cholmod_common *))                                        \
    X(cholmod_sparse *, triplet_to_sparse, (cholmod_triplet *, size_t, cholmod_common *))               \
    X(int, free_sparse, (cholmod_sparse **, cholmod_common *))                                          \
    X(cholmod_factor *, analyze, (cholmod_sparse *, cholmod_common *))                                  \
    X(int, factorize, (cholmod_sparse *, cholmod_factor *, cholmod_common *))                           \
    X(int, free_factor, (cholmod_factor **, cholmod_common *))                                          \
    X(cholmod_dense *, allocate_dense, (size_t, size_t, size_t, int, cholmod_common *))                 \
    X(int, free_dense, (cholmod_dense **, cholmod_common *))                                            \
    X(cholmod_dense *, solve, (int, cholmod_factor *, cholmod_dense *, cholmod_common *))

#define SPARSE_MEMBER(type, name, params) type(*name) params;
static struct {
    SPARSE_CHOLMOD_FUNCTIONS(SPARSE_MEMBER)
} cholmod;
#undef SPARSE_MEMBER

static lab_error load(lab_diag *d)
{
    void *h;
    lab_error e = library_open(SPARSE_CHOLMOD_LIBRARY, LIBRARY_START_ENDS_FOR_MEMORY, &h, d);
    /* Each pointer is checked against the header's prototype by an assignment the compiler
     * types but never evaluates (sizeof), so a wrong entry in the list does not build. */
#define SPARSE_TAKE(type, name, params)                                                                 \
    (void)sizeof(cholmod.name = cholmod_##name);                                                        \
    if (e == LAB_OK)                                                                                    \
        e = library_function(h, SPARSE_CHOLMOD_LIBRARY, "cholmod_" #name, &cholmod.name,          \
                             sizeof cholmod.name, d);
    SPARSE_CHOLMOD_FUNCTIONS(SPARSE_TAKE)
#undef SPARSE_TAKE
    return e;
}

lab_error sparse_load(lab_diag *d)
{
    static bool loaded;
    if (loaded)
        return LAB_OK;
    lab_error e = load(d);
    loaded = e == LAB_OK; /* a failure (out of memory) may pass: the next call tries again */
    return e;
}

lab_error sparse_init(sparse_triplets *a, int n, size_t capacity, lab_diag *d)
{
    *a = (sparse_triplets){0};
    if (n < 1)
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "sparse matrix", "n = %d (must be >= 1)", n);
    capacity = capacity < 16 ? 16 : capacity;
    a->row = malloc(capacity * sizeof *a->row);
    a->col = malloc(capacity * sizeof *a->col);
    a->value = malloc(capacity * sizeof *a->value);
    if (!a->row || !a->col || !a->value) {
        sparse_free(a);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "sparse matrix", "%zu entries", capacity);
    }
    a->n = n;
    a->capacity = capacity;
    return LAB_OK;
}

static bool grow(void **p, size_t size)
{
    void *q = realloc(*p, size);
    if (q)
        *p = q;
    return q != NULL;
}

lab_error sparse_add(sparse_triplets *a, int i, int j, double x, lab_diag *d)
{
    if (i < 0 || i >= a->n || j < 0 || j >= a->n)
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "sparse matrix entry", "(%d, %d) outside %d x %d", i, j, a->n,
                         a->n);
    if (!isfinite(x))
        return diag_fail(d, LAB_ERR_NOT_FINITE, "sparse matrix entry", "(%d, %d) = %g", i, j, x);
    if (a->count == a->capacity) {
        size_t capacity = 2 * a->capacity;
        if (capacity > SIZE_MAX / sizeof(double) || !grow((void **)&a->row, capacity * sizeof *a->row) ||
            !grow((void **)&a->col, capacity * sizeof *a->col) ||
            !grow((void **)&a->value, capacity * sizeof *a->value))
            return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "sparse matrix", "%zu entries", capacity);
        a->capacity = capacity;
    }
    a->row[a->count] = i;
    a->col[a->count] = j;
    a->value[a->count] = x;
    a->count++;
    return LAB_OK;
}

void sparse_free(sparse_triplets *a)
{
    free(a->row);
    free(a->col);
    free(a->value);
    *a = (sparse_triplets){0};
}

double sparse_entry(const sparse_triplets *a, int i, int j)
{
    double x = 0.0;
    for (size_t k = 0; k < a->count; k++)
        if (a->row[k] == i && a->col[k] == j)
            x += a->value[k];
    return x;
}

void sparse_multiply(const sparse_triplets *a, const double *x, double *y)
{
    for (int i = 0; i < a->n; i++)
        y[i] = 0.0;
    for (size_t k = 0; k < a->count; k++)
        y[a->row[k]] += a->value[k] * x[a->col[k]];
}

double sparse_residual(const sparse_triplets *a, const double *x, const double *b)
{
    double *ax = malloc((size_t)a->n * sizeof *ax), worst = 0.0;
    if (!ax)
        return -1.0;
    sparse_multiply(a, x, ax);
    for (int i = 0; i < a->n; i++)
        worst = fmax(worst, fabs(ax[i] - b[i]));
    free(ax);
    return worst;
}

/* CHOLMOD's status after a call: out of memory is ours to report as such. */
static lab_error cholmod_failure(const cholmod_common *c, const char *where, lab_diag *d)
{
    if (c->status == CHOLMOD_OUT_OF_MEMORY)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, where, "CHOLMOD could not allocate");
    return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, where, "CHOLMOD status %d", c->status);
}

static lab_error factor(const sparse_triplets *a, bool ldl, double max_flops, double *analysed, sparse_cholesky *out,
                        lab_diag *d)
{
    *out = (sparse_cholesky){0};
    if (analysed)
        *analysed = 0.0;
    lab_error loaded = sparse_load(d);
    if (loaded != LAB_OK)
        return loaded;
    cholmod_common *c = malloc(sizeof *c);
    if (!c)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "sparse factorisation", "CHOLMOD's workspace");
    cholmod.start(c);
    c->print = 0;                      /* errors come back as lab_errors, never printed */
    c->error_handler = NULL;
    c->supernodal = CHOLMOD_SIMPLICIAL; /* no BLAS, no threads: the same bits every run */
    c->final_ll = !ldl;                /* L L^T, or (ldl) L D L^T */
    c->nmethods = 1;                   /* AMD only: METIS is not always there */
    c->method[0].ordering = CHOLMOD_AMD;
    c->postorder = 1;
    out->common = c;
    out->n = a->n;

    size_t lower = 0;
    for (size_t k = 0; k < a->count; k++)
        lower += a->row[k] >= a->col[k];
    cholmod_triplet *t = cholmod.allocate_triplet((size_t)a->n, (size_t)a->n, lower, -1, CHOLMOD_REAL, c);
    if (!t) {
        lab_error e = cholmod_failure(c, "sparse factorisation", d);
        sparse_cholesky_free(out);
        return e;
    }
    int *ti = t->i, *tj = t->j;
    double *tx = t->x;
    size_t n = 0;
    for (size_t k = 0; k < a->count; k++)
        if (a->row[k] >= a->col[k]) {
            ti[n] = a->row[k];
            tj[n] = a->col[k];
            tx[n] = a->value[k];
            n++;
        }
    t->nnz = n;
    cholmod_sparse *s = cholmod.triplet_to_sparse(t, lower, c);
    cholmod.free_triplet(&t, c);
    cholmod_factor *l = s ? cholmod.analyze(s, c) : NULL;
    if (l && c->status >= CHOLMOD_OK && analysed)
        *analysed = c->fl;
    if (l && c->status >= CHOLMOD_OK && max_flops > 0.0 && c->fl > max_flops) { /* refused before the work */
        double fl = c->fl;
        cholmod.free_sparse(&s, c);
        out->factor = l;
        sparse_cholesky_free(out);
        return diag_fail(d, LAB_ERR_LIMIT, "sparse factorisation", "%.3g flops by CHOLMOD's analysis, over the %.3g "
                         "allowed", fl, max_flops);
    }
    if (l && c->status >= CHOLMOD_OK)
        cholmod.factorize(s, l, c);
    cholmod.free_sparse(&s, c);
    lab_error e = LAB_OK;
    if (!l || c->status < CHOLMOD_OK)
        e = cholmod_failure(c, "sparse factorisation", d);
    else if (c->status == CHOLMOD_NOT_POSDEF || l->minor < l->n)
        e = diag_fail(d, LAB_ERR_NOT_POSITIVE_DEFINITE, "sparse factorisation",
                      ldl ? "the pivot of column %zu (of %d) is zero: no L D L^T without pivoting"
                          : "the pivot of column %zu (of %d) is not positive",
                      (size_t)l->minor, a->n);
    out->factor = l;
    if (e != LAB_OK) {
        sparse_cholesky_free(out);
        return e;
    }
    out->factor_nonzeros = c->lnz;
    out->flops = c->fl;
    out->peak_bytes = c->memory_usage;
    return LAB_OK;
}

lab_error sparse_cholesky_factor(const sparse_triplets *a, sparse_cholesky *out, lab_diag *d)
{
    return factor(a, false, 0.0, NULL, out, d);
}

lab_error sparse_cholesky_factor_within(const sparse_triplets *a, double max_flops, double *analysed,
                                        sparse_cholesky *out, lab_diag *d)
{
    return factor(a, false, max_flops, analysed, out, d);
}

lab_error sparse_ldl_factor(const sparse_triplets *a, sparse_cholesky *out, lab_diag *d)
{
    return factor(a, true, 0.0, NULL, out, d);
}

lab_error sparse_cholesky_solve(const sparse_cholesky *f, const double *b, double *x, lab_diag *d)
{
    cholmod_common *c = f->common;
    cholmod_dense *rhs = cholmod.allocate_dense((size_t)f->n, 1, (size_t)f->n, CHOLMOD_REAL, c);
    if (!rhs)
        return cholmod_failure(c, "sparse solve", d);
    double *r = rhs->x;
    for (int i = 0; i < f->n; i++)
        r[i] = b[i];
    cholmod_dense *sol = cholmod.solve(CHOLMOD_A, f->factor, rhs, c);
    cholmod.free_dense(&rhs, c);
    if (!sol)
        return cholmod_failure(c, "sparse solve", d);
    const double *s = sol->x;
    for (int i = 0; i < f->n; i++)
        x[i] = s[i];
    cholmod.free_dense(&sol, c);
    return LAB_OK;
}

void sparse_cholesky_free(sparse_cholesky *f)
{
    cholmod_common *c = f->common;
    if (c) {
        cholmod_factor *l = f->factor;
        if (l)
            cholmod.free_factor(&l, c);
        cholmod.finish(c);
        free(c);
    }
    *f = (sparse_cholesky){0};
}
