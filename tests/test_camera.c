/* test_camera.c - the space chain pinned by geometry, not by matrix entries. */
#include <math.h>

#include "draw/camera.h"
#include "cmocka_all.h"

static double dist(vec3 a, vec3 b) { return vec3_length(vec3_sub(a, b)); }

static vec3 ndc_of(mat4 projection, vec3 view_point)
{
    return camera_divide(mat4_mul_vec4(projection, vec4_point(view_point)));
}

static void test_camera_ortho_box_corners_land_on_unit_cube(void **state)
{
    (void)state;
    double l = -3, r = 5, b = -1, t = 2, n = 0.5, f = 10;
    mat4 p = camera_orthographic(l, r, b, t, n, f);
    for (int i = 0; i < 8; i++) {
        vec3 corner = {(i & 1) ? r : l, (i & 2) ? t : b, (i & 4) ? -f : -n};
        vec3 expect = {(i & 1) ? 1 : -1, (i & 2) ? 1 : -1, (i & 4) ? 1 : -1};
        assert_true(dist(ndc_of(p, corner), expect) < 1e-15);
    }
}

static void test_camera_look_at_sends_eye_to_origin_and_target_ahead(void **state)
{
    (void)state;
    vec3 eye = {3, -5, 4.4}, target = {0, 0, 1}, up = {0, 0, 1};
    mat4 v = camera_look_at(eye, target, up);
    assert_true(dist(mat4_transform_point(v, eye), vec3_make(0, 0, 0)) < 1e-14);
    vec3 t = mat4_transform_point(v, target);
    assert_near(t.x, 0, 1e-14);
    assert_near(t.y, 0, 1e-14);
    assert_near(t.z, -(vec3_length(vec3_sub(target, eye))), 1e-14); /* looks down -z */
    /* world up stays up on screen: a point above the target has view y > 0 */
    assert_true(mat4_transform_point(v, vec3_make(0, 0, 2)).y > 0);
    /* right-handed: +x of the camera is to the right of the viewing direction */
    vec3 right = mat4_transform_point(v, vec3_add(target, vec3_make(1, 0.6, 0)));
    assert_true(right.x > 0);
}

static void test_camera_divide_and_viewport_by_hand(void **state)
{
    (void)state;
    assert_true(dist(camera_divide((vec4){2, 4, 6, 2}), vec3_make(1, 2, 3)) == 0.0);
    camera_viewport_rect rect = {10, 20, 200, 100};
    /* NDC (-1, +1) is the top-left corner, (+1, -1) the bottom-right */
    assert_true(dist(camera_viewport(vec3_make(-1, 1, 0.5), rect), vec3_make(10, 20, 0.5)) == 0.0);
    assert_true(dist(camera_viewport(vec3_make(1, -1, 0), rect), vec3_make(210, 120, 0)) == 0.0);
    assert_true(dist(camera_viewport(vec3_make(0, 0, 0), rect), vec3_make(110, 70, 0)) == 0.0);
}

static void test_camera_fit_holds_every_point_with_margin(void **state)
{
    (void)state;
    vec3 pts[4] = {{-1, -1, 0}, {1, -1, 0}, {1, 1, 2}, {-1, 1, 2}};
    mat4 view = camera_look_at(vec3_make(3, -5, 4), vec3_make(0, 0, 1), vec3_make(0, 0, 1));
    camera_viewport_rect rect = {0, 0, 300, 400};
    mat4 proj = camera_fit_orthographic(view, pts, 4, 0.1, rect);
    double max_x = 0, max_y = 0;
    for (int i = 0; i < 4; i++) {
        vec3 n = ndc_of(proj, mat4_transform_point(view, pts[i]));
        assert_near(n.x, 0, 1);
        assert_near(n.y, 0, 1);
        assert_near(n.z, 0, 1);
        max_x = fmax(max_x, fabs(n.x));
        max_y = fmax(max_y, fabs(n.y));
    }
    /* the tighter direction uses the margin exactly: 1 / (1 + 2 * 0.1) */
    assert_near(fmax(max_x, max_y), 1.0 / 1.2, 1e-9);
}

