/* bench-skinning.c - how fast CPU skinning runs here, against baselines measured in the
 * same run: the plain scalar loop over the same packed data, the double-precision chapter
 * path (skin_deform), and a streaming copy of the same bytes (the roofline).
 *
 * Usage:  build/bin/bench-skinning [--smoke] OUTDIR
 *   writes OUTDIR/skinning.csv and OUTDIR/skinning.png and prints the table.
 *   --smoke  tiny sizes and one repetition: checks that everything runs (make test).
 *
 * Every figure is the median of repeated runs after a warm-up run; the table also gives
 * the spread (fastest and slowest run). Timings are never asserted anywhere: they are
 * measured, printed and plotted. The synthetic mesh is deterministic (a fixed LCG): 64
 * joints with moderate rotations, K random joints per vertex with weights sorted heaviest
 * first, as packed_mesh_build would leave them.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "evidence.h"
#include "fastskin.h"
#include "output.h"
#include "plot.h"

#define LAB "bench-skinning"
#define JOINTS 64

static const int influence_counts[] = {1, 2, 4, 8};
enum { INFLUENCE_COUNTS = 4 };

/* ---- deterministic data ------------------------------------------------------------------- */

static unsigned long long lcg_state = 12345;
static double uniform(void) /* [0, 1) */
{
    lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(lcg_state >> 11) / 9007199254740992.0;
}

static void make_palette(palette_matrix *m, palette_dualquat *q, mat4 *m64, dualquat *q64)
{
    for (int j = 0; j < JOINTS; j++) {
        vec3 axis = vec3_make(uniform() - 0.5, uniform() - 0.5, uniform() - 0.5);
        dualquat dq = dualquat_from_rigid(quat_from_axis_angle(axis, 2.0 * (uniform() - 0.5)),
                                          vec3_make(uniform(), uniform(), uniform()));
        q64[j] = dq;
        m64[j] = dualquat_to_mat4(dq);
    }
    palette_from_mat4(m64, JOINTS, NULL, m);
    palette_from_dualquats(q64, JOINTS, q);
}

/* K influences per vertex, heaviest first; the packed streams are filled directly. */
static bool make_mesh(int n, int k, packed_mesh *m)
{
    *m = (packed_mesh){n, k, 0, malloc(12 * (size_t)n), malloc(12 * (size_t)n),
                       malloc(2 * (size_t)n * k), malloc(4 * (size_t)n * (k > 1 ? k - 1 : 1))};
    if (!m->position || !m->normal || !m->joint || !m->weight)
        return false;
    for (int v = 0; v < n; v++) {
        double w[PACKED_MAX_INFLUENCES], sum = 0.0;
        for (int c = 0; c < 3; c++) {
            m->position[3 * (size_t)v + c] = (float)(2.0 * uniform() - 1.0);
            m->normal[3 * (size_t)v + c] = c == 0 ? 1.0f : 0.0f;
        }
        for (int i = 0; i < k; i++) {
            w[i] = 0.05 + uniform();
            sum += w[i];
            m->joint[(size_t)v * k + i] = (uint16_t)(uniform() * JOINTS);
        }
        for (int i = 0; i < k; i++) /* sorted descending: the heaviest is the pivot */
            for (int j = i + 1; j < k; j++)
                if (w[j] > w[i]) {
                    double t = w[i];
                    w[i] = w[j];
                    w[j] = t;
                }
        for (int i = 0; i + 1 < k; i++)
            m->weight[(size_t)v * (k - 1) + i] = (float)(w[i] / sum);
    }
    m->max_joint = JOINTS - 1;
    return true;
}

/* ---- timing ------------------------------------------------------------------------------- */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct { double median, fastest, slowest; } timing;

typedef void (*bench_fn)(void *arg);

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One warm-up run, then at least `min_runs` and until 0.15 s have passed (at most 31). */
static timing measure(bench_fn fn, void *arg, int min_runs)
{
    double t[31];
    int runs = 0;
    double start = now();
    fn(arg);
    do {
        double t0 = now();
        fn(arg);
        t[runs++] = now() - t0;
    } while (runs < 31 && (runs < min_runs || now() - start < 0.15));
    qsort(t, (size_t)runs, sizeof t[0], compare_double);
    return (timing){t[runs / 2], t[0], t[runs - 1]};
}

