/* heat.c - bone heat's terms, one function each: the Laplacian and the areas, the heat and
 * its visibility test, as the paper writes them and as Blender computes them (see src/weights/heat.h
 * for the system; src/weights/heat_solve.c puts them together and solves). */
#include "weights/heat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mesh/bvh.h"
#include "base/diag.h"
#include "math/linalg.h"
#include "mesh/mesh.h"
#include "solve/sparse.h"

double heat_segment_distance(vec3 p, heat_bone bone, vec3 *closest)
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

const char *const heat_model_names[HEAT_MODELS + 1] = {"paper", "blender", NULL};

double heat_blender_cut(double w)
{
    if (w < HEAT_BLENDER_CUT_END)
        return 0.0;
    if (w < HEAT_BLENDER_CUT_START)
        return (w - HEAT_BLENDER_CUT_END) / (HEAT_BLENDER_CUT_START - HEAT_BLENDER_CUT_END) * HEAT_BLENDER_CUT_START;
    return w;
}

/* cot of the angle between u and v: cos / sin = (u . v) / |u x v|. */
static double cotangent(vec3 u, vec3 v)
{
    return vec3_dot(u, v) / vec3_length(vec3_cross(u, v));
}

static int by_edge_key(const void *a, const void *b)
{
    unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;
    return x < y ? -1 : x > y;
}

static unsigned long long edge_key(int i, int j)
{
    return i < j ? (unsigned long long)i << 32 | (unsigned)j : (unsigned long long)j << 32 | (unsigned)i;
}

/* per[3 t + k]: how many triangles hold the edge opposite corner k of triangle t (sorted
 * keys, then two binary searches an edge). keys: 3 T scratch entries. */
static void edge_triangle_counts(const mesh *m, unsigned long long *keys, int *per)
{
    size_t count = (size_t)m->triangle_count * 3;
    for (int t = 0; t < m->triangle_count; t++)
        for (int k = 0; k < 3; k++)
            keys[3 * (size_t)t + k] = edge_key(m->triangles[t].v[(k + 1) % 3], m->triangles[t].v[(k + 2) % 3]);
    qsort(keys, count, sizeof *keys, by_edge_key);
    for (int t = 0; t < m->triangle_count; t++)
        for (int k = 0; k < 3; k++) {
            unsigned long long key = edge_key(m->triangles[t].v[(k + 1) % 3], m->triangles[t].v[(k + 2) % 3]);
            size_t lo = 0, hi = count; /* the first key >= key, then the first > key */
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (keys[mid] < key) lo = mid + 1; else hi = mid;
            }
            size_t first = lo;
            hi = count;
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (keys[mid] <= key) lo = mid + 1; else hi = mid;
            }
            per[3 * t + k] = (int)(lo - first);
        }
}

lab_error heat_laplacian(const mesh *m, heat_model model, sparse_triplets *L, double *mass, int *obtuse_count,
                           lab_diag *d)
{
    int n = m->vertex_count;
    unsigned long long *keys = NULL;
    int *per = NULL; /* Blender's: the triangles on each triangle's edges */
    if (model == HEAT_BLENDER) {
        keys = malloc(((size_t)m->triangle_count * 3 + 1) * sizeof *keys);
        per = malloc(((size_t)m->triangle_count * 3 + 1) * sizeof *per);
        if (!keys || !per) {
            free(keys), free(per);
            return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "bone heat's Laplacian", "%d triangles", m->triangle_count);
        }
        edge_triangle_counts(m, keys, per);
        free(keys);
    }
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
            free(per);
            int k = vec3_length(vec3_sub(p[0], p[1])) == 0.0 ? 1 : vec3_length(vec3_sub(p[1], p[2])) == 0.0 ? 2
                  : vec3_length(vec3_sub(p[2], p[0])) == 0.0 ? 0 : -1; /* a corner at its predecessor's place */
            if (k >= 0)
                return diag_fail(d, LAB_ERR_MESH_ZERO_AREA, "bone heat's Laplacian",
                                 "triangle %d (%d, %d, %d): vertices %d and %d are coincident, at (%.9g, %.9g, %.9g): its "
                                 "angles have no cotangent", t, v[0], v[1], v[2], v[(k + 2) % 3], v[k], p[k].x, p[k].y, p[k].z);
            return diag_fail(d, LAB_ERR_MESH_ZERO_AREA, "bone heat's Laplacian",
                             "triangle %d (%d, %d, %d): its corners are collinear: its angles have no cotangent", t, v[0],
                             v[1], v[2]);
        }
        double cot[3];    /* cot[k]: the angle at corner k, opposite the edge (k+1, k+2) */
        for (int k = 0; k < 3; k++)
            cot[k] = cotangent(vec3_sub(p[(k + 1) % 3], p[k]), vec3_sub(p[(k + 2) % 3], p[k]));
        /* L_ik += cot(angle opposite ik) / 2: each triangle gives an edge one of its two
         * angles; an interior edge gets both (cot alpha + cot beta) / 2, a boundary edge one.
         * Blender divides by the edge's triangles instead: a boundary edge keeps cot alpha */
        for (int k = 0; e == LAB_OK && k < 3; k++) {
            int i = v[(k + 1) % 3], j = v[(k + 2) % 3];
            double w = cot[k] / (per ? per[3 * t + k] : 2.0);
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
    free(per);
    if (e != LAB_OK)
        sparse_free(L);
    return e;
}

