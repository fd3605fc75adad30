/* test_dualquat.c - dual quaternion algebra against matrices, DLB blending, the
 * hemisphere fix, rigid-only input and zero-norm blends. */
#include <math.h>
#include <string.h>

#include "cmocka_all.h"
#include "math/dualquat.h"
#include "skin/skin.h"

static const double pi = 3.141592653589793;

static double dist(vec3 a, vec3 b) { return vec3_length(vec3_sub(a, b)); }

/* A handful of rigid transforms that do not commute. */
static mat4 rigid(int k)
{
    mat4 r = mat4_mul(mat4_rotate_z(0.3 + 0.7 * k), mat4_rotate_x(-0.4 * k + 0.1));
    return mat4_mul(mat4_translate(0.5 * k, -1.0 + k, 2.0 - 0.3 * k), r);
}

/* ---- validity ---------------------------------------------------------------------- */

static void test_dualquat_rejects_scale_and_shear_naming_it(void **state)
{
    (void)state;
    dualquat q;
    lab_diag d = {0};
    mat4 scaled = mat4_mul(mat4_translate(0, 0, 2), mat4_scale(2, 1, 1));
    assert_int_equal(dualquat_from_mat4(scaled, &q, "skin matrix C_1 of joint 1", &d),
                     LAB_ERR_NOT_RIGID);
    assert_string_equal(d.where, "skin matrix C_1 of joint 1");
    assert_non_null(strstr(d.value, "column scales (2, 1, 1)"));
    mat4 shear = mat4_identity();
    shear.m[0][1] = 0.2;
    assert_int_equal(dualquat_from_mat4(shear, &q, "C", &d), LAB_ERR_NOT_RIGID);
    mat4 mirror = mat4_scale(1, 1, -1); /* orthonormal but a reflection */
    assert_int_equal(dualquat_from_mat4(mirror, &q, "C", &d), LAB_ERR_NOT_RIGID);
    mat4 bad = mat4_identity();
    bad.m[3][0] = 1; /* the affine rule comes first */
    assert_int_equal(dualquat_from_mat4(bad, &q, "C", &d), LAB_ERR_MATRIX_NOT_AFFINE);
}

static void test_dualquat_skin_rejects_scaled_palette(void **state)
{
    (void)state;
    mat4 palette[2] = {mat4_identity(), mat4_mul(mat4_translate(0, 0, 2), mat4_scale(1, 1, 1.5))};
    skin_influences in = {1, 2, (int[]){0, 1}, (double[]){0.5, 0.5}};
    vec3 p = {1, 0, 1}, out = {7, 7, 7};
    lab_diag d = {0};
    assert_int_equal(skin_deform(&p, &in, palette, 2, (skin_blend){.method = SKIN_DQS}, &out, &d),
                     LAB_ERR_NOT_RIGID);
    assert_non_null(strstr(d.where, "joint 1"));
    assert_true(out.x == 7); /* nothing written */
    /* LBS takes the same palette: scale is fine for it */
    assert_int_equal(skin_deform(&p, &in, palette, 2, (skin_blend){.method = SKIN_LBS}, &out, &d),
                     LAB_OK);
}

/* The rigidity tolerance is the caller's: a rotation whose first column is 1 + 1e-7 long
 * (a float32 matrix's error) is refused at the lab's 1e-9 and taken at glTF's 1e-5, the
 * same as the exact rotation to 1e-7; 1 + 1e-4 is refused at 1e-5 too. Through
 * skin_deform: 0 in rigid_tolerance means the default, a value is used. */
static void test_dualquat_rigidity_tolerance_is_the_callers(void **state)
{
    (void)state;
    mat4 exact = mat4_mul(mat4_translate(1, 2, 3), mat4_rotate_z(0.7)), near = exact, far = exact;
    for (int r = 0; r < 3; r++)
        near.m[r][0] *= 1 + 1e-7, far.m[r][0] *= 1 + 1e-4;
    dualquat q, want;
    lab_diag d = {0};
    assert_int_equal(dualquat_from_mat4(exact, &want, "C", &d), LAB_OK);
    assert_int_equal(dualquat_from_mat4(near, &q, "C", &d), LAB_ERR_NOT_RIGID);
    assert_non_null(strstr(d.value, "tolerance 1e-09"));
    assert_int_equal(dualquat_from_mat4_within(near, 1e-5, &q, "C", &d), LAB_OK);
    assert_true(mat4_max_abs_diff(dualquat_to_mat4(q), dualquat_to_mat4(want)) < 1e-7);
    assert_int_equal(dualquat_from_mat4_within(far, 1e-5, &q, "C", &d), LAB_ERR_NOT_RIGID);
    mat4 palette[2] = {mat4_identity(), near};
    skin_influences in = {1, 2, (int[]){0, 1}, (double[]){0.5, 0.5}};
    vec3 p = {1, 0, 1}, out;
    assert_int_equal(skin_deform(&p, &in, palette, 2, (skin_blend){.method = SKIN_DQS}, &out, &d), LAB_ERR_NOT_RIGID);
    assert_int_equal(skin_deform(&p, &in, palette, 2, (skin_blend){.method = SKIN_DQS, .rigid_tolerance = 1e-5}, &out, &d),
                     LAB_OK);
}

