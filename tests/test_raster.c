/* test_raster.c - integer lines, clipping, dashes, text and the asymmetric 'F' fixture
 * (after stb's test: an odd 6x5 image catches x/y flips and transposes). */
#include <math.h>
#include <string.h>

#include "draw/camera.h"
#include "cmocka_all.h"
#include <stdio.h>

#include "program/output.h"
#include "draw/raster.h"

static const rgb white = {255, 255, 255}, ink = {10, 20, 30};

/* The expected 'F' on a 6x5 canvas, top row first. */
static const char *const f_rows[5] = {
    ".####.",
    ".#....",
    ".###..",
    ".#....",
    ".#....",
};

static void assert_matches_f(const canvas *c)
{
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 6; x++) {
            bool inked = rgb_equal(canvas_get(c, x, y), ink);
            if (inked != (f_rows[y][x] == '#'))
                fail_msg("pixel (%d, %d) is %s", x, y, inked ? "inked" : "blank");
        }
}

static void test_raster_canvas_rejects_empty_size(void **state)
{
    (void)state;
    canvas c;
    assert_int_not_equal(canvas_init(&c, 0, 5, white, NULL), LAB_OK);
    assert_null(c.rgb);
}

static void test_raster_f_fixture_from_lines(void **state)
{
    (void)state;
    canvas c;
    assert_int_equal(canvas_init(&c, 6, 5, white, NULL), LAB_OK);
    raster_line(&c, 1, 4, 1, 0, ink); /* stem, drawn bottom to top */
    raster_line(&c, 4, 0, 1, 0, ink); /* top bar, right to left */
    raster_line(&c, 1, 2, 3, 2, ink); /* middle bar */
    assert_matches_f(&c);
    /* layout: pixel (4, 0) is byte 3 * 4 of the first row */
    assert_int_equal(c.rgb[3 * 4 + 0], ink.r);
    assert_int_equal(c.rgb[3 * (2 * 6 + 3) + 2], ink.b);
    canvas_free(&c);
}

/* The same F through the camera chain: world y up, orthographic box = the image. */
static void test_raster_f_fixture_through_camera(void **state)
{
    (void)state;
    canvas c;
    assert_int_equal(canvas_init(&c, 6, 5, white, NULL), LAB_OK);
    camera cam = {mat4_identity(), camera_orthographic(0, 6, 0, 5, 0.5, 2), {0, 0, 6, 5}};
    const vec3 seg[3][2] = {
        {{1.5, 0.5, -1}, {1.5, 4.5, -1}}, /* stem */
        {{1.5, 4.5, -1}, {4.5, 4.5, -1}}, /* top bar: high world y = top row */
        {{1.5, 2.5, -1}, {3.5, 2.5, -1}}, /* middle bar */
    };
    for (int i = 0; i < 3; i++) {
        vec3 a = camera_project(&cam, seg[i][0]), b = camera_project(&cam, seg[i][1]);
        raster_segment(&c, a.x, a.y, b.x, b.y, 0, 0, ink);
    }
    assert_matches_f(&c);
    canvas_free(&c);
}

static void test_raster_line_all_octants_symmetric(void **state)
{
    (void)state;
    const int ends[8][2] = {{7, 2}, {2, 7}, {-2, 7}, {-7, 2}, {-7, -2}, {-2, -7}, {2, -7}, {7, -2}};
    for (int k = 0; k < 8; k++) {
        canvas a, b;
        assert_int_equal(canvas_init(&a, 21, 21, white, NULL), LAB_OK);
        assert_int_equal(canvas_init(&b, 21, 21, white, NULL), LAB_OK);
        int x1 = 10 + ends[k][0], y1 = 10 + ends[k][1];
        raster_line(&a, 10, 10, x1, y1, ink);
        raster_line(&b, x1, y1, 10, 10, ink);
        int count = 0;
        for (int y = 0; y < 21; y++)
            for (int x = 0; x < 21; x++)
                count += rgb_equal(canvas_get(&a, x, y), ink);
        assert_int_equal(count, 8); /* max(|dx|, |dy|) + 1 pixels */
        assert_true(rgb_equal(canvas_get(&a, 10, 10), ink) && rgb_equal(canvas_get(&a, x1, y1), ink));
        assert_true(rgb_equal(canvas_get(&b, 10, 10), ink) && rgb_equal(canvas_get(&b, x1, y1), ink));
        canvas_free(&a);
        canvas_free(&b);
    }
}

