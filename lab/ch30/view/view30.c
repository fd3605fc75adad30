/* view30.c - Chapter 30 in a window you can drag: the cylinder's twist and bend under every
 * method and weight set, a glTF asset playing, and the student's sheet reloaded on save.
 *
 * Usage:  build/bin/view30 [options] [ASSET.gltf|.glb]
 *
 * Every pixel is the lab's own (view30_scene.h, view30_asset.h: the frames are drawn by the
 * lab's rasterizer and figure code, the twist panel by lab30's drawing in lab30's camera);
 * SDL2 gives the window, the input and a texture the frame is copied into, one to one.
 *
 * The keys: left/right the twist -/+5 degrees (with shift 1), up/down the bend +/-5, a drag
 * across the window the twist (x, a degree a pixel) and the bend (y), m/M the method, w/W
 * the weight set, 0 both angles to 0, p the frame as PNG with its JSON into --out (all or
 * nothing, src/program/output.h), F12 the window's own pixels read back (view30-window.png),
 * q or Escape to quit. With an asset: c/C the clip, space pause, ',' and '.' scrub by a
 * tenth of a second, m LBS/DQS.
 *
 * Exit codes: 0 closed, 1 no display, or an asset the reader refuses (its message), 2
 * usage, 3 a save that could not be written (--script only; in the window it is shown).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <SDL.h>

#include "base/bytes.h"
#include "base/diag.h"
#include "draw/figure.h"
#include "draw/png_encode.h"
#include "program/cli.h"
#include "program/output.h"
#include "skin/blend.h"
#include "skin/fastskin.h"

#include "view30_asset.h"
#include "view30_scene.h"
#include "view30_sheet.h"

#define PROGRAM "view30"
#define DEFAULT_OUT "out/ch30/view30"

typedef struct {
    view30_state state;
    const char *asset, *sheet, *out, *script, *bench;
    int bench_frames;
} options;

static int usage(FILE *to)
{
    fprintf(to,
            "usage: %s [--twist DEG] [--bend DEG] [--method NAME] [--weights NAME] [--sheet FILE]\n"
            "              [--out DIR] [--script FILE] [--bench FILE] [ASSET.gltf|.glb]\n"
            "Chapter 30 in a window: drag the twist and the bend, change the method and the weights,\n"
            "play an asset, and see your sheet's skinning beside the lab's when you save it.\n"
            "  --twist DEG, --bend DEG  the starting angles, each in [-3600, 3600] (default 0)\n"
            "  --method NAME            LBS (default), DQS, CoR, twist1, twist3, corrective-before,\n"
            "                           corrective-after\n"
            "  --weights NAME           hand (default), heat, blender, bbw\n"
            "  --sheet FILE             watch a sheet of exercises 1-3 (lab/ch30/exercises.c): rebuilt,\n"
            "                           run and graded on every save\n"
            "  --out DIR                where p saves the frame and its JSON (default " DEFAULT_OUT ")\n"
            "  --script FILE            input from a file instead of the keyboard (the suites': one\n"
            "                           command a line: key NAME, drag DX DY, wait SECONDS, shot FILE,\n"
            "                           save, write FILE, quit)\n"
            "  --bench FILE             time the frames (thread CPU time) and write the table to FILE\n"
            "No display: run it under Xvfb (xvfb-run -a make view30), or use the PNG programs (make lab30).\n",
            PROGRAM);
    return 2;
}

static int usage_error(const char *option, const char *value, const char *rule)
{
    fprintf(stderr, "%s: error: %s \"%s\": %s\n", PROGRAM, option, value, rule);
    usage(stderr);
    return 2;
}

static int parse_angle(const char *option, const char *value, double *out)
{
    char *end;
    errno = 0;
    double x = strtod(value, &end);
    if (!*value || *end || errno || !isfinite(x) || fabs(x) > VIEW30_ANGLE_LIMIT)
        return usage_error(option, value, "must be a number of degrees in [-3600, 3600]");
    *out = x;
    return 0;
}

static int parse_options(int argc, char **argv, options *o)
{
    static const char *const methods[VIEW30_METHODS] = {"LBS", "DQS", "CoR", "twist1", "twist3",
                                                        "corrective-before", "corrective-after"};
    *o = (options){.out = DEFAULT_OUT, .bench_frames = 60};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool takes = strncmp(a, "--", 2) == 0 && strcmp(a, "--help") != 0;
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            return usage(stdout), -1;
        if (takes && !v)
            return usage_error(a, "", "needs a value");
        if (!strcmp(a, "--twist") || !strcmp(a, "--bend")) {
            if (parse_angle(a, v, a[2] == 't' ? &o->state.twist_deg : &o->state.bend_deg))
                return 2;
        } else if (!strcmp(a, "--method") || !strcmp(a, "--weights")) {
            bool method = a[2] == 'm';
            int n = method ? VIEW30_METHODS : VIEW30_WEIGHT_SETS, found = -1;
            for (int k = 0; k < n; k++)
                if (!strcasecmp(v, method ? methods[k] : view30_weights_name((view30_weights)k)))
                    found = k;
            if (found < 0)
                return usage_error(a, v, method ? "one of LBS, DQS, CoR, twist1, twist3, corrective-before, "
                                                  "corrective-after"
                                                : "one of hand, heat, blender, bbw");
            if (method)
                o->state.method = (view30_method)found;
            else
                o->state.weights = (view30_weights)found;
        } else if (!strcmp(a, "--sheet")) {
            o->sheet = v;
        } else if (!strcmp(a, "--out")) {
            o->out = v;
        } else if (!strcmp(a, "--script")) {
            o->script = v;
        } else if (!strcmp(a, "--bench")) {
            o->bench = v;
        } else if (a[0] == '-' && a[1]) {
            return usage_error(a, a, "is not an option of view30");
        } else if (!o->asset) {
            o->asset = a;
            continue;
        } else {
            return usage_error("ASSET", a, "one asset at a time");
        }
        i++;
    }
    return 0;
}

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

typedef struct {
    SDL_Window *window;
    SDL_Renderer *renderer;
    SDL_Texture *texture;
} window;

/* No display is a clear message and exit 1 (the contract's "rejected": this machine has
 * no screen for the window), never a crash. */
