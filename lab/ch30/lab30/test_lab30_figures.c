/* test_lab30_figures.c - end to end: lab30's figures re-read with stb_image and its
 * animation with giflib, checked against this test's own projection of the JSON's points;
 * two runs give the same bytes, and the committed out/ch30/ is up to date. Its contract
 * and evidence are test_lab30.c's. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_all.h"
#include "testutil.h"

#include "draw/figure.h"
#include "draw/raster.h"

#define LAB30 LAB_BIN_DIR "/lab30"
static const unsigned char orange[3] = {255, 140, 0};
static const char *const outputs[] = {"skinning30.png", "skinning30-theta000.png",
                                      "skinning30-theta090.png", "skinning30-theta180.png",
                                      "skinning30.json", "skinning30-radii.csv", "skinning30-hand.png",
                                      "skinning30-weights.png", "skinning30-refused-weights.png",
                                      "skinning30-twist.gif", "lab30-checks.json"};
enum { OUTPUT_COUNT = sizeof outputs / sizeof outputs[0] };

typedef tu_run_dir run_ctx;

/* Runs lab30 with the NULL-terminated arguments and returns its exit code. */
#define run_lab(ctx, ...) tu_run_program(LAB30, (ctx)->out_path, (ctx)->err_path, __VA_ARGS__, (char *)NULL)

/* ---- refused data loses nothing ----------------------------------------------------- */

/* Question C: weights (0.4, 0.4) are rejected with the article's explanation, and the
 * outputs of an earlier run stay exactly as they were. */
static void test_lab30_rejected_weights_lose_nothing(void **state)
{
    run_ctx *ctx = *state;
    assert_int_equal(run_lab(ctx, ctx->dir), 0);
    size_t before_len;
    char *before = tu_read_file(tu_path(ctx->dir, "skinning30.json"), &before_len);
    assert_int_equal(run_lab(ctx, "--middle-weights", "0.4,0.4", ctx->dir), 1);
    assert_true(tu_file_contains(ctx->err_path, "ring 4"));
    assert_true(tu_file_contains(ctx->err_path, "sum to 0.8, not 1"));
    assert_true(tu_file_contains(ctx->err_path, "0.8 p with homogeneous w = 0.8"));
    /* a negative weight summing to 1 breaks the other rule, named as such (--help says it) */
    assert_int_equal(run_lab(ctx, "--middle-weights", "-0.5,1.5", ctx->dir), 1);
    assert_true(tu_file_contains(ctx->err_path, "weights must be non-negative, vertex 96 slot 0 (ring 4"));
    assert_true(tu_file_contains(ctx->err_path, "weight -0.5"));
    size_t after_len;
    char *after = tu_read_file(tu_path(ctx->dir, "skinning30.json"), &after_len);
    assert_int_equal(before_len, after_len);
    assert_memory_equal(before, after, before_len);
    assert_int_equal(tu_count_entries(ctx->dir), OUTPUT_COUNT + 1); /* and the manifest; no temporaries */
    free(before);
    free(after);
}

/* ---- the hand control and the weights ------------------------------------------------ */

/* Section 4 shown, not only asserted: the hand-control panel puts each point where the
 * computation put it (100 pixels a unit, origin at (270, 365)), in its colour; the JSON
 * says the cylinder cannot tell the orders apart and the hand control can; the weights
 * panel's colour bar runs from green (root) to red (child). */
static void test_lab30_hand_control_and_weights_panels(void **state)
{
    run_ctx *ctx = *state;
    assert_int_equal(run_lab(ctx, ctx->dir), 0);
    tu_image img;
    assert_true(tu_image_load(tu_path(ctx->dir, "skinning30-hand.png"), &img));
    const struct { double x, y; unsigned char r, g, b; } marks[] = {
        {0.5, 1.5, 0, 140, 60}, /* the correct blend, green */
        {0, 1.5, 200, 30, 30},  /* G1 alone, red */
        {0, 1, 200, 30, 30},    /* B1^-1 G1, red */
        {0, 2, 40, 90, 200},    /* C1 p, blue */
    };
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++) {
        const unsigned char *px = &img.rgb[3 * ((int)(365 - 100 * marks[i].y) * img.width + (int)(270 + 100 * marks[i].x))];
        assert_true(px[0] == marks[i].r && px[1] == marks[i].g && px[2] == marks[i].b);
    }
    tu_image_free(&img);
    cJSON *root = tu_json_load(tu_path(ctx->dir, "skinning30.json"));
    cJSON *hand = tu_json_get(tu_json_get(root, "checks"), "hand_control");
    assert_true(tu_json_num(hand, "reversed_order_on_cylinder") == 0.0);
    assert_near(tu_json_num(tu_json_get(hand, "reversed_order"), "error_vs_correct"), sqrt(0.5), 1e-12);
    assert_true(tu_json_num(hand, "row_column_difference") < 1e-15);
    cJSON *local = tu_json_get(hand, "in_bind_frame");
    assert_near(tu_json_number(cJSON_GetArrayItem(local, 0)), 1, 1e-15);
    assert_near(tu_json_number(cJSON_GetArrayItem(local, 1)), 0, 1e-15);
    cJSON_Delete(root);
    assert_true(tu_image_load(tu_path(ctx->dir, "skinning30-weights.png"), &img));
    const unsigned char *lo = &img.rgb[3 * (47 * img.width + 41)], *hi = &img.rgb[3 * (47 * img.width + 40 + 12 * 19 + 6)];
    assert_true(lo[1] > lo[0] && hi[0] > hi[1]); /* green at w1 = 0, red at w1 = 1 */
    tu_image_free(&img);
}

