/* bench-skinning.c - how fast CPU skinning runs here, against baselines measured in the
 * same run: the plain scalar loop over the same packed data, the double-precision chapter
 * path (skin_deform), the frozen kernels of baselines.h (the avx2 kernel before its
 * column-palette rewrite, "avx2-rows"; the avx2 kernel before its streams were copied into
 * locals, "avx2-reloads"; the avx2 DQS kernel before it took eight vertices at a time,
 * "dqs-avx2-per-vertex"; and "avx2-loads-only", the avx2 kernel's memory operations
 * without its arithmetic, the floor its own loads put under it), and the roofline: a
 * triad a[i] = b[i] + s c[i] over as many bytes as the row moves (reads and writes), at
 * one and two threads, giving this machine's bandwidth for that working set (its three
 * arrays are written before any timing, so no read hits the kernel's shared zero page;
 * past the last-level cache in machine.csv the triad measures memory). The frozen kernels
 * that compute (all but avx2-loads-only) are checked against the library's scalar kernel
 * at every size (check_frozen): a difference fails the run, nothing written.
 *
 * Usage:  build/bin/bench-skinning [--smoke] OUTDIR
 *   writes OUTDIR/skinning.csv, OUTDIR/targets.csv (the targets, each a ratio of two
 *   times measured in pairs: paired), OUTDIR/compression.csv, OUTDIR/machine.csv (the
 *   caches Linux reports) and OUTDIR/skinning.png and prints the tables.
 *   --smoke  tiny sizes and one repetition: checks that everything runs (make test).
 *
 * Every figure is the median of repeated runs after a warm-up run; the table also gives
 * the spread (fastest and slowest run). Timings are never asserted anywhere: they are
 * measured, printed and plotted. The synthetic mesh is deterministic (a fixed LCG): 64
 * joints with moderate rotations, K random joints per vertex with weights sorted heaviest
 * first, as packed_mesh_build would leave them.
 */
#define _DEFAULT_SOURCE /* getloadavg */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program/cli.h"
#include "program/evidence.h"
#include "skin/fastskin.h"
#include "program/output.h"
#include "draw/plot.h"
#include "rig30.h"
#include "skin/rig_random.h"
#include "base/timer.h"
#include "baselines.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#define LAB "bench-skinning"
#define JOINTS 64

static const int influence_counts[] = {1, 2, 4, 8};
enum { INFLUENCE_COUNTS = 4, PLOT_SIZES = 8 /* vertex counts the plot takes (--plot-from refuses more) */ };

/* ---- deterministic data ------------------------------------------------------------------- */

static rig_random_lcg lcg = {12345};
static double uniform(void) { return rig_random_uniform(&lcg); } /* [0, 1) */

static void make_palette(palette_matrix *m, palette_dualquat *q, mat4 *m64, dualquat *q64)
{
    rig_random_palette(&lcg, JOINTS, m64, q64);
    palette_from_mat4(m64, JOINTS, NULL, m);
    palette_from_dualquats(q64, JOINTS, q);
}

/* K influences per vertex, heaviest first; the packed streams are filled directly. */
static bool make_mesh(int n, int k, packed_mesh *m)
{
    *m = (packed_mesh){.count = n, .influences = k, .position = malloc(12 * (size_t)n),
                       .normal = malloc(12 * (size_t)n), .joint = malloc(2 * (size_t)n * k),
                       .weight = malloc(4 * (size_t)n * (k > 1 ? k - 1 : 1))};
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

/* Wall times, and beside them the CPU time the work took: the calling thread's
 * (CLOCK_THREAD_CPUTIME_ID) on one thread, every thread's over their count on more. A
 * shared machine stretches the wall time of a run that waits for a core; the CPU time
 * counts only the work. */
typedef struct { double median, fastest, slowest, cpu_median; } timing;

typedef void (*bench_fn)(void *arg);

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The CPU clock for work on `threads` threads: the thread's own, or the process's. */
static double cpu_seconds(int threads)
{
    return threads > 1 ? timer_process_seconds() / threads : timer_thread_seconds();
}

/* One warm-up run, then at least `min_runs` samples and until 0.15 s have passed (at most
 * 31); --smoke (min_runs 1) times one sample after the warm-up, checking that it runs. A
 * sample repeats a run shorter than 1 ms until it lasts that long (reading the CPU clock
 * costs about a microsecond, a tenth of a 1e4-vertex run) and gives the time per run. */
static timing measure(bench_fn fn, void *arg, int min_runs, int threads)
{
    double t[31], cpu[31];
    int runs = 0;
    double start = timer_seconds();
    fn(arg);
    double once = timer_seconds() - start;
    int reps = once < 1e-3 ? (int)(1e-3 / fmax(once, 1e-9)) + 1 : 1;
    do {
        double c0 = cpu_seconds(threads), t0 = timer_seconds();
        for (int i = 0; i < reps; i++)
            fn(arg);
        t[runs] = (timer_seconds() - t0) / reps;
        cpu[runs++] = (cpu_seconds(threads) - c0) / reps;
    } while (runs < 31 && (runs < min_runs || (min_runs > 1 && timer_seconds() - start < 0.15)));
    qsort(t, (size_t)runs, sizeof t[0], compare_double);
    qsort(cpu, (size_t)runs, sizeof cpu[0], compare_double);
    return (timing){t[runs / 2], t[0], t[runs - 1], cpu[runs / 2]};
}

/* A timing whose wall and CPU medians differ by more than 20%: the machine was busy. */
static bool busy(timing t) { return fabs(t.median - t.cpu_median) > 0.2 * t.median; }

/* The one-minute load average now (-1 where the system gives none). */
static double load_now(void)
{
    double load[1];
    return getloadavg(load, 1) == 1 ? load[0] : -1.0;
}

static void run_fast(void *arg)
{
    if (fastskin_run(arg, NULL) != LAB_OK)
        abort(); /* validated before timing: cannot happen */
}

#if defined(__x86_64__)
#define AVX2_TARGET __attribute__((target("avx2,fma")))

/* bench_fn adaptors for the frozen kernels (baselines.h) */
static void run_reference(void *arg) { baseline_avx2_rows(arg); }
static void run_reloads(void *arg) { baseline_avx2_reloads(arg); }
static void run_loads_only(void *arg) { baseline_avx2_loads_only(arg); }
static void run_dqs_per_vertex(void *arg) { baseline_dqs_avx2_per_vertex(arg); }
#endif

/* ---- the roofline: a triad over the same bytes -------------------------------------------- */

typedef struct { float *a; const float *b, *c; size_t len; int parts; fastskin_pool *pool; } triad_job;

#if defined(__x86_64__)
AVX2_TARGET static void triad_avx2(float *a, const float *b, const float *c, size_t begin, size_t end)
{
    const __m256 s = _mm256_set1_ps(0.5f);
    size_t i = begin;
    for (; i + 8 <= end; i += 8)
        _mm256_storeu_ps(a + i, _mm256_fmadd_ps(s, _mm256_loadu_ps(c + i), _mm256_loadu_ps(b + i)));
    for (; i < end; i++)
        a[i] = b[i] + 0.5f * c[i];
}
#endif

static void triad_part(void *ctx, int part)
{
    const triad_job *t = ctx;
    size_t begin = t->len * (size_t)part / (size_t)t->parts, end = t->len * (size_t)(part + 1) / (size_t)t->parts;
#if defined(__x86_64__)
    if (simd_level_available(SIMD_AVX2)) {
        triad_avx2(t->a, t->b, t->c, begin, end);
        return;
    }
#endif
    for (size_t i = begin; i < end; i++)
        t->a[i] = t->b[i] + 0.5f * t->c[i];
}

static void run_triad(void *arg)
{
    triad_job *t = arg;
    fastskin_pool_run(t->pool, t->parts, triad_part, t);
}

/* The double-precision chapter path: skin_deform with two influences a vertex. Its first
 * failure (out of memory: the data are valid) is kept in e, with d, and ends the timing. */
typedef struct {
    const vec3 *bind;
    const skin_influences *in;
    const mat4 *palette;
    skin_blend blend;
    vec3 *out;
    lab_diag *d;
    lab_error e;
} chapter_job;
static void run_chapter(void *arg)
{
    chapter_job *j = arg;
    if (j->e == LAB_OK)
        j->e = skin_deform(j->bind, j->in, j->palette, JOINTS, j->blend, j->out, j->d);
}

/* ---- the rows ----------------------------------------------------------------------------- */

static const char *const normals_names[] = {"none", "unit", "raw"};

typedef struct {
    char kernel[32];
    skin_method method;
    int influences, threads, vertices;
    fastskin_normals normals;
    timing t;
    double bytes_per_vertex;
    timing triad;                          /* the triad for the same bytes and threads, a whole
                                              run (its median 0: none) */
    double load_start, load_end;           /* the one-minute load average before and after */
} row;

typedef struct {
    row *rows;
    int count, cap;
} table;

/* A new row at the end, or NULL, with out-of-memory in d, when the table cannot grow. */
static row *add_row(table *tb, lab_diag *d)
{
    if (tb->count == tb->cap) {
        int cap = tb->cap ? 2 * tb->cap : 256;
        row *grown = realloc(tb->rows, sizeof *tb->rows * (size_t)cap);
        if (!grown) {
            diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "benchmark table", "%d rows", cap);
            return NULL;
        }
        tb->rows = grown, tb->cap = cap;
    }
    return &tb->rows[tb->count++];
}

