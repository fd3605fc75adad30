/* pose.h - one pose of a skinned mesh: a skeleton's locals to its palette, and the job that
 * goes on to the blend. Chapter 30's formulas:
 *
 *   world matrix     G_j = G_parent(j) L_j  (scene.h, parents first)
 *   skin matrix      C_j = G_j B_j^-1       (current world times inverse bind)
 *
 * At the bind pose G_j = B_j, every C_j = I and p' = p.
 */
#ifndef SKIN_POSE_H
#define SKIN_POSE_H

#include "mesh/scene.h"
#include "skin/blend.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out_inverse_bind[j] = B_j^-1 through mat4_invert_translation: chapter 30's rig binds its
 * joints by pure translations, and the helper refuses anything else. */
lab_error skin_inverse_binds(const mat4 *bind_world, int joint_count, mat4 *out_inverse_bind,
                             lab_diag *d);

/* The palette's arithmetic alone, for inputs already validated by their own rules:
 * out_palette[j] = C_j = G_{node(j)} B_j^-1, node(j) = joint_node[j] for a skin whose joints
 * are some of a skeleton's nodes (glTF's skin.joints), or j when joint_node is NULL.
 * skin_palette validates with the lab's rules and then runs it; the glTF sampler runs it
 * after glTF's validation (gltf_validate: its own tolerances, no magnitude bound). */
void skin_palette_run(const mat4 *world, const int *joint_node, const mat4 *inverse_bind, int joint_count,
                      mat4 *out_palette);

/* out_palette[j] = C_j = G_j B_j^-1, after checking both inputs (finite, affine, bounded). */
lab_error skin_palette(const mat4 *world, const mat4 *inverse_bind, int joint_count,
                       mat4 *out_palette, lab_diag *d);

/* The dual-quaternion palette from the joints' own rotations: world Q_j = Q_parent L_j
 * along the hierarchy (parents from `joints`, validated like scene_evaluate), then
 * C_j = Q_j q^(B_j^-1). Keeps each rotation's sign, which the matrices cannot. */
lab_error skin_palette_dualquats(const scene_node *joints, const dualquat *local, int joint_count,
                                 const mat4 *inverse_bind, dualquat *out_palette, lab_diag *d);

/* The one pose function: a skeleton's locals to its palette, chapter 30's chain up to the
 * blend, which every program, the fixes and the glTF lab's rig reach through here:
 *   G_j = G_parent(j) L_j    (scene_evaluate: validated, parents first)
 *   C_j = G_j B_j^-1         (skin_palette)
 * and, when local_dq and out_palette_dq are both given, the same palette as dual
 * quaternions from the joints' own rotations (skin_palette_dualquats), signs kept.
 * out_world and out_palette hold joint_count matrices (caller-owned). */
lab_error skin_pose_palette(const scene_node *joints, int joint_count, const mat4 *inverse_bind,
                            const dualquat *local_dq, mat4 *out_world, mat4 *out_palette,
                            dualquat *out_palette_dq, lab_diag *d);

/* One pose of a skinned mesh, the whole chain of chapter 30 in order:
 * locals -> skin_pose_palette (G_j, C_j = G_j B_j^-1) -> skin_deform (LBS or DQS).
 * For DQS with local_dq set, the palette's dual quaternions come from the joints' own
 * rotations (skin_palette_dualquats) and keep their signs.
 * Inputs are borrowed; outputs are caller-owned arrays of joint_count / vertex_count. */
typedef struct {
    const scene_node *joints;        /* current locals L_j, parents first */
    int joint_count;
    const mat4 *inverse_bind;        /* B_j^-1, joint_count of them */
    const vec3 *bind_positions;      /* the bind mesh, in the reference world */
    const skin_influences *influences; /* one vertex per bind position */
    skin_blend blend;                /* LBS when zero-initialised */
    const dualquat *local_dq;        /* DQS only, optional: L_j as dual quaternions */
    mat4 *out_world;                 /* G_j */
    mat4 *out_palette;               /* C_j */
    vec3 *out_positions;             /* p' */
} skin_pose_job;

lab_error skin_pose_run(const skin_pose_job *job, lab_diag *d);

#ifdef __cplusplus
}
#endif

#endif
