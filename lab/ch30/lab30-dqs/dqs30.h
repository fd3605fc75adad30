/* dqs30.h - what lab30-dqs (DQS beside LBS) computes, and how it is recorded: the
 * JSON evidence, the ring CSV and the report. The computation stays in lab/ch30/lab30-dqs/lab30-dqs.c.
 */
#ifndef DQS30_H
#define DQS30_H

#include <stdbool.h>
#include <stdio.h>

#include "draw/camera.h"
#include "base/report.h"
#include "program/output.h"
#include "rig30.h"
#include "rig30_cases.h"
#include "rig30_check.h"

#define DQS30_MAX_ANGLES 4
#define DQS30_SWEEP_SAMPLES 21               /* w = 0, 0.05, ..., 1 */
#define DQS30_SWEEP_ANGLES 4
extern const double dqs30_sweep_theta_deg[DQS30_SWEEP_ANGLES]; /* 60, 90, 120, 180 */
extern const skin_method dqs30_methods[2];                     /* LBS, DQS */

/* The animations: a whole twist every 10 degrees and a bend to 150 degrees every 15 (steps
 * that pass through the figure's poses: 90, 180, 270; 90, 135), each frame LBS beside DQS. */
#define DQS30_ANIM_TWIST_STEP_DEG 10
#define DQS30_ANIM_BEND_STEP_DEG 15
#define DQS30_ANIM_TWIST_FRAMES (360 / DQS30_ANIM_TWIST_STEP_DEG + 1)
#define DQS30_ANIM_BEND_FRAMES (150 / DQS30_ANIM_BEND_STEP_DEG + 1)
#define DQS30_ANIM_POSES (2 * (DQS30_ANIM_TWIST_FRAMES + DQS30_ANIM_BEND_FRAMES))
#define DQS30_ANIM_DELAY_CS 12
extern const int dqs30_anim_frames[2];                        /* [rig30_kind] */
/* Where frame k of a rig's animation keeps its pose under method m (0 LBS, 1 DQS). */
static inline int dqs30_anim_index(rig30_kind kind, int k, int m)
{
    return (kind == RIG30_TWIST ? 0 : 2 * DQS30_ANIM_TWIST_FRAMES) + 2 * k + m;
}

/* One skinned pose: a rig, a method, an angle, and what was measured on it. */
typedef struct {
    rig30_kind rig;
    skin_method method;
    double angle_deg;
    rig30_pose pose;
    rig30_ring_table rings;                                    /* against the closed forms */
    rig30_check check;                                         /* twist */
    rig30_bend_metrics bend;                                   /* bend */
    bool flipped;   /* DQS: the child's q^_1 was negated onto the root's side (q^_0 . q^_1 < 0,
                     * past 180 degrees of twist): where the middle ring jumps the short way */
} dqs30_pose;

/* The run's options (lab30-dqs.c's table fills them). */
typedef struct {
    double twist_deg[DQS30_MAX_ANGLES], bend_deg[DQS30_MAX_ANGLES];
    int twist_count, bend_count;
    double child_scale[3];        /* (1, 1, 1) unless --child-scale: DQS refuses anything else */
} dqs30_options;

/* Each report section's checks, decided by the stage that made its numbers. */
typedef struct {
    report_checks twist, hemisphere, rigid, sweep, chord;
} dqs30_checks;

/* What lab30-dqs.c's stages made; the figures, the evidence and the report read it. */
typedef struct {
    dqs30_options options;
    rig30_rig rigs[2];                     /* indexed by rig30_kind */
    mesh_edge *edges;
    int edge_count;
    dqs30_pose pose[2 * 2 * DQS30_MAX_ANGLES];
    int pose_count;
    dqs30_pose anim[DQS30_ANIM_POSES];     /* the animations' frames (dqs30_anim_index) */
    int anim_count;
    rig30_check twist_check[2];            /* per method, over all twist poses */
    /* the short way round at 270 degrees, and a full turn without the fix */
    double short_with_fix, short_without_fix, short_analytic; /* middle ring turn, radians */
    lab_error full_turn_code;
    lab_diag full_turn_diag;
    double full_turn_with_fix_displacement;
    double sign_difference;                /* q vs -q for the child, after the fix */
    lab_error rigid_code;
    lab_diag rigid_diag;
    double sweep[2][DQS30_SWEEP_ANGLES][DQS30_SWEEP_SAMPLES];           /* measured r'/r */
    double sweep_analytic[2][DQS30_SWEEP_ANGLES][DQS30_SWEEP_SAMPLES];
    rig30_chord chord;                     /* the LBS-versus-DQS text's two bones at +-90 deg */
    camera cam[2];                         /* the twist's, the bend's: every pose and frame */
    dqs30_checks checks;
} dqs30;

/* Frees what the stages allocated in r. */
void dqs30_free(dqs30 *r);

/* dqs30.json and dqs30-rings.csv (dqs30_record.c). */
lab_error dqs30_evidence(const dqs30 *r, output_batch *out, lab_diag *d);

/* The figures' cameras, then dqs30.png and its panels, dqs30-radius.png and
 * dqs30-chord.png; then the animations dqs30-twist.gif and dqs30-bend.gif, the run's last
 * and longest stage (dqs30_figures.c). */
lab_error dqs30_choose_cameras(const dqs30 *r, camera cam[2], lab_diag *d);
lab_error dqs30_figures(const dqs30 *r, output_batch *out, lab_diag *d);
lab_error dqs30_animations(const dqs30 *r, output_batch *out, lab_diag *d);

/* The report's bodies: lab30-dqs.c prints each heading (cli_section) and these print the
 * tables and the rows of the checks its stages decided. */
void dqs30_report_twist(const dqs30 *r, FILE *out);
void dqs30_report_hemisphere(const dqs30 *r, FILE *out);
void dqs30_report_bend(const dqs30 *r, FILE *out);
void dqs30_report_rigid(const dqs30 *r, FILE *out);
void dqs30_report_sweep(const dqs30 *r, FILE *out);
void dqs30_report_chord(const dqs30 *r, FILE *out);

/* dqs30_figures.c: the curves and the chord the figures draw, their checks into checks. */
/* r'/r against the child weight w at four twist angles: the plot's curves, each sample
 * measured on a skinned ring against its closed form. */
lab_error dqs30_sweep_radius(double sweep[2][DQS30_SWEEP_ANGLES][DQS30_SWEEP_SAMPLES],
                             double analytic[2][DQS30_SWEEP_ANGLES][DQS30_SWEEP_SAMPLES], report_checks *checks,
                             lab_diag *d);

/* The LBS-versus-DQS text's picture: two bones at +90 and -90 degrees, half weight each;
 * LBS lands on the chord, DQS stays on the circle. */
lab_error dqs30_sketch_chord(rig30_chord *c, report_checks *checks, lab_diag *d);

#endif
