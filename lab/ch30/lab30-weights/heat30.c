/* heat30.c - bone-heat weights, term by term (see heat30.h for the system). */
#include "heat30.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/timer.h"
#include "mesh/bvh.h"
#include "base/diag.h"
#include "math/linalg.h"
#include "mesh/mesh.h"
#include "solve/sparse.h"

double heat30_segment_distance(vec3 p, heat30_bone bone, vec3 *closest)
{
    vec3 ab = vec3_sub(bone.b, bone.a);
    double len2 = vec3_dot(ab, ab);
    double t = len2 > 0.0 ? vec3_dot(vec3_sub(p, bone.a), ab) / len2 : 0.0;
    t = fmin(fmax(t, 0.0), 1.0);
    vec3 q = vec3_add(bone.a, vec3_scale(ab, t));
    if (closest)
        *closest = q;
    return vec3_length(vec3_sub(p, q));
}

/* cot of the angle between u and v: cos / sin = (u . v) / |u x v|. */
static double cotangent(vec3 u, vec3 v)
{
    return vec3_dot(u, v) / vec3_length(vec3_cross(u, v));
}

lab_error heat30_laplacian(const mesh *m, sparse_triplets *L, double *mass, int *obtuse_count, lab_diag *d)
{
    int n = m->vertex_count;
    lab_error e = sparse_init(L, n, (size_t)m->triangle_count * 12 + (size_t)n, d);
    for (int i = 0; i < n; i++)
        mass[i] = 0.0;
    if (obtuse_count)
        *obtuse_count = 0;
    for (int t = 0; e == LAB_OK && t < m->triangle_count; t++) {
        const int *v = m->triangles[t].v;
        vec3 p[3] = {m->vertices[v[0]], m->vertices[v[1]], m->vertices[v[2]]};
        if (!(triangle_area(p[0], p[1], p[2]) > 0.0)) {
            sparse_free(L);
            return diag_fail(d, LAB_ERR_MESH_ZERO_AREA, "bone heat's Laplacian", "triangle %d (%d, %d, %d): its angles have no cotangent", t,
                             v[0], v[1], v[2]);
        }
        double cot[3];    /* cot[k]: the angle at corner k, opposite the edge (k+1, k+2) */
        for (int k = 0; k < 3; k++)
            cot[k] = cotangent(vec3_sub(p[(k + 1) % 3], p[k]), vec3_sub(p[(k + 2) % 3], p[k]));
        /* L_ik += cot(angle opposite ik) / 2: each triangle gives an edge one of its two
         * angles; an interior edge gets both (cot alpha + cot beta) / 2, a boundary edge one */
        for (int k = 0; e == LAB_OK && k < 3; k++) {
            int i = v[(k + 1) % 3], j = v[(k + 2) % 3];
            double w = cot[k] / 2.0;
            e = sparse_add(L, i, j, w, d);
            if (e == LAB_OK)
                e = sparse_add(L, j, i, w, d);
            if (e == LAB_OK)
                e = sparse_add(L, i, i, -w, d);
            if (e == LAB_OK)
                e = sparse_add(L, j, j, -w, d);
        }
        /* M_ii: Meyer et al.'s mixed Voronoi area. A non-obtuse triangle gives each corner
         * its Voronoi region, (|PR|^2 cot Q + |PQ|^2 cot R) / 8 at corner P; an obtuse one
         * gives its obtuse corner half its area and the other two a quarter each. */
        double area = triangle_area(p[0], p[1], p[2]);
        int obtuse = -1;
        for (int k = 0; k < 3; k++)
            if (cot[k] < 0.0)
                obtuse = k;
        if (obtuse_count && obtuse >= 0)
            ++*obtuse_count;
        for (int k = 0; k < 3; k++) {
            int q = (k + 1) % 3, r = (k + 2) % 3;
            if (obtuse < 0) {
                vec3 pr = vec3_sub(p[r], p[k]), pq = vec3_sub(p[q], p[k]);
                mass[v[k]] += (vec3_dot(pr, pr) * cot[q] + vec3_dot(pq, pq) * cot[r]) / 8.0;
            } else {
                mass[v[k]] += k == obtuse ? area / 2.0 : area / 4.0;
            }
        }
    }
    if (e != LAB_OK)
        sparse_free(L);
    return e;
}

