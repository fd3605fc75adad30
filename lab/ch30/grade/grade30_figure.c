/* grade30_figure.c - what several exercises' pictures share (grade30_figure.h): the panels,
 * the student's polyline, the hand control's plane (1, 2), exercise 6's DQS ring (6, 11 to
 * 13), the chapter's cylinder at the twist (3, 10, 22), the turn angles' plot (14, 15), the
 * fixes' middle ring at 180 degrees (23, 24), bars (16 to 19). Each exercise's own picture is
 * in its file. */
#include <math.h>
#include <stdlib.h>

#include "base/diag.h"
#include "draw/camera.h"
#include "draw/diagram.h"
#include "draw/figure.h"
#include "draw/plot.h"
#include "draw/raster.h"
#include "math/dualquat.h"
#include "math/linalg.h"
#include "math/quat.h"
#include "mesh/mesh.h"
#include "skin/blend.h"
#include "skin/influences.h"

#include "grade30_figure.h"
#include "grade30_table.h"
#include "rig30.h"
#include "rig30_check.h"
#include "rig30_fixes.h"

/* A diagram panel with the legend under its title. */
lab_error grade30_diagram_panel(diagram *g, canvas *c, double ox, double oy, double scale, const char *title,
                               lab_diag *d)
{
    lab_error e = diagram_init(g, c, W, H, ox, oy, scale, title, d);
    if (e == LAB_OK) {
        raster_text(c, 8, H - 30, FIGURE_TEXT_SCALE, "green: the lab's", LABS);
        raster_text(c, 220, H - 30, FIGURE_TEXT_SCALE, "red (dashed): yours", YOURS);
    }
    return e;
}

/* A polyline of n points (the student's may be anything: the rasterizer skips what is not
 * finite and clips the rest). */
void grade30_polyline(const diagram *g, const vec3 *p, int n, int dash, rgb color)
{
    for (int i = 0; i + 1 < n; i++)
        diagram_segment(g, p[i].x, p[i].y, p[i + 1].x, p[i + 1].y, dash, color);
}

void grade30_not_drawn(canvas *c) { raster_text(c, 8, H - 56, FIGURE_TEXT_SCALE, "yours: not drawn (see the verdict)", YOURS); }

/* Whether n points are all finite and within 100 of the origin (the student's may be anything). */
bool grade30_finite_and_near(const vec3 *p, int n)
{
    for (int i = 0; i < n; i++)
        if (!vec3_is_finite(p[i]) || vec3_length(p[i]) > 100)
            return false;
    return true;
}

/* The hand control's plane: a shape under the lab's matrix (green) and yours (red), the
 * bind shape in grey when given. */
lab_error grade30_hand_panel(diagram *g, canvas *out, const char *title, mat4 lab, const vec3 *shape, int n,
                            bool grey, const grade30_picture_data *yours, lab_diag *d)
{
    lab_error e = grade30_diagram_panel(g, out, 250, 268, 66, title, d);
    if (e != LAB_OK)
        return e;
    diagram_axes(g, -2.4, 1.6, -0.4, 3.1, 1, "x", "y");
    vec3 p[16];
    for (int i = 0; i < n && i < 16; i++)
        p[i] = mat4_transform_point(lab, shape[i]);
    if (grey)
        grade30_polyline(g, shape, n, 0, DIAGRAM_GREY);
    grade30_polyline(g, p, n, 0, LABS);
    if (yours->drawn)
        grade30_polyline(g, yours->yours, yours->count, 4, YOURS);
    else
        grade30_not_drawn(out);
    return LAB_OK;
}

/* The root, and the child turned 160 deg about z and moved by (0.5, 0, 0), given as -q^. */
void grade30_ring_joints(dualquat q[2])
{
    q[0] = dualquat_identity();
    q[1] = dualquat_scale(dualquat_from_rigid(quat_from_axis_angle(vec3_make(0, 0, 1), deg_to_rad(160)),
                                              vec3_make(0.5, 0, 0)),
                          -1);
}

