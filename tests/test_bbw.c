/* test_bbw.c - bounded biharmonic weights (src/weights/bbw.h), and the cut
 * to an engine's K influences (src/weights/cut.h), against what
 * this test derives on its own, on seeded cylinders of every size:
 *   - harmonic weights with the end rings as handles are z / height (L z = 0 inside);
 *   - the biharmonic weights equal the ring-by-ring system (D diag(1/A) D, solved here by
 *     dense elimination), every vertex;
 *   - with three handles the bounds bite: the bounded weights stay in [0, 1] and satisfy the
 *     KKT conditions by this test's own gradient, the unbounded ones leave [0, 1];
 *   - a broken mass matrix (every area 1) and dropped bounds fail those same checks;
 *   - the biharmonic weights stay about 0.09 from z / 2 as the mesh is refined. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_all.h"

#include "base/diag.h"
#include "mesh/mesh.h"
#include "solve/sparse.h"

#include "weights/bbw.h"
#include "weights/heat.h"
#include "weights/cut.h"

static uint64_t rng = 0x5eed30b1ull;
static double uniform(double lo, double hi)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * (double)(rng >> 11) / 9007199254740992.0;
}

enum { MAX_RINGS = 41 };

/* The biharmonic weight of each ring, handles 0 at ring 0 and 1 at the top: Q = D A^-1 D
 * with D the one-sided second difference and A = 1 inside, 1/2 on the end rings (the
 * areas over s h); Q's interior block solved by Gaussian elimination with partial pivots. */
static void ring_system(int n, double *out)
{
    double D[MAX_RINGS][MAX_RINGS] = {{0}}, Q[MAX_RINGS][MAX_RINGS] = {{0}}, m[MAX_RINGS][MAX_RINGS + 1];
    for (int r = 0; r < n; r++) {
        if (r > 0)
            D[r][r - 1] += 1, D[r][r] -= 1;
        if (r < n - 1)
            D[r][r + 1] += 1, D[r][r] -= 1;
    }
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
            for (int k = 0; k < n; k++)
                Q[r][c] += D[r][k] * D[k][c] / (k == 0 || k == n - 1 ? 0.5 : 1.0);
    int f = n - 2;
    for (int r = 0; r < f; r++) {
        for (int c = 0; c < f; c++)
            m[r][c] = Q[r + 1][c + 1];
        m[r][f] = -Q[r + 1][n - 1];
    }
    for (int k = 0; k < f; k++) {
        int p = k;
        for (int r = k + 1; r < f; r++)
            if (fabs(m[r][k]) > fabs(m[p][k]))
                p = r;
        for (int c = 0; c <= f; c++) {
            double t = m[k][c];
            m[k][c] = m[p][c], m[p][c] = t;
        }
        for (int r = k + 1; r < f; r++) {
            double x = m[r][k] / m[k][k];
            for (int c = k; c <= f; c++)
                m[r][c] -= x * m[k][c];
        }
    }
    out[0] = 0, out[n - 1] = 1;
    for (int r = f - 1; r >= 0; r--) {
        double x = m[r][f];
        for (int c = r + 1; c < f; c++)
            x -= m[r][c] * out[c + 1];
        out[r + 1] = x / m[r][r];
    }
}

/* A seeded cylinder's L, M and end-ring handles (ring 0: joint 0, the top: joint 1). */
typedef struct {
    mesh m;
    sparse_triplets L;
    double *mass;
    int *handle, rings, segments;
    double height;
} cylinder;

static void cylinder_make(cylinder *c, int rings, int segments, double radius, double height)
{
    lab_diag d;
    *c = (cylinder){.rings = rings, .segments = segments, .height = height};
    assert_int_equal(mesh_cylinder(rings, segments, radius, height, &c->m, &d), LAB_OK);
    int n = c->m.vertex_count;
    c->mass = malloc((size_t)n * sizeof *c->mass);
    c->handle = malloc((size_t)n * sizeof *c->handle);
    assert_non_null(c->mass);
    assert_non_null(c->handle);
    assert_int_equal(heat_laplacian(&c->m, HEAT_PAPER, &c->L, c->mass, NULL, &d), LAB_OK);
    for (int v = 0; v < n; v++)
        c->handle[v] = v < segments ? 0 : v >= n - segments ? 1 : -1;
}

