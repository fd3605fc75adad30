/* fixes30_figures.c - lab30-fixes's figures: the grid of methods by poses (fixes30.png),
 * the radius plots over the twist (fixes30-radius.png) and every method over the twist as
 * an animation (fixes30-twist.gif), drawn from the rows the program measured (see
 * fixes30.h). */
#include "fixes30.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "draw/figure.h"
#include "draw/plot.h"
#include "rig30_check.h"
#include "base/bytes.h"
#include "base/diag.h"
#include "draw/camera.h"
#include "draw/raster.h"
#include "math/linalg.h"
#include "mesh/mesh.h"
#include "program/output.h"
#include "rig30.h"

#define PANEL_W 260
#define PANEL_H 356
#define LABEL_H figure_label_height(4) /* four label lines */

enum { COLUMNS = 5 };
static const struct { rig30_kind rig; double deg; } cols[COLUMNS] = {
    {RIG30_TWIST, 90}, {RIG30_TWIST, 180}, {RIG30_TWIST, 210}, {RIG30_BEND, 90}, {RIG30_BEND, 135}};

/* One camera per rig over all its panels: the grid's and, for the twist, every frame of the
 * animation, so a frame at one of the grid's poses is that panel, pixel for pixel. */
static lab_error choose_cameras(const fixes30 *r, camera cams[2], lab_diag *d)
{
    lab_error e = LAB_OK;
    for (int k = 0; e == LAB_OK && k < 2; k++) {
        const vec3 *sets[COLUMNS * FIXES30_METHODS + FIXES30_ANIM_FRAMES * FIXES30_METHODS];
        int count[COLUMNS * FIXES30_METHODS + FIXES30_ANIM_FRAMES * FIXES30_METHODS], n = 0;
        for (int c = 0; c < COLUMNS; c++)
            for (int m = 0; m < FIXES30_METHODS; m++) {
                const fixes30_row *w = fixes30_row_at(r, cols[c].rig, cols[c].deg, (fixes30_method)m);
                if ((int)cols[c].rig == k && w->applies)
                    sets[n] = w->positions, count[n++] = r->rigs[k].bind.vertex_count;
            }
        for (int i = 0; k == RIG30_TWIST && i < r->anim_count; i++)
            sets[n] = r->anim[i].positions, count[n++] = r->rigs[k].bind.vertex_count;
        const vec3 eye = k == 0 ? vec3_make(3.0, -5.0, 4.4) : vec3_make(8.0, -0.3, 1.0);
        const vec3 target = k == 0 ? vec3_make(0, 0, 1) : vec3_make(0, -0.3, 1.0);
        e = figure_fit_camera(&cams[k], eye, target, sets, count, n, 0.04,
                              (camera_viewport_rect){0, LABEL_H, PANEL_W, PANEL_H - LABEL_H}, d);
    }
    return e;
}

/* One method at one pose, labelled with its middle and narrowest ring or its inner
 * distance and bulge (three significant digits). */
static lab_error draw_row_panel(const fixes30 *r, const fixes30_row *w, const camera *cam, const bool *middle,
                                canvas *panel, lab_diag *d)
{
    lab_error e = canvas_init(panel, PANEL_W, PANEL_H, FIGURE_BACKGROUND, d);
    if (e != LAB_OK)
        return e;
    char line[4][64];
    snprintf(line[0], 64, "%s", fixes30_method_name(w->method));
    snprintf(line[1], 64, "%s %g deg", rig30_kind_name(w->rig), w->angle_deg);
    if (!w->applies)
        snprintf(line[2], 64, "n/a: no twist"), snprintf(line[3], 64, "to share");
    else if (w->rig == RIG30_TWIST) { /* the collapse at 180 reads as 0 (base/bytes.h) */
        char middle[32], narrowest[32];
        snprintf(line[2], 64, "middle r %s", format_or_zero(middle, sizeof middle, w->radius_mean, "%.3g",
                                                           FORMAT_ZERO_BARE));
        snprintf(line[3], 64, "narrowest r %s", format_or_zero(narrowest, sizeof narrowest, w->narrowest, "%.3g",
                                                               FORMAT_ZERO_BARE));
    } else {
        snprintf(line[2], 64, "inner %.3g", w->inner), snprintf(line[3], 64, "bulge %.3g", w->bulge);
    }
    const char *label[4] = {line[0], line[1], line[2], line[3]};
    const mesh *m = &r->rigs[w->rig].bind; /* the elbow in profile: its back edges hidden */
    figure_panel fp = {.positions = w->applies ? w->positions : NULL, .edges = r->edges,
                       .edge_count = w->applies ? r->edge_count : 0, .highlight = middle, .label = label,
                       .label_lines = 4, .triangles = m->triangles, .triangle_count = w->applies ? m->triangle_count : 0,
                       .hidden_lines = w->rig == RIG30_BEND};
    figure_draw_panel(panel, cam, &fp);
    return LAB_OK;
}

