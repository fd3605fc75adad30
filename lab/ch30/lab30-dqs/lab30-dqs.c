/* lab30-dqs.c - Chapter 30, closing section: can another rotation representation fix the
 * shrinkage? Dual quaternion skinning (DQS, Kavan et al. 2007) beside LBS.
 *
 * Concepts: blending rigid transforms as unit dual quaternions instead of matrices keeps
 * every ring's radius under a twist (no candy wrapper) and the inner side of an elbow
 * (no joint collapse), at the price of a bulge on the outer side; the hemisphere fix
 * (q and -q are the same rotation) makes DQS take the short way round; a blend whose real
 * part vanishes is an error, not NaN; DQS accepts rigid transforms only.
 *
 * Usage:  build/bin/lab30-dqs [--twist ...] [--bend ...] [--child-scale ...] OUTDIR (--help)
 *
 * Writes into OUTDIR (which must exist), all or nothing:
 *   dqs30.png                       rows LBS and DQS, one column per pose
 *   dqs30-<method>-<rig>NNN.png     each panel alone (method lbs|dqs, rig twist|bend)
 *   dqs30-radius.png                r'/r against the child weight w, LBS and DQS
 *   dqs30-chord.png                 two bones at +-90 deg: LBS on the chord, DQS on the circle
 *   dqs30.json                      positions, rings, closed forms, bends, the checks
 *   dqs30-rings.csv                 method,rig,pose_deg,ring,weight,radius,... per ring
 *
 * Conventions as in lab30 (src/math/linalg.h). Exit codes: 0 success, 1 data rejected or a
 * self-check failed, 2 usage, 3 output directory or write failure.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "math/dualquat.h"
#include "math/linalg.h"
#include "mesh/scene.h"
#include "program/cli.h"
#include "skin/blend.h"
#include "skin/influences.h"
#include "skin/pose.h"

#include "dqs30.h"
#include "rig30.h"
#include "rig30_cases.h"
#include "rig30_check.h"

#define LAB "lab30-dqs"
#define DQS ((skin_blend){.method = SKIN_DQS})

/* ---- the computation ------------------------------------------------------------------ */

/* Chapter 30's two rigs, the twist and the elbow, and the cylinder's edges for the figure. */
static lab_error build_rigs(void *state, lab_diag *d)
{
    dqs30 *r = state;
    return rig30_build_both(r->rigs, &r->edges, &r->edge_count, d);
}

static lab_error run_pose(dqs30 *r, rig30_kind rig, skin_method method, double angle_deg, dqs30_pose *p,
                          int *count, lab_diag *d)
{
    const rig30_rig *g = &r->rigs[rig];
    const skin_influences *in = &g->influences;
    const int K = in->per_vertex;
    *p = (dqs30_pose){.rig = rig, .method = method, .angle_deg = angle_deg};
    lab_error e = rig30_pose_alloc(g, &p->pose, d);
    *count += e == LAB_OK; /* freed with the others from here on */
    /* the locals, as matrices L_j and as the joints' own dual quaternions (signs kept) */
    dualquat local_dq[RIG30_JOINTS], palette_dq[RIG30_JOINTS];
    p->pose.theta = deg_to_rad(angle_deg);
    rig30_joints(rig, p->pose.theta, p->pose.joints);
    rig30_joint_dualquats(rig, p->pose.theta, local_dq);
    /* the palette C_j = G_j B_j^-1, and the same rigid transforms as unit dual quaternions q^_j */
    if (e == LAB_OK)
        e = skin_pose_palette(p->pose.joints, RIG30_JOINTS, g->inverse_bind, local_dq, p->pose.world,
                              p->pose.palette, palette_dq, d);
    for (int v = 0; e == LAB_OK && v < g->bind.vertex_count; v++) {
        const int *joint = in->joint + v * K;
        const double *weight = in->weight + v * K;
        if (method == SKIN_LBS) { /* LBS: p~' = sum_j w_j C_j p~ */
            vec4 q = skin_lbs_point(g->bind.vertices[v], joint, weight, K, p->pose.palette);
            p->pose.positions[v] = vec3_make(q.x, q.y, q.z);
        } else { /* DQS: q^ = sum_j w_j q^_j (each on the heaviest one's side), normalised; p' = q^ p */
            e = skin_dqs_point(g->bind.vertices[v], joint, weight, K, palette_dq, true, &p->pose.positions[v],
                               "DQS blend", d);
            if (e != LAB_OK && d)
                d->vertex = v;
        }
    }
    if (e != LAB_OK)
        return e;
    /* the hemisphere rule at the middle ring, whose pivot is the root (w = 1/2, the lower joint):
     * past 180 degrees q^_1 . q^_0 < 0 and the blend takes -q^_1, the short way round */
    p->flipped = method == SKIN_DQS && quat_dot(palette_dq[0].real, palette_dq[1].real) < 0.0;
    rig30_measure_rings(g, &p->pose, method, &p->rings);
    if (rig == RIG30_BEND)
        rig30_measure_bend(g, &p->pose, &p->bend);
    else /* this pose's check against the closed forms */
        rig30_check_twist(g, &p->pose, method, &p->check);
    return LAB_OK;
}

