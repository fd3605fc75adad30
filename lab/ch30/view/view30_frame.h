/* view30_frame.h - the frames of view30_scene.h's states (view30_frame.c; their text and
 * controls, view30_text.c), drawn by the lab's rasterizer and figure code, without the
 * window: the whole 800 x 600 frame, its twist panel (pixel for pixel lab30's), and the
 * state's evidence. */
#ifndef VIEW30_FRAME_H
#define VIEW30_FRAME_H

#include "base/bytes.h"
#include "base/diag.h"
#include "draw/raster.h"

#include "view30_scene.h"

/* The whole frame (800 x 600, out is new). student may be NULL. */
lab_error view30_frame(const view30_scene *s, const view30_state *st, const view30_student *student, canvas *out,
                       view30_readout *r, lab_diag *d);

/* The sheet's lines in the readouts' place (the bottom of the frame, 800 x 104): the
 * grader's one line an exercise, or, where the mistake is shown, the first wrong
 * exercise's whole verdict; long lines wrapped at spaces. */
void view30_student_lines(const view30_student *student, canvas *out);

/* The sliders of the twist (1) and the bend (2), in the right column: a track over
 * [-VIEW30_SLIDER_RANGE, VIEW30_SLIDER_RANGE] degrees from x = VIEW30_SLIDER_X0 to X1 at
 * height view30_slider_y(i); an angle beyond the range puts the knob at the end, hollow. */
#define VIEW30_SLIDER_RANGE 360.0
#define VIEW30_SLIDER_X0 652
#define VIEW30_SLIDER_X1 788
int view30_slider_y(int slider);
/* Slider s (1 the twist, 2 the bend) at the angle deg: its name and angle above, the
 * track, ticks every 180 degrees with the ends' and 0's values under it, and the knob. */
void view30_slider_draw(canvas *out, int slider, const char *name, double deg);
/* The slider under the pixel (x, y) (its track and knob's height, a few pixels either end),
 * or 0. */
int view30_slider_at(int x, int y);
/* The angle at column x of a slider's track, in whole degrees, within the range. */
double view30_slider_angle(int x);

/* The help (h, F1) over the frame: every key, what each panel shows. */
void view30_help_overlay(canvas *frame);

/* The state and its readouts as JSON (the window writes it beside the frame's PNG), with
 * the sheet's last grade, every verdict whole, where student is loaded (may be NULL). */
lab_error view30_evidence(const view30_state *st, const view30_readout *r, const view30_student *student, bytes *out,
                          lab_diag *d);

#endif
