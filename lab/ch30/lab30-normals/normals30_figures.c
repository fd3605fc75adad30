/* normals30_figures.c - lab30-normals's figures (see normals30.h): normals30.png, each
 * method's normals drawn on the wireframe and coloured by their error; and the shaded
 * figure, the normals as light. Each panel fills the skinned mesh through a z-buffer and shades it by Lambert's
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

#define VIEWS (NORMALS_METHOD_COUNT + 1)  /* normals30.png: one debug view per method, one perspective */
#define PANEL_W 320
#define PANEL_H 420
#define LABEL_H figure_label_height(4)    /* four label lines */
#define NORMAL_LENGTH 0.3
#define SHADED_POSES 2                  /* the scaled child and the bend, where methods differ */
#define SHADED_VIEWS (NORMALS_METHOD_COUNT + 2) /* each method, the truth, the error */
#define BAR_H 32                        /* the colour bar under the mesh */
#define ERROR_SCALE_DEG 20.0
static const rgb base = {205, 205, 215};
static const char *const pose_names[SHADED_POSES] = {"child-scale", "bend135"};

/* ---- normals30.png: each method's normals on the mesh ------------------------------------- */

/* Ortho: an oblique look fitted to the world positions and the normals' tips; perspective:
 * the same direction from a distance that frames the model in a 45 degree field of view. */
static void choose_camera(normals30_pose *p)
{
    vec3 pts[2 * NORMALS30_VERTS], centre = {0, 0, 0};
    for (int v = 0; v < NORMALS30_VERTS; v++) {
        pts[v] = p->world_positions[v];
        pts[NORMALS30_VERTS + v] = vec3_add(p->world_positions[v], vec3_scale(p->truth[v], NORMAL_LENGTH));
        centre = vec3_add(centre, vec3_scale(p->world_positions[v], 1.0 / NORMALS30_VERTS));
    }
    double radius = 0.0;
    for (int v = 0; v < 2 * NORMALS30_VERTS; v++)
        radius = fmax(radius, vec3_length(vec3_sub(pts[v], centre)));
    vec3 dir = vec3_normalize(p->spec.rig == RIG30_BEND ? vec3_make(8, -3, 3) : vec3_make(3, -5, 4.4));
    vec3 up = {0, 0, 1};
    camera_viewport_rect rect = {0, LABEL_H, PANEL_W, PANEL_H - LABEL_H - BAR_H};
    p->ortho.view = camera_look_at(vec3_add(centre, vec3_scale(dir, 10.0)), centre, up);
    p->ortho.viewport = rect;
    p->ortho.projection = camera_fit_orthographic(p->ortho.view, pts, 2 * NORMALS30_VERTS, 0.04, rect);
    const double fovy = acos(-1.0) / 4.0;
    double distance = 1.1 * radius / sin(0.5 * fovy);
    p->perspective.view = camera_look_at(vec3_add(centre, vec3_scale(dir, distance)), centre, up);
    p->perspective.viewport = rect;
    p->perspective.projection =
        camera_perspective(fovy, (double)rect.width / rect.height, 0.1 * distance, 4.0 * distance);
}

static void draw_label(canvas *c, const char *const line[4])
{
    for (int k = 0; k < 4; k++)
        figure_draw_label(c, k, line[k]);
}

static void draw_wireframe(canvas *c, const camera *cam, const normals30 *r, const vec3 *world)
{
    figure_panel panel = {.positions = world, .edges = r->edges, .edge_count = r->edge_count};
    figure_draw_panel(c, cam, &panel);
}

/* The debug view: wireframe, and each vertex's normal as a short segment coloured by its
 * angle to the true normal. */
static void draw_method_panel(canvas *c, const normals30 *r, const normals30_pose *p, int m)
{
    vec3 tips[NORMALS30_VERTS];
    rgb colors[NORMALS30_VERTS];
    for (int v = 0; v < NORMALS30_VERTS; v++) {
        tips[v] = vec3_add(p->world_positions[v], vec3_scale(p->normals[m][v], NORMAL_LENGTH));
        colors[v] = figure_error_color(p->error[m][v], ERROR_SCALE_DEG);
    }
    draw_wireframe(c, &p->ortho, r, p->world_positions);
    figure_draw_lines(c, &p->ortho, p->world_positions, tips, colors, NORMALS30_VERTS);
    char stats[64], note[64];
    snprintf(stats, sizeof stats, "mean %.2f max %.2f deg", p->summary[m].mean_deg, p->summary[m].max_deg);
    if (p->folded_count) /* where "max 180" comes from */
        snprintf(note, sizeof note, "180 at %d folded vertices", p->folded_count);
    else if (p->steady_count) /* the key result: the rigid normal is wrong under scale even where nothing blends */
        snprintf(note, sizeof note, "steady: max %.2f deg", p->steady_max[m]);
    else /* a maximum over no vertex */
        snprintf(note, sizeof note, "steady: none (all blend)");
    draw_label(c, (const char *const[4]){p->spec.title, normals_method_name((normals_method)m), stats, note});
    figure_error_bar(c, 24, PANEL_H - BAR_H / 2 - 4, PANEL_W - 120, 8, ERROR_SCALE_DEG);
}