static double ns(const row *r) { return 1e9 * r->t.median / r->vertices; }
static double cpu_ns(const row *r) { return 1e9 * r->t.cpu_median / r->vertices; }
static double gbps(const row *r) { return r->bytes_per_vertex / ns(r); }
static double triad_gbps(const row *r)
{
    return r->triad.median > 0 ? r->bytes_per_vertex / (1e9 * r->triad.median / r->vertices) : NAN;
}
static double triad_cpu_gbps(const row *r)
{
    return r->triad.cpu_median > 0 ? r->bytes_per_vertex / (1e9 * r->triad.cpu_median / r->vertices) : NAN;
}
/* Judged on one thread only: on two, every thread's CPU time over their count falls below
 * the wall time wherever a thread waits at the pool's barrier, busy machine or not (142 of
 * the 152 two-thread rows of an idle run's). */
static bool row_busy(const row *r)
{
    return r->threads == 1 && (busy(r->t) || (r->triad.median > 0 && busy(r->triad)));
}

static const row *find(const table *tb, const char *kernel, skin_method method, int k, fastskin_normals normals,
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

/* The targets: each a ratio of two times measured in pairs (paired). */
typedef struct {
    char what[112];
    int vertices, threads;
    double median, lowest, highest;            /* the ratio of the wall times */
    double cpu_median, cpu_lowest, cpu_highest; /* of the CPU times (one thread; else NAN) */
    double bound;
    bool at_least;               /* met when the ratio is >= bound (else <= bound) */
} target;

typedef struct {
    target rows[40];
    int count;
} target_table;

/* What one size needs: the buffers, the palettes, the pool, and the triad's arrays. */
typedef struct {
    const palette_matrix *pm;
    const palette_columns *pc;
    const palette_dualquat *pq;
    float *out_p, *out_n;
    float *triad[3];
    size_t triad_cap;            /* floats per triad array */
    fastskin_pool *pool;
    int min_runs;
    table tb;
    int largest;                 /* the run's largest vertex count: the targets' "in memory" */
    target_table targets;
    double frozen_worst;         /* the largest difference of a frozen kernel from the library */
    bool frozen_agree;           /* every frozen kernel within FROZEN_BOUND of it (check_frozen) */
} bench;

/* The triad over n * bytes_per_vertex bytes, on `threads`: a whole run's timing. */
static timing triad_timing(bench *b, int n, double bytes_per_vertex, int threads)
{
    size_t len = (size_t)((double)n * bytes_per_vertex / 12.0); /* three arrays of 4-byte floats */
    if (len > b->triad_cap)
        len = b->triad_cap;
    triad_job t = {b->triad[0], b->triad[1], b->triad[2], len, threads, b->pool};
    return measure(run_triad, &t, b->min_runs, threads);
}

/* One row timed; false, with out-of-memory in d, when the table cannot take it. */
static bool time_row(bench *b, const char *kernel, const fastskin_job *job, bench_fn fn, void *arg,
                     double bytes_per_vertex, lab_diag *d)
{
    row *r = add_row(&b->tb, d);
    if (!r)
        return false;
    *r = (row){.method = job->method, .influences = job->mesh->influences, .threads = job->threads,
               .vertices = job->mesh->count, .normals = job->normals, .bytes_per_vertex = bytes_per_vertex};
    snprintf(r->kernel, sizeof r->kernel, "%s", kernel);
    r->load_start = load_now();
    r->t = measure(fn, arg, b->min_runs, job->threads);
    r->triad = triad_timing(b, job->mesh->count, bytes_per_vertex, job->threads);
    r->load_end = load_now();
    return true;
}

/* The frozen kernels compute what the library computes: each one's positions (in out_p,
 * from its last timed run) against the scalar level's (frozen_reference, computed once
 * into out_n for the frozen kernels of a method that follow), within twice the bound the
 * tests hold every kernel to against the double reference (2e-5). A difference beyond it
 * is printed and fails the run's self-check (exit 1, nothing written): a timing compared
 * with a kernel that computes something else means nothing. */
#define FROZEN_BOUND 4e-5
static void frozen_reference(bench *b, const packed_mesh *m, skin_method method)
{
    fastskin_job scalar = {m, b->pc, b->pq, JOINTS, method, FASTSKIN_NO_NORMALS, 1, SIMD_SCALAR, b->out_n, NULL, NULL};
    run_fast(&scalar);
}

static void check_frozen(bench *b, const char *kernel, const packed_mesh *m, skin_method method)
{
    double worst = 0.0;
    int at = 0;
    for (int i = 0; i < 3 * m->count; i++) {
        double diff = fabs((double)b->out_p[i] - (double)b->out_n[i]);
        if (!(diff <= worst)) /* a NaN is the worst */
            worst = diff, at = i / 3;
    }
    b->frozen_worst = fmax(b->frozen_worst, worst);
    if (!(worst <= FROZEN_BOUND)) {
        printf("%s, %s, %d vertices: vertex %d differs from the scalar kernel by %.3g (bound %.0e)\n", kernel,
               skin_method_name(method), m->count, at, worst, FROZEN_BOUND);
        b->frozen_agree = false;
    }
}

/* fn(arg) `reps` times: wall seconds per run, and the calling thread's CPU seconds in *cpu. */
static double time_reps(bench_fn fn, void *arg, int reps, double *cpu)
{
    double c0 = timer_thread_seconds(), t0 = timer_seconds();
    for (int i = 0; i < reps; i++)
        fn(arg);
    double wall = (timer_seconds() - t0) / reps;
    *cpu = (timer_thread_seconds() - c0) / reps;
    return wall;
}

/* How long `a` takes over `b`, measured in pairs: after a warm-up of each, a and b run one
 * after the other (in turn a first, then b first), 11 times (once with --smoke), each
 * repeated to last about 2 ms where one run is shorter; the median of the pairs' ratios,
 * with the lowest and the highest. A slow spell of a shared machine lasts longer than a
 * pair and slows both alike, where two medians timed apart each meet their own. */
static void paired(const bench *bn, bench_fn fa, void *a, bench_fn fb, void *b, target *t)
{
    enum { PAIRS = 11 };
    const int pairs = bn->min_runs > 1 ? PAIRS : 1;
    double ratio[PAIRS], cpu_ratio[PAIRS], ca, cb;
    fa(a), fb(b);
    double once = fmin(time_reps(fa, a, 1, &ca), time_reps(fb, b, 1, &cb));
    int reps = once > 0 && once < 2e-3 ? (int)(2e-3 / once) + 1 : 1;
    for (int i = 0; i < pairs; i++) {
        double ta, tb;
        if (i % 2 == 0)
            ta = time_reps(fa, a, reps, &ca), tb = time_reps(fb, b, reps, &cb);
        else
            tb = time_reps(fb, b, reps, &cb), ta = time_reps(fa, a, reps, &ca);
        ratio[i] = ta / tb, cpu_ratio[i] = ca / cb;
    }
    qsort(ratio, (size_t)pairs, sizeof ratio[0], compare_double);
    qsort(cpu_ratio, (size_t)pairs, sizeof cpu_ratio[0], compare_double);
    t->median = ratio[pairs / 2], t->lowest = ratio[0], t->highest = ratio[pairs - 1];
    /* the calling thread's CPU time is the work's only where the work is one thread's */
    t->cpu_median = t->threads == 1 ? cpu_ratio[pairs / 2] : NAN;
    t->cpu_lowest = t->threads == 1 ? cpu_ratio[0] : NAN;
    t->cpu_highest = t->threads == 1 ? cpu_ratio[pairs - 1] : NAN;
}

static void add_target(bench *bn, const char *what, int vertices, int threads, double bound, bool at_least,
                       bench_fn fa, void *a, bench_fn fb, void *b)
{
    if (bn->targets.count == (int)(sizeof bn->targets.rows / sizeof bn->targets.rows[0]))
        abort(); /* the bench asks for a fixed few */
    target *t = &bn->targets.rows[bn->targets.count++];
    *t = (target){.vertices = vertices, .threads = threads, .bound = bound, .at_least = at_least};
    snprintf(t->what, sizeof t->what, "%s", what);
    paired(bn, fa, a, fb, b, t);
}

/* The ratio a target is judged by: the CPU times' on one thread (a busy machine's waits
 * are not the kernel's), the wall times' on more (their threads' CPU time counts waits for
 * each other as work done). */
static double target_ratio(const target *t) { return t->threads == 1 ? t->cpu_median : t->median; }
static bool target_met(const target *t)
{
    return t->at_least ? target_ratio(t) >= t->bound : target_ratio(t) <= t->bound;
}

/* Bytes a pass moves per vertex: what it reads (palette aside: it stays in cache) and the
 * 12 or 24 bytes it writes. */
static double moved_bytes(const packed_mesh *m, fastskin_normals normals)
{
    return (double)packed_mesh_bytes_per_vertex(m, normals != FASTSKIN_NO_NORMALS) +
           (normals != FASTSKIN_NO_NORMALS ? 24 : 12);
}

/* The targets that need the K = 4 mesh m (44-byte vertex), at the in-cache size and the
 * largest: the kernel against the triad over the same bytes, against the kernel it
 * replaced, with raw normals against without, and DQS against LBS. */
static void mesh_targets(bench *b, const packed_mesh *m)
{
#if defined(__x86_64__)
    const int n = m->count;
    const simd_level best = simd_best_level(); /* avx2, or avx512 where the CPU has it */
    if (best < SIMD_AVX2 || (n != 10000 && n != b->largest))
        return;
    fastskin_job lbs = {m, b->pc, b->pq, JOINTS, SKIN_LBS, FASTSKIN_NO_NORMALS, 1, best, b->out_p, b->out_n, b->pool};
    fastskin_job reloads = lbs;
    char what[96];
    snprintf(what, sizeof what, "%s over avx2-reloads (the previous avx2 kernel)", simd_level_name(best));
    /* 0.6x ozz-animation's SkinningJob: avx2-reloads took 3.70 ns a vertex at 4e6 where ozz
     * took 3.49 on the AMD EPYC the issue measured, so 0.6 x 3.49 / 3.70 */
    add_target(b, what, n, 1, 0.57, false, run_fast, &lbs, run_reloads, &reloads);
    if (n != b->largest)
        return;
    for (int threads = 1; threads <= 2; threads++) {
        fastskin_job job = lbs;
        job.threads = threads;
        double bytes = moved_bytes(m, FASTSKIN_NO_NORMALS);
        size_t len = (size_t)((double)n * bytes / 12.0);
        triad_job triad = {b->triad[0], b->triad[1], b->triad[2], len < b->triad_cap ? len : b->triad_cap, threads,
                           b->pool};
        add_target(b, "the triad's time over the kernel's (the same bytes)", n, threads, 0.8, true, run_triad, &triad, run_fast, &job);
    }
    fastskin_job raw = lbs, dqs = lbs;
    raw.normals = FASTSKIN_RAW_NORMALS;
    dqs.method = SKIN_DQS;
    add_target(b, "raw normals over positions only", n, 1, 1.25, false, run_fast, &raw, run_fast, &lbs);
    add_target(b, "DQS over LBS", n, 1, 1.6, false, run_fast, &dqs, run_fast, &lbs);
#else
    (void)b, (void)m; /* the targets are the x86 kernels' */
#endif
}

/* The default level (fastskin_default_level) against avx2 on one case, where the two
 * differ: never slower (the bound 1.0), on `mesh` with its LBS `palette`. */
static void default_target(bench *b, const char *what, const packed_mesh *mesh, const palette_columns *palette,
                           skin_method method, fastskin_normals normals)
{
#if defined(__x86_64__)
    const simd_level level = fastskin_default_level(method, normals, mesh);
    if (level == SIMD_AVX2 || !simd_level_available(SIMD_AVX2) ||
        (mesh->count != 10000 && mesh->count != 1000000 && mesh->count != b->largest))
        return;
    fastskin_job chosen = {mesh, palette, b->pq, JOINTS, method, normals, 1, level, b->out_p, b->out_n, NULL};
    fastskin_job avx2 = chosen;
    avx2.level = SIMD_AVX2;
    char name[96];
    snprintf(name, sizeof name, "default level (%s) over avx2: %s", simd_level_name(level), what);
    add_target(b, name, mesh->count, 1, 1.0, false, run_fast, &chosen, run_fast, &avx2);
#else
    (void)b, (void)what, (void)mesh, (void)palette, (void)method, (void)normals;
#endif
}

/* Whether a level gets the two-thread rows and the compressed vertex's: avx2 and avx512
 * where the CPU has them, else the best level there is. */
static bool wide_level(simd_level level)
{
    return simd_level_available(level) && (level >= SIMD_AVX2 || simd_best_level() == level);
}

/* All kernels for one mesh size and K: every level on one thread, the wide levels
 * (wide_level) on two, for each normals choice; at K = 4 also the reference kernel and
 * the compressed vertex. */
static lab_error bench_mesh(bench *b, const packed_mesh *m, lab_diag *d)
{
    simd_level best = simd_best_level();
    for (int normals = FASTSKIN_NO_NORMALS; normals <= FASTSKIN_RAW_NORMALS; normals++)
        for (int method = 0; method < 2; method++) {
            if (normals == FASTSKIN_RAW_NORMALS && (method == 1 || m->influences != 4))
                continue; /* DQS keeps the length anyway; raw normals are measured at K = 4 */
            for (int variant = 0; variant < 2 * SIMD_LEVEL_COUNT; variant++) {
                simd_level level = (simd_level)(variant % SIMD_LEVEL_COUNT);
                int threads = 1 + variant / SIMD_LEVEL_COUNT;
                if (!simd_level_available(level) || (threads == 2 && !wide_level(level)))
                    continue;
                fastskin_job job = {m, b->pc, b->pq, JOINTS, method ? SKIN_DQS : SKIN_LBS, (fastskin_normals)normals,
                                    threads, level, b->out_p, b->out_n, b->pool};
                char name[32];
                snprintf(name, sizeof name, "%s%s", simd_level_name(level), threads > 1 ? "-2t" : "");
                if (!time_row(b, name, &job, run_fast, &job, moved_bytes(m, job.normals), d))
                    return d->code;
            }
#if defined(__x86_64__)
            if (m->influences == 4 && method == 0 && normals != FASTSKIN_RAW_NORMALS &&
                simd_level_available(SIMD_AVX2)) {
                reference_job ref = {m, b->pm, normals != FASTSKIN_NO_NORMALS, b->out_p, b->out_n};
                fastskin_job as = {m, NULL, NULL, JOINTS, SKIN_LBS, (fastskin_normals)normals, 1, SIMD_AVX2,
                                   NULL, NULL, NULL};
                if (normals == FASTSKIN_NO_NORMALS) /* in out_n, which no positions-only row writes */
                    frozen_reference(b, m, SKIN_LBS);
                if (!time_row(b, "avx2-rows", &as, run_reference, &ref, moved_bytes(m, as.normals), d))
                    return d->code;
                if (normals == FASTSKIN_NO_NORMALS) {
                    check_frozen(b, "avx2-rows", m, SKIN_LBS);
                    fastskin_job loads = {m, b->pc, NULL, JOINTS, SKIN_LBS, FASTSKIN_NO_NORMALS, 1, SIMD_AVX2,
                                          b->out_p, NULL, NULL};
                    if (!time_row(b, "avx2-reloads", &loads, run_reloads, &loads, moved_bytes(m, loads.normals), d))
                        return d->code;
                    check_frozen(b, "avx2-reloads", m, SKIN_LBS);
                    if (!time_row(b, "avx2-loads-only", &loads, run_loads_only, &loads, moved_bytes(m, loads.normals),
                                  d))
                        return d->code; /* it computes nothing: nothing to check */
                }
            }
            if (m->influences == 4 && method == 1 && normals == FASTSKIN_NO_NORMALS &&
                simd_level_available(SIMD_AVX2)) {
                fastskin_job dqs = {m, NULL, b->pq, JOINTS, SKIN_DQS, FASTSKIN_NO_NORMALS, 1, SIMD_AVX2, b->out_p,
                                    NULL, NULL};
                if (!time_row(b, "dqs-avx2-per-vertex", &dqs, run_dqs_per_vertex, &dqs, moved_bytes(m, dqs.normals),
                              d))
                    return d->code;
                frozen_reference(b, m, SKIN_DQS);
                check_frozen(b, "dqs-avx2-per-vertex", m, SKIN_DQS);
            }
#endif
        }
    if (m->influences != 4)
        return LAB_OK;
    mesh_targets(b, m);
    default_target(b, "LBS positions", m, b->pc, SKIN_LBS, FASTSKIN_NO_NORMALS);
    default_target(b, "LBS raw normals", m, b->pc, SKIN_LBS, FASTSKIN_RAW_NORMALS);
    default_target(b, "LBS unit normals", m, b->pc, SKIN_LBS, FASTSKIN_UNIT_NORMALS);
    default_target(b, "DQS positions", m, b->pc, SKIN_DQS, FASTSKIN_NO_NORMALS);
    static const struct { const char *name; packed_joint_format joints; packed_weight_format weights; bool q; } formats[] = {
        {"u16-unorm16", PACKED_JOINT_U16, PACKED_WEIGHT_UNORM16, false},
        {"u8-unorm8", PACKED_JOINT_U8, PACKED_WEIGHT_UNORM8, false},
        {"u8-unorm8-q16", PACKED_JOINT_U8, PACKED_WEIGHT_UNORM8, true},
    };
    for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
        packed_mesh c;
        lab_error e = packed_mesh_compress(m, formats[f].joints, formats[f].weights, formats[f].q, &c, NULL, d);
        if (e != LAB_OK)
            return e; /* 64 joints fit 8 bits: out of memory */
        palette_columns folded[JOINTS];
        palette_columns_dequantize(b->pc, JOINTS, &c, folded);
        for (int variant = 0; variant < 2 * SIMD_LEVEL_COUNT; variant++) {
            simd_level level = (simd_level)(variant % SIMD_LEVEL_COUNT);
            int threads = 1 + variant / SIMD_LEVEL_COUNT;
            if (!wide_level(level))
                continue;
            fastskin_job job = {&c, formats[f].q ? folded : b->pc, NULL, JOINTS, SKIN_LBS, FASTSKIN_NO_NORMALS,
                                threads, level, b->out_p, NULL, b->pool};
            char name[32];
            snprintf(name, sizeof name, "%s-%s%s", simd_level_name(level), formats[f].name, threads > 1 ? "-2t" : "");
            if (!time_row(b, name, &job, run_fast, &job, moved_bytes(&c, FASTSKIN_NO_NORMALS), d)) {
                packed_mesh_free(&c);
                return d->code;
            }
        }
        if (m->count == b->largest && best >= SIMD_AVX2 && formats[f].joints == PACKED_JOINT_U8 && !formats[f].q) {
            fastskin_job small = {&c, b->pc, NULL, JOINTS, SKIN_LBS, FASTSKIN_NO_NORMALS, 1, best, b->out_p, NULL, NULL};
            fastskin_job full = small;
            full.mesh = m;
            add_target(b, "u8 joints + UNORM8 weights over the 44-byte vertex", m->count, 1, 0.8, false, run_fast,
                       &small, run_fast, &full);
        }
        char what[48];
        snprintf(what, sizeof what, "LBS %s", formats[f].name);
        default_target(b, what, &c, formats[f].q ? folded : b->pc, SKIN_LBS, FASTSKIN_NO_NORMALS);
        packed_mesh_free(&c);
    }
    return LAB_OK;
}

