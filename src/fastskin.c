/* fastskin.c - LBS and DQS kernels over packed float streams (see fastskin.h).
 *
 * Every kernel skins the vertex range [begin, end) and has the same shape: read the
 * vertex's K weights (the last one implied), blend the palette entries of its K joints,
 * apply the blend to the position (and normal). The SIMD paths differ only in how many
 * floats one instruction touches.
 */
#define _POSIX_C_SOURCE 200809L
#include "fastskin.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#define FASTSKIN_X86 1
#include <immintrin.h>
#else
#define FASTSKIN_X86 0
#endif

#define DQ_MIN_NORM 1e-9f

/* ---- shared per-vertex pieces ------------------------------------------------------- */

/* The K weights of vertex v, the implied last one included. */
static void vertex_weights(const packed_mesh *m, int v, float *w)
{
    int stored = m->influences - 1;
    const float *src = m->weight + (size_t)v * stored;
    float sum = 0.0f;
    for (int i = 0; i < stored; i++) {
        w[i] = src[i];
        sum += src[i];
    }
    w[stored] = 1.0f - sum;
}

static void normalize3(float *v)
{
    float len = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (len > 0.0f)
        for (int c = 0; c < 3; c++)
            v[c] /= len;
}

/* Kavan's transform of a point by a dual quaternion already divided by |q_0|:
 *   p' = p + 2 d0 x (d0 x p + a0 p) + 2 (a0 de - ae d0 + d0 x de); normals skip the shift. */
static void dq_apply(const float *r, const float *t, const float *p, float *out, bool translate)
{
    float a0 = r[0], ae = t[0];
    const float *d0 = r + 1, *de = t + 1;
    float c1[3] = {d0[1] * p[2] - d0[2] * p[1] + a0 * p[0], d0[2] * p[0] - d0[0] * p[2] + a0 * p[1],
                   d0[0] * p[1] - d0[1] * p[0] + a0 * p[2]};
    float c2[3] = {d0[1] * c1[2] - d0[2] * c1[1], d0[2] * c1[0] - d0[0] * c1[2],
                   d0[0] * c1[1] - d0[1] * c1[0]};
    for (int c = 0; c < 3; c++)
        out[c] = p[c] + 2.0f * c2[c];
    if (!translate)
        return;
    float dx[3] = {d0[1] * de[2] - d0[2] * de[1], d0[2] * de[0] - d0[0] * de[2],
                   d0[0] * de[1] - d0[1] * de[0]};
    for (int c = 0; c < 3; c++)
        out[c] += 2.0f * (a0 * de[c] - ae * d0[c] + dx[c]);
}

/* Normalises the blended q^ and applies it; false when |q_0| vanished. */
static bool dq_finish(const float *blend, const float *p, const float *n, float *out_p, float *out_n)
{
    float norm = sqrtf(blend[0] * blend[0] + blend[1] * blend[1] + blend[2] * blend[2] +
                       blend[3] * blend[3]);
    if (!(norm > DQ_MIN_NORM)) {
        memcpy(out_p, p, 3 * sizeof(float));
        if (out_n)
            memcpy(out_n, n, 3 * sizeof(float));
        return false;
    }
    float r[4], t[4];
    for (int c = 0; c < 4; c++) {
        r[c] = blend[c] / norm;
        t[c] = blend[4 + c] / norm;
    }
    dq_apply(r, t, p, out_p, true);
    if (out_n)
        dq_apply(r, t, n, out_n, false);
    return true;
}

/* A range's outcome: the lowest vertex whose DQS blend vanished, or -1. */
typedef int (*range_kernel)(const fastskin_job *job, int begin, int end);

/* ---- the portable scalar path (and the benchmark's plain loop) ----------------------- */