/* The whole chain in perspective, with the world axes (x red, y green, z blue). */
static void draw_perspective_panel(canvas *c, const normals30 *r, const normals30_pose *p)
{
    draw_wireframe(c, &p->perspective, r, p->world_positions);
    const vec3 origin[3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    const vec3 axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    const rgb colors[3] = {{220, 0, 0}, {0, 160, 0}, {0, 0, 220}};
    figure_draw_lines(c, &p->perspective, origin, axes, colors, 3);
    for (int a = 0; a < 3; a++) { /* each axis named at its tip, kept inside the panel by its size */
        const char *name = (const char *[]){"x", "y", "z"}[a];
        vec3 tip = camera_project(&p->perspective, axes[a]);
        int w = raster_text_width(name, FIGURE_TEXT_SCALE), h = raster_text_height(name, FIGURE_TEXT_SCALE);
        int x = (int)fmin(fmax(tip.x + 3, 0), c->width - w), y = (int)fmin(fmax(tip.y - 6, 0), c->height - h);
        raster_text(c, x, y, FIGURE_TEXT_SCALE, name, colors[a]);
    }
    draw_label(c, (const char *const[4]){p->spec.title, "perspective view", "x red, y green, z blue", ""});
}

void normals30_choose_cameras(normals30_pose poses[NORMALS30_POSES])
{
    for (int i = 0; i < NORMALS30_POSES; i++)
        choose_camera(&poses[i]);
}

lab_error normals30_figures(const normals30 *r, output_batch *out, lab_diag *d)
{
    enum { PANELS = NORMALS30_POSES * VIEWS };
    canvas panels[PANELS] = {{0}}, fig = {0};
    lab_error e = LAB_OK;
    for (int i = 0; e == LAB_OK && i < NORMALS30_POSES; i++)
        for (int view = 0; e == LAB_OK && view < VIEWS; view++) {
            int k = i * VIEWS + view;
            const normals30_pose *p = &r->pose[i];
            e = canvas_init(&panels[k], PANEL_W, PANEL_H, FIGURE_BACKGROUND, d);
            if (e != LAB_OK)
                break;
            if (view < NORMALS_METHOD_COUNT)
                draw_method_panel(&panels[k], r, p, view);
            else
                draw_perspective_panel(&panels[k], r, p);
        }
    if (e == LAB_OK)
        e = figure_compose_grid(&fig, panels, PANELS, VIEWS, 12,
                                "Normals: colour = angle to the true normal (0 green .. 20+ deg red), mean and max over the 216 "
                                "vertices.\nsteady: where the weights equal their neighbours' (no weight gradient); "
                                "folded: where the skinned surface turns back on itself,\nso its true normal points "
                                "inward and every method is up to 180 deg off there",
                                d);
    output_name names[PANELS];
    for (int k = 0; k < PANELS; k++) /* "normals30-bind-rigid.png" */
        snprintf(names[k], sizeof names[k], "normals30-%s-%s.png", r->pose[k / VIEWS].spec.name,
                 k % VIEWS < NORMALS_METHOD_COUNT ? normals_method_name((normals_method)(k % VIEWS)) : "perspective");
    return output_batch_add_figure(out, e, "normals30.png", &fig, panels, names, PANELS, d);
}

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

lab_error normals30_shaded_figure(const normals30 *r, output_batch *out, lab_diag *d)
{
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
                                "the true normal, the rigid normal's error (0 green .. 20+ deg red).\n"
                                "Black at the top: the inside of the open tube, seen through its open end; its "
                                "outward normals face away from the light.", d);
    return output_batch_add_figure(out, e, "normals30-shaded.png", &fig, panels, names, PANELS, d);
}
