/* test_gif_encode.c - src/draw/gif_encode.h: frames through the encoder and back through
 * giflib's decoder (tests/testutil.c), pixel for pixel; the refusals. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_all.h"
#include "draw/gif_encode.h"
#include "testutil.h"

/* Three 40 x 30 frames of a few colours each, two delays apart: decoded, every pixel and
 * every delay comes back; the same frames give the same bytes. */
static void encode(bytes *out)
{
    gif_writer w;
    lab_diag d;
    assert_int_equal(gif_begin(&w, 40, 30, 7, out, &d), LAB_OK);
    for (int k = 0; k < 3; k++) {
        canvas c;
        assert_int_equal(canvas_init(&c, 40, 30, (rgb){255, 255, 255}, &d), LAB_OK);
        raster_line(&c, 0, 0, 39, 29, (rgb){(unsigned char)(80 * k), 10, 200});
        raster_fill_rect(&c, 5 + k, 5, 10, 10, (rgb){255, 140, 0});
        assert_int_equal(gif_add_frame(&w, &c, &d), LAB_OK);
        canvas_free(&c);
    }
    assert_int_equal(gif_end(&w, &d), LAB_OK);
}

/* The encoded bytes written to dir/name and decoded by giflib (tests/testutil.c). */
static void decode(const bytes *gif_bytes, const char *dir, const char *name, tu_gif *out)
{
    const char *path = tu_path(dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(gif_bytes->data, 1, gif_bytes->len, f), gif_bytes->len);
    fclose(f);
    assert_true(tu_gif_load(path, out));
}

static void test_gif_round_trip(void **state)
{
    tu_run_dir *ctx = *state;
    bytes a = {0}, b = {0};
    encode(&a);
    encode(&b);
    assert_true(a.len == b.len && !memcmp(a.data, b.data, a.len));
    assert_true(!memcmp(a.data, "GIF89a", 6));
    tu_gif gif;
    decode(&a, ctx->dir, "t.gif", &gif);
    assert_int_equal(gif.frame_count, 3);
    assert_true(gif.loops);
    for (int k = 0; k < 3; k++) {
        assert_int_equal(gif.delay_cs[k], 7);
        const unsigned char *p = gif.frames[k].rgb;
        assert_true(p[0] == 80 * k && p[1] == 10 && p[2] == 200); /* (0, 0): the line */
        const unsigned char *q = p + 3 * (10 * 40 + 5 + k);     /* inside the square */
        assert_true(q[0] == 255 && q[1] == 140 && q[2] == 0);
        assert_int_equal(tu_image_count_color(&gif.frames[k], 255, 140, 0), 100);
    }
    tu_gif_free(&gif);
    bytes_free(&a), bytes_free(&b);
}

/* Neighbouring pixels that differ in one channel only: a frame of vertical stripes two
 * colours apart in red only, one in green only, one in blue only. The encoder reuses the
 * previous pixel's index when the colour repeats; one that compared two channels of three
 * would give each frame one colour, and its decoded stripes would be gone. */
static void test_gif_neighbours_one_channel_apart(void **state)
{
    tu_run_dir *ctx = *state;
    static const rgb base = {100, 50, 25}, other[3] = {{101, 50, 25}, {100, 51, 25}, {100, 50, 26}};
    static const char *const channel[3] = {"red", "green", "blue"};
    bytes out = {0};
    gif_writer w;
    lab_diag d;
    assert_int_equal(gif_begin(&w, 8, 2, 5, &out, &d), LAB_OK);
    for (int k = 0; k < 3; k++) {
        canvas c;
        assert_int_equal(canvas_init(&c, 8, 2, base, &d), LAB_OK);
        for (int y = 0; y < 2; y++)
            for (int x = 1; x < 8; x += 2)
                canvas_put(&c, x, y, other[k]);
        assert_int_equal(gif_add_frame(&w, &c, &d), LAB_OK);
        canvas_free(&c);
    }
    assert_int_equal(gif_end(&w, &d), LAB_OK);
    tu_gif gif;
    decode(&out, ctx->dir, "stripes.gif", &gif);
    assert_int_equal(gif.frame_count, 3);
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 16; i++) {
            const unsigned char *p = gif.frames[k].rgb + 3 * i;
            rgb want = i % 2 ? other[k] : base;
            if (p[0] != want.r || p[1] != want.g || p[2] != want.b)
                fail_msg("frame %d (neighbours %s apart only): pixel %d is (%d, %d, %d), not (%d, %d, %d)", k,
                         channel[k], i, p[0], p[1], p[2], want.r, want.g, want.b);
        }
    tu_gif_free(&gif);
    bytes_free(&out);
}

/* A frame of 257 colours, a frame of the wrong size, a frame whose label was cut. */
static void test_gif_refusals(void **state)
{
    (void)state;
    bytes out = {0};
    gif_writer w;
    lab_diag d;
    canvas c;
    assert_int_equal(gif_begin(&w, 257, 1, 5, &out, &d), LAB_OK);
    assert_int_equal(canvas_init(&c, 257, 1, (rgb){0, 0, 0}, &d), LAB_OK);
    for (int x = 0; x < 257; x++)
        canvas_put(&c, x, 0, (rgb){(unsigned char)(x % 256), (unsigned char)(x / 256), 0});
    assert_int_equal(gif_add_frame(&w, &c, &d), LAB_ERR_LIMIT);
    canvas_put(&c, 256, 0, (rgb){0, 0, 0}); /* now 256 colours: accepted */
    assert_int_equal(gif_add_frame(&w, &c, &d), LAB_OK);
    canvas_free(&c);
    assert_int_equal(canvas_init(&c, 10, 1, (rgb){0, 0, 0}, &d), LAB_OK);
    assert_int_equal(gif_add_frame(&w, &c, &d), LAB_ERR_INVALID_ARGUMENT);
    canvas_free(&c);
    assert_int_equal(canvas_init(&c, 257, 1, (rgb){0, 0, 0}, &d), LAB_OK);
    raster_text(&c, 250, 0, 2, "cut", (rgb){255, 255, 255});
    assert_int_equal(gif_add_frame(&w, &c, &d), LAB_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(d.value, "cut off"));
    canvas_free(&c);
    assert_int_equal(gif_end(&w, &d), LAB_OK);
    bytes_free(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_gif_round_trip, tu_run_dir_setup, tu_run_dir_teardown),
        cmocka_unit_test(test_gif_refusals),
        cmocka_unit_test_setup_teardown(test_gif_neighbours_one_channel_apart, tu_run_dir_setup, tu_run_dir_teardown),
    };
    return cmocka_run_group_tests_name("GIF encoder", tests, NULL, NULL);
}
