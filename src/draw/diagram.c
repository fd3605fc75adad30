/* diagram.c - labelled 2-D figures (see diagram.h). */
#include "draw/diagram.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "draw/figure.h"

static double px(const diagram *g, double x) { return g->origin_x + g->scale * x; }
static double py(const diagram *g, double y) { return g->origin_y - g->scale * y; }

lab_error diagram_init(diagram *g, canvas *c, int width, int height, double origin_x,
                       double origin_y, double scale, const char *title, lab_diag *d)
{
    *g = (diagram){c, origin_x, origin_y, scale};
    lab_error e = canvas_init(c, width, height, FIGURE_BACKGROUND, d);
    if (e == LAB_OK && title)
        raster_text(c, 8, 8, FIGURE_TEXT_SCALE, title, FIGURE_TEXT);
    return e;
}

void diagram_segment(const diagram *g, double x0, double y0, double x1, double y1, int dash,
                     rgb color)
{
    raster_segment(g->c, px(g, x0), py(g, y0), px(g, x1), py(g, y1), dash, dash > 0 ? dash - 2 : 0, color);
}

void diagram_circle(const diagram *g, double cx, double cy, double r, rgb color)
{
    const double step = 2.0 * acos(-1.0) / 96;
    for (int k = 0; k < 96; k++)
        diagram_segment(g, cx + r * cos(k * step), cy + r * sin(k * step), cx + r * cos((k + 1) * step),
                        cy + r * sin((k + 1) * step), 0, color);
}

/* A label at the pixel (ix, iy) on `side`; a label cut at 127 characters is counted as
 * text that did not fit. */
static void place_label(const diagram *g, int ix, int iy, rgb color, diagram_side side, const char *label_fmt,
                        va_list ap)
{
    char label[128];
    int n = vsnprintf(label, sizeof label, label_fmt, ap);
    if (n < 0 || (size_t)n >= sizeof label)
        g->c->text_outside++;
    int w = raster_text_width(label, FIGURE_TEXT_SCALE), h = raster_text_height(label, FIGURE_TEXT_SCALE);
    if (side == DIAGRAM_ABOVE)
        raster_text(g->c, ix + 4, iy - 6 - h, FIGURE_TEXT_SCALE, label, color);
    else
        raster_text(g->c, side == DIAGRAM_LEFT ? ix - 8 - w : ix + 8, iy - 8, FIGURE_TEXT_SCALE, label, color);
}

void diagram_point(const diagram *g, double x, double y, rgb color, diagram_side side, const char *label_fmt, ...)
{
    int ix = (int)px(g, x), iy = (int)py(g, y);
    raster_fill_rect(g->c, ix - 3, iy - 3, 7, 7, color);
    va_list ap;
    va_start(ap, label_fmt);
    place_label(g, ix, iy, color, side, label_fmt, ap);
    va_end(ap);
}

void diagram_label(const diagram *g, double x, double y, rgb color, diagram_side side, const char *label_fmt, ...)
{
    va_list ap;
    va_start(ap, label_fmt);
    place_label(g, (int)px(g, x), (int)py(g, y), color, side, label_fmt, ap);
    va_end(ap);
}

void diagram_axes(const diagram *g, double x0, double x1, double y0, double y1, double step, const char *x_name,
                  const char *y_name)
{
    diagram_segment(g, x0, 0, x1, 0, 0, DIAGRAM_GREY);
    diagram_segment(g, 0, y0, 0, y1, 0, DIAGRAM_GREY);
    char value[32];
    for (int axis = 0; axis < 2; axis++) {
        double lo = axis ? y0 : x0, hi = axis ? y1 : x1;
        for (double t = step * ceil(lo / step); t <= hi; t += step) {
            if (fabs(t) < 0.5 * step)
                continue;
            snprintf(value, sizeof value, "%g", t);
            int w = raster_text_width(value, FIGURE_TEXT_SCALE), h = raster_text_height(value, FIGURE_TEXT_SCALE);
            int x = (int)px(g, axis ? 0 : t), y = (int)py(g, axis ? t : 0);
            /* a tick on the axis, its value at the plot's edge (left for y, bottom for x),
             * clear of the points and labels drawn near the axes */
            if (axis) {
                raster_segment(g->c, x - 4, y, x + 4, y, 0, 0, DIAGRAM_GREY);
                raster_text(g->c, (int)px(g, x0) - w - 4, y - h / 2, FIGURE_TEXT_SCALE, value, DIAGRAM_GREY);
            } else {
                raster_segment(g->c, x, y - 4, x, y + 4, 0, 0, DIAGRAM_GREY);
                raster_text(g->c, x - w / 2, (int)py(g, y0) + 4, FIGURE_TEXT_SCALE, value, DIAGRAM_GREY);
            }
        }
    }
    raster_text(g->c, (int)px(g, x1) - raster_text_width(x_name, FIGURE_TEXT_SCALE), (int)py(g, 0) + 8,
                FIGURE_TEXT_SCALE, x_name, DIAGRAM_GREY);
    raster_text(g->c, (int)px(g, 0) + 8, (int)py(g, y1), FIGURE_TEXT_SCALE, y_name, DIAGRAM_GREY);
}