/* Blender's vertex normals: the normalised sum of the unit normals of the vertex's
 * triangles (zero for a vertex no triangle uses, as Blender's normalize_v3 leaves it). */
static void vertex_normals(const mesh *m, vec3 *out)
{
    for (int i = 0; i < m->vertex_count; i++)
        out[i] = vec3_make(0, 0, 0);
    for (int t = 0; t < m->triangle_count; t++) {
        const int *v = m->triangles[t].v;
        vec3 n = vec3_cross(vec3_sub(m->vertices[v[1]], m->vertices[v[0]]), vec3_sub(m->vertices[v[2]], m->vertices[v[0]]));
        n = vec3_scale(n, 1.0 / vec3_length(n)); /* the Laplacian refused zero areas first */
        for (int k = 0; k < 3; k++)
            out[v[k]] = vec3_add(out[v[k]], n);
    }
    for (int i = 0; i < m->vertex_count; i++) {
        double len = vec3_length(out[i]);
        if (len > 0.0)
            out[i] = vec3_scale(out[i], 1.0 / len);
    }
}

/* The model's distance from x to the bone, and the bone's closest point. The paper's is
 * Euclidean; Blender's is d / ((cos + 1.001) / 2), cos between the vertex normal and the
 * direction from the closest point to x (0 where x is on the bone). */
static double model_distance(heat_model model, vec3 x, vec3 normal, heat_bone bone, vec3 *closest)
{
    double dist = heat_segment_distance(x, bone, closest);
    if (model == HEAT_PAPER)
        return dist;
    double cosine = dist > 0.0 ? vec3_dot(vec3_scale(vec3_sub(x, *closest), 1.0 / dist), normal) : 0.0;
    return dist / (0.5 * (cosine + 1.001));
}

typedef struct { double dist; int bone; } keyed_bone;
static int by_distance(const void *pa, const void *pb)
{
    const keyed_bone *a = pa, *b = pb;
    return a->dist < b->dist ? -1 : a->dist > b->dist ? 1 : a->bone - b->bone;
}

