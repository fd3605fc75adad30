/* gltf_sample.c - the glTF reader, part 3: animations sampled at any time, the node
 * hierarchy evaluated, and skinned primitives (see gltf.h). */
#define _POSIX_C_SOURCE 200809L
#include "gltf/gltf_accessor.h"

#include <cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- animation and hierarchy ---------------------------------------------------------------- */

lab_error gltf_animation_range(const gltf_document *doc, int animation, double *start, double *end, lab_diag *d)
{
    *start = *end = 0.0;
    if (!doc->validated || animation < 0 || animation >= doc->animation_count)
        return LAB_OK;
    const gltf_animation *a = &doc->animations[animation];
    lab_error e = LAB_OK;
    for (int k = 0; e == LAB_OK && k < a->sampler_count; k++) {
        const gltf_accessor *in = &doc->accessors[a->samplers[k].input];
        double *t = malloc(sizeof(double) * (size_t)in->count);
        e = t ? gltf_accessor_read(doc, a->samplers[k].input, t, d)
              : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "animation input", "animation %d sampler %d, %d times", animation,
                          k, in->count);
        if (e == LAB_OK) { /* validated: at least one key, increasing */
            *start = k == 0 ? t[0] : fmin(*start, t[0]);
            *end = k == 0 ? t[in->count - 1] : fmax(*end, t[in->count - 1]);
        }
        free(t);
    }
    return e;
}

static mat4 trs_matrix(vec3 t, quat r, vec3 s)
{
    return mat4_mul(mat4_mul(mat4_translate(t.x, t.y, t.z), quat_to_mat4(quat_normalize(r))),
                    mat4_scale(s.x, s.y, s.z));
}

/* The sampler's value at t: n components (3 or 4) into out. Rotations are slerped (LINEAR)
 * or normalised after the cubic Hermite (CUBICSPLINE), as the specification asks. */
static void sample(const double *times, int keys, const double *values, int n, gltf_interpolation mode,
                   bool rotation, double t, double *out)
{
    int per = mode == GLTF_CUBICSPLINE ? 3 : 1, at = mode == GLTF_CUBICSPLINE ? 1 : 0;
    if (t <= times[0] || keys == 1) {
        memcpy(out, values + (size_t)at * n, sizeof(double) * (size_t)n);
        return;
    }
    if (t >= times[keys - 1]) {
        memcpy(out, values + ((size_t)(keys - 1) * per + at) * n, sizeof(double) * (size_t)n);
        return;
    }
    int k = 0;
    while (k + 1 < keys && times[k + 1] <= t)
        k++;
    double dt = times[k + 1] - times[k], u = (t - times[k]) / dt;
    const double *a = values + ((size_t)k * per + at) * n, *b = values + ((size_t)(k + 1) * per + at) * n;
    if (mode == GLTF_STEP) {
        memcpy(out, a, sizeof(double) * (size_t)n);
    } else if (mode == GLTF_LINEAR && rotation) {
        /* keys normalised first: stored quaternions are often a little off unit length */
        quat q = quat_slerp(quat_normalize((quat){a[3], a[0], a[1], a[2]}),
                            quat_normalize((quat){b[3], b[0], b[1], b[2]}), u);
        out[0] = q.x, out[1] = q.y, out[2] = q.z, out[3] = q.w;
    } else if (mode == GLTF_LINEAR) {
        for (int c = 0; c < n; c++)
            out[c] = a[c] + u * (b[c] - a[c]);
    } else { /* Hermite with the out-tangent of k and the in-tangent of k + 1, scaled by dt */
        const double *out_tangent = a + n, *in_tangent = b - n;
        double u2 = u * u, u3 = u2 * u;
        for (int c = 0; c < n; c++)
            out[c] = (2 * u3 - 3 * u2 + 1) * a[c] + (u3 - 2 * u2 + u) * dt * out_tangent[c] +
                     (-2 * u3 + 3 * u2) * b[c] + (u3 - u2) * dt * in_tangent[c];
        if (rotation) {
            quat q = quat_normalize((quat){out[3], out[0], out[1], out[2]});
            out[0] = q.x, out[1] = q.y, out[2] = q.z, out[3] = q.w;
        }
    }
}

