/* grade30_figure.c - the pictures of exercises 1, 2, 6 and 7, drawn in a plane (declared in
 * grade30_table.h), and what every picture shares (grade30_figure.h): the student's points made
 * in the grading child, drawn here beside the lab's, which this file computes with the
 * library (the hierarchy product, the palette, the blends, the closed forms). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "draw/camera.h"
#include "draw/diagram.h"
#include "draw/figure.h"
#include "draw/plot.h"
#include "draw/raster.h"
#include "math/dualquat.h"
#include "math/linalg.h"
#include "math/quat.h"
#include "mesh/mesh.h"
#include "skin/blend.h"
#include "skin/influences.h"

#include "grade30_figure.h"
#include "grade30_table.h"
#include "rig30.h"
#include "rig30_check.h"


/* A diagram panel with the legend under its title. */
static lab_error diagram_panel(diagram *g, canvas *c, double ox, double oy, double scale, const char *title,
                               lab_diag *d)
{
    lab_error e = diagram_init(g, c, W, H, ox, oy, scale, title, d);
    if (e == LAB_OK) {
        raster_text(c, 8, H - 30, FIGURE_TEXT_SCALE, "green: the lab's", LABS);
        raster_text(c, 220, H - 30, FIGURE_TEXT_SCALE, "red (dashed): yours", YOURS);
    }
    return e;
}

/* A polyline of n points (the student's may be anything: the rasterizer skips what is not
 * finite and clips the rest). */
static void polyline(const diagram *g, const vec3 *p, int n, int dash, rgb color)
{
    for (int i = 0; i + 1 < n; i++)
        diagram_segment(g, p[i].x, p[i].y, p[i + 1].x, p[i + 1].y, dash, color);
}

static void not_drawn(canvas *c, const char *why) { raster_text(c, 8, H - 56, FIGURE_TEXT_SCALE, why, YOURS); }

/* Whether n points are all finite and within 100 of the origin (the student's may be anything). */
bool grade30_finite_and_near(const vec3 *p, int n)
{
    for (int i = 0; i < n; i++)
        if (!vec3_is_finite(p[i]) || vec3_length(p[i]) > 100)
            return false;
    return true;
}

/* ---- 1. the world matrix on the hand control's chain ---------------------------------- */

/* A bone of length 1 along the child's x with a hand at its end, in the child's frame. */
static const vec3 hand_shape[] = {{0, 0, 0}, {1, 0, 0}, {1.25, 0.2, 0}, {1, 0, 0}, {1.25, -0.2, 0}};
#define HAND_POINTS ((int)(sizeof hand_shape / sizeof hand_shape[0]))

static mat4 chain_parent(void) { return mat4_mul(mat4_translate(0, 1, 0), mat4_rotate_z(deg_to_rad(90))); }
static mat4 chain_local(void) { return mat4_mul(mat4_translate(1, 0, 0), mat4_rotate_z(deg_to_rad(30))); }

void grade30_points_world(grade_fn g, const grade30_case *failing, grade30_picture_data *out)
{
    grade30_fn f = grade30_fn_of(g);
    (void)failing; /* the named pose shows this exercise's mistakes */
    mat4 world = f.world_matrix(chain_parent(), chain_local());
    out->count = HAND_POINTS, out->drawn = true;
    for (int i = 0; i < HAND_POINTS; i++)
        out->yours[i] = mat4_transform_point(world, hand_shape[i]);
}

/* The hand control's plane: a shape under the lab's matrix (green) and yours (red), the
 * bind shape in grey when given. */
static lab_error hand_panel(diagram *g, canvas *out, const char *title, mat4 lab, const vec3 *shape, int n,
                            bool grey, const grade30_picture_data *yours, lab_diag *d)
{
    lab_error e = diagram_panel(g, out, 250, 268, 66, title, d);
    if (e != LAB_OK)
        return e;
    diagram_axes(g, -2.4, 1.6, -0.4, 3.1, 1, "x", "y");
    vec3 p[16];
    for (int i = 0; i < n && i < 16; i++)
        p[i] = mat4_transform_point(lab, shape[i]);
    if (grey)
        polyline(g, shape, n, 0, DIAGRAM_GREY);
    polyline(g, p, n, 0, LABS);
    if (yours->drawn)
        polyline(g, yours->yours, yours->count, 4, YOURS);
    else
        not_drawn(out, "yours: not drawn (see the verdict)");
    return LAB_OK;
}

