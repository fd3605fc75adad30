/* weights30.h - what lab30-weights (where weights come from) computes, and how it
 * is recorded: the JSON evidence, the weights CSV and the report. The computation stays in
 * lab/ch30/lab30-weights/lab30-weights.c, the bone-heat method in src/weights/heat.c, the figures in
 * weights30_figures.c.
 */
#ifndef WEIGHTS30_H
#define WEIGHTS30_H

#include <stdbool.h>
#include <stdio.h>

#include <cJSON.h>

#include "weights/bbw.h"
#include "draw/camera.h"
#include "gltf/gltf.h"
#include "weights/heat.h"
#include "base/report.h"
#include "program/output.h"
#include "rig30.h"

#define WEIGHTS30_VERTS (RIG30_RINGS * RIG30_SEGMENTS)
#define WEIGHTS30_POSES 4            /* twist 90, twist 180, bend 90, bend 135 */
#define WEIGHTS30_BONES 2
#define WEIGHTS30_KKT_TOLERANCE 1e-12 /* relative to Q's largest entry */

/* The weight sets on the cylinder: the chapter's hand weights, bone heat as the paper
 * writes it, bone heat as Blender computes it (src/weights/heat.h), and bounded biharmonic weights
 * (src/weights/bbw.h). */
typedef enum { WEIGHTS30_HAND, WEIGHTS30_HEAT, WEIGHTS30_BLENDER, WEIGHTS30_BBW } weights30_set;
#define WEIGHTS30_SETS 4
#define WEIGHTS30_RESULTS (WEIGHTS30_POSES * WEIGHTS30_SETS * 2) /* x sets x {LBS, DQS} */
const char *weights30_set_name(weights30_set set);       /* "hand", "heat", "blender", "bbw" */
/* The set a bone-heat model's weights go to. */
weights30_set weights30_set_of_model(heat_model model);

/* One rig's skeleton as bones, and its bone-heat weights, both models, beside the
 * chapter's. The checks are on each model's solution (before Blender's cut). */
typedef struct {
    heat_bone bones[WEIGHTS30_BONES];
    heat_result heat[HEAT_MODELS];    /* [heat_model] */
    double child[WEIGHTS30_SETS][WEIGHTS30_VERTS]; /* [set][vertex]: the child joint's weight
                                           * (Blender's: after its cut, not normalised) */
    double root[WEIGHTS30_VERTS];         /* Blender's root weight, after its cut */
    double closed_form[RIG30_RINGS];      /* the paper's discrete system's own solution, per ring */
    double closed_form_error;             /* max over vertices |heat - closed form| */
    double closed_form_tolerance;
    double continuum[RIG30_RINGS];        /* the differential equation's solution, per ring */
    double sum_error[HEAT_MODELS];      /* max_i |sum_j w_ij - 1| */
    double min_weight[HEAT_MODELS];
    double ring_spread[HEAT_MODELS];    /* max over rings of (max - min) of a ring's weights */
    double backward_error[HEAT_MODELS]; /* max over joints: |A w - b| / (|A| |w| + |b|) */
    double cut_sum_lo, cut_sum_hi;        /* Blender's weights after the cut: their sums' range */
    /* bounded biharmonic weights, the end rings as handles (ring 0: the root, the top: the child) */
    bbw_result bbw;
    double harmonic_error;                /* max over vertices |harmonic child weight - z/2| */
    double bbw_ring[RIG30_RINGS];         /* the ring-by-ring system solved on its own (dense) */
    double bbw_ring_error;                /* max over vertices |bbw - bbw_ring| */
    double bbw_min, bbw_max;              /* the child weights' range: the bounds */
    double bbw_kkt_independent;           /* the KKT residual by L (M^-1 (L w)), two products */
} weights30_rig;

