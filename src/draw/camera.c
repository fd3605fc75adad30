/* camera.c - the space chain from world to pixels (see camera.h). */
#include "draw/camera.h"

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

mat4 camera_perspective(double fovy_radians, double aspect, double near, double far)
{
    double f = 1.0 / tan(0.5 * fovy_radians);
    mat4 p = {{{0}}};
    p.m[0][0] = f / aspect;
    p.m[1][1] = f;
    p.m[2][2] = -(far + near) / (far - near);  /* view z = -near -> -1, -far -> +1 */
    p.m[2][3] = -2.0 * far * near / (far - near);
    p.m[3][2] = -1.0;                           /* w = -z_view: the distance ahead */
    return p;
}

bool camera_clip_near(vec4 *a, vec4 *b)
{
    double da = a->z + a->w, db = b->z + b->w; /* signed distance to the near plane */
    if (da < 0.0 && db < 0.0)
        return false;
    if (da < 0.0)
        *a = vec4_add(*a, vec4_scale(vec4_add(*b, vec4_scale(*a, -1.0)), da / (da - db)));
    else if (db < 0.0)
        *b = vec4_add(*b, vec4_scale(vec4_add(*a, vec4_scale(*b, -1.0)), db / (db - da)));
    return true;
}

vec3 camera_divide(vec4 clip) { return vec3_make(clip.x / clip.w, clip.y / clip.w, clip.z / clip.w); }

vec3 camera_viewport(vec3 ndc, camera_viewport_rect rect)
{
    return vec3_make(rect.x + 0.5 * (ndc.x + 1.0) * rect.width,
                     rect.y + 0.5 * (1.0 - ndc.y) * rect.height, /* +y up -> row 0 on top */
                     ndc.z);
}

/* view then projection, one matrix at a time, as the chain reads */
static vec4 to_clip(const camera *cam, vec3 world_point)
{
    return mat4_mul_vec4(cam->projection, mat4_mul_vec4(cam->view, vec4_point(world_point)));
}

vec3 camera_project(const camera *cam, vec3 world_point)
{
    return camera_viewport(camera_divide(to_clip(cam, world_point)), cam->viewport);
}

bool camera_project_segment(const camera *cam, vec3 a, vec3 b, vec3 *out_a, vec3 *out_b)
{
    vec4 ca = to_clip(cam, a), cb = to_clip(cam, b);
    if (!camera_clip_near(&ca, &cb))
        return false;
    *out_a = camera_viewport(camera_divide(ca), cam->viewport);
    *out_b = camera_viewport(camera_divide(cb), cam->viewport);
    return true;
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