static int no_display(const char *why)
{
    fprintf(stderr,
            "%s: error: no display to open a window on (%s).\n"
            "  Run it under a virtual display: xvfb-run -a make view30\n"
            "  or use the PNG programs, which need none: make lab30 (and the other programs of make help).\n",
            PROGRAM, why);
    return 1;
}

/* SDL's own out of memory (SDL_OutOfMemory) is the contract's: exit 3, its message. */
static bool sdl_out_of_memory(const char *what, int *code)
{
    if (strcmp(SDL_GetError(), "Out of memory"))
        return false;
    lab_diag d = {0};
    diag_fail(&d, LAB_ERR_OUT_OF_MEMORY, what, "SDL: %s", SDL_GetError());
    *code = cli_fail(PROGRAM, &d, CLI_EXIT_OUTPUT);
    return true;
}

static int open_window(window *w)
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
                PROGRAM, SDL_GetError());
        return 1;
    }
    return 0;
}

static void close_window(window *w)
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

static void show(window *w, const canvas *frame)
{
    SDL_UpdateTexture(w->texture, NULL, frame->rgb, frame->width * 3);
    SDL_RenderClear(w->renderer);
    SDL_RenderCopy(w->renderer, w->texture, NULL, NULL);
    SDL_RenderPresent(w->renderer);
}

/* The window's own pixels, read back from the renderer, as a PNG at path. */
static lab_error read_back(window *w, const char *path, lab_diag *d)
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

/* ---- what is shown ----------------------------------------------------------------------- */

typedef struct {
    const options *o;
    view30_scene scene;
    view30_state state;
    view30_asset asset;
    bool playing_asset, paused;
    double t;                   /* the asset's clock */
    skin_method asset_method;
    view30_sheet sheet;
    view30_student student;
    canvas frame;
    view30_readout readout;
    bool dirty, quit;
    bool dragging;
    int saves;
} viewer;

static lab_error draw(viewer *v, lab_diag *d)
{
    canvas_free(&v->frame);
    if (v->playing_asset)
        return view30_asset_frame(&v->asset, v->t, v->asset_method, v->paused, &v->frame, d);
    return view30_frame(&v->scene, &v->state, v->o->sheet ? &v->student : NULL, &v->frame, &v->readout, d);
}

