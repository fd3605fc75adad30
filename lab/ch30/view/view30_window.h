/* view30_window.h - view30's window (view30_window.c): SDL2's window, its software renderer
 * and the texture the lab's frame is copied into, one to one. It opens only where a display
 * answers (or the suites ask SDL for one without a screen); the window's pixels are SDL's
 * framebuffer in memory, with no GL driver behind it. */
#ifndef VIEW30_WINDOW_H
#define VIEW30_WINDOW_H

#include <SDL.h>

#include "base/diag.h"
#include "draw/raster.h"

#define VIEW30_PROGRAM "view30"

typedef struct {
    SDL_Window *window;
    SDL_Renderer *renderer;
    SDL_Texture *texture;
} view30_window;

/* Opens the 800 x 600 window: 0, or an exit code with its message printed: 1 no display
 * (how to run under Xvfb, or to use the PNG programs), 3 SDL out of memory. */
int view30_window_open(view30_window *w);
void view30_window_close(view30_window *w);
/* The frame (800 x 600) on screen. */
void view30_window_show(view30_window *w, const canvas *frame);
/* The window's own pixels, read back from the renderer, as a PNG at path. */
lab_error view30_window_read_back(view30_window *w, const char *path, lab_diag *d);

#endif
