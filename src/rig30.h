/* rig30.h - chapter 30's rigs on the 9x24 cylinder, with the analytic checks that do
 * not share code with the skinning path.
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

#include "mesh.h"
#include "quat.h"
#include "scene.h"
#include "output.h"
#include "skin.h"

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
    skin_influence *influences;             /* one per bind vertex */
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

/* Twist: L_0 = I, L_1 = Tz(2) Rz(angle). Bend: L_0 = I, L_1 = Tz(1) Rx(angle). */
void rig30_joints(rig30_kind kind, double angle, scene_node out[RIG30_JOINTS]);
/* The same locals as dual quaternions built from the joint's rotation quaternion
 * (axis-angle), as an animation system would store them: they keep the rotation's sign,
 * so a twist of 360 degrees has q_0 = -1 while its matrix is I. */
void rig30_joint_dualquats(rig30_kind kind, double angle, dualquat out[RIG30_JOINTS]);
/* The kind's weight profile (above): w_1 on slot 1 (joint 1), w_0 = 1 - w_1 on slot 0. */
void rig30_weights(rig30_kind kind, const mesh *m, skin_influence *out);
/* The weight a vertex gives the child joint (joint 1), whatever slot holds it. */
double rig30_child_weight(const skin_influence *influence);

/* Everything one pose of the rig produces. positions has rig->bind.vertex_count entries. */
typedef struct {
    double theta;                           /* radians */
    scene_node joints[RIG30_JOINTS];
    mat4 world[RIG30_JOINTS];
    mat4 palette[RIG30_JOINTS];
    vec3 *positions;
} rig30_pose;

/* The full chain for any inputs: inverse binds from bind_world through the helper, then
 * skin_pose_run. The pose path and every invalid-input case go through here. */
typedef struct {
    const vec3 *points;
    const skin_influence *influences;
    int vertex_count;
    const scene_node *joints;
    const mat4 *bind_world;
    skin_blend blend;                       /* LBS when zero-initialised */
    const dualquat *joints_dq;              /* DQS: signed locals, or NULL (from matrices) */
} rig30_inputs;
lab_error rig30_run(const rig30_inputs *in, rig30_pose *out, lab_diag *d);

/* The rig at angle theta (radians), skinned with `blend`; out->positions must be
 * allocated by the caller. */
lab_error rig30_pose_at(const rig30_rig *rig, double theta, skin_blend blend, rig30_pose *out,
                        lab_diag *d);

/* --- the independent analytic path ------------------------------------------------- */

double rig30_radius_ratio(double child_weight, double theta);
vec3 rig30_analytic_point(vec3 p, double w0, double w1, double theta);

/* The DQS twist angle phi of a ring with child weight w (closed form above). */
double rig30_dqs_twist_angle(double child_weight, double theta);
/* The LBS twist angle psi of a ring with child weight w. */
double rig30_lbs_twist_angle(double child_weight, double theta);

typedef struct { double mean, min, max; } rig30_ring_radius;
/* Distances from the z axis of the vertices of one ring of a cylinder layout. */
rig30_ring_radius rig30_measure_ring(const vec3 *positions, int ring);

/* The mean turn of a ring about the z axis from its bind position, in radians, from each
 * vertex's signed angle atan2(p x p', p . p') in the xy plane. NAN when the ring has
 * collapsed (a radius below 1e-9 has no direction). */
double rig30_measure_ring_angle(const vec3 *bind, const vec3 *positions, int ring);

typedef struct {
    double max_position_error;   /* |p_skinned - p_analytic| over all vertices */
    double max_radius_error;     /* | |p|_xy - analytic radius | over all vertices and rings */
    double max_height_error;     /* |z_skinned - z_bind| */
    double max_end_ring_error;   /* end rings against quat_rotate (w = 0 and w = 1) */
} rig30_check;

/* Compares a twist pose skinned with `method` with its closed form (LBS: the weighted
 * 2-D rotation; DQS: the rotation by phi, radius kept); errors accumulate into *acc. */
void rig30_check_twist(const rig30_rig *rig, const rig30_pose *pose, skin_method method,
                       rig30_check *acc);

/* Replaces the rig's influences with `influences` after applying `policy` to a copy
 * (report filled, may be NULL). On error the rig keeps its own weights. */
