/* test_skin.c - strict influences, palette order and LBS against hand values. */
#include <math.h>
#include <string.h>

#include "cmocka_all.h"
#include "skin/skin.h"

static const double quarter = 1.5707963267948966;
static const skin_blend LBS = {.method = SKIN_LBS};

static double dist(vec3 a, vec3 b) { return vec3_length(vec3_sub(a, b)); }

/* n vertices of K influences over the caller's arrays (vertex v's at [v K .. v K + K)). */
static skin_influences view(int n, int k, int *joint, double *weight)
{
    return (skin_influences){n, k, joint, weight};
}

/* ---- validity ---------------------------------------------------------------------- */

static void test_skin_rejects_slot_out_of_range_even_with_zero_weight(void **state)
{
    (void)state;
    int joint[4] = {0, 1, 0, 2};
    double weight[4] = {0.5, 0.5, 1.0, 0.0};
    skin_influences in = view(2, 2, joint, weight);
    lab_diag d = {0};
    assert_int_equal(skin_validate_influences(&in, 2, &d), LAB_ERR_JOINT_SLOT_RANGE);
    assert_int_equal(d.vertex, 1);
    assert_string_equal(d.where, "vertex 1 slot 1");
    joint[3] = -1;
    assert_int_equal(skin_validate_influences(&in, 2, NULL), LAB_ERR_JOINT_SLOT_RANGE);
}

static void test_skin_rejects_bad_weights_each_with_its_rule(void **state)
{
    (void)state;
    int joint[2] = {0, 1};
    double weight[2] = {1.25, -0.25};
    skin_influences in = view(1, 2, joint, weight);
    assert_int_equal(skin_validate_influences(&in, 2, NULL), LAB_ERR_WEIGHT_NEGATIVE);
    weight[0] = NAN, weight[1] = 1.0;
    assert_int_equal(skin_validate_influences(&in, 2, NULL), LAB_ERR_WEIGHT_NOT_FINITE);
    weight[0] = 0.0, weight[1] = INFINITY;
    assert_int_equal(skin_validate_influences(&in, 2, NULL), LAB_ERR_WEIGHT_NOT_FINITE);
    lab_diag d = {0};
    weight[0] = 0.4, weight[1] = 0.4;
    assert_int_equal(skin_validate_influences(&in, 2, &d), LAB_ERR_WEIGHT_SUM);
    assert_non_null(strstr(d.value, "0.4 + 0.4 sum to 0.8, not 1 within 1e-12"));
    assert_non_null(strstr(d.value, "0.8 p with homogeneous w = 0.8"));
}

static void test_skin_weight_sum_tolerance_is_1e12(void **state)
{
    (void)state;
    int joint[2] = {0, 1};
    double weight[2] = {0.25, 0.75 + 0.5e-12};
    skin_influences in = view(1, 2, joint, weight);
    assert_int_equal(skin_validate_influences(&in, 2, NULL), LAB_OK);
    weight[1] = 0.75 + 2e-12;
    assert_int_equal(skin_validate_influences(&in, 2, NULL), LAB_ERR_WEIGHT_SUM);
    weight[1] = 0.75 - 2e-12;
    assert_int_equal(skin_validate_influences(&in, 2, NULL), LAB_ERR_WEIGHT_SUM);
    /* a policy may carry another tolerance (glTF: the validator's 2e-7 per weight) */
    weight[1] = 0.75 + 3e-7;
    skin_weight_policy gltf = {.tolerance = 4e-7};
    assert_int_equal(skin_apply_weight_policy(&in, 2, gltf, NULL, NULL), LAB_OK);
    gltf.tolerance = 2e-7;
    lab_diag d = {0};
    assert_int_equal(skin_apply_weight_policy(&in, 2, gltf, NULL, &d), LAB_ERR_WEIGHT_SUM);
    assert_non_null(strstr(d.value, "not 1 within 2e-07"));
}

static void test_skin_lbs_rejects_non_finite_point_and_writes_nothing(void **state)
{
    (void)state;
    vec3 p[2] = {{1, 0, 0}, {0, NAN, 0}};
    int joint[4] = {0, 1, 0, 1};
    double weight[4] = {1, 0, 1, 0};
    skin_influences in = view(2, 2, joint, weight);
    mat4 palette[2] = {mat4_identity(), mat4_identity()};
    vec3 out[2] = {{7, 7, 7}, {7, 7, 7}};
    lab_diag d = {0};
    assert_int_equal(skin_deform(p, &in, palette, 2, LBS, out, &d), LAB_ERR_POINT_NOT_FINITE);
    assert_int_equal(d.vertex, 1);
    assert_true(out[0].x == 7 && out[1].x == 7);
}

