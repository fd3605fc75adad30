/* test_lab30_palette.c - end to end: build/bin/lab30-palette and the benchmark's smoke run.
 * Exit codes, the evidence re-read with cJSON, the crowd figure, determinism across thread
 * counts and SIMD levels, the committed out/. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_all.h"
#include "skin/fastskin.h"
#include "testutil.h"

#define LAB LAB_BIN_DIR "/lab30-palette"
#define BENCH LAB_BIN_DIR "/bench-skinning"
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

/* The benchmark is no test; this only checks that it runs and writes what it promises. */
static void test_bench_skinning_smoke(void **state)
{
    run_ctx *ctx = *state;
    assert_int_equal(tu_run_program(BENCH, ctx->out_path, ctx->err_path, "--smoke", ctx->dir, (char *)NULL), 0);
    char *csv = tu_read_file(tu_path(ctx->dir, "skinning.csv"), NULL);
    assert_non_null(csv);
    assert_true(!strncmp(csv, "kernel,method,influences,normals,threads,vertices,ns_per_vertex,", 64));
    assert_non_null(strstr(csv, "\nscalar,LBS,4,none,1,1000,"));
    assert_non_null(strstr(csv, "\nscalar,LBS,4,raw,1,1000,"));
    assert_non_null(strstr(csv, "\nchapter-double,DQS,2,none,1,10000,"));
    assert_non_null(strstr(csv, "triad_gb_per_s,triad_fraction,"));
    /* the CPU time beside the wall time, the load average around each row, the busy flag */
    assert_non_null(strstr(csv, ",cpu_ns_per_vertex,triad_cpu_gb_per_s,load_start,load_end,busy\n"));
    if (simd_level_available(SIMD_AVX2)) /* the reference kernel and the compressed vertex */
        assert_true(strstr(csv, "\navx2-rows,LBS,4,none,1,10000,") && strstr(csv, "\navx2-reloads,LBS,4,none,1,10000,") &&
                    strstr(csv, "\navx2-u8-unorm8-q16-2t,LBS,4,none,2,") &&
                    strstr(csv, "\ndqs-avx2-per-vertex,DQS,4,none,1,10000,"));
    free(csv);
    /* the targets: each a ratio of paired times, positive and finite, its verdict the one
     * its ratio and bound give */
    char *targets = tu_read_file(tu_path(ctx->dir, "targets.csv"), NULL);
    assert_non_null(targets);
    const char *head = "target,vertices,threads,ratio,lowest,highest,bound,met,cpu_ratio,cpu_lowest,cpu_highest,"
                       "judged_by\n";
    assert_true(!strncmp(targets, head, strlen(head)));
    int rows = 0;
    for (const char *line = strchr(targets, '\n') + 1; *line; line = strchr(line, '\n') + 1, rows++) {
        char what[128], op[3], met[4], judged[8];
        int vertices, threads, used = 0;
        double ratio, lowest, highest, bound, cpu = NAN, cpu_lowest = NAN, cpu_highest = NAN;
        if (sscanf(line, "%127[^,],%d,%d,%lf,%lf,%lf,%2s %lf,%3[a-z],%n", what, &vertices, &threads, &ratio, &lowest,
                   &highest, op, &bound, met, &used) != 9 || !used)
            fail_msg("targets.csv: not a row: %.80s", line);
        /* the CPU times' ratio on one thread, empty on more; the verdict from the one judged */
        if (threads == 1) {
            assert_int_equal(sscanf(line + used, "%lf,%lf,%lf,%7[a-z]", &cpu, &cpu_lowest, &cpu_highest, judged), 4);
            assert_true(isfinite(cpu) && cpu_lowest > 0 && cpu_lowest <= cpu && cpu <= cpu_highest);
            assert_string_equal(judged, "cpu");
        } else {
            assert_int_equal(sscanf(line + used, ",,,%7[a-z]", judged), 1);
            assert_string_equal(judged, "wall");
        }
        assert_true(isfinite(ratio) && lowest > 0 && lowest <= ratio && ratio <= highest && vertices == 10000);
        bool at_least = !strcmp(op, ">=");
        assert_true(at_least || !strcmp(op, "<="));
        double by = threads == 1 ? cpu : ratio;
        assert_string_equal(met, (at_least ? by >= bound : by <= bound) ? "yes" : "no");
    }
    /* --smoke: 10000 is also the largest; six targets, and one for each case whose default
     * level is not avx2 (LBS positions on the 44-byte vertex and the three compressed ones,
     * raw and unit normals, DQS) */
    int defaults = 0;
    if (simd_level_available(SIMD_AVX2)) {
        simd_cpu cpu = simd_cpu_running(); /* the three compressed vertices by the rule */
        defaults += fastskin_default_level(SKIN_LBS, FASTSKIN_NO_NORMALS, NULL) != SIMD_AVX2;
        defaults += 3 * (fastskin_level_rule(&cpu, simd_best_level(), SKIN_LBS, FASTSKIN_NO_NORMALS, true) != SIMD_AVX2);
        defaults += fastskin_default_level(SKIN_LBS, FASTSKIN_RAW_NORMALS, NULL) != SIMD_AVX2;
        defaults += fastskin_default_level(SKIN_LBS, FASTSKIN_UNIT_NORMALS, NULL) != SIMD_AVX2;
        defaults += fastskin_default_level(SKIN_DQS, FASTSKIN_NO_NORMALS, NULL) != SIMD_AVX2;
    }
    assert_int_equal(rows, simd_level_available(SIMD_AVX2) ? 6 + defaults : 0);
    free(targets);
    /* the compressed vertex's accuracy: exact sums keep every weight within one unit */
    char *accuracy = tu_read_file(tu_path(ctx->dir, "compression.csv"), NULL);
    assert_non_null(accuracy);
    assert_non_null(strstr(accuracy, "\ncylinder,u16-float (44-byte),32,0,0,0\n"));
    assert_non_null(strstr(accuracy, "\nrandom64,u8-unorm8-q16,13,"));
    free(accuracy);
    /* the caches the triad's working sets are read against (none where Linux gives none) */
    char *machine = tu_read_file(tu_path(ctx->dir, "machine.csv"), NULL);
    assert_true(machine && !strncmp(machine, "level,type,bytes\n", 17));
    free(machine);
    assert_true(tu_file_contains(ctx->out_path, "Targets"));
    tu_image img;
    assert_true(tu_image_load(tu_path(ctx->dir, "skinning.png"), &img));
    tu_image_free(&img);
    assert_int_equal(tu_run_program(BENCH, ctx->out_path, ctx->err_path, (char *)NULL), 2);
    /* the helper valgrind counts: the vertices it skinned, and its usage */
    assert_int_equal(tu_run_program(LAB_BIN_DIR "/bench-instructions", ctx->out_path, ctx->err_path, "scalar", "lbs", "4",
                                    "none", (char *)NULL), 0);
    assert_true(tu_file_contains(ctx->out_path, "200000"));
    assert_int_equal(tu_run_program(LAB_BIN_DIR "/bench-instructions", ctx->out_path, ctx->err_path, "scalar", "lbs", "9",
                                    "none", (char *)NULL), 2);
    /* the benchmark's frozen kernels, counted the same way: each in its one configuration */
    static const char *const frozen[][2] = {
        {"avx2-rows", "lbs"}, {"avx2-reloads", "lbs"}, {"avx2-loads-only", "lbs"}, {"dqs-avx2-per-vertex", "dqs"}};
    for (int f = 0; f < 4; f++) {
        assert_int_equal(tu_run_program(LAB_BIN_DIR "/bench-instructions", ctx->out_path, ctx->err_path, frozen[f][0],
                                        frozen[f][1], "4", "none", (char *)NULL),
                         simd_level_available(SIMD_AVX2) ? 0 : 1);
        if (simd_level_available(SIMD_AVX2))
            assert_true(tu_file_contains(ctx->out_path, "200000"));
        assert_int_equal(tu_run_program(LAB_BIN_DIR "/bench-instructions", ctx->out_path, ctx->err_path, frozen[f][0],
                                        frozen[f][1], "2", "none", (char *)NULL), 2);
        assert_int_equal(tu_run_program(LAB_BIN_DIR "/bench-instructions", ctx->out_path, ctx->err_path, frozen[f][0],
                                        frozen[f][1], "4", "raw", (char *)NULL), 2);
        assert_int_equal(tu_run_program(LAB_BIN_DIR "/bench-instructions", ctx->out_path, ctx->err_path, frozen[f][0],
                                        frozen[f][1], "4", "none", "u8-unorm8", (char *)NULL), 2);
        assert_int_equal(tu_run_program(LAB_BIN_DIR "/bench-instructions", ctx->out_path, ctx->err_path, frozen[f][0],
                                        f == 3 ? "lbs" : "dqs", "4", "none", (char *)NULL), 2);
    }
}