static int lbs_scalar(const fastskin_job *job, int begin, int end)
{
    const packed_mesh *m = job->mesh;
    const int k = m->influences;
    for (int v = begin; v < end; v++) {
        float w[PACKED_MAX_INFLUENCES], b[12] = {0};
        vertex_weights(m, v, w);
        for (int i = 0; i < k; i++) {
            const float *src = &job->matrices[m->joint[(size_t)v * k + i]].m[0][0];
            for (int c = 0; c < 12; c++)
                b[c] += w[i] * src[c];
        }
        const float *p = m->position + 3 * (size_t)v;
        float *o = job->out_position + 3 * (size_t)v;
        for (int r = 0; r < 3; r++)
            o[r] = b[4 * r] * p[0] + b[4 * r + 1] * p[1] + b[4 * r + 2] * p[2] + b[4 * r + 3];
        if (job->normals) {
            const float *n = m->normal + 3 * (size_t)v;
            float *on = job->out_normal + 3 * (size_t)v;
            for (int r = 0; r < 3; r++)
                on[r] = b[4 * r] * n[0] + b[4 * r + 1] * n[1] + b[4 * r + 2] * n[2];
            normalize3(on);
        }
    }
    return -1;
}

static int dqs_scalar(const fastskin_job *job, int begin, int end)
{
    const packed_mesh *m = job->mesh;
    const int k = m->influences;
    int failed = -1;
    for (int v = begin; v < end; v++) {
        float w[PACKED_MAX_INFLUENCES], b[8] = {0};
        vertex_weights(m, v, w);
        const float *pivot = job->dualquats[m->joint[(size_t)v * k]].real;
        for (int i = 0; i < k; i++) {
            const palette_dualquat *q = &job->dualquats[m->joint[(size_t)v * k + i]];
            float dot = q->real[0] * pivot[0] + q->real[1] * pivot[1] + q->real[2] * pivot[2] +
                        q->real[3] * pivot[3];
            float s = dot < 0.0f ? -w[i] : w[i]; /* the hemisphere fix; slot 0 is the pivot */
            for (int c = 0; c < 4; c++) {
                b[c] += s * q->real[c];
                b[4 + c] += s * q->dual[c];
            }
        }
        bool ok = dq_finish(b, m->position + 3 * (size_t)v, m->normal + 3 * (size_t)v,
                            job->out_position + 3 * (size_t)v,
                            job->normals ? job->out_normal + 3 * (size_t)v : NULL);
        if (!ok && failed < 0)
            failed = v;
    }
    return failed;
}

#if FASTSKIN_X86
/* ---- SSE2: one 3x4 row or one quaternion per register ----------------------------------- */

/* (dot(r0, p), dot(r1, p), dot(r2, p), *) for rows r0..r2 and p = (x, y, z, 1 or 0). */
static inline __m128 rows_times_sse2(__m128 r0, __m128 r1, __m128 r2, __m128 p)
{
    __m128 a = _mm_mul_ps(r0, p), b = _mm_mul_ps(r1, p), c = _mm_mul_ps(r2, p), z = _mm_setzero_ps();
    _MM_TRANSPOSE4_PS(a, b, c, z);
    return _mm_add_ps(_mm_add_ps(a, b), _mm_add_ps(c, z));
}

/* Stores lanes x, y, z of (x, y, z, *) straight to memory: going through a stack copy
 * and memcpy made the load after the 16-byte store miss store forwarding. */
static inline void store3(float *dst, __m128 v)
{
    _mm_storel_pi((__m64 *)(void *)dst, v);
    _mm_store_ss(dst + 2, _mm_movehl_ps(v, v));
}

