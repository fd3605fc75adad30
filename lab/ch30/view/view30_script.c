/* view30_script.c - the suites' scripted input (view30_script.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <SDL.h>

#include "program/cli.h"

#include "view30_script.h"

static void push_key(const char *name, bool shift)
{
    SDL_Event ev = {0};
    ev.type = SDL_KEYDOWN;
    ev.key.state = SDL_PRESSED;
    ev.key.keysym.sym = SDL_GetKeyFromName(name);
    ev.key.keysym.mod = shift ? KMOD_LSHIFT : KMOD_NONE;
    SDL_PushEvent(&ev);
    ev.type = SDL_KEYUP;
    ev.key.state = SDL_RELEASED;
    SDL_PushEvent(&ev);
}

static void push_drag(int dx, int dy)
{
    SDL_Event ev = {0};
    ev.type = SDL_MOUSEBUTTONDOWN;
    ev.button.button = SDL_BUTTON_LEFT, ev.button.state = SDL_PRESSED, ev.button.x = 400, ev.button.y = 300;
    SDL_PushEvent(&ev);
    int steps = 8;
    for (int k = 0; k < steps; k++) { /* the motion in steps, as a hand drags */
        SDL_Event m = {0};
        m.type = SDL_MOUSEMOTION;
        m.motion.state = SDL_BUTTON_LMASK;
        m.motion.xrel = dx * (k + 1) / steps - dx * k / steps;
        m.motion.yrel = dy * (k + 1) / steps - dy * k / steps;
        SDL_PushEvent(&m);
    }
    ev.type = SDL_MOUSEBUTTONUP, ev.button.state = SDL_RELEASED;
    SDL_PushEvent(&ev);
}

/* A press at (x, y), the pointer moved to (to_x, y) in steps, a release: a knob dragged. */
static void push_slide(int x, int y, int to_x)
{
    SDL_Event ev = {0};
    ev.type = SDL_MOUSEBUTTONDOWN;
    ev.button.button = SDL_BUTTON_LEFT, ev.button.state = SDL_PRESSED, ev.button.x = x, ev.button.y = y;
    SDL_PushEvent(&ev);
    for (int k = 1; k <= 8; k++) {
        SDL_Event m = {0};
        m.type = SDL_MOUSEMOTION;
        m.motion.state = SDL_BUTTON_LMASK;
        m.motion.x = x + (to_x - x) * k / 8, m.motion.y = y;
        m.motion.xrel = (to_x - x) * k / 8 - (to_x - x) * (k - 1) / 8;
        SDL_PushEvent(&m);
    }
    ev.type = SDL_MOUSEBUTTONUP, ev.button.state = SDL_RELEASED, ev.button.x = to_x;
    SDL_PushEvent(&ev);
}

/* Copies `from` over the watched sheet: the script's "save in the editor". Only a regular
 * file of at most VIEW30_SCRIPT_BYTES: never a device that never ends. */
static bool write_sheet(const char *from, const char *to)
{
    struct stat st;
    if (stat(from, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > VIEW30_SCRIPT_BYTES)
        return false;
    FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
    bool ok = in && out;
    int c;
    long copied = 0;
    while (ok && copied++ <= VIEW30_SCRIPT_BYTES && (c = fgetc(in)) != EOF)
        ok = fputc(c, out) != EOF;
    if (in)
        fclose(in);
    if (out && fclose(out) != 0)
        ok = false;
    return ok;
}

/* One command of the script; false at its end or on an error (*code set). */
bool view30_script_step(view30_viewer *v, FILE *script, view30_window *w, int *code, lab_diag *d)
{
    char line[1200], word[32], arg[1024];
    while (fgets(line, sizeof line, script)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (!line[0] || line[0] == '#')
            continue;
        arg[0] = '\0';
        int fields = sscanf(line, "%31s %1023[^\n]", word, arg);
        if (fields < 1)
            continue;
        if (!strcmp(word, "key")) {
            char name[64] = "", mod[16] = "";
            sscanf(arg, "%63s %15s", name, mod);
            if (SDL_GetKeyFromName(name) == SDLK_UNKNOWN) {
                fprintf(stderr, "%s: error: --script: \"%s\": no key of that name\n", VIEW30_PROGRAM, name);
                return *code = 2, false;
            }
            push_key(name, !strcmp(mod, "shift"));
        } else if (!strcmp(word, "drag")) {
            int dx = 0, dy = 0;
            if (sscanf(arg, "%d %d", &dx, &dy) != 2 || abs(dx) > 100000 || abs(dy) > 100000) {
                fprintf(stderr, "%s: error: --script: \"%s\": drag DX DY, in pixels\n", VIEW30_PROGRAM, line);
                return *code = 2, false;
            }
            push_drag(dx, dy);
        } else if (!strcmp(word, "slide")) {
            int x, y, to_x;
            if (sscanf(arg, "%d %d %d", &x, &y, &to_x) != 3) {
                fprintf(stderr, "%s: error: --script: \"%s\": slide X Y TO_X, in the window's pixels\n", VIEW30_PROGRAM,
                        line);
                return *code = 2, false;
            }
            push_slide(x, y, to_x);
        } else if (!strcmp(word, "wait")) {
            double s = strtod(arg, NULL);
            if (v->playing_asset && !v->paused && isfinite(s) && s > 0) { /* the script's clock */
                double span = v->asset.end - v->asset.start;
                v->t = span > 0 ? v->asset.start + fmod(v->t - v->asset.start + s, span) : v->asset.start;
                v->dirty = true;
            }
        } else if (!strcmp(word, "shot")) {
            if (view30_window_read_back(w, arg, d) != LAB_OK) {
                return *code = cli_fail(VIEW30_PROGRAM, d, CLI_EXIT_OUTPUT), false;
            }
        } else if (!strcmp(word, "save")) {
            if (view30_save(v, d) != LAB_OK) {
                return *code = cli_fail(VIEW30_PROGRAM, d, CLI_EXIT_OUTPUT), false;
            }
        } else if (!strcmp(word, "write")) {
            if (!v->o->sheet || !write_sheet(arg, v->o->sheet)) {
                fprintf(stderr, "%s: error: --script: write %s: no sheet watched, or %s\n", VIEW30_PROGRAM, arg,
                        strerror(errno));
                return *code = 2, false;
            }
        } else if (!strcmp(word, "graded")) { /* the next command once the grade under way has ended */
            v->awaiting_grade = true;
        } else if (!strcmp(word, "quit")) {
            return false;
        } else {
            fprintf(stderr, "%s: error: --script: \"%s\": key, drag, slide, wait, shot, save, write, graded or quit\n", VIEW30_PROGRAM,
                    line);
            return *code = 2, false;
        }
        return true;
    }
    return false;
}
