/* view30_window.c - view30's window (view30_window.h), and what the sanitizer builds need
 * of a process that loads SDL's display libraries. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <SDL.h>

#include "base/bytes.h"
#include "draw/figure.h"
#include "draw/png_encode.h"
#include "program/cli.h"

#include "view30_scene.h" /* the frame's size */
#include "view30_window.h"

/* In the sanitizer builds, SDL_Quit is left to the process's end: it unloads the display
 * libraries SDL opened, and LeakSanitizer would then report what they keep (allocated from
 * an "unknown module") as lost. */
#if defined(__SANITIZE_ADDRESS__)
#define VIEW30_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define VIEW30_SANITIZED 1
#endif
#endif
#ifndef VIEW30_SANITIZED
#define VIEW30_SANITIZED 0
#endif

#if VIEW30_SANITIZED
/* ...and every library SDL opens (its display and EGL drivers) stays loaded to the end: this
 * dlclose, the executable's, is the one SDL calls. */
int dlclose(void *handle);
int dlclose(void *handle)
{
    (void)handle;
    return 0;
}
#endif

/* LeakSanitizer, in the suites' sanitizer builds: what SDL's video drivers and the display
 * libraries under them keep until the process ends is theirs, not a leak of the lab's. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    return "leak:libSDL2\nleak:libX11\nleak:libxcb\nleak:libdbus\nleak:libwayland\n";
}

/* ---- the window -------------------------------------------------------------------------- */

/* No display is a clear message and exit 1 (the contract's "rejected": this machine has
 * no screen for the window), never a crash. */
static int no_display(const char *why)
{
    fprintf(stderr,
            "%s: error: no display to open a window on (%s).\n"
            "  Run it under a virtual display: xvfb-run -a make view30\n"
            "  or use the PNG programs, which need none: make lab30 (and the other programs of make help).\n",
            VIEW30_PROGRAM, why);
    return 1;
}

/* SDL's own out of memory (SDL_OutOfMemory) is the contract's: exit 3, its message. */
static bool sdl_out_of_memory(const char *what, int *code)
{
    if (strcmp(SDL_GetError(), "Out of memory"))
        return false;
    lab_diag d = {0};
    diag_fail(&d, LAB_ERR_OUT_OF_MEMORY, what, "SDL: %s", SDL_GetError());
    *code = cli_fail(VIEW30_PROGRAM, &d, CLI_EXIT_OUTPUT);
    return true;
}

int view30_window_open(view30_window *w)
{
    int code = 0;
    /* the window's pixels are SDL's framebuffer in memory, never a GL or Vulkan surface
     * behind it: no driver is loaded, and what the lab drew is what is shown */
    SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0");
    const char *x11 = getenv("DISPLAY"), *wayland = getenv("WAYLAND_DISPLAY"), *asked = getenv("SDL_VIDEODRIVER");
    if (!(x11 && *x11) && !(wayland && *wayland) && !(asked && *asked)) /* before SDL's probes print their own */
        return no_display("DISPLAY and WAYLAND_DISPLAY are not set");
    if (!(wayland && *wayland) && !(asked && *asked)) /* X11 only: no Wayland probe to print its own error */
        SDL_SetHint(SDL_HINT_VIDEODRIVER, "x11");
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        if (sdl_out_of_memory("SDL_Init", &code))
            return code;
        char why[300];
        snprintf(why, sizeof why, "DISPLAY=%s, WAYLAND_DISPLAY=%s: SDL says %s", x11 ? x11 : "", wayland ? wayland : "",
                 SDL_GetError());
        return no_display(why);
    }
    /* SDL falls back to a driver without a screen (offscreen) where it finds none: a window
     * nobody sees. Only the suites ask for one, by SDL_VIDEODRIVER. */
    const char *driver = SDL_GetCurrentVideoDriver();
    if (driver && (!strcmp(driver, "offscreen") || !strcmp(driver, "dummy")) && !(asked && strstr(asked, driver))) {
        SDL_Quit();
        return no_display("no X11 or Wayland display: DISPLAY and WAYLAND_DISPLAY are not set or not reachable");
    }
    w->window = SDL_CreateWindow("view30 - chapter 30", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED,
                                 VIEW30_WIDTH, VIEW30_HEIGHT, 0);
    /* the software renderer: the frame is copied one to one, the same on every machine */
    w->renderer = w->window ? SDL_CreateRenderer(w->window, -1, SDL_RENDERER_SOFTWARE) : NULL;
    w->texture = w->renderer ? SDL_CreateTexture(w->renderer, SDL_PIXELFORMAT_RGB24, SDL_TEXTUREACCESS_STREAMING,
                                                 VIEW30_WIDTH, VIEW30_HEIGHT)
                             : NULL;
    if (!w->texture && sdl_out_of_memory("the window", &code))
        return code;
    if (!w->texture) {
        fprintf(stderr, "%s: error: the window could not be made (SDL: %s).\n"
                        "  Run it under a virtual display: xvfb-run -a make view30, or use make lab30.\n",
                VIEW30_PROGRAM, SDL_GetError());
        return 1;
    }
    return 0;
}

void view30_window_close(view30_window *w)
{
    if (w->texture)
        SDL_DestroyTexture(w->texture);
    if (w->renderer)
        SDL_DestroyRenderer(w->renderer);
    if (w->window)
        SDL_DestroyWindow(w->window);
#if !VIEW30_SANITIZED
    SDL_Quit();
#endif
}

void view30_window_show(view30_window *w, const canvas *frame)
{
    SDL_UpdateTexture(w->texture, NULL, frame->rgb, frame->width * 3);
    SDL_RenderClear(w->renderer);
    SDL_RenderCopy(w->renderer, w->texture, NULL, NULL);
    SDL_RenderPresent(w->renderer);
}

/* The window's own pixels, read back from the renderer, as a PNG at path. */
lab_error view30_window_read_back(view30_window *w, const char *path, lab_diag *d)
{
    canvas c = {0};
    lab_error e = canvas_init(&c, VIEW30_WIDTH, VIEW30_HEIGHT, FIGURE_BACKGROUND, d);
    if (e == LAB_OK && SDL_RenderReadPixels(w->renderer, NULL, SDL_PIXELFORMAT_RGB24, c.rgb, VIEW30_WIDTH * 3) != 0)
        e = diag_fail(d, LAB_ERR_OUTPUT, "the window's pixels", "SDL: %s", SDL_GetError());
    bytes png = {0};
    if (e == LAB_OK)
        e = png_encode(&c, &png, d);
    FILE *f = e == LAB_OK ? fopen(path, "wb") : NULL;
    if (e == LAB_OK && (!f || fwrite(png.data, 1, png.len, f) != png.len))
        e = diag_fail(d, LAB_ERR_OUTPUT, path, "%s", strerror(errno));
    if (f && fclose(f) != 0 && e == LAB_OK)
        e = diag_fail(d, LAB_ERR_OUTPUT, path, "%s", strerror(errno));
    bytes_free(&png);
    canvas_free(&c);
    return e;
}
