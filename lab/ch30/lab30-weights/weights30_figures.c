/* weights30_figures.c - lab30-weights's figures (see weights30.h): the child weight
 * on the mesh with a colour bar, the weight along z, and both weight sets skinned at the
 * chapter's poses. What they show is computed by lab30-weights.c's stages; this file only draws it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/diag.h"
#include "draw/camera.h"
#include "draw/figure.h"
#include "draw/plot.h"
#include "draw/raster.h"
#include "math/linalg.h"
#include "mesh/mesh.h"
#include "program/output.h"
#include "skin/blend.h"

#include "rig30.h"
#include "weights30.h"

#define PANEL_W 300
#define PANEL_H 380
#define BAR_H 40                                /* the colour bar under the mesh */
#define LABEL_H figure_label_height(3)          /* three label lines */

/* The weight scale: blue at 0, red at 1, through purple; clamped outside [0, 1]. */
static rgb weight_color(double w)
{
    double t = fmin(fmax(w, 0.0), 1.0);
    return (rgb){(unsigned char)lround(20 + 200 * t), (unsigned char)lround(90 - 50 * t),
                 (unsigned char)lround(210 - 180 * t)};
}

/* A horizontal bar of the scale, labelled 0 and 1 at its ends and its name above it. */
static void weight_bar(canvas *c, int x, int y, int w, int h)
{
    for (int i = 0; i < w; i++)
        raster_fill_rect(c, x + i, y, 1, h, weight_color((double)i / (w - 1)));
    int text_y = y + h / 2 - raster_text_height("0", FIGURE_TEXT_SCALE) / 2;
    raster_text(c, x - raster_text_width("0", FIGURE_TEXT_SCALE) - 4, text_y, FIGURE_TEXT_SCALE, "0", FIGURE_TEXT);
    raster_text(c, x + w + 4, text_y, FIGURE_TEXT_SCALE, "1", FIGURE_TEXT);
}

/* Bind positions from the side the figures of the chapter use (the twist's oblique look). */
static lab_error bind_camera(const weights30 *r, camera *cam, lab_diag *d)
{
    const vec3 *sets[1] = {r->rigs[WEIGHTS30_HAND][RIG30_TWIST].bind.vertices};
    int count[1] = {WEIGHTS30_VERTS};
    return figure_fit_camera(cam, vec3_make(3.0, -5.0, 4.4), vec3_make(0, 0, 1), sets, count, 1, 0.04,
                             (camera_viewport_rect){0, LABEL_H, PANEL_W, PANEL_H - LABEL_H - BAR_H}, d);
}

/* One rig's child weights on its bind mesh: every edge in the colour of its ends' mean. */
static lab_error weight_panel(const weights30 *r, rig30_kind kind, weights30_set set, const camera *cam, canvas *c,
                              lab_diag *d)
{
    const vec3 *p = r->rigs[set][kind].bind.vertices;
    const double *w = r->rig[kind].child[set];
    vec3 *a = malloc((size_t)r->edge_count * sizeof *a), *b = malloc((size_t)r->edge_count * sizeof *b);
    rgb *colors = malloc((size_t)r->edge_count * sizeof *colors);
    lab_error e = a && b && colors ? canvas_init(c, PANEL_W, PANEL_H, FIGURE_BACKGROUND, d)
                                   : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "weights figure", "%d edges", r->edge_count);
    if (e == LAB_OK) {
        for (int k = 0; k < r->edge_count; k++) {
            a[k] = p[r->edges[k].a], b[k] = p[r->edges[k].b];
            colors[k] = weight_color((w[r->edges[k].a] + w[r->edges[k].b]) / 2.0);
        }
        figure_draw_lines(c, cam, a, b, colors, r->edge_count);
        char line[3][64];
        snprintf(line[0], 64, "%s, %s weights", rig30_kind_name(kind), weights30_set_name(set));
        snprintf(line[1], 64, "child weight w_1");
        snprintf(line[2], 64, "ends %.3f, %.3f", w[0], w[WEIGHTS30_VERTS - 1]);
        for (int k = 0; k < 3; k++)
            figure_draw_label(c, k, line[k]);
        weight_bar(c, 30, PANEL_H - BAR_H / 2 - 6, PANEL_W - 60, 10);
    }
    free(a), free(b), free(colors);
    return e;
}