/* Clipping must not change the pixels that are inside: compare with a larger canvas. */
static void test_raster_clipping_keeps_inside_pixels(void **state)
{
    (void)state;
    canvas small, big;
    assert_int_equal(canvas_init(&small, 20, 20, white, NULL), LAB_OK);
    assert_int_equal(canvas_init(&big, 60, 60, white, NULL), LAB_OK);
    raster_line(&small, -15, -7, 35, 26, ink);
    raster_line(&big, 5, 13, 55, 46, ink); /* the same line shifted by (20, 20) */
    for (int y = 0; y < 20; y++)
        for (int x = 0; x < 20; x++)
            assert_true(rgb_equal(canvas_get(&small, x, y), canvas_get(&big, x + 20, y + 20)));
    canvas_free(&small);
    canvas_free(&big);
}

static void test_raster_segment_survives_huge_and_nonfinite(void **state)
{
    (void)state;
    canvas c;
    assert_int_equal(canvas_init(&c, 10, 10, white, NULL), LAB_OK);
    raster_segment(&c, -1e300, 5.5, 1e300, 5.5, 0, 0, ink); /* a horizontal line, clipped */
    for (int x = 0; x < 10; x++)
        assert_true(rgb_equal(canvas_get(&c, x, 5), ink));
    assert_true(rgb_equal(canvas_get(&c, 3, 4), white));
    raster_segment(&c, NAN, 1, 2, 2, 0, 0, (rgb){1, 2, 3});
    raster_segment(&c, 1e9, 1e9, 2e9, 3e9, 0, 0, (rgb){1, 2, 3}); /* misses entirely */
    raster_segment(&c, -1.7e308, -1.7e308, 1.7e308, 1.6e308, 0, 0, ink); /* slope overflows */
    for (int i = 0; i < 100; i++)
        assert_false(rgb_equal(canvas_get(&c, i % 10, i / 10), (rgb){1, 2, 3}));
    canvas_free(&c);
}

static void test_raster_dashed_line_pattern(void **state)
{
    (void)state;
    canvas c;
    assert_int_equal(canvas_init(&c, 20, 1, white, NULL), LAB_OK);
    raster_dashed_line(&c, 0, 0, 19, 0, 3, 2, ink);
    for (int x = 0; x < 20; x++)
        assert_int_equal(rgb_equal(canvas_get(&c, x, 0), ink), (x % 5) < 3);
    canvas_free(&c);
}

/* A label that runs past the canvas is counted, and such a figure cannot be written. */
static void test_raster_text_that_does_not_fit_is_counted(void **state)
{
    (void)state;
    canvas c;
    assert_int_equal(canvas_init(&c, 100, 40, (rgb){255, 255, 255}, NULL), LAB_OK);
    raster_text(&c, 2, 2, 2, "fits", (rgb){0, 0, 0});
    assert_int_equal(c.text_outside, 0);
    raster_text(&c, 2, 2, 2, "perspective view", (rgb){0, 0, 0}); /* 16 characters, 2 px units */
    raster_text(&c, 2, 30, 2, "low", (rgb){0, 0, 0});               /* below the bottom */
    assert_int_equal(c.text_outside, 2);
    assert_string_equal(c.first_outside, "perspective view");
    output_batch b = {0};
    lab_diag d = {0};
    assert_int_equal(output_batch_add_image(&b, "f.png", &c, &d), LAB_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(d.value, "perspective view"));
    assert_null(c.rgb); /* taken and freed */
    output_batch_free(&b);
}

static void test_raster_text_draws_inside_its_box(void **state)
{
    (void)state;
    canvas c;
    assert_int_equal(canvas_init(&c, 120, 40, white, NULL), LAB_OK);
    const char *text = "theta = 90";
    raster_text(&c, 5, 6, 2, text, ink);
    int w = raster_text_width(text, 2), h = raster_text_height(text, 2), inked = 0;
    assert_true(w > 0 && h > 0);
    for (int y = 0; y < 40; y++)
        for (int x = 0; x < 120; x++)
            if (rgb_equal(canvas_get(&c, x, y), ink)) {
                inked++;
                assert_true(x >= 5 && x < 5 + w && y >= 6 && y < 6 + h);
            }
    assert_true(inked > 50);
    canvas_free(&c);
}

