/* skinning30_figures.c - lab30's figures (see skinning30.h): the panels of the twist, the hand
 * control in its plane, the weights on the bind mesh, and question C's refused weights.
 * What they show is computed in lab30.c; this file only draws it. */
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
#include "program/output.h"
#include "skin/blend.h"

#include "rig30.h"
#include "rig30_cases.h"
#include "skinning30.h"

#define PANEL_W 320
#define PANEL_H 496
#define LABEL_H figure_label_height(4) /* four label lines */

/* ---- the figure ---------------------------------------------------------------------- */

/* One camera for every panel and every frame of the animation: an oblique look at the
 * middle of the cylinder, and one orthographic window fitted to every pose's vertices,
 * every frame's and the axis, so nothing clips, the panels compare at the same scale, and
 * a frame at an article's pose is that pose's panel, pixel for pixel. */
lab_error skinning30_fit_camera(const vec3 axis[2], const vec3 *const *poses, int pose_count, int vertex_count,
                               camera *cam, lab_diag *d)
{
    if (pose_count < 0 || pose_count > LAB30_MAX_POSES + LAB30_SWEEP_FRAMES)
        return diag_fail(d, LAB_ERR_LIMIT, "the figures' camera", "%d poses, at most %d", pose_count,
                         LAB30_MAX_POSES + LAB30_SWEEP_FRAMES);
    const vec3 *sets[1 + LAB30_MAX_POSES + LAB30_SWEEP_FRAMES] = {axis};
    int count[1 + LAB30_MAX_POSES + LAB30_SWEEP_FRAMES] = {2};
    for (int i = 0; i < pose_count; i++)
        sets[1 + i] = poses[i], count[1 + i] = vertex_count;
    return figure_fit_camera(cam, vec3_make(3.0, -5.0, 4.4), vec3_make(0, 0, 1), sets, count, 1 + pose_count, 0.04,
                             (camera_viewport_rect){0, LABEL_H, PANEL_W, PANEL_H - LABEL_H}, d);
}

lab_error skinning30_choose_camera(const skinning30 *c, camera *cam, lab_diag *d)
{
    const vec3 *poses[LAB30_MAX_POSES + LAB30_SWEEP_FRAMES];
    int n = 0;
    for (int i = 0; i < c->pose_count; i++)
        poses[n++] = c->pose[i].pose.positions;
    for (int k = 0; k < c->sweep_count; k++)
        poses[n++] = c->sweep[k].pose.positions;
    return skinning30_fit_camera(c->axis, poses, n, c->rig.bind.vertex_count, cam, d);
}

/* The bind mesh's edges at the skinned positions; the middle ring in orange. */
/* A readout's number: "none" where it does not apply (NaN: a method with no blended
 * matrix, the twist joints'), else as format_or_zero writes it. */
static const char *readout(char *buf, size_t size, double x, const char *format, format_zero_mode mode)
{
    if (isnan(x))
        return snprintf(buf, size, "none"), buf;
    return format_or_zero(buf, size, x, format, mode);
}

void skinning30_panel_labels(const skinning30_panel *p, char lines[4][64])
{
    /* values that are 0 in exact arithmetic (the collapse at 180) read as 0 (base/bytes.h) */
    char r[32], det[32], sv[3][16];
    snprintf(lines[0], 64, "%s = %g deg", p->angle_name ? p->angle_name : "theta", p->angle_deg);
    snprintf(lines[1], 64, "middle ring r = %s", readout(r, sizeof r, p->middle_radius, "%.6g", FORMAT_ZERO_BRIEF));
    /* the blended matrix's singular values: how much it squashes the ring's plane */
    snprintf(lines[2], 64, "det M = %s", readout(det, sizeof det, p->middle_det, "%.3g", FORMAT_ZERO_BRIEF));
    for (int k = 0; k < 3; k++)
        readout(sv[k], sizeof sv[k], p->middle_singular[k], "%.3g", FORMAT_ZERO_BARE);
    snprintf(lines[3], 64, "sv(M) %s %s %s", sv[0], sv[1], sv[2]);
}