/* p: the frame and its evidence into --out, all or nothing. */
static lab_error save(viewer *v, lab_diag *d)
{
    char tag[160], a[40], b[40], png[OUTPUT_MAX_NAME + 1], json[OUTPUT_MAX_NAME + 1];
    if (v->playing_asset)
        snprintf(tag, sizeof tag, "view30-clip%d-t%s-%s", v->asset.clip, figure_angle_tag(a, sizeof a, v->t),
                 v->asset_method == SKIN_DQS ? "dqs" : "lbs");
    else
        snprintf(tag, sizeof tag, "view30-twist%s-bend%s-%d-%s", figure_angle_tag(a, sizeof a, v->state.twist_deg),
                 figure_angle_tag(b, sizeof b, v->state.bend_deg), (int)v->state.method,
                 view30_weights_name(v->state.weights));
    snprintf(png, sizeof png, "%.58s.png", tag);
    snprintf(json, sizeof json, "%.57s.json", tag);
    output_batch batch = {0};
    canvas copy = {0};
    bytes evidence = {0};
    lab_error e = canvas_init(&copy, v->frame.width, v->frame.height, FIGURE_BACKGROUND, d);
    if (e == LAB_OK)
        memcpy(copy.rgb, v->frame.rgb, (size_t)v->frame.width * (size_t)v->frame.height * 3);
    if (e == LAB_OK)
        e = output_batch_add_image(&batch, png, &copy, d);
    if (e == LAB_OK && !v->playing_asset)
        e = view30_evidence(&v->state, &v->readout, &evidence, d);
    else if (e == LAB_OK)
        bytes_printf(&evidence, "{\"program\":\"view30\",\"clip\":%d,\"t\":%.17g,\"method\":\"%s\"}\n", v->asset.clip,
                     v->t, v->asset_method == SKIN_DQS ? "DQS" : "LBS");
    if (e == LAB_OK)
        e = output_batch_add(&batch, json, &evidence, d);
    if (e == LAB_OK)
        e = output_check_dir(v->o->out, d);
    if (e == LAB_OK)
        e = output_batch_commit(&batch, v->o->out, d);
    output_batch_free(&batch);
    canvas_free(&copy);
    bytes_free(&evidence);
    if (e == LAB_OK)
        printf("%s: wrote %s/%s and %s\n", PROGRAM, v->o->out, png, json);
    return e;
}

static double wrap_angle(double deg)
{
    return fmax(-VIEW30_ANGLE_LIMIT, fmin(VIEW30_ANGLE_LIMIT, deg));
}

static void key(viewer *v, SDL_Keycode k, bool shift, window *w, lab_diag *d)
{
    double step = shift ? 1.0 : 5.0;
    v->dirty = true;
    if (k == SDLK_q || k == SDLK_ESCAPE) {
        v->quit = true;
    } else if (k == SDLK_p) {
        if (save(v, d) != LAB_OK)
            cli_fail(PROGRAM, d, 0);
    } else if (k == SDLK_F12) {
        char path[1024];
        snprintf(path, sizeof path, "%s/view30-window.png", v->o->out);
        if (read_back(w, path, d) != LAB_OK)
            cli_fail(PROGRAM, d, 0);
    } else if (v->playing_asset) {
        if (k == SDLK_c)
            view30_asset_clip(&v->asset, v->asset.clip + (shift ? -1 : 1), d), v->t = v->asset.start;
        else if (k == SDLK_SPACE)
            v->paused = !v->paused;
        else if (k == SDLK_COMMA || k == SDLK_PERIOD)
            v->t = fmin(v->asset.end, fmax(v->asset.start, v->t + (k == SDLK_COMMA ? -0.1 : 0.1)));
        else if (k == SDLK_m)
            v->asset_method = v->asset_method == SKIN_LBS ? SKIN_DQS : SKIN_LBS;
    } else if (k == SDLK_LEFT || k == SDLK_RIGHT) {
        v->state.twist_deg = wrap_angle(v->state.twist_deg + (k == SDLK_LEFT ? -step : step));
    } else if (k == SDLK_UP || k == SDLK_DOWN) {
        v->state.bend_deg = wrap_angle(v->state.bend_deg + (k == SDLK_UP ? step : -step));
    } else if (k == SDLK_m) {
        v->state.method = (view30_method)((v->state.method + (shift ? VIEW30_METHODS - 1 : 1)) % VIEW30_METHODS);
    } else if (k == SDLK_w) {
        v->state.weights = (view30_weights)((v->state.weights + (shift ? VIEW30_WEIGHT_SETS - 1 : 1)) % VIEW30_WEIGHT_SETS);
    } else if (k == SDLK_0) {
        v->state.twist_deg = v->state.bend_deg = 0.0;
    }
}