static lab_error apply_channel(const gltf_document *doc, const gltf_animation *a, const gltf_channel *c,
                               double t, vec3 *tr, quat *rot, vec3 *sc, lab_diag *d)
{
    const gltf_sampler *s = &a->samplers[c->sampler];
    int keys = doc->accessors[s->input].count, n = c->path == GLTF_ROTATION ? 4 : 3;
    double *times = malloc(sizeof(double) * (size_t)keys);
    double *values = malloc(sizeof(double) * (size_t)doc->accessors[s->output].count * (size_t)n);
    lab_error e = (times && values) ? gltf_accessor_read(doc, s->input, times, d)
                                    : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "(animation)", "%d keys", keys);
    if (e == LAB_OK)
        e = gltf_accessor_read(doc, s->output, values, d);
    double v[4];
    if (e == LAB_OK) {
        sample(times, keys, values, n, s->interpolation, c->path == GLTF_ROTATION, t, v);
        if (c->path == GLTF_TRANSLATION) *tr = vec3_make(v[0], v[1], v[2]);
        else if (c->path == GLTF_SCALE) *sc = vec3_make(v[0], v[1], v[2]);
        else *rot = quat_normalize((quat){v[3], v[0], v[1], v[2]});
    }
    free(times), free(values);
    return e;
}

int gltf_node_target_count(const gltf_document *doc, int node)
{
    int mesh = node >= 0 && node < doc->node_count ? doc->nodes[node].mesh : -1;
    return mesh >= 0 ? doc->meshes[mesh].primitives[0].target_count : 0;
}

lab_error gltf_sample_morph_weights(const gltf_document *doc, int animation, double t, int node, double *out,
                                    lab_diag *d)
{
    if (!doc->validated)
        return gltf_fail_at(d, "(document)", "sampled before validation");
    int n = gltf_node_target_count(doc, node);
    const gltf_node *nd = &doc->nodes[node];
    const double *defaults = nd->weights ? nd->weights : n ? doc->meshes[nd->mesh].weights : NULL;
    for (int k = 0; k < n; k++)
        out[k] = defaults ? defaults[k] : 0.0;
    if (n == 0 || animation < 0 || animation >= doc->animation_count)
        return LAB_OK;
    const gltf_animation *a = &doc->animations[animation];
    lab_error e = LAB_OK;
    for (int c = 0; e == LAB_OK && c < a->channel_count; c++) {
        const gltf_channel *ch = &a->channels[c];
        if (ch->path != GLTF_MORPH_WEIGHTS || ch->node != node)
            continue;
        const gltf_sampler *s = &a->samplers[ch->sampler];
        int keys = doc->accessors[s->input].count;
        double *times = malloc(sizeof(double) * (size_t)keys);
        double *values = malloc(sizeof(double) * (size_t)doc->accessors[s->output].count);
        e = times && values ? gltf_accessor_read(doc, s->input, times, d)
                            : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "(animation)", "%d keys", keys);
        if (e == LAB_OK)
            e = gltf_accessor_read(doc, s->output, values, d);
        if (e == LAB_OK) /* each key holds n weights: sampled as one n-vector */
            sample(times, keys, values, n, s->interpolation, false, t, out);
        free(times), free(values);
    }
    return e;
}