static void cylinder_free(cylinder *c)
{
    mesh_free(&c->m);
    sparse_free(&c->L);
    free(c->mass), free(c->handle);
}

/* max over vertices |child weight - the ring system| */
static double ring_error(const cylinder *c, const double *weights, int joints)
{
    double ring[MAX_RINGS], worst = 0;
    ring_system(c->rings, ring);
    for (int v = 0; v < c->m.vertex_count; v++)
        worst = fmax(worst, fabs(weights[(size_t)v * joints + 1] - ring[v / c->segments]));
    return worst;
}

static void test_harmonic_and_biharmonic_on_cylinders(void **state)
{
    (void)state;
    for (int trial = 0; trial < 30; trial++) {
        int rings = 3 + (int)uniform(0, 39), segments = 3 + (int)uniform(0, 60);
        cylinder c;
        cylinder_make(&c, rings, segments, uniform(0.2, 3), uniform(0.5, 4));
        int n = c.m.vertex_count;
        lab_diag d;
        double *harmonic = malloc((size_t)n * 2 * sizeof *harmonic);
        assert_non_null(harmonic);
        assert_int_equal(bbw_harmonic(&c.L, c.handle, 2, harmonic, &d), LAB_OK);
        for (int v = 0; v < n; v++)
            if (fabs(harmonic[2 * v + 1] - c.m.vertices[v].z / c.height) > 1e-12)
                fail_msg("%dx%d vertex %d: harmonic %.17g, z / height %.17g", rings, segments, v, harmonic[2 * v + 1],
                         c.m.vertices[v].z / c.height);
        bbw_result r;
        assert_int_equal(bbw_solve(&c.L, c.mass, c.handle, 2, true, 0.0, &r, &d), LAB_OK);
        double error = ring_error(&c, r.weights, 2);
        if (error > 1e-11)
            fail_msg("%dx%d: biharmonic weights %.3g from the ring system", rings, segments, error);
        if (!(r.kkt < 1e-12 && r.sum_error < 1e-9 && r.active == 0)) /* Q's condition grows like rings^4 */
            fail_msg("%dx%d: kkt %.3g, sum %.3g, active %d", rings, segments, r.kkt, r.sum_error, r.active);
        bbw_result_free(&r);
        /* a broken mass matrix: every area 1, the end rings' halves lost */
        for (int v = 0; v < n; v++)
            c.mass[v] = 1.0;
        assert_int_equal(bbw_solve(&c.L, c.mass, c.handle, 2, true, 0.0, &r, &d), LAB_OK);
        if (rings > 3 && !(ring_error(&c, r.weights, 2) > 1e-3))
            fail_msg("%dx%d: unit areas still match the ring system (%.3g)", rings, segments, ring_error(&c, r.weights, 2));
        bbw_result_free(&r);
        free(harmonic);
        cylinder_free(&c);
    }
}

/* The KKT conditions by this test's own gradient g = L (M^-1 (L w)), over max |g| scale. */
static double kkt(const cylinder *c, const double *raw, int joints)
{
    int n = c->m.vertex_count;
    double *w = malloc((size_t)n * sizeof *w), *y = malloc((size_t)n * sizeof *y), *g = malloc((size_t)n * sizeof *g);
    double worst = 0, scale = 0;
    for (size_t k = 0; k < c->L.count; k++)
        scale = fmax(scale, fabs(c->L.value[k]));
    scale = scale * scale / c->mass[n / 2]; /* |Q| by its largest product */
    for (int j = 0; j < joints; j++) {
        for (int i = 0; i < n; i++)
            w[i] = raw[(size_t)i * joints + j];
        sparse_multiply(&c->L, w, y);
        for (int i = 0; i < n; i++)
            y[i] /= c->mass[i];
        sparse_multiply(&c->L, y, g);
        for (int i = 0; i < n; i++)
            if (c->handle[i] < 0)
                worst = fmax(worst, (w[i] <= 0 ? fmax(0, -g[i]) : w[i] >= 1 ? fmax(0, g[i]) : fabs(g[i])) / scale);
    }
    free(w), free(y), free(g);
    return worst;
}

