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
#include "math/dualquat.h"
#include "math/quat.h"
#include "gltf/gltf.h"
#include "math/linalg.h"
#include "program/cli.h"
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

#define LAB "lab30-fixes"

/* ---- the stages: each takes what it reads, fills what it makes, and decides the checks
 * of the numbers it made ---------------------------------------------------------------- */

/* One method at one pose: its positions, measured. */
static lab_error skin_one(const fixes30 *r, fixes30_row *w, lab_diag *d)
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
    if (e == LAB_OK) /* the pose's joints and palette, and LBS (lab30) or DQS (lab30-dqs) itself */
        e = rig30_pose_at(rig, theta, (skin_blend){.method = method}, &pose, d);
    w->closed_error = NAN;
    if (e == LAB_OK) {
        switch (w->method) {
        case FIXES30_TWIST1:
        case FIXES30_TWIST3:
            e = rig30_skin_twist_joints(rig, w->method == FIXES30_TWIST1 ? 1 : 3, theta, w->positions, &w->closed_error, d);
            break;
        case FIXES30_CORRECTIVE:
        case FIXES30_CORRECTIVE_AFTER: {
            rig30_order order = w->method == FIXES30_CORRECTIVE ? FIXES30_BEFORE_SKINNING : FIXES30_AFTER_SKINNING;
            e = rig30_skin_corrective(rig, order, r->deltas[order][w->rig], theta, w->positions, d);
            break;
        }
        case FIXES30_COR:
            e = rig30_skin_cor(rig, r->centres[w->rig], theta, w->positions, d);
            break;
        default:
            memcpy(w->positions, pose.positions, sizeof(vec3) * (size_t)n);
        }
    }
    if (e == LAB_OK && w->rig == RIG30_TWIST) {
        fixes30_measure_twist(r, w, theta);
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
        double worst = w->closed_error; /* with the twist's radius; NAN (none) on the bend */
        for (int v = 0; e == LAB_OK && v < n; v++) /* the trained pose reaches the target where it can */
            if (w->method == FIXES30_CORRECTIVE_AFTER || !r->unreachable[w->rig][v]) {
                double miss = vec3_length(vec3_sub(w->positions[v], rig30_corrective_target(rig, v, d)));
                worst = isnan(worst) ? miss : max_or_nan(worst, miss);
            }
        w->closed_error = worst;
    }
    if (e == LAB_OK)
        w->volume_ratio = rig30_volume(rig, w->positions) / r->bind_volume;
    rig30_pose_free(&pose);
    return e;
}

