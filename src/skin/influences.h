/* influences.h - the influence model every program shares, its strict validation and the
 * weight policies.
 *
 * Each vertex has K influences (palette slot, weight), K given by the data: 2 in chapter
 * 30, 4 in the engine format (packed.h), four per JOINTS_n / WEIGHTS_n set in glTF. A slot
 * indexes the palette (the skin's joint list), not a scene node. Validation is strict:
 * weights finite, non-negative, summing to 1 within SKIN_WEIGHT_TOLERANCE, every slot in
 * range even when its weight is zero. Nothing is normalised behind the caller's back: a
 * silent fix would hide the export or indexing error that produced the bad data; a weight
 * policy that divides by the sum is the caller's explicit choice.
 */
#ifndef SKIN_INFLUENCES_H
#define SKIN_INFLUENCES_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"

#ifdef __cplusplus
extern "C" {
#endif

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

/* Orders one vertex's k influences heaviest first, ties by the lower joint: the order
 * engines pack them in (packed.h), which makes slot 0 DQS's pivot. */
void skin_sort_heaviest_first(int *joint, double *weight, int k);

#ifdef __cplusplus
}
#endif

#endif
