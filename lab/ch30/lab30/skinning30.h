/* skinning30.h - what chapter 30 (lab/ch30/lab30/lab30.c) computes, and how it is recorded: the JSON
 * evidence, the radius CSV, the optional glTF export and the report on stdout. The
 * computation itself stays in the chapter program; this module only writes it down.
 */
#ifndef SKINNING30_H
#define SKINNING30_H

#include <stdbool.h>
#include <stdio.h>

#include "draw/camera.h"
#include "draw/raster.h"
#include "base/report.h"
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

/* The run's options (lab30.c's table fills them). */
typedef struct {
    double theta_deg[LAB30_MAX_POSES];   /* --theta: the poses to compute */
    int theta_count;
    double middle_weights[2];            /* --middle-weights */
    bool has_middle_weights;             /* given */
    bool gltf;                           /* --gltf */
} skinning30_options;

/* Each report section's checks, decided by the stage that made its numbers (lab30.c). */
typedef struct {
    report_checks mesh, bind_pose, hand, radii, blend, analytic, invalid;
} skinning30_checks;

/* What lab30.c's stages made, in their order; the figures, the evidence and the report
 * read it and change nothing. */
typedef struct {
    skinning30_options options;
    rig30_rig rig;                       /* the bind mesh, its weights, its skeleton */
    mesh_edge *edges;                    /* the bind mesh's edges, for the figures */
    int edge_count;
    double bind_max_error;               /* the bind pose's largest displacement */
    rig30_hand_control hand;
    skinning30_pose pose[LAB30_MAX_POSES];
    int pose_count;
    rig30_check analytic;                /* over all poses */
    skinning30_pose sweep[LAB30_SWEEP_FRAMES];  /* the animation's poses, computed as the others */
    int sweep_count;
    int invalid_count;
    lab_error *invalid_code;
    lab_diag *invalid_diag;
    camera cam;                          /* the figures' */
    vec3 axis[2];                        /* the dashed axis the figures draw */
    skinning30_checks checks;
} skinning30;

/* Frees what the stages allocated in c. */
void skinning30_free(skinning30 *c);

/* Whether the run is the article's own: its three poses 0, 90 and 180 degrees and its
 * weights; only then does the report compare with the values the article prints. */
bool skinning30_is_article_run(const skinning30_options *o);

/* The figures' camera, one for every pose and every frame of the animation
 * (skinning30_figures.c). */
lab_error skinning30_choose_camera(const skinning30 *c, camera *cam, lab_diag *d);
/* The same rule for any poses (view30 fits the pose it shows and the animation's): an
 * oblique look at the cylinder's middle, one orthographic window over the axis and every
 * pose's vertex_count positions (at most LAB30_MAX_POSES + LAB30_SWEEP_FRAMES poses). */
lab_error skinning30_fit_camera(const vec3 axis[2], const vec3 *const *poses, int pose_count, int vertex_count,
                               camera *cam, lab_diag *d);

/* What one panel of the twist shows (a 320 x 496 canvas): the skinned positions, the angle
 * and the middle ring's measures, as four label lines. */
typedef struct {
    const vec3 *positions;
    const char *angle_name;     /* the first line's "theta = ..." (NULL: "theta") */
    double angle_deg;
    double middle_radius;       /* the middle ring's mean radius */
    double middle_det;          /* det of its blended matrix M */
    double middle_singular[3];  /* M's singular values, largest first */
} skinning30_panel;
/* The panel's four lines: the angle, the middle ring's radius, det M and M's singular
 * values, each "none" where it does not apply (NaN). */
void skinning30_panel_labels(const skinning30_panel *p, char lines[4][64]);
/* One panel: the bind mesh's edges at p's positions, the middle ring in orange, the axis
 * dashed, in cam (out is new). The panels of skinning30.png and view30's are this drawing. */
lab_error skinning30_draw_panel(const rig30_rig *rig, const mesh_edge *edges, int edge_count, const camera *cam,
                                const vec3 axis[2], const skinning30_panel *p, canvas *out, lab_diag *d);
/* skinning30.png and its panels, skinning30-hand.png, skinning30-weights.png and
 * skinning30-refused-weights.png. */
lab_error skinning30_figures(const skinning30 *c, output_batch *out, lab_diag *d);
/* skinning30-twist.gif, the twist from 0 to 360 degrees beside the middle ring's radius,
 * the run's last and longest stage. */
lab_error skinning30_animation(const skinning30 *c, output_batch *out, lab_diag *d);

/* skinning30.json, skinning30-radii.csv and, with --gltf, skinning30.gltf
 * (skinning30_record.c). */
lab_error skinning30_evidence(const skinning30 *c, output_batch *out, lab_diag *d);

/* The report's sections: lab30.c prints each heading (cli_section) and these print the
 * bodies, the tables and the rows of the checks the stages decided. */
void skinning30_report_mesh(const skinning30 *c, FILE *out);
void skinning30_report_skeleton(const skinning30 *c, FILE *out);
void skinning30_report_bind_pose(const skinning30 *c, FILE *out);
void skinning30_report_hand_control(const skinning30 *c, FILE *out);
void skinning30_report_radii(const skinning30 *c, FILE *out);
void skinning30_report_blend(const skinning30 *c, FILE *out);
void skinning30_report_analytic(const skinning30 *c, FILE *out);
void skinning30_report_degenerate(const skinning30 *c, FILE *out);
void skinning30_report_invalid_inputs(const skinning30 *c, FILE *out);

/* Names a vertex the way the student sees the cylinder: its ring and segment. */
void skinning30_locate(const skinning30_options *o, lab_diag *d);

/* skinning30_record.c, beside the evidence of the refusals it writes: */
/* Each invalid input through the real pipeline: it must be refused by its own rule (the
 * check: 1 when it was). */
lab_error skinning30_refuse_invalid_inputs(const rig30_rig *rig, int *count, lab_error **code, lab_diag **diag,
                                           report_checks *checks, lab_diag *d);

#endif
