/* figure.c - wireframe panels through the camera chain, composed into a figure. */
#include "draw/figure.h"

#include "base/bytes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

static void draw_segment(canvas *c, const camera *cam, vec3 a, vec3 b, int dash, rgb color)
{
    vec3 pa, pb;
    if (camera_project_segment(cam, a, b, &pa, &pb)) /* clipped at the near plane first */
        raster_segment(c, pa.x, pa.y, pb.x, pb.y, dash, dash, color);
}

/* A segment through the depth test when zb is not NULL. */
static void draw_edge(canvas *c, const camera *cam, vec3 a, vec3 b, rgb color, const raster_depth *zb)
{
    vec3 pa, pb;
    if (!zb)
        draw_segment(c, cam, a, b, 0, color);
    else if (camera_project_segment(cam, a, b, &pa, &pb))
        raster_segment_depth(c, zb, FIGURE_HIDDEN_TOLERANCE, pa.x, pa.y, pa.z, pb.x, pb.y, pb.z, color);
}

static void draw_marker(canvas *c, const camera *cam, vec3 p, rgb color, const raster_depth *zb)
{
    vec3 q = camera_project(cam, p);
    if (!(q.x > -8.0 && q.y > -8.0 && q.x < c->width + 8.0 && q.y < c->height + 8.0))
        return; /* far outside (or not finite): nothing of the marker would show */
    int x = (int)floor(q.x), y = (int)floor(q.y);
    if (zb && x >= 0 && y >= 0 && x < zb->width && y < zb->height &&
        q.z > zb->z[(size_t)y * zb->width + x] + FIGURE_HIDDEN_TOLERANCE)
        return; /* behind the surface */
    raster_fill_rect(c, x - FIGURE_MARKER_HALF, y - FIGURE_MARKER_HALF, 2 * FIGURE_MARKER_HALF + 1,
                     2 * FIGURE_MARKER_HALF + 1, color);
}

/* The depth pass: every triangle's nearest depth at every pixel it covers. */
static bool depth_pass(canvas *c, const camera *cam, const figure_panel *panel, raster_depth *zb)
{
    if (raster_depth_init(zb, c->width, c->height, NULL) != LAB_OK) {
        c->out_of_memory = true;
        return false;
    }
    for (int t = 0; t < panel->triangle_count; t++) {
        double x[3], y[3], z[3];
        bool front = true;
        for (int k = 0; k < 3; k++) {
            vec3 v = panel->positions[panel->triangles[t].v[k]], q, unused;
            front &= camera_project_segment(cam, v, v, &q, &unused); /* in front of the near plane */
            x[k] = q.x, y[k] = q.y, z[k] = q.z;
        }
        if (front)
            raster_depth_triangle(zb, x, y, z);
    }
    return true;
}

void figure_draw_panel(canvas *c, const camera *cam, const figure_panel *panel)
{
    const vec3 *p = panel->positions;
    raster_depth depth = {0};
    const raster_depth *zb = panel->hidden_lines && panel->triangles && depth_pass(c, cam, panel, &depth) ? &depth : NULL;
    for (int i = 0; i < panel->edge_count; i++) {
        if (panel->highlight && panel->highlight[i])
            continue;
        rgb color = panel->band && panel->band[i] ? FIGURE_BAND : FIGURE_EDGE;
        draw_edge(c, cam, p[panel->edges[i].a], p[panel->edges[i].b], color, zb);
    }
    if (vec3_length(vec3_sub(panel->axis_to, panel->axis_from)) > 0.0)
        draw_segment(c, cam, panel->axis_from, panel->axis_to, 6, FIGURE_AXIS);
    for (int i = 0; panel->highlight && i < panel->edge_count; i++)
        if (panel->highlight[i]) {
            mesh_edge e = panel->edges[i];
            draw_edge(c, cam, p[e.a], p[e.b], FIGURE_HIGHLIGHT, zb);
            draw_marker(c, cam, p[e.a], FIGURE_HIGHLIGHT, zb);
            draw_marker(c, cam, p[e.b], FIGURE_HIGHLIGHT, zb);
        }
    raster_depth_free(&depth);
    for (int k = 0; k < panel->label_lines; k++)
        figure_draw_label(c, k, panel->label[k]);
}

double figure_lambert(vec3 n, vec3 l)
{
    double d = vec3_dot(n, l);
    return d > 0.0 ? d : 0.0;
}

void figure_draw_surface(canvas *c, const camera *cam, const figure_surface *s)
{
    raster_depth zb;
    if (raster_depth_init(&zb, c->width, c->height, NULL) != LAB_OK) {
        c->out_of_memory = true;
        return;
    }
    for (int t = 0; t < s->triangle_count; t++) {
        double x[3], y[3], z[3];
        rgb color[3];
        bool front = true;
        for (int k = 0; k < 3; k++) {
            int v = s->triangles[t].v[k];
            vec3 q, unused;
            front &= camera_project_segment(cam, s->positions[v], s->positions[v], &q, &unused);
            x[k] = q.x, y[k] = q.y, z[k] = q.z;
            if (s->colors) {
                color[k] = s->colors[v];
            } else {
                double shade = figure_lambert(s->normals[v], s->light);
                color[k] = (rgb){(unsigned char)lround(s->base.r * shade), (unsigned char)lround(s->base.g * shade),
                                 (unsigned char)lround(s->base.b * shade)};
            }
        }
        if (front)
            raster_fill_triangle(c, &zb, x, y, z, color);
    }
    raster_depth_free(&zb);
}