lab_error skinning30_draw_panel(const rig30_rig *rig, const mesh_edge *edges, int edge_count, const camera *cam,
                                const vec3 axis[2], const skinning30_panel *p, canvas *out, lab_diag *d)
{
    bool *middle = NULL; /* the middle ring's edges, in orange */
    lab_error e = rig30_edge_masks(rig, edges, edge_count, &middle, NULL, d);
    if (e == LAB_OK)
        e = canvas_init(out, PANEL_W, PANEL_H, FIGURE_BACKGROUND, d);
    if (e == LAB_OK) {
        char lines[4][64];
        skinning30_panel_labels(p, lines);
        const char *label[4] = {lines[0], lines[1], lines[2], lines[3]};
        figure_panel panel = {.positions = p->positions, .edges = edges, .edge_count = edge_count,
                              .highlight = middle, .axis_from = axis[0], .axis_to = axis[1], .label = label,
                              .label_lines = 4};
        figure_draw_panel(out, cam, &panel);
    }
    free(middle);
    return e;
}

/* One of lab30's poses as a panel. */
static lab_error draw_panel(const skinning30 *c, const skinning30_pose *p, canvas *out, lab_diag *d)
{
    const skinning30_panel panel = {p->pose.positions, NULL, p->theta_deg, p->ring[RIG30_MIDDLE_RING].mean,
                                    p->middle_det, {p->middle_singular[0], p->middle_singular[1],
                                                    p->middle_singular[2]}};
    return skinning30_draw_panel(&c->rig, c->edges, c->edge_count, &c->cam, c->axis, &panel, out, d);
}

/* Section 4 drawn in the xy plane: p, its two candidates C_0 p = p and C_1 p, their blend
 * (the midpoint), and where the two wrong orders put it. 100 pixels a unit. */
static void draw_hand_control(const rig30_hand_control *h, const diagram *g)
{
    diagram_axes(g, -2.2, 2.4, -0.4, 2.6, 1.0, "x", "y");
    diagram_segment(g, h->point.x, h->point.y, h->child_moves_it.x, h->child_moves_it.y, 6, DIAGRAM_BLUE);
    const struct { vec3 at; rgb color; diagram_side side; const char *label; } marks[] = {
        {h->point, FIGURE_TEXT, DIAGRAM_RIGHT, "p = C0 p"},
        {h->in_bind_frame, DIAGRAM_GREY, DIAGRAM_ABOVE, "B1^-1 p"}, /* on the x axis: its label above */
        {h->child_moves_it, DIAGRAM_BLUE, DIAGRAM_RIGHT, "C1 p"},
        {h->computed[HAND_CORRECT], DIAGRAM_GREEN, DIAGRAM_RIGHT, "G1 B1^-1: right"},
        {h->computed[HAND_NO_INVERSE_BIND], DIAGRAM_RED, DIAGRAM_LEFT, "wrong: G1 alone"},
        {h->computed[HAND_REVERSED_ORDER], DIAGRAM_RED, DIAGRAM_LEFT, "wrong: B1^-1 G1"},
    };
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        diagram_point(g, marks[i].at.x, marks[i].at.y, marks[i].color, marks[i].side, "%s", marks[i].label);
}

/* The weights on the bind mesh: each edge coloured by its ends' child weight w_1 = z/2. */
static lab_error draw_weights(const skinning30 *c, canvas *out, lab_diag *d)
{
    int n = c->edge_count;
    vec3 *a = malloc(sizeof *a * (size_t)(n ? n : 1)), *b = malloc(sizeof *b * (size_t)(n ? n : 1));
    rgb *color = malloc(sizeof *color * (size_t)(n ? n : 1));
    lab_error e = a && b && color ? canvas_init(out, PANEL_W, PANEL_H, FIGURE_BACKGROUND, d)
                                  : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "weights panel", "%d edges", n);
    for (int i = 0; e == LAB_OK && i < n; i++) {
        a[i] = c->rig.bind.vertices[c->edges[i].a], b[i] = c->rig.bind.vertices[c->edges[i].b];
        double w = 0.5 * (rig30_child_weight(&c->rig.influences, c->edges[i].a) +
                          rig30_child_weight(&c->rig.influences, c->edges[i].b));
        color[i] = figure_error_color(w, 1.0);
    }
    if (e == LAB_OK) {
        figure_draw_lines(out, &c->cam, a, b, color, n);
        raster_text(out, 8, 8, FIGURE_TEXT_SCALE, "child weight w1 = z/2", FIGURE_TEXT);
        for (int k = 0; k < 20; k++) /* the colour bar: w1 from 0 to 1 */
            raster_fill_rect(out, 40 + 12 * k, 40, 12, 14, figure_error_color((k + 0.5) / 20.0, 1.0));
        raster_text(out, 8, 62, FIGURE_TEXT_SCALE, "0 root", FIGURE_TEXT);
        raster_text(out, PANEL_W - 8 - raster_text_width("1 child", FIGURE_TEXT_SCALE), 62, FIGURE_TEXT_SCALE,
                    "1 child", FIGURE_TEXT);
    }
    free(a), free(b), free(color);
    return e;
}

