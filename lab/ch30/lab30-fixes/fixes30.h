/* fixes30.h - lab30-fixes's state, figures (fixes30.png, fixes30-radius.png),
 * evidence (fixes30.json, fixes30.csv) and report. */
#ifndef FIXES30_H
#define FIXES30_H

#include <stdbool.h>
#include <stdio.h>

#include "draw/camera.h"
#include "rig30_fixes.h"
#include "base/report.h"
#include "program/output.h"

typedef enum {
    FIXES30_LBS = 0,        /* the chapter's two joints: the baseline */
    FIXES30_TWIST1,         /* LBS with 1 twist joint */
    FIXES30_TWIST3,         /* LBS with 3 twist joints */
    FIXES30_CORRECTIVE,     /* LBS plus a corrective shape before skinning (glTF's order) */
    FIXES30_CORRECTIVE_AFTER, /* the same target, the shape applied after skinning */
    FIXES30_DQS,            /* dual quaternions (lab30-dqs) */
    FIXES30_COR,            /* centres of rotation (Le and Hodgins 2016) */
    FIXES30_METHODS
} fixes30_method;
const char *fixes30_method_name(fixes30_method m);

#define FIXES30_TWIST_POSES 8  /* 0, 30, ..., 180, and 210 beyond the trained pose */
#define FIXES30_BEND_POSES 2   /* 90, 135 */
#define FIXES30_POSES (FIXES30_TWIST_POSES + FIXES30_BEND_POSES)
#define FIXES30_TOLERANCE 1e-12
#define FIXES30_CURVE_STEP 2.5     /* the plot's curves: the twist every 2.5 degrees, */
#define FIXES30_CURVE_SAMPLES 85   /* 0 to 210 */
/* The animation: every method over the twist, 0 to 210 degrees every 10, a row each. */
#define FIXES30_ANIM_STEP_DEG 10
#define FIXES30_ANIM_FRAMES (210 / FIXES30_ANIM_STEP_DEG + 1)
#define FIXES30_ANIM_DELAY_CS 15
extern const double fixes30_twist_deg[FIXES30_TWIST_POSES];
extern const double fixes30_bend_deg[FIXES30_BEND_POSES];

typedef struct {
    rig30_kind rig;
    double angle_deg;
    fixes30_method method;
    bool applies;            /* twist joints share a twist: not on the bend */
    vec3 *positions;
    double radius_mean, radius_min, radius_max; /* twist: the middle ring's */
    double narrowest;        /* twist: the smallest mean radius of any ring (twist joints
                                move the narrowest ring off the middle) */
    double radius_error;     /* twist: the largest |r - 1| over every vertex, how far the
                                method is from the round cylinder every fix aims at */
    double inner, bulge;     /* bend: rig30_measure_bend's */
    double volume_ratio;     /* against the bind mesh, ends closed */
    double closed_error;     /* largest deviation from the method's closed form; NAN: none */
} fixes30_row;

/* Each report section's checks, decided by the stage that made its numbers. */
typedef struct {
    report_checks closed_forms, bend;
} fixes30_checks;

/* What lab30-fixes.c's stages made; the figures, the evidence and the report read it. */
typedef struct {
    rig30_rig rigs[2];
    mesh_edge *edges;
    int edge_count;
    vec3 *deltas[2][2];      /* the corrective shape, [rig30_order][rig] */
    bool *unreachable[2];    /* per rig, where the blended matrix is singular at the trained
                                pose: no delta before skinning reaches the target */
    vec3 *centres[2];        /* each rig's centres of rotation */
    long cor_evaluations;    /* similarity evaluations of the precomputation */
    long cor_contributing;   /* of them, those above zero (a sparse precomputation's share) */
    double cor_seconds;      /* its time (report only: a time is not evidence) */
    double bind_volume;
    fixes30_row rows[FIXES30_POSES * FIXES30_METHODS];
    int row_count;
    fixes30_row anim[FIXES30_ANIM_FRAMES * FIXES30_METHODS]; /* frame k, method m at k * METHODS + m */
    int anim_count;
    camera cam[2];           /* the figures': one per rig over every panel and frame */
    bool *middle[2];         /* per rig, the middle ring's edges */
    int unreachable_count;    /* vertices no corrective delta reaches (both rigs) */
    double export_error;      /* the exported corrective read back at t = 0.5 against the double path */
    /* the twist sampled finely for the plot: [narrowest ring, largest |r - 1|][method][sample] */
    double curve[2][FIXES30_METHODS][FIXES30_CURVE_SAMPLES];
    fixes30_checks checks;
} fixes30;