static void run_fast(void *arg)
{
    if (fastskin_run(arg, NULL) != LAB_OK)
        abort(); /* validated before timing: cannot happen */
}

/* The roofline: read every input byte the kernel reads, write every output byte. */
typedef struct { const packed_mesh *m; bool normals; float *out_p, *out_n; int threads; } copy_job;
typedef struct { const copy_job *job; int begin, end; float sum; } copy_range;

static void *copy_part(void *arg)
{
    copy_range *r = arg;
    const packed_mesh *m = r->job->m;
    int k = m->influences;
    float sum = 0.0f;
    for (int v = r->begin; v < r->end; v++) {
        memcpy(r->job->out_p + 3 * (size_t)v, m->position + 3 * (size_t)v, 12);
        if (r->job->normals)
            memcpy(r->job->out_n + 3 * (size_t)v, m->normal + 3 * (size_t)v, 12);
        for (int i = 0; i < k; i++)
            sum += m->joint[(size_t)v * k + i];
        for (int i = 0; i + 1 < k; i++)
            sum += m->weight[(size_t)v * (k - 1) + i];
    }
    r->sum = sum; /* keeps the reads */
    return NULL;
}

static void run_copy(void *arg)
{
    const copy_job *job = arg;
    copy_range r[FASTSKIN_MAX_THREADS];
    pthread_t th[FASTSKIN_MAX_THREADS];
    bool started[FASTSKIN_MAX_THREADS] = {false};
    int n = job->m->count;
    for (int t = 0; t < job->threads; t++)
        r[t] = (copy_range){job, (int)((long long)n * t / job->threads),
                            (int)((long long)n * (t + 1) / job->threads), 0.0f};
    for (int t = 1; t < job->threads; t++)
        started[t] = pthread_create(&th[t], NULL, copy_part, &r[t]) == 0;
    copy_part(&r[0]);
    for (int t = 1; t < job->threads; t++) {
        if (started[t])
            pthread_join(th[t], NULL);
        else
            copy_part(&r[t]);
    }
}

/* The double-precision chapter path: skin_deform with two influences a vertex. */
typedef struct { const vec3 *bind; const skin_influences *in; const mat4 *palette; skin_blend blend; vec3 *out; } chapter_job;
static void run_chapter(void *arg)
{
    const chapter_job *j = arg;
    if (skin_deform(j->bind, j->in, j->palette, JOINTS, j->blend, j->out, NULL) != LAB_OK)
        abort();
}

/* ---- the rows ----------------------------------------------------------------------------- */

typedef struct {
    char kernel[24];
    skin_method method;
    int influences, normals, threads, vertices;
    timing t;
    double bytes_per_vertex, copy_ns;      /* copy_ns: the roofline's median ns per vertex */
} row;

typedef struct {
    row *rows;
    int count, cap;
} table;

static row *add_row(table *tb)
{
    if (tb->count == tb->cap) {
        tb->cap = tb->cap ? 2 * tb->cap : 256;
        tb->rows = realloc(tb->rows, sizeof *tb->rows * (size_t)tb->cap);
        if (!tb->rows)
            abort();
    }
    return &tb->rows[tb->count++];
}

static double ns(const row *r) { return 1e9 * r->t.median / r->vertices; }

static const row *find(const table *tb, const char *kernel, skin_method method, int k, int normals,
                       int vertices)
{
    for (int i = 0; i < tb->count; i++) {
        const row *r = &tb->rows[i];
        if (!strcmp(r->kernel, kernel) && r->method == method && r->influences == k &&
            r->normals == normals && r->vertices == vertices)
            return r;
    }
    return NULL;
}

/* All kernels for one mesh size and K: scalar, SSE2, AVX2 on one thread, the best level on
 * two threads, each against the streaming copy with the same thread count. */
