/* gltf_write.c - the glTF 2.0 exporter (see gltf_write.h). */
#include "gltf/gltf_write.h"

#include "base/text.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "program/evidence.h"

void base64_append(bytes *out, const uint8_t *data, size_t size)
{
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < size; i += 3) {
        uint32_t v = (uint32_t)data[i] << 16;
        if (i + 1 < size) v |= (uint32_t)data[i + 1] << 8;
        if (i + 2 < size) v |= data[i + 2];
        char quad[4] = {alphabet[(v >> 18) & 63], alphabet[(v >> 12) & 63],
                        i + 1 < size ? alphabet[(v >> 6) & 63] : '=', i + 2 < size ? alphabet[v & 63] : '='};
        bytes_append(out, quad, 4);
    }
}

/* The binary buffer being built, and the views and accessors that point into it. */
typedef struct {
    bytes bin;
    cJSON *views, *accessors;
    bool out_of_memory; /* a scratch array could not be allocated: the document is not whole */
} builder;

/* Appends data (4-byte aligned) as a new bufferView; returns its index. */
static int add_view(builder *b, const void *data, size_t size, int target)
{
    static const uint8_t zero[4] = {0};
    if (b->bin.len % 4)
        bytes_append(&b->bin, zero, 4 - b->bin.len % 4);
    cJSON *v = cJSON_CreateObject();
    cJSON_AddNumberToObject(v, "buffer", 0);
    cJSON_AddNumberToObject(v, "byteOffset", (double)b->bin.len);
    cJSON_AddNumberToObject(v, "byteLength", (double)size);
    if (target)
        cJSON_AddNumberToObject(v, "target", target);
    bytes_append(&b->bin, data, size);
    cJSON_AddItemToArray(b->views, v);
    return cJSON_GetArraySize(b->views) - 1;
}

static int add_accessor(builder *b, int view, int component_type, int count, const char *type,
                        const float *min, const float *max, int n)
{
    cJSON *a = cJSON_CreateObject();
    cJSON_AddNumberToObject(a, "bufferView", view);
    cJSON_AddNumberToObject(a, "componentType", component_type);
    cJSON_AddNumberToObject(a, "count", count);
    cJSON_AddStringToObject(a, "type", type);
    if (min) {
        cJSON *lo = cJSON_AddArrayToObject(a, "min"), *hi = cJSON_AddArrayToObject(a, "max");
        for (int k = 0; k < n; k++) {
            cJSON_AddItemToArray(lo, json_number(min[k]));
            cJSON_AddItemToArray(hi, json_number(max[k]));
        }
    }
    cJSON_AddItemToArray(b->accessors, a);
    return cJSON_GetArraySize(b->accessors) - 1;
}

/* A float accessor with min/max per component (POSITION and animation inputs need them). */
static int add_floats(builder *b, const float *data, int count, int n, const char *type, int target,
                      bool bounds)
{
    float lo[16], hi[16];
    for (int k = 0; k < n; k++) {
        lo[k] = INFINITY;
        hi[k] = -INFINITY;
        for (int i = 0; i < count; i++) {
            lo[k] = fminf(lo[k], data[i * n + k]);
            hi[k] = fmaxf(hi[k], data[i * n + k]);
        }
    }
    int view = add_view(b, data, sizeof(float) * (size_t)count * (size_t)n, target);
    return add_accessor(b, view, 5126, count, type, bounds ? lo : NULL, bounds ? hi : NULL, n);
}

static cJSON *float_array(const float *v, int n)
{
    cJSON *a = cJSON_CreateArray();
    for (int k = 0; k < n; k++)
        cJSON_AddItemToArray(a, json_number(v[k]));
    return a;
}

static void to_floats(const vec3 *v, int n, float *out)
{
    for (int i = 0; i < n; i++) {
        out[3 * i] = (float)v[i].x;
        out[3 * i + 1] = (float)v[i].y;
        out[3 * i + 2] = (float)v[i].z;
    }
}

/* Column-major, as glTF stores matrices: element (row r, column c) at [4c + r]. */
static void column_major(mat4 m, float *out)
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            out[4 * c + r] = (float)m.m[r][c];
}

