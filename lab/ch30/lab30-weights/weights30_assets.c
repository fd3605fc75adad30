/* weights30_assets.c - bone heat on an artist's asset, beside the artist's weights (see
 * weights30.h). The method is heat30.c's; this file reads the asset, welds its
 * vertices, turns its skeleton into bones and measures the two weight sets against each
 * other, on the bind mesh and over the asset's animation. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "gltf/gltf.h"
#include "math/linalg.h"
#include "mesh/mesh.h"
#include "skin/blend.h"
#include "skin/influences.h"

#include "heat30.h"
#include "weights30.h"

void weights30_asset_free(weights30_asset *a)
{
    free(a->bind), free(a->triangles), free(a->weld), free(a->edges), free(a->bones);
    free(a->artist), free(a->automatic), free(a->joint_difference);
    mesh_free(&a->welded);
    heat30_result_free(&a->heat);
    const char *name = a->name;
    *a = (weights30_asset){.name = name};
}

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
static lab_error weld(weights30_asset *a, lab_diag *d)
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
    }
    return LAB_OK;
}

/* ---- the skeleton as bones ------------------------------------------------------------- */

/* Joint j's bind position in the mesh's space: the origin of its inverse bind matrix's
 * inverse, o = -A^-1 t for IBM = [A t] (A^-1 from linalg's inverse transpose). */
static lab_error joint_origin(const double ibm_column_major[16], vec3 *out, lab_diag *d)
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
static lab_error skeleton_bones(weights30_asset *a, const gltf_document *doc, const gltf_skin *skin,
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
                a->bones[a->bone_count++] = (heat30_bone){origin[j], origin[slot[node->children[c]]], j};
                children++;
            }
        if (children)
            continue;
        int parent = node->parent >= 0 ? slot[node->parent] : -1;
        vec3 tip = parent >= 0 ? vec3_add(origin[j], vec3_sub(origin[j], origin[parent])) : origin[j];
        a->bones[a->bone_count++] = (heat30_bone){origin[j], tip, j};
    }
    free(slot);
    return LAB_OK;
}

/* ---- reading the asset ----------------------------------------------------------------- */

static int skinned_node(const gltf_document *doc)
{
    for (int i = 0; i < doc->node_count; i++)
        if (doc->nodes[i].mesh >= 0 && doc->nodes[i].skin >= 0)
            return i;
    return -1;
}

static lab_error read_asset(weights30_asset *a, const gltf_document *doc, int node, lab_diag *d)
{
    const gltf_node *n = &doc->nodes[node];
    if (doc->meshes[n->mesh].primitive_count != 1) /* RiggedSimple and RiggedFigure have one */
        return diag_fail(d, LAB_ERR_UNSUPPORTED, a->name, "mesh %d has %d primitives; bone heat here takes one", n->mesh,
                         doc->meshes[n->mesh].primitive_count);
    const gltf_primitive *prim = &doc->meshes[n->mesh].primitives[0];
    a->vertex_count = gltf_primitive_vertex_count(doc, n->mesh, 0);
    a->bind = malloc((size_t)a->vertex_count * sizeof *a->bind);
    if (!a->bind)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, a->name, "%d vertices", a->vertex_count);
    lab_error e = gltf_morph_primitive(doc, n->mesh, 0, NULL, a->bind, NULL, d);
    if (e != LAB_OK)
        return e;
    int count = prim->indices >= 0 ? doc->accessors[prim->indices].count : a->vertex_count;
    if (count % 3 != 0) /* a triangle list: nothing left over */
        return diag_fail(d, LAB_ERR_GLTF, a->name, "%d indices: not a whole number of triangles", count);
    double *index = malloc((size_t)count * sizeof *index);
    a->triangle_count = count / 3;
    a->triangles = malloc((size_t)a->triangle_count * sizeof *a->triangles + 1); /* + 1: never malloc(0) */
    if (!index || !a->triangles) {
        free(index);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, a->name, "%d indices", count);
    }
    if (prim->indices >= 0)
        e = gltf_accessor_read(doc, prim->indices, index, d);
    else
        for (int i = 0; i < count; i++)
            index[i] = i;
    for (int t = 0; e == LAB_OK && t < a->triangle_count; t++)
        for (int k = 0; e == LAB_OK && k < 3; k++) {
            double i = index[3 * t + k];
            if (!(i >= 0 && i < a->vertex_count))
                e = diag_fail(d, LAB_ERR_MESH_INDEX_RANGE, "triangle list", "triangle %d corner %d: index %g of %d vertices",
                              t, k, i, a->vertex_count);
            else
                a->triangles[t].v[k] = (int)i;
        }
    free(index);
    return e;
}