lab_error heat30_heat(const mesh *m, const heat30_bone *bones, int bone_count, int joint_count, double c,
                      double *H, double *p, int *hidden, lab_diag *d)
{
    int n = m->vertex_count, unseen = 0;
    mesh_bvh bvh;
    lab_error e = mesh_bvh_build(m, &bvh, d);
    if (e != LAB_OK)
        return e;
    double *dist = malloc((size_t)bone_count * sizeof *dist);
    vec3 *closest = malloc((size_t)bone_count * sizeof *closest);
    bool *seen = malloc((size_t)bone_count * sizeof *seen);
    if (!dist || !closest || !seen) {
        free(dist), free(closest), free(seen), mesh_bvh_free(&bvh);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "bone heat", "%d bones", bone_count);
    }
    for (int i = 0; i < n; i++) {
        double *pi = p + (size_t)i * joint_count;
        for (int j = 0; j < joint_count; j++)
            pi[j] = 0.0;
        for (int b = 0; b < bone_count; b++) {
            dist[b] = heat30_segment_distance(m->vertices[i], bones[b], &closest[b]);
            seen[b] = false;
        }
        /* the nearest visible bone: try bones nearest first until one is seen */
        double nearest = INFINITY;
        int visible = -1; /* the nearest bone seen: its visibility is known */
        for (int tried = 0; tried < bone_count; tried++) {
            int best = -1;
            for (int b = 0; b < bone_count; b++)
                if (!seen[b] && dist[b] < nearest && (best < 0 || dist[b] < dist[best]))
                    best = b;
            if (best < 0)
                break;
            seen[best] = true; /* tried */
            if (!mesh_bvh_segment_blocked(&bvh, i, closest[best]))
                nearest = dist[best], visible = best;
        }
        H[i] = 0.0;
        if (!isfinite(nearest)) {
            unseen++;
            continue;
        }
        if (!(nearest > 0.0)) {
            free(dist), free(closest), free(seen), mesh_bvh_free(&bvh);
            return diag_fail_at_vertex(d, LAB_ERR_INVALID_ARGUMENT, i, NULL,
                                       "lies on a bone: the heat c / d^2 has no value at d = 0");
        }
        /* every visible bone within the tie tolerance of the nearest shares the vertex */
        int k = 0;
        for (int b = 0; b < bone_count; b++)
            if (dist[b] <= nearest * (1.0 + HEAT30_TIE) && (b == visible || !mesh_bvh_segment_blocked(&bvh, i, closest[b]))) {
                pi[bones[b].joint] += 1.0;
                k++;
            }
        for (int j = 0; j < joint_count; j++)
            pi[j] /= k;                                   /* p_j(i) = 1 / k */
        H[i] = k * c / (nearest * nearest);               /* H_ii = k c / d_i^2 */
    }
    free(dist), free(closest), free(seen), mesh_bvh_free(&bvh);
    if (hidden)
        *hidden = unseen;
    return LAB_OK;
}

void heat30_result_free(heat30_result *r)
{
    free(r->weights);
    free(r->backward_error);
    *r = (heat30_result){0};
}

