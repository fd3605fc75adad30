/* skinning30.h - what chapter 30 (lab/ch30/lab30/lab30.c) computes, and how it is recorded: the JSON
 * evidence, the radius CSV, the optional glTF export and the report on stdout. The
 * computation itself stays in the chapter program; this module only writes it down.
 */
#ifndef SKINNING30_H
#define SKINNING30_H

#include <stdbool.h>
#include <stdio.h>

#include "draw/camera.h"
#include "program/output.h"
#include "rig30.h"
#include "rig30_cases.h"
#include "rig30_check.h"

#define LAB30_MAX_POSES 8
/* The animation: the twist from 0 to 360 degrees in steps of 5, one frame each. */
#define LAB30_SWEEP_STEP_DEG 5
#define LAB30_SWEEP_FRAMES (360 / LAB30_SWEEP_STEP_DEG + 1)
#define LAB30_SWEEP_DELAY_CS 8                /* a frame shows for 0.08 s */

/* Everything one pose produces: L_j, G_j, C_j and p' (in `pose`), and what is measured. */
typedef struct {
    double theta_deg;
    rig30_pose pose;
    rig30_ring_radius ring[RIG30_RINGS];
    double ring_analytic[RIG30_RINGS];   /* r * r'/r from the article's formula */
    double ring_weight[RIG30_RINGS];     /* child weight of the ring */
    int degenerate_triangles;
    rig30_check check;
    /* "The average of two rigid rotations is not rigid": the middle ring's blended matrix */
    double middle_weights[2];            /* (w_0, w_1) of the ring */
    mat4 middle_blend;                   /* M = w_0 C_0 + w_1 C_1 */
    double middle_det;                   /* det of M's 3x3 part */
    double middle_singular[3];           /* M's singular values, largest first */
    double middle_singular_analytic[3];  /* 1, r'/r, r'/r */
} skinning30_pose;

typedef struct {
    rig30_rig rig;
    mesh_edge *edges;
    int edge_count;
    double bind_max_error;
    skinning30_pose pose[LAB30_MAX_POSES];
    int pose_count;
    rig30_check analytic;                /* over all poses */
    skinning30_pose sweep[LAB30_SWEEP_FRAMES];  /* the animation's poses, computed as the others */
    int sweep_count;
    rig30_hand_control hand;
    int invalid_count;
    lab_error *invalid_code;
    lab_diag *invalid_diag;
    camera cam;                          /* the figure's */
    vec3 axis[2];                        /* the dashed axis the figure draws */
    /* the run's options */
    double theta_deg[LAB30_MAX_POSES];   /* --theta: the poses to compute */
    int theta_count;
    bool has_middle_weights, gltf;       /* --middle-weights given; --gltf */
    double middle_weights[2];
    /* what the run writes, and where */
    output_batch out;
    const char *outdir;
} skinning30;

/* Frees what the computation allocated in the skinning30 at state (a cli_chapter release). */
void skinning30_release(void *state);

/* The figure's camera, one for every pose and every frame of the animation; then
 * skinning30.png and its panels, skinning30-hand.png, skinning30-weights.png and
 * skinning30-refused-weights.png; then skinning30-twist.gif, the twist from 0 to 360
 * degrees beside the middle ring's radius, the run's last and longest step
 * (skinning30_figures.c; cli_steps on a skinning30). */
lab_error skinning30_choose_camera(void *state, lab_diag *d);
lab_error skinning30_figures(void *state, lab_diag *d);
lab_error skinning30_animation(void *state, lab_diag *d);

/* skinning30.json, skinning30-radii.csv and, with c->gltf, skinning30.gltf. */
/* (a cli_step on a skinning30: adds to its `out`) */
lab_error skinning30_evidence(void *state, lab_diag *d);

/* The report's sections, each computed value beside its independent check; each returns
 * whether its checks passed (cli_step reports on a skinning30; lab30.c's step list titles
 * and numbers them). */
bool skinning30_report_mesh(const void *state, FILE *out);
bool skinning30_report_skeleton(const void *state, FILE *out);
bool skinning30_report_bind_pose(const void *state, FILE *out);
bool skinning30_report_hand_control(const void *state, FILE *out);
bool skinning30_report_radii(const void *state, FILE *out);
bool skinning30_report_blend(const void *state, FILE *out);
bool skinning30_report_analytic(const void *state, FILE *out);
bool skinning30_report_degenerate(const void *state, FILE *out);
bool skinning30_report_invalid_inputs(const void *state, FILE *out);

/* Names a vertex the way the student sees the cylinder: its ring and segment. */
/* (a cli_chapter locate on a skinning30) */
void skinning30_locate(const void *state, lab_diag *d);

#endif
