/* skin.h - skinning: influences, their strict validation, the palette and the blends.
 *
 * Chapter 30's formulas:
 *   skin matrix      C_j = G_j B_j^-1       (current world times inverse bind)
 *   LBS              p~' = sum_j w_j C_j p~  with w_j >= 0, sum_j w_j = 1
 * where p~ = (x, y, z, 1). At the bind pose G_j = B_j, every C_j = I and p' = p.
 * DQS (Kavan et al. 2007) blends the same palette as dual quaternions instead:
 *   p' = q^(p) with q^ = sum_j w_j q^_j / |sum_j w_j q_j0|   (see dualquat.h)
 * which needs rigid C_j and never shrinks a ring, but bulges at bends.
 *
 * One influence model for every program: each vertex has K influences (palette slot,
 * weight), K given by the data: 2 in chapter 30, 4 in the engine format (packed.h), four
 * per JOINTS_n / WEIGHTS_n set in glTF. A slot indexes the palette (the skin's joint
 * list), not a scene node. Validation is strict: weights finite, non-negative, summing to
 * 1 within SKIN_WEIGHT_TOLERANCE, every slot in range even when its weight is zero.
 * Nothing is normalised behind the caller's back: a silent fix would hide the export or
 * indexing error that produced the bad data. The one LBS blend and the one DQS blend below
 * serve the chapter path, the glTF sampler and the palette lab's reference; the float
 * kernels (fastskin.h) are their fast twin and are tested against them.
 */
#ifndef SKIN_H
#define SKIN_H

#include <stdbool.h>
#include <stddef.h>

#include "math/dualquat.h"
#include "math/linalg.h"
#include "mesh/scene.h"

#define SKIN_MAX_INFLUENCES 32     /* K per vertex; glTF's eight JOINTS_n sets hold 32 */
#define SKIN_WEIGHT_TOLERANCE 1e-12

/* vertex_count vertices of K = per_vertex influences each: vertex v's k-th influence is
 * (joint[v * K + k], weight[v * K + k]), 0 <= k < K. skin_influences_init allocates the
 * arrays (free them with skin_influences_free); a caller may also point them at its own. */
typedef struct {
    int vertex_count;
    int per_vertex;                /* K, 1 <= K <= SKIN_MAX_INFLUENCES */
    int *joint;                    /* palette slots, 0 <= joint < joint_count */
    double *weight;
} skin_influences;

/* Allocates vertex_count * per_vertex influences, all slot 0 with weight 0.
 * LAB_ERR_LIMIT when per_vertex is outside 1..SKIN_MAX_INFLUENCES. */
lab_error skin_influences_init(skin_influences *in, int vertex_count, int per_vertex, lab_diag *d);
void skin_influences_free(skin_influences *in);
/* A new copy of src (free with skin_influences_free). */
lab_error skin_influences_copy(const skin_influences *src, skin_influences *out, lab_diag *d);
/* The weight vertex v gives joint j, over all its slots (a joint may appear twice). */
double skin_joint_weight(const skin_influences *in, int v, int joint);

/* Strict validation of every influence; the first offence is reported with its vertex
 * (d->vertex), slot and value. For a bad sum W the message also says where the vertex
 * would go at the bind pose: W p, with homogeneous w = W. */
lab_error skin_validate_influences(const skin_influences *in, int joint_count, lab_diag *d);

/* Weight policies: how validation treats a vertex whose weights do not sum to 1.
 *   strict     (chapter 30) any |W - 1| > tolerance is an error; nothing is changed
 *   normalize  (the weights article) W > eps_w is divided out and reported; W <= eps_w
 *              is an error
 *   fallback   like normalize, but a vertex with W <= eps_w is bound fully to one joint
 * Non-finite or negative weights and out-of-range slots are errors under every policy.
 * The policy is the caller's choice, never a global. Zero-initialised means strict with
 * chapter 30's tolerance of 1e-12. */