static cJSON *mesh_json(builder *b, const gltf_write_input *in)
{
    int n = in->bind->vertex_count, t = in->bind->triangle_count;
    float *pos = malloc(sizeof(float) * 3 * (size_t)n), *nor = malloc(sizeof(float) * 3 * (size_t)n);
    uint16_t *idx = malloc(sizeof(uint16_t) * 3 * (size_t)t);
    cJSON *meshes = cJSON_CreateArray();
    if (!pos || !nor || !idx) {
        free(pos), free(nor), free(idx);
        b->out_of_memory = true;
        return meshes;
    }
    to_floats(in->bind->vertices, n, pos);
    to_floats(in->normals, n, nor);
    for (int i = 0; i < t; i++)
        for (int k = 0; k < 3; k++)
            idx[3 * i + k] = (uint16_t)in->bind->triangles[i].v[k];
    cJSON *attr = cJSON_CreateObject();
    cJSON_AddNumberToObject(attr, "POSITION", add_floats(b, pos, n, 3, "VEC3", 34962, true));
    cJSON_AddNumberToObject(attr, "NORMAL", add_floats(b, nor, n, 3, "VEC3", 34962, false));
    int jv = add_view(b, in->joints, sizeof(uint16_t) * 4 * (size_t)n, 34962);
    cJSON_AddNumberToObject(attr, "JOINTS_0", add_accessor(b, jv, 5123, n, "VEC4", NULL, NULL, 0));
    cJSON_AddNumberToObject(attr, "WEIGHTS_0", add_floats(b, &in->weights[0][0], n, 4, "VEC4", 34962, false));
    int iv = add_view(b, idx, sizeof(uint16_t) * 3 * (size_t)t, 34963);
    cJSON *prim = cJSON_CreateObject();
    cJSON_AddItemToObject(prim, "attributes", attr);
    cJSON_AddNumberToObject(prim, "indices", add_accessor(b, iv, 5123, 3 * t, "SCALAR", NULL, NULL, 0));
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "name", in->mesh_name);
    if (in->target_positions) { /* a morph target: POSITION deltas, with the bounds glTF asks */
        float *delta = malloc(sizeof(float) * 3 * (size_t)n);
        cJSON *target = cJSON_CreateObject();
        if (delta) {
            to_floats(in->target_positions, n, delta);
            cJSON_AddNumberToObject(target, "POSITION", add_floats(b, delta, n, 3, "VEC3", 34962, true));
        } else {
            b->out_of_memory = true;
        }
        cJSON_AddItemToArray(cJSON_AddArrayToObject(prim, "targets"), target);
        cJSON_AddItemToObject(m, "weights", cJSON_CreateDoubleArray((const double[]){0.0}, 1));
        if (in->target_name) /* the target's name, by the convention importers read */
            cJSON_AddItemToArray(cJSON_AddArrayToObject(cJSON_AddObjectToObject(m, "extras"), "targetNames"),
                                 cJSON_CreateString(in->target_name));
        free(delta);
    }
    cJSON_AddItemToArray(cJSON_AddArrayToObject(m, "primitives"), prim);
    cJSON_AddItemToArray(meshes, m);
    free(pos), free(nor), free(idx);
    return meshes;
}

static cJSON *trs_node(const char *name, vec3 translation, quat rotation)
{
    cJSON *node = cJSON_CreateObject();
    cJSON_AddStringToObject(node, "name", name);
    float t[3] = {(float)translation.x, (float)translation.y, (float)translation.z};
    float r[4] = {(float)rotation.x, (float)rotation.y, (float)rotation.z, (float)rotation.w};
    if (t[0] != 0 || t[1] != 0 || t[2] != 0)
        cJSON_AddItemToObject(node, "translation", float_array(t, 3));
    if (r[3] != 1)
        cJSON_AddItemToObject(node, "rotation", float_array(r, 4));
    return node;
}

/* Joint nodes first (0 .. J-1), then the mesh node J, the rig's root J+1 and the end
 * node J+2 (gltf_write.h). */