static int lbs_sse2(const fastskin_job *job, int begin, int end)
{
    const packed_mesh *m = job->mesh;
    const int k = m->influences;
    for (int v = begin; v < end; v++) {
        float w[PACKED_MAX_INFLUENCES];
        vertex_weights(m, v, w);
        __m128 r0 = _mm_setzero_ps(), r1 = r0, r2 = r0;
        for (int i = 0; i < k; i++) {
            const float *src = &job->matrices[m->joint[(size_t)v * k + i]].m[0][0];
            __m128 wi = _mm_set1_ps(w[i]);
            r0 = _mm_add_ps(r0, _mm_mul_ps(wi, _mm_loadu_ps(src)));
            r1 = _mm_add_ps(r1, _mm_mul_ps(wi, _mm_loadu_ps(src + 4)));
            r2 = _mm_add_ps(r2, _mm_mul_ps(wi, _mm_loadu_ps(src + 8)));
        }
        const float *p = m->position + 3 * (size_t)v;
        store3(job->out_position + 3 * (size_t)v,
               rows_times_sse2(r0, r1, r2, _mm_setr_ps(p[0], p[1], p[2], 1.0f)));
        if (job->normals) {
            const float *n = m->normal + 3 * (size_t)v;
            float *on = job->out_normal + 3 * (size_t)v;
            store3(on, rows_times_sse2(r0, r1, r2, _mm_setr_ps(n[0], n[1], n[2], 0.0f)));
            normalize3(on);
        }
    }
    return -1;
}

static int dqs_sse2(const fastskin_job *job, int begin, int end)
{
    const packed_mesh *m = job->mesh;
    const int k = m->influences;
    int failed = -1;
    for (int v = begin; v < end; v++) {
        float w[PACKED_MAX_INFLUENCES], b[8];
        vertex_weights(m, v, w);
        __m128 pivot = _mm_loadu_ps(job->dualquats[m->joint[(size_t)v * k]].real);
        __m128 real = _mm_setzero_ps(), dual = real;
        for (int i = 0; i < k; i++) {
            const palette_dualquat *q = &job->dualquats[m->joint[(size_t)v * k + i]];
            __m128 qr = _mm_loadu_ps(q->real), prod = _mm_mul_ps(qr, pivot);
            prod = _mm_add_ps(prod, _mm_shuffle_ps(prod, prod, _MM_SHUFFLE(1, 0, 3, 2)));
            prod = _mm_add_ss(prod, _mm_shuffle_ps(prod, prod, _MM_SHUFFLE(2, 3, 0, 1)));
            __m128 s = _mm_set1_ps(_mm_cvtss_f32(prod) < 0.0f ? -w[i] : w[i]);
            real = _mm_add_ps(real, _mm_mul_ps(s, qr));
            dual = _mm_add_ps(dual, _mm_mul_ps(s, _mm_loadu_ps(q->dual)));
        }
        _mm_storeu_ps(b, real);
        _mm_storeu_ps(b + 4, dual);
        bool ok = dq_finish(b, m->position + 3 * (size_t)v, m->normal + 3 * (size_t)v,
                            job->out_position + 3 * (size_t)v,
                            job->normals ? job->out_normal + 3 * (size_t)v : NULL);
        if (!ok && failed < 0)
            failed = v;
    }
    return failed;
}

/* ---- AVX2 + FMA: rows 0-1 of a 3x4 matrix, or a whole dual quaternion, per register ---- */

#define AVX2_TARGET __attribute__((target("avx2,fma")))

AVX2_TARGET static inline __m128 rows_times_avx2(__m256 r01, __m128 r2, __m128 p)
{
    __m256 t = _mm256_mul_ps(r01, _mm256_set_m128(p, p));
    __m128 h1 = _mm_hadd_ps(_mm256_castps256_ps128(t), _mm256_extractf128_ps(t, 1));
    __m128 u = _mm_mul_ps(r2, p);
    __m128 h2 = _mm_hadd_ps(u, u);
    return _mm_hadd_ps(h1, h2); /* (x, y, z, z) */
}

