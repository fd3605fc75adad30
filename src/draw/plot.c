/* plot.c - line plots (see plot.h). */
#include "draw/plot.h"

#include <math.h>
#include <stdio.h>

#define PLOT_SCALE 2                 /* text size, as in the figures */
#define MARGIN_LEFT 84
#define MARGIN_TOP 72
#define MARGIN_BOTTOM 64
#define LEGEND_GAP 24                /* between the frame and the legend */
#define TICK 6

static const rgb black = {0, 0, 0}, grid = {225, 225, 225}, white = {255, 255, 255};

typedef struct { int x0, y0, x1, y1; double xa, xb, ya, yb; bool x_log, y_log; } plot_area;

static double to_px(const plot_area *a, double x)
{
    if (a->x_log)
        return a->x0 + (log10(x) - log10(a->xa)) / (log10(a->xb) - log10(a->xa)) * (a->x1 - a->x0);
    return a->x0 + (x - a->xa) / (a->xb - a->xa) * (a->x1 - a->x0);
}
static double to_py(const plot_area *a, double y)
{
    if (a->y_log)
        return a->y1 - (log10(y) - log10(a->ya)) / (log10(a->yb) - log10(a->ya)) * (a->y1 - a->y0);
    return a->y1 - (y - a->ya) / (a->yb - a->ya) * (a->y1 - a->y0);
}

static void x_tick(canvas *c, const plot_area *a, double x, const char *label)
{
    int px = (int)floor(to_px(a, x));
    raster_line(c, px, a->y0, px, a->y1, grid);
    raster_line(c, px, a->y1, px, a->y1 + TICK, black);
    raster_text(c, px - raster_text_width(label, PLOT_SCALE) / 2, a->y1 + TICK + 4, PLOT_SCALE, label, black);
}

static void y_tick(canvas *c, const plot_area *a, double y)
{
    char label[32];
    int py = (int)floor(to_py(a, y));
    raster_line(c, a->x0, py, a->x1, py, grid);
    raster_line(c, a->x0 - TICK, py, a->x0, py, black);
    snprintf(label, sizeof label, "%g", y);
    raster_text(c, a->x0 - TICK - 4 - raster_text_width(label, PLOT_SCALE), py - 6, PLOT_SCALE, label, black);
}

static void draw_ticks(canvas *c, const plot_area *a, const plot_spec *s)
{
    char label[32];
    if (s->x_log) { /* the powers of ten inside the range, and its end when that is none */
        int first = (int)ceil(log10(s->x_min) - 1e-9), last = (int)floor(log10(s->x_max) + 1e-9);
        for (int k = first; k <= last; k++) {
            snprintf(label, sizeof label, "1e%d", k);
            x_tick(c, a, pow(10.0, k), label);
        }
        if (fabs(log10(s->x_max) - last) > 1e-9) {
            snprintf(label, sizeof label, "%ge%d", s->x_max / pow(10.0, last), last);
            x_tick(c, a, s->x_max, label);
        }
    } else {
        int steps_x = (int)floor((s->x_max - s->x_min) / s->x_step + 1e-9);
        for (int k = 0; k <= steps_x; k++) {
            double x = s->x_min + k * s->x_step;
            snprintf(label, sizeof label, "%g", x);
            x_tick(c, a, x, label);
        }
    }
    if (s->y_log) { /* 1, 2, 5 times each power of ten inside the range */
        for (int k = (int)floor(log10(s->y_min)); k <= (int)ceil(log10(s->y_max)); k++)
            for (int m = 0; m < 3; m++) {
                double y = (const double[]){1, 2, 5}[m] * pow(10.0, k);
                if (y >= s->y_min * (1 - 1e-9) && y <= s->y_max * (1 + 1e-9))
                    y_tick(c, a, y);
            }
    } else {
        int steps_y = (int)floor((s->y_max - s->y_min) / s->y_step + 1e-9);
        for (int k = 0; k <= steps_y; k++)
            y_tick(c, a, s->y_min + k * s->y_step);
    }
}

/* A hollow square of side `size` centred on (x, y). */
static void draw_marker(canvas *c, double x, double y, int size, rgb color)
{
    int h = size / 2, x0 = (int)lround(x) - h, y0 = (int)lround(y) - h, x1 = x0 + size - 1, y1 = y0 + size - 1;
    raster_line(c, x0, y0, x1, y0, color);
    raster_line(c, x0, y1, x1, y1, color);
    raster_line(c, x0, y0, x0, y1, color);
    raster_line(c, x1, y0, x1, y1, color);
}

