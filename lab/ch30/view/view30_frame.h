/* view30_frame.h - the frames of view30_scene.h's states (view30_frame.c), drawn by the
 * lab's rasterizer and figure code, without the window: the whole 800 x 600 frame, its twist
 * panel (pixel for pixel lab30's), and the state's evidence. */
#ifndef VIEW30_FRAME_H
#define VIEW30_FRAME_H

#include "base/bytes.h"
#include "base/diag.h"
#include "draw/raster.h"

#include "view30_scene.h"

/* The whole frame (800 x 600, out is new). student may be NULL. */
lab_error view30_frame(const view30_scene *s, const view30_state *st, const view30_student *student, canvas *out,
                       view30_readout *r, lab_diag *d);

/* The state and its readouts as JSON (the window writes it beside the frame's PNG). */
lab_error view30_evidence(const view30_state *st, const view30_readout *r, bytes *out, lab_diag *d);

#endif
