/* test_quat.c - quaternion rotations (chapter 29) against matrices and hand values. */
#include <math.h>

#include "cmocka_all.h"
#include "math/quat.h"

static const double pi = 3.141592653589793;

static double dist(vec3 a, vec3 b) { return vec3_length(vec3_sub(a, b)); }

static void test_quat_zero_axis_gives_identity(void **state)
{
    (void)state;
    quat q = quat_from_axis_angle(vec3_make(0, 0, 0), 1.0);
    assert_true(q.w == 1.0 && q.x == 0.0 && q.y == 0.0 && q.z == 0.0);
}

static void test_quat_rotate_matches_hand_values(void **state)
{
    (void)state;
    quat q = quat_from_axis_angle(vec3_make(0, 0, 2), 0.5 * pi); /* axis need not be unit */
    assert_true(dist(quat_rotate(q, vec3_make(1, 0, 5)), vec3_make(0, 1, 5)) < 1e-15);
    quat h = quat_from_axis_angle(vec3_make(1, 1, 1), 2.0 * pi / 3.0); /* cycles x -> y -> z */
    assert_true(dist(quat_rotate(h, vec3_make(1, 0, 0)), vec3_make(0, 1, 0)) < 1e-15);
}

static void test_quat_agrees_with_matrix_rotations(void **state)
{
    (void)state;
    const vec3 p = {0.3, -1.2, 2.5};
    for (int k = -8; k <= 8; k++) {
        double a = k * 0.41;
        mat4 rz = mat4_rotate_z(a), rx = mat4_rotate_x(a);
        quat qz = quat_from_axis_angle(vec3_make(0, 0, 1), a);
        quat qx = quat_from_axis_angle(vec3_make(1, 0, 0), a);
        assert_true(dist(quat_rotate(qz, p), mat4_transform_point(rz, p)) < 1e-14);
        assert_true(dist(quat_rotate(qx, p), mat4_transform_point(rx, p)) < 1e-14);
        assert_true(mat4_max_abs_diff(quat_to_mat4(qz), rz) < 1e-15);
    }
}

static void test_quat_negated_is_same_rotation(void **state)
{
    (void)state;
    quat q = quat_from_axis_angle(vec3_make(1, 2, 3), 1.1);
    quat n = {-q.w, -q.x, -q.y, -q.z};
    vec3 p = {1, -1, 0.5};
    assert_true(dist(quat_rotate(q, p), quat_rotate(n, p)) < 1e-15);
}

static void test_quat_mul_composes_right_first(void **state)
{
    (void)state;
    quat a = quat_from_axis_angle(vec3_make(1, 0, 0), 0.5 * pi);
    quat b = quat_from_axis_angle(vec3_make(0, 0, 1), 0.5 * pi);
    /* a*b: rotate about z first (x -> y), then about x (y -> z) */
    assert_true(dist(quat_rotate(quat_mul(a, b), vec3_make(1, 0, 0)), vec3_make(0, 0, 1)) < 1e-15);
}

static void test_quat_slerp_halfway_and_short_way(void **state)
{
    (void)state;
    quat a = quat_identity();
    quat b = quat_from_axis_angle(vec3_make(0, 0, 1), 0.5 * pi);
    quat half = quat_slerp(a, b, 0.5);
    assert_true(dist(quat_rotate(half, vec3_make(1, 0, 0)),
                     vec3_make(cos(0.25 * pi), sin(0.25 * pi), 0)) < 1e-15);
    /* -b is the same rotation: slerp must still go the 45 degree way, not 135 */
    quat nb = {-b.w, -b.x, -b.y, -b.z};
    quat half2 = quat_slerp(a, nb, 0.5);
    assert_true(dist(quat_rotate(half2, vec3_make(1, 0, 0)), quat_rotate(half, vec3_make(1, 0, 0))) <
                1e-15);
    assert_near(quat_norm(quat_slerp(a, b, 0.3)), 1.0, 1e-15);
    /* nearly equal rotations take the lerp branch and stay accurate */
    quat c = quat_from_axis_angle(vec3_make(0, 0, 1), 1e-4);
    vec3 r = quat_rotate(quat_slerp(a, c, 0.5), vec3_make(1, 0, 0));
    assert_true(dist(r, vec3_make(cos(5e-5), sin(5e-5), 0)) < 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quat_zero_axis_gives_identity),
        cmocka_unit_test(test_quat_rotate_matches_hand_values),
        cmocka_unit_test(test_quat_agrees_with_matrix_rotations),
        cmocka_unit_test(test_quat_negated_is_same_rotation),
        cmocka_unit_test(test_quat_mul_composes_right_first),
        cmocka_unit_test(test_quat_slerp_halfway_and_short_way),
    };
    return cmocka_run_group_tests_name("quat", tests, NULL, NULL);
}
