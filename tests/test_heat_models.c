/* test_heat_models.c - bone heat (src/weights/heat.h) where Blender's model
 * differs from the paper's, and the inputs it refuses or takes by a stated rule, each on a
 * case whose answer this test knows: a wall that hides the nearest bone, a vertex facing away
 * from a bone, the hexagon's boundary edge, Blender's cut; a vertex no triangle uses, a part
 * closed off from every bone, coincident and collinear corners, the vertex-bone limit. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_all.h"

#include "base/diag.h"
#include "math/linalg.h"
#include "mesh/bvh.h"
#include "mesh/mesh.h"
#include "solve/sparse.h"

#include "weights/heat.h"

/* Blender's model where it differs from the paper's, each on a case whose value is known:
 * the wall above hides vertex 4's nearest bone, and Blender (nearest of all, then visible)
 * gives it no heat where the paper takes the farther bone it sees; a boundary edge keeps
 * its whole cotangent; the cut's three pieces. */
static void test_heat_blender_model(void **state)
{
    (void)state;
    vec3 v[7] = {{1, -1, -1}, {1, 1, -1}, {1, 1, 1}, {1, -1, 1}, {2, 0, 0}, {2, 0.1, 0}, {2, 0, 0.1}};
    mesh_triangle t[3] = {{{0, 1, 2}}, {{0, 2, 3}}, {{4, 5, 6}}};
    mesh m = {7, v, 3, t};
    heat_bone near_hidden[2] = {{{0, -1, 0}, {0, 1, 0}, 0}, {{5, 0, 0}, {5, 0, 1}, 1}};
    double H[7], p[14];
    int hidden = 0;
    lab_diag d;
    /* the wall's normal is +x, towards vertex 4: the segment to bone 0 enters its front */
    assert_true(mesh_segment_blocked(&m, 4, vec3_make(0, 0, 0), MESH_SEGMENT_FACING));
    assert_int_equal(heat_sources(&m, HEAT_BLENDER, near_hidden, 2, 2, 1.0, H, p, &hidden, &d), LAB_OK);
    assert_true(H[4] == 0.0 && p[8] == 0.0 && p[9] == 0.0);
    assert_true(hidden >= 1);
    /* vertex 5's normal is +x too; bone 0 lies behind it (cos = 1): d / 1.0005; a vertex
     * facing away from a bone is d / ((cos + 1.001) / 2) from it, 2000 times farther at cos = -1 */
    heat_bone behind[1] = {{{5, 0.1, -1}, {5, 0.1, 1}, 0}};
    assert_int_equal(heat_sources(&m, HEAT_BLENDER, behind, 1, 1, 1.0, H, p, &hidden, &d), LAB_OK);
    assert_near(H[5], 1.0 / pow(3.0 / (0.5 * (-1.0 + 1.001)), 2), 1e-12 / pow(3.0 / 0.0005, 2));
    /* the hexagon's rim edge (one triangle) keeps cot 60 whole; a spoke (two) is unchanged */
    vec3 h[7] = {{0, 0, 0}};
    mesh_triangle ht[6];
    for (int k = 0; k < 6; k++) {
        h[1 + k] = vec3_make(cos(k * acos(-1.0) / 3), sin(k * acos(-1.0) / 3), 0);
        ht[k] = (mesh_triangle){{0, 1 + k, 1 + (k + 1) % 6}};
    }
    mesh hex = {7, h, 6, ht};
    sparse_triplets L;
    double mass[7];
    assert_int_equal(heat_laplacian(&hex, HEAT_BLENDER, &L, mass, NULL, &d), LAB_OK);
    assert_near(sparse_entry(&L, 1, 2), 1 / sqrt(3.0), 1e-15);
    assert_near(sparse_entry(&L, 0, 1), 1 / sqrt(3.0), 1e-15);
    sparse_free(&L);
    assert_true(heat_blender_cut(0.02) == 0.0 && heat_blender_cut(0.025) == 0.0);
    assert_near(heat_blender_cut(0.0375), 0.025, 1e-16);
    assert_true(heat_blender_cut(0.05) == 0.05 && heat_blender_cut(0.7) == 0.7);
}

