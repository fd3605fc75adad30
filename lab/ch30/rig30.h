/* rig30.h - chapter 30's rigs on the 9x24 cylinder: skeleton, weights, bind pose and
 * one skinned pose. Their closed forms and measurements are in rig30_check.h, the
 * article's hand control and invalid inputs in rig30_cases.h.
 *
 *   mesh        9 rings x 24 vertices, z from 0 to 2, radius 1, open ends
 *
 * The twist (chapter 30):
 *   skeleton    L_0 = I (root), L_1 = Tz(2) Rz(theta) (child); bind B_0 = I, B_1 = Tz(2)
 *   weights     w_1 = z/2 (child), w_0 = 1 - z/2 (root)
 *   palette     C_0 = I, C_1 = Tz(2) Rz(theta) Tz(-2) = Rz(theta)
 *   LBS radius  r'/r = sqrt(1 - 4 w (1-w) sin^2(theta/2))      (the article's formula)
 *   LBS angle   psi = atan2(w sin theta, (1-w) + w cos theta)
 *   DQS         radius kept, angle phi with tan(phi/2) = w sin(t/2) / ((1-w) + w cos(t/2)),
 *               t = theta wrapped into [-180, 180] degrees by the hemisphere fix
 * The analytic LBS point is the weighted 2-D rotation written out without matrices:
 *   p' = (w0 x + w1 (x cos t - y sin t), w0 y + w1 (x sin t + y cos t), z).
 *
 * The bend (an elbow, for LBS vs DQS):
 *   skeleton    L_0 = I, L_1 = Tz(1) Rx(beta): the child bone starts at the joint (0,0,1)
 *               and swings towards -y, so bind y < 0 is the inner side of the elbow
 *   weights     w_1 = smoothstep((z - 0.5) / 1) = 3u^2 - 2u^3 on the band z in [0.5, 1.5],
 *               0 below it, 1 above it: rings 2..6 blend, ring 4 (the joint) at 1/2
 */
#ifndef RIG30_H
#define RIG30_H

#include "mesh/mesh.h"
#include "math/quat.h"
#include "mesh/scene.h"
#include "skin/skin.h"

#define RIG30_RINGS 9
#define RIG30_SEGMENTS 24
#define RIG30_RADIUS 1.0
#define RIG30_HEIGHT 2.0
#define RIG30_JOINTS 2
#define RIG30_MIDDLE_RING 4          /* z = 1, equal weights */
#define RIG30_MIN_AREA 1e-12         /* a triangle at or below this area is degenerate */
#define RIG30_CHECK_TOLERANCE 1e-12  /* every analytic check must stay below this */
#define RIG30_BEND_JOINT_Z 1.0
#define RIG30_BEND_BAND_HALF 0.5     /* the weights blend over z in [0.5, 1.5] */

typedef enum { RIG30_TWIST, RIG30_BEND } rig30_kind;
const char *rig30_kind_name(rig30_kind kind); /* "twist", "bend" */

typedef struct {
    rig30_kind kind;
    mesh bind;                              /* bind pose = reference world (no mesh node) */
    mesh_stats stats;                       /* from chapter 12's checks on the bind mesh */
    skin_influences influences;             /* K = 2 per bind vertex: root, child */
    scene_node bind_joints[RIG30_JOINTS]; /* the locals at theta = 0 */
    mat4 bind_world[RIG30_JOINTS];        /* B_j = G_j(0) */
    mat4 inverse_bind[RIG30_JOINTS];      /* B_j^-1, from the pure-translation helper */
} rig30_rig;

/* Builds and checks the rig. middle_weights (NULL for the article's w = z/2) replaces the
 * (root, child) weights of every vertex on the middle ring: the exercises' knob. Rejected
 * data (bad mesh, bad weights, refused bind) leaves *rig empty. */
lab_error rig30_rig_build(rig30_rig *rig, rig30_kind kind, const double *middle_weights,
                          lab_diag *d);
