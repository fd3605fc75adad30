/* gltf30_check.c - lab30-gltf's checks (see gltf30.h): what the report compares, each
 * computed apart from what it checks. The weight sums from the stored influences; the
 * positions' finiteness; the sampler against the keys it read back (the accessors, not the
 * sampler); the rest pose skinned against the mesh's own positions where the joint
 * matrices are the identity. */
#include "gltf30.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "gltf/gltf.h"
#include "math/linalg.h"
#include "math/quat.h"
#include "skin/influences.h"

/* Weight sums as skinned: the stored sums (strict), or the sums after dividing each weight
 * by its vertex's sum (normalize), over every skinned part's vertices. */
static lab_error check_weights(const gltf30 *r, gltf30_checks *c, lab_diag *d)
{
    for (int p = 0; p < r->part_count; p++) {
        if (!r->parts[p].skinned)
            continue;
        skin_influences in;
        lab_error e = gltf_primitive_influences(&r->doc, r->parts[p].mesh, r->parts[p].primitive, &in, d);
        if (e != LAB_OK)
            return e;
        for (int v = 0; v < in.vertex_count; v++) {
            double sum = 0.0, divided = 0.0;
            for (int k = 0; k < in.per_vertex; k++)
                sum += in.weight[(size_t)v * in.per_vertex + k];
            for (int k = 0; k < in.per_vertex && sum > 0.0; k++)
                divided += in.weight[(size_t)v * in.per_vertex + k] / sum;
            double as_skinned = r->options.policy == SKIN_POLICY_NORMALIZE ? divided : sum;
            c->weight_deviation = fmax(c->weight_deviation, fabs(as_skinned - 1.0));
            c->weight_vertices++;
        }
        /* strict: glTF's 2e-7 a weight component (as gltf_skin_primitive takes it); normalize: rounding */
        double bound = r->options.policy == SKIN_POLICY_NORMALIZE ? 1e-12 : 2e-7 * in.per_vertex;
        c->weight_bound = fmax(c->weight_bound, bound);
        skin_influences_free(&in);
    }
    return LAB_OK;
}

