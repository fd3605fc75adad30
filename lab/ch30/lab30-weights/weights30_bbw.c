/* weights30_bbw.c - bounded biharmonic weights on an asset's welded surface (the handles
 * chosen from its bones), and the KKT residual computed apart from src/weights/bbw.c (see weights30.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "gltf/gltf.h"
#include "math/linalg.h"
#include "mesh/mesh.h"
#include "skin/blend.h"
#include "skin/influences.h"
#include "solve/sparse.h"

#include "weights/bbw.h"
#include "weights/heat.h"
#include "weights30.h"

lab_error weights30_kkt_by_products(const sparse_triplets *L, const double *mass, const int *handle, const double *raw,
                                    int joint_count, double scale, double *out, lab_diag *d)
{
    int n = L->n;
    double *w = malloc(((size_t)n + 1) * sizeof *w), *y = malloc(((size_t)n + 1) * sizeof *y);
    double *g = malloc(((size_t)n + 1) * sizeof *g), kkt = 0.0;
    if (!w || !y || !g) {
        free(w), free(y), free(g);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "the KKT residual by products", "%d vertices", n);
    }
    for (int j = 0; j < joint_count; j++) {
        for (int i = 0; i < n; i++)
            w[i] = raw[(size_t)i * joint_count + j];
        sparse_multiply(L, w, y);                        /* y = L w */
        for (int i = 0; i < n; i++)
            y[i] = mass[i] > 0.0 ? y[i] / mass[i] : 0.0; /* M^-1 L w */
        sparse_multiply(L, y, g);                        /* g = L M^-1 L w */
        for (int i = 0; i < n; i++) {
            if (handle[i] >= 0)
                continue;
            double r = (w[i] == 0.0 ? fmax(0.0, -g[i]) : w[i] == 1.0 ? fmax(0.0, g[i]) : fabs(g[i])) / scale;
            kkt = fmax(kkt, fmax(r, fmax(-w[i], w[i] - 1.0)));
        }
    }
    free(w), free(y), free(g);
    *out = kkt;
    return LAB_OK;
}

/* Gives each connected part of m without a handle one: its vertex nearest a bone (dist[i],
 * joint[i]), a handle of that bone's joint; counts them in a->handle_parts. */
static lab_error handle_every_part(weights30_asset *a, const mesh *m, const double *dist, const int *joint, lab_diag *d)
{
    int n = m->vertex_count;
    int *parent = malloc(((size_t)n + 1) * sizeof *parent), *best = malloc(((size_t)n + 1) * sizeof *best);
    if (!parent || !best) {
        free(parent), free(best);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "biharmonic weights", "%d vertices", n);
    }
    mesh_parts(m, parent); /* parent[i]: the lowest vertex of i's part */
    for (int i = 0; i < n; i++)
        best[i] = -1;
    for (int i = 0; i < n; i++) { /* best[root]: -2 once the part has a handle */
        int r = parent[i];
        if (a->handle[i] >= 0)
            best[r] = -2;
        else if (best[r] != -2 && (best[r] < 0 || dist[i] < dist[best[r]]))
            best[r] = i;
    }
    a->handle_parts = 0;
    for (int r = 0; r < n; r++)
        if (best[r] >= 0) {
            a->handle[best[r]] = joint[best[r]];
            a->handle_count++, a->handle_parts++;
        }
    free(parent), free(best);
    return LAB_OK;
}

lab_error weights30_asset_bbw(weights30_asset *a, double budget, lab_diag *d)
{
    const mesh *m = &a->welded;
    int n = m->vertex_count, J = a->joint_count;
    double *mass = malloc(((size_t)n + 1) * sizeof *mass), *dist = malloc(((size_t)n + 1) * sizeof *dist);
    double *nearest = malloc(((size_t)J + 1) * sizeof *nearest);
    int *joint = malloc(((size_t)n + 1) * sizeof *joint);
    a->handle = malloc(((size_t)n + 1) * sizeof *a->handle);
    sparse_triplets L = {0};
    lab_error e = mass && dist && nearest && joint && a->handle
                      ? heat_laplacian(m, HEAT_PAPER, &L, mass, NULL, d)
                      : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "biharmonic weights", "%d vertices", n);
    /* handles: each vertex's nearest joint (by its bones), and for each joint the vertices
     * within 1.1 times the nearest one's distance; a vertex no triangle uses is a handle
     * of its nearest joint (it is not on the surface the energy is measured over) */
    for (int j = 0; e == LAB_OK && j < J; j++)
        nearest[j] = INFINITY;
    for (int i = 0; e == LAB_OK && i < n; i++) {
        dist[i] = INFINITY, joint[i] = -1;
        for (int b = 0; b < a->bone_count; b++) {
            double x = heat_segment_distance(m->vertices[i], a->bones[b], NULL);
            if (x < dist[i])
                dist[i] = x, joint[i] = a->bones[b].joint;
        }
        nearest[joint[i]] = fmin(nearest[joint[i]], dist[i]);
    }
    a->handle_count = 0;
    for (int i = 0; e == LAB_OK && i < n; i++) {
        bool handle = dist[i] <= 1.1 * nearest[joint[i]] || !(mass[i] > 0.0);
        a->handle[i] = handle ? joint[i] : -1;
        a->handle_count += handle;
    }
    /* a connected part without a handle (a machine's separate piece) would leave its block
     * of Q singular: its vertex nearest a bone becomes a handle of that bone's joint, and the
     * part follows that joint whole (Q 1 = 0: the minimiser is 1 on the part) */
    if (e == LAB_OK)
        e = handle_every_part(a, m, dist, joint, d);
    /* min 1/2 w_j^T L M^-1 L w_j, 0 <= w <= 1, by active sets (src/weights/bbw.c) */
    if (e == LAB_OK)
        e = bbw_solve(&L, mass, a->handle, J, true, budget, &a->bbw, d);
    if (e == LAB_ERR_LIMIT && a->bbw.over_budget && d) { /* the option that raises it, named */
        char said[sizeof d->value];
        snprintf(said, sizeof said, "%s", d->value);
        snprintf(d->value, sizeof d->value, "%.200s: raise it with --bbw-budget N", said);
    }
    if (e == LAB_OK)
        e = weights30_kkt_by_products(&L, mass, a->handle, a->bbw.raw, J, a->bbw.q_scale, &a->bbw_kkt_independent, d);
    sparse_free(&L);
    free(mass), free(dist), free(nearest), free(joint);
    return e;
}