static void test_dualquat_zero_norm_blend_is_an_error(void **state)
{
    (void)state;
    /* a full turn: the child's quaternion is -1 (the animation's sign), the root's +1;
     * without the fix the equal blend cancels: q_0 = 0.5 (1) + 0.5 (-1) = 0 */
    mat4 palette[2] = {mat4_identity(), mat4_rotate_z(2 * pi)};
    dualquat signed_dq[2] = {dualquat_identity(),
                             dualquat_from_rigid(quat_from_axis_angle(vec3_make(0, 0, 1), 2 * pi),
                                                 vec3_make(0, 0, 0))};
    assert_true(signed_dq[1].real.w == -1.0);
    skin_influences in = {1, 2, (int[]){0, 1}, (double[]){0.5, 0.5}};
    vec3 p = {1, 0, 1}, out;
    lab_diag d = {0};
    assert_int_equal(skin_deform(&p, &in, palette, 2, (skin_blend){SKIN_DQS, true, signed_dq, 0.0},
                                 &out, &d),
                     LAB_ERR_DQ_ZERO_NORM);
    assert_int_equal(d.vertex, 0);
    assert_true(strstr(d.value, "|q_0| = ") != NULL);
    /* with the fix the same blend is the identity */
    assert_int_equal(skin_deform(&p, &in, palette, 2, (skin_blend){SKIN_DQS, false, signed_dq, 0.0},
                                 &out, &d),
                     LAB_OK);
    assert_true(dist(out, p) < 1e-12);
    /* from the matrices alone the sign is gone (Rz(360) = I): no cancellation either way */
    assert_int_equal(skin_deform(&p, &in, palette, 2, (skin_blend){.method = SKIN_DQS, .skip_hemisphere_fix = true}, &out, &d),
                     LAB_OK);
    /* a signed palette that is not the matrix palette is refused */
    signed_dq[1] = dualquat_from_rigid(quat_from_axis_angle(vec3_make(0, 0, 1), 1.0), vec3_make(0, 0, 0));
    assert_int_equal(skin_deform(&p, &in, palette, 2, (skin_blend){SKIN_DQS, false, signed_dq, 0.0},
                                 &out, &d),
                     LAB_ERR_DQ_MISMATCH);
    dualquat z = {{0, 0, 0, 0}, {0, 1, 0, 0}}, n;
    assert_int_equal(dualquat_normalize(z, &n, "blend", NULL), LAB_ERR_DQ_ZERO_NORM);
}

/* ---- hand-computed results and agreement with matrices ---------------------------- */

static void test_dualquat_by_hand(void **state)
{
    (void)state;
    /* rotate (1,0,0) by 90 deg about z, then move by (0,0,3): (0,1,3) */
    dualquat q = dualquat_from_rigid(quat_from_axis_angle(vec3_make(0, 0, 1), 0.5 * pi),
                                     vec3_make(0, 0, 3));
    assert_true(dist(dualquat_transform_point(q, vec3_make(1, 0, 0)), vec3_make(0, 1, 3)) < 1e-15);
    /* a pure translation has q_0 = 1 and q_e = (0, t/2) */
    dualquat t = dualquat_from_rigid(quat_identity(), vec3_make(2, 4, 6));
    assert_true(t.dual.x == 1 && t.dual.y == 2 && t.dual.z == 3 && t.dual.w == 0);
}

static void test_dualquat_matrix_round_trip_and_point_transform(void **state)
{
    (void)state;
    const vec3 p = {0.3, -1.7, 2.2};
    for (int k = 0; k < 6; k++) {
        dualquat q;
        mat4 m = rigid(k);
        assert_int_equal(dualquat_from_mat4(m, &q, "m", NULL), LAB_OK);
        assert_near(dualquat_norm(q), 1.0, 1e-15);                 /* unit norm */
        assert_near(quat_dot(q.real, q.dual), 0, 1e-15);               /* q_0 . q_e = 0 */
        assert_true(mat4_max_abs_diff(dualquat_to_mat4(q), m) < 1e-14);    /* round trip */
        assert_true(dist(dualquat_transform_point(q, p), mat4_transform_point(m, p)) < 1e-14);
    }
}

static void test_dualquat_product_is_matrix_product(void **state)
{
    (void)state;
    for (int k = 0; k < 5; k++) {
        dualquat a, b;
        assert_int_equal(dualquat_from_mat4(rigid(k), &a, "a", NULL), LAB_OK);
        assert_int_equal(dualquat_from_mat4(rigid(k + 1), &b, "b", NULL), LAB_OK);
        dualquat ab = dualquat_mul(a, b);
        assert_near(dualquat_norm(ab), 1.0, 1e-14);
        assert_true(mat4_max_abs_diff(dualquat_to_mat4(ab), mat4_mul(rigid(k), rigid(k + 1))) < 1e-13);
    }
    /* the conjugate undoes the rotation: q q* has q_0 = 1 */
    dualquat a;
    assert_int_equal(dualquat_from_mat4(rigid(3), &a, "a", NULL), LAB_OK);
    dualquat one = dualquat_mul(a, dualquat_conjugate(a));
    assert_near(one.real.w, 1.0, 1e-15);
    assert_near(one.real.x, 0, 1e-15);
}