/* The sampled positions hold no NaN or infinity. */
static void check_finite(const gltf30 *r, gltf30_checks *c)
{
    for (int k = 0; k < r->time_count; k++)
        for (int p = 0; p < r->part_count; p++)
            for (int v = 0; v < r->parts[p].vertex_count; v++) {
                vec3 q = r->at[k].positions[p][v];
                c->not_finite += !isfinite(q.x) + !isfinite(q.y) + !isfinite(q.z);
                c->coordinates += 3;
            }
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The key at time t in a sampler's input (n increasing times), or -1. */
static int key_at(const double *times, int n, double t)
{
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (times[mid] == t)
            return mid;
        if (times[mid] < t)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

/* How far node `node`'s local matrix L (its TRS at the key time) is from the key value v
 * of `path`, relative to max(1, |v|): translation, L's last column; scale, the lengths of
 * its first three columns; rotation, those columns divided by their lengths against the
 * key quaternion turning the axes. */
static double key_difference(mat4 L, gltf_path path, const double *v)
{
    double worst = 0.0;
    for (int j = 0; j < 3; j++) {
        vec3 column = vec3_make(L.m[0][j], L.m[1][j], L.m[2][j]);
        double length = vec3_length(column);
        if (path == GLTF_TRANSLATION)
            worst = fmax(worst, fabs(L.m[j][3] - v[j]) / fmax(1.0, fabs(v[j])));
        else if (path == GLTF_SCALE)
            worst = fmax(worst, fabs(length - fabs(v[j])) / fmax(1.0, fabs(v[j])));
        else if (length > 0.0) { /* quaternion stored x, y, z, w */
            quat q = quat_normalize((quat){v[3], v[0], v[1], v[2]});
            vec3 axis = vec3_make(j == 0, j == 1, j == 2), turned = quat_rotate(q, axis);
            worst = fmax(worst, vec3_length(vec3_sub(vec3_scale(column, 1.0 / length), turned)));
        }
    }
    return worst;
}

/* The sampler at its own key times: every channel of the sampled animation that has a key
 * at a time is compared there with that key, read back from the output accessor. At most
 * GLTF30_MAX_KEY_TIMES distinct times are sampled, spread over the keys. */
static lab_error check_keys(const gltf30 *r, gltf30_checks *c, lab_diag *d)
{
    if (r->animation < 0)
        return LAB_OK;
    const gltf_animation *a = &r->doc.animations[r->animation];
    int n = r->doc.node_count, total = 0;
    for (int s = 0; s < a->sampler_count; s++)
        total += r->doc.accessors[a->samplers[s].input].count;
    double **times = calloc((size_t)a->sampler_count + 1, sizeof *times), **values = calloc((size_t)a->sampler_count + 1, sizeof *values);
    double *all = malloc(sizeof(double) * (size_t)(total ? total : 1)), *weights = NULL;
    mat4 *locals = malloc(sizeof(mat4) * (size_t)(n ? n : 1));
    lab_error e = times && values && all && locals ? LAB_OK : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "keys", "%d", total);
    int distinct = 0, most_targets = 0;
    for (int s = 0, at = 0; e == LAB_OK && s < a->sampler_count; s++) {
        const gltf_accessor *in = &r->doc.accessors[a->samplers[s].input], *out = &r->doc.accessors[a->samplers[s].output];
        times[s] = malloc(sizeof(double) * (size_t)in->count);
        values[s] = malloc(sizeof(double) * (size_t)out->count * (size_t)out->components);
        e = times[s] && values[s] ? gltf_accessor_read(&r->doc, a->samplers[s].input, times[s], d)
                                  : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "keys", "sampler %d", s);
        if (e == LAB_OK)
            e = gltf_accessor_read(&r->doc, a->samplers[s].output, values[s], d);
        for (int k = 0; e == LAB_OK && k < in->count; k++)
            all[at++] = times[s][k];
    }
    for (int ch = 0; ch < a->channel_count; ch++)
        if (a->channels[ch].path == GLTF_MORPH_WEIGHTS && gltf_node_target_count(&r->doc, a->channels[ch].node) > most_targets)
            most_targets = gltf_node_target_count(&r->doc, a->channels[ch].node);
    if (e == LAB_OK && !(weights = malloc(sizeof(double) * (size_t)(most_targets ? most_targets : 1))))
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "morph weights", "%d", most_targets);
    if (e == LAB_OK) {
        qsort(all, (size_t)total, sizeof *all, compare_doubles);
        for (int k = 0; k < total; k++)
            if (k == 0 || all[k] != all[distinct - 1])
                all[distinct++] = all[k];
    }
    int step = distinct > GLTF30_MAX_KEY_TIMES ? (distinct + GLTF30_MAX_KEY_TIMES - 1) / GLTF30_MAX_KEY_TIMES : 1;
    for (int i = 0; e == LAB_OK && i < distinct; i += (i + step < distinct || i == distinct - 1) ? step : distinct - 1 - i) {
        double t = all[i];
        e = gltf_sample_locals(&r->doc, r->animation, t, locals, d);
        c->key_times++;
        for (int ch = 0; e == LAB_OK && ch < a->channel_count; ch++) {
            const gltf_channel *g = &a->channels[ch];
            const gltf_sampler *s = &a->samplers[g->sampler];
            int keys = r->doc.accessors[s->input].count, k = key_at(times[g->sampler], keys, t);
            if (k < 0)
                continue;
            int per = s->interpolation == GLTF_CUBICSPLINE ? 3 : 1, mid = per == 3 ? 1 : 0; /* the value, not a tangent */
            if (g->path == GLTF_MORPH_WEIGHTS) {
                int targets = gltf_node_target_count(&r->doc, g->node);
                e = gltf_sample_morph_weights(&r->doc, r->animation, t, g->node, weights, d);
                const double *key = values[g->sampler] + ((size_t)k * per + mid) * targets;
                for (int m = 0; e == LAB_OK && m < targets; m++)
                    c->key_difference = fmax(c->key_difference, fabs(weights[m] - key[m]) / fmax(1.0, fabs(key[m])));
            } else {
                int width = g->path == GLTF_ROTATION ? 4 : 3;
                const double *key = values[g->sampler] + ((size_t)k * per + mid) * width;
                c->key_difference = fmax(c->key_difference, key_difference(locals[g->node], g->path, key));
            }
            c->keys_checked++;
        }
    }
    for (int s = 0; times && values && s < a->sampler_count; s++)
        free(times[s]), free(values[s]);
    free(times), free(values), free(all), free(locals), free(weights);
    return e;
}