/* Harmonic and bounded biharmonic weights of the end rings on both rigs (bbw.h), the
 * second given to the bbw set's rig. The checks, per rig: the harmonic weights against
 * z/2, the biharmonic ones against the ring system, the bounds, the KKT residual two ways,
 * the sums before dividing, the backward error. */
lab_error weights30_biharmonic(rig30_rig rigs[2], weights30_rig rig[2], report_checks *checks, lab_diag *d)
{
    lab_error e = LAB_OK;
    for (int kind = 0; e == LAB_OK && kind < 2; kind++) {
        weights30_rig *w = &rig[kind];
        rig30_rig *g = &rigs[kind];
        sparse_triplets L = {0};
        double mass[WEIGHTS30_VERTS], harmonic[2 * WEIGHTS30_VERTS];
        int handle[WEIGHTS30_VERTS];
        for (int v = 0; v < WEIGHTS30_VERTS; v++) /* the end rings: the root's, the child's */
            handle[v] = v < RIG30_SEGMENTS ? 0 : v >= WEIGHTS30_VERTS - RIG30_SEGMENTS ? 1 : -1;
        e = heat_laplacian(&g->bind, HEAT_PAPER, &L, mass, NULL, d);
        /* harmonic: L w = 0 off the handles; on this mesh it is the hand weights, z / 2 */
        if (e == LAB_OK)
            e = bbw_harmonic(&L, handle, RIG30_JOINTS, harmonic, d);
        for (int v = 0; e == LAB_OK && v < WEIGHTS30_VERTS; v++)
            w->harmonic_error = max_or_nan(w->harmonic_error, fabs(harmonic[2 * v + 1] - g->bind.vertices[v].z / 2.0));
        /* biharmonic: min 1/2 w^T L M^-1 L w with 0 <= w <= 1, active sets (src/weights/bbw.c) */
        if (e == LAB_OK)
            e = bbw_solve(&L, mass, handle, RIG30_JOINTS, true, 0.0, &w->bbw, d);
        if (e == LAB_OK) {
            weights30_bbw_ring_system(w->bbw_ring);
            w->bbw_min = INFINITY, w->bbw_max = -INFINITY;
            for (int v = 0; v < WEIGHTS30_VERTS; v++) {
                double x = w->bbw.weights[2 * v + 1];
                w->child[WEIGHTS30_BBW][v] = x;
                w->bbw_ring_error = max_or_nan(w->bbw_ring_error, fabs(x - w->bbw_ring[v / RIG30_SEGMENTS]));
                w->bbw_min = fmin(w->bbw_min, x), w->bbw_max = fmax(w->bbw_max, x);
            }
            e = weights30_kkt_by_products(&L, mass, handle, w->bbw.raw, RIG30_JOINTS, w->bbw.q_scale,
                                          &w->bbw_kkt_independent, d);
        }
        sparse_free(&L);
        skin_influences in;
        if (e == LAB_OK)
            e = skin_influences_init(&in, WEIGHTS30_VERTS, RIG30_JOINTS, d);
        if (e == LAB_OK) {
            for (int v = 0; v < WEIGHTS30_VERTS; v++)
                for (int j = 0; j < RIG30_JOINTS; j++)
                    in.joint[2 * v + j] = j, in.weight[2 * v + j] = w->bbw.weights[2 * v + j];
            e = rig30_set_influences(g, &in, (skin_weight_policy){0}, NULL, d);
            skin_influences_free(&in);
        }
        if (e != LAB_OK)
            break;
        const bbw_result *b = &w->bbw;
        check_bound(checks, "harmonic: |w - z/2| (L z = 0 inside)", w->harmonic_error, RIG30_CHECK_TOLERANCE);
        check_bound(checks, "|bbw - the ring-by-ring system|", w->bbw_ring_error, RIG30_CHECK_TOLERANCE);
        check_bound(checks, "bounds: max(0, -min w, max w - 1)",
                    max_or_nan(0.0, max_or_nan(-w->bbw_min, w->bbw_max - 1.0)), RIG30_CHECK_TOLERANCE);
        check_bound(checks, "KKT residual / max|Q_ik|, by Q", b->kkt, WEIGHTS30_KKT_TOLERANCE);
        check_bound(checks, "the same by L (M^-1 (L w))", w->bbw_kkt_independent, WEIGHTS30_KKT_TOLERANCE);
        check_bound(checks, "max_i |sum_j w_ij - 1| before dividing", b->sum_error, RIG30_CHECK_TOLERANCE);
        check_bound(checks, "|Q w - b| / (|Q| |w| + |b|)", b->backward_error, 1e-14);
    }
    return e;
}
