/* fastskin_avx512.c - the AVX-512 level of fastskin (see fastskin.h): sixteen floats a
 * register.
 *
 * LBS, four vertices a pass, each blended in a register of its own: a palette entry's
 * column-major 4x4 is one register, read by one load of one cache line (palette_columns
 * is aligned to 64: packed.h), so the blend of K entries is K - 1 multiply-adds of whole
 * matrices, the implied last weight folded in as M_last + sum w_i (M_i - M_last) (AVX2
 * needs two an entry), and the blended matrix meets the position as
 * (x x x x y y y y z z z z 1 1 1 1): one product, whose four quarters, added, are
 * c0 x + c1 y + c2 z + c3. The four vertices' products are added together, quarter j of
 * one register vertex j's sum (quarters_sum4: no horizontal sum a vertex), normalised
 * there for unit normals (one square root and one divide for four), and stored as 48
 * bytes. A range's last 2 to 5 vertices go one by one, in the same operations' order, so
 * the thread split changes no bit.
 * DQS, sixteen vertices at a time, lane j vertex j, as the AVX2 kernel does with eight:
 * each register one component of sixteen dual quaternions, so the hemisphere test, the
 * norm and Kavan's transform are vertical multiply-adds; sixteen palette entries become
 * eight component registers by a 4x4 transpose within each 128-bit quarter and one
 * shuffle of quarters. A range's last 1 to 15 vertices run through the same block
 * (tail_block), so the thread split changes no bit.
 *
 * Written in the vector extensions gcc and clang share (vectors of 16 floats, arithmetic
 * on whole vectors, __builtin_shufflevector), plus a few operations taken from the
 * intrinsics, where the compilers' generic code is slow or not fused: the multiply-add,
 * the widening of u8 and u16 units to floats, the square root, the shuffle of quarters
 * and the loads of part of a register (masked, or plain loads of 8 and 16 bytes).
 * Compiled for AVX-512 (F, VL, BW, DQ) the vectors are zmm registers and the shuffles
 * vpermt2ps and friends; the level is offered where the CPU has those
 * (fastskin_avx512_supported). Compiled with FASTSKIN_AVX512_TWIN the same lines build for
 * any CPU, those operations lane by lane (fmaf is the same correctly rounded fused
 * operation, sqrtf the same correctly rounded root, the conversions are exact):
 * that twin is how the tests run this level's code on a machine without AVX-512
 * (build/tests/test_fastskin_avx512_twin runs test_fastskin.c's suite with it).
 */
#define _POSIX_C_SOURCE 200809L
/* the generic-K copies of loops marked KERNEL_UNROLLED stay loops, as meant (fastskin_kernels.h) */
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wpass-failed"
#endif
#include "skin/fastskin_kernels.h"

#include <math.h>
#include <string.h>

/* No multiply-add is fused but those written as one (fma16): gcc fuses none in ISO C
 * mode (-std=c11), clang would fuse a * b + c within an expression. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#if defined(FASTSKIN_AVX512_TWIN)
#define AVX512_BUILT 1
#define AVX512_TARGET /* built with -Wno-psabi (Makefile): its 64-byte vectors pass only
                         between this file's own static functions, compiled alike */
#elif defined(__x86_64__) || defined(__i386__)
#define AVX512_BUILT 1
#define AVX512_TARGET __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq,avx2,fma")))
#include <immintrin.h>
#else
#define AVX512_BUILT 0
#endif

bool fastskin_avx512_supported(void)
{
#if defined(FASTSKIN_AVX512_TWIN)
    return true; /* plain C: runs anywhere */
#elif AVX512_BUILT
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
           __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
           __builtin_cpu_supports("fma");
#else
    return false;
#endif
}

#if AVX512_BUILT

typedef float v16f __attribute__((vector_size(64)));
typedef int32_t v16i __attribute__((vector_size(64)));
typedef float v8f __attribute__((vector_size(32)));

#define LANES 16
#if defined(FASTSKIN_AVX512_TWIN)
/* the twin's inlining left to the compiler: forced, its lane loops made gcc take 13
 * minutes over this file */
#define KERNEL static inline
#else
#define KERNEL AVX512_TARGET SPECIALISED
#endif

KERNEL v16f splat(float s) { return (v16f){s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s}; }

KERNEL v16f load16(const float *p)
{
    v16f v;
    memcpy(&v, p, sizeof v);
    return v;
}

