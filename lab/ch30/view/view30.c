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
#include <sys/stat.h>
#include <time.h>

#include <SDL.h>

#include "base/diag.h"
#include "program/cli.h"

#include "view30_bench.h"
#include "view30_script.h"
#include "view30_viewer.h"

#define DEFAULT_OUT "out/ch30/view30"

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
            "  --sheet FILE             watch a sheet (lab/ch30/exercises.c or lab/ch30/sheets/*): rebuilt,\n"
            "                           graded, and its exercises for the method drawn beside the\n"
            "                           lab's on every save; a wrong exercise's mistake shown (v)\n"
            "  --out DIR                where p saves the frame and its JSON (default " DEFAULT_OUT ")\n"
            "  --script FILE            input from a file instead of the keyboard (the suites': one\n"
            "                           command a line: key NAME, drag DX DY, wait SECONDS, shot FILE,\n"
            "                           save, write FILE, graded, quit)\n"
            "  --bench FILE             time the frames (thread CPU time) and write the table to FILE\n"
            "No display: run it under Xvfb (xvfb-run -a make view30), or use the PNG programs (make lab30).\n",
            VIEW30_PROGRAM);
    return 2;
}

static int usage_error(const char *option, const char *value, const char *rule)
{
    fprintf(stderr, "%s: error: %s \"%s\": %s\n", VIEW30_PROGRAM, option, value, rule);
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

static int parse_options(int argc, char **argv, view30_options *o)
{
    static const char *const methods[VIEW30_METHODS] = {"LBS", "DQS", "CoR", "twist1", "twist3",
                                                        "corrective-before", "corrective-after"};
    static const char *const names[] = {"--twist", "--bend", "--method", "--weights", "--sheet", "--out", "--script",
                                        "--bench"};
    bool given[sizeof names / sizeof names[0]] = {false};
    *o = (view30_options){.out = DEFAULT_OUT};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool takes = strncmp(a, "--", 2) == 0 && strcmp(a, "--help") != 0;
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            return usage(stdout), -1;
        if (takes && !v)
            return usage_error(a, "", "needs a value");
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) { /* as the programs' options: once each */
            if (strcmp(a, names[k]))
                continue;
            if (given[k])
                return usage_error(a, v, "is given twice");
            given[k] = true;
        }
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
    /* the files it reads: there, regular, the script bounded (never /dev/zero or a folder) */
    const char *files[2] = {o->sheet, o->script}, *what[2] = {"--sheet", "--script"};
    for (int k = 0; k < 2; k++) {
        struct stat st;
        if (!files[k])
            continue;
        if (stat(files[k], &st) != 0)
            return usage_error(what[k], files[k], strerror(errno));
        if (!S_ISREG(st.st_mode))
            return usage_error(what[k], files[k], "is not a regular file");
        if (k == 1 && st.st_size > VIEW30_SCRIPT_BYTES)
            return usage_error(what[k], files[k], "is larger than a script may be (1 MiB)");
    }
    return 0;
}

/* ---- main ------------------------------------------------------------------------------------ */

int main(int argc, char **argv)
{
    static view30_viewer v; /* the scene's arrays: not on the stack */
    view30_options o;
    int code = parse_options(argc, argv, &o);
    if (code)
        return code < 0 ? 0 : code;
    lab_diag d = {0};
    v.o = &o, v.state = o.state, v.dirty = true;
    /* what is shown is made before the window opens: a refused asset needs no display */
    lab_error e = o.asset ? view30_asset_open(&v.asset, o.asset, &d) : view30_scene_build(&v.scene, &d);
    if (e != LAB_OK)
        return cli_fail(VIEW30_PROGRAM, &d, cli_exit_code(e));
    v.playing_asset = o.asset != NULL, v.t = v.asset.start, v.yours_t = NAN;
    if (o.sheet && !view30_sheet_init(&v.sheet, o.sheet)) {
        fprintf(stderr, "%s: error: %s: a folder for the sheet's builds: %s\n", VIEW30_PROGRAM, v.sheet.dir, strerror(errno));
        view30_scene_free(&v.scene);
        return 3;
    }
    view30_window w = {0};
    code = view30_window_open(&w);
    FILE *script = NULL;
    if (code == 0 && o.script && !(script = fopen(o.script, "r"))) {
        int err = errno; /* an unreadable script is a usage error; no memory to open it, out of memory */
        lab_diag why = {0};
        diag_fail(&why, err == ENOMEM ? LAB_ERR_OUT_OF_MEMORY : LAB_ERR_USAGE, "--script", "%s: %s", o.script,
                  strerror(err));
        code = cli_fail(VIEW30_PROGRAM, &why, err == ENOMEM ? CLI_EXIT_OUTPUT : CLI_EXIT_USAGE);
    }
    if (code == 0 && o.bench) {
        if (o.sheet)
            v.student.loaded = true;
        code = view30_bench(&v, &w, &d);
        v.quit = true;
    }
    Uint64 last = SDL_GetPerformanceCounter();
    Uint32 polled = 0;
    while (code == 0 && !v.quit) {
        SDL_Event ev;
        while (SDL_PollEvent(&ev))
            view30_handle(&v, &ev, &w, &d);
        view30_grade_arrived(&v); /* the grader runs beside the window, never blocking it */
        if (o.sheet && (script || SDL_GetTicks() - polled >= 250)) {
            polled = SDL_GetTicks();
            view30_reload_sheet(&v, &w, &d);
        }
        if (o.sheet && v.student.loaded && v.playing_asset && v.paused && v.yours_t != v.t) {
            view30_sheet_skin_asset(&v.sheet, &v.asset, v.t); /* your loop, once a pause: not a child a frame */
            v.yours_t = v.t, v.dirty = true;
        } else if (o.sheet && v.student.loaded && v.playing_asset && !v.paused && v.yours_t != -1) {
            view30_asset_yours_clear(&v.asset, "space: pause to draw yours");
            v.yours_t = -1; /* said: nothing to draw while it plays */
        }
        if (o.sheet && v.student.loaded && !v.playing_asset &&
            (v.student.positions_deg != v.state.twist_deg || v.student.positions_method != v.state.method ||
             v.student.positions_weights != v.state.weights)) { /* yours follows the state */
            view30_sheet_skin(&v.sheet, &v.scene, &v.state, &v.student);
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
            if (view30_draw(&v, &d) != LAB_OK) { /* out of memory, or a pose the reader refuses */
                code = cli_fail(VIEW30_PROGRAM, &d, cli_exit_code(d.code));
                break;
            }
            view30_window_show(&w, &v.frame);
            v.dirty = false;
        }
        /* the script's next command, once what came before it is on screen (and graded,
         * after the script's `graded`) */
        bool waiting = v.awaiting_grade && o.sheet && v.sheet.grading;
        v.awaiting_grade = waiting;
        if (script && !waiting && !view30_script_step(&v, script, &w, &code, &d))
            v.quit = true;
        if (script && waiting)
            SDL_Delay(2);
        if (!script && !v.playing_asset)
            SDL_WaitEventTimeout(NULL, 50);
        else if (!script)
            SDL_Delay(1);
    }
    if (script)
        fclose(script);
    canvas_free(&v.frame);
    canvas_free(&v.student.mistake);
    if (o.sheet)
        view30_sheet_free(&v.sheet);
    if (o.asset)
        view30_asset_free(&v.asset);
    else
        view30_scene_free(&v.scene);
    view30_window_close(&w);
    return code;
}
