/* fuzz_gltf.c - libFuzzer target for the whole of lab30-gltf's pipeline (make fuzz), in
 * memory. The input's first byte picks the run's options, the rest is the asset:
 *   bit 0      --method lbs | dqs
 *   bit 1      --policy strict | normalize
 *   bits 2-4   the sampled time: start, a quarter, half, end, before the start, long
 *              after the end, 0.37 s, or every one of them in turn
 *   bits 5-6   the limits: the defaults, or --max-vertices 64, --max-nodes 16,
 *              --max-joints 4 (small limits reach the refusals)
 * Then, as the program does: parse (external buffers from FUZZ_ASSET_DIR when it is set),
 * validate, sample the first animation, world matrices, every skinned primitive skinned,
 * and the positions written as evidence JSON through the project's writer (json_to_bytes,
 * with its non-finite check). A malformed or hostile asset may be refused, never crash,
 * leak or read out of bounds (ASan and UBSan watch). */
#include <stdlib.h>

#include "program/evidence.h"
#include "gltf/gltf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One sampled time: every skinned primitive into one evidence document. */
static void skin_at(const gltf_document *doc, double t, skin_method method, skin_policy_kind policy)
{
    mat4 *locals = malloc(sizeof(mat4) * (size_t)(doc->node_count + 1));
    mat4 *world = malloc(sizeof(mat4) * (size_t)(doc->node_count + 1));
    cJSON *root = json_evidence_root("fuzz");
    cJSON *parts = cJSON_AddArrayToObject(root, "parts");
    bool ok = locals && world && gltf_sample_locals(doc, 0, t, locals, NULL) == LAB_OK &&
              gltf_world_matrices(doc, locals, world, NULL) == LAB_OK;
    for (int n = 0; ok && n < doc->node_count; n++) {
        if (doc->nodes[n].mesh < 0 || doc->nodes[n].skin < 0)
            continue;
        for (int p = 0; ok && p < doc->meshes[doc->nodes[n].mesh].primitive_count; p++) {
            int count = gltf_primitive_vertex_count(doc, doc->nodes[n].mesh, p), normalized = 0;
            int targets = gltf_node_target_count(doc, n);
            vec3 *out = malloc(sizeof(vec3) * (size_t)(count ? count : 1));
            double *weights = malloc(sizeof(double) * (size_t)(targets ? targets : 1));
            ok = out && weights && gltf_sample_morph_weights(doc, 0, t, n, weights, NULL) == LAB_OK &&
                 gltf_skin_primitive(doc, n, p, world, weights, method, policy, out, &normalized, NULL) == LAB_OK;
            free(weights);
            if (ok)
                cJSON_AddItemToArray(parts, json_vec3_array(out, count));
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const unsigned options = data[0];
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
        double start, end;
        gltf_animation_range(&doc, 0, &start, &end);
        const double times[7] = {start, start + 0.25 * (end - start), start + 0.5 * (end - start), end,
                                 start - 1.0, end + 1e6, 0.37};
        for (int k = 0; k < 7; k++)
            if (time_choice == 7 || time_choice == k)
                skin_at(&doc, times[k], method, policy);
    }
    gltf_free(&doc);
    return 0;
}
