/* test_lab30_palette_bench.c - the benchmark the palette page cites, never its timings:
 * bench-skinning's smoke run writes what it promises (its targets, one per case whose
 * default level is not avx2), its plot redrawn from the committed run's CSV, and the
 * committed RESULTS.md's table the committed run's. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_all.h"
#include "skin/fastskin.h"
#include "testutil.h"

#define BENCH LAB_BIN_DIR "/bench-skinning"
typedef tu_run_dir run_ctx;

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
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_bench_skinning_smoke, tu_run_dir_setup, tu_run_dir_teardown),
        cmocka_unit_test_setup_teardown(test_bench_plot_from_the_committed_run, tu_run_dir_setup, tu_run_dir_teardown),
        cmocka_unit_test(test_results_bench_table_is_the_committed_run),
    };
    return cmocka_run_group_tests_name("lab30-palette's benchmark", tests, NULL, NULL);
}
