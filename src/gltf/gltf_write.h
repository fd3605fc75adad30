/* gltf_write.h - a skinned, animated mesh as one glTF 2.0 file (buffers embedded as a
 * base64 data URI), so real tools open the chapter's rig.
 *
 * glTF stores matrices column-major and quaternions (x, y, z, w); the conversion happens
 * here, at the boundary, never in the math. The file holds: the mesh (POSITION, NORMAL,
 * indices), JOINTS_0 / WEIGHTS_0 (four slots; unused slots are joint 0 with weight 0, as
 * the specification recommends), the skin with its inverse bind matrices, the joint
 * hierarchy as TRS nodes, a root-level mesh node without a transform (glTF ignores the
 * skinned mesh node's transform), and a LINEAR rotation animation of one joint.
 *
 * Node order: the joints 0 .. J-1, the mesh node J, then the rig's root node J+1 (the
 * parent of every root joint, holding the frame conversion, e.g. the chapter's z-up to
 * glTF's +Y up: a skinned mesh follows its joints' world matrices, so the conversion must
 * sit above the skeleton, not on the mesh node), then an optional end node J+2 under one
 * joint. The end node gives viewers that draw bones a tail for the leaf joint: it is
 * listed last in the skin's joints (inverse bind: its offset after its parent's), so no
 * vertex weights it, because importers such as Blender's make bones only of joints and
 * give a leaf bone its parent's length (2.0 for the chapter's child, the whole cylinder).
 */
#ifndef GLTF_WRITE_H
#define GLTF_WRITE_H

#include <stdint.h>

#include "mesh/mesh.h"
#include "base/bytes.h"
#include "math/quat.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GLTF_WRITE_MAX_JOINTS 16

typedef struct {
    const char *name;
    int parent;                 /* -1 for a root; parents listed first */
    vec3 translation;
    quat rotation;
} gltf_write_joint;

typedef struct {
    const mesh *bind;                   /* positions and triangles */
    const vec3 *normals;                /* one per vertex */
    const uint16_t (*joints)[4];        /* one per vertex */
    const float (*weights)[4];          /* one per vertex, summing to 1 */
    const gltf_write_joint *skeleton;   /* joint_count joints */
    int joint_count;
    const mat4 *inverse_bind;           /* joint_count matrices */
    int animated_joint;                 /* the joint whose rotation is keyed */
    const double *key_times;            /* seconds, increasing */
    const quat *key_rotations;
    int key_count;
    const char *generator;              /* asset.generator: the program that wrote it */
    const char *mesh_name;
    const char *mesh_node_name;         /* see target_positions */
    const char *rig_name;               /* the root node above the skeleton */
    quat rig_rotation;                  /* its rotation: the frame conversion */
    const char *skin_name;
    const char *animation_name;
    const char *end_name;               /* NULL: no end node */
    int end_parent;                     /* the joint it hangs under */
    vec3 end_translation;               /* in that joint's frame */
    /* An optional morph target: per-vertex POSITION deltas (NULL: none), with mesh.weights
     * {0} and a LINEAR weights channel on the mesh node, one weight a key (at key_times).
     * Blender's importer leaves an animated skinned mesh's node behind as an Empty and
     * gives the mesh object the mesh's name, so with a target the node needs a name of its
     * own for the mesh object to keep the mesh's. */
    const vec3 *target_positions;
    const double *target_weights;
    const char *target_name;            /* mesh.extras.targetNames[0]; NULL: none */
} gltf_write_input;

/* The base64 of data (RFC 4648, with padding) appended to out. */
void base64_append(bytes *out, const uint8_t *data, size_t size);

/* Writes the .gltf JSON text into out. */
lab_error gltf_write(const gltf_write_input *in, bytes *out, lab_diag *d);

#ifdef __cplusplus
}
#endif

#endif
