/* mesh.h - triangle meshes (chapter 12): the cylinder builder and connectivity checks.
 *
 * Triangles are counter-clockwise seen from outside (right-handed normal points out).
 * Edges are undirected pairs a < b; a boundary edge belongs to one triangle, an interior
 * edge to two that traverse it in opposite directions (consistent orientation).
 */
#ifndef MESH_H
#define MESH_H

#include "math/linalg.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct { int v[3]; } mesh_triangle;
typedef struct { int a, b; } mesh_edge; /* a < b */

typedef struct {
    int vertex_count;        /* 0 <= i < vertex_count */
    vec3 *vertices;
    int triangle_count;      /* 0 <= t < triangle_count */
    mesh_triangle *triangles;
} mesh;

typedef struct {
    int unique_edges;
    int boundary_edges;
} mesh_stats;

/* Open cylinder about +z: `rings` rings of `segments` vertices, z = height * r/(rings-1),
 * vertex r*segments + s at angle 2*pi*s/segments, two triangles per quad, no caps.
 * Needs rings >= 2 and segments >= 3. Allocates; free with mesh_free. */
lab_error mesh_cylinder(int rings, int segments, double radius, double height, mesh *out,
                        lab_diag *d);
void mesh_free(mesh *m);

/* Index of the vertex on ring r, segment s of a cylinder built by mesh_cylinder. */
int mesh_cylinder_index(int segments, int ring, int segment);

double triangle_area(vec3 a, vec3 b, vec3 c);

/* Chapter 12's checks, in this order: indices in range, three different vertices per
 * triangle, area > min_area, every edge used by one or two triangles, consistent
 * orientation. Fills out (may be NULL) with the edge counts when the mesh passes. */
lab_error mesh_check(const mesh *m, double min_area, mesh_stats *out, lab_diag *d);

/* part[i] (vertex_count of them, the caller's): the lowest vertex of i's connected part, the
 * parts joined by the triangles' edges; a vertex no triangle uses is a part of its own. */
void mesh_parts(const mesh *m, int *part);

/* The unique undirected edges of a triangle list, sorted by (a, b), in a new array
 * *out_edges (free() it) of *out_count edges. Indices must already be in range
 * (mesh_check). On error (out of memory) *out_edges is NULL and *out_count 0. */
lab_error mesh_unique_edges(const mesh_triangle *triangles, int triangle_count,
                            mesh_edge **out_edges, int *out_count, lab_diag *d);

/* Triangles whose area at `positions` is <= min_area: the bind topology is kept and only
 * measured, never repaired (chapter 30: collapsed rings are a result to observe). */
int mesh_count_degenerate(const vec3 *positions, const mesh_triangle *triangles,
                          int triangle_count, double min_area);

#ifdef __cplusplus
}
#endif

#endif