static void test_camera_project_is_the_whole_chain(void **state)
{
    (void)state;
    camera cam = {mat4_identity(), camera_orthographic(0, 6, 0, 5, 0.1, 10), {0, 0, 6, 5}};
    /* world +y is up on screen: y = 4.5 is in pixel row 0, y = 0.5 in row 4 */
    vec3 top = camera_project(&cam, vec3_make(1.5, 4.5, -1));
    vec3 bottom = camera_project(&cam, vec3_make(1.5, 0.5, -1));
    assert_near(top.x, 1.5, 1e-12);
    assert_near(top.y, 0.5, 1e-12);
    assert_near(bottom.y, 4.5, 1e-12);
}

/* Perspective by hand: fovy 90 deg, aspect 2, near 1, far 3. A point 2 ahead at
 * (x, y) = (1, 0.5) has clip w = 2 and NDC (1/2 / ... ) = (0.25, 0.25). */
static void test_camera_perspective_divide_and_viewport_by_hand(void **state)
{
    (void)state;
    mat4 p = camera_perspective(3.141592653589793 / 2, 2.0, 1.0, 3.0);
    vec4 c = mat4_mul_vec4(p, (vec4){1, 0.5, -2, 1});
    assert_near(c.w, 2.0, 1e-15);
    vec3 n = camera_divide(c);
    assert_near(n.x, 0.25, 1e-15);
    assert_near(n.y, 0.25, 1e-15);
    /* the near and far planes land on -1 and +1 */
    assert_near(camera_divide(mat4_mul_vec4(p, (vec4){0, 0, -1, 1})).z, -(1), 1e-15);
    assert_near(camera_divide(mat4_mul_vec4(p, (vec4){0, 0, -3, 1})).z, 1, 1e-15);
    vec3 px = camera_viewport(n, (camera_viewport_rect){0, 0, 400, 200});
    assert_near(px.x, 250, 1e-12);
    assert_near(px.y, 75, 1e-12);
}

/* A segment from in front of the eye to behind it. Clipped at the near plane first, its
 * far end stays on its own side of the screen; divided first, the point behind the eye
 * (w < 0) is mirrored to the opposite side and the drawn line would wrap around. */
static void test_camera_near_clipping_before_the_divide(void **state)
{
    (void)state;
    camera cam = {mat4_identity(), camera_perspective(3.141592653589793 / 2, 1.0, 1.0, 10.0),
                  {0, 0, 100, 100}};
    vec3 front = {0.5, 0, -4}, behind = {3, 0, 2}; /* x > 0 all along: right of centre */
    vec3 a, b;
    assert_true(camera_project_segment(&cam, front, behind, &a, &b));
    assert_true(a.x > 50 && b.x > 50);                /* both ends on the right */
    assert_near(b.y, 50, 1e-9);
    vec3 wrong = camera_project(&cam, behind);        /* the divide-first picture */
    assert_true(wrong.x < 50);                        /* mirrored to the left */
    /* the clipped end is on the near plane: NDC z = -1 */
    vec4 ca = mat4_mul_vec4(cam.projection, vec4_point(front));
    vec4 cb = mat4_mul_vec4(cam.projection, vec4_point(behind));
    assert_true(camera_clip_near(&ca, &cb));
    assert_near(cb.z / cb.w, -(1.0), 1e-12);
    assert_true(cb.w > 0);
    /* wholly behind: nothing to draw */
    assert_false(camera_project_segment(&cam, vec3_make(0, 0, 1), vec3_make(1, 1, 3), &a, &b));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_camera_ortho_box_corners_land_on_unit_cube),
        cmocka_unit_test(test_camera_look_at_sends_eye_to_origin_and_target_ahead),
        cmocka_unit_test(test_camera_divide_and_viewport_by_hand),
        cmocka_unit_test(test_camera_fit_holds_every_point_with_margin),
        cmocka_unit_test(test_camera_project_is_the_whole_chain),
        cmocka_unit_test(test_camera_perspective_divide_and_viewport_by_hand),
        cmocka_unit_test(test_camera_near_clipping_before_the_divide),
    };
    return cmocka_run_group_tests_name("camera", tests, NULL, NULL);
}