/* A vertex no triangle uses takes its nearest bone's weights in both models. A closed part
 * (a tetrahedron) inside a closed box, the bones outside the box: by the paper's rule the
 * box hides the bones from every vertex of the tetrahedron, a part that sees no bone: it
 * leaves the system and each vertex takes its nearest bone's weights, as if unused; by
 * Blender's a segment leaving a surface from inside is not blocked, and every part sees. */
static void test_heat_unused_vertex_and_unseen_part(void **state)
{
    (void)state;
    vec3 v[13] = {{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}};
    mesh_triangle t[4 + 12] = {{{0, 1, 2}}, {{0, 3, 1}}, {{0, 2, 3}}, {{1, 3, 2}}};
    for (int k = 0; k < 8; k++) /* the box's corners, 4..11 */
        v[4 + k] = vec3_make(k & 1 ? 3 : -3, k & 2 ? 3 : -3, k & 4 ? 3 : -3);
    v[12] = vec3_make(0, 0, 20); /* used by no triangle */
    int n = 4;
    for (int axis = 0; axis < 3; axis++)
        for (int side = 0; side < 2; side++) {
            int c[4], k = 0; /* the face's corners in cyclic order, then outward */
            int a1 = 1 << (axis + 1) % 3, a2 = 1 << (axis + 2) % 3, base = side << axis;
            c[k++] = base, c[k++] = base | a1, c[k++] = base | a1 | a2, c[k++] = base | a2;
            mesh_triangle q[2] = {{{4 + c[0], 4 + c[1], 4 + c[2]}}, {{4 + c[0], 4 + c[2], 4 + c[3]}}};
            for (int h = 0; h < 2; h++) {
                vec3 p0 = v[q[h].v[0]], nrm = vec3_cross(vec3_sub(v[q[h].v[1]], p0), vec3_sub(v[q[h].v[2]], p0));
                if (vec3_dot(nrm, p0) < 0) { /* inward: turn it round */
                    int x = q[h].v[1];
                    q[h].v[1] = q[h].v[2], q[h].v[2] = x;
                }
                t[n++] = q[h];
            }
        }
    mesh m = {13, v, 16, t};
    heat_bone outside[2] = {{{10, 0, -1}, {10, 0, 1}, 0}, {{0, 0, 19}, {0, 0, 21}, 1}};
    heat_result r;
    lab_diag d;
    assert_int_equal(heat_solve(&m, HEAT_PAPER, outside, 2, 2, 1.0, &r, &d), LAB_OK);
    assert_int_equal(r.unseen_parts, 1);
    assert_int_equal(r.unseen_vertices, 4);
    for (int i = 0; i < 4; i++) /* the tetrahedron: its nearest bone's, bone 0 (x = 10), as if unused */
        assert_true(r.weights[2 * i] == 1.0 && r.weights[2 * i + 1] == 0.0 && r.solution[2 * i] == 1.0);
    for (int i = 4; i < 12; i++) /* the box: heated, weights summing to 1 */
        assert_true(fabs(r.weights[2 * i] + r.weights[2 * i + 1] - 1.0) < 1e-12 && r.weights[2 * i] > 0.5);
    assert_true(r.backward_error[0] < 1e-14 && r.backward_error[1] < 1e-14);
    heat_result_free(&r);
    assert_int_equal(heat_solve(&m, HEAT_BLENDER, outside, 2, 2, 1.0, &r, &d), LAB_OK);
    assert_int_equal(r.unseen_parts, 0);
    assert_true(r.solution[2 * 12] == 0.0 && r.solution[2 * 12 + 1] == 1.0); /* the lone vertex: bone 1's */
    heat_result_free(&r);
}