KERNEL void store16(float *p, v16f v) { memcpy(p, &v, sizeof v); }

/* a b + c, rounded once */
KERNEL v16f fma16(v16f a, v16f b, v16f c)
{
#if defined(FASTSKIN_AVX512_TWIN)
    v16f r;
    for (int j = 0; j < LANES; j++)
        r[j] = fmaf(a[j], b[j], c[j]);
    return r;
#else
    return _mm512_fmadd_ps(a, b, c);
#endif
}

/* a b - c, rounded once */
KERNEL v16f fms16(v16f a, v16f b, v16f c) { return fma16(a, b, -c); }

/* p[0], p[1], p[2] in lanes 0 to 2 (the others zero), reading nothing past p[2]. */
KERNEL v16f load3(const float *p)
{
#if defined(FASTSKIN_AVX512_TWIN)
    return (v16f){p[0], p[1], p[2]};
#else
    return _mm512_maskz_loadu_ps(0x7, p);
#endif
}

/* p[0], p[1], p[2] in lanes 0 to 2, by a plain 16-byte load: the 4th float (the next
 * vertex's x) and the lanes above are whatever they are, and unused. Only where p[3] is
 * inside the stream: a range's last vertex takes load3. Streaming from memory, the masked
 * load costs 2.3 to 2.8 ns a vertex on an AMD EPYC, the plain one 0.9 (the palette page). */
KERNEL v16f load3_plain(const float *p)
{
#if defined(FASTSKIN_AVX512_TWIN)
    return (v16f){p[0], p[1], p[2]};
#else
    return _mm512_castps128_ps512(_mm_loadu_ps(p));
#endif
}

/* Quantised units q[0], q[1], q[2] as floats in lanes 0 to 2: one 8-byte load and two
 * conversions, where q[3] (the next vertex's x, unused) is inside the stream; a range's
 * last vertex converts its three units one by one (the three scalar conversions made the
 * whole quantised vertex slower than AVX2's: the palette page). */
KERNEL v16f load3_units(const uint16_t *q, bool last)
{
#if !defined(FASTSKIN_AVX512_TWIN)
    if (!last)
        return _mm512_castps128_ps512(_mm_cvtepi32_ps(_mm_cvtepu16_epi32(_mm_loadl_epi64((const __m128i *)(const void *)q))));
#endif
    (void)last;
    return (v16f){(float)q[0], (float)q[1], (float)q[2]};
}

/* The `stored` UNORM weights from unit `at` as floats in lanes 0 to stored - 1, each its
 * unit times 1 / 65535 or 1 / 255 as packed_weights_at computes it: one load of 4 (or, for
 * 5 to 7 stored, 8) units and three conversions, where the units past this vertex's are the
 * next vertex's, inside the stream (not a range's last vertex, and at least 2 stored); the
 * others unit by unit. Three scalar conversions a vertex made u8 + UNORM8 slower than
 * AVX2's, which decodes eight vertices' weights at a time. */
KERNEL v8f unorm_weights(const packed_mesh *m, size_t at, const int stored, const packed_weight_format wf,
                         const bool last)
{
    const float unit = wf == PACKED_WEIGHT_UNORM16 ? 1.0f / 65535.0f : 1.0f / 255.0f;
    v8f w = {0};
#if !defined(FASTSKIN_AVX512_TWIN)
    if (!last && stored >= 2) {
        __m128i raw;
        if (wf == PACKED_WEIGHT_UNORM16)
            raw = stored <= 4 ? _mm_loadl_epi64((const __m128i *)(const void *)(m->weight16 + at))
                              : _mm_loadu_si128((const __m128i *)(const void *)(m->weight16 + at));
        else if (stored <= 4) {
            int32_t four;
            memcpy(&four, m->weight8 + at, sizeof four);
            raw = _mm_cvtsi32_si128(four);
        } else {
            raw = _mm_loadl_epi64((const __m128i *)(const void *)(m->weight8 + at));
        }
        const __m256i units = wf == PACKED_WEIGHT_UNORM16 ? _mm256_cvtepu16_epi32(raw) : _mm256_cvtepu8_epi32(raw);
        return _mm256_cvtepi32_ps(units) * (v8f){unit, unit, unit, unit, unit, unit, unit, unit};
    }
#endif
    (void)last;
    for (int i = 0; i < stored; i++)
        w[i] = (float)(wf == PACKED_WEIGHT_UNORM16 ? m->weight16[at + (size_t)i] : m->weight8[at + (size_t)i]) * unit;
    return w;
}

