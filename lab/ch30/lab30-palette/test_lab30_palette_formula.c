/* test_lab30_palette_formula.c - the library's fast twin held to the program's lines:
 * lab30-palette.c writes the packed vertex's blend through the float palette (the implied
 * fourth weight, B = sum_i w_i K_j, p' = B p~, n' = normalize(B3x3 n)); fastskin's portable
 * scalar kernel must give the same floats to the last bit, and every other level on this
 * CPU the same within float rounding, on seeded meshes and palettes: weights of every kind
 * (one joint, extremes, equal, random), joints anywhere in the palette, rotations, scales
 * and translations of both signs. */
#define _POSIX_C_SOURCE 200809L
/* The formula is the program's own: its file is compiled into this suite, main renamed. */
#define main lab30_palette_main
#include "lab30-palette.c"
#undef main

#include "cmocka_all.h"

#define VERTS 1031 /* not a multiple of any block: the kernels' tails run too */
#define JOINTS 9

static double uniform(unsigned long long *x)
{
    *x = *x * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*x >> 11) / 9007199254740992.0;
}

/* A seeded rig: positions and unit normals, K = 4 influences per vertex. */
static void seeded_mesh(unsigned long long seed, vec3 *p, vec3 *n, skin_influences *in)
{
    assert_int_equal(skin_influences_init(in, VERTS, 4, NULL), LAB_OK);
    for (int v = 0; v < VERTS; v++) {
        p[v] = vec3_make(4 * uniform(&seed) - 2, 4 * uniform(&seed) - 2, 4 * uniform(&seed) - 2);
        n[v] = vec3_normalize(vec3_make(uniform(&seed) - 0.5, uniform(&seed) - 0.5, uniform(&seed) + 0.1));
        double w[4], sum = 0;
        int kind = v % 4;
        for (int k = 0; k < 4; k++) {
            w[k] = kind == 0 ? (k == 0) : kind == 1 ? 0.25 : kind == 2 ? (k < 2 ? 0.5 : 0.0) : uniform(&seed);
            sum += w[k];
        }
        for (int k = 0; k < 4; k++) {
            in->joint[4 * v + k] = (k * 2 + v) % JOINTS;
            in->weight[4 * v + k] = w[k] / sum;
        }
    }
}

/* A seeded palette: each entry a rotation about a seeded axis (any angle), a scale of
 * either sign's size and a translation. */
static void seeded_palette(unsigned long long seed, palette_columns *pc)
{
    mat4 m[JOINTS];
    palette_matrix pm[JOINTS];
    for (int j = 0; j < JOINTS; j++) {
        vec3 axis = vec3_normalize(vec3_make(uniform(&seed) - 0.5, uniform(&seed) - 0.5, uniform(&seed) - 0.5));
        quat q = quat_from_axis_angle(axis, 4 * acos(-1.0) * (uniform(&seed) - 0.5));
        double s = 0.25 + 2 * uniform(&seed);
        m[j] = mat4_mul(mat4_translate(uniform(&seed) * 6 - 3, uniform(&seed) * 6 - 3, uniform(&seed) * 6 - 3),
                        mat4_mul(quat_to_mat4(q), mat4_scale(s, 1.0 / s, 1)));
    }
    palette_from_mat4(m, JOINTS, NULL, pm);
    palette_columns_from_matrices(pm, JOINTS, pc);
}

static void test_palette_formula_matches_every_kernel(void **state)
{
    (void)state;
    static vec3 p[VERTS], n[VERTS];
    static float mine_p[3 * VERTS], mine_n[3 * VERTS], fast_p[3 * VERTS], fast_n[3 * VERTS];
    palette_columns *pc = aligned_alloc(_Alignof(palette_columns), sizeof(palette_columns) * JOINTS);
    assert_non_null(pc);
    for (unsigned long long seed = 1; seed <= 4; seed++) {
        skin_influences in;
        packed_mesh m = {0};
        seeded_mesh(seed, p, n, &in);
        assert_int_equal(packed_mesh_build(p, n, &in, 4, &m, NULL, NULL), LAB_OK);
        seeded_palette(seed * 977, pc);
        palette_lbs(&m, pc, mine_p, mine_n);
        for (int level = 0; level < SIMD_LEVEL_COUNT; level++) {
            if (!simd_level_available((simd_level)level))
                continue;
            fastskin_job job = {&m, pc, NULL, JOINTS, SKIN_LBS, FASTSKIN_UNIT_NORMALS, 1, (simd_level)level,
                                fast_p, fast_n, NULL};
            assert_int_equal(fastskin_run(&job, NULL), LAB_OK);
            double worst = 0;
            for (int k = 0; k < 3 * VERTS; k++) {
                worst = max_or_nan(worst, fabs((double)fast_p[k] - mine_p[k]));
                worst = max_or_nan(worst, fabs((double)fast_n[k] - mine_n[k]));
            }
            /* scalar: the same floats in the same order; the others fuse and reorder within
             * float rounding of positions up to about 20 in size */
            double tolerance = level == SIMD_SCALAR ? 0.0 : 2e-5;
            if (!(worst <= tolerance))
                fail_msg("seed %llu, %s: the kernel and the program's lines differ by %.3g (tolerance %g)", seed,
                         simd_level_name((simd_level)level), worst, tolerance);
        }
        packed_mesh_free(&m);
        skin_influences_free(&in);
    }
    free(pc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_palette_formula_matches_every_kernel),
    };
    return cmocka_run_group_tests_name("lab30-palette's formula against fastskin", tests, NULL, NULL);
}
