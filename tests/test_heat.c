/* test_heat.c - bone heat (src/weights/heat.h) and the sparse solver under it
 * (src/solve/sparse.h), each term against values this test derives on its own: cotangent
 * weights and Voronoi areas of triangles whose angles are known, the heat of vertices at
 * known distances, a wall that hides a bone, and the closed form of the whole system on
 * seeded cylinders of every size (the ring-by-ring second difference, cosh(mu z)). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_all.h"

#include "base/diag.h"
#include "math/linalg.h"
#include "mesh/bvh.h"
#include "mesh/mesh.h"
#include "solve/sparse.h"

#include "weights/heat.h"

/* ---- the solver -------------------------------------------------------------------------- */

/* [4 1 0; 1 3 1; 0 1 2] x = b with x = (1, -2, 3) chosen first: b = (2, -2, 4). */
static void test_sparse_solves_a_known_system(void **state)
{
    (void)state;
    sparse_triplets a;
    lab_diag d;
    assert_int_equal(sparse_init(&a, 3, 1, &d), LAB_OK); /* grows past its first room */
    const int i[] = {0, 0, 1, 1, 1, 2, 2};
    const int j[] = {0, 1, 0, 1, 2, 1, 2};
    const double v[] = {4, 1, 1, 3, 1, 1, 2};
    for (int k = 0; k < 7; k++)
        assert_int_equal(sparse_add(&a, i[k], j[k], v[k], &d), LAB_OK);
    sparse_cholesky f;
    assert_int_equal(sparse_cholesky_factor(&a, &f, &d), LAB_OK);
    double b[3] = {2, -2, 4}, x[3];
    assert_int_equal(sparse_cholesky_solve(&f, b, x, &d), LAB_OK);
    assert_near(x[0], 1, 1e-15);
    assert_near(x[1], -(2), 1e-15);
    assert_near(x[2], 3, 1e-15);
    assert_true(sparse_residual(&a, x, b) < 1e-15);
    assert_true(f.factor_nonzeros >= 5 && f.peak_bytes > 0);
    sparse_cholesky_free(&f);
    /* entries outside the matrix and values that are not finite never reach CHOLMOD */
    assert_int_equal(sparse_add(&a, 3, 0, 1, &d), LAB_ERR_INVALID_ARGUMENT);
    assert_int_equal(sparse_add(&a, 0, 0, NAN, &d), LAB_ERR_NOT_FINITE);
    sparse_free(&a);
}

/* An indefinite matrix is refused with the column where the pivot failed. */
static void test_sparse_refuses_an_indefinite_matrix(void **state)
{
    (void)state;
    sparse_triplets a;
    lab_diag d;
    assert_int_equal(sparse_init(&a, 2, 4, &d), LAB_OK);
    sparse_add(&a, 0, 0, 1, &d), sparse_add(&a, 0, 1, 2, &d), sparse_add(&a, 1, 0, 2, &d), sparse_add(&a, 1, 1, 1, &d);
    sparse_cholesky f;
    assert_int_equal(sparse_cholesky_factor(&a, &f, &d), LAB_ERR_NOT_POSITIVE_DEFINITE);
    assert_non_null(strstr(d.value, "column"));
    assert_null(f.common);
    sparse_free(&a);
}

/* ---- the Laplacian ----------------------------------------------------------------------- */

/* The right isosceles triangle (0,0,0), (1,0,0), (0,1,0): angles 90, 45, 45. The edge
 * opposite the right angle gets cot 90 / 2 = 0, the legs cot 45 / 2 = 1/2 each, with the
 * positive sign of L (the Laplacian pulls towards the neighbours: L_ii < 0). Voronoi areas
 * of a non-obtuse triangle: 1/4 at the right angle, 1/8 at each other corner. */
