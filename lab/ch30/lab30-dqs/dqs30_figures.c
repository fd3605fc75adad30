/* dqs30_figures.c - lab30-dqs's figures (see dqs30.h): LBS and DQS side by side on
 * the twist and the elbow, the radius against the weight, the two-bone chord. The poses
 * are computed in lab30-dqs.c; the sweep of the radius and the chord are run here, each
 * checked against its closed form, and drawn. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "base/diag.h"
#include "draw/camera.h"
#include "draw/diagram.h"
#include "draw/figure.h"
#include "draw/plot.h"
#include "draw/raster.h"
#include "math/linalg.h"
#include "mesh/mesh.h"
#include "program/output.h"
#include "skin/blend.h"

#include "dqs30.h"
#include "rig30.h"
#include "rig30_cases.h"

#define PANEL_W 260
#define PANEL_H 360
#define LABEL_H figure_label_height(3) /* three label lines */

const int dqs30_anim_frames[2] = {DQS30_ANIM_TWIST_FRAMES, DQS30_ANIM_BEND_FRAMES};

/* One camera for every twist pose and frame, and one for every bend pose and frame, so the
 * panels compare at one scale and a frame of an animation at one of the figure's poses is
 * that pose's panel, pixel for pixel. */
lab_error dqs30_choose_cameras(const dqs30 *r, camera cam[2], lab_diag *d)
{
    /* the twist as in lab30; the bend from the side (+x), so the elbow shows in profile */
    const vec3 eyes[2] = {{3.0, -5.0, 4.4}, {8.0, -0.3, 1.0}}, targets[2] = {{0, 0, 1}, {0, -0.3, 1.0}};
    lab_error e = LAB_OK;
    for (int kind = 0; e == LAB_OK && kind < 2; kind++) {
        const vec3 *sets[2 * 2 * DQS30_MAX_ANGLES + DQS30_ANIM_POSES];
        int count[2 * 2 * DQS30_MAX_ANGLES + DQS30_ANIM_POSES], n = 0;
        for (int i = 0; i < r->pose_count; i++)
            if (r->pose[i].rig == (rig30_kind)kind)
                sets[n] = r->pose[i].pose.positions, count[n++] = r->rigs[kind].bind.vertex_count;
        for (int i = 0; i < r->anim_count; i++)
            if (r->anim[i].rig == (rig30_kind)kind)
                sets[n] = r->anim[i].pose.positions, count[n++] = r->rigs[kind].bind.vertex_count;
        e = figure_fit_camera(&cam[kind], eyes[kind], targets[kind], sets, count, n, 0.04,
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
        char r[32], deg[32]; /* the collapse at 180 reads as 0 (base/bytes.h) */
        /* past 180 degrees DQS turns the short way: "flipped" says so where the ring jumps */
        snprintf(line[1], 64, "mid r %s%s",
                 format_or_zero(r, sizeof r, p->rings.radius[RIG30_MIDDLE_RING], "%.3g", FORMAT_ZERO_BRIEF),
                 p->flipped ? ", flipped" : "");
        if (isnan(turn)) /* a collapsed ring has no direction */
            snprintf(line[2], 64, "collapsed: no turn");
        else
            snprintf(line[2], 64, "turn %s deg", format_or_zero(deg, sizeof deg, rad_to_deg(turn), "%.3g",
                                                                FORMAT_ZERO_BARE));
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
        const mesh *m = &r->rigs[p->rig].bind; /* the elbow in profile: its back edges hidden */
        figure_panel panel = {.positions = p->pose.positions, .edges = r->edges,
                              .edge_count = r->edge_count, .highlight = middle, .band = band,
                              .label = label, .label_lines = 3, /* no axis */
                              .triangles = m->triangles, .triangle_count = m->triangle_count,
                              .hidden_lines = p->rig == RIG30_BEND};
        figure_draw_panel(c, &r->cam[p->rig], &panel);
        if (p->rig == RIG30_BEND) { /* the elbow's joint, where the inner distance is measured from */
            vec3 joint = camera_project(&r->cam[p->rig], vec3_make(0, 0, RIG30_BEND_JOINT_Z));
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
            snprintf(labels[i], sizeof labels[i], m ? "DQS, all four theta" : "LBS theta = %g deg",
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

/* Frame k of dqs30-twist.gif and dqs30-bend.gif: the rig at 5k degrees, LBS beside DQS,
 * each panel drawn as the figure's. */
typedef struct {
    const dqs30 *r;
    rig30_kind kind;
    const char *title;
} animation;

static lab_error animation_frame(const void *context, int k, canvas *frame, lab_diag *d)
{
    const animation *a = context;
    canvas parts[2] = {{0}};
    lab_error e = LAB_OK;
    for (int m = 0; e == LAB_OK && m < 2; m++)
        e = draw_panel(a->r, &a->r->anim[dqs30_anim_index(a->kind, k, m)], &parts[m], d);
    if (e == LAB_OK)
        e = figure_compose(frame, parts, 2, 12, a->title, d);
    canvas_free(&parts[0]), canvas_free(&parts[1]);
    return e;
}

lab_error dqs30_figures(const dqs30 *r, output_batch *out, lab_diag *d)
{
    enum { MAX_PANELS = 2 * 2 * DQS30_MAX_ANGLES };
    canvas panels[MAX_PANELS] = {{0}}, fig = {0}, plot = {0}, chord = {0};
    lab_error e = draw_chord(&r->chord, &chord, d);
    if (e == LAB_OK)
        e = output_batch_add_image(out, "dqs30-chord.png", &chord, d);
    canvas_free(&chord);
    for (int i = 0; e == LAB_OK && i < r->pose_count; i++)
        e = draw_panel(r, &r->pose[i], &panels[i], d);
    if (e == LAB_OK)
        e = figure_compose_grid(&fig, panels, r->pose_count, r->options.twist_count + r->options.bend_count, 12,
                                "Top: LBS, bottom: DQS. Orange: ring w = 1/2; teal: blended band; black square: the elbow's joint.\n"
                                "inner: the inner side's closest distance to the joint (1 at bind); "
                                "bulge: how far the outer side swells past radius 1.\n"
                                "flipped: past 180 deg DQS blends -q1 (the hemisphere rule), so the ring turns the short way",
                                d);
    if (e == LAB_OK)
        e = draw_radius_plot(r, &plot, d);
    if (e == LAB_OK)
        e = output_batch_add_image(out, "dqs30-radius.png", &plot, d);
    canvas_free(&plot);
    output_name names[MAX_PANELS];
    for (int i = 0; i < r->pose_count; i++) { /* "dqs30-lbs-twist090.png" */
        char angle[40];
        snprintf(names[i], sizeof names[i], "dqs30-%s-%s%s.png", r->pose[i].method == SKIN_DQS ? "dqs" : "lbs",
                 rig30_kind_name(r->pose[i].rig), figure_angle_tag(angle, sizeof angle, r->pose[i].angle_deg));
    }
    return output_batch_add_figure(out, e, "dqs30.png", &fig, panels, names, r->pose_count, d);
}

lab_error dqs30_animations(const dqs30 *r, output_batch *out, lab_diag *d)
{
    lab_error e = LAB_OK;
    animation twist = {r, RIG30_TWIST,
                       "Twist 0 to 360 deg: LBS (left) collapses\nthe middle ring, DQS (right) keeps it.\n"
                       "Past 180 deg DQS blends -q1 (flipped):\nits ring jumps to the short way round"};
    animation bend = {r, RIG30_BEND, "Bend 0 to 150 deg: LBS (left) pinches\nthe elbow, DQS (right) keeps it; its\n"
                                     "outer side bulges by 3% of the radius\n(the labels' bulge, too small to see)"};
    if (e == LAB_OK)
        e = output_batch_add_animation(out, "dqs30-twist.gif", DQS30_ANIM_TWIST_FRAMES, DQS30_ANIM_DELAY_CS,
                                       animation_frame, &twist, d);
    if (e == LAB_OK)
        e = output_batch_add_animation(out, "dqs30-bend.gif", DQS30_ANIM_BEND_FRAMES, DQS30_ANIM_DELAY_CS,
                                       animation_frame, &bend, d);
    return e;
}

/* r'/r against the child weight w at four twist angles: the plot's curves, each sample
 * measured on a skinned ring against its closed form. */
lab_error dqs30_sweep_radius(double sweep[2][DQS30_SWEEP_ANGLES][DQS30_SWEEP_SAMPLES],
                             double analytic[2][DQS30_SWEEP_ANGLES][DQS30_SWEEP_SAMPLES], report_checks *checks,
                             lab_diag *d)
{
    lab_error e = LAB_OK;
    double worst = 0.0;
    for (int m = 0; m < 2; m++)
        for (int t = 0; e == LAB_OK && t < DQS30_SWEEP_ANGLES; t++) {
            e = rig30_sweep_radius(dqs30_methods[m], deg_to_rad(dqs30_sweep_theta_deg[t]), DQS30_SWEEP_SAMPLES,
                                   sweep[m][t], analytic[m][t], d);
            for (int k = 0; e == LAB_OK && k < DQS30_SWEEP_SAMPLES; k++)
                worst = max_or_nan(worst, fabs(sweep[m][t][k] - analytic[m][t][k]));
        }
    if (e == LAB_OK)
        check_bound(checks, "max |measured - analytic|", worst, RIG30_CHECK_TOLERANCE);
    return e;
}

/* The LBS-versus-DQS text's picture: two bones at +90 and -90 degrees, half weight each;
 * LBS lands on the chord, DQS stays on the circle. */
lab_error dqs30_sketch_chord(rig30_chord *c, report_checks *checks, lab_diag *d)
{
    lab_error e = rig30_chord_run(c, d);
    if (e == LAB_OK) {
        check_compare(checks, "LBS distance from the centre", c->lbs_distance, c->lbs_distance_analytic,
                      RIG30_CHECK_TOLERANCE);
        check_compare(checks, "DQS distance from the centre", c->dqs_distance, 1.0, RIG30_CHECK_TOLERANCE);
    }
    return e;
}
