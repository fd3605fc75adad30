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

const char *weights30_set_name(weights30_set set)
{
    static const char *const names[WEIGHTS30_SETS] = {"hand", "heat", "blender", "bbw"};
    return names[set];
}

weights30_set weights30_set_of_model(heat30_model model)
{
    return model == HEAT30_BLENDER ? WEIGHTS30_BLENDER : WEIGHTS30_HEAT;
}

void weights30_asset_free(weights30_asset *a)
{
    free(a->bind), free(a->triangles), free(a->weld), free(a->edges), free(a->bones), free(a->artist);
    for (int k = 0; k < WEIGHTS30_AUTOMATIC; k++)
        free(a->versus[k].weights), free(a->versus[k].joint_difference), free(a->versus[k].cut);
    mesh_free(&a->welded);
    bbw30_result_free(&a->bbw);
    free(a->handle);
    for (int model = 0; model < HEAT30_MODELS; model++)
        heat30_result_free(&a->heat[model]);
    const char *name = a->name;
    int influences = a->influences;
    *a = (weights30_asset){.name = name, .influences = influences};
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
        else
            a->folded++;
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
    a->vertex_count = gltf_primitive_vertex_count(doc, n->mesh, 0);
    a->bind = malloc((size_t)a->vertex_count * sizeof *a->bind);
    if (!a->bind)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, a->name, "%d vertices", a->vertex_count);
    lab_error e = gltf_morph_primitive(doc, n->mesh, 0, NULL, a->bind, NULL, d);
    if (e != LAB_OK)
        return e;
    /* the surface by the primitive's mode: strips and fans become triangle lists, points and
     * lines are refused (gltf_primitive_triangles) */
    int *index = NULL;
    e = gltf_primitive_triangles(doc, n->mesh, 0, &index, &a->triangle_count, &a->repeated, d);
    a->triangles = e == LAB_OK ? malloc((size_t)a->triangle_count * sizeof *a->triangles + 1) : NULL; /* never malloc(0) */
    if (e == LAB_OK && !a->triangles)
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, a->name, "%d triangles", a->triangle_count);
    for (int t = 0; e == LAB_OK && t < a->triangle_count; t++)
        for (int k = 0; k < 3; k++)
            a->triangles[t].v[k] = index[3 * t + k];
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

/* Every automatic set and the artist's skinned by the library's one LBS blend at
 * WEIGHTS30_ASSET_TIMES times of the animation: joint matrices J_j = G(skin.joints[j])
 * IBM_j. The artist's weights are used divided by their sum (glTF stores them to float
 * precision); a vertex a set leaves weightless stays at its bind position, as in Blender. */
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
    double sum[WEIGHTS30_AUTOMATIC] = {0};
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
            for (int s = 0; s < WEIGHTS30_AUTOMATIC; s++) {
                weights30_versus *x = &a->versus[s];
                const double *h = x->weights + (size_t)v * J;
                double total = 0.0;
                for (int j = 0; j < J; j++)
                    total += h[j];
                vec4 ph = total > 0.0 ? skin_lbs_point(a->bind[v], slots, h, J, palette)
                                      : (vec4){a->bind[v].x, a->bind[v].y, a->bind[v].z, 1.0};
                vec4 pc = total > 0.0 ? skin_lbs_point(a->bind[v], slots, x->cut + (size_t)v * J, J, palette) : ph;
                x->cut_position_change = fmax(x->cut_position_change,
                                              vec3_length(vec3_sub(vec3_make(pc.x, pc.y, pc.z), vec3_make(ph.x, ph.y, ph.z))) /
                                                  a->size);
                double dist = vec3_length(vec3_sub(vec3_make(pa.x, pa.y, pa.z), vec3_make(ph.x, ph.y, ph.z))) / a->size;
                if (dist > x->max_position_difference)
                    x->max_position_difference = dist, x->max_position_time = t;
                sum[s] += dist;
            }
        }
    }
    for (int s = 0; s < WEIGHTS30_AUTOMATIC; s++)
        a->versus[s].mean_position_difference = sum[s] / ((double)WEIGHTS30_ASSET_TIMES * a->vertex_count);
    free(locals), free(world), free(palette), free(slots), free(artist);
    return e;
}

/* One automatic set against the artist's: its solution's checks (solution[vertex_of[v]]),
 * then its weights against the artist's, vertex by vertex. */
