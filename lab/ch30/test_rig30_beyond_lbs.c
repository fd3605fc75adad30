/* test_rig30_beyond_lbs.c - chapter 30's rig beyond LBS: DQS's twist against its closed
 * form (over many weight and angle pairs, and on every pose), the hemisphere rule the
 * short way and over a full turn, the bend rig's weights and measures, the true normals of
 * the skinned surface, and the weight policies applied to a rig. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_all.h"

#include "base/diag.h"
#include "math/linalg.h"
#include "mesh/mesh.h"
#include "skin/blend.h"
#include "skin/influences.h"

#include "rig30.h"
#include "rig30_cases.h"
#include "rig30_check.h"
#include "rig30_test.h"

/* DQS keeps every radius and turns each ring by the closed form, computed here from its
 * own formula for many (w, theta) pairs, angles past a half turn included. */
static void test_rig30_dqs_twist_closed_form_many_pairs(void **state)
{
    (void)state;
    const double pi = 3.141592653589793;
    for (int i = 0; i <= 20; i++)
        for (int k = -7; k <= 7; k++) {
            double w = i / 20.0, theta = k * 0.43;
            double r;
            assert_int_equal(rig30_sweep_ring_radius(SKIN_DQS, w, theta, &r, NULL), LAB_OK);
            assert_near(r, 1.0, 1e-14);
            /* the closed form after the hemisphere fix: t wrapped into [-pi, pi] */
            double t = theta - 2 * pi * floor((theta + pi) / (2 * pi));
            double phi = 2 * atan2(w * sin(t / 2), (1 - w) + w * cos(t / 2));
            assert_near(rig30_dqs_twist_angle(w, theta), phi, 1e-14);
        }
}

static void test_rig30_dqs_twist_poses_match_closed_form(void **state)
{
    const rig30_rig *rig = *state;
    for (int k = -9; k <= 9; k++) {
        rig30_pose p = {.positions = malloc(sizeof(vec3) * 216)};
        assert_int_equal(rig30_pose_at(rig, k * 0.71, (skin_blend){.method = SKIN_DQS}, &p, NULL), LAB_OK);
        rig30_check c = {0};
        rig30_check_twist(rig, &p, SKIN_DQS, &c);
        assert_true(c.max_position_error < 1e-12 && c.max_radius_error < 1e-12);
        assert_true(c.max_end_ring_error < 1e-12 && c.max_height_error < 1e-12);
        free(p.positions);
    }
}

/* 270 deg: the short way (-45 deg) with the fix, the long way (+135) without it;
 * 360 deg without the fix: the middle ring's blend vanishes and is reported. */
static void test_rig30_hemisphere_fix_short_way_and_full_turn(void **state)
{
    const rig30_rig *rig = *state;
    const double pi = 3.141592653589793;
    rig30_pose p = {.positions = malloc(sizeof(vec3) * 216)};
    assert_int_equal(rig30_pose_at(rig, 1.5 * pi, (skin_blend){.method = SKIN_DQS}, &p, NULL), LAB_OK);
    assert_near(rig30_measure_ring_angle(rig->bind.vertices, p.positions, 4), -(pi / 4), 1e-12);
    skin_blend no_fix = {.method = SKIN_DQS, .skip_hemisphere_fix = true};
    assert_int_equal(rig30_pose_at(rig, 1.5 * pi, no_fix, &p, NULL), LAB_OK);
    assert_near(rig30_measure_ring_angle(rig->bind.vertices, p.positions, 4), 0.75 * pi, 1e-12);
    lab_diag d = {0};
    assert_int_equal(rig30_pose_at(rig, 2 * pi, no_fix, &p, &d), LAB_ERR_DQ_ZERO_NORM);
    assert_int_equal(d.vertex / RIG30_SEGMENTS, RIG30_MIDDLE_RING);
    free(p.positions);
}

static void test_rig30_bend_weights_and_metrics(void **state)
{
    (void)state;
    rig30_rig rig;
    assert_int_equal(rig30_rig_build(&rig, RIG30_BEND, NULL, NULL), LAB_OK);
    const double expect[RIG30_RINGS] = {0, 0, 0, 0.15625, 0.5, 0.84375, 1, 1, 1}; /* 3u^2 - 2u^3 */
    for (int k = 0; k < RIG30_RINGS; k++)
        assert_near(rig30_child_weight(&rig.influences, k * RIG30_SEGMENTS), expect[k], 1e-15);
    assert_true(mat4_max_abs_diff(rig.inverse_bind[1], mat4_translate(0, 0, -1)) == 0.0);
    rig30_pose p = {.positions = malloc(sizeof(vec3) * 216)};
    rig30_bend_metrics lbs, dqs;
    double beta = 3.141592653589793 / 2;
    assert_int_equal(rig30_pose_at(&rig, beta, (skin_blend){.method = SKIN_LBS}, &p, NULL), LAB_OK);
    rig30_measure_bend(&rig, &p, &lbs);
    assert_int_equal(rig30_pose_at(&rig, beta, (skin_blend){.method = SKIN_DQS}, &p, NULL), LAB_OK);
    rig30_measure_bend(&rig, &p, &dqs);
    /* LBS: the joint ring's inner vertex lands at cos(45 deg) from the joint */
    assert_near(lbs.inner_min_distance, sqrt(0.5), 1e-12);
    assert_near(dqs.inner_min_distance, 1.0, 1e-12);
    assert_true(dqs.outer_max_bulge > 0.02 && dqs.outer_max_bulge > 10 * lbs.outer_max_bulge);
    for (int k = 0; k < RIG30_RINGS; k++) /* DQS moves each ring rigidly */
        assert_near(dqs.ring_radius[k], 1.0, 1e-12);
    assert_true(lbs.ring_radius[4] < 0.9);
    /* the bind pose measures as the bind mesh: inner distance 1, no bulge */
    assert_int_equal(rig30_pose_at(&rig, 0.0, (skin_blend){.method = SKIN_DQS}, &p, NULL), LAB_OK);
    rig30_measure_bend(&rig, &p, &dqs);
    assert_near(dqs.inner_min_distance, 1.0, 1e-12);
    assert_near(dqs.outer_max_bulge, 0, 1e-12);
    free(p.positions);
    rig30_rig_free(&rig);
}