static void test_laplacian_of_a_right_triangle(void **state)
{
    (void)state;
    vec3 v[3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    mesh_triangle t[1] = {{{0, 1, 2}}};
    mesh m = {3, v, 1, t};
    sparse_triplets L;
    double mass[3];
    lab_diag d;
    int obtuse = -1;
    assert_int_equal(heat_laplacian(&m, HEAT_PAPER, &L, mass, &obtuse, &d), LAB_OK);
    assert_int_equal(obtuse, 0); /* a right angle is not obtuse */
    assert_near(sparse_entry(&L, 1, 2), 0, 1e-16);
    assert_near(sparse_entry(&L, 0, 1), 0.5, 1e-15);
    assert_near(sparse_entry(&L, 2, 0), 0.5, 1e-15);
    assert_near(sparse_entry(&L, 0, 0), -(1.0), 1e-15);
    assert_near(mass[0], 0.25, 1e-15);
    assert_near(mass[1], 0.125, 1e-15);
    assert_near(mass[2], 0.125, 1e-15);
    sparse_free(&L);
}

/* An obtuse triangle: (0,0,0), (2,0,0), (1,0.2,0), obtuse at vertex 2. Meyer's mixed area
 * gives the obtuse corner half the area and the others a quarter; the edge opposite the
 * obtuse angle has a negative cotangent weight. */
static void test_laplacian_of_an_obtuse_triangle(void **state)
{
    (void)state;
    vec3 v[3] = {{0, 0, 0}, {2, 0, 0}, {1, 0.2, 0}};
    mesh_triangle t[1] = {{{0, 1, 2}}};
    mesh m = {3, v, 1, t};
    sparse_triplets L;
    double mass[3], area = 0.5 * 2 * 0.2;
    lab_diag d;
    int obtuse = -1;
    assert_int_equal(heat_laplacian(&m, HEAT_PAPER, &L, mass, &obtuse, &d), LAB_OK);
    assert_int_equal(obtuse, 1);
    assert_near(mass[2], area / 2, 1e-15);
    assert_near(mass[0], area / 4, 1e-15);
    double angle = 2 * atan(1.0 / 0.2); /* at vertex 2 */
    assert_near(sparse_entry(&L, 0, 1), 0.5 / tan(angle), 1e-14);
    assert_true(sparse_entry(&L, 0, 1) < 0);
    sparse_free(&L);
}

/* ---- the heat ------------------------------------------------------------------------------ */

/* H_ii = c / d^2 at distance d = 2 (c = 3: 0.75), p = 1 on the nearest bone's joint; a tie
 * between two bones doubles H and halves p. */
static void test_heat_of_known_distances(void **state)
{
    (void)state;
    vec3 v[3] = {{2, 0, 0}, {0, 0, 5}, {0, 0, 2.5}};
    mesh_triangle t[1] = {{{0, 1, 2}}};
    mesh m = {3, v, 1, t};
    heat_bone bones[2] = {{{0, 0, 0}, {0, 0, 1}, 0}, {{0, 0, 4}, {0, 0, 6}, 1}};
    /* vertex 2 is not on a bone: move it off the axis, 1.5 from both (z = 2.5) */
    v[2] = vec3_make(2, 0, 2.5);
    double H[3], p[6];
    int hidden = -1;
    lab_diag d;
    /* vertex 1 lies on bone 1: refused, d = 0 has no heat */
    assert_int_equal(heat_sources(&m, HEAT_PAPER, bones, 2, 2, 3.0, H, p, NULL, &d), LAB_ERR_HEAT_ON_BONE);
    assert_int_equal(d.vertex, 1);
    v[1] = vec3_make(1, 0, 5);
    assert_int_equal(heat_sources(&m, HEAT_PAPER, bones, 2, 2, 3.0, H, p, &hidden, &d), LAB_OK);
    assert_int_equal(hidden, 0);
    assert_near(H[0], 3.0 / 4.0, 1e-15);
    assert_true(p[0] == 1.0);
    assert_true(p[1] == 0.0);
    assert_near(H[1], 3.0, 1e-15);
    assert_true(p[2] == 0.0);
    assert_true(p[3] == 1.0);
    /* vertex 2 at (2, 0, 2.5): sqrt(4 + 2.25) from both bones' ends: a tie */
    assert_near(H[2], 2 * 3.0 / 6.25, 1e-15);
    assert_true(p[4] == 0.5);
    assert_true(p[5] == 0.5);
}

/* A wall (a square of two triangles at x = 1) between a vertex at x = 2 and a bone on the
 * z axis: the bone is hidden, so the vertex takes the farther bone it can see, or no heat
 * at all when it sees none. */
static void test_heat_visibility(void **state)
{
    (void)state;
    vec3 v[7] = {{1, -1, -1}, {1, 1, -1}, {1, 1, 1}, {1, -1, 1}, {2, 0, 0}, {2, 0.1, 0}, {2, 0, 0.1}};
    mesh_triangle t[3] = {{{0, 1, 2}}, {{0, 2, 3}}, {{4, 5, 6}}};
    mesh m = {7, v, 3, t};
    assert_true(mesh_segment_blocked(&m, 4, vec3_make(0, 0, 0), MESH_SEGMENT_ANY));
    assert_false(mesh_segment_blocked(&m, 4, vec3_make(0, 0, 5), MESH_SEGMENT_ANY)); /* over the wall */
    assert_false(mesh_segment_blocked(&m, 4, vec3_make(3, 0, 0), MESH_SEGMENT_ANY));  /* the other way */
    heat_bone near_hidden[2] = {{{0, -1, 0}, {0, 1, 0}, 0}, {{5, 0, 0}, {5, 0, 1}, 1}};
    double H[7], p[14];
    int hidden;
    lab_diag d;
    assert_int_equal(heat_sources(&m, HEAT_PAPER, near_hidden, 2, 2, 1.0, H, p, &hidden, &d), LAB_OK);
    /* vertex 4: bone 0 is 2 away but behind the wall; bone 1 is 3 away and seen */
    assert_near(H[4], 1.0 / 9.0, 1e-15);
    assert_true(p[8] == 0.0);
    assert_true(p[9] == 1.0);
    heat_bone only_hidden[1] = {{{0, -0.5, 0}, {0, 0.5, 0}, 0}};
    assert_int_equal(heat_sources(&m, HEAT_PAPER, only_hidden, 1, 1, 1.0, H, p, &hidden, &d), LAB_OK);
    assert_true(H[4] == 0.0 && p[4] == 0.0);
    assert_true(hidden >= 1);
}

/* ---- the whole system on cylinders ----------------------------------------------------------- */

static uint64_t rng = 0x9e3779b97f4a7c15u;
static double uniform(double lo, double hi)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return lo + (hi - lo) * (double)(rng >> 11) / 9007199254740992.0;
}