lab_error gltf_morph_primitive(const gltf_document *doc, int mesh, int primitive, const double *weights,
                               vec3 *positions, vec3 *normals, lab_diag *d)
{
    const gltf_primitive *p = &doc->meshes[mesh].primitives[primitive];
    if (normals && p->normal < 0)
        return gltf_fail_at(d, "(primitive)", "mesh %d primitive %d has no NORMAL", mesh, primitive);
    int n = doc->accessors[p->position].count;
    double *base = malloc(sizeof(double) * 3 * (size_t)(n ? n : 1)), *delta = malloc(sizeof(double) * 3 * (size_t)(n ? n : 1));
    lab_error e = base && delta ? LAB_OK : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "(morph)", "%d vertices", n);
    for (int k = 0; e == LAB_OK && k < (normals ? 2 : 1); k++) {
        vec3 *out = k == 0 ? positions : normals;
        e = gltf_accessor_read(doc, k == 0 ? p->position : p->normal, base, d);
        for (int t = 0; e == LAB_OK && weights && t < p->target_count; t++) {
            int a = k == 0 ? p->targets[t].position : p->targets[t].normal;
            if (a < 0 || weights[t] == 0.0)
                continue;
            e = gltf_accessor_read(doc, a, delta, d);
            for (int i = 0; e == LAB_OK && i < 3 * n; i++)
                base[i] += weights[t] * delta[i]; /* the base plus each weighted delta */
        }
        for (int v = 0; e == LAB_OK && v < n; v++) {
            out[v] = vec3_make(base[3 * v], base[3 * v + 1], base[3 * v + 2]);
            if (!vec3_is_finite(out[v])) { /* finite parts, too large a sum */
                char at[96];
                snprintf(at, sizeof at, "mesh %d primitive %d vertex %d", mesh, primitive, v);
                e = diag_fail(d, LAB_ERR_NOT_FINITE, at, "morphed %s (%g, %g, %g): accessor %d plus its %d "
                              "weighted targets' deltas overflows", k == 0 ? "position" : "normal", out[v].x,
                              out[v].y, out[v].z, k == 0 ? p->position : p->normal, p->target_count);
            }
        }
    }
    free(base), free(delta);
    return e;
}

lab_error gltf_sample_locals(const gltf_document *doc, int animation, double t, mat4 *out, lab_diag *d)
{
    if (!doc->validated)
        return gltf_fail_at(d, "(document)", "sampled before validation");
    vec3 *tr = malloc(sizeof(vec3) * (size_t)(doc->node_count + 1)), *sc = malloc(sizeof(vec3) * (size_t)(doc->node_count + 1));
    quat *rot = malloc(sizeof(quat) * (size_t)(doc->node_count + 1));
    lab_error e = (tr && sc && rot) ? LAB_OK : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "(nodes)", "%d", doc->node_count);
    for (int i = 0; e == LAB_OK && i < doc->node_count; i++) {
        tr[i] = doc->nodes[i].translation;
        rot[i] = doc->nodes[i].rotation;
        sc[i] = doc->nodes[i].scale;
    }
    if (e == LAB_OK && animation >= 0 && animation < doc->animation_count) {
        const gltf_animation *a = &doc->animations[animation];
        for (int k = 0; e == LAB_OK && k < a->channel_count; k++) {
            const gltf_channel *c = &a->channels[k];
            if (c->path != GLTF_MORPH_WEIGHTS && !doc->nodes[c->node].has_matrix)
                e = apply_channel(doc, a, c, t, &tr[c->node], &rot[c->node], &sc[c->node], d);
        }
    }
    for (int i = 0; e == LAB_OK && i < doc->node_count; i++)
        out[i] = doc->nodes[i].has_matrix ? doc->nodes[i].matrix : trs_matrix(tr[i], rot[i], sc[i]);
    free(tr), free(sc), free(rot);
    return e;
}