vec3 grade30_ring_point(int i)
{
    double a = 2 * LAB_PI * i / GRADE30_RING;
    return vec3_make(cos(a), sin(a), 1);
}

/* The ring's points under a blend (normalised by the lab); false when it cannot be. */
bool grade30_ring_under(dualquat blend, vec3 *out)
{
    dualquat unit;
    if (dualquat_normalize(blend, &unit, "grade30", NULL) != LAB_OK)
        return false;
    for (int i = 0; i <= GRADE30_RING; i++)
        out[i] = dualquat_transform_point(unit, grade30_ring_point(i % GRADE30_RING));
    return true;
}

lab_error grade30_draw_ring(const char *title, const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    diagram g;
    lab_error e = grade30_diagram_panel(&g, out, 250, 185, 70, title, d);
    if (e != LAB_OK)
        return e;
    diagram_axes(&g, -2.2, 2.2, -1.5, 1.5, 1, "x", "y");
    dualquat q[2];
    grade30_ring_joints(q);
    const double w[2] = {0.6, 0.4};
    vec3 bind[GRADE30_RING + 1], lab[GRADE30_RING + 1];
    for (int i = 0; i <= GRADE30_RING; i++)
        bind[i] = grade30_ring_point(i % GRADE30_RING);
    grade30_polyline(&g, bind, GRADE30_RING + 1, 0, DIAGRAM_GREY);
    if (grade30_ring_under(dualquat_blend(q, w, 2, true), lab)) {
        grade30_polyline(&g, lab, GRADE30_RING + 1, 0, LABS);
        diagram_point(&g, lab[0].x, lab[0].y, LABS, DIAGRAM_RIGHT, "v0");
    }
    if (yours->drawn) {
        grade30_polyline(&g, yours->yours, GRADE30_RING + 1, 4, YOURS);
        if (grade30_finite_and_near(yours->yours, 1) && fabs(yours->yours[0].x) < 2 && fabs(yours->yours[0].y) < 1.5)
            diagram_point(&g, yours->yours[0].x, yours->yours[0].y, YOURS, DIAGRAM_LEFT, "v0");
    } else {
        grade30_not_drawn(out);
    }
    return LAB_OK;
}

/* The chapter's rig and its palette at the twist (the lab's). */
lab_error grade30_twist_rig(rig30_rig *rig, mat4 palette[RIG30_JOINTS], lab_diag *d)
{
    lab_error e = rig30_rig_build(rig, RIG30_TWIST, NULL, d);
    if (e == LAB_OK)
        e = rig30_palettes(rig, deg_to_rad(TWIST_DEG), palette, NULL, d);
    return e;
}

