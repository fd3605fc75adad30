/* test_scene.c - chapter 16's evaluate: ordering rule and hand-computed world matrices. */
#include <math.h>
#include <string.h>

#include "cmocka_all.h"
#include "mesh/scene.h"

static void test_scene_empty_is_valid(void **state)
{
    (void)state;
    assert_int_equal(scene_evaluate(NULL, 0, NULL, NULL), LAB_OK);
}

static void test_scene_rejects_parent_after_child(void **state)
{
    (void)state;
    scene_node nodes[2] = {{"a", 1, mat4_identity()}, {"b", SCENE_NO_PARENT, mat4_identity()}};
    mat4 world[2] = {mat4_identity(), mat4_identity()};
    world[0].m[0][0] = 42; /* must stay untouched on error */
    lab_diag d = {0};
    assert_int_equal(scene_evaluate(nodes, 2, world, &d), LAB_ERR_PARENT_ORDER);
    assert_non_null(strstr(d.where, "joint 0 (a)"));
    assert_true(world[0].m[0][0] == 42);
}

static void test_scene_rejects_self_parent_and_bad_index(void **state)
{
    (void)state;
    scene_node self[1] = {{"s", 0, mat4_identity()}};
    assert_int_equal(scene_validate(self, 1, NULL), LAB_ERR_PARENT_ORDER);
    scene_node neg[1] = {{"n", -5, mat4_identity()}};
    assert_int_equal(scene_validate(neg, 1, NULL), LAB_ERR_PARENT_ORDER);
}

static void test_scene_rejects_bad_local(void **state)
{
    (void)state;
    scene_node nodes[2] = {{"root", SCENE_NO_PARENT, mat4_identity()}, {"c", 0, mat4_identity()}};
    nodes[1].local.m[3][1] = 0.25;
    lab_diag d = {0};
    assert_int_equal(scene_validate(nodes, 2, &d), LAB_ERR_MATRIX_NOT_AFFINE);
    assert_non_null(strstr(d.where, "joint 1 (c)"));
}

/* Three-node chain: G_0 = L_0, G_1 = G_0 L_1, G_2 = G_1 L_2, checked on a point. */
static void test_scene_chain_by_hand(void **state)
{
    (void)state;
    const double q = 1.5707963267948966;
    scene_node nodes[3] = {
        {"root", SCENE_NO_PARENT, mat4_translate(10, 0, 0)},
        {"mid", 0, mat4_rotate_z(q)},
        {"tip", 1, mat4_translate(1, 0, 0)},
    };
    mat4 world[3];
    assert_int_equal(scene_evaluate(nodes, 3, world, NULL), LAB_OK);
    /* the tip's origin: 1 along x, turned to +y by the middle node, moved by +10 x */
    vec3 tip = mat4_transform_point(world[2], vec3_make(0, 0, 0));
    assert_near(tip.x, 10, 1e-15);
    assert_near(tip.y, 1, 1e-15);
    assert_true(tip.z == 0);
    assert_true(mat4_max_abs_diff(world[0], nodes[0].local) == 0.0);
}

/* A sibling listed after a deeper node still works: only parent-before-child matters. */
static void test_scene_siblings_any_order(void **state)
{
    (void)state;
    scene_node nodes[3] = {
        {"root", SCENE_NO_PARENT, mat4_translate(0, 0, 1)},
        {"a", 0, mat4_translate(0, 0, 1)},
        {"b", 0, mat4_translate(0, 2, 0)},
    };
    mat4 world[3];
    assert_int_equal(scene_evaluate(nodes, 3, world, NULL), LAB_OK);
    assert_true(world[2].m[1][3] == 2 && world[2].m[2][3] == 1);
    assert_true(world[1].m[2][3] == 2);
}

/* scene_world over a forest listed children first (as glTF may list nodes), visited in an
 * order that puts parents first, gives what scene_evaluate gives on the same forest listed
 * parents first: the one hierarchy product serves both. */
static void test_scene_world_in_any_order(void **state)
{
    (void)state;
    const mat4 a = mat4_mul(mat4_translate(1, 2, 3), mat4_rotate_z(0.7)), b = mat4_mul(mat4_translate(0, 0, 2),
                                                                                        mat4_rotate_x(-1.1)),
               c = mat4_scale(2, 1, 0.5);
    /* parents first: 0 root, 1 child of 0, 2 child of 1 */
    const scene_node first[3] = {{"root", SCENE_NO_PARENT, a}, {"mid", 0, b}, {"leaf", 1, c}};
    /* the same forest listed leaf, mid, root */
    const scene_node reversed[3] = {{"leaf", 1, c}, {"mid", 2, b}, {"root", SCENE_NO_PARENT, a}};
    const int order[3] = {2, 1, 0};
    mat4 expect[3], got[3];
    assert_int_equal(scene_evaluate(first, 3, expect, NULL), LAB_OK);
    scene_world(reversed, 3, order, got);
    for (int i = 0; i < 3; i++)
        assert_true(mat4_max_abs_diff(expect[i], got[2 - i]) == 0.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scene_empty_is_valid),
        cmocka_unit_test(test_scene_rejects_parent_after_child),
        cmocka_unit_test(test_scene_rejects_self_parent_and_bad_index),
        cmocka_unit_test(test_scene_rejects_bad_local),
        cmocka_unit_test(test_scene_chain_by_hand),
        cmocka_unit_test(test_scene_siblings_any_order),
        cmocka_unit_test(test_scene_world_in_any_order),
    };
    return cmocka_run_group_tests_name("scene", tests, NULL, NULL);
}
