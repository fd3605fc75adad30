/* baselines.c - the frozen kernels the benchmark measures against (see baselines.h). */
#include "baselines.h"

#if BASELINES_BUILT
#include <immintrin.h>
#include <math.h>
#include <string.h>

#define AVX2_TARGET __attribute__((target("avx2,fma")))

static inline void store3(float *dst, __m128 v)
{
    _mm_storel_pi((__m64 *)(void *)dst, v);
    _mm_store_ss(dst + 2, _mm_movehl_ps(v, v));
}

/* (dot(r0, p), dot(r1, p), dot(r2, p), *) with rows 0-1 in one register: three hadds. */
AVX2_TARGET static inline __m128 rows_times(__m256 r01, __m128 r2, __m128 p)
{
    __m256 t = _mm256_mul_ps(r01, _mm256_set_m128(p, p));
    __m128 h1 = _mm_hadd_ps(_mm256_castps256_ps128(t), _mm256_extractf128_ps(t, 1));
    __m128 u = _mm_mul_ps(r2, p);
    return _mm_hadd_ps(h1, _mm_hadd_ps(u, u));
}

/* K = 4, the weights as scalars, the point assembled from three loads, normals normalised
 * one by one: as shipped. */
AVX2_TARGET void baseline_avx2_rows(const reference_job *job)
{
    const packed_mesh *m = job->m;
    for (int v = 0; v < m->count; v++) {
        const uint16_t *joint = m->joint + (size_t)v * 4;
        const float *stored = m->weight + (size_t)v * 3;
        __m256 r01 = _mm256_setzero_ps();
        __m128 r2 = _mm_setzero_ps();
        float implied = 1.0f;
        for (int i = 0; i < 4; i++) {
            float wi = i + 1 < 4 ? stored[i] : implied;
            implied -= i + 1 < 4 ? stored[i] : 0.0f;
            const float *src = &job->rows[joint[i]].m[0][0];
            r01 = _mm256_fmadd_ps(_mm256_set1_ps(wi), _mm256_loadu_ps(src), r01);
            r2 = _mm_fmadd_ps(_mm_set1_ps(wi), _mm_loadu_ps(src + 8), r2);
        }
        const float *p = m->position + 3 * (size_t)v;
        store3(job->out_p + 3 * (size_t)v, rows_times(r01, r2, _mm_setr_ps(p[0], p[1], p[2], 1.0f)));
        if (job->normals) {
            const float *n = m->normal + 3 * (size_t)v;
            float *on = job->out_n + 3 * (size_t)v;
            store3(on, rows_times(r01, r2, _mm_setr_ps(n[0], n[1], n[2], 0.0f)));
            float len = sqrtf(on[0] * on[0] + on[1] * on[1] + on[2] * on[2]);
            if (len > 0.0f)
                for (int c = 0; c < 3; c++)
                    on[c] /= len;
        }
    }
}

/* The avx2 kernel as it was before its job and mesh were copied into locals and its weight
 * loop unrolled (fastskin.c until 2026-12-01), K = 4, positions only, the 44-byte vertex:
 * every vertex reads the job's and the mesh's pointers again, since its store may alias
 * them, and at -O2 the weight loop stays a loop (the results file counts what it executes
 * a vertex, bench-instructions). Kept frozen, as "avx2-reloads", so the new kernel is
 * compared with it in the same run. */