static lab_error bench_chapter(table *tb, int n, const mat4 *m64, int min_runs, lab_diag *d)
{
    vec3 *bind = malloc(sizeof *bind * (size_t)n), *out = malloc(sizeof *out * (size_t)n);
    skin_influences in;
    lab_error e = skin_influences_init(&in, n, 2, d);
    if (e == LAB_OK && (!bind || !out))
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "chapter path", "%d vertices", n);
    for (int v = 0; e == LAB_OK && v < n; v++) {
        double x = 2 * uniform() - 1, y = 2 * uniform() - 1, z = 2 * uniform() - 1; /* in this order */
        bind[v] = vec3_make(x, y, z);
        double w = 0.5 + 0.5 * uniform();
        in.joint[2 * v] = (int)(uniform() * JOINTS), in.weight[2 * v] = w;
        in.joint[2 * v + 1] = (int)(uniform() * JOINTS), in.weight[2 * v + 1] = 1.0 - w;
    }
    for (int method = 0; e == LAB_OK && method < 2; method++) {
        chapter_job job = {bind, &in, m64, {.method = method ? SKIN_DQS : SKIN_LBS}, out, d, LAB_OK};
        row *r = add_row(tb, d);
        if (!r) {
            e = d->code;
            break;
        }
        *r = (row){.method = job.blend.method, .influences = 2, .normals = FASTSKIN_NO_NORMALS, .threads = 1,
                   .vertices = n, .bytes_per_vertex = sizeof(vec3) * 2 + 2 * (sizeof(int) + sizeof(double))};
        snprintf(r->kernel, sizeof r->kernel, "chapter-double");
        r->load_start = load_now();
        r->t = measure(run_chapter, &job, min_runs, 1);
        r->load_end = load_now();
        e = job.e;
    }
    free(bind), free(out);
    skin_influences_free(&in);
    return e;
}