lab_error grade30_draw_cylinder(const char *lab_title, const char *your_title, const grade30_picture_data *yours,
                                canvas *out, lab_diag *d)
{
    rig30_rig rig = {0};
    mat4 palette[RIG30_JOINTS];
    vec3 *lab = malloc(sizeof *lab * VERTICES);
    mesh_edge *edges = NULL;
    bool *middle = NULL;
    int edge_count = 0;
    lab_error e = lab ? grade30_twist_rig(&rig, palette, d) : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "grade30", "a picture");
    for (int v = 0; e == LAB_OK && v < VERTICES; v++) {
        vec4 q = skin_lbs_point(rig.bind.vertices[v], rig.influences.joint + 2 * v, rig.influences.weight + 2 * v, 2,
                                palette);
        lab[v] = vec3_make(q.x, q.y, q.z);
    }
    if (e == LAB_OK)
        e = mesh_unique_edges(rig.bind.triangles, rig.bind.triangle_count, &edges, &edge_count, d);
    if (e == LAB_OK)
        e = rig30_edge_masks(&rig, edges, edge_count, &middle, NULL, d);
    bool show = yours->drawn && yours->count == VERTICES && grade30_finite_and_near(yours->yours, VERTICES);
    camera cam = {0};
    int top = figure_label_height(3);
    if (e == LAB_OK) {
        const vec3 *sets[] = {lab, show ? yours->yours : lab};
        const int counts[] = {VERTICES, VERTICES};
        e = figure_fit_camera(&cam, vec3_make(3, -4, 2.5), vec3_make(0, 0, 1), sets, counts, 2, 0.1,
                              (camera_viewport_rect){0, top, W / 2, H - top}, d);
    }
    canvas half[2] = {{0}};
    const char *lab_label[] = {lab_title, "at a 120 deg twist", "orange: middle ring"};
    const char *your_label[] = {your_title, show ? "orange: middle ring" : "not drawn:",
                                show ? "" : "see the verdict"};
    const vec3 *sets[2] = {lab, show ? yours->yours : NULL};
    const char *const *labels[2] = {lab_label, your_label};
    for (int k = 0; k < 2 && e == LAB_OK; k++) {
        e = canvas_init(&half[k], W / 2, H, FIGURE_BACKGROUND, d);
        if (e == LAB_OK && sets[k])
            figure_draw_panel(&half[k], &cam, &(figure_panel){.positions = sets[k], .edges = edges,
                                                              .edge_count = edge_count, .highlight = middle,
                                                              .axis_from = {0, 0, -0.3},
                                                              .axis_to = {0, 0, RIG30_HEIGHT + 0.3},
                                                              .label = labels[k], .label_lines = 3});
        else if (e == LAB_OK)
            for (int line = 0; line < 3; line++)
                figure_draw_label(&half[k], line, labels[k][line]);
    }
    if (e == LAB_OK)
        e = canvas_init(out, W, H, FIGURE_BACKGROUND, d);
    if (e == LAB_OK)
        canvas_blit(out, &half[0], 0, 0), canvas_blit(out, &half[1], W / 2, 0);
    canvas_free(&half[0]), canvas_free(&half[1]);
    free(lab), free(edges), free(middle);
    rig30_rig_free(&rig);
    return e;
}

/* A diagram panel with the legend under its title. */
lab_error grade30_panel(diagram *g, canvas *c, double ox, double oy, double scale, const char *title, lab_diag *d)
{
    lab_error e = diagram_init(g, c, W, H, ox, oy, scale, title, d);
    if (e == LAB_OK) {
        raster_text(c, 8, H - 30, FIGURE_TEXT_SCALE, "green: the lab's", LABS);
        raster_text(c, 220, H - 30, FIGURE_TEXT_SCALE, "red (dashed): yours", YOURS);
    }
    return e;
}

const double grade30_ring_w[2] = {0.6, 0.4};

void grade30_dq_ring(grade30_fn f, ring_part part, grade30_picture_data *out)
{
    dualquat q[2], unit;
    grade30_ring_joints(q);
    if (part == YOUR_JOINTS) /* the same two: the root, and -q^ of T(0.5, 0, 0) Rz(160) */
        q[0] = f.dq_from_rigid(quat_identity(), vec3_make(0, 0, 0)),
        q[1] = dualquat_scale(f.dq_from_rigid(quat_from_axis_angle(vec3_make(0, 0, 1), deg_to_rad(160)), vec3_make(0.5, 0, 0)), -1);
    dualquat blend = dualquat_blend(q, grade30_ring_w, 2, true);
    out->count = GRADE30_RING + 1;
    out->drawn = part == YOUR_NORMALISATION ? f.dq_normalize(blend, &unit)
                                            : dualquat_normalize(blend, &unit, "grade30", NULL) == LAB_OK;
    for (int i = 0; out->drawn && i <= GRADE30_RING; i++) {
        vec3 p = grade30_ring_point(i % GRADE30_RING);
        out->yours[i] = part == YOUR_TRANSFORM ? f.dq_transform_point(unit, p) : dualquat_transform_point(unit, p);
    }
}
const double grade30_turn_weights[2] = {0.5, 0.25};
double grade30_turn_theta_deg(int i) { return -360 + 720.0 * i / (TURN_STEPS - 1); }

void grade30_turn_points(grade30_fn f, grade30_picture_data *out)
{
    out->count = 2 * TURN_STEPS, out->drawn = true;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < TURN_STEPS; i++)
            out->yours[k * TURN_STEPS + i].x = f.turn_angle(grade30_turn_weights[k], deg_to_rad(grade30_turn_theta_deg(i)));
}