/* Question C as a picture, titled as what it is: a demonstration of data lab30 refuses.
 * At the bind pose every C_j = I, so LBS gives p~' = (w_0 + w_1) p~: weights 0.4 + 0.4 on
 * the middle ring put it at 0.8 p (the homogeneous w is 0.8), off the bind mesh it must
 * reproduce. Beside it the bind pose with the chapter's weights, which sum to 1. */
static lab_error draw_refused_weights(const skinning30 *c, canvas *out, lab_diag *d)
{
    const int n = c->rig.bind.vertex_count, joint[2] = {0, 1};
    const double refused[2] = {0.4, 0.4};
    const mat4 bind_palette[2] = {mat4_identity(), mat4_identity()}; /* C_j = I at the bind pose */
    vec3 *shrunk = malloc(sizeof *shrunk * (size_t)n);
    bool *middle = NULL;
    lab_error e = shrunk ? rig30_edge_masks(&c->rig, c->edges, c->edge_count, &middle, NULL, d)
                         : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "refused weights", "%d vertices", n);
    for (int v = 0; e == LAB_OK && v < n; v++) {
        vec3 p = c->rig.bind.vertices[v];
        vec4 q = skin_lbs_point(p, joint, refused, 2, bind_palette); /* (0.8 p, w = 0.8) */
        shrunk[v] = v / RIG30_SEGMENTS == RIG30_MIDDLE_RING ? vec3_make(q.x, q.y, q.z) : p;
    }
    canvas panels[2] = {{0}};
    const char *labels[2][4] = {{"the chapter's weights", "w0 + w1 = 1 everywhere", "bind pose: p' = p", ""},
                                {"middle ring: 0.4 + 0.4", "= 0.8: refused (exit 1)", "bind pose: p' = 0.8 p", ""}};
    for (int k = 0; e == LAB_OK && k < 2; k++) {
        e = canvas_init(&panels[k], PANEL_W, PANEL_H, FIGURE_BACKGROUND, d);
        figure_panel panel = {.positions = k ? shrunk : c->rig.bind.vertices, .edges = c->edges,
                              .edge_count = c->edge_count, .highlight = middle, .axis_from = c->axis[0],
                              .axis_to = c->axis[1], .label = labels[k], .label_lines = 4};
        if (e == LAB_OK)
            figure_draw_panel(&panels[k], &c->cam, &panel);
    }
    if (e == LAB_OK)
        e = figure_compose(out, panels, 2, 12,
                           "Question C, a demonstration of refused data:\nweights that do not sum to 1, "
                           "seen at the bind pose", d);
    canvas_free(&panels[0]), canvas_free(&panels[1]);
    free(shrunk), free(middle);
    return e;
}

/* ---- the animation ----------------------------------------------------------------------- */

#define PLOT_W 640
#define CLOSED_FORM_SAMPLES 361 /* |cos(theta/2)| every degree */

/* The middle ring's radius against theta: the closed form |cos(theta / 2)| underneath
 * (grey), the measured radius of every frame (orange squares), and a cursor at frame k. */