lab_error gltf_world_matrices(const gltf_document *doc, const mat4 *locals, mat4 *out_world, lab_diag *d)
{
    if (!doc->validated)
        return gltf_fail_at(d, "(document)", "world matrices before validation");
    /* G_i = G_parent(i) L_i by the scene's own product (scene_world), over glTF's node
     * forest: validated acyclic, but listed in any order, so the order comes first. A node
     * is placed once its parent is; an unplaced node waits on the stack until its parent is
     * placed. The lab's matrix bounds are scene_evaluate's, not glTF's: none are applied. */
    const int n = doc->node_count;
    bool *done = calloc((size_t)n + 1, sizeof *done);
    int *stack = malloc(sizeof(int) * ((size_t)n + 1)), *order = malloc(sizeof(int) * ((size_t)n + 1)), placed = 0;
    scene_node *nodes = malloc(sizeof *nodes * ((size_t)n + 1));
    lab_error e = done && stack && order && nodes ? LAB_OK : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "(nodes)", "%d", n);
    for (int i = 0; e == LAB_OK && i < n; i++) {
        nodes[i] = (scene_node){NULL, doc->nodes[i].parent >= 0 ? doc->nodes[i].parent : SCENE_NO_PARENT, locals[i]};
        int top = 0;
        for (int p = i; p >= 0 && !done[p]; p = doc->nodes[p].parent)
            stack[top++] = p;
        while (top > 0) {
            order[placed++] = stack[--top];
            done[order[placed - 1]] = true;
        }
    }
    if (e == LAB_OK)
        scene_world(nodes, n, order, out_world);
    for (int i = 0; e == LAB_OK && i < doc->node_count; i++)
        if (gltf_first_not_finite(&out_world[i].m[0][0], 16) >= 0) {
            char at[64];
            snprintf(at, sizeof at, "/nodes/%d", i);
            e = diag_fail(d, LAB_ERR_NOT_FINITE, at, "%s", "its world matrix (the product of its ancestors' "
                          "transforms and its own) overflows");
        }
    free(done), free(stack), free(order), free(nodes);
    return e;
}

/* ---- skinning ---------------------------------------------------------------------------------- */

int gltf_primitive_vertex_count(const gltf_document *doc, int mesh, int primitive)
{
    return doc->accessors[doc->meshes[mesh].primitives[primitive].position].count;
}

const char *gltf_mode_name(gltf_mode mode)
{
    static const char *const names[] = {"POINTS", "LINES", "LINE_LOOP", "LINE_STRIP",
                                        "TRIANGLES", "TRIANGLE_STRIP", "TRIANGLE_FAN"};
    return (int)mode >= 0 && mode <= GLTF_TRIANGLE_FAN ? names[mode] : "unknown";
}

lab_error gltf_primitive_triangles(const gltf_document *doc, int mesh, int primitive, int **out, int *count,
                                   int *dropped, lab_diag *d)
{
    const gltf_primitive *p = &doc->meshes[mesh].primitives[primitive];
    char at[96];
    *out = NULL, *count = 0;
    if (p->mode < GLTF_TRIANGLES)
        return diag_fail(d, LAB_ERR_NOTHING_TO_DO, diag_where(at, sizeof at, "/meshes/%d/primitives/%d/mode", mesh, primitive),
                         "%d (%s): points and lines have no surface; this program reads TRIANGLES (4), "
                         "TRIANGLE_STRIP (5) and TRIANGLE_FAN (6)", (int)p->mode, gltf_mode_name(p->mode));
    int n = p->indices >= 0 ? doc->accessors[p->indices].count : gltf_primitive_vertex_count(doc, mesh, primitive);
    if (p->mode == GLTF_TRIANGLES && n % 3 != 0)
        return diag_fail(d, LAB_ERR_GLTF, diag_where(at, sizeof at, "/meshes/%d/primitives/%d/indices", mesh, primitive),
                         "%d vertices: TRIANGLES takes a multiple of 3", n);
    int triangles = p->mode == GLTF_TRIANGLES ? n / 3 : n >= 3 ? n - 2 : 0;
    double *v = malloc(((size_t)n + 1) * sizeof *v);
    *out = malloc(((size_t)triangles * 3 + 1) * sizeof **out);
    if (!v || !*out) {
        free(v), free(*out), *out = NULL;
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "triangles", "mesh %d primitive %d: %d indices", mesh, primitive, n);
    }
    lab_error e = LAB_OK;
    if (p->indices >= 0)
        e = gltf_accessor_read(doc, p->indices, v, d);
    else
        for (int i = 0; i < n; i++)
            v[i] = i;
    int kept = 0;
    for (int i = 0; e == LAB_OK && i < triangles; i++) {
        int *t = *out + 3 * (size_t)kept;
        if (p->mode == GLTF_TRIANGLES)
            t[0] = (int)v[3 * i], t[1] = (int)v[3 * i + 1], t[2] = (int)v[3 * i + 2];
        else if (p->mode == GLTF_TRIANGLE_STRIP)
            t[0] = (int)v[i], t[1] = (int)v[i + 1 + i % 2], t[2] = (int)v[i + 2 - i % 2];
        else
            t[0] = (int)v[i + 1], t[1] = (int)v[i + 2], t[2] = (int)v[0];
        kept += t[0] != t[1] && t[1] != t[2] && t[0] != t[2];
    }
    free(v);
    if (e != LAB_OK) {
        free(*out), *out = NULL;
        return e;
    }
    *count = kept;
    if (dropped)
        *dropped = triangles - kept;
    return LAB_OK;
}