/* ---- comparing the two ----------------------------------------------------------------- */

/* The artist's weights as a dense vertex x joint table (slots index skin.joints). */
static lab_error artist_weights(weights30_asset *a, const gltf_document *doc, int mesh_index, lab_diag *d)
{
    skin_influences in;
    lab_error e = gltf_primitive_influences(doc, mesh_index, 0, &in, d);
    if (e != LAB_OK)
        return e;
    for (size_t i = 0; i < (size_t)a->vertex_count * a->joint_count; i++)
        a->artist[i] = 0.0;
    for (int v = 0; v < a->vertex_count; v++)
        for (int k = 0; k < in.per_vertex; k++)
            a->artist[(size_t)v * a->joint_count + in.joint[v * in.per_vertex + k]] += in.weight[v * in.per_vertex + k];
    skin_influences_free(&in);
    return LAB_OK;
}

/* Both weight sets skinned by the library's one LBS blend at WEIGHTS30_ASSET_TIMES times of
 * the animation: joint matrices J_j = G(skin.joints[j]) IBM_j. The artist's weights are
 * used divided by their sum (glTF stores them to float precision), heat's as solved. */
static lab_error over_animation(weights30_asset *a, const gltf_document *doc, const gltf_skin *skin,
                                const double *ibm, lab_diag *d)
{
    int J = a->joint_count, N = doc->node_count;
    mat4 *locals = malloc((size_t)N * sizeof *locals), *world = malloc((size_t)N * sizeof *world);
    mat4 *palette = malloc((size_t)J * sizeof *palette);
    int *slots = malloc((size_t)J * sizeof *slots);
    double *artist = malloc((size_t)J * sizeof *artist);
    lab_error e = locals && world && palette && slots && artist
                      ? gltf_animation_range(doc, doc->animation_count > 0 ? 0 : -1, &a->t0, &a->t1, d)
                      : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, a->name, "%d nodes", N);
    for (int j = 0; e == LAB_OK && j < J; j++)
        slots[j] = j;
    double sum = 0.0;
    for (int k = 0; e == LAB_OK && k < WEIGHTS30_ASSET_TIMES; k++) {
        double t = a->t0 + (a->t1 - a->t0) * k / (WEIGHTS30_ASSET_TIMES - 1);
        e = gltf_sample_locals(doc, doc->animation_count > 0 ? 0 : -1, t, locals, d);
        if (e == LAB_OK)
            e = gltf_world_matrices(doc, locals, world, d);
        for (int j = 0; e == LAB_OK && j < J; j++) {
            mat4 m = {{{0}}};
            for (int r = 0; r < 4; r++)
                for (int c = 0; c < 4; c++)
                    m.m[r][c] = ibm[16 * j + c * 4 + r];
            palette[j] = mat4_mul(world[skin->joints[j]], m);
        }
        for (int v = 0; e == LAB_OK && v < a->vertex_count; v++) {
            const double *w = a->artist + (size_t)v * J;
            double W = 0.0;
            for (int j = 0; j < J; j++)
                W += w[j];
            for (int j = 0; j < J; j++)
                artist[j] = w[j] / W;
            vec4 pa = skin_lbs_point(a->bind[v], slots, artist, J, palette);
            vec4 ph = skin_lbs_point(a->bind[v], slots, a->automatic + (size_t)v * J, J, palette);
            double dist = vec3_length(vec3_sub(vec3_make(pa.x, pa.y, pa.z), vec3_make(ph.x, ph.y, ph.z))) / a->size;
            if (dist > a->max_position_difference)
                a->max_position_difference = dist, a->max_position_time = t;
            sum += dist;
        }
    }
    a->mean_position_difference = sum / ((double)WEIGHTS30_ASSET_TIMES * a->vertex_count);
    free(locals), free(world), free(palette), free(slots), free(artist);
    return e;
}

