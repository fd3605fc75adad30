/* test_view30.c - the window: its frames without a screen (every method, weight set and
 * angle the options accept, the live numbers against closed forms computed here, the
 * twist panel pixel for pixel lab30's PNG), then build/bin/view30 itself under SDL's
 * offscreen driver with scripted input (drags, keys, saves, an asset, a sheet saved with a
 * mistake, fixed, broken, crashing and looping), with no display, under Xvfb with
 * xdotool's real key and mouse events (tests/view30-xvfb.sh), and with its own allocations
 * failing (tests/faultshim.c). */
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
#include "view30_scene.h"

#define VIEW LAB_BIN_DIR "/view30"
#define LAB30 LAB_BIN_DIR "/lab30"
#define VERTS (RIG30_RINGS * RIG30_SEGMENTS)

static view30_scene scene; /* built once: bone heat, BBW and the fixes' precomputations */

static int build_scene(void **state)
{
    (void)state;
    lab_diag d = {0};
    lab_error e = view30_scene_build(&scene, &d);
    if (e != LAB_OK)
        fprintf(stderr, "scene: %s: %s\n", d.where, d.value);
    return e == LAB_OK ? 0 : -1;
}

static int free_scene(void **state)
{
    (void)state;
    view30_scene_free(&scene);
    return 0;
}

/* A seeded generator of its own (the angles, the states). */
static unsigned long long rng = 0x5eed30ULL;
static double uniform(double lo, double hi)
{
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (hi - lo) * (double)(rng >> 11) / 9007199254740992.0;
}

/* lab30's panel at theta (its own run, one pose, as a student runs it) against the window's
 * frame at the same state: the 320 x 496 at the top left, pixel for pixel. */
static void check_same_as_lab30(double theta)
{
    char dir[64], arg[64], tag[40], name[96];
    assert_non_null(tu_make_temp_dir(dir, sizeof dir));
    snprintf(arg, sizeof arg, "%.17g", theta);
    assert_int_equal(tu_run_program(LAB30, NULL, NULL, "--theta", arg, dir, (char *)NULL), 0);
    snprintf(name, sizeof name, "skinning30-theta%s.png", figure_angle_tag(tag, sizeof tag, theta));
    tu_image lab;
    assert_true(tu_image_load(tu_path(dir, name), &lab));
    assert_int_equal(lab.width, VIEW30_PANEL_W);
    assert_int_equal(lab.height, VIEW30_PANEL_H);
    view30_state st = {theta, 0.0, VIEW30_LBS, VIEW30_HAND};
    canvas frame = {0};
    view30_readout r;
    lab_diag d = {0};
    assert_int_equal(view30_frame(&scene, &st, NULL, &frame, &r, &d), LAB_OK);
    int differ = 0;
    for (int y = 0; y < VIEW30_PANEL_H; y++)
        differ += memcmp(frame.rgb + (size_t)y * VIEW30_WIDTH * 3, lab.rgb + (size_t)y * VIEW30_PANEL_W * 3,
                         VIEW30_PANEL_W * 3) != 0;
    if (differ)
        fail_msg("theta %g: %d rows of the window's twist differ from lab30's %s", theta, differ, name);
    tu_image_free(&lab);
    canvas_free(&frame);
    tu_remove_tree(dir);
}

static void test_frames_are_lab30_panels(void **state)
{
    (void)state;
    const double named[] = {137, 180, -270, 725}; /* the collapse, beyond a turn, both signs */
    for (size_t k = 0; k < sizeof named / sizeof named[0]; k++)
        check_same_as_lab30(named[k]);
    for (int k = 0; k < 2; k++) /* seeded, in the whole range, to the tenth of a degree */
        check_same_as_lab30(round(uniform(-3600, 3600) * 10.0) / 10.0);
}

/* Every method and weight set at the seams and at seeded angles: a whole frame whose labels
 * fit, numbers that are finite where the method has them, each against its closed form
 * written here, and the evidence as JSON. */
