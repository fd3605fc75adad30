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

/* ---- the fixes, each written out: twist joints, a corrective shape in both orders,
 * centres of rotation (the formulas rig30_fixes.h derives; what they are trained or
 * precomputed from is there) ---------------------------------------------------------- */

/* Twist joints (001, "Formula": extra joints): k helpers between the root and the child
 * share the twist. Joint i (0 .. k+1) sits at z_i = 2i/(k+1) and turns by theta/(k+1); a
 * vertex at height z blends its segment's two joints linearly, w_{i+1} = (z - z_i)(k+1)/2.
 * *closed_error: the largest |r - rig30_radius_ratio(w, theta/(k+1))|, the chapter's formula
 * pair by pair. */
static lab_error fixes_twist_joints(const rig30_rig *twist, int k, double theta, vec3 *out, double *closed_error,
                                    lab_diag *d)
{
    if (k < 0 || k > FIXES30_MAX_HELPERS)
        return diag_fail(d, LAB_ERR_LIMIT, "twist joints", "%d helpers, 0 to %d", k, FIXES30_MAX_HELPERS);
    const int joints = k + 2, n = twist->bind.vertex_count;
    const double step = RIG30_HEIGHT / (k + 1), share = theta / (k + 1);
    scene_node chain[2][FIXES30_MAX_HELPERS + 2];
    mat4 world[FIXES30_MAX_HELPERS + 2], bind_world[FIXES30_MAX_HELPERS + 2], inverse_bind[FIXES30_MAX_HELPERS + 2],
        palette[FIXES30_MAX_HELPERS + 2];
    /* the chain at rest (the bind pose, B_i = G_i(0) = Tz(z_i)) and at theta:
     * L_i = Tz(step) Rz(share) below the root */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < joints; i++)
            chain[pass][i] = (scene_node){"twist joint", i - 1,
                                          i == 0 ? mat4_identity()
                                                 : mat4_mul(mat4_translate(0, 0, step), mat4_rotate_z(pass ? share : 0.0))};
    lab_error e = scene_evaluate(chain[0], joints, bind_world, d);
    if (e == LAB_OK) /* the chapter's inverse-bind rule: pure translations only */
        e = skin_inverse_binds(bind_world, joints, inverse_bind, d);
    if (e == LAB_OK) /* C_i = G_i B_i^-1 */
        e = skin_pose_palette(chain[1], joints, inverse_bind, NULL, world, palette, NULL, d);
    skin_influences in;
    if (e == LAB_OK)
        e = skin_influences_init(&in, n, 2, d);
    if (e != LAB_OK)
        return e;
    for (int v = 0; v < n; v++) { /* linear between the segment's two joints */
        double u = twist->bind.vertices[v].z / step; /* in segments: 0 .. k + 1 */
        int s = (int)floor(u);
        s = s < 0 ? 0 : s > k ? k : s;
        double w = fmin(fmax(u - s, 0.0), 1.0); /* rounding must not push a weight below 0 */
        in.joint[2 * v] = s, in.weight[2 * v] = 1.0 - w;
        in.joint[2 * v + 1] = s + 1, in.weight[2 * v + 1] = w;
    }
    e = skin_deform(twist->bind.vertices, &in, palette, joints, (skin_blend){.method = SKIN_LBS}, out, d);
    double worst = 0.0;
    for (int v = 0; e == LAB_OK && v < n; v++) { /* the chapter's formula, pair by pair */
        double r = hypot(out[v].x, out[v].y);
        worst = max_or_nan(worst, fabs(r - RIG30_RADIUS * rig30_radius_ratio(in.weight[2 * v + 1], share)));
    }
    if (closed_error)
        *closed_error = worst;
    skin_influences_free(&in);
    return e;
}

/* A corrective shape (001, "Formula": a morph target beside the skin), its weight driven
 * by the rig's angle, s = theta / trained:
 *   before skinning (glTF's order)   p' = M(theta) (p + s d)
 *   after skinning (the vertex's frame)  p' = M(theta) p + s R(theta) d,
 * M = sum_j w_j C_j the blend, R the vertex's blended, normalised rotation. */
static lab_error fixes_corrective(const rig30_rig *rig, rig30_order order, const vec3 *deltas, double theta,
                                  vec3 *out, lab_diag *d)
{
    const int n = rig->bind.vertex_count;
    const double s = theta / rig30_trained_angle(rig->kind); /* the driver: 1 at the trained pose */
    vec3 *morphed = malloc(sizeof(vec3) * (size_t)n);
    mat4 palette[RIG30_JOINTS];
    dualquat dq[RIG30_JOINTS];
    lab_error e = morphed ? rig30_palettes(rig, theta, palette, dq, d)
                          : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "corrective shape", "%d vertices", n);
    for (int v = 0; e == LAB_OK && v < n; v++) /* before skinning: the morph target first, then the skin */
        morphed[v] = order == FIXES30_BEFORE_SKINNING ? vec3_add(rig->bind.vertices[v], vec3_scale(deltas[v], s))
                                                      : rig->bind.vertices[v];
    if (e == LAB_OK)
        e = skin_deform(morphed, &rig->influences, palette, RIG30_JOINTS, (skin_blend){.method = SKIN_LBS}, out, d);
    for (int v = 0; e == LAB_OK && order == FIXES30_AFTER_SKINNING && v < n; v++) { /* after: + s R d */
        quat r;
        e = rig30_blended_rotation(&rig->influences, v, dq, &r, d);
        out[v] = vec3_add(out[v], vec3_scale(quat_rotate(r, deltas[v]), s));
    }
    free(morphed);
    return e;
}

/* Centres of rotation (Le and Hodgins 2016): the rotation blended as a quaternion, the
 * translation LBS of the vertex's centre p*:  p' = R (p - p*) + sum_j w_j C_j p*. */
static lab_error fixes_cor(const rig30_rig *rig, const vec3 *centres, double theta, vec3 *out, lab_diag *d)
{
    mat4 palette[RIG30_JOINTS];
    dualquat dq[RIG30_JOINTS];
    lab_error e = rig30_palettes(rig, theta, palette, dq, d);
    const skin_influences *in = &rig->influences;
    const int K = in->per_vertex;
    for (int v = 0; e == LAB_OK && v < rig->bind.vertex_count; v++) {
        quat r;
        e = rig30_blended_rotation(in, v, dq, &r, d);
        vec4 lbs = skin_lbs_point(centres[v], in->joint + v * K, in->weight + v * K, K, palette);
        out[v] = vec3_add(quat_rotate(r, vec3_sub(rig->bind.vertices[v], centres[v])), vec3_make(lbs.x, lbs.y, lbs.z));
    }
    return e;
}

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
            e = fixes_twist_joints(rig, w->method == FIXES30_TWIST1 ? 1 : 3, theta, w->positions, &w->closed_error, d);
            break;
        case FIXES30_CORRECTIVE:
        case FIXES30_CORRECTIVE_AFTER: {
            rig30_order order = w->method == FIXES30_CORRECTIVE ? FIXES30_BEFORE_SKINNING : FIXES30_AFTER_SKINNING;
            e = fixes_corrective(rig, order, r->deltas[order][w->rig], theta, w->positions, d);
            break;
        }
        case FIXES30_COR:
            e = fixes_cor(rig, r->centres[w->rig], theta, w->positions, d);
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
        e = fixes_corrective(&r.rigs[RIG30_TWIST], FIXES30_BEFORE_SKINNING,
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