/* One vertex with K known at compile time, so the influence loop unrolls. */
AVX2_TARGET static inline void lbs_avx2_vertex(const fastskin_job *job, int v, const int k)
{
    const packed_mesh *m = job->mesh;
    const uint16_t *joint = m->joint + (size_t)v * k;
    const float *stored = m->weight + (size_t)v * (k - 1);
    __m256 r01 = _mm256_setzero_ps();
    __m128 r2 = _mm_setzero_ps();
    float implied = 1.0f;
    for (int i = 0; i < k; i++) {
        float wi = i + 1 < k ? stored[i] : implied;
        implied -= i + 1 < k ? stored[i] : 0.0f;
        const float *src = &job->matrices[joint[i]].m[0][0];
        r01 = _mm256_fmadd_ps(_mm256_set1_ps(wi), _mm256_loadu_ps(src), r01);
        r2 = _mm_fmadd_ps(_mm_set1_ps(wi), _mm_loadu_ps(src + 8), r2);
    }
    const float *p = m->position + 3 * (size_t)v;
    store3(job->out_position + 3 * (size_t)v,
           rows_times_avx2(r01, r2, _mm_setr_ps(p[0], p[1], p[2], 1.0f)));
    if (job->normals) {
        const float *n = m->normal + 3 * (size_t)v;
        float *on = job->out_normal + 3 * (size_t)v;
        store3(on, rows_times_avx2(r01, r2, _mm_setr_ps(n[0], n[1], n[2], 0.0f)));
        normalize3(on);
    }
}

AVX2_TARGET static int lbs_avx2(const fastskin_job *job, int begin, int end)
{
    switch (job->mesh->influences) { /* the common K unrolled, the rest generic */
    case 1: for (int v = begin; v < end; v++) lbs_avx2_vertex(job, v, 1); break;
    case 2: for (int v = begin; v < end; v++) lbs_avx2_vertex(job, v, 2); break;
    case 4: for (int v = begin; v < end; v++) lbs_avx2_vertex(job, v, 4); break;
    case 8: for (int v = begin; v < end; v++) lbs_avx2_vertex(job, v, 8); break;
    default: for (int v = begin; v < end; v++) lbs_avx2_vertex(job, v, job->mesh->influences);
    }
    return -1;
}

/* Lanes hold (w, x, y, z); the cross product of lanes x, y, z. Lane w of the result is
 * rounding noise, but the shuffles never move lane w into x, y or z, and it is never
 * stored, so it needs no clearing. */
#define YZX _MM_SHUFFLE(1, 3, 2, 0)
#define ZXY _MM_SHUFFLE(2, 1, 3, 0)
AVX2_TARGET static inline __m128 cross_avx2(__m128 a, __m128 b)
{
    return _mm_fmsub_ps(_mm_shuffle_ps(a, a, YZX), _mm_shuffle_ps(b, b, ZXY),
                        _mm_mul_ps(_mm_shuffle_ps(a, a, ZXY), _mm_shuffle_ps(b, b, YZX)));
}

/* Kavan's transform on (w, x, y, z) vectors of the blended, unnormalised q^ (see
 * dq_apply): both correction terms are quadratic in q^, so dividing them by |q_0|^2
 * replaces normalising q^ first; no square root is needed. */
AVX2_TARGET static inline __m128 dq_apply_avx2(__m128 r, __m128 t, __m128 inv_norm2, __m128 p,
                                               bool translate)
{
    __m128 a0 = _mm_shuffle_ps(r, r, 0), two = _mm_mul_ps(_mm_set1_ps(2.0f), inv_norm2);
    __m128 c1 = _mm_fmadd_ps(a0, p, cross_avx2(r, p));
    __m128 out = _mm_fmadd_ps(two, cross_avx2(r, c1), p);
    if (!translate)
        return out;
    __m128 ae = _mm_shuffle_ps(t, t, 0);
    __m128 shift = _mm_add_ps(_mm_fmsub_ps(a0, t, _mm_mul_ps(ae, r)), cross_avx2(r, t));
    return _mm_fmadd_ps(two, shift, out);
}

/* (0, x, y, z) from three floats, and back. */
AVX2_TARGET static inline __m128 load_point(const float *p) { return _mm_setr_ps(0.0f, p[0], p[1], p[2]); }
AVX2_TARGET static inline void store_point(float *dst, __m128 v)
{
    store3(dst, _mm_shuffle_ps(v, v, _MM_SHUFFLE(3, 3, 2, 1)));
}