void rig30_rig_free(rig30_rig *rig);
/* Both rigs, rigs[RIG30_TWIST] and rigs[RIG30_BEND], and the unique edges of the cylinder
 * they share, for the figures (*edges is new; free() it). */
lab_error rig30_build_both(rig30_rig rigs[2], mesh_edge **edges, int *edge_count, lab_diag *d);

/* Twist: L_0 = I, L_1 = Tz(2) Rz(angle). Bend: L_0 = I, L_1 = Tz(1) Rx(angle). */
void rig30_joints(rig30_kind kind, double angle, scene_node out[RIG30_JOINTS]);
/* The same locals as dual quaternions built from the joint's rotation quaternion
 * (axis-angle), as an animation system would store them: they keep the rotation's sign,
 * so a twist of 360 degrees has q_0 = -1 while its matrix is I. */
void rig30_joint_dualquats(rig30_kind kind, double angle, dualquat out[RIG30_JOINTS]);
/* The kind's weight profile (above) into a new *out of K = 2: w_1 on slot 1 (joint 1),
 * w_0 = 1 - w_1 on slot 0. */
lab_error rig30_weights(rig30_kind kind, const mesh *m, skin_influences *out, lab_diag *d);
/* The exercises' knob: every vertex of the middle ring (z = 1) gets weights (root, child). */
void rig30_set_middle_ring(skin_influences *in, const double weights[2]);
/* The weight a vertex gives the child joint (joint 1), whatever slot holds it. */
double rig30_child_weight(const skin_influences *in, int v);

/* Everything one pose of the rig produces. positions has rig->bind.vertex_count entries. */
typedef struct {
    double theta;                           /* radians */
    scene_node joints[RIG30_JOINTS];
    mat4 world[RIG30_JOINTS];
    mat4 palette[RIG30_JOINTS];
    vec3 *positions;
} rig30_pose;

/* out->positions for the rig's vertices (free with rig30_pose_free). */
lab_error rig30_pose_alloc(const rig30_rig *rig, rig30_pose *out, lab_diag *d);
void rig30_pose_free(rig30_pose *p);

/* The rig skinned with the given locals (and, for DQS, their signed dual quaternions,
 * NULL to derive them from the matrices): the library's one pose job, skin_pose_run
 * (G_j, the palette C_j = G_j B_j^-1 with the rig's inverse binds, then the blend).
 * out->positions must be allocated by the caller. */
lab_error rig30_pose_with(const rig30_rig *rig, const scene_node *joints, const dualquat *joints_dq,
                          skin_blend blend, rig30_pose *out, lab_diag *d);

/* The rig's palettes at angle theta: C_j = G_j B_j^-1 as matrices, and (dq not NULL) as
 * dual quaternions that keep the rotation's sign (skin_palette_dualquats). */
lab_error rig30_palettes(const rig30_rig *rig, double theta, mat4 *skin, dualquat *dq, lab_diag *d);

/* The rig at angle theta (radians), skinned with `blend` by skin_pose_run, the joints'
 * signed dual quaternions given for DQS; out->positions must be allocated by the caller. */
lab_error rig30_pose_at(const rig30_rig *rig, double theta, skin_blend blend, rig30_pose *out,
                        lab_diag *d);

/* Replaces the rig's influences with `influences` after applying `policy` to a copy
 * (report filled, may be NULL). On error the rig keeps its own weights. */
lab_error rig30_set_influences(rig30_rig *rig, const skin_influences *influences,
                               skin_weight_policy policy, skin_weight_report *report, lab_diag *d);

/* The bind normals of the cylinder: radial, (x, y, 0) / |(x, y)|. */
void rig30_bind_normals(const rig30_rig *rig, vec3 *out);

/* Which edges to colour, as new arrays of edge_count flags (free() them): both ends on the
 * middle ring (z = 1), and both ends in the blended band (0 < w_1 < 1). band may be NULL. */
lab_error rig30_edge_masks(const rig30_rig *rig, const mesh_edge *edges, int edge_count,
                           bool **middle, bool **band, lab_diag *d);

#endif