static cJSON *nodes_json(const gltf_write_input *in)
{
    cJSON *nodes = cJSON_CreateArray();
    const int end = in->joint_count + 2;
    for (int j = 0; j < in->joint_count; j++) {
        const gltf_write_joint *s = &in->skeleton[j];
        cJSON *node = trs_node(s->name, s->translation, s->rotation);
        cJSON *children = NULL;
        for (int c = j + 1; c <= in->joint_count; c++) {
            bool child = c < in->joint_count ? in->skeleton[c].parent == j : in->end_name && in->end_parent == j;
            if (!child)
                continue;
            if (!children)
                children = cJSON_AddArrayToObject(node, "children");
            cJSON_AddItemToArray(children, cJSON_CreateNumber(c < in->joint_count ? c : end));
        }
        cJSON_AddItemToArray(nodes, node);
    }
    cJSON *mesh_node = cJSON_CreateObject();
    cJSON_AddStringToObject(mesh_node, "name", in->mesh_node_name);
    cJSON_AddNumberToObject(mesh_node, "mesh", 0);
    cJSON_AddNumberToObject(mesh_node, "skin", 0);
    cJSON_AddItemToArray(nodes, mesh_node);
    cJSON *root = trs_node(in->rig_name, vec3_make(0, 0, 0), in->rig_rotation);
    cJSON *roots = cJSON_AddArrayToObject(root, "children");
    for (int j = 0; j < in->joint_count; j++)
        if (in->skeleton[j].parent < 0)
            cJSON_AddItemToArray(roots, cJSON_CreateNumber(j));
    cJSON_AddItemToArray(nodes, root);
    if (in->end_name)
        cJSON_AddItemToArray(nodes, trs_node(in->end_name, in->end_translation, quat_identity()));
    return nodes;
}

static cJSON *skin_json(builder *b, const gltf_write_input *in)
{
    float ibm[(GLTF_WRITE_MAX_JOINTS + 1) * 16];
    for (int j = 0; j < in->joint_count; j++)
        column_major(in->inverse_bind[j], &ibm[16 * j]);
    int listed = in->joint_count;
    if (in->end_name) { /* the end node's bind world is its parent's, then its offset */
        vec3 e = in->end_translation;
        column_major(mat4_mul(mat4_translate(-e.x, -e.y, -e.z), in->inverse_bind[in->end_parent]), &ibm[16 * listed++]);
    }
    cJSON *skin = cJSON_CreateObject();
    cJSON_AddStringToObject(skin, "name", in->skin_name);
    cJSON_AddNumberToObject(skin, "inverseBindMatrices", add_floats(b, ibm, listed, 16, "MAT4", 0, false));
    cJSON *joints = cJSON_AddArrayToObject(skin, "joints");
    for (int j = 0; j < in->joint_count; j++)
        cJSON_AddItemToArray(joints, cJSON_CreateNumber(j));
    if (in->end_name) /* listed last, so no vertex's JOINTS_0 reaches it */
        cJSON_AddItemToArray(joints, cJSON_CreateNumber(in->joint_count + 2));
    cJSON_AddNumberToObject(skin, "skeleton", 0);
    cJSON *skins = cJSON_CreateArray();
    cJSON_AddItemToArray(skins, skin);
    return skins;
}

