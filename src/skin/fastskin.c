/* fastskin.c - LBS and DQS kernels over packed float streams (see fastskin.h).
 *
 * Every kernel skins the vertex range [begin, end) and has the same shape: read the
 * vertex's K weights (the last one implied), blend the palette entries of its K joints,
 * apply the blend to the position (and normal). The SIMD paths differ in how many floats
 * one instruction touches, and in what is decided before the vertex loop.
 */
#define _POSIX_C_SOURCE 200809L
/* the generic-K copies of loops marked KERNEL_UNROLLED stay loops, as meant (fastskin_kernels.h) */
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wpass-failed"
#endif
#include "skin/fastskin.h"
#include "skin/fastskin_kernels.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#define FASTSKIN_X86 1
#include <cpuid.h>
#include <immintrin.h>
#else
#define FASTSKIN_X86 0
#endif

/* ---- shared per-vertex pieces ------------------------------------------------------- */

/* The position as the palette takes it: floats, or the quantised integers (the palette
 * then holds the dequantisation, palette_columns_dequantize). */
SPECIALISED void position_at(const packed_mesh *m, size_t v, bool quantized, float *p)
{
    for (int c = 0; c < 3; c++)
        p[c] = quantized ? (float)m->position16[3 * v + c] : m->position[3 * v + c];
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

/* ---- the portable scalar path (and the benchmark's plain loop) ----------------------- */

static int lbs_scalar(const fastskin_job *job, int begin, int end)
{
    const packed_mesh *m = job->mesh;
    const int k = m->influences;
    for (int v = begin; v < end; v++) {
        float w[PACKED_MAX_INFLUENCES], b[4][4] = {{0}}, p[3];
        packed_vertex_weights(m, v, w);
        for (int i = 0; i < k; i++) { /* the blended matrix, column by column */
            const palette_columns *src = &job->columns[joint_at(m, (size_t)v, k, i, m->joint_format)];
            for (int c = 0; c < 4; c++)
                for (int r = 0; r < 3; r++)
                    b[c][r] += w[i] * src->c[c][r];
        }
        position_at(m, (size_t)v, m->position16 != NULL, p);
        float *o = job->out_position + 3 * (size_t)v;
        for (int r = 0; r < 3; r++)
            o[r] = b[0][r] * p[0] + b[1][r] * p[1] + b[2][r] * p[2] + b[3][r];
        if (job->normals != FASTSKIN_NO_NORMALS) {
            const float *n = m->normal + 3 * (size_t)v;
            float *on = job->out_normal + 3 * (size_t)v;
            for (int r = 0; r < 3; r++)
                on[r] = b[0][r] * n[0] + b[1][r] * n[1] + b[2][r] * n[2];
            if (job->normals == FASTSKIN_UNIT_NORMALS)
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
        packed_vertex_weights(m, v, w);
        const float *pivot = job->dualquats[joint_at(m, (size_t)v, k, 0, m->joint_format)].real;
        for (int i = 0; i < k; i++) {
            const palette_dualquat *q = &job->dualquats[joint_at(m, (size_t)v, k, i, m->joint_format)];
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
/* ---- SSE2: one column or one quaternion per register ------------------------------------ */

/* Stores lanes x, y, z of (x, y, z, *) straight to memory: going through a stack copy
 * and memcpy made the load after the 16-byte store miss store forwarding. */
static inline void store3(float *dst, __m128 v)
{
    _mm_storel_pi((__m64 *)(void *)dst, v);
    _mm_store_ss(dst + 2, _mm_movehl_ps(v, v));
}

SPECIALISED void lbs_sse2_vertex(const fastskin_job *job, int v, const int k, const fastskin_normals normals)
{
    const packed_mesh *m = job->mesh;
    float w[PACKED_MAX_INFLUENCES], p[3];
    packed_vertex_weights(m, v, w);
    __m128 c0 = _mm_setzero_ps(), c1 = c0, c2 = c0, c3 = c0;
    for (int i = 0; i < k; i++) {
        const float *src = job->columns[joint_at(m, (size_t)v, k, i, m->joint_format)].c[0];
        __m128 wi = _mm_set1_ps(w[i]);
        c0 = _mm_add_ps(c0, _mm_mul_ps(wi, _mm_loadu_ps(src)));
        c1 = _mm_add_ps(c1, _mm_mul_ps(wi, _mm_loadu_ps(src + 4)));
        c2 = _mm_add_ps(c2, _mm_mul_ps(wi, _mm_loadu_ps(src + 8)));
        c3 = _mm_add_ps(c3, _mm_mul_ps(wi, _mm_loadu_ps(src + 12)));
    }
    position_at(m, (size_t)v, m->position16 != NULL, p);
    __m128 o = _mm_add_ps(_mm_add_ps(_mm_mul_ps(c0, _mm_set1_ps(p[0])), _mm_mul_ps(c1, _mm_set1_ps(p[1]))),
                          _mm_add_ps(_mm_mul_ps(c2, _mm_set1_ps(p[2])), c3));
    store3(job->out_position + 3 * (size_t)v, o);
    if (normals != FASTSKIN_NO_NORMALS) {
        const float *n = m->normal + 3 * (size_t)v;
        float *on = job->out_normal + 3 * (size_t)v;
        store3(on, _mm_add_ps(_mm_add_ps(_mm_mul_ps(c0, _mm_set1_ps(n[0])), _mm_mul_ps(c1, _mm_set1_ps(n[1]))),
                              _mm_mul_ps(c2, _mm_set1_ps(n[2]))));
        if (normals == FASTSKIN_UNIT_NORMALS)
            normalize3(on);
    }
}

SPECIALISED void lbs_sse2_loop(const fastskin_job *job, int begin, int end, const fastskin_normals normals)
{
#define SSE2_LOOP(K) for (int v = begin; v < end; v++) lbs_sse2_vertex(job, v, K, normals)
    FOR_EACH_K(job->mesh->influences, SSE2_LOOP)
#undef SSE2_LOOP
}

static int lbs_sse2(const fastskin_job *caller, int begin, int end)
{
    fastskin_job local;
    packed_mesh local_mesh;
    const fastskin_job *job = localize(caller, &local, &local_mesh);
    if (job->normals == FASTSKIN_NO_NORMALS)
        lbs_sse2_loop(job, begin, end, FASTSKIN_NO_NORMALS);
    else if (job->normals == FASTSKIN_RAW_NORMALS)
        lbs_sse2_loop(job, begin, end, FASTSKIN_RAW_NORMALS);
    else
        lbs_sse2_loop(job, begin, end, FASTSKIN_UNIT_NORMALS);
    return -1;
}

static int dqs_sse2(const fastskin_job *job, int begin, int end)
{
    const packed_mesh *m = job->mesh;
    const int k = m->influences;
    int failed = -1;
    for (int v = begin; v < end; v++) {
        float w[PACKED_MAX_INFLUENCES], b[8];
        packed_vertex_weights(m, v, w);
        __m128 pivot = _mm_loadu_ps(job->dualquats[joint_at(m, (size_t)v, k, 0, m->joint_format)].real);
        __m128 real = _mm_setzero_ps(), dual = real;
        for (int i = 0; i < k; i++) {
            const palette_dualquat *q = &job->dualquats[joint_at(m, (size_t)v, k, i, m->joint_format)];
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

/* ---- AVX2 + FMA: two columns, or a whole dual quaternion, per register ------------------- */

#define AVX2_TARGET __attribute__((target("avx2,fma")))

/* The weight of slot i as eight equal lanes: broadcast straight from memory for float
 * weights (a load, no shuffle), converted from the integer units otherwise. */
AVX2_TARGET SPECIALISED __m256 weight_avx2(const packed_mesh *m, size_t at, packed_weight_format wf)
{
    if (wf == PACKED_WEIGHT_FLOAT)
        return _mm256_broadcast_ss(m->weight + at);
    if (wf == PACKED_WEIGHT_UNORM16)
        return _mm256_set1_ps((float)m->weight16[at] * (1.0f / 65535.0f));
    return _mm256_set1_ps((float)m->weight8[at] * (1.0f / 255.0f));
}

/* The implied last weight: 1 minus the stored ones as a vector for float weights; for the
 * UNORM formats computed in integers (packed_vertex_weights), so the K weights sum to 1. */
AVX2_TARGET SPECIALISED __m256 implied_avx2(const packed_mesh *m, size_t at, int stored, __m256 sum,
                                            packed_weight_format wf)
{
    if (wf == PACKED_WEIGHT_FLOAT)
        return _mm256_sub_ps(_mm256_set1_ps(1.0f), sum);
    unsigned rest = wf == PACKED_WEIGHT_UNORM16 ? 65535u : 255u;
    for (int i = 0; i < stored; i++)
        rest -= wf == PACKED_WEIGHT_UNORM16 ? m->weight16[at + i] : m->weight8[at + i];
    return _mm256_set1_ps((float)rest * (wf == PACKED_WEIGHT_UNORM16 ? 1.0f / 65535.0f : 1.0f / 255.0f));
}

/* ---- eight vertices at a time: the blocks both AVX2 methods decode their streams in ---- */

/* x, y, z of eight vertices (24 floats, x0 y0 z0 x1 ... z7) as three registers, lane j
 * vertex j, and back. Float 3j + c of the block sits in lane (3j + c) mod 8 of load
 * (3j + c) / 8: the blends take, for each lane, the load holding the wanted component
 * there, and the permute puts the lanes in vertex order (x lands as x0 x3 x6 x1 x4 x7 x2 x5,
 * y as y5 y0 y3 y6 y1 y4 y7 y2, z as z2 z5 z0 z3 z6 z1 z4 z7). */
AVX2_TARGET static inline void deinterleave3x8(__m256 a, __m256 b, __m256 c, __m256 *xyz)
{
    xyz[0] = _mm256_permutevar8x32_ps(_mm256_blend_ps(_mm256_blend_ps(a, b, 0x92), c, 0x24),
                                      _mm256_setr_epi32(0, 3, 6, 1, 4, 7, 2, 5));
    xyz[1] = _mm256_permutevar8x32_ps(_mm256_blend_ps(_mm256_blend_ps(a, b, 0x24), c, 0x49),
                                      _mm256_setr_epi32(1, 4, 7, 2, 5, 0, 3, 6));
    xyz[2] = _mm256_permutevar8x32_ps(_mm256_blend_ps(_mm256_blend_ps(a, b, 0x49), c, 0x92),
                                      _mm256_setr_epi32(2, 5, 0, 3, 6, 1, 4, 7));
}

AVX2_TARGET static inline void load3x8(const float *src, __m256 *xyz)
{
    deinterleave3x8(_mm256_loadu_ps(src), _mm256_loadu_ps(src + 8), _mm256_loadu_ps(src + 16), xyz);
}

AVX2_TARGET static inline void store3x8(float *dst, const __m256 *xyz)
{
    __m256 x = _mm256_permutevar8x32_ps(xyz[0], _mm256_setr_epi32(0, 3, 6, 1, 4, 7, 2, 5));
    __m256 y = _mm256_permutevar8x32_ps(xyz[1], _mm256_setr_epi32(5, 0, 3, 6, 1, 4, 7, 2));
    __m256 z = _mm256_permutevar8x32_ps(xyz[2], _mm256_setr_epi32(2, 5, 0, 3, 6, 1, 4, 7));
    _mm256_storeu_ps(dst, _mm256_blend_ps(_mm256_blend_ps(x, y, 0x92), z, 0x24));
    _mm256_storeu_ps(dst + 8, _mm256_blend_ps(_mm256_blend_ps(x, y, 0x24), z, 0x49));
    _mm256_storeu_ps(dst + 16, _mm256_blend_ps(_mm256_blend_ps(x, y, 0x49), z, 0x92));
}

/* Stored weight values at .. at + 7 as floats: the UNORM units as exact integers. */
AVX2_TARGET SPECIALISED __m256 stored8_avx2(const packed_mesh *m, size_t at, packed_weight_format wf)
{
    if (wf == PACKED_WEIGHT_FLOAT)
        return _mm256_loadu_ps(m->weight + at);
    if (wf == PACKED_WEIGHT_UNORM16)
        return _mm256_cvtepi32_ps(_mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(const void *)(m->weight16 + at))));
    return _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)(m->weight8 + at))));
}

/* The K weights of vertices v0 .. v0 + 7, w[i] slot i of each: the same floats as
 * packed_vertex_weights (the implied one as 1 minus the stored ones added in order, or in
 * the UNORM formats as U minus the stored units, exact in floats, times the unit). */
AVX2_TARGET SPECIALISED void weights8_avx2(const packed_mesh *m, size_t v0, const int k, packed_weight_format wf,
                                           __m256 *w)
{
    const int stored = k - 1;
    const size_t at = v0 * (size_t)stored;
    if (stored == 1) {
        w[0] = stored8_avx2(m, at, wf);
    } else if (stored == 3) {
        deinterleave3x8(stored8_avx2(m, at, wf), stored8_avx2(m, at + 8, wf), stored8_avx2(m, at + 16, wf), w);
    } else if (stored > 0) { /* K = 3, 5 to 8: through a buffer, lane j from float j * stored + i */
        float buf[8 * (PACKED_MAX_INFLUENCES - 1)];
KERNEL_UNROLLED(8)
        for (int r = 0; r < stored; r++)
            _mm256_storeu_ps(buf + 8 * r, stored8_avx2(m, at + 8 * (size_t)r, wf));
        const __m256i lane = _mm256_mullo_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32(stored));
KERNEL_UNROLLED(8)
        for (int i = 0; i < stored; i++)
            w[i] = _mm256_i32gather_ps(buf + i, lane, 4);
    }
    if (wf == PACKED_WEIGHT_FLOAT) {
        __m256 sum = _mm256_setzero_ps();
KERNEL_UNROLLED(8)
        for (int i = 0; i < stored; i++)
            sum = _mm256_add_ps(sum, w[i]);
        w[stored] = _mm256_sub_ps(_mm256_set1_ps(1.0f), sum);
        return;
    }
    const bool wide = wf == PACKED_WEIGHT_UNORM16;
    const __m256 unit = _mm256_set1_ps(wide ? 1.0f / 65535.0f : 1.0f / 255.0f);
    __m256 rest = _mm256_set1_ps(wide ? 65535.0f : 255.0f);
KERNEL_UNROLLED(8)
    for (int i = 0; i < stored; i++) {
        rest = _mm256_sub_ps(rest, w[i]);
        w[i] = _mm256_mul_ps(w[i], unit);
    }
    w[stored] = _mm256_mul_ps(rest, unit);
}

/* x, y, z of a stored vector, each in all four lanes. */
AVX2_TARGET SPECIALISED void broadcast3(const float *p, __m128 *x, __m128 *y, __m128 *z)
{
    *x = _mm_broadcast_ss(p);
    *y = _mm_broadcast_ss(p + 1);
    *z = _mm_broadcast_ss(p + 2);
}

/* One vertex, every argument after v but `decoded` a compile-time constant at its call.
 * `last`: the range's last vertex, stored with exactly 12 bytes; the others store 16 (one
 * aligned-free vector store), the 4th float landing on the next vertex's x, which is
 * written next. `decoded`: the vertex's K weights already decoded by decode8_avx2 (slot i
 * at decoded[8 i]), or NULL to read them from the mesh. */
AVX2_TARGET SPECIALISED void lbs_avx2_vertex(const fastskin_job *job, int v, const int k,
                                             const fastskin_normals normals, const packed_joint_format jf,
                                             const packed_weight_format wf, const bool quantized, const bool last,
                                             const float *decoded)
{
    const packed_mesh *m = job->mesh;
    const size_t vs = (size_t)v, at = vs * (size_t)(k - 1);
    /* columns 2-3 through a base of their own: both loads of an entry then address base +
     * 64 j directly, where one pointer to the entry would be computed first */
    const float *columns = job->columns[0].c[0], *columns23 = job->columns[0].c[2];
    __m256 c01, c23; /* columns 0-1 and 2-3 of the blended matrix */
    if (k == 1) {
        const float *src = columns + 16 * (size_t)joint_at(m, vs, 1, 0, jf);
        c01 = _mm256_loadu_ps(src);
        c23 = _mm256_loadu_ps(src + 8);
    } else {
        /* the first influence starts the sums: a multiply, not an add to zero */
        __m256 sum = decoded ? _mm256_broadcast_ss(decoded) : weight_avx2(m, at, wf);
        size_t e = 16 * (size_t)joint_at(m, vs, k, 0, jf);
        c01 = _mm256_mul_ps(sum, _mm256_loadu_ps(columns + e));
        c23 = _mm256_mul_ps(sum, _mm256_loadu_ps(columns23 + e));
KERNEL_UNROLLED(8) /* k is a constant here: straight-line code at -O2 too, as at -O3 */
        for (int i = 1; i + 1 < k; i++) {
            __m256 wi = decoded ? _mm256_broadcast_ss(decoded + 8 * i) : weight_avx2(m, at + (size_t)i, wf);
            e = 16 * (size_t)joint_at(m, vs, k, i, jf);
            sum = _mm256_add_ps(sum, wi);
            c01 = _mm256_fmadd_ps(wi, _mm256_loadu_ps(columns + e), c01);
            c23 = _mm256_fmadd_ps(wi, _mm256_loadu_ps(columns23 + e), c23);
        }
        __m256 wl = decoded ? _mm256_broadcast_ss(decoded + 8 * (k - 1)) : implied_avx2(m, at, k - 1, sum, wf);
        e = 16 * (size_t)joint_at(m, vs, k, k - 1, jf);
        c01 = _mm256_fmadd_ps(wl, _mm256_loadu_ps(columns + e), c01);
        c23 = _mm256_fmadd_ps(wl, _mm256_loadu_ps(columns23 + e), c23);
    }
    __m128 c0 = _mm256_castps256_ps128(c01), c1 = _mm256_extractf128_ps(c01, 1);
    __m128 c2 = _mm256_castps256_ps128(c23), c3 = _mm256_extractf128_ps(c23, 1);
    __m128 x, y, z;
    if (quantized) {
        const uint16_t *q = m->position16 + 3 * vs;
        x = _mm_set1_ps((float)q[0]), y = _mm_set1_ps((float)q[1]), z = _mm_set1_ps((float)q[2]);
    } else {
        broadcast3(m->position + 3 * vs, &x, &y, &z);
    }
    /* p' = c0 x + c1 y + c2 z + c3 */
    __m128 o = _mm_fmadd_ps(c0, x, _mm_fmadd_ps(c1, y, _mm_fmadd_ps(c2, z, c3)));
    float *out = job->out_position + 3 * vs;
    if (last)
        store3(out, o);
    else
        _mm_storeu_ps(out, o);
    if (normals == FASTSKIN_NO_NORMALS)
        return;
    broadcast3(m->normal + 3 * vs, &x, &y, &z);
    /* n' = c0 nx + c1 ny + c2 nz */
    __m128 n = _mm_fmadd_ps(c0, x, _mm_fmadd_ps(c1, y, _mm_mul_ps(c2, z)));
    if (normals == FASTSKIN_UNIT_NORMALS) {
        __m128 len = _mm_sqrt_ps(_mm_dp_ps(n, n, 0x7F));
        n = _mm_blendv_ps(n, _mm_div_ps(n, len), _mm_cmpgt_ps(len, _mm_setzero_ps()));
    }
    out = job->out_normal + 3 * vs;
    if (last)
        store3(out, n);
    else
        _mm_storeu_ps(out, n);
}

/* The K weights of vertices v0 .. v0 + 7 decoded (weights8_avx2) into `decoded`, slot i of
 * vertex j at decoded[8 i + j]. */
AVX2_TARGET SPECIALISED void decode8_avx2(const packed_mesh *m, size_t v0, const int k, packed_weight_format wf,
                                          float *decoded)
{
    __m256 w[PACKED_MAX_INFLUENCES];
    weights8_avx2(m, v0, k, wf, w);
KERNEL_UNROLLED(8)
    for (int i = 0; i < k; i++)
        _mm256_store_ps(decoded + 8 * i, w[i]);
}

AVX2_TARGET SPECIALISED void lbs_avx2_loop(const fastskin_job *job, int begin, int end,
                                           const fastskin_normals normals, const packed_joint_format jf,
                                           const packed_weight_format wf, const bool quantized)
{
#define AVX2_LOOP(K)                                                                            \
    do {                                                                                        \
        int v = begin;                                                                          \
        if (K > 1 && wf != PACKED_WEIGHT_FLOAT) { /* UNORM: decoded eight at a time */        \
            float decoded[2][8 * PACKED_MAX_INFLUENCES] __attribute__((aligned(32)));           \
            int b = 0;                                                                          \
            if (v + 8 < end)                                                                    \
                decode8_avx2(job->mesh, (size_t)v, K, wf, decoded[0]);                          \
            for (; v + 8 < end; v += 8, b ^= 1) { /* the last vertex is left to the loop below */ \
                /* the next block's weights decoded a block ahead: broadcasts reading them   \
                 * straight after their stores waited for them (CHANGES.md measures it) */     \
                if (v + 16 < end)                                                               \
                    decode8_avx2(job->mesh, (size_t)v + 8, K, wf, decoded[b ^ 1]);              \
                KERNEL_UNROLLED(8)                                                                        \
                for (int j = 0; j < 8; j++)                                                     \
                    lbs_avx2_vertex(job, v + j, K, normals, jf, wf, quantized, false, decoded[b] + j); \
            }                                                                                   \
        }                                                                                       \
        _Pragma("GCC unroll 2") /* the streams' steps and the loop test once for two */       \
        for (; v + 1 < end; v++)                                                                \
            lbs_avx2_vertex(job, v, K, normals, jf, wf, quantized, false, NULL);                \
        lbs_avx2_vertex(job, end - 1, K, normals, jf, wf, quantized, true, NULL);               \
    } while (0)
    FOR_EACH_K(job->mesh->influences, AVX2_LOOP)
#undef AVX2_LOOP
}

/* The vertex format, then the normals choice, as constants. */
AVX2_TARGET SPECIALISED void lbs_avx2_format(const fastskin_job *job, int begin, int end,
                                             const packed_joint_format jf, const packed_weight_format wf)
{
#define AVX2_NORMALS(N, Q) lbs_avx2_loop(job, begin, end, N, jf, wf, Q)
    FOR_EACH_NORMALS(job, AVX2_NORMALS);
#undef AVX2_NORMALS
}

AVX2_TARGET static int lbs_avx2(const fastskin_job *caller, int begin, int end)
{
    fastskin_job local;
    packed_mesh local_mesh;
    const fastskin_job *job = localize(caller, &local, &local_mesh);
    if (begin >= end)
        return -1;
#define AVX2_FORMAT(JF, WF) lbs_avx2_format(job, begin, end, JF, WF)
    FOR_EACH_FORMAT(job->mesh, AVX2_FORMAT);
#undef AVX2_FORMAT
    return -1;
}

/* ---- AVX2 DQS: eight vertices at a time, one per lane ---------------------------------------
 *
 * A vertex's dual quaternion blend is eight independent sums, and its hemisphere test, its
 * norm and Kavan's transform are a few dozen products: done one vertex at a time they need
 * dot products across a register (_mm_dp_ps) and shuffles for every cross product. Here
 * lane j of every register is vertex j of a block of eight, each register one component
 * (w, x, y, z of the real part, then of the dual part), so every step is a plain vertical
 * multiply-add, and the shuffling is paid once per palette entry loaded: eight dual
 * quaternions (32 bytes each) become eight component registers by one 4x4 transpose per
 * half. A range's last 1 to 7 vertices run through the same block (dqs_avx2_tail), so a
 * vertex's bits never depend on where its range ends, and the thread count changes none. */

/* Four floats at `offset` (0: the real part w, x, y, z; 4: the dual part) of eight palette
 * entries as four component registers, lane j entry j: entries j and j + 4 share a register
 * (low and high half) before a 4x4 transpose within each half. */
AVX2_TARGET static inline void transpose4x8(const float *const *entry, int offset, __m256 *q)
{
    __m256 r[4];
KERNEL_UNROLLED(8)
    for (int j = 0; j < 4; j++)
        r[j] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(entry[j] + offset)),
                                    _mm_loadu_ps(entry[j + 4] + offset), 1);
    __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
    __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
    q[0] = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
    q[1] = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
    q[2] = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
    q[3] = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
}

