/* weights30_mesh.c - an artist's asset made ready for the methods (see weights30.h): its
 * vertices welded where they share a position (the surface the paper's heat and the
 * biharmonic energy are measured over), and its skeleton turned into bones. */
#include <limits.h>
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
#include "weights/heat.h"
#include "base/report.h"
#include "weights30.h"
#include "weights/cut.h"

/* ---- welding --------------------------------------------------------------------------- */

typedef struct { vec3 p; int index; } keyed;
static int by_position(const void *pa, const void *pb)
{
    const keyed *a = pa, *b = pb;
    if (a->p.x != b->p.x)
        return a->p.x < b->p.x ? -1 : 1;
    if (a->p.y != b->p.y)
        return a->p.y < b->p.y ? -1 : 1;
    if (a->p.z != b->p.z)
        return a->p.z < b->p.z ? -1 : 1;
    return a->index - b->index;
}

/* One welded vertex per distinct position (exactly equal coordinates); the triangles on
 * them. A triangle that welding folds (two corners at one position) is dropped. */
lab_error weights30_weld(weights30_asset *a, lab_diag *d)
{
    int n = a->vertex_count;
    keyed *k = malloc((size_t)n * sizeof *k);
    a->weld = malloc((size_t)n * sizeof *a->weld);
    a->welded.vertices = malloc((size_t)n * sizeof *a->welded.vertices);
    a->welded.triangles = malloc((size_t)a->triangle_count * sizeof *a->welded.triangles);
    if (!k || !a->weld || !a->welded.vertices || !a->welded.triangles) {
        free(k);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "welding", "%d vertices", n);
    }
    for (int v = 0; v < n; v++)
        k[v] = (keyed){a->bind[v], v};
    qsort(k, (size_t)n, sizeof *k, by_position);
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (i == 0 || by_position(&(keyed){k[i].p, 0}, &(keyed){k[i - 1].p, 0}) != 0)
            a->welded.vertices[m++] = k[i].p;
        a->weld[k[i].index] = m - 1;
    }
    free(k);
    a->welded.vertex_count = m;
    for (int t = 0; t < a->triangle_count; t++) {
        const int *v = a->triangles[t].v;
        mesh_triangle w = {{a->weld[v[0]], a->weld[v[1]], a->weld[v[2]]}};
        if (w.v[0] != w.v[1] && w.v[1] != w.v[2] && w.v[0] != w.v[2])
            a->welded.triangles[a->welded.triangle_count++] = w;
        else
            a->folded++;
    }
    return LAB_OK;
}

/* ---- the skeleton as bones ------------------------------------------------------------- */

/* Joint j's bind position in the mesh's space: the origin of its inverse bind matrix's
 * inverse, o = -A^-1 t for IBM = [A t] (A^-1 from linalg's inverse transpose). */
lab_error weights30_joint_origin(const double ibm_column_major[16], vec3 *out, lab_diag *d)
{
    mat4 m = {{{0}}}, it;
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            m.m[r][c] = ibm_column_major[c * 4 + r];
    lab_error e = mat4_linear_inverse_transpose(m, &it, "inverse bind matrix", d);
    if (e != LAB_OK)
        return e;
    vec3 t = {m.m[0][3], m.m[1][3], m.m[2][3]};
    *out = vec3_make(-(it.m[0][0] * t.x + it.m[1][0] * t.y + it.m[2][0] * t.z),
                     -(it.m[0][1] * t.x + it.m[1][1] * t.y + it.m[2][1] * t.z),
                     -(it.m[0][2] * t.x + it.m[1][2] * t.y + it.m[2][2] * t.z));
    return LAB_OK;
}

/* As for the cylinder: a joint's bone runs to each of its child joints; a leaf continues
 * its parent joint's bone, as long; a lone joint is a point. */
lab_error weights30_skeleton_bones(weights30_asset *a, const gltf_document *doc, const gltf_skin *skin,
                                   const vec3 *origin, lab_diag *d)
{
    int J = skin->joint_count;
    int *slot = malloc((size_t)doc->node_count * sizeof *slot); /* node -> joint, or -1 */
    a->bones = malloc((size_t)(2 * J) * sizeof *a->bones);
    if (!slot || !a->bones) {
        free(slot);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "bones", "%d joints", J);
    }
    for (int i = 0; i < doc->node_count; i++)
        slot[i] = -1;
    for (int j = 0; j < J; j++)
        slot[skin->joints[j]] = j;
    for (int j = 0; j < J; j++) {
        const gltf_node *node = &doc->nodes[skin->joints[j]];
        int children = 0;
        for (int c = 0; c < node->child_count; c++)
            if (slot[node->children[c]] >= 0) {
                a->bones[a->bone_count++] = (heat_bone){origin[j], origin[slot[node->children[c]]], j};
                children++;
            }
        if (children)
            continue;
        int parent = node->parent >= 0 ? slot[node->parent] : -1;
        vec3 tip = parent >= 0 ? vec3_add(origin[j], vec3_sub(origin[j], origin[parent])) : origin[j];
        a->bones[a->bone_count++] = (heat_bone){origin[j], tip, j};
    }
    free(slot);
    return LAB_OK;
}
