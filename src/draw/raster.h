/* raster.h - an RGB canvas and integer drawing: Bresenham lines clipped to the canvas,
 * dashed lines, filled rectangles, text (stb_easy_font) and composing panels.
 *
 * Pixel layout: rgb[3 * (y * width + x) + c], row 0 is the top row, x grows to the right,
 * c = 0, 1, 2 for red, green, blue. Drawing outside the canvas is clipped, never an error.
 * Nothing is anti-aliased: a pixel is either set to the colour or left alone, so a test
 * can find exactly the pixels a segment produced.
 */
#ifndef RASTER_H
#define RASTER_H

#include <stdbool.h>

#include "base/diag.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct { unsigned char r, g, b; } rgb;

typedef struct {
    int width, height;       /* 0 <= x < width, 0 <= y < height */
    unsigned char *rgb;      /* width * height * 3 bytes, top row first */
    int text_outside;        /* labels whose box left the canvas, or that could not be drawn */
    char first_outside[48];  /* the first of them, for the message */
    bool out_of_memory;      /* a drawing call could not allocate: the picture is not whole */
} canvas;

/* LAB_OK when the picture is whole: every label fit inside it and every drawing call could
 * allocate. Otherwise LAB_ERR_OUT_OF_MEMORY, or LAB_ERR_INVALID_ARGUMENT for a cut label
 * (a bug in the figure's layout), naming `name` and the first cut label. */
lab_error canvas_check_whole(const canvas *c, const char *name, lab_diag *d);

/* Allocates a canvas filled with `background`. */
lab_error canvas_init(canvas *c, int width, int height, rgb background, lab_diag *d);
void canvas_free(canvas *c);
bool canvas_contains(const canvas *c, int x, int y);
void canvas_put(canvas *c, int x, int y, rgb color);   /* ignored outside the canvas */
rgb canvas_get(const canvas *c, int x, int y);         /* (0,0,0) outside the canvas */
bool rgb_equal(rgb a, rgb b);

/* Bresenham from (x0, y0) to (x1, y1), both endpoints included. */
void raster_line(canvas *c, int x0, int y0, int x1, int y1, rgb color);
/* The same pixels as raster_line, drawn `dash` on, `gap` off, starting with a dash. */
void raster_dashed_line(canvas *c, int x0, int y0, int x1, int y1, int dash, int gap, rgb color);
/* A segment between two points in pixel coordinates (doubles, as camera_project gives
 * them; the point (x, y) lies in pixel (floor x, floor y)). Endpoints far outside the
 * canvas are first clipped (Cohen-Sutherland) to a box one pixel beyond it, so any finite
 * input is safe and cheap; a segment inside the canvas is exactly raster_line of its
 * endpoint pixels. Non-finite endpoints draw nothing. dash <= 0 draws a solid line. */
void raster_segment(canvas *c, double x0, double y0, double x1, double y1, int dash, int gap,
                    rgb color);
/* Hidden lines: a depth buffer of the canvas's size, one depth per pixel, smaller nearer
 * (NDC z, as camera_project leaves it), +infinity where no triangle covers the pixel's
 * centre. raster_depth_triangle keeps the nearest depth of a screen-space triangle at
 * every pixel centre it covers (interpolated linearly in the screen, which is exact for NDC
 * depth under an orthographic or a perspective projection). raster_segment_depth draws the
 * pixels raster_segment would, only those whose depth along the segment is no more than
 * `tolerance` behind the buffer's: the segments that lie on the surface (its own edges)
 * differ from it by the sampling of one pixel, and the tolerance absorbs that. */
typedef struct {
    int width, height;
    double *z;
} raster_depth;
lab_error raster_depth_init(raster_depth *zb, int width, int height, lab_diag *d);
void raster_depth_free(raster_depth *zb);
void raster_depth_triangle(raster_depth *zb, const double x[3], const double y[3], const double z[3]);
void raster_segment_depth(canvas *c, const raster_depth *zb, double tolerance, double x0, double y0, double z0,
                          double x1, double y1, double z1, rgb color);
/* A filled triangle through the depth buffer (a z-buffer): each pixel centre it covers is
 * painted where the triangle is nearer than the buffer, which then takes its depth; the
 * colour is the corners' interpolated there (Gouraud). Drawn in any order, the nearest
 * triangle's colour is the one left. The buffer must be the canvas's size. */
void raster_fill_triangle(canvas *c, raster_depth *zb, const double x[3], const double y[3], const double z[3],
                          const rgb color[3]);

/* [x0, x0 + w) x [y0, y0 + h). */
void raster_fill_rect(canvas *c, int x0, int y0, int w, int h, rgb color);
/* ASCII text with its top-left corner at (x, y), each font unit `scale` pixels. A label
 * whose box does not fit inside the canvas is drawn clipped and counted in text_outside
 * (output_batch_add_image refuses such a figure: a label must never be cut off). A label
 * that cannot be drawn for want of memory sets out_of_memory instead (the figure is then
 * refused as out of memory, exit 3, not as a cut label). */
void raster_text(canvas *c, int x, int y, int scale, const char *text, rgb color);
int raster_text_width(const char *text, int scale);
int raster_text_height(const char *text, int scale);
/* Copies src onto dst with src's top-left corner at (x, y), clipped to dst. */
void canvas_blit(canvas *dst, const canvas *src, int x, int y);
/* src shrunk (or grown) into the w x h box at (x, y) of dst, clipped to dst: each pixel
 * the mean of the source pixels its square covers (a box filter, so that thin lines and
 * text stay visible when shrunk), nearest where it grows. */
void canvas_blit_scaled(canvas *dst, const canvas *src, int x, int y, int w, int h);

#ifdef __cplusplus
}
#endif

#endif
