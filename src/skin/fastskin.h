/* fastskin.h - CPU skinning written for speed over packed float data (packed.h).
 *
 * The same job as skin_deform, engine-style: a per-frame float palette (column-major 4x4
 * for LBS, palette_columns; dual quaternions for DQS), packed vertex streams in (the 44-byte
 * vertex or the compressed one), float positions (and normals) out. Four code paths, each
 * checked against the double-precision chapter path:
 *   SIMD_SCALAR  plain C, the portable fallback and the benchmark's scalar baseline
 *   SIMD_SSE2    128-bit intrinsics (x86-64 baseline): one column per register
 *   SIMD_AVX2    256-bit intrinsics with FMA. LBS: two columns per register; the weights
 *                are broadcast from memory (UNORM weights decoded eight vertices at a
 *                time, a block ahead), the implied one computed as a vector, and x, y, z multiply
 *                whole columns, so no horizontal add is needed. DQS: eight vertices at a
 *                time, one per lane, each register one component of eight dual
 *                quaternions, so the hemisphere test, the norm and Kavan's transform are
 *                vertical multiply-adds (a range's last 1 to 7 vertices go through the
 *                same block, so the split into ranges changes no bit). The loops are
 *                compiled once per K (1, 2, 4, 8), normals choice and joint format (LBS:
 *                and weight format), every per-call choice made before the vertex loop.
 *   SIMD_AVX512  512-bit, fastskin_avx512.c. LBS: four vertices a pass, each blended in a
 *                register of its own, a palette entry whole in one register (one load of
 *                one cache line: the palette is aligned to 64, packed.h), the four
 *                products' sums added together; DQS: sixteen vertices at a time, as AVX2's.
 * The x86 paths are compiled wherever the compiler targets x86 (chosen at build time) and
 * used only where the CPU has them (simd_level_available). Work is split into `threads`
 * contiguous vertex ranges run by a persistent pool (fastskin_pool: threads started once,
 * not per call); every vertex is computed by the same code whatever the split, so the
 * output is bit-identical for any thread count.
 *
 * Normals, a choice in the API: FASTSKIN_RAW_NORMALS transforms them by the blended 3x3 and
 * leaves normalising to whoever uses them (a shader normalises after interpolation anyway),
 * FASTSKIN_UNIT_NORMALS also normalises each (one square root and a divide per vertex).
 * DQS rotates normals by the normalised blend, so they keep their length either way.
 */
#ifndef FASTSKIN_H
#define FASTSKIN_H

#include <stdbool.h>

#include "skin/fastskin_job.h"
#include "skin/packed.h"
#include "skin/skin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The job itself (fastskin_job), the levels (simd_level) and the normals choice
 * (fastskin_normals) are in fastskin_job.h. */
const char *simd_level_name(simd_level level); /* "scalar", "sse2", "avx2", "avx512" */
bool simd_level_available(simd_level level);     /* compiled in and supported by this CPU */
simd_level simd_best_level(void);                /* the highest level the CPU runs */
/* The CPU the default level is chosen for: x86's cpuid vendor ("AuthenticAMD",
 * "GenuineIntel"), family and model (the extended fields added, as the vendors' manuals
 * combine them) and brand string; empty and zeros on another architecture. */
typedef struct {
    char vendor[13];
    int family, model;
    char brand[49];
} simd_cpu;
simd_cpu simd_cpu_running(void);
/* The family and model in cpuid leaf 1's EAX, as the vendors' manuals combine them: the
 * family is bits 8-11, plus the extended family (bits 20-27) where those read 0xF; the model
 * is bits 4-7, plus the extended model (bits 16-19) times 16 where the family reads 0xF or
 * 6 (Zen 4's 0x00A10F11: family 25, model 17). */
void simd_cpu_signature(unsigned eax, int *family, int *model);

/* The level to use by default for `method`, `normals` and the mesh's vertex format (NULL:
 * the 44-byte float format), on this CPU: fastskin_level_rule for simd_cpu_running() and
 * simd_best_level(). */
simd_level fastskin_default_level(skin_method method, fastskin_normals normals, const packed_mesh *mesh);

/* The rule, for any CPU, from measurements (the palette page, "Which level by default";
 * `make bench` checks the running CPU's case by case, in pairs, and flags any case where the
 * default is slower than avx2):
 * - below AVX-512, the best level the CPU has;
 * - the 44-byte vertex, every method and normals choice: avx512 on AMD family 25 and later
 *   (measured faster than avx2 on Zen 5, family 26, here, and on Zen 4, family 25, in issue
 *   52's measurements);
 * - a compressed vertex (u16 or u8 joints with UNORM16 or UNORM8 weights): avx512 on AMD
 *   family 26 and later (Zen 5: 0.65x to 0.94x avx2's time here); on Zen 4 avx512 took
 *   1.08x to 1.28x avx2's time, so avx2 there;
 * - every other CPU with AVX-512 (Intel's are not measured here, nor any unknown one):
 *   avx2, which is never slower than itself: the documented fallback. */
simd_level fastskin_level_rule(const simd_cpu *cpu, simd_level best, skin_method method, fastskin_normals normals,
                               bool compressed);

/* A persistent thread pool: `workers` threads started once by fastskin_pool_create, woken
 * for each job (they spin briefly between back-to-back jobs, then sleep), joined by
 * fastskin_pool_destroy. A pool serves one job at a time. */
lab_error fastskin_pool_create(int workers, fastskin_pool **out, lab_diag *d);
void fastskin_pool_destroy(fastskin_pool *pool);
int fastskin_pool_workers(const fastskin_pool *pool);
/* Runs fn(ctx, part) for part 0 .. parts - 1: part 0 on the calling thread, the others on
 * the pool's workers (parts - 1 <= workers; pool may be NULL when parts is 1); returns when
 * all are done. fastskin_run splits a job this way; the benchmark's roofline too. */
void fastskin_pool_run(fastskin_pool *pool, int parts, void (*fn)(void *ctx, int part), void *ctx);

/* Sizes and pointers: the palette covers mesh->max_joint, the method's palette and the
 * outputs exist, the level is available, the thread count is in range with a pool large
 * enough, quantised positions only for LBS positions. An empty mesh is valid. Joint
 * indices were checked when the mesh was packed. */
lab_error fastskin_validate(const fastskin_job *job, lab_diag *d);

/* Validates, then skins. A DQS blend whose real part vanishes (|q_0| <= 1e-9) is reported
 * for the lowest such vertex (LAB_ERR_DQ_ZERO_NORM); that vertex keeps its bind position. */
lab_error fastskin_run(const fastskin_job *job, lab_diag *d);

#ifdef __cplusplus
}
#endif

#endif