/* Three handles (bottom, middle and top rings, joints 0, 1, 2): biharmonic weights overshoot
 * between handles, so the bounds bite. Bounded: in [0, 1], KKT by this test's gradient; the
 * same solver without bounds leaves [0, 1]. */
static void test_bounds_bite_with_three_handles(void **state)
{
    (void)state;
    for (int trial = 0; trial < 10; trial++) {
        int rings = 2 * (3 + (int)uniform(0, 10)) + 1, segments = 4 + (int)uniform(0, 30);
        cylinder c;
        cylinder_make(&c, rings, segments, uniform(0.3, 2), uniform(1, 4));
        int n = c.m.vertex_count;
        for (int v = 0; v < n; v++)
            c.handle[v] = v < segments ? 0 : v >= n - segments ? 2 : v / segments == rings / 2 ? 1 : -1;
        lab_diag d;
        bbw_result bounded, free_;
        assert_int_equal(bbw_solve(&c.L, c.mass, c.handle, 3, true, 0.0, &bounded, &d), LAB_OK);
        assert_int_equal(bbw_solve(&c.L, c.mass, c.handle, 3, false, 0.0, &free_, &d), LAB_OK);
        double lo = INFINITY, hi = -INFINITY, free_lo = INFINITY, free_hi = -INFINITY;
        for (size_t k = 0; k < (size_t)n * 3; k++) {
            lo = fmin(lo, bounded.raw[k]), hi = fmax(hi, bounded.raw[k]);
            free_lo = fmin(free_lo, free_.raw[k]), free_hi = fmax(free_hi, free_.raw[k]);
        }
        assert_true(lo >= 0 && hi <= 1);
        if (!(free_lo < -1e-6 || free_hi > 1 + 1e-6))
            fail_msg("%dx%d: without bounds the weights stay in [%.3g, %.3g]", rings, segments, free_lo, free_hi);
        assert_true(bounded.active > 0);
        assert_true(bounded.iterations[0] > 1 || bounded.iterations[1] > 1 || bounded.iterations[2] > 1);
        double own = kkt(&c, bounded.raw, 3);
        if (!(own < 1e-10))
            fail_msg("%dx%d: KKT residual %.3g by this test's gradient", rings, segments, own);
        bbw_result_free(&bounded);
        bbw_result_free(&free_);
        cylinder_free(&c);
    }
}

/* A joint without a handle vertex: weight 0 everywhere, one round and no solve, and the
 * other joints' weights those of the run without it, bit for bit (the three-handle cylinder,
 * where the bounds bite). max_work: a run allowed exactly its own work passes, one allowed
 * less is refused for it (LAB_ERR_LIMIT, over_budget), and the work grows with the rounds. */
static void test_handleless_joints_and_the_budget(void **state)
{
    (void)state;
    cylinder c;
    cylinder_make(&c, 13, 16, 1, 2);
    int n = c.m.vertex_count;
    for (int v = 0; v < n; v++)
        c.handle[v] = v < 16 ? 0 : v >= n - 16 ? 2 : v / 16 == 6 ? 1 : -1;
    lab_diag d;
    bbw_result three, four;
    assert_int_equal(bbw_solve(&c.L, c.mass, c.handle, 3, true, 0.0, &three, &d), LAB_OK);
    assert_int_equal(bbw_solve(&c.L, c.mass, c.handle, 4, true, 0.0, &four, &d), LAB_OK);
    assert_true(three.active > 0);
    assert_int_equal(four.iterations[3], 1);
    for (int v = 0; v < n; v++) {
        assert_true(four.raw[4 * v + 3] == 0.0 && four.weights[4 * v + 3] == 0.0);
        for (int j = 0; j < 3; j++)
            assert_true(four.weights[4 * v + j] == three.weights[3 * v + j]);
    }
    assert_true(four.work == three.work && three.work > 0.0);
    bbw_result again;
    assert_int_equal(bbw_solve(&c.L, c.mass, c.handle, 3, true, three.work, &again, &d), LAB_OK);
    bbw_result_free(&again);
    assert_int_equal(bbw_solve(&c.L, c.mass, c.handle, 3, true, three.work - 1.0, &again, &d), LAB_ERR_LIMIT);
    assert_true(again.over_budget);
    assert_non_null(strstr(d.value, "over the"));
    /* a budget under the first factorisation's flops: refused by CHOLMOD's analysis, unmade */
    assert_int_equal(bbw_solve(&c.L, c.mass, c.handle, 3, true, 1.0, &again, &d), LAB_ERR_LIMIT);
    assert_true(again.over_budget);
    assert_non_null(strstr(d.value, "the first factorisation, before any round"));
    bbw_result_free(&three);
    bbw_result_free(&four);
    cylinder_free(&c);
}

