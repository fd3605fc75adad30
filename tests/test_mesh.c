/* test_mesh.c - the cylinder builder and chapter 12's connectivity checks. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_all.h"
#include "mesh/bvh.h"
#include "mesh/mesh.h"

/* An open cylinder of R rings and S segments, counted by hand: V = R S, T = 2 S,
 * edges = S per ring (R S) + S verticals and S diagonals per band (2 S),
 * boundary = the two end rings (2 S). */
static void check_counts(int rings, int segments)
{
    mesh m;
    mesh_stats st;
    assert_int_equal(mesh_cylinder(rings, segments, 1.0, 2.0, &m, NULL), LAB_OK);
    assert_int_equal(mesh_check(&m, 1e-12, &st, NULL), LAB_OK);
    assert_int_equal(m.vertex_count, rings * segments);
    assert_int_equal(m.triangle_count, 2 * (rings - 1) * segments);
    assert_int_equal(st.unique_edges, rings * segments + 2 * (rings - 1) * segments);
    assert_int_equal(st.boundary_edges, 2 * segments);
    mesh_edge *e;
    int edge_count;
    assert_int_equal(mesh_unique_edges(m.triangles, m.triangle_count, &e, &edge_count, NULL), LAB_OK);
    assert_int_equal(edge_count, st.unique_edges);
    for (int i = 1; i < st.unique_edges; i++) /* sorted and unique */
        assert_true(e[i - 1].a < e[i].a || (e[i - 1].a == e[i].a && e[i - 1].b < e[i].b));
    free(e);
    mesh_free(&m);
}

static void test_mesh_builder_rejects_too_few_rings_or_segments(void **state)
{
    (void)state;
    mesh m;
    assert_int_not_equal(mesh_cylinder(1, 24, 1, 2, &m, NULL), LAB_OK);
    assert_int_not_equal(mesh_cylinder(9, 2, 1, 2, &m, NULL), LAB_OK);
    assert_null(m.vertices);
}

static void test_mesh_rejects_index_out_of_range(void **state)
{
    (void)state;
    vec3 v[3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    mesh_triangle t[1] = {{{0, 1, 3}}};
    mesh m = {3, v, 1, t};
    lab_diag d = {0};
    assert_int_equal(mesh_check(&m, 1e-12, NULL, &d), LAB_ERR_MESH_INDEX_RANGE);
    assert_string_equal(d.where, "triangle 0");
    t[0].v[2] = -1;
    assert_int_equal(mesh_check(&m, 1e-12, NULL, NULL), LAB_ERR_MESH_INDEX_RANGE);
}

static void test_mesh_rejects_repeated_vertex_and_zero_area(void **state)
{
    (void)state;
    vec3 v[4] = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 1, 0}};
    mesh_triangle t[1] = {{{0, 1, 1}}};
    mesh m = {4, v, 1, t};
    assert_int_equal(mesh_check(&m, 1e-12, NULL, NULL), LAB_ERR_MESH_REPEATED_VERTEX);
    t[0] = (mesh_triangle){{0, 1, 2}}; /* collinear */
    assert_int_equal(mesh_check(&m, 1e-12, NULL, NULL), LAB_ERR_MESH_ZERO_AREA);
    t[0] = (mesh_triangle){{0, 1, 3}};
    assert_int_equal(mesh_check(&m, 1e-12, NULL, NULL), LAB_OK);
}

static void test_mesh_rejects_edge_used_three_times(void **state)
{
    (void)state;
    vec3 v[5] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}};
    mesh_triangle t[3] = {{{0, 1, 2}}, {{1, 0, 3}}, {{0, 1, 4}}};
    mesh m = {5, v, 3, t};
    lab_diag d = {0};
    assert_int_equal(mesh_check(&m, 1e-12, NULL, &d), LAB_ERR_MESH_EDGE_OVERUSED);
    assert_string_equal(d.where, "edge (0, 1)");
}

static void test_mesh_rejects_flipped_triangle(void **state)
{
    (void)state;
    mesh m;
    assert_int_equal(mesh_cylinder(3, 6, 1, 1, &m, NULL), LAB_OK);
    int *v = m.triangles[5].v; /* flip one triangle */
    int tmp = v[1];
    v[1] = v[2];
    v[2] = tmp;
    assert_int_equal(mesh_check(&m, 1e-12, NULL, NULL), LAB_ERR_MESH_ORIENTATION);
    mesh_free(&m);
}

