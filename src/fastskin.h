/* fastskin.h - CPU skinning written for speed over packed float data (packed.h).
 *
 * The same job as skin_deform, engine-style: a per-frame float palette (3x4 rows for LBS,
 * dual quaternions for DQS), packed vertex streams in, float positions (and normals) out.
 * Three code paths, each checked against the double-precision chapter path:
 *   SIMD_SCALAR  plain C, the portable fallback and the benchmark's scalar baseline
 *   SIMD_SSE2    128-bit intrinsics (x86-64 baseline)
 *   SIMD_AVX2    256-bit intrinsics with FMA: rows 0-1 of a 3x4 matrix, or a whole dual
 *                quaternion, fill one register
 * The x86 paths are compiled wherever the compiler targets x86 (chosen at build time) and
 * used only where the CPU has them (simd_level_available). Work is split into contiguous
 * vertex ranges over `threads` pthreads; every vertex is computed by the same code whatever
 * the split, so the output is bit-identical for any thread count.
 *
 * LBS normals use the blended 3x3 (the rigid method of lab30-normals, as engines do) and are
 * normalised; DQS normals are rotated by the blended rotation.
 */
#ifndef FASTSKIN_H
#define FASTSKIN_H

#include <stdbool.h>

#include "packed.h"
#include "skin.h"

typedef enum { SIMD_SCALAR = 0, SIMD_SSE2, SIMD_AVX2, SIMD_LEVEL_COUNT } simd_level;

const char *simd_level_name(simd_level level); /* "scalar", "sse2", "avx2" */
bool simd_level_available(simd_level level);     /* compiled in and supported by this CPU */
simd_level simd_best_level(void);

#define FASTSKIN_MAX_THREADS 64

typedef struct {
    const packed_mesh *mesh;
    const palette_matrix *matrices;      /* LBS: joint_count entries */
    const palette_dualquat *dualquats;   /* DQS: joint_count entries */
    int joint_count;
    skin_method method;
    bool normals;                        /* also write out_normal */
    int threads;                         /* 1 .. FASTSKIN_MAX_THREADS (0 means 1) */
    simd_level level;
    float *out_position;                 /* 3 per vertex, caller-owned */
    float *out_normal;                   /* 3 per vertex when normals */
} fastskin_job;

/* Sizes and pointers: the palette covers mesh->max_joint, the method's palette and the
 * outputs exist, the level is available, the thread count is in range. An empty mesh is
 * valid. Joint indices were checked when the mesh was packed. */
lab_error fastskin_validate(const fastskin_job *job, lab_diag *d);

/* Validates, then skins. A DQS blend whose real part vanishes (|q_0| <= 1e-9) is reported
 * for the lowest such vertex (LAB_ERR_DQ_ZERO_NORM); that vertex keeps its bind position. */
lab_error fastskin_run(const fastskin_job *job, lab_diag *d);

#endif