static lab_error radius_plot(const skinning30 *c, int k, canvas *out, lab_diag *d)
{
    static double theta[CLOSED_FORM_SAMPLES], closed[CLOSED_FORM_SAMPLES];
    double frame_theta[LAB30_SWEEP_FRAMES], measured[LAB30_SWEEP_FRAMES];
    for (int i = 0; i < CLOSED_FORM_SAMPLES; i++) {
        theta[i] = i;
        /* the article's r'/r = sqrt(1 - 4 w (1-w) sin^2(theta/2)) at w = 1/2 is |cos(theta/2)| */
        closed[i] = fabs(cos(deg_to_rad(i) / 2.0));
    }
    for (int i = 0; i < c->sweep_count; i++) {
        frame_theta[i] = c->sweep[i].theta_deg;
        measured[i] = c->sweep[i].ring[RIG30_MIDDLE_RING].mean;
    }
    double cursor_x[2] = {c->sweep[k].theta_deg, c->sweep[k].theta_deg}, cursor_y[2] = {0.0, 1.1};
    const plot_series series[] = {
        {theta, closed, CLOSED_FORM_SAMPLES, {150, 150, 150}, 0, 2, "|cos(theta/2)|", 0, 0},
        {frame_theta, measured, c->sweep_count, FIGURE_HIGHLIGHT, 0, 1, "measured", 5, 1},
        {cursor_x, cursor_y, 2, FIGURE_AXIS, 6, 1, NULL, 0, 0},
    };
    const plot_spec spec = {"Middle ring radius r'/r against the twist", "theta (deg)", "r'/r", 0, 360, 90, 0, 1.1,
                            0.1, series, 3, false, false};
    return plot_draw(out, PLOT_W, PANEL_H, &spec, d);
}

/* Frame k of skinning30-twist.gif: the panel at theta = 5k degrees (the same drawing as the
 * PNG panels) beside the radius plot with its cursor. */
static lab_error twist_frame(const void *context, int k, canvas *frame, lab_diag *d)
{
    const skinning30 *c = context;
    canvas parts[2] = {{0}};
    lab_error e = draw_panel(c, &c->sweep[k], &parts[0], d);
    if (e == LAB_OK)
        e = radius_plot(c, k, &parts[1], d);
    if (e == LAB_OK)
        e = figure_compose(frame, parts, 2, 12,
                           "LBS twist of the 9x24 cylinder, 0 to 360 deg. Orange: the middle ring z = 1,\n"
                           "whose radius follows |cos(theta/2)|: gone at 180 deg, back at 360", d);
    canvas_free(&parts[0]), canvas_free(&parts[1]);
    return e;
}

lab_error skinning30_figures(const skinning30 *c, output_batch *out, lab_diag *d)
{
    canvas panels[LAB30_MAX_POSES] = {{0}}, fig = {0};
    lab_error e = LAB_OK;
    for (int i = 0; e == LAB_OK && i < c->pose_count; i++)
        e = draw_panel(c, &c->pose[i], &panels[i], d);
    if (e == LAB_OK)
        e = figure_compose(&fig, panels, c->pose_count, 12,
                           "LBS twist of a 9x24 cylinder. Orange: the middle ring z = 1; dashed: the axis.\n"
                           "M = w0 C0 + w1 C1, the middle ring's blended matrix; sv(M): its singular values", d);
    output_name names[LAB30_MAX_POSES];
    for (int i = 0; i < c->pose_count; i++) { /* "skinning30-theta090.png" */
        char angle[40];
        snprintf(names[i], sizeof names[i], "skinning30-theta%s.png",
                 figure_angle_tag(angle, sizeof angle, c->pose[i].theta_deg));
    }
    e = output_batch_add_figure(out, e, "skinning30.png", &fig, panels, names, c->pose_count, d);
    canvas hand = {0}, weights = {0}, refused = {0};
    diagram plane;
    if (e == LAB_OK)
        e = diagram_init(&plane, &hand, 520, 445, 270, 365, 100, "Hand control: B1 = Ty(1),\nG1 = Ty(1) Rz(90), w = 1/2;\nthe blend: green right, red wrong", d);
    if (e == LAB_OK)
        draw_hand_control(&c->hand, &plane);
    if (e == LAB_OK)
        e = output_batch_add_image(out, "skinning30-hand.png", &hand, d);
    if (e == LAB_OK)
        e = draw_weights(c, &weights, d);
    if (e == LAB_OK)
        e = output_batch_add_image(out, "skinning30-weights.png", &weights, d);
    if (e == LAB_OK)
        e = draw_refused_weights(c, &refused, d);
    if (e == LAB_OK)
        e = output_batch_add_image(out, "skinning30-refused-weights.png", &refused, d);
    canvas_free(&hand), canvas_free(&weights), canvas_free(&refused);
    return e;
}

lab_error skinning30_animation(const skinning30 *c, output_batch *out, lab_diag *d)
{
    return output_batch_add_animation(out, "skinning30-twist.gif", c->sweep_count, LAB30_SWEEP_DELAY_CS,
                                      twist_frame, c, d);
}

