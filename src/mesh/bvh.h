/* bvh.h - does a segment cross a mesh? The visibility test of automatic weights (bone
 * heat asks whether a vertex sees a bone), answered two ways:
 *
 *   mesh_segment_blocked       a loop over every triangle: O(T) a query, the reference
 *   mesh_bvh_segment_blocked   a bounding volume hierarchy: O(log T) a query, its twin
 *
 *   mesh_bvh b;                                     the caller's; holds a pointer to m
 *   mesh_bvh_build(m, &b, d);                       O(T log T)
 *   mesh_bvh_segment_blocked(&b, vertex, q, rule);  as many queries as needed
 *   mesh_bvh_free(&b);
 *
 * A segment runs from a vertex of the mesh to any point q, and what blocks it is a rule:
 *
 *   MESH_SEGMENT_ANY     any triangle that does not have the vertex as a corner (the
 *                        segment starts on those); hits within 1e-9 of either end do not
 *                        count. The lab's bone heat.
 *   MESH_SEGMENT_FACING  Blender 3.4's (editors/armature/meshlaplacian.c,
 *                        heat_ray_source_visible): the segment is shortened by 1e-5 of its
 *                        length at both ends, every triangle counts, but only one whose
 *                        unit normal meets the segment's unit direction with a dot product
 *                        below -1e-5 (the segment enters it from its front). A vertex that
 *                        no triangle uses sees everything.
 *
 * The hit test is Moller and Trumbore's (1997). test_mesh checks the loop and the
 * hierarchy against each other on seeded segments, under both rules.
 */
#ifndef MESH_BVH_H
#define MESH_BVH_H

#include <stdbool.h>

#include "mesh/mesh.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { MESH_SEGMENT_ANY, MESH_SEGMENT_FACING } mesh_segment_rule;

/* Whether the segment from vertex `vertex` of m to q is blocked under `rule`: the loop. */
bool mesh_segment_blocked(const mesh *m, int vertex, vec3 q, mesh_segment_rule rule);

/* The hierarchy: leaves hold at most MESH_BVH_LEAF triangles; a node splits its triangles at
 * the median centroid along its box's longest axis. */
#define MESH_BVH_LEAF 4
typedef struct {
    vec3 lo, hi;                /* the box of its triangles */
    int left, right;            /* children, or -1 for a leaf */
    int first, count;           /* a leaf's triangles: order[first .. first + count) */
} mesh_bvh_node;
typedef struct {
    const mesh *m;
    mesh_bvh_node *nodes;
    int node_count;
    int *order;                 /* triangle indices, grouped by leaf */
    bool *unused;               /* per vertex: no triangle has it as a corner */
} mesh_bvh;
lab_error mesh_bvh_build(const mesh *m, mesh_bvh *out, lab_diag *d);
/* The same answer as mesh_segment_blocked. */
bool mesh_bvh_segment_blocked(const mesh_bvh *b, int vertex, vec3 q, mesh_segment_rule rule);
void mesh_bvh_free(mesh_bvh *b);

#ifdef __cplusplus
}
#endif

#endif
