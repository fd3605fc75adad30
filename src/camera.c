/* camera.c - the space chain from world to pixels (see camera.h). */
#include "camera.h"

#include <math.h>

mat4 camera_look_at(vec3 eye, vec3 target, vec3 up)
{
    vec3 back = vec3_normalize(vec3_sub(eye, target));   /* camera +z points away */
    vec3 right = vec3_normalize(vec3_cross(up, back));
    vec3 true_up = vec3_cross(back, right);
    /* Rows are the camera axes (rotation R^T), then translate by -R^T eye. */
    mat4 v = mat4_identity();
    const vec3 axes[3] = {right, true_up, back};
    for (int i = 0; i < 3; i++) {
        v.m[i][0] = axes[i].x;
        v.m[i][1] = axes[i].y;
        v.m[i][2] = axes[i].z;
        v.m[i][3] = -vec3_dot(axes[i], eye);
    }
    return v;
}

mat4 camera_orthographic(double left, double right, double bottom, double top, double near,
                         double far)
{
    mat4 p = mat4_identity();
    p.m[0][0] = 2.0 / (right - left);
    p.m[0][3] = -(right + left) / (right - left);
    p.m[1][1] = 2.0 / (top - bottom);
    p.m[1][3] = -(top + bottom) / (top - bottom);
    p.m[2][2] = -2.0 / (far - near);          /* view z = -near -> -1, -far -> +1 */
    p.m[2][3] = -(far + near) / (far - near);
    return p;
}

vec3 camera_divide(vec4 clip) { return vec3_make(clip.x / clip.w, clip.y / clip.w, clip.z / clip.w); }

vec3 camera_viewport(vec3 ndc, camera_viewport_rect rect)
{
    return vec3_make(rect.x + 0.5 * (ndc.x + 1.0) * rect.width,
                     rect.y + 0.5 * (1.0 - ndc.y) * rect.height, /* +y up -> row 0 on top */
                     ndc.z);
}

vec3 camera_project(const camera *cam, vec3 world_point)
{
    vec4 view = mat4_mul_vec4(cam->view, vec4_point(world_point));
    vec4 clip = mat4_mul_vec4(cam->projection, view);
    return camera_viewport(camera_divide(clip), cam->viewport);
}

mat4 camera_fit_orthographic(mat4 view, const vec3 *points, int count, double margin,
                             camera_viewport_rect rect)
{
    vec3 lo = {INFINITY, INFINITY, INFINITY}, hi = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = 0; i < count; i++) {
        vec3 q = mat4_transform_point(view, points[i]);
        lo = vec3_make(fmin(lo.x, q.x), fmin(lo.y, q.y), fmin(lo.z, q.z));
        hi = vec3_make(fmax(hi.x, q.x), fmax(hi.y, q.y), fmax(hi.z, q.z));
    }
    double w = hi.x - lo.x, h = hi.y - lo.y;
    double cx = 0.5 * (lo.x + hi.x), cy = 0.5 * (lo.y + hi.y);
    w *= 1.0 + 2.0 * margin;
    h *= 1.0 + 2.0 * margin;
    double aspect = (double)rect.width / rect.height;
    if (w / h < aspect)
        w = h * aspect;
    else
        h = w / aspect;
    double depth = hi.z - lo.z + 1.0;
    /* view space looks down -z: near/far are distances in front of the eye */
    return camera_orthographic(cx - 0.5 * w, cx + 0.5 * w, cy - 0.5 * h, cy + 0.5 * h,
                               -hi.z - depth, -lo.z + depth);
}
