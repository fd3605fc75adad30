/* baselines.h - the kernels the benchmark measures the library's against, frozen as they
 * were (bench/baselines.c), so that a new kernel and the one it replaced are timed in the
 * same run (bench-skinning) and counted by the same tool (bench-instructions). x86-64
 * only: elsewhere BASELINES_BUILT is 0 and none is declared.
 *
 * Each runs a whole job on one thread, K = 4 influences, the 44-byte vertex (u16 joints,
 * three stored float weights, float positions), positions only unless stated. The caller
 * owns every buffer and has validated the job (fastskin_validate): a baseline checks
 * nothing. The CPU must have AVX2 and FMA (simd_level_available(SIMD_AVX2)).
 *
 *   baseline_avx2_rows            "avx2-rows": the avx2 LBS kernel before the column
 *                                 palette, rows in registers and three horizontal adds a
 *                                 point; its own job (rows palette, optional unit normals)
 *   baseline_avx2_reloads         "avx2-reloads": the avx2 kernel before its job and mesh
 *                                 were copied into locals and its weight loop unrolled
 *   baseline_avx2_loads_only      "avx2-loads-only": the avx2 kernel's memory operations,
 *                                 shaped as its loop is, without its arithmetic
 *   baseline_dqs_avx2_per_vertex  "dqs-avx2-per-vertex": the avx2 DQS kernel before it
 *                                 took eight vertices at a time
 */
#ifndef BENCH_BASELINES_H
#define BENCH_BASELINES_H

#include <stdbool.h>

#include "skin/fastskin.h"

#if defined(__x86_64__)
#define BASELINES_BUILT 1

typedef struct {
    const packed_mesh *m;
    const palette_matrix *rows; /* the palette as row-major 3x4 matrices */
    bool normals;               /* also unit normals into out_n */
    float *out_p, *out_n;
} reference_job;

void baseline_avx2_rows(const reference_job *job);
void baseline_avx2_reloads(const fastskin_job *job);
void baseline_avx2_loads_only(const fastskin_job *job);
void baseline_dqs_avx2_per_vertex(const fastskin_job *job);
#else
#define BASELINES_BUILT 0
#endif

#endif