static void test_skin_palette_rejects_non_affine_world(void **state)
{
    (void)state;
    mat4 world[1] = {mat4_identity()}, inv[1] = {mat4_identity()}, out[1];
    world[0].m[3][3] = 2.0;
    lab_diag d = {0};
    assert_int_equal(skin_palette(world, inv, 1, out, &d), LAB_ERR_MATRIX_NOT_AFFINE);
    assert_string_equal(d.where, "world matrix G_0");
}

static void test_skin_inverse_binds_refuse_rotation(void **state)
{
    (void)state;
    mat4 bind[2] = {mat4_identity(), mat4_mul(mat4_translate(0, 0, 2), mat4_rotate_x(0.1))};
    mat4 inv[2];
    lab_diag d = {0};
    assert_int_equal(skin_inverse_binds(bind, 2, inv, &d), LAB_ERR_NOT_PURE_TRANSLATION);
    assert_non_null(strstr(d.where, "joint 1"));
}

/* ---- hand-computed results --------------------------------------------------------- */

/* The article's control: p = (1,1,0), B_1 = Ty(1), G_1 = Ty(1) Rz(90), equal weights. */
static void test_skin_palette_order_hand_control(void **state)
{
    (void)state;
    mat4 world[2] = {mat4_identity(), mat4_mul(mat4_translate(0, 1, 0), mat4_rotate_z(quarter))};
    mat4 bind[2] = {mat4_identity(), mat4_translate(0, 1, 0)}, inv[2], palette[2];
    assert_int_equal(skin_inverse_binds(bind, 2, inv, NULL), LAB_OK);
    assert_int_equal(skin_palette(world, inv, 2, palette, NULL), LAB_OK);
    vec3 p = {1, 1, 0}, out;
    skin_influences in = view(1, 2, (int[]){0, 1}, (double[]){0.5, 0.5});
    assert_int_equal(skin_deform(&p, &in, palette, 2, LBS, &out, NULL), LAB_OK);
    assert_true(dist(out, vec3_make(0.5, 1.5, 0)) < 1e-15);
    /* C_1 alone sends p to (0, 2, 0): the rotation is about the joint, not the origin */
    assert_true(dist(mat4_transform_point(palette[1], p), vec3_make(0, 2, 0)) < 1e-15);
}

static void test_skin_bind_pose_is_identity(void **state)
{
    (void)state;
    mat4 bind[2] = {mat4_translate(0.5, 0, 0), mat4_translate(0, 0, 2)}, inv[2], palette[2];
    assert_int_equal(skin_inverse_binds(bind, 2, inv, NULL), LAB_OK);
    assert_int_equal(skin_palette(bind, inv, 2, palette, NULL), LAB_OK);
    for (int j = 0; j < 2; j++)
        assert_true(mat4_max_abs_diff(palette[j], mat4_identity()) == 0.0);
}

static void test_skin_unnormalised_weights_scale_the_point(void **state)
{
    (void)state;
    mat4 palette[2] = {mat4_identity(), mat4_identity()};
    vec4 h = skin_lbs_point(vec3_make(1, 2, 3), (const int[]){0, 1}, (const double[]){0.4, 0.4}, 2, palette);
    assert_near(h.x, 0.8, 1e-15);
    assert_near(h.y, 1.6, 1e-15);
    assert_near(h.z, 2.4, 1e-15);
    assert_near(h.w, 0.8, 1e-15);
}

static void test_skin_swapping_slots_gives_same_result(void **state)
{
    (void)state;
    mat4 palette[2] = {mat4_rotate_z(0.3), mat4_mul(mat4_translate(1, 2, 3), mat4_rotate_x(1.1))};
    skin_influences a = view(1, 2, (int[]){0, 1}, (double[]){0.3, 0.7});
    skin_influences b = view(1, 2, (int[]){1, 0}, (double[]){0.7, 0.3});
    vec3 p = {0.2, -0.4, 1.5}, ra, rb;
    assert_int_equal(skin_deform(&p, &a, palette, 2, LBS, &ra, NULL), LAB_OK);
    assert_int_equal(skin_deform(&p, &b, palette, 2, LBS, &rb, NULL), LAB_OK);
    assert_true(dist(ra, rb) < 1e-15);
}