static void bench_mesh(table *tb, const packed_mesh *m, const palette_matrix *pm,
                       const palette_dualquat *pq, float *out_p, float *out_n, int min_runs)
{
    for (int normals = 0; normals <= 1; normals++) {
        double copy_ns[3] = {0};
        for (int threads = 1; threads <= 2; threads++) {
            copy_job cj = {m, normals, out_p, out_n, threads};
            copy_ns[threads] = 1e9 * measure(run_copy, &cj, min_runs).median / m->count;
        }
        for (int method = 0; method < 2; method++)
            for (int variant = 0; variant <= SIMD_LEVEL_COUNT; variant++) {
                simd_level level = variant < SIMD_LEVEL_COUNT ? (simd_level)variant : simd_best_level();
                int threads = variant < SIMD_LEVEL_COUNT ? 1 : 2;
                if (!simd_level_available(level))
                    continue;
                fastskin_job job = {m, pm, pq, JOINTS, method ? SKIN_DQS : SKIN_LBS, normals,
                                    threads, level, out_p, out_n};
                row *r = add_row(tb);
                *r = (row){.method = job.method, .influences = m->influences, .normals = normals,
                           .threads = threads, .vertices = m->count,
                           .bytes_per_vertex = (double)packed_bytes_per_vertex(m->influences, normals) +
                                               (normals ? 24 : 12),
                           .copy_ns = copy_ns[threads]};
                snprintf(r->kernel, sizeof r->kernel, "%s%s", simd_level_name(level),
                         threads > 1 ? "-2t" : "");
                r->t = measure(run_fast, &job, min_runs);
            }
    }
}

static lab_error bench_chapter(table *tb, int n, const mat4 *m64, int min_runs, lab_diag *d)
{
    vec3 *bind = malloc(sizeof *bind * (size_t)n), *out = malloc(sizeof *out * (size_t)n);
    skin_influences in;
    lab_error e = skin_influences_init(&in, n, 2, d);
    if (e == LAB_OK && (!bind || !out))
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "chapter path", "%d vertices", n);
    for (int v = 0; e == LAB_OK && v < n; v++) {
        bind[v] = vec3_make(2 * uniform() - 1, 2 * uniform() - 1, 2 * uniform() - 1);
        double w = 0.5 + 0.5 * uniform();
        in.joint[2 * v] = (int)(uniform() * JOINTS), in.weight[2 * v] = w;
        in.joint[2 * v + 1] = (int)(uniform() * JOINTS), in.weight[2 * v + 1] = 1.0 - w;
    }
    for (int method = 0; e == LAB_OK && method < 2; method++) {
        chapter_job job = {bind, &in, m64, {.method = method ? SKIN_DQS : SKIN_LBS}, out};
        row *r = add_row(tb);
        *r = (row){.method = job.blend.method, .influences = 2, .normals = 0, .threads = 1,
                   .vertices = n, .bytes_per_vertex = sizeof(vec3) * 2 + 2 * (sizeof(int) + sizeof(double))};
        snprintf(r->kernel, sizeof r->kernel, "chapter-double");
        r->t = measure(run_chapter, &job, min_runs);
    }
    free(bind), free(out);
    skin_influences_free(&in);
    return e;
}

/* ---- output ------------------------------------------------------------------------------- */

static void write_csv(const table *tb, bytes *csv)
{
    bytes_printf(csv, "kernel,method,influences,normals,threads,vertices,ns_per_vertex,ns_fastest,"
                      "ns_slowest,vertices_per_s,bytes_per_vertex,gb_per_s,copy_gb_per_s,"
                      "roofline_fraction,speedup_vs_scalar,speedup_vs_chapter_double\n");
    for (int i = 0; i < tb->count; i++) {
        const row *r = &tb->rows[i];
        const row *scalar = find(tb, "scalar", r->method, r->influences, r->normals, r->vertices);
        const row *chapter = find(tb, "chapter-double", r->method, 2, 0, r->vertices);
        double gbps = r->bytes_per_vertex / ns(r);
        double copy_gbps = r->copy_ns > 0 ? r->bytes_per_vertex / r->copy_ns : NAN;
        const double f[] = {ns(r), 1e9 * r->t.fastest / r->vertices, 1e9 * r->t.slowest / r->vertices,
                            1e9 / ns(r), r->bytes_per_vertex, gbps, copy_gbps, gbps / copy_gbps,
                            scalar ? ns(scalar) / ns(r) : NAN,
                            chapter && r->influences == 2 && !r->normals ? ns(chapter) / ns(r) : NAN};
        bytes_printf(csv, "%s,%s,%d,%d,%d,%d", r->kernel, skin_method_name(r->method), r->influences,
                     r->normals, r->threads, r->vertices);
        for (size_t k = 0; k < sizeof f / sizeof f[0]; k++) { /* empty: no baseline for this row */
            bytes_append(csv, ",", 1);
            csv_number_or_empty(csv, f[k]);
        }
        bytes_append(csv, "\n", 1);
    }
}