/* The row of that rig, pose and method (NULL: none). */
const fixes30_row *fixes30_row_at(const fixes30 *r, rig30_kind rig, double deg, fixes30_method m);

/* The figures' cameras, one per rig over every panel and frame, and each rig's middle-ring
 * edges (fixes30_figures.c). */
lab_error fixes30_choose_cameras(const fixes30 *r, camera cam[2], bool *middle[2], lab_diag *d);
/* fixes30.png and fixes30-radius.png. */
lab_error fixes30_figures(const fixes30 *r, output_batch *out, lab_diag *d);
/* fixes30-twist.gif, every method over the twist: the run's last and longest stage. */
lab_error fixes30_animation(const fixes30 *r, output_batch *out, lab_diag *d);
/* fixes30.json and fixes30.csv (fixes30_record.c). */
lab_error fixes30_evidence(const fixes30 *r, output_batch *out, lab_diag *d);
/* The report's bodies (lab30-fixes.c prints the headings): tables, and the rows of the
 * checks its stages decided. */
void fixes30_report_twist(const fixes30 *r, FILE *out);
void fixes30_report_closed_forms(const fixes30 *r, FILE *out);
void fixes30_report_bend(const fixes30 *r, FILE *out);
void fixes30_report_costs(const fixes30 *r, FILE *out);
/* Frees what the stages allocated in r. */
void fixes30_free(fixes30 *r);

/* fixes30_closed.c: the twist's measures into w (its closed form where the method has one),
 * and every fix against its closed form into c. */
/* The twist's measures: the middle and the narrowest ring, the largest |r - 1|, and the
 * largest deviation from the closed form where the method has one (NAN where it has none
 * at any vertex; a NaN position is never skipped). */
void fixes30_measure_twist(const fixes30 *r, fixes30_row *w, double theta);
/* Each fix against its closed form, in the report's order: the chapter's formula per method
 * (pair by pair for twist joints), the narrowest ring of k twist joints at 180
 * (cos(90/(k+1))), the trained poses of both orders, the post-skin middle ring at every
 * twist, the exported shape read back, DQS and CoR at 180 (radius 1), CoR's middle ring. */
void fixes30_check_closed_forms(const fixes30 *r, report_checks *c);

/* fixes30_prepare.c: the corrective shapes and the centres of rotation, before any pose. */
/* The corrective shape trained at each rig's trained pose, in both orders: deltas[order][rig];
 * where the blended matrix is singular no delta before skinning reaches the target. */
lab_error fixes30_train_corrective(const rig30_rig rigs[2], vec3 *deltas[2][2], bool *unreachable[2],
                                   int *unreachable_count, lab_diag *d);
/* Each rig's centres of rotation, with what the precomputation cost: the similarity
 * evaluations, those above zero, and the time (reported, never evidence). */
lab_error fixes30_precompute_centres(const rig30_rig rigs[2], vec3 *centres[2], long *evaluations, long *contributing,
                                     double *seconds, lab_diag *d);

/* fixes30_record.c: the corrective shape as a glTF morph target (fixes30-corrective.gltf);
 * then read back by our own glTF reader, as lab30-gltf reads it, and skinned at t = 0.5 (90
 * degrees, weight 0.5) against `expect`, the double path's, in glTF's frame: (x, z, -y). */
lab_error fixes30_export_corrective(const rig30_rig *twist, const vec3 *deltas, const vec3 *expect,
                                    double *export_error,
                                    output_batch *out, lab_diag *d);

#endif