/* The true normal: radial at the bind pose; perpendicular to each skinned ring (the ring
 * is a scaled, turned circle, so the chord between a vertex's neighbours is its tangent);
 * rigidly turned where the weights are constant. */
static void test_rig30_true_normals(void **state)
{
    const rig30_rig *rig = *state;
    vec3 truth[216], bind[216];
    rig30_pose p = {.positions = malloc(sizeof(vec3) * 216)};
    assert_int_equal(rig30_pose_at(rig, 0.0, (skin_blend){.method = SKIN_LBS}, &p, NULL), LAB_OK);
    rig30_true_normals(rig, p.palette, mat4_identity(), truth);
    rig30_bind_normals(rig, bind);
    for (int v = 0; v < 216; v++)
        assert_true(vec3_length(vec3_sub(truth[v], bind[v])) < 1e-12);
    assert_int_equal(rig30_pose_at(rig, 1.2, (skin_blend){.method = SKIN_LBS}, &p, NULL), LAB_OK);
    rig30_true_normals(rig, p.palette, mat4_identity(), truth);
    for (int ring = 0; ring < 9; ring++)
        for (int s = 0; s < 24; s++) {
            vec3 chord = vec3_sub(p.positions[ring * 24 + (s + 1) % 24], p.positions[ring * 24 + (s + 23) % 24]);
            assert_near(vec3_dot(truth[ring * 24 + s], vec3_normalize(chord)), 0, 1e-12);
        }
    free(p.positions);
    rig30_rig bend;
    assert_int_equal(rig30_rig_build(&bend, RIG30_BEND, NULL, NULL), LAB_OK);
    rig30_pose q = {.positions = malloc(sizeof(vec3) * 216)};
    assert_int_equal(rig30_pose_at(&bend, 1.0, (skin_blend){.method = SKIN_LBS}, &q, NULL), LAB_OK);
    rig30_true_normals(&bend, q.palette, mat4_identity(), truth);
    rig30_bind_normals(&bend, bind);
    for (int s = 0; s < 24; s++) { /* ring 7: w = 1 there and on both neighbouring rings */
        vec3 rigid = mat4_transform_direction(mat4_rotate_x(1.0), bind[7 * 24 + s]);
        assert_true(vec3_length(vec3_sub(truth[7 * 24 + s], rigid)) < 1e-12);
    }
    free(q.positions);
    rig30_rig_free(&bend);
}

static void test_rig30_set_influences_applies_the_policy(void **state)
{
    (void)state;
    rig30_rig rig;
    assert_int_equal(rig30_rig_build(&rig, RIG30_TWIST, NULL, NULL), LAB_OK);
    skin_influences in;
    assert_int_equal(skin_influences_copy(&rig.influences, &in, NULL), LAB_OK);
    in.weight[2 * 5] = in.weight[2 * 5 + 1] = 0.3;
    lab_diag d = {0};
    assert_int_equal(rig30_set_influences(&rig, &in, (skin_weight_policy){0}, NULL, &d), LAB_ERR_WEIGHT_SUM);
    assert_true(rig.influences.weight[2 * 5] == 1.0); /* unchanged on error */
    skin_weight_report r;
    assert_int_equal(rig30_set_influences(&rig, &in, (skin_weight_policy){.kind = SKIN_POLICY_NORMALIZE}, &r, &d),
                     LAB_OK);
    assert_true(rig.influences.weight[2 * 5] == 0.5);
    assert_int_equal(r.normalized_count, 1);
    skin_weight_report_free(&r);
    skin_influences_free(&in);
    rig30_rig_free(&rig);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rig30_dqs_twist_closed_form_many_pairs),
        cmocka_unit_test_setup_teardown(test_rig30_dqs_twist_poses_match_closed_form, setup_rig,
                                        teardown_rig),
        cmocka_unit_test_setup_teardown(test_rig30_hemisphere_fix_short_way_and_full_turn, setup_rig,
                                        teardown_rig),
        cmocka_unit_test(test_rig30_bend_weights_and_metrics),
        cmocka_unit_test_setup_teardown(test_rig30_true_normals, setup_rig, teardown_rig),
        cmocka_unit_test(test_rig30_set_influences_applies_the_policy),
    };
    return cmocka_run_group_tests_name("rig30 beyond LBS", tests, NULL, NULL);
}