/* J_j = G(skin.joints[j]) IBM_j, with identity IBMs when the skin has none (5.28.1). */
/* The skin's inverse bind matrices IBM_j, identity where the skin has none. */
static lab_error inverse_binds(const gltf_document *doc, const gltf_skin *s, mat4 *inverse_bind, lab_diag *d)
{
    double *ibm = NULL;
    if (s->inverse_bind >= 0) {
        ibm = malloc(sizeof(double) * 16 * (size_t)doc->accessors[s->inverse_bind].count);
        if (!ibm || gltf_accessor_read(doc, s->inverse_bind, ibm, d) != LAB_OK) {
            free(ibm);
            return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "(skin)", "%s", "inverse binds");
        }
    }
    for (int j = 0; j < s->joint_count; j++) { /* glTF stores them column-major */
        inverse_bind[j] = mat4_identity();
        for (int c = 0; ibm && c < 4; c++)
            for (int r = 0; r < 4; r++)
                inverse_bind[j].m[r][c] = ibm[16 * j + 4 * c + r];
    }
    free(ibm);
    return LAB_OK;
}

/* The primitive's influences, K = 4 per JOINTS_n / WEIGHTS_n set, into a new *out. */
static lab_error read_influences(const gltf_document *doc, const gltf_primitive *p, int n,
                                 skin_influences *out, lab_diag *d)
{
    int k = 4 * p->sets;
    lab_error e = skin_influences_init(out, n, k, d);
    double *joints = malloc(sizeof(double) * 4 * (size_t)(n ? n : 1));
    double *weights = malloc(sizeof(double) * 4 * (size_t)(n ? n : 1));
    if (e == LAB_OK && (!joints || !weights))
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "(skin)", "%d vertices", n);
    for (int set = 0; e == LAB_OK && set < p->sets; set++) {
        e = gltf_accessor_read(doc, p->joints[set], joints, d);
        if (e == LAB_OK)
            e = gltf_accessor_read(doc, p->weights[set], weights, d);
        for (int v = 0; e == LAB_OK && v < n; v++)
            for (int c = 0; c < 4; c++) {
                out->joint[(size_t)v * k + 4 * set + c] = (int)joints[4 * v + c];
                out->weight[(size_t)v * k + 4 * set + c] = weights[4 * v + c];
            }
    }
    free(joints), free(weights);
    return e;
}

