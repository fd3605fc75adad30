/* weights30_assets.c - every automatic set on an artist's asset (see weights30.h): this file
 * reads the asset, welds its vertices, turns its skeleton into bones and runs the methods
 * (src/weights/heat.c, src/weights/bbw.c through weights30_bbw.c); weights30_compare.c measures the sets
 * against the artist's, on the bind mesh and over the asset's animation. */
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

const char *weights30_set_name(weights30_set set)
{
    static const char *const names[WEIGHTS30_SETS] = {"hand", "heat", "blender", "bbw"};
    return names[set];
}

weights30_set weights30_set_of_model(heat_model model)
{
    return model == HEAT_BLENDER ? WEIGHTS30_BLENDER : WEIGHTS30_HEAT;
}

void weights30_asset_free(weights30_asset *a)
{
    free(a->parts), free(a->part_first);
    free(a->bind), free(a->triangles), free(a->weld), free(a->edges), free(a->bones), free(a->artist);
    for (int k = 0; k < WEIGHTS30_AUTOMATIC; k++)
        free(a->versus[k].weights), free(a->versus[k].joint_difference), free(a->versus[k].cut);
    mesh_free(&a->welded);
    bbw_result_free(&a->bbw);
    free(a->handle);
    for (int model = 0; model < HEAT_MODELS; model++)
        heat_result_free(&a->heat[model]);
    const char *name = a->name;
    int influences = a->influences;
    *a = (weights30_asset){.name = name, .influences = influences};
}

/* ---- reading the asset ----------------------------------------------------------------- */

/* The skin the asset's first skinned node uses; -1 when no node has a mesh and a skin. */
static int first_skin(const gltf_document *doc)
{
    for (int i = 0; i < doc->node_count; i++)
        if (doc->nodes[i].mesh >= 0 && doc->nodes[i].skin >= 0)
            return doc->nodes[i].skin;
    return -1;
}

/* The parts: every primitive of every mesh a node skins with `skin`, each mesh once, in node
 * order, as Blender joins them into one object's surface. A node that skins a mesh with
 * another skin is refused unless the skin was chosen (`chosen`, --skin): one skeleton a run;
 * chosen, the other skins' meshes keep their weights. Their bind positions (mesh space: the
 * space the inverse bind matrices map from, one for every mesh of the skin) one part after
 * another, and their triangles on those. */
