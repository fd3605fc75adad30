/* camera.h - from world space to pixels: look_at, orthographic projection,
 * homogeneous divide, viewport.
 *
 *   view       camera_look_at: eye -> origin, looking down -z, up -> +y (right-handed)
 *   clip       camera_orthographic: the box [l,r]x[b,t]x[-n,-f] (view space) -> [-1,1]^3
 *              camera_perspective: the frustum with vertical field of view fovy; w = -z_view
 *   (clip)     camera_clip_near: segments are cut at the near plane z_clip = -w_clip
 *              BEFORE the divide; a point behind the eye has w < 0, and dividing by it
 *              would mirror it to the other side of the screen
 *   NDC        camera_divide: (x/w, y/w, z/w)
 *   pixels     camera_viewport: NDC x = -1 -> left edge, NDC y = +1 -> top row (row 0),
 *              because images are stored top row first.
 * Pixel (i, j) covers [i, i+1) x [j, j+1); a point lands in pixel (floor x, floor y).
 */
#ifndef CAMERA_H
#define CAMERA_H

#include <stdbool.h>

#include "math/linalg.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A rectangle of the image the NDC square is mapped onto, in pixels. */
typedef struct { int x, y, width, height; } camera_viewport_rect;

typedef struct {
    mat4 view;
    mat4 projection;
    camera_viewport_rect viewport;
} camera;

mat4 camera_look_at(vec3 eye, vec3 target, vec3 up);
mat4 camera_orthographic(double left, double right, double bottom, double top, double near,
                         double far);
mat4 camera_perspective(double fovy_radians, double aspect, double near, double far);
vec3 camera_divide(vec4 clip);
/* Cuts the clip-space segment [*a, *b] to the half-space in front of the near plane
 * (z + w >= 0). Returns false when it lies wholly behind. */
bool camera_clip_near(vec4 *a, vec4 *b);
vec3 camera_viewport(vec3 ndc, camera_viewport_rect rect);   /* z passes through */
vec3 camera_project(const camera *cam, vec3 world_point);    /* the whole chain, one point */
/* The whole chain for a segment: view, projection, near clipping, divide, viewport.
 * Returns false when nothing of it is in front of the near plane. */
bool camera_project_segment(const camera *cam, vec3 a, vec3 b, vec3 *out_a, vec3 *out_b);

/* An orthographic box in view space that holds every point (after `view`) with a margin
 * of `margin` times its size on each side, widened in x or y to the viewport's aspect
 * ratio so the picture is not stretched. */
mat4 camera_fit_orthographic(mat4 view, const vec3 *points, int count, double margin,
                             camera_viewport_rect rect);

#ifdef __cplusplus
}
#endif

#endif