/* 270 deg: the fix sends DQS the short way (-45 deg); without it the long way (+135).
 * 360 deg: without the fix the equal blend's real part vanishes; with it nothing moves. */
static lab_error show_hemisphere_rule(void *state, lab_diag *d)
{
    dqs30 *r = state;
    double three_quarters = deg_to_rad(270), full = deg_to_rad(360), turn, moved;
    r->short_analytic = rig30_dqs_twist_angle(0.5, three_quarters);
    lab_error e = rig30_dqs_twist(&r->rigs[RIG30_TWIST], three_quarters, true, &r->short_with_fix, &moved, d);
    if (e == LAB_OK)
        e = rig30_dqs_twist(&r->rigs[RIG30_TWIST], three_quarters, false, &r->short_without_fix, &moved, d);
    if (e == LAB_OK) { /* the refusal is the result here, kept with its message */
        r->full_turn_code = rig30_dqs_twist(&r->rigs[RIG30_TWIST], full, false, &turn, &moved, &r->full_turn_diag);
        e = diag_resource_failure(r->full_turn_code, &r->full_turn_diag, d);
    }
    if (e == LAB_OK)
        e = rig30_dqs_twist(&r->rigs[RIG30_TWIST], full, true, &turn, &r->full_turn_with_fix_displacement, d);
    return e;
}

/* q and -q: negating the child's dual quaternion changes nothing after the fix. And DQS
 * refuses a child joint with scale, naming the joint and the scale. */
static lab_error check_sign_and_rigidity(void *state, lab_diag *d)
{
    dqs30 *r = state;
    const rig30_rig *twist = &r->rigs[RIG30_TWIST];
    double theta = deg_to_rad(150);
    scene_node joints[RIG30_JOINTS];
    dualquat dq[RIG30_JOINTS], flipped[RIG30_JOINTS];
    rig30_joints(RIG30_TWIST, theta, joints);
    rig30_joint_dualquats(RIG30_TWIST, theta, dq);
    memcpy(flipped, dq, sizeof dq);
    flipped[1] = dualquat_scale(dq[1], -1.0);
    rig30_pose a = {0}, b = {0};
    lab_error e = rig30_pose_alloc(twist, &a, d);
    if (e == LAB_OK)
        e = rig30_pose_alloc(twist, &b, d);
    if (e == LAB_OK)
        e = rig30_pose_with(twist, joints, dq, DQS, &a, d);
    if (e == LAB_OK)
        e = rig30_pose_with(twist, joints, flipped, DQS, &b, d);
    if (e == LAB_OK) {
        r->sign_difference = rig30_max_distance(a.positions, b.positions, twist->bind.vertex_count);
        /* scale 2 along the child's x: fine for LBS, refused by DQS */
        joints[1].local = mat4_mul(joints[1].local, mat4_scale(2, 1, 1));
        r->rigid_code = rig30_pose_with(twist, joints, NULL, DQS, &a, &r->rigid_diag);
        e = diag_resource_failure(r->rigid_code, &r->rigid_diag, d);
    }
    rig30_pose_free(&a), rig30_pose_free(&b);
    return e;
}