/* LBS of a half turn about z with equal weights lands on the axis (the candy wrapper). */
static void test_skin_half_turn_collapses_equal_weights(void **state)
{
    (void)state;
    mat4 palette[2] = {mat4_identity(), mat4_rotate_z(2 * quarter)};
    skin_influences in = view(1, 2, (int[]){0, 1}, (double[]){0.5, 0.5});
    vec3 p = {0.6, 0.8, 1.0}, out;
    assert_int_equal(skin_deform(&p, &in, palette, 2, LBS, &out, NULL), LAB_OK);
    assert_true(hypot(out.x, out.y) < 1e-15);
    assert_true(out.z == 1.0);
}

static void test_skin_pose_job_runs_the_chain(void **state)
{
    (void)state;
    scene_node joints[2] = {{"root", SCENE_NO_PARENT, mat4_identity()},
                            {"child", 0, mat4_mul(mat4_translate(0, 0, 2), mat4_rotate_z(quarter))}};
    mat4 inv[2] = {mat4_identity(), mat4_translate(0, 0, -2)};
    vec3 bind[1] = {{1, 0, 2}};
    skin_influences in = view(1, 2, (int[]){0, 1}, (double[]){0, 1});
    mat4 world[2], palette[2];
    vec3 out[1];
    skin_pose_job job = {.joints = joints, .joint_count = 2, .inverse_bind = inv, .bind_positions = bind,
                         .influences = &in, .blend = LBS, .out_world = world,
                         .out_palette = palette, .out_positions = out};
    assert_int_equal(skin_pose_run(&job, NULL), LAB_OK);
    assert_true(dist(out[0], vec3_make(0, 1, 2)) < 1e-15);
    assert_true(world[1].m[2][3] == 2.0);
    joints[0].parent = 1; /* the chain stops at the skeleton */
    assert_int_equal(skin_pose_run(&job, NULL), LAB_ERR_PARENT_ORDER);
}

/* ---- weight policies ---------------------------------------------------------------- */

/* Three vertices: sums 1, 0.8 and 0. */
static skin_influences crafted(int joint[6], double weight[6])
{
    const int j[6] = {0, 1, 0, 1, 0, 1};
    const double w[6] = {0.25, 0.75, 0.4, 0.4, 0.0, 0.0};
    memcpy(joint, j, sizeof j);
    memcpy(weight, w, sizeof w);
    return view(3, 2, joint, weight);
}

static void test_skin_policy_strict_rejects_and_changes_nothing(void **state)
{
    (void)state;
    int joint[6];
    double weight[6];
    skin_influences in = crafted(joint, weight);
    lab_diag d = {0};
    assert_int_equal(skin_apply_weight_policy(&in, 2, (skin_weight_policy){0}, NULL, &d), LAB_ERR_WEIGHT_SUM);
    assert_int_equal(d.vertex, 1);
    assert_true(weight[2] == 0.4);
}

static void test_skin_policy_normalize_divides_and_reports(void **state)
{
    (void)state;
    int joint[6];
    double weight[6];
    skin_influences in = crafted(joint, weight);
    skin_weight_policy normalize = {.kind = SKIN_POLICY_NORMALIZE};
    lab_diag d = {0};
    /* W = 0 cannot be normalised: rejected, and nothing changed */
    assert_int_equal(skin_apply_weight_policy(&in, 2, normalize, NULL, &d), LAB_ERR_WEIGHT_SUM_ZERO);
    assert_int_equal(d.vertex, 2);
    assert_true(weight[2] == 0.4);
    weight[4] = weight[5] = 0.5;
    skin_weight_report r;
    assert_int_equal(skin_apply_weight_policy(&in, 2, normalize, &r, &d), LAB_OK);
    assert_true(weight[2] == 0.5 && weight[3] == 0.5);
    assert_true(weight[1] == 0.75); /* untouched */
    assert_int_equal(r.normalized_count, 1);
    assert_int_equal(r.normalized_vertices[0], 1);
    assert_near(r.largest_deviation, 0.2, 1e-15);
    assert_int_equal(r.largest_deviation_vertex, 1);
    assert_int_equal(r.fallback_count, 0);
    skin_weight_report_free(&r);
}

