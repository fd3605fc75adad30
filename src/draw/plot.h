/* plot.h - line plots drawn by our rasterizer: a framed plot area, ticks with labels,
 * axis titles, series as polylines (solid or dashed) and a legend to the right.
 *
 * Data coordinates map linearly onto the plot area, y up. Points outside the ranges are
 * clipped with the segments that reach them; nothing is resampled or smoothed, so every
 * vertex of a polyline is one data point.
 */
#ifndef PLOT_H
#define PLOT_H

#include <stdbool.h>

#include "draw/raster.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const double *x, *y;   /* count points */
    int count;
    rgb color;
    int dash;              /* 0 solid, else dash length in pixels */
    int thick;             /* 1 or 2 pixels */
    const char *label;     /* legend text, NULL for none */
    int marker;            /* 0 none, else a hollow square of this many pixels at every
                            * marker_every-th point (0 or 1: every point), and in the legend:
                            * series of different marker sizes stay visible where they coincide */
    int marker_every;
} plot_series;

typedef struct {
    const char *title, *x_label, *y_label;
    double x_min, x_max, x_step;  /* ticks at x_min + k x_step */
    double y_min, y_max, y_step;
    const plot_series *series;
    int series_count;
    bool x_log;                   /* log10 x axis: ticks at the powers of ten and at x_max, x_step unused */
    bool y_log;                   /* log10 y axis: ticks at 1, 2 and 5 times the powers of ten, y_step unused */
} plot_spec;

/* A place on the x axis worth a word: a dashed vertical line at x, and its label (lines
 * separated by '\n') right of the line, or left of it where the right has no room, its top
 * at label_y (data coordinates: a place the curves leave free). */
typedef struct {
    double x;
    const char *label;
    double label_y;
} plot_mark;

/* Draws the plot onto a new width x height canvas. */
lab_error plot_draw(canvas *out, int width, int height, const plot_spec *spec, lab_diag *d);
/* The same with mark_count marks drawn over the curves. */
lab_error plot_draw_marked(canvas *out, int width, int height, const plot_spec *spec, const plot_mark *marks,
                           int mark_count, lab_diag *d);

#ifdef __cplusplus
}
#endif

#endif