/* --child-scale: the child joint's local gets the scale, and DQS must refuse the pose
 * (LBS would skin it). The rejection is the program's answer: exit 1, nothing written. */
static lab_error check_child_scale(void *state, lab_diag *d)
{
    const dqs30 *r = state;
    const double *s = r->child_scale;
    if (s[0] == 1.0 && s[1] == 1.0 && s[2] == 1.0)
        return LAB_OK;
    scene_node joints[RIG30_JOINTS];
    rig30_joints(RIG30_TWIST, deg_to_rad(r->twist_count ? r->twist_deg[0] : 90.0), joints);
    joints[1].local = mat4_mul(joints[1].local, mat4_scale(s[0], s[1], s[2]));
    rig30_pose p;
    lab_error e = rig30_pose_alloc(&r->rigs[RIG30_TWIST], &p, d);
    if (e == LAB_OK)
        e = rig30_pose_with(&r->rigs[RIG30_TWIST], joints, NULL, DQS, &p, d);
    rig30_pose_free(&p);
    return e;
}

/* The LBS-versus-DQS text's picture: two bones at +90 and -90 degrees, half weight each. */
static lab_error sketch_chord(void *state, lab_diag *d)
{
    dqs30 *r = state;
    return rig30_chord_run(&r->chord, d);
}

/* Every pose of both rigs under both methods, in the figure's order: the LBS row, then
 * the DQS row; in each, the twist poses, then the bends. */
static lab_error run_poses(void *state, lab_diag *d)
{
    dqs30 *r = state;
    lab_error e = LAB_OK;
    for (int m = 0; e == LAB_OK && m < 2; m++) {
        for (int i = 0; e == LAB_OK && i < r->twist_count; i++) {
            dqs30_pose *p = &r->pose[r->pose_count];
            e = run_pose(r, RIG30_TWIST, dqs30_methods[m], r->twist_deg[i], p, &r->pose_count, d);
            if (e == LAB_OK) /* the worst over all twist poses of the method */
                rig30_check_twist(&r->rigs[RIG30_TWIST], &p->pose, dqs30_methods[m], &r->twist_check[m]);
        }
        for (int i = 0; e == LAB_OK && i < r->bend_count; i++)
            e = run_pose(r, RIG30_BEND, dqs30_methods[m], r->bend_deg[i], &r->pose[r->pose_count], &r->pose_count, d);
    }
    return e;
}

/* The animations' frames: a whole twist every 10 degrees and a bend to 150 degrees every
 * 15, each under LBS and DQS (dqs30_anim_index orders them), computed as the poses above. */
static lab_error animation_poses(void *state, lab_diag *d)
{
    dqs30 *r = state;
    lab_error e = LAB_OK;
    for (int kind = 0; e == LAB_OK && kind < 2; kind++)
        for (int k = 0; e == LAB_OK && k < dqs30_anim_frames[kind]; k++)
            for (int m = 0; e == LAB_OK && m < 2; m++)
                e = run_pose(r, (rig30_kind)kind, dqs30_methods[m],
                             k * (kind == RIG30_TWIST ? DQS30_ANIM_TWIST_STEP_DEG : DQS30_ANIM_BEND_STEP_DEG),
                             &r->anim[dqs30_anim_index((rig30_kind)kind, k, m)], &r->anim_count, d);
    return e;
}