/* ---- the figure -------------------------------------------------------------------- */

typedef struct { double view[4][4], proj[4][4]; int vp[4]; } json_camera;

static void load_camera(const cJSON *root, json_camera *cam)
{
    cJSON *c = tu_json_get(root, "camera");
    for (int r = 0; r < 4; r++)
        for (int k = 0; k < 4; k++) {
            cam->view[r][k] = cJSON_GetArrayItem(cJSON_GetArrayItem(tu_json_get(c, "view"), r), k)->valuedouble;
            cam->proj[r][k] = cJSON_GetArrayItem(cJSON_GetArrayItem(tu_json_get(c, "projection"), r), k)->valuedouble;
        }
    for (int i = 0; i < 4; i++)
        cam->vp[i] = cJSON_GetArrayItem(tu_json_get(c, "viewport"), i)->valueint;
}

/* This test's own chain: clip = P V p, divide, viewport with NDC +y at the top. */
static void project(const json_camera *cam, const double p[3], double *px, double *py)
{
    double h[4] = {p[0], p[1], p[2], 1}, v[4], c[4];
    for (int r = 0; r < 4; r++)
        v[r] = cam->view[r][0] * h[0] + cam->view[r][1] * h[1] + cam->view[r][2] * h[2] + cam->view[r][3];
    for (int r = 0; r < 4; r++)
        c[r] = cam->proj[r][0] * v[0] + cam->proj[r][1] * v[1] + cam->proj[r][2] * v[2] + cam->proj[r][3] * v[3];
    *px = cam->vp[0] + 0.5 * (c[0] / c[3] + 1.0) * cam->vp[2];
    *py = cam->vp[1] + 0.5 * (1.0 - c[1] / c[3]) * cam->vp[3];
}

static bool is_orange(const tu_image *img, int x, int y)
{
    return !memcmp(img->rgb + 3 * (y * img->width + x), orange, 3);
}