lab_error gltf_place_primitive(const gltf_document *doc, int node, int primitive, const mat4 *world,
                               const double *morph_weights, vec3 *out_positions, lab_diag *d)
{
    const gltf_node *nd = node >= 0 && node < doc->node_count ? &doc->nodes[node] : NULL;
    if (!doc->validated || !nd || nd->mesh < 0)
        return gltf_fail_at(d, "(node)", "node %d is not a validated mesh node", node);
    if (primitive < 0 || primitive >= doc->meshes[nd->mesh].primitive_count)
        return gltf_fail_at(d, "(node)", "node %d's mesh has no primitive %d", node, primitive);
    lab_error e = gltf_morph_primitive(doc, nd->mesh, primitive, morph_weights, out_positions, NULL, d);
    int n = gltf_primitive_vertex_count(doc, nd->mesh, primitive);
    for (int v = 0; e == LAB_OK && v < n; v++) { /* p' = G_node p */
        out_positions[v] = mat4_transform_point(world[node], out_positions[v]);
        if (!vec3_is_finite(out_positions[v])) {
            char at[96];
            snprintf(at, sizeof at, "mesh %d primitive %d vertex %d", nd->mesh, primitive, v);
            e = diag_fail(d, LAB_ERR_NOT_FINITE, at, "placed position (%g, %g, %g): the node's world matrix overflows",
                          out_positions[v].x, out_positions[v].y, out_positions[v].z);
        }
    }
    return e;
}

lab_error gltf_primitive_influences(const gltf_document *doc, int mesh, int primitive, skin_influences *out,
                                    lab_diag *d)
{
    *out = (skin_influences){0};
    if (!doc->validated || mesh < 0 || mesh >= doc->mesh_count || primitive < 0 ||
        primitive >= doc->meshes[mesh].primitive_count)
        return gltf_fail_at(d, "(mesh)", "mesh %d primitive %d is not a validated primitive", mesh, primitive);
    const gltf_primitive *p = &doc->meshes[mesh].primitives[primitive];
    return p->sets ? read_influences(doc, p, doc->accessors[p->position].count, out, d) : LAB_OK;
}

void gltf_skin_input_free(gltf_skin_input *in)
{
    free(in->bind), free(in->inverse_bind);
    skin_influences_free(&in->influences);
    *in = (gltf_skin_input){0};
}

lab_error gltf_skin_input_read(const gltf_document *doc, int node, int primitive, const double *morph_weights,
                               skin_policy_kind policy, gltf_skin_input *out, lab_diag *d)
{
    *out = (gltf_skin_input){0};
    const gltf_node *nd = node >= 0 && node < doc->node_count ? &doc->nodes[node] : NULL;
    if (!doc->validated || !nd || nd->mesh < 0 || nd->skin < 0)
        return gltf_fail_at(d, "(node)", "node %d is not a validated skinned mesh node", node);
    if (primitive < 0 || primitive >= doc->meshes[nd->mesh].primitive_count)
        return gltf_fail_at(d, "(node)", "node %d's mesh has no primitive %d", node, primitive);
    const gltf_primitive *p = &doc->meshes[nd->mesh].primitives[primitive];
    const gltf_skin *s = &doc->skins[nd->skin];
    int n = doc->accessors[p->position].count;
    out->vertex_count = n, out->joint_count = s->joint_count, out->joints = s->joints;
    out->inverse_bind = malloc(sizeof(mat4) * (size_t)(s->joint_count > 0 ? s->joint_count : 1));
    out->bind = malloc(sizeof(vec3) * (size_t)(n ? n : 1));
    skin_weight_report report = {0};
    lab_error e = out->inverse_bind && out->bind ? inverse_binds(doc, s, out->inverse_bind, d)
                                                 : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "(skin)", "%d vertices", n);
    if (e == LAB_OK) /* morph targets first, then the skin (glTF 2.0, 3.7.2.2) */
        e = gltf_morph_primitive(doc, nd->mesh, primitive, morph_weights, out->bind, NULL, d);
    if (e == LAB_OK && p->sets > 0) /* none: the mesh follows nothing */
        e = read_influences(doc, p, n, &out->influences, d);
    /* the weight rule with the validator's tolerance, 2e-7 per weight; then every sum is
     * made 1 in double precision for the one blend of skin.h */
    skin_weight_policy rule = {.kind = policy, .tolerance = 2e-7 * 4 * p->sets};
    if (e == LAB_OK && p->sets > 0) {
        e = skin_apply_weight_policy(&out->influences, s->joint_count, rule, &report, d);
        if (e != LAB_OK) /* name the primitive, not only the vertex */
            diag_prefix_where(d, "mesh %d primitive %d", nd->mesh, primitive);
    }
    if (e == LAB_OK && p->sets > 0)
        skin_renormalize(&out->influences);
    out->normalized = report.normalized_count;
    skin_weight_report_free(&report);
    if (e != LAB_OK)
        gltf_skin_input_free(out);
    return e;
}

