/* fuzz_gltf.c - libFuzzer target for the glTF reader (make fuzz): any bytes go through
 * parse, validate, sampling and skinning; ASan and UBSan watch every read. A malformed or
 * hostile file may be refused, never crash or read out of bounds. */
#include <stdlib.h>

#include "gltf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gltf_document doc;
    if (gltf_parse(data, size, NULL, &doc, NULL) != LAB_OK)
        return 0;
    if (gltf_validate(&doc, NULL) == LAB_OK && doc.node_count < 4096) {
        mat4 *locals = malloc(sizeof(mat4) * (size_t)(doc.node_count + 1));
        mat4 *world = malloc(sizeof(mat4) * (size_t)(doc.node_count + 1));
        if (locals && world && gltf_sample_locals(&doc, 0, 0.37, locals, NULL) == LAB_OK &&
            gltf_world_matrices(&doc, locals, world, NULL) == LAB_OK) {
            for (int n = 0; n < doc.node_count; n++) {
                if (doc.nodes[n].mesh < 0 || doc.nodes[n].skin < 0)
                    continue;
                int count = gltf_primitive_vertex_count(&doc, doc.nodes[n].mesh, 0);
                vec3 *out = malloc(sizeof(vec3) * (size_t)count);
                if (out)
                    gltf_skin_primitive(&doc, n, 0, world, SKIN_LBS, SKIN_POLICY_NORMALIZE, out, NULL, NULL);
                free(out);
            }
        }
        free(locals);
        free(world);
    }
    gltf_free(&doc);
    return 0;
}
