/* view30_asset.h - a glTF asset playing in the window (view30_asset.c), without the
 * window: read and validated by the lab's reader (compressed and quantized files as
 * lab30-gltf reads them), its clips sampled at their own speed, skinned by LBS or DQS and
 * drawn by the lab's rasterizer into one 800 x 600 frame. */
#ifndef VIEW30_ASSET_H
#define VIEW30_ASSET_H

#include <stdbool.h>

#include "base/diag.h"
#include "draw/camera.h"
#include "draw/raster.h"
#include "gltf/gltf.h"
#include "mesh/mesh.h"
#include "skin/blend.h"

typedef struct {
    int node, mesh, primitive, vertex_count;
    bool skinned;
    mesh_edge *edges;
    int edge_count;
} view30_part;

typedef struct {
    gltf_document doc;
    view30_part *parts;
    int part_count;
    int clip;                /* the animation playing, -1 when the asset has none */
    double start, end;       /* its time range */
    camera cam;              /* fitted over the clip's samples, refitted per clip */
    vec3 **positions;        /* per part, the last frame's */
    int vertex_total;
    bool *is_joint;          /* per node: a joint of one of the asset's skins */
    vec3 *node_at;           /* per node, the last frame's world origin */
    bool joint_names;        /* the skeleton's joints named on the frame (key j) */
    /* with a sheet: each skinned part by the student's whole loop (exercise 10), drawn over
     * the lab's in red, dashed; yours_words says by what, or why not */
    vec3 **yours;            /* per part (NULL where not drawn) */
    char yours_words[96];    /* "" without a sheet */
} view30_asset;

/* Reads and validates the asset with the lab's reader (compressed and quantized files as
 * lab30-gltf reads them); the reader's refusal is returned as it is. */
lab_error view30_asset_open(view30_asset *a, const char *path, lab_diag *d);
/* Chooses clip k (modulo the animation count) and fits the camera over its samples. */
lab_error view30_asset_clip(view30_asset *a, int k, lab_diag *d);
/* The frame (800 x 600, out is new) at time t of the clip, skinned by `method`, the skins'
 * skeletons drawn over the mesh (a bone from each joint's parent joint to it), with each
 * joint's name where a->joint_names. */
lab_error view30_asset_frame(view30_asset *a, double t, skin_method method, bool paused, canvas *out, lab_diag *d);
void view30_asset_free(view30_asset *a);
/* No drawing of the student's over the asset, and `words` (at most 95 characters) why. */
void view30_asset_yours_clear(view30_asset *a, const char *words);

#endif
