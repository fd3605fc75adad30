/* grade30_figure.h - each exercise's picture (grade30_figure.c), named in the table
 * (grade30_table.c): grade30_points_X runs in the grading child and makes the points the
 * picture needs through the student's function; grade30_draw_X draws them beside the lab's
 * in the parent, on a rig where the exercise's mistakes show:
 *   1, 2  the hand control's Ty(1) Rz(90), in its plane;
 *   3     the chapter's cylinder at a 120 degree twist, the lab's palette, your blend;
 *   4     the ring radius against theta for w = 1/2 and 1/4, yours beside the closed form;
 *   5     weight sets of every rule, your verdict beside the rules';
 *   6     the middle ring of a twist by -q^ and a move, blended by yours then normalised;
 *   7     normals on a sheared, unevenly scaled plane beside the true normal. */
#ifndef GRADE30_FIGURE_H
#define GRADE30_FIGURE_H

#include "grade30.h"

enum { GRADE30_PICTURE_W = 500, GRADE30_PICTURE_H = 400 };

void grade30_points_world(grade30_fn f, grade30_picture_data *out);
void grade30_points_skin(grade30_fn f, grade30_picture_data *out);
void grade30_points_lbs(grade30_fn f, grade30_picture_data *out);
void grade30_points_radius(grade30_fn f, grade30_picture_data *out);
void grade30_points_weights(grade30_fn f, grade30_picture_data *out);
void grade30_points_dqs(grade30_fn f, grade30_picture_data *out);
void grade30_points_normal(grade30_fn f, grade30_picture_data *out);

lab_error grade30_draw_world(const grade30_picture_data *yours, canvas *out, lab_diag *d);
lab_error grade30_draw_skin(const grade30_picture_data *yours, canvas *out, lab_diag *d);
lab_error grade30_draw_lbs(const grade30_picture_data *yours, canvas *out, lab_diag *d);
lab_error grade30_draw_radius(const grade30_picture_data *yours, canvas *out, lab_diag *d);
lab_error grade30_draw_weights(const grade30_picture_data *yours, canvas *out, lab_diag *d);
lab_error grade30_draw_dqs(const grade30_picture_data *yours, canvas *out, lab_diag *d);
lab_error grade30_draw_normal(const grade30_picture_data *yours, canvas *out, lab_diag *d);

#endif
