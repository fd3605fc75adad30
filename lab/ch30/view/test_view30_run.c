/* test_view30_run.c - build/bin/view30 itself under SDL's offscreen driver: scripted input
 * (drags, keys, saves through SDL's own event queue), an asset and its packed copies
 * playing, no display and usage errors, and its own allocations failing
 * (tests/faultshim.c). The command line's states: test_view30.c. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmocka_all.h"
#include "testutil.h"

#include "base/diag.h"
#include "draw/figure.h"
#include "draw/raster.h"
#include "math/linalg.h"

#include "rig30.h"
#include "rig30_check.h"
#include "view30_frame.h"
#include "view30_scene.h"
#include "test_view30.h"

static void test_scripted_session(void **state)
{
    tu_run_dir *ctx = *state;
    if (!have_view())
        skip();
    char script[256], shot[256], lab[128];
    snprintf(script, sizeof script, "%s/script.txt", ctx->dir);
    snprintf(shot, sizeof shot, "%s/shot.png", ctx->dir);
    char text[1024];
    /* two steps right (10), a drag of 127 pixels right and 30 up: twist 137, bend 30 */
    snprintf(text, sizeof text, "# the suite's hand\nkey Right\nkey Right\ndrag 127 -30\nshot %s\nsave\nkey m\nkey w\nsave\nquit\n",
             shot);
    assert_true(tu_write_file(script, text));
    char *args[] = {"--script", script, "--out", ctx->dir, NULL};
    assert_int_equal(run_view(ctx->out_path, ctx->err_path, "offscreen", args), 0);
    snprintf(lab, sizeof lab, "%s/lab", ctx->dir);
    assert_int_equal(mkdir(lab, 0777), 0);
    assert_int_equal(tu_run_program(LAB30, NULL, NULL, "--theta", "137", lab, (char *)NULL), 0);
    assert_true(twist_equals(shot, tu_path(lab, "skinning30-theta137.png")));
    /* the saved frame is the window's pixels, and its evidence the state */
    assert_true(tu_same_pixels(shot, tu_path(ctx->dir, "view30-twist137-bend030-0-hand.png")));
    cJSON *root = tu_json_load(tu_path(ctx->dir, "view30-twist137-bend030-0-hand.json"));
    assert_non_null(root);
    assert_true(tu_json_num(tu_obj(root, "state"), "twist_deg") == 137.0);
    assert_true(tu_json_num(tu_obj(root, "state"), "bend_deg") == 30.0);
    assert_true(fabs(tu_json_num(tu_obj(root, "twist"), "middle_ring_radius") - fabs(cos(deg_to_rad(137) / 2))) < 1e-12);
    cJSON_Delete(root);
    root = tu_json_load(tu_path(ctx->dir, "view30-twist137-bend030-1-heat.json"));
    assert_non_null(root);
    assert_string_equal(cJSON_GetStringValue(tu_json_get(tu_obj(root, "state"), "method")), "DQS");
    cJSON_Delete(root);
}

