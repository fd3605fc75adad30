/* exercises@NN@.h - the formulas of chapter @NN@ a student writes and `make grade@NN@` grades
 * (grade/), in the lab's conventions (src/math/linalg.h): column vectors, p' = M p,
 * radians inside. The shipped bodies of exercises.c say NOT_WRITTEN_YET(); and return a
 * placeholder: the grader reports such an exercise as "not written yet". Delete that line
 * when you write the body. Any function of src/math/ may be called; a body computes from its
 * arguments alone (the grader calls each case twice, in two orders). Each sheet is compiled
 * on its own; M_PI and LAB_PI may be used.
 */
#ifndef EXERCISES@NN@_H
#define EXERCISES@NN@_H

#include <math.h>
#include <stdbool.h>

#include "math/linalg.h"

/* pi: M_PI (defined here where C11's <math.h> does not) or LAB_PI, the same double */
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* Set by a body that is not written yet; the grader clears it before each call. */
extern bool grade_not_written;
#define NOT_WRITTEN_YET() (grade_not_written = true)

/* 1. "The bone turns the mesh": the point p turned by theta radians (any sign, any number of
 *    turns) about the +z axis through the origin, counter-clockwise seen from +z:
 *    p' = Rz(theta) p, so x' = x cos theta - y sin theta, y' = x sin theta + y cos theta,
 *    z' = z. */
vec3 ex@NN@_turn(vec3 p, double theta);

#endif