/* Lanes of a where mask is all ones, of b where it is zero. */
KERNEL v16f select16(v16i mask, v16f a, v16f b) { return (v16f)(((v16i)a & mask) | ((v16i)b & ~mask)); }

/* Sixteen stored weight values from `at` as floats: the UNORM units as exact integers. */
KERNEL v16f units16(const packed_mesh *m, size_t at, packed_weight_format wf)
{
    if (wf == PACKED_WEIGHT_FLOAT)
        return load16(m->weight + at);
#if defined(FASTSKIN_AVX512_TWIN)
    v16f r;
    for (int j = 0; j < LANES; j++)
        r[j] = (float)(wf == PACKED_WEIGHT_UNORM16 ? m->weight16[at + (size_t)j] : m->weight8[at + (size_t)j]);
    return r;
#else
    if (wf == PACKED_WEIGHT_UNORM16)
        return _mm512_cvtepi32_ps(_mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(m->weight16 + at))));
    return _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(m->weight8 + at))));
#endif
}

/* ---- LBS: one vertex, its blended matrix in one register --------------------------------- */

/* b's columns times x x x x y y y y z z z z w w w w (x, y, z lanes 0 to 2 of p). */
KERNEL v16f columns_times(v16f b, v16f p, float w)
{
    return b * __builtin_shufflevector(p, splat(w), 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 16, 16, 16, 16);
}

/* Vertex vs's blended matrix, all four columns at once: sum of w_i M_i with the implied
 * last weight 1 - (w_0 + ... + w_{K-2}) folded in, M_last + sum_{i<K-1} w_i (M_i - M_last),
 * so that only the stored weights are read, each broadcast into its multiply-add, and the
 * implied one is never formed (five instructions a vertex fewer than sum w_i M_i at
 * K = 4; the palette page). Every argument after vs a compile-time constant. */
KERNEL v16f lbs16_blend(const fastskin_job *job, size_t vs, const int k, const packed_joint_format jf,
                        const packed_weight_format wf, const bool last)
{
    const packed_mesh *m = job->mesh;
    const float *columns = job->columns[0].c[0];
    const v16f m_last = load16(columns + 16 * (size_t)joint_at(m, vs, k, k - 1, jf));
    v16f b = m_last;
    const size_t at = vs * (size_t)(k - 1);
    const v8f units = wf == PACKED_WEIGHT_FLOAT ? (v8f){0} : unorm_weights(m, at, k - 1, wf, last);
KERNEL_UNROLLED(8) /* k is a constant here */
    for (int i = 0; i + 1 < k; i++) {
        float w = wf == PACKED_WEIGHT_FLOAT ? m->weight[at + (size_t)i] : units[i];
        b = fma16(splat(w), load16(columns + 16 * (size_t)joint_at(m, vs, k, i, jf)) - m_last, b);
    }
    return b;
}

KERNEL v16f lbs16_position(const packed_mesh *m, size_t vs, const bool quantized, const bool last)
{
    return quantized ? load3_units(m->position16 + 3 * vs, last)
           : last    ? load3(m->position + 3 * vs)
                     : load3_plain(m->position + 3 * vs);
}

/* Quarters of the pair (a, b): i and j of a, then k and l of b (vshuff32x4). */
#if defined(FASTSKIN_AVX512_TWIN)
#define Q4(n) 4 * (n), 4 * (n) + 1, 4 * (n) + 2, 4 * (n) + 3
#define QUARTERS(a, b, i, j, k, l) __builtin_shufflevector(a, b, Q4(i), Q4(j), Q4(4 + (k)), Q4(4 + (l)))
#else
#define QUARTERS(a, b, i, j, k, l) ((v16f)_mm512_shuffle_f32x4((__m512)(a), (__m512)(b), ((l) << 6) | ((k) << 4) | ((j) << 2) | (i)))
#endif

/* Four vertices' products (t[j]: vertex j's four column products, in quarters) summed at
 * once: quarter j of the result is (q0 + q2) + (q1 + q3) of t[j], the same sums in the same
 * order as one vertex's sums (q0 + q2, q1 + q3, then those two added), by six quarter
 * shuffles and three adds for four vertices (eight shuffles and eight adds one by one). */
