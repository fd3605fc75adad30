/* fixes30_closed.c - what lab30-fixes' numbers are checked against (see fixes30.h): each
 * method's closed form for the twist's radii, the measures of a skinned twist, and the
 * checks of every fix against its closed form. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/bytes.h"
#include "base/diag.h"
#include "base/timer.h"
#include "math/dualquat.h"
#include "math/quat.h"
#include "gltf/gltf.h"
#include "math/linalg.h"
#include "program/output.h"
#include "mesh/scene.h"
#include "skin/blend.h"
#include "skin/influences.h"
#include "skin/pose.h"
#include "fixes30.h"
#include "rig30.h"
#include "rig30_check.h"
#include "rig30_fixes.h"
#include "rig30_gltf.h"

/* The radius the method's closed form gives vertex v of the twist at theta; NAN where it
 * has none there (twist joints check theirs pair by pair in fixes_twist_joints). */
static double closed_form_radius(const fixes30 *r, const fixes30_row *w, int v, double theta)
{
    const bool trained = theta == rig30_trained_angle(RIG30_TWIST);
    switch (w->method) {
    case FIXES30_LBS: /* the chapter's r'/r */
        return RIG30_RADIUS * rig30_radius_ratio(rig30_child_weight(&r->rigs[RIG30_TWIST].influences, v), theta);
    case FIXES30_DQS:
    case FIXES30_COR: /* a rotation about the axis keeps every radius */
        return RIG30_RADIUS;
    case FIXES30_CORRECTIVE: /* trained: radius 1, where the blended matrix is invertible */
        return trained && !r->unreachable[RIG30_TWIST][v] ? RIG30_RADIUS : NAN;
    case FIXES30_CORRECTIVE_AFTER: /* trained: radius 1 everywhere; the middle ring |cos(theta/2)| + s */
        if (trained)
            return RIG30_RADIUS;
        return v / RIG30_SEGMENTS == RIG30_MIDDLE_RING ? RIG30_RADIUS * (fabs(cos(theta / 2)) + theta / acos(-1.0))
                                                      : NAN;
    default:
        return NAN;
    }
}

/* The twist's measures: the middle and the narrowest ring, the largest |r - 1|, and the
 * largest deviation from the closed form where the method has one (NAN where it has none
 * at any vertex; a NaN position is never skipped). */
void fixes30_measure_twist(const fixes30 *r, fixes30_row *w, double theta)
{
    rig30_ring_radius ring = rig30_measure_ring(w->positions, RIG30_MIDDLE_RING);
    w->radius_mean = ring.mean, w->radius_min = ring.min, w->radius_max = ring.max;
    w->narrowest = INFINITY;
    for (int k = 0; k < RIG30_RINGS; k++)
        w->narrowest = fmin(w->narrowest, rig30_measure_ring(w->positions, k).mean);
    w->inner = w->bulge = NAN;
    w->radius_error = 0.0;
    double worst = NAN; /* none yet */
    for (int v = 0; v < r->rigs[RIG30_TWIST].bind.vertex_count; v++) {
        double radius = hypot(w->positions[v].x, w->positions[v].y), expect = closed_form_radius(r, w, v, theta);
        w->radius_error = max_or_nan(w->radius_error, fabs(radius - RIG30_RADIUS));
        if (!isnan(expect))
            worst = isnan(worst) ? fabs(radius - expect) : max_or_nan(worst, fabs(radius - expect));
    }
    if (!isnan(worst))
        w->closed_error = worst;
}

/* Each fix against its closed form, in the report's order: the chapter's formula per method
 * (pair by pair for twist joints), the narrowest ring of k twist joints at 180
 * (cos(90/(k+1))), the trained poses of both orders, the post-skin middle ring at every
 * twist, the exported shape read back, DQS and CoR at 180 (radius 1), CoR's middle ring. */
void fixes30_check_closed_forms(const fixes30 *r, report_checks *c)
{
    char label[96];
    for (int m = FIXES30_LBS; m <= FIXES30_TWIST3; m++) {
        double worst = 0.0;
        for (int p = 0; p < FIXES30_TWIST_POSES; p++)
            worst = max_or_nan(worst, fixes30_row_at(r, RIG30_TWIST, fixes30_twist_deg[p], (fixes30_method)m)->closed_error);
        snprintf(label, sizeof label, "%s: r vs r'/r", fixes30_method_name((fixes30_method)m));
        check_bound(c, label, worst, FIXES30_TOLERANCE);
    }
    for (int k = 1; k <= 3; k += 2) {
        const fixes30_row *w = fixes30_row_at(r, RIG30_TWIST, 180, k == 1 ? FIXES30_TWIST1 : FIXES30_TWIST3);
        snprintf(label, sizeof label, "k = %d at 180: narrowest r'/r", k);
        check_compare(c, label, w->narrowest, cos(acos(-1.0) / (2 * (k + 1))), FIXES30_TOLERANCE);
    }
    for (int order = 0; order < 2; order++) { /* the trained poses reach the target (and radius 1) */
        fixes30_method m = order == FIXES30_BEFORE_SKINNING ? FIXES30_CORRECTIVE : FIXES30_CORRECTIVE_AFTER;
        const char *name = order == FIXES30_BEFORE_SKINNING ? "pre-skin" : "post-skin";
        snprintf(label, sizeof label, "%s twist 180: |p'-t|, |r-1|", name);
        check_bound(c, label, fixes30_row_at(r, RIG30_TWIST, 180, m)->closed_error, FIXES30_TOLERANCE);
        snprintf(label, sizeof label, "%s bend 90: |p'-t|", name);
        check_bound(c, label, fixes30_row_at(r, RIG30_BEND, 90, m)->closed_error, FIXES30_TOLERANCE);
    }
    double after_middle = 0.0;
    for (int p = 0; p < FIXES30_TWIST_POSES; p++)
        after_middle = max_or_nan(
            after_middle, fixes30_row_at(r, RIG30_TWIST, fixes30_twist_deg[p], FIXES30_CORRECTIVE_AFTER)->closed_error);
    check_bound(c, "post-skin middle r, every twist", after_middle, FIXES30_TOLERANCE);
    check_bound(c, "glTF read back, t = 0.5", r->export_error, 1e-6);
    const fixes30_row *cor = fixes30_row_at(r, RIG30_TWIST, 180, FIXES30_COR);
    check_bound(c, "DQS at 180: |r - 1|", fixes30_row_at(r, RIG30_TWIST, 180, FIXES30_DQS)->closed_error,
                FIXES30_TOLERANCE);
    check_bound(c, "CoR at 180: |r - 1|", cor->closed_error, 1e-9);
    check_above(c, "CoR middle ring at 180: radius above 0.99", cor->radius_mean, 0.99);
}