typedef enum { SKIN_POLICY_STRICT = 0, SKIN_POLICY_NORMALIZE, SKIN_POLICY_FALLBACK } skin_policy_kind;
typedef struct {
    skin_policy_kind kind;
    int fallback_joint;            /* fallback: the palette slot a weightless vertex follows */
    double eps_w;                  /* 0 means SKIN_DEFAULT_EPS_W */
    double tolerance;              /* |W - 1| accepted as it is; 0 means SKIN_WEIGHT_TOLERANCE
                                    * (glTF uses the validator's 2e-7 per weight) */
} skin_weight_policy;
#define SKIN_DEFAULT_EPS_W 1e-6

const char *skin_policy_name(skin_policy_kind kind); /* "strict", "normalize", "fallback" */
/* Reads "strict", "normalize" or "fallback=J" (0 <= J < joint_count) into *out; -1 with a
 * message in err (size bytes) when the text is none of them. */
int skin_policy_parse(const char *text, int joint_count, skin_weight_policy *out, char *err,
                      size_t size);

/* What a policy changed: the quality report the JSON and stdout show. */
typedef struct {
    int normalized_count;          /* vertices whose weights were divided by W */
    int *normalized_vertices;      /* their indices, ascending */
    double largest_deviation;      /* max |W - 1| over all vertices, changed or not */
    int largest_deviation_vertex;  /* -1 when every W is exactly 1 */
    int fallback_count;            /* vertices bound to the fallback joint */
    int *fallback_vertices;
} skin_weight_report;
void skin_weight_report_free(skin_weight_report *r);

/* Applies the policy to the influences in place (strict changes nothing) and fills report
 * (may be NULL). On error nothing is changed and d names the vertex and rule. */
lab_error skin_apply_weight_policy(skin_influences *in, int joint_count, skin_weight_policy policy,
                                   skin_weight_report *report, lab_diag *d);

/* Divides every vertex's weights by their sum W, which a policy has checked (W > 0):
 * glTF stores weights as floats or normalised integers, whose sums are 1 only to their
 * own precision, and the blends take weights that sum to 1 in double precision. */
void skin_renormalize(skin_influences *in);

/* Every coordinate finite. */
lab_error skin_validate_points(const vec3 *points, int count, lab_diag *d);

/* out_inverse_bind[j] = B_j^-1 through mat4_invert_translation: chapter 30's rig binds its
 * joints by pure translations, and the helper refuses anything else. */
lab_error skin_inverse_binds(const mat4 *bind_world, int joint_count, mat4 *out_inverse_bind,
                             lab_diag *d);

/* out_palette[j] = C_j = G_j B_j^-1, after checking both inputs (finite, affine, bounded). */
lab_error skin_palette(const mat4 *world, const mat4 *inverse_bind, int joint_count,
                       mat4 *out_palette, lab_diag *d);

/* The LBS blend of one vertex: the homogeneous sum sum_k w_k C_{joint_k} p~ over its k
 * influences (`joint` and `weight` point at them), without any checks: the teaching path
 * that also shows what unnormalised weights do (w != 1). */
vec4 skin_lbs_point(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette);

/* The matrix LBS applies to one vertex, M = sum_k w_k C_{joint_k}: skin_lbs_point is M p~.
 * The chapter's explanation of the collapse: a weighted sum of rigid matrices is in
 * general not rigid (see mat4_linear_singular_values). */
mat4 skin_blend_matrix(const int *joint, const double *weight, int k, const mat4 *palette);

/* The DQS blend of one vertex: q^ = sum_k w_k q^_{joint_k} (with the hemisphere fix
 * against the heaviest influence when asked), normalised, applied to p.
 * LAB_ERR_DQ_ZERO_NORM when the blend's real part vanishes; d then names `where`. */
lab_error skin_dqs_point(vec3 p, const int *joint, const double *weight, int k,
                         const dualquat *palette, bool hemisphere_fix, vec3 *out,
                         const char *where, lab_diag *d);

/* The unit dual quaternion DQS blends for one vertex: skin_dqs_point without the point
 * (a normal turns by its real part). */
lab_error skin_dqs_blend(const int *joint, const double *weight, int k, const dualquat *palette,
                         bool hemisphere_fix, dualquat *out_unit, const char *where, lab_diag *d);