/* The child weight along z: hand and heat for both rigs, ring by ring, over the closed form
 * of the discrete system and the continuum's. */
static lab_error profile_plot(const weights30 *r, canvas *c, lab_diag *d)
{
    static const rgb twist = {0, 114, 178}, bend = {213, 94, 0}, grey = {90, 90, 90}, green = {0, 150, 90};
    double z[RIG30_RINGS], w[2][WEIGHTS30_SETS][RIG30_RINGS];
    for (int ring = 0; ring < RIG30_RINGS; ring++) {
        z[ring] = r->rigs[0][0].bind.vertices[ring * RIG30_SEGMENTS].z;
        for (int kind = 0; kind < 2; kind++)
            for (int set = 0; set < WEIGHTS30_SETS; set++)
                w[kind][set][ring] = r->rig[kind].child[set][ring * RIG30_SEGMENTS];
    }
    const plot_series series[] = {
        {z, w[RIG30_TWIST][WEIGHTS30_HAND], RIG30_RINGS, twist, 8, 2, "twist, hand: w = z/2", 0, 0},
        {z, w[RIG30_TWIST][WEIGHTS30_HEAT], RIG30_RINGS, twist, 0, 2, "twist, bone heat", 7, 1},
        {z, w[RIG30_BEND][WEIGHTS30_HAND], RIG30_RINGS, bend, 8, 2, "bend, hand: smoothstep", 0, 0},
        {z, w[RIG30_BEND][WEIGHTS30_HEAT], RIG30_RINGS, bend, 0, 2, "bend, bone heat", 7, 1},
        {z, w[RIG30_TWIST][WEIGHTS30_BLENDER], RIG30_RINGS, twist, 3, 1, "twist, Blender's bone heat", 5, 2},
        {z, w[RIG30_BEND][WEIGHTS30_BLENDER], RIG30_RINGS, bend, 3, 1, "bend, Blender's bone heat", 5, 2},
        {z, w[RIG30_TWIST][WEIGHTS30_BBW], RIG30_RINGS, green, 0, 2, "bounded biharmonic (both rigs)", 6, 1},
        {z, r->rig[RIG30_TWIST].closed_form, RIG30_RINGS, FIGURE_TEXT, 0, 1, "closed form of the system", 3, 1},
        {z, r->rig[RIG30_BEND].closed_form, RIG30_RINGS, FIGURE_TEXT, 0, 1, NULL, 3, 1},
        {z, r->rig[RIG30_BEND].continuum, RIG30_RINGS, grey, 4, 1, "bend, continuum cosh(kz)", 0, 0},
    };
    char title[160];
    snprintf(title, sizeof title, "The child joint's weight along the cylinder (bone heat with c = %g)", r->options.heat_c);
    plot_spec spec = {title, "z (rings at 0, 0.25, ..., 2)", "w_1", 0, 2, 0.25, 0, 1, 0.1, series,
                      (int)(sizeof series / sizeof series[0]), false, false};
    return plot_draw(c, 1060, 560, &spec, d);
}

/* The poses' cameras: one over every twist panel, one over every bend panel, so each row's
 * four panels compare at one scale. */
static lab_error pose_cameras(const weights30 *r, camera cam[2], lab_diag *d)
{
    const vec3 eyes[2] = {{3.0, -5.0, 4.4}, {8.0, -0.3, 1.0}}, targets[2] = {{0, 0, 1}, {0, -0.3, 1.0}};
    lab_error e = LAB_OK;
    for (int kind = 0; e == LAB_OK && kind < 2; kind++) {
        const vec3 *sets[WEIGHTS30_RESULTS];
        int count[WEIGHTS30_RESULTS], n = 0;
        for (int i = 0; i < WEIGHTS30_RESULTS; i++)
            if (weights30_pose_kind[r->result[i].pose] == (rig30_kind)kind)
                sets[n] = r->result[i].skinned.positions, count[n++] = WEIGHTS30_VERTS;
        e = figure_fit_camera(&cam[kind], eyes[kind], targets[kind], sets, count, n, 0.04,
                              (camera_viewport_rect){0, LABEL_H, PANEL_W, PANEL_H - LABEL_H}, d);
    }
    return e;
}