/* Corners 8 * box .. 8 * box + 7 and the 12 outward triangles of the box [lo, hi]. */
static void add_box(vec3 *v, mesh_triangle *t, int box, vec3 lo, vec3 hi)
{
    for (int k = 0; k < 8; k++)
        v[8 * box + k] = vec3_make(k & 1 ? hi.x : lo.x, k & 2 ? hi.y : lo.y, k & 4 ? hi.z : lo.z);
    vec3 centre = vec3_scale(vec3_add(lo, hi), 0.5);
    int n = 12 * box;
    for (int axis = 0; axis < 3; axis++)
        for (int side = 0; side < 2; side++) {
            int c[4], k = 0;
            int a1 = 1 << (axis + 1) % 3, a2 = 1 << (axis + 2) % 3, base = side << axis;
            c[k++] = base, c[k++] = base | a1, c[k++] = base | a1 | a2, c[k++] = base | a2;
            mesh_triangle q[2] = {{{8 * box + c[0], 8 * box + c[1], 8 * box + c[2]}},
                                  {{8 * box + c[0], 8 * box + c[2], 8 * box + c[3]}}};
            for (int h = 0; h < 2; h++) {
                vec3 p0 = v[q[h].v[0]], nrm = vec3_cross(vec3_sub(v[q[h].v[1]], p0), vec3_sub(v[q[h].v[2]], p0));
                if (vec3_dot(nrm, vec3_sub(p0, centre)) < 0) {
                    int x = q[h].v[1];
                    q[h].v[1] = q[h].v[2], q[h].v[2] = x;
                }
                t[n++] = q[h];
            }
        }
}

/* A plate outside a body, the bones inside the body: the body hides them from every
 * vertex of the plate, in both models (Blender's too: the segments enter the body's front
 * faces). The plate leaves the system: by the paper's model it takes its nearest bones'
 * weights (here both bones tie at the plate's middle height: 1/2 each where tied), by
 * Blender's none, as Blender 3.4 leaves such a plate without a vertex group; the body's
 * weights are those of the run without the plate, to the bit. */
static void test_heat_part_that_sees_no_bone(void **state)
{
    (void)state;
    vec3 v[16];
    mesh_triangle t[24];
    add_box(v, t, 0, vec3_make(-1, -1, -1.2), vec3_make(1, 1, 1.2));
    add_box(v, t, 1, vec3_make(1.4, -0.5, -0.5), vec3_make(1.6, 0.5, 0.5));
    mesh body = {8, v, 12, t}, both = {16, v, 24, t};
    heat_bone bones[2] = {{{0, 0, -1}, {0, 0, 0}, 0}, {{0, 0, 0}, {0, 0, 1}, 1}};
    lab_diag d;
    for (int model = 0; model < HEAT_MODELS; model++) {
        heat_result alone, with;
        assert_int_equal(heat_solve(&body, (heat_model)model, bones, 2, 2, 1.0, &alone, &d), LAB_OK);
        assert_int_equal(heat_solve(&both, (heat_model)model, bones, 2, 2, 1.0, &with, &d), LAB_OK);
        assert_int_equal(alone.unseen_parts, 0);
        assert_int_equal(with.unseen_parts, 1);
        assert_int_equal(with.unseen_vertices, 8);
        for (int i = 0; i < 16; i++)
            for (int j = 0; j < 2; j++) {
                double w = with.weights[2 * i + j], expect;
                if (i < 8)
                    expect = alone.weights[2 * i + j];
                else if (model == HEAT_BLENDER)
                    expect = 0.0;
                else /* nearest: the bone below for z = -0.5, above for z = 0.5 */
                    expect = (v[i].z < 0) == (j == 0) ? 1.0 : 0.0;
                if (!(w == expect))
                    fail_msg("%s model, vertex %d, joint %d: %.17g, expected %.17g", model ? "Blender's" : "the paper's",
                             i, j, w, expect);
            }
        assert_true(with.backward_error[0] < 1e-14 && with.backward_error[1] < 1e-14);
        heat_result_free(&alone);
        heat_result_free(&with);
    }
}

/* Bad meshes and skeletons end with messages that name the vertex or triangle: coincident
 * corners, collinear corners, and a run over the vertex-bone limit (refused before any
 * work: the mesh below is never read). */