/* Orders one vertex's k influences heaviest first, ties by the lower joint: the order
 * engines pack them in (packed.h), which makes slot 0 DQS's pivot. */
void skin_sort_heaviest_first(int *joint, double *weight, int k);

/* How to blend the palette. Zero-initialised means LBS. */
typedef enum { SKIN_LBS = 0, SKIN_DQS } skin_method;
typedef struct {
    skin_method method;
    bool skip_hemisphere_fix;  /* DQS only: blend q^ as given, to show why the fix exists */
    /* DQS only: the palette as dual quaternions with the signs the animation gives them
     * (a joint turned by 360 degrees has q_0 = -1). NULL derives them from the matrices,
     * where every sign is lost (w >= 0). When given, each must be the same transform as
     * its matrix within 1e-9 (LAB_ERR_DQ_MISMATCH otherwise). */
    const dualquat *palette_dq;
} skin_blend;

const char *skin_method_name(skin_method method); /* "LBS", "DQS" */

/* Skins in->vertex_count points into out_positions (caller-owned, same count) with the
 * chosen method over the same influences and palette. Validates points, influences and
 * palette first (DQS also: every C_j rigid) and then writes nothing on error; a DQS blend
 * whose real part vanishes stops the loop with LAB_ERR_DQ_ZERO_NORM at that vertex
 * (out_positions then holds the vertices before it). */
lab_error skin_deform(const vec3 *bind_positions, const skin_influences *in, const mat4 *palette,
                      int joint_count, skin_blend blend, vec3 *out_positions, lab_diag *d);

/* The dual-quaternion palette from the joints' own rotations: world Q_j = Q_parent L_j
 * along the hierarchy (parents from `joints`, validated like scene_evaluate), then
 * C_j = Q_j q^(B_j^-1). Keeps each rotation's sign, which the matrices cannot. */
lab_error skin_palette_dualquats(const scene_node *joints, const dualquat *local, int joint_count,
                                 const mat4 *inverse_bind, dualquat *out_palette, lab_diag *d);

/* The one pose function: a skeleton's locals to its palette, chapter 30's chain up to the
 * blend, which every program, the fixes and the glTF lab's rig reach through here:
 *   G_j = G_parent(j) L_j    (scene_evaluate: validated, parents first)
 *   C_j = G_j B_j^-1         (skin_palette)
 * and, when local_dq and out_palette_dq are both given, the same palette as dual
 * quaternions from the joints' own rotations (skin_palette_dualquats), signs kept.
 * out_world and out_palette hold joint_count matrices (caller-owned). */
lab_error skin_pose_palette(const scene_node *joints, int joint_count, const mat4 *inverse_bind,
                            const dualquat *local_dq, mat4 *out_world, mat4 *out_palette,
                            dualquat *out_palette_dq, lab_diag *d);

/* One pose of a skinned mesh, the whole chain of chapter 30 in order:
 * locals -> skin_pose_palette (G_j, C_j = G_j B_j^-1) -> skin_deform (LBS or DQS).
 * For DQS with local_dq set, the palette's dual quaternions come from the joints' own
 * rotations (skin_palette_dualquats) and keep their signs.
 * Inputs are borrowed; outputs are caller-owned arrays of joint_count / vertex_count. */
typedef struct {
    const scene_node *joints;        /* current locals L_j, parents first */
    int joint_count;
    const mat4 *inverse_bind;        /* B_j^-1, joint_count of them */
    const vec3 *bind_positions;      /* the bind mesh, in the reference world */
    const skin_influences *influences; /* one vertex per bind position */
    skin_blend blend;                /* LBS when zero-initialised */
    const dualquat *local_dq;        /* DQS only, optional: L_j as dual quaternions */
    mat4 *out_world;                 /* G_j */
    mat4 *out_palette;               /* C_j */
    vec3 *out_positions;             /* p' */
} skin_pose_job;

lab_error skin_pose_run(const skin_pose_job *job, lab_diag *d);

#endif