KERNEL v16f quarters_sum4(const v16f *t)
{
    const v16f ab = QUARTERS(t[0], t[1], 0, 1, 0, 1) + QUARTERS(t[0], t[1], 2, 3, 2, 3); /* a02 a13 b02 b13 */
    const v16f cd = QUARTERS(t[2], t[3], 0, 1, 0, 1) + QUARTERS(t[2], t[3], 2, 3, 2, 3);
    return QUARTERS(ab, cd, 0, 2, 0, 2) + QUARTERS(ab, cd, 1, 3, 1, 3);
}

/* Each quarter of o divided by its length, (x x + y y) + z z over its lanes 0 to 2, all in
 * registers: one square root and one divide for four normals (one each a vertex, with a
 * lane extracted for a scalar square root, made unit normals slower than AVX2's); a zero
 * quarter stays zero. */
KERNEL v16f unit16(v16f o)
{
    const v16f sq = o * o;
    const v16f len2 = __builtin_shufflevector(sq, sq, 0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 12, 12, 12, 12) +
                      __builtin_shufflevector(sq, sq, 1, 1, 1, 1, 5, 5, 5, 5, 9, 9, 9, 9, 13, 13, 13, 13) +
                      __builtin_shufflevector(sq, sq, 2, 2, 2, 2, 6, 6, 6, 6, 10, 10, 10, 10, 14, 14, 14, 14);
#if defined(FASTSKIN_AVX512_TWIN)
    v16f len = splat(0.0f); /* whole, then assigned: gcc -O3 saw lanes read before written */
    for (int j = 0; j < LANES; j++)
        len[j] = sqrtf(len2[j]);
#else
    const v16f len = _mm512_sqrt_ps(len2);
#endif
    const v16i keep = len > splat(0.0f);
    return (v16f)(((v16i)(o / len) & keep) | ((v16i)o & ~keep));
}

/* The x, y, z of four quarters as twelve floats in lanes 0 to 11, stored as 64 bytes: the
 * last 16 land on the next two vertices, which are written after. */
KERNEL void store4x3(float *dst, v16f r)
{
    store16(dst, __builtin_shufflevector(r, r, 0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 3, 7, 11, 15));
}

/* One vertex, every argument after v a compile-time constant at its call: a range's last 2
 * to 5, through the same sums as a pass of four (quarter 0 of quarters_sum4, the others
 * zero), so that each vertex gets the same bits in a pass or alone. `last`: the range's
 * last vertex, stored with exactly 12 bytes; the others store 16, the 4th float landing on
 * the next vertex's x, which is written next. */
KERNEL void lbs16_vertex(const fastskin_job *job, int v, const int k, const fastskin_normals normals,
                         const packed_joint_format jf, const packed_weight_format wf, const bool quantized,
                         const bool last)
{
    const packed_mesh *m = job->mesh;
    const size_t vs = (size_t)v;
    const v16f b = lbs16_blend(job, vs, k, jf, wf, last);
    v16f t[4] = {columns_times(b, lbs16_position(m, vs, quantized, last), 1.0f)}; /* p' = c0 x + c1 y + c2 z + c3 */
    v16f o = quarters_sum4(t);
    memcpy(job->out_position + 3 * vs, &o, last ? 12 : 16);
    if (normals == FASTSKIN_NO_NORMALS)
        return;
    t[0] = columns_times(b, last ? load3(m->normal + 3 * vs) : load3_plain(m->normal + 3 * vs), 0.0f); /* n' */
    o = quarters_sum4(t);
    if (normals == FASTSKIN_UNIT_NORMALS)
        o = unit16(o);
    memcpy(job->out_normal + 3 * vs, &o, last ? 12 : 16);
}

/* Vertices v to v + 3, with at least two vertices after them in the range. */
KERNEL void lbs16_group(const fastskin_job *job, int v, const int k, const fastskin_normals normals,
                        const packed_joint_format jf, const packed_weight_format wf, const bool quantized)
{
    const packed_mesh *m = job->mesh;
    const size_t vs = (size_t)v;
    v16f tp[4], tn[4];
KERNEL_UNROLLED(4)
    for (int j = 0; j < 4; j++) {
        const v16f b = lbs16_blend(job, vs + (size_t)j, k, jf, wf, false);
        tp[j] = columns_times(b, lbs16_position(m, vs + (size_t)j, quantized, false), 1.0f);
        if (normals != FASTSKIN_NO_NORMALS)
            tn[j] = columns_times(b, load3_plain(m->normal + 3 * (vs + (size_t)j)), 0.0f);
    }
    store4x3(job->out_position + 3 * vs, quarters_sum4(tp));
    if (normals == FASTSKIN_NO_NORMALS)
        return;
    const v16f n = quarters_sum4(tn);
    store4x3(job->out_normal + 3 * vs, normals == FASTSKIN_UNIT_NORMALS ? unit16(n) : n);
}