/* ---- the compressed vertex's cost in accuracy ---------------------------------------------- */

/* For one rig (packed K = 4, with its float palette): each compressed format's bytes per
 * vertex, largest weight error, largest bind-position error and largest skinned-position
 * error against the 44-byte vertex, all through the scalar kernel. */
static lab_error compression_rows(const char *rig, const packed_mesh *m, const palette_columns *pc, int joints,
                                  bytes *csv, lab_diag *d)
{
    static const struct { const char *name; packed_joint_format joints; packed_weight_format weights; bool q; } formats[] = {
        {"u16-float (44-byte)", PACKED_JOINT_U16, PACKED_WEIGHT_FLOAT, false},
        {"u16-unorm16", PACKED_JOINT_U16, PACKED_WEIGHT_UNORM16, false},
        {"u8-unorm16", PACKED_JOINT_U8, PACKED_WEIGHT_UNORM16, false},
        {"u8-unorm8", PACKED_JOINT_U8, PACKED_WEIGHT_UNORM8, false},
        {"u8-unorm8-q16", PACKED_JOINT_U8, PACKED_WEIGHT_UNORM8, true},
    };
    float *exact = malloc(12 * (size_t)m->count + 1), *got = malloc(12 * (size_t)m->count + 1);
    palette_columns *folded = aligned_alloc(_Alignof(palette_columns), sizeof *folded * (size_t)joints);
    lab_error e = exact && got && folded ? LAB_OK : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "compression", "%d vertices", m->count);
    fastskin_job job = {m, pc, NULL, joints, SKIN_LBS, FASTSKIN_NO_NORMALS, 1, SIMD_SCALAR, exact, NULL, NULL};
    if (e == LAB_OK)
        e = fastskin_run(&job, d);
    for (size_t f = 0; e == LAB_OK && f < sizeof formats / sizeof formats[0]; f++) {
        packed_mesh c;
        packed_compress_report r;
        e = packed_mesh_compress(m, formats[f].joints, formats[f].weights, formats[f].q, &c, &r, d);
        if (e != LAB_OK)
            break;
        palette_columns_dequantize(pc, joints, &c, folded);
        fastskin_job cj = {&c, formats[f].q ? folded : pc, NULL, joints, SKIN_LBS, FASTSKIN_NO_NORMALS, 1, SIMD_SCALAR,
                           got, NULL, NULL};
        e = fastskin_run(&cj, d);
        double worst = 0.0;
        for (int v = 0; e == LAB_OK && v < m->count; v++) {
            double dx = got[3 * v] - exact[3 * v], dy = got[3 * v + 1] - exact[3 * v + 1], dz = got[3 * v + 2] - exact[3 * v + 2];
            worst = fmax(worst, sqrt(dx * dx + dy * dy + dz * dz));
        }
        size_t bytes_per_vertex = packed_mesh_bytes_per_vertex(&c, 0);
        printf("  %-8s %-20s %3zu B/vertex (positions only, in)  weight error %.3g  bind position error %.3g  "
               "skinned position error %.3g\n",
               rig, formats[f].name, bytes_per_vertex, r.largest_weight_error, r.largest_position_error, worst);
        bytes_printf(csv, "%s,%s,%zu,", rig, formats[f].name, bytes_per_vertex);
        const double v3[3] = {r.largest_weight_error, r.largest_position_error, worst};
        csv_row_or_empty(csv, v3, 3);
        packed_mesh_free(&c);
    }
    free(exact), free(got), free(folded);
    return e;
}

