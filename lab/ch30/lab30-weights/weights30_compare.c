/* weights30_compare.c - an asset's automatic weight sets against its artist's: the weights
 * side by side, each set as it deforms (Blender's divided by their sum), skinned over the
 * animation, and cut to the K influences an engine keeps (see weights30.h;
 * weights30_assets.c runs them). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "gltf/gltf.h"
#include "math/linalg.h"
#include "mesh/mesh.h"
#include "skin/blend.h"
#include "skin/influences.h"
#include "solve/sparse.h"

#include "weights/bbw.h"
#include "weights/cut.h"
#include "weights/heat.h"
#include "weights30.h"

/* The artist's weights as a dense vertex x joint table (slots index skin.joints), part by part. */
lab_error weights30_artist_weights(weights30_asset *a, const gltf_document *doc, lab_diag *d)
{
    for (size_t i = 0; i < (size_t)a->vertex_count * a->joint_count; i++)
        a->artist[i] = 0.0;
    for (int p = 0; p < a->part_count; p++) {
        skin_influences in;
        lab_error e = gltf_primitive_influences(doc, a->parts[p].mesh, a->parts[p].primitive, &in, d);
        if (e != LAB_OK)
            return e;
        for (int v = 0; v < in.vertex_count; v++)
            for (int k = 0; k < in.per_vertex; k++)
                a->artist[(size_t)(a->part_first[p] + v) * a->joint_count + in.joint[v * in.per_vertex + k]] +=
                    in.weight[v * in.per_vertex + k];
        skin_influences_free(&in);
    }
    return LAB_OK;
}

/* Dense rows of J weights as lists of their nonzero ones, joint order kept: row v's are
 * joint / weight [start[v], start[v + 1]). The blend over a list is the blend over the row
 * (a zero weight adds nothing), and costs what the vertex's influences cost, not J. */
typedef struct {
    int n, count, capacity;
    int *start, *joint;
    double *weight;
} weight_lists;

static void weight_lists_free(weight_lists *l)
{
    free(l->start), free(l->joint), free(l->weight);
    *l = (weight_lists){0};
}

static lab_error weight_lists_init(weight_lists *l, int n, lab_diag *d)
{
    *l = (weight_lists){.n = 0, .capacity = n + 1};
    l->start = malloc(((size_t)n + 1) * sizeof *l->start);
    l->joint = malloc((size_t)l->capacity * sizeof *l->joint);
    l->weight = malloc((size_t)l->capacity * sizeof *l->weight);
    if (!l->start || !l->joint || !l->weight) {
        weight_lists_free(l);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "weights over the animation", "%d vertices", n);
    }
    l->start[0] = 0;
    return LAB_OK;
}

/* The next row's nonzero weights, each times scale. */
static lab_error weight_lists_add(weight_lists *l, const double *row, int J, double scale, lab_diag *d)
{
    for (int j = 0; j < J; j++) {
        if (row[j] == 0.0)
            continue;
        if (l->count == l->capacity) {
            int grown = l->capacity * 2;
            int *joint = realloc(l->joint, (size_t)grown * sizeof *joint);
            if (joint)
                l->joint = joint;
            double *weight = joint ? realloc(l->weight, (size_t)grown * sizeof *weight) : NULL;
            if (!weight)
                return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "weights over the animation", "%d influences", grown);
            l->weight = weight, l->capacity = grown;
        }
        l->joint[l->count] = j;
        l->weight[l->count++] = scale == 1.0 ? row[j] : row[j] / scale;
    }
    l->start[++l->n] = l->count;
    return LAB_OK;
}

static vec4 lbs_list(vec3 p, const weight_lists *l, int v, const mat4 *palette)
{
    return skin_lbs_point(p, l->joint + l->start[v], l->weight + l->start[v], l->start[v + 1] - l->start[v], palette);
}

/* Every automatic set and the artist's skinned by the library's one LBS blend at
 * WEIGHTS30_ASSET_TIMES times of the animation: joint matrices J_j = G(skin.joints[j])
 * IBM_j. The artist's weights are used divided by their sum (glTF stores them to float
 * precision); a vertex a set leaves weightless stays at its bind position, as in Blender. */
