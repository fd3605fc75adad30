/* test_rig30.c - chapter 30's rig: the analytic path against the skinning path, the
 * hand control, and every invalid input rejected by its own rule. DQS's closed forms, the
 * bend, the true normals and the weight policies are test_rig30_beyond_lbs.c's. */
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

/* ---- validity ---------------------------------------------------------------------- */

static void test_rig30_rejects_unnormalised_middle_weights(void **state)
{
    (void)state;
    rig30_rig rig;
    lab_diag d = {0};
    const double w[2] = {0.4, 0.4};
    assert_int_equal(rig30_rig_build(&rig, RIG30_TWIST, w, &d), LAB_ERR_WEIGHT_SUM);
    assert_int_equal(d.vertex / RIG30_SEGMENTS, RIG30_MIDDLE_RING);
    assert_null(rig.influences.joint);
}

static void test_rig30_every_invalid_case_is_rejected_by_its_rule(void **state)
{
    const rig30_rig *rig = *state;
    int n = rig30_invalid_case_count();
    assert_true(n >= 11);
    int categories_seen = 0;
    const char *wanted[] = {"joint slot", "weight", "point", "matrix", "bind transform"};
    for (size_t k = 0; k < sizeof wanted / sizeof wanted[0]; k++)
        for (int i = 0; i < n; i++)
            if (!strcmp(rig30_invalid_case_get(i)->category, wanted[k])) {
                categories_seen++;
                break;
            }
    assert_int_equal(categories_seen, 5);
    for (int i = 0; i < n; i++) {
        lab_diag d = {0};
        const rig30_invalid_case *c = rig30_invalid_case_get(i);
        lab_error e = rig30_invalid_case_run(rig, i, &d);
        if (e != c->expected)
            fail_msg("case %d (%s): got %s", i, c->name, lab_error_rule(e));
        assert_true(strlen(d.where) > 0 && strlen(d.value) > 0);
    }
    /* a case that does not exist is the caller's mistake, not an out-of-memory error */
    lab_diag d = {0};
    assert_int_equal(rig30_invalid_case_run(rig, n, &d), LAB_ERR_INVALID_ARGUMENT);
    assert_int_equal(rig30_invalid_case_run(rig, -1, &d), LAB_ERR_INVALID_ARGUMENT);
    assert_null(rig30_invalid_case_get(n));
    /* the untouched inputs do pass the same pipeline */
    rig30_pose p = pose_at(rig, 0.5 * pi);
    free(p.positions);
}

/* ---- hand-computed results --------------------------------------------------------- */

static void test_rig30_rig_matches_the_article(void **state)
{
    const rig30_rig *rig = *state;
    assert_int_equal(rig->bind.vertex_count, 216);
    assert_int_equal(rig->bind.triangle_count, 384);
    assert_int_equal(rig->stats.unique_edges, 600);
    assert_int_equal(rig->stats.boundary_edges, 48);
    assert_true(mat4_max_abs_diff(rig->bind_world[1], mat4_translate(0, 0, 2)) == 0.0);
    assert_true(mat4_max_abs_diff(rig->inverse_bind[1], mat4_translate(0, 0, -2)) == 0.0);
    /* w_1 = z/2: ring r has child weight r/8 */
    for (int ring = 0; ring < RIG30_RINGS; ring++)
        assert_true(rig30_child_weight(&rig->influences, ring * RIG30_SEGMENTS) == ring / 8.0);
}

static void test_rig30_radius_formula_by_hand(void **state)
{
    (void)state;
    assert_near(rig30_radius_ratio(0.5, 0.5 * pi), sqrt(0.5), 1e-15);
    assert_near(rig30_radius_ratio(0.5, 2.0 * pi / 3.0), 0.5, 1e-15);
    assert_near(rig30_radius_ratio(0.25, 2.0 * pi / 3.0), sqrt(7.0) / 4.0, 1e-15);
    assert_true(rig30_radius_ratio(0.5, pi) < 1e-16);
    assert_true(rig30_radius_ratio(0.0, 2.0) == 1.0 && rig30_radius_ratio(1.0, 2.0) == 1.0);
}

static void test_rig30_bind_pose_does_not_move(void **state)
{
    const rig30_rig *rig = *state;
    rig30_pose p = pose_at(rig, 0.0);
    for (int v = 0; v < rig->bind.vertex_count; v++)
        assert_true(vec3_length(vec3_sub(p.positions[v], rig->bind.vertices[v])) < 1e-12);
    for (int j = 0; j < RIG30_JOINTS; j++)
        assert_true(mat4_max_abs_diff(p.palette[j], mat4_identity()) < 1e-15);
    free(p.positions);
}