/* The bind-pose identity. At the rest pose each joint matrix is J_j = G_j IBM_j; where the
 * rest pose is the bind pose every J_j is the same matrix M (the identity, or one transform
 * the skin puts the whole mesh through: our export's turn from z up to y up, SimpleSkin's
 * offset), and then skinning with any weights that sum to 1 gives M p: the rest pose skinned
 * must be M applied to the mesh's own (morphed) positions. Where the J_j differ by more than
 * GLTF30_REST_TOLERANCE, the rest pose is not the bind pose, and the report says so. */
static lab_error check_bind_pose(const gltf30 *r, gltf30_checks *c, lab_diag *d)
{
    int n = r->doc.node_count;
    mat4 *locals = malloc(sizeof(mat4) * (size_t)(n ? n : 1)), *world = malloc(sizeof(mat4) * (size_t)(n ? n : 1));
    lab_error e = locals && world ? gltf_sample_locals(&r->doc, -1, 0.0, locals, d)
                                  : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "nodes", "%d", n);
    if (e == LAB_OK)
        e = gltf_world_matrices(&r->doc, locals, world, d);
    for (int p = 0; e == LAB_OK && p < r->part_count; p++) {
        const gltf30_part *part = &r->parts[p];
        if (!part->skinned)
            continue;
        const gltf_skin *skin = &r->doc.skins[r->doc.nodes[part->node].skin];
        double *ibm = malloc(sizeof(double) * 16 * (size_t)(skin->joint_count ? skin->joint_count : 1)), offset = 0.0;
        vec3 *skinned = malloc(sizeof(vec3) * (size_t)part->vertex_count), *mesh = malloc(sizeof(vec3) * (size_t)part->vertex_count);
        int targets = gltf_node_target_count(&r->doc, part->node);
        double *weights = malloc(sizeof(double) * (size_t)(targets ? targets : 1));
        e = ibm && skinned && mesh && weights ? LAB_OK : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "bind pose", "part %d", p);
        if (e == LAB_OK && skin->inverse_bind >= 0)
            e = gltf_accessor_read(&r->doc, skin->inverse_bind, ibm, d);
        mat4 common = mat4_identity();
        for (int j = 0; e == LAB_OK && j < skin->joint_count; j++) {
            mat4 inverse_bind = mat4_identity();
            for (int row = 0; skin->inverse_bind >= 0 && row < 4; row++)
                for (int col = 0; col < 4; col++) /* glTF stores matrices column by column */
                    inverse_bind.m[row][col] = ibm[16 * j + 4 * col + row];
            mat4 joint = mat4_mul(world[skin->joints[j]], inverse_bind);
            if (j == 0)
                common = joint;
            offset = fmax(offset, mat4_max_abs_diff(joint, common));
        }
        if (e == LAB_OK && offset > GLTF30_REST_TOLERANCE) { /* not a bind pose: nothing to compare */
            c->rest_offset = fmax(c->rest_offset, offset);
            c->rest_parts++;
        } else if (e == LAB_OK) {
            e = gltf_skin_at(&r->doc, -1, 0.0, part->node, part->primitive, (skin_method)r->options.method,
                             (skin_policy_kind)r->options.policy, skinned, weights, NULL, d);
            if (e == LAB_OK)
                e = gltf_morph_primitive(&r->doc, part->mesh, part->primitive, targets ? weights : NULL, mesh, NULL, d);
            double size = 0.0;
            for (int v = 0; e == LAB_OK && v < part->vertex_count; v++) {
                vec3 placed = mat4_transform_point(common, mesh[v]);
                c->bind_difference = fmax(c->bind_difference, vec3_length(vec3_sub(skinned[v], placed)));
                size = fmax(size, vec3_length(placed));
            }
            c->bind_bound = fmax(c->bind_bound, GLTF30_REST_TOLERANCE * (1.0 + size));
            c->bind_common = fmax(c->bind_common, mat4_max_abs_diff(common, mat4_identity()));
            c->bind_parts++;
        }
        free(ibm), free(skinned), free(mesh), free(weights);
    }
    free(locals), free(world);
    return e;
}