/* One line of text and the 4 pixels under it; 8 pixels above the first. */
static int label_line_height(void) { return raster_text_height("X", FIGURE_TEXT_SCALE) + 4; }

int figure_label_height(int lines) { return 8 + lines * label_line_height(); }

void figure_draw_label(canvas *c, int k, const char *text)
{
    raster_text(c, 8, 8 + k * label_line_height(), FIGURE_TEXT_SCALE, text, FIGURE_TEXT);
}

void figure_draw_lines(canvas *c, const camera *cam, const vec3 *a, const vec3 *b,
                       const rgb *colors, int count)
{
    for (int i = 0; i < count; i++)
        draw_segment(c, cam, a[i], b[i], 0, colors[i]);
}

rgb figure_error_color(double value, double max)
{
    double t = max > 0.0 ? value / max : 1.0;
    t = !(t > 0.0) ? 0.0 : t > 1.0 ? 1.0 : t; /* NaN counts as 0 */
    if (t < 0.5) /* green (0,170,0) -> yellow (230,200,0) */
        return (rgb){(unsigned char)lround(460 * t), (unsigned char)lround(170 + 60 * t), 0};
    return (rgb){(unsigned char)lround(230 - 20 * (t - 0.5)), (unsigned char)lround(200 * (2 - 2 * t)), 0};
}

void figure_error_bar(canvas *c, int x, int y, int w, int h, double max)
{
    for (int i = 0; i < w; i++)
        raster_fill_rect(c, x + i, y, 1, h, figure_error_color(max * i / (w - 1), max));
    char label[32];
    snprintf(label, sizeof label, "%g deg", max);
    int text_y = y + h / 2 - raster_text_height("0", FIGURE_TEXT_SCALE) / 2; /* beside the bar, centred */
    raster_text(c, x - raster_text_width("0", FIGURE_TEXT_SCALE) - 4, text_y, FIGURE_TEXT_SCALE, "0", FIGURE_TEXT);
    raster_text(c, x + w + 4, text_y, FIGURE_TEXT_SCALE, label, FIGURE_TEXT);
}

lab_error figure_compose_grid(canvas *out, const canvas *panels, int count, int columns, int gap,
                              const char *title, lab_diag *d)
{
    int cell_w = 0, cell_h = 0;
    for (int i = 0; i < count; i++) {
        cell_w = panels[i].width > cell_w ? panels[i].width : cell_w;
        cell_h = panels[i].height > cell_h ? panels[i].height : cell_h;
    }
    columns = columns < 1 ? 1 : columns > count ? count : columns;
    int rows = (count + columns - 1) / columns;
    int title_h = title ? raster_text_height(title, FIGURE_TEXT_SCALE) + gap : 0;
    int width = gap + columns * (cell_w + gap), title_w = title ? 2 * gap + raster_text_width(title, FIGURE_TEXT_SCALE) : 0;
    lab_error e = canvas_init(out, width > title_w ? width : title_w, /* the title always fits */
                              gap + title_h + rows * (cell_h + gap), FIGURE_BACKGROUND, d);
    if (e != LAB_OK)
        return e;
    if (title)
        raster_text(out, gap, gap, FIGURE_TEXT_SCALE, title, FIGURE_TEXT);
    for (int i = 0; i < count; i++) {
        canvas_blit(out, &panels[i], gap + (i % columns) * (cell_w + gap),
                    gap + title_h + (i / columns) * (cell_h + gap));
        out->out_of_memory |= panels[i].out_of_memory;
        if (panels[i].text_outside > 0) { /* a panel's cut or missing label is the figure's */
            if (out->text_outside == 0)
                snprintf(out->first_outside, sizeof out->first_outside, "%s", panels[i].first_outside);
            out->text_outside += panels[i].text_outside;
        }
    }
    return LAB_OK;
}

lab_error figure_compose(canvas *out, const canvas *panels, int count, int gap, const char *title,
                         lab_diag *d)
{
    return figure_compose_grid(out, panels, count, count, gap, title, d);
}

char *figure_angle_tag(char *buf, size_t size, double deg)
{
    char num[32];
    if (deg == floor(deg) && fabs(deg) < 1e9) {
        snprintf(buf, size, "%s%03d", deg < 0 ? "-" : "", abs((int)deg));
        return buf;
    }
    for (char *ch = format_double(num, deg); *ch; ch++)
        *ch = *ch == '.' ? 'p' : *ch;
    snprintf(buf, size, "%s", num);
    return buf;
}

lab_error figure_fit_camera(camera *out, vec3 eye, vec3 target, const vec3 *const *sets,
                            const int *set_count, int sets_n, double margin,
                            camera_viewport_rect viewport, lab_diag *d)
{
    int total = 0;
    for (int i = 0; i < sets_n; i++)
        total += set_count[i];
    vec3 *all = malloc(sizeof *all * (size_t)(total ? total : 1));
    if (!all)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "camera", "%d points", total);
    for (int i = 0, k = 0; i < sets_n; k += set_count[i], i++)
        memcpy(all + k, sets[i], sizeof *all * (size_t)set_count[i]);
    out->view = camera_look_at(eye, target, vec3_make(0, 0, 1));
    out->viewport = viewport;
    out->projection = total ? camera_fit_orthographic(out->view, all, total, margin, viewport)
                            : camera_orthographic(-1, 1, -1, 1, 0.1, 10);
    free(all);
    return LAB_OK;
}