static lab_error pose_panel(const weights30 *r, const weights30_result *x, const camera cam[2], canvas *c,
                            lab_diag *d)
{
    rig30_kind kind = weights30_pose_kind[x->pose];
    bool *middle = NULL;
    lab_error e = rig30_edge_masks(&r->rigs[x->set][kind], r->edges, r->edge_count, &middle, NULL, d);
    if (e == LAB_OK)
        e = canvas_init(c, PANEL_W, PANEL_H, FIGURE_BACKGROUND, d);
    if (e == LAB_OK) {
        char line[3][64];
        snprintf(line[0], 64, "%s %g %s %s", rig30_kind_name(kind), weights30_pose_deg[x->pose],
                 weights30_set_name(x->set), skin_method_name(x->method));
        snprintf(line[1], 64, "mid %.3f, min %.3f", x->middle_radius, x->narrowest_radius);
        if (kind == RIG30_BEND)
            snprintf(line[2], 64, "inner %.3f, vol %.3f", x->inner_elbow, x->volume_ratio);
        else if (x->rings_equal) /* no ring is the narrowest */
            snprintf(line[2], 64, "min: all equal, vol %.3f", x->volume_ratio);
        else
            snprintf(line[2], 64, "min at ring %d, vol %.3f", x->narrowest_ring, x->volume_ratio);
        const char *label[3] = {line[0], line[1], line[2]};
        const mesh *m = &r->rigs[x->set][kind].bind; /* the elbow in profile: its back edges hidden */
        figure_panel panel = {.positions = x->skinned.positions, .edges = r->edges, .edge_count = r->edge_count,
                              .highlight = middle, .label = label, .label_lines = 3, .triangles = m->triangles,
                              .triangle_count = m->triangle_count, .hidden_lines = kind == RIG30_BEND};
        figure_draw_panel(c, &cam[kind], &panel);
    }
    free(middle);
    return e;
}

/* A joint's colour on an asset: the weight scale's ends for two joints (as on the
 * cylinder), otherwise evenly spaced hues. */
static rgb joint_color(int j, int joints)
{
    if (joints == 2)
        return weight_color(j);
    double h = 6.0 * j / joints, f = h - floor(h), v = 210, lo = 40;
    double up = lo + (v - lo) * f, down = v - (v - lo) * f;
    double rgb3[6][3] = {{v, up, lo}, {down, v, lo}, {lo, v, up}, {lo, down, v}, {up, lo, v}, {v, lo, down}};
    const double *c = rgb3[(int)h % 6];
    return (rgb){(unsigned char)lround(c[0]), (unsigned char)lround(c[1]), (unsigned char)lround(c[2])};
}

#define ASSET_DIFFERENCE_SCALE 0.5 /* the difference panel's red: 0.5 and more */

/* view 0: the artist's weights, then two views an automatic set: its weights, each vertex
 * the weighted mix of its joints' colours, and max_j |set - artist| on the error scale. */
