/* test_plot.c - a plot puts its data where the axes say: y up, x right, clipped to the
 * frame, one legend entry per labelled series. */
#include "cmocka_all.h"
#include "draw/plot.h"

static const rgb red = {200, 0, 0}, blue = {0, 0, 200};

static void bounding_box(const canvas *c, rgb color, int *x0, int *y0, int *x1, int *y1)
{
    *x0 = c->width, *y0 = c->height, *x1 = -1, *y1 = -1;
    for (int y = 0; y < c->height; y++)
        for (int x = 0; x < c->width; x++)
            if (rgb_equal(canvas_get(c, x, y), color)) {
                *x0 = x < *x0 ? x : *x0, *x1 = x > *x1 ? x : *x1;
                *y0 = y < *y0 ? y : *y0, *y1 = y > *y1 ? y : *y1;
            }
}

static void test_plot_rejects_empty_ranges(void **state)
{
    (void)state;
    canvas c;
    plot_spec spec = {.x_min = 1, .x_max = 1, .x_step = 0.1, .y_min = 0, .y_max = 1, .y_step = 0.1};
    assert_int_equal(plot_draw(&c, 400, 300, &spec, NULL), LAB_ERR_OUTPUT);
}

/* A rising line goes from the bottom-left to the top-right of the frame; a falling one
 * the other way; an unlabelled series adds no legend sample. */
static void test_plot_orientation_and_legend(void **state)
{
    (void)state;
    const double x[2] = {0, 1}, up[2] = {0, 1}, down[2] = {1, 0};
    plot_series s[2] = {{x, up, 2, red, 0, 1, "rising", 0, 0}, {x, down, 2, blue, 0, 1, NULL, 0, 0}};
    plot_spec spec = {"t", "x", "y", 0, 1, 0.5, 0, 1, 0.5, s, 2, false, false};
    canvas c;
    assert_int_equal(plot_draw(&c, 700, 400, &spec, NULL), LAB_OK);
    int rx0, ry0, rx1, ry1, bx0, by0, bx1, by1;
    bounding_box(&c, red, &rx0, &ry0, &rx1, &ry1);
    bounding_box(&c, blue, &bx0, &by0, &bx1, &by1);
    /* the blue line spans the plot area exactly; the red one too, plus its legend sample */
    assert_true(bx1 - bx0 > 200 && by1 - by0 > 200);
    assert_true(rgb_equal(canvas_get(&c, bx0, by0), blue) || rgb_equal(canvas_get(&c, bx0 + 1, by0), blue));
    /* rising: at the left edge of the area red is low (large row), blue is high */
    int left = bx0 + 2, red_row = -1, blue_row = -1;
    for (int y = 0; y < c.height; y++) {
        if (rgb_equal(canvas_get(&c, left, y), red))
            red_row = y;
        if (rgb_equal(canvas_get(&c, left, y), blue))
            blue_row = y;
    }
    assert_true(red_row > blue_row + 150);
    assert_true(rx1 > bx1 + 20); /* the legend sample sits right of the plot area */
    canvas_free(&c);
}

/* Markers: a hollow square of the given size on every marker_every-th point, none between;
 * a flat series without markers is 1 pixel high, with them as high as a marker. */
static void test_plot_markers_on_every_nth_point(void **state)
{
    (void)state;
    const double x[3] = {0, 0.5, 1}, y[3] = {0.5, 0.5, 0.5};
    plot_series s = {x, y, 3, red, 0, 1, NULL, 9, 2};
    plot_spec spec = {"t", "x", "y", 0, 1, 0.5, 0, 1, 0.5, &s, 1, false, false};
    canvas c;
    assert_int_equal(plot_draw(&c, 700, 400, &spec, NULL), LAB_OK);
    int x0, y0, x1, y1;
    bounding_box(&c, red, &x0, &y0, &x1, &y1);
    assert_int_equal(y1 - y0 + 1, 9); /* the markers' height, the line's row in between */
    int middle = (x0 + x1) / 2, above = y0; /* no marker on the middle point: nothing above the line */
    assert_false(rgb_equal(canvas_get(&c, middle, above), red));
    assert_true(rgb_equal(canvas_get(&c, x0, above), red) && rgb_equal(canvas_get(&c, x1, above), red));
    canvas_free(&c);
    s.marker = 0; /* without markers: the line alone */
    assert_int_equal(plot_draw(&c, 700, 400, &spec, NULL), LAB_OK);
    bounding_box(&c, red, &x0, &y0, &x1, &y1);
    assert_int_equal(y1 - y0 + 1, 1);
    canvas_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plot_rejects_empty_ranges),
        cmocka_unit_test(test_plot_orientation_and_legend),
        cmocka_unit_test(test_plot_markers_on_every_nth_point),
    };
    return cmocka_run_group_tests_name("plot", tests, NULL, NULL);
}