AVX2_TARGET static inline bool dqs_avx2_vertex(const fastskin_job *job, int v, const int k)
{
    const packed_mesh *m = job->mesh;
    const uint16_t *joint = m->joint + (size_t)v * k;
    const float *stored = m->weight + (size_t)v * (k - 1);
    const __m128 sign_bit = _mm_set1_ps(-0.0f);
    __m256 pivot = _mm256_loadu_ps(job->dualquats[joint[0]].real); /* real, dual */
    float implied = 1.0f - (k > 1 ? stored[0] : 0.0f);
    __m256 sum = _mm256_mul_ps(_mm256_set1_ps(k > 1 ? stored[0] : 1.0f), pivot);
    for (int i = 1; i < k; i++) { /* slot 0 is the pivot: its own sign needs no test */
        float wi = i + 1 < k ? stored[i] : implied;
        implied -= i + 1 < k ? stored[i] : 0.0f;
        __m256 q = _mm256_loadu_ps(job->dualquats[joint[i]].real);
        /* the hemisphere fix without a branch: w takes the sign of q_0 . pivot_0 */
        __m128 dot = _mm_dp_ps(_mm256_castps256_ps128(q), _mm256_castps256_ps128(pivot), 0xFF);
        __m128 w = _mm_xor_ps(_mm_set1_ps(wi), _mm_and_ps(dot, sign_bit));
        sum = _mm256_fmadd_ps(_mm256_set_m128(w, w), q, sum);
    }
    __m128 real = _mm256_castps256_ps128(sum), dual = _mm256_extractf128_ps(sum, 1);
    __m128 norm2 = _mm_dp_ps(real, real, 0xFF);
    const float *p = m->position + 3 * (size_t)v, *n = m->normal + 3 * (size_t)v;
    if (!(_mm_cvtss_f32(norm2) > DQ_MIN_NORM * DQ_MIN_NORM)) {
        memcpy(job->out_position + 3 * (size_t)v, p, 3 * sizeof(float));
        if (job->normals)
            memcpy(job->out_normal + 3 * (size_t)v, n, 3 * sizeof(float));
        return false;
    }
    /* 1 / |q_0|^2 by an exactly rounded divide (_mm_rcp_ps differs between CPU vendors,
     * and outputs must not) */
    __m128 inv_norm2 = _mm_div_ps(_mm_set1_ps(1.0f), norm2);
    store_point(job->out_position + 3 * (size_t)v, dq_apply_avx2(real, dual, inv_norm2, load_point(p), true));
    if (job->normals)
        store_point(job->out_normal + 3 * (size_t)v,
                    dq_apply_avx2(real, dual, inv_norm2, load_point(n), false));
    return true;
}

AVX2_TARGET static int dqs_avx2(const fastskin_job *job, int begin, int end)
{
    int failed = -1;
    for (int v = begin; v < end; v++) {
        bool ok;
        switch (job->mesh->influences) {
        case 1: ok = dqs_avx2_vertex(job, v, 1); break;
        case 2: ok = dqs_avx2_vertex(job, v, 2); break;
        case 4: ok = dqs_avx2_vertex(job, v, 4); break;
        case 8: ok = dqs_avx2_vertex(job, v, 8); break;
        default: ok = dqs_avx2_vertex(job, v, job->mesh->influences);
        }
        if (!ok && failed < 0)
            failed = v;
    }
    return failed;
}
#endif /* FASTSKIN_X86 */

/* ---- levels ---------------------------------------------------------------------------- */

const char *simd_level_name(simd_level level)
{
    static const char *const names[SIMD_LEVEL_COUNT] = {"scalar", "sse2", "avx2"};
    return (int)level >= 0 && level < SIMD_LEVEL_COUNT ? names[level] : "?";
}

