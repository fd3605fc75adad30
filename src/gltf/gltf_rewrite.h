/* gltf_rewrite.h - a loaded asset written back as one binary glTF (.glb) with some of its
 * primitives' skin influences replaced: everything else the file holds (its nodes, skins,
 * animations, materials, extras) is kept as the reader found it.
 *
 *   gltf_document doc;                         gltf_load + gltf_validate, as for reading
 *   gltf_rewrite_influences in = {...};        the new JOINTS_n / WEIGHTS_n, the caller's
 *   bytes glb = {0};
 *   gltf_rewrite(&doc, &in, &glb, d);          then write glb.data, glb.len
 *
 * What changes: every buffer of the file becomes part of the one BIN chunk (each view's
 * byteOffset moved by where its buffer landed, 4-byte aligned), and the new influences
 * follow it in views of their own (ARRAY_BUFFER), part after part: JOINTS_s as unsigned
 * shorts and WEIGHTS_s as floats, 4 a vertex and a set, s < sets; each part's other
 * JOINTS_n / WEIGHTS_n attributes are removed (their accessors stay, unused: the validator
 * notes them).
 * A node with a skinned mesh that has a parent becomes a root of its scenes instead: glTF
 * ignores the transforms above a skinned mesh, and the Khronos validator warns where such a
 * node is not a root. asset.generator names the writer; the rest of "asset" (copyright,
 * version) stays. Images named by an external uri are embedded: read from beside the
 * asset by the reader's rules (gltf_load records its folder), put in views of their own
 * with their mimeType, so that the .glb loads whole wherever it is put; an image with
 * neither a mimeType nor a known extension, or whose file cannot be read, is refused naming
 * it. Every other extension the file uses is carried as it is.
 *
 * Weights are the caller's floats: each vertex's should sum to 1 in float
 * (gltf_rewrite_weights_to_float does that), unused slots hold joint 0 with weight 0, as
 * the specification recommends.
 *
 * Compressed assets: EXT_meshopt_compression's views are written as gltf_validate decoded
 * them, plain, and the extension leaves the file (the .glb is larger, and reads anywhere).
 * A KHR_draco_mesh_compression primitive keeps its stream, the same bytes, for everything
 * but the influences: the new JOINTS_n / WEIGHTS_n are plain accessors and leave the
 * extension's attribute map, so that a loader reads them "as usual" (the extension's
 * conformance section), in the stream's point order, which is the order the reader
 * decoded the vertices in. KHR_mesh_quantization's accessors are plain and stay.
 */
#ifndef GLTF_REWRITE_H
#define GLTF_REWRITE_H

#include <stdint.h>

#include "base/bytes.h"
#include "gltf/gltf.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const gltf_primitive_ref *parts; /* the primitives whose influences are replaced, each once */
    int part_count;             /* at least 1 */
    int sets;                   /* 1 to GLTF_MAX_SETS: 4 influences a set */
    const uint16_t *joints;     /* the parts' vertices one after another (part p's vertex v is
                                 * vertex first_p + v, first_p the vertex counts of the parts
                                 * before it), 4 sets a vertex: set s of vertex v at (v sets + s) 4 */
    const float *weights;       /* the same layout */
    const char *generator;      /* asset.generator */
} gltf_rewrite_influences;

lab_error gltf_rewrite(const gltf_document *doc, const gltf_rewrite_influences *in, bytes *glb, lab_diag *d);

/* One vertex's k weights (doubles summing to 1) as floats whose sum, added in double, is
 * as close to 1 as floats allow: each rounded, then the largest one takes the remainder. */
void gltf_rewrite_weights_to_float(const double *w, int k, float *out);

#ifdef __cplusplus
}
#endif

#endif
