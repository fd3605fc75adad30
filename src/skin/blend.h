/* blend.h - the blends of chapter 30 and its closing section, in double precision: one per
 * method, for one vertex, and skin_deform, which runs them over a mesh.
 *
 *   LBS   p~' = sum_j w_j C_j p~         with p~ = (x, y, z, 1), w_j >= 0, sum_j w_j = 1
 *   DQS   p' = q^(p), q^ = sum_j w_j s_j q^_j / |sum_j w_j s_j q_j0|   (Kavan et al. 2007)
 *
 * where s_j = -1 when q^_j lies in the other hemisphere from the heaviest influence's (q
 * and -q are the same rotation), else 1 (see dualquat.h). DQS needs rigid C_j and never
 * shrinks a ring, but bulges at bends. These are the references: the float kernels
 * (fastskin.h) and the shaders (shaders/skin_blend.glsl) are their fast twins and are
 * tested against them.
 */
#ifndef SKIN_BLEND_H
#define SKIN_BLEND_H

#include <stdbool.h>

#include "math/dualquat.h"
#include "math/linalg.h"
#include "skin/influences.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every coordinate finite. */
lab_error skin_validate_points(const vec3 *points, int count, lab_diag *d);

/* The LBS blend of one vertex: the homogeneous sum sum_k w_k C_{joint_k} p~ over its k
 * influences (`joint` and `weight` point at them), without any checks: the teaching path
 * that also shows what unnormalised weights do (w != 1). */
vec4 skin_lbs_point(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette);

/* The matrix LBS applies to one vertex, M = sum_k w_k C_{joint_k}: skin_lbs_point is M p~.
 * The chapter's explanation of the collapse: a weighted sum of rigid matrices is in
 * general not rigid (see mat4_linear_singular_values). */
mat4 skin_blend_matrix(const int *joint, const double *weight, int k, const mat4 *palette);

/* The DQS blend of one vertex: q^ = sum_k w_k q^_{joint_k} (with the hemisphere fix
 * against the heaviest influence when asked), normalised, applied to p.
 * LAB_ERR_DQ_ZERO_NORM when the blend's real part vanishes; d then names `where`. */
lab_error skin_dqs_point(vec3 p, const int *joint, const double *weight, int k,
                         const dualquat *palette, bool hemisphere_fix, vec3 *out,
                         const char *where, lab_diag *d);

/* The unit dual quaternion DQS blends for one vertex: skin_dqs_point without the point
 * (a normal turns by its real part). */
lab_error skin_dqs_blend(const int *joint, const double *weight, int k, const dualquat *palette,
                         bool hemisphere_fix, dualquat *out_unit, const char *where, lab_diag *d);

/* How to blend the palette. Zero-initialised means LBS. */
typedef enum { SKIN_LBS = 0, SKIN_DQS } skin_method;
typedef struct {
    skin_method method;
    bool skip_hemisphere_fix;  /* DQS only: blend q^ as given, to show why the fix exists */
    /* DQS only: the palette as dual quaternions with the signs the animation gives them
     * (a joint turned by 360 degrees has q_0 = -1). NULL derives them from the matrices,
     * where every sign is lost (w >= 0). When given, each must be the same transform as
     * its matrix within 1e-9 (LAB_ERR_DQ_MISMATCH otherwise). */
    const dualquat *palette_dq;
    /* DQS only: how far a skin matrix's 3x3 part may be from a rotation and still count
     * as rigid (dualquat_from_mat4_within); 0 means DUALQUAT_RIGID_TOLERANCE, the lab's
     * double-precision rigs. Float32 data, such as glTF's, needs a float-sized one. */
    double rigid_tolerance;
} skin_blend;

const char *skin_method_name(skin_method method); /* "LBS", "DQS" */

/* Skins in->vertex_count points into out_positions (caller-owned, same count) with the
 * chosen method over the same influences and palette. Validates points, influences and
 * palette first (DQS also: every C_j rigid) and then writes nothing on error; a DQS blend
 * whose real part vanishes stops the loop with LAB_ERR_DQ_ZERO_NORM at that vertex
 * (out_positions then holds the vertices before it). */
lab_error skin_deform(const vec3 *bind_positions, const skin_influences *in, const mat4 *palette,
                      int joint_count, skin_blend blend, vec3 *out_positions, lab_diag *d);

#ifdef __cplusplus
}
#endif

#endif
