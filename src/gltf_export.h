/* gltf_export.h - chapter 30's rig as a glTF 2.0 file, written by gltf_write. */
#ifndef GLTF_EXPORT_H
#define GLTF_EXPORT_H

#include "bytes.h"
#include "rig30.h"

/* The twist rig as one glTF 2.0 file (gltf_write): mesh, normals, four joint slots per
 * vertex (unused ones joint 0 with weight 0), the skin and inverse binds, the joints as TRS
 * nodes, and the child's twist keyed every 30 degrees from 0 to 180 over one second. LINEAR
 * slerp between keys about one axis is exact, so time t reproduces the angle 180 t. */
lab_error gltf_export_rig30(const rig30_rig *rig, bytes *out, lab_diag *d);

#endif
