/* test_lab30_palette.c - end to end: build/bin/lab30-palette. Exit codes, the evidence
 * re-read with cJSON, the crowd figure, determinism across thread counts and SIMD levels,
 * the committed out/ (the benchmark the page cites: test_lab30_palette_bench.c). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_all.h"
#include "skin/fastskin.h"
#include "testutil.h"

#define LAB LAB_BIN_DIR "/lab30-palette"
#define run_lab(ctx, ...) tu_run_program(LAB, (ctx)->out_path, (ctx)->err_path, __VA_ARGS__, (char *)NULL)
typedef tu_run_dir run_ctx;

static const char *const outputs[] = {"palette30.png", "palette30-candidates.png", "palette30.json",
                                     "palette30-layouts.csv", "lab30-palette-checks.json"};
enum { OUTPUT_COUNT = sizeof outputs / sizeof outputs[0] };

static void test_lab30_palette_exit_codes(void **state)
{
    run_ctx *ctx = *state;
    assert_int_equal(run_lab(ctx, "--help"), 0);
    assert_int_equal(run_lab(ctx, (char *)NULL), 2);
    assert_int_equal(run_lab(ctx, "--threads", "0", ctx->dir), 2);
    assert_int_equal(run_lab(ctx, "--threads", "two", ctx->dir), 2);
    assert_int_equal(run_lab(ctx, "--simd", "neon", ctx->dir), 2);
    assert_int_equal(run_lab(ctx, "--crowd", ctx->dir), 2);
    assert_int_equal(run_lab(ctx, tu_path(ctx->dir, "missing")), 3);
    assert_int_equal(tu_count_entries(ctx->dir), 0);
    /* a level this CPU lacks is rejected data (exit 1); every level that exists runs */
    for (int l = 0; l < SIMD_LEVEL_COUNT; l++) {
        int rc = run_lab(ctx, "--simd", simd_level_name((simd_level)l), ctx->dir);
        assert_int_equal(rc, simd_level_available((simd_level)l) ? 0 : 1);
    }
}

static void test_lab30_palette_evidence(void **state)
{
    run_ctx *ctx = *state;
    assert_int_equal(run_lab(ctx, ctx->dir), 0);
    cJSON *root = tu_json_load(tu_path(ctx->dir, "palette30.json"));
    assert_non_null(root);
    assert_int_equal(tu_json_get(tu_json_get(root, "packed_vertex"), "bytes_per_vertex")->valueint, 44);
    assert_int_equal(tu_json_get(tu_json_get(root, "palette"), "matrix_bytes")->valueint, 48);
    cJSON *e;
    int rows = 0;
    cJSON_ArrayForEach(e, tu_json_get(root, "errors"))
    {
        assert_true(tu_json_get(e, "max_position_error")->valuedouble < 1e-5);
        assert_true(tu_json_get(e, "max_normal_error")->valuedouble < 1e-5);
        rows++;
    }
    assert_int_equal(rows, 10);
    assert_int_equal(tu_json_get(tu_json_get(root, "truncation"), "truncated_vertices")->valueint, 0);
    cJSON *inst = tu_json_get(root, "instancing");
    assert_int_equal(tu_json_get(inst, "instances")->valueint, 20);
    assert_true(tu_json_get(inst, "max_difference_vs_merged_palette")->valuedouble < 1e-5);
    cJSON_Delete(root);
    assert_true(tu_file_contains(tu_path(ctx->dir, "palette30-layouts.csv"), "packed, 4 influences,"));
    tu_image img;
    assert_true(tu_image_load(tu_path(ctx->dir, "palette30.png"), &img));
    assert_true(tu_image_count_color(&img, 255, 140, 0) > 500); /* twenty middle rings */
    tu_image_free(&img);
}

static double at(const cJSON *a, int i) { return cJSON_GetArrayItem(a, i)->valuedouble; }

