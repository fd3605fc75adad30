/* rig30_cases.h - the article's hand control (matrix order and the inverse bind) and the
 * invalid inputs that the real pipeline must reject, each by its own rule.
 */
#ifndef RIG30_CASES_H
#define RIG30_CASES_H

#include "rig30.h"

typedef enum { HAND_CORRECT, HAND_NO_INVERSE_BIND, HAND_REVERSED_ORDER, HAND_ROWS } hand_row;
typedef struct {
    const char *name[HAND_ROWS];
    vec3 computed[HAND_ROWS];   /* through skin_lbs_point with the palette of each variant */
    vec3 article[HAND_ROWS];    /* the table in the article */
    double error_vs_correct[HAND_ROWS];
    vec3 point;                 /* p = (1, 1, 0) */
    vec3 in_bind_frame;         /* B_1^-1 p = (1, 0, 0): p in the joint's bind frame */
    vec3 child_moves_it;        /* C_1 p = (0, 2, 0): about the joint, not the origin */
    /* GEA's row vectors: p^T C_1^T, a separate loop over the transposed matrix; it equals
     * the column product C_1 p (difference below) */
    vec3 row_vector;
    double row_column_difference;
    /* The cylinder cannot catch the reversed order: Tz(2) and Rz(theta) commute, so
     * B^-1 G = G B^-1 there; the largest |p'| difference over the poses given */
    double cylinder_reversed_difference;
} rig30_hand_control;

/* p = (1,1,0), B_1 = Ty(1), G_1 = Ty(1) Rz(90 deg), equal weights: C_1 = G_1 B_1^-1 gives
 * (0.5, 1.5, 0); G_1 alone gives (0, 1.5, 0); B_1^-1 G_1 gives (0, 1, 0). */
lab_error rig30_hand_control_run(rig30_hand_control *out, lab_diag *d);

/* The same reversed order on the twist rig at `theta`: every vertex skinned with
 * C_1 = B_1^-1 G_1 instead of G_1 B_1^-1; the largest distance from the right result. */
lab_error rig30_reversed_order_on_cylinder(const rig30_rig *rig, double theta, double *out,
                                           lab_diag *d);

/* --- the companion texts' sketches, computed by the shared blends ---------------------- */

/* The LBS-versus-DQS text's picture: v = (1, 0, 0) turned by two bones about z, +90 and
 * -90 degrees, half weight each. LBS lands on the midpoint of the chord between M1 v and
 * M2 v, here the centre (|cos 90| = 0: the bones are 180 degrees apart); DQS blends the
 * rotations and stays on the circle. */
typedef struct {
    vec3 v, by_first, by_second;              /* v, M1 v, M2 v */
    vec3 lbs, dqs;
    double lbs_distance, dqs_distance;        /* from the centre */
    double lbs_distance_analytic;             /* |cos((90 - (-90)) / 2)| = 0 */
} rig30_chord;
lab_error rig30_chord_run(rig30_chord *out, lab_diag *d);

/* The vertex-blending text's flowchart for one vertex of the bend rig, p = (0, -1, 1.25)
 * on the inner side, with RTR4's elbow weights (2/3, 1/3) at a bend of `angle`: its two
 * candidate positions C_j p, their weighted sum (LBS, also computed by hand from the
 * candidates), and where DQS puts it. */
typedef struct {
    double angle;
    vec3 p, candidate[2], lbs, lbs_by_hand, dqs, joint, child_tip;
    double weight[2];
} rig30_candidates;
lab_error rig30_candidates_run(double angle, rig30_candidates *out, lab_diag *d);

typedef struct {
    const char *name;
    const char *category;
    lab_error expected;
} rig30_invalid_case;

int rig30_invalid_case_count(void);
const rig30_invalid_case *rig30_invalid_case_get(int i);
/* Runs case i on a copy of the rig's inputs; returns what the pipeline said (d filled). */
lab_error rig30_invalid_case_run(const rig30_rig *rig, int i, lab_diag *d);

#endif