static cJSON *animation_json(builder *b, const gltf_write_input *in)
{
    float times[64], rot[64 * 4];
    int n = in->key_count;
    for (int k = 0; k < n; k++) {
        times[k] = (float)in->key_times[k];
        quat q = in->key_rotations[k];
        float xyzw[4] = {(float)q.x, (float)q.y, (float)q.z, (float)q.w};
        memcpy(&rot[4 * k], xyzw, sizeof xyzw);
    }
    cJSON *sampler = cJSON_CreateObject();
    const int input = add_floats(b, times, n, 1, "SCALAR", 0, true); /* shared by the weights */
    cJSON_AddNumberToObject(sampler, "input", input);
    cJSON_AddStringToObject(sampler, "interpolation", "LINEAR");
    cJSON_AddNumberToObject(sampler, "output", add_floats(b, rot, n, 4, "VEC4", 0, false));
    cJSON *channel = cJSON_CreateObject(), *target = cJSON_CreateObject();
    cJSON_AddNumberToObject(channel, "sampler", 0);
    cJSON_AddNumberToObject(target, "node", in->animated_joint);
    cJSON_AddStringToObject(target, "path", "rotation");
    cJSON_AddItemToObject(channel, "target", target);
    cJSON *anim = cJSON_CreateObject();
    cJSON_AddStringToObject(anim, "name", in->animation_name);
    cJSON *channels = cJSON_AddArrayToObject(anim, "channels"), *samplers = cJSON_AddArrayToObject(anim, "samplers");
    cJSON_AddItemToArray(channels, channel);
    cJSON_AddItemToArray(samplers, sampler);
    if (in->target_positions && in->target_weights) { /* the morph weight, keyed at the same times */
        float weights[64];
        for (int k = 0; k < n; k++)
            weights[k] = (float)in->target_weights[k];
        cJSON *ws = cJSON_CreateObject(), *wc = cJSON_CreateObject(), *wt = cJSON_CreateObject();
        cJSON_AddNumberToObject(ws, "input", input);
        cJSON_AddStringToObject(ws, "interpolation", "LINEAR");
        cJSON_AddNumberToObject(ws, "output", add_floats(b, weights, n, 1, "SCALAR", 0, false));
        cJSON_AddNumberToObject(wc, "sampler", 1);
        cJSON_AddNumberToObject(wt, "node", in->joint_count); /* the mesh node */
        cJSON_AddStringToObject(wt, "path", "weights");
        cJSON_AddItemToObject(wc, "target", wt);
        cJSON_AddItemToArray(channels, wc);
        cJSON_AddItemToArray(samplers, ws);
    }
    cJSON *anims = cJSON_CreateArray();
    cJSON_AddItemToArray(anims, anim);
    return anims;
}

/* x survives the conversion to a float, as glTF stores it. */
static bool float_finite(double x) { return isfinite(x) && isfinite((float)x); }

static bool unit_quat(quat q)
{
    return float_finite(q.x) && float_finite(q.y) && float_finite(q.z) && float_finite(q.w) &&
           fabs(sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w) - 1.0) <= 1e-6;
}

static bool finite_vec3(vec3 v) { return float_finite(v.x) && float_finite(v.y) && float_finite(v.z); }

/* A TRS node's matrix as a reader rebuilds it from the file's floats. */
static mat4 stored_trs(vec3 t, quat r)
{
    quat q = quat_normalize((quat){(float)r.x, (float)r.y, (float)r.z, (float)r.w});
    return mat4_mul(mat4_translate((float)t.x, (float)t.y, (float)t.z), quat_to_mat4(q));
}

/* The joint matrices a reader will compute at every key, G_j IBM_j with the rig's root
 * above the skeleton and the end node listed last, within the library's magnitude bound
 * (a little inside it: the reader rounds the file's floats its own way). */
static lab_error validate_palettes(const gltf_write_input *in, lab_diag *d)
{
    mat4 world[GLTF_WRITE_MAX_JOINTS + 1], inverse_bind;
    const mat4 root = stored_trs(vec3_make(0, 0, 0), in->rig_rotation);
    char where[96];
    for (int k = 0; k < in->key_count; k++)
        for (int j = 0; j <= in->joint_count; j++) {
            bool end = j == in->joint_count;
            if (end && !in->end_name)
                break;
            const gltf_write_joint *s = end ? NULL : &in->skeleton[j];
            int parent = end ? in->end_parent : s->parent;
            mat4 local = end ? stored_trs(in->end_translation, quat_identity())
                             : stored_trs(s->translation, j == in->animated_joint ? in->key_rotations[k] : s->rotation);
            world[j] = mat4_mul(parent < 0 ? root : world[parent], local);
            if (end) {
                vec3 e = in->end_translation;
                inverse_bind = mat4_mul(mat4_translate(-e.x, -e.y, -e.z), in->inverse_bind[in->end_parent]);
            } else {
                inverse_bind = in->inverse_bind[j];
            }
            mat4 skin = mat4_mul(world[j], inverse_bind);
            double largest = 0;
            for (int e = 0; e < 16; e++)
                largest = fmax(largest, fabs((&skin.m[0][0])[e]));
            if (!(largest <= 0.999 * MAT4_MAGNITUDE_BOUND))
                return diag_fail(d, LAB_ERR_MATRIX_TOO_LARGE,
                                 diag_where(where, sizeof where, "glTF export, key %d, joint matrix %d", k, j),
                                 "largest |element| %g: a reader bounds them by %g", largest, MAT4_MAGNITUDE_BOUND);
        }
    return LAB_OK;
}