static void test_asset_plays(void **state)
{
    tu_run_dir *ctx = *state;
    if (!have_view())
        skip();
    char script[256], text[1024], a[256], b[256], c[256];
    snprintf(script, sizeof script, "%s/script.txt", ctx->dir);
    snprintf(a, sizeof a, "%s/t0.png", ctx->dir), snprintf(b, sizeof b, "%s/t1.png", ctx->dir);
    snprintf(c, sizeof c, "%s/t1-again.png", ctx->dir);
    snprintf(text, sizeof text, "shot %s\nwait 0.4\nshot %s\nkey m\nkey Space\nkey .\nsave\nquit\n", a, b);
    assert_true(tu_write_file(script, text));
    char *args[] = {"--script", script, "--out", ctx->dir, "assets/RiggedSimple.gltf", NULL};
    assert_int_equal(run_view(ctx->out_path, ctx->err_path, "offscreen", args), 0);
    assert_false(tu_same_pixels(a, b)); /* it moved */
    snprintf(text, sizeof text, "wait 0.4\nshot %s\nquit\n", c);
    assert_true(tu_write_file(script, text));
    assert_int_equal(run_view(ctx->out_path, ctx->err_path, "offscreen", args), 0);
    assert_true(tu_same_pixels(b, c)); /* the script's clock: the same frame every run */
    /* quantized and meshopt-compressed (gltfpack), Draco-compressed (draco_transcoder):
     * played as lab30-gltf reads them, the same animation within the quantization's step */
    char packed[3][256], shots[3][256];
    snprintf(packed[0], sizeof packed[0], "%s/quantized.glb", ctx->dir);
    snprintf(packed[1], sizeof packed[1], "%s/meshopt.glb", ctx->dir);
    snprintf(packed[2], sizeof packed[2], "%s/draco.glb", ctx->dir);
    char *tools[3][10] = {{"/usr/bin/gltfpack", "-i", "assets/RiggedSimple.gltf", "-o", packed[0], "-noq", NULL},
                          {"/usr/bin/gltfpack", "-i", "assets/RiggedSimple.gltf", "-o", packed[1], "-cc", NULL},
                          {"/usr/bin/draco_transcoder", "-i", "assets/RiggedSimple.gltf", "-o", packed[2], NULL}};
    tools[0][5] = NULL; /* gltfpack quantizes by default */
    for (int k = 0; k < 3; k++) {
        assert_int_equal(tu_run(tools[k], NULL, NULL), 0);
        snprintf(shots[k], sizeof shots[k], "%s/packed%d.png", ctx->dir, k);
        snprintf(text, sizeof text, "wait 0.4\nshot %s\nquit\n", shots[k]);
        assert_true(tu_write_file(script, text));
        char *packed_args[] = {"--script", script, "--out", ctx->dir, packed[k], NULL};
        assert_int_equal(run_view(ctx->out_path, ctx->err_path, "offscreen", packed_args), 0);
        tu_image x, y;
        assert_true(tu_image_load(shots[k], &x) && tu_image_load(c, &y));
        int edge_x = 0, edge_y = 0; /* the same figure drawn: about as many dark pixels */
        for (int i = 0; i < VIEW30_WIDTH * VIEW30_HEIGHT; i++)
            edge_x += x.rgb[3 * i] < 128, edge_y += y.rgb[3 * i] < 128;
        assert_true(edge_x > 0 && abs(edge_x - edge_y) < edge_y / 10);
        tu_image_free(&x), tu_image_free(&y);
    }
    /* an asset the reader refuses: its message, exit 1, no window needed */
    char bad[256];
    snprintf(bad, sizeof bad, "%s/bad.gltf", ctx->dir);
    assert_true(tu_write_file(bad, "{\"asset\": {\"version\": \"2.0\"}, \"nodes\": [{\"mesh\": 7}]}"));
    char *refused[] = {bad, NULL};
    assert_int_equal(run_view(ctx->out_path, ctx->err_path, NULL, refused), 1);
    assert_true(tu_file_contains(ctx->err_path, "view30: error: "));
    assert_true(tu_file_contains(ctx->err_path, "mesh"));
}

/* The asset's skeleton over its mesh: each joint a dot, a bone from its parent joint (the
 * skeleton's colour, at the joints where the lab projects them); `j` names every joint,
 * the asset's own names (RiggedFigure's 19), inside the frame (a saved frame refuses a
 * label cut off). */
