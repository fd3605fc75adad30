/* gltf30.h - what lab30-gltf (a glTF asset skinned at sampled times) computes, and
 * how it is recorded: the JSON evidence and the report. The computation stays in
 * lab/ch30/lab30-gltf/lab30-gltf.c.
 */
#ifndef GLTF30_H
#define GLTF30_H

#include <stdio.h>

#include "draw/camera.h"
#include "gltf/gltf.h"
#include "base/report.h"
#include "program/output.h"

#define GLTF30_MAX_TIMES 8
/* The numbers gltf30.json may hold (positions, morph weights, joint matrices, at every
 * sampled time), checked before sampling: every node that instances a mesh is evaluated
 * and written, so a small file of many nodes on one big mesh would otherwise ask for
 * gigabytes. 2^21 is a 175,000-vertex asset at four times; --max-values raises it. */
#define GLTF30_DEFAULT_MAX_VALUES (1 << 21)

/* One skinned primitive of one node. */
/* One primitive of one mesh node: skinned when its node has a skin, morphed when its mesh
 * has targets, rigid (placed by its node) when neither. */
typedef struct { int node, mesh, primitive, vertex_count; bool skinned, morphed; } gltf30_part;
const char *gltf30_part_kind(const gltf30_part *part); /* "skinned", "morphed", "skinned and morphed", "rigid" */

typedef struct {
    double t;
    mat4 *world;                 /* every node */
    vec3 **positions;            /* per part */
    double **morph_weights;      /* per part: its node's morph weights, NULL without targets */
    int normalized;              /* vertices whose weights were divided (normalize policy) */
} gltf30_time;

/* What the report checks (gltf30_check.c), each against a value computed apart from it. */
#define GLTF30_MAX_KEY_TIMES 64     /* distinct key times the sampler is checked at, spread over the keys */
#define GLTF30_KEY_TOLERANCE 1e-9   /* a sampled value against its key, relative to max(1, |key|) */
#define GLTF30_REST_TOLERANCE 1e-5  /* |J - I| of a bind pose; the skinned-vs-mesh bound per unit of size */
#define GLTF30_DECODED_TOLERANCE 1e-6 /* decoded positions outside their declared box, per unit of its size */
typedef struct {
    double weight_deviation, weight_bound; /* largest |W - 1| as skinned, over weight_vertices */
    long weight_vertices;
    long not_finite, coordinates;         /* of the sampled positions */
    int key_times, keys_checked;          /* the sampler at its keys' times */
    double key_difference;                /* largest, relative to max(1, |key|) */
    int bind_parts, rest_parts;           /* skinned parts whose rest pose is / is not their bind pose */
    double bind_difference, bind_bound;   /* rest pose skinned vs M p, over bind_parts */
    double bind_common;                   /* largest |M - I|: 0 where M is the identity */
    double rest_offset;                   /* largest |J_j - J_0| over rest_parts */
    long decoded_values;                  /* decoded POSITION coordinates with declared bounds */
    double decoded_excursion, decoded_bound; /* largest step outside them, and its bound */
    long draco_values;                    /* Draco-decoded ones: quantized in the stream, not compared */
} gltf30_checks;

/* The run's options and arguments (lab30-gltf.c's table fills them). */
typedef struct {
    const char *asset;                /* ASSET */
    double requested_times[GLTF30_MAX_TIMES]; /* --time; none: the animation's quarters */
    int requested_count;
    const char *animation_arg;        /* --anim N|NAME; NULL: the first animation */
    int method;                       /* --method, a skin_method */
    int policy;                       /* --policy, a skin_policy_kind */
    gltf_limits limits;               /* --max-vertices, --max-nodes, --max-joints (0: default) */
    int max_values;                   /* --max-values: numbers in gltf30.json */
} gltf30_options;

/* What lab30-gltf.c's stages made; the figures, the evidence and the report read it. */
typedef struct {
    gltf30_options options;
    gltf_document doc;
    int animation;                    /* the one sampled: an index, -1 when the asset has none */
    gltf30_part *parts;               /* every primitive of every mesh node, part_count of them */
    int part_count;
    gltf30_time at[GLTF30_MAX_TIMES];
    int time_count;
    double start, end;                /* the sampled animation's time range */
    struct { double start, end; } *ranges; /* every animation's, animation_count of them */
    gltf30_checks checks;             /* the measures */
    report_checks verdicts;           /* the checks of them, decided by gltf30_check */
} gltf30;

/* Frees what the stages allocated in r. */
void gltf30_free(gltf30 *r);

/* The figures' camera over points (an asset's skinned positions and joints over time): it
 * looks along the bounds' thinnest axis, tilted a little, the longest axis up, one
 * orthographic window over them all in viewport (view30 plays assets in it too). */
void gltf30_camera_over(const vec3 *pts, int n, camera_viewport_rect viewport, camera *cam);
/* gltf30.png and its panels (gltf30_figures.c). */
lab_error gltf30_figures(const gltf30 *r, output_batch *out, lab_diag *d);

/* gltf30.json: per time, per skinned primitive, the joints' world matrices and the
 * skinned positions (gltf30_record.c). */
lab_error gltf30_evidence(const gltf30 *r, output_batch *out, lab_diag *d);

/* The checks (gltf30_check.c, after the sampling), each measured against a value computed
 * apart from it: the measures into c, the verdicts into verdicts, in the report's order. */
lab_error gltf30_check(const gltf30 *r, gltf30_checks *c, report_checks *verdicts, lab_diag *d);

/* The report's bodies (lab30-gltf.c prints the headings): the asset, what was sampled (a
 * time outside the animation's range said clamped), how many vertices' weights a policy
 * normalised at each time; then the checks' rows, each beside its independent value. */
void gltf30_report(const gltf30 *r, FILE *out);
void gltf30_report_checks(const gltf30 *r, FILE *out);

#endif
