/* diagram.h - small labelled 2-D figures in a plane: points, segments and circles in the
 * plane's own units, drawn onto a canvas by our rasterizer. The hand control of chapter
 * 30 and the companion texts' sketches (a chord, a vertex's candidate positions) use it.
 *
 * Plane (x, y) lands on pixel (origin_x + scale x, origin_y - scale y): y grows upwards,
 * as in the texts' drawings. Labels go through raster_text, so one that would run past
 * the canvas is counted and the figure refused (see raster.h).
 */
#ifndef DIAGRAM_H
#define DIAGRAM_H

#include "draw/raster.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The sketches' palette: guides and axes, inputs, the right answer, a wrong one. */
#define DIAGRAM_GREY ((rgb){150, 150, 150})
#define DIAGRAM_BLUE ((rgb){40, 90, 200})
#define DIAGRAM_GREEN ((rgb){0, 140, 60})
#define DIAGRAM_RED ((rgb){200, 30, 30})

typedef struct {
    canvas *c;
    double origin_x, origin_y;   /* the pixel of the plane's (0, 0) */
    double scale;                /* pixels a unit */
} diagram;

/* A white canvas of width x height with `title` (may hold '\n') at the top left. */
lab_error diagram_init(diagram *g, canvas *c, int width, int height, double origin_x,
                       double origin_y, double scale, const char *title, lab_diag *d);
/* A segment; dash > 0 draws it dashed. */
void diagram_segment(const diagram *g, double x0, double y0, double x1, double y1, int dash,
                     rgb color);
/* A circle of radius r about (cx, cy), as 96 segments. */
void diagram_circle(const diagram *g, double cx, double cy, double r, rgb color);
/* Where a point's label goes: to its right, to its left, or above it and to the right
 * (off a horizontal line through the point). */
typedef enum { DIAGRAM_RIGHT = 0, DIAGRAM_LEFT = 1, DIAGRAM_ABOVE = 2 } diagram_side;

/* A square marker at (x, y) with its printf-formatted label on that side. A label longer
 * than 127 characters is cut there, and counted as text that did not fit (the figure is
 * refused). */
void diagram_point(const diagram *g, double x, double y, rgb color, diagram_side side, const char *label_fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/* The label alone, placed as diagram_point places it (a bone's name beside the bone). */
void diagram_label(const diagram *g, double x, double y, rgb color, diagram_side side, const char *label_fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/* Grey axes through the plane's origin over [x0, x1] and [y0, y1], a tick and its value
 * every `step` units (0 left out), and the axes' names at their positive ends. */
void diagram_axes(const diagram *g, double x0, double x1, double y0, double y1, double step, const char *x_name,
                  const char *y_name);

#ifdef __cplusplus
}
#endif

#endif
