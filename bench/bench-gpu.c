/* bench-gpu.c - the CPU-versus-GPU trade-off of the LBS-versus-DQS text (003), measured:
 * for each GPU path (uniform block, texture, compute) and method, the per-frame palette
 * upload, the draw or dispatch, and the readback, each timed apart (glFinish between), on
 * the random 64-joint, 4-influence rig at 1e4 to 1e6 vertices; beside them the CPU's avx2
 * kernel on one and two threads over the same packed data. Every row names the renderer:
 * on Mesa's llvmpipe the "GPU" is this machine's CPU running the shaders.
 *
 * Usage:  build/bin/bench-gpu [--smoke] OUTDIR
 *   writes OUTDIR/gpu.csv and prints the table (median of at least 5 runs after a warm-up
 *   run, which also pays the driver's shader compilation).
 *   --smoke  one small size, one run: checks that it runs (make test).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program/cli.h"
#include "program/evidence.h"
#include "skin/fastskin.h"
#include "gpu/gpu_skin.h"
#include "program/output.h"
#include "skin/rig_random.h"
#include "base/timer.h"

#define LAB "bench-gpu"
#define JOINTS 64
#define MAX_RUNS 31

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof t[0], compare_double);
    return t[n / 2];
}

typedef struct {
    const packed_mesh *m;
    const palette_matrix *pm;
    const palette_columns *pc;
    const palette_dualquat *pd;
    float *p, *n;
    fastskin_pool *pool;
    gpu_skinner *skinner;
    gpu_mesh *mesh;
    int min_runs;
    const char *renderer;
    bytes *csv;
} bench;

static void row(bench *b, const char *kernel, skin_method method, double upload, double run, double readback)
{
    double total = upload + run + readback;
    printf("%-22s %-4s %8d %10.1f %10.1f %10.1f %10.1f %9.2f\n", kernel, skin_method_name(method), b->m->count,
           1e6 * upload, 1e6 * run, 1e6 * readback, 1e6 * total, 1e9 * total / b->m->count);
    bytes_printf(b->csv, "\"%s\",%s,%s,%d,", b->renderer, kernel, skin_method_name(method), b->m->count);
    const double f[5] = {1e6 * upload, 1e6 * run, 1e6 * readback, 1e6 * total, 1e9 * total / b->m->count};
    csv_row(b->csv, f, 5);
}

/* One GPU path and method: warm-up, then runs until min_runs and 0.3 s. */
static lab_error bench_gpu(bench *b, gpu_path path, skin_method method, lab_diag *d)
{
    gpu_skin_job job = {b->mesh, path, method, b->pm, b->pd, JOINTS, b->p, b->n};
    gpu_timing t;
    lab_error e = gpu_skin_run(b->skinner, &job, &t, d);
    double up[MAX_RUNS], run[MAX_RUNS], back[MAX_RUNS], start = timer_seconds();
    int runs = 0;
    while (e == LAB_OK && runs < MAX_RUNS && (runs < b->min_runs || timer_seconds() - start < 0.3)) {
        e = gpu_skin_run(b->skinner, &job, &t, d);
        up[runs] = t.upload, run[runs] = t.run, back[runs] = t.readback;
        runs++;
    }
    if (e == LAB_OK) {
        char name[32];
        snprintf(name, sizeof name, "gpu-%s", gpu_path_name(path));
        row(b, name, method, median(up, runs), median(run, runs), median(back, runs));
    }
    return e;
}

/* The CPU kernel on the same data: no upload, no readback (its output is already in
 * memory); the palette's conversion to columns counts as its upload. */
static lab_error bench_cpu(bench *b, int threads, skin_method method, lab_diag *d)
{
    fastskin_job job = {b->m, b->pc, b->pd, JOINTS, method, FASTSKIN_UNIT_NORMALS, threads,
                        fastskin_default_level(method, FASTSKIN_UNIT_NORMALS, NULL), b->p, b->n, b->pool}; /* the level a user gets */
    lab_error e = fastskin_run(&job, d);
    double run[MAX_RUNS], start = timer_seconds();
    int runs = 0;
    while (e == LAB_OK && runs < MAX_RUNS && (runs < b->min_runs || timer_seconds() - start < 0.3)) {
        double t0 = timer_seconds();
        e = fastskin_run(&job, d);
        run[runs++] = timer_seconds() - t0;
    }
    if (e == LAB_OK) {
        char name[32];
        snprintf(name, sizeof name, "cpu-%s%s", simd_level_name(job.level), threads > 1 ? "-2t" : "");
        row(b, name, method, 0.0, median(run, runs), 0.0);
    }
    return e;
}