lab_error weights30_over_animation(weights30_asset *a, const gltf_document *doc, const gltf_skin *skin,
                                const double *ibm, lab_diag *d)
{
    int J = a->joint_count, N = doc->node_count, n = a->vertex_count;
    mat4 *locals = malloc((size_t)N * sizeof *locals), *world = malloc((size_t)N * sizeof *world);
    mat4 *palette = malloc((size_t)J * sizeof *palette);
    double *first = malloc((size_t)J * sizeof *first);
    bool *weightless = calloc((size_t)n * WEIGHTS30_AUTOMATIC + 1, sizeof *weightless);
    /* each vertex's influences, once: the artist's divided by their sum, and per set its
     * weights, their cut and (K = 8) the first set of the cut divided by its sum */
    weight_lists artist = {0}, set[WEIGHTS30_AUTOMATIC][3] = {{{0}}};
    lab_error e = locals && world && palette && first && weightless
                      ? weight_lists_init(&artist, n, d)
                      : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, a->name, "%d nodes", N);
    for (int v = 0; e == LAB_OK && v < n; v++) {
        const double *w = a->artist + (size_t)v * J;
        double W = 0.0;
        for (int j = 0; j < J; j++)
            W += w[j];
        e = weight_lists_add(&artist, w, J, W, d);
    }
    for (int s = 0; e == LAB_OK && s < WEIGHTS30_AUTOMATIC; s++) {
        const weights30_versus *x = &a->versus[s];
        for (int k = 0; e == LAB_OK && k < 3; k++)
            e = x->not_computed[0] ? LAB_OK : weight_lists_init(&set[s][k], n, d);
        for (int v = 0; e == LAB_OK && !x->not_computed[0] && v < n; v++) {
            const double *h = x->weights + (size_t)v * J, *cut = x->cut + (size_t)v * J;
            double total = 0.0;
            for (int j = 0; j < J; j++)
                total += h[j];
            weightless[(size_t)v * WEIGHTS30_AUTOMATIC + s] = !(total > 0.0);
            weights_cut(cut, J, 4, first); /* what an engine that reads the first set only takes */
            e = weight_lists_add(&set[s][0], h, J, 1.0, d);
            if (e == LAB_OK)
                e = weight_lists_add(&set[s][1], cut, J, 1.0, d);
            if (e == LAB_OK)
                e = weight_lists_add(&set[s][2], first, J, 1.0, d);
        }
    }
    if (e == LAB_OK)
        e = gltf_animation_range(doc, doc->animation_count > 0 ? 0 : -1, &a->t0, &a->t1, d);
    double sum[WEIGHTS30_AUTOMATIC] = {0};
    for (int s = 0; s < WEIGHTS30_AUTOMATIC; s++) /* none unless a second set is written */
        a->versus[s].first_set_change = a->influences > 4 ? 0.0 : NAN;
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
        for (int v = 0; e == LAB_OK && v < n; v++) {
            vec4 pa = lbs_list(a->bind[v], &artist, v, palette);
            for (int s = 0; s < WEIGHTS30_AUTOMATIC; s++) {
                weights30_versus *x = &a->versus[s];
                if (x->not_computed[0])
                    continue;
                bool none = weightless[(size_t)v * WEIGHTS30_AUTOMATIC + s]; /* Blender: left at the bind pose */
                vec4 ph = none ? (vec4){a->bind[v].x, a->bind[v].y, a->bind[v].z, 1.0}
                               : lbs_list(a->bind[v], &set[s][0], v, palette);
                vec4 pc = none ? ph : lbs_list(a->bind[v], &set[s][1], v, palette);
                x->cut_position_change = fmax(x->cut_position_change,
                                              vec3_length(vec3_sub(vec3_make(pc.x, pc.y, pc.z), vec3_make(ph.x, ph.y, ph.z))) /
                                                  a->size);
                if (a->influences > 4 && !none) { /* an engine that reads the first set only */
                    vec4 pf = lbs_list(a->bind[v], &set[s][2], v, palette);
                    x->first_set_change = max_or_nan(
                        x->first_set_change,
                        vec3_length(vec3_sub(vec3_make(pf.x, pf.y, pf.z), vec3_make(pc.x, pc.y, pc.z))) / a->size);
                }
                double dist = vec3_length(vec3_sub(vec3_make(pa.x, pa.y, pa.z), vec3_make(ph.x, ph.y, ph.z))) / a->size;
                if (dist > x->max_position_difference)
                    x->max_position_difference = dist, x->max_position_time = t;
                sum[s] += dist;
            }
        }
    }
    for (int s = 0; s < WEIGHTS30_AUTOMATIC; s++)
        a->versus[s].mean_position_difference = sum[s] / ((double)WEIGHTS30_ASSET_TIMES * a->vertex_count);
    weight_lists_free(&artist);
    for (int s = 0; s < WEIGHTS30_AUTOMATIC; s++)
        for (int k = 0; k < 3; k++)
            weight_lists_free(&set[s][k]);
    free(locals), free(world), free(palette), free(first), free(weightless);
    return e;
}

/* One automatic set against the artist's: its solution's checks (solution[vertex_of[v]]),
 * then its weights against the artist's, vertex by vertex. */
void weights30_compare_weights(const weights30_asset *a, const double *solution, const int *vertex_of, double backward,
                            const unsigned char *unweighted, weights30_versus *x)
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
        if (!(unweighted && unweighted[vertex_of ? vertex_of[v] : v])) /* by the model's design: none */
            x->sum_error = max_or_nan(x->sum_error, fabs(total - 1.0));
        sum += worst;
    }
    x->mean_weight_difference = sum / a->vertex_count;
}

/* A model's weights as the set deforms with them: the paper's as solved (through the
 * weld), Blender's cut and divided by their sum (zero where the cut leaves nothing). */
void weights30_deforming_weights(const weights30_asset *a, const heat_result *h, const int *vertex_of, double *out)
{
    int J = a->joint_count;
    for (int v = 0; v < a->vertex_count; v++) {
        const double *w = h->weights + (size_t)(vertex_of ? vertex_of[v] : v) * J;
        double total = 0.0;
        for (int j = 0; j < J; j++)
            total += w[j];
        for (int j = 0; j < J; j++)
            out[(size_t)v * J + j] = h->model == HEAT_BLENDER ? (total > 0.0 ? w[j] / total : 0.0) : w[j];
    }
}

/* The Khronos samples in assets/ (CC BY 4.0, (c) 2017 Cesium): bone heat from each one's
 * bind mesh and skeleton, beside the weights its artist painted (weights30_assets.c). */