KERNEL void lbs16_loop(const fastskin_job *job, int begin, int end, const fastskin_normals normals,
                       const packed_joint_format jf, const packed_weight_format wf, const bool quantized)
{
#define LBS16_LOOP(K)                                                                           \
    do {                                                                                        \
        int v = begin;                                                                          \
        for (; v + 6 <= end; v += 4)                                                            \
            lbs16_group(job, v, K, normals, jf, wf, quantized);                                 \
        for (; v + 1 < end; v++)                                                                \
            lbs16_vertex(job, v, K, normals, jf, wf, quantized, false);                         \
        lbs16_vertex(job, end - 1, K, normals, jf, wf, quantized, true);                        \
    } while (0)
    FOR_EACH_K(job->mesh->influences, LBS16_LOOP)
#undef LBS16_LOOP
}

KERNEL void lbs16_format(const fastskin_job *job, int begin, int end, const packed_joint_format jf,
                         const packed_weight_format wf)
{
#define LBS16_NORMALS(N, Q) lbs16_loop(job, begin, end, N, jf, wf, Q)
    FOR_EACH_NORMALS(job, LBS16_NORMALS);
#undef LBS16_NORMALS
}

AVX512_TARGET int fastskin_lbs_avx512(const fastskin_job *caller, int begin, int end)
{
    fastskin_job local;
    packed_mesh local_mesh;
    const fastskin_job *job = localize(caller, &local, &local_mesh);
    if (begin >= end)
        return -1;
#define LBS16_FORMAT(JF, WF) lbs16_format(job, begin, end, JF, WF)
    FOR_EACH_FORMAT(job->mesh, LBS16_FORMAT);
#undef LBS16_FORMAT
    return -1;
}

/* ---- DQS: sixteen vertices at a time, one per lane ------------------------------------------ */

/* Lane j of each listed macro call, for lanes 0 to 15. */
#define LANES16(M, c)                                                                           \
    M(0, c), M(1, c), M(2, c), M(3, c), M(4, c), M(5, c), M(6, c), M(7, c), M(8, c), M(9, c),   \
        M(10, c), M(11, c), M(12, c), M(13, c), M(14, c), M(15, c)

/* x, y, z of sixteen vertices (48 floats in three registers a, b, d) as three registers,
 * lane j vertex j, and back. Float f = 3 j + c is component c of vertex j: one shuffle
 * takes those with f < 32 from a and b (index f of the pair), a second those after from d
 * (index 16 + f - 32 of the pair (first result, d)). */
#define FROM_AB(j, c) (3 * (j) + (c) < 32 ? 3 * (j) + (c) : 0)
#define FROM_D(j, c) (3 * (j) + (c) < 32 ? (j) : 3 * (j) + (c) - 16)
KERNEL void deinterleave3x16(v16f a, v16f b, v16f d, v16f *xyz)
{
    xyz[0] = __builtin_shufflevector(__builtin_shufflevector(a, b, LANES16(FROM_AB, 0)), d, LANES16(FROM_D, 0));
    xyz[1] = __builtin_shufflevector(__builtin_shufflevector(a, b, LANES16(FROM_AB, 1)), d, LANES16(FROM_D, 1));
    xyz[2] = __builtin_shufflevector(__builtin_shufflevector(a, b, LANES16(FROM_AB, 2)), d, LANES16(FROM_D, 2));
}

/* Float f = 16 r + l of the output is component f mod 3 of vertex f / 3: x and y from the
 * pair (x, y), then z from the pair (first result, z). */
#define OUT_F(l, r) (16 * (r) + (l))
#define FROM_XY(l, r) (OUT_F(l, r) % 3 == 0 ? OUT_F(l, r) / 3 : OUT_F(l, r) % 3 == 1 ? 16 + OUT_F(l, r) / 3 : 0)
#define FROM_Z(l, r) (OUT_F(l, r) % 3 == 2 ? 16 + OUT_F(l, r) / 3 : (l))
KERNEL void store3x16(float *dst, const v16f *xyz)
{
    store16(dst, __builtin_shufflevector(__builtin_shufflevector(xyz[0], xyz[1], LANES16(FROM_XY, 0)), xyz[2],
                                         LANES16(FROM_Z, 0)));
    store16(dst + 16, __builtin_shufflevector(__builtin_shufflevector(xyz[0], xyz[1], LANES16(FROM_XY, 1)), xyz[2],
                                              LANES16(FROM_Z, 1)));
    store16(dst + 32, __builtin_shufflevector(__builtin_shufflevector(xyz[0], xyz[1], LANES16(FROM_XY, 2)), xyz[2],
                                              LANES16(FROM_Z, 2)));
}