/* Methods by poses: the twist at 90, 180, 210 and the bend at 90, 135. */
static lab_error draw_grid(const fixes30 *r, output_batch *out, const camera cams[2], bool *const middle[2], lab_diag *d)
{
    canvas panels[COLUMNS * FIXES30_METHODS] = {{0}};
    lab_error e = LAB_OK;
    for (int m = 0; e == LAB_OK && m < FIXES30_METHODS; m++)
        for (int c = 0; e == LAB_OK && c < COLUMNS; c++) {
            const fixes30_row *w = fixes30_row_at(r, cols[c].rig, cols[c].deg, (fixes30_method)m);
            e = draw_row_panel(r, w, &cams[w->rig], middle[w->rig], &panels[m * COLUMNS + c], d);
        }
    canvas fig = {0};
    if (e == LAB_OK)
        e = figure_compose_grid(&fig, panels, COLUMNS * FIXES30_METHODS, COLUMNS, 8,
                                "Fixes for the candy wrapper: methods by poses (twist 90, 180, 210; bend 90, 135).\n"
                                "Orange: the middle ring. inner: the elbow's inner side, closest to the joint (1 at bind);\n"
                                "bulge: how far the outer side swells past radius 1", d);
    for (int i = 0; i < COLUMNS * FIXES30_METHODS; i++)
        canvas_free(&panels[i]);
    if (e == LAB_OK)
        e = output_batch_add_image(out, "fixes30.png", &fig, d);
    canvas_free(&fig);
    return e;
}

/* Frame k of fixes30-twist.gif: the twist at 10k degrees, every method a panel of its own
 * as in the still figure, four to a row in the grid's row order, under a title that names
 * the angle (two lines in every frame, so a frame's panels sit at fixed places). */
#define ANIM_COLUMNS 4
typedef struct {
    const fixes30 *r;
    const camera *cam;
    const bool *middle;
} animation;

static lab_error animation_frame(const void *context, int k, canvas *frame, lab_diag *d)
{
    const animation *a = context;
    canvas panels[FIXES30_METHODS] = {{0}};
    lab_error e = LAB_OK;
    for (int m = 0; e == LAB_OK && m < FIXES30_METHODS; m++)
        e = draw_row_panel(a->r, &a->r->anim[k * FIXES30_METHODS + m], a->cam, a->middle, &panels[m], d);
    char title[160];
    snprintf(title, sizeof title, "Every fix for the candy wrapper, twist %g deg (0 to 210):\n"
                                  "orange: the middle ring; the rows of fixes30.png, in its order",
             a->r->anim[k * FIXES30_METHODS].angle_deg);
    if (e == LAB_OK)
        e = figure_compose_grid(frame, panels, FIXES30_METHODS, ANIM_COLUMNS, 8, title, d);
    for (int m = 0; m < FIXES30_METHODS; m++)
        canvas_free(&panels[m]);
    return e;
}

/* Two plots over the twist for every method: the narrowest ring's r'/r (the collapse),
 * and the largest deviation from radius 1 over every vertex (the collapse and the
 * ballooning alike), each sampled every 2.5 degrees, with a marker at the table's poses
 * (every 30 degrees). Curves that lie on one another (the pre-skin corrective on LBS's
 * narrowest ring; post-skin, DQS and CoR on 1 and 0) stay visible by their dashes and
 * their markers' sizes, and the legend says which coincide where. */