static void test_mesh_chapter30_cylinder_counts(void **state)
{
    (void)state;
    mesh m;
    mesh_stats st;
    assert_int_equal(mesh_cylinder(9, 24, 1.0, 2.0, &m, NULL), LAB_OK);
    assert_int_equal(mesh_check(&m, 1e-12, &st, NULL), LAB_OK);
    assert_int_equal(m.vertex_count, 216);
    assert_int_equal(m.triangle_count, 384);
    assert_int_equal(st.unique_edges, 600);
    assert_int_equal(st.boundary_edges, 48);
    /* ring 4 sits exactly at z = 1 with radius 1 */
    for (int s = 0; s < 24; s++) {
        vec3 p = m.vertices[mesh_cylinder_index(24, 4, s)];
        assert_true(p.z == 1.0);
        assert_near(hypot(p.x, p.y), 1.0, 1e-15);
    }
    mesh_free(&m);
}

static void test_mesh_counts_for_other_sizes(void **state)
{
    (void)state;
    check_counts(2, 3);
    check_counts(3, 5);
    check_counts(9, 24);
    check_counts(17, 48);
}

/* Outward orientation: each triangle's normal points away from the axis. */
static void test_mesh_cylinder_faces_outward(void **state)
{
    (void)state;
    mesh m;
    assert_int_equal(mesh_cylinder(4, 8, 1, 1, &m, NULL), LAB_OK);
    for (int i = 0; i < m.triangle_count; i++) {
        vec3 a = m.vertices[m.triangles[i].v[0]], b = m.vertices[m.triangles[i].v[1]],
             c = m.vertices[m.triangles[i].v[2]];
        vec3 n = vec3_cross(vec3_sub(b, a), vec3_sub(c, a));
        vec3 centre = vec3_scale(vec3_add(vec3_add(a, b), c), 1.0 / 3.0);
        assert_true(n.x * centre.x + n.y * centre.y > 0.0);
    }
    mesh_free(&m);
}

static void test_mesh_degenerate_count(void **state)
{
    (void)state;
    vec3 p[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1e-14, 0, 0}};
    mesh_triangle t[2] = {{{0, 1, 2}}, {{0, 3, 2}}};
    assert_int_equal(mesh_count_degenerate(p, t, 2, 1e-12), 1);
    assert_int_equal(mesh_count_degenerate(p, t, 2, 0.0), 0);
    assert_near(triangle_area(p[0], p[1], p[2]), 0.5, 1e-16);
}

static uint64_t rng = 0x2545f4914f6cdd1du;
static double uniform(double lo, double hi) /* xorshift64, seeded: the same segments every run */
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return lo + (hi - lo) * (double)(rng >> 11) / 9007199254740992.0;
}

/* The hierarchy's answer is the loop's, on seeded segments from every vertex of two meshes:
 * a cylinder seen from its axis and beyond its wall, and a random triangle soup. */
static void test_mesh_bvh_agrees_with_the_loop(void **state)
{
    (void)state;
    mesh m;
    lab_diag d;
    assert_int_equal(mesh_cylinder(9, 24, 1, 2, &m, &d), LAB_OK);
    enum { SOUP = 60 };
    vec3 soup_v[3 * SOUP];
    mesh_triangle soup_t[SOUP];
    for (int t = 0; t < SOUP; t++) {
        vec3 c = {uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)};
        for (int k = 0; k < 3; k++)
            soup_v[3 * t + k] = vec3_add(c, vec3_make(uniform(-0.3, 0.3), uniform(-0.3, 0.3), uniform(-0.3, 0.3)));
        soup_t[t] = (mesh_triangle){{3 * t, 3 * t + 1, 3 * t + 2}};
    }
    mesh soup = {3 * SOUP, soup_v, SOUP, soup_t};
    const mesh *meshes[2] = {&m, &soup};
    for (int rule = MESH_SEGMENT_ANY; rule <= MESH_SEGMENT_FACING; rule++) {
        long blocked = 0, queries = 0;
        for (int i = 0; i < 2; i++) {
            mesh_bvh b;
            assert_int_equal(mesh_bvh_build(meshes[i], &b, &d), LAB_OK);
            for (int v = 0; v < meshes[i]->vertex_count; v++)
                for (int k = 0; k < 8; k++) {
                    vec3 q = {uniform(-2, 2), uniform(-2, 2), uniform(-1, 3)};
                    bool slow = mesh_segment_blocked(meshes[i], v, q, (mesh_segment_rule)rule);
                    bool fast = mesh_bvh_segment_blocked(&b, v, q, (mesh_segment_rule)rule);
                    if (slow != fast)
                        fail_msg("rule %d mesh %d vertex %d to (%g, %g, %g): loop %d, hierarchy %d", rule, i, v, q.x,
                                 q.y, q.z, slow, fast);
                    blocked += slow, queries++;
                }
            mesh_bvh_free(&b);
        }
        if (!(blocked > queries / 40 && blocked < queries - queries / 40)) /* both answers occur */
            fail_msg("rule %d: %ld of %ld queries blocked", rule, blocked, queries);
    }
    mesh_free(&m);
}