/* Kavan's transform (dq_apply) of eight points, or without the shift eight normals, by the
 * blended, unnormalised q^ = (a0, d0; ae, de) in b[0..7]; `two` is 2 / |q_0|^2: both
 * correction terms are quadratic in q^, so dividing them by |q_0|^2 replaces normalising
 * q^ first, and no square root is needed. */
AVX2_TARGET static inline void dq_apply8(const __m256 *b, __m256 two, const __m256 *p, __m256 *out, bool translate)
{
    const __m256 a0 = b[0], dx = b[1], dy = b[2], dz = b[3];
    /* c1 = d0 x p + a0 p, c2 = d0 x c1 */
    __m256 c1x = _mm256_fmadd_ps(a0, p[0], _mm256_fmsub_ps(dy, p[2], _mm256_mul_ps(dz, p[1])));
    __m256 c1y = _mm256_fmadd_ps(a0, p[1], _mm256_fmsub_ps(dz, p[0], _mm256_mul_ps(dx, p[2])));
    __m256 c1z = _mm256_fmadd_ps(a0, p[2], _mm256_fmsub_ps(dx, p[1], _mm256_mul_ps(dy, p[0])));
    out[0] = _mm256_fmadd_ps(two, _mm256_fmsub_ps(dy, c1z, _mm256_mul_ps(dz, c1y)), p[0]);
    out[1] = _mm256_fmadd_ps(two, _mm256_fmsub_ps(dz, c1x, _mm256_mul_ps(dx, c1z)), p[1]);
    out[2] = _mm256_fmadd_ps(two, _mm256_fmsub_ps(dx, c1y, _mm256_mul_ps(dy, c1x)), p[2]);
    if (!translate)
        return;
    /* + 2 (a0 de - ae d0 + d0 x de) */
    const __m256 ae = b[4], ex = b[5], ey = b[6], ez = b[7];
    out[0] = _mm256_fmadd_ps(two, _mm256_add_ps(_mm256_fmsub_ps(a0, ex, _mm256_mul_ps(ae, dx)),
                                                _mm256_fmsub_ps(dy, ez, _mm256_mul_ps(dz, ey))), out[0]);
    out[1] = _mm256_fmadd_ps(two, _mm256_add_ps(_mm256_fmsub_ps(a0, ey, _mm256_mul_ps(ae, dy)),
                                                _mm256_fmsub_ps(dz, ex, _mm256_mul_ps(dx, ez))), out[1]);
    out[2] = _mm256_fmadd_ps(two, _mm256_add_ps(_mm256_fmsub_ps(a0, ez, _mm256_mul_ps(ae, dz)),
                                                _mm256_fmsub_ps(dx, ey, _mm256_mul_ps(dy, ex))), out[2]);
}