/* Decoded against the source: a POSITION accessor whose data was decoded from meshopt's
 * lossless codec must lie inside the min and max the file declares for it, which its writer
 * took from the data before compressing, within GLTF30_DECODED_TOLERANCE of the box's size.
 * A Draco stream quantizes inside itself, on a grid whose step the JSON does not declare
 * (up to half a step outside the box: 6.4e-06 on RiggedFigure at 14 bits): counted apart,
 * compared with the source by the tests instead (test_lab30_gltf_draco.c). */
static lab_error check_decoded(const gltf30 *r, gltf30_checks *c, lab_diag *d)
{
    for (int p = 0; p < r->part_count; p++) {
        int a = r->doc.meshes[r->parts[p].mesh].primitives[r->parts[p].primitive].position;
        const gltf_accessor *acc = &r->doc.accessors[a];
        if (!gltf_accessor_decoded(&r->doc, a) || !acc->has_bounds)
            continue;
        if (acc->from_draco) {
            c->draco_values += 3L * acc->count;
            continue;
        }
        double *v = malloc(sizeof(double) * 3 * (size_t)acc->count), size = 0.0;
        lab_error e = v ? gltf_accessor_read(&r->doc, a, v, d) : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "decoded", "%d", a);
        for (int k = 0; k < 3; k++)
            size = fmax(size, acc->max[k] - acc->min[k]);
        for (int i = 0; e == LAB_OK && i < acc->count; i++)
            for (int k = 0; k < 3; k++)
                c->decoded_excursion = fmax(c->decoded_excursion, fmax(acc->min[k] - v[3 * i + k], v[3 * i + k] - acc->max[k]));
        c->decoded_bound = fmax(c->decoded_bound, GLTF30_DECODED_TOLERANCE * fmax(size, 1e-30));
        c->decoded_values += 3L * acc->count;
        free(v);
        if (e != LAB_OK)
            return e;
    }
    return LAB_OK;
}

/* The verdicts, in the report's order: the weight sums as skinned, the non-finite
 * coordinates, the sampler at its keys, the rest pose, the decoded positions. */
static void decide(const gltf30_checks *c, report_checks *v)
{
    char label[96];
    if (c->weight_vertices) {
        snprintf(label, sizeof label, "weight sums as skinned: max |W - 1| (%ld vertices)", c->weight_vertices);
        check_bound(v, label, c->weight_deviation, c->weight_bound);
    }
    snprintf(label, sizeof label, "non-finite coordinates (%ld sampled)", c->coordinates);
    check_count(v, label, c->not_finite, 0);
    if (c->keys_checked) {
        snprintf(label, sizeof label, "sampler at its keys: max rel. diff (%d keys, %d times)", c->keys_checked,
                 c->key_times);
        check_bound(v, label, c->key_difference, GLTF30_KEY_TOLERANCE);
    }
    if (c->bind_parts) { /* every J_j = M at rest: skinning must give M p */
        snprintf(label, sizeof label, "rest pose skinned vs M p: max distance (%d parts)", c->bind_parts);
        check_bound(v, label, c->bind_difference, c->bind_bound);
    }
    if (c->decoded_values) { /* compressed data decoded: against the bounds its writer declared */
        snprintf(label, sizeof label, "decoded POSITION outside its declared min/max (%ld values)", c->decoded_values);
        check_bound(v, label, max_or_nan(c->decoded_excursion, 0.0), c->decoded_bound);
    }
}

lab_error gltf30_check(const gltf30 *r, gltf30_checks *c, report_checks *verdicts, lab_diag *d)
{
    *c = (gltf30_checks){0};
    check_finite(r, c);
    lab_error e = check_weights(r, c, d);
    if (e == LAB_OK)
        e = check_keys(r, c, d);
    if (e == LAB_OK)
        e = check_bind_pose(r, c, d);
    if (e == LAB_OK)
        e = check_decoded(r, c, d);
    if (e == LAB_OK)
        decide(c, verdicts);
    return e;
}
