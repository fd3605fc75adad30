/* grade30_figure.h - what the pictures' two files (grade30_figure.c, grade30_figure_plots.c)
 * share: the panel's size, the colours of the lab's and the student's, and the check that
 * a student's points can be drawn. */
#ifndef GRADE30_FIGURE_H
#define GRADE30_FIGURE_H

#include <stdbool.h>

#include "draw/diagram.h"
#include "math/dualquat.h"
#include "math/linalg.h"
#include "draw/raster.h"

#include "grade30_table.h"

#define W GRADE30_PICTURE_W
#define H GRADE30_PICTURE_H
#define YOURS ((rgb){220, 40, 40})
#define LABS DIAGRAM_GREEN

/* Whether n points are all finite and within 100 of the origin (the student's may be anything). */
bool grade30_finite_and_near(const vec3 *p, int n);

/* The chapter's cylinder at a 120 degree twist by LBS, the lab's beside the student's
 * points (216, in the rig's vertex order): exercises 3, 10 and 22. */
lab_error grade30_draw_cylinder(const char *lab_title, const char *your_title, const grade30_picture_data *yours,
                                canvas *out, lab_diag *d);
/* The DQS ring of exercise 6 (the root and the child -q^ of Rz(160) moved (0.5, 0, 0),
 * weights 0.6 and 0.4): the lab's beside the student's points (25), under `title`. */
lab_error grade30_draw_ring(const char *title, const grade30_picture_data *yours, canvas *out, lab_diag *d);
void grade30_ring_joints(dualquat q[2]);
vec3 grade30_ring_point(int i);
enum { GRADE30_RING = 24 };

#endif