KERNEL void load3x16(const float *src, v16f *xyz)
{
    deinterleave3x16(load16(src), load16(src + 16), load16(src + 32), xyz);
}

/* The K weights of vertices v0 .. v0 + 15, w[i] slot i of each: the same floats as
 * packed_weights_at (the implied one as 1 minus the stored ones added in order, or in the
 * UNORM formats as U minus the stored units, exact in floats, times the unit). */
KERNEL void weights16(const packed_mesh *m, size_t v0, const int k, const packed_weight_format wf, v16f *w)
{
    const int stored = k - 1;
    const size_t at = v0 * (size_t)stored;
    if (stored == 1) {
        w[0] = units16(m, at, wf);
    } else if (stored == 3) {
        deinterleave3x16(units16(m, at, wf), units16(m, at + 16, wf), units16(m, at + 32, wf), w);
    } else if (stored > 0) { /* K = 3, 5 to 8: lane j from value j * stored + i */
        float buf[LANES * (PACKED_MAX_INFLUENCES - 1)];
        for (int r = 0; r < stored; r++)
            store16(buf + LANES * r, units16(m, at + LANES * (size_t)r, wf));
        for (int i = 0; i < stored; i++) {
            v16f lanes = splat(0.0f); /* whole, then assigned: gcc -O3 saw w[i] read before written */
            for (int j = 0; j < LANES; j++)
                lanes[j] = buf[j * stored + i];
            w[i] = lanes;
        }
    }
    if (wf == PACKED_WEIGHT_FLOAT) {
        v16f sum = splat(0.0f);
KERNEL_UNROLLED(8)
        for (int i = 0; i < stored; i++)
            sum = sum + w[i];
        w[stored] = splat(1.0f) - sum;
        return;
    }
    const bool wide = wf == PACKED_WEIGHT_UNORM16;
    const v16f unit = splat(wide ? 1.0f / 65535.0f : 1.0f / 255.0f);
    v16f rest = splat(wide ? 65535.0f : 255.0f);
KERNEL_UNROLLED(8)
    for (int i = 0; i < stored; i++) {
        rest = rest - w[i];
        w[i] = w[i] * unit;
    }
    w[stored] = rest * unit;
}

/* Indices into the pair (a, b) of two registers, 0 to 31. */
#define UNPACK_LO 0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29
#define UNPACK_HI 2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31
#define PAIRS_LO 0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29
#define PAIRS_HI 2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31
#define QUARTERS_EVEN 0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27
#define QUARTERS_ODD 4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31

/* r[0..3] each hold four rows in its four quarters; the result's register c holds, in each
 * quarter, element c of that quarter of r[0], r[1], r[2], r[3]: a 4x4 transpose per
 * quarter. */
KERNEL void transpose_quarters(const v16f *r, v16f *t)
{
    v16f a = __builtin_shufflevector(r[0], r[1], UNPACK_LO), b = __builtin_shufflevector(r[0], r[1], UNPACK_HI);
    v16f c = __builtin_shufflevector(r[2], r[3], UNPACK_LO), d = __builtin_shufflevector(r[2], r[3], UNPACK_HI);
    t[0] = __builtin_shufflevector(a, c, PAIRS_LO);
    t[1] = __builtin_shufflevector(a, c, PAIRS_HI);
    t[2] = __builtin_shufflevector(b, d, PAIRS_LO);
    t[3] = __builtin_shufflevector(b, d, PAIRS_HI);
}