/* A label drawn whole equals its characters drawn one at a time, each at the advance of
 * the ones before it: the check of every stroke, the last character's right edge included
 * (the bench chart once lost the right stroke of "5000"'s last zero). Every digit ends
 * labels of 1 to 16 characters: the digit repeated, and after the widest glyphs. */
static void assert_drawn_whole(const char *label)
{
    int w = raster_text_width(label, 1) + 4, h = raster_text_height(label, 1) + 4;
    canvas whole, parts;
    assert_int_equal(canvas_init(&whole, w, h, white, NULL), LAB_OK);
    assert_int_equal(canvas_init(&parts, w, h, white, NULL), LAB_OK);
    raster_text(&whole, 2, 2, 1, label, ink);
    int x = 2;
    for (const char *ch = label; *ch; ch++) {
        char one[2] = {*ch, 0};
        raster_text(&parts, x, 2, 1, one, ink);
        x += raster_text_width(one, 1);
    }
    for (int py = 0; py < h; py++)
        for (int px = 0; px < w; px++)
            if (!rgb_equal(canvas_get(&whole, px, py), canvas_get(&parts, px, py)))
                fail_msg("\"%s\": pixel (%d, %d) differs from its characters drawn one at a time", label, px, py);
    assert_int_equal(whole.text_outside, 0);
    canvas_free(&whole);
    canvas_free(&parts);
}

static void test_raster_text_keeps_every_stroke_of_every_digit(void **state)
{
    (void)state;
    char label[32];
    for (char digit = '0'; digit <= '9'; digit++)
        for (int n = 1; n <= 16; n++) {
            memset(label, digit, (size_t)n), label[n] = '\0';
            assert_drawn_whole(label);
            memset(label, 'X', (size_t)n - 1), label[n - 1] = digit; /* X: 11 quads, the most */
            assert_drawn_whole(label);
        }
    assert_drawn_whole("5000");
    assert_drawn_whole("2000");
    for (char ch = 32; ch < 127; ch++) { /* every character after "50" */
        snprintf(label, sizeof label, "50%c", ch);
        assert_drawn_whole(label);
    }
}

/* canvas_blit_scaled: the 'F' as it is (scale 1); shrunk 2:1, each pixel the mean of its
 * 2 x 2 block (computed here block by block); grown 2:1, each pixel four times; and over
 * seeded sizes either way, a plain colour stays itself and every pixel stays within its
 * box's least and greatest values. */
