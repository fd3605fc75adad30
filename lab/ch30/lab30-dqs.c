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

#include "program/cli.h"
#include "draw/diagram.h"
#include "draw/figure.h"
#include "draw/plot.h"
#include "record30_dqs.h"

#define LAB "lab30-dqs"
#define PANEL_W 260
#define PANEL_H 360
#define LABEL_H figure_label_height(3) /* three label lines */
#define DQS ((skin_blend){.method = SKIN_DQS})

/* ---- the computation ------------------------------------------------------------------ */

/* Chapter 30's two rigs, the twist and the elbow, and the cylinder's edges for the figure. */
static lab_error build_rigs(void *state, lab_diag *d)
{
    dqs30 *r = state;
    return rig30_build_both(r->rigs, &r->edges, &r->edge_count, d);
}

static lab_error run_pose(dqs30 *r, rig30_kind rig, skin_method method, double angle_deg,
                          lab_diag *d)
{
    dqs30_pose *p = &r->pose[r->pose_count];
    const rig30_rig *g = &r->rigs[rig];
    const skin_influences *in = &g->influences;
    const int K = in->per_vertex;
    *p = (dqs30_pose){.rig = rig, .method = method, .angle_deg = angle_deg};
    lab_error e = rig30_pose_alloc(g, &p->pose, d);
    r->pose_count += e == LAB_OK; /* freed with the others from here on */
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
    rig30_measure_rings(g, &p->pose, method, &p->rings);
    if (rig == RIG30_BEND)
        rig30_measure_bend(g, &p->pose, &p->bend);
    else /* this pose's check, and the worst over all twist poses of the method */
        rig30_check_twist(g, &p->pose, method, &p->check), rig30_check_twist(g, &p->pose, method, &r->twist_check[method]);
    return LAB_OK;
}

/* 270 deg: the fix sends DQS the short way (-45 deg); without it the long way (+135).
 * 360 deg: without the fix the equal blend's real part vanishes; with it nothing moves. */
static lab_error hemisphere_demonstrations(void *state, lab_diag *d)
{
    dqs30 *r = state;
    double three_quarters = deg_to_rad(270), full = deg_to_rad(360), turn, moved;
    r->short_analytic = rig30_dqs_twist_angle(0.5, three_quarters);
    lab_error e = rig30_dqs_twist(&r->rigs[RIG30_TWIST], three_quarters, true, &r->short_with_fix, &moved, d);
    if (e == LAB_OK)
        e = rig30_dqs_twist(&r->rigs[RIG30_TWIST], three_quarters, false, &r->short_without_fix, &moved, d);
    if (e == LAB_OK) /* the refusal is the result here, kept with its message */
        r->full_turn_code = rig30_dqs_twist(&r->rigs[RIG30_TWIST], full, false, &turn, &moved, &r->full_turn_diag);
    if (e == LAB_OK)
        e = rig30_dqs_twist(&r->rigs[RIG30_TWIST], full, true, &turn, &r->full_turn_with_fix_displacement, d);
    return e;
}

/* q and -q: negating the child's dual quaternion changes nothing after the fix. And DQS
 * refuses a child joint with scale, naming the joint and the scale. */
static lab_error sign_and_rigidity(void *state, lab_diag *d)
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
static lab_error chord_sketch(void *state, lab_diag *d)
{
    dqs30 *r = state;
    return rig30_chord_run(&r->chord, d);
}

/* ---- the figures --------------------------------------------------------------------- */

/* A pose's camera: the twist's, or its bend angle's (r->cam[1 + the angle's index]). */
static int camera_of(const dqs30 *r, const dqs30_pose *p)
{
    for (int b = 0; p->rig == RIG30_BEND && b < r->bend_count; b++)
        if (r->bend_deg[b] == p->angle_deg)
            return 1 + b;
    return 0;
}

/* One camera for every twist pose, so their panels compare at one scale, and one per bend
 * angle, shared by LBS and DQS, so each elbow fills its panels (a camera over every bend
 * would leave the smaller bends a band of empty panel). */
static lab_error choose_cameras(void *state, lab_diag *d)
{
    dqs30 *r = state;
    /* the twist as in lab30; the bend from the side (+x), so the elbow shows in profile */
    const vec3 eyes[2] = {{3.0, -5.0, 4.4}, {8.0, -0.3, 1.0}}, targets[2] = {{0, 0, 1}, {0, -0.3, 1.0}};
    lab_error e = LAB_OK;
    for (int c = 0; e == LAB_OK && c < 1 + r->bend_count; c++) {
        const vec3 *sets[2 * 2 * DQS30_MAX_ANGLES];
        int count[2 * 2 * DQS30_MAX_ANGLES], n = 0, kind = c == 0 ? RIG30_TWIST : RIG30_BEND;
        for (int i = 0; i < r->pose_count; i++)
            if (camera_of(r, &r->pose[i]) == c)
                sets[n] = r->pose[i].pose.positions, count[n++] = r->rigs[kind].bind.vertex_count;
        e = figure_fit_camera(&r->cam[c], eyes[kind], targets[kind], sets, count, n, 0.04,
                              (camera_viewport_rect){0, LABEL_H, PANEL_W, PANEL_H - LABEL_H}, d);
    }
    return e;
}