lab_error grade30_draw_world(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    diagram g;
    mat4 parent = chain_parent();
    lab_error e = hand_panel(&g, out, "1. the world matrix on the hand control:\nG_parent = Ty(1) Rz(90), L = Tx(1) Rz(30)",
                             mat4_mul(parent, chain_local()), hand_shape, HAND_POINTS, false, yours, d);
    if (e != LAB_OK)
        return e;
    vec3 bone[2] = {mat4_transform_point(parent, vec3_make(0, 0, 0)), mat4_transform_point(parent, vec3_make(1, 0, 0))};
    diagram_segment(&g, 0, 0, bone[0].x, bone[0].y, 4, DIAGRAM_GREY);
    polyline(&g, bone, 2, 0, DIAGRAM_BLUE);
    diagram_label(&g, bone[0].x, bone[0].y, DIAGRAM_BLUE, DIAGRAM_RIGHT, "parent");
    return LAB_OK;
}

/* ---- 2. the skin matrix on the hand control ------------------------------------------- */

/* The hand control's point p = (1, 1, 0) with a square about it and its bone from the
 * joint at (0, 1), in the bind pose. */
static const vec3 bind_shape[] = {{0, 1, 0}, {1, 1, 0}, {1.2, 1.2, 0}, {0.8, 1.2, 0}, {0.8, 0.8, 0},
                                  {1.2, 0.8, 0}, {1.2, 1.2, 0}};
#define BIND_POINTS ((int)(sizeof bind_shape / sizeof bind_shape[0]))

void grade30_points_skin(grade_fn g, const grade30_case *failing, grade30_picture_data *out)
{
    grade30_fn f = grade30_fn_of(g);
    (void)failing; /* the named pose shows this exercise's mistakes */
    mat4 c = f.skin_matrix(mat4_mul(mat4_translate(0, 1, 0), mat4_rotate_z(deg_to_rad(90))), mat4_translate(0, -1, 0));
    out->count = BIND_POINTS, out->drawn = true;
    for (int i = 0; i < BIND_POINTS; i++)
        out->yours[i] = mat4_transform_point(c, bind_shape[i]);
}

lab_error grade30_draw_skin(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    diagram g;
    mat4 c = mat4_mul(mat4_mul(mat4_translate(0, 1, 0), mat4_rotate_z(deg_to_rad(90))), mat4_translate(0, -1, 0));
    return hand_panel(&g, out, "2. the skin matrix on the hand control:\nG = Ty(1) Rz(90), B = Ty(1); grey: bind", c,
                      bind_shape, BIND_POINTS, true, yours, d);
}

/* ---- 6. the DQS blend on a ring ------------------------------------------------------- */

/* The root, and the child turned 160 deg about z and moved by (0.5, 0, 0), given as -q^. */
void grade30_ring_joints(dualquat q[2])
{
    q[0] = dualquat_identity();
    q[1] = dualquat_scale(dualquat_from_rigid(quat_from_axis_angle(vec3_make(0, 0, 1), deg_to_rad(160)),
                                              vec3_make(0.5, 0, 0)),
                          -1);
}

vec3 grade30_ring_point(int i)
{
    double a = 2 * LAB_PI * i / GRADE30_RING;
    return vec3_make(cos(a), sin(a), 1);
}

/* The ring's points under a blend (normalised by the lab); false when it cannot be. */
static bool ring_under(dualquat blend, vec3 *out)
{
    dualquat unit;
    if (dualquat_normalize(blend, &unit, "grade30", NULL) != LAB_OK)
        return false;
    for (int i = 0; i <= GRADE30_RING; i++)
        out[i] = dualquat_transform_point(unit, grade30_ring_point(i % GRADE30_RING));
    return true;
}

void grade30_points_dqs(grade_fn g, const grade30_case *failing, grade30_picture_data *out)
{
    grade30_fn f = grade30_fn_of(g);
    (void)failing; /* the named pose shows this exercise's mistakes */
    dualquat q[2];
    grade30_ring_joints(q);
    const double w[2] = {0.6, 0.4};
    out->count = GRADE30_RING + 1;
    out->drawn = ring_under(f.dqs_blend(q, w, 2), out->yours);
}

