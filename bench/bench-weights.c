/* bench-weights.c - what bone heat costs (lab30-weights, src/weights/heat.h), measured: the
 * whole solve (the Laplacian, the heat with its visibility test, one CHOLMOD factorisation,
 * one solve per joint) on cylinders from the chapter's 216 vertices to about 50,000, and
 * on the two artists' assets; beside each, one product with the same mesh's Laplacian,
 * timed in the same run, as the baseline: the factorisation's cost in products.
 *
 * Usage:  build/bin/bench-weights [--smoke] OUTDIR
 *   writes OUTDIR/weights.csv and prints the table (median of at least 5 runs after a
 *   warm-up run, with the fastest and slowest).
 *   --smoke  the chapter's cylinder only, one run: checks that it runs (make test).
 * Run from the repository's root: the assets are read from assets/.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/timer.h"
#include "weights/heat.h"
#include "program/cli.h"
#include "program/evidence.h"
#include "solve/sparse.h"
#include "lab30-weights/weights30.h"

#define LAB "bench-weights"
#define MAX_RUNS 15

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct {
    double total[MAX_RUNS], factor[MAX_RUNS], solves[MAX_RUNS];
    int runs;
} timings;

static double median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof t[0], compare_double);
    return t[n / 2];
}

/* One product y = L x with the mesh's cotangent Laplacian: the baseline, in seconds. */
static lab_error product_seconds(const mesh *m, double *out, lab_diag *d)
{
    sparse_triplets L;
    double *mass = malloc((size_t)m->vertex_count * sizeof *mass), *x = malloc((size_t)m->vertex_count * sizeof *x),
           *y = malloc((size_t)m->vertex_count * sizeof *y);
    lab_error e = mass && x && y ? heat_laplacian(m, HEAT_PAPER, &L, mass, NULL, d)
                                 : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, LAB, "%d vertices", m->vertex_count);
    if (e == LAB_OK) {
        for (int i = 0; i < m->vertex_count; i++)
            x[i] = 1.0 + i % 7;
        double t[MAX_RUNS];
        int reps = (int)fmax(1.0, 2e6 / (double)L.count); /* about 2 million entries a timing */
        for (int r = 0; r < MAX_RUNS; r++) {
            double t0 = timer_seconds();
            for (int k = 0; k < reps; k++)
                sparse_multiply(&L, x, y);
            t[r] = (timer_seconds() - t0) / reps;
        }
        *out = median(t, MAX_RUNS);
        sparse_free(&L);
    }
    free(mass), free(x), free(y);
    return e;
}

static void row(bytes *csv, const char *name, const mesh *m, int joints, const heat_result *r, timings *t,
                double product)
{
    double total = median(t->total, t->runs), lo = t->total[0], hi = t->total[t->runs - 1];
    double factor = median(t->factor, t->runs), solves = median(t->solves, t->runs);
    printf("%-18s %8d %6d %10.0f %10zu %9.3f (%.3f-%.3f) %9.3f %9.3f %9.2f %8.0f %12.0f\n", name, m->vertex_count,
           joints, r->factor_nonzeros, r->peak_bytes, 1e3 * total, 1e3 * lo, 1e3 * hi, 1e3 * factor, 1e3 * solves,
           1e6 * product, factor / product, m->vertex_count / total);
    bytes_printf(csv, "%s,%d,%d,", name, m->vertex_count, joints);
    csv_row(csv,
            (double[]){r->factor_nonzeros, (double)r->peak_bytes, 1e3 * total, 1e3 * lo, 1e3 * hi, 1e3 * factor,
                       1e3 * solves, 1e6 * product, factor / product, m->vertex_count / total},
            10);
}

/* Bone heat on a cylinder of `rings` x `segments`, radius 1, height 2, the bend's bones. */
static lab_error bench_cylinder(bytes *csv, int rings, int segments, int min_runs, lab_diag *d)
{
    mesh m;
    lab_error e = mesh_cylinder(rings, segments, 1.0, 2.0, &m, d);
    heat_bone bones[2] = {{{0, 0, 0}, {0, 0, 1}, 0}, {{0, 0, 1}, {0, 0, 2}, 1}};
    heat_result r = {0};
    timings t = {0};
    if (e == LAB_OK) /* the warm-up */
        e = heat_solve(&m, HEAT_PAPER, bones, 2, 2, HEAT_C, &r, d);
    double start = timer_seconds();
    while (e == LAB_OK && t.runs < MAX_RUNS && (t.runs < min_runs || timer_seconds() - start < 0.5)) {
        heat_result_free(&r);
        double t0 = timer_seconds();
        e = heat_solve(&m, HEAT_PAPER, bones, 2, 2, HEAT_C, &r, d);
        t.total[t.runs] = timer_seconds() - t0;
        t.factor[t.runs] = r.factor_seconds, t.solves[t.runs] = r.solve_seconds;
        t.runs++;
    }
    double product = 0.0;
    if (e == LAB_OK)
        e = product_seconds(&m, &product, d);
    if (e == LAB_OK) {
        char name[48];
        snprintf(name, sizeof name, "cylinder %dx%d", rings, segments);
        row(csv, name, &m, 2, &r, &t, product);
    }
    heat_result_free(&r);
    mesh_free(&m);
    return e;
}