/* The analytic path agrees with LBS for many angles, including negative and > 360. */
static void test_rig30_analytic_agrees_with_lbs(void **state)
{
    const rig30_rig *rig = *state;
    for (int k = -12; k <= 30; k++) {
        rig30_pose p = pose_at(rig, k * 0.37);
        rig30_check c = {0};
        rig30_check_twist(rig, &p, SKIN_LBS, &c);
        assert_true(c.max_position_error < 1e-12);
        assert_true(c.max_radius_error < 1e-12);
        assert_true(c.max_height_error == 0.0);
        assert_true(c.max_end_ring_error < 1e-12);
        free(p.positions);
    }
}

/* The check is not a rubber stamp: move one vertex by 1e-9 and it sees it. */
static void test_rig30_check_detects_a_wrong_vertex(void **state)
{
    const rig30_rig *rig = *state;
    rig30_pose p = pose_at(rig, 0.5 * pi);
    p.positions[100].x += 1e-9;
    rig30_check c = {0};
    rig30_check_twist(rig, &p, SKIN_LBS, &c);
    assert_true(c.max_position_error > 0.9e-9);
    p.positions[100].x -= 1e-9;
    p.positions[215].z += 1e-6; /* top ring: also the quaternion comparison */
    c = (rig30_check){0};
    rig30_check_twist(rig, &p, SKIN_LBS, &c);
    assert_true(c.max_height_error > 0.9e-6 && c.max_end_ring_error > 0.9e-6);
    free(p.positions);
}

static void test_rig30_half_turn_collapses_middle_ring(void **state)
{
    const rig30_rig *rig = *state;
    rig30_pose p = pose_at(rig, pi);
    rig30_ring_radius mid = rig30_measure_ring(p.positions, RIG30_MIDDLE_RING);
    assert_true(mid.max < 1e-15);
    assert_int_equal(mesh_count_degenerate(p.positions, rig->bind.triangles,
                                           rig->bind.triangle_count, RIG30_MIN_AREA),
                     48);
    /* ring 2 (w = 1/4) keeps half its radius: sqrt(1 - 4 * 1/4 * 3/4) = 1/2 */
    assert_near(rig30_measure_ring(p.positions, 2).mean, 0.5, 1e-15);
    free(p.positions);
    rig30_pose q = pose_at(rig, pi * 179.0 / 180.0);
    assert_int_equal(mesh_count_degenerate(q.positions, rig->bind.triangles,
                                           rig->bind.triangle_count, RIG30_MIN_AREA),
                     0);
    free(q.positions);
}

static void test_rig30_exercise_quarter_weight(void **state)
{
    (void)state;
    rig30_rig rig;
    const double w[2] = {0.75, 0.25};
    assert_int_equal(rig30_rig_build(&rig, RIG30_TWIST, w, NULL), LAB_OK);
    rig30_pose p = pose_at(&rig, 2.0 * pi / 3.0);
    assert_near(rig30_measure_ring(p.positions, RIG30_MIDDLE_RING).mean, sqrt(7) / 4, 1e-15);
    free(p.positions);
    rig30_rig_free(&rig);
}

static void test_rig30_hand_control_table(void **state)
{
    (void)state;
    rig30_hand_control h;
    assert_int_equal(rig30_hand_control_run(&h, NULL), LAB_OK);
    const vec3 expect[HAND_ROWS] = {{0.5, 1.5, 0}, {0, 1.5, 0}, {0, 1, 0}};
    for (int r = 0; r < HAND_ROWS; r++)
        assert_true(vec3_length(vec3_sub(h.computed[r], expect[r])) < 1e-15);
    assert_near(h.error_vs_correct[HAND_NO_INVERSE_BIND], 0.5, 1e-15);
    assert_near(h.error_vs_correct[HAND_REVERSED_ORDER], sqrt(0.5), 1e-15);
}



/* Any twist the options accept, seams included: at +-180 and +-540 degrees a ring's
 * vertices sit on both sides of the -180/+180 cut, and there the child's quaternion has a
 * real part that is zero up to rounding. Every ring's measured turn must match its closed
 * form as angles (mod 360), every vertex its closed-form point; seeded angles in
 * [-720, 720] besides the seams. */