/* The chapter's cylinder at a quarter twist and the benchmark's random 64-joint rig. */
static lab_error compression_table(const packed_mesh *random_rig, const palette_columns *random_pc, bytes *csv,
                                   lab_diag *d)
{
    printf("\nThe compressed vertex (K = 4), against the 44-byte vertex:\n");
    bytes_printf(csv, "rig,format,bytes_per_vertex,largest_weight_error,largest_bind_position_error,"
                      "largest_skinned_position_error\n");
    rig30_rig rig;
    lab_error e = rig30_rig_build(&rig, RIG30_TWIST, NULL, d);
    if (e != LAB_OK)
        return e;
    rig30_pose pose;
    packed_mesh m = {0};
    e = rig30_pose_alloc(&rig, &pose, d);
    if (e == LAB_OK)
        e = rig30_pose_at(&rig, 0.5 * 3.14159265358979323846, (skin_blend){.method = SKIN_LBS}, &pose, d);
    if (e == LAB_OK)
        e = packed_mesh_build(rig.bind.vertices, NULL, &rig.influences, 4, &m, NULL, d);
    if (e == LAB_OK) {
        palette_matrix pm[RIG30_JOINTS];
        palette_columns pc[RIG30_JOINTS];
        palette_from_mat4(pose.palette, RIG30_JOINTS, NULL, pm);
        palette_columns_from_matrices(pm, RIG30_JOINTS, pc);
        e = compression_rows("cylinder", &m, pc, RIG30_JOINTS, csv, d);
    }
    if (e == LAB_OK)
        e = compression_rows("random64", random_rig, random_pc, JOINTS, csv, d);
    packed_mesh_free(&m);
    rig30_pose_free(&pose);
    rig30_rig_free(&rig);
    return e;
}

/* ---- output ------------------------------------------------------------------------------- */

/* The caches of CPU 0 as Linux describes them (/sys/devices/system/cpu/cpu0/cache/indexN:
 * level, type, size such as "32768K"), one row each: which working sets the triad and the
 * kernels measure in a cache and which in memory. No row where the kernel gives none. */
