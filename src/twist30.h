/* twist30.h - chapter 30's rig: the 9x24 cylinder, two joints and a half-turn twist,
 * with the analytic checks that do not share code with the skinning path.
 *
 *   mesh        9 rings x 24 vertices, z from 0 to 2, radius 1, open ends
 *   skeleton    L_0 = I (root), L_1 = Tz(2) Rz(theta) (child); bind B_0 = I, B_1 = Tz(2)
 *   weights     w_1 = z/2 (child), w_0 = 1 - z/2 (root)
 *   palette     C_0 = I, C_1 = Tz(2) Rz(theta) Tz(-2) = Rz(theta)
 *   radius      r'/r = sqrt(1 - 4 w (1-w) sin^2(theta/2))      (the article's formula)
 *
 * The analytic point is the weighted 2-D rotation written out without matrices:
 *   p' = (w0 x + w1 (x cos t - y sin t), w0 y + w1 (x sin t + y cos t), z).
 */
#ifndef TWIST30_H
#define TWIST30_H

#include "mesh.h"
#include "quat.h"
#include "scene.h"
#include "skin.h"

#define TWIST30_RINGS 9
#define TWIST30_SEGMENTS 24
#define TWIST30_RADIUS 1.0
#define TWIST30_HEIGHT 2.0
#define TWIST30_JOINTS 2
#define TWIST30_MIDDLE_RING 4          /* z = 1, equal weights */
#define TWIST30_MIN_AREA 1e-12         /* a triangle at or below this area is degenerate */
#define TWIST30_CHECK_TOLERANCE 1e-12  /* every analytic check must stay below this */

typedef struct {
    mesh bind;                              /* bind pose = reference world (no mesh node) */
    mesh_stats stats;                       /* from chapter 12's checks on the bind mesh */
    skin_influence *influences;             /* one per bind vertex */
    scene_node bind_joints[TWIST30_JOINTS]; /* the locals at theta = 0 */
    mat4 bind_world[TWIST30_JOINTS];        /* B_j = G_j(0) */
    mat4 inverse_bind[TWIST30_JOINTS];      /* B_j^-1, from the pure-translation helper */
} twist30_rig;

/* Builds and checks the rig. middle_weights (NULL for the article's w = z/2) replaces the
 * (root, child) weights of every vertex on the middle ring: the exercises' knob. Rejected
 * data (bad mesh, bad weights, refused bind) leaves *rig empty. */
lab_error twist30_rig_build(twist30_rig *rig, const double *middle_weights, lab_diag *d);
void twist30_rig_free(twist30_rig *rig);

/* L_0 = I, L_1 = Tz(2) Rz(theta). */
void twist30_joints(double theta, scene_node out[TWIST30_JOINTS]);
/* w_1 = z / height on slot 1 (joint 1), w_0 = 1 - w_1 on slot 0 (joint 0). */
void twist30_weights(const mesh *m, double height, skin_influence *out);
/* The weight a vertex gives the child joint (joint 1), whatever slot holds it. */
double twist30_child_weight(const skin_influence *influence);

/* Everything one pose of the rig produces. positions has rig->bind.vertex_count entries. */
typedef struct {
    double theta;                           /* radians */
    scene_node joints[TWIST30_JOINTS];
    mat4 world[TWIST30_JOINTS];
    mat4 palette[TWIST30_JOINTS];
    vec3 *positions;
} twist30_pose;

/* The full chain for any inputs: inverse binds from bind_world through the helper, then
 * skin_pose_run. The pose path and every invalid-input case go through here. */
typedef struct {
    const vec3 *points;
    const skin_influence *influences;
    int vertex_count;
    const scene_node *joints;
    const mat4 *bind_world;
} twist30_inputs;
lab_error twist30_run(const twist30_inputs *in, twist30_pose *out, lab_diag *d);

/* The rig at angle theta (radians); out->positions must be allocated by the caller. */
lab_error twist30_pose_at(const twist30_rig *rig, double theta, twist30_pose *out, lab_diag *d);

/* --- the independent analytic path ------------------------------------------------- */

double twist30_radius_ratio(double child_weight, double theta);
vec3 twist30_analytic_point(vec3 p, double w0, double w1, double theta);

typedef struct { double mean, min, max; } twist30_ring_radius;
/* Distances from the z axis of the vertices of one ring of a cylinder layout. */
twist30_ring_radius twist30_measure_ring(const vec3 *positions, int ring);

typedef struct {
    double max_position_error;   /* |p_LBS - p_analytic| over all vertices */
    double max_radius_error;     /* | |p_LBS|_xy - r r'/r | over all vertices (and rings) */
    double max_height_error;     /* |z_LBS - z_bind| */
    double max_end_ring_error;   /* end rings against quat_rotate (w = 0 and w = 1) */
} twist30_check;

/* Compares a pose with the analytic path; the errors accumulate into *acc (max). */
void twist30_check_pose(const twist30_rig *rig, const twist30_pose *pose, twist30_check *acc);

/* --- the article's hand control (matrix order and the inverse bind) ----------------- */

typedef enum { HAND_CORRECT, HAND_NO_INVERSE_BIND, HAND_REVERSED_ORDER, HAND_ROWS } hand_row;
typedef struct {
    const char *name[HAND_ROWS];
    vec3 computed[HAND_ROWS];   /* through skin_lbs_point with the palette of each variant */
    vec3 article[HAND_ROWS];    /* the table in the article */
    double error_vs_correct[HAND_ROWS];
} twist30_hand_control;

/* p = (1,1,0), B_1 = Ty(1), G_1 = Ty(1) Rz(90 deg), equal weights: C_1 = G_1 B_1^-1 gives
 * (0.5, 1.5, 0); G_1 alone gives (0, 1.5, 0); B_1^-1 G_1 gives (0, 1, 0). */
lab_error twist30_hand_control_run(twist30_hand_control *out, lab_diag *d);

/* --- invalid inputs: each one rejected by the real pipeline with its own rule ------- */

typedef struct {
    const char *name;
    const char *category;
    lab_error expected;
} twist30_invalid_case;

int twist30_invalid_case_count(void);
const twist30_invalid_case *twist30_invalid_case_get(int i);
/* Runs case i on a copy of the rig's inputs; returns what the pipeline said (d filled). */
lab_error twist30_invalid_case_run(const twist30_rig *rig, int i, lab_diag *d);

#endif
