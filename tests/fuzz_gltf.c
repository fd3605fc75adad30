/* fuzz_gltf.c - libFuzzer target for lab30-gltf's whole pipeline and for the glTF writer
 * (make fuzz), in memory. The input's first byte picks the run:
 *   bit 0      --method lbs | dqs
 *   bit 1      --policy strict | normalize
 *   bits 2-4   the sampled time: start, a quarter, half, end, before the start, long
 *              after the end, 0.37 s, or every one of them in turn
 *   bits 5-6   the limits: the defaults, or --max-vertices 64, --max-nodes 16,
 *              --max-joints 4 (small limits reach the refusals)
 *   bit 7      the writer instead of the reader (below)
 * The reader: as the program does, parse (external buffers from FUZZ_ASSET_DIR when it is
 * set), validate, sample the first animation, and every mesh node evaluated: a skinned
 * one through gltf_skin_at (morph weights, then the skin), an unskinned one through its
 * sampled morph weights and gltf_place_primitive; the positions written as evidence JSON
 * through the project's writer (json_to_bytes, with its non-finite check).
 * The writer: the rest of the input is a rig for gltf_write (joints, parents,
 * translations, rotations, key times and rotations, a morph target, names of any bytes);
 * whenever gltf_write accepts it, its output must parse and validate with the reader, and
 * sample at its first key; anything else aborts, which the fuzzer reports.
 * A malformed or hostile input may be refused, never crash, leak or read out of bounds
 * (ASan and UBSan watch). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program/evidence.h"
#include "gltf/gltf.h"
#include "gltf/gltf_write.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One sampled time: every mesh node's primitives into one evidence document. */
static void skin_at(const gltf_document *doc, double t, skin_method method, skin_policy_kind policy)
{
    mat4 *locals = malloc(sizeof(mat4) * (size_t)(doc->node_count + 1));
    mat4 *world = malloc(sizeof(mat4) * (size_t)(doc->node_count + 1));
    cJSON *root = json_evidence_root("fuzz");
    cJSON *parts = cJSON_AddArrayToObject(root, "parts");
    int animation = doc->animation_count > 0 ? 0 : -1;
    bool ok = locals && world && gltf_sample_locals(doc, animation, t, locals, NULL) == LAB_OK &&
              gltf_world_matrices(doc, locals, world, NULL) == LAB_OK;
    for (int n = 0; ok && n < doc->node_count; n++) {
        if (doc->nodes[n].mesh < 0)
            continue;
        for (int p = 0; ok && p < doc->meshes[doc->nodes[n].mesh].primitive_count; p++) {
            int count = gltf_primitive_vertex_count(doc, doc->nodes[n].mesh, p), normalized = 0;
            int targets = gltf_node_target_count(doc, n);
            vec3 *out = malloc(sizeof(vec3) * (size_t)(count ? count : 1));
            double *weights = malloc(sizeof(double) * (size_t)(targets ? targets : 1));
            if (doc->nodes[n].skin >= 0)
                ok = out && weights && gltf_skin_at(doc, animation, t, n, p, method, policy, out, weights,
                                                    &normalized, NULL) == LAB_OK;
            else
                ok = out && weights && gltf_sample_morph_weights(doc, animation, t, n, weights, NULL) == LAB_OK &&
                     gltf_place_primitive(doc, n, p, world, targets ? weights : NULL, out, NULL) == LAB_OK;
            if (ok) {
                cJSON_AddItemToArray(parts, json_vec3_array(out, count));
                if (targets)
                    cJSON_AddItemToArray(parts, json_number_array(weights, targets));
            }
            free(weights);
            free(out);
        }
    }
    bytes text = {0};
    if (ok)
        json_to_bytes(root, &text, NULL);
    bytes_free(&text);
    cJSON_Delete(root);
    free(locals), free(world);
}

/* The input's bytes, taken in order; zeros once they run out. */
typedef struct {
    const uint8_t *data;
    size_t size, at;
} byte_source;

static unsigned take_byte(byte_source *s) { return s->at < s->size ? s->data[s->at++] : 0; }