lab_error heat_sources(const mesh *m, heat_model model, const heat_bone *bones, int bone_count, int joint_count,
                      double c, double *H, double *p, int *hidden, lab_diag *d)
{
    int n = m->vertex_count, unseen = 0;
    const bool blender = model == HEAT_BLENDER;
    const mesh_segment_rule rule = blender ? MESH_SEGMENT_FACING : MESH_SEGMENT_ANY;
    const double tie = blender ? HEAT_BLENDER_TIE : HEAT_TIE;
    mesh_bvh bvh;
    lab_error e = mesh_bvh_build(m, &bvh, d);
    if (e != LAB_OK)
        return e;
    double *dist = malloc((size_t)bone_count * sizeof *dist);
    vec3 *closest = malloc((size_t)bone_count * sizeof *closest);
    keyed_bone *order = malloc((size_t)bone_count * sizeof *order);
    vec3 *normal = blender ? malloc((size_t)n * sizeof *normal) : NULL;
    if (!dist || !closest || !order || (blender && !normal)) {
        free(dist), free(closest), free(order), free(normal), mesh_bvh_free(&bvh);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "bone heat", "%d bones, %d vertices", bone_count, n);
    }
    if (blender)
        vertex_normals(m, normal);
    for (int i = 0; e == LAB_OK && i < n; i++) {
        double *pi = p + (size_t)i * joint_count;
        const bool surface = !bvh.unused[i]; /* some triangle uses it */
        for (int j = 0; j < joint_count; j++)
            pi[j] = 0.0;
        for (int b = 0; b < bone_count; b++) {
            dist[b] = model_distance(model, m->vertices[i], blender ? normal[i] : vec3_make(0, 0, 0), bones[b], &closest[b]);
        }
        double nearest = INFINITY;
        int visible = -1; /* the paper's: the nearest bone seen, its visibility known */
        if (blender || !surface) {
            /* Blender: the nearest of all bones, seen or not (and a vertex off the surface) */
            for (int b = 0; b < bone_count; b++)
                nearest = fmin(nearest, dist[b]);
        } else {
            /* the paper: the nearest visible bone; bones are tried nearest first (sorted:
             * O(B log B) a vertex, then one visibility query a bone until one is seen) */
            for (int b = 0; b < bone_count; b++)
                order[b] = (keyed_bone){dist[b], b};
            qsort(order, (size_t)bone_count, sizeof *order, by_distance);
            for (int k = 0; k < bone_count && visible < 0; k++) {
                if (!mesh_bvh_segment_blocked(&bvh, i, closest[order[k].bone], rule))
                    nearest = order[k].dist, visible = order[k].bone;
            }
        }
        H[i] = 0.0;
        if (surface && !blender && nearest == 0.0) {
            for (visible = 0; dist[visible] > 0.0; visible++)
                ;
            e = diag_fail_at_vertex(d, LAB_ERR_HEAT_ON_BONE, i, NULL,
                                    "(%.9g, %.9g, %.9g) lies on bone %d of joint %d", m->vertices[i].x,
                                    m->vertices[i].y, m->vertices[i].z, visible, bones[visible].joint);
            break;
        }
        /* every visible bone within the tie tolerance of the nearest shares the vertex */
        int k = 0;
        for (int b = 0; isfinite(nearest) && b < bone_count; b++)
            if (dist[b] <= nearest * (1.0 + tie) &&
                (!surface || b == visible || !mesh_bvh_segment_blocked(&bvh, i, closest[b], rule))) {
                pi[bones[b].joint] += 1.0;
                k++;
            }
        if (k == 0) { /* no bone in sight (Blender: the nearest one hidden) */
            unseen++;
            continue;
        }
        for (int j = 0; j < joint_count; j++)
            pi[j] /= k;                                        /* p_j(i) = 1 / k */
        if (surface) {
            double dh = blender ? fmax(nearest, HEAT_BLENDER_MIN_DISTANCE) : nearest;
            H[i] = k * c / (dh * dh);                          /* H_ii = k c / d_i^2 */
        }
    }
    free(dist), free(closest), free(order), free(normal), mesh_bvh_free(&bvh);
    if (hidden)
        *hidden = unseen;
    return e;
}

lab_error heat_sources_nearest(const mesh *m, heat_model model, const heat_bone *bones, int bone_count, int joint_count,
                               const unsigned char *which, double *p, lab_diag *d)
{
    int n = m->vertex_count;
    const bool blender = model == HEAT_BLENDER;
    const double tie = blender ? HEAT_BLENDER_TIE : HEAT_TIE;
    double *dist = malloc(((size_t)bone_count + 1) * sizeof *dist);
    vec3 *normal = blender ? malloc(((size_t)n + 1) * sizeof *normal) : NULL, closest;
    if (!dist || (blender && !normal)) {
        free(dist), free(normal);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "bone heat", "%d bones, %d vertices", bone_count, n);
    }
    if (blender)
        vertex_normals(m, normal);
    for (int i = 0; i < n; i++) {
        if (!which[i])
            continue;
        double *pi = p + (size_t)i * joint_count, nearest = INFINITY;
        for (int b = 0; b < bone_count; b++) {
            dist[b] = model_distance(model, m->vertices[i], blender ? normal[i] : vec3_make(0, 0, 0), bones[b], &closest);
            nearest = fmin(nearest, dist[b]);
        }
        int k = 0;
        for (int j = 0; j < joint_count; j++)
            pi[j] = 0.0;
        for (int b = 0; b < bone_count; b++)
            if (dist[b] <= nearest * (1.0 + tie))
                pi[bones[b].joint] += 1.0, k++;
        for (int j = 0; j < joint_count && k > 0; j++)
            pi[j] /= k;                                        /* p_j(i) = 1 / k, unseen or not */
    }
    free(dist), free(normal);
    return LAB_OK;
}