/* Three lines, three significant digits: the pose; the middle ring's radius and turn
 * (twist) or the inner distance and the bulge (bend). */
static void panel_label(const dqs30_pose *p, char line[3][64])
{
    snprintf(line[0], 64, "%s %s %g deg", skin_method_name(p->method), rig30_kind_name(p->rig), p->angle_deg);
    double turn = p->rings.angle[RIG30_MIDDLE_RING];
    if (p->rig == RIG30_TWIST) {
        snprintf(line[1], 64, "mid r %.3g", p->rings.radius[RIG30_MIDDLE_RING]);
        if (isnan(turn)) /* a collapsed ring has no direction */
            snprintf(line[2], 64, "collapsed: no turn");
        else
            snprintf(line[2], 64, "turn %.3g deg", rad_to_deg(turn));
    } else {
        snprintf(line[1], 64, "inner %.3g", p->bend.inner_min_distance);
        snprintf(line[2], 64, "bulge %.3g", p->bend.outer_max_bulge);
    }
}

static lab_error draw_panel(const dqs30 *r, const dqs30_pose *p, canvas *c, lab_diag *d)
{
    bool *middle = NULL, *band = NULL;
    lab_error e = rig30_edge_masks(&r->rigs[p->rig], r->edges, r->edge_count, &middle, &band, d);
    if (e == LAB_OK)
        e = canvas_init(c, PANEL_W, PANEL_H, FIGURE_BACKGROUND, d);
    if (e == LAB_OK) {
        char line[3][64];
        panel_label(p, line);
        const char *label[3] = {line[0], line[1], line[2]};
        figure_panel panel = {.positions = p->pose.positions, .edges = r->edges,
                              .edge_count = r->edge_count, .highlight = middle, .band = band,
                              .label = label, .label_lines = 3}; /* no axis */
        figure_draw_panel(c, &r->cam[camera_of(r, p)], &panel);
        if (p->rig == RIG30_BEND) { /* the elbow's joint, where the inner distance is measured from */
            vec3 joint = camera_project(&r->cam[camera_of(r, p)], vec3_make(0, 0, RIG30_BEND_JOINT_Z));
            raster_fill_rect(c, (int)lround(joint.x) - 4, (int)lround(joint.y) - 4, 9, 9, FIGURE_TEXT);
        }
    }
    free(middle), free(band);
    return e;
}

static lab_error draw_radius_plot(const dqs30 *r, canvas *c, lab_diag *d)
{
    static const rgb colors[DQS30_SWEEP_ANGLES] = {{0, 114, 178}, {0, 158, 115}, {213, 94, 0}, {204, 121, 167}},
                     dqs_color = {40, 40, 40};
    double w[DQS30_SWEEP_SAMPLES];
    for (int k = 0; k < DQS30_SWEEP_SAMPLES; k++)
        w[k] = (double)k / (DQS30_SWEEP_SAMPLES - 1);
    plot_series series[2 * DQS30_SWEEP_ANGLES];
    char labels[2 * DQS30_SWEEP_ANGLES][48];
    for (int m = 0; m < 2; m++)
        for (int t = 0; t < DQS30_SWEEP_ANGLES; t++) {
            int i = m * DQS30_SWEEP_ANGLES + t;
            /* the four DQS curves coincide at r'/r = 1: one colour, one legend entry */
            snprintf(labels[i], sizeof labels[i], m ? "DQS, all four theta" : "LBS theta = %g",
                     dqs30_sweep_theta_deg[t]);
            series[i] = (plot_series){w, r->sweep[m][t], DQS30_SWEEP_SAMPLES, m ? dqs_color : colors[t],
                                      m ? 8 : 0, 2, (m && t) ? NULL : labels[i], 0, 0};
        }
    plot_spec spec = {"Twist: ring radius r'/r against the child weight w", "child weight w",
                      "r'/r", 0, 1, 0.1, 0, 1.1, 0.1, series, 2 * DQS30_SWEEP_ANGLES, false, false};
    return plot_draw(c, 960, 560, &spec, d);
}

static lab_error draw_chord(const rig30_chord *s, canvas *c, lab_diag *d)
{
    diagram g;
    lab_error e = diagram_init(&g, c, 560, 420, 260, 255, 130,
                               "Bones at +90 and -90 deg, w = 1/2:\nLBS averages M1 v and M2 v;\nr: distance from the centre", d);
    if (e != LAB_OK)
        return e;
    diagram_circle(&g, 0, 0, 1, DIAGRAM_GREY);
    diagram_segment(&g, s->by_first.x, s->by_first.y, s->by_second.x, s->by_second.y, 6, DIAGRAM_BLUE);
    diagram_point(&g, s->by_first.x, s->by_first.y, DIAGRAM_BLUE, DIAGRAM_RIGHT, "M1 v");
    diagram_point(&g, s->by_second.x, s->by_second.y, DIAGRAM_BLUE, DIAGRAM_RIGHT, "M2 v");
    diagram_point(&g, s->lbs.x, s->lbs.y, DIAGRAM_RED, DIAGRAM_LEFT, "LBS: r = %.3g", s->lbs_distance);
    diagram_point(&g, s->dqs.x, s->dqs.y, DIAGRAM_GREEN, DIAGRAM_RIGHT, "v, DQS: r = %.3g", s->dqs_distance);
    return LAB_OK;
}

