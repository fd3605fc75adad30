/* test_linalg.c - validity, hand-computed products, and the conventions of linalg.h. */
#include <math.h>
#include <string.h>

#include "cmocka_all.h"
#include "math/linalg.h"

static const double quarter = 1.5707963267948966; /* 90 degrees */

static void assert_vec3_near(vec3 a, vec3 b, double tol)
{
    assert_near(a.x, b.x, tol);
    assert_near(a.y, b.y, tol);
    assert_near(a.z, b.z, tol);
}

/* ---- validity ---------------------------------------------------------------------- */

static void test_linalg_validate_accepts_rigid_transform(void **state)
{
    (void)state;
    lab_diag d = {0};
    assert_int_equal(mat4_validate(mat4_mul(mat4_translate(1, 2, 3), mat4_rotate_x(0.3)), "m", &d),
                     LAB_OK);
}

static void test_linalg_validate_rejects_nan_inf_projective_and_huge(void **state)
{
    (void)state;
    lab_diag d = {0};
    mat4 m = mat4_identity();
    m.m[1][2] = NAN;
    assert_int_equal(mat4_validate(m, "m", &d), LAB_ERR_MATRIX_NOT_FINITE);
    m = mat4_identity();
    m.m[0][3] = -INFINITY;
    assert_int_equal(mat4_validate(m, "m", &d), LAB_ERR_MATRIX_NOT_FINITE);
    m = mat4_identity();
    m.m[3][2] = -1.0; /* a perspective row */
    assert_int_equal(mat4_validate(m, "m", &d), LAB_ERR_MATRIX_NOT_AFFINE);
    assert_non_null(strstr(d.value, "last row"));
    m = mat4_translate(0, 0, 2.0 * MAT4_MAGNITUDE_BOUND);
    assert_int_equal(mat4_validate(m, "m", &d), LAB_ERR_MATRIX_TOO_LARGE);
    m = mat4_translate(0, 0, MAT4_MAGNITUDE_BOUND); /* the bound itself is allowed */
    assert_int_equal(mat4_validate(m, "m", &d), LAB_OK);
}

static void test_linalg_invert_translation_refuses_rotation_and_scale(void **state)
{
    (void)state;
    lab_diag d = {0};
    mat4 out = mat4_identity();
    assert_int_equal(mat4_invert_translation(mat4_rotate_z(1e-3), &out, "B", &d),
                     LAB_ERR_NOT_PURE_TRANSLATION);
    assert_int_equal(mat4_invert_translation(mat4_scale(1, 1, 1.001), &out, "B", &d),
                     LAB_ERR_NOT_PURE_TRANSLATION);
    assert_string_equal(d.where, "B");
    /* refused input leaves the output alone */
    assert_true(mat4_max_abs_diff(out, mat4_identity()) == 0.0);
    mat4 bad = mat4_translate(1, 2, 3);
    bad.m[3][0] = 1.0;
    assert_int_equal(mat4_invert_translation(bad, &out, "B", &d), LAB_ERR_MATRIX_NOT_AFFINE);
}

/* ---- hand-computed results --------------------------------------------------------- */