static lab_error read_asset(weights30_asset *a, const gltf_document *doc, int skin, bool chosen, lab_diag *d)
{
    bool *seen = calloc((size_t)doc->mesh_count + 1, sizeof *seen);
    if (!seen)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, a->name, "%d meshes", doc->mesh_count);
    for (int i = 0; i < doc->node_count; i++) {
        const gltf_node *n = &doc->nodes[i];
        if (n->mesh < 0 || n->skin < 0 || (chosen && n->skin != skin))
            continue;
        if (n->skin != skin) {
            char where[48];
            snprintf(where, sizeof where, "/nodes/%d/skin", i);
            free(seen);
            return diag_fail(d, LAB_ERR_LIMIT, where, "node %d skins mesh %d with skin %d, where the first "
                             "skinned node uses skin %d: --asset weights one skeleton a run; choose it with --skin N "
                             "(0 to %d)", i, n->mesh, n->skin, skin, doc->skin_count - 1);
        }
        if (!seen[n->mesh])
            a->part_count += doc->meshes[n->mesh].primitive_count;
        seen[n->mesh] = true;
    }
    a->parts = malloc((size_t)a->part_count * sizeof *a->parts);
    a->part_first = malloc(((size_t)a->part_count + 1) * sizeof *a->part_first);
    if (!a->parts || !a->part_first) {
        free(seen);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, a->name, "%d primitives", a->part_count);
    }
    int p = 0;
    long vertices = 0;
    for (int m = 0; m < doc->mesh_count; m++)
        seen[m] = false;
    for (int i = 0; i < doc->node_count; i++) {
        const gltf_node *n = &doc->nodes[i];
        if (n->mesh < 0 || n->skin != skin || seen[n->mesh])
            continue;
        seen[n->mesh] = true;
        for (int k = 0; k < doc->meshes[n->mesh].primitive_count; k++, p++) {
            a->parts[p] = (gltf_primitive_ref){n->mesh, k};
            a->part_first[p] = (int)vertices;
            vertices += gltf_primitive_vertex_count(doc, n->mesh, k); /* each under the reader's limit */
        }
    }
    free(seen);
    if (vertices > INT_MAX / 4) /* vertices x 4 influences indexes an int */
        return diag_fail(d, LAB_ERR_LIMIT, a->name, "%ld vertices in %d primitives, over %d", vertices, a->part_count,
                         INT_MAX / 4);
    a->part_first[p] = a->vertex_count = (int)vertices;
    a->bind = malloc((size_t)a->vertex_count * sizeof *a->bind + 1); /* never malloc(0) */
    if (!a->bind)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, a->name, "%d vertices", a->vertex_count);
    lab_error e = LAB_OK;
    for (p = 0; e == LAB_OK && p < a->part_count; p++)
        e = gltf_morph_primitive(doc, a->parts[p].mesh, a->parts[p].primitive, NULL, a->bind + a->part_first[p], NULL, d);
    /* the surface by each primitive's mode: strips and fans become triangle lists, points and
     * lines are refused (gltf_primitive_triangles) */
    for (p = 0; e == LAB_OK && p < a->part_count; p++) {
        int *index = NULL, count = 0, repeated = 0;
        e = gltf_primitive_triangles(doc, a->parts[p].mesh, a->parts[p].primitive, &index, &count, &repeated, d);
        mesh_triangle *grown = e == LAB_OK ? realloc(a->triangles, ((size_t)a->triangle_count + count) * sizeof *grown + 1)
                                           : NULL;
        if (e == LAB_OK && !grown)
            e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, a->name, "%d triangles", a->triangle_count + count);
        if (grown)
            a->triangles = grown;
        for (int t = 0; e == LAB_OK && t < count; t++)
            for (int k = 0; k < 3; k++)
                a->triangles[a->triangle_count + t].v[k] = a->part_first[p] + index[3 * t + k];
        if (e == LAB_OK)
            a->triangle_count += count, a->repeated += repeated;
        free(index);
    }
    return e;
}