static void test_heat_names_what_it_refuses(void **state)
{
    (void)state;
    vec3 v[4] = {{0, 0, 0}, {1, 0, 0}, {1, 0, 0}, {2, 0, 0}};
    mesh_triangle coincident[1] = {{{0, 1, 2}}}, collinear[1] = {{{0, 1, 3}}};
    mesh a = {4, v, 1, coincident}, b = {4, v, 1, collinear};
    sparse_triplets L;
    double mass[4];
    lab_diag d;
    assert_int_equal(heat_laplacian(&a, HEAT_PAPER, &L, mass, NULL, &d), LAB_ERR_MESH_ZERO_AREA);
    assert_non_null(strstr(d.value, "vertices 1 and 2 are coincident"));
    assert_int_equal(heat_laplacian(&b, HEAT_BLENDER, &L, mass, NULL, &d), LAB_ERR_MESH_ZERO_AREA);
    assert_non_null(strstr(d.value, "collinear"));
    mesh huge = {HEAT_MAX_PAIRS / 2 + 1, NULL, 0, NULL};
    heat_bone two[2] = {{{0, 0, 0}, {0, 0, 1}, 0}, {{0, 0, 1}, {0, 0, 2}, 1}};
    heat_result r;
    assert_int_equal(heat_solve(&huge, HEAT_PAPER, two, 2, 2, 1.0, &r, &d), LAB_ERR_LIMIT);
    assert_non_null(strstr(d.value, "vertex-bone pairs"));
}

/* Blender cuts each bone's weights on its own, then a joint's are the sum of its bones'
 * (its vertex groups): on a 9x24 cylinder with a joint of two bones, one up and one down
 * the axis from its middle, and a second joint's bone beside it, the joint's weights must
 * be the sum of each bone's cut solution, each bone solved on its own here (relabelled as
 * a joint of its own, where per bone and per joint are the same); a cut of the joint's
 * summed solution gives other weights at the vertices where a bone's share falls under the
 * cut, which the test finds. */
static void test_heat_blender_cuts_each_bone(void **state)
{
    (void)state;
    mesh m;
    assert_int_equal(mesh_cylinder(9, 24, 1.0, 2.0, &m, NULL), LAB_OK);
    heat_bone bones[3] = {{{0, 0, 1}, {0, 0, 1.9}, 0}, {{0, 0, 1}, {0, 0, 0.1}, 0}, {{0.5, 0, 0}, {0.5, 0, 2}, 1}};
    heat_bone own[3] = {bones[0], bones[1], bones[2]};
    own[1].joint = 1, own[2].joint = 2; /* each bone a joint of its own */
    heat_result joint, each;
    assert_int_equal(heat_solve(&m, HEAT_BLENDER, bones, 3, 2, 1.0, &joint, NULL), LAB_OK);
    assert_int_equal(heat_solve(&m, HEAT_BLENDER, own, 3, 3, 1.0, &each, NULL), LAB_OK);
    double worst = 0;
    int differs = 0; /* vertices where cutting the sum would give another weight */
    for (int v = 0; v < m.vertex_count; v++) {
        double a = each.solution[3 * v], b = each.solution[3 * v + 1];
        double summed_then_cut = heat_blender_cut(a + b), cut_then_summed = heat_blender_cut(a) + heat_blender_cut(b);
        worst = fmax(worst, fabs(joint.weights[2 * v] - cut_then_summed));
        worst = fmax(worst, fabs(joint.weights[2 * v + 1] - heat_blender_cut(each.solution[3 * v + 2])));
        worst = fmax(worst, fabs(joint.solution[2 * v] - (a + b)));
        differs += fabs(summed_then_cut - cut_then_summed) > 1e-9;
    }
    if (!(worst < 1e-12))
        fail_msg("Blender's weights are not each bone's cut, summed: %.3g", worst);
    assert_true(differs > 0); /* the case tells the two orders apart */
    heat_result_free(&joint), heat_result_free(&each);
    mesh_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_heat_blender_model),
        cmocka_unit_test(test_heat_blender_cuts_each_bone),
        cmocka_unit_test(test_heat_unused_vertex_and_unseen_part),
        cmocka_unit_test(test_heat_part_that_sees_no_bone),
        cmocka_unit_test(test_heat_names_what_it_refuses),
    };
    return cmocka_run_group_tests_name("bone heat: Blender's model and bad input", tests, NULL, NULL);
}
