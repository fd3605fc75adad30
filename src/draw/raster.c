/* raster.c - integer rasterisation on an RGB canvas (see raster.h). */
#include "draw/raster.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb_easy_font.h>

lab_error canvas_check_whole(const canvas *c, const char *name, lab_diag *d)
{
    if (c->out_of_memory)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, name, "a label could not be drawn");
    if (c->text_outside > 0)
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, name,
                         "%d label(s) cut off or missing, the first \"%s\": every label must fit inside its figure",
                         c->text_outside, c->first_outside);
    return LAB_OK;
}

lab_error canvas_init(canvas *c, int width, int height, rgb background, lab_diag *d)
{
    *c = (canvas){0};
    if (width <= 0 || height <= 0)
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "canvas", "size %d x %d", width, height);
    c->rgb = malloc((size_t)width * (size_t)height * 3);
    if (!c->rgb)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "canvas", "size %d x %d", width, height);
    c->width = width;
    c->height = height;
    raster_fill_rect(c, 0, 0, width, height, background);
    return LAB_OK;
}

void canvas_free(canvas *c)
{
    free(c->rgb);
    *c = (canvas){0};
}

bool canvas_contains(const canvas *c, int x, int y)
{
    return x >= 0 && y >= 0 && x < c->width && y < c->height;
}

void canvas_put(canvas *c, int x, int y, rgb color)
{
    if (!canvas_contains(c, x, y))
        return;
    unsigned char *p = c->rgb + 3 * ((size_t)y * (size_t)c->width + (size_t)x);
    p[0] = color.r;
    p[1] = color.g;
    p[2] = color.b;
}

rgb canvas_get(const canvas *c, int x, int y)
{
    if (!canvas_contains(c, x, y))
        return (rgb){0, 0, 0};
    const unsigned char *p = c->rgb + 3 * ((size_t)y * (size_t)c->width + (size_t)x);
    return (rgb){p[0], p[1], p[2]};
}

bool rgb_equal(rgb a, rgb b) { return a.r == b.r && a.g == b.g && a.b == b.b; }

/* Bresenham's all-octant integer walk; `plot` decides per step whether to set the pixel
 * (a dash pattern), clipping is per pixel so the walk is the same as without clipping.
 * A segment that misses the canvas entirely is skipped before walking. */
/* The depth test of a hidden-line walk: the segment's depth runs from z0 to z1 over its
 * steps; a pixel is set where that depth is within tolerance of the buffer's nearest. */
typedef struct {
    const raster_depth *zb;
    double z0, z1, tolerance;
} depth_test;

static bool in_front(const canvas *c, const depth_test *t, int x, int y, double along)
{
    if (!t || !canvas_contains(c, x, y) || x >= t->zb->width || y >= t->zb->height)
        return true;
    double z = t->z0 + along * (t->z1 - t->z0);
    return z <= t->zb->z[(size_t)y * t->zb->width + x] + t->tolerance;
}

static void walk_line(canvas *c, int x0, int y0, int x1, int y1, int dash, int gap, rgb color, const depth_test *depth)
{
    if ((x0 < 0 && x1 < 0) || (y0 < 0 && y1 < 0) || (x0 >= c->width && x1 >= c->width) ||
        (y0 >= c->height && y1 >= c->height))
        return;
    long dx = labs((long)x1 - x0), dy = -labs((long)y1 - y0);
    int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
    long err = dx + dy;
    long period = (long)dash + gap, steps = dx > -dy ? dx : -dy;
    for (long step = 0;; step++) {
        if ((period <= 0 || step % period < dash) && in_front(c, depth, x0, y0, steps ? (double)step / steps : 0.0))
            canvas_put(c, x0, y0, color);
        if (x0 == x1 && y0 == y1)
            break;
        long e2 = 2 * err;
        if (e2 >= dy) { err += dy; x0 += sx; }
        if (e2 <= dx) { err += dx; y0 += sy; }
    }
}

void raster_line(canvas *c, int x0, int y0, int x1, int y1, rgb color)
{
    walk_line(c, x0, y0, x1, y1, 1, 0, color, NULL);
}

void raster_dashed_line(canvas *c, int x0, int y0, int x1, int y1, int dash, int gap, rgb color)
{
    walk_line(c, x0, y0, x1, y1, dash, gap, color, NULL);
}