/* Eight points (or normals) from `in` to `out` (24 floats each) by dq_apply8; the lanes
 * not in `ok` keep their input. */
AVX2_TARGET SPECIALISED void dq_apply3x8(const __m256 *b, __m256 two, __m256 ok, const float *in, float *out,
                                           bool translate)
{
    __m256 p[3], o[3];
    load3x8(in, p);
    dq_apply8(b, two, p, o, translate);
KERNEL_UNROLLED(8)
    for (int c = 0; c < 3; c++)
        o[c] = _mm256_blendv_ps(p[c], o[c], ok);
    store3x8(out, o);
}

/* Vertices v0 .. v0 + 7 of mesh m, written at out_position (and out_normal) + 3 v0; returns
 * the lanes whose blend vanished as bits (those vertices keep their bind data). */
AVX2_TARGET SPECIALISED int dqs_avx2_block(const float *palette, const packed_mesh *m, size_t v0, const int k,
                                           const packed_joint_format jf, const packed_weight_format wf,
                                           const bool normals, float *out_position, float *out_normal)
{
    __m256 w[PACKED_MAX_INFLUENCES], q[4], b[8], pivot[4];
    const float *entry[8];
    const void *joints = jf == PACKED_JOINT_U8 ? (const void *)(m->joint8 + v0 * (size_t)k)
                                               : (const void *)(m->joint + v0 * (size_t)k);
    weights8_avx2(m, v0, k, wf, w);
    /* the real parts first, the dual parts after: twelve registers of sums and pivot and
     * four of entries stay within the sixteen AVX2 has. Slot 0 is the pivot: its own sign
     * needs no test. */
    block_entries(palette, 8, joints, k, 0, jf, 8, entry);
    transpose4x8(entry, 0, pivot);
KERNEL_UNROLLED(8)
    for (int c = 0; c < 4; c++)
        b[c] = _mm256_mul_ps(w[0], pivot[c]);
    transpose4x8(entry, 4, q);
KERNEL_UNROLLED(8)
    for (int c = 0; c < 4; c++)
        b[4 + c] = _mm256_mul_ps(w[0], q[c]);
KERNEL_UNROLLED(8) /* k is a constant here */
    for (int i = 1; i < k; i++) {
        block_entries(palette, 8, joints, k, i, jf, 8, entry);
        transpose4x8(entry, 0, q);
        /* the hemisphere fix without a branch: w takes the sign of q_0 . pivot_0 */
        __m256 dot = _mm256_fmadd_ps(q[3], pivot[3], _mm256_fmadd_ps(q[2], pivot[2],
                                     _mm256_fmadd_ps(q[1], pivot[1], _mm256_mul_ps(q[0], pivot[0]))));
        __m256 s = _mm256_xor_ps(w[i], _mm256_and_ps(dot, _mm256_set1_ps(-0.0f)));
KERNEL_UNROLLED(8)
        for (int c = 0; c < 4; c++)
            b[c] = _mm256_fmadd_ps(s, q[c], b[c]);
        transpose4x8(entry, 4, q);
KERNEL_UNROLLED(8)
        for (int c = 0; c < 4; c++)
            b[4 + c] = _mm256_fmadd_ps(s, q[c], b[4 + c]);
    }
    __m256 norm2 = _mm256_fmadd_ps(b[3], b[3], _mm256_fmadd_ps(b[2], b[2],
                                   _mm256_fmadd_ps(b[1], b[1], _mm256_mul_ps(b[0], b[0]))));
    __m256 ok = _mm256_cmp_ps(norm2, _mm256_set1_ps(DQ_MIN_NORM * DQ_MIN_NORM), _CMP_GT_OQ);
    /* 2 / |q_0|^2 by an exactly rounded divide (_mm256_rcp_ps differs between CPU vendors,
     * and outputs must not); lanes that failed divide by zero and are not kept */
    __m256 two = _mm256_mul_ps(_mm256_set1_ps(2.0f), _mm256_div_ps(_mm256_set1_ps(1.0f), norm2));
    dq_apply3x8(b, two, ok, m->position + 3 * v0, out_position + 3 * v0, true);
    if (normals)
        dq_apply3x8(b, two, ok, m->normal + 3 * v0, out_normal + 3 * v0, false);
    return ~_mm256_movemask_ps(ok) & 0xFF;
}