#define ASSET_VIEWS (1 + 2 * WEIGHTS30_AUTOMATIC)
static lab_error asset_panel(const weights30_asset *a, int view, canvas *c, lab_diag *d)
{
    const weights30_versus *x = view > 0 ? &a->versus[(view - 1) / 2] : NULL;
    weights30_set set = (weights30_set)(view > 0 ? 1 + (view - 1) / 2 : 0);
    bool difference = view > 0 && (view - 1) % 2 == 1;
    int J = a->joint_count;
    vec3 *pa = malloc((size_t)a->edge_count * sizeof *pa), *pb = malloc((size_t)a->edge_count * sizeof *pb);
    rgb *colors = malloc((size_t)a->edge_count * sizeof *colors), *vertex = malloc((size_t)a->vertex_count * sizeof *vertex);
    camera cam;
    const vec3 *sets[1] = {a->bind};
    int count[1] = {a->vertex_count};
    vec3 centre = vec3_scale(vec3_add(a->lo, a->hi), 0.5);
    lab_error e = pa && pb && colors && vertex ? canvas_init(c, PANEL_W, PANEL_H, FIGURE_BACKGROUND, d)
                                               : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "asset figure", "%d edges", a->edge_count);
    if (e == LAB_OK) /* from the front and a little above, z up, as the assets stand */
        e = figure_fit_camera(&cam, vec3_add(centre, vec3_make(4.0, -10.0, 3.0)), centre, sets, count, 1, 0.04,
                              (camera_viewport_rect){0, LABEL_H, PANEL_W, PANEL_H - LABEL_H - BAR_H}, d);
    if (e == LAB_OK) {
        for (int v = 0; v < a->vertex_count; v++) {
            const double *w = (x ? x->weights : a->artist) + (size_t)v * J;
            double diff = 0.0, mix[3] = {0, 0, 0}, total = 0.0;
            for (int j = 0; j < J; j++) {
                rgb k = joint_color(j, J);
                mix[0] += w[j] * k.r, mix[1] += w[j] * k.g, mix[2] += w[j] * k.b, total += w[j];
                diff = fmax(diff, fabs(w[j] - a->artist[(size_t)v * J + j]));
            }
            if (!(total > 0.0)) /* a vertex the set leaves weightless: grey */
                total = 1.0, mix[0] = mix[1] = mix[2] = 128.0;
            vertex[v] = difference ? figure_error_color(diff, ASSET_DIFFERENCE_SCALE)
                                   : (rgb){(unsigned char)lround(fmin(fmax(mix[0] / total, 0), 255)),
                                           (unsigned char)lround(fmin(fmax(mix[1] / total, 0), 255)),
                                           (unsigned char)lround(fmin(fmax(mix[2] / total, 0), 255))};
        }
        for (int k = 0; k < a->edge_count; k++) {
            int u = a->edges[k].a, v = a->edges[k].b;
            pa[k] = a->bind[u], pb[k] = a->bind[v];
            colors[k] = (rgb){(unsigned char)((vertex[u].r + vertex[v].r) / 2), (unsigned char)((vertex[u].g + vertex[v].g) / 2),
                              (unsigned char)((vertex[u].b + vertex[v].b) / 2)};
        }
        figure_draw_lines(c, &cam, pa, pb, colors, a->edge_count);
        char line[3][64];
        if (difference)
            snprintf(line[0], 64, "%s - artist", weights30_set_name(set));
        else
            snprintf(line[0], 64, "%s, %s", a->name, view == 0 ? "artist" : weights30_set_name(set));
        if (difference) {
            snprintf(line[1], 64, "max_j |w - artist|");
            snprintf(line[2], 64, "max %.3f, mean %.3f", x->max_weight_difference, x->mean_weight_difference);
            int x = 30, y = PANEL_H - BAR_H / 2 - 6, w = PANEL_W - 100;
            for (int i = 0; i < w; i++)
                raster_fill_rect(c, x + i, y, 1, 10, figure_error_color(ASSET_DIFFERENCE_SCALE * i / (w - 1), ASSET_DIFFERENCE_SCALE));
            int ty = y + 5 - raster_text_height("0", FIGURE_TEXT_SCALE) / 2;
            raster_text(c, x - raster_text_width("0", FIGURE_TEXT_SCALE) - 4, ty, FIGURE_TEXT_SCALE, "0", FIGURE_TEXT);
            raster_text(c, x + w + 4, ty, FIGURE_TEXT_SCALE, "0.5+", FIGURE_TEXT);
        } else {
            snprintf(line[1], 64, "%d joints, a colour each", J);
            snprintf(line[2], 64, "mixed by weight");
        }
        for (int k = 0; k < 3; k++)
            figure_draw_label(c, k, line[k]);
    }
    free(pa), free(pb), free(colors), free(vertex);
    return e;
}