static void test_skin_policy_fallback_binds_weightless_vertex(void **state)
{
    (void)state;
    int joint[6];
    double weight[6];
    skin_influences in = crafted(joint, weight);
    skin_weight_report r;
    skin_weight_policy fallback = {.kind = SKIN_POLICY_FALLBACK, .fallback_joint = 1};
    assert_int_equal(skin_apply_weight_policy(&in, 2, fallback, &r, NULL), LAB_OK);
    assert_int_equal(r.fallback_count, 1);
    assert_int_equal(r.fallback_vertices[0], 2);
    assert_int_equal(joint[4], 1);
    assert_true(weight[4] == 1.0 && weight[5] == 0.0);
    assert_int_equal(r.normalized_count, 1); /* the 0.8 vertex is still normalised */
    assert_int_equal(skin_validate_influences(&in, 2, NULL), LAB_OK);
    skin_weight_report_free(&r);
    /* the fallback joint must exist */
    in = crafted(joint, weight);
    fallback.fallback_joint = 2;
    assert_int_equal(skin_apply_weight_policy(&in, 2, fallback, NULL, NULL), LAB_ERR_JOINT_SLOT_RANGE);
}

/* Every policy still refuses negative or non-finite weights and bad slots. */
static void test_skin_policy_keeps_the_hard_rules(void **state)
{
    (void)state;
    const skin_weight_policy policies[2] = {{.kind = SKIN_POLICY_NORMALIZE}, {.kind = SKIN_POLICY_FALLBACK}};
    for (int k = 0; k < 2; k++) {
        skin_influences neg = view(1, 2, (int[]){0, 1}, (double[]){1.5, -0.5});
        skin_influences nan_w = view(1, 2, (int[]){0, 1}, (double[]){NAN, 1});
        skin_influences slot = view(1, 2, (int[]){0, 5}, (double[]){1, 0});
        assert_int_equal(skin_apply_weight_policy(&neg, 2, policies[k], NULL, NULL), LAB_ERR_WEIGHT_NEGATIVE);
        assert_int_equal(skin_apply_weight_policy(&nan_w, 2, policies[k], NULL, NULL), LAB_ERR_WEIGHT_NOT_FINITE);
        assert_int_equal(skin_apply_weight_policy(&slot, 2, policies[k], NULL, NULL), LAB_ERR_JOINT_SLOT_RANGE);
    }
    /* eps_w is the caller's: W = 1e-3 passes with the default and fails above it */
    double tiny_w[2] = {0.0005, 0.0005};
    skin_influences tiny = view(1, 2, (int[]){0, 1}, tiny_w);
    assert_int_equal(skin_apply_weight_policy(&tiny, 2, (skin_weight_policy){.kind = SKIN_POLICY_NORMALIZE, .eps_w = 1e-2},
                                              NULL, NULL),
                     LAB_ERR_WEIGHT_SUM_ZERO);
    assert_int_equal(skin_apply_weight_policy(&tiny, 2, (skin_weight_policy){.kind = SKIN_POLICY_NORMALIZE}, NULL, NULL),
                     LAB_OK);
    assert_true(tiny_w[0] == 0.5);
}

/* ---- any number of influences --------------------------------------------------------- */

/* K = 4, one joint twice: LBS is sum_k w_k C_{j_k} p by hand, and DQS of three pure
 * translations is the weighted translation (rigid blends of translations stay exact). */
