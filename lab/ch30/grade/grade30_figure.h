/* grade30_figure.h - what several exercises' pictures share (grade30_figure.c): the panel's
 * size, the colours of the lab's and the student's, the panels and the rigs more than one
 * picture draws on. */
#ifndef GRADE30_FIGURE_H
#define GRADE30_FIGURE_H

#include <stdbool.h>

#include "draw/diagram.h"
#include "draw/raster.h"
#include "math/dualquat.h"
#include "math/linalg.h"

#include "grade30_table.h"
#include "rig30.h"

#define W GRADE30_PICTURE_W
#define H GRADE30_PICTURE_H
#define YOURS ((rgb){220, 40, 40})
#define LABS DIAGRAM_GREEN
enum { GRADE30_RING = 24 };


enum { MIDDLE = RIG30_RINGS / 2 };
#define FIX_DEG 180.0

/* The middle ring's vertices at the twist's 180 degrees: each one's bind position, centre,
 * delta (after skinning), influences, blended matrix and rotation; false when the rig could
 * not be built. */
typedef struct {
    vec3 p[RIG30_SEGMENTS], centre[RIG30_SEGMENTS], delta[RIG30_SEGMENTS];
    int joint[RIG30_SEGMENTS][2];
    double weight[RIG30_SEGMENTS][2];
    mat4 palette[RIG30_JOINTS], blend[RIG30_SEGMENTS];
    quat rotation[RIG30_SEGMENTS];
} middle_ring;

#define TWIST_DEG 120.0
enum { VERTICES = RIG30_RINGS * RIG30_SEGMENTS };

/* Exercise 6's ring with one part the student's: the joints' dual quaternions, the
 * normalisation, or the point transform; the rest the lab's. */
typedef enum { YOUR_JOINTS, YOUR_NORMALISATION, YOUR_TRANSFORM } ring_part;

enum { TURN_STEPS = 120 };

/* A diagram panel with the legend under its title. */
lab_error grade30_diagram_panel(diagram *g, canvas *c, double ox, double oy, double scale, const char *title,
                               lab_diag *d);

/* A polyline of n points (the student's may be anything: the rasterizer skips what is not
 * finite and clips the rest). */
void grade30_polyline(const diagram *g, const vec3 *p, int n, int dash, rgb color);

void grade30_not_drawn(canvas *c);

/* Whether n points are all finite and within 100 of the origin (the student's may be anything). */
bool grade30_finite_and_near(const vec3 *p, int n);

/* The hand control's plane: a shape under the lab's matrix (green) and yours (red), the
 * bind shape in grey when given. */
lab_error grade30_hand_panel(diagram *g, canvas *out, const char *title, mat4 lab, const vec3 *shape, int n,
                            bool grey, const grade30_picture_data *yours, lab_diag *d);

/* The root, and the child turned 160 deg about z and moved by (0.5, 0, 0), given as -q^. */
void grade30_ring_joints(dualquat q[2]);

vec3 grade30_ring_point(int i);

/* The ring's points under a blend (normalised by the lab); false when it cannot be. */
bool grade30_ring_under(dualquat blend, vec3 *out);

lab_error grade30_draw_ring(const char *title, const grade30_picture_data *yours, canvas *out, lab_diag *d);

bool grade30_ring_at_180(middle_ring *m);

void grade30_fix_points(grade30_fn f, bool cor, grade30_picture_data *out);

lab_error grade30_fix_draw(bool cor, const grade30_picture_data *yours, canvas *out, lab_diag *d);

/* The chapter's rig and its palette at the twist (the lab's). */
lab_error grade30_twist_rig(rig30_rig *rig, mat4 palette[RIG30_JOINTS], lab_diag *d);

lab_error grade30_draw_cylinder(const char *lab_title, const char *your_title, const grade30_picture_data *yours,
                                canvas *out, lab_diag *d);

/* A diagram panel with the legend under its title. */
lab_error grade30_panel(diagram *g, canvas *c, double ox, double oy, double scale, const char *title, lab_diag *d);

extern const double grade30_ring_w[2];

void grade30_dq_ring(grade30_fn f, ring_part part, grade30_picture_data *out);

extern const double grade30_turn_weights[2];

double grade30_turn_theta_deg(int i);

void grade30_turn_points(grade30_fn f, grade30_picture_data *out);

/* An angle in degrees within (-180, 180] (the grade takes it up to whole turns). */
double grade30_wrapped_deg(double radians);

lab_error grade30_turn_plot(bool dqs, const grade30_picture_data *yours, canvas *out, lab_diag *d);

lab_error grade30_blank(canvas *out, const char *title, lab_diag *d);

/* Paired bars of n values from `low` to `high`: the lab's (filled) and yours (outlined), with labels. */
void grade30_bars(canvas *out, int top, int height, const double *lab, const double *mine, bool drawn, int n, double low,
                 double high, const char *const *labels);

#endif