/* RTR4's flowchart for one elbow vertex, by this test's own arithmetic: the root leaves
 * p = (0, -1, 1.25) alone; the child turns it by 90 degrees about x through the elbow
 * (0, 0, 1): (y, z) - (0, 1) = (-1, 0.25) goes to (-0.25, -1), so C_1 p = (0, -0.25, 0).
 * LBS is 2/3 C_0 p + 1/3 C_1 p; DQS keeps p's distance from the elbow, LBS does not. */
static void test_lab30_palette_candidates(void **state)
{
    run_ctx *ctx = *state;
    assert_int_equal(run_lab(ctx, ctx->dir), 0);
    cJSON *root = tu_json_load(tu_path(ctx->dir, "palette30.json"));
    cJSON *s = tu_json_get(root, "candidates_sketch");
    const double p[3] = {0, -1, 1.25}, c1[3] = {0, -0.25, 0}, elbow[3] = {0, 0, 1};
    cJSON *cand = tu_json_get(s, "candidates");
    double lbs_r = 0, dqs_r = 0, p_r = 0;
    for (int i = 0; i < 3; i++) {
        assert_near(at(cJSON_GetArrayItem(cand, 0), i), p[i], 1e-15);
        assert_near(at(cJSON_GetArrayItem(cand, 1), i), c1[i], 1e-15);
        assert_near(at(tu_json_get(s, "lbs"), i), (2.0 / 3.0 * p[i] + 1.0 / 3.0 * c1[i]), 1e-15);
        lbs_r += pow(at(tu_json_get(s, "lbs"), i) - elbow[i], 2);
        dqs_r += pow(at(tu_json_get(s, "dqs"), i) - elbow[i], 2);
        p_r += pow(p[i] - elbow[i], 2);
    }
    assert_near(sqrt(dqs_r), sqrt(p_r), 1e-12);
    assert_true(sqrt(lbs_r) < sqrt(p_r) - 0.2); /* 0.768 against 1.031 */
    cJSON_Delete(root);
    assert_true(tu_file_contains(ctx->out_path, "|LBS - 2/3 C_0 p - 1/3 C_1 p|"));
    tu_image img; /* both candidates (blue), LBS (red) and DQS (green) are marked */
    assert_true(tu_image_load(tu_path(ctx->dir, "palette30-candidates.png"), &img));
    assert_true(tu_image_count_color(&img, 40, 90, 200) > 49 && tu_image_count_color(&img, 200, 30, 30) > 49 &&
                tu_image_count_color(&img, 0, 140, 60) > 49);
    tu_image_free(&img);
}

/* The default run is deterministic and committed; the thread count and SIMD level change
 * the crowd's arithmetic, never the outputs, but the record of the report's checks, which
 * names the level and the threads it compared (the last output). */
static void test_lab30_palette_deterministic_and_committed(void **state)
{
    (void)state;
    tu_check_deterministic_and_committed(LAB, NULL, NULL, outputs, OUTPUT_COUNT, "lab30-palette");
    char a[64], b[64];
    assert_non_null(tu_make_temp_dir(a, sizeof a));
    assert_non_null(tu_make_temp_dir(b, sizeof b));
    assert_int_equal(tu_run_program(LAB, NULL, NULL, "--threads", "1", "--simd", "scalar", a, NULL), 0);
    assert_int_equal(tu_run_program(LAB, NULL, NULL, "--threads", "3", b, NULL), 0);
    const char *differs = tu_first_differing_output(a, b, outputs, OUTPUT_COUNT - 1);
    if (differs)
        fail_msg("%s differs between --threads 1 --simd scalar and --threads 3", differs);
    tu_remove_tree(a);
    tu_remove_tree(b);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, tu_run_dir_setup, tu_run_dir_teardown)
    const struct CMUnitTest tests[] = {
        T(test_lab30_palette_exit_codes),
        T(test_lab30_palette_evidence),
        T(test_lab30_palette_candidates),
        T(test_lab30_palette_deterministic_and_committed),
    };
#undef T
    return cmocka_run_group_tests_name("lab30-palette end to end", tests, NULL, NULL);
}