static lab_error draw_plot(const table *tb, const int *sizes, int size_count, canvas *c, lab_diag *d)
{
    static const struct { const char *kernel; skin_method method; int k; rgb color; int dash; } curves[] = {
        {"chapter-double", SKIN_LBS, 2, {120, 120, 120}, 0}, {"scalar", SKIN_LBS, 4, {0, 114, 178}, 0},
        {"sse2", SKIN_LBS, 4, {0, 158, 115}, 0},            {"avx2", SKIN_LBS, 4, {213, 94, 0}, 0},
        {"avx2-2t", SKIN_LBS, 4, {204, 121, 167}, 0},       {"avx2", SKIN_DQS, 4, {213, 94, 0}, 8},
        {"avx2-2t", SKIN_DQS, 4, {204, 121, 167}, 8},
    };
    enum { CURVES = sizeof curves / sizeof curves[0] };
    double x[CURVES][8], y[CURVES][8], ymax = 0.0;
    plot_series s[CURVES];
    char labels[CURVES][48];
    int used = 0;
    for (int c2 = 0; c2 < CURVES; c2++) {
        int n = 0;
        for (int i = 0; i < size_count; i++) {
            const row *r = find(tb, curves[c2].kernel, curves[c2].method, curves[c2].k, 0, sizes[i]);
            if (r) {
                x[used][n] = sizes[i];
                y[used][n] = ns(r);
                ymax = fmax(ymax, y[used][n]);
                n++;
            }
        }
        if (n == 0)
            continue;
        snprintf(labels[used], sizeof labels[0], "%s %s K=%d", skin_method_name(curves[c2].method),
                 strcmp(curves[c2].kernel, "chapter-double") ? curves[c2].kernel : "double",
                 curves[c2].k);
        s[used] = (plot_series){x[used], y[used], n, curves[c2].color, curves[c2].dash, 2, labels[used]};
        used++;
    }
    double step = ymax > 100 ? 20 : ymax > 40 ? 10 : 5;
    plot_spec spec = {"CPU skinning: ns per vertex, positions only (median)", "vertices",
                      "ns/vertex", sizes[0], sizes[size_count - 1], 10, 0,
                      step * ceil(ymax * 1.05 / step), step, s, used, true};
    return plot_draw(c, 1000, 560, &spec, d);
}

static void print_table(const table *tb)
{
    printf("%-15s %-4s %2s %2s %2s %9s %9s %9s %9s %8s %8s %7s %7s\n", "kernel", "meth", "K", "n",
           "t", "vertices", "ns/vert", "fastest", "slowest", "B/vert", "GB/s", "roof", "x scal");
    for (int i = 0; i < tb->count; i++) {
        const row *r = &tb->rows[i];
        const row *scalar = find(tb, "scalar", r->method, r->influences, r->normals, r->vertices);
        double gbps = r->bytes_per_vertex / ns(r);
        printf("%-15s %-4s %2d %2d %2d %9d %9.2f %9.2f %9.2f %8.0f %8.2f %6.0f%% %7.2f\n", r->kernel,
               skin_method_name(r->method), r->influences, r->normals, r->threads, r->vertices, ns(r),
               1e9 * r->t.fastest / r->vertices, 1e9 * r->t.slowest / r->vertices,
               r->bytes_per_vertex, gbps, r->copy_ns > 0 ? 100.0 * r->copy_ns / ns(r) : NAN,
               scalar ? ns(scalar) / ns(r) : NAN);
    }
}

