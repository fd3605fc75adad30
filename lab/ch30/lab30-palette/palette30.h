/* palette30.h - what lab30-palette (matrix palettes, packed float vertices, a
 * crowd) computes, and how it is recorded: the JSON evidence, the layouts CSV and the
 * report. The computation stays in lab/ch30/lab30-palette/lab30-palette.c.
 */
#ifndef PALETTE30_H
#define PALETTE30_H

#include <stdbool.h>
#include <stdio.h>

#include "skin/fastskin.h"
#include "base/report.h"
#include "program/output.h"
#include "skin/packed.h"
#include "rig30.h"
#include "rig30_cases.h"

#define PALETTE30_VERTS (RIG30_RINGS * RIG30_SEGMENTS)
#define PALETTE30_POSES 5
#define PALETTE30_COPIES 4                     /* instances per pose: 20 in the crowd */
#define PALETTE30_INSTANCES (PALETTE30_POSES * PALETTE30_COPIES)
#define PALETTE30_K 4                          /* the engine format: four influences */
#define PALETTE30_TOLERANCE 1e-5               /* float32 against double on this unit-sized rig */
extern const double palette30_pose_deg[PALETTE30_POSES]; /* 0, 45, 90, 135, 180 */

typedef struct {
    mat4 skin[RIG30_JOINTS];          /* K_j = G_j B_j^-1 in doubles */
    dualquat dq[RIG30_JOINTS];        /* the same, signed, for DQS */
    palette_matrix pm[RIG30_JOINTS];  /* the float palettes a frame uploads */
    palette_columns pc[RIG30_JOINTS]; /* pm in the CPU kernels' column layout */
    palette_dualquat pd[RIG30_JOINTS];
} palette30_frame;

/* The run's options (lab30-palette.c's table fills them). */
typedef struct {
    int threads;                      /* --threads */
    int level;                        /* --simd, a simd_level */
} palette30_options;

/* Each report section's checks, decided by the stage that made its numbers. */
typedef struct {
    report_checks poses, crowd, candidates;
} palette30_checks;

/* What lab30-palette.c's stages made; the figures, the evidence and the report read it. */
typedef struct {
    palette30_options options;
    rig30_rig rig;
    vec3 bind_normals[PALETTE30_VERTS];
    packed_mesh packed;
    packed_report truncation;
    palette30_frame frame[PALETTE30_POSES];
    double error[2][PALETTE30_POSES][2];        /* [method][pose][position, normal]: float vs double */
    float crowd_model[PALETTE30_POSES][3 * PALETTE30_VERTS];   /* skinned once per pose (shared palette) */
    mat4 world[PALETTE30_INSTANCES];
    vec3 crowd_world[PALETTE30_INSTANCES][PALETTE30_VERTS];
    double instancing_difference;     /* shared palette + own world vs merged palette */
    double level_difference;          /* the chosen level against scalar */
    rig30_candidates candidates;      /* RTR4's flowchart for one bend-rig vertex */
    mesh_edge *edges;
    int edge_count;
    palette30_checks checks;
} palette30;

/* Frees what the stages allocated in r. */
void palette30_free(palette30 *r);

/* palette30.json and palette30-layouts.csv (palette30_record.c). */
lab_error palette30_evidence(const palette30 *r, output_batch *out, lab_diag *d);

/* The report's bodies (lab30-palette.c prints the headings): tables, and the rows of the
 * checks its stages decided. */
void palette30_report_layouts(const palette30 *r, FILE *out);
void palette30_report_poses(const palette30 *r, FILE *out);
void palette30_report_crowd(const palette30 *r, FILE *out);
void palette30_report_candidates(const palette30 *r, FILE *out);

/* palette30_figures.c: palette30-candidates.png and palette30.png into out. */
lab_error palette30_figures(const palette30 *r, output_batch *out, lab_diag *d);

#endif