static void test_every_state(void **state)
{
    (void)state;
    double angles[12] = {0, 180, -180, 360, 540, -3600, 3600, 0.1};
    for (int k = 8; k < 12; k++)
        angles[k] = uniform(-3600, 3600);
    for (int a = 0; a < 12; a++)
        for (int m = 0; m < VIEW30_METHODS; m++)
            for (int w = 0; w < VIEW30_WEIGHT_SETS; w++) {
                view30_state st = {angles[a], angles[(a + 5) % 12], (view30_method)m, (view30_weights)w};
                canvas frame = {0};
                view30_readout r;
                lab_diag d = {0};
                assert_int_equal(view30_frame(&scene, &st, NULL, &frame, &r, &d), LAB_OK);
                if (canvas_check_whole(&frame, "view30", &d) != LAB_OK)
                    fail_msg("twist %g, bend %g, %s, %s: %s: %s", st.twist_deg, st.bend_deg,
                             view30_method_name(st.method), view30_weights_name(st.weights), d.where, d.value);
                canvas_free(&frame);
                const double t = deg_to_rad(st.twist_deg), wm = r.middle_weight;
                assert_true(isfinite(r.middle_radius) && wm >= 0.0 && wm <= 1.0);
                /* the ring's point (1, 0) by the weighted 2-D rotation: (1-w) + w e^{it} */
                const double lbs = hypot((1.0 - wm) + wm * cos(t), wm * sin(t));
                switch (st.method) {
                case VIEW30_LBS: /* the article's formula; M's singular values 1, r'/r, r'/r */
                    if (!(fabs(r.middle_radius - lbs) < 1e-12))
                        fail_msg("LBS, %s weights, twist %.17g: middle ring %.17g, closed form %.17g (w = %.17g)",
                                 view30_weights_name(st.weights), st.twist_deg, r.middle_radius, lbs, wm);
                    assert_true(fabs(r.middle_radius - lbs) < 1e-12);
                    assert_true(fabs(r.middle_closed - lbs) < 1e-12);
                    assert_true(fabs(r.singular[0] - 1.0) < 1e-12 && fabs(r.singular[1] - lbs) < 1e-12 &&
                                fabs(r.singular[2] - lbs) < 1e-12);
                    assert_true(fabs(r.middle_det - lbs * lbs) < 1e-12);
                    break;
                case VIEW30_DQS:
                case VIEW30_COR: /* a rigid rotation: the radius kept (DQS), 1 1 1 */
                    if (st.method == VIEW30_DQS)
                        assert_true(fabs(r.middle_radius - 1.0) < 1e-12);
                    for (int s = 0; s < 3; s++)
                        assert_true(fabs(r.singular[s] - 1.0) < 1e-12);
                    break;
                case VIEW30_TWIST_JOINTS_1:
                case VIEW30_TWIST_JOINTS_3: /* the middle ring follows one helper: radius 1 */
                    assert_true(fabs(r.middle_radius - 1.0) < 1e-12);
                    assert_true(isnan(r.singular[0]));
                    assert_false(r.bend_applies);
                    break;
                case VIEW30_CORRECTIVE_AFTER: /* |cos(t/2)| + t/pi, turned with the ring */
                    if (fabs(wm - 0.5) == 0.0)
                        assert_true(fabs(r.middle_radius - fabs(fabs(cos(t / 2.0)) + t / acos(-1.0))) < 1e-9);
                    break;
                default:
                    break;
                }
                if (r.bend_applies)
                    assert_true(isfinite(r.inner) && isfinite(r.bulge) && r.inner >= 0.0);
                bytes json = {0};
                assert_int_equal(view30_evidence(&st, &r, &json, &d), LAB_OK);
                cJSON *root = cJSON_Parse((const char *)json.data);
                assert_non_null(root);
                assert_true(fabs(tu_json_num(tu_obj(root, "state"), "twist_deg") - st.twist_deg) == 0.0);
                assert_true(fabs(tu_json_num(tu_obj(root, "twist"), "middle_ring_radius") - r.middle_radius) == 0.0);
                cJSON_Delete(root);
                bytes_free(&json);
            }
}