/* The three targets, each with the numbers behind it. */
static void print_targets(const table *tb, int big, int biggest)
{
    printf("\nTargets (single thread unless stated, 4 influences, positions only):\n");
    const row *avx = find(tb, simd_level_name(simd_best_level()), SKIN_LBS, 4, 0, big);
    const row *sc = find(tb, "scalar", SKIN_LBS, 4, 0, big);
    if (avx && sc)
        printf("  LBS %s vs plain scalar loop at %d vertices: %.2fx (%.2f vs %.2f ns/vertex; target >= 3x) %s\n",
               avx->kernel, big, ns(sc) / ns(avx), ns(avx), ns(sc), ns(sc) / ns(avx) >= 3 ? "met" : "MISSED");
    char two[32];
    snprintf(two, sizeof two, "%s-2t", simd_level_name(simd_best_level()));
    const row *t2 = find(tb, two, SKIN_LBS, 4, 0, biggest);
    if (t2)
        printf("  LBS %s at %d vertices: %.0f%% of the streaming copy (%.2f vs %.2f ns/vertex; target >= 70%%) %s\n",
               two, biggest, 100 * t2->copy_ns / ns(t2), ns(t2), t2->copy_ns,
               t2->copy_ns / ns(t2) >= 0.7 ? "met" : "MISSED");
    const row *dq = find(tb, simd_level_name(simd_best_level()), SKIN_DQS, 4, 0, big);
    if (dq && avx)
        printf("  DQS / LBS (%s, %d vertices): %.2fx (%.2f vs %.2f ns/vertex; target <= 1.6x) %s\n",
               dq->kernel, big, ns(dq) / ns(avx), ns(dq), ns(avx), ns(dq) / ns(avx) <= 1.6 ? "met" : "MISSED");
}

int main(int argc, char **argv)
{
    bool smoke = false;
    const char *outdir = NULL;
    const cli_option options[] = {
        {"--smoke", CLI_FLAG, &smoke, .help = "two small sizes, one run each: checks that the bench works"},
    };
    const cli_program program = {LAB, "Times CPU skinning on this machine (make bench).", options, 1,
                                 {"OUTDIR"}, 1, NULL};
    int code = cli_start(&program, argc, argv, &outdir);
    if (code != CLI_RUN)
        return code;
    lab_diag d = {0};
    const int full[] = {1000, 10000, 100000, 1000000, 4000000}, tiny[] = {1000, 10000};
    const int *sizes = smoke ? tiny : full;
    int size_count = smoke ? 2 : 5, min_runs = smoke ? 1 : 5;
    palette_matrix pm[JOINTS];
    palette_dualquat pq[JOINTS];
    mat4 m64[JOINTS];
    dualquat q64[JOINTS];
    make_palette(pm, pq, m64, q64);
    table tb = {0};
    float *out_p = malloc(12 * (size_t)sizes[size_count - 1]), *out_n = malloc(12 * (size_t)sizes[size_count - 1]);
    if (!out_p || !out_n)
        return CLI_EXIT_REJECTED;
    for (int s = 0; s < size_count; s++) {
        for (int ki = 0; ki < INFLUENCE_COUNTS; ki++) {
            packed_mesh m;
            if (!make_mesh(sizes[s], influence_counts[ki], &m))
                return CLI_EXIT_REJECTED;
            bench_mesh(&tb, &m, pm, pq, out_p, out_n, min_runs);
            packed_mesh_free(&m);
        }
        if (bench_chapter(&tb, sizes[s], m64, min_runs, &d) != LAB_OK)
            return cli_fail(LAB, &d, CLI_EXIT_REJECTED);
        fprintf(stderr, LAB ": %d vertices done\n", sizes[s]);
    }
    print_table(&tb);
    print_targets(&tb, smoke ? sizes[1] : 1000000, sizes[size_count - 1]);
    output_batch batch = {0};
    bytes csv = {0};
    canvas plot = {0};
    write_csv(&tb, &csv);
    lab_error e = output_batch_add(&batch, "skinning.csv", &csv, &d);
    if (e == LAB_OK)
        e = draw_plot(&tb, sizes, size_count, &plot, &d);
    if (e == LAB_OK)
        e = output_batch_add_image(&batch, "skinning.png", &plot, &d);
    canvas_free(&plot);
    free(out_p), free(out_n), free(tb.rows);
    return cli_finish(LAB, &batch, e, &d, true, outdir);
}