static void test_rig30_twists_at_the_seams_and_beyond_one_turn(void **state)
{
    const rig30_rig *rig = *state;
    double deg[40] = {-720, -540, -360, -270, -180, -90, 0, 90, 180, 270, 360, 540, 720, 179.999999, -180.000001};
    unsigned seed = 20u;
    for (int i = 15; i < 40; i++) {
        seed = seed * 1103515245u + 12345u;
        deg[i] = -720.0 + 1440.0 * (double)(seed >> 8) / (double)(1u << 24);
    }
    rig30_pose p = {.positions = malloc(sizeof(vec3) * 216)};
    assert_non_null(p.positions);
    for (int m = 0; m < 2; m++)
        for (int i = 0; i < 40; i++) {
            skin_method method = m ? SKIN_DQS : SKIN_LBS;
            assert_int_equal(rig30_pose_at(rig, deg_to_rad(deg[i]), (skin_blend){.method = method}, &p, NULL), LAB_OK);
            rig30_check c = {0};
            rig30_check_twist(rig, &p, method, &c);
            if (!(c.max_position_error < 1e-12))
                fail_msg("%s at %g deg: a vertex %g from its closed form", skin_method_name(method), deg[i],
                         c.max_position_error);
            rig30_ring_table rings;
            rig30_measure_rings(rig, &p, method, &rings);
            for (int k = 0; k < RIG30_RINGS; k++)
                if (!isnan(rings.angle[k]) && !(rig30_angle_difference(rings.angle[k], rings.angle_analytic[k]) < 1e-9))
                    fail_msg("%s at %g deg, ring %d: turn %.17g, closed form %.17g", skin_method_name(method), deg[i], k,
                             rings.angle[k], rings.angle_analytic[k]);
        }
    free(p.positions);
    /* the seam itself, by this test's arithmetic: -180 turns the top ring (w = 1) by a half
     * turn either way round; 540 sends the middle ring (w = 1/2) the way the sign of the
     * child's real part cos(270 deg) < 0 (rounded) says: flipped, +90 */
    const double pi = 3.141592653589793;
    assert_true(rig30_angle_difference(rig30_dqs_twist_angle(1.0, deg_to_rad(-180)), pi) < 1e-12);
    assert_true(cos(0.5 * deg_to_rad(540)) < 0.0);
    assert_near(rig30_dqs_twist_angle(0.5, deg_to_rad(540)), pi / 2, 1e-12);
    assert_near(rig30_angle_difference(deg_to_rad(359), deg_to_rad(-1)), 0, 1e-12);
    assert_near(rig30_angle_difference(deg_to_rad(-170), deg_to_rad(170)), deg_to_rad(20), 1e-12);
}





/* ---- conventions ------------------------------------------------------------------- */

/* The article's warning: Tz(2) and Rz commute, so the cylinder alone cannot catch a
 * reversed product; Ty(1) and Rz(90) do not commute (the hand control's reason). */
static void test_rig30_cylinder_cannot_see_matrix_order(void **state)
{
    (void)state;
    mat4 t = mat4_translate(0, 0, 2), r = mat4_rotate_z(1.0);
    assert_true(mat4_max_abs_diff(mat4_mul(t, r), mat4_mul(r, t)) == 0.0);
    mat4 ty = mat4_translate(0, 1, 0), rz = mat4_rotate_z(0.5 * pi);
    assert_true(mat4_max_abs_diff(mat4_mul(ty, rz), mat4_mul(rz, ty)) > 0.5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rig30_rejects_unnormalised_middle_weights),
        cmocka_unit_test_setup_teardown(test_rig30_every_invalid_case_is_rejected_by_its_rule,
                                        setup_rig, teardown_rig),
        cmocka_unit_test_setup_teardown(test_rig30_rig_matches_the_article, setup_rig, teardown_rig),
        cmocka_unit_test(test_rig30_radius_formula_by_hand),
        cmocka_unit_test_setup_teardown(test_rig30_bind_pose_does_not_move, setup_rig, teardown_rig),
        cmocka_unit_test_setup_teardown(test_rig30_analytic_agrees_with_lbs, setup_rig, teardown_rig),
        cmocka_unit_test_setup_teardown(test_rig30_check_detects_a_wrong_vertex, setup_rig,
                                        teardown_rig),
        cmocka_unit_test_setup_teardown(test_rig30_half_turn_collapses_middle_ring, setup_rig,
                                        teardown_rig),
        cmocka_unit_test(test_rig30_exercise_quarter_weight),
        cmocka_unit_test(test_rig30_hand_control_table),
        cmocka_unit_test(test_rig30_cylinder_cannot_see_matrix_order),
        cmocka_unit_test_setup_teardown(test_rig30_twists_at_the_seams_and_beyond_one_turn, setup_rig, teardown_rig),
    };
    return cmocka_run_group_tests_name("rig30", tests, NULL, NULL);
}