KERNEL v16f concat8(const float *lo, const float *hi)
{
    v8f a, b;
    memcpy(&a, lo, sizeof a);
    memcpy(&b, hi, sizeof b);
    return __builtin_shufflevector(a, b, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}

/* Sixteen palette entries (8 floats: real w x y z, dual w x y z) as eight component
 * registers, lane j entry j. Register j < 4 holds entries j and j + 4 (quarters: real j,
 * dual j, real j + 4, dual j + 4), register 4 + j entries j + 8 and j + 12; the transpose
 * per quarter makes component c of entries 0-3, 4-7 (and 8-11, 12-15) whole quarters,
 * and one shuffle of quarters puts them in lane order. */
KERNEL void transpose16(const float *const *entry, v16f *q)
{
    v16f r[8], lo[4], hi[4];
KERNEL_UNROLLED(8)
    for (int j = 0; j < 4; j++) {
        r[j] = concat8(entry[j], entry[j + 4]);
        r[4 + j] = concat8(entry[j + 8], entry[j + 12]);
    }
    transpose_quarters(r, lo);
    transpose_quarters(r + 4, hi);
KERNEL_UNROLLED(8)
    for (int c = 0; c < 4; c++) {
        q[c] = __builtin_shufflevector(lo[c], hi[c], QUARTERS_EVEN);
        q[4 + c] = __builtin_shufflevector(lo[c], hi[c], QUARTERS_ODD);
    }
}

/* Kavan's transform (dq_apply in fastskin.c) of sixteen points, or without the shift
 * sixteen normals, by the blended, unnormalised q^ = (a0, d0; ae, de) in b[0..7]; `two`
 * is 2 / |q_0|^2, as in the AVX2 block (dq_apply8). */
KERNEL void dq_apply16(const v16f *b, v16f two, const v16f *p, v16f *out, bool translate)
{
    const v16f a0 = b[0], dx = b[1], dy = b[2], dz = b[3];
    /* c1 = d0 x p + a0 p, c2 = d0 x c1 */
    v16f c1x = fma16(a0, p[0], fms16(dy, p[2], dz * p[1]));
    v16f c1y = fma16(a0, p[1], fms16(dz, p[0], dx * p[2]));
    v16f c1z = fma16(a0, p[2], fms16(dx, p[1], dy * p[0]));
    out[0] = fma16(two, fms16(dy, c1z, dz * c1y), p[0]);
    out[1] = fma16(two, fms16(dz, c1x, dx * c1z), p[1]);
    out[2] = fma16(two, fms16(dx, c1y, dy * c1x), p[2]);
    if (!translate)
        return;
    /* + 2 (a0 de - ae d0 + d0 x de) */
    const v16f ae = b[4], ex = b[5], ey = b[6], ez = b[7];
    out[0] = fma16(two, fms16(a0, ex, ae * dx) + fms16(dy, ez, dz * ey), out[0]);
    out[1] = fma16(two, fms16(a0, ey, ae * dy) + fms16(dz, ex, dx * ez), out[1]);
    out[2] = fma16(two, fms16(a0, ez, ae * dz) + fms16(dx, ey, dy * ex), out[2]);
}

/* Sixteen points (or normals) from `in` to `out` (48 floats each); the lanes not in `ok`
 * keep their input. */
KERNEL void dq_apply3x16(const v16f *b, v16f two, v16i ok, const float *in, float *out, bool translate)
{
    v16f p[3], o[3];
    load3x16(in, p);
    dq_apply16(b, two, p, o, translate);
KERNEL_UNROLLED(8)
    for (int c = 0; c < 3; c++)
        o[c] = select16(ok, o[c], p[c]);
    store3x16(out, o);
}

/* Vertices v0 .. v0 + 15 of mesh m, written at out_position (and out_normal) + 3 v0;
 * returns the lanes whose blend vanished as bits (those vertices keep their bind data). */
KERNEL unsigned dqs16_block(const float *palette, const packed_mesh *m, size_t v0, const int k,
                            const packed_joint_format jf, const packed_weight_format wf, const bool normals,
                            float *out_position, float *out_normal)
{
    v16f w[PACKED_MAX_INFLUENCES], q[8], b[8], pivot[4];
    const float *entry[LANES];
    const void *joints = jf == PACKED_JOINT_U8 ? (const void *)(m->joint8 + v0 * (size_t)k)
                                               : (const void *)(m->joint + v0 * (size_t)k);
    weights16(m, v0, k, wf, w);
    /* slot 0 is the pivot: its own sign needs no test */
    block_entries(palette, 8, joints, k, 0, jf, LANES, entry);
    transpose16(entry, q);
KERNEL_UNROLLED(8)
    for (int c = 0; c < 8; c++)
        b[c] = w[0] * q[c];
KERNEL_UNROLLED(8)
    for (int c = 0; c < 4; c++)
        pivot[c] = q[c];
KERNEL_UNROLLED(8) /* k is a constant here */
    for (int i = 1; i < k; i++) {
        block_entries(palette, 8, joints, k, i, jf, LANES, entry);
        transpose16(entry, q);
        /* the hemisphere fix without a branch: w takes the sign of q_0 . pivot_0 */
        v16f dot = fma16(q[3], pivot[3], fma16(q[2], pivot[2], fma16(q[1], pivot[1], q[0] * pivot[0])));
        v16f s = (v16f)((v16i)w[i] ^ ((v16i)dot & (v16i)splat(-0.0f)));
KERNEL_UNROLLED(8)
        for (int c = 0; c < 8; c++)
            b[c] = fma16(s, q[c], b[c]);
    }
    v16f norm2 = fma16(b[3], b[3], fma16(b[2], b[2], fma16(b[1], b[1], b[0] * b[0])));
    v16i ok = norm2 > splat(DQ_MIN_NORM * DQ_MIN_NORM);
    /* 2 / |q_0|^2 by an exactly rounded divide; lanes that failed divide by zero and are not kept */
    v16f two = splat(2.0f) * (splat(1.0f) / norm2);
    dq_apply3x16(b, two, ok, m->position + 3 * v0, out_position + 3 * v0, true);
    if (normals)
        dq_apply3x16(b, two, ok, m->normal + 3 * v0, out_normal + 3 * v0, false);
    unsigned failed = 0;
    for (int j = 0; j < LANES; j++)
        failed |= ok[j] ? 0u : 1u << j;
    return failed;
}

/* The last `count` (1 to 15) vertices of a range from v, through one copy of the block
 * for every K and format: with the operations in the same order, the floats are those of
 * the loops' specialised copies (the tests compare them bit for bit). */
AVX512_TARGET __attribute__((noinline)) static unsigned dqs16_tail(const fastskin_job *job, size_t v, int count)
{
    const packed_mesh *m = job->mesh;
    tail_block t;
    if (!tail_block_fill(&t, m, v, count, job->normals != FASTSKIN_NO_NORMALS))
        return 0;
    unsigned failed = dqs16_block(job->dualquats[0].real, &t.mesh, 0, m->influences, m->joint_format,
                                  m->weight_format, job->normals != FASTSKIN_NO_NORMALS, t.out_position, t.out_normal);
    return tail_block_return(&t, job, v, failed);
}

KERNEL int dqs16_loop(const fastskin_job *job, int begin, int end, const packed_joint_format jf, const bool normals)
{
    const packed_mesh *m = job->mesh;
    const packed_weight_format wf = m->weight_format;
    const float *palette = job->dualquats[0].real;
    int failed = -1;
#define DQS16_BLOCK(v) dqs16_block(palette, m, (size_t)(v), k_, jf, wf, normals, job->out_position, job->out_normal)
#define DQS16_TAIL(v, count) dqs16_tail(job, (size_t)(v), count)
#define DQS16_LOOP(K)                                                                           \
    do {                                                                                        \
        const int k_ = K;                                                                       \
        FOR_EACH_BLOCK(begin, end, LANES, failed, DQS16_BLOCK, DQS16_TAIL);                     \
    } while (0)
    FOR_EACH_K(m->influences, DQS16_LOOP)
#undef DQS16_BLOCK
#undef DQS16_TAIL
#undef DQS16_LOOP
    return failed;
}

AVX512_TARGET int fastskin_dqs_avx512(const fastskin_job *caller, int begin, int end)
{
    fastskin_job local;
    packed_mesh local_mesh;
    const fastskin_job *job = localize(caller, &local, &local_mesh);
    const bool normals = job->normals != FASTSKIN_NO_NORMALS;
    if (job->mesh->joint_format == PACKED_JOINT_U16)
        return normals ? dqs16_loop(job, begin, end, PACKED_JOINT_U16, true)
                       : dqs16_loop(job, begin, end, PACKED_JOINT_U16, false);
    return normals ? dqs16_loop(job, begin, end, PACKED_JOINT_U8, true)
                   : dqs16_loop(job, begin, end, PACKED_JOINT_U8, false);
}

#else /* not x86: the level is never offered, and these are never called */

int fastskin_lbs_avx512(const fastskin_job *job, int begin, int end)
{
    (void)job, (void)begin, (void)end;
    return -1;
}

int fastskin_dqs_avx512(const fastskin_job *job, int begin, int end)
{
    (void)job, (void)begin, (void)end;
    return -1;
}

#endif
