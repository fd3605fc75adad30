/* heat_solve.c - bone heat's system put together and solved: every part of the surface
 * must see a bone, then (-L + M H) w_j = M H p_j (times Blender's 4), one factorisation,
 * one solve a joint, each solve's backward error by our own product (see src/weights/heat.h; the
 * terms are src/weights/heat.c's). */
#include "weights/heat.h"

#include <math.h>
#include <string.h>
#include <stdlib.h>

#include "base/diag.h"
#include "base/timer.h"
#include "math/linalg.h"
#include "mesh/mesh.h"
#include "solve/sparse.h"

/* The connected parts of the surface in which no vertex has heat: nothing pins their
 * weights, and their block of the system is singular. unseen[i] = 1 for each of their
 * vertices; *parts and *vertices count them. parent: n of scratch. */
static void find_unseen_parts(const mesh *m, const double *H, int *parent, unsigned char *unseen, int *parts,
                              int *vertices)
{
    enum { USED = 1, HEATED = 2, COUNTED = 4, LOST = 8 };
    int n = m->vertex_count;
    mesh_parts(m, parent); /* parent[i]: the lowest vertex of i's part */
    for (int i = 0; i < n; i++)
        unseen[i] = 0;
    for (int t = 0; t < m->triangle_count; t++)
        for (int k = 0; k < 3; k++)
            unseen[m->triangles[t].v[k]] |= USED;
    for (int i = 0; i < n; i++)
        if (H[i] > 0.0)
            unseen[parent[i]] |= HEATED;
    *parts = *vertices = 0;
    for (int i = 0; i < n; i++) { /* a vertex no triangle uses takes its nearest bones' anyway */
        int root = parent[i];
        if (!(unseen[i] & USED) || (unseen[root] & HEATED))
            continue;
        if (!(unseen[root] & COUNTED))
            unseen[root] |= COUNTED, (*parts)++;
        unseen[i] |= LOST, (*vertices)++;
    }
    for (int i = 0; i < n; i++)
        unseen[i] = (unseen[i] & LOST) != 0;
}

void heat_result_free(heat_result *r)
{
    free(r->solution);
    free(r->weights);
    free(r->backward_error);
    free(r->unseen);
    *r = (heat_result){0};
}

