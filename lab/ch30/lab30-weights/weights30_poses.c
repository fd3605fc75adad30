/* weights30_poses.c - the measures of part 4 on a weight set skinned at one of the
 * chapter's poses, and their closed forms (see weights30.h; lab30-weights.c's skin_poses
 * runs the poses). */
#include <math.h>
#include <string.h>

#include "math/linalg.h"
#include "skin/blend.h"

#include "rig30.h"
#include "rig30_check.h"
#include "rig30_fixes.h"
#include "weights30.h"

/* The poses of part 4: twist 90, twist 180, bend 90, bend 135. */
const rig30_kind weights30_pose_kind[WEIGHTS30_POSES] = {RIG30_TWIST, RIG30_TWIST, RIG30_BEND, RIG30_BEND};
const double weights30_pose_deg[WEIGHTS30_POSES] = {90, 180, 90, 135};

/* The measures of part 4 on one skinned pose: rings about their own centres (the twist's
 * axis is z; the bend's is the bent pair of bones), the narrowest of them, the inner side
 * of the elbow, and the volume with both ends closed. */
void weights30_measure_pose(const weights30 *r, weights30_result *x)
{
    rig30_kind kind = weights30_pose_kind[x->pose];
    const rig30_rig *rig = &r->rigs[x->set][kind];
    double radius[RIG30_RINGS];
    x->inner_elbow = NAN;
    if (kind == RIG30_TWIST) {
        for (int ring = 0; ring < RIG30_RINGS; ring++)
            radius[ring] = rig30_measure_ring(x->skinned.positions, ring).mean;
    } else {
        rig30_bend_metrics bend;
        rig30_measure_bend(rig, &x->skinned, &bend);
        memcpy(radius, bend.ring_radius, sizeof radius);
        x->inner_elbow = bend.inner_min_distance;
    }
    x->middle_radius = radius[RIG30_MIDDLE_RING];
    x->top_radius = radius[RIG30_RINGS - 1];
    x->narrowest_ring = 0;
    for (int ring = 1; ring < RIG30_RINGS; ring++)
        if (radius[ring] < radius[x->narrowest_ring])
            x->narrowest_ring = ring;
    x->narrowest_radius = radius[x->narrowest_ring];
    double widest = radius[0];
    for (int ring = 1; ring < RIG30_RINGS; ring++)
        widest = fmax(widest, radius[ring]);
    x->rings_equal = widest - x->narrowest_radius <= RIG30_CHECK_TOLERANCE;
    x->volume_ratio = rig30_volume(rig, x->skinned.positions) / r->bind_volume[kind];
    /* the closed forms: a twisted ring of weight w keeps sqrt(1 - 4 w (1-w) sin^2(theta/2))
     * of its radius under LBS (the article's formula) and all of it under DQS; a bent ring
     * stays rigid under DQS; LBS's bend has none */
    double w = rig30_child_weight(&rig->influences, RIG30_MIDDLE_RING * RIG30_SEGMENTS);
    if (x->method == SKIN_DQS)
        x->closed_form_radius = 1.0;
    else
        x->closed_form_radius = kind == RIG30_TWIST ? rig30_radius_ratio(w, deg_to_rad(weights30_pose_deg[x->pose])) : NAN;
}

/* Every set at every pose with LBS and DQS, measured; the checks: each middle ring with a
 * closed form against it. */
lab_error weights30_skin_poses(weights30 *r, report_checks *checks, lab_diag *d)
{
    for (int kind = 0; kind < 2; kind++)
        r->bind_volume[kind] = rig30_volume(&r->rigs[WEIGHTS30_HAND][kind], r->rigs[WEIGHTS30_HAND][kind].bind.vertices);
    lab_error e = LAB_OK;
    for (int i = 0; e == LAB_OK && i < WEIGHTS30_RESULTS; i++) {
        weights30_result *x = &r->result[i];
        /* in the figure's order: pose by pose, every set with LBS, then every set with DQS */
        *x = (weights30_result){.pose = i / (2 * WEIGHTS30_SETS), .set = (weights30_set)(i % WEIGHTS30_SETS),
                                .method = (i / WEIGHTS30_SETS) % 2 ? SKIN_DQS : SKIN_LBS};
        const rig30_rig *rig = &r->rigs[x->set][weights30_pose_kind[x->pose]];
        e = rig30_pose_alloc(rig, &x->skinned, d);
        if (e == LAB_OK)
            e = rig30_pose_at(rig, deg_to_rad(weights30_pose_deg[x->pose]), (skin_blend){.method = x->method},
                              &x->skinned, d);
        if (e == LAB_OK)
            weights30_measure_pose(r, x); /* weights30_poses.c */
    }
    for (int i = 0; e == LAB_OK && i < WEIGHTS30_RESULTS; i++) {
        const weights30_result *x = &r->result[i];
        if (isnan(x->closed_form_radius))
            continue;
        char label[64];
        snprintf(label, sizeof label, "%s %g, %s, %s: middle r'/r", rig30_kind_name(weights30_pose_kind[x->pose]),
                 weights30_pose_deg[x->pose], weights30_set_name(x->set), skin_method_name(x->method));
        check_compare(checks, label, x->middle_radius, x->closed_form_radius, RIG30_CHECK_TOLERANCE);
    }
    return e;
}
