/* test_view30.h - what the window's suites share (test_view30.c, test_view30_run.c,
 * test_view30_sheet.c): the programs they run, view30 run with SDL's video driver of their
 * choice, and the twist panel of a window's frame against lab30's PNG. */
#ifndef TEST_VIEW30_H
#define TEST_VIEW30_H

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "rig30.h"
#include "view30_scene.h"

#define VIEW LAB_BIN_DIR "/view30"
#define LAB30 LAB_BIN_DIR "/lab30"
#define VERTS (RIG30_RINGS * RIG30_SEGMENTS)

static inline bool have_view(void)
{
    if (tu_exists(VIEW))
        return true;
    /* built wherever SDL2 is: make view30 says what to install where it is not */
    fprintf(stderr, "view30 is not built here (no SDL2: libsdl2-dev): its end-to-end tests are skipped\n");
    return false;
}

static inline int run_view(const char *out, const char *err, const char *driver, char *const *args)
{
    char *argv[24] = {VIEW};
    int n = 1;
    for (; args[n - 1] && n < 23; n++)
        argv[n] = args[n - 1];
    argv[n] = NULL;
    if (driver)
        setenv("SDL_VIDEODRIVER", driver, 1);
    else
        unsetenv("SDL_VIDEODRIVER");
    int code = tu_run(argv, out, err);
    unsetenv("SDL_VIDEODRIVER");
    return code;
}

/* Rows 0..495 of columns 0..319 of a window's frame (800 x 600) against lab30's PNG. */
static inline bool twist_panel_equals(const tu_image *frame, const char *lab_png)
{
    tu_image b;
    bool ok = frame->width == VIEW30_WIDTH && frame->height == VIEW30_HEIGHT && tu_image_load(lab_png, &b);
    for (int y = 0; ok && y < VIEW30_PANEL_H; y++)
        ok = memcmp(frame->rgb + (size_t)y * VIEW30_WIDTH * 3, b.rgb + (size_t)y * VIEW30_PANEL_W * 3, VIEW30_PANEL_W * 3) == 0;
    if (frame->width == VIEW30_WIDTH && frame->height == VIEW30_HEIGHT)
        tu_image_free(&b);
    return ok;
}

static inline bool twist_equals(const char *shot, const char *lab_png)
{
    tu_image a;
    if (!tu_image_load(shot, &a))
        return false;
    bool ok = twist_panel_equals(&a, lab_png);
    tu_image_free(&a);
    return ok;
}

/* The text of the (last) JSON file p saved into dir (free it), or NULL. */
static inline char *saved_json(const char *dir)
{
    DIR *folder = opendir(dir);
    char *json = NULL;
    for (struct dirent *e; folder && (e = readdir(folder));)
        if (strstr(e->d_name, ".json")) {
            free(json);
            json = tu_read_file(tu_path(dir, e->d_name), NULL);
        }
    if (folder)
        closedir(folder);
    return json;
}

#endif