/* The page's picture (lab/ch30/view/view30.png) is the frame at its state, as made now. */
static void test_page_picture_is_current(void **state)
{
    (void)state;
    view30_state st = {137, 30, VIEW30_LBS, VIEW30_HAND};
    canvas frame = {0};
    view30_readout r;
    lab_diag d = {0};
    assert_int_equal(view30_frame(&scene, &st, NULL, &frame, &r, &d), LAB_OK);
    tu_image page;
    assert_true(tu_image_load("lab/ch30/view/view30.png", &page));
    bool same = page.width == frame.width && page.height == frame.height &&
                !memcmp(page.rgb, frame.rgb, (size_t)frame.width * (size_t)frame.height * 3);
    if (!same)
        fail_msg("lab/ch30/view/view30.png is not the frame at twist 137, bend 30, LBS, hand: make it again with "
                 "SDL_VIDEODRIVER=offscreen build/bin/view30 --twist 137 --bend 30 --script lab/ch30/view/page.txt");
    tu_image_free(&page);
    canvas_free(&frame);
}

/* The student's panel: every status it shows fits, positions that are not finite are not
 * drawn (and say so). */
static void test_student_panel(void **state)
{
    (void)state;
    static view30_student s;
    const char *statuses[] = {"version 999999", "not written yet", "no compile: last good one",
                              "stopped at 2 s: a loop?", "crashed: signal 11", "did not run: see stderr"};
    for (size_t k = 0; k < sizeof statuses / sizeof statuses[0]; k++)
        for (int finite = 0; finite < 3; finite++) {
            s = (view30_student){.loaded = true, .has_positions = finite > 0, .positions_deg = -3599.5, .line_count = 8};
            snprintf(s.status, sizeof s.status, "%s", statuses[k]);
            for (int i = 0; i < 8; i++)
                memset(s.lines[i], 'x', VIEW30_LINE - 1);
            for (int v = 0; v < VERTS; v++)
                s.positions[v] = finite == 2 ? scene.sweep[7][v] : vec3_make(NAN, 0, INFINITY);
            canvas frame = {0};
            view30_readout r;
            lab_diag d = {0};
            view30_state st = {10, 20, VIEW30_LBS, VIEW30_HAND};
            assert_int_equal(view30_frame(&scene, &st, &s, &frame, &r, &d), LAB_OK);
            assert_int_equal(canvas_check_whole(&frame, "view30", &d), LAB_OK);
            canvas_free(&frame);
        }
}

/* ---- build/bin/view30 ---------------------------------------------------------------------- */

static bool have_view(void)
{
    if (tu_exists(VIEW))
        return true;
    /* built wherever SDL2 is: make view30 says what to install where it is not */
    fprintf(stderr, "view30 is not built here (no SDL2: libsdl2-dev): its end-to-end tests are skipped\n");
    return false;
}

static int run_view(const char *out, const char *err, const char *driver, char *const *args)
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
static bool twist_panel_equals(const tu_image *frame, const char *lab_png)
{
    tu_image b;
    bool ok = frame->width == VIEW30_WIDTH && frame->height == VIEW30_HEIGHT && tu_image_load(lab_png, &b);
    for (int y = 0; ok && y < VIEW30_PANEL_H; y++)
        ok = memcmp(frame->rgb + (size_t)y * VIEW30_WIDTH * 3, b.rgb + (size_t)y * VIEW30_PANEL_W * 3, VIEW30_PANEL_W * 3) == 0;
    if (frame->width == VIEW30_WIDTH && frame->height == VIEW30_HEIGHT)
        tu_image_free(&b);
    return ok;
}

