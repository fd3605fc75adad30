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

void diagram_point(const diagram *g, double x, double y, rgb color, bool left, const char *label_fmt, ...)
{
    char label[128];
    va_list ap;
    va_start(ap, label_fmt);
    int n = vsnprintf(label, sizeof label, label_fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof label)
        g->c->text_outside++;
    int ix = (int)px(g, x), iy = (int)py(g, y);
    raster_fill_rect(g->c, ix - 3, iy - 3, 7, 7, color);
    int w = raster_text_width(label, FIGURE_TEXT_SCALE);
    raster_text(g->c, left ? ix - 8 - w : ix + 8, iy - 8, FIGURE_TEXT_SCALE, label, color);
}