lab_error gltf_skinned_finite(const gltf_document *doc, int node, int primitive, const vec3 *positions, int count,
                              lab_diag *d)
{
    for (int v = 0; v < count; v++) /* finite joints and inverse binds may still overflow */
        if (!vec3_is_finite(positions[v])) {
            char at[96];
            snprintf(at, sizeof at, "mesh %d primitive %d vertex %d", doc->nodes[node].mesh, primitive, v);
            return diag_fail(d, LAB_ERR_NOT_FINITE, at, "skinned position (%g, %g, %g): a joint matrix overflows",
                             positions[v].x, positions[v].y, positions[v].z);
        }
    return LAB_OK;
}

lab_error gltf_skin_primitive(const gltf_document *doc, int node, int primitive, const mat4 *world,
                              const double *morph_weights, skin_method method, skin_policy_kind policy,
                              vec3 *out_positions, int *normalized, lab_diag *d)
{
    gltf_skin_input in;
    lab_error e = gltf_skin_input_read(doc, node, primitive, morph_weights, policy, &in, d);
    mat4 *jm = e == LAB_OK ? malloc(sizeof(mat4) * (size_t)(in.joint_count > 0 ? in.joint_count : 1)) : NULL;
    if (e == LAB_OK && !jm)
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "(skin)", "%d joints", in.joint_count);
    if (e == LAB_OK) /* J_j = G(skin.joints[j]) IBM_j: the one palette */
        skin_palette_run(world, in.joints, in.inverse_bind, in.joint_count, jm);
    if (e == LAB_OK && in.influences.vertex_count == 0) /* no influences: the mesh follows nothing */
        memcpy(out_positions, in.bind, sizeof(vec3) * (size_t)in.vertex_count);
    else if (e == LAB_OK)
        e = skin_deform(in.bind, &in.influences, jm, in.joint_count,
                        (skin_blend){.method = method, .rigid_tolerance = GLTF_RIGID_TOLERANCE}, out_positions, d);
    if (e == LAB_OK)
        e = gltf_skinned_finite(doc, node, primitive, out_positions, in.vertex_count, d);
    if (normalized)
        *normalized = e == LAB_OK ? in.normalized : 0;
    gltf_skin_input_free(&in);
    free(jm);
    return e;
}

lab_error gltf_skin_at(const gltf_document *doc, int animation, double t, int node, int primitive,
                       skin_method method, skin_policy_kind policy, vec3 *out_positions, double *morph_weights,
                       int *normalized, lab_diag *d)
{
    const int n = doc->node_count, targets = gltf_node_target_count(doc, node);
    mat4 *locals = malloc(sizeof(mat4) * (size_t)(n ? n : 1)), *world = malloc(sizeof(mat4) * (size_t)(n ? n : 1));
    double *weights = morph_weights ? morph_weights : malloc(sizeof(double) * (size_t)(targets ? targets : 1));
    lab_error e = locals && world && weights ? gltf_sample_locals(doc, animation, t, locals, d)
                                             : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "(nodes)", "%d nodes", n);
    if (e == LAB_OK)
        e = gltf_world_matrices(doc, locals, world, d);
    if (e == LAB_OK && targets > 0) /* the morph weights first: the targets move the bind pose */
        e = gltf_sample_morph_weights(doc, animation, t, node, weights, d);
    if (e == LAB_OK)
        e = gltf_skin_primitive(doc, node, primitive, world, targets > 0 ? weights : NULL, method, policy,
                                out_positions, normalized, d);
    if (weights != morph_weights)
        free(weights);
    free(locals), free(world);
    return e;
}