static void test_raster_blit_scaled_is_a_box_filter(void **state)
{
    (void)state;
    canvas f, out;
    assert_int_equal(canvas_init(&f, 6, 5, white, NULL), LAB_OK);
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 6; x++)
            if (f_rows[y][x] == '#')
                canvas_put(&f, x, y, ink);
    assert_int_equal(canvas_init(&out, 6, 5, (rgb){1, 2, 3}, NULL), LAB_OK);
    canvas_blit_scaled(&out, &f, 0, 0, 6, 5);
    assert_matches_f(&out);
    canvas_free(&out);
    /* 2:1 down on a 6 x 4 crop: the mean of each block, rounded to nearest */
    assert_int_equal(canvas_init(&out, 3, 2, (rgb){1, 2, 3}, NULL), LAB_OK);
    canvas crop;
    assert_int_equal(canvas_init(&crop, 6, 4, white, NULL), LAB_OK);
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 6; x++)
            canvas_put(&crop, x, y, canvas_get(&f, x, y));
    canvas_blit_scaled(&out, &crop, 0, 0, 3, 2);
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < 3; i++) {
            int inked = 0;
            for (int v = 0; v < 2; v++)
                for (int u = 0; u < 2; u++)
                    inked += f_rows[2 * j + v][2 * i + u] == '#';
            rgb want = {(unsigned char)((inked * 10 + (4 - inked) * 255 + 2) / 4),
                        (unsigned char)((inked * 20 + (4 - inked) * 255 + 2) / 4),
                        (unsigned char)((inked * 30 + (4 - inked) * 255 + 2) / 4)};
            if (!rgb_equal(canvas_get(&out, i, j), want))
                fail_msg("block (%d, %d): %d inked of 4, not their mean", i, j, inked);
        }
    canvas_free(&out), canvas_free(&crop);
    /* 1:2 up: each pixel a 2 x 2 block */
    assert_int_equal(canvas_init(&out, 12, 10, (rgb){1, 2, 3}, NULL), LAB_OK);
    canvas_blit_scaled(&out, &f, 0, 0, 12, 10);
    for (int y = 0; y < 10; y++)
        for (int x = 0; x < 12; x++)
            assert_true(rgb_equal(canvas_get(&out, x, y), canvas_get(&f, x / 2, y / 2)));
    canvas_free(&out), canvas_free(&f);
    /* seeded sizes: a plain colour stays itself; every pixel within its box's range */
    unsigned long long s = 30;
    for (int run = 0; run < 60; run++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        int sw = 1 + (int)(s >> 58), sh = 1 + (int)((s >> 52) % 64), w = 1 + (int)((s >> 40) % 70),
            h = 1 + (int)((s >> 30) % 70);
        canvas src;
        assert_int_equal(canvas_init(&src, sw, sh, (rgb){90, 140, 200}, NULL), LAB_OK);
        assert_int_equal(canvas_init(&out, w, h, white, NULL), LAB_OK);
        canvas_blit_scaled(&out, &src, 0, 0, w, h);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                assert_true(rgb_equal(canvas_get(&out, x, y), (rgb){90, 140, 200}));
        for (int k = 0; k < sw * sh * 3; k++) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            src.rgb[k] = (unsigned char)(s >> 56);
        }
        canvas_blit_scaled(&out, &src, 0, 0, w, h);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                /* the box: the source pixels whose centres fall within the pixel's square */
                double cx0 = (double)x * sw / w, cx1 = (double)(x + 1) * sw / w, cy0 = (double)y * sh / h,
                       cy1 = (double)(y + 1) * sh / h;
                int lo[3] = {255, 255, 255}, hi[3] = {0, 0, 0};
                for (int v = 0; v < sh; v++)
                    for (int u = 0; u < sw; u++) {
                        bool inside = (u + 1 > cx0 && u < cx1 && v + 1 > cy0 && v < cy1);
                        for (int k = 0; inside && k < 3; k++) {
                            int value = src.rgb[3 * (v * sw + u) + k];
                            lo[k] = value < lo[k] ? value : lo[k], hi[k] = value > hi[k] ? value : hi[k];
                        }
                    }
                rgb got = canvas_get(&out, x, y);
                const int g[3] = {got.r, got.g, got.b};
                for (int k = 0; k < 3; k++)
                    if (g[k] < lo[k] || g[k] > hi[k])
                        fail_msg("%d x %d into %d x %d: pixel (%d, %d) channel %d is %d, outside [%d, %d]", sw, sh, w,
                                 h, x, y, k, g[k], lo[k], hi[k]);
            }
        canvas_free(&src), canvas_free(&out);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_raster_canvas_rejects_empty_size),
        cmocka_unit_test(test_raster_f_fixture_from_lines),
        cmocka_unit_test(test_raster_f_fixture_through_camera),
        cmocka_unit_test(test_raster_line_all_octants_symmetric),
        cmocka_unit_test(test_raster_clipping_keeps_inside_pixels),
        cmocka_unit_test(test_raster_segment_survives_huge_and_nonfinite),
        cmocka_unit_test(test_raster_dashed_line_pattern),
        cmocka_unit_test(test_raster_text_that_does_not_fit_is_counted),
        cmocka_unit_test(test_raster_text_draws_inside_its_box),
        cmocka_unit_test(test_raster_text_keeps_every_stroke_of_every_digit),
        cmocka_unit_test(test_raster_blit_scaled_is_a_box_filter),
    };
    return cmocka_run_group_tests_name("raster", tests, NULL, NULL);
}