static void machine_csv(bytes *csv)
{
    bytes_printf(csv, "level,type,bytes\n");
    for (int i = 0; i < 16; i++) {
        char path[96], level[32] = "", type[32] = "", size[32] = "";
        const char *field[3] = {"level", "type", "size"};
        char *value[3] = {level, type, size};
        bool ok = true;
        for (int k = 0; ok && k < 3; k++) {
            snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/%s", i, field[k]);
            FILE *f = fopen(path, "r");
            ok = f && fscanf(f, "%31s", value[k]) == 1;
            if (f)
                fclose(f);
        }
        if (!ok)
            break;
        char *unit = NULL;
        long amount = strtol(size, &unit, 10);
        amount *= *unit == 'K' ? 1024L : *unit == 'M' ? 1024L * 1024 : 1;
        bytes_printf(csv, "%s,%s,%ld\n", level, type, amount);
    }
}

/* The CPU the run measured (simd_cpu_running, its instruction sets as the kernels test them)
 * and the default level fastskin_default_level gives each vertex format on it, so that every
 * ratio the results state is tied to the CPU that measured it. key,value rows. */
static void cpu_csv(bytes *csv)
{
    simd_cpu cpu = simd_cpu_running();
    for (char *c = cpu.brand; *c; c++) /* one CSV field, and no trailing blanks */
        *c = *c == ',' ? ' ' : *c;
    for (size_t n = strlen(cpu.brand); n > 0 && cpu.brand[n - 1] == ' '; n--)
        cpu.brand[n - 1] = '\0';
    bytes_printf(csv, "key,value\nvendor,%s\nfamily,%d\nmodel,%d\nbrand,%s\nlevels,", cpu.vendor[0] ? cpu.vendor : "unknown",
                 cpu.family, cpu.model, cpu.brand[0] ? cpu.brand : "unknown");
    for (int l = 0; l < SIMD_LEVEL_COUNT; l++)
        if (simd_level_available((simd_level)l))
            bytes_printf(csv, "%s%s", l ? " " : "", simd_level_name((simd_level)l));
    bytes_printf(csv, "\nflags,");
#if defined(__x86_64__)
    const bool has[] = {__builtin_cpu_supports("sse2"),     __builtin_cpu_supports("avx"),
                        __builtin_cpu_supports("avx2"),     __builtin_cpu_supports("fma"),
                        __builtin_cpu_supports("avx512f"),  __builtin_cpu_supports("avx512vl"),
                        __builtin_cpu_supports("avx512bw"), __builtin_cpu_supports("avx512dq")};
    static const char *const flags[] = {"sse2", "avx", "avx2", "fma", "avx512f", "avx512vl", "avx512bw", "avx512dq"};
    for (size_t f = 0, first = 1; f < sizeof flags / sizeof flags[0]; f++)
        if (has[f])
            bytes_printf(csv, "%s%s", first ? "" : " ", flags[f]), first = 0;
#endif
    packed_mesh compressed = {0};
    compressed.joint_format = PACKED_JOINT_U8, compressed.weight_format = PACKED_WEIGHT_UNORM8;
    bytes_printf(csv, "\ndefault_level_44_byte_vertex,%s\ndefault_level_compressed_vertex,%s\n",
                 simd_level_name(fastskin_default_level(SKIN_LBS, FASTSKIN_NO_NORMALS, NULL)),
                 simd_level_name(fastskin_default_level(SKIN_LBS, FASTSKIN_NO_NORMALS, &compressed)));
}

static void write_csv(const table *tb, bytes *csv)
{
    bytes_printf(csv, "kernel,method,influences,normals,threads,vertices,ns_per_vertex,ns_fastest,"
                      "ns_slowest,vertices_per_s,bytes_per_vertex,gb_per_s,triad_gb_per_s,"
                      "triad_fraction,speedup_vs_scalar,speedup_vs_avx2_rows,speedup_vs_chapter_double,"
                      "cpu_ns_per_vertex,triad_cpu_gb_per_s,load_start,load_end,busy\n");
    for (int i = 0; i < tb->count; i++) {
        const row *r = &tb->rows[i];
        const row *scalar = find(tb, "scalar", r->method, r->influences, r->normals, r->vertices);
        const row *rows = find(tb, "avx2-rows", r->method, r->influences, r->normals, r->vertices);
        const row *chapter = find(tb, "chapter-double", r->method, 2, FASTSKIN_NO_NORMALS, r->vertices);
        const double f[] = {ns(r), 1e9 * r->t.fastest / r->vertices, 1e9 * r->t.slowest / r->vertices,
                            1e9 / ns(r), r->bytes_per_vertex, gbps(r), triad_gbps(r), gbps(r) / triad_gbps(r),
                            scalar ? ns(scalar) / ns(r) : NAN, rows ? ns(rows) / ns(r) : NAN,
                            chapter && r->influences == 2 && !r->normals ? ns(chapter) / ns(r) : NAN,
                            cpu_ns(r), triad_cpu_gbps(r), r->load_start, r->load_end};
        bytes_printf(csv, "%s,%s,%d,%s,%d,%d", r->kernel, skin_method_name(r->method), r->influences,
                     normals_names[r->normals], r->threads, r->vertices);
        for (size_t k = 0; k < sizeof f / sizeof f[0]; k++) { /* empty: no baseline for this row */
            bytes_append(csv, ",", 1);
            csv_number_or_empty(csv, f[k]);
        }
        bytes_printf(csv, ",%s\n", row_busy(r) ? "busy" : "");
    }
}

static lab_error draw_plot(const table *tb, const int *sizes, int size_count, canvas *c, lab_diag *d)
{
    static const struct { const char *kernel, *label; skin_method method; int k; rgb color; int dash; } curves[] = {
        {"chapter-double", "LBS, the chapter's doubles, 2 joints", SKIN_LBS, 2, {120, 120, 120}, 0},
        {"scalar", "LBS, plain C loop, 4 joints", SKIN_LBS, 4, {0, 114, 178}, 0},
        {"sse2", "LBS, SSE2, 4 joints", SKIN_LBS, 4, {0, 158, 115}, 0},
        {"avx2-rows", "LBS, AVX2 on matrix rows", SKIN_LBS, 4, {230, 159, 0}, 8},
        {"avx2", "LBS, AVX2, 4 joints", SKIN_LBS, 4, {213, 94, 0}, 0},
        {"avx2-2t", "LBS, AVX2, 2 threads", SKIN_LBS, 4, {204, 121, 167}, 0},
        {"avx2-u8-unorm8", "LBS, AVX2, 19-byte vertex", SKIN_LBS, 4, {86, 180, 233}, 0},
        {"avx2", "DQS, AVX2, 4 joints", SKIN_DQS, 4, {213, 94, 0}, 4},
        {"avx512", "LBS, AVX-512, 4 joints", SKIN_LBS, 4, {0, 0, 0}, 0}, /* where the CPU has it */
        {"avx512", "DQS, AVX-512, 4 joints", SKIN_DQS, 4, {0, 0, 0}, 4},
    };
    enum { CURVES = sizeof curves / sizeof curves[0] };
    double x[CURVES][PLOT_SIZES], y[CURVES][PLOT_SIZES], ymax = 0.0, ymin = INFINITY;
    plot_series s[CURVES];
    char labels[CURVES][48];
    int used = 0;
    for (int c2 = 0; c2 < CURVES; c2++) {
        int n = 0;
        for (int i = 0; i < size_count; i++) {
            const row *r = find(tb, curves[c2].kernel, curves[c2].method, curves[c2].k, FASTSKIN_NO_NORMALS, sizes[i]);
            if (r) {
                x[used][n] = sizes[i];
                y[used][n] = ns(r);
                ymax = fmax(ymax, y[used][n]), ymin = fmin(ymin, y[used][n]);
                n++;
            }
        }
        if (n == 0)
            continue;
        snprintf(labels[used], sizeof labels[0], "%s", curves[c2].label);
        s[used] = (plot_series){x[used], y[used], n, curves[c2].color, curves[c2].dash, 2, labels[used], 0, 0};
        used++;
    }
    /* a log y axis from the power of ten below the fastest row to the one above the slowest:
     * a kernel ten times faster than another is as far below it whatever their speeds */
    if (!(ymax > 0))
        ymin = 1, ymax = 10;
    plot_spec spec = {"CPU skinning: ns per vertex (median of the runs), positions only", "vertices",
                      "ns/vertex", sizes[0], sizes[size_count - 1], 10, pow(10.0, floor(log10(ymin))),
                      pow(10.0, ceil(log10(ymax))), 0, s, used, true, true};
    return plot_draw(c, 1300, 560, &spec, d);
}

