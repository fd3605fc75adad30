/* grade30_figure_plots.c - the pictures of exercises 3, 4 and 5 (declared in grade30_table.h):
 * a cylinder, a plot and a table of verdicts; the student's points made
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

#include "grade30_figure.h"
#include "grade30_table.h"
#include "rig30.h"
#include "rig30_check.h"

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

void grade30_points_lbs(grade_fn g, const grade30_case *failing, grade30_picture_data *out)
{
    grade30_fn f = grade30_fn_of(g);
    (void)failing; /* the named pose shows this exercise's mistakes */
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

lab_error grade30_draw_lbs(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    return grade30_draw_cylinder("3. the lab's blend", "yours (lab palette)", yours, out, d);
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

/* ---- 4. the ring radius against theta ------------------------------------------------- */

enum { RADIUS_STEPS = 120 };
static const double radius_weights[2] = {0.5, 0.25};
static double radius_theta_deg(int i) { return -360 + 720.0 * i / (RADIUS_STEPS - 1); }

void grade30_points_radius(grade_fn g, const grade30_case *failing, grade30_picture_data *out)
{
    grade30_fn f = grade30_fn_of(g);
    (void)failing; /* the named pose shows this exercise's mistakes */
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

void grade30_points_weights(grade_fn g, const grade30_case *failing, grade30_picture_data *out)
{
    grade30_fn f = grade30_fn_of(g);
    (void)failing; /* the named pose shows this exercise's mistakes */
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