/* What the reader will hold the file to (gltf_validate and the sampler), checked on the
 * input, so that gltf_write never writes a file a reader must refuse: finite values once
 * stored as floats, unit rotations, parents listed first, key times increasing as floats,
 * joints inside the skin, weights non-negative, indices inside the mesh, affine inverse
 * binds. tests/fuzz_gltf.c (bit 7) reads back whatever it accepts. */
static lab_error validate_input(const gltf_write_input *in, lab_diag *d)
{
    const char *at = "glTF export";
    if (in->joint_count < 1 || in->joint_count > GLTF_WRITE_MAX_JOINTS || in->key_count < 2 ||
        in->key_count > 64 || in->bind->vertex_count < 1 || in->bind->vertex_count > 65535 ||
        (in->end_name && (in->end_parent < 0 || in->end_parent >= in->joint_count)))
        return diag_fail(d, LAB_ERR_LIMIT, at, "%d joints (1 to %d), %d keys (2 to 64), %d vertices (1 to 65535), "
                         "end node under joint %d (one of the joints)", in->joint_count, GLTF_WRITE_MAX_JOINTS,
                         in->key_count, in->bind->vertex_count, in->end_name ? in->end_parent : 0);
    if (in->animated_joint < 0 || in->animated_joint >= in->joint_count)
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, at, "animated joint %d of %d", in->animated_joint, in->joint_count);
    /* every name in UTF-8, as JSON is and as the reader requires (gltf_parse) */
    const char *names[] = {in->generator, in->mesh_name, in->mesh_node_name, in->rig_name, in->skin_name,
                           in->animation_name, in->end_name, in->target_name};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (names[k] && text_utf8_invalid(names[k], strlen(names[k])) >= 0)
            return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, at, "name %zu (generator, mesh, mesh node, rig, skin, "
                             "animation, end, target) is not UTF-8", k);
    for (int j = 0; j < in->joint_count; j++)
        if (in->skeleton[j].name && text_utf8_invalid(in->skeleton[j].name, strlen(in->skeleton[j].name)) >= 0)
            return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, at, "joint %d's name is not UTF-8", j);
    if (!unit_quat(in->rig_rotation) || (in->end_name && !finite_vec3(in->end_translation)))
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, at, "%s", "the rig's rotation must be a unit quaternion and the "
                         "end node's translation finite as floats");
    for (int j = 0; j < in->joint_count; j++) {
        const gltf_write_joint *s = &in->skeleton[j];
        if (s->parent < -1 || s->parent >= j || !finite_vec3(s->translation) || !unit_quat(s->rotation))
            return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, at, "joint %d: parent %d (a joint listed before it, or -1), "
                             "translation finite as floats, rotation a unit quaternion", j, s->parent);
        const double *m = &in->inverse_bind[j].m[0][0];
        for (int k = 0; k < 16; k++)
            if (!float_finite(m[k]))
                return diag_fail(d, LAB_ERR_NOT_FINITE, at, "inverse bind matrix %d, element %d is %g", j, k, m[k]);
        if (m[12] != 0 || m[13] != 0 || m[14] != 0 || m[15] != 1)
            return diag_fail(d, LAB_ERR_MATRIX_NOT_AFFINE, at, "inverse bind matrix %d", j);
    }
    for (int k = 0; k < in->key_count; k++) {
        if (!float_finite(in->key_times[k]) || (k > 0 && !((float)in->key_times[k] > (float)in->key_times[k - 1])))
            return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, at, "key %d at %g s: key times must be finite and increase "
                             "as floats", k, in->key_times[k]);
        if (!unit_quat(in->key_rotations[k]))
            return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, at, "key %d: a rotation key must be a unit quaternion", k);
        if (in->target_positions && in->target_weights && !float_finite(in->target_weights[k]))
            return diag_fail(d, LAB_ERR_NOT_FINITE, at, "key %d: morph weight %g", k, in->target_weights[k]);
    }
    for (int v = 0; v < in->bind->vertex_count; v++) {
        if (!finite_vec3(in->bind->vertices[v]) || !finite_vec3(in->normals[v]) ||
            (in->target_positions && !finite_vec3(in->target_positions[v])))
            return diag_fail(d, LAB_ERR_NOT_FINITE, at, "vertex %d: its position, normal or morph delta", v);
        for (int s = 0; s < 4; s++)
            if (in->joints[v][s] >= in->joint_count || !(in->weights[v][s] >= 0) || !isfinite(in->weights[v][s]))
                return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, at, "vertex %d slot %d: joint %d of %d, weight %g", v, s,
                                 in->joints[v][s], in->joint_count, in->weights[v][s]);
    }
    for (int t = 0; t < in->bind->triangle_count; t++)
        for (int k = 0; k < 3; k++)
            if (in->bind->triangles[t].v[k] < 0 || in->bind->triangles[t].v[k] >= in->bind->vertex_count)
                return diag_fail(d, LAB_ERR_MESH_INDEX_RANGE, at, "triangle %d corner %d", t, k);
    return validate_palettes(in, d);
}