static lab_error asset_figure(const weights30 *r, output_batch *out, lab_diag *d)
{
    canvas panels[ASSET_VIEWS * WEIGHTS30_ASSETS] = {{0}}, fig = {0};
    lab_error e = LAB_OK;
    for (int k = 0; e == LAB_OK && k < ASSET_VIEWS * WEIGHTS30_ASSETS; k++)
        e = asset_panel(&r->asset[k / ASSET_VIEWS], k % ASSET_VIEWS, &panels[k], d);
    if (e == LAB_OK)
        e = figure_compose_grid(&fig, panels, ASSET_VIEWS * WEIGHTS30_ASSETS, ASSET_VIEWS, 12,
                                "Artists' weights beside the automatic weights on the Khronos samples (CC BY 4.0, (c) "
                                "2017 Cesium), bind pose: bone heat (the paper's), Blender's bone heat, bounded biharmonic weights.\nEach joint has "
                                "a colour; a vertex shows the mix of its joints' colours by weight (grey: none left). "
                                "After each set: where it differs from the artist's", d);
    for (int k = 0; k < ASSET_VIEWS * WEIGHTS30_ASSETS; k++)
        canvas_free(&panels[k]);
    if (e == LAB_OK)
        e = output_batch_add_image(out, "weights30-assets.png", &fig, d);
    canvas_free(&fig);
    return e;
}

lab_error weights30_figures(const weights30 *r, output_batch *out, lab_diag *d)
{
    enum { MAPS = 2 * WEIGHTS30_SETS };
    canvas maps[MAPS] = {{0}}, fig = {0}, plot = {0}, poses[WEIGHTS30_RESULTS] = {{0}}, all = {0};
    camera cam, pose_cam[2]; /* the bind mesh's; the poses', one per rig */
    lab_error e = bind_camera(r, &cam, d);
    for (int k = 0; e == LAB_OK && k < MAPS; k++)
        e = weight_panel(r, (rig30_kind)(k / WEIGHTS30_SETS), (weights30_set)(k % WEIGHTS30_SETS), &cam, &maps[k], d);
    if (e == LAB_OK)
        e = figure_compose_grid(&fig, maps, MAPS, WEIGHTS30_SETS, 12,
                                "The child joint's weight on the bind mesh, blue 0 to red 1: the chapter's hand weights, "
                                "bone heat's (the paper's) and Blender's bone heat (after its cut). Rows: twist, bend", d);
    for (int k = 0; k < MAPS; k++)
        canvas_free(&maps[k]);
    if (e == LAB_OK)
        e = output_batch_add_image(out, "weights30.png", &fig, d);
    canvas_free(&fig);
    if (e == LAB_OK)
        e = profile_plot(r, &plot, d);
    if (e == LAB_OK)
        e = output_batch_add_image(out, "weights30-profile.png", &plot, d);
    canvas_free(&plot);
    if (e == LAB_OK)
        e = asset_figure(r, out, d);
    if (e == LAB_OK)
        e = pose_cameras(r, pose_cam, d);
    for (int i = 0; e == LAB_OK && i < WEIGHTS30_RESULTS; i++)
        e = pose_panel(r, &r->result[i], pose_cam, &poses[i], d);
    if (e == LAB_OK)
        e = figure_compose_grid(&all, poses, WEIGHTS30_RESULTS, 2 * WEIGHTS30_SETS, 12,
                                "Rows: twist 90, twist 180, bend 90, bend 135. Columns: hand, heat, blender with LBS, "
                                "then with DQS. Orange: the middle ring.\nmid: the middle ring's radius about its own centre "
                                "(1 at bind);\nmin: the narrowest ring's (all equal: every ring within 1e-12 of the others); inner: the inner "
                                "elbow's distance to the joint;\nvol: volume against the bind",
                                d);
    output_name names[WEIGHTS30_RESULTS];
    for (int i = 0; i < WEIGHTS30_RESULTS; i++) { /* "weights30-twist090-heat-lbs.png" */
        const weights30_result *x = &r->result[i];
        char angle[40];
        snprintf(names[i], sizeof names[i], "weights30-%s%s-%s-%s.png", rig30_kind_name(weights30_pose_kind[x->pose]),
                 figure_angle_tag(angle, sizeof angle, weights30_pose_deg[x->pose]), weights30_set_name(x->set),
                 x->method == SKIN_DQS ? "dqs" : "lbs");
    }
    return output_batch_add_figure(out, e, "weights30-poses.png", &all, poses, names, WEIGHTS30_RESULTS, d);
}