/* The biharmonic weights are not the hand weights z / height, and refining the mesh does
 * not bring them there: the rows of L at the handle rings are one-sided. Largest
 * |w - z/2| on 9x24, 17x48, 33x96 (the chapter's cylinder, then halved twice): 0.0909,
 * 0.0945, 0.0959, growing. */
static void test_biharmonic_is_not_the_hand_weights(void **state)
{
    (void)state;
    const int rings[3] = {9, 17, 33}, segments[3] = {24, 48, 96};
    const double expected[3] = {0.0909, 0.0945, 0.0959};
    for (int k = 0; k < 3; k++) {
        cylinder c;
        cylinder_make(&c, rings[k], segments[k], 1, 2);
        bbw_result r;
        lab_diag d;
        assert_int_equal(bbw_solve(&c.L, c.mass, c.handle, 2, true, 0.0, &r, &d), LAB_OK);
        double worst = 0;
        for (int v = 0; v < c.m.vertex_count; v++)
            worst = fmax(worst, fabs(r.weights[2 * v + 1] - c.m.vertices[v].z / 2));
        assert_near(worst, expected[k], 5e-5);
        bbw_result_free(&r);
        cylinder_free(&c);
    }
}

/* The cut an engine needs (weights_cut): of seeded weight rows over 19 joints, the K
 * kept are the K heaviest (every dropped one weighs no more than every kept one), they
 * keep their ratios, and they sum to 1; a row with K or fewer non-zero weights is only
 * divided by its sum. */
static void test_cut_keeps_the_heaviest(void **state)
{
    (void)state;
    enum { J = 19 };
    for (int trial = 0; trial < 500; trial++) {
        int K = trial % 2 ? 8 : 4, nonzero = 0;
        double w[J], out[J], sum = 0;
        for (int j = 0; j < J; j++) {
            w[j] = uniform(0, 1) < 0.4 ? 0.0 : uniform(0, 1);
            nonzero += w[j] > 0;
        }
        assert_int_equal(weights_cut(w, J, K, out), nonzero);
        double lightest_kept = INFINITY, heaviest_dropped = 0, ratio = NAN;
        int kept = 0;
        for (int j = 0; j < J; j++) {
            sum += out[j];
            if (out[j] > 0) {
                kept++, lightest_kept = fmin(lightest_kept, w[j]);
                if (isnan(ratio))
                    ratio = out[j] / w[j];
                assert_near(out[j] / w[j], ratio, 1e-12);
            } else {
                heaviest_dropped = fmax(heaviest_dropped, w[j]);
            }
        }
        assert_int_equal(kept, nonzero < K ? nonzero : K);
        assert_true(kept == 0 || heaviest_dropped <= lightest_kept);
        if (kept)
            assert_near(sum, 1, 1e-15);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_harmonic_and_biharmonic_on_cylinders),
        cmocka_unit_test(test_bounds_bite_with_three_handles),
        cmocka_unit_test(test_handleless_joints_and_the_budget),
        cmocka_unit_test(test_biharmonic_is_not_the_hand_weights),
        cmocka_unit_test(test_cut_keeps_the_heaviest),
    };
    return cmocka_run_group_tests_name("bounded biharmonic weights", tests, NULL, NULL);
}
