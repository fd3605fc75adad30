/* lab30-fixes.c - Beyond LBS and DQS: the fixes production rigs use for the candy wrapper,
 * side by side on chapter 30's rigs (the vertex-blending text 001 on extra joints and on
 * skinning combined with morph targets; chapter 30's closing remark on more bones).
 *
 * Concepts: twist joints that share the twist, so each pair of neighbours differs by less
 * (the chapter's formula, pair by pair); a corrective shape driven by the pose and trained
 * to undo the collapse at one pose: as a morph target before skinning, and what no such
 * shape can undo (a singular blended matrix), and after skinning, in the vertex's own frame,
 * which reaches it; centres of rotation, which blend the rotation as a quaternion and take
 * the translation from LBS of a per-vertex centre. DQS (lab30-dqs) for reference. Each is
 * checked against a closed form where one exists.
 *
 * Usage:  build/bin/lab30-fixes OUTDIR
 *
 * Writes into OUTDIR (which must exist), all or nothing:
 *   fixes30.png          methods by poses: the twist at 90, 180, 210 and the bend at 90,
 *                        135, each panel labelled with its middle radius or inner
 *                        distance and bulge
 *   fixes30-radius.png   the narrowest ring's r'/r and the largest |r - 1| against the twist,
 *                        every method
 *   fixes30.json, .csv   per pose and method: radius (mean, min, max), narrowest ring, largest
 *                        |r - 1|, inner distance, bulge, volume against the bind mesh,
 *                        deviation from the closed form
 *   fixes30-corrective.gltf  the twist with the pre-skin corrective shape as a glTF morph
 *                        target, its weight keyed with the twist; read back here at
 *                        t = 0.5 and compared with the double path
 *
 * Exit codes: 0 success, 1 a check failed, 2 usage, 3 output.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "base/diag.h"
#include "base/timer.h"
#include "gltf/gltf.h"
#include "math/linalg.h"
#include "program/cli.h"
#include "program/output.h"
#include "skin/blend.h"

#include "fixes30.h"
#include "rig30.h"
#include "rig30_check.h"
#include "rig30_fixes.h"
#include "rig30_gltf.h"

#define LAB "lab30-fixes"

/* Both rigs; the corrective shape trained at the trained pose, before and after skinning;
 * each rig's centres of rotation. */
static lab_error build_rigs(void *state, lab_diag *d)
{
    fixes30 *r = state;
    lab_error e = rig30_build_both(r->rigs, &r->edges, &r->edge_count, d);
    if (e != LAB_OK)
        return e;
    int n = r->rigs[RIG30_TWIST].bind.vertex_count;
    for (int k = 0; k < 2; k++) {
        r->unreachable[k] = malloc(sizeof(bool) * (size_t)n), r->centres[k] = malloc(sizeof(vec3) * (size_t)n);
        for (int order = 0; order < 2; order++)
            r->deltas[order][k] = malloc(sizeof(vec3) * (size_t)n);
        if (!r->deltas[0][k] || !r->deltas[1][k] || !r->unreachable[k] || !r->centres[k])
            return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "fixes", "%d vertices", n);
        /* trained once, in both orders */
        e = rig30_corrective_deltas(&r->rigs[k], FIXES30_BEFORE_SKINNING, r->deltas[0][k], r->unreachable[k], d);
        if (e == LAB_OK)
            e = rig30_corrective_deltas(&r->rigs[k], FIXES30_AFTER_SKINNING, r->deltas[1][k], NULL, d);
        if (e != LAB_OK)
            return e;
        for (int v = 0; v < n; v++)
            r->unreachable_count += r->unreachable[k][v];
    }
    double t0 = timer_seconds();
    for (int k = 0; k < 2; k++) {
        r->cor_contributing += rig30_cor_centres(&r->rigs[k], r->centres[k]);
        r->cor_evaluations += (long)r->rigs[k].bind.vertex_count * r->rigs[k].bind.triangle_count;
    }
    r->cor_seconds = timer_seconds() - t0;
    r->bind_volume = rig30_volume(&r->rigs[RIG30_TWIST], r->rigs[RIG30_TWIST].bind.vertices);
    return LAB_OK;
}

/* The radius the method's closed form gives vertex v of the twist at theta; NAN where it
 * has none there (twist joints check theirs pair by pair in rig30_twist_joints). */
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
 * largest deviation from the closed form. */
static void measure_twist(const fixes30 *r, fixes30_row *w, double theta)
{
    rig30_ring_radius ring = rig30_measure_ring(w->positions, RIG30_MIDDLE_RING);
    w->radius_mean = ring.mean, w->radius_min = ring.min, w->radius_max = ring.max;
    w->narrowest = INFINITY;
    for (int k = 0; k < RIG30_RINGS; k++)
        w->narrowest = fmin(w->narrowest, rig30_measure_ring(w->positions, k).mean);
    w->inner = w->bulge = NAN;
    w->radius_error = 0.0;
    double worst = NAN; /* fmax skips a NAN: no closed form at a vertex leaves worst as it is */
    for (int v = 0; v < r->rigs[RIG30_TWIST].bind.vertex_count; v++) {
        double radius = hypot(w->positions[v].x, w->positions[v].y);
        w->radius_error = fmax(w->radius_error, fabs(radius - RIG30_RADIUS));
        worst = fmax(worst, fabs(radius - closed_form_radius(r, w, v, theta)));
    }
    if (!isnan(worst))
        w->closed_error = worst;
}