static void test_linalg_mul_matches_hand_product(void **state)
{
    (void)state;
    mat4 a = {{{1, 2, 0, 0}, {0, 1, 0, 3}, {0, 0, 2, 0}, {0, 0, 0, 1}}};
    mat4 b = {{{0, 1, 0, 1}, {1, 0, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}};
    /* by hand: row 0 of a times b = (2, 1, 0, 1); row 1 = (1, 0, 0, 3); row 2 = (0,0,2,0) */
    mat4 expect = {{{2, 1, 0, 1}, {1, 0, 0, 3}, {0, 0, 2, 0}, {0, 0, 0, 1}}};
    assert_true(mat4_max_abs_diff(mat4_mul(a, b), expect) == 0.0);
}

static void test_linalg_invert_translation_inverts(void **state)
{
    (void)state;
    mat4 t = mat4_translate(0.5, -2, 7), inv;
    assert_int_equal(mat4_invert_translation(t, &inv, "T", NULL), LAB_OK);
    assert_true(mat4_max_abs_diff(mat4_mul(t, inv), mat4_identity()) == 0.0);
    assert_true(mat4_max_abs_diff(mat4_mul(inv, t), mat4_identity()) == 0.0);
    assert_true(inv.m[2][3] == -7.0);
}

static void test_linalg_vector_helpers(void **state)
{
    (void)state;
    assert_vec3_near(vec3_cross(vec3_make(1, 0, 0), vec3_make(0, 1, 0)), vec3_make(0, 0, 1), 0);
    assert_true(vec3_length(vec3_make(3, 4, 12)) == 13.0);
    assert_vec3_near(vec3_normalize(vec3_make(0, 0, 0)), vec3_make(0, 0, 0), 0);
    assert_false(vec3_is_finite(vec3_make(0, NAN, 0)));
}

/* ---- conventions ------------------------------------------------------------------- */

/* Column vectors and "B acts first": T(R p) differs from R(T p) for p = (1,1,0) when the
 * translation is along y and the rotation about z (the article's control). */
/* det and singular values by hand: a rotation has 1 1 1; R diag(3, 2, 0.5) R' has 3 2 0.5
 * whatever the rotations; a shear [[1, 1], [0, 1]] has the golden ratio and its inverse. */
static void test_linalg_det_and_singular_values(void **state)
{
    (void)state;
    double sv[3];
    mat4 r = mat4_mul(mat4_rotate_x(0.3), mat4_rotate_z(1.1));
    mat4_linear_singular_values(r, sv);
    for (int i = 0; i < 3; i++)
        assert_near(sv[i], 1.0, 1e-15);
    assert_near(mat4_linear_det(r), 1.0, 1e-15);
    mat4 a = mat4_mul(mat4_mul(mat4_rotate_y(0.7), mat4_scale(0.5, 3, 2)), mat4_rotate_z(-0.4));
    mat4_linear_singular_values(a, sv);
    assert_near(sv[0], 3, 1e-14);
    assert_near(sv[1], 2, 1e-14);
    assert_near(sv[2], 0.5, 1e-14);
    assert_near(mat4_linear_det(a), 3.0, 1e-14);
    mat4 shear = mat4_identity();
    shear.m[0][1] = 1;
    mat4_linear_singular_values(shear, sv);
    const double phi = (1 + sqrt(5.0)) / 2;
    assert_near(sv[0], phi, 1e-15);
    assert_near(sv[1], 1, 1e-15);
    assert_near(sv[2], 1 / phi, 1e-15);
    /* a flattened direction: a zero singular value, det 0; translation plays no part */
    mat4 flat = mat4_mul(mat4_translate(4, 5, 6), mat4_scale(1, 1, 0));
    mat4_linear_singular_values(flat, sv);
    assert_true(sv[2] == 0.0 && mat4_linear_det(flat) == 0.0);
    mat4 t = mat4_transpose(shear);
    assert_true(t.m[1][0] == 1 && t.m[0][1] == 0);
}

static void test_linalg_mul_order_right_acts_first(void **state)
{
    (void)state;
    mat4 t = mat4_translate(0, 1, 0), r = mat4_rotate_z(quarter);
    vec3 p = {1, 1, 0};
    assert_vec3_near(mat4_transform_point(mat4_mul(t, r), p), vec3_make(-1, 2, 0), 1e-15);
    assert_vec3_near(mat4_transform_point(mat4_mul(r, t), p), vec3_make(-2, 1, 0), 1e-15);
}

/* Right-handed, counter-clockwise: Rz sends +x to +y, Rx sends +y to +z, Ry sends +z to +x. */
static void test_linalg_rotations_are_right_handed(void **state)
{
    (void)state;
    assert_vec3_near(mat4_transform_point(mat4_rotate_z(quarter), vec3_make(1, 0, 0)),
                     vec3_make(0, 1, 0), 1e-15);
    assert_vec3_near(mat4_transform_point(mat4_rotate_x(quarter), vec3_make(0, 1, 0)),
                     vec3_make(0, 0, 1), 1e-15);
    assert_vec3_near(mat4_transform_point(mat4_rotate_y(quarter), vec3_make(0, 0, 1)),
                     vec3_make(1, 0, 0), 1e-15);
}

/* Row-major storage with the translation in m[0..2][3]. */
static void test_linalg_storage_is_row_major(void **state)
{
    (void)state;
    mat4 t = mat4_translate(4, 5, 6);
    assert_true(t.m[0][3] == 4 && t.m[1][3] == 5 && t.m[2][3] == 6);
    assert_true(t.m[3][0] == 0 && t.m[3][3] == 1);
    mat4 r = mat4_rotate_z(quarter);
    assert_near(r.m[0][1], -(1.0), 1e-15); /* -sin in row 0, column 1 */
    assert_near(r.m[1][0], 1.0, 1e-15);
}

/* The largest differences propagate NaN wherever it stands, and keep infinities: fmax
 * would return the other argument and call a NaN answer close. */
static void test_linalg_largest_differences_propagate_nan(void **state)
{
    (void)state;
    assert_true(isnan(max_or_nan(NAN, 1)) && isnan(max_or_nan(1, NAN)) && isnan(max_or_nan(NAN, NAN)));
    assert_true(max_or_nan(1, 2) == 2 && max_or_nan(-0.0, -1) == 0);
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            mat4 a = mat4_identity();
            a.m[r][c] = NAN;
            assert_true(isnan(mat4_max_abs(a)));
            assert_true(isnan(mat4_max_abs_diff(a, mat4_identity())));
            assert_true(isnan(mat4_max_abs_diff(mat4_identity(), a)));
            a.m[r][c] = INFINITY;
            assert_true(isinf(mat4_max_abs(a)));
            assert_true(isinf(mat4_max_abs_diff(a, mat4_identity())));
            assert_true(isnan(mat4_max_abs_diff(a, a))); /* inf - inf */
        }
    for (int k = 0; k < 3; k++) {
        double v[3] = {1, 2, 3};
        v[k] = NAN;
        vec3 p = vec3_make(v[0], v[1], v[2]);
        assert_true(isnan(vec3_max_abs_diff(p, vec3_make(1, 2, 3))));
        assert_true(isnan(vec3_max_abs_diff(vec3_make(1, 2, 3), p)));
    }
    assert_true(vec3_max_abs_diff(vec3_make(1, 2, 3), vec3_make(1, 2.5, 2)) == 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_linalg_validate_accepts_rigid_transform),
        cmocka_unit_test(test_linalg_validate_rejects_nan_inf_projective_and_huge),
        cmocka_unit_test(test_linalg_invert_translation_refuses_rotation_and_scale),
        cmocka_unit_test(test_linalg_mul_matches_hand_product),
        cmocka_unit_test(test_linalg_invert_translation_inverts),
        cmocka_unit_test(test_linalg_vector_helpers),
        cmocka_unit_test(test_linalg_det_and_singular_values),
        cmocka_unit_test(test_linalg_mul_order_right_acts_first),
        cmocka_unit_test(test_linalg_rotations_are_right_handed),
        cmocka_unit_test(test_linalg_storage_is_row_major),
        cmocka_unit_test(test_linalg_largest_differences_propagate_nan),
    };
    return cmocka_run_group_tests_name("linalg", tests, NULL, NULL);
}