static float take_float(byte_source *s) /* any float, NaN and infinities included */
{
    uint32_t bits = 0;
    for (int k = 0; k < 4; k++)
        bits = bits << 8 | take_byte(s);
    float x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

/* A name of up to 15 of the input's bytes (any but NUL: quotes, backslashes, controls). */
static void take_name(byte_source *s, char *name)
{
    int n = (int)(take_byte(s) % 16), k = 0;
    for (int i = 0; i < n; i++) {
        unsigned c = take_byte(s);
        if (c)
            name[k++] = (char)c;
    }
    name[k] = '\0';
}

/* The writer round trip: a one-triangle mesh on a fuzzed rig. */
static void write_and_read_back(byte_source *s)
{
    enum { KEYS = 64, J = GLTF_WRITE_MAX_JOINTS };
    static const int triangle[3] = {0, 1, 2};
    vec3 vertices[3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, normals[3] = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
    mesh_triangle tri;
    memcpy(tri.v, triangle, sizeof triangle);
    mesh bind = {3, vertices, 1, &tri};
    uint16_t joints[3][4] = {{0}};
    float weights[3][4] = {{1, 0, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}};
    char names[J + 8][16];
    gltf_write_joint skeleton[J];
    mat4 inverse_bind[J];
    int joint_count = 1 + (int)(take_byte(s) % J);
    for (int j = 0; j < joint_count; j++) {
        take_name(s, names[j]);
        unsigned parent = take_byte(s);
        skeleton[j] = (gltf_write_joint){names[j], j == 0 || parent % 2 ? -1 : (int)(parent / 2) % j,
                                         {take_float(s), take_float(s), take_float(s)},
                                         {take_float(s), take_float(s), take_float(s), take_float(s)}};
        inverse_bind[j] = mat4_identity();
    }
    int key_count = 2 + (int)(take_byte(s) % (KEYS - 1));
    double times[KEYS], target_weights[KEYS];
    quat rotations[KEYS];
    for (int k = 0; k < key_count; k++) {
        times[k] = take_float(s);
        rotations[k] = (quat){take_float(s), take_float(s), take_float(s), take_float(s)};
        target_weights[k] = take_float(s);
    }
    vec3 deltas[3];
    for (int v = 0; v < 3; v++)
        deltas[v] = vec3_make(take_float(s), take_float(s), take_float(s));
    unsigned flags = take_byte(s);
    for (int k = 0; k < 7; k++)
        take_name(s, names[J + k]);
    gltf_write_input in = {
        .bind = &bind, .normals = normals, .joints = (const uint16_t(*)[4])joints,
        .weights = (const float(*)[4])weights, .skeleton = skeleton, .joint_count = joint_count,
        .inverse_bind = inverse_bind, .animated_joint = (int)(take_byte(s) % (unsigned)joint_count),
        .key_times = times, .key_rotations = rotations, .key_count = key_count,
        .generator = names[J], .mesh_name = names[J + 1], .mesh_node_name = names[J + 2], .rig_name = names[J + 3],
        .rig_rotation = {take_float(s), take_float(s), take_float(s), take_float(s)},
        .skin_name = names[J + 4], .animation_name = names[J + 5],
        .end_name = flags & 1 ? names[J + 6] : NULL, .end_parent = (int)(take_byte(s) % (unsigned)joint_count),
        .end_translation = {take_float(s), take_float(s), take_float(s)},
        .target_positions = flags & 2 ? deltas : NULL, .target_weights = flags & 2 ? target_weights : NULL,
        .target_name = flags & 4 ? names[J + 6] : NULL,
    };
    bytes text = {0};
    if (gltf_write(&in, &text, NULL) == LAB_OK) { /* accepted: then a reader must take it */
        gltf_document doc;
        vec3 out[3];
        lab_diag d = {0};
        lab_error e = gltf_parse(text.data, text.len, NULL, &doc, &d);
        if (e == LAB_OK)
            e = gltf_validate(&doc, &d);
        if (e == LAB_OK)
            e = gltf_skin_at(&doc, 0, times[0], joint_count, 0, SKIN_LBS, SKIN_POLICY_STRICT, out, NULL, NULL, &d);
        if (e != LAB_OK) { /* a finding: the writer wrote what the reader refuses */
            char message[700];
            diag_format(&d, message, sizeof message);
            fprintf(stderr, "fuzz_gltf: the writer's output is refused: %s\n%.*s\n", message, (int)text.len,
                    (const char *)text.data);
            abort();
        }
        gltf_free(&doc);
    }
    bytes_free(&text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const unsigned options = data[0];
    if (options & 0x80) {
        byte_source source = {data + 1, size - 1, 0};
        write_and_read_back(&source);
        return 0;
    }
    skin_method method = options & 1 ? SKIN_DQS : SKIN_LBS;
    skin_policy_kind policy = options & 2 ? SKIN_POLICY_NORMALIZE : SKIN_POLICY_STRICT;
    int time_choice = (options >> 2) & 7, limits = (options >> 5) & 3;
    gltf_document doc;
    if (gltf_parse(data + 1, size - 1, getenv("FUZZ_ASSET_DIR"), &doc, NULL) != LAB_OK)
        return 0;
    if (limits == 1)
        doc.limits.max_vertices = 64;
    else if (limits == 2)
        doc.limits.max_nodes = 16;
    else if (limits == 3)
        doc.limits.max_joints = 4;
    if (gltf_validate(&doc, NULL) == LAB_OK) {
        double start = 0, end = 0;
        if (gltf_animation_range(&doc, 0, &start, &end, NULL) != LAB_OK)
            start = end = 0; /* its inputs refused (a non-finite time): sample the rest pose */
        const double times[7] = {start, start + 0.25 * (end - start), start + 0.5 * (end - start), end,
                                 start - 1.0, end + 1e6, 0.37};
        for (int k = 0; k < 7; k++)
            if (time_choice == 7 || time_choice == k)
                skin_at(&doc, times[k], method, policy);
    }
    gltf_free(&doc);
    return 0;
}
