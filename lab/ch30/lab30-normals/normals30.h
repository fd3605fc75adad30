/* normals30.h - what lab30-normals (weights, spaces and normals) computes, and how
 * it is recorded: the JSON evidence, the error and weights CSVs and the report. The
 * computation stays in lab/ch30/lab30-normals/lab30-normals.c.
 */
#ifndef NORMALS30_H
#define NORMALS30_H

#include <stdbool.h>
#include <stdio.h>

#include "draw/camera.h"
#include "skin/normals.h"
#include "program/output.h"
#include "rig30.h"

#define NORMALS30_POSES 4
#define NORMALS30_VERTS (RIG30_RINGS * RIG30_SEGMENTS)

/* A regression pose: which rig at which angle, with what child scale and model matrix. */
typedef struct {
    const char *name, *description;
    const char *title;    /* in words, for the figure: "elbow bent 135 deg" */
    rig30_kind rig;
    double angle_deg;
    vec3 child_scale;     /* (1, 1, 1): none */
    mat4 model;           /* M_model */
} normals30_spec;

typedef struct {
    normals30_spec spec;
    rig30_pose pose;                            /* model-space positions, world, palette */
    vec3 world_positions[NORMALS30_VERTS];
    vec3 normals[NORMALS_METHOD_COUNT][NORMALS30_VERTS];  /* world normals per method */
    vec3 truth[NORMALS30_VERTS];                          /* the skinned surface's own normal */
    vec3 faces[NORMALS30_VERTS];                          /* area-weighted face normals of the mesh */
    vec3 naive[NORMALS30_VERTS];                          /* blended, then M3x3 instead of (M^-1)^T */
    double error[NORMALS_METHOD_COUNT][NORMALS30_VERTS];
    normals_error summary[NORMALS_METHOD_COUNT], faces_summary, naive_summary;
    double steady_max[NORMALS_METHOD_COUNT];    /* max error where the weights do not vary; */
    int steady_count;                           /* over none when 0 (printed "none", JSON null) */
    int folded_count;                           /* truth . blended < 0: the surface folds */
    camera ortho, perspective;
} normals30_pose;

typedef struct {
    rig30_rig rigs[2];
    skin_weight_report weights[2];              /* per rig (rig30_kind), what the policy did */
    skin_weight_policy policy;                  /* the run's --policy */
    const char *weights_file[2];                /* --twist-weights, --bend-weights, or NULL */
    mesh_edge *edges;
    int edge_count;
    normals30_pose pose[NORMALS30_POSES];
    output_batch out;                           /* what the run writes, and where */
    const char *outdir;
} normals30;

/* normals30.png and its panels (normals30_figures.c, a cli_step on a normals30): per pose,
 * each method's normals drawn on the wireframe, coloured by their angle to the true normal,
 * and the pose in perspective; the cameras are chosen here, for the shaded figure too. */
lab_error normals30_figures(void *state, lab_diag *d);

/* normals30-shaded.png and its panels (normals30_figures.c, a cli_step on a normals30,
 * after the figure's cameras are chosen): under the scaled child and the 135-degree bend,
 * the mesh filled and lit by one directional light with each method's normals, with the
 * true normal, and the rigid normal's angle error on the mesh with a colour bar. */
lab_error normals30_shaded_figure(void *state, lab_diag *d);

/* Frees what the computation allocated in the normals30 at state (a cli_chapter release). */
void normals30_release(void *state);

/* normals30.json, normals30-errors.csv and the weights each rig used,
 * normals30-weights-twist.csv and normals30-weights-bend.csv. */
/* (a cli_step on a normals30: adds to its `out`) */
lab_error normals30_evidence(void *state, lab_diag *d);

/* The report, pose by pose; whether every check passed. */
/* (a cli_chapter report on a normals30) */
/* The report's sections (lab30-normals.c's step list titles and numbers them): the weights
 * the policy produced, then each pose's normals against the truth. */
bool normals30_report_weights(const void *state, FILE *out);
bool normals30_report_poses(const void *state, FILE *out);

#endif
