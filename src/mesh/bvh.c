/* bvh.c - segments against a mesh's triangles, by a loop and by a hierarchy (see bvh.h). */
#include "mesh/bvh.h"

#include <math.h>
#include <stdlib.h>

/* Moller and Trumbore (1997): the segment o + t (q - o), 0 < t < 1, against one triangle. */
static bool segment_hits_triangle(vec3 o, vec3 q, vec3 a, vec3 b, vec3 c)
{
    const double eps = 1e-12;
    vec3 dir = vec3_sub(q, o), e1 = vec3_sub(b, a), e2 = vec3_sub(c, a);
    vec3 h = vec3_cross(dir, e2);
    double det = vec3_dot(e1, h);
    if (fabs(det) < eps * vec3_length(dir) * vec3_length(e1) * vec3_length(e2))
        return false; /* the segment runs parallel to the triangle's plane */
    vec3 s = vec3_sub(o, a);
    double u = vec3_dot(s, h) / det;
    if (u < 0.0 || u > 1.0)
        return false;
    vec3 g = vec3_cross(s, e1);
    double v = vec3_dot(dir, g) / det;
    if (v < 0.0 || u + v > 1.0)
        return false;
    double t = vec3_dot(e2, g) / det;
    return t > 1e-9 && t < 1.0 - 1e-9;
}

/* The segment a rule tests, from *o to *q, given the vertex's position o and the end q. */
static void rule_segment(mesh_segment_rule rule, vec3 *o, vec3 *q)
{
    if (rule == MESH_SEGMENT_FACING) { /* Blender: start 1e-5 in, run (1 - 2e-5) of the way */
        vec3 dir = vec3_sub(*q, *o);
        *o = vec3_add(*o, vec3_scale(dir, 1e-5));
        *q = vec3_add(*o, vec3_scale(dir, 1.0 - 2e-5));
    }
}

/* Whether triangle t blocks the segment o..q under the rule (o, q from rule_segment). */
static bool triangle_blocks(const mesh *m, int t, int vertex, vec3 o, vec3 q, mesh_segment_rule rule)
{
    const int *v = m->triangles[t].v;
    vec3 a = m->vertices[v[0]], b = m->vertices[v[1]], c = m->vertices[v[2]];
    if (rule == MESH_SEGMENT_ANY && (v[0] == vertex || v[1] == vertex || v[2] == vertex))
        return false;
    if (rule == MESH_SEGMENT_FACING) { /* the segment must enter the triangle's front */
        vec3 n = vec3_cross(vec3_sub(b, a), vec3_sub(c, a)), dir = vec3_sub(q, o);
        double nl = vec3_length(n), dl = vec3_length(dir);
        if (!(nl > 0.0 && dl > 0.0) || !(vec3_dot(n, dir) / (nl * dl) < -1e-5))
            return false;
    }
    return segment_hits_triangle(o, q, a, b, c);
}

/* Blender's rule: a vertex that no triangle uses sees everything. O(T), once a query. */
static bool vertex_unused(const mesh *m, int vertex)
{
    for (int t = 0; t < m->triangle_count; t++) {
        const int *v = m->triangles[t].v;
        if (v[0] == vertex || v[1] == vertex || v[2] == vertex)
            return false;
    }
    return true;
}

bool mesh_segment_blocked(const mesh *m, int vertex, vec3 q, mesh_segment_rule rule)
{
    vec3 o = m->vertices[vertex];
    if (rule == MESH_SEGMENT_FACING && vertex_unused(m, vertex))
        return false;
    rule_segment(rule, &o, &q);
    for (int t = 0; t < m->triangle_count; t++)
        if (triangle_blocks(m, t, vertex, o, q, rule))
            return true;
    return false;
}

/* ---- the hierarchy ---------------------------------------------------------------------- */

static vec3 vmin(vec3 a, vec3 b) { return vec3_make(fmin(a.x, b.x), fmin(a.y, b.y), fmin(a.z, b.z)); }
static vec3 vmax(vec3 a, vec3 b) { return vec3_make(fmax(a.x, b.x), fmax(a.y, b.y), fmax(a.z, b.z)); }
static double axis_of(vec3 p, int axis) { return axis == 0 ? p.x : axis == 1 ? p.y : p.z; }

typedef struct { double key; int triangle; } keyed_triangle;
static int by_key(const void *pa, const void *pb)
{
    const keyed_triangle *a = pa, *b = pb;
    return a->key < b->key ? -1 : a->key > b->key ? 1 : a->triangle - b->triangle;
}