/* --plot-from: the plot of an earlier run, from its skinning.csv (the committed run's plot
 * is redrawn this way when only the drawing changes, never with new timings). The rows'
 * first seven fields are kernel, method, influences, normals, threads, vertices and
 * ns_per_vertex. Fills *tb and the distinct vertex counts, ascending. */
static lab_error read_csv(const char *path, table *tb, int *sizes, int *size_count, lab_diag *d)
{
    bytes text = {0};
    bytes_read_result got = bytes_read_file(path, 64u << 20, &text); /* NUL-terminated */
    if (got != BYTES_READ_OK) {
        bytes_free(&text);
        return diag_fail(d, got == BYTES_READ_OUT_OF_MEMORY ? LAB_ERR_OUT_OF_MEMORY : LAB_ERR_INPUT_FILE, path,
                         "%s%s%s", bytes_read_message(got), got == BYTES_READ_CANNOT_OPEN ? ": " : "",
                         got == BYTES_READ_CANNOT_OPEN ? strerror(errno) : "");
    }
    lab_error e = LAB_OK;
    *size_count = 0;
    int line_no = 0;
    for (char *line = strtok((char *)text.data, "\n"); e == LAB_OK && line; line = strtok(NULL, "\n")) {
        if (line_no++ == 0)
            continue; /* the header */
        char kernel[32], method[8], normals[8];
        int k, threads, vertices;
        double ns_per_vertex;
        if (sscanf(line, "%31[^,],%7[^,],%d,%7[^,],%d,%d,%lf", kernel, method, &k, normals, &threads, &vertices,
                   &ns_per_vertex) != 7 || vertices <= 0) {
            e = diag_fail(d, LAB_ERR_INPUT_FILE, path, "line %d: not a row of skinning.csv", line_no);
            break;
        }
        row *r = add_row(tb, d);
        if (!r) {
            e = d->code;
            break;
        }
        *r = (row){.method = strcmp(method, "DQS") ? SKIN_LBS : SKIN_DQS, .influences = k, .threads = threads,
                   .vertices = vertices, .t = {ns_per_vertex * vertices * 1e-9, 0, 0, 0}};
        snprintf(r->kernel, sizeof r->kernel, "%s", kernel);
        for (int n = 0; n < 3; n++)
            r->normals = strcmp(normals, normals_names[n]) ? r->normals : (fastskin_normals)n;
        bool seen = false;
        for (int i = 0; i < *size_count; i++)
            seen |= sizes[i] == vertices;
        if (!seen && *size_count == PLOT_SIZES) {
            e = diag_fail(d, LAB_ERR_LIMIT, path, "line %d: vertex count %d, one more than the plot's %d", line_no,
                          vertices, PLOT_SIZES);
            break;
        }
        if (!seen)
            sizes[(*size_count)++] = vertices;
    }
    for (int i = 1; i < *size_count; i++) /* ascending: insertion sort of at most PLOT_SIZES */
        for (int j = i; j > 0 && sizes[j] < sizes[j - 1]; j--) {
            int t = sizes[j];
            sizes[j] = sizes[j - 1], sizes[j - 1] = t;
        }
    bytes_free(&text);
    if (e == LAB_OK && *size_count < 2)
        e = diag_fail(d, LAB_ERR_INPUT_FILE, path, "%d vertex counts: a plot needs two", *size_count);
    return e;
}

static void print_table(const table *tb)
{
    printf("%-24s %-4s %2s %-4s %2s %9s %8s %8s %8s %6s %7s %7s %6s %6s\n", "kernel", "meth", "K", "norm",
           "t", "vertices", "ns/vert", "fastest", "slowest", "B/vert", "GB/s", "triad", "%triad", "x rows");
    for (int i = 0; i < tb->count; i++) {
        const row *r = &tb->rows[i];
        const row *rows = find(tb, "avx2-rows", r->method, r->influences, r->normals, r->vertices);
        printf("%-24s %-4s %2d %-4s %2d %9d %8.2f %8.2f %8.2f %6.0f %7.2f %7.2f %5.0f%% %6.2f\n", r->kernel,
               skin_method_name(r->method), r->influences, normals_names[r->normals], r->threads, r->vertices, ns(r),
               1e9 * r->t.fastest / r->vertices, 1e9 * r->t.slowest / r->vertices, r->bytes_per_vertex, gbps(r),
               triad_gbps(r), 100.0 * gbps(r) / triad_gbps(r), rows ? ns(rows) / ns(r) : NAN);
    }
}

/* The targets, paired: what, where, the ratio (median, lowest, highest of the pairs) and
 * the bound. Printed with a verdict; the CSV keeps the numbers and says whether each met. */
static void print_targets(const target_table *tt)
{
    printf("\nTargets, each a ratio of two times measured in pairs (median of the pairs, lowest-highest;\n"
           "judged by the CPU times' ratio on one thread, the wall times' on more):\n");
    for (int i = 0; i < tt->count; i++) {
        const target *t = &tt->rows[i];
        printf("  %-64s %8d vertices, %d thread%s: wall %.3f (%.3f-%.3f), CPU %.3f (%.3f-%.3f), target %s %.2f: %s\n",
               t->what, t->vertices, t->threads, t->threads > 1 ? "s" : "", t->median, t->lowest, t->highest,
               t->cpu_median, t->cpu_lowest, t->cpu_highest, t->at_least ? ">=" : "<=", t->bound,
               target_met(t) ? "met" : "MISSED");
    }
}

