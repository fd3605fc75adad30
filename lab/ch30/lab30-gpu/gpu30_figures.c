/* gpu30_figures.c - lab30-gpu's figure (see gpu30.h): the GPU-skinned cylinder
 * (twist 180) and bend (90) by LBS, through each path, beside the CPU's double result.
 * What it shows is measured in lab30-gpu.c's GPU child (with gpu30_measured.c); this file only draws it. */
#include <stdio.h>
#include <stdlib.h>

#include "base/diag.h"
#include "draw/camera.h"
#include "draw/figure.h"
#include "draw/raster.h"
#include "gpu/gpu_skin.h"
#include "math/linalg.h"
#include "program/output.h"

#include "gpu30.h"
#include "rig30.h"

#define PANEL_W 300
#define PANEL_H 330
#define LABEL_H figure_label_height(3) /* three label lines */

lab_error gpu30_figure(const gpu30 *r, output_batch *out, lab_diag *d)
{
    enum { COLUMNS = 1 + GPU_PATH_COUNT };
    canvas panels[2 * COLUMNS] = {{0}};
    lab_error e = LAB_OK;
    for (int row = 0; e == LAB_OK && row < 2; row++) {
        const rig30_rig *rig = &r->rigs[row == 0 ? RIG30_TWIST : RIG30_BEND];
        const vec3 *sets[COLUMNS];
        int count[COLUMNS];
        for (int k = 0; k < COLUMNS; k++)
            sets[k] = r->measured.figure[row][k], count[k] = rig->bind.vertex_count;
        const vec3 eye = row == 0 ? vec3_make(3.0, -5.0, 4.4) : vec3_make(8.0, -0.3, 1.0);
        const vec3 target = row == 0 ? vec3_make(0, 0, 1) : vec3_make(0, -0.3, 1.0);
        camera cam;
        e = figure_fit_camera(&cam, eye, target, sets, count, COLUMNS, 0.04,
                              (camera_viewport_rect){0, LABEL_H, PANEL_W, PANEL_H - LABEL_H}, d);
        bool *middle = NULL;
        if (e == LAB_OK)
            e = rig30_edge_masks(rig, r->edges, r->edge_count, &middle, NULL, d);
        for (int k = 0; e == LAB_OK && k < COLUMNS; k++) {
            canvas *c = &panels[row * COLUMNS + k];
            e = canvas_init(c, PANEL_W, PANEL_H, FIGURE_BACKGROUND, d);
            char line1[64], line2[64], line3[64] = "the reference";
            snprintf(line1, sizeof line1, "%s %s", k == 0 ? "CPU double" : "GPU", k == 0 ? "" : gpu_path_name((gpu_path)(k - 1)));
            snprintf(line2, sizeof line2, "LBS %s %s deg", row == 0 ? "twist" : "bend", row == 0 ? "180" : "90");
            for (int c2 = 0; k > 0 && c2 < GPU30_CASES; c2++) /* the measured difference of this pose and path */
                if ((int)r->measured.cases[c2].rig == row && r->measured.cases[c2].angle_deg == (row == 0 ? 180 : 90))
                    snprintf(line3, sizeof line3, "vs CPU double %.2g",
                             r->measured.cases[c2].error[k - 1][SKIN_LBS][GPU30_VS_DOUBLE]);
            const char *label[3] = {line1, line2, line3};
            figure_panel panel = {.positions = r->measured.figure[row][k], .edges = r->edges, .edge_count = r->edge_count,
                                  .highlight = middle, .label = label, .label_lines = 3,
                                  /* the elbow (row 1) in profile: its back edges hidden */
                                  .triangles = rig->bind.triangles, .triangle_count = rig->bind.triangle_count,
                                  .hidden_lines = row == 1};
            if (e == LAB_OK)
                figure_draw_panel(c, &cam, &panel);
        }
        free(middle);
    }
    canvas fig = {0};
    char title[400];
    snprintf(title, sizeof title, "GPU skinning beside the CPU: the largest distance of a GPU position from the CPU's.\n"
             "Renderer: %.40s%s", r->measured.info.renderer,
             r->measured.info.software ? " (software: this CPU runs the shaders)" : "");
    if (e == LAB_OK)
        e = figure_compose_grid(&fig, panels, 2 * COLUMNS, COLUMNS, 10, title, d);
    for (int i = 0; i < 2 * COLUMNS; i++)
        canvas_free(&panels[i]);
    if (e == LAB_OK)
        e = output_batch_add_image(out, "gpu30.png", &fig, d);
    canvas_free(&fig);
    return e;
}
