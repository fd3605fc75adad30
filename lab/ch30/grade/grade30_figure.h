/* grade30_figure.h - what the pictures' two files (grade30_figure.c, grade30_figure_plots.c)
 * share: the panel's size, the colours of the lab's and the student's, and the check that
 * a student's points can be drawn. */
#ifndef GRADE30_FIGURE_H
#define GRADE30_FIGURE_H

#include <stdbool.h>

#include "draw/diagram.h"
#include "math/linalg.h"

#include "grade30_table.h"

#define W GRADE30_PICTURE_W
#define H GRADE30_PICTURE_H
#define YOURS ((rgb){220, 40, 40})
#define LABS DIAGRAM_GREEN

/* Whether n points are all finite and within 100 of the origin (the student's may be anything). */
bool grade30_finite_and_near(const vec3 *p, int n);

#endif
