/* normals30.h - what lab30-normals (weights, spaces and normals) computes, and how
 * it is recorded: the JSON evidence, the error and weights CSVs and the report. The
 * computation stays in lab/ch30/lab30-normals/lab30-normals.c.
 */
#ifndef NORMALS30_H
#define NORMALS30_H

#include <stdbool.h>
#include <stdio.h>

#include "draw/camera.h"
#include "base/report.h"
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

/* Whether a pose is the bind pose (no angle, no scale): there every method gives the true
 * normal, a check. */
static inline bool normals30_is_bind_pose(const normals30_spec *s)
{
    return s->angle_deg == 0 && s->child_scale.x == 1 && s->child_scale.y == 1 && s->child_scale.z == 1;
}

/* The run's options (lab30-normals.c's table fills them). */
typedef struct {
    skin_weight_policy policy;                  /* --policy */
    const char *weights_file[2];                /* --twist-weights, --bend-weights, or NULL */
} normals30_options;

/* What lab30-normals.c's stages made; the figures, the evidence and the report read it. */
typedef struct {
    normals30_options options;
    rig30_rig rigs[2];
    skin_weight_report weights[2];              /* per rig (rig30_kind), what the policy did */
    mesh_edge *edges;
    int edge_count;
    normals30_pose pose[NORMALS30_POSES];
    report_checks checks;                       /* the bind pose's normals against the truth */
} normals30;

/* Each pose's two cameras, one orthographic and one perspective (normals30_figures.c). */
void normals30_choose_cameras(normals30_pose poses[NORMALS30_POSES]);

/* normals30.png and its panels: per pose, each method's normals drawn on the wireframe,
 * coloured by their angle to the true normal, and the pose in perspective. */
lab_error normals30_figures(const normals30 *r, output_batch *out, lab_diag *d);

/* normals30-shaded.png and its panels: under the scaled child and the 135-degree bend, the
 * mesh filled and lit by one directional light with each method's normals, with the true
 * normal, and the rigid normal's angle error on the mesh with a colour bar. */
lab_error normals30_shaded_figure(const normals30 *r, output_batch *out, lab_diag *d);

/* Frees what the stages allocated in r. */
void normals30_free(normals30 *r);

/* normals30.json, normals30-errors.csv and the weights each rig used,
 * normals30-weights-twist.csv and normals30-weights-bend.csv (normals30_record.c). */
lab_error normals30_evidence(const normals30 *r, output_batch *out, lab_diag *d);

/* The report's bodies (lab30-normals.c prints the headings): the weights the policy
 * produced, then each pose's normals against the truth with the rows of its checks. */
void normals30_report_weights(const normals30 *r, FILE *out);
void normals30_report_poses(const normals30 *r, FILE *out);

#endif
