/* test_figure.c - wireframe panels (colours, order, markers) and composed figures. */
#include <math.h>
#include <stdlib.h>

#include "cmocka_all.h"
#include "draw/figure.h"

static const rgb ink = {10, 20, 30};

static int count_color(const canvas *c, rgb color)
{
    int n = 0;
    for (int y = 0; y < c->height; y++)
        for (int x = 0; x < c->width; x++)
            n += rgb_equal(canvas_get(c, x, y), color);
    return n;
}

/* A square in the z = 0 plane seen from +z: edge 0 highlighted, edge 1 in the band. */
static void test_figure_panel_colours_and_markers(void **state)
{
    (void)state;
    canvas c;
    assert_int_equal(canvas_init(&c, 40, 40, FIGURE_BACKGROUND, NULL), LAB_OK);
    camera cam = {camera_look_at(vec3_make(0, 0, 5), vec3_make(0, 0, 0), vec3_make(0, 1, 0)),
                  camera_orthographic(-2, 2, -2, 2, 1, 10), {0, 0, 40, 40}};
    vec3 p[4] = {{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}};
    mesh_edge e[4] = {{0, 1}, {1, 2}, {2, 3}, {0, 3}};
    bool hi[4] = {true, false, false, false}, band[4] = {false, true, false, false};
    figure_panel panel = {.positions = p, .edges = e, .edge_count = 4, .highlight = hi,
                          .band = band};
    figure_draw_panel(&c, &cam, &panel);
    /* the bottom edge (y = -1, low on screen) is orange, with 3x3 markers at its ends */
    assert_true(rgb_equal(canvas_get(&c, 20, 30), FIGURE_HIGHLIGHT));
    assert_true(rgb_equal(canvas_get(&c, 11, 31), FIGURE_HIGHLIGHT)); /* marker around (10,30) */
    assert_true(rgb_equal(canvas_get(&c, 30, 20), FIGURE_BAND));      /* right edge, x = +1 */
    assert_true(rgb_equal(canvas_get(&c, 20, 10), FIGURE_EDGE));      /* top edge */
    assert_int_equal(count_color(&c, FIGURE_AXIS), 0);                /* no axis given */
    canvas_free(&c);
}

static void test_figure_compose_row_and_grid(void **state)
{
    (void)state;
    canvas p[3];
    for (int i = 0; i < 3; i++) {
        assert_int_equal(canvas_init(&p[i], 4, 3, FIGURE_BACKGROUND, NULL), LAB_OK);
        canvas_put(&p[i], 0, 0, ink);
    }
    canvas_put(&p[1], 3, 2, (rgb){9, 9, 9});
    canvas fig;
    assert_int_equal(figure_compose(&fig, p, 2, 2, NULL, NULL), LAB_OK);
    assert_int_equal(fig.width, 2 + 4 + 2 + 4 + 2);
    assert_int_equal(fig.height, 3 + 4);
    assert_true(rgb_equal(canvas_get(&fig, 2, 2), ink));
    assert_true(rgb_equal(canvas_get(&fig, 8, 2), ink));
    assert_true(rgb_equal(canvas_get(&fig, 11, 4), (rgb){9, 9, 9}));
    canvas_free(&fig);
    /* three panels on two columns: the third starts a second row */
    assert_int_equal(figure_compose_grid(&fig, p, 3, 2, 2, NULL, NULL), LAB_OK);
    assert_int_equal(fig.width, 2 + 2 * (4 + 2));
    assert_int_equal(fig.height, 2 + 2 * (3 + 2));
    assert_true(rgb_equal(canvas_get(&fig, 2, 2 + 3 + 2), ink));
    assert_int_equal(count_color(&fig, ink), 3);
    assert_int_equal(fig.text_outside, 0);
    canvas_free(&fig);
    /* a panel's label that does not fit makes the composed figure refusable too (before,
     * composing dropped it and a cut label reached a committed figure) */
    raster_text(&p[2], 0, 0, 1, "too long for four pixels", ink);
    assert_true(p[2].text_outside > 0);
    assert_int_equal(figure_compose_grid(&fig, p, 3, 2, 2, NULL, NULL), LAB_OK);
    assert_int_equal(fig.text_outside, p[2].text_outside);
    assert_string_equal(fig.first_outside, "too long for four pixels");
    canvas_free(&fig);
    for (int i = 0; i < 3; i++)
        canvas_free(&p[i]);
}

/* Hidden lines on two overlapping triangles seen from +z (10 pixels a unit, the screen's y
 * down): A, in front at z = 1, covers x in [-1, 1] above y = -1; B, behind it at z = -1, is
 * the same shape moved right by 1. B's left edge (x = 0) runs behind A: hidden, except below
 * A; A's edges all show; B's edges beyond A's right end (x > 1) show. Without hidden lines
 * every edge shows. The depths: camera at z = 5 looking down -z, near 1 and far 10, so A is
 * nearer (its NDC depth is smaller). */