static void write_targets(const target_table *tt, bytes *csv)
{
    /* no field holds a comma; cpu_* empty where the target runs on more than one thread */
    bytes_printf(csv, "target,vertices,threads,ratio,lowest,highest,bound,met,cpu_ratio,cpu_lowest,cpu_highest,judged_by\n");
    for (int i = 0; i < tt->count; i++) {
        const target *t = &tt->rows[i];
        bytes_printf(csv, "%s,%d,%d,%.4f,%.4f,%.4f,%s %.2f,%s,", t->what, t->vertices, t->threads, t->median,
                     t->lowest, t->highest, t->at_least ? ">=" : "<=", t->bound, target_met(t) ? "yes" : "no");
        const double cpu[3] = {t->cpu_median, t->cpu_lowest, t->cpu_highest};
        for (int k = 0; k < 3; k++) {
            csv_number_or_empty(csv, cpu[k]);
            bytes_append(csv, ",", 1);
        }
        bytes_printf(csv, "%s\n", t->threads == 1 ? "cpu" : "wall");
    }
}

int main(int argc, char **argv)
{
    bool smoke = false;
    const char *outdir = NULL, *plot_from = NULL;
    const cli_option options[] = {
        {"--smoke", CLI_FLAG, &smoke, .help = "two small sizes, one run each: checks that the bench works"},
        {"--plot-from", CLI_STRING, &plot_from, .value_name = "CSV",
         .help = "time nothing: draw skinning.png from an earlier run's skinning.csv"},
    };
    const cli_program program = {LAB, "Times CPU skinning on this machine (make bench).", options, CLI_COUNT(options),
                                 {"OUTDIR"}, 1, NULL};
    int code = cli_start(&program, argc, argv, &outdir);
    if (code != CLI_RUN)
        return code;
    lab_diag d = {0};
    if (plot_from) { /* the plot alone, from the rows of a run */
        table earlier = {0};
        int plot_sizes[PLOT_SIZES], plot_count = 0;
        output_batch batch = {0};
        canvas plot = {0};
        lab_error e = read_csv(plot_from, &earlier, plot_sizes, &plot_count, &d);
        if (e == LAB_OK)
            e = draw_plot(&earlier, plot_sizes, plot_count, &plot, &d);
        if (e == LAB_OK)
            e = output_batch_add_image(&batch, "skinning.png", &plot, &d);
        canvas_free(&plot);
        free(earlier.rows);
        if (e != LAB_OK) { /* nothing is written: the contract's exit code for the error */
            output_batch_free(&batch);
            return cli_fail(LAB, &d, cli_exit_code(e));
        }
        return cli_finish(LAB, &batch, e, &d, true, outdir);
    }
    const int full[] = {1000, 10000, 100000, 1000000, 4000000}, tiny[] = {1000, 10000};
    const int *sizes = smoke ? tiny : full;
    int size_count = smoke ? 2 : 5;
    palette_matrix pm[JOINTS];
    palette_columns pc[JOINTS];
    palette_dualquat pq[JOINTS];
    mat4 m64[JOINTS];
    dualquat q64[JOINTS];
    make_palette(pm, pq, m64, q64);
    palette_columns_from_matrices(pm, JOINTS, pc);
    const int largest = sizes[size_count - 1];
    bench b = {.pm = pm, .pc = pc, .pq = pq, .out_p = malloc(12 * (size_t)largest),
               .out_n = malloc(12 * (size_t)largest), .triad_cap = (size_t)largest * 68 / 12 + 8,
               .min_runs = smoke ? 1 : 5, .largest = largest, .frozen_agree = true};
    for (int i = 0; i < 3; i++) { /* every page written before timing: never the shared zero page */
        if ((b.triad[i] = malloc(b.triad_cap * sizeof(float))) == NULL) {
            diag_fail(&d, LAB_ERR_OUT_OF_MEMORY, "triad", "%zu floats", b.triad_cap);
            return cli_fail(LAB, &d, cli_exit_code(d.code));
        }
        for (size_t k = 0; k < b.triad_cap; k++)
            b.triad[i][k] = (float)(k % 1024) * 0.25f + (float)i;
    }
    if (!b.out_p || !b.out_n)
        diag_fail(&d, LAB_ERR_OUT_OF_MEMORY, "skinned vertices", "%d", largest);
    else
        fastskin_pool_create(1, &b.pool, &d);
    if (d.code != LAB_OK)
        return cli_fail(LAB, &d, cli_exit_code(d.code));
    packed_mesh random_rig = {0};
    for (int s = 0; s < size_count; s++) {
        for (int ki = 0; ki < INFLUENCE_COUNTS; ki++) {
            if (sizes[s] > 100000 && influence_counts[ki] != 4)
                continue; /* past 1e5 vertices every K but 4 repeats what 1e5 shows, at minutes of cost */
            packed_mesh m;
            if (!make_mesh(sizes[s], influence_counts[ki], &m)) {
                packed_mesh_free(&m);
                diag_fail(&d, LAB_ERR_OUT_OF_MEMORY, "benchmark mesh", "%d vertices, %d influences", sizes[s],
                          influence_counts[ki]);
                return cli_fail(LAB, &d, cli_exit_code(d.code));
            }
            if (bench_mesh(&b, &m, &d) != LAB_OK)
                return cli_fail(LAB, &d, cli_exit_code(d.code));
            if (sizes[s] == 10000 && influence_counts[ki] == 4)
                random_rig = m; /* kept for the accuracy table */
            else
                packed_mesh_free(&m);
        }
        if (bench_chapter(&b.tb, sizes[s], m64, b.min_runs, &d) != LAB_OK)
            return cli_fail(LAB, &d, cli_exit_code(d.code));
        fprintf(stderr, LAB ": %d vertices done\n", sizes[s]);
    }
    print_table(&b.tb);
    print_targets(&b.targets);
    printf("\nThe frozen kernels against the scalar kernel (positions): largest difference %.3g, bound %.0e: %s\n",
           b.frozen_worst, FROZEN_BOUND, b.frozen_agree ? "agree" : "DIFFER");
    output_batch batch = {0};
    bytes csv = {0}, accuracy = {0}, machine = {0}, targets = {0}, cpu = {0};
    canvas plot = {0};
    write_csv(&b.tb, &csv);
    write_targets(&b.targets, &targets);
    machine_csv(&machine);
    cpu_csv(&cpu);
    lab_error e = compression_table(&random_rig, pc, &accuracy, &d);
    if (e == LAB_OK)
        e = output_batch_add(&batch, "skinning.csv", &csv, &d);
    if (e == LAB_OK)
        e = output_batch_add(&batch, "compression.csv", &accuracy, &d);
    if (e == LAB_OK)
        e = output_batch_add(&batch, "machine.csv", &machine, &d);
    if (e == LAB_OK)
        e = output_batch_add(&batch, "cpu.csv", &cpu, &d);
    if (e == LAB_OK)
        e = output_batch_add(&batch, "targets.csv", &targets, &d);
    if (e == LAB_OK)
        e = draw_plot(&b.tb, sizes, size_count, &plot, &d);
    if (e == LAB_OK)
        e = output_batch_add_image(&batch, "skinning.png", &plot, &d);
    bytes_free(&csv), bytes_free(&accuracy), bytes_free(&machine), bytes_free(&targets), bytes_free(&cpu);
    canvas_free(&plot);
    packed_mesh_free(&random_rig);
    fastskin_pool_destroy(b.pool);
    for (int i = 0; i < 3; i++)
        free(b.triad[i]);
    free(b.out_p), free(b.out_n), free(b.tb.rows);
    return cli_finish(LAB, &batch, e, &d, b.frozen_agree, outdir);
}
