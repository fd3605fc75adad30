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

/* ---- the stages, in the section's order: each takes what it reads, fills what it makes,
 * and decides the checks of the numbers it made -------------------------------------- */

/* DQS (Kavan et al. 2007), "Can another rotation representation fix the shrinkage?": one
 * vertex p with weights w_j of joints j, each joint's rigid C_j as a unit dual quaternion
 * q^_j = q_0 + eps q_e. Refused, naming the blend, where the blend's real part vanishes. */
static lab_error dqs_point(vec3 p, const int *joint, const double *weight, int K, const dualquat *palette_dq,
                           vec3 *out, lab_diag *d)
{
    /* the hemisphere rule: q^ and -q^ are the same transform, so each q^_j joins the blend on
     * the side of the heaviest joint h (q_0j . q_0h >= 0) */
    int h = 0;
    for (int k = 1; k < K; k++)
        if (weight[k] > weight[h])
            h = k;
    /* q^ = sum_j s_j w_j q^_j, s_j = +-1 */
    dualquat sum = {{0, 0, 0, 0}, {0, 0, 0, 0}};
    for (int k = 0; k < K; k++) {
        dualquat q = palette_dq[joint[k]];
        double s = quat_dot(q.real, palette_dq[joint[h]].real) < 0.0 ? -weight[k] : weight[k];
        sum = dualquat_add(sum, dualquat_scale(q, s));
    }
    /* normalised: q^ / |q_0|, an error where |q_0| vanishes, never NaN */
    dualquat u;
    lab_error e = dualquat_normalize(sum, &u, "DQS blend", d);
    if (e != LAB_OK)
        return e;
    /* p' = p + 2 d0 x (d0 x p + a0 p) + 2 (a0 de - ae d0 + d0 x de), with q_0 = (a0, d0) and
     * q_e = (ae, de): the rotation of the unit q_0, then the translation t = 2 q_e q_0* */
    vec3 d0 = {u.real.x, u.real.y, u.real.z}, de = {u.dual.x, u.dual.y, u.dual.z};
    double a0 = u.real.w, ae = u.dual.w;
    vec3 rotated = vec3_add(p, vec3_scale(vec3_cross(d0, vec3_add(vec3_cross(d0, p), vec3_scale(p, a0))), 2.0));
    vec3 shift = vec3_add(vec3_sub(vec3_scale(de, a0), vec3_scale(d0, ae)), vec3_cross(d0, de));
    *out = vec3_add(rotated, vec3_scale(shift, 2.0));
    return LAB_OK;
}

/* One pose of a rig under a method: the palette, then every vertex blended, then the rings
 * measured against the closed forms. *count is incremented once p holds memory to free. */