/* One method at one pose: its positions, measured. */
static lab_error skin_one(fixes30 *r, fixes30_row *w, lab_diag *d)
{
    const rig30_rig *rig = &r->rigs[w->rig];
    const int n = rig->bind.vertex_count;
    const double theta = deg_to_rad(w->angle_deg);
    rig30_pose pose = {0};
    lab_error e = rig30_pose_alloc(rig, &pose, d);
    w->positions = malloc(sizeof(vec3) * (size_t)n);
    if (e == LAB_OK && !w->positions)
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "fixes", "%d vertices", n);
    skin_method method = w->method == FIXES30_DQS ? SKIN_DQS : SKIN_LBS;
    if (e == LAB_OK) /* the pose's joints and palette, and LBS or DQS itself */
        e = rig30_pose_at(rig, theta, (skin_blend){.method = method}, &pose, d);
    w->closed_error = NAN;
    if (e == LAB_OK) {
        switch (w->method) {
        case FIXES30_TWIST1:
        case FIXES30_TWIST3:
            e = rig30_twist_joints(rig, w->method == FIXES30_TWIST1 ? 1 : 3, theta, w->positions, &w->closed_error, d);
            break;
        case FIXES30_CORRECTIVE:
        case FIXES30_CORRECTIVE_AFTER: {
            rig30_order order = w->method == FIXES30_CORRECTIVE ? FIXES30_BEFORE_SKINNING : FIXES30_AFTER_SKINNING;
            e = rig30_corrective(rig, order, r->deltas[order][w->rig], theta, w->positions, d);
            break;
        }
        case FIXES30_COR:
            e = rig30_cor(rig, r->centres[w->rig], theta, w->positions, d);
            break;
        default:
            memcpy(w->positions, pose.positions, sizeof(vec3) * (size_t)n);
        }
    }
    if (e == LAB_OK && w->rig == RIG30_TWIST) {
        measure_twist(r, w, theta);
    } else if (e == LAB_OK) {
        rig30_bend_metrics bend;
        vec3 *own = pose.positions; /* measured about the pose's own joints */
        pose.positions = w->positions;
        rig30_measure_bend(rig, &pose, &bend);
        pose.positions = own;
        w->inner = bend.inner_min_distance, w->bulge = bend.outer_max_bulge;
        w->radius_mean = w->radius_min = w->radius_max = w->narrowest = w->radius_error = NAN;
    }
    bool corrective = w->method == FIXES30_CORRECTIVE || w->method == FIXES30_CORRECTIVE_AFTER;
    if (e == LAB_OK && corrective && theta == rig30_trained_angle(w->rig)) {
        double worst = w->closed_error; /* with the twist's radius; NAN on the bend, which fmax skips */
        for (int v = 0; e == LAB_OK && v < n; v++) /* the trained pose reaches the target where it can */
            if (w->method == FIXES30_CORRECTIVE_AFTER || !r->unreachable[w->rig][v])
                worst = fmax(worst, vec3_length(vec3_sub(w->positions[v], rig30_corrective_target(rig, v, d))));
        w->closed_error = worst;
    }
    if (e == LAB_OK)
        w->volume_ratio = rig30_volume(rig, w->positions) / r->bind_volume;
    rig30_pose_free(&pose);
    return e;
}

/* Every pose of both rigs through every method that applies there. */
static lab_error skin_every_pose(void *state, lab_diag *d)
{
    fixes30 *r = state;
    lab_error e = LAB_OK;
    for (int p = 0; e == LAB_OK && p < FIXES30_POSES; p++)
        for (int m = 0; e == LAB_OK && m < FIXES30_METHODS; m++) {
            bool twist = p < FIXES30_TWIST_POSES;
            fixes30_row *w = &r->rows[r->row_count++];
            *w = (fixes30_row){.rig = twist ? RIG30_TWIST : RIG30_BEND,
                               .angle_deg = twist ? fixes30_twist_deg[p] : fixes30_bend_deg[p - FIXES30_TWIST_POSES],
                               .method = (fixes30_method)m,
                               /* twist joints share a twist: a bend has none */
                               .applies = twist || (m != FIXES30_TWIST1 && m != FIXES30_TWIST3)};
            if (w->applies)
                e = skin_one(r, w, d);
        }
    return e;
}

