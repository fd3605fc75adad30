/* bbw.h - where weights come from, the other automatic method: bounded biharmonic
 * weights (Jacobson, Baran, Popovic and Sorkine, "Bounded Biharmonic Weights for Real-Time
 * Deformation", SIGGRAPH 2011), on a triangle surface. The formulas are in src/weights/bbw.c.
 *
 * Each joint j's weights w_j (one number per vertex) minimise the Laplacian energy
 *
 *     E(w_j) = 1/2 w_j^T Q w_j,    Q = L M^-1 L             (the paper's equation 3,
 *                                                           discretised as in its section 4)
 *
 * with L the cotangent matrix and M the mixed Voronoi areas (heat_laplacian, the paper's
 * model), under
 *
 *     w_j = 1 on joint j's handle vertices, 0 on every other joint's handles
 *     0 <= w_j <= 1 everywhere                                  (the bounds)
 *
 * solved as libigl's bbw does, one joint at a time, by an active-set method: solve the
 * equality-constrained problem on the free vertices (one CHOLMOD factorisation of Q's free
 * block), fix every vertex that leaves [0, 1] at the bound it crossed, release every fixed
 * vertex whose Lagrange multiplier has the wrong sign (at 0 the gradient g = Q w must be
 * >= 0, at 1 <= 0), and repeat until neither happens: then the KKT conditions hold. At most
 * BBW_MAX_ITERATIONS rounds (LAB_ERR_LIMIT beyond).
 *
 * Partition of unity is not a constraint of the joint-by-joint solves: like libigl, the
 * weights of every vertex are divided by their sum afterwards; bbw_result says how far
 * the sums were from 1 before that.
 *
 * The harmonic weights are the same set-up with the energy w^T (-L) w and no bounds:
 * L w = 0 at every free vertex (a Dirichlet problem), bbw_harmonic.
 *
 * Both take L and M from the caller (heat_laplacian), so that a test can hand them a
 * broken mass matrix and watch the checks fail. handle[v] is the joint whose handle vertex
 * v is, or -1. Every connected part of the surface needs a handle vertex (otherwise Q's
 * free block is singular: LAB_ERR_NOT_POSITIVE_DEFINITE).
 */
#ifndef BBW_H
#define BBW_H

#include <stdbool.h>

#include "solve/sparse.h"

#define BBW_MAX_ITERATIONS 200

typedef struct {
    int vertex_count, joint_count;
    double *weights;          /* vertex_count x joint_count, vertex-major, each row summing to 1 */
    double *raw;              /* the same before the division: each joint's own minimiser */
    double sum_error;         /* max_i |sum_j w_ij - 1| before the division */
    int *iterations;          /* per joint: active-set rounds (1: the bounds never bit) */
    int active;               /* vertices held at a bound at the end, all joints together */
    double kkt;               /* max over joints and free or bound vertices of the KKT
                               * residual: |g_i| where free, max(0, -g_i) at 0, max(0, g_i)
                               * at 1, g = Q w by the assembled Q, over q_scale; and bound
                               * violations */
    double q_scale;           /* max_ik |Q_ik|: Q's entries grow like 1 / (edge length)^4 */
    double backward_error;    /* max over solves: |Q_FF w - b| / (|Q_FF| |w| + |b|) */
    double q_nonzeros;        /* entries of the assembled Q */
    double work;              /* operations: factorisations' flops, 4 a round for each entry of Q */
    bool over_budget;         /* refused for max_work (kept when a refusal frees the rest) */
} bbw_result;

/* Bounded (bounded = true) or plain biharmonic weights of every vertex. L: n x n triplets
 * (both halves), mass: n areas (> 0 where a vertex has L entries). The cost is the active
 * set's rounds: each assembles the free block from Q, factorises it (the first round's
 * factor, with the handles alone fixed, serves every joint), solves and checks over Q.
 * out->work counts its operations: CHOLMOD's flop count of every factorisation, and four
 * for each entry of Q a round (assembly, right-hand side, residual, gradient); a run that
 * passes max_work (0: no limit) stops there, LAB_ERR_LIMIT, naming the joint and the
 * round. A joint without a handle vertex costs nothing: its minimiser is 0. */
lab_error bbw_solve(const sparse_triplets *L, const double *mass, const int *handle, int joint_count, bool bounded,
                      double max_work, bbw_result *out, lab_diag *d);

/* Harmonic weights: L w_j = 0 on the free vertices, the handles fixed; not normalised
 * (they sum to 1 by themselves, since L 1 = 0). weights: n x joint_count, the caller's. */
lab_error bbw_harmonic(const sparse_triplets *L, const int *handle, int joint_count, double *weights, lab_diag *d);

void bbw_result_free(bbw_result *r);

#endif