/* The last `count` (1 to 7) vertices of a range from v, as one block (tail_block), through
 * one copy of the block for every K and format: with the intrinsics' operations in the
 * same order, the floats are those of the loops' specialised copies (the thread-count
 * test compares them bit for bit). */
AVX2_TARGET __attribute__((noinline)) static int dqs_avx2_tail(const fastskin_job *job, size_t v, int count)
{
    const packed_mesh *m = job->mesh;
    tail_block t;
    if (!tail_block_fill(&t, m, v, count, job->normals != FASTSKIN_NO_NORMALS))
        return 0;
    int failed = dqs_avx2_block(job->dualquats[0].real, &t.mesh, 0, m->influences, m->joint_format, m->weight_format,
                                job->normals != FASTSKIN_NO_NORMALS, t.out_position, t.out_normal);
    return (int)tail_block_return(&t, job, v, (unsigned)failed);
}

AVX2_TARGET SPECIALISED int dqs_avx2_loop(const fastskin_job *job, int begin, int end, const packed_joint_format jf,
                                          const bool normals)
{
    const packed_mesh *m = job->mesh;
    const packed_weight_format wf = m->weight_format;
    const float *palette = job->dualquats[0].real;
    int failed = -1;
#define DQS_BLOCK(v) dqs_avx2_block(palette, m, (size_t)(v), k_, jf, wf, normals, job->out_position, job->out_normal)
#define DQS_TAIL(v, count) dqs_avx2_tail(job, (size_t)(v), count)
#define DQS_LOOP(K)                                                                             \
    do {                                                                                        \
        const int k_ = K;                                                                       \
        FOR_EACH_BLOCK(begin, end, 8, failed, DQS_BLOCK, DQS_TAIL);                             \
    } while (0)
    FOR_EACH_K(m->influences, DQS_LOOP)
#undef DQS_BLOCK
#undef DQS_TAIL
#undef DQS_LOOP
    return failed;
}