static lab_error add_figures(void *state, lab_diag *d)
{
    dqs30 *r = state;
    enum { MAX_PANELS = 2 * 2 * DQS30_MAX_ANGLES };
    canvas panels[MAX_PANELS] = {{0}}, fig = {0}, plot = {0}, chord = {0};
    lab_error e = draw_chord(&r->chord, &chord, d);
    if (e == LAB_OK)
        e = output_batch_add_image(&r->out, "dqs30-chord.png", &chord, d);
    canvas_free(&chord);
    for (int i = 0; e == LAB_OK && i < r->pose_count; i++)
        e = draw_panel(r, &r->pose[i], &panels[i], d);
    if (e == LAB_OK)
        e = figure_compose_grid(&fig, panels, r->pose_count, r->twist_count + r->bend_count, 12,
                                "Top: LBS, bottom: DQS. Orange: ring w = 1/2; teal: blended band; black square: the elbow's joint.\n"
                                "inner: the inner side's closest distance to the joint (1 at bind); "
                                "bulge: how far the outer side swells past radius 1",
                                d);
    if (e == LAB_OK)
        e = draw_radius_plot(r, &plot, d);
    if (e == LAB_OK)
        e = output_batch_add_image(&r->out, "dqs30-radius.png", &plot, d);
    canvas_free(&plot);
    output_name names[MAX_PANELS];
    for (int i = 0; i < r->pose_count; i++) { /* "dqs30-lbs-twist090.png" */
        char angle[40];
        snprintf(names[i], sizeof names[i], "dqs30-%s-%s%s.png", r->pose[i].method == SKIN_DQS ? "dqs" : "lbs",
                 rig30_kind_name(r->pose[i].rig), figure_angle_tag(angle, sizeof angle, r->pose[i].angle_deg));
    }
    return output_batch_add_figure(&r->out, e, "dqs30.png", &fig, panels, names, r->pose_count, d);
}

/* Every pose of both rigs under both methods, in the figure's order: the LBS row, then
 * the DQS row; in each, the twist poses, then the bends. */
static lab_error run_poses(void *state, lab_diag *d)
{
    dqs30 *r = state;
    lab_error e = LAB_OK;
    for (int m = 0; e == LAB_OK && m < 2; m++) {
        for (int i = 0; e == LAB_OK && i < r->twist_count; i++)
            e = run_pose(r, RIG30_TWIST, dqs30_methods[m], r->twist_deg[i], d);
        for (int i = 0; e == LAB_OK && i < r->bend_count; i++)
            e = run_pose(r, RIG30_BEND, dqs30_methods[m], r->bend_deg[i], d);
    }
    return e;
}

/* r'/r against the child weight w at four twist angles: the plot's curves. */
static lab_error radius_sweeps(void *state, lab_diag *d)
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
                                 options, 3, {"OUTDIR"}, 1, NULL};
    /* The section's steps in its order, each with the report section that shows it. */
    static const cli_step steps[] = {
        {.run = build_rigs},        /* the twist and the elbow */
        {.run = check_child_scale}, /* DQS takes rigid transforms only */
        {.run = run_poses, .report = record30_dqs_report_twist, /* LBS and DQS on both rigs */
         .section = "Twist (chapter 30's rig): ring radius and turn, each method against its closed form"},
        {.run = hemisphere_demonstrations, .report = record30_dqs_report_hemisphere,
         .section = "The short way round (270 deg) and a full turn (360 deg)"},
        {.section = "Bend (an elbow at z = 1 about x; weights smoothstep over z in [0.5, 1.5])",
         .report = record30_dqs_report_bend},
        {.run = sign_and_rigidity, .report = record30_dqs_report_rigid, /* q and -q; a scaled joint */
         .section = "DQS takes rigid transforms only (scaling must be handled separately)"},
        {.run = radius_sweeps, .report = record30_dqs_report_sweep, /* r'/r against w */
         .section = "Radius against weight (dqs30-radius.png): measured on a skinned ring"},
        {.run = chord_sketch, .report = record30_dqs_report_chord, /* two bones at +-90 deg */
         .section = "The LBS-versus-DQS text's picture (dqs30-chord.png): bones at +90 and -90 deg"},
        {.run = choose_cameras}, /* the figures */
        {.run = add_figures},
        {.run = record30_dqs_evidence},
    };
    static const cli_chapter chapter = {steps, sizeof steps / sizeof steps[0],
                                        "Chapter 30, closing section: dual quaternion skinning (DQS) beside LBS",
                                        false, NULL, record30_dqs_release};
    return cli_main(&program, argc, argv, &chapter, &r, &r.out, &r.outdir);
}