/* One skinned pose of one weight set with one method, and what it measures. */
typedef struct {
    int pose;                             /* index into weights30_pose_kind / _deg */
    weights30_set set;
    skin_method method;
    rig30_pose skinned;
    double middle_radius;                 /* the middle ring's mean radius about its centre */
    double top_radius;                    /* the top ring's */
    int narrowest_ring;                   /* the first of the narrowest, when they differ */
    double narrowest_radius;
    bool rings_equal;                     /* every ring's radius within RIG30_CHECK_TOLERANCE of the
                                           * others': no ring is the narrowest */
    double inner_elbow;                   /* bend: the inner side's closest distance to the joint; NAN for a twist */
    double volume_ratio;                  /* against the bind mesh, ends closed */
    double closed_form_radius;            /* hand weights, twist, LBS: the article's r'/r; else NAN */
} weights30_result;

extern const rig30_kind weights30_pose_kind[WEIGHTS30_POSES];
extern const double weights30_pose_deg[WEIGHTS30_POSES];

/* The Laplacian against a mesh whose cotangent weights are known in closed form: a regular
 * hexagon of six equilateral triangles around a centre vertex. */
typedef struct {
    double spoke, spoke_expected;          /* L between the centre and a rim vertex: 1/sqrt(3) */
    double rim, rim_expected;              /* L along a boundary edge: 1/(2 sqrt(3)) */
    double centre, centre_expected;        /* L_cc = -6/sqrt(3) */
    double mass, mass_expected;            /* the centre's area: sqrt(3)/2 */
    double row_sum;                        /* max_i |sum_k L_ik|: L 1 = 0 */
} weights30_laplacian_check;

/* An automatic weight set on an asset, against the weights its artist painted. */
typedef struct {
    double *weights;                        /* vertex_count x joint_count, vertex-major, as the set
                                             * deforms with them (Blender's: cut, then divided by
                                             * their sum, as its armature does) */
    double sum_error, min_weight;           /* of the solution, before any cut */
    double backward_error;
    int negative_count;                     /* solution weights below -1e-12 (an obtuse mesh) */
    int weightless;                         /* vertices whose every weight the cut drops: Blender
                                             * leaves them at the bind pose */
    double max_weight_difference;           /* max_v max_j |set - artist| */
    int max_weight_vertex, max_weight_joint;
    double mean_weight_difference;          /* mean over vertices of max_j |set - artist| */
    double *joint_difference;               /* per joint: mean over vertices of |set - artist| */
    double max_position_difference, mean_position_difference; /* over times and vertices, / size */
    double max_position_time;
    /* cut to the K heaviest a vertex and divided by their sum: what an engine takes */
    double *cut;                            /* vertex_count x joint_count, vertex-major */
    int over_k;                             /* vertices that had more than K non-zero weights */
    double cut_weight_change;               /* max over vertices and joints |cut - weights| */
    double cut_position_change;             /* max over times and vertices |cut - uncut| / size */
    char not_computed[256];                 /* why the set was not made (--asset, bbw over its
                                             * --bbw-budget while another set is written); ""
                                             * when it was: then every field above and below holds */
    double first_set_change;                /* K = 8: max over times and vertices, / size, of what an
                                             * engine that reads only JOINTS_0 / WEIGHTS_0 (the 4
                                             * heaviest, divided by their sum, as three.js's glTF
                                             * loader does) moves against the 8 written; NAN for K = 4 */
} weights30_versus;

/* An artist's asset: its bind mesh and skeleton, the automatic weight sets beside the
 * artist's weights, and each skinned over the asset's animation (weights30_assets.c). */
#define WEIGHTS30_ASSETS 2
#define WEIGHTS30_ASSET_TIMES 25            /* samples over the animation, ends included */
#define WEIGHTS30_AUTOMATIC (WEIGHTS30_SETS - 1) /* every set but the hand weights: versus[set - 1] */
/* The smallest asset weighted, in its own units (its bounding box's diagonal): Blender's
 * model clamps distances at 1e-4 units (HEAT_BLENDER_MIN_DISTANCE), ten times less. Bone
 * heat and biharmonic weights are the same at any size (an exact scaled copy gives the same
 * weights to the bit); Blender's are Blender's in its units. */