lab_error grade30_draw_dqs(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    return grade30_draw_ring("6. DQS on a ring: weights 0.6 and 0.4,\nthe child -q^ of Rz(160) moved (0.5, 0, 0)\ngrey: the bind pose",
                             yours, out, d);
}

lab_error grade30_draw_ring(const char *title, const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    diagram g;
    lab_error e = diagram_panel(&g, out, 250, 185, 70, title, d);
    if (e != LAB_OK)
        return e;
    diagram_axes(&g, -2.2, 2.2, -1.5, 1.5, 1, "x", "y");
    dualquat q[2];
    grade30_ring_joints(q);
    const double w[2] = {0.6, 0.4};
    vec3 bind[GRADE30_RING + 1], lab[GRADE30_RING + 1];
    for (int i = 0; i <= GRADE30_RING; i++)
        bind[i] = grade30_ring_point(i % GRADE30_RING);
    polyline(&g, bind, GRADE30_RING + 1, 0, DIAGRAM_GREY);
    if (ring_under(dualquat_blend(q, w, 2, true), lab)) {
        polyline(&g, lab, GRADE30_RING + 1, 0, LABS);
        diagram_point(&g, lab[0].x, lab[0].y, LABS, DIAGRAM_RIGHT, "v0");
    }
    if (yours->drawn) {
        polyline(&g, yours->yours, GRADE30_RING + 1, 4, YOURS);
        if (grade30_finite_and_near(yours->yours, 1) && fabs(yours->yours[0].x) < 2 && fabs(yours->yours[0].y) < 1.5)
            diagram_point(&g, yours->yours[0].x, yours->yours[0].y, YOURS, DIAGRAM_LEFT, "v0");
    } else {
        not_drawn(out, "yours: not drawn (see the verdict)");
    }
    return LAB_OK;
}

/* ---- 7. the normal matrix on a sheared plane ------------------------------------------ */

enum { SAMPLES = 9 };

/* The plane y = 0, sheared (y += 0.8 x) and scaled unevenly. */
static mat4 sheared(void)
{
    mat4 m = mat4_scale(1.5, 0.7, 1);
    m.m[1][0] = 0.8 * 0.7;
    return m;
}

void grade30_points_normal(grade_fn g, const grade30_case *failing, grade30_picture_data *out)
{
    grade30_fn f = grade30_fn_of(g);
    (void)failing; /* the named pose shows this exercise's mistakes */
    mat4 n = f.normal_matrix(sheared());
    out->count = 1, out->drawn = true;
    out->yours[0] = vec3_normalize(mat4_transform_direction(n, vec3_make(0, 1, 0)));
}

lab_error grade30_draw_normal(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    diagram g;
    lab_error e = diagram_panel(&g, out, 250, 186, 70,
                                "7. normals of the plane y = 0 under\nshear y += 0.8 x, then S(1.5, 0.7, 1)", d);
    if (e != LAB_OK)
        return e;
    diagram_axes(&g, -2.4, 2.4, -1.4, 1.8, 1, "x", "y");
    mat4 m = sheared();
    /* the true normal: the cross product of the surface's turned tangents (z, then x) */
    vec3 truth = vec3_normalize(vec3_cross(mat4_transform_direction(m, vec3_make(0, 0, 1)),
                                           mat4_transform_direction(m, vec3_make(1, 0, 0))));
    vec3 a = mat4_transform_point(m, vec3_make(-1.3, 0, 0)), b = mat4_transform_point(m, vec3_make(1.3, 0, 0));
    diagram_segment(&g, a.x, a.y, b.x, b.y, 0, FIGURE_EDGE);
    for (int i = 0; i < SAMPLES; i++) {
        vec3 p = mat4_transform_point(m, vec3_make(-1.2 + 2.4 * i / (SAMPLES - 1), 0, 0));
        diagram_segment(&g, p.x, p.y, p.x + 0.6 * truth.x, p.y + 0.6 * truth.y, 0, LABS);
        if (yours->drawn)
            diagram_segment(&g, p.x, p.y, p.x + 0.45 * yours->yours[0].x, p.y + 0.45 * yours->yours[0].y, 3, YOURS);
    }
    if (!yours->drawn)
        not_drawn(out, "yours: not drawn (see the verdict)");
    return LAB_OK;
}