static void test_skin_blends_any_number_of_influences(void **state)
{
    (void)state;
    mat4 palette[3] = {mat4_translate(1, 0, 0), mat4_translate(0, 2, 0), mat4_translate(0, 0, 4)};
    int joint[4] = {0, 1, 2, 1};
    double weight[4] = {0.5, 0.125, 0.25, 0.125};
    skin_influences in = view(1, 4, joint, weight);
    vec3 p = {1, 1, 1}, lbs, dqs;
    assert_int_equal(skin_deform(&p, &in, palette, 3, LBS, &lbs, NULL), LAB_OK);
    /* 0.5 (2,1,1) + 0.25 (1,3,1) + 0.25 (1,1,5) */
    assert_true(dist(lbs, vec3_make(1.5, 1.5, 2)) < 1e-15);
    assert_true(skin_joint_weight(&in, 0, 1) == 0.25);
    assert_int_equal(skin_deform(&p, &in, palette, 3, (skin_blend){.method = SKIN_DQS}, &dqs, NULL), LAB_OK);
    assert_true(dist(dqs, lbs) < 1e-15);
    /* K has a documented limit, refused before anything is allocated */
    skin_influences big;
    lab_diag d = {0};
    assert_int_equal(skin_influences_init(&big, 10, SKIN_MAX_INFLUENCES + 1, &d), LAB_ERR_LIMIT);
    assert_null(big.joint);
    assert_int_equal(skin_influences_init(&big, 10, 3, &d), LAB_OK);
    assert_true(big.joint[29] == 0 && big.weight[29] == 0.0);
    skin_influences copy;
    big.weight[29] = 0.5;
    assert_int_equal(skin_influences_copy(&big, &copy, NULL), LAB_OK);
    assert_true(copy.weight[29] == 0.5 && copy.per_vertex == 3 && copy.vertex_count == 10);
    skin_influences_free(&copy);
    skin_influences_free(&big);
}

/* M = sum w C applied to p is the LBS point: the matrix the chapter's explanation uses. */
static void test_skin_blend_matrix_is_what_lbs_applies(void **state)
{
    (void)state;
    mat4 palette[3] = {mat4_rotate_z(0.3), mat4_mul(mat4_translate(1, 2, 3), mat4_rotate_x(1.1)), mat4_scale(2, 1, 1)};
    const int joint[3] = {0, 1, 2};
    const double weight[3] = {0.2, 0.5, 0.3};
    vec3 p = {0.4, -1.2, 0.7};
    mat4 m = skin_blend_matrix(joint, weight, 3, palette);
    vec4 h = skin_lbs_point(p, joint, weight, 3, palette);
    vec3 q = mat4_transform_point(m, p);
    assert_true(dist(q, vec3_make(h.x, h.y, h.z)) < 1e-15);
}

/* The order engines pack in, and glTF's renormalisation of float weights. */
static void test_skin_sort_and_renormalize(void **state)
{
    (void)state;
    int joint[4] = {3, 1, 2, 0};
    double weight[4] = {0.1, 0.4, 0.1, 0.4};
    skin_sort_heaviest_first(joint, weight, 4);
    const int want_joint[4] = {0, 1, 2, 3};
    const double want_weight[4] = {0.4, 0.4, 0.1, 0.1};
    for (int k = 0; k < 4; k++)
        assert_true(joint[k] == want_joint[k] && weight[k] == want_weight[k]);
    double w[4] = {0.25f, 0.25f, 0.25f, 0.2500001f};
    skin_influences in = view(1, 4, joint, w);
    skin_renormalize(&in);
    assert_near(w[0] + w[1] + w[2] + w[3] - 1.0, 0, 1e-15);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_skin_rejects_slot_out_of_range_even_with_zero_weight),
        cmocka_unit_test(test_skin_rejects_bad_weights_each_with_its_rule),
        cmocka_unit_test(test_skin_weight_sum_tolerance_is_1e12),
        cmocka_unit_test(test_skin_lbs_rejects_non_finite_point_and_writes_nothing),
        cmocka_unit_test(test_skin_palette_rejects_non_affine_world),
        cmocka_unit_test(test_skin_inverse_binds_refuse_rotation),
        cmocka_unit_test(test_skin_palette_order_hand_control),
        cmocka_unit_test(test_skin_bind_pose_is_identity),
        cmocka_unit_test(test_skin_unnormalised_weights_scale_the_point),
        cmocka_unit_test(test_skin_swapping_slots_gives_same_result),
        cmocka_unit_test(test_skin_half_turn_collapses_equal_weights),
        cmocka_unit_test(test_skin_pose_job_runs_the_chain),
        cmocka_unit_test(test_skin_policy_strict_rejects_and_changes_nothing),
        cmocka_unit_test(test_skin_policy_normalize_divides_and_reports),
        cmocka_unit_test(test_skin_policy_fallback_binds_weightless_vertex),
        cmocka_unit_test(test_skin_policy_keeps_the_hard_rules),
        cmocka_unit_test(test_skin_blends_any_number_of_influences),
        cmocka_unit_test(test_skin_sort_and_renormalize),
        cmocka_unit_test(test_skin_blend_matrix_is_what_lbs_applies),
    };
    return cmocka_run_group_tests_name("skin", tests, NULL, NULL);
}