/* Bone heat on an open cylinder of `rings` (odd) rings, radius R, height 2, with the bend's
 * bones meeting at the middle ring; the largest difference from the closed form of the
 * discrete system, w(z) = cosh(mu z) / (2 cosh(mu)) below the joint (odd about it),
 * cosh(mu h) = 1 + k^2 h^2 / 2, k^2 = c / R^2; also the sums and the smallest weight. */
static double cylinder_error(int rings, int segments, double R, double c, double *sum_error, double *min_weight,
                             double *continuum_error)
{
    mesh m;
    lab_diag d;
    assert_int_equal(mesh_cylinder(rings, segments, R, 2.0, &m, &d), LAB_OK);
    heat_bone bones[2] = {{{0, 0, 0}, {0, 0, 1}, 0}, {{0, 0, 1}, {0, 0, 2}, 1}};
    heat_result r;
    assert_int_equal(heat_solve(&m, HEAT_PAPER, bones, 2, 2, c, &r, &d), LAB_OK);
    double h = 2.0 / (rings - 1), k = sqrt(c) / R, mu = acosh(1 + k * k * h * h / 2) / h, worst = 0;
    *sum_error = 0, *min_weight = 1, *continuum_error = 0;
    for (int v = 0; v < m.vertex_count; v++) {
        double z = m.vertices[v].z, below = z <= 1 ? z : 2 - z, s = z <= 1 ? 1 : -1;
        double expect = (z <= 1 ? 0 : 1) + s * cosh(mu * below) / (2 * cosh(mu));
        double continuum = (z <= 1 ? 0 : 1) + s * cosh(k * below) / (2 * cosh(k));
        worst = fmax(worst, fabs(r.weights[2 * v + 1] - expect));
        *continuum_error = fmax(*continuum_error, fabs(r.weights[2 * v + 1] - continuum));
        *sum_error = fmax(*sum_error, fabs(r.weights[2 * v] + r.weights[2 * v + 1] - 1));
        *min_weight = fmin(*min_weight, fmin(r.weights[2 * v], r.weights[2 * v + 1]));
    }
    assert_true(r.backward_error[0] < 1e-14 && r.backward_error[1] < 1e-14);
    assert_int_equal(r.hidden, 0);
    heat_result_free(&r);
    mesh_free(&m);
    return worst;
}

/* Seeded cylinders: 3 to 41 rings, 3 to 64 segments, radius 0.2 to 3, and c such that the
 * heat against the diffusion, k^2 = c / R^2, runs over lab30-weights's range, 0.1 to 100
 * (the system's condition grows like 1 / k^2). The closed form fails when any term is
 * wrong: the mass matrix (M scales H against L), the
 * heat (c / d rather than c / d^2 shows once R is not 1), the sign of L (no longer
 * positive definite, or a different curve). */
