/* rig30_gltf.h - chapter 30's rig as a glTF 2.0 file, written by gltf_write. */
#ifndef RIG30_GLTF_H
#define RIG30_GLTF_H

#include "base/bytes.h"
#include "rig30.h"

#include "math/quat.h"

/* The chapter computes in its own frame, z up; glTF's is +Y up. The conversion, a turn of
 * -90 degrees about x, sits on the rig's root node above the skeleton (a skinned mesh
 * follows its joints, so a transform on the mesh node would be ignored): in the file a
 * chapter point (x, y, z) is seen at (x, z, -y), and the chapter's numbers, inverse binds
 * included, stay in the chapter's frame. */
#define RIG30_GLTF_RIG_NAME "chapter30 rig (z up to +Y up)"
quat rig30_gltf_z_up_to_y_up(void);

/* The leaf joint's tail: an end node this far along the child's +z, so that viewers that
 * draw bones give the child a short bone instead of one as long as its parent. It is the
 * skin's last joint, weighted by no vertex: Blender's importer makes bones of joints only
 * (make blender-check shows "child" 0.25 long from the mesh's top). */
#define RIG30_GLTF_END_LENGTH 0.25

/* Viewers that blend rotations per component and renormalise (nlerp) leave glTF's slerp
 * between keys; keys close enough keep the difference, for a point `radius` from the
 * axis, below RIG30_GLTF_NLERP_TOLERANCE. */
#define RIG30_GLTF_NLERP_TOLERANCE 1e-4
#define RIG30_GLTF_MAX_KEYS 64
/* The largest distance, over t in [0, 1], between slerp and nlerp of two keys `step`
 * radians apart about one axis, for a point at `radius` from it. */
double rig30_gltf_nlerp_deviation(double step, double radius);
/* The fewest equal segments of total_angle whose deviation stays below tolerance. */
int rig30_gltf_key_segments(double total_angle, double radius, double tolerance);

/* The twist rig as one glTF 2.0 file (gltf_write): mesh, normals, four joint slots per
 * vertex (unused ones joint 0 with weight 0), the skin "cylinder skin" and inverse binds,
 * the joints as TRS nodes under the rig's root (the frame conversion), the leaf's end
 * node, and the child's twist "twist" from 0 to 180 degrees over one second, keyed every
 * 180 / rig30_gltf_key_segments(pi, r, 1e-4) degrees, r the largest distance of an
 * exported vertex (with the corrective shape, at its weights 0 to 1) from the twist axis. LINEAR slerp between keys about
 * one axis is exact, so time t reproduces the angle 180 t. */
lab_error rig30_gltf_export(const rig30_rig *rig, bytes *out, lab_diag *d);

/* The same twist with a corrective shape as one morph target (lab30-fixes): its POSITION
 * deltas (in the chapter's frame, like the mesh), mesh.weights {0}, and the weight keyed
 * with the twist, 180 t degrees at time t driving the weight t (LINEAR, exact);
 * asset.generator names lab30-fixes. */
lab_error rig30_gltf_export_corrective(const rig30_rig *rig, const vec3 *deltas, bytes *out, lab_diag *d);

#endif
