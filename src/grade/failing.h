/* failing.h - a wrong answer's first failing case, drawn: the lab's answer (green) beside
 * the student's (red), from the numbers the verdict keeps (grade_result.got and .want), so
 * that every chapter's wrong answers have a picture of the case that failed, whatever the
 * exercise's own picture shows.
 *
 *   - a point (GRADE_POINT, x y z): both points in the plane of the two axes along which
 *     they differ most, a dashed segment between them;
 *   - a matrix (GRADE_MATRIX, a 4x4 affine map): both frames, their origins (the last
 *     column) and the tips of their three axes (the first three columns added to it), in
 *     the plane of the two axes along which the frames differ most;
 *   - anything else, or any number that is not finite: the numbers, value by value, one
 *     that is not finite at the top edge.
 *
 * The axes by construction: through 0, in units of a power of ten where the numbers are
 * below 1 or from 10^4 on, ticks at 1, 2, 2.5 or 5 times a power of ten, every label placed
 * inside the panel, so that every label fits whatever the answers (1e-300 to 1e300, NaN,
 * infinities, counts that differ).
 *
 *     canvas c = {0};
 *     if (grade_failing_picture(x, exercise, &result, &c, &d) == LAB_OK) ...
 */
#ifndef GRADE_FAILING_H
#define GRADE_FAILING_H

#include "base/diag.h"
#include "draw/raster.h"
#include "grade/exercise.h"

/* The panel of exercise x's (number x + 1) failing case into *out (GRADE_PICTURE_W x
 * GRADE_PICTURE_H, exercise.h), with the case's words; where r->pose_hides, the words say that
 * the exercise's own pose hides the mistake (grade_main then draws this panel alone).
 * Errors: LAB_ERR_OUT_OF_MEMORY. */
lab_error grade_failing_picture(int x, const grade_exercise *e, const grade_result *r, canvas *out, lab_diag *d);

#endif