static void test_heat_matches_the_closed_form_on_seeded_cylinders(void **state)
{
    (void)state;
    for (int run = 0; run < 40; run++) {
        int rings = 3 + 2 * (int)uniform(0, 19.999), segments = 3 + (int)uniform(0, 61.999);
        double R = uniform(0.2, 3.0), c = R * R * exp(uniform(log(0.1), log(100.0)));
        double sum, lo, continuum, err = cylinder_error(rings, segments, R, c, &sum, &lo, &continuum);
        if (err > 1e-11 || sum > 1e-12 || lo < 0)
            fail_msg("rings %d segments %d R %g c %g: closed form %g, sum %g, min %g", rings, segments, R, c, err,
                     sum, lo);
    }
}

/* The discrete system converges to the differential equation's cosh(k z) at second order:
 * doubling the rings quarters the difference. */
static void test_heat_converges_to_the_continuum(void **state)
{
    (void)state;
    double sum, lo, coarse, fine;
    cylinder_error(17, 48, 0.5, 1.0, &sum, &lo, &coarse);
    cylinder_error(33, 48, 0.5, 1.0, &sum, &lo, &fine);
    assert_true(coarse / fine > 3.8 && coarse / fine < 4.2);
    assert_true(fine < 2e-4);
}

/* A joint whose bone no vertex takes heat from (far outside the cylinder, every vertex
 * nearer to the axis): weight 0 everywhere without its solve, a backward error of 0 (the
 * solve of b = 0 would give 0 / 0), and the other joints' weights those of the run without
 * it, bit for bit, in both models. */
static void test_heat_gives_a_sourceless_joint_nothing(void **state)
{
    (void)state;
    mesh m;
    lab_diag d;
    assert_int_equal(mesh_cylinder(9, 24, 1.0, 2.0, &m, &d), LAB_OK);
    heat_bone bones[3] = {{{0, 0, 0}, {0, 0, 1}, 0}, {{0, 0, 1}, {0, 0, 2}, 1}, {{10, 0, 0}, {10, 0, 1}, 2}};
    for (int model = 0; model < HEAT_MODELS; model++) {
        heat_result two, three;
        assert_int_equal(heat_solve(&m, (heat_model)model, bones, 2, 2, 1.0, &two, &d), LAB_OK);
        assert_int_equal(heat_solve(&m, (heat_model)model, bones, 3, 3, 1.0, &three, &d), LAB_OK);
        assert_int_equal(two.sourceless, 0);
        assert_int_equal(three.sourceless, 1);
        assert_true(three.backward_error[2] == 0.0);
        for (int v = 0; v < m.vertex_count; v++) {
            assert_true(three.solution[3 * v + 2] == 0.0 && three.weights[3 * v + 2] == 0.0);
            for (int j = 0; j < 2; j++)
                assert_true(three.weights[3 * v + j] == two.weights[2 * v + j]);
        }
        heat_result_free(&two);
        heat_result_free(&three);
    }
    mesh_free(&m);
}

/* Joints that own no bone, and bones naming joints that are not there, are refused. */
static void test_heat_refuses_a_bad_skeleton(void **state)
{
    (void)state;
    mesh m;
    lab_diag d;
    heat_result r;
    assert_int_equal(mesh_cylinder(3, 8, 1, 2, &m, &d), LAB_OK);
    heat_bone one[1] = {{{0, 0, 0}, {0, 0, 2}, 0}};
    assert_int_equal(heat_solve(&m, HEAT_PAPER, one, 1, 2, 1.0, &r, &d), LAB_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(d.value, "joint 1 owns no bone"));
    one[0].joint = 5;
    assert_int_equal(heat_solve(&m, HEAT_PAPER, one, 1, 2, 1.0, &r, &d), LAB_ERR_INVALID_ARGUMENT);
    mesh_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sparse_solves_a_known_system),
        cmocka_unit_test(test_sparse_refuses_an_indefinite_matrix),
        cmocka_unit_test(test_laplacian_of_a_right_triangle),
        cmocka_unit_test(test_laplacian_of_an_obtuse_triangle),
        cmocka_unit_test(test_heat_of_known_distances),
        cmocka_unit_test(test_heat_visibility),
        cmocka_unit_test(test_heat_matches_the_closed_form_on_seeded_cylinders),
        cmocka_unit_test(test_heat_converges_to_the_continuum),
        cmocka_unit_test(test_heat_refuses_a_bad_skeleton),
        cmocka_unit_test(test_heat_gives_a_sourceless_joint_nothing),
    };
    return cmocka_run_group_tests_name("bone heat", tests, NULL, NULL);
}