static bool twist_equals(const char *shot, const char *lab_png)
{
    tu_image a;
    if (!tu_image_load(shot, &a))
        return false;
    bool ok = twist_panel_equals(&a, lab_png);
    tu_image_free(&a);
    return ok;
}

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

/* The command line over what it accepts: seeded angles anywhere in [-3600, 3600] (any
 * double, both signs, the ends), every method and weight set by its option name in seeded
 * letter case; each run's saved frame is, pixel for pixel, the frame made here at the state
 * the options name, and its evidence names that state. */
static void test_options_seeded(void **state)
{
    tu_run_dir *ctx = *state;
    if (!have_view())
        skip();
    static const char *const method_option[VIEW30_METHODS] = {"LBS", "DQS", "CoR", "twist1", "twist3",
                                                               "corrective-before", "corrective-after"};
    static const char *const weights_option[VIEW30_WEIGHT_SETS] = {"hand", "heat", "blender", "bbw"};
    char script[256], out[256];
    snprintf(script, sizeof script, "%s/script.txt", ctx->dir);
    assert_true(tu_write_file(script, "save\nquit\n"));
    int offset = (int)uniform(0, VIEW30_WEIGHT_SETS);
    for (int run = 0; run < VIEW30_METHODS; run++) { /* each method once, each weight set at least once */
        double twist = run == 0 ? 3600.0 : run == 1 ? -3600.0 : uniform(-3600, 3600);
        double bend = run == 0 ? -180.0 : uniform(-3600, 3600);
        view30_method m = (view30_method)run;
        view30_weights w = (view30_weights)((run + offset) % VIEW30_WEIGHT_SETS);
        char targ[40], barg[40], marg[40], warg[40];
        snprintf(targ, sizeof targ, "%.17g", twist), snprintf(barg, sizeof barg, "%.17g", bend);
        snprintf(marg, sizeof marg, "%s", method_option[m]), snprintf(warg, sizeof warg, "%s", weights_option[w]);
        for (char *c = marg; *c; c++) /* the names in any letter case */
            *c = uniform(0, 1) < 0.5 ? (char)toupper((unsigned char)*c) : (char)tolower((unsigned char)*c);
        snprintf(out, sizeof out, "%s/run%d", ctx->dir, run);
        assert_int_equal(mkdir(out, 0777), 0);
        char *args[] = {"--twist", targ, "--bend", barg, "--method", marg, "--weights", warg,
                        "--script", script, "--out", out, NULL};
        assert_int_equal(run_view(ctx->out_path, ctx->err_path, "offscreen", args), 0);
        char png[512] = "", json[512] = "";
        DIR *dir = opendir(out);
        assert_non_null(dir);
        for (struct dirent *e; (e = readdir(dir));) {
            const char *dot = strrchr(e->d_name, '.');
            if (dot && !strcmp(dot, ".png"))
                snprintf(png, sizeof png, "%s/%s", out, e->d_name);
            if (dot && !strcmp(dot, ".json"))
                snprintf(json, sizeof json, "%s/%s", out, e->d_name);
        }
        closedir(dir);
        assert_int_equal(tu_count_entries(out), 2);
        assert_true(png[0] && json[0]);
        view30_state st = {twist, bend, m, w};
        canvas frame = {0};
        view30_readout r;
        lab_diag d = {0};
        assert_int_equal(view30_frame(&scene, &st, NULL, &frame, &r, &d), LAB_OK);
        tu_image saved;
        assert_true(tu_image_load(png, &saved));
        assert_int_equal(saved.width, VIEW30_WIDTH);
        assert_int_equal(saved.height, VIEW30_HEIGHT);
        if (memcmp(saved.rgb, frame.rgb, (size_t)VIEW30_WIDTH * VIEW30_HEIGHT * 3))
            fail_msg("--twist %s --bend %s --method %s --weights %s: the saved frame is not the state's", targ, barg,
                     marg, warg);
        tu_image_free(&saved);
        canvas_free(&frame);
        cJSON *root = tu_json_load(json);
        assert_non_null(root);
        assert_true(tu_json_num(tu_obj(root, "state"), "twist_deg") == twist);
        assert_true(tu_json_num(tu_obj(root, "state"), "bend_deg") == bend);
        assert_string_equal(cJSON_GetStringValue(tu_json_get(tu_obj(root, "state"), "method")), view30_method_name(m));
        assert_string_equal(cJSON_GetStringValue(tu_json_get(tu_obj(root, "state"), "weights")), weights_option[w]);
        cJSON_Delete(root);
    }
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
    char *usage[][3] = {{"--twist", "3600.5", NULL}, {"--bend", "nan", NULL}, {"--method", "LBSX", NULL},
                        {"--weights", "", NULL}, {"--frobnicate", NULL, NULL}, {"a.gltf", "b.gltf", NULL}};
    for (size_t k = 0; k < sizeof usage / sizeof usage[0]; k++) {
        assert_int_equal(run_view(ctx->out_path, ctx->err_path, "offscreen", usage[k]), 2);
        assert_true(tu_file_contains(ctx->err_path, "view30: error: "));
    }
}