lab_error gltf_write(const gltf_write_input *in, bytes *out, lab_diag *d)
{
    lab_error checked = validate_input(in, d);
    if (checked != LAB_OK)
        return checked;
    builder b = {{0}, cJSON_CreateArray(), cJSON_CreateArray(), false};
    cJSON *root = cJSON_CreateObject(), *asset = cJSON_AddObjectToObject(root, "asset");
    cJSON_AddStringToObject(asset, "version", "2.0");
    cJSON_AddStringToObject(asset, "generator", in->generator);
    cJSON_AddNumberToObject(root, "scene", 0);
    cJSON *scene = cJSON_CreateObject(), *roots = cJSON_AddArrayToObject(scene, "nodes");
    cJSON_AddItemToArray(roots, cJSON_CreateNumber(in->joint_count + 1)); /* the rig's root */
    cJSON_AddItemToArray(roots, cJSON_CreateNumber(in->joint_count));     /* the mesh */
    cJSON_AddItemToArray(cJSON_AddArrayToObject(root, "scenes"), scene);
    cJSON_AddItemToObject(root, "nodes", nodes_json(in));
    cJSON_AddItemToObject(root, "meshes", mesh_json(&b, in));
    cJSON_AddItemToObject(root, "skins", skin_json(&b, in));
    cJSON_AddItemToObject(root, "animations", animation_json(&b, in));
    cJSON_AddItemToObject(root, "accessors", b.accessors);
    cJSON_AddItemToObject(root, "bufferViews", b.views);
    bytes uri = {0};
    bytes_printf(&uri, "data:application/octet-stream;base64,");
    base64_append(&uri, b.bin.data, b.bin.len);
    cJSON *buffer = cJSON_CreateObject();
    cJSON_AddNumberToObject(buffer, "byteLength", (double)b.bin.len);
    cJSON_AddStringToObject(buffer, "uri", uri.failed ? "" : (char *)uri.data);
    cJSON_AddItemToArray(cJSON_AddArrayToObject(root, "buffers"), buffer);
    lab_error e = (b.out_of_memory || b.bin.failed || uri.failed) ? diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "glTF export", "%s", "buffer")
                                               : json_to_bytes(root, out, d);
    cJSON_Delete(root);
    bytes_free(&uri);
    bytes_free(&b.bin);
    return e;
}