static void test_asset_skeleton_and_names(void **state)
{
    tu_run_dir *ctx = *state;
    if (!have_view())
        skip();
    char script[256], text[1024], plain[256], named[256];
    snprintf(script, sizeof script, "%s/script.txt", ctx->dir);
    snprintf(plain, sizeof plain, "%s/plain.png", ctx->dir), snprintf(named, sizeof named, "%s/named.png", ctx->dir);
    snprintf(text, sizeof text, "key Space\nshot %s\nkey j\nshot %s\nsave\nquit\n", plain, named);
    assert_true(tu_write_file(script, text));
    char *args[] = {"--script", script, "--out", ctx->dir, "assets/RiggedFigure.gltf", NULL};
    assert_int_equal(run_view(ctx->out_path, ctx->err_path, "offscreen", args), 0);
    assert_true(tu_file_contains(ctx->out_path, "wrote")); /* the named frame saved: no label cut */
    tu_image a, b;
    assert_true(tu_image_load(plain, &a) && tu_image_load(named, &b));
    int bone = 0, text_more = 0;
    for (int i = 0; i < VIEW30_WIDTH * VIEW30_HEIGHT; i++) {
        const unsigned char *p = a.rgb + 3 * i, *q = b.rgb + 3 * i;
        bone += p[0] == 0 && p[1] == 150 && p[2] == 136;
        text_more += (q[0] == 0 && q[1] == 0 && q[2] == 0) - (p[0] == 0 && p[1] == 0 && p[2] == 0);
    }
    assert_true(bone > 19 * 9); /* at least the 19 joints' dots */
    assert_true(text_more > 19 * 20); /* and a name by each */
    tu_image_free(&a), tu_image_free(&b);
}

/* The sliders: a knob dragged to any column sets its angle, in whole degrees over [-360,
 * 360] (computed here from the track's ends), the other angle kept; a press beside the track
 * is a drag, not a slide. */
static void test_sliders(void **state)
{
    tu_run_dir *ctx = *state;
    if (!have_view())
        skip();
    static const struct { int slider, to_x; } slides[] = {{1, 788}, {2, 652}, {1, 700}, {2, 745}, {1, 720}, {2, 999}};
    double twist = 0, bend = 0;
    for (size_t i = 0; i < sizeof slides / sizeof slides[0]; i++) {
        char dir[300], script[400], text[256];
        snprintf(dir, sizeof dir, "%s/slide%zu", ctx->dir, i);
        assert_int_equal(mkdir(dir, 0777), 0);
        snprintf(script, sizeof script, "%s/script.txt", dir);
        int y = view30_slider_y(slides[i].slider);
        snprintf(text, sizeof text, "slide 720 %d %d\nsave\nquit\n", y, slides[i].to_x);
        assert_true(tu_write_file(script, text));
        char tw[32], be[32];
        snprintf(tw, sizeof tw, "%.17g", twist), snprintf(be, sizeof be, "%.17g", bend);
        char *args[] = {"--twist", tw, "--bend", be, "--script", script, "--out", dir, NULL};
        assert_int_equal(run_view(ctx->out_path, ctx->err_path, "offscreen", args), 0);
        /* the track's ends are -360 and 360; the pointer past an end holds the end */
        double f = (double)(slides[i].to_x - VIEW30_SLIDER_X0) / (VIEW30_SLIDER_X1 - VIEW30_SLIDER_X0);
        double want = round(360 * (2 * (f < 0 ? 0 : f > 1 ? 1 : f) - 1));
        if (slides[i].slider == 1)
            twist = want;
        else
            bend = want;
        char *saved = saved_json(dir);
        assert_non_null(saved);
        cJSON *json = cJSON_Parse(saved);
        free(saved);
        assert_non_null(json);
        cJSON *st = tu_json_get(json, "state");
        if (tu_json_num(st, "twist_deg") != twist || tu_json_num(st, "bend_deg") != bend)
            fail_msg("slide %zu: twist %g, bend %g; expected %g, %g", i, tu_json_num(st, "twist_deg"),
                     tu_json_num(st, "bend_deg"), twist, bend);
        cJSON_Delete(json);
    }
    /* a press beside the tracks is a drag: the angles move by the pointer's motion, not to it */
    char script[300];
    snprintf(script, sizeof script, "%s/drag.txt", ctx->dir);
    assert_true(tu_write_file(script, "slide 500 300 510\nsave\nquit\n"));
    char *args[] = {"--script", script, "--out", ctx->dir, NULL};
    assert_int_equal(run_view(ctx->out_path, ctx->err_path, "offscreen", args), 0);
    assert_true(tu_file_contains(ctx->out_path, "view30-twist010-bend000"));
}