/* The CSV row of `key` ("kernel,method,K,normals,threads,vertices,"), its fields after the
 * key in f[0 ..]; false when there is none. */
static bool csv_fields(const char *csv, const char *key, double *f, int count)
{
    char line[160];
    if (snprintf(line, sizeof line, "\n%s", key) >= (int)sizeof line) /* no key is that long */
        return false;
    const char *at = strstr(csv, line);
    if (!at)
        return false;
    at += strlen(line);
    for (int i = 0; i < count; i++) {
        char *end;
        f[i] = strtod(at, &end);
        if (*end != ',' && *end != '\n')
            return false;
        at = end + 1;
    }
    return true;
}

/* The committed run's plot is drawn from its CSV (bench-skinning --plot-from, which times
 * nothing): the same pixels as out/bench/skinning.png; a file that is not such a CSV is
 * refused and nothing is written. */
static void test_bench_plot_from_the_committed_run(void **state)
{
    run_ctx *ctx = *state;
    assert_int_equal(tu_run_program(BENCH, ctx->out_path, ctx->err_path, "--plot-from", COMMITTED_OUT_DIR "/bench/skinning.csv",
                                    ctx->dir, (char *)NULL),
                     0);
    assert_true(tu_same_pixels(tu_path(ctx->dir, "skinning.png"), COMMITTED_OUT_DIR "/bench/skinning.png"));
    assert_int_equal(tu_count_entries(ctx->dir), 1);
    assert_true(tu_write_file(tu_path(ctx->dir, "bad.csv"), "kernel,method\nnot,a,row\n"));
    assert_int_equal(tu_run_program(BENCH, ctx->out_path, ctx->err_path, "--plot-from", tu_path(ctx->dir, "bad.csv"),
                                    ctx->dir, (char *)NULL),
                     1);
    assert_true(tu_file_contains(ctx->err_path, "line 2: not a row of skinning.csv"));
    assert_int_equal(tu_count_entries(ctx->dir), 2); /* skinning.png and bad.csv, nothing new */
    /* the plot takes 8 vertex counts: a 9th is refused, never dropped from the plot */
    char rows[1024] = "kernel,method,influences,normals,threads,vertices,ns_per_vertex\n";
    for (int i = 1; i <= 9; i++)
        snprintf(rows + strlen(rows), sizeof rows - strlen(rows), "avx2,LBS,4,none,1,%d,3.5\n", 1000 * i);
    assert_true(tu_write_file(tu_path(ctx->dir, "nine.csv"), rows));
    assert_int_equal(tu_run_program(BENCH, ctx->out_path, ctx->err_path, "--plot-from", tu_path(ctx->dir, "nine.csv"),
                                    ctx->dir, (char *)NULL),
                     1);
    assert_true(tu_file_contains(ctx->err_path, "line 10: vertex count 9000, one more than the plot's 8"));
    assert_int_equal(tu_count_entries(ctx->dir), 3); /* and nine.csv */
    *strstr(rows, "avx2,LBS,4,none,1,9000,") = '\0'; /* the first 8 rows: drawn */
    assert_true(tu_write_file(tu_path(ctx->dir, "eight.csv"), rows));
    assert_int_equal(tu_run_program(BENCH, ctx->out_path, ctx->err_path, "--plot-from", tu_path(ctx->dir, "eight.csv"),
                                    ctx->dir, (char *)NULL),
                     0);
}