static void handle(viewer *v, const SDL_Event *ev, window *w, lab_diag *d)
{
    switch (ev->type) {
    case SDL_QUIT:
        v->quit = true;
        break;
    case SDL_KEYDOWN:
        key(v, ev->key.keysym.sym, (ev->key.keysym.mod & KMOD_SHIFT) != 0, w, d);
        break;
    case SDL_MOUSEBUTTONDOWN:
        v->dragging = ev->button.button == SDL_BUTTON_LEFT;
        break;
    case SDL_MOUSEBUTTONUP:
        v->dragging = false;
        break;
    case SDL_MOUSEMOTION: /* a degree a pixel: x the twist, up the bend */
        if (v->dragging && !v->playing_asset) {
            v->state.twist_deg = wrap_angle(v->state.twist_deg + ev->motion.xrel);
            v->state.bend_deg = wrap_angle(v->state.bend_deg - ev->motion.yrel);
            v->dirty = true;
        }
        break;
    case SDL_WINDOWEVENT:
        v->dirty = true;
        break;
    default:
        break;
    }
}

/* ---- the script: the suites' input, through SDL's own event queue ------------------------ */

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

/* Copies `from` over the watched sheet: the script's "save in the editor". */
static bool write_sheet(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
    bool ok = in && out;
    int c;
    while (ok && (c = fgetc(in)) != EOF)
        ok = fputc(c, out) != EOF;
    if (in)
        fclose(in);
    if (out && fclose(out) != 0)
        ok = false;
    return ok;
}

/* One command of the script; false at its end or on an error (*code set). */
static bool script_step(viewer *v, FILE *script, window *w, int *code, lab_diag *d)
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
                fprintf(stderr, "%s: error: --script: \"%s\": no key of that name\n", PROGRAM, name);
                return *code = 2, false;
            }
            push_key(name, !strcmp(mod, "shift"));
        } else if (!strcmp(word, "drag")) {
            int dx = 0, dy = 0;
            if (sscanf(arg, "%d %d", &dx, &dy) != 2 || abs(dx) > 100000 || abs(dy) > 100000) {
                fprintf(stderr, "%s: error: --script: \"%s\": drag DX DY, in pixels\n", PROGRAM, line);
                return *code = 2, false;
            }
            push_drag(dx, dy);
        } else if (!strcmp(word, "wait")) {
            double s = strtod(arg, NULL);
            if (v->playing_asset && !v->paused && isfinite(s) && s > 0) { /* the script's clock */
                double span = v->asset.end - v->asset.start;
                v->t = span > 0 ? v->asset.start + fmod(v->t - v->asset.start + s, span) : v->asset.start;
                v->dirty = true;
            }
        } else if (!strcmp(word, "shot")) {
            if (read_back(w, arg, d) != LAB_OK) {
                return *code = cli_fail(PROGRAM, d, CLI_EXIT_OUTPUT), false;
            }
        } else if (!strcmp(word, "save")) {
            if (save(v, d) != LAB_OK) {
                return *code = cli_fail(PROGRAM, d, CLI_EXIT_OUTPUT), false;
            }
        } else if (!strcmp(word, "write")) {
            if (!v->o->sheet || !write_sheet(arg, v->o->sheet)) {
                fprintf(stderr, "%s: error: --script: write %s: no sheet watched, or %s\n", PROGRAM, arg,
                        strerror(errno));
                return *code = 2, false;
            }
        } else if (!strcmp(word, "quit")) {
            return false;
        } else {
            fprintf(stderr, "%s: error: --script: \"%s\": key, drag, wait, shot, save, write or quit\n", PROGRAM,
                    line);
            return *code = 2, false;
        }
        return true;
    }
    return false;
}

/* ---- the sheet: rebuilt, run and graded on save ------------------------------------------ */

static void reload_sheet(viewer *v, window *w, lab_diag *d)
{
    if (!view30_sheet_changed(&v->sheet))
        return;
    bool built = view30_sheet_build(&v->sheet, &v->student);
    if (built) /* the new picture first, the verdicts after */
        view30_sheet_skin(&v->sheet, &v->scene.rigs[VIEW30_HAND][RIG30_TWIST], v->state.twist_deg, &v->student);
    if (draw(v, d) == LAB_OK)
        show(w, &v->frame);
    if (built) { /* the verdicts, on screen and on stdout */
        view30_sheet_grade(&v->sheet, &v->student);
        printf("%s: %s, version %d: %s\n", PROGRAM, v->o->sheet, v->sheet.generation, v->student.status);
    } else {
        printf("%s: %s: %s\n", PROGRAM, v->o->sheet, v->student.status);
    }
    for (int k = 0; k < v->student.line_count; k++)
        printf("  %s\n", v->student.lines[k]);
    fflush(stdout);
    v->dirty = true;
}

