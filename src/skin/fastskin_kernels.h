/* fastskin_kernels.h - what fastskin's kernel files share (internal to src/skin).
 *
 * fastskin.c holds the scalar, SSE2 and AVX2 kernels, the levels, validation and the
 * thread pool; fastskin_avx512.c holds the AVX-512 level. Both build their range kernels
 * from these pieces: the specialising inline, the joint stream read, the job copied into
 * locals, the dispatch on K and on the vertex format, and the copy of a range's last
 * vertices into one whole block.
 */
#ifndef FASTSKIN_KERNELS_H
#define FASTSKIN_KERNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "skin/fastskin_job.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DQ_MIN_NORM 1e-9f

/* Inlined at every call, so that a call with constant arguments (K, the normals choice,
 * the vertex format) compiles to a loop specialised for them. Not forced under the
 * sanitizers: every forced copy is instrumented, and clang -O1 took 6 min 47 s to compile
 * fastskin.c with ASan and UBSan (1 min 45 s before the eight-vertex blocks), where it
 * takes 4 s at -O2 with the copies left to the compiler; the sanitizers check the same
 * lines either way. */
#if defined(__SANITIZE_ADDRESS__)
#define FASTSKIN_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FASTSKIN_SANITIZED 1
#endif
#endif
#ifdef FASTSKIN_SANITIZED
#define SPECIALISED static inline
#else
#define SPECIALISED static inline __attribute__((always_inline))
#endif

/* Before a loop over K (at most 8) or over a block's lanes (at most n): unrolled whole
 * where its count is a constant (a kernel's specialised K, the lanes), straight-line code
 * at -O2 as at -O3. gcc's pragma takes the largest count; clang's must say "full": under
 * `GCC unroll 8`, clang 14 kept the avx2 LBS kernel's influence loop rolled (two trips at
 * K = 4), 58.5 instructions a vertex against 42.5 unrolled (gcc: 38.0; the palette page).
 * A loop so marked whose count is not a constant (the kernels' generic K) stays a loop, as
 * meant; clang reports each such copy (-Wpass-failed), so the kernel files, the only ones
 * that include this header, silence that report before their first line of code. */
#define KERNEL_PRAGMA(x) _Pragma(#x)
#if defined(__clang__)
#define KERNEL_UNROLLED(n) KERNEL_PRAGMA(clang loop unroll(full))
#else
#define KERNEL_UNROLLED(n) KERNEL_PRAGMA(GCC unroll n)
#endif

/* A range's outcome: the lowest vertex whose DQS blend vanished, or -1. */
typedef int (*range_kernel)(const fastskin_job *job, int begin, int end);

SPECIALISED int joint_at(const packed_mesh *m, size_t v, int k, int i, packed_joint_format jf)
{
    size_t at = v * (size_t)k + (size_t)i;
    return jf == PACKED_JOINT_U8 ? m->joint8[at] : m->joint[at];
}

/* A job and its mesh copied into locals by a kernel's entry. The loops store through
 * out_position, which the compiler must assume may alias anything whose address it cannot
 * follow, so streams read through the caller's job and mesh would be reloaded every
 * vertex; these copies' addresses never leave the inlined loops, and their fields live in
 * registers. Two locals, not one struct holding both: a struct that stores its own
 * address (job.mesh = &mesh inside it) is one clang keeps in memory, reloading the
 * streams every vertex (62 instructions a vertex in the avx2 LBS kernel against gcc's 38). */
SPECIALISED const fastskin_job *localize(const fastskin_job *caller, fastskin_job *job, packed_mesh *mesh)
{
    *mesh = *caller->mesh;
    *job = *caller;
    job->mesh = mesh;
    return job;
}

/* A range kernel specialised for the common K: CALL(K) with K a constant in the cases 1, 2,
 * 4 and 8, so that the influence loop unrolls. */
#define FOR_EACH_K(k, CALL)                                                                     \
    switch (k) {                                                                                \
    case 1: CALL(1); break;                                                                     \
    case 2: CALL(2); break;                                                                     \
    case 4: CALL(4); break;                                                                     \
    case 8: CALL(8); break;                                                                     \
    default: CALL(k);                                                                           \
    }

/* CALL(joint format, weight format) with both constants, for mesh m's formats. */
#define FOR_EACH_FORMAT(m, CALL)                                                                \
    do {                                                                                        \
        if ((m)->joint_format == PACKED_JOINT_U16)                                              \
            FOR_EACH_WEIGHT_FORMAT(m, PACKED_JOINT_U16, CALL);                                  \
        else                                                                                    \
            FOR_EACH_WEIGHT_FORMAT(m, PACKED_JOINT_U8, CALL);                                   \
    } while (0)
#define FOR_EACH_WEIGHT_FORMAT(m, JF, CALL)                                                     \
    do {                                                                                        \
        if ((m)->weight_format == PACKED_WEIGHT_FLOAT)                                          \
            CALL(JF, PACKED_WEIGHT_FLOAT);                                                      \
        else if ((m)->weight_format == PACKED_WEIGHT_UNORM16)                                   \
            CALL(JF, PACKED_WEIGHT_UNORM16);                                                    \
        else                                                                                    \
            CALL(JF, PACKED_WEIGHT_UNORM8);                                                     \
    } while (0)

/* CALL(normals, quantized) with both constants: quantised positions are skinned without
 * normals (fastskin_validate), the float positions with the job's choice. */
#define FOR_EACH_NORMALS(job, CALL)                                                             \
    do {                                                                                        \
        if ((job)->mesh->position16)                                                            \
            CALL(FASTSKIN_NO_NORMALS, true);                                                    \
        else if ((job)->normals == FASTSKIN_NO_NORMALS)                                         \
            CALL(FASTSKIN_NO_NORMALS, false);                                                   \
        else if ((job)->normals == FASTSKIN_RAW_NORMALS)                                        \
            CALL(FASTSKIN_RAW_NORMALS, false);                                                  \
        else                                                                                    \
            CALL(FASTSKIN_UNIT_NORMALS, false);                                                 \
    } while (0)

