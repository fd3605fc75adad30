/* mesh.c - cylinder builder and chapter 12's connectivity checks. */
#include "mesh/mesh.h"

#include <math.h>
#include <stdlib.h>

int mesh_cylinder_index(int segments, int ring, int segment) { return ring * segments + segment; }

lab_error mesh_cylinder(int rings, int segments, double radius, double height, mesh *out,
                        lab_diag *d)
{
    *out = (mesh){0};
    if (rings < 2 || segments < 3)
        return diag_fail(d, LAB_ERR_MESH_INDEX_RANGE, "cylinder builder",
                         "rings %d (need >= 2), segments %d (need >= 3)", rings, segments);
    int nv = rings * segments, nt = 2 * (rings - 1) * segments;
    vec3 *v = malloc(sizeof *v * (size_t)nv);
    mesh_triangle *t = malloc(sizeof *t * (size_t)nt);
    if (!v || !t) {
        free(v);
        free(t);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "cylinder builder", "%d vertices", nv);
    }
    const double two_pi = 2.0 * acos(-1.0);
    for (int r = 0; r < rings; r++)
        for (int s = 0; s < segments; s++) {
            double a = two_pi * s / segments;
            v[mesh_cylinder_index(segments, r, s)] =
                vec3_make(radius * cos(a), radius * sin(a), height * r / (rings - 1));
        }
    int k = 0;
    for (int r = 0; r + 1 < rings; r++)
        for (int s = 0; s < segments; s++) {
            int s1 = (s + 1) % segments;
            int a = mesh_cylinder_index(segments, r, s), b = mesh_cylinder_index(segments, r, s1);
            int c = mesh_cylinder_index(segments, r + 1, s1);
            int e = mesh_cylinder_index(segments, r + 1, s);
            /* quad a-b-c-e, counter-clockwise seen from outside: split along a-c */
            t[k++] = (mesh_triangle){{a, b, c}};
            t[k++] = (mesh_triangle){{a, c, e}};
        }
    *out = (mesh){nv, v, nt, t};
    return LAB_OK;
}

void mesh_free(mesh *m)
{
    free(m->vertices);
    free(m->triangles);
    *m = (mesh){0};
}

double triangle_area(vec3 a, vec3 b, vec3 c)
{
    return 0.5 * vec3_length(vec3_cross(vec3_sub(b, a), vec3_sub(c, a)));
}

/* A directed edge remembers which way its triangle traversed it. */
typedef struct { int a, b, forward, triangle; } directed_edge;

static int compare_directed(const void *pa, const void *pb)
{
    const directed_edge *x = pa, *y = pb;
    if (x->a != y->a) return x->a < y->a ? -1 : 1;
    if (x->b != y->b) return x->b < y->b ? -1 : 1;
    if (x->forward != y->forward) return x->forward < y->forward ? -1 : 1;
    return (x->triangle > y->triangle) - (x->triangle < y->triangle);
}

/* All 3*n directed edges, keyed by their undirected pair and sorted so equal pairs meet. */
static directed_edge *sorted_directed_edges(const mesh_triangle *t, int n)
{
    directed_edge *e = malloc(sizeof *e * (size_t)(3 * n > 0 ? 3 * n : 1));
    if (!e)
        return NULL;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 3; k++) {
            int from = t[i].v[k], to = t[i].v[(k + 1) % 3];
            int fwd = from < to;
            e[3 * i + k] = (directed_edge){fwd ? from : to, fwd ? to : from, fwd, i};
        }
    qsort(e, (size_t)(3 * n), sizeof *e, compare_directed);
    return e;
}

lab_error mesh_unique_edges(const mesh_triangle *triangles, int triangle_count,
                            mesh_edge **out_edges, int *out_count, lab_diag *d)
{
    *out_edges = NULL;
    *out_count = 0;
    directed_edge *e = sorted_directed_edges(triangles, triangle_count);
    mesh_edge *edges = malloc(sizeof *edges * (size_t)(triangle_count > 0 ? 3 * triangle_count : 1));
    if (!e || !edges) {
        free(e), free(edges);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "edges", "%d triangles", triangle_count);
    }
    int count = 0;
    for (int i = 0; i < 3 * triangle_count; i++)
        if (i == 0 || e[i].a != e[i - 1].a || e[i].b != e[i - 1].b)
            edges[count++] = (mesh_edge){e[i].a, e[i].b};
    free(e);
    *out_edges = edges;
    *out_count = count;
    return LAB_OK;
}

