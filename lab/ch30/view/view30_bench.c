/* view30_bench.c - the window's frame times (view30_bench.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <SDL.h>

#include "skin/fastskin.h"

#include "view30_bench.h"

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
static bool timed_frame(view30_viewer *v, view30_window *w, double *t, lab_diag *d)
{
    double t0 = thread_seconds();
    if (view30_draw(v, d) != LAB_OK)
        return false;
    view30_window_show(w, &v->frame);
    *t = thread_seconds() - t0;
    return true;
}

int view30_bench(view30_viewer *v, view30_window *w, lab_diag *d)
{
    enum { FRAMES = 120, WARM = 3 }; /* 3 frames first, untimed: the first allocations and faults */
    double t[FRAMES], warm, median, p99;
    FILE *out = fopen(v->o->bench, "w");
    if (!out) {
        fprintf(stderr, "%s: error: %s: %s\n", VIEW30_PROGRAM, v->o->bench, strerror(errno));
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
            FILE *edit = fopen(v->o->sheet, "a"); /* a new version each time, as an editor saves it: compiled again */
            if (!edit || fprintf(edit, "/* reload %d */\n", k) < 0 || fclose(edit) != 0)
                return fprintf(stderr, "view30: --bench: %s: %s\n", v->o->sheet, strerror(errno)), fclose(out), 3;
            clock_gettime(CLOCK_MONOTONIC, &a);
            view30_sheet_build(&v->sheet, &v->student);
            view30_sheet_skin(&v->sheet, &v->scene, &(view30_state){90.0, 0.0, VIEW30_LBS, VIEW30_HAND}, &v->student);
            if (view30_draw(v, d) != LAB_OK)
                return fclose(out), 1;
            view30_window_show(w, &v->frame);
            clock_gettime(CLOCK_MONOTONIC, &b);
            wall[k] = (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
        }
        percentiles(wall, RELOADS, &median, &p99);
        fprintf(out, "| a saved sheet to its new picture (wall time: the compiler is a child) | %d | %.1f | %.1f |\n",
                RELOADS, median, p99);
    }
    bool failed = ferror(out) != 0;
    if (fclose(out) != 0 || failed) { /* a full disk, /dev/full: said, with the system's words */
        fprintf(stderr, "%s: error: %s: the frame times could not be written: %s\n", VIEW30_PROGRAM, v->o->bench,
                strerror(errno ? errno : EIO));
        return 3;
    }
    return 0;
}