static void test_dualquat_blend_of_identical_transforms_is_that_transform(void **state)
{
    (void)state;
    dualquat q[3], n;
    for (int i = 0; i < 3; i++)
        assert_int_equal(dualquat_from_mat4(rigid(2), &q[i], "q", NULL), LAB_OK);
    const double w[3] = {0.2, 0.5, 0.3};
    assert_int_equal(dualquat_normalize(dualquat_blend(q, w, 3, true), &n, "b", NULL), LAB_OK);
    assert_true(mat4_max_abs_diff(dualquat_to_mat4(n), rigid(2)) < 1e-14);
}

/* q^ and -q^ are the same transform: after the fix the skinned point does not change. */
static void test_dualquat_sign_does_not_matter_after_the_fix(void **state)
{
    (void)state;
    dualquat q[2], flipped[2], a, b;
    assert_int_equal(dualquat_from_mat4(rigid(1), &q[0], "q", NULL), LAB_OK);
    assert_int_equal(dualquat_from_mat4(rigid(4), &q[1], "q", NULL), LAB_OK);
    flipped[0] = q[0];
    flipped[1] = dualquat_scale(q[1], -1.0);
    const double w[2] = {0.35, 0.65};
    const vec3 p = {1, 2, -0.5};
    assert_int_equal(dualquat_normalize(dualquat_blend(q, w, 2, true), &a, "a", NULL), LAB_OK);
    assert_int_equal(dualquat_normalize(dualquat_blend(flipped, w, 2, true), &b, "b", NULL), LAB_OK);
    assert_true(dist(dualquat_transform_point(a, p), dualquat_transform_point(b, p)) < 1e-14);
    /* without the fix the flipped blend is a different transform */
    assert_int_equal(dualquat_normalize(dualquat_blend(flipped, w, 2, false), &b, "b", NULL), LAB_OK);
    assert_true(dist(dualquat_transform_point(a, p), dualquat_transform_point(b, p)) > 1e-3);
}

static void test_dualquat_pivot_is_the_heaviest_influence(void **state)
{
    (void)state;
    /* two rotations 200 deg apart about z: the blend must lean towards the pivot's side */
    dualquat q[2] = {dualquat_from_rigid(quat_from_axis_angle(vec3_make(0, 0, 1), 0.0), vec3_make(0, 0, 0)),
                     dualquat_from_rigid(quat_from_axis_angle(vec3_make(0, 0, 1), 200 * pi / 180), vec3_make(0, 0, 0))};
    const double w[2] = {0.25, 0.75};
    dualquat n;
    assert_int_equal(dualquat_normalize(dualquat_blend(q, w, 2, true), &n, "b", NULL), LAB_OK);
    /* the short way from 0 to 200 deg is -160 deg; 3/4 of it by DLB's half-angle formula */
    double t = -160 * pi / 180, phi = 2 * atan2(0.75 * sin(t / 2), 0.25 + 0.75 * cos(t / 2));
    vec3 r = dualquat_transform_point(n, vec3_make(1, 0, 0));
    assert_true(dist(r, vec3_make(cos(phi), sin(phi), 0)) < 1e-14);
}

static void test_dualquat_quat_from_mat4_all_branches(void **state)
{
    (void)state;
    /* angles near 180 deg about each axis take the non-trace branches of Shepperd's method */
    const vec3 axes[4] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}};
    const double angles[3] = {0.1, 2.0, 3.1};
    for (int a = 0; a < 4; a++)
        for (int k = 0; k < 3; k++) {
            quat q = quat_from_axis_angle(axes[a], angles[k]);
            quat back = quat_from_mat4(quat_to_mat4(q));
            assert_near(fabs(quat_dot(q, back)), 1.0, 1e-14);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dualquat_rejects_scale_and_shear_naming_it),
        cmocka_unit_test(test_dualquat_skin_rejects_scaled_palette),
        cmocka_unit_test(test_dualquat_rigidity_tolerance_is_the_callers),
        cmocka_unit_test(test_dualquat_zero_norm_blend_is_an_error),
        cmocka_unit_test(test_dualquat_by_hand),
        cmocka_unit_test(test_dualquat_matrix_round_trip_and_point_transform),
        cmocka_unit_test(test_dualquat_product_is_matrix_product),
        cmocka_unit_test(test_dualquat_blend_of_identical_transforms_is_that_transform),
        cmocka_unit_test(test_dualquat_sign_does_not_matter_after_the_fix),
        cmocka_unit_test(test_dualquat_pivot_is_the_heaviest_influence),
        cmocka_unit_test(test_dualquat_quat_from_mat4_all_branches),
    };
    return cmocka_run_group_tests_name("dualquat", tests, NULL, NULL);
}