/* A sheet saved with a mistake, then fixed, then broken, crashing and looping: the grader's
 * verdicts on stdout (and on screen), the student's twist beside the lab's, and the window
 * alive to the end. */
static void test_sheet_reloads(void **state)
{
    tu_run_dir *ctx = *state;
    if (!have_view())
        skip();
    char cwd[512], sheet[256], script[256], text[4096], files[5][256];
    assert_non_null(getcwd(cwd, sizeof cwd));
    const char *bodies[5] = {
        /* the weights left out: every influence at 1/2 */
        "#define ex30_lbs_point reference_version\n#include \"%s/lab/ch30/grade/solutions/reference.c\"\n#undef ex30_lbs_point\n"
        "vec3 ex30_lbs_point(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette)\n"
        "{ (void)weight; vec4 s = {0, 0, 0, 0}; for (int i = 0; i < k; i++) s = vec4_add(s, vec4_scale(mat4_mul_vec4(palette[joint[i]], vec4_point(p)), 0.5));"
        " return vec3_make(s.x, s.y, s.z); }\n",
        "#include \"%s/lab/ch30/grade/solutions/reference.c\"\n",
        "#include \"%s/lab/ch30/grade/solutions/reference.c\"\nint broken(void) { return undeclared_name; }\n",
        "#define ex30_lbs_point reference_version\n#include \"%s/lab/ch30/grade/solutions/reference.c\"\n#undef ex30_lbs_point\n"
        "vec3 ex30_lbs_point(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette)\n"
        "{ (void)p, (void)joint, (void)weight, (void)k, (void)palette; return *(volatile vec3 *)0; }\n",
        "#define ex30_lbs_point reference_version\n#include \"%s/lab/ch30/grade/solutions/reference.c\"\n#undef ex30_lbs_point\n"
        "vec3 ex30_lbs_point(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette)\n"
        "{ (void)joint, (void)weight, (void)k, (void)palette; for (volatile int s = 1; s;) {} return p; }\n"};
    for (int k = 0; k < 5; k++) {
        snprintf(files[k], sizeof files[k], "%s/v%d.c", ctx->dir, k);
        snprintf(text, sizeof text, bodies[k], cwd);
        assert_true(tu_write_file(files[k], text));
    }
    snprintf(sheet, sizeof sheet, "%s/exercises.c", ctx->dir);
    char *shipped = tu_read_file("lab/ch30/exercises.c", NULL);
    assert_non_null(shipped);
    assert_true(tu_write_file(sheet, shipped));
    free(shipped);
    snprintf(script, sizeof script, "%s/script.txt", ctx->dir);
    snprintf(text, sizeof text,
             "key Right\nwrite %s\nwrite %s\ndrag 85 0\nshot %s/right.png\nwrite %s\nwrite %s\nwrite %s\nquit\n",
             files[0], files[1], ctx->dir, files[2], files[3], files[4]);
    assert_true(tu_write_file(script, text));
    char *args[] = {"--sheet", sheet, "--script", script, "--out", ctx->dir, NULL};
    assert_int_equal(run_view(ctx->out_path, ctx->err_path, "offscreen", args), 0);
    char *out = tu_read_file(ctx->out_path, NULL);
    assert_non_null(out);
    const char *order[] = {"version 1: not written yet", "3. the LBS blend p~' = sum_j w_j C_j p~: not written yet",
                           "version 2: version 2", "3. the LBS blend p~' = sum_j w_j C_j p~: wrong",
                           "version 3: version 3", "3. the LBS blend p~' = sum_j w_j C_j p~: correct",
                           "no compile: last good one", "error", "crashed: signal 11", "stopped at 2 s: a loop?"};
    const char *at = out;
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
        const char *next = strstr(at, order[k]);
        if (!next)
            fail_msg("view30's output lacks \"%s\" after what came before:\n%s", order[k], out);
        at = next + 1;
    }
    free(out);
    /* the student's twist (the reference's) beside the lab's at 90 degrees: the same mesh in
     * the same camera, so the student's panel holds the lab's edges */
    tu_image shot;
    assert_true(tu_image_load(tu_path(ctx->dir, "right.png"), &shot));
    int same = 0, lab_edges = 0;
    for (int y = 120; y < VIEW30_PANEL_H; y++)
        for (int x = 0; x < VIEW30_PANEL_W; x++) {
            const unsigned char *l = shot.rgb + ((size_t)y * VIEW30_WIDTH + (size_t)x) * 3;
            const unsigned char *s = l + VIEW30_PANEL_W * 3;
            lab_edges += l[0] != 255;
            same += l[0] != 255 && memcmp(l, s, 3) == 0;
        }
    assert_true(lab_edges > 1000 && same > lab_edges * 9 / 10);
    tu_image_free(&shot);
}

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
    assert_true(twist_equals(tu_path(ctx->dir, "view30-window.png"), tu_path(lab, "skinning30-theta137.png")));
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
    assert_true(tu_image_load(tu_path(ctx->dir, "view30-window.png"), &read_back));
    assert_memory_equal(screen.rgb, read_back.rgb, (size_t)VIEW30_WIDTH * VIEW30_HEIGHT * 3);
    tu_image_free(&screen), tu_image_free(&read_back);
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
        cmocka_unit_test(test_frames_are_lab30_panels),
        cmocka_unit_test(test_every_state),
        cmocka_unit_test(test_student_panel),
        cmocka_unit_test(test_page_picture_is_current),
        cmocka_unit_test_setup_teardown(test_scripted_session, tu_run_dir_setup, tu_run_dir_teardown),
        cmocka_unit_test_setup_teardown(test_options_seeded, tu_run_dir_setup, tu_run_dir_teardown),
        cmocka_unit_test_setup_teardown(test_asset_plays, tu_run_dir_setup, tu_run_dir_teardown),
        cmocka_unit_test_setup_teardown(test_bad_environments, tu_run_dir_setup, tu_run_dir_teardown),
        cmocka_unit_test_setup_teardown(test_sheet_reloads, tu_run_dir_setup, tu_run_dir_teardown),
        cmocka_unit_test_setup_teardown(test_under_xvfb, tu_run_dir_setup, tu_run_dir_teardown),
        cmocka_unit_test_setup_teardown(test_out_of_memory, tu_run_dir_setup, tu_run_dir_teardown),
    };
    return cmocka_run_group_tests(tests, build_scene, free_scene);
}
