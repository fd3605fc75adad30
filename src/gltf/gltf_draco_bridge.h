/* gltf_draco_bridge.h - the one C++ file of the lab, seen from C: a Draco mesh decoded by
 * Debian's libdraco (KHR_draco_mesh_compression; gltf_draco.c builds glTF accessors from
 * it). The bridge throws nothing and allocates only inside the decoder: every call returns
 * a result a C caller can act on.
 */
#ifndef GLTF_DRACO_BRIDGE_H
#define GLTF_DRACO_BRIDGE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gltf_draco_mesh gltf_draco_mesh; /* opaque: a decoded Draco mesh */

typedef enum { GLTF_DRACO_OK = 0, GLTF_DRACO_MALFORMED, GLTF_DRACO_OUT_OF_MEMORY } gltf_draco_result;

/* Decodes size bytes of a Draco mesh into *out (free with gltf_draco_free). MALFORMED with
 * the decoder's message in error (always NUL-terminated) when the bytes are not a Draco
 * triangle mesh; OUT_OF_MEMORY when an allocation failed. */
gltf_draco_result gltf_draco_decode(const uint8_t *data, size_t size, gltf_draco_mesh **out, char *error,
                                    size_t error_size);
void gltf_draco_free(gltf_draco_mesh *mesh);

long gltf_draco_points(const gltf_draco_mesh *mesh);
long gltf_draco_faces(const gltf_draco_mesh *mesh);
/* Face f's three point indices. */
void gltf_draco_face(const gltf_draco_mesh *mesh, long f, uint32_t out[3]);
/* The components of the attribute whose unique id is id, or -1 when the mesh has none. */
int gltf_draco_components(const gltf_draco_mesh *mesh, int id);
/* Point p's values of attribute id, components of them, as doubles (a normalized integer
 * attribute in [0, 1] or [-1, 1], others as stored); 0 when a value cannot be converted. */
int gltf_draco_values(const gltf_draco_mesh *mesh, int id, long p, double *out);

#ifdef __cplusplus
}
#endif

#endif
