/* fixes30_figures.c - lab30-fixes's figures: the grid of methods by poses (fixes30.png) and
 * the radius plots over the twist (fixes30-radius.png), drawn from the rows the program
 * measured (see record30_fixes.h). */
#include "record30_fixes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "draw/figure.h"
#include "draw/plot.h"
#include "rig30_check.h"

#define PANEL_W 260
#define PANEL_H 320
#define LABEL_H 66

/* Methods by poses: the twist at 90, 180, 210 and the bend at 90, 135, one camera per rig
 * over all its panels, each labelled with its middle and narrowest ring or its inner
 * distance and bulge. */
static lab_error draw_grid(fixes30 *r, lab_diag *d)
{
    enum { COLUMNS = 5 };
    static const struct { rig30_kind rig; double deg; } cols[COLUMNS] = {
        {RIG30_TWIST, 90}, {RIG30_TWIST, 180}, {RIG30_TWIST, 210}, {RIG30_BEND, 90}, {RIG30_BEND, 135}};
    camera cams[2];
    lab_error e = LAB_OK;
    for (int k = 0; e == LAB_OK && k < 2; k++) { /* one camera per rig over all its panels */
        const vec3 *sets[COLUMNS * FIXES30_METHODS];
        int count[COLUMNS * FIXES30_METHODS], n = 0;
        for (int c = 0; c < COLUMNS; c++)
            for (int m = 0; m < FIXES30_METHODS; m++) {
                const fixes30_row *w = fixes30_row_at(r, cols[c].rig, cols[c].deg, (fixes30_method)m);
                if ((int)cols[c].rig == k && w->applies)
                    sets[n] = w->positions, count[n++] = r->rigs[k].bind.vertex_count;
            }
        const vec3 eye = k == 0 ? vec3_make(3.0, -5.0, 4.4) : vec3_make(8.0, -0.3, 1.0);
        const vec3 target = k == 0 ? vec3_make(0, 0, 1) : vec3_make(0, -0.3, 1.0);
        e = figure_fit_camera(&cams[k], eye, target, sets, count, n, 0.04,
                              (camera_viewport_rect){0, LABEL_H, PANEL_W, PANEL_H - LABEL_H}, d);
    }
    canvas panels[COLUMNS * FIXES30_METHODS] = {{0}};
    bool *middle[2] = {NULL, NULL};
    for (int k = 0; e == LAB_OK && k < 2; k++)
        e = rig30_edge_masks(&r->rigs[k], r->edges, r->edge_count, &middle[k], NULL, d);
    for (int m = 0; e == LAB_OK && m < FIXES30_METHODS; m++)
        for (int c = 0; e == LAB_OK && c < COLUMNS; c++) {
            const fixes30_row *w = fixes30_row_at(r, cols[c].rig, cols[c].deg, (fixes30_method)m);
            canvas *panel = &panels[m * COLUMNS + c];
            e = canvas_init(panel, PANEL_W, PANEL_H, FIGURE_BACKGROUND, d);
            char line1[64], line2[64], line3[64];
            snprintf(line1, sizeof line1, "%s", fixes30_method_name((fixes30_method)m));
            snprintf(line2, sizeof line2, "%s %g deg", rig30_kind_name(w->rig), w->angle_deg);
            if (!w->applies)
                snprintf(line3, sizeof line3, "n/a: no twist to share");
            else if (w->rig == RIG30_TWIST)
                snprintf(line3, sizeof line3, "r mid %.3f min %.3f", w->radius_mean, w->narrowest);
            else
                snprintf(line3, sizeof line3, "inner %.3f bulge %.3f", w->inner, w->bulge);
            const char *label[3] = {line1, line2, line3};
            figure_panel fp = {.positions = w->applies ? w->positions : NULL, .edges = r->edges,
                               .edge_count = w->applies ? r->edge_count : 0, .highlight = middle[w->rig],
                               .label = label, .label_lines = 3};
            if (e == LAB_OK)
                figure_draw_panel(panel, &cams[w->rig], &fp);
        }
    free(middle[0]), free(middle[1]);
    canvas fig = {0};
    if (e == LAB_OK)
        e = figure_compose_grid(&fig, panels, COLUMNS * FIXES30_METHODS, COLUMNS, 8,
                                "Fixes for the candy wrapper: methods by poses (twist 90, 180, 210; bend 90, 135)", d);
    for (int i = 0; i < COLUMNS * FIXES30_METHODS; i++)
        canvas_free(&panels[i]);
    if (e == LAB_OK)
        e = output_batch_add_image(&r->out, "fixes30.png", &fig, d);
    canvas_free(&fig);
    return e;
}

/* Two plots over the twist for every method: the narrowest ring's r'/r (the collapse),
 * and the largest |r - 1| over every vertex (the collapse and the ballooning alike). */
static lab_error draw_radius_plot(fixes30 *r, lab_diag *d)
{
    static const rgb colors[FIXES30_METHODS] = {{40, 40, 40},   {0, 114, 178},   {0, 158, 115}, {213, 94, 0},
                                                {86, 180, 233}, {204, 121, 167}, {230, 159, 0}};
    /* dashed where a curve lies on one drawn before it: the pre-skin corrective's narrowest
     * ring on LBS's, DQS's and CoR's on 1 and 0 */
    static const int dashes[FIXES30_METHODS] = {0, 0, 0, 6, 0, 8, 4};
    double x[FIXES30_METHODS][FIXES30_TWIST_POSES], y[2][FIXES30_METHODS][FIXES30_TWIST_POSES];
    plot_series s[2][FIXES30_METHODS];
    for (int k = 0; k < 2; k++)
        for (int m = 0; m < FIXES30_METHODS; m++) {
            for (int p = 0; p < FIXES30_TWIST_POSES; p++) {
                const fixes30_row *w = fixes30_row_at(r, RIG30_TWIST, fixes30_twist_deg[p], (fixes30_method)m);
                x[m][p] = fixes30_twist_deg[p];
                y[k][m][p] = k == 0 ? w->narrowest : w->radius_error;
            }
            s[k][m] = (plot_series){x[m], y[k][m], FIXES30_TWIST_POSES, colors[m], dashes[m], 2,
                                     fixes30_method_name((fixes30_method)m)};
        }
    const plot_spec spec[2] = {
        {"The narrowest ring's r'/r", "twist (deg)", "r'/r", 0, 210, 30, 0, 1.25, 0.25, s[0], FIXES30_METHODS, false},
        {"The largest |r - 1| over every vertex", "twist (deg)", "|r - 1|", 0, 210, 30, 0, 1.0, 0.25, s[1],
         FIXES30_METHODS, false}};
    canvas plots[2] = {{0}}, fig = {0};
    lab_error e = LAB_OK;
    for (int k = 0; e == LAB_OK && k < 2; k++)
        e = plot_draw(&plots[k], 1040, 520, &spec[k], d);
    if (e == LAB_OK)
        e = figure_compose_grid(&fig, plots, 2, 1, 8, "The twist, 0 to 210 degrees, every method", d);
    if (e == LAB_OK)
        e = output_batch_add_image(&r->out, "fixes30-radius.png", &fig, d);
    canvas_free(&plots[0]), canvas_free(&plots[1]), canvas_free(&fig);
    return e;
}

lab_error record30_fixes_figures(void *state, lab_diag *d)
{
    fixes30 *r = state;
    lab_error e = draw_grid(r, d);
    return e == LAB_OK ? draw_radius_plot(r, d) : e;
}