static void compare_weights(weights30_asset *a)
{
    int J = a->joint_count;
    double sum = 0.0;
    a->min_weight = INFINITY;
    for (int j = 0; j < J; j++)
        a->joint_difference[j] = 0.0;
    for (int v = 0; v < a->vertex_count; v++) {
        const double *h = a->automatic + (size_t)v * J, *w = a->artist + (size_t)v * J;
        double worst = 0.0, total = 0.0;
        for (int j = 0; j < J; j++) {
            double diff = fabs(h[j] - w[j]);
            total += h[j];
            a->min_weight = fmin(a->min_weight, h[j]);
            a->negative_count += h[j] < -1e-12;
            a->joint_difference[j] += diff / a->vertex_count;
            if (diff > worst)
                worst = diff;
            if (diff > a->max_weight_difference)
                a->max_weight_difference = diff, a->max_weight_vertex = v, a->max_weight_joint = j;
        }
        a->sum_error = fmax(a->sum_error, fabs(total - 1.0));
        sum += worst;
    }
    a->mean_weight_difference = sum / a->vertex_count;
}

lab_error weights30_asset_run(weights30_asset *a, const char *path, double c, lab_diag *d)
{
    gltf_document doc;
    lab_error e = gltf_load(path, &doc, d);
    if (e != LAB_OK)
        return e;
    e = gltf_validate(&doc, d);
    int node = e == LAB_OK ? skinned_node(&doc) : -1;
    if (e == LAB_OK && node < 0)
        e = diag_fail(d, LAB_ERR_NOTHING_TO_DO, path, "no node with a mesh and a skin");
    const gltf_skin *skin = e == LAB_OK ? &doc.skins[doc.nodes[node].skin] : NULL;
    double *ibm = NULL;
    vec3 *origin = NULL;
    if (e == LAB_OK) {
        a->joint_count = skin->joint_count;
        ibm = malloc((size_t)a->joint_count * 16 * sizeof *ibm);
        origin = malloc((size_t)a->joint_count * sizeof *origin);
        if (!ibm || !origin)
            e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, path, "%d joints", a->joint_count);
    }
    if (e == LAB_OK && skin->inverse_bind >= 0)
        e = gltf_accessor_read(&doc, skin->inverse_bind, ibm, d);
    else
        for (int j = 0; e == LAB_OK && j < a->joint_count; j++) /* absent: identity */
            for (int k = 0; k < 16; k++)
                ibm[16 * j + k] = k % 5 == 0;
    for (int j = 0; e == LAB_OK && j < a->joint_count; j++)
        e = joint_origin(ibm + 16 * j, &origin[j], d);
    if (e == LAB_OK)
        e = read_asset(a, &doc, node, d);
    if (e == LAB_OK)
        e = weld(a, d);
    if (e == LAB_OK)
        e = skeleton_bones(a, &doc, skin, origin, d);
    /* (-L + M H) w_j = M H p_j on the welded surface (heat30.c), back to every vertex */
    if (e == LAB_OK)
        e = heat30_solve(&a->welded, a->bones, a->bone_count, a->joint_count, c, &a->heat, d);
    if (e == LAB_OK) {
        size_t cells = (size_t)a->vertex_count * a->joint_count;
        a->artist = malloc(cells * sizeof *a->artist);
        a->automatic = malloc(cells * sizeof *a->automatic);
        a->joint_difference = malloc((size_t)a->joint_count * sizeof *a->joint_difference);
        if (!a->artist || !a->automatic || !a->joint_difference)
            e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, path, "%zu weights", cells);
    }
    for (int v = 0; e == LAB_OK && v < a->vertex_count; v++)
        for (int j = 0; j < a->joint_count; j++)
            a->automatic[(size_t)v * a->joint_count + j] = a->heat.weights[(size_t)a->weld[v] * a->joint_count + j];
    for (int j = 0; e == LAB_OK && j < a->joint_count; j++)
        a->backward_error = fmax(a->backward_error, a->heat.backward_error[j]);
    if (e == LAB_OK)
        e = artist_weights(a, &doc, doc.nodes[node].mesh, d);
    if (e == LAB_OK) {
        compare_weights(a);
        a->lo = a->hi = a->bind[0];
        for (int v = 1; v < a->vertex_count; v++) {
            vec3 p = a->bind[v];
            a->lo = vec3_make(fmin(a->lo.x, p.x), fmin(a->lo.y, p.y), fmin(a->lo.z, p.z));
            a->hi = vec3_make(fmax(a->hi.x, p.x), fmax(a->hi.y, p.y), fmax(a->hi.z, p.z));
        }
        a->size = vec3_length(vec3_sub(a->hi, a->lo));
        e = over_animation(a, &doc, skin, ibm, d);
    }
    if (e == LAB_OK)
        e = mesh_unique_edges(a->triangles, a->triangle_count, &a->edges, &a->edge_count, d);
    free(ibm), free(origin);
    gltf_free(&doc);
    if (e != LAB_OK)
        diag_prefix_where(d, "%s", a->name);
    return e;
}