static lab_error run_pose(const rig30_rig *g, rig30_kind rig, skin_method method, double angle_deg,
                          dqs30_pose *p, int *count, lab_diag *d)
{
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
        if (method == SKIN_LBS) { /* LBS, lab30's formula: p~' = sum_j w_j C_j p~ */
            vec4 q = skin_lbs_point(g->bind.vertices[v], joint, weight, K, p->pose.palette);
            p->pose.positions[v] = vec3_make(q.x, q.y, q.z);
        } else if ((e = dqs_point(g->bind.vertices[v], joint, weight, K, palette_dq, &p->pose.positions[v], d)) !=
                       LAB_OK && d) {
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

/* --child-scale: the child joint's local gets the scale, and DQS must refuse the pose
 * (LBS would skin it). The rejection is the program's answer: exit 1, nothing written. */
static lab_error check_child_scale(const rig30_rig *twist, const dqs30_options *o, lab_diag *d)
{
    const double *s = o->child_scale;
    if (s[0] == 1.0 && s[1] == 1.0 && s[2] == 1.0)
        return LAB_OK;
    scene_node joints[RIG30_JOINTS];
    rig30_joints(RIG30_TWIST, deg_to_rad(o->twist_count ? o->twist_deg[0] : 90.0), joints);
    joints[1].local = mat4_mul(joints[1].local, mat4_scale(s[0], s[1], s[2]));
    rig30_pose p;
    lab_error e = rig30_pose_alloc(twist, &p, d);
    if (e == LAB_OK)
        e = rig30_pose_with(twist, joints, NULL, DQS, &p, d);
    rig30_pose_free(&p);
    return e;
}

/* Every pose of both rigs under both methods, in the figure's order: the LBS row, then
 * the DQS row; in each, the twist poses, then the bends. The checks: every twist ring's
 * radius and turn against the closed forms (a collapsed ring has no turn), and every vertex
 * and the end rings per method. */
static lab_error run_poses(const rig30_rig rigs[2], const dqs30_options *o, dqs30_pose *poses, int *count,
                           rig30_check twist_check[2], report_checks *checks, lab_diag *d)
{
    lab_error e = LAB_OK;
    for (int m = 0; e == LAB_OK && m < 2; m++) {
        for (int i = 0; e == LAB_OK && i < o->twist_count; i++) {
            dqs30_pose *p = &poses[*count];
            e = run_pose(&rigs[RIG30_TWIST], RIG30_TWIST, dqs30_methods[m], o->twist_deg[i], p, count, d);
            if (e == LAB_OK) /* the worst over all twist poses of the method */
                rig30_check_twist(&rigs[RIG30_TWIST], &p->pose, dqs30_methods[m], &twist_check[m]);
        }
        for (int i = 0; e == LAB_OK && i < o->bend_count; i++)
            e = run_pose(&rigs[RIG30_BEND], RIG30_BEND, dqs30_methods[m], o->bend_deg[i], &poses[*count], count, d);
    }
    for (int i = 0; e == LAB_OK && i < *count; i++) {
        const dqs30_pose *p = &poses[i];
        for (int k = 0; p->rig == RIG30_TWIST && k < RIG30_RINGS; k++) {
            char what[96];
            int n = snprintf(what, sizeof what, "%s %g deg ring %d ", skin_method_name(p->method), p->angle_deg, k);
            snprintf(what + n, sizeof what - (size_t)n, "radius");
            check_compare(checks, what, p->rings.radius[k], p->rings.radius_analytic[k], RIG30_CHECK_TOLERANCE);
            if (isnan(p->rings.angle[k])) /* collapsed onto the axis: no direction to turn */
                continue;
            double da = rig30_angle_difference(p->rings.angle[k], p->rings.angle_analytic[k]);
            snprintf(what + n, sizeof what - (size_t)n, "turn (deg)");
            check_add(checks, what, REPORT_COMPARE, rad_to_deg(p->rings.angle[k]), rad_to_deg(p->rings.angle_analytic[k]),
                      rad_to_deg(1e-9), da <= 1e-9);
        }
    }
    for (int m = 0; e == LAB_OK && m < 2; m++) {
        char label[64];
        snprintf(label, sizeof label, "%s every vertex vs closed form", skin_method_name(dqs30_methods[m]));
        check_bound(checks, label, twist_check[m].max_position_error, RIG30_CHECK_TOLERANCE);
        snprintf(label, sizeof label, "%s end rings vs quaternion", skin_method_name(dqs30_methods[m]));
        check_bound(checks, label, twist_check[m].max_end_ring_error, RIG30_CHECK_TOLERANCE);
    }
    return e;
}

/* 270 deg: the fix sends DQS the short way (-45 deg); without it the long way (+135).
 * 360 deg: without the fix the equal blend's real part vanishes, and is refused; with it
 * nothing moves. */
static lab_error show_hemisphere_rule(const rig30_rig *twist, dqs30 *r, report_checks *checks, lab_diag *d)
{
    double three_quarters = deg_to_rad(270), full = deg_to_rad(360), turn, moved;
    r->short_analytic = rig30_dqs_twist_angle(0.5, three_quarters);
    lab_error e = rig30_dqs_twist(twist, three_quarters, true, &r->short_with_fix, &moved, d);
    if (e == LAB_OK)
        e = rig30_dqs_twist(twist, three_quarters, false, &r->short_without_fix, &moved, d);
    if (e == LAB_OK) { /* the refusal is the result here, kept with its message */
        r->full_turn_code = rig30_dqs_twist(twist, full, false, &turn, &moved, &r->full_turn_diag);
        e = diag_resource_failure(r->full_turn_code, &r->full_turn_diag, d);
    }
    if (e == LAB_OK)
        e = rig30_dqs_twist(twist, full, true, &turn, &r->full_turn_with_fix_displacement, d);
    if (e != LAB_OK)
        return e;
    check_compare(checks, "middle ring turn, fix (deg)", rad_to_deg(r->short_with_fix), rad_to_deg(r->short_analytic),
                  1e-9);
    check_compare(checks, "middle ring turn, no fix (deg)", rad_to_deg(r->short_without_fix), 135.0, 1e-9);
    bool detected = r->full_turn_code == LAB_ERR_DQ_ZERO_NORM;
    check_add(checks, "360 deg without the fix: refused as a vanishing blend", REPORT_COUNT, detected, 1, 0, detected);
    check_bound(checks, "360 deg with the fix: max movement", r->full_turn_with_fix_displacement,
                RIG30_CHECK_TOLERANCE);
    return LAB_OK;
}

/* q and -q: negating the child's dual quaternion changes nothing after the fix (a check of
 * the hemisphere section). And DQS refuses a child joint with scale, naming the joint and
 * the scale. */
static lab_error check_sign_and_rigidity(const rig30_rig *twist, dqs30 *r, report_checks *sign_checks,
                                         report_checks *rigid_checks, lab_diag *d)
{
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
    if (e != LAB_OK)
        return e;
    check_bound(sign_checks, "q vs -q for the child (150 deg)", r->sign_difference, RIG30_CHECK_TOLERANCE);
    bool rejected = r->rigid_code == LAB_ERR_NOT_RIGID;
    check_add(rigid_checks, "a scaled child refused as not rigid", REPORT_COUNT, rejected, 1, 0, rejected);
    return LAB_OK;
}

/* The animations' frames: a whole twist every 10 degrees and a bend to 150 degrees every
 * 15, each under LBS and DQS (dqs30_anim_index orders them), computed as the poses above. */
static lab_error animation_poses(const rig30_rig rigs[2], dqs30_pose *anim, int *count, lab_diag *d)
{
    lab_error e = LAB_OK;
    for (int kind = 0; e == LAB_OK && kind < 2; kind++)
        for (int k = 0; e == LAB_OK && k < dqs30_anim_frames[kind]; k++)
            for (int m = 0; e == LAB_OK && m < 2; m++)
                e = run_pose(&rigs[kind], (rig30_kind)kind, dqs30_methods[m],
                             k * (kind == RIG30_TWIST ? DQS30_ANIM_TWIST_STEP_DEG : DQS30_ANIM_BEND_STEP_DEG),
                             &anim[dqs30_anim_index((rig30_kind)kind, k, m)], count, d);
    return e;
}

/* ---- main: the stages in the section's order, then the figures, the evidence and the
 * report ------------------------------------------------------------------------------ */

int main(int argc, char **argv)
{
    static dqs30 r = {.options = {.twist_deg = {90, 180, 270}, .bend_deg = {90, 135}, .twist_count = 3,
                                  .bend_count = 2, .child_scale = {1, 1, 1}}};
    dqs30_options *o = &r.options;
    const cli_option options[] = {
        {"--twist", CLI_DOUBLES, o->twist_deg, .count = &o->twist_count, .min_count = 1,
         .max_count = DQS30_MAX_ANGLES, .min = -720, .max = 720, .distinct = true,
         .value_name = "DEG[,DEG...]", .help = "twist angles of chapter 30's rig (default 90,180,270)"},
        {"--bend", CLI_DOUBLES, o->bend_deg, .count = &o->bend_count, .min_count = 1,
         .max_count = DQS30_MAX_ANGLES, .min = -720, .max = 720, .distinct = true,
         .value_name = "DEG[,DEG...]", .help = "elbow bend angles about x (default 90,135)"},
        {"--child-scale", CLI_DOUBLES, o->child_scale, .max_count = 3, .broadcast = true,
         .value_name = "S|SX,SY,SZ",
         .help = "scale the child joint (one factor, or one per axis); DQS takes\n"
                 "rigid transforms only and rejects it (exit 1)"},
    };
    const cli_program program = {LAB, "Chapter 30, closing section: dual quaternion skinning beside LBS.",
                                 options, CLI_COUNT(options), {"OUTDIR"}, 1, NULL};
    cli_run run;
    int code = cli_begin(&run, &program, argc, argv);
    if (code != CLI_RUN)
        return code;

    lab_diag *d = &run.diag;
    dqs30_checks *checks = &r.checks;
    const rig30_rig *twist = &r.rigs[RIG30_TWIST];
    /* chapter 30's two rigs, the twist and the elbow, and the cylinder's edges */
    lab_error e = rig30_build_both(r.rigs, &r.edges, &r.edge_count, d);
    if (e == LAB_OK) /* DQS takes rigid transforms only */
        e = check_child_scale(twist, o, d);
    if (e == LAB_OK) /* LBS and DQS on both rigs */
        e = run_poses(r.rigs, o, r.pose, &r.pose_count, r.twist_check, &checks->twist, d);
    if (e == LAB_OK)
        e = show_hemisphere_rule(twist, &r, &checks->hemisphere, d);
    if (e == LAB_OK)
        e = check_sign_and_rigidity(twist, &r, &checks->hemisphere, &checks->rigid, d);
    if (e == LAB_OK)
        e = dqs30_sweep_radius(r.sweep, r.sweep_analytic, &checks->sweep, d);
    if (e == LAB_OK)
        e = dqs30_sketch_chord(&r.chord, &checks->chord, d);
    if (e == LAB_OK)
        e = animation_poses(r.rigs, r.anim, &r.anim_count, d);
    /* the figures (dqs30_figures.c), the evidence (dqs30_record.c), and the twist and the
     * bend animated, LBS beside DQS */
    if (e == LAB_OK)
        e = dqs30_choose_cameras(&r, r.cam, d);
    if (e == LAB_OK)
        e = dqs30_figures(&r, &run.out, d);
    if (e == LAB_OK)
        e = dqs30_evidence(&r, &run.out, d);
    if (e == LAB_OK)
        e = dqs30_animations(&r, &run.out, d);

    if (e == LAB_OK && cli_report(&run, "Chapter 30, closing section: dual quaternion skinning (DQS) beside LBS")) {
        cli_section(&run, "Twist (chapter 30's rig): ring radius and turn, each method against its closed form",
                    &checks->twist);
        dqs30_report_twist(&r, stdout);
        cli_section(&run, "The short way round (270 deg) and a full turn (360 deg)", &checks->hemisphere);
        dqs30_report_hemisphere(&r, stdout);
        cli_section(&run, "Bend (an elbow at z = 1 about x; weights smoothstep over z in [0.5, 1.5])", NULL);
        dqs30_report_bend(&r, stdout);
        cli_section(&run, "DQS takes rigid transforms only (scaling must be handled separately)", &checks->rigid);
        dqs30_report_rigid(&r, stdout);
        cli_section(&run, "Radius against weight (dqs30-radius.png): measured on a skinned ring", &checks->sweep);
        dqs30_report_sweep(&r, stdout);
        cli_section(&run, "The LBS-versus-DQS text's picture (dqs30-chord.png): bones at +90 and -90 deg",
                    &checks->chord);
        dqs30_report_chord(&r, stdout);
    }
    code = cli_end(&run, e);
    dqs30_free(&r);
    return code;
}