AVX2_TARGET void baseline_avx2_reloads(const fastskin_job *job)
{
    for (int v = 0; v < job->mesh->count; v++) {
        const packed_mesh *m = job->mesh;
        const size_t vs = (size_t)v, at = vs * 3;
        const float *columns = job->columns[0].c[0];
        __m256 sum = _mm256_setzero_ps(), c01 = sum, c23 = sum;
        for (int i = 0; i + 1 < 4; i++) {
            __m256 wi = _mm256_broadcast_ss(m->weight + at + (size_t)i);
            const float *src = columns + 16 * (size_t)m->joint[vs * 4 + (size_t)i];
            sum = _mm256_add_ps(sum, wi);
            c01 = _mm256_fmadd_ps(wi, _mm256_loadu_ps(src), c01);
            c23 = _mm256_fmadd_ps(wi, _mm256_loadu_ps(src + 8), c23);
        }
        __m256 wl = _mm256_sub_ps(_mm256_set1_ps(1.0f), sum);
        const float *src = columns + 16 * (size_t)m->joint[vs * 4 + 3];
        c01 = _mm256_fmadd_ps(wl, _mm256_loadu_ps(src), c01);
        c23 = _mm256_fmadd_ps(wl, _mm256_loadu_ps(src + 8), c23);
        __m128 c0 = _mm256_castps256_ps128(c01), c1 = _mm256_extractf128_ps(c01, 1);
        __m128 c2 = _mm256_castps256_ps128(c23), c3 = _mm256_extractf128_ps(c23, 1);
        const float *p = m->position + 3 * vs;
        __m128 o = _mm_fmadd_ps(c0, _mm_broadcast_ss(p),
                                _mm_fmadd_ps(c1, _mm_broadcast_ss(p + 1), _mm_fmadd_ps(c2, _mm_broadcast_ss(p + 2), c3)));
        float *out = job->out_position + 3 * vs;
        if (v + 1 < job->mesh->count)
            _mm_storeu_ps(out, o);
        else
            store3(out, o);
    }
}

/* The avx2 kernel's memory operations alone, K = 4, positions only, in the shape of its
 * loop (lbs_avx2_loop): per vertex the four joint indices, the eight 32-byte palette
 * halves through the two column bases, the three weight and three coordinate broadcasts
 * and one 16-byte store, the four influences and the three coordinates unrolled, two
 * vertices an iteration; no arithmetic (an empty asm statement keeps each loaded register
 * alive). What it executes is counted beside the kernel (bench-instructions): the time of
 * the kernel's loads with nothing else, the floor they put under it. */
AVX2_TARGET static inline void keep(__m256 v) { __asm__ volatile("" : : "x"(v)); }

AVX2_TARGET static inline void loads_only_vertex(const uint16_t *joint, const float *weight, const float *position,
                                                 const float *columns, const float *columns23, float *out, size_t vs,
                                                 bool last)
{
#pragma GCC unroll 4
    for (int i = 0; i < 4; i++) {
        const size_t e = 16 * (size_t)joint[vs * 4 + (size_t)i];
        keep(_mm256_loadu_ps(columns + e));
        keep(_mm256_loadu_ps(columns23 + e));
    }
#pragma GCC unroll 3
    for (int i = 0; i < 3; i++) {
        keep(_mm256_broadcast_ss(weight + vs * 3 + (size_t)i));
        keep(_mm256_castps128_ps256(_mm_broadcast_ss(position + vs * 3 + (size_t)i)));
    }
    if (last) /* as the kernel: 16 bytes, the range's last vertex 12 */
        store3(out + 3 * vs, _mm_setzero_ps());
    else
        _mm_storeu_ps(out + 3 * vs, _mm_setzero_ps());
}

AVX2_TARGET void baseline_avx2_loads_only(const fastskin_job *job)
{
    /* the streams in locals, as the kernel holds them: no pointer is reloaded after a store */
    const int count = job->mesh->count;
    const uint16_t *const joint = job->mesh->joint;
    const float *const weight = job->mesh->weight, *const position = job->mesh->position;
    const float *const columns = job->columns[0].c[0], *const columns23 = job->columns[0].c[2];
    float *const out = job->out_position;
    if (count < 1)
        return;
#pragma GCC unroll 2
    for (int v = 0; v + 1 < count; v++)
        loads_only_vertex(joint, weight, position, columns, columns23, out, (size_t)v, false);
    loads_only_vertex(joint, weight, position, columns, columns23, out, (size_t)count - 1, true);
}