/* An angle in degrees within (-180, 180] (the grade takes it up to whole turns). */
double grade30_wrapped_deg(double radians) { return -remainder(-radians, 2 * LAB_PI) * 180 / LAB_PI; }

lab_error grade30_turn_plot(bool dqs, const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    double theta[TURN_STEPS], lab[2][TURN_STEPS], mine[2][TURN_STEPS];
    for (int i = 0; i < TURN_STEPS; i++) {
        theta[i] = grade30_turn_theta_deg(i);
        for (int k = 0; k < 2; k++) {
            double t = deg_to_rad(theta[i]), w = grade30_turn_weights[k];
            lab[k][i] = grade30_wrapped_deg(dqs ? rig30_dqs_twist_angle(w, t) : rig30_lbs_twist_angle(w, t));
            mine[k][i] = yours->drawn ? grade30_wrapped_deg(yours->yours[k * TURN_STEPS + i].x) : NAN;
        }
    }
    plot_series s[4] = {
        {theta, lab[0], TURN_STEPS, LABS, 0, 2, "lab, w = 1/2", 0, 0},
        {theta, lab[1], TURN_STEPS, LABS, 6, 2, "lab, w = 1/4", 0, 0},
        {theta, mine[0], TURN_STEPS, YOURS, 0, 1, "yours, 1/2", 0, 0},
        {theta, mine[1], TURN_STEPS, YOURS, 6, 1, "yours, 1/4", 0, 0},
    };
    plot_spec spec = {.title = dqs ? "15. the DQS ring's turn against theta" : "14. the LBS ring's turn against theta",
                      .x_label = "theta (deg)", .y_label = "turn (deg)",
                      .x_min = -360, .x_max = 360, .x_step = 180, .y_min = -180, .y_max = 180, .y_step = 90,
                      .series = s, .series_count = 4};
    return plot_draw(out, W, H, &spec, d);
}

lab_error grade30_blank(canvas *out, const char *title, lab_diag *d)
{
    lab_error e = canvas_init(out, W, H, FIGURE_BACKGROUND, d);
    if (e == LAB_OK) {
        raster_text(out, 8, 8, FIGURE_TEXT_SCALE, title, FIGURE_EDGE);
        raster_text(out, 8, H - 30, FIGURE_TEXT_SCALE, "green: the lab's", LABS);
        raster_text(out, 220, H - 30, FIGURE_TEXT_SCALE, "red: yours", YOURS);
    }
    return e;
}

/* Paired bars of n values from `low` to `high`: the lab's (filled) and yours (outlined), with labels. */
void grade30_bars(canvas *out, int top, int height, const double *lab, const double *mine, bool drawn, int n, double low,
                 double high, const char *const *labels)
{
    int left = 20, width = (W - 2 * left) / (n > 0 ? n : 1), base = top + (int)(height * high / (high - low));
    raster_line(out, left, base, W - left, base, DIAGRAM_GREY);
    for (int i = 0; i < n; i++) {
        int x = left + i * width;
        double v[2] = {lab[i], drawn ? mine[i] : NAN};
        for (int k = 0; k < 2; k++) {
            if (!isfinite(v[k]))
                continue;
            double c = fmin(fmax(v[k], low), high);
            int y = top + (int)(height * (high - c) / (high - low)), x0 = x + 4 + k * (width / 2 - 2);
            int y0 = y < base ? y : base, h = abs(base - y) + 1, w = width / 2 - 6;
            if (k == 0)
                raster_fill_rect(out, x0, y0, w, h, LABS);
            else
                raster_line(out, x0, y0, x0 + w, y0, YOURS), raster_line(out, x0, y0 + h, x0 + w, y0 + h, YOURS),
                    raster_line(out, x0, y0, x0, y0 + h, YOURS), raster_line(out, x0 + w, y0, x0 + w, y0 + h, YOURS);
        }
        if (labels)
            raster_text(out, x + 4, top + height + 6, 1, labels[i], FIGURE_EDGE);
    }
}