lab_error weights30_asset_run(weights30_asset *a, const char *path, const weights30_options *o, lab_diag *d)
{
    gltf_document doc;
    lab_error e = gltf_load(path, &doc, d);
    if (e != LAB_OK)
        return e;
    e = gltf_validate(&doc, d);
    int skin_index = e == LAB_OK ? (o->skin >= 0 ? o->skin : first_skin(&doc)) : -1;
    if (e == LAB_OK && o->skin >= doc.skin_count)
        e = diag_fail(d, LAB_ERR_USAGE, "--skin", "%d: the asset has %d skin%s", o->skin, doc.skin_count,
                      doc.skin_count == 1 ? "" : "s");
    bool skins_a_mesh = false;
    for (int i = 0; e == LAB_OK && i < doc.node_count; i++)
        skins_a_mesh |= doc.nodes[i].mesh >= 0 && doc.nodes[i].skin == skin_index && skin_index >= 0;
    if (e == LAB_OK && !skins_a_mesh)
        e = o->skin >= 0 ? diag_fail(d, LAB_ERR_USAGE, "--skin", "%d: no node skins a mesh with it", o->skin)
                         : diag_fail(d, LAB_ERR_NOTHING_TO_DO, path, "no node with a mesh and a skin");
    const gltf_skin *skin = e == LAB_OK ? &doc.skins[skin_index] : NULL;
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
        e = weights30_joint_origin(ibm + 16 * j, &origin[j], d);
    if (e == LAB_OK)
        e = read_asset(a, &doc, skin_index, o->skin >= 0, d);
    if (e == LAB_OK) { /* its size, in its own units (the bounding box's diagonal) */
        a->lo = a->hi = a->bind[0];
        for (int v = 1; v < a->vertex_count; v++) {
            vec3 p = a->bind[v];
            a->lo = vec3_make(fmin(a->lo.x, p.x), fmin(a->lo.y, p.y), fmin(a->lo.z, p.z));
            a->hi = vec3_make(fmax(a->hi.x, p.x), fmax(a->hi.y, p.y), fmax(a->hi.z, p.z));
        }
        a->size = vec3_length(vec3_sub(a->hi, a->lo));
        /* bone heat and biharmonic weights do not depend on the unit; Blender's model has
         * absolute constants (src/weights/heat.h): below this size its 1e-4 clamp governs */
        if (!(a->size >= WEIGHTS30_MIN_SIZE))
            e = diag_fail(d, LAB_ERR_LIMIT, path, "the asset is %.3g across (its bounding box's diagonal, in its own "
                          "units), under %g: Blender's model clamps a vertex's distance to a bone at 1e-4 units, and its "
                          "weights then no longer follow the shape; give the asset larger units, x1000 for millimetres "
                          "in metres", a->size, WEIGHTS30_MIN_SIZE);
    }
    if (e == LAB_OK)
        e = weights30_weld(a, d);
    if (e == LAB_OK)
        e = weights30_skeleton_bones(a, &doc, skin, origin, d);
    /* the cost's measure, before any of it is spent: a distance (and, unseen, a ray) a vertex
     * and bone, a weight a vertex and joint in every table */
    double pairs = (double)a->vertex_count * (a->bone_count > a->joint_count ? a->bone_count : a->joint_count);
    if (e == LAB_OK && a->vertex_count > o->max_vertices) /* a compressed file decodes to many */
        e = diag_fail(d, LAB_ERR_LIMIT, path, "%d vertices (as decoded), over --max-vertices %d: bone heat's and the "
                      "biharmonic weights' factorisations grow faster than the mesh; raise it with --max-vertices N",
                      a->vertex_count, o->max_vertices);
    if (e == LAB_OK && pairs > o->max_pairs)
        e = diag_fail(d, LAB_ERR_LIMIT, path, "%d vertices x %d bones (%d joints) = %.0f vertex-bone pairs, over "
                      "--max-pairs %d: each pair is a distance, a ray where unseen and a weight in every table; "
                      "raise it with --max-pairs N, up to %d", a->vertex_count, a->bone_count, a->joint_count, pairs,
                      o->max_pairs, HEAT_MAX_PAIRS);
    /* (-L + M H) w_j = M H p_j (src/weights/heat.c): the paper's on the welded surface, back to every
     * vertex; Blender's on the vertices as its importer keeps them (split where glTF splits) */
    mesh own = {a->vertex_count, a->bind, a->triangle_count, a->triangles};
    if (e == LAB_OK)
        e = heat_solve(&a->welded, HEAT_PAPER, a->bones, a->bone_count, a->joint_count, o->heat_c, &a->heat[HEAT_PAPER], d);
    if (e == LAB_OK)
        e = heat_solve(&own, HEAT_BLENDER, a->bones, a->bone_count, a->joint_count, o->heat_c, &a->heat[HEAT_BLENDER], d);
    size_t cells = (size_t)a->vertex_count * a->joint_count;
    if (e == LAB_OK && !(a->artist = malloc(cells * sizeof *a->artist)))
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, path, "%zu weights", cells);
    for (int s = 0; e == LAB_OK && s < WEIGHTS30_AUTOMATIC; s++) {
        weights30_versus *x = &a->versus[s];
        x->weights = malloc(cells * sizeof *x->weights);
        x->cut = malloc(cells * sizeof *x->cut);
        x->joint_difference = malloc((size_t)a->joint_count * sizeof *x->joint_difference);
        if (!x->weights || !x->cut || !x->joint_difference)
            e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, path, "%zu weights", cells);
    }
    if (e == LAB_OK)
        e = weights30_artist_weights(a, &doc, d);
    for (int model = 0; e == LAB_OK && model < HEAT_MODELS; model++) {
        weights30_versus *x = &a->versus[weights30_set_of_model((heat_model)model) - 1];
        const int *vertex_of = model == HEAT_PAPER ? a->weld : NULL;
        double backward = 0.0;
        for (int j = 0; j < a->joint_count; j++)
            backward = max_or_nan(backward, a->heat[model].backward_error[j]); /* a NaN is a failed check */
        weights30_deforming_weights(a, &a->heat[model], vertex_of, x->weights);
        weights30_compare_weights(a, a->heat[model].solution, vertex_of, backward,
                                  model == HEAT_BLENDER ? a->heat[model].unseen : NULL, x);
    }
    /* bounded biharmonic weights on the welded surface, back to every vertex */
    weights30_versus *bbw = &a->versus[WEIGHTS30_BBW - 1];
    if (e == LAB_OK)
        e = weights30_asset_bbw(a, o->bbw_budget, d);
    if (e == LAB_ERR_LIMIT && a->bbw.over_budget && o->asset_in && o->asset_weights != WEIGHTS30_BBW - 1) {
        /* not the set --asset writes: the run goes on without it, and says why */
        snprintf(bbw->not_computed, sizeof bbw->not_computed, "%s", d ? d->value : "over --bbw-budget");
        e = LAB_OK;
    } else if (e == LAB_OK) {
        weights30_versus *x = bbw;
        for (int v = 0; v < a->vertex_count; v++)
            for (int j = 0; j < a->joint_count; j++)
                x->weights[(size_t)v * a->joint_count + j] = a->bbw.weights[(size_t)a->weld[v] * a->joint_count + j];
        weights30_compare_weights(a, a->bbw.weights, a->weld, a->bbw.backward_error, NULL, x);
    }
    /* each set cut to the K heaviest a vertex, as an engine's JOINTS_n / WEIGHTS_n hold them */
    for (int s = 0; e == LAB_OK && s < WEIGHTS30_AUTOMATIC; s++) {
        weights30_versus *x = &a->versus[s];
        if (x->not_computed[0])
            continue;
        for (int v = 0; v < a->vertex_count; v++) {
            size_t at = (size_t)v * a->joint_count;
            double total = 0.0;
            for (int j = 0; j < a->joint_count; j++)
                total += x->weights[at + j];
            x->over_k += weights_cut(x->weights + at, a->joint_count, a->influences, x->cut + at) > a->influences;
            for (int j = 0; j < a->joint_count && total > 0.0; j++)
                x->cut_weight_change = fmax(x->cut_weight_change, fabs(x->cut[at + j] - x->weights[at + j]));
        }
    }
    if (e == LAB_OK)
        e = weights30_over_animation(a, &doc, skin, ibm, d);
    if (e == LAB_OK)
        e = mesh_unique_edges(a->triangles, a->triangle_count, &a->edges, &a->edge_count, d);
    free(ibm), free(origin);
    gltf_free(&doc);
    if (e != LAB_OK)
        diag_prefix_where(d, "%s", a->name);
    return e;
}

void weights30_check_assets(const weights30 *r, report_checks *c)
{
    for (int i = 0; i < r->asset_count; i++) {
        const weights30_asset *a = &r->asset[i];
        for (int set = 1; set < WEIGHTS30_SETS; set++) {
            const weights30_versus *x = &a->versus[set - 1];
            if (x->not_computed[0]) /* no numbers, no checks: the report and the JSON say why */
                continue;
            if (set == WEIGHTS30_BBW) { /* the minimiser's optimality, two ways */
                check_bound(c, "KKT residual / max|Q_ik|, by Q", a->bbw.kkt, WEIGHTS30_KKT_TOLERANCE);
                check_bound(c, "the same by L (M^-1 (L w))", a->bbw_kkt_independent, WEIGHTS30_KKT_TOLERANCE);
            } else { /* bone heat's weights sum to 1 by the system's structure */
                check_bound(c, "max_i |sum_j w_ij - 1|", x->sum_error, RIG30_CHECK_TOLERANCE);
            }
            check_bound(c, "|Aw - b| / (|A| |w| + |b|)", x->backward_error, 1e-14);
        }
    }
}
