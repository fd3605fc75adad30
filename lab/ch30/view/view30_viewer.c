/* view30_viewer.c - what view30 shows (view30_viewer.h): the frame at the state, its save,
 * the keys and the drags, and the sheet reloaded on save. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <SDL.h>

#include "base/bytes.h"
#include "base/text.h"
#include "draw/figure.h"
#include "program/cli.h"
#include "program/output.h"

#include "view30_viewer.h"

lab_error view30_draw(view30_viewer *v, lab_diag *d)
{
    canvas_free(&v->frame);
    lab_error e = v->playing_asset ? view30_asset_frame(&v->asset, v->t, v->asset_method, v->paused, &v->frame, d)
                                   : view30_frame(&v->scene, &v->state, v->o->sheet ? &v->student : NULL, &v->frame,
                                                  &v->readout, d);
    if (e == LAB_OK && v->help)
        view30_help_overlay(&v->frame);
    return e;
}

/* p: the frame and its evidence into --out, all or nothing. */
lab_error view30_save(view30_viewer *v, lab_diag *d)
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
        e = view30_evidence(&v->state, &v->readout, v->o->sheet ? &v->student : NULL, &evidence, d);
    else if (e == LAB_OK)
        bytes_printf(&evidence, "{\"program\":\"view30\",\"clip\":%d,\"t\":%.17g,\"method\":\"%s\",\"yours\":\"%s\"}\n",
                     v->asset.clip, v->t, v->asset_method == SKIN_DQS ? "DQS" : "LBS", v->asset.yours_words);
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
        printf("%s: wrote %s/%s and %s\n", VIEW30_PROGRAM, v->o->out, png, json);
    return e;
}

static double wrap_angle(double deg)
{
    return fmax(-VIEW30_ANGLE_LIMIT, fmin(VIEW30_ANGLE_LIMIT, deg));
}

static void key(view30_viewer *v, SDL_Keycode k, bool shift, view30_window *w, lab_diag *d)
{
    double step = shift ? 1.0 : 5.0;
    v->dirty = true;
    if (k == SDLK_q || k == SDLK_ESCAPE) {
        v->quit = true;
    } else if (k == SDLK_p) {
        if (view30_save(v, d) != LAB_OK)
            cli_fail(VIEW30_PROGRAM, d, 0);
    } else if (k == SDLK_h || k == SDLK_F1) {
        v->help = !v->help;
    } else if (k == SDLK_v) {
        v->student.show_mistake = !v->student.show_mistake && v->student.wrong > 0;
    } else if (k == SDLK_F12) {
        char path[1024];
        snprintf(path, sizeof path, "%s/view30-window.png", v->o->out);
        if (view30_window_read_back(w, path, d) != LAB_OK)
            cli_fail(VIEW30_PROGRAM, d, 0);
    } else if (v->playing_asset) {
        if (k == SDLK_c)
            view30_asset_clip(&v->asset, v->asset.clip + (shift ? -1 : 1), d), v->t = v->asset.start;
        else if (k == SDLK_SPACE)
            v->paused = !v->paused;
        else if (k == SDLK_COMMA || k == SDLK_PERIOD)
            v->t = fmin(v->asset.end, fmax(v->asset.start, v->t + (k == SDLK_COMMA ? -0.1 : 0.1)));
        else if (k == SDLK_m)
            v->asset_method = v->asset_method == SKIN_LBS ? SKIN_DQS : SKIN_LBS;
        else if (k == SDLK_j)
            v->asset.joint_names = !v->asset.joint_names;
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

/* The slider held (if any) to the pointer's column. */
static void slide(view30_viewer *v, int x)
{
    if (v->slider == 1)
        v->state.twist_deg = view30_slider_angle(x), v->dirty = true;
    else if (v->slider == 2)
        v->state.bend_deg = view30_slider_angle(x), v->dirty = true;
}

void view30_handle(view30_viewer *v, const SDL_Event *ev, view30_window *w, lab_diag *d)
{
    switch (ev->type) {
    case SDL_QUIT:
        v->quit = true;
        break;
    case SDL_KEYDOWN:
        key(v, ev->key.keysym.sym, (ev->key.keysym.mod & KMOD_SHIFT) != 0, w, d);
        break;
    case SDL_MOUSEBUTTONDOWN: /* on a slider: its knob to the pointer; elsewhere a drag */
        v->slider = ev->button.button == SDL_BUTTON_LEFT && !v->playing_asset
                        ? view30_slider_at(ev->button.x, ev->button.y)
                        : 0;
        v->dragging = ev->button.button == SDL_BUTTON_LEFT && !v->slider;
        slide(v, ev->button.x);
        break;
    case SDL_MOUSEBUTTONUP:
        v->dragging = false, v->slider = 0;
        break;
    case SDL_MOUSEMOTION: /* a slider follows the pointer; a drag, a degree a pixel: x the twist, up the bend */
        slide(v, ev->motion.x);
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

/* ---- the sheet: rebuilt, run and graded on save ------------------------------------------ */

void view30_reload_sheet(view30_viewer *v, view30_window *w, lab_diag *d)
{
    if (!view30_sheet_changed(&v->sheet))
        return;
    bool built = view30_sheet_build(&v->sheet, &v->student);
    if (built && v->playing_asset) /* the new picture first (once paused), the verdicts after */
        v->yours_t = NAN;
    else if (built)
        view30_sheet_skin(&v->sheet, &v->scene, &v->state, &v->student);
    if (view30_draw(v, d) == LAB_OK)
        view30_window_show(w, &v->frame);
    if (built && view30_sheet_grade_start(&v->sheet, &v->student)) { /* the verdicts come when it ends */
        printf("%s: %s, version %d: %s\n", VIEW30_PROGRAM, v->o->sheet, v->sheet.generation, v->student.status);
        fflush(stdout);
        v->dirty = true;
        return;
    }
    printf("%s: %s: %s\n", VIEW30_PROGRAM, v->o->sheet, v->student.status);
    for (int k = 0; k < v->student.line_count; k++)
        printf("  %s\n", v->student.lines[k]);
    fflush(stdout);
    v->dirty = true;
}

bool view30_grade_arrived(view30_viewer *v)
{
    if (!v->o->sheet || !view30_sheet_grade_poll(&v->sheet, &v->student))
        return false;
    /* the verdicts on screen; on stdout, the grader's whole output, as make grade30 prints it */
    char line[VIEW30_TEXT];
    for (const char *at = v->sheet.grade_log; *at;) {
        size_t n = strcspn(at, "\n");
        snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line - 1 ? n : sizeof line - 1), at);
        printf("  %s\n", text_printable((char[VIEW30_TEXT]){0}, VIEW30_TEXT, line));
        at += n + (at[n] == '\n');
    }
    if (v->student.line_count && !v->student.verdict_count) /* the compiler's first error, or how it ended */
        printf("  %s\n", v->student.lines[0]);
    fflush(stdout);
    v->dirty = true;
    return true;
}