#define WEIGHTS30_MIN_SIZE 1e-3
/* What one asset may cost (--max-pairs, --bbw-budget), so that a file of 1 MB costs at
 * most 2 s of CPU and 256 MB, or is refused first (the page's "Cost" measures them):
 * vertices x bones, each pair a distance (and, unseen, a ray) and each vertex x joint a
 * weight in every table; and the operations the bounded biharmonic active set may spend,
 * its factorisations' flops and Q's entries a round (src/weights/bbw.h). */
#define WEIGHTS30_MAX_PAIRS (1 << 20)
#define WEIGHTS30_MAX_VERTICES (1 << 16) /* the factorisations grow faster than the mesh */
#define WEIGHTS30_BBW_BUDGET 268435456.0 /* 2^28 operations: about 0.3 s of CPU here */
typedef struct {
    const char *name;                       /* "RiggedSimple" */
    int influences;                         /* K: 4 or 8 (--influences) */
    gltf_primitive_ref *parts;              /* every primitive of every mesh skinned with the
                                             * first skinned node's skin, each mesh once */
    int part_count;
    int *part_first;                        /* part p's vertices are part_first[p] up to
                                             * part_first[p + 1] (part_count + 1 of them) */
    int vertex_count, triangle_count, joint_count, bone_count;
    vec3 *bind;                             /* the parts' POSITION one after another, mesh space */
    mesh_triangle *triangles;
    mesh welded;                            /* one vertex per distinct position: the surface
                                             * the paper's heat diffuses over (glTF splits
                                             * vertices where normals or UVs differ) */
    int repeated;                           /* triangles that repeat an index (strip joins): left out */
    int folded;                             /* triangles welding folds (dropped) */
    int *weld;                              /* vertex -> welded vertex */
    mesh_edge *edges;
    int edge_count;
    heat_bone *bones;
    heat_result heat[HEAT_MODELS];      /* the paper's on the welded surface; Blender's on the
                                             * asset's own vertices, as its importer keeps them */
    bbw_result bbw;                       /* on the welded surface */
    int *handle;                            /* welded vertex -> the joint it is a handle of, or -1 */
    int handle_count;
    int handle_parts;                       /* parts without a handle given one (their vertex
                                             * nearest a bone): they follow that joint whole */
    double bbw_kkt_independent;             /* by L (M^-1 (L w)), two products */
    double *artist;                         /* vertex_count x joint_count, vertex-major */
    weights30_versus versus[WEIGHTS30_AUTOMATIC];
    vec3 lo, hi;                            /* the bind mesh's bounding box */
    double size;                            /* its diagonal */
    double t0, t1;                          /* the animation's range */
} weights30_asset;

/* The run's options (lab30-weights.c's table fills them). */
typedef struct {
    double heat_c;                         /* --heat-c */
    const char *assets_dir;                /* --assets (NULL: found from the program's location) */
    int influence_choice;                  /* --influences: 0 for 4, 1 for 8 */
    const char *asset_in;                  /* --asset IN: only that asset, re-weighted */
    int asset_weights;                     /* --weights: which automatic set it gets (versus index) */
    int max_pairs;                         /* --max-pairs: vertices x bones an asset may have */
    int max_vertices;                      /* --max-vertices: the vertices it may have, decoded */
    int skin;                              /* --skin: the skin --asset weights; -1: the one skin
                                            * the asset's skinned nodes use */
    double bbw_budget;                     /* --bbw-budget: operations bbw may spend */
} weights30_options;

/* Each report section's checks, decided by the stage that made its numbers. */
typedef struct {
    report_checks laplacian, heat, bbw, poses, assets, written;
} weights30_checks;

/* What lab30-weights.c's stages made; the figures, the evidence and the report read it. */
typedef struct {
    weights30_options options;
    rig30_rig rigs[WEIGHTS30_SETS][2];     /* [weights30_set][rig30_kind] */
    weights30_rig rig[2];                  /* [rig30_kind] */
    weights30_laplacian_check laplacian;
    weights30_result result[WEIGHTS30_RESULTS];
    double bind_volume[2];
    mesh_edge *edges;
    int edge_count;
    weights30_asset asset[WEIGHTS30_ASSETS];
    int asset_count;                       /* the two samples, or the one --asset names */
    const char *assets_dir;                /* where the samples were found */
    int influences;                        /* K: 4 or 8 */
    char asset_out[256];                   /* the .glb written */
    bool asset_name_changed;               /* its name is the input's made safe (output_name_from_input) */
    double readback_error;                 /* max |read back - cut weights| */
    int weighted_for_gltf;                 /* vertices the set left without weight, written
                                            * with their nearest bones' (glTF's sum to 1) */
    int readback_sets;
    weights30_checks checks;
} weights30;