/* Node over order[first .. first + count): its box, then its two halves. Returns its index. */
static int build_node(mesh_bvh *b, keyed_triangle *scratch, int first, int count)
{
    int i = b->node_count++;
    mesh_bvh_node *n = &b->nodes[i];
    const mesh *m = b->m;
    n->lo = n->hi = m->vertices[m->triangles[b->order[first]].v[0]];
    for (int t = first; t < first + count; t++)
        for (int k = 0; k < 3; k++) {
            vec3 p = m->vertices[m->triangles[b->order[t]].v[k]];
            n->lo = vmin(n->lo, p), n->hi = vmax(n->hi, p);
        }
    n->first = first, n->count = count, n->left = n->right = -1;
    if (count <= MESH_BVH_LEAF)
        return i;
    vec3 size = vec3_sub(n->hi, n->lo);
    int axis = size.x >= size.y && size.x >= size.z ? 0 : size.y >= size.z ? 1 : 2;
    for (int t = 0; t < count; t++) { /* centroids along the longest axis (times 3) */
        const int *v = m->triangles[b->order[first + t]].v;
        scratch[t] = (keyed_triangle){axis_of(m->vertices[v[0]], axis) + axis_of(m->vertices[v[1]], axis) +
                                          axis_of(m->vertices[v[2]], axis),
                                      b->order[first + t]};
    }
    qsort(scratch, (size_t)count, sizeof *scratch, by_key);
    for (int t = 0; t < count; t++)
        b->order[first + t] = scratch[t].triangle;
    int half = count / 2;
    int left = build_node(b, scratch, first, half), right = build_node(b, scratch, first + half, count - half);
    b->nodes[i].left = left, b->nodes[i].right = right; /* b->nodes does not move: allocated whole */
    return i;
}

lab_error mesh_bvh_build(const mesh *m, mesh_bvh *out, lab_diag *d)
{
    *out = (mesh_bvh){.m = m};
    int t = m->triangle_count;
    out->order = malloc(((size_t)t + 1) * sizeof *out->order);
    out->nodes = malloc(((size_t)2 * t + 1) * sizeof *out->nodes); /* a binary tree of t leaves at most */
    out->unused = malloc((size_t)m->vertex_count + 1);
    keyed_triangle *scratch = malloc(((size_t)t + 1) * sizeof *scratch);
    if (!out->order || !out->nodes || !out->unused || !scratch) {
        free(scratch);
        mesh_bvh_free(out);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "triangle hierarchy", "%d triangles", t);
    }
    for (int i = 0; i < t; i++)
        out->order[i] = i;
    for (int i = 0; i < m->vertex_count; i++)
        out->unused[i] = true;
    for (int i = 0; i < t; i++)
        for (int k = 0; k < 3; k++)
            out->unused[m->triangles[i].v[k]] = false;
    if (t > 0)
        build_node(out, scratch, 0, t);
    free(scratch);
    return LAB_OK;
}

void mesh_bvh_free(mesh_bvh *b)
{
    free(b->order);
    free(b->nodes);
    free(b->unused);
    *b = (mesh_bvh){0};
}

/* Whether the segment o + s (q - o), 0 <= s <= 1, meets the box (the slab test). */
static bool segment_meets_box(vec3 o, vec3 q, vec3 lo, vec3 hi)
{
    double enter = 0.0, leave = 1.0;
    for (int axis = 0; axis < 3; axis++) {
        double a = axis_of(o, axis), dir = axis_of(q, axis) - a, l = axis_of(lo, axis), h = axis_of(hi, axis);
        if (dir == 0.0) {
            if (a < l || a > h)
                return false;
            continue;
        }
        double s0 = (l - a) / dir, s1 = (h - a) / dir;
        if (s0 > s1) {
            double x = s0;
            s0 = s1, s1 = x;
        }
        enter = fmax(enter, s0), leave = fmin(leave, s1);
        if (enter > leave)
            return false;
    }
    return true;
}

bool mesh_bvh_segment_blocked(const mesh_bvh *b, int vertex, vec3 q, mesh_segment_rule rule)
{
    if (b->node_count == 0)
        return false;
    const mesh *m = b->m;
    vec3 o = m->vertices[vertex];
    if (rule == MESH_SEGMENT_FACING && b->unused && b->unused[vertex])
        return false;
    rule_segment(rule, &o, &q);
    int stack[128], top = 0; /* depth <= log2(triangles) + 1 */
    stack[top++] = 0;
    while (top > 0) {
        const mesh_bvh_node *n = &b->nodes[stack[--top]];
        if (!segment_meets_box(o, q, n->lo, n->hi))
            continue;
        if (n->left >= 0) {
            stack[top++] = n->left;
            stack[top++] = n->right;
            continue;
        }
        for (int i = n->first; i < n->first + n->count; i++)
            if (triangle_blocks(m, b->order[i], vertex, o, q, rule))
                return true;
    }
    return false;
}

