/* grade30_figure.c - each exercise's picture (declared in grade30_table.h): the student's points made
 * in the grading child, drawn here beside the lab's, which this file computes with the
 * library (the hierarchy product, the palette, the blends, the closed forms). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

#include "grade30_table.h"
#include "rig30.h"
#include "rig30_check.h"

#define W GRADE30_PICTURE_W
#define H GRADE30_PICTURE_H
#define YOURS ((rgb){220, 40, 40})
#define LABS DIAGRAM_GREEN

/* A diagram panel with the legend under its title. */
static lab_error diagram_panel(diagram *g, canvas *c, double ox, double oy, double scale, const char *title,
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
static void polyline(const diagram *g, const vec3 *p, int n, int dash, rgb color)
{
    for (int i = 0; i + 1 < n; i++)
        diagram_segment(g, p[i].x, p[i].y, p[i + 1].x, p[i + 1].y, dash, color);
}

static void not_drawn(canvas *c, const char *why) { raster_text(c, 8, H - 56, FIGURE_TEXT_SCALE, why, YOURS); }

/* ---- 1. the world matrix on the hand control's chain ---------------------------------- */

/* A bone of length 1 along the child's x with a hand at its end, in the child's frame. */
static const vec3 hand_shape[] = {{0, 0, 0}, {1, 0, 0}, {1.25, 0.2, 0}, {1, 0, 0}, {1.25, -0.2, 0}};
#define HAND_POINTS ((int)(sizeof hand_shape / sizeof hand_shape[0]))

static mat4 chain_parent(void) { return mat4_mul(mat4_translate(0, 1, 0), mat4_rotate_z(deg_to_rad(90))); }
static mat4 chain_local(void) { return mat4_mul(mat4_translate(1, 0, 0), mat4_rotate_z(deg_to_rad(30))); }

void grade30_points_world(grade30_fn f, grade30_picture_data *out)
{
    mat4 g = f.world_matrix(chain_parent(), chain_local());
    out->count = HAND_POINTS, out->drawn = true;
    for (int i = 0; i < HAND_POINTS; i++)
        out->yours[i] = mat4_transform_point(g, hand_shape[i]);
}

/* The hand control's plane: a shape under the lab's matrix (green) and yours (red), the
 * bind shape in grey when given. */
static lab_error hand_panel(diagram *g, canvas *out, const char *title, mat4 lab, const vec3 *shape, int n,
                            bool grey, const grade30_picture_data *yours, lab_diag *d)
{
    lab_error e = diagram_panel(g, out, 250, 268, 66, title, d);
    if (e != LAB_OK)
        return e;
    diagram_axes(g, -2.4, 1.6, -0.4, 3.1, 1, "x", "y");
    vec3 p[16];
    for (int i = 0; i < n && i < 16; i++)
        p[i] = mat4_transform_point(lab, shape[i]);
    if (grey)
        polyline(g, shape, n, 0, DIAGRAM_GREY);
    polyline(g, p, n, 0, LABS);
    if (yours->drawn)
        polyline(g, yours->yours, yours->count, 4, YOURS);
    else
        not_drawn(out, "yours: not drawn (see the verdict)");
    return LAB_OK;
}

lab_error grade30_draw_world(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    diagram g;
    mat4 parent = chain_parent();
    lab_error e = hand_panel(&g, out, "1. the world matrix on the hand control:\nG_parent = Ty(1) Rz(90), L = Tx(1) Rz(30)",
                             mat4_mul(parent, chain_local()), hand_shape, HAND_POINTS, false, yours, d);
    if (e != LAB_OK)
        return e;
    vec3 bone[2] = {mat4_transform_point(parent, vec3_make(0, 0, 0)), mat4_transform_point(parent, vec3_make(1, 0, 0))};
    diagram_segment(&g, 0, 0, bone[0].x, bone[0].y, 4, DIAGRAM_GREY);
    polyline(&g, bone, 2, 0, DIAGRAM_BLUE);
    diagram_label(&g, bone[0].x, bone[0].y, DIAGRAM_BLUE, DIAGRAM_RIGHT, "parent");
    return LAB_OK;
}

/* ---- 2. the skin matrix on the hand control ------------------------------------------- */

/* The hand control's point p = (1, 1, 0) with a square about it and its bone from the
 * joint at (0, 1), in the bind pose. */
static const vec3 bind_shape[] = {{0, 1, 0}, {1, 1, 0}, {1.2, 1.2, 0}, {0.8, 1.2, 0}, {0.8, 0.8, 0},
                                  {1.2, 0.8, 0}, {1.2, 1.2, 0}};
#define BIND_POINTS ((int)(sizeof bind_shape / sizeof bind_shape[0]))

void grade30_points_skin(grade30_fn f, grade30_picture_data *out)
{
    mat4 c = f.skin_matrix(mat4_mul(mat4_translate(0, 1, 0), mat4_rotate_z(deg_to_rad(90))), mat4_translate(0, -1, 0));
    out->count = BIND_POINTS, out->drawn = true;
    for (int i = 0; i < BIND_POINTS; i++)
        out->yours[i] = mat4_transform_point(c, bind_shape[i]);
}

lab_error grade30_draw_skin(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    diagram g;
    mat4 c = mat4_mul(mat4_mul(mat4_translate(0, 1, 0), mat4_rotate_z(deg_to_rad(90))), mat4_translate(0, -1, 0));
    return hand_panel(&g, out, "2. the skin matrix on the hand control:\nG = Ty(1) Rz(90), B = Ty(1); grey: bind", c,
                      bind_shape, BIND_POINTS, true, yours, d);
}

/* ---- 3. the LBS blend on the cylinder ------------------------------------------------- */

#define TWIST_DEG 120.0
enum { VERTICES = RIG30_RINGS * RIG30_SEGMENTS };

/* The chapter's rig and its palette at the twist (the lab's). */
static lab_error twist_rig(rig30_rig *rig, mat4 palette[RIG30_JOINTS], lab_diag *d)
{
    lab_error e = rig30_rig_build(rig, RIG30_TWIST, NULL, d);
    if (e == LAB_OK)
        e = rig30_palettes(rig, deg_to_rad(TWIST_DEG), palette, NULL, d);
    return e;
}

void grade30_points_lbs(grade30_fn f, grade30_picture_data *out)
{
    rig30_rig rig = {0};
    mat4 palette[RIG30_JOINTS];
    out->drawn = twist_rig(&rig, palette, NULL) == LAB_OK;
    const skin_influences *in = &rig.influences;
    for (int v = 0; out->drawn && v < VERTICES; v++)
        out->yours[v] = f.lbs_point(rig.bind.vertices[v], in->joint + v * in->per_vertex,
                                    in->weight + v * in->per_vertex, in->per_vertex, palette);
    out->count = VERTICES;
    rig30_rig_free(&rig);
}

static bool finite_and_near(const vec3 *p, int n)
{
    for (int i = 0; i < n; i++)
        if (!vec3_is_finite(p[i]) || vec3_length(p[i]) > 100)
            return false;
    return true;
}

lab_error grade30_draw_lbs(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    rig30_rig rig = {0};
    mat4 palette[RIG30_JOINTS];
    vec3 *lab = malloc(sizeof *lab * VERTICES);
    mesh_edge *edges = NULL;
    bool *middle = NULL;
    int edge_count = 0;
    lab_error e = lab ? twist_rig(&rig, palette, d) : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "grade30", "a picture");
    for (int v = 0; e == LAB_OK && v < VERTICES; v++) {
        vec4 q = skin_lbs_point(rig.bind.vertices[v], rig.influences.joint + 2 * v, rig.influences.weight + 2 * v, 2,
                                palette);
        lab[v] = vec3_make(q.x, q.y, q.z);
    }
    if (e == LAB_OK)
        e = mesh_unique_edges(rig.bind.triangles, rig.bind.triangle_count, &edges, &edge_count, d);
    if (e == LAB_OK)
        e = rig30_edge_masks(&rig, edges, edge_count, &middle, NULL, d);
    bool show = yours->drawn && yours->count == VERTICES && finite_and_near(yours->yours, VERTICES);
    camera cam = {0};
    int top = figure_label_height(3);
    if (e == LAB_OK) {
        const vec3 *sets[] = {lab, show ? yours->yours : lab};
        const int counts[] = {VERTICES, VERTICES};
        e = figure_fit_camera(&cam, vec3_make(3, -4, 2.5), vec3_make(0, 0, 1), sets, counts, 2, 0.1,
                              (camera_viewport_rect){0, top, W / 2, H - top}, d);
    }
    canvas half[2] = {{0}};
    const char *lab_label[] = {"3. the lab's blend", "at a 120 deg twist", "orange: middle ring"};
    const char *your_label[] = {"yours (lab palette)", show ? "orange: middle ring" : "not drawn:",
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

/* ---- 4. the ring radius against theta ------------------------------------------------- */

enum { RADIUS_STEPS = 120 };
static const double radius_weights[2] = {0.5, 0.25};
static double radius_theta_deg(int i) { return -360 + 720.0 * i / (RADIUS_STEPS - 1); }

void grade30_points_radius(grade30_fn f, grade30_picture_data *out)
{
    out->count = 2 * RADIUS_STEPS, out->drawn = true;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < RADIUS_STEPS; i++)
            out->yours[k * RADIUS_STEPS + i].x = f.ring_radius_ratio(radius_weights[k], deg_to_rad(radius_theta_deg(i)));
}

lab_error grade30_draw_radius(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    double theta[RADIUS_STEPS], lab[2][RADIUS_STEPS], mine[2][RADIUS_STEPS];
    for (int i = 0; i < RADIUS_STEPS; i++) {
        theta[i] = radius_theta_deg(i);
        for (int k = 0; k < 2; k++) {
            lab[k][i] = rig30_radius_ratio(radius_weights[k], deg_to_rad(theta[i]));
            mine[k][i] = yours->drawn ? yours->yours[k * RADIUS_STEPS + i].x : NAN;
        }
    }
    plot_series s[4] = {
        {theta, lab[0], RADIUS_STEPS, LABS, 0, 2, "lab, w = 1/2", 0, 0},
        {theta, lab[1], RADIUS_STEPS, LABS, 6, 2, "lab, w = 1/4", 0, 0},
        {theta, mine[0], RADIUS_STEPS, YOURS, 0, 1, "yours, 1/2", 0, 0},
        {theta, mine[1], RADIUS_STEPS, YOURS, 6, 1, "yours, 1/4", 0, 0},
    };
    plot_spec spec = {.title = yours->drawn ? "4. r'/r against theta" : "4. r'/r (yours: not drawn)",
                      .x_label = "theta (deg)", .y_label = "r'/r",
                      .x_min = -360, .x_max = 360, .x_step = 180, .y_min = 0, .y_max = 1.25, .y_step = 0.25,
                      .series = s, .series_count = 4};
    return plot_draw(out, W, H, &spec, d);
}

/* ---- 5. the weight rules -------------------------------------------------------------- */

static const struct { const char *words; double w[3]; int k; } weight_sets[] = {
    {"0.5, 0.5", {0.5, 0.5}, 2},          {"0.4, 0.4", {0.4, 0.4}, 2},
    {"-0.5, 1.5", {-0.5, 1.5}, 2},        {"NaN, 1", {NAN, 1}, 2},
    {"-0, 1", {-0.0, 1}, 2},              {"0.2, 0.3, 0.5 + 1e-11", {0.2, 0.3, 0.5 + 1e-11}, 3},
    {"(none)", {0}, 0},                   {"-1, inf", {-1, INFINITY}, 2},
};
#define WEIGHT_SETS ((int)(sizeof weight_sets / sizeof weight_sets[0]))

void grade30_points_weights(grade30_fn f, grade30_picture_data *out)
{
    out->count = WEIGHT_SETS, out->drawn = true;
    for (int i = 0; i < WEIGHT_SETS; i++) {
        double w[3];
        memcpy(w, weight_sets[i].w, sizeof w);
        out->yours[i].x = f.check_weights(w, weight_sets[i].k);
        out->yours[i].y = memcmp(w, weight_sets[i].w, sizeof w) != 0;
    }
}

static const char *rule_word(int rule)
{
    static const char *const words[] = {"valid", "negative", "not summing to 1", "not finite"};
    return rule >= 0 && rule < 4 ? words[rule] : "(no such value)";
}

lab_error grade30_draw_weights(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    lab_error e = canvas_init(out, W, H, FIGURE_BACKGROUND, d);
    if (e != LAB_OK)
        return e;
    raster_text(out, 8, 8, FIGURE_TEXT_SCALE, "5. the weight rules:", FIGURE_TEXT);
    raster_text(out, 8, 30, FIGURE_TEXT_SCALE, "weights / the rules / yours", FIGURE_TEXT);
    for (int i = 0; i < WEIGHT_SETS; i++) {
        int joint[3] = {0, 0, 0};
        double w[3];
        memcpy(w, weight_sets[i].w, sizeof w);
        int rule = EX30_WEIGHTS_NOT_SUMMING_TO_ONE;
        if (weight_sets[i].k > 0) {
            skin_influences in = {.vertex_count = 1, .per_vertex = weight_sets[i].k, .joint = joint, .weight = w};
            lab_error v = skin_validate_influences(&in, 1, NULL);
            rule = v == LAB_OK ? EX30_WEIGHTS_VALID
                   : v == LAB_ERR_WEIGHT_NOT_FINITE ? EX30_WEIGHTS_NOT_FINITE
                   : v == LAB_ERR_WEIGHT_NEGATIVE   ? EX30_WEIGHTS_NEGATIVE
                                                    : EX30_WEIGHTS_NOT_SUMMING_TO_ONE;
        }
        int y = 60 + 36 * i;
        raster_text(out, 8, y, FIGURE_TEXT_SCALE, weight_sets[i].words, FIGURE_TEXT);
        raster_text(out, 8, y + 16, FIGURE_TEXT_SCALE, rule_word(rule), LABS);
        if (yours->drawn) {
            int got = (int)yours->yours[i].x;
            char text[64];
            snprintf(text, sizeof text, "%s%s", rule_word(got), yours->yours[i].y ? " *" : "");
            raster_text(out, 240, y + 16, FIGURE_TEXT_SCALE, text,
                        got == rule && !yours->yours[i].y ? LABS : YOURS);
        }
    }
    if (!yours->drawn)
        raster_text(out, 240, 30, FIGURE_TEXT_SCALE, "(not drawn)", YOURS);
    raster_text(out, 8, H - 30, FIGURE_TEXT_SCALE, "*: your function changed the weights", YOURS);
    return LAB_OK;
}

/* ---- 6. the DQS blend on a ring ------------------------------------------------------- */

enum { RING = 24 };

/* The root, and the child turned 160 deg about z and moved by (0.5, 0, 0), given as -q^. */
static void ring_joints(dualquat q[2])
{
    q[0] = dualquat_identity();
    q[1] = dualquat_scale(dualquat_from_rigid(quat_from_axis_angle(vec3_make(0, 0, 1), deg_to_rad(160)),
                                              vec3_make(0.5, 0, 0)),
                          -1);
}

static vec3 ring_point(int i)
{
    double a = 2 * LAB_PI * i / RING;
    return vec3_make(cos(a), sin(a), 1);
}

/* The ring's points under a blend (normalised by the lab); false when it cannot be. */
static bool ring_under(dualquat blend, vec3 *out)
{
    dualquat unit;
    if (dualquat_normalize(blend, &unit, "grade30", NULL) != LAB_OK)
        return false;
    for (int i = 0; i <= RING; i++)
        out[i] = dualquat_transform_point(unit, ring_point(i % RING));
    return true;
}

void grade30_points_dqs(grade30_fn f, grade30_picture_data *out)
{
    dualquat q[2];
    ring_joints(q);
    const double w[2] = {0.6, 0.4};
    out->count = RING + 1;
    out->drawn = ring_under(f.dqs_blend(q, w, 2), out->yours);
}

lab_error grade30_draw_dqs(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    diagram g;
    lab_error e = diagram_panel(&g, out, 250, 185, 70,
                                "6. DQS on a ring: weights 0.6 and 0.4,\nthe child -q^ of Rz(160) moved (0.5, 0, 0)\ngrey: the bind pose", d);
    if (e != LAB_OK)
        return e;
    diagram_axes(&g, -2.2, 2.2, -1.5, 1.5, 1, "x", "y");
    dualquat q[2];
    ring_joints(q);
    const double w[2] = {0.6, 0.4};
    vec3 bind[RING + 1], lab[RING + 1];
    for (int i = 0; i <= RING; i++)
        bind[i] = ring_point(i % RING);
    polyline(&g, bind, RING + 1, 0, DIAGRAM_GREY);
    if (ring_under(dualquat_blend(q, w, 2, true), lab)) {
        polyline(&g, lab, RING + 1, 0, LABS);
        diagram_point(&g, lab[0].x, lab[0].y, LABS, DIAGRAM_RIGHT, "v0");
    }
    if (yours->drawn) {
        polyline(&g, yours->yours, RING + 1, 4, YOURS);
        if (finite_and_near(yours->yours, 1) && fabs(yours->yours[0].x) < 2 && fabs(yours->yours[0].y) < 1.5)
            diagram_point(&g, yours->yours[0].x, yours->yours[0].y, YOURS, DIAGRAM_LEFT, "v0");
    } else {
        not_drawn(out, "yours: not drawn (see the verdict)");
    }
    return LAB_OK;
}

/* ---- 7. the normal matrix on a sheared plane ------------------------------------------ */

enum { SAMPLES = 9 };

/* The plane y = 0, sheared (y += 0.8 x) and scaled unevenly. */
static mat4 sheared(void)
{
    mat4 m = mat4_scale(1.5, 0.7, 1);
    m.m[1][0] = 0.8 * 0.7;
    return m;
}

void grade30_points_normal(grade30_fn f, grade30_picture_data *out)
{
    mat4 n = f.normal_matrix(sheared());
    out->count = 1, out->drawn = true;
    out->yours[0] = vec3_normalize(mat4_transform_direction(n, vec3_make(0, 1, 0)));
}

lab_error grade30_draw_normal(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    diagram g;
    lab_error e = diagram_panel(&g, out, 250, 186, 70,
                                "7. normals of the plane y = 0 under\nshear y += 0.8 x, then S(1.5, 0.7, 1)", d);
    if (e != LAB_OK)
        return e;
    diagram_axes(&g, -2.4, 2.4, -1.4, 1.8, 1, "x", "y");
    mat4 m = sheared();
    /* the true normal: the cross product of the surface's turned tangents (z, then x) */
    vec3 truth = vec3_normalize(vec3_cross(mat4_transform_direction(m, vec3_make(0, 0, 1)),
                                           mat4_transform_direction(m, vec3_make(1, 0, 0))));
    vec3 a = mat4_transform_point(m, vec3_make(-1.3, 0, 0)), b = mat4_transform_point(m, vec3_make(1.3, 0, 0));
    diagram_segment(&g, a.x, a.y, b.x, b.y, 0, FIGURE_EDGE);
    for (int i = 0; i < SAMPLES; i++) {
        vec3 p = mat4_transform_point(m, vec3_make(-1.2 + 2.4 * i / (SAMPLES - 1), 0, 0));
        diagram_segment(&g, p.x, p.y, p.x + 0.6 * truth.x, p.y + 0.6 * truth.y, 0, LABS);
        if (yours->drawn)
            diagram_segment(&g, p.x, p.y, p.x + 0.45 * yours->yours[0].x, p.y + 0.45 * yours->yours[0].y, 3, YOURS);
    }
    if (!yours->drawn)
        not_drawn(out, "yours: not drawn (see the verdict)");
    return LAB_OK;
}
