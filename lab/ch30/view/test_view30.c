/* test_view30.c - the window's frames without a screen: every method, weight set and angle
 * the options accept, the live numbers against closed forms computed here, the twist panel
 * pixel for pixel lab30's PNG, the student's panel, the page's picture; and the command
 * line at seeded values, each saved frame the frame made here. build/bin/view30 otherwise:
 * test_view30_run.c (scripted input, options, an asset, bad environments, out of
 * memory) and test_view30_sheet.c (the sheet reloaded on save, a real X display). */
#define _XOPEN_SOURCE 700
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
                /* the twist panel's lines (lab30's): "none" where a number does not apply */
                const skinning30_panel panel = {NULL, NULL, st.twist_deg, r.middle_radius, r.middle_det,
                                                {r.singular[0], r.singular[1], r.singular[2]}};
                char lines[4][64];
                skinning30_panel_labels(&panel, lines);
                for (int k = 0; k < 4; k++)
                    if (strstr(lines[k], "nan") || strstr(lines[k], "inf"))
                        fail_msg("%s, twist %g: \"%s\" on the panel", view30_method_name(st.method), st.twist_deg,
                                 lines[k]);
                bytes json = {0};
                assert_int_equal(view30_evidence(&st, &r, NULL, &json, &d), LAB_OK);
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
 * drawn (and say so); the mistake (the grader's picture shrunk into the panel, of any
 * shape, or none) and its whole verdict wrapped under the panels fit, whatever the verdict
 * and its lines (long, no spaces); and the help over any of these frames fits. */
static void test_student_panel(void **state)
{
    (void)state;
    static view30_student s;
    const char *statuses[] = {"version 999999", "not written yet", "no compile: last good one",
                              "stopped at 2 s: a loop?", "crashed: signal 11", "did not run: see stderr"};
    static const char *const verdicts[] = {"wrong", "crashed", "too slow", "undefined behaviour", "not graded here",
                                           "does not compile"};
    static const int pictures[][2] = {{0, 0}, {500, 800}, {500, 400}, {1, 1}, {4000, 10}, {10, 4000}};
    for (size_t k = 0; k < sizeof statuses / sizeof statuses[0]; k++)
        for (int finite = 0; finite < 3; finite++)
            for (int mistake = 0; mistake < 2; mistake++) {
                s = (view30_student){.loaded = true, .has_positions = finite > 0, .positions_deg = -3599.5,
                                     .line_count = 8};
                snprintf(s.status, sizeof s.status, "%s", statuses[k]);
                for (int i = 0; i < 8; i++)
                    memset(s.lines[i], i % 2 ? 'x' : ' ', VIEW30_TEXT - 1), s.lines[i][0] = 'y';
                for (int v = 0; v < VERTS; v++)
                    s.positions[v] = finite == 2 ? scene.sweep[7][v] : vec3_make(NAN, 0, INFINITY);
                if (mistake) { /* a wrong exercise 24 with every line long */
                    s.verdict_count = 1, s.wrong = 1, s.show_mistake = true;
                    snprintf(s.verdicts[0].line, VIEW30_TEXT, "24. %0300d: %s", 7, verdicts[k]);
                    s.verdicts[0].details = VIEW30_DETAIL;
                    for (int j = 0; j < VIEW30_DETAIL; j++)
                        memset(s.verdicts[0].detail[j], j % 2 ? 'w' : ' ', VIEW30_TEXT - 1);
                    const int *size = pictures[(k + (size_t)finite) % 6];
                    if (size[0])
                        assert_int_equal(canvas_init(&s.mistake, size[0], size[1], (rgb){200, 30, 30}, NULL), LAB_OK);
                }
                static const char *const hows[] = {"by exercises 1-3", "by exercise 10", "by exercises 11-13",
                                                   "by exercise 6", "by exercise 23", "by exercise 24",
                                                   "not on this sheet", "no exercise for it"};
                s.positions_method = (view30_method)((k + (size_t)finite) % VIEW30_METHODS);
                snprintf(s.how, sizeof s.how, "%s", hows[(k * 3 + (size_t)finite) % 8]);
                canvas frame = {0};
                view30_readout r;
                lab_diag d = {0};
                view30_state st = {10, 20, VIEW30_LBS, VIEW30_HAND};
                assert_int_equal(view30_frame(&scene, &st, &s, &frame, &r, &d), LAB_OK);
                assert_int_equal(canvas_check_whole(&frame, "view30", &d), LAB_OK);
                for (int m = 0; m < VIEW30_METHODS && !mistake; m++) /* every method's name and every how */
                    for (int h = 0; h < 8; h++) {
                        canvas again = {0};
                        s.positions_method = (view30_method)m;
                        snprintf(s.how, sizeof s.how, "%s", hows[h]);
                        assert_int_equal(view30_frame(&scene, &st, &s, &again, &r, &d), LAB_OK);
                        assert_int_equal(canvas_check_whole(&again, "view30", &d), LAB_OK);
                        canvas_free(&again);
                    }
                if (mistake && s.mistake.width) { /* the picture drawn in the second panel */
                    int red = 0;
                    for (int y = 0; y < VIEW30_PANEL_H; y++)
                        for (int x = VIEW30_PANEL_W; x < 2 * VIEW30_PANEL_W; x++)
                            red += rgb_equal(canvas_get(&frame, x, y), (rgb){200, 30, 30});
                    assert_true(red > 0);
                }
                view30_help_overlay(&frame);
                assert_int_equal(canvas_check_whole(&frame, "view30 with its help", &d), LAB_OK);
                canvas_free(&frame);
                canvas_free(&s.mistake);
            }
}

/* The bend's numbers are the same with a sheet shown in the bend's place as without it,
 * at seeded states of every method and weight set. */
static void test_bend_numbers_with_a_sheet(void **state)
{
    (void)state;
    static view30_student s;
    s = (view30_student){.loaded = true};
    unsigned long long seed = 30;
    for (int k = 0; k < 14; k++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        view30_state st = {(double)((int)(seed >> 40) % 7201) - 3600, (double)((int)(seed >> 20) % 7201) - 3600,
                           (view30_method)(k % VIEW30_METHODS), (view30_weights)(k % VIEW30_WEIGHT_SETS)};
        canvas a = {0}, b = {0};
        view30_readout without, with;
        lab_diag d = {0};
        assert_int_equal(view30_frame(&scene, &st, NULL, &a, &without, &d), LAB_OK);
        assert_int_equal(view30_frame(&scene, &st, &s, &b, &with, &d), LAB_OK);
        assert_true(with.bend_applies == without.bend_applies);
        assert_memory_equal(&with.inner, &without.inner, sizeof with.inner); /* NaN included, bit for bit */
        assert_memory_equal(&with.bulge, &without.bulge, sizeof with.bulge);
        assert_memory_equal(&with.bend_deg, &without.bend_deg, sizeof with.bend_deg);
        canvas_free(&a), canvas_free(&b);
    }
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_frames_are_lab30_panels),
        cmocka_unit_test(test_every_state),
        cmocka_unit_test(test_student_panel),
        cmocka_unit_test(test_bend_numbers_with_a_sheet),
        cmocka_unit_test(test_page_picture_is_current),
        cmocka_unit_test_setup_teardown(test_options_seeded, tu_run_dir_setup, tu_run_dir_teardown),
    };
    return cmocka_run_group_tests(tests, build_scene, free_scene);
}
