/* normals30_figures.c - lab30-normals's shaded figure (see normals30.h): the normals
 * as light. Each panel fills the skinned mesh through a z-buffer and shades it by Lambert's
 * law from one directional light, base * max(0, n . l), the corners' shades interpolated
 * across each triangle (Gouraud, figure_draw_surface): with the rigid, the blended and the
 * per-bone normals, and with the true normal of the skinned surface; a wrong normal is
 * wrong light. The last panel colours each vertex by the rigid normal's angle to the true
 * one. The computation is lab30-normals.c's; this file only draws it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "draw/camera.h"
#include "draw/figure.h"
#include "draw/raster.h"
#include "math/linalg.h"
#include "program/output.h"
#include "skin/normals.h"

#include "normals30.h"
#include "rig30.h"

#define SHADED_POSES 2                  /* the scaled child and the bend, where methods differ */
#define SHADED_VIEWS (NORMALS_METHOD_COUNT + 2) /* each method, the truth, the error */
#define BAR_H 32
#define ERROR_SCALE_DEG 20.0
static const rgb base = {205, 205, 215};
static const char *const pose_names[SHADED_POSES] = {"child-scale", "bend135"};

/* The light: from in front of the camera, above and to its left, the same for every panel
 * of a pose (the rows of a look_at matrix are the camera's right, up and backward axes in
 * world space). */
static vec3 light_of(const camera *cam)
{
    const double (*m)[4] = cam->view.m;
    vec3 right = {m[0][0], m[0][1], m[0][2]}, up = {m[1][0], m[1][1], m[1][2]}, back = {m[2][0], m[2][1], m[2][2]};
    return vec3_normalize(vec3_add(vec3_add(back, vec3_scale(up, 0.6)), vec3_scale(right, -0.4)));
}

static const normals30_pose *pose_named(const normals30 *r, const char *name)
{
    for (int i = 0; i < NORMALS30_POSES; i++)
        if (!strcmp(r->pose[i].spec.name, name))
            return &r->pose[i];
    return NULL;
}

static lab_error shaded_panel(const normals30 *r, const normals30_pose *p, int view, canvas *c, lab_diag *d)
{
    const camera *cam = &p->ortho;
    lab_error e = canvas_init(c, cam->viewport.x + cam->viewport.width, cam->viewport.y + cam->viewport.height + BAR_H,
                              FIGURE_BACKGROUND, d);
    if (e != LAB_OK)
        return e;
    const rig30_rig *rig = &r->rigs[p->spec.rig];
    rgb colors[NORMALS30_VERTS];
    vec3 normals[NORMALS30_VERTS];
    const vec3 *source = view < NORMALS_METHOD_COUNT ? p->normals[view] : p->truth;
    for (int v = 0; v < NORMALS30_VERTS; v++) {
        normals[v] = vec3_normalize(source[v]);
        colors[v] = figure_error_color(p->error[NORMALS_RIGID][v], ERROR_SCALE_DEG);
    }
    figure_surface surface = {.positions = p->world_positions, .normals = normals,
                              .colors = view == SHADED_VIEWS - 1 ? colors : NULL, .triangles = rig->bind.triangles,
                              .triangle_count = rig->bind.triangle_count, .light = light_of(cam), .base = base};
    figure_draw_surface(c, cam, &surface);
    char line[3][64];
    snprintf(line[0], 64, "%s", p->spec.title);
    if (view < NORMALS_METHOD_COUNT) {
        snprintf(line[1], 64, "%s normal", normals_method_name((normals_method)view));
        snprintf(line[2], 64, "off %.1f, max %.1f deg", p->summary[view].mean_deg, p->summary[view].max_deg);
    } else if (view == NORMALS_METHOD_COUNT) {
        snprintf(line[1], 64, "true normal");
        snprintf(line[2], 64, "the surface's own");
    } else {
        snprintf(line[1], 64, "rigid normal's error");
        snprintf(line[2], 64, "angle to the true one");
    }
    for (int k = 0; k < 3; k++)
        figure_draw_label(c, k, line[k]);
    if (view == SHADED_VIEWS - 1)
        figure_error_bar(c, 24, c->height - BAR_H / 2 - 4, c->width - 120, 8, ERROR_SCALE_DEG);
    return LAB_OK;
}

lab_error normals30_shaded_figure(void *state, lab_diag *d)
{
    normals30 *r = state;
    enum { PANELS = SHADED_POSES * SHADED_VIEWS };
    canvas panels[PANELS] = {{0}}, fig = {0};
    output_name names[PANELS];
    lab_error e = LAB_OK;
    for (int k = 0; e == LAB_OK && k < PANELS; k++) {
        const normals30_pose *p = pose_named(r, pose_names[k / SHADED_VIEWS]);
        int view = k % SHADED_VIEWS;
        e = p ? shaded_panel(r, p, view, &panels[k], d)
              : diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "shaded figure", "no pose %s", pose_names[k / SHADED_VIEWS]);
        snprintf(names[k], sizeof names[k], "normals30-shaded-%s-%s.png", pose_names[k / SHADED_VIEWS],
                 view < NORMALS_METHOD_COUNT ? normals_method_name((normals_method)view)
                                             : view == NORMALS_METHOD_COUNT ? "true" : "error");
    }
    if (e == LAB_OK)
        e = figure_compose_grid(&fig, panels, PANELS, SHADED_VIEWS, 12,
                                "The normals as light: one directional light, Lambert's max(0, n . l) at each vertex, "
                                "interpolated across\neach triangle. Columns: the rigid, blended and per-bone normals, "
                                "the true normal, the rigid normal's error (0 green .. 20+ deg red)", d);
    return output_batch_add_figure(&r->out, e, "normals30-shaded.png", &fig, panels, names, PANELS, d);
}