/* Where the palette entries (`stride` floats each) of slot i of a block's `lanes` vertices
 * start; `joints` is the block's first vertex's row of the joint stream (u16 or u8). */
SPECIALISED void block_entries(const float *palette, int stride, const void *joints, const int k, int i,
                               packed_joint_format jf, const int lanes, const float **entry)
{
KERNEL_UNROLLED(16)
    for (int j = 0; j < lanes; j++)
        entry[j] = palette + (size_t)stride * (jf == PACKED_JOINT_U8 ? ((const uint8_t *)joints)[j * k + i]
                                                                     : ((const uint16_t *)joints)[j * k + i]);
}

/* A range [begin, end) of a block kernel: BLOCK(v) skins vertices v .. v + lanes - 1,
 * TAIL(v, count) the last 1 to lanes - 1 (tail_block); both return the lanes whose DQS
 * blend vanished as bits, and `failed` becomes the lowest such vertex (if it was -1). */
#define FOR_EACH_BLOCK(begin, end, lanes, failed, BLOCK, TAIL)                                  \
    do {                                                                                        \
        int v_ = (begin);                                                                       \
        unsigned bad_;                                                                          \
        for (; v_ + (lanes) <= (end); v_ += (lanes))                                            \
            if ((bad_ = (unsigned)BLOCK(v_)) && (failed) < 0)                                   \
                (failed) = v_ + __builtin_ctz(bad_);                                            \
        if (v_ < (end) && (bad_ = (unsigned)TAIL(v_, (end) - v_)) && (failed) < 0)              \
            (failed) = v_ + __builtin_ctz(bad_);                                                \
    } while (0)

/* A range's last vertices as a whole block: the streams of vertices v .. v + count - 1
 * (count <= TAIL_LANES) copied into a mesh of the same format whose other vertices are
 * zero (joint 0 at weight 1, at the origin), so that they run through the same block code
 * as every other vertex, and a vertex's bits never depend on where its range ends. */
#define TAIL_LANES 16
typedef struct {
    packed_mesh mesh;
    float position[3 * TAIL_LANES], normal[3 * TAIL_LANES];
    float weight[TAIL_LANES * (PACKED_MAX_INFLUENCES - 1)];
    uint16_t joint[TAIL_LANES * PACKED_MAX_INFLUENCES], weight16[TAIL_LANES * (PACKED_MAX_INFLUENCES - 1)];
    uint8_t joint8[TAIL_LANES * PACKED_MAX_INFLUENCES], weight8[TAIL_LANES * (PACKED_MAX_INFLUENCES - 1)];
    float out_position[3 * TAIL_LANES], out_normal[3 * TAIL_LANES]; /* the block writes here */
    int count;                                                         /* the vertices copied in */
} tail_block;

/* False only for a K packing never produces (it bounds the copies). */
static inline bool tail_block_fill(tail_block *t, const packed_mesh *m, size_t v, int count, bool normals)
{
    const int k = m->influences;
    if (k < 1 || k > PACKED_MAX_INFLUENCES || count < 1 || count > TAIL_LANES)
        return false;
    memset(t, 0, sizeof *t);
    t->count = count;
    const size_t n = (size_t)count, stored = (size_t)k - 1;
    t->mesh = *m;
    t->mesh.position = t->position, t->mesh.normal = t->normal, t->mesh.joint = t->joint;
    t->mesh.joint8 = t->joint8, t->mesh.weight = t->weight, t->mesh.weight16 = t->weight16;
    t->mesh.weight8 = t->weight8;
    memcpy(t->position, m->position + 3 * v, 3 * n * sizeof(float));
    if (normals)
        memcpy(t->normal, m->normal + 3 * v, 3 * n * sizeof(float));
    if (m->joint_format == PACKED_JOINT_U16)
        memcpy(t->joint, m->joint + (size_t)k * v, (size_t)k * n * sizeof *t->joint);
    else
        memcpy(t->joint8, m->joint8 + (size_t)k * v, (size_t)k * n * sizeof *t->joint8);
    if (stored > 0 && m->weight_format == PACKED_WEIGHT_FLOAT)
        memcpy(t->weight, m->weight + stored * v, stored * n * sizeof *t->weight);
    else if (stored > 0 && m->weight_format == PACKED_WEIGHT_UNORM16)
        memcpy(t->weight16, m->weight16 + stored * v, stored * n * sizeof *t->weight16);
    else if (stored > 0)
        memcpy(t->weight8, m->weight8 + stored * v, stored * n * sizeof *t->weight8);
    return true;
}

/* The skinned tail back to the job's outputs at vertex v; `failed`, the block's vanished
 * lanes as bits, cut to the vertices that are the range's. */
static inline unsigned tail_block_return(const tail_block *t, const fastskin_job *job, size_t v, unsigned failed)
{
    const size_t floats = 3 * (size_t)t->count;
    memcpy(job->out_position + 3 * v, t->out_position, floats * sizeof(float));
    if (job->normals != FASTSKIN_NO_NORMALS)
        memcpy(job->out_normal + 3 * v, t->out_normal, floats * sizeof(float));
    return failed & ((1u << t->count) - 1u);
}

/* The AVX-512 level (fastskin_avx512.c). */
bool fastskin_avx512_supported(void);
int fastskin_lbs_avx512(const fastskin_job *job, int begin, int end);
int fastskin_dqs_avx512(const fastskin_job *job, int begin, int end);

#ifdef __cplusplus
}
#endif

#endif
