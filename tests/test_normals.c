/* test_normals.c - normals under linear maps: inverse transposes by hand, the three skinning
 * methods on non-uniform scale (with numbers), singular maps, no translation, face normals. */
#include <math.h>
#include <string.h>

#include "cmocka_all.h"
#include "skin/normals.h"

static double deg(vec3 a, vec3 b) { return normals_angle_deg(a, b); }

/* ---- validity ---------------------------------------------------------------------- */

static void test_normals_singular_blend_names_the_vertex(void **state)
{
    (void)state;
    /* two bones that flatten x, one by 0 and one by 0: L has a zero column at vertex 1 */
    mat4 palette[2] = {mat4_identity(), mat4_scale(0, 1, 1)};
    skin_influences in = {2, 2, (int[]){0, 1, 0, 1}, (double[]){0.5, 0.5, 0, 1}};
    vec3 n[2] = {{1, 0, 0}, {1, 0, 0}}, out[2];
    lab_diag d = {0};
    assert_int_equal(normals_skin(n, &in, palette, 2, NORMALS_BLENDED_INVERSE_TRANSPOSE, out, &d),
                     LAB_ERR_SINGULAR);
    assert_int_equal(d.vertex, 1);
    assert_non_null(strstr(d.where, "vertex 1"));
    /* per-bone needs every bone invertible: names the joint */
    assert_int_equal(normals_skin(n, &in, palette, 2, NORMALS_PER_BONE_INVERSE_TRANSPOSE, out, &d),
                     LAB_ERR_SINGULAR);
    assert_non_null(strstr(d.where, "joint 1"));
    /* the rigid approximation never inverts anything */
    assert_int_equal(normals_skin(n, &in, palette, 2, NORMALS_RIGID, out, &d), LAB_OK);
    assert_int_equal(normals_to_world(n, 2, mat4_scale(1, 0, 1), out, &d), LAB_ERR_SINGULAR);
    assert_non_null(strstr(d.where, "model matrix"));
}

static void test_normals_refuse_unnormalised_weights(void **state)
{
    (void)state;
    mat4 palette[2] = {mat4_identity(), mat4_identity()};
    skin_influences in = {1, 2, (int[]){0, 1}, (double[]){0.4, 0.4}};
    vec3 n = {1, 0, 0}, out;
    assert_int_equal(normals_skin(&n, &in, palette, 2, NORMALS_RIGID, &out, NULL), LAB_ERR_WEIGHT_SUM);
}

/* ---- hand-computed results --------------------------------------------------------- */

/* S = diag(2, 1, 1): (S^-1)^T = diag(1/2, 1, 1). The plane x + y = 1 (normal (1,1,0))
 * becomes x/2 + y = 1, whose normal is (1/2, 1, 0). */
static void test_normals_inverse_transpose_by_hand(void **state)
{
    (void)state;
    mat4 it;
    assert_int_equal(mat4_linear_inverse_transpose(mat4_scale(2, 1, 1), &it, "S", NULL), LAB_OK);
    assert_near(it.m[0][0], 0.5, 1e-15);
    assert_true(it.m[1][1] == 1);
    assert_true(it.m[2][2] == 1);
    /* a shear: A = [[1, 1, 0], [0, 1, 0], [0, 0, 1]], (A^-1)^T = [[1, 0, 0], [-1, 1, 0], [0, 0, 1]] */
    mat4 shear = mat4_identity();
    shear.m[0][1] = 1;
    assert_int_equal(mat4_linear_inverse_transpose(shear, &it, "A", NULL), LAB_OK);
    assert_true(it.m[1][0] == -1 && it.m[0][1] == 0 && it.m[0][0] == 1 && it.m[1][1] == 1);
    /* a rotation is its own inverse transpose */
    mat4 r = mat4_rotate_x(0.7);
    assert_int_equal(mat4_linear_inverse_transpose(r, &it, "R", NULL), LAB_OK);
    assert_true(mat4_max_abs_diff(it, mat4_linear_part(r)) < 1e-15);
}

/* The article's point with numbers: under S = diag(2, 1, 1) the 45 degree normal (1,1,0)
 * goes to (1/2, 1, 0) (inverse transpose) but the rigid method gives (2, 1, 0): 36.87 deg
 * apart, atan(2) - atan(1/2). */
static void test_normals_nonuniform_scale_breaks_rigid_not_blended(void **state)
{
    (void)state;
    mat4 palette[2] = {mat4_identity(), mat4_translate(0, 0, 2)};
    palette[1] = mat4_mul(palette[1], mat4_scale(2, 1, 1));
    skin_influences in = {1, 2, (int[]){0, 1}, (double[]){0, 1}};
    vec3 n = vec3_normalize(vec3_make(1, 1, 0)), rigid, blended, per_bone;
    vec3 truth = vec3_normalize(vec3_make(0.5, 1, 0));
    assert_int_equal(normals_skin(&n, &in, palette, 2, NORMALS_RIGID, &rigid, NULL), LAB_OK);
    assert_int_equal(normals_skin(&n, &in, palette, 2, NORMALS_BLENDED_INVERSE_TRANSPOSE, &blended, NULL), LAB_OK);
    assert_int_equal(normals_skin(&n, &in, palette, 2, NORMALS_PER_BONE_INVERSE_TRANSPOSE, &per_bone, NULL), LAB_OK);
    double expected = (atan(2.0) - atan(0.5)) * 180 / acos(-1.0);
    assert_near(deg(rigid, truth), expected, 1e-9);
    assert_near(expected, 36.869897645844, 1e-9);
    assert_true(deg(blended, truth) < 1e-9);
    assert_true(deg(per_bone, truth) < 1e-9);
}