/* The joint format and the normals choice as constants (the weight format is decided once
 * per block of eight, which costs nothing measurable, and keeps the file's compile time). */
AVX2_TARGET SPECIALISED int dqs_avx2_format(const fastskin_job *job, int begin, int end, const packed_joint_format jf)
{
    return job->normals ? dqs_avx2_loop(job, begin, end, jf, true) : dqs_avx2_loop(job, begin, end, jf, false);
}

AVX2_TARGET static int dqs_avx2(const fastskin_job *caller, int begin, int end)
{
    fastskin_job local;
    packed_mesh local_mesh;
    const fastskin_job *job = localize(caller, &local, &local_mesh);
    if (job->mesh->joint_format == PACKED_JOINT_U16)
        return dqs_avx2_format(job, begin, end, PACKED_JOINT_U16);
    return dqs_avx2_format(job, begin, end, PACKED_JOINT_U8);
}
#endif /* FASTSKIN_X86 */

/* ---- levels ---------------------------------------------------------------------------- */

const char *simd_level_name(simd_level level)
{
    static const char *const names[SIMD_LEVEL_COUNT] = {"scalar", "sse2", "avx2", "avx512"};
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
    if (level == SIMD_AVX512)
        return fastskin_avx512_supported();
    return false;
}

simd_level simd_best_level(void)
{
    for (int l = SIMD_LEVEL_COUNT - 1; l > 0; l--)
        if (simd_level_available((simd_level)l))
            return (simd_level)l;
    return SIMD_SCALAR;
}