/* The results file's benchmark table is one run's: every number in it is the committed
 * out/bench/skinning.csv's, rounded as printed. */
static void test_results_bench_table_is_the_committed_run(void **state)
{
    (void)state;
    static const struct { const char *label, *kernel, *method, *normals; } rows[] = {
        {"scalar (plain loop)", "scalar", "LBS", "none"},
        {"sse2", "sse2", "LBS", "none"},
        {"avx2-rows (rows in registers, three horizontal adds a point)", "avx2-rows", "LBS", "none"},
        {"avx2-reloads (the avx2 kernel before its locals and unrolled loop)", "avx2-reloads", "LBS", "none"},
        {"avx2", "avx2", "LBS", "none"},
        {"avx2-loads-only (its loads and store, no arithmetic)", "avx2-loads-only", "LBS", "none"},
        {"avx2, 2 threads", "avx2-2t", "LBS", "none"},
        {"avx2, raw normals", "avx2", "LBS", "raw"},
        {"avx2, unit normals", "avx2", "LBS", "unit"},
        {"avx2, u8 + UNORM8 (31 B moved)", "avx2-u8-unorm8", "LBS", "none"},
        {"avx2, u8 + UNORM8 + u16 positions (25 B)", "avx2-u8-unorm8-q16", "LBS", "none"},
        {"DQS avx2 (eight vertices at a time)", "avx2", "DQS", "none"},
        {"dqs-avx2-per-vertex (the DQS avx2 kernel before it)", "dqs-avx2-per-vertex", "DQS", "none"},
    };
    char *readme = tu_read_file(COMMITTED_OUT_DIR "/bench/RESULTS.md", NULL),
         *csv = tu_read_file(COMMITTED_OUT_DIR "/bench/skinning.csv", NULL);
    assert_true(readme && csv);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        double small[13], mid[13], big[13];
        char key[96], expect[400];
        int threads = strstr(rows[i].kernel, "-2t") ? 2 : 1;
        snprintf(key, sizeof key, "%s,%s,4,%s,%d,", rows[i].kernel, rows[i].method, rows[i].normals, threads);
        char k1[128], k2[128], k3[128];
        snprintf(k1, sizeof k1, "%s10000,", key), snprintf(k2, sizeof k2, "%s1000000,", key);
        snprintf(k3, sizeof k3, "%s4000000,", key);
        assert_true(csv_fields(csv, k1, small, 13) && csv_fields(csv, k2, mid, 13) && csv_fields(csv, k3, big, 13));
        /* fields: ns, fastest, slowest, vertices/s, bytes, GB/s, triad GB/s, fraction, three
         * speedups, CPU ns, triad CPU GB/s; then each size's busy flag */
        char flagged[32] = "";
        const char *sizes[3] = {k1, k2, k3}, *names[3] = {" 1e4", " 1e6", " 4e6"};
        for (int k = 0; k < 3; k++) {
            const char *line = strstr(csv, sizes[k]), *end = line ? strchr(line, '\n') : NULL;
            assert_non_null(end);
            if (end - line > 5 && !strncmp(end - 5, ",busy", 5)) {
                if (!flagged[0])
                    strcpy(flagged, "busy:");
                strcat(flagged, names[k]);
            }
        }
        snprintf(expect, sizeof expect,
                 "| %s | %.2f (%.2f\xe2\x80\x93%.2f), %.2f | %.2f (%.2f\xe2\x80\x93%.2f), %.2f | %.2f (%.2f\xe2\x80\x93%.2f), "
                 "%.2f | %.2f | %.2f / %.2f | %.0f%% | %s |",
                 rows[i].label, small[0], small[1], small[2], small[11], mid[0], mid[1], mid[2], mid[11], big[0], big[1],
                 big[2], big[11], big[5], big[6], big[12], 100 * big[7], flagged);
        if (!strstr(readme, expect))
            fail_msg("RESULTS.md has no row \"%s\"", expect);
    }
    free(readme), free(csv);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, tu_run_dir_setup, tu_run_dir_teardown)
    const struct CMUnitTest tests[] = {
        T(test_lab30_palette_exit_codes),
        T(test_lab30_palette_evidence),
        T(test_lab30_palette_candidates),
        T(test_lab30_palette_deterministic_and_committed),
        T(test_bench_skinning_smoke),
        T(test_bench_plot_from_the_committed_run),
        cmocka_unit_test(test_results_bench_table_is_the_committed_run),
    };
#undef T
    return cmocka_run_group_tests_name("lab30-palette end to end", tests, NULL, NULL);
}