lab_error rig30_set_influences(rig30_rig *rig, const skin_influence *influences,
                               skin_weight_policy policy, skin_weight_report *report, lab_diag *d);

/* The bind normals of the cylinder: radial, (x, y, 0) / |(x, y)|. */
void rig30_bind_normals(const rig30_rig *rig, vec3 *out);

/* The true normal of the skinned surface p'(a, z) = sum_j w_j(a, z) C_j p(a, z), mapped by
 * `model`: the cross product of its two tangents, each carried by model's 3x3 part,
 *   dp'/da = sum_j (w_j C_j dp/da + dw_j/da C_j p),  dp'/dz = likewise with z,
 * with dp/da = (-y, x, 0), dp/dz = (0, 0, 1) exactly, and the weight gradient taken from
 * the weights of the neighbouring vertices (central differences, one-sided at the open
 * ends). This is the ground truth the normal methods are measured against; none of them
 * knows the weight gradient. */
void rig30_true_normals(const rig30_rig *rig, const mat4 *palette, mat4 model, vec3 *out);

/* The twist rig as one glTF 2.0 file (gltf_write): mesh, normals, four joint slots per
 * vertex (unused ones joint 0 with weight 0), the skin and inverse binds, the joints as TRS
 * nodes, and the child's twist keyed every 30 degrees from 0 to 180 over one second. LINEAR
 * slerp between keys about one axis is exact, so time t reproduces the angle 180 t. */
lab_error rig30_export_gltf(const rig30_rig *rig, bytes *out, lab_diag *d);

/* Skins one ring of RIG30_SEGMENTS vertices (radius 1, z = 1) with child weight w under
 * palette {I, Rz(theta)} (the twist's C_0, C_1; for DQS signed from the quaternion) and
 * returns the ring's mean radius: the measured points of the radius-against-weight plot. */
lab_error rig30_sweep_ring_radius(skin_method method, double child_weight, double theta,
                                  double *out_radius, lab_diag *d);

/* What a bend does to the elbow, measured on the skinned positions. */
typedef struct {
    double inner_min_distance;   /* inner side (bind y < 0): min |p' - joint|; 1 at bind */
    double outer_max_bulge;      /* outer side (bind y > 0): max dist(p', bones) - radius */
    double ring_radius[RIG30_RINGS]; /* each ring's mean distance from its own centre */
} rig30_bend_metrics;

/* The bent axis is the two bones as segments: root (0,0,0)-(0,0,1), child from the joint
 * (0,0,1) along the child's rotated z axis for 1 unit. A ring's cross-section radius is
 * taken about its centroid, the point where the bent axis passes through it. */
void rig30_measure_bend(const rig30_rig *rig, const rig30_pose *pose, rig30_bend_metrics *out);

/* --- the article's hand control (matrix order and the inverse bind) ----------------- */

typedef enum { HAND_CORRECT, HAND_NO_INVERSE_BIND, HAND_REVERSED_ORDER, HAND_ROWS } hand_row;
typedef struct {
    const char *name[HAND_ROWS];
    vec3 computed[HAND_ROWS];   /* through skin_lbs_point with the palette of each variant */
    vec3 article[HAND_ROWS];    /* the table in the article */
    double error_vs_correct[HAND_ROWS];
} rig30_hand_control;

/* p = (1,1,0), B_1 = Ty(1), G_1 = Ty(1) Rz(90 deg), equal weights: C_1 = G_1 B_1^-1 gives
 * (0.5, 1.5, 0); G_1 alone gives (0, 1.5, 0); B_1^-1 G_1 gives (0, 1, 0). */
lab_error rig30_hand_control_run(rig30_hand_control *out, lab_diag *d);

/* --- invalid inputs: each one rejected by the real pipeline with its own rule ------- */

typedef struct {
    const char *name;
    const char *category;
    lab_error expected;
} rig30_invalid_case;

int rig30_invalid_case_count(void);
const rig30_invalid_case *rig30_invalid_case_get(int i);
/* Runs case i on a copy of the rig's inputs; returns what the pipeline said (d filled). */
lab_error rig30_invalid_case_run(const rig30_rig *rig, int i, lab_diag *d);

#endif
