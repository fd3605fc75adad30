/* test_packed.c - engine-format packing: sorting, truncation, the implied weight, and the
 * float palettes. */
#include <math.h>
#include <string.h>

#include "cmocka_all.h"
#include "skin/packed.h"

static const vec3 origin[1] = {{0, 0, 0}};

static void test_packed_sorts_heaviest_first_and_implies_the_last(void **state)
{
    (void)state;
    const int joints[4] = {3, 9, 1, 5};
    const double weights[4] = {0.1, 0.4, 0.3, 0.2};
    packed_mesh m;
    packed_report r;
    assert_int_equal(packed_mesh_build(origin, NULL, &(skin_influences){1, 4, (int *)joints, (double *)weights}, 4, &m, &r, NULL), LAB_OK);
    const uint16_t expect_j[4] = {9, 1, 5, 3};
    assert_memory_equal(m.joint, expect_j, sizeof expect_j);
    assert_true(m.weight[0] == 0.4f && m.weight[1] == 0.3f && m.weight[2] == 0.2f);
    assert_true(fabsf(packed_implied_weight(&m, 0) - 0.1f) < 1e-7f);
    assert_int_equal(m.max_joint, 9);
    assert_int_equal(r.truncated_vertices, 0);
    assert_int_equal(r.largest_dropped_vertex, -1);
    packed_mesh_free(&m);
}

/* Six influences into four: the two lightest are dropped, the rest renormalised. */
static void test_packed_truncates_and_reports(void **state)
{
    (void)state;
    const int joints[12] = {0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5};
    const double weights[12] = {0.3, 0.25, 0.2, 0.15, 0.06, 0.04, 1, 0, 0, 0, 0, 0};
    packed_mesh m;
    packed_report r;
    vec3 two[2] = {{0, 0, 0}, {1, 1, 1}};
    assert_int_equal(packed_mesh_build(two, NULL, &(skin_influences){2, 6, (int *)joints, (double *)weights}, 4, &m, &r, NULL), LAB_OK);
    assert_int_equal(r.truncated_vertices, 1);
    assert_int_equal(r.largest_dropped_vertex, 0);
    assert_near(r.largest_dropped_weight, 0.06, 1e-15);
    assert_true(fabsf(m.weight[0] - 0.3f / 0.9f) < 1e-7f);
    assert_true(fabsf(packed_implied_weight(&m, 0) - 0.15f / 0.9f) < 1e-6f);
    assert_true(m.weight[3] == 1.0f && packed_implied_weight(&m, 1) == 0.0f); /* vertex 1 */
    packed_mesh_free(&m);
    /* fewer influences than slots: padded with weight 0 */
    assert_int_equal(packed_mesh_build(two, NULL, &(skin_influences){2, 6, (int *)joints, (double *)weights}, 8, &m, &r, NULL), LAB_OK);
    assert_true(m.weight[5] == 0.04f && m.weight[6] == 0.0f);
    assert_int_equal(m.joint[6], 0);
    packed_mesh_free(&m);
}

/* Weights that sum above 1 make the implied weight negative beyond float tolerance. */
static void test_packed_rejects_negative_implied_weight(void **state)
{
    (void)state;
    const int joints[8] = {0, 1, 2, 3, 0, 1, 2, 3};
    const double weights[8] = {0.25, 0.25, 0.25, 0.25, 0.5, 0.5, 0.5, 0.0};
    packed_mesh m;
    lab_diag d = {0};
    vec3 two[2] = {{0, 0, 0}, {1, 1, 1}};
    /* the kept weights are renormalised, so only a vertex whose stored three exceed 1 after
     * renormalisation can fail: 0.5, 0.5, 0.5 of a sum of 1.5 is fine ... */
    assert_int_equal(packed_mesh_build(two, NULL, &(skin_influences){2, 4, (int *)joints, (double *)weights}, 4, &m, NULL, &d), LAB_OK);
    packed_mesh_free(&m);
    /* ... but K = 4 from four weights where the fourth is negative input is not */
    const double bad[8] = {0.25, 0.25, 0.25, 0.25, 0.6, 0.6, 0.6, -0.8};
    assert_int_equal(packed_mesh_build(two, NULL, &(skin_influences){2, 4, (int *)joints, (double *)bad}, 4, &m, NULL, &d), LAB_ERR_WEIGHT_NEGATIVE);
    assert_int_equal(d.vertex, 1);
    assert_non_null(strstr(d.value, "implied weight"));
    assert_null(m.position);
}

static void test_packed_palettes(void **state)
{
    (void)state;
    mat4 skin[2] = {mat4_translate(1, 2, 3), mat4_rotate_z(0.5)};
    mat4 world = mat4_translate(0, 0, 10);
    palette_matrix pm[2];
    palette_from_mat4(skin, 2, &world, pm);
    assert_true(pm[0].m[2][3] == 13.0f && pm[0].m[0][3] == 1.0f); /* W K_j: merged */
    palette_from_mat4(skin, 2, NULL, pm);
    assert_true(pm[1].m[0][1] == (float)-sin(0.5));
    dualquat dq = dualquat_from_rigid(quat_from_axis_angle(vec3_make(0, 0, 1), 1.0), vec3_make(1, 0, 0));
    palette_dualquat pd;
    palette_from_dualquats(&dq, 1, &pd);
    assert_true(pd.real[0] == (float)dq.real.w && pd.dual[1] == (float)dq.dual.x);
    assert_int_equal(packed_bytes_per_vertex(4, 1), 44);
    assert_int_equal(packed_bytes_per_vertex(4, 0), 32);
    assert_int_equal(packed_bytes_per_vertex(8, 1), 68);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_packed_sorts_heaviest_first_and_implies_the_last),
        cmocka_unit_test(test_packed_truncates_and_reports),
        cmocka_unit_test(test_packed_rejects_negative_implied_weight),
        cmocka_unit_test(test_packed_palettes),
    };
    return cmocka_run_group_tests_name("packed", tests, NULL, NULL);
}
