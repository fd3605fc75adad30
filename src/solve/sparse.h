/* sparse.h - sparse symmetric systems A x = b, factorised by SuiteSparse's CHOLMOD.
 *
 * A matrix is built as triplets (row, column, value); entries at the same place add up. A
 * symmetric matrix holds both of its halves as triplets, (i, j) and (j, i), so that
 * sparse_multiply is the plain product; the factorisation reads only the lower half
 * (i >= j) and trusts the caller for the upper one.
 *
 *   sparse_triplets a;                       the caller's buffer, grown as entries arrive
 *   sparse_init(&a, n, guess, d);
 *   sparse_add(&a, i, j, x, d);  ...
 *   sparse_cholesky f;                       A = L L^T, once
 *   sparse_cholesky_factor(&a, &f, d);
 *   sparse_cholesky_solve(&f, b, x, d);      as many right-hand sides as needed
 *   sparse_residual(&a, x, b);               max_i |(A x - b)_i|, by our own product
 *   sparse_cholesky_free(&f); sparse_free(&a);
 *
 * The factorisation is CHOLMOD's simplicial LL^T after an AMD ordering: no BLAS, no
 * threads, so the same matrix gives the same bits on every run. CHOLMOD is opened when the
 * first factorisation needs it (sparse_load, through src/base/library.h), not linked: its
 * BLAS and LAPACK bring libgfortran and libgomp, whose constructors allocate and end the
 * process when they cannot; opened within main, a failure there is the contract's out of
 * memory. A program calls sparse_load before its work, so that a machine without CHOLMOD
 * or without the memory to start it costs nothing. Results are lab_errors:
 * LAB_ERR_NOT_POSITIVE_DEFINITE names the column where the factorisation broke down,
 * LAB_ERR_OUT_OF_MEMORY is every failed allocation (ours or CHOLMOD's), and a matrix
 * with an index outside 0..n-1 or a value that is not finite is refused before CHOLMOD
 * sees it.
 */
#ifndef SOLVE_SPARSE_H
#define SOLVE_SPARSE_H

#include <stddef.h>

#include "base/diag.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int n;                     /* n x n */
    size_t count, capacity;    /* entries held, room for */
    int *row, *col;
    double *value;
} sparse_triplets;

/* Opens CHOLMOD once a process (sparse_cholesky_factor and sparse_ldl_factor call it):
 * LAB_ERR_UNSUPPORTED when it is not installed, LAB_ERR_OUT_OF_MEMORY when the loader or
 * its libraries' start-up cannot allocate (library.h). */
lab_error sparse_load(lab_diag *d);

/* An empty n x n matrix with room for `capacity` entries (n >= 1). */
lab_error sparse_init(sparse_triplets *a, int n, size_t capacity, lab_diag *d);
/* Adds x at (i, j) (to what is there), growing the arrays when needed. */
lab_error sparse_add(sparse_triplets *a, int i, int j, double x, lab_diag *d);
void sparse_free(sparse_triplets *a);
/* The entry at (i, j): the sum of every triplet there (0 where there is none). O(count). */
double sparse_entry(const sparse_triplets *a, int i, int j);
/* y = A x (y has n entries and must not alias x). */
void sparse_multiply(const sparse_triplets *a, const double *x, double *y);
/* max_i |(A x - b)_i|: how far x is from solving the system, by sparse_multiply. Returns
 * -1 when a scratch vector cannot be allocated. */
double sparse_residual(const sparse_triplets *a, const double *x, const double *b);

/* A factorised symmetric matrix (L L^T, or L D L^T), and what it cost. */
typedef struct {
    int n;
    void *common, *factor;     /* cholmod_common, cholmod_factor */
    double factor_nonzeros;    /* nonzeros of L */
    double flops;              /* CHOLMOD's count for the factorisation */
    size_t peak_bytes;         /* CHOLMOD's peak memory while factorising */
} sparse_cholesky;

/* A = L L^T from the lower half of the symmetric matrix `a`. */
lab_error sparse_cholesky_factor(const sparse_triplets *a, sparse_cholesky *out, lab_diag *d);
/* The same, refused (LAB_ERR_LIMIT) after CHOLMOD's analysis and before the numeric work
 * when the analysis counts more than max_flops (> 0; 0: no limit) for the factorisation;
 * *analysed (may be NULL): that count, refused or not (0 when the analysis failed). */
lab_error sparse_cholesky_factor_within(const sparse_triplets *a, double max_flops, double *analysed,
                                        sparse_cholesky *out, lab_diag *d);
/* A = L D L^T (unit L, D diagonal) for a symmetric matrix that may be indefinite: no
 * pivoting, so it needs a non-zero pivot in every column of the AMD order
 * (LAB_ERR_NOT_POSITIVE_DEFINITE names the first that is zero) and is only as stable as
 * the matrix allows; check the solution's residual (sparse_residual). Solved and freed as
 * the Cholesky factor is. */
lab_error sparse_ldl_factor(const sparse_triplets *a, sparse_cholesky *out, lab_diag *d);
/* x = A^-1 b (n entries each; x may alias b). */
lab_error sparse_cholesky_solve(const sparse_cholesky *f, const double *b, double *x, lab_diag *d);
void sparse_cholesky_free(sparse_cholesky *f);

#ifdef __cplusplus
}
#endif

#endif