void simd_cpu_signature(unsigned eax, int *family, int *model)
{
    int base = (int)(eax >> 8 & 0xf), low = (int)(eax >> 4 & 0xf);
    *family = base == 0xf ? base + (int)(eax >> 20 & 0xff) : base;
    *model = base == 0xf || base == 6 ? low + (int)((eax >> 16 & 0xf) << 4) : low;
}

simd_cpu simd_cpu_running(void)
{
    simd_cpu cpu = {"", 0, 0, ""};
#if FASTSKIN_X86
    unsigned a, b, c, d;
    if (__get_cpuid(0, &a, &b, &c, &d)) {
        memcpy(cpu.vendor, &b, 4), memcpy(cpu.vendor + 4, &d, 4), memcpy(cpu.vendor + 8, &c, 4);
        cpu.vendor[12] = '\0';
    }
    if (__get_cpuid(1, &a, &b, &c, &d))
        simd_cpu_signature(a, &cpu.family, &cpu.model);
    unsigned brand[12];
    if (__get_cpuid(0x80000000u, &a, &b, &c, &d) && a >= 0x80000004u) {
        for (unsigned leaf = 0; leaf < 3; leaf++)
            __get_cpuid(0x80000002u + leaf, &brand[4 * leaf], &brand[4 * leaf + 1], &brand[4 * leaf + 2],
                        &brand[4 * leaf + 3]);
        memcpy(cpu.brand, brand, 48);
        cpu.brand[48] = '\0';
    }
#endif
    return cpu;
}