static void test_bad_environments(void **state)
{
    tu_run_dir *ctx = *state;
    if (!have_view())
        skip();
    const char *display = getenv("DISPLAY"), *wayland = getenv("WAYLAND_DISPLAY");
    char *saved[2] = {display ? strdup(display) : NULL, wayland ? strdup(wayland) : NULL};
    unsetenv("DISPLAY"), unsetenv("WAYLAND_DISPLAY");
    char *none[] = {NULL};
    assert_int_equal(run_view(ctx->out_path, ctx->err_path, NULL, none), 1);
    assert_true(tu_file_contains(ctx->err_path, "no display"));
    assert_true(tu_file_contains(ctx->err_path, "xvfb-run -a make view30"));
    assert_true(tu_file_contains(ctx->err_path, "make lab30"));
    setenv("DISPLAY", ":987", 1); /* set, but no server there: the same, naming it, and only ours */
    assert_int_equal(run_view(ctx->out_path, ctx->err_path, NULL, none), 1);
    assert_true(tu_file_contains(ctx->err_path, "no display to open a window on (DISPLAY=:987"));
    assert_false(tu_file_contains(ctx->err_path, "XDG_RUNTIME_DIR"));
    unsetenv("DISPLAY");
    if (saved[0])
        setenv("DISPLAY", saved[0], 1);
    if (saved[1])
        setenv("WAYLAND_DISPLAY", saved[1], 1);
    free(saved[0]), free(saved[1]);
    /* usage: as the programs' options, an option given twice too; the files it reads there,
     * regular, a script bounded (never /dev/zero, a folder or a missing file) */
    char *usage[][5] = {{"--twist", "3600.5", NULL}, {"--bend", "nan", NULL}, {"--method", "LBSX", NULL},
                        {"--weights", "", NULL}, {"--frobnicate", NULL, NULL}, {"a.gltf", "b.gltf", NULL},
                        {"--twist", "1", "--twist", "2", NULL}, {"--sheet", "/tmp", NULL},
                        {"--sheet", "/nonexistent/sheet.c", NULL}, {"--script", "/dev/zero", NULL},
                        {"--script", "/nonexistent/script.txt", NULL}};
    const char *why[] = {"[-3600, 3600]", "[-3600, 3600]", "one of LBS", "one of hand", "needs a value",
                         "one asset at a time", "is given twice", "is not a regular file", "No such file",
                         "is not a regular file", "No such file"};
    for (size_t k = 0; k < sizeof usage / sizeof usage[0]; k++) {
        assert_int_equal(run_view(ctx->out_path, ctx->err_path, "offscreen", usage[k]), 2);
        assert_true(tu_file_contains(ctx->err_path, "view30: error: "));
        if (!tu_file_contains(ctx->err_path, why[k]))
            fail_msg("view30 %s: no \"%s\" in its error", usage[k][0], why[k]);
    }
    /* a benchmark whose table cannot be written: exit 3, saying why */
    char *full[] = {"--bench", "/dev/full", NULL};
    assert_int_equal(run_view(ctx->out_path, ctx->err_path, "offscreen", full), 3);
    assert_true(tu_file_contains(ctx->err_path, "/dev/full: the frame times could not be written: No space left"));
}

/* Out of memory in the lab's own code: every allocation view30 makes before SDL starts (the
 * rigs, bone heat's and BBW's solves, the fixes, lab30's animation), failed alone and from
 * there on, at sites sampled evenly (tests/faultshim.c; its SITES_WITHOUT leaves out SDL's
 * own call chains and says where SDL's first allocation is). Each run ends on the contract:
 * the normal save, or exit 3 with the out-of-memory message and nothing written. SDL 2.26's
 * own setup is SDL's: an allocation failing inside SDL_Init can end in a crash inside SDL
 * (the page says so). A sanitizer build brings its own allocator: skipped there. */