int main(int argc, char **argv)
{
    bool smoke = false;
    const char *outdir = NULL;
    const cli_option options[] = {
        {"--smoke", CLI_FLAG, &smoke, .help = "one small size, one run: checks that the bench works"},
    };
    const cli_program program = {LAB, "Times GPU skinning on this machine against the CPU (make bench).", options, CLI_COUNT(options),
                                 {"OUTDIR"}, 1, NULL};
    int code = cli_start(&program, argc, argv, &outdir);
    if (code != CLI_RUN)
        return code;
    lab_diag d = {0};
    gpu_context *gpu = NULL;
    bench b = {.min_runs = smoke ? 1 : 5};
    bytes csv = {0};
    lab_error e = gpu_open(&gpu, &d);
    if (e == LAB_OK)
        e = gpu_skinner_create(gpu, NULL, &b.skinner, &d);
    if (e == LAB_OK)
        e = fastskin_pool_create(1, &b.pool, &d);
    if (e != LAB_OK) {
        gpu_skinner_free(b.skinner);
        gpu_close(gpu);
        return cli_fail(LAB, &d, cli_exit_code(e));
    }
    b.renderer = gpu_get_info(gpu)->renderer;
    b.csv = &csv;
    printf("renderer: %s (%s)%s\n", b.renderer, gpu_get_info(gpu)->version,
           gpu_get_info(gpu)->software ? ": a software renderer, the CPU runs the shaders" : "");
    printf("%-22s %-4s %8s %10s %10s %10s %10s %9s\n", "kernel", "meth", "vertices", "upload us", "run us",
           "readback", "total us", "ns/vert");
    bytes_printf(&csv, "renderer,kernel,method,vertices,upload_us,run_us,readback_us,total_us,ns_per_vertex\n");
    const int full[] = {10000, 100000, 1000000}, tiny[] = {1000};
    const int *sizes = smoke ? tiny : full, size_count = smoke ? 1 : 3;
    for (int s = 0; e == LAB_OK && s < size_count; s++) {
        rig_random rig;
        packed_mesh m = {0};
        palette_matrix pm[JOINTS];
        palette_columns pc[JOINTS];
        palette_dualquat pd[JOINTS];
        e = rig_random_build(sizes[s], JOINTS, 4, 64, &rig, &d);
        if (e == LAB_OK)
            e = packed_mesh_build(rig.positions, rig.normals, &rig.in, 4, &m, NULL, &d);
        b.p = malloc(12 * (size_t)sizes[s]), b.n = malloc(12 * (size_t)sizes[s]);
        if (e == LAB_OK && (!b.p || !b.n))
            e = diag_fail(&d, LAB_ERR_OUT_OF_MEMORY, LAB, "%d vertices", sizes[s]);
        if (e == LAB_OK) {
            palette_from_mat4(rig.skin, JOINTS, NULL, pm);
            palette_columns_from_matrices(pm, JOINTS, pc);
            palette_from_dualquats(rig.dq, JOINTS, pd);
            b.m = &m, b.pm = pm, b.pc = pc, b.pd = pd;
            e = gpu_mesh_upload(b.skinner, &m, 0, &b.mesh, &d);
        }
        for (int method = 0; e == LAB_OK && method < 2; method++) {
            for (int path = 0; e == LAB_OK && path < GPU_PATH_COUNT; path++)
                e = bench_gpu(&b, (gpu_path)path, (skin_method)method, &d);
            for (int threads = 1; e == LAB_OK && threads <= 2; threads++)
                e = bench_cpu(&b, threads, (skin_method)method, &d);
        }
        gpu_mesh_free(b.mesh);
        b.mesh = NULL;
        free(b.p), free(b.n);
        packed_mesh_free(&m);
        rig_random_free(&rig);
    }
    output_batch batch = {0};
    if (e == LAB_OK)
        e = output_batch_add(&batch, "gpu.csv", &csv, &d);
    bytes_free(&csv);
    fastskin_pool_destroy(b.pool);
    gpu_skinner_free(b.skinner);
    gpu_close(gpu);
    return cli_finish(LAB, &batch, e, &d, true, outdir);
}
