/* view30_viewer.h - what view30 shows (view30_viewer.c): its options, the state the keys
 * and drags change, the frame drawn at that state, a save of it, and the student's sheet
 * reloaded when it changes. */
#ifndef VIEW30_VIEWER_H
#define VIEW30_VIEWER_H

#include <SDL.h>
#include <stdbool.h>

#include "base/diag.h"
#include "draw/raster.h"
#include "skin/blend.h"

#include "view30_asset.h"
#include "view30_frame.h"
#include "view30_scene.h"
#include "view30_sheet.h"
#include "view30_yours.h"
#include "view30_window.h"

/* The command line: the starting state, and the files it names. */
typedef struct {
    view30_state state;
    const char *asset, *sheet, *out, *script, *bench;
} view30_options;

/* Everything the window shows: the scene or the asset, the state, the student's sheet, the
 * last frame and its numbers. */
typedef struct {
    const view30_options *o;
    view30_scene scene;
    view30_state state;
    view30_asset asset;
    bool playing_asset, paused;
    double t;                   /* the asset's clock */
    double yours_t;             /* the time the sheet's loop last skinned the (paused) asset at;
                                 * -1: cleared while it plays; NAN: to be done again */
    skin_method asset_method;
    view30_sheet sheet;
    view30_student student;
    canvas frame;
    view30_readout readout;
    bool dirty, quit;
    bool help;                       /* the help over the frame (h, F1) */
    bool awaiting_grade;             /* the script waits for the grade under way (its `graded`) */
    bool dragging;
    int slider;                      /* the slider held: 1 the twist, 2 the bend, 0 none */
} view30_viewer;

/* The frame at the viewer's state into v->frame (the cylinder, or the asset at v->t). */
lab_error view30_draw(view30_viewer *v, lab_diag *d);
/* p: the frame and its evidence into --out, all or nothing (src/program/output.h). */
lab_error view30_save(view30_viewer *v, lab_diag *d);
/* One of SDL's events: a key, a drag, the window closed. */
void view30_handle(view30_viewer *v, const SDL_Event *ev, view30_window *w, lab_diag *d);
/* When the watched sheet changed: rebuilt, skinned, drawn, then graded; its lines on stdout. */
void view30_reload_sheet(view30_viewer *v, view30_window *w, lab_diag *d);
/* Whether the sheet's grade under way has ended (its verdicts then on screen and stdout):
 * polled every frame, so that the window goes on while the grader runs. */
bool view30_grade_arrived(view30_viewer *v);

#endif
