/* packed.h - engine-format skinning data in float32 (Game Engine Architecture 13.5):
 * at most four joints per vertex as 16-bit indices, three stored weights with the fourth
 * implied, and a matrix palette of float 3x4 rows rebuilt once per frame.
 *
 * Layout, chosen for the cache: one stream per attribute (structure of arrays), so a
 * positions-only pass never loads normals:
 *   position   float[3]        12 bytes      normal   float[3]          12 bytes
 *   joint      uint16[K]       2K bytes      weight   float[K-1]        4(K-1) bytes
 * K = 4 gives the GEA vertex's 44 bytes (32 for a positions-only pass). K may also be
 * 1, 2 or 8 for the benchmark; the implied weight is always the last, 1 - sum of the rest.
 * Influences are sorted by weight, heaviest first, so slot 0 is also DQS's pivot.
 */
#ifndef PACKED_H
#define PACKED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "math/dualquat.h"
#include "math/linalg.h"
#include "skin/skin.h"

/* C11's _Alignas and _Static_assert, or C++'s alignas and static_assert: an engine includes
 * this header from either. */
#ifdef __cplusplus
#define PACKED_ALIGNAS(n) alignas(n)
#define PACKED_STATIC_ASSERT static_assert
extern "C" {
#else
#define PACKED_ALIGNAS(n) _Alignas(n)
#define PACKED_STATIC_ASSERT _Static_assert
#endif

#define PACKED_MAX_INFLUENCES 8
/* A computed implied weight below -PACKED_WEIGHT_TOLERANCE is an error, not noise. */
#define PACKED_WEIGHT_TOLERANCE 1e-6f

/* The compressed vertex (packed_mesh_compress) narrows the joint and weight streams:
 *   joint   uint8[K] when the palette has at most 256 entries, else uint16[K]
 *   weight  UNORM16 or UNORM8 [K-1] (glTF's normalized WEIGHTS_n), the last implied
 * and may quantise positions to uint16[3], p = offset + scale * q, as KHR_mesh_quantization
 * does; the dequantisation is folded into the palette (palette_columns_dequantize). */
typedef enum { PACKED_JOINT_U16 = 0, PACKED_JOINT_U8 } packed_joint_format;
typedef enum { PACKED_WEIGHT_FLOAT = 0, PACKED_WEIGHT_UNORM16, PACKED_WEIGHT_UNORM8 } packed_weight_format;

typedef struct {
    int count;              /* vertices, 0 <= v < count */
    int influences;         /* K, 1 <= K <= PACKED_MAX_INFLUENCES */
    int max_joint;          /* the largest joint index used: the palette needs max_joint + 1 */
    float *position;        /* 3 per vertex (NULL when quantised: position16) */
    float *normal;          /* 3 per vertex */
    uint16_t *joint;        /* K per vertex (PACKED_JOINT_U16) */
    float *weight;          /* K - 1 per vertex (PACKED_WEIGHT_FLOAT; may be NULL when K = 1) */
    /* The compressed streams; a zero-initialised mesh has none (the 44-byte vertex). */
    packed_joint_format joint_format;
    packed_weight_format weight_format;
    uint8_t *joint8;        /* K per vertex (PACKED_JOINT_U8) */
    uint16_t *weight16;     /* K - 1 per vertex (PACKED_WEIGHT_UNORM16), units of 1/65535 */
    uint8_t *weight8;       /* K - 1 per vertex (PACKED_WEIGHT_UNORM8), units of 1/255 */
    uint16_t *position16;   /* 3 per vertex when positions are quantised, else NULL */
    float position_offset[3], position_scale[3]; /* p = offset + scale * q */
} packed_mesh;

/* What packing dropped: vertices with more than K non-zero influences keep the K
 * heaviest, renormalised. */
typedef struct {
    int truncated_vertices;
    double largest_dropped_weight;
    int largest_dropped_vertex;     /* -1 when nothing was dropped */
} packed_report;

/* Packs the lab's double-precision influences (any K of skin.h, already validated: finite,
 * non-negative, summing to 1) into K = `influences` slots, heaviest first, truncating and
 * renormalising where a vertex has more (report says where). Allocates *out; free with
 * packed_mesh_free. */
lab_error packed_mesh_build(const vec3 *positions, const vec3 *normals, const skin_influences *in,
                            int influences, packed_mesh *out, packed_report *report, lab_diag *d);
void packed_mesh_free(packed_mesh *m);
/* Bytes a pass reads per vertex from the 44-byte format's streams (positions, normals when
 * asked, joints, stored weights); packed_mesh_bytes_per_vertex for any format. */
size_t packed_bytes_per_vertex(int influences, int with_normals);
size_t packed_mesh_bytes_per_vertex(const packed_mesh *m, int with_normals);

/* The K weights of vertex v, the implied last one included, as the kernels see them. In
 * the UNORM formats the implied weight is computed in integers, (65535 or 255) minus the
 * stored units, so the K weights sum to exactly 1 before they become floats.
 * packed_weights_at takes K and the weight format as arguments, so that a kernel calling it
 * with constants gets a copy specialised for them; packed_vertex_weights reads the mesh's. */
static inline void packed_weights_at(const packed_mesh *m, size_t v, int k, packed_weight_format wf, float *w)
{
    const int stored = k - 1;
    const size_t at = v * (size_t)stored;
    if (wf == PACKED_WEIGHT_FLOAT) {
        float sum = 0.0f;
/* a kernel's constant K: unrolled, the weights stay in registers. gcc is told; clang
 * unrolls such a loop by itself, and under `GCC unroll 8` kept it rolled (the avx512 LBS
 * kernel: 54.0 instructions a vertex against 35.0, the palette page) */
#if !defined(__clang__)
#pragma GCC unroll 8
#endif
        for (int i = 0; i < stored; i++) {
            w[i] = m->weight[at + i];
            sum += w[i];
        }
        w[stored] = 1.0f - sum;
        return;
    }
    const bool wide = wf == PACKED_WEIGHT_UNORM16;
    const unsigned one = wide ? 65535u : 255u;
    const float unit = wide ? 1.0f / 65535.0f : 1.0f / 255.0f;
    unsigned rest = one;
#if !defined(__clang__)
#pragma GCC unroll 8
#endif
    for (int i = 0; i < stored; i++) {
        unsigned q = wide ? m->weight16[at + i] : m->weight8[at + i];
        w[i] = (float)q * unit;
        rest -= q;
    }
    w[stored] = (float)rest * unit;
}

static inline void packed_vertex_weights(const packed_mesh *m, int v, float *w)
{
    packed_weights_at(m, (size_t)v, m->influences, m->weight_format, w);
}
/* The implied weight of vertex v's last slot. */
float packed_implied_weight(const packed_mesh *m, int v);

/* What compressing cost: the largest change of any weight (the implied one included) and
 * the largest change of a bind position (with quantised positions), over all vertices. */
typedef struct {
    double largest_weight_error;
    int largest_weight_error_vertex;
    double largest_position_error;
    int largest_position_error_vertex;
} packed_compress_report;

/* A copy of `in` (the 44-byte float format) with narrower streams. Weights are rounded by
 * largest remainder: each vertex's K weights become integers summing to exactly 65535 (or
 * 255), each within one unit of its exact value. PACKED_JOINT_U8 is refused when the mesh
 * uses a joint above 255; quantised positions are refused with normals (the folded palette
 * is not a normal's). Allocates *out; free with packed_mesh_free. */
lab_error packed_mesh_compress(const packed_mesh *in, packed_joint_format joints,
                               packed_weight_format weights, bool quantize_positions,
                               packed_mesh *out, packed_compress_report *report, lab_diag *d);

/* Palette entries: K_j = G_j B_j^-1 (optionally merged with model-to-world, W K_j) as
 * float 3x4 rows (48 bytes), and the same transforms as dual quaternions (32 bytes,
 * aligned to 32: an entry is one AVX2 load, never split between cache lines). */
typedef struct { float m[3][4]; } palette_matrix;
typedef struct { PACKED_ALIGNAS(32) float real[4]; float dual[4]; } palette_dualquat; /* {w, x, y, z} each */

void palette_from_mat4(const mat4 *skin, int joint_count, const mat4 *model_to_world,
                       palette_matrix *out);

/* The fast kernels' layout of the same 3x4 matrix: four columns of four floats (64 bytes),
 * c[0..2] the images of the x, y and z axes with a 0 in lane 3, c[3] the translation with
 * a 1, so that x, y and z of a vertex multiply whole columns (no horizontal adds). It is
 * the column-major Float4x4 engines such as ozz-animation skin with. Aligned to 64, an
 * entry is one cache line and the AVX-512 kernel's one load: with entries 16 bytes off
 * the line the AVX-512 LBS kernel took 2.53 ns a vertex instead of 1.85 (1e4 vertices, an
 * AMD EPYC; the palette page). Arrays declared of the type are aligned by the compiler;
 * allocate others with aligned_alloc(_Alignof(palette_columns), n * sizeof(palette_columns))
 * (fastskin_validate refuses a misaligned palette). */
typedef struct { PACKED_ALIGNAS(64) float c[4][4]; } palette_columns;
PACKED_STATIC_ASSERT(sizeof(palette_columns) == 64 && sizeof(palette_dualquat) == 32,
               "palette entries keep their sizes: aligned, with no padding (GPU buffers take them as they are)");

void palette_columns_from_matrices(const palette_matrix *rows, int joint_count, palette_columns *out);
/* Folds a quantised mesh's p = offset + scale * q into each column palette entry: K D. */
void palette_columns_dequantize(const palette_columns *in, int joint_count, const packed_mesh *m,
                                palette_columns *out);
void palette_from_dualquats(const dualquat *skin, int joint_count, palette_dualquat *out);

#ifdef __cplusplus
}
#endif

#endif