/* Cohen-Sutherland outcode of a point against the box [lo_x, hi_x] x [lo_y, hi_y]. */
enum { LEFT = 1, RIGHT = 2, ABOVE = 4, BELOW = 8 };
static int outcode(double x, double y, double lo_x, double lo_y, double hi_x, double hi_y)
{
    return (x < lo_x ? LEFT : 0) | (x > hi_x ? RIGHT : 0) | (y < lo_y ? ABOVE : 0) |
           (y > hi_y ? BELOW : 0);
}

/* Cohen-Sutherland: moves an outside endpoint onto the boundary it crosses, setting that
 * coordinate exactly and the other one by the segment's slope, so endpoints a universe
 * away still clip accurately. Returns false when the segment misses the box. */
static bool clip_to_box(double *x0, double *y0, double *x1, double *y1, double lo_x, double lo_y,
                        double hi_x, double hi_y)
{
    int c0 = outcode(*x0, *y0, lo_x, lo_y, hi_x, hi_y), c1 = outcode(*x1, *y1, lo_x, lo_y, hi_x, hi_y);
    for (int round = 0; round < 8; round++) {
        if (!(c0 | c1))
            return true;
        if (c0 & c1)
            return false;
        int c = c0 ? c0 : c1;
        double x, y, dx = *x1 - *x0, dy = *y1 - *y0;
        if (c & (LEFT | RIGHT)) {
            x = (c & LEFT) ? lo_x : hi_x;
            y = *y0 + dy * ((x - *x0) / dx);
        } else {
            y = (c & ABOVE) ? lo_y : hi_y;
            x = *x0 + dx * ((y - *y0) / dy);
        }
        if (c == c0) {
            *x0 = x;
            *y0 = y;
            c0 = outcode(x, y, lo_x, lo_y, hi_x, hi_y);
        } else {
            *x1 = x;
            *y1 = y;
            c1 = outcode(x, y, lo_x, lo_y, hi_x, hi_y);
        }
    }
    return !(c0 | c1);
}

void raster_segment(canvas *c, double x0, double y0, double x1, double y1, int dash, int gap,
                    rgb color)
{
    if (!isfinite(x0) || !isfinite(y0) || !isfinite(x1) || !isfinite(y1))
        return;
    if (!clip_to_box(&x0, &y0, &x1, &y1, -1.0, -1.0, c->width + 1.0, c->height + 1.0))
        return;
    /* overflowing slopes (endpoints near DBL_MAX) can leave NaN: never convert those */
    if (!(fabs(x0) <= c->width + 2.0 && fabs(x1) <= c->width + 2.0 && fabs(y0) <= c->height + 2.0 &&
          fabs(y1) <= c->height + 2.0))
        return;
    int ix0 = (int)floor(x0), iy0 = (int)floor(y0), ix1 = (int)floor(x1), iy1 = (int)floor(y1);
    if (dash <= 0)
        raster_line(c, ix0, iy0, ix1, iy1, color);
    else
        raster_dashed_line(c, ix0, iy0, ix1, iy1, dash, gap, color);
}

lab_error raster_depth_init(raster_depth *zb, int width, int height, lab_diag *d)
{
    *zb = (raster_depth){0};
    if (width < 1 || height < 1)
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "depth buffer", "%d x %d", width, height);
    zb->z = malloc((size_t)width * (size_t)height * sizeof *zb->z);
    if (!zb->z)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "depth buffer", "%d x %d", width, height);
    zb->width = width, zb->height = height;
    for (size_t i = 0; i < (size_t)width * height; i++)
        zb->z[i] = INFINITY;
    return LAB_OK;
}

void raster_depth_free(raster_depth *zb)
{
    free(zb->z);
    *zb = (raster_depth){0};
}