/* Every pose of both rigs through every method that applies there. */
static lab_error skin_every_pose(const fixes30 *r, fixes30_row *rows, int *count, lab_diag *d)
{
    lab_error e = LAB_OK;
    for (int p = 0; e == LAB_OK && p < FIXES30_POSES; p++)
        for (int m = 0; e == LAB_OK && m < FIXES30_METHODS; m++) {
            bool twist = p < FIXES30_TWIST_POSES;
            fixes30_row *w = &rows[(*count)++];
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
static lab_error animation_poses(const fixes30 *r, fixes30_row *anim, int *count, lab_diag *d)
{
    lab_error e = LAB_OK;
    for (int k = 0; e == LAB_OK && k < FIXES30_ANIM_FRAMES; k++)
        for (int m = 0; e == LAB_OK && m < FIXES30_METHODS; m++) {
            fixes30_row *w = &anim[(*count)++];
            *w = (fixes30_row){.rig = RIG30_TWIST, .angle_deg = k * FIXES30_ANIM_STEP_DEG, .method = (fixes30_method)m,
                               .applies = true};
            e = skin_one(r, w, d);
        }
    return e;
}

/* The twist every 2.5 degrees for the plot, so that its curves have no corners the
 * functions do not have: the narrowest ring and the largest |r - 1| of every method. */
static lab_error sample_twist(const fixes30 *r, double curve[2][FIXES30_METHODS][FIXES30_CURVE_SAMPLES], lab_diag *d)
{
    lab_error e = LAB_OK;
    for (int i = 0; e == LAB_OK && i < FIXES30_CURVE_SAMPLES; i++)
        for (int m = 0; e == LAB_OK && m < FIXES30_METHODS; m++) {
            fixes30_row w = {.rig = RIG30_TWIST, .angle_deg = FIXES30_CURVE_STEP * i, .method = (fixes30_method)m,
                             .applies = true};
            e = skin_one(r, &w, d);
            curve[0][m][i] = w.narrowest, curve[1][m][i] = w.radius_error;
            free(w.positions);
        }
    return e;
}

/* ---- main: the stages in the report's order, then the figures, the evidence and the
 * report ------------------------------------------------------------------------------ */

int main(int argc, char **argv)
{
    static fixes30 r;
    const cli_program program = {LAB, "Fixes for the candy wrapper: twist joints, a corrective shape, DQS, centres of rotation.",
                                 NULL, 0, {"OUTDIR"}, 1, NULL};
    cli_run run;
    int code = cli_begin(&run, &program, argc, argv);
    if (code != CLI_RUN)
        return code;

    lab_diag *d = &run.diag;
    /* the two rigs; the corrective shapes trained; the centres precomputed */
    lab_error e = rig30_build_both(r.rigs, &r.edges, &r.edge_count, d);
    if (e == LAB_OK)
        e = fixes30_train_corrective(r.rigs, r.deltas, r.unreachable, &r.unreachable_count, d);
    if (e == LAB_OK)
        e = fixes30_precompute_centres(r.rigs, r.centres, &r.cor_evaluations, &r.cor_contributing, &r.cor_seconds, d);
    if (e == LAB_OK) {
        r.bind_volume = rig30_volume(&r.rigs[RIG30_TWIST], r.rigs[RIG30_TWIST].bind.vertices);
        e = skin_every_pose(&r, r.rows, &r.row_count, d); /* every method, every pose */
    }
    if (e == LAB_OK) /* every 2.5 degrees, for the plot */
        e = sample_twist(&r, r.curve, d);
    vec3 expect[RIG30_RINGS * RIG30_SEGMENTS]; /* the corrective shape at 90 degrees, exported and read back */
    if (e == LAB_OK)
        e = rig30_skin_corrective(&r.rigs[RIG30_TWIST], FIXES30_BEFORE_SKINNING,
                             r.deltas[FIXES30_BEFORE_SKINNING][RIG30_TWIST], acos(-1.0) / 2, expect, d);
    if (e == LAB_OK)
        e = fixes30_export_corrective(&r.rigs[RIG30_TWIST], r.deltas[FIXES30_BEFORE_SKINNING][RIG30_TWIST], expect,
                                      &r.export_error, &run.out, d);
    if (e == LAB_OK) {
        fixes30_check_closed_forms(&r, &r.checks.closed_forms);
        const fixes30_row *cor = fixes30_row_at(&r, RIG30_BEND, 90, FIXES30_COR);
        check_bound(&r.checks.bend, "CoR bulge at 90 below DQS's", cor->bulge,
                    fixes30_row_at(&r, RIG30_BEND, 90, FIXES30_DQS)->bulge);
        e = animation_poses(&r, r.anim, &r.anim_count, d);
    }
    /* methods by poses and the radius against the twist (fixes30_figures.c), the evidence
     * (fixes30_record.c), every method over the twist */
    if (e == LAB_OK)
        e = fixes30_choose_cameras(&r, r.cam, r.middle, d);
    if (e == LAB_OK)
        e = fixes30_figures(&r, &run.out, d);
    if (e == LAB_OK)
        e = fixes30_evidence(&r, &run.out, d);
    if (e == LAB_OK)
        e = fixes30_animation(&r, &run.out, d);

    if (e == LAB_OK && cli_report(&run, "Beyond LBS and DQS: the fixes production rigs use, on chapter 30's cylinder")) {
        cli_section(&run, "The twist, 0 to 210 degrees: the narrowest ring's radius (r'/r)", NULL);
        fixes30_report_twist(&r, stdout);
        cli_section(&run, "Each fix against its closed form", &r.checks.closed_forms);
        fixes30_report_closed_forms(&r, stdout);
        cli_section(&run, "The bend: inner distance and bulge (both 1 and 0 at bind)", &r.checks.bend);
        fixes30_report_bend(&r, stdout);
        cli_section(&run, "What each costs per vertex (counted)", NULL);
        fixes30_report_costs(&r, stdout);
    }
    code = cli_end(&run, e);
    fixes30_free(&r);
    return code;
}
