/* figure.h - wireframe panels and figures drawn by our rasterizer.
 *
 * A panel is the bind topology's edges at the deformed positions, pushed through
 * camera_project (look_at -> projection -> divide -> viewport) and drawn as integer
 * segments: the plain edges first, then a dashed axis, then the highlighted edges and a
 * small square marker on each highlighted vertex, then the label lines on top. Colours are
 * exact (no anti-aliasing), so tests can find the highlight by its colour.
 */
#ifndef FIGURE_H
#define FIGURE_H

#include <stdbool.h>
#include <stddef.h>

#include "draw/camera.h"
#include "mesh/mesh.h"
#include "draw/raster.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FIGURE_BACKGROUND ((rgb){255, 255, 255})
#define FIGURE_EDGE ((rgb){64, 64, 72})          /* dark neutral */
#define FIGURE_HIGHLIGHT ((rgb){255, 140, 0})    /* orange */
#define FIGURE_AXIS ((rgb){40, 90, 200})         /* dashed blue */
#define FIGURE_BAND ((rgb){0, 150, 136})         /* teal: a blended band of edges */
#define FIGURE_TEXT ((rgb){0, 0, 0})
#define FIGURE_TEXT_SCALE 2                      /* stb_easy_font units -> pixels */
#define FIGURE_MARKER_HALF 2                     /* highlighted vertices: 5x5 squares */

typedef struct {
    const vec3 *positions;        /* deformed positions, one per bind vertex */
    const mesh_edge *edges;       /* the bind topology's unique edges */
    int edge_count;
    const bool *highlight;        /* per edge, or NULL: orange, with vertex markers */
    const bool *band;             /* per edge, or NULL: teal (highlight wins) */
    vec3 axis_from, axis_to;      /* drawn dashed; equal points draw nothing */
    const char *const *label;     /* lines of text at the top left */
    int label_lines;
    /* Hidden lines: with `triangles` (the bind topology's, at `positions`) and hidden_lines
     * set, a depth pass over the triangles comes first and every edge and marker is drawn
     * only where it is no more than FIGURE_HIDDEN_TOLERANCE behind the nearest surface.
     * Off by default: the article's figures draw every edge. */
    const mesh_triangle *triangles;
    int triangle_count;
    bool hidden_lines;
} figure_panel;
/* In NDC depth (the cameras' near and far planes are fitted to what they show, so the
 * figure's depth spans about [-1, 1]): 1% of it. An edge of the surface differs from the
 * surface's depth at a pixel by the sampling of that pixel; an edge behind it, by far more. */
#define FIGURE_HIDDEN_TOLERANCE 0.02

/* Draws one panel onto c (already cleared) through cam. A depth buffer that cannot be
 * allocated marks c out of memory (the figure is then refused as such). */
void figure_draw_panel(canvas *c, const camera *cam, const figure_panel *panel);

/* A shaded surface: its triangles filled through a z-buffer, each corner's colour either
 * given (colors) or the Lambert shade of `base` under one directional light,
 * base * max(0, n . l) with n the vertex's unit normal and l the unit direction towards the
 * light, interpolated across the triangle (Gouraud). A wrong normal is wrong light. */
typedef struct {
    const vec3 *positions;
    const vec3 *normals;          /* unit, per vertex; used when colors is NULL */
    const rgb *colors;            /* per vertex, or NULL */
    const mesh_triangle *triangles;
    int triangle_count;
    vec3 light;                   /* towards the light, unit */
    rgb base;
} figure_surface;
/* The Lambert factor max(0, n . l). */
double figure_lambert(vec3 n, vec3 l);
/* Draws the surface onto c through cam; a depth buffer that cannot be allocated marks c out
 * of memory. */
void figure_draw_surface(canvas *c, const camera *cam, const figure_surface *s);

/* The height `lines` one-line labels take at the top of a panel, as figure_draw_panel lays
 * them out (and figure_draw_label): a camera viewport that starts this far down never draws
 * under them, whatever the pose. */
int figure_label_height(int lines);
/* Line k (from 0) of a panel's label, where figure_draw_panel puts it. */
void figure_draw_label(canvas *c, int k, const char *text);

/* Segments a[i]-b[i] in world space through cam (near-clipped), each in its colour. */
void figure_draw_lines(canvas *c, const camera *cam, const vec3 *a, const vec3 *b,
                       const rgb *colors, int count);

/* The error colour scale: green at 0, yellow at max/2, red at max and beyond. */
rgb figure_error_color(double value, double max);
/* A horizontal bar of that scale at (x, y), w x h pixels, labelled "0" and "<max> deg" beside
 * its ends in the figures' text size: the labels reach from x - 18 to x + w + 4 + the width
 * of "<max> deg", and 12 pixels above and below the bar's middle. */
void figure_error_bar(canvas *c, int x, int y, int w, int h, double max);

/* Lays panels side by side under a title line, `gap` pixels apart and around. */
lab_error figure_compose(canvas *out, const canvas *panels, int count, int gap, const char *title,
                         lab_diag *d);
/* The same on a grid: panels fill rows of `columns`, in order; every cell is as large as
 * the largest panel. */
lab_error figure_compose_grid(canvas *out, const canvas *panels, int count, int columns, int gap,
                              const char *title, lab_diag *d);

/* One orthographic camera for several panels that must compare at the same scale: it
 * looks from eye at target (+z up), and its window fits every point of every set (sets[i]
 * holds set_count[i] points, e.g. one pose's positions) with `margin`, inside viewport.
 * With no points at all, the window is [-1, 1]^2. */
lab_error figure_fit_camera(camera *out, vec3 eye, vec3 target, const vec3 *const *sets,
                            const int *set_count, int sets_n, double margin,
                            camera_viewport_rect viewport, lab_diag *d);

/* An angle for a file name: whole degrees as three digits ("090", "-045"), others in
 * their shortest round-trip form with 'p' for the point ("12p5"). buf needs 40 bytes. */
char *figure_angle_tag(char *buf, size_t size, double deg);

#ifdef __cplusplus
}
#endif

#endif
