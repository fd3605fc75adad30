/* record30_gltf.h - what lab30-gltf (a glTF asset skinned at sampled times) computes, and
 * how it is recorded: the JSON evidence and the report. The computation stays in
 * lab/lab30-gltf.c.
 */
#ifndef RECORD30_GLTF_H
#define RECORD30_GLTF_H

#include <stdio.h>

#include "gltf.h"
#include "output.h"

#define GLTF30_MAX_TIMES 8

/* One skinned primitive of one node. */
typedef struct { int node, mesh, primitive, vertex_count; } gltf30_part;

typedef struct {
    double t;
    mat4 *world;                 /* every node */
    vec3 **positions;            /* per part */
    int normalized;              /* vertices whose weights were divided (normalize policy) */
} gltf30_time;

typedef struct {
    gltf_document doc;
    gltf30_part *parts;         /* every skinned primitive, part_count of them */
    int part_count;
    gltf30_time at[GLTF30_MAX_TIMES];
    int time_count;
    double start, end;
    const char *asset;                /* the run's ASSET, --method and --policy */
    skin_method method;
    skin_policy_kind policy;
} gltf30;

/* Frees r and everything it holds (r may be NULL). */
void gltf30_free(gltf30 *r);

/* gltf30.json: per time, per skinned primitive, the joints' world matrices and the
 * skinned positions. */
lab_error record30_gltf_add_evidence(const gltf30 *r, output_batch *b, lab_diag *d);

/* One line for the asset, one per sampled time. */
void record30_gltf_print_report(const gltf30 *r, FILE *out);

#endif
