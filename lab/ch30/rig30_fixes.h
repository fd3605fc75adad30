/* rig30_fixes.h - the production fixes for LBS's collapse, on chapter 30's cylinder
 * (lab30-fixes): twist joints, a corrective shape, and centres of rotation. DQS, the
 * fourth, is skin.h's. Each is written so that a closed form or an independent measure
 * can check it (rig30_check.h). The skinning formulas themselves are written in
 * lab30-fixes.c; this module holds what they are trained or precomputed from.
 *
 * Where they come from (section titles translated): chapter 30's last section, "can
 * another rotation representation fix the collapse", leaves more bones and geometric
 * corrections aside as modelling choices; the vertex-blending text 001, section
 * "Formula", adds extra joints for muscle bulge, and weights outside [0, 1] only beside
 * another blending method such as morph targets; its section "In game development" adds
 * faces that combine skinning with morph animation.
 *
 * Twist joints (001, "Formula": extra joints). k helper joints between the root and the
 * child share the twist: joint i (0 .. k+1) sits at z_i = 2i/(k+1) and turns by i/(k+1)
 * of it; a vertex at height z blends its segment's two joints linearly,
 *   w_{i+1} = (z - z_i)(k+1)/2.
 * The chapter's formula applies to each neighbouring pair, which differ by theta/(k+1):
 * the radius at child weight w of the pair is rig30_radius_ratio(w, theta/(k+1)).
 *
 * A corrective shape (pose-space deformation; 001, "Formula": a morph target beside the
 * skin, its weight outside [0, 1] past the trained pose), one per-vertex delta d, its
 * weight driven by the rig's angle, s = theta / trained (the twist is trained at 180
 * degrees, the bend at 90), in one of two orders:
 *   before skinning, a morph target as glTF orders it: p' = M(theta) (p + s d), d in the
 *     bind pose;
 *   after skinning, in the vertex's own frame: p' = M(theta) p + s R(theta) d, R the
 *     vertex's blended, normalised quaternion (the rotation CoR uses below), so the delta
 *     turns with the surface (like a DCC tool's post-deformation, tangent-space shape).
 *     glTF has no such order: this one cannot be exported as a morph target.
 * The target at the trained pose is each vertex moved by its own share of the joint's
 * rotation, C_1(w1 trained) p: the twist's turn by w1 180 about the axis, the bend's
 * rotation by w1 90 about the elbow. Before skinning, where the blended matrix
 * M = w0 C_0 + w1 C_1 is invertible, p + d = M^-1 t, so the trained pose reaches the target
 * exactly; where it is singular (the twist's middle ring at 180: w0 = w1, det 0, lab30's
 * section 5b) no delta before skinning can move the vertex off the axis: d = 0 there. After
 * skinning, d = R^-1 (t - M p) at the trained pose reaches every target, the middle ring
 * too; on the twist's middle ring its radius is |cos(theta/2)| + theta/180deg at every
 * angle (LBS's |cos(theta/2)| plus the turned delta, both along R p).
 *
 * Centres of rotation (Le and Hodgins, "Real-time Skeletal Skinning with Optimized Centers
 * of Rotation", SIGGRAPH 2016). Each vertex i gets a centre p*_i, the area-weighted mean
 * of the bind triangles' centroids, each weighted by how similar the triangle's (mean)
 * weights are to the vertex's:
 *   s(w_p, w_v) = sum_{j<k} w_pj w_pk w_vj w_vk exp(-(w_pj w_vk - w_pk w_vj)^2 / sigma^2),
 * sigma = 0.1; a vertex with no similar triangle (one influence) keeps p* = p. Skinning:
 * the rotation R is the blended, normalised quaternion (hemisphere fix, the heaviest as
 * pivot), the translation LBS of the centre: p' = R (p - p*) + sum_j w_j C_j p*. The
 * precomputation visits every triangle for every vertex: O(V T), 216 x 384 here. Each
 * centre is independent (it parallelises over vertices), and only triangles that share a
 * pair of weighted joints with the vertex have a similarity above zero.
 */
#ifndef RIG30_FIXES_H
#define RIG30_FIXES_H

#include "rig30.h"

#define FIXES30_MAX_HELPERS 7
#define FIXES30_COR_SIGMA 0.1

/* The trained pose: the twist at 180 degrees, the bend at 90 (radians). */
double rig30_trained_angle(rig30_kind kind);
typedef enum {
    FIXES30_BEFORE_SKINNING, /* a morph target, glTF's order: p' = M (p + s d) */
    FIXES30_AFTER_SKINNING   /* in the vertex's frame: p' = M p + s R d */
} rig30_order;

/* The training target of vertex v: C_1(w1 trained) p (see above). */
vec3 rig30_corrective_target(const rig30_rig *rig, int v, lab_diag *d);
/* The corrective shape's deltas for the rig in that order (see above); unreachable[v] (may
 * be NULL) is set where no delta reaches the target: before skinning, where the blended
 * matrix is singular; after skinning, nowhere. */
lab_error rig30_corrective_deltas(const rig30_rig *rig, rig30_order order, vec3 *deltas, bool *unreachable,
                                    lab_diag *d);
/* Vertex v's blended, normalised rotation R: the real part of the library's one DQS blend
 * (skin_dqs_blend, the hemisphere fixed against the heaviest influence) of the palette's
 * dual quaternions dq; the rotation of CoR and of the corrective shape after skinning. */
lab_error rig30_blended_rotation(const skin_influences *in, int v, const dualquat *dq, quat *out, lab_diag *d);

/* Every vertex's centre of rotation (see above). Returns how many (vertex, triangle)
 * pairs have a similarity above zero: all a sparse precomputation would need to visit. */
long rig30_cor_centres(const rig30_rig *rig, vec3 *centres);

/* The signed volume of the cylinder at `positions`, its two open ends closed by fans to
 * their rings' centroids: sum over triangles of p0 . (p1 x p2) / 6. */
double rig30_volume(const rig30_rig *rig, const vec3 *positions);

#endif