#if defined(__SANITIZE_ADDRESS__)
#define VIEW30_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define VIEW30_TEST_SANITIZED 1
#endif
#endif
static void test_out_of_memory(void **state)
{
    tu_run_dir *ctx = *state;
    if (!have_view())
        skip();
#ifdef VIEW30_TEST_SANITIZED
    fprintf(stderr, "skipped: a sanitizer build brings its own allocator and cannot take the preloaded shim\n");
    skip();
#endif
    char *shim = realpath(FAULTSHIM, NULL);
    assert_non_null(shim);
    char script[256], sites[256], span[256], out[256];
    snprintf(script, sizeof script, "%s/script.txt", ctx->dir);
    snprintf(sites, sizeof sites, "%s/sites.txt", ctx->dir);
    snprintf(span, sizeof span, "%s/span.txt", ctx->dir);
    snprintf(out, sizeof out, "%s/out", ctx->dir);
    assert_true(tu_write_file(script, "save\nquit\n"));
    char *args[] = {"--script", script, "--out", out, NULL};
    assert_int_equal(mkdir(out, 0777), 0);
    setenv("LD_PRELOAD", shim, 1), setenv("SITES_FILE", sites, 1), setenv("SITES_WITHOUT", "libSDL2", 1);
    setenv("SITES_WITHOUT_SPAN", span, 1);
    int normal = run_view(ctx->out_path, ctx->err_path, "offscreen", args);
    unsetenv("SITES_FILE"), unsetenv("SITES_WITHOUT"), unsetenv("SITES_WITHOUT_SPAN");
    assert_int_equal(normal, 0);
    assert_int_equal(tu_count_entries(out), 2);
    long sdl_first = 0, sdl_last = 0, site[4096];
    int n = 0;
    FILE *f = fopen(span, "r");
    assert_non_null(f);
    assert_int_equal(fscanf(f, "%ld %ld", &sdl_first, &sdl_last), 2);
    fclose(f);
    assert_non_null(f = fopen(sites, "r"));
    while (n < 4096 && fscanf(f, "%ld", &site[n]) == 1)
        n += site[n] < sdl_first; /* the lab's own, before SDL starts */
    fclose(f);
    assert_true(n > 50); /* the scene's solves: well over fifty distinct call chains */
    enum { SAMPLE = 12 };
    for (int k = 0; k < SAMPLE; k++) {
        long at = site[(long)k * (n - 1) / (SAMPLE - 1)];
        for (int way = 0; way < 2; way++) {
            char number[32];
            snprintf(number, sizeof number, "%ld", at);
            tu_remove_tree(out);
            assert_int_equal(mkdir(out, 0777), 0);
            setenv(way ? "FAIL_FROM" : "FAIL_AT", number, 1);
            int code = run_view(ctx->out_path, ctx->err_path, "offscreen", args);
            unsetenv("FAIL_AT"), unsetenv("FAIL_FROM");
            int files = tu_count_entries(out);
            bool ok = (code == 0 && files == 2) ||
                      (code == 3 && files == 0 && tu_file_contains(ctx->err_path, "view30: error: out of memory, "));
            if (!ok) {
                unsetenv("LD_PRELOAD");
                char *err = tu_read_file(ctx->err_path, NULL), shown[512];
                snprintf(shown, sizeof shown, "%s", err ? err : "");
                free(err), free(shim);
                fail_msg("allocation %ld failed %s: exit %d, %d files, not the contract:\n%s", at,
                         way ? "from there on" : "alone", code, files, shown);
            }
        }
    }
    unsetenv("LD_PRELOAD");
    free(shim);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_scripted_session, tu_run_dir_setup, tu_run_dir_teardown),
        cmocka_unit_test_setup_teardown(test_asset_plays, tu_run_dir_setup, tu_run_dir_teardown),
        cmocka_unit_test_setup_teardown(test_asset_skeleton_and_names, tu_run_dir_setup, tu_run_dir_teardown),
        cmocka_unit_test_setup_teardown(test_sliders, tu_run_dir_setup, tu_run_dir_teardown),
        cmocka_unit_test_setup_teardown(test_bad_environments, tu_run_dir_setup, tu_run_dir_teardown),
        cmocka_unit_test_setup_teardown(test_out_of_memory, tu_run_dir_setup, tu_run_dir_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