static void test_figure_hidden_lines(void **state)
{
    (void)state;
    vec3 p[6] = {{-1, -1, 1}, {1, -1, 1}, {-1, 1, 1}, {0, -1, -1}, {2, -1, -1}, {0, 1, -1}};
    mesh_triangle t[2] = {{{0, 1, 2}}, {{3, 4, 5}}};
    mesh_edge e[6] = {{0, 1}, {1, 2}, {0, 2}, {3, 4}, {4, 5}, {3, 5}};
    bool hi[6] = {false, false, false, false, false, true}; /* B's left edge in orange */
    camera cam = {camera_look_at(vec3_make(0, 0, 5), vec3_make(0, 0, 0), vec3_make(0, 1, 0)),
                  camera_orthographic(-2, 3, -2, 2, 1, 10), {0, 0, 50, 40}};
    for (int hidden = 0; hidden < 2; hidden++) {
        canvas c;
        assert_int_equal(canvas_init(&c, 50, 40, FIGURE_BACKGROUND, NULL), LAB_OK);
        figure_panel panel = {.positions = p, .edges = e, .edge_count = 6, .highlight = hi,
                              .triangles = t, .triangle_count = 2, .hidden_lines = hidden};
        figure_draw_panel(&c, &cam, &panel);
        /* B's left edge x = 0 (screen x 20), from y = -1 to 1 (screen rows 30 to 10): inside
         * A's triangle where y < -x... A covers x + y <= 0 at x = 0 only up to y = 0 (row 20) */
        int shown = 0;
        for (int y = 11; y < 29; y++)
            shown += rgb_equal(canvas_get(&c, 20, y), FIGURE_HIGHLIGHT);
        if (hidden) /* rows 21 to 28 are behind A (y < 0 at x = 0), rows 11 to 19 are not */
            assert_true(shown >= 8 && shown <= 10);
        else
            assert_int_equal(shown, 18);
        assert_true(rgb_equal(canvas_get(&c, 15, 30), FIGURE_EDGE)); /* A's bottom edge, in front */
        assert_true(rgb_equal(canvas_get(&c, 35, 30), FIGURE_EDGE)); /* B's bottom edge, beyond A */
        canvas_free(&c);
    }
}

/* Lambert shading: a flat triangle facing the camera, every corner's normal n, lit from l:
 * every pixel inside is base * max(0, n . l), computed here; lit from behind, black. */
static void test_figure_lambert_shade_of_a_flat_triangle(void **state)
{
    (void)state;
    vec3 p[3] = {{-1, -1, 0}, {1, -1, 0}, {-1, 1, 0}};
    mesh_triangle t[1] = {{{0, 1, 2}}};
    double len = sqrt(0.3 * 0.3 + 0.2 * 0.2 + 1.0);
    vec3 n = {0.3 / len, -0.2 / len, 1.0 / len}, normals[3] = {n, n, n};
    const rgb base = {200, 180, 160};
    camera cam = {camera_look_at(vec3_make(0, 0, 5), vec3_make(0, 0, 0), vec3_make(0, 1, 0)),
                  camera_orthographic(-2, 2, -2, 2, 1, 10), {0, 0, 40, 40}};
    const vec3 lights[2] = {{0.0, 0.6, 0.8}, {0.0, 0.0, -1.0}};
    for (int k = 0; k < 2; k++) {
        canvas c;
        assert_int_equal(canvas_init(&c, 40, 40, FIGURE_BACKGROUND, NULL), LAB_OK);
        figure_surface surface = {.positions = p, .normals = normals, .triangles = t, .triangle_count = 1,
                                  .light = lights[k], .base = base};
        figure_draw_surface(&c, &cam, &surface);
        double shade = n.x * lights[k].x + n.y * lights[k].y + n.z * lights[k].z;
        shade = shade > 0 ? shade : 0;
        rgb expected = {(unsigned char)lround(200 * shade), (unsigned char)lround(180 * shade),
                        (unsigned char)lround(160 * shade)};
        assert_true(rgb_equal(canvas_get(&c, 14, 22), expected)); /* inside: x + y < 0 */
        assert_true(rgb_equal(canvas_get(&c, 30, 10), FIGURE_BACKGROUND)); /* outside */
        assert_int_equal(count_color(&c, expected), 40 * 40 - count_color(&c, FIGURE_BACKGROUND));
        canvas_free(&c);
    }
}

/* The z-buffer: two overlapping triangles, red at z = 1 (nearer the camera at z = 5) and
 * blue at z = -1; where they overlap the red one shows, whichever is drawn first. */
static void test_figure_z_buffer_order(void **state)
{
    (void)state;
    vec3 p[6] = {{-1, -1, 1}, {1, -1, 1}, {-1, 1, 1}, {-0.5, -1, -1}, {1.5, -1, -1}, {-0.5, 1, -1}};
    const rgb red = {220, 0, 0}, blue = {0, 0, 220};
    rgb colors[6] = {red, red, red, blue, blue, blue};
    camera cam = {camera_look_at(vec3_make(0, 0, 5), vec3_make(0, 0, 0), vec3_make(0, 1, 0)),
                  camera_orthographic(-2, 2, -2, 2, 1, 10), {0, 0, 40, 40}};
    const mesh_triangle orders[2][2] = {{{{0, 1, 2}}, {{3, 4, 5}}}, {{{3, 4, 5}}, {{0, 1, 2}}}};
    for (int k = 0; k < 2; k++) {
        canvas c;
        assert_int_equal(canvas_init(&c, 40, 40, FIGURE_BACKGROUND, NULL), LAB_OK);
        figure_surface surface = {.positions = p, .colors = colors, .triangles = orders[k], .triangle_count = 2};
        figure_draw_surface(&c, &cam, &surface);
        assert_true(rgb_equal(canvas_get(&c, 16, 25), red));  /* (-0.35, -0.55): in both, red in front */
        assert_true(rgb_equal(canvas_get(&c, 30, 26), blue)); /* (1.05, -0.65): in blue only */
        canvas_free(&c);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_figure_hidden_lines),
        cmocka_unit_test(test_figure_lambert_shade_of_a_flat_triangle),
        cmocka_unit_test(test_figure_z_buffer_order),
        cmocka_unit_test(test_figure_panel_colours_and_markers),
        cmocka_unit_test(test_figure_compose_row_and_grid),
    };
    return cmocka_run_group_tests_name("figure", tests, NULL, NULL);
}