lab_error heat30_solve(const mesh *m, const heat30_bone *bones, int bone_count, int joint_count, double c,
                       heat30_result *out, lab_diag *d)
{
    *out = (heat30_result){.vertex_count = m->vertex_count, .joint_count = joint_count};
    int n = m->vertex_count;
    for (int b = 0; b < bone_count; b++)
        if (bones[b].joint < 0 || bones[b].joint >= joint_count)
            return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "bone heat", "bone %d names joint %d of %d", b,
                             bones[b].joint, joint_count);
    for (int j = 0; j < joint_count; j++) {
        bool owned = false;
        for (int b = 0; b < bone_count; b++)
            owned |= bones[b].joint == j;
        if (!owned)
            return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "bone heat", "joint %d owns no bone", j);
    }
    sparse_triplets A = {0};
    sparse_cholesky f = {0};
    double *mass = malloc((size_t)n * sizeof *mass), *H = malloc((size_t)n * sizeof *H);
    double *p = malloc((size_t)n * joint_count * sizeof *p), *rhs = malloc((size_t)n * sizeof *rhs);
    double *w = malloc((size_t)n * sizeof *w);
    out->weights = malloc((size_t)n * joint_count * sizeof *out->weights);
    out->backward_error = malloc((size_t)joint_count * sizeof *out->backward_error);
    lab_error e = LAB_OK;
    if (!mass || !H || !p || !rhs || !w || !out->weights || !out->backward_error)
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "bone heat", "%d vertices, %d joints", n, joint_count);
    /* L and M (the Laplacian of Meyer et al.), H and p (the heat) */
    if (e == LAB_OK)
        e = heat30_laplacian(m, &A, mass, &out->obtuse_triangles, d);
    if (e == LAB_OK)
        e = heat30_heat(m, bones, bone_count, joint_count, c, H, p, &out->hidden, d);
    if (e == LAB_OK) {
        /* A = -L + M H: L's entries change sign in place, M H joins the diagonal */
        for (size_t k = 0; k < A.count; k++)
            A.value[k] = -A.value[k];
        for (int i = 0; e == LAB_OK && i < n; i++)
            e = sparse_add(&A, i, i, mass[i] * H[i], d);
    }
    double a_norm = 0.0; /* |A|, the largest absolute row sum */
    for (int i = 0; e == LAB_OK && i < n; i++)
        rhs[i] = 0.0;
    for (size_t k = 0; e == LAB_OK && k < A.count; k++)
        rhs[A.row[k]] += fabs(A.value[k]);
    for (int i = 0; e == LAB_OK && i < n; i++)
        a_norm = fmax(a_norm, rhs[i]);
    double t0 = timer_seconds();
    if (e == LAB_OK)
        e = sparse_cholesky_factor(&A, &f, d);
    out->factor_seconds = timer_seconds() - t0;
    t0 = timer_seconds();
    for (int j = 0; e == LAB_OK && j < joint_count; j++) {
        double b_norm = 0.0, w_norm = 0.0;
        for (int i = 0; i < n; i++) { /* b_j = M H p_j */
            rhs[i] = mass[i] * H[i] * p[(size_t)i * joint_count + j];
            b_norm = fmax(b_norm, fabs(rhs[i]));
        }
        e = sparse_cholesky_solve(&f, rhs, w, d);
        for (int i = 0; e == LAB_OK && i < n; i++)
            w_norm = fmax(w_norm, fabs(w[i]));
        if (e == LAB_OK) {
            double r = sparse_residual(&A, w, rhs);
            if (r < 0.0)
                e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "bone heat", "the residual's scratch vector");
            out->backward_error[j] = r / (a_norm * w_norm + b_norm);
        }
        for (int i = 0; e == LAB_OK && i < n; i++)
            out->weights[(size_t)i * joint_count + j] = w[i];
    }
    out->solve_seconds = timer_seconds() - t0;
    out->factor_nonzeros = f.factor_nonzeros;
    out->flops = f.flops;
    out->peak_bytes = f.peak_bytes;
    sparse_cholesky_free(&f);
    sparse_free(&A);
    free(mass), free(H), free(p), free(rhs), free(w);
    if (e != LAB_OK)
        heat30_result_free(out);
    return e;
}