static void compare_weights(const weights30_asset *a, const double *solution, const int *vertex_of, double backward,
                            weights30_versus *x)
{
    int J = a->joint_count;
    double sum = 0.0;
    x->min_weight = INFINITY;
    x->backward_error = backward;
    for (int j = 0; j < J; j++)
        x->joint_difference[j] = 0.0;
    for (int v = 0; v < a->vertex_count; v++) {
        const double *s = solution + (size_t)(vertex_of ? vertex_of[v] : v) * J;
        const double *c = x->weights + (size_t)v * J, *w = a->artist + (size_t)v * J;
        double worst = 0.0, total = 0.0, kept = 0.0;
        for (int j = 0; j < J; j++) {
            double diff = fabs(c[j] - w[j]);
            total += s[j], kept += c[j];
            x->min_weight = fmin(x->min_weight, s[j]);
            x->negative_count += s[j] < -1e-12;
            x->joint_difference[j] += diff / a->vertex_count;
            if (diff > worst)
                worst = diff;
            if (diff > x->max_weight_difference)
                x->max_weight_difference = diff, x->max_weight_vertex = v, x->max_weight_joint = j;
        }
        x->weightless += !(kept > 0.0);
        x->sum_error = fmax(x->sum_error, fabs(total - 1.0));
        sum += worst;
    }
    x->mean_weight_difference = sum / a->vertex_count;
}

lab_error weights30_kkt_by_products(const sparse_triplets *L, const double *mass, const int *handle, const double *raw,
                                    int joint_count, double scale, double *out, lab_diag *d)
{
    int n = L->n;
    double *w = malloc(((size_t)n + 1) * sizeof *w), *y = malloc(((size_t)n + 1) * sizeof *y);
    double *g = malloc(((size_t)n + 1) * sizeof *g), kkt = 0.0;
    if (!w || !y || !g) {
        free(w), free(y), free(g);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "the KKT residual by products", "%d vertices", n);
    }
    for (int j = 0; j < joint_count; j++) {
        for (int i = 0; i < n; i++)
            w[i] = raw[(size_t)i * joint_count + j];
        sparse_multiply(L, w, y);                        /* y = L w */
        for (int i = 0; i < n; i++)
            y[i] = mass[i] > 0.0 ? y[i] / mass[i] : 0.0; /* M^-1 L w */
        sparse_multiply(L, y, g);                        /* g = L M^-1 L w */
        for (int i = 0; i < n; i++) {
            if (handle[i] >= 0)
                continue;
            double r = (w[i] == 0.0 ? fmax(0.0, -g[i]) : w[i] == 1.0 ? fmax(0.0, g[i]) : fabs(g[i])) / scale;
            kkt = fmax(kkt, fmax(r, fmax(-w[i], w[i] - 1.0)));
        }
    }
    free(w), free(y), free(g);
    *out = kkt;
    return LAB_OK;
}

lab_error weights30_asset_bbw(weights30_asset *a, lab_diag *d)
{
    const mesh *m = &a->welded;
    int n = m->vertex_count, J = a->joint_count;
    double *mass = malloc(((size_t)n + 1) * sizeof *mass), *dist = malloc(((size_t)n + 1) * sizeof *dist);
    double *nearest = malloc(((size_t)J + 1) * sizeof *nearest);
    int *joint = malloc(((size_t)n + 1) * sizeof *joint);
    a->handle = malloc(((size_t)n + 1) * sizeof *a->handle);
    sparse_triplets L = {0};
    lab_error e = mass && dist && nearest && joint && a->handle
                      ? heat30_laplacian(m, HEAT30_PAPER, &L, mass, NULL, d)
                      : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "biharmonic weights", "%d vertices", n);
    /* handles: each vertex's nearest joint (by its bones), and for each joint the vertices
     * within 1.1 times the nearest one's distance; a vertex no triangle uses is a handle
     * of its nearest joint (it is not on the surface the energy is measured over) */
    for (int j = 0; e == LAB_OK && j < J; j++)
        nearest[j] = INFINITY;
    for (int i = 0; e == LAB_OK && i < n; i++) {
        dist[i] = INFINITY, joint[i] = -1;
        for (int b = 0; b < a->bone_count; b++) {
            double x = heat30_segment_distance(m->vertices[i], a->bones[b], NULL);
            if (x < dist[i])
                dist[i] = x, joint[i] = a->bones[b].joint;
        }
        nearest[joint[i]] = fmin(nearest[joint[i]], dist[i]);
    }
    a->handle_count = 0;
    for (int i = 0; e == LAB_OK && i < n; i++) {
        bool handle = dist[i] <= 1.1 * nearest[joint[i]] || !(mass[i] > 0.0);
        a->handle[i] = handle ? joint[i] : -1;
        a->handle_count += handle;
    }
    /* min 1/2 w_j^T L M^-1 L w_j, 0 <= w <= 1, by active sets (bbw30.c) */
    if (e == LAB_OK)
        e = bbw30_solve(&L, mass, a->handle, J, true, &a->bbw, d);
    if (e == LAB_OK)
        e = weights30_kkt_by_products(&L, mass, a->handle, a->bbw.raw, J, a->bbw.q_scale, &a->bbw_kkt_independent, d);
    sparse_free(&L);
    free(mass), free(dist), free(nearest), free(joint);
    return e;
}