/* Bone heat on an asset, as lab30-weights runs it; the total is the heat's own share
 * (factorisation and solves are timed inside heat_solve; the rest of the asset's run,
 * reading and skinning over the animation, is not bone heat's cost). */
static lab_error bench_asset(bytes *csv, const char *name, int min_runs, lab_diag *d)
{
    char path[256];
    snprintf(path, sizeof path, "assets/%s.gltf", name);
    weights30_asset a = {.name = name, .influences = 4};
    timings t = {0};
    const weights30_options limits = {.heat_c = HEAT_C, .max_pairs = WEIGHTS30_MAX_PAIRS,
                                      .max_vertices = WEIGHTS30_MAX_VERTICES, .bbw_budget = WEIGHTS30_BBW_BUDGET,
                                      .skin = -1};
    lab_error e = weights30_asset_run(&a, path, &limits, d);
    double start = timer_seconds();
    while (e == LAB_OK && t.runs < MAX_RUNS && (t.runs < min_runs || timer_seconds() - start < 0.5)) {
        heat_result r;
        double t0 = timer_seconds();
        e = heat_solve(&a.welded, HEAT_PAPER, a.bones, a.bone_count, a.joint_count, HEAT_C, &r, d);
        t.total[t.runs] = timer_seconds() - t0;
        t.factor[t.runs] = r.factor_seconds, t.solves[t.runs] = r.solve_seconds;
        t.runs++;
        heat_result_free(&r);
    }
    double product = 0.0;
    if (e == LAB_OK)
        e = product_seconds(&a.welded, &product, d);
    if (e == LAB_OK)
        row(csv, name, &a.welded, a.joint_count, &a.heat[HEAT_PAPER], &t, product);
    weights30_asset_free(&a);
    return e;
}

int main(int argc, char **argv)
{
    bool smoke = false;
    const char *outdir = NULL;
    const cli_option options[] = {
        {"--smoke", CLI_FLAG, &smoke, .help = "the chapter's cylinder only, one run: checks that the bench works"},
    };
    const cli_program program = {LAB, "Times bone heat (lab30-weights) on this machine (make bench).", options, CLI_COUNT(options),
                                 {"OUTDIR"}, 1, NULL};
    int code = cli_start(&program, argc, argv, &outdir);
    if (code != CLI_RUN)
        return code;
    lab_diag d = {0};
    /* CHOLMOD is opened before the clock runs: its first factorisation does not time the loader */
    lab_error e = sparse_load(&d);
    if (e != LAB_OK)
        return cli_fail(LAB, &d, cli_exit_code(e));
    bytes csv = {0};
    printf("%-18s %8s %6s %10s %10s %27s %9s %9s %9s %8s %12s\n", "mesh", "vertices", "joints", "nnz(fac)",
           "peak B", "total ms (fastest-slowest)", "factor ms", "solves ms", "L x us", "fac/Lx", "vertices/s");
    bytes_printf(&csv, "mesh,vertices,joints,factor_nonzeros,peak_bytes,total_ms,total_fastest_ms,total_slowest_ms,"
                       "factor_ms,solves_ms,product_us,factor_over_product,vertices_per_second\n");
    const int sizes[][2] = {{9, 24}, {33, 96}, {65, 192}, {129, 384}};
    int min_runs = smoke ? 1 : 5;
    for (int s = 0; e == LAB_OK && s < (smoke ? 1 : 4); s++)
        e = bench_cylinder(&csv, sizes[s][0], sizes[s][1], min_runs, &d);
    if (e == LAB_OK && !smoke)
        e = bench_asset(&csv, "RiggedSimple", min_runs, &d);
    if (e == LAB_OK && !smoke)
        e = bench_asset(&csv, "RiggedFigure", min_runs, &d);
    output_batch batch = {0};
    if (e == LAB_OK)
        e = output_batch_add(&batch, "weights.csv", &csv, &d);
    bytes_free(&csv);
    return cli_finish(LAB, &batch, e, &d, true, outdir);
}