simd_level fastskin_level_rule(const simd_cpu *cpu, simd_level best, skin_method method, fastskin_normals normals,
                               bool compressed)
{
    (void)method, (void)normals; /* every method and normals choice measured: the same (fastskin.h) */
    if (best != SIMD_AVX512)
        return best;
    bool amd = !strcmp(cpu->vendor, "AuthenticAMD");
    bool measured_faster = amd && cpu->family >= (compressed ? 26 : 25); /* Zen 5; Zen 4 for 44 bytes */
    return measured_faster ? SIMD_AVX512 : SIMD_AVX2;
}

simd_level fastskin_default_level(skin_method method, fastskin_normals normals, const packed_mesh *mesh)
{
    simd_cpu cpu = simd_cpu_running(); /* a few cpuid instructions: no state kept */
    bool compressed = mesh && (mesh->joint_format != PACKED_JOINT_U16 || mesh->weight_format != PACKED_WEIGHT_FLOAT);
    return fastskin_level_rule(&cpu, simd_best_level(), method, normals, compressed);
}

static range_kernel kernel_for(simd_level level, skin_method method)
{
    if (level == SIMD_AVX512)
        return method == SKIN_DQS ? fastskin_dqs_avx512 : fastskin_lbs_avx512;
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
    if (threads < 1 || threads > FASTSKIN_MAX_THREADS)
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "fastskin job", "%d threads, 1 to %d", threads,
                         FASTSKIN_MAX_THREADS);
    if (threads > 1 && (!job->pool || fastskin_pool_workers(job->pool) < threads - 1))
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "fastskin job",
                         "%d threads need a pool of at least %d workers (fastskin_pool_create), it has %d",
                         threads, threads - 1, job->pool ? fastskin_pool_workers(job->pool) : 0);
    if (m->count == 0)
        return LAB_OK;
    if (job->joint_count <= m->max_joint)
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "fastskin palette",
                         "%d entries, the mesh uses joint %d", job->joint_count, m->max_joint);
    if ((job->method == SKIN_DQS ? (const void *)job->dualquats : (const void *)job->columns) == NULL ||
        !job->out_position || (job->normals && (!job->out_normal || !m->normal)))
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "fastskin job", "%s", "a palette or an output is missing");
    if ((unsigned)job->normals > FASTSKIN_RAW_NORMALS)
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "fastskin job", "normals choice %d", (int)job->normals);
    if (m->position16 && (job->method == SKIN_DQS || job->normals))
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "fastskin job", "%s",
                         "quantised positions are for LBS positions only (their dequantisation is folded "
                         "into the matrix palette)");
    const void *palette = job->method == SKIN_DQS ? (const void *)job->dualquats : (const void *)job->columns;
    const size_t align = job->method == SKIN_DQS ? _Alignof(palette_dualquat) : _Alignof(palette_columns);
    if ((uintptr_t)palette % align != 0)
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "fastskin palette",
                         "at %p, not on a %zu-byte boundary as its type requires (allocate it with "
                         "aligned_alloc: packed.h)",
                         palette, align);
    if (!simd_level_available(job->level))
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "fastskin job", "SIMD level %s is not available here",
                         simd_level_name(job->level));
    return LAB_OK;
}