static lab_error draw_radius_plot(const fixes30 *r, output_batch *out, lab_diag *d)
{
    static const rgb colors[FIXES30_METHODS] = {{40, 40, 40},   {0, 114, 178},   {0, 158, 115}, {213, 94, 0},
                                                {86, 180, 233}, {204, 121, 167}, {230, 159, 0}};
    static const int dashes[FIXES30_METHODS] = {0, 0, 0, 6, 0, 8, 4};
    static const int markers[FIXES30_METHODS] = {0, 0, 0, 7, 9, 13, 5};
    double x[FIXES30_CURVE_SAMPLES];
    for (int i = 0; i < FIXES30_CURVE_SAMPLES; i++)
        x[i] = FIXES30_CURVE_STEP * i;
    const int every = (int)lround(30.0 / FIXES30_CURVE_STEP);
    plot_series s[2][FIXES30_METHODS];
    for (int k = 0; k < 2; k++)
        for (int m = 0; m < FIXES30_METHODS; m++)
            s[k][m] = (plot_series){x, r->curve[k][m], FIXES30_CURVE_SAMPLES, colors[m], dashes[m], 2,
                                     fixes30_method_name((fixes30_method)m), markers[m], every};
    const plot_spec spec[2] = {
        {"The narrowest ring's r'/r (pre-skin lies on LBS; post-skin, DQS, CoR on 1)", "twist (deg)", "r'/r", 0, 210,
         30, 0, 1.25, 0.25, s[0], FIXES30_METHODS, false, false},
        {"The largest deviation from radius 1, max of abs(r - 1) over every vertex (DQS, CoR on 0)", "twist (deg)",
         "max abs(r - 1)", 0, 210, 30, 0, 1.0, 0.25, s[1], FIXES30_METHODS, false, false}};
    /* where the post-skin curve jumps: R, the blended quaternion that turns its delta, takes
     * the child's -q past 180 degrees (the hemisphere rule, lab30-dqs), so the delta turns
     * the other way from one sample to the next */
    const plot_mark flip = {180, "R flips", 0.62};
    canvas plots[2] = {{0}}, fig = {0};
    lab_error e = LAB_OK;
    for (int k = 0; e == LAB_OK && k < 2; k++)
        e = plot_draw_marked(&plots[k], 1180, 520, &spec[k], &flip, k, d);
    if (e == LAB_OK)
        e = figure_compose_grid(&fig, plots, 2, 1, 8,
                                "The twist, 0 to 210 degrees, every method: sampled every 2.5 degrees, "
                                "markers every 30 (the report's poses).\n"
                                "Below: past 180 the post-skin curve jumps. R, the blended quaternion that turns "
                                "its delta, flips\nto the short way round (the hemisphere rule, lab30-dqs): the "
                                "delta turns the other way at once.", d);
    if (e == LAB_OK)
        e = output_batch_add_image(out, "fixes30-radius.png", &fig, d);
    canvas_free(&plots[0]), canvas_free(&plots[1]), canvas_free(&fig);
    return e;
}

lab_error fixes30_choose_cameras(const fixes30 *r, camera cam[2], bool *middle[2], lab_diag *d)
{
    lab_error e = choose_cameras(r, cam, d);
    for (int k = 0; e == LAB_OK && k < 2; k++)
        e = rig30_edge_masks(&r->rigs[k], r->edges, r->edge_count, &middle[k], NULL, d);
    return e;
}

lab_error fixes30_figures(const fixes30 *r, output_batch *out, lab_diag *d)
{
    lab_error e = draw_grid(r, out, r->cam, r->middle, d);
    return e == LAB_OK ? draw_radius_plot(r, out, d) : e;
}

lab_error fixes30_animation(const fixes30 *r, output_batch *out, lab_diag *d)
{
    animation twist = {r, &r->cam[RIG30_TWIST], r->middle[RIG30_TWIST]};
    return output_batch_add_animation(out, "fixes30-twist.gif", FIXES30_ANIM_FRAMES, FIXES30_ANIM_DELAY_CS,
                                      animation_frame, &twist, d);
}