bool simd_level_available(simd_level level)
{
    if (level == SIMD_SCALAR)
        return true;
#if FASTSKIN_X86
    if (level == SIMD_SSE2)
        return __builtin_cpu_supports("sse2");
    if (level == SIMD_AVX2)
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
    return false;
}

simd_level simd_best_level(void)
{
    for (int l = SIMD_LEVEL_COUNT - 1; l > 0; l--)
        if (simd_level_available((simd_level)l))
            return (simd_level)l;
    return SIMD_SCALAR;
}

static range_kernel kernel_for(simd_level level, skin_method method)
{
#if FASTSKIN_X86
    if (level == SIMD_AVX2)
        return method == SKIN_DQS ? dqs_avx2 : lbs_avx2;
    if (level == SIMD_SSE2)
        return method == SKIN_DQS ? dqs_sse2 : lbs_sse2;
#else
    (void)level;
#endif
    return method == SKIN_DQS ? dqs_scalar : lbs_scalar;
}

/* ---- validation and threads ----------------------------------------------------------------- */

lab_error fastskin_validate(const fastskin_job *job, lab_diag *d)
{
    const packed_mesh *m = job->mesh;
    int threads = job->threads ? job->threads : 1;
    if (!m)
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "fastskin job", "%s", "no mesh");
    if (m->count == 0)
        return LAB_OK;
    if (job->joint_count <= m->max_joint)
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "fastskin palette",
                         "%d entries, the mesh uses joint %d", job->joint_count, m->max_joint);
    if ((job->method == SKIN_DQS ? (const void *)job->dualquats : (const void *)job->matrices) == NULL ||
        !job->out_position || (job->normals && (!job->out_normal || !m->normal)))
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "fastskin job", "%s", "a palette or an output is missing");
    if (threads < 1 || threads > FASTSKIN_MAX_THREADS)
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "fastskin job", "%d threads, 1 to %d", threads,
                         FASTSKIN_MAX_THREADS);
    if (!simd_level_available(job->level))
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "fastskin job", "SIMD level %s is not available here",
                         simd_level_name(job->level));
    return LAB_OK;
}

typedef struct {
    const fastskin_job *job;
    range_kernel kernel;
    int begin, end, failed;
} range_task;

static void *run_range(void *arg)
{
    range_task *t = arg;
    t->failed = t->kernel(t->job, t->begin, t->end);
    return NULL;
}

lab_error fastskin_run(const fastskin_job *job, lab_diag *d)
{
    lab_error e = fastskin_validate(job, d);
    if (e != LAB_OK || job->mesh->count == 0)
        return e;
    int threads = job->threads ? job->threads : 1, n = job->mesh->count;
    range_task task[FASTSKIN_MAX_THREADS];
    pthread_t thread[FASTSKIN_MAX_THREADS];
    bool started[FASTSKIN_MAX_THREADS] = {false};
    range_kernel kernel = kernel_for(job->level, job->method);
    for (int t = 0; t < threads; t++) /* contiguous ranges; the split never changes a result */
        task[t] = (range_task){job, kernel, (int)((long long)n * t / threads),
                               (int)((long long)n * (t + 1) / threads), -1};
    for (int t = 1; t < threads; t++)
        started[t] = pthread_create(&thread[t], NULL, run_range, &task[t]) == 0;
    run_range(&task[0]);
    for (int t = 1; t < threads; t++) {
        if (started[t])
            pthread_join(thread[t], NULL);
        else
            run_range(&task[t]); /* a thread that could not start: its range runs here */
    }
    for (int t = 0; t < threads; t++)
        if (task[t].failed >= 0) {
            char where[64];
            diag_fail(d, LAB_ERR_DQ_ZERO_NORM, diag_where(where, sizeof where, "vertex %d", task[t].failed),
                      "%s", "|q_0| <= 1e-9 after blending");
            if (d)
                d->vertex = task[t].failed;
            return LAB_ERR_DQ_ZERO_NORM;
        }
    return LAB_OK;
}