/* ---- the persistent pool ---------------------------------------------------------------- */

typedef struct {
    const fastskin_job *job;
    range_kernel kernel;
    int begin, end, failed;
} range_task;

static void run_range(void *ctx, int part)
{
    range_task *t = (range_task *)ctx + part;
    t->failed = t->kernel(t->job, t->begin, t->end);
}

/* How long a waiting thread polls before it sleeps: about 50 us of pause instructions,
 * enough to bridge back-to-back frames without a system call, short enough that an idle
 * pool costs nothing. */
#define POOL_SPINS 20000

static inline void pool_pause(void)
{
#if FASTSKIN_X86
    _mm_pause();
#endif
}

struct fastskin_pool {
    int workers;
    pthread_t *thread;
    pthread_mutex_t lock;
    pthread_cond_t wake, done;
    atomic_uint generation;    /* bumped (under lock) for each job */
    atomic_int pending;        /* workers still running the current job */
    atomic_bool quit;
    void (*fn)(void *ctx, int part); /* the current job: part 1 + i is worker i's */
    void *ctx;
    int parts;
};

typedef struct { fastskin_pool *pool; int index; } worker_arg;

static void *pool_worker(void *arg)
{
    fastskin_pool *p = ((worker_arg *)arg)->pool;
    const int index = ((worker_arg *)arg)->index;
    free(arg);
    unsigned seen = 0;
    for (;;) {
        for (int spin = 0; spin < POOL_SPINS && atomic_load(&p->generation) == seen && !atomic_load(&p->quit); spin++)
            pool_pause();
        pthread_mutex_lock(&p->lock);
        while (atomic_load(&p->generation) == seen && !atomic_load(&p->quit))
            pthread_cond_wait(&p->wake, &p->lock);
        /* the job as one snapshot, under the lock it was posted under: a worker with no part
         * in it may wake late, when the next job is being posted */
        seen = atomic_load(&p->generation);
        void (*fn)(void *, int) = p->fn;
        void *ctx = p->ctx;
        int parts = p->parts;
        pthread_mutex_unlock(&p->lock);
        if (atomic_load(&p->quit))
            return NULL;
        if (1 + index < parts) {
            fn(ctx, 1 + index);
            if (atomic_fetch_sub(&p->pending, 1) == 1) {
                pthread_mutex_lock(&p->lock);
                pthread_cond_signal(&p->done);
                pthread_mutex_unlock(&p->lock);
            }
        }
    }
}

int fastskin_pool_workers(const fastskin_pool *pool) { return pool ? pool->workers : 0; }

void fastskin_pool_destroy(fastskin_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    atomic_store(&p->quit, true);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    for (int i = 0; i < p->workers; i++)
        pthread_join(p->thread[i], NULL);
    pthread_cond_destroy(&p->wake);
    pthread_cond_destroy(&p->done);
    pthread_mutex_destroy(&p->lock);
    free(p->thread);
    free(p);
}

lab_error fastskin_pool_create(int workers, fastskin_pool **out, lab_diag *d)
{
    *out = NULL;
    if (workers < 0 || workers > FASTSKIN_MAX_THREADS - 1)
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "fastskin pool", "%d workers, 0 to %d", workers,
                         FASTSKIN_MAX_THREADS - 1);
    fastskin_pool *p = calloc(1, sizeof *p);
    if (!p || !(p->thread = calloc((size_t)workers + 1, sizeof *p->thread))) {
        free(p);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "fastskin pool", "%d workers", workers);
    }
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->done, NULL);
    atomic_init(&p->generation, 0u);
    atomic_init(&p->pending, 0);
    atomic_init(&p->quit, false);
    for (; p->workers < workers; p->workers++) {
        worker_arg *arg = malloc(sizeof *arg);
        if (arg)
            *arg = (worker_arg){p, p->workers};
        if (!arg || pthread_create(&p->thread[p->workers], NULL, pool_worker, arg) != 0) {
            int p_started = p->workers;
            free(arg);
            fastskin_pool_destroy(p);
            return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "fastskin pool", "starting worker %d of %d failed",
                             p_started + 1, workers);
        }
    }
    *out = p;
    return LAB_OK;
}

void fastskin_pool_run(fastskin_pool *p, int parts, void (*fn)(void *ctx, int part), void *ctx)
{
    if (parts <= 1 || !p) {
        for (int part = 0; part < parts; part++) /* validated callers never pass parts > 1 here */
            fn(ctx, part);
        return;
    }
    pthread_mutex_lock(&p->lock);
    p->fn = fn;
    p->ctx = ctx;
    p->parts = parts;
    atomic_store(&p->pending, parts - 1);
    atomic_fetch_add(&p->generation, 1u);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    fn(ctx, 0);
    for (int spin = 0; spin < POOL_SPINS && atomic_load(&p->pending) > 0; spin++)
        pool_pause();
    pthread_mutex_lock(&p->lock);
    while (atomic_load(&p->pending) > 0)
        pthread_cond_wait(&p->done, &p->lock);
    pthread_mutex_unlock(&p->lock);
}

lab_error fastskin_run(const fastskin_job *job, lab_diag *d)
{
    lab_error e = fastskin_validate(job, d);
    if (e != LAB_OK || job->mesh->count == 0)
        return e;
    int threads = job->threads ? job->threads : 1, n = job->mesh->count;
    range_task task[FASTSKIN_MAX_THREADS];
    range_kernel kernel = kernel_for(job->level, job->method);
    for (int t = 0; t < threads; t++) /* contiguous ranges; the split never changes a result */
        task[t] = (range_task){job, kernel, (int)((long long)n * t / threads),
                               (int)((long long)n * (t + 1) / threads), -1};
    fastskin_pool_run(job->pool, threads, run_range, task);
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