/* The animation's frames: every method over the twist, every 10 degrees from 0 to 210. */
static lab_error animation_poses(void *state, lab_diag *d)
{
    fixes30 *r = state;
    lab_error e = LAB_OK;
    for (int k = 0; e == LAB_OK && k < FIXES30_ANIM_FRAMES; k++)
        for (int m = 0; e == LAB_OK && m < FIXES30_METHODS; m++) {
            fixes30_row *w = &r->anim[r->anim_count++];
            *w = (fixes30_row){.rig = RIG30_TWIST, .angle_deg = k * FIXES30_ANIM_STEP_DEG, .method = (fixes30_method)m,
                               .applies = true};
            e = skin_one(r, w, d);
        }
    return e;
}

/* The twist every 2.5 degrees for the plot, so that its curves have no corners the
 * functions do not have: the narrowest ring and the largest |r - 1| of every method. */
static lab_error sample_twist(void *state, lab_diag *d)
{
    fixes30 *r = state;
    lab_error e = LAB_OK;
    for (int i = 0; e == LAB_OK && i < FIXES30_CURVE_SAMPLES; i++)
        for (int m = 0; e == LAB_OK && m < FIXES30_METHODS; m++) {
            fixes30_row w = {.rig = RIG30_TWIST, .angle_deg = FIXES30_CURVE_STEP * i, .method = (fixes30_method)m,
                             .applies = true};
            e = skin_one(r, &w, d);
            r->curve[0][m][i] = w.narrowest, r->curve[1][m][i] = w.radius_error;
            free(w.positions);
        }
    return e;
}

/* The corrective shape as a glTF morph target; then read back by our own glTF reader, as
 * lab30-gltf reads it, and skinned at t = 0.5 (90 degrees, weight 0.5) against the double
 * path, seen in glTF's frame (+Y up): (x, z, -y). */
static lab_error export_corrective(void *state, lab_diag *d)
{
    fixes30 *r = state;
    const rig30_rig *twist = &r->rigs[RIG30_TWIST];
    const vec3 *deltas = r->deltas[FIXES30_BEFORE_SKINNING][RIG30_TWIST];
    const int n = twist->bind.vertex_count, cylinder = RIG30_JOINTS; /* the node after the joints */
    bytes text = {0};
    gltf_document doc = {0};
    vec3 *expect = malloc(sizeof(vec3) * (size_t)n), *got = malloc(sizeof(vec3) * (size_t)n);
    lab_error e = expect && got ? rig30_gltf_export_corrective(twist, deltas, &text, d)
                                : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "corrective export", "%d vertices", n);
    if (e == LAB_OK)
        e = gltf_parse(text.data, text.len, NULL, &doc, d);
    if (e == LAB_OK)
        e = gltf_validate(&doc, d);
    if (e == LAB_OK)
        e = gltf_skin_at(&doc, 0, 0.5, cylinder, 0, SKIN_LBS, SKIN_POLICY_STRICT, got, NULL, NULL, d);
    if (e == LAB_OK)
        e = rig30_corrective(twist, FIXES30_BEFORE_SKINNING, deltas, acos(-1.0) / 2, expect, d);
    for (int v = 0; e == LAB_OK && v < n; v++)
        r->export_error = fmax(r->export_error,
                               vec3_length(vec3_sub(got[v], vec3_make(expect[v].x, expect[v].z, -expect[v].y))));
    if (e == LAB_OK)
        e = output_batch_add(&r->out, "fixes30-corrective.gltf", &text, d);
    bytes_free(&text);
    gltf_free(&doc);
    free(expect), free(got);
    return e;
}

int main(int argc, char **argv)
{
    static fixes30 r;
    const cli_program program = {LAB, "Fixes for the candy wrapper: twist joints, a corrective shape, DQS, centres of rotation.",
                                 NULL, 0, {"OUTDIR"}, 1, NULL};
    /* The fixes in the order the report shows them, each step with its section. */
    static const cli_step steps[] = {
        {.run = build_rigs},  /* the two rigs; the corrective shapes trained; the centres */
        {.run = skin_every_pose, .report = fixes30_report_twist, /* every method, every pose */
         .section = "The twist, 0 to 210 degrees: the narrowest ring's radius (r'/r)"},
        {.run = sample_twist}, /* every 2.5 degrees, for the plot */
        {.run = export_corrective, .report = fixes30_report_closed_forms, /* and read back */
         .section = "Each fix against its closed form"},
        {.section = "The bend: inner distance and bulge (both 1 and 0 at bind)", .report = fixes30_report_bend},
        {.section = "What each costs per vertex (counted)", .report = fixes30_report_costs},
        {.run = animation_poses}, /* the animation's frames */
        {.run = fixes30_figures}, /* methods by poses; the radius against the twist */
        {.run = fixes30_evidence},
        {.run = fixes30_animation}, /* every method over the twist */
    };
    static const cli_chapter chapter = {steps, CLI_COUNT(steps),
                                        "Beyond LBS and DQS: the fixes production rigs use, on chapter 30's cylinder",
                                        false, NULL, fixes30_release};
    return cli_main(&program, argc, argv, &chapter, &r, &r.out, &r.outdir);
}