lab_error heat_solve(const mesh *m, heat_model model, const heat_bone *bones, int bone_count, int joint_count,
                       double c, heat_result *out, lab_diag *d)
{
    *out = (heat_result){.vertex_count = m->vertex_count, .joint_count = joint_count, .model = model};
    int n = m->vertex_count;
    if ((double)n * (bone_count > joint_count ? bone_count : joint_count) > HEAT_MAX_PAIRS)
        return diag_fail(d, LAB_ERR_LIMIT, "bone heat", "%d vertices x %d bones (%d joints): over %d vertex-bone pairs",
                         n, bone_count, joint_count, HEAT_MAX_PAIRS);
    for (int b = 0; b < bone_count; b++)
        if (bones[b].joint < 0 || bones[b].joint >= joint_count)
            return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "bone heat", "bone %d names joint %d of %d", b,
                             bones[b].joint, joint_count);
    /* The sources: the paper's are the joints (a joint's bones together, p_j summing over
     * them: the system is linear, so one solve a joint). Blender's are the bones, each one a
     * vertex group of its own, solved and cut on its own (meshlaplacian.c's
     * heat_bone_weighting) and only then summed into its joint: the cut is not linear. */
    const bool per_bone = model == HEAT_BLENDER;
    const int S = per_bone ? bone_count : joint_count;
    sparse_triplets A = {0};
    sparse_cholesky f = {0};
    size_t nj = (size_t)n * joint_count, ns = (size_t)n * S;
    double *mass = malloc((size_t)n * sizeof *mass), *H = malloc((size_t)n * sizeof *H);
    double *p = malloc(ns * sizeof *p), *rhs = malloc((size_t)n * sizeof *rhs);
    double *w = malloc((size_t)n * sizeof *w);
    int *parent = malloc((size_t)n * sizeof *parent);
    unsigned char *flag = malloc((size_t)n + (size_t)joint_count);
    heat_bone *source = per_bone ? malloc((size_t)bone_count * sizeof *source) : NULL;
    out->solution = calloc(nj, sizeof *out->solution);
    out->weights = calloc(nj, sizeof *out->weights);
    out->backward_error = calloc((size_t)joint_count, sizeof *out->backward_error);
    lab_error e = LAB_OK;
    if (!mass || !H || !p || !rhs || !w || !parent || !flag || (per_bone && !source) || !out->solution ||
        !out->weights || !out->backward_error)
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "bone heat", "%d vertices, %d joints, %d bones", n, joint_count,
                      bone_count);
    for (int j = 0; e == LAB_OK && j < joint_count; j++) /* every joint owns a bone */
        flag[n + j] = 0;
    for (int b = 0; e == LAB_OK && b < bone_count; b++)
        flag[n + bones[b].joint] = 1;
    for (int j = 0; e == LAB_OK && j < joint_count; j++)
        if (!flag[n + j])
            e = diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "bone heat", "joint %d owns no bone", j);
    for (int b = 0; e == LAB_OK && per_bone && b < bone_count; b++) /* each bone its own source */
        source[b] = (heat_bone){bones[b].a, bones[b].b, b};
    /* L and M (the Laplacian of Meyer et al.), H and p (the heat) */
    if (e == LAB_OK)
        e = heat_laplacian(m, model, &A, mass, &out->obtuse_triangles, d);
    if (e == LAB_OK)
        e = heat_sources(m, model, per_bone ? source : bones, bone_count, S, c, H, p, &out->hidden, d);
    /* a part that sees no bone leaves the system: the paper's model gives its vertices their
     * nearest bones' weights (visibility aside), Blender's none (its p is 0 there) */
    if (e == LAB_OK)
        find_unseen_parts(m, H, parent, flag, &out->unseen_parts, &out->unseen_vertices);
    if (e == LAB_OK && out->unseen_parts && model == HEAT_PAPER)
        e = heat_sources_nearest(m, model, bones, bone_count, S, flag, p, d);
    if (e == LAB_OK && out->unseen_parts) {
        if (!(out->unseen = malloc((size_t)n)))
            e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "bone heat", "%d vertices", n);
        else
            memcpy(out->unseen, flag, (size_t)n);
    }
    if (e == LAB_OK && out->unseen_parts) {
        for (size_t k = 0; k < A.count; k++)
            if (flag[A.row[k]] || flag[A.col[k]])
                A.value[k] = 0.0;
        for (int i = 0; i < n; i++)
            if (flag[i])
                mass[i] = 0.0; /* the row w_i = p_i, as for a vertex no triangle uses */
    }
    /* the paper's rows times M; Blender's rows are M^-1 L / 4 + H, times 4 M */
    const double scale = model == HEAT_BLENDER ? 4.0 : 1.0;
    if (e == LAB_OK) {
        /* A = -L + M H: L's entries change sign in place, M H joins the diagonal; a vertex
         * no triangle uses (M_ii = 0, no neighbours) gets the row w_i = p_i */
        for (size_t k = 0; k < A.count; k++)
            A.value[k] = -A.value[k];
        for (int i = 0; e == LAB_OK && i < n; i++)
            e = sparse_add(&A, i, i, mass[i] > 0.0 ? scale * mass[i] * H[i] : 1.0, d);
    }
    double a_norm = 0.0; /* |A|, the largest absolute row sum */
    for (int i = 0; e == LAB_OK && i < n; i++)
        rhs[i] = 0.0;
    for (size_t k = 0; e == LAB_OK && k < A.count; k++)
        rhs[A.row[k]] += fabs(A.value[k]);
    for (int i = 0; e == LAB_OK && i < n; i++)
        a_norm = fmax(a_norm, rhs[i]);
    double t0 = timer_seconds();
    /* the paper's -L + M H is positive definite; Blender's whole boundary cotangents can make
     * it indefinite (its own solver takes least squares): L D L^T for it */
    if (e == LAB_OK)
        e = model == HEAT_BLENDER ? sparse_ldl_factor(&A, &f, d) : sparse_cholesky_factor(&A, &f, d);
    out->factor_seconds = timer_seconds() - t0;
    t0 = timer_seconds();
    for (int s = 0; e == LAB_OK && s < S; s++) {
        const int j = per_bone ? bones[s].joint : s; /* the joint the source's weights go to */
        double b_norm = 0.0, w_norm = 0.0;
        for (int i = 0; i < n; i++) { /* b_s = M H p_s (times Blender's 4) */
            double pis = p[(size_t)i * S + s];
            rhs[i] = mass[i] > 0.0 ? scale * mass[i] * H[i] * pis : pis;
            b_norm = fmax(b_norm, fabs(rhs[i]));
        }
        if (b_norm == 0.0) { /* no vertex takes heat from it: A w = 0, so w = 0, as calloc left it */
            out->sourceless++;
            continue;
        }
        e = sparse_cholesky_solve(&f, rhs, w, d);
        for (int i = 0; e == LAB_OK && i < n; i++)
            w_norm = fmax(w_norm, fabs(w[i]));
        if (e == LAB_OK) {
            double r = sparse_residual(&A, w, rhs);
            if (r < 0.0)
                e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "bone heat", "the residual's scratch vector");
            out->backward_error[j] = max_or_nan(out->backward_error[j], r / (a_norm * w_norm + b_norm));
        }
        for (int i = 0; e == LAB_OK && i < n; i++) { /* Blender cuts each bone's weight, then stops */
            out->solution[(size_t)i * joint_count + j] += w[i];
            out->weights[(size_t)i * joint_count + j] += model == HEAT_BLENDER ? heat_blender_cut(w[i]) : w[i];
        }
    }
    out->solve_seconds = timer_seconds() - t0;
    out->factor_nonzeros = f.factor_nonzeros;
    out->flops = f.flops;
    out->peak_bytes = f.peak_bytes;
    sparse_cholesky_free(&f);
    sparse_free(&A);
    free(mass), free(H), free(p), free(rhs), free(w), free(parent), free(flag), free(source);
    if (e != LAB_OK)
        heat_result_free(out);
    return e;
}