int weights30_cut(const double *w, int J, int K, double *out)
{
    int nonzero = 0;
    double sum = 0.0;
    for (int j = 0; j < J; j++) {
        out[j] = 0.0;
        nonzero += w[j] != 0.0;
    }
    for (int k = 0; k < K; k++) { /* the heaviest not yet taken, the lower joint on a tie */
        int best = -1;
        for (int j = 0; j < J; j++)
            if (out[j] == 0.0 && w[j] > 0.0 && (best < 0 || w[j] > w[best]))
                best = j;
        if (best < 0)
            break;
        out[best] = w[best], sum += w[best];
    }
    for (int j = 0; j < J && sum > 0.0; j++)
        out[j] /= sum;
    return nonzero;
}



/* The Khronos samples in assets/ (CC BY 4.0, (c) 2017 Cesium): bone heat from each one's
 * bind mesh and skeleton, beside the weights its artist painted (weights30_assets.c). */
/* A model's weights as the set deforms with them: the paper's as solved (through the
 * weld), Blender's cut and divided by their sum (zero where the cut leaves nothing). */
static void deforming_weights(const weights30_asset *a, const heat30_result *h, const int *vertex_of, double *out)
{
    int J = a->joint_count;
    for (int v = 0; v < a->vertex_count; v++) {
        const double *w = h->weights + (size_t)(vertex_of ? vertex_of[v] : v) * J;
        double total = 0.0;
        for (int j = 0; j < J; j++)
            total += w[j];
        for (int j = 0; j < J; j++)
            out[(size_t)v * J + j] = h->model == HEAT30_BLENDER ? (total > 0.0 ? w[j] / total : 0.0) : w[j];
    }
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
    if (e == LAB_OK)
        a->mesh = doc.nodes[node].mesh;
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
    /* (-L + M H) w_j = M H p_j (heat30.c): the paper's on the welded surface, back to every
     * vertex; Blender's on the vertices as its importer keeps them (split where glTF splits) */
    mesh own = {a->vertex_count, a->bind, a->triangle_count, a->triangles};
    if (e == LAB_OK)
        e = heat30_solve(&a->welded, HEAT30_PAPER, a->bones, a->bone_count, a->joint_count, c, &a->heat[HEAT30_PAPER], d);
    if (e == LAB_OK)
        e = heat30_solve(&own, HEAT30_BLENDER, a->bones, a->bone_count, a->joint_count, c, &a->heat[HEAT30_BLENDER], d);
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
        e = artist_weights(a, &doc, doc.nodes[node].mesh, d);
    for (int model = 0; e == LAB_OK && model < HEAT30_MODELS; model++) {
        weights30_versus *x = &a->versus[weights30_set_of_model((heat30_model)model) - 1];
        const int *vertex_of = model == HEAT30_PAPER ? a->weld : NULL;
        double backward = 0.0;
        for (int j = 0; j < a->joint_count; j++)
            backward = fmax(backward, a->heat[model].backward_error[j]);
        deforming_weights(a, &a->heat[model], vertex_of, x->weights);
        compare_weights(a, a->heat[model].solution, vertex_of, backward, x);
    }
    /* bounded biharmonic weights on the welded surface, back to every vertex */
    if (e == LAB_OK)
        e = weights30_asset_bbw(a, d);
    if (e == LAB_OK) {
        weights30_versus *x = &a->versus[WEIGHTS30_BBW - 1];
        for (int v = 0; v < a->vertex_count; v++)
            for (int j = 0; j < a->joint_count; j++)
                x->weights[(size_t)v * a->joint_count + j] = a->bbw.weights[(size_t)a->weld[v] * a->joint_count + j];
        compare_weights(a, a->bbw.weights, a->weld, a->bbw.backward_error, x);
    }
    /* each set cut to the K heaviest a vertex, as an engine's JOINTS_n / WEIGHTS_n hold them */
    for (int s = 0; e == LAB_OK && s < WEIGHTS30_AUTOMATIC; s++) {
        weights30_versus *x = &a->versus[s];
        for (int v = 0; v < a->vertex_count; v++) {
            size_t at = (size_t)v * a->joint_count;
            double total = 0.0;
            for (int j = 0; j < a->joint_count; j++)
                total += x->weights[at + j];
            x->over_k += weights30_cut(x->weights + at, a->joint_count, a->influences, x->cut + at) > a->influences;
            for (int j = 0; j < a->joint_count && total > 0.0; j++)
                x->cut_weight_change = fmax(x->cut_weight_change, fabs(x->cut[at + j] - x->weights[at + j]));
        }
    }
    if (e == LAB_OK) {

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