/* "blended" and "per-bone" agree for one bone but not once the bones differ. */
static void test_normals_blended_and_per_bone_are_different_approximations(void **state)
{
    (void)state;
    mat4 palette[2] = {mat4_scale(1, 3, 1), mat4_mul(mat4_rotate_z(0.8), mat4_scale(2, 1, 1))};
    skin_influences in = {1, 2, (int[]){0, 1}, (double[]){0.5, 0.5}};
    vec3 n = vec3_normalize(vec3_make(1, 2, 0.5)), a, b;
    assert_int_equal(normals_skin(&n, &in, palette, 2, NORMALS_BLENDED_INVERSE_TRANSPOSE, &a, NULL), LAB_OK);
    assert_int_equal(normals_skin(&n, &in, palette, 2, NORMALS_PER_BONE_INVERSE_TRANSPOSE, &b, NULL), LAB_OK);
    assert_true(deg(a, b) > 1.0);
    assert_near(vec3_length(a), 1.0, 1e-15);
    assert_near(vec3_length(b), 1.0, 1e-15);
}

/* Normals never receive translation: a palette of pure translations leaves them alone,
 * and so does a translating model matrix. */
static void test_normals_ignore_translation(void **state)
{
    (void)state;
    mat4 palette[2] = {mat4_translate(5, -3, 2), mat4_translate(-100, 7, 1)};
    skin_influences in = {1, 2, (int[]){0, 1}, (double[]){0.3, 0.7}};
    vec3 n = vec3_normalize(vec3_make(0.2, -0.4, 1));
    for (int m = 0; m < NORMALS_METHOD_COUNT; m++) {
        vec3 out;
        assert_int_equal(normals_skin(&n, &in, palette, 2, (normals_method)m, &out, NULL), LAB_OK);
        assert_true(deg(out, n) < 1e-12);
    }
    vec3 w;
    assert_int_equal(normals_to_world(&n, 1, mat4_translate(9, 9, 9), &w, NULL), LAB_OK);
    assert_true(deg(w, n) < 1e-12);
}

/* World normals: the model matrix's inverse transpose, not the matrix itself. */
static void test_normals_world_uses_inverse_transpose(void **state)
{
    (void)state;
    mat4 model = mat4_mul(mat4_rotate_z(0.5), mat4_scale(1, 2.5, 1));
    vec3 n = vec3_normalize(vec3_make(1, 1, 0)), tangent = vec3_make(1, -1, 0), w;
    assert_int_equal(normals_to_world(&n, 1, model, &w, NULL), LAB_OK);
    vec3 t = mat4_transform_direction(model, tangent);
    assert_near(vec3_dot(w, t), 0, 1e-15); /* still perpendicular to the moved tangent */
    vec3 naive = vec3_normalize(mat4_transform_direction(model, n));
    assert_true(fabs(vec3_dot(naive, vec3_normalize(t))) > 0.5);
}

static void test_normals_from_faces_and_angles(void **state)
{
    (void)state;
    /* a square in z = 0 split into two triangles, counter-clockwise from +z */
    vec3 p[4] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    mesh_triangle t[2] = {{{0, 1, 2}}, {{0, 2, 3}}};
    vec3 n[4];
    normals_from_faces(p, 4, t, 2, n);
    for (int v = 0; v < 4; v++)
        assert_true(deg(n[v], vec3_make(0, 0, 1)) < 1e-12);
    assert_near(normals_angle_deg(vec3_make(1, 0, 0), vec3_make(0, 3, 0)), 90, 1e-12);
    assert_near(normals_angle_deg(vec3_make(1, 0, 0), vec3_make(-2, 0, 0)), 180, 1e-12);
    assert_true(normals_angle_deg(vec3_make(1, 0, 0), vec3_make(1, 1e-9, 0)) > 5e-8); /* accurate near 0 */
    normals_error e = normals_compare(n, n, 4, NULL);
    assert_true(e.max_deg == 0.0 && e.mean_deg == 0.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_normals_singular_blend_names_the_vertex),
        cmocka_unit_test(test_normals_refuse_unnormalised_weights),
        cmocka_unit_test(test_normals_inverse_transpose_by_hand),
        cmocka_unit_test(test_normals_nonuniform_scale_breaks_rigid_not_blended),
        cmocka_unit_test(test_normals_blended_and_per_bone_are_different_approximations),
        cmocka_unit_test(test_normals_ignore_translation),
        cmocka_unit_test(test_normals_world_uses_inverse_transpose),
        cmocka_unit_test(test_normals_from_faces_and_angles),
    };
    return cmocka_run_group_tests_name("normals", tests, NULL, NULL);
}
