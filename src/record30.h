/* record30.h - what chapter 30 (lab/lab30.c) computes, and how it is recorded: the JSON
 * evidence, the radius CSV, the optional glTF export and the report on stdout. The
 * computation itself stays in the chapter program; this module only writes it down.
 */
#ifndef RECORD30_H
#define RECORD30_H

#include <stdbool.h>
#include <stdio.h>

#include "camera.h"
#include "output.h"
#include "rig30.h"
#include "rig30_cases.h"
#include "rig30_check.h"

#define LAB30_MAX_POSES 8

/* Everything one pose produces: L_j, G_j, C_j and p' (in `pose`), and what is measured. */
typedef struct {
    double theta_deg;
    rig30_pose pose;
    rig30_ring_radius ring[RIG30_RINGS];
    double ring_analytic[RIG30_RINGS];   /* r * r'/r from the article's formula */
    double ring_weight[RIG30_RINGS];     /* child weight of the ring */
    int degenerate_triangles;
    rig30_check check;
} lab30_pose;

typedef struct {
    rig30_rig rig;
    mesh_edge *edges;
    int edge_count;
    double bind_max_error;
    lab30_pose pose[LAB30_MAX_POSES];
    int pose_count;
    rig30_check analytic;                /* over all poses */
    rig30_hand_control hand;
    int invalid_count;
    lab_error *invalid_code;
    lab_diag *invalid_diag;
    camera cam;                          /* the figure's */
    bool has_middle_weights, gltf;       /* the run's options the record mentions */
    double middle_weights[2];
} chapter30;

void chapter30_free(chapter30 *c);

/* skinning30.json, skinning30-radii.csv and, with c->gltf, skinning30.gltf. */
lab_error record30_add_evidence(const chapter30 *c, const vec3 axis[2], output_batch *b, lab_diag *d);

/* The chapter's tables, each computed value beside its independent check; returns
 * whether every check passed. */
bool record30_print_report(const chapter30 *c, FILE *out);

/* Names a vertex the way the student sees the cylinder: its ring and segment. */
void record30_locate_vertex(const chapter30 *c, lab_diag *d);

#endif