/* weights30_poses.c: the measures of part 4 on x's skinned pose (rings about their own
 * centres, the narrowest, the inner elbow, the volume against the bind mesh's) and the
 * closed form of its middle ring (the article's r'/r for an LBS twist, 1 for DQS). */
void weights30_measure_pose(const weights30 *r, weights30_result *x);

/* weights30_closed.c: the independent values. The hexagon's Laplacian against its closed
 * form, into l, its checks into c; the paper's
 * bone heat on the cylinder ring by ring (the discrete system's closed form into out, the
 * continuum's into continuum, NAN where it has none); the biharmonic weights ring by ring. */
lab_error weights30_check_laplacian(weights30_laplacian_check *l, report_checks *c, lab_diag *d);
void weights30_heat_closed_forms(rig30_kind kind, double c, double out[RIG30_RINGS], double continuum[RIG30_RINGS]);
void weights30_bbw_ring_system(double out[RIG30_RINGS]);

/* Frees what the stages allocated in r. */
void weights30_free(weights30 *r);

/* The chapter's run's evidence: weights30.json, weights30.csv and weights30-assets.csv
 * (weights30_record.c). */
lab_error weights30_evidence(const weights30 *r, output_batch *out, lab_diag *d);

/* weights30.png (the weights on the mesh, with a colour bar), weights30-profile.png (the
 * weight along z) and weights30-poses.png with its panels (weights30_figures.c). */
lab_error weights30_figures(const weights30 *r, output_batch *out, lab_diag *d);

/* Bone heat on the asset at path (RiggedSimple, RiggedFigure), compared with its artist's
 * weights (weights30_assets.c). a->name must be set. */
lab_error weights30_asset_run(weights30_asset *a, const char *path, const weights30_options *o, lab_diag *d);

/* weights30_compare.c, the parts of weights30_asset_run that compare: the artist's weights
 * as a dense table; a model's weights as the set deforms with them (solution[vertex_of[v]],
 * vertex_of NULL for the identity); one set's checks and differences from the artist's;
 * every set skinned over the animation against the artist's. */
lab_error weights30_artist_weights(weights30_asset *a, const gltf_document *doc, lab_diag *d);
void weights30_deforming_weights(const weights30_asset *a, const heat_result *h, const int *vertex_of, double *out);
void weights30_compare_weights(const weights30_asset *a, const double *solution, const int *vertex_of, double backward,
                            const unsigned char *unweighted, weights30_versus *x);
lab_error weights30_over_animation(weights30_asset *a, const gltf_document *doc, const gltf_skin *skin,
                                   const double *ibm, lab_diag *d);

void weights30_asset_free(weights30_asset *a);

/* The KKT residual of bounded biharmonic weights computed apart from src/weights/bbw.c: the
 * gradient of each joint's energy by two products, g = L (M^-1 (L w_j)) (sparse_multiply,
 * never the assembled Q), and the conditions read off the values: |g_i| where 0 < w < 1,
 * max(0, -g_i) where w = 0, max(0, g_i) where w = 1, handles skipped, each over scale (bbw30's
 * q_scale, max |Q_ik|); and bound violations. raw: bbw_result's. */
lab_error weights30_kkt_by_products(const sparse_triplets *L, const double *mass, const int *handle, const double *raw,
                                    int joint_count, double scale, double *out, lab_diag *d);

/* Bounded biharmonic weights on the welded surface of the asset (its handles: for each
 * joint, the vertices whose nearest bone is the joint's and that lie within 1.1 times the
 * nearest such vertex's distance). Part of weights30_asset_run. */