/* Blender's rule counts a wall only when the segment enters it from the front: the same
 * wall, both ways round, and a vertex that no triangle uses sees through everything. */
static void test_segment_facing_rule(void **state)
{
    (void)state;
    /* a wall in the plane x = 1 (two triangles), its normal -x or +x, and a lone vertex 4 */
    vec3 v[5] = {{1, -1, -1}, {1, 1, -1}, {1, 1, 1}, {1, -1, 1}, {0, 0, 0}};
    mesh_triangle facing_us[2] = {{{0, 2, 1}}, {{0, 3, 2}}}, facing_away[2] = {{{0, 1, 2}}, {{0, 2, 3}}};
    mesh front = {5, v, 2, facing_us}, back = {5, v, 2, facing_away};
    vec3 behind = {2, 0, 0};
    /* the wall's normal: (v2 - v0) x (v1 - v0) = (0,2,2) x (0,2,0) = (-4, 0, 0): towards vertex 4 */
    assert_true(mesh_segment_blocked(&front, 4, behind, MESH_SEGMENT_ANY));
    assert_true(mesh_segment_blocked(&back, 4, behind, MESH_SEGMENT_ANY));
    assert_true(mesh_segment_blocked(&front, 4, behind, MESH_SEGMENT_FACING) == false); /* unused: sees all */
    mesh_triangle with_own[3] = {{{0, 2, 1}}, {{0, 3, 2}}, {{4, 0, 1}}}, away_own[3] = {{{0, 1, 2}}, {{0, 2, 3}}, {{4, 0, 1}}};
    mesh front_used = {5, v, 3, with_own}, back_used = {5, v, 3, away_own};
    assert_true(mesh_segment_blocked(&front_used, 4, behind, MESH_SEGMENT_FACING));
    assert_false(mesh_segment_blocked(&back_used, 4, behind, MESH_SEGMENT_FACING));
    mesh_bvh b;
    lab_diag d;
    assert_int_equal(mesh_bvh_build(&front, &b, &d), LAB_OK);
    assert_false(mesh_bvh_segment_blocked(&b, 4, behind, MESH_SEGMENT_FACING));
    assert_true(mesh_bvh_segment_blocked(&b, 4, behind, MESH_SEGMENT_ANY));
    mesh_bvh_free(&b);
}

/* mesh_parts: two triangles sharing an edge are one part, named by its lowest vertex; a
 * triangle apart is another, even when its vertices come first; an unused vertex is its own. */
static void test_mesh_parts(void **state)
{
    (void)state;
    vec3 v[8] = {{0}};
    mesh_triangle t[3] = {{{4, 5, 6}}, {{5, 7, 6}}, {{2, 1, 0}}};
    mesh m = {8, v, 3, t};
    int part[8];
    mesh_parts(&m, part);
    const int expect[8] = {0, 0, 0, 3, 4, 4, 4, 4};
    for (int i = 0; i < 8; i++)
        assert_int_equal(part[i], expect[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mesh_builder_rejects_too_few_rings_or_segments),
        cmocka_unit_test(test_mesh_rejects_index_out_of_range),
        cmocka_unit_test(test_mesh_rejects_repeated_vertex_and_zero_area),
        cmocka_unit_test(test_mesh_rejects_edge_used_three_times),
        cmocka_unit_test(test_mesh_rejects_flipped_triangle),
        cmocka_unit_test(test_mesh_chapter30_cylinder_counts),
        cmocka_unit_test(test_mesh_counts_for_other_sizes),
        cmocka_unit_test(test_mesh_cylinder_faces_outward),
        cmocka_unit_test(test_mesh_degenerate_count),
        cmocka_unit_test(test_mesh_bvh_agrees_with_the_loop),
        cmocka_unit_test(test_segment_facing_rule),
        cmocka_unit_test(test_mesh_parts),
    };
    return cmocka_run_group_tests_name("mesh", tests, NULL, NULL);
}
