/* test_view30_xvfb.c - build/bin/view30 in a real X window under Xvfb, driven by xdotool's
 * key and mouse events (tests/view30-xvfb.sh): the X server's own pixels against lab30's PNG
 * and against the window's read-back, a slider dragged, the help overlay shown. */
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmocka_all.h"
#include "testutil.h"

#include "view30_scene.h"
#include "test_view30.h"

/* Xvfb, xdotool's real events and the window's pixels read back (tests/view30-xvfb.sh). */
/* A big-endian 32-bit field of an XWD header. */
static unsigned long xwd_field(const unsigned char *h, int index)
{
    const unsigned char *f = h + 4 * index;
    return (unsigned long)f[0] << 24 | (unsigned long)f[1] << 16 | (unsigned long)f[2] << 8 | f[3];
}

/* The window's 800 x 600 pixels as the X server holds them: Xvfb's screen file (XWD, the
 * header big-endian, then the colormap, then 32-bit pixels in the header's byte order and
 * masks) cut at the window's place (x, y). A reader of its own, sharing nothing with SDL. */
static bool xwd_window(const char *path, long x, long y, tu_image *out)
{
    size_t size = 0;
    unsigned char *f = (unsigned char *)tu_read_file(path, &size);
    if (!f || size < 100) {
        free(f);
        return false;
    }
    unsigned long header = xwd_field(f, 0), width = xwd_field(f, 4), height = xwd_field(f, 5),
                  order = xwd_field(f, 7), bpp = xwd_field(f, 11), line = xwd_field(f, 12), masks[3] = {
                      xwd_field(f, 14), xwd_field(f, 15), xwd_field(f, 16)}, colors = xwd_field(f, 19);
    size_t start = header + 12 * colors;
    bool ok = bpp == 32 && x >= 0 && y >= 0 && (unsigned long)x + VIEW30_WIDTH <= width &&
              (unsigned long)y + VIEW30_HEIGHT <= height && start + line * height <= size;
    *out = (tu_image){VIEW30_WIDTH, VIEW30_HEIGHT, ok ? malloc((size_t)VIEW30_WIDTH * VIEW30_HEIGHT * 3) : NULL};
    ok = ok && out->rgb;
    for (int r = 0; ok && r < VIEW30_HEIGHT; r++)
        for (int c = 0; c < VIEW30_WIDTH; c++) {
            const unsigned char *p = f + start + (size_t)(y + r) * line + (size_t)(x + c) * 4;
            unsigned long v = order == 0 ? (unsigned long)p[0] | (unsigned long)p[1] << 8 | (unsigned long)p[2] << 16 |
                                               (unsigned long)p[3] << 24
                                         : xwd_field(p, 0);
            for (int k = 0; k < 3; k++) {
                unsigned long m = masks[k], shift = 0;
                while (m && !(m & 1))
                    m >>= 1, shift++;
                out->rgb[((size_t)r * VIEW30_WIDTH + (size_t)c) * 3 + (size_t)k] = (unsigned char)((v >> shift) & m);
            }
        }
    free(f);
    if (!ok)
        free(out->rgb), out->rgb = NULL;
    return ok;
}

static void test_under_xvfb(void **state)
{
    tu_run_dir *ctx = *state;
    if (!have_view())
        skip();
    char *argv[] = {"/bin/sh", "tests/view30-xvfb.sh", VIEW, ctx->dir, NULL};
    int code = tu_run(argv, ctx->out_path, ctx->err_path);
    if (code != 0) {
        char *err = tu_read_file(ctx->err_path, NULL), shown[4096];
        snprintf(shown, sizeof shown, "%s", err ? err : "");
        free(err);
        fail_msg("tests/view30-xvfb.sh exited %d:\n%s", code, shown);
    }
    char lab[128];
    snprintf(lab, sizeof lab, "%s/lab", ctx->dir);
    assert_int_equal(mkdir(lab, 0777), 0);
    assert_int_equal(tu_run_program(LAB30, NULL, NULL, "--theta", "137", lab, (char *)NULL), 0);
    assert_true(twist_equals(tu_path(ctx->dir, "window-137.png"), tu_path(lab, "skinning30-theta137.png")));
    /* the X server's own pixels of the window: the same panel, and the whole frame SDL read */
    long x = -1, y = -1;
    char *geometry = tu_read_file(tu_path(ctx->dir, "geometry.txt"), NULL);
    assert_non_null(geometry);
    const char *at_x = strstr(geometry, "X="), *at_y = strstr(geometry, "Y=");
    assert_true(at_x && at_y && sscanf(at_x, "X=%ld", &x) == 1 && sscanf(at_y, "Y=%ld", &y) == 1);
    free(geometry);
    tu_image screen, read_back;
    assert_true(xwd_window(tu_path(ctx->dir, "screen.xwd"), x, y, &screen));
    assert_true(twist_panel_equals(&screen, tu_path(lab, "skinning30-theta137.png")));
    assert_true(tu_image_load(tu_path(ctx->dir, "window-137.png"), &read_back));
    assert_memory_equal(screen.rgb, read_back.rgb, (size_t)VIEW30_WIDTH * VIEW30_HEIGHT * 3);
    tu_image_free(&screen), tu_image_free(&read_back);
    /* the bend's slider dragged a quarter of its track left of 0: -180, the twist kept */
    assert_true(tu_exists(tu_path(ctx->dir, "view30-twist137-bend-180-0-hand.json")));
    /* the help over the frame, on the X server's screen as read back, and not the frame
     * without it (the same twist, the help box in the middle) */
    tu_image help, help_back, before;
    assert_true(xwd_window(tu_path(ctx->dir, "screen-help.xwd"), x, y, &help));
    assert_true(tu_image_load(tu_path(ctx->dir, "view30-window.png"), &help_back));
    assert_memory_equal(help.rgb, help_back.rgb, (size_t)VIEW30_WIDTH * VIEW30_HEIGHT * 3);
    assert_true(tu_image_load(tu_path(ctx->dir, "window-137.png"), &before));
    size_t centre = ((size_t)(VIEW30_HEIGHT / 2) * VIEW30_WIDTH + VIEW30_WIDTH / 2) * 3;
    assert_memory_not_equal(help.rgb + centre - 3 * 200, before.rgb + centre - 3 * 200, 3 * 400);
    tu_image_free(&help), tu_image_free(&help_back), tu_image_free(&before);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_under_xvfb, tu_run_dir_setup, tu_run_dir_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