lab_error weights30_asset_bbw(weights30_asset *a, double budget, lab_diag *d);

/* The checks of every asset's sets (weights30_assets.c): per asset and set, the KKT
 * residuals (bbw), the weight sums (bone heat's), the backward error; in the report's order. */
void weights30_check_assets(const weights30 *r, report_checks *c);

/* weights30_engine.c: the assets (the shipped samples from --assets or the program's own
 * location, or the one --asset names) run through weights30_asset_run; the --asset run's
 * .glb, read back (gltf_rewrite.h), its checks into c; its evidence (weights30-asset.json
 * and .csv). */
lab_error weights30_read_assets(const weights30_options *o, weights30 *r, lab_diag *d);
lab_error weights30_write_asset(const weights30_options *o, weights30 *r, report_checks *c, output_batch *out,
                                lab_diag *d);
lab_error weights30_asset_evidence(const weights30 *r, output_batch *out, lab_diag *d);
cJSON *weights30_asset_json(const weights30_asset *a);

/* The report's bodies (lab30-weights.c prints the headings): tables, and the rows of the
 * checks its stages decided. */
void weights30_report_laplacian(const weights30 *r, FILE *out);
void weights30_report_heat(const weights30 *r, FILE *out);
void weights30_report_bbw(const weights30 *r, FILE *out);
void weights30_report_poses(const weights30 *r, FILE *out);
void weights30_report_assets(const weights30 *r, FILE *out);
void weights30_report_written(const weights30 *r, FILE *out);

/* weights30_closed.c, beside the closed forms: the cylinder's bones, and one model's
 * solution measured and checked. */
/* The checks of one model's solution: properties of the system, not imposed on it. */
void weights30_measure_solution(weights30_rig *w, heat_model model);
void weights30_check_model(const weights30_rig *w, heat_model model, report_checks *c);
/* A bone runs from its joint to its child joint; a leaf (joint 1 here) continues its
 * parent's bone, as long, as an animator's tool gives every bone a tail. Twist: (0,0,0) to
 * (0,0,2), then (0,0,2) to (0,0,4); bend: (0,0,0) to (0,0,1), then (0,0,1) to (0,0,2). */
void weights30_rig_bones(const rig30_rig *rig, heat_bone out[WEIGHTS30_BONES]);

/* weights30_bbw.c: part 3, bounded biharmonic weights on both rigs, checked. */
/* Harmonic and bounded biharmonic weights of the end rings on both rigs (bbw.h), the
 * second given to the bbw set's rig. The checks, per rig: the harmonic weights against
 * z/2, the biharmonic ones against the ring system, the bounds, the KKT residual two ways,
 * the sums before dividing, the backward error. */
lab_error weights30_biharmonic(rig30_rig rigs[2], weights30_rig rig[2], report_checks *checks, lab_diag *d);

/* weights30_poses.c: part 4, every set skinned at the chapter's poses, measured. */
/* Every set at every pose with LBS and DQS, measured; the checks: each middle ring with a
 * closed form against it. */
lab_error weights30_skin_poses(weights30 *r, report_checks *checks, lab_diag *d);

/* weights30_mesh.c: the asset welded, its joints' bind positions, its skeleton as bones. */
/* One welded vertex per distinct position (exactly equal coordinates); the triangles on
 * them. A triangle that welding folds (two corners at one position) is dropped. */
lab_error weights30_weld(weights30_asset *a, lab_diag *d);
/* Joint j's bind position in the mesh's space: the origin of its inverse bind matrix's
 * inverse, o = -A^-1 t for IBM = [A t] (A^-1 from linalg's inverse transpose). */
lab_error weights30_joint_origin(const double ibm_column_major[16], vec3 *out, lab_diag *d);
/* As for the cylinder: a joint's bone runs to each of its child joints; a leaf continues
 * its parent joint's bone, as long; a lone joint is a point. */
lab_error weights30_skeleton_bones(weights30_asset *a, const gltf_document *doc, const gltf_skin *skin,
                                   const vec3 *origin, lab_diag *d);

#endif