static void test_lab30_figure_shows_ring_and_collapse(void **state)
{
    run_ctx *ctx = *state;
    assert_int_equal(run_lab(ctx, ctx->dir), 0);
    cJSON *root = tu_json_load(tu_path(ctx->dir, "skinning30.json"));
    json_camera cam;
    load_camera(root, &cam);
    cJSON_Delete(root);

    /* theta = 0: the orange pixels span the ring's projected ellipse */
    tu_image img;
    assert_true(tu_image_load(tu_path(ctx->dir, "skinning30-theta000.png"), &img));
    double ex0 = 1e9, ex1 = -1e9, ey0 = 1e9, ey1 = -1e9;
    for (int k = 0; k < 360; k++) {
        double p[3] = {cos(k * 3.141592653589793 / 180), sin(k * 3.141592653589793 / 180), 1}, x, y;
        project(&cam, p, &x, &y);
        ex0 = fmin(ex0, x), ex1 = fmax(ex1, x), ey0 = fmin(ey0, y), ey1 = fmax(ey1, y);
    }
    int ox0 = img.width, ox1 = -1, oy0 = img.height, oy1 = -1;
    for (int y = 0; y < img.height; y++)
        for (int x = 0; x < img.width; x++)
            if (is_orange(&img, x, y))
                ox0 = x < ox0 ? x : ox0, ox1 = x > ox1 ? x : ox1, oy0 = y < oy0 ? y : oy0,
                oy1 = y > oy1 ? y : oy1;
    const double reach = FIGURE_MARKER_HALF + 1.5; /* a vertex's marker square, and a pixel */
    assert_near(ox0, ex0, reach);
    assert_near(ox1 + 1 - ex1, 0, reach);
    assert_near(oy0, ey0, reach);
    assert_near(oy1 + 1 - ey1, 0, reach);
    assert_true(ex1 - ex0 > 100 && ey1 - ey0 > 20); /* an ellipse, not a line: oblique view */
    tu_image_free(&img);

    /* theta = 180: every orange pixel lies on the axis's projection, within a marker */
    assert_true(tu_image_load(tu_path(ctx->dir, "skinning30-theta180.png"), &img));
    double a[3] = {0, 0, 0}, b[3] = {0, 0, 2}, ax, ay, bx, by;
    project(&cam, a, &ax, &ay);
    project(&cam, b, &bx, &by);
    int count = 0;
    for (int y = 0; y < img.height; y++)
        for (int x = 0; x < img.width; x++)
            if (is_orange(&img, x, y)) {
                double px = x + 0.5 - ax, py = y + 0.5 - ay, dx = bx - ax, dy = by - ay;
                double d = fabs(px * dy - py * dx) / hypot(dx, dy);
                assert_true(d <= FIGURE_MARKER_HALF * sqrt(2.0) + 1.0);
                count++;
            }
    assert_true(count > 0);
    tu_image_free(&img);

    /* the figure holds the three panels side by side, each with orange in it */
    assert_true(tu_image_load(tu_path(ctx->dir, "skinning30.png"), &img));
    tu_image panel;
    assert_true(tu_image_load(tu_path(ctx->dir, "skinning30-theta090.png"), &panel));
    assert_true(img.width > 3 * panel.width && img.height > panel.height);
    for (int i = 0; i < 3; i++) {
        int found = 0;
        for (int y = 0; y < img.height && !found; y++)
            for (int x = 12 + i * (panel.width + 12); x < 12 + (i + 1) * panel.width + i * 12; x++)
                found |= is_orange(&img, x, y);
        assert_true(found);
    }
    tu_image_free(&panel);
    tu_image_free(&img);
}

/* ---- determinism and the committed figures ------------------------------------------ */

/* out/ holds the article's figures: two runs give the same bytes, and the same as out/,
 * so the figures never go stale. JSON and CSV byte for byte, PNGs pixel for pixel (the
 * encoder may change, pixels not). */
/* The animation, decoded by giflib here: 73 frames of 0.08 s from 0 to 360 degrees, looping,
 * under 2 MB; the frames at 0, 90 and 180 degrees hold the PNG panels of those poses, pixel
 * for pixel (frame k is 5k degrees). */
static void test_lab30_twist_animation(void **state)
{
    run_ctx *ctx = *state;
    assert_int_equal(run_lab(ctx, ctx->dir), 0);
    tu_gif gif;
    tu_check_animation(tu_path(ctx->dir, "skinning30-twist.gif"), 73, 8, &gif);
    static const char *const panels[3] = {"skinning30-theta000.png", "skinning30-theta090.png", "skinning30-theta180.png"};
    int x0 = -1, y0 = -1;
    for (int i = 0; i < 3; i++) {
        tu_image panel;
        assert_true(tu_image_load(tu_path(ctx->dir, panels[i]), &panel));
        int x, y;
        if (!tu_image_find(&gif.frames[18 * i], &panel, &x, &y))
            fail_msg("frame %d (theta %d) does not hold %s", 18 * i, 90 * i, panels[i]);
        assert_true(i == 0 || (x == x0 && y == y0)); /* the same place in every frame */
        x0 = x, y0 = y;
        /* and no other frame holds it: the frames move */
        assert_false(tu_image_find(&gif.frames[18 * i + 1], &panel, &x, &y));
        tu_image_free(&panel);
    }
    tu_gif_free(&gif);
}

static void test_lab30_deterministic_and_committed(void **state)
{
    (void)state;
    /* make lab30 runs lab30 --gltf (lab/ch30/lab30/program.mk) */
    const char *committed[OUTPUT_COUNT + 1];
    for (int i = 0; i < OUTPUT_COUNT; i++)
        committed[i] = outputs[i];
    committed[OUTPUT_COUNT] = "skinning30.gltf";
    tu_check_deterministic_and_committed(LAB30, (const char *[]){"--gltf", NULL}, NULL, committed, OUTPUT_COUNT + 1,
                                         "lab30");
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, tu_run_dir_setup, tu_run_dir_teardown)
    const struct CMUnitTest tests[] = {
        T(test_lab30_rejected_weights_lose_nothing),
        T(test_lab30_hand_control_and_weights_panels),
        T(test_lab30_figure_shows_ring_and_collapse),
        T(test_lab30_twist_animation),
        T(test_lab30_deterministic_and_committed),
    };
#undef T
    return cmocka_run_group_tests_name("lab30's figures end to end", tests, NULL, NULL);
}