static void draw_series(canvas *c, const plot_area *a, const plot_series *s)
{
    for (int i = 0; i + 1 < s->count; i++)
        for (int t = 0; t < (s->thick > 1 ? 2 : 1); t++)
            raster_segment(c, to_px(a, s->x[i]), to_py(a, s->y[i]) + t, to_px(a, s->x[i + 1]),
                           to_py(a, s->y[i + 1]) + t, s->dash, s->dash, s->color);
    for (int i = 0; s->marker > 0 && i < s->count; i += s->marker_every > 1 ? s->marker_every : 1)
        if (isfinite(s->y[i]))
            draw_marker(c, to_px(a, s->x[i]), to_py(a, s->y[i]), s->marker, s->color);
}

static void draw_legend(canvas *c, const plot_area *a, const plot_spec *s)
{
    int x = a->x1 + LEGEND_GAP, y = a->y0 + 4;
    for (int i = 0; i < s->series_count; i++) {
        const plot_series *e = &s->series[i];
        if (!e->label)
            continue;
        for (int t = 0; t < (e->thick > 1 ? 2 : 1); t++)
            raster_segment(c, x, y + 7 + t, x + 36, y + 7 + t, e->dash, e->dash, e->color);
        if (e->marker > 0)
            draw_marker(c, x + 18, y + 7, e->marker, e->color);
        raster_text(c, x + 44, y, PLOT_SCALE, e->label, black);
        y += 28;
    }
}

/* A mark: its dashed line across the plot area, its label at the top on the side with room. */
static void draw_mark(canvas *c, const plot_area *a, const plot_mark *m)
{
    static const rgb ink = {90, 90, 90};
    double px = to_px(a, m->x);
    if (!(px >= a->x0 && px <= a->x1))
        return;
    raster_segment(c, px, a->y0, px, a->y1, 5, 4, ink);
    if (!m->label)
        return;
    int w = raster_text_width(m->label, PLOT_SCALE), x = (int)lround(px) + 6;
    if (x + w > a->x1 - 2)
        x = (int)lround(px) - 6 - w;
    raster_text(c, x, (int)lround(to_py(a, m->label_y)), PLOT_SCALE, m->label, ink);
}

lab_error plot_draw(canvas *out, int width, int height, const plot_spec *spec, lab_diag *d)
{
    return plot_draw_marked(out, width, height, spec, NULL, 0, d);
}

lab_error plot_draw_marked(canvas *out, int width, int height, const plot_spec *spec, const plot_mark *marks,
                           int mark_count, lab_diag *d)
{
    if (!(spec->x_max > spec->x_min && spec->y_max > spec->y_min && (spec->x_step > 0 || spec->x_log) &&
          (spec->y_step > 0 || spec->y_log) && (!spec->x_log || spec->x_min > 0) && (!spec->y_log || spec->y_min > 0)))
        return diag_fail(d, LAB_ERR_OUTPUT, "plot", "empty range or step for \"%s\"",
                         spec->title ? spec->title : "");
    lab_error e = canvas_init(out, width, height, white, d);
    if (e != LAB_OK)
        return e;
    /* the legend as wide as its longest label: a sample line, the label, a margin */
    int legend = 0;
    for (int i = 0; i < spec->series_count; i++)
        if (spec->series[i].label) {
            int w = 44 + raster_text_width(spec->series[i].label, PLOT_SCALE) + 8;
            legend = w > legend ? w : legend;
        }
    plot_area a = {MARGIN_LEFT, MARGIN_TOP, width - LEGEND_GAP - legend, height - MARGIN_BOTTOM,
                   spec->x_min, spec->x_max, spec->y_min, spec->y_max, spec->x_log, spec->y_log};
    draw_ticks(out, &a, spec);
    for (int i = 0; i < spec->series_count; i++)
        draw_series(out, &a, &spec->series[i]);
    for (int i = 0; i < mark_count; i++)
        draw_mark(out, &a, &marks[i]);
    /* the frame last, so curves on the range's edge do not hide it */
    raster_line(out, a.x0, a.y0, a.x1, a.y0, black);
    raster_line(out, a.x0, a.y1, a.x1, a.y1, black);
    raster_line(out, a.x0, a.y0, a.x0, a.y1, black);
    raster_line(out, a.x1, a.y0, a.x1, a.y1, black);
    draw_legend(out, &a, spec);
    if (spec->title)
        raster_text(out, a.x0, 10, PLOT_SCALE, spec->title, black);
    if (spec->x_label)
        raster_text(out, (a.x0 + a.x1 - raster_text_width(spec->x_label, PLOT_SCALE)) / 2,
                    height - 26, PLOT_SCALE, spec->x_label, black);
    if (spec->y_label)
        raster_text(out, 8, MARGIN_TOP - 30, PLOT_SCALE, spec->y_label, black);
    return LAB_OK;
}