/* The avx2 DQS kernel before it took eight vertices at a time (fastskin.c until
 * 2026-12-02), K = 4, positions only, the 44-byte vertex: one vertex per pass, its dual
 * quaternion in one register, the hemisphere test and the norm by _mm_dp_ps, the cross
 * products by shuffles (in fastskin.c it executed 115 instructions a vertex; this copy,
 * with K = 4 and the stream pointers written in, executes fewer: the results file counts
 * it, bench-instructions). Kept frozen, as "dqs-avx2-per-vertex", so the eight-vertex
 * kernel is compared with it in the same run. */
#define YZX _MM_SHUFFLE(1, 3, 2, 0)
#define ZXY _MM_SHUFFLE(2, 1, 3, 0)
AVX2_TARGET static inline __m128 cross_per_vertex(__m128 a, __m128 b)
{
    return _mm_fmsub_ps(_mm_shuffle_ps(a, a, YZX), _mm_shuffle_ps(b, b, ZXY),
                        _mm_mul_ps(_mm_shuffle_ps(a, a, ZXY), _mm_shuffle_ps(b, b, YZX)));
}

AVX2_TARGET void baseline_dqs_avx2_per_vertex(const fastskin_job *job)
{
    const int count = job->mesh->count;
    const uint16_t *const joint = job->mesh->joint;
    const float *const weight = job->mesh->weight, *const position = job->mesh->position;
    const palette_dualquat *const palette = job->dualquats;
    float *const out = job->out_position;
    const __m128 sign_bit = _mm_set1_ps(-0.0f);
    for (int v = 0; v < count; v++) {
        const size_t vs = (size_t)v;
        float w[4] = {weight[3 * vs], weight[3 * vs + 1], weight[3 * vs + 2], 0.0f};
        w[3] = 1.0f - (w[0] + w[1] + w[2]);
        __m256 pivot = _mm256_loadu_ps(palette[joint[4 * vs]].real);
        __m256 sum = _mm256_mul_ps(_mm256_set1_ps(w[0]), pivot);
        for (int i = 1; i < 4; i++) {
            __m256 q = _mm256_loadu_ps(palette[joint[4 * vs + (size_t)i]].real);
            __m128 dot = _mm_dp_ps(_mm256_castps256_ps128(q), _mm256_castps256_ps128(pivot), 0xFF);
            __m128 wi = _mm_xor_ps(_mm_set1_ps(w[i]), _mm_and_ps(dot, sign_bit));
            sum = _mm256_fmadd_ps(_mm256_set_m128(wi, wi), q, sum);
        }
        __m128 real = _mm256_castps256_ps128(sum), dual = _mm256_extractf128_ps(sum, 1);
        __m128 norm2 = _mm_dp_ps(real, real, 0xFF);
        const float *p = position + 3 * vs;
        if (!(_mm_cvtss_f32(norm2) > 1e-18f)) { /* the blend vanished: the bind position */
            memcpy(out + 3 * vs, p, 3 * sizeof(float));
            continue;
        }
        __m128 point = _mm_setr_ps(0.0f, p[0], p[1], p[2]);
        __m128 two = _mm_mul_ps(_mm_set1_ps(2.0f), _mm_div_ps(_mm_set1_ps(1.0f), norm2));
        __m128 a0 = _mm_shuffle_ps(real, real, 0), ae = _mm_shuffle_ps(dual, dual, 0);
        __m128 c1 = _mm_fmadd_ps(a0, point, cross_per_vertex(real, point));
        __m128 o = _mm_fmadd_ps(two, cross_per_vertex(real, c1), point);
        __m128 shift = _mm_add_ps(_mm_fmsub_ps(a0, dual, _mm_mul_ps(ae, real)), cross_per_vertex(real, dual));
        o = _mm_fmadd_ps(two, shift, o);
        store3(out + 3 * vs, _mm_shuffle_ps(o, o, _MM_SHUFFLE(3, 3, 2, 1)));
    }
}
#endif