/* ---- the benchmark: frame times by thread CPU time ----------------------------------------- */

static double thread_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int compare(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median and 99th percentile (nearest rank) of n times, in milliseconds. */
static void percentiles(double *t, int n, double *median, double *p99)
{
    qsort(t, (size_t)n, sizeof *t, compare);
    *median = 1e3 * t[n / 2];
    int k = (int)ceil(0.99 * n) - 1;
    *p99 = 1e3 * t[k < 0 ? 0 : k];
}

/* One frame drawn and shown, its thread CPU time into *t; false when the drawing failed. */
static bool timed_frame(viewer *v, window *w, double *t, lab_diag *d)
{
    double t0 = thread_seconds();
    if (draw(v, d) != LAB_OK)
        return false;
    show(w, &v->frame);
    *t = thread_seconds() - t0;
    return true;
}

static int bench(viewer *v, window *w, lab_diag *d)
{
    enum { FRAMES = 120, WARM = 3 }; /* 3 frames first, untimed: the first allocations and faults */
    double t[FRAMES], warm, median, p99;
    FILE *out = fopen(v->o->bench, "w");
    if (!out) {
        fprintf(stderr, "%s: error: %s: %s\n", PROGRAM, v->o->bench, strerror(errno));
        return 3;
    }
    simd_cpu cpu = simd_cpu_running(); /* the CPU as the palette's benchmark records it */
    for (size_t n = strlen(cpu.brand); n > 0 && cpu.brand[n - 1] == ' '; n--) /* cpuid pads it */
        cpu.brand[n - 1] = '\0';
    fprintf(out, "CPU: %s, family %d, model %d (%s); SDL's %s video driver, the software renderer\n\n",
            cpu.vendor[0] ? cpu.vendor : "unknown", cpu.family, cpu.model, cpu.brand[0] ? cpu.brand : "unknown",
            SDL_GetCurrentVideoDriver());
    fprintf(out, "| what (800 x 600, one thread) | frames | median ms | p99 ms |\n|---|---|---|---|\n");
    for (int m = 0; !v->playing_asset && m < VIEW30_METHODS; m++) {
        v->state = (view30_state){0, 0, (view30_method)m, VIEW30_HAND};
        for (int k = -WARM; k < FRAMES; k++) { /* a drag: 3 degrees a frame, both angles */
            v->state.twist_deg = 3.0 * k, v->state.bend_deg = 1.5 * k;
            if (!timed_frame(v, w, k >= 0 ? &t[k] : &warm, d))
                return fclose(out), 1;
        }
        percentiles(t, FRAMES, &median, &p99);
        fprintf(out, "| cylinder, %s | %d | %.2f | %.2f |\n", view30_method_name((view30_method)m), FRAMES, median,
                p99);
    }
    for (int m = 0; v->playing_asset && m < 2; m++) {
        v->asset_method = (skin_method)m;
        for (int k = -WARM; k < FRAMES; k++) { /* the clip at 30 frames a second */
            double span = v->asset.end - v->asset.start;
            v->t = span > 0 ? v->asset.start + fmod((k + WARM) / 30.0, span) : v->asset.start;
            if (!timed_frame(v, w, k >= 0 ? &t[k] : &warm, d))
                return fclose(out), 1;
        }
        percentiles(t, FRAMES, &median, &p99);
        fprintf(out, "| %s playing, %s, %d vertices | %d | %.2f | %.2f |\n", v->o->asset, m ? "DQS" : "LBS",
                v->asset.vertex_total, FRAMES, median, p99);
    }
    if (v->o->sheet) { /* a save to the new picture: compile, load, run, draw (the grader after) */
        enum { RELOADS = 5 };
        double wall[RELOADS];
        for (int k = 0; k < RELOADS; k++) {
            struct timespec a, b;
            clock_gettime(CLOCK_MONOTONIC, &a);
            view30_sheet_build(&v->sheet, &v->student);
            view30_sheet_skin(&v->sheet, &v->scene.rigs[VIEW30_HAND][RIG30_TWIST], 90.0, &v->student);
            if (draw(v, d) != LAB_OK)
                return fclose(out), 1;
            show(w, &v->frame);
            clock_gettime(CLOCK_MONOTONIC, &b);
            wall[k] = (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
        }
        percentiles(wall, RELOADS, &median, &p99);
        fprintf(out, "| a saved sheet to its new picture (wall time: the compiler is a child) | %d | %.1f | %.1f |\n",
                RELOADS, median, p99);
    }
    return fclose(out) == 0 ? 0 : 3;
}

/* ---- main ------------------------------------------------------------------------------------ */

int main(int argc, char **argv)
{
    static viewer v; /* the scene's arrays: not on the stack */
    options o;
    int code = parse_options(argc, argv, &o);
    if (code)
        return code < 0 ? 0 : code;
    lab_diag d = {0};
    v.o = &o, v.state = o.state, v.dirty = true;
    /* what is shown is made before the window opens: a refused asset needs no display */
    lab_error e = o.asset ? view30_asset_open(&v.asset, o.asset, &d) : view30_scene_build(&v.scene, &d);
    if (e != LAB_OK)
        return cli_fail(PROGRAM, &d, cli_exit_code(e));
    v.playing_asset = o.asset != NULL, v.t = v.asset.start;
    if (o.sheet && !view30_sheet_init(&v.sheet, o.sheet)) {
        fprintf(stderr, "%s: error: %s: a folder for the sheet's builds: %s\n", PROGRAM, v.sheet.dir, strerror(errno));
        view30_scene_free(&v.scene);
        return 3;
    }
    window w = {0};
    code = open_window(&w);
    FILE *script = NULL;
    if (code == 0 && o.script && !(script = fopen(o.script, "r"))) {
        int err = errno; /* an unreadable script is a usage error; no memory to open it, out of memory */
        lab_diag why = {0};
        diag_fail(&why, err == ENOMEM ? LAB_ERR_OUT_OF_MEMORY : LAB_ERR_USAGE, "--script", "%s: %s", o.script,
                  strerror(err));
        code = cli_fail(PROGRAM, &why, err == ENOMEM ? CLI_EXIT_OUTPUT : CLI_EXIT_USAGE);
    }
    if (code == 0 && o.bench) {
        if (o.sheet)
            v.student.loaded = true;
        code = bench(&v, &w, &d);
        v.quit = true;
    }
    Uint64 last = SDL_GetPerformanceCounter();
    Uint32 polled = 0;
    while (code == 0 && !v.quit) {
        SDL_Event ev;
        while (SDL_PollEvent(&ev))
            handle(&v, &ev, &w, &d);
        if (o.sheet && (script || SDL_GetTicks() - polled >= 250)) {
            polled = SDL_GetTicks();
            reload_sheet(&v, &w, &d);
        }
        if (o.sheet && v.student.loaded && v.student.positions_deg != v.state.twist_deg) {
            view30_sheet_skin(&v.sheet, &v.scene.rigs[VIEW30_HAND][RIG30_TWIST], v.state.twist_deg, &v.student);
            v.dirty = true;
        }
        Uint64 now = SDL_GetPerformanceCounter();
        if (v.playing_asset && !v.paused && !script) { /* the asset's own speed */
            double span = v.asset.end - v.asset.start;
            double dt = (double)(now - last) / (double)SDL_GetPerformanceFrequency();
            v.t = span > 0 ? v.asset.start + fmod(v.t - v.asset.start + dt, span) : v.asset.start;
            v.dirty = true;
        }
        last = now;
        if (v.dirty) {
            if (draw(&v, &d) != LAB_OK) { /* out of memory, or a pose the reader refuses */
                code = cli_fail(PROGRAM, &d, cli_exit_code(d.code));
                break;
            }
            show(&w, &v.frame);
            v.dirty = false;
        }
        /* the script's next command, once what came before it is on screen */
        if (script && !script_step(&v, script, &w, &code, &d))
            v.quit = true;
        if (!script && !v.playing_asset)
            SDL_WaitEventTimeout(NULL, 50);
        else if (!script)
            SDL_Delay(1);
    }
    if (script)
        fclose(script);
    canvas_free(&v.frame);
    if (o.sheet)
        view30_sheet_free(&v.sheet);
    if (o.asset)
        view30_asset_free(&v.asset);
    else
        view30_scene_free(&v.scene);
    close_window(&w);
    return code;
}