/* Twice the signed area of (a, b, p): which side of a -> b the point p is on. */
static double edge_function(double ax, double ay, double bx, double by, double px, double py)
{
    return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

/* Every pixel centre the screen triangle covers, nearest first through the buffer: the
 * buffer keeps the nearer depth; with a canvas, the pixel also takes the corners' colours
 * interpolated there (Gouraud). One walk serves the depth pass and the filled triangles. */
static void cover_triangle(raster_depth *zb, canvas *c, const double x[3], const double y[3], const double z[3],
                           const rgb *color)
{
    for (int k = 0; k < 3; k++)
        if (!isfinite(x[k]) || !isfinite(y[k]) || !isfinite(z[k]))
            return;
    double area = edge_function(x[0], y[0], x[1], y[1], x[2], y[2]);
    if (area == 0.0)
        return; /* seen edge-on: it covers no pixel centre */
    int lo_x = (int)fmax(0.0, floor(fmin(x[0], fmin(x[1], x[2])))), hi_x = (int)fmin(zb->width - 1.0, ceil(fmax(x[0], fmax(x[1], x[2]))));
    int lo_y = (int)fmax(0.0, floor(fmin(y[0], fmin(y[1], y[2])))), hi_y = (int)fmin(zb->height - 1.0, ceil(fmax(y[0], fmax(y[1], y[2]))));
    for (int py = lo_y; py <= hi_y; py++)
        for (int px = lo_x; px <= hi_x; px++) {
            double cx = px + 0.5, cy = py + 0.5; /* the pixel's centre */
            double w0 = edge_function(x[1], y[1], x[2], y[2], cx, cy) / area;
            double w1 = edge_function(x[2], y[2], x[0], y[0], cx, cy) / area;
            double w2 = 1.0 - w0 - w1;
            if (w0 < 0.0 || w1 < 0.0 || w2 < 0.0)
                continue;
            /* screen-space interpolation is exact for NDC depth, orthographic or perspective */
            double depth = w0 * z[0] + w1 * z[1] + w2 * z[2];
            double *cell = &zb->z[(size_t)py * zb->width + px];
            if (!(depth < *cell))
                continue;
            *cell = depth;
            if (c)
                canvas_put(c, px, py,
                           (rgb){(unsigned char)lround(w0 * color[0].r + w1 * color[1].r + w2 * color[2].r),
                                 (unsigned char)lround(w0 * color[0].g + w1 * color[1].g + w2 * color[2].g),
                                 (unsigned char)lround(w0 * color[0].b + w1 * color[1].b + w2 * color[2].b)});
        }
}

void raster_depth_triangle(raster_depth *zb, const double x[3], const double y[3], const double z[3])
{
    cover_triangle(zb, NULL, x, y, z, NULL);
}

void raster_fill_triangle(canvas *c, raster_depth *zb, const double x[3], const double y[3], const double z[3],
                          const rgb color[3])
{
    cover_triangle(zb, c, x, y, z, color);
}

void raster_segment_depth(canvas *c, const raster_depth *zb, double tolerance, double x0, double y0, double z0,
                          double x1, double y1, double z1, rgb color)
{
    if (!isfinite(x0) || !isfinite(y0) || !isfinite(x1) || !isfinite(y1) || !isfinite(z0) || !isfinite(z1))
        return;
    const double ax = x0, ay = y0, dx = x1 - x0, dy = y1 - y0, len2 = dx * dx + dy * dy;
    if (!clip_to_box(&x0, &y0, &x1, &y1, -1.0, -1.0, c->width + 1.0, c->height + 1.0))
        return;
    if (!(fabs(x0) <= c->width + 2.0 && fabs(x1) <= c->width + 2.0 && fabs(y0) <= c->height + 2.0 &&
          fabs(y1) <= c->height + 2.0))
        return;
    /* the depths at the clipped ends, from where they lie along the original segment */
    double t0 = len2 > 0.0 ? ((x0 - ax) * dx + (y0 - ay) * dy) / len2 : 0.0;
    double t1 = len2 > 0.0 ? ((x1 - ax) * dx + (y1 - ay) * dy) / len2 : 0.0;
    depth_test t = {zb, z0 + t0 * (z1 - z0), z0 + t1 * (z1 - z0), tolerance};
    walk_line(c, (int)floor(x0), (int)floor(y0), (int)floor(x1), (int)floor(y1), 1, 0, color, &t);
}

void raster_fill_rect(canvas *c, int x0, int y0, int w, int h, rgb color)
{
    /* clipped to the canvas; the first row pixel by pixel, the others copied from it */
    int xa = x0 < 0 ? 0 : x0, ya = y0 < 0 ? 0 : y0;
    int xb = x0 + w > c->width ? c->width : x0 + w, yb = y0 + h > c->height ? c->height : y0 + h;
    if (xa >= xb || ya >= yb)
        return;
    unsigned char *first = c->rgb + 3 * ((size_t)ya * c->width + (size_t)xa);
    for (int x = 0; x < xb - xa; x++)
        first[3 * x] = color.r, first[3 * x + 1] = color.g, first[3 * x + 2] = color.b;
    for (int y = ya + 1; y < yb; y++)
        memcpy(c->rgb + 3 * ((size_t)y * c->width + (size_t)xa), first, 3 * (size_t)(xb - xa));
}

/* stb_easy_font emits axis-aligned quads, 4 vertices of 16 bytes (x, y, z floats and
 * 4 colour bytes); we fill each quad as a rectangle scaled by an integer factor. */
typedef struct { float x, y, z; unsigned char color[4]; } easy_font_vertex;

/* Counts a label that is cut off or missing. */
static void text_outside(canvas *c, const char *text)
{
    if (c->text_outside++ == 0)
        snprintf(c->first_outside, sizeof c->first_outside, "%s", text);
}

void raster_text(canvas *c, int x, int y, int scale, const char *text, rgb color)
{
    if (x < 0 || y < 0 || x + raster_text_width(text, scale) > c->width ||
        y + raster_text_height(text, scale) > c->height)
        text_outside(c, text);
    /* stb_easy_font_print stops, silently, at the first quad (64 bytes) that does not fit:
     * the header's "~270 bytes per character" is an average; a "0" takes 6 quads (384 bytes)
     * and an "X" 11, so 300 bytes a character cut off the last stroke of "5000". The buffer
     * holds 12 quads a character, and grows should the quads not leave room for one more
     * (then, and only then, nothing was cut). */
    size_t len = strlen(text), room = 64 * 12 * (len + 1);
    char *copy = malloc(len + 1); /* stb_easy_font_print takes a non-const pointer */
    easy_font_vertex *v = NULL;
    int quads = 0;
    while (copy && room <= INT_MAX) {
        free(v);
        if (!(v = malloc(room)))
            break;
        memcpy(copy, text, len + 1);
        quads = stb_easy_font_print(0, 0, copy, NULL, v, (int)room);
        if ((size_t)(quads + 1) * 64 <= room)
            break;
        room *= 2;
    }
    if (!v || !copy || (size_t)(quads + 1) * 64 > room) {
        c->out_of_memory = true; /* not drawn at all */
        free(v), free(copy);
        return;
    }
    for (int q = 0; q < quads; q++) {
        const easy_font_vertex *a = &v[4 * q], *b = &v[4 * q + 2];
        int qx0 = (int)lround(a->x * scale), qy0 = (int)lround(a->y * scale);
        int qx1 = (int)lround(b->x * scale), qy1 = (int)lround(b->y * scale);
        raster_fill_rect(c, x + qx0, y + qy0, qx1 - qx0, qy1 - qy0, color);
    }
    free(copy);
    free(v);
}

int raster_text_width(const char *text, int scale)
{
    return scale * stb_easy_font_width((char *)text);
}

int raster_text_height(const char *text, int scale)
{
    return scale * stb_easy_font_height((char *)text);
}

void canvas_blit(canvas *dst, const canvas *src, int x, int y)
{
    /* the part of src inside dst, a row at a time */
    int i0 = x < 0 ? -x : 0, j0 = y < 0 ? -y : 0;
    int i1 = src->width < dst->width - x ? src->width : dst->width - x;
    int j1 = src->height < dst->height - y ? src->height : dst->height - y;
    for (int j = j0; j < j1 && i0 < i1; j++)
        memcpy(dst->rgb + 3 * ((size_t)(y + j) * dst->width + (size_t)(x + i0)),
               src->rgb + 3 * ((size_t)j * src->width + (size_t)i0), 3 * (size_t)(i1 - i0));
}

void canvas_blit_scaled(canvas *dst, const canvas *src, int x, int y, int w, int h)
{
    if (w < 1 || h < 1 || src->width < 1 || src->height < 1)
        return;
    /* destination pixel (i, j) covers source columns [i W / w, (i + 1) W / w) and rows
     * likewise, in integers (at least one of each: the nearest where it grows) */
    for (int j = 0; j < h; j++) {
        int y0 = (int)((long long)j * src->height / h), y1 = (int)((long long)(j + 1) * src->height / h);
        y1 = y1 > y0 ? y1 : y0 + 1;
        for (int i = 0; i < w; i++) {
            if (!canvas_contains(dst, x + i, y + j))
                continue;
            int x0 = (int)((long long)i * src->width / w), x1 = (int)((long long)(i + 1) * src->width / w);
            x1 = x1 > x0 ? x1 : x0 + 1;
            unsigned long long sum[3] = {0, 0, 0}, n = (unsigned long long)(x1 - x0) * (unsigned long long)(y1 - y0);
            for (int v = y0; v < y1; v++)
                for (int u = x0; u < x1; u++)
                    for (int k = 0; k < 3; k++)
                        sum[k] += src->rgb[3 * ((size_t)v * (size_t)src->width + (size_t)u) + (size_t)k];
            canvas_put(dst, x + i, y + j,
                       (rgb){(unsigned char)((sum[0] + n / 2) / n), (unsigned char)((sum[1] + n / 2) / n),
                             (unsigned char)((sum[2] + n / 2) / n)});
        }
    }
}