static lab_error check_triangles(const mesh *m, double min_area, lab_diag *d)
{
    char where[128];
    for (int i = 0; i < m->triangle_count; i++) {
        const int *v = m->triangles[i].v;
        diag_where(where, sizeof where, "triangle %d", i);
        for (int k = 0; k < 3; k++)
            if (v[k] < 0 || v[k] >= m->vertex_count)
                return diag_fail(d, LAB_ERR_MESH_INDEX_RANGE, where, "corner %d is vertex %d of %d",
                                 k, v[k], m->vertex_count);
        if (v[0] == v[1] || v[1] == v[2] || v[0] == v[2])
            return diag_fail(d, LAB_ERR_MESH_REPEATED_VERTEX, where, "vertices (%d, %d, %d)",
                             v[0], v[1], v[2]);
        double area = triangle_area(m->vertices[v[0]], m->vertices[v[1]], m->vertices[v[2]]);
        if (!(area > min_area))
            return diag_fail(d, LAB_ERR_MESH_ZERO_AREA, where, "area %.15g <= %g", area, min_area);
    }
    return LAB_OK;
}

/* Walks the sorted directed edges one undirected pair at a time. */
static lab_error check_edges(const directed_edge *e, int n, mesh_stats *stats, lab_diag *d)
{
    char where[128];
    *stats = (mesh_stats){0};
    for (int i = 0; i < n;) {
        int j = i;
        while (j < n && e[j].a == e[i].a && e[j].b == e[i].b)
            j++;
        int uses = j - i;
        diag_where(where, sizeof where, "edge (%d, %d)", e[i].a, e[i].b);
        if (uses > 2)
            return diag_fail(d, LAB_ERR_MESH_EDGE_OVERUSED, where, "used by %d triangles", uses);
        if (uses == 2 && e[i].forward == e[i + 1].forward)
            return diag_fail(d, LAB_ERR_MESH_ORIENTATION, where,
                             "triangles %d and %d both traverse it %s", e[i].triangle,
                             e[i + 1].triangle, e[i].forward ? "forwards" : "backwards");
        stats->unique_edges++;
        stats->boundary_edges += (uses == 1);
        i = j;
    }
    return LAB_OK;
}

lab_error mesh_check(const mesh *m, double min_area, mesh_stats *out, lab_diag *d)
{
    lab_error err = check_triangles(m, min_area, d);
    if (err != LAB_OK)
        return err;
    directed_edge *e = sorted_directed_edges(m->triangles, m->triangle_count);
    if (!e)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "mesh check", "%d triangles", m->triangle_count);
    mesh_stats stats;
    err = check_edges(e, 3 * m->triangle_count, &stats, d);
    free(e);
    if (err == LAB_OK && out)
        *out = stats;
    return err;
}

int mesh_count_degenerate(const vec3 *positions, const mesh_triangle *triangles,
                          int triangle_count, double min_area)
{
    int count = 0;
    for (int i = 0; i < triangle_count; i++) {
        const int *v = triangles[i].v;
        if (!(triangle_area(positions[v[0]], positions[v[1]], positions[v[2]]) > min_area))
            count++;
    }
    return count;
}

/* The root of i's part (union-find, halving the path as it goes). */
static int part_root(int *parent, int i)
{
    while (parent[i] != i)
        i = parent[i] = parent[parent[i]];
    return i;
}

void mesh_parts(const mesh *m, int *part)
{
    for (int i = 0; i < m->vertex_count; i++)
        part[i] = i;
    for (int t = 0; t < m->triangle_count; t++)
        for (int k = 1; k < 3; k++) { /* the lower root stays: a part is named by its lowest vertex */
            int a = part_root(part, m->triangles[t].v[0]), b = part_root(part, m->triangles[t].v[k]);
            part[a > b ? a : b] = a < b ? a : b;
        }
    for (int i = 0; i < m->vertex_count; i++)
        part[i] = part_root(part, i);
}