/* r'/r against the child weight w at four twist angles: the plot's curves. */
static lab_error sweep_radius(void *state, lab_diag *d)
{
    dqs30 *r = state;
    lab_error e = LAB_OK;
    for (int m = 0; m < 2; m++)
        for (int t = 0; e == LAB_OK && t < DQS30_SWEEP_ANGLES; t++)
            e = rig30_sweep_radius(dqs30_methods[m], deg_to_rad(dqs30_sweep_theta_deg[t]), DQS30_SWEEP_SAMPLES,
                                   r->sweep[m][t], r->sweep_analytic[m][t], d);
    return e;
}

/* ---- main: the section's steps, in its order -------------------------------------------- */

int main(int argc, char **argv)
{
    static dqs30 r = {.twist_deg = {90, 180, 270}, .bend_deg = {90, 135}, .twist_count = 3,
                      .bend_count = 2, .child_scale = {1, 1, 1}};
    const cli_option options[] = {
        {"--twist", CLI_DOUBLES, r.twist_deg, .count = &r.twist_count, .min_count = 1,
         .max_count = DQS30_MAX_ANGLES, .min = -720, .max = 720, .distinct = true,
         .value_name = "DEG[,DEG...]", .help = "twist angles of chapter 30's rig (default 90,180,270)"},
        {"--bend", CLI_DOUBLES, r.bend_deg, .count = &r.bend_count, .min_count = 1,
         .max_count = DQS30_MAX_ANGLES, .min = -720, .max = 720, .distinct = true,
         .value_name = "DEG[,DEG...]", .help = "elbow bend angles about x (default 90,135)"},
        {"--child-scale", CLI_DOUBLES, r.child_scale, .max_count = 3, .broadcast = true,
         .value_name = "S|SX,SY,SZ",
         .help = "scale the child joint (one factor, or one per axis); DQS takes\n"
                 "rigid transforms only and rejects it (exit 1)"},
    };
    const cli_program program = {LAB, "Chapter 30, closing section: dual quaternion skinning beside LBS.",
                                 options, CLI_COUNT(options), {"OUTDIR"}, 1, NULL};
    /* The section's steps in its order, each with the report section that shows it. */
    static const cli_step steps[] = {
        {.run = build_rigs},        /* the twist and the elbow */
        {.run = check_child_scale}, /* DQS takes rigid transforms only */
        {.run = run_poses, .report = dqs30_report_twist, /* LBS and DQS on both rigs */
         .section = "Twist (chapter 30's rig): ring radius and turn, each method against its closed form"},
        {.run = show_hemisphere_rule, .report = dqs30_report_hemisphere,
         .section = "The short way round (270 deg) and a full turn (360 deg)"},
        {.section = "Bend (an elbow at z = 1 about x; weights smoothstep over z in [0.5, 1.5])",
         .report = dqs30_report_bend},
        {.run = check_sign_and_rigidity, .report = dqs30_report_rigid, /* q and -q; a scaled joint */
         .section = "DQS takes rigid transforms only (scaling must be handled separately)"},
        {.run = sweep_radius, .report = dqs30_report_sweep, /* r'/r against w */
         .section = "Radius against weight (dqs30-radius.png): measured on a skinned ring"},
        {.run = sketch_chord, .report = dqs30_report_chord, /* two bones at +-90 deg */
         .section = "The LBS-versus-DQS text's picture (dqs30-chord.png): bones at +90 and -90 deg"},
        {.run = animation_poses}, /* the animations' frames */
        {.run = dqs30_choose_cameras}, /* the figures (dqs30_figures.c) */
        {.run = dqs30_figures},
        {.run = dqs30_evidence},
        {.run = dqs30_animations}, /* the twist and the bend, LBS beside DQS */
    };
    static const cli_chapter chapter = {steps, CLI_COUNT(steps),
                                        "Chapter 30, closing section: dual quaternion skinning (DQS) beside LBS",
                                        false, NULL, dqs30_release};
    return cli_main(&program, argc, argv, &chapter, &r, &r.out, &r.outdir);
}
