/* bench-instructions.c - one kernel's passes with nothing else, for valgrind to count
 * (scripts/bench-instructions.sh, run by make bench): instructions are a property of the
 * code, not of the machine's load, so the results file can state them per vertex.
 *
 * Usage:  build/bin/bench-instructions LEVEL METHOD K NORMALS [FORMAT]
 *   LEVEL scalar|sse2|avx2|avx512, METHOD lbs|dqs, K 1..8, NORMALS none|unit|raw, FORMAT
 *   44-byte (the default), u8-unorm8 or u8-unorm8-q16 (packed_mesh_compress; positions
 *   only): 10 passes over the benchmark's random 64-joint rig of 20,000 vertices;
 *   prints the number of vertices skinned (200,000). Nothing is written. Exit 1 when the
 *   level is not available here, 2 on a bad argument, 3 when the count cannot be printed.
 *   LEVEL may also name one of the benchmark's frozen kernels (baselines.h: avx2-rows,
 *   avx2-reloads, avx2-loads-only with lbs; dqs-avx2-per-vertex with dqs), each with K 4,
 *   NORMALS none and the 44-byte vertex only: its function (baseline_avx2_rows ...) runs
 *   the passes instead of fastskin_run, where the CPU has AVX2. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skin/fastskin.h"
#include "skin/packed.h"
#include "skin/rig_random.h"
#include "baselines.h"

enum { VERTICES = 20000, JOINTS = 64, PASSES = 10 };

/* The frozen kernels by their benchmark names, each with the method it implements. */
static const struct {
    const char *name;
    skin_method method;
} baselines[] = {{"avx2-rows", SKIN_LBS}, {"avx2-reloads", SKIN_LBS}, {"avx2-loads-only", SKIN_LBS},
                 {"dqs-avx2-per-vertex", SKIN_DQS}};
enum { BASELINES = sizeof baselines / sizeof baselines[0] };

/* 10 passes of baseline b (an index of baselines) over the job's mesh. */
static void run_baseline(int b, const fastskin_job *job, const palette_matrix *rows)
{
#if BASELINES_BUILT
    reference_job reference = {job->mesh, rows, false, job->out_position, NULL};
    for (int pass = 0; pass < PASSES; pass++)
        switch (b) {
        case 0: baseline_avx2_rows(&reference); break;
        case 1: baseline_avx2_reloads(job); break;
        case 2: baseline_avx2_loads_only(job); break;
        default: baseline_dqs_avx2_per_vertex(job);
        }
#else
    (void)b, (void)job, (void)rows; /* refused before: the baselines are x86-64's */
#endif
}

static int choice(const char *arg, const char *const *names, int count)
{
    for (int i = 0; i < count; i++)
        if (!strcmp(arg, names[i]))
            return i;
    return -1;
}

int main(int argc, char **argv)
{
    const char *levels[SIMD_LEVEL_COUNT];
    for (int l = 0; l < SIMD_LEVEL_COUNT; l++)
        levels[l] = simd_level_name((simd_level)l);
    static const char *const methods[] = {"lbs", "dqs"},
                             *const normals[] = {"none", "unit", "raw"},
                             *const formats[] = {"44-byte", "u8-unorm8", "u8-unorm8-q16"};
    bool args = argc == 5 || argc == 6;
    int level = args ? choice(argv[1], levels, SIMD_LEVEL_COUNT) : -1, method = args ? choice(argv[2], methods, 2) : -1;
    int k = args ? atoi(argv[3]) : 0, normal = args ? choice(argv[4], normals, 3) : -1;
    int format = argc == 6 ? choice(argv[5], formats, 3) : 0;
    int baseline = -1;
    for (int b = 0; args && level < 0 && b < BASELINES; b++)
        if (!strcmp(argv[1], baselines[b].name))
            baseline = b, level = SIMD_AVX2;
    if (level < 0 || method < 0 || normal < 0 || format < 0 || k < 1 || k > PACKED_MAX_INFLUENCES ||
        (format > 0 && normal > 0) ||
        (baseline >= 0 && ((skin_method)method != baselines[baseline].method || k != 4 || normal != 0 || format != 0))) {
        fprintf(stderr, "usage: bench-instructions scalar|sse2|avx2|avx512 lbs|dqs K(1-8) none|unit|raw "
                        "[44-byte|u8-unorm8|u8-unorm8-q16 (positions only)]\n"
                        "       bench-instructions avx2-rows|avx2-reloads|avx2-loads-only lbs 4 none [44-byte]\n"
                        "       bench-instructions dqs-avx2-per-vertex dqs 4 none [44-byte]\n");
        return 2;
    }
    if (!simd_level_available((simd_level)level) || (baseline >= 0 && !BASELINES_BUILT)) {
        fprintf(stderr, "bench-instructions: %s is not available on this CPU\n", baseline >= 0 ? argv[1] : levels[level]);
        return 1;
    }
    rig_random rig;
    packed_mesh mesh, packed;
    palette_matrix pm[JOINTS];
    palette_columns pc[JOINTS], folded[JOINTS];
    palette_dualquat pq[JOINTS];
    float *p = malloc(12 * (size_t)VERTICES), *n = malloc(12 * (size_t)VERTICES);
    lab_diag d = {0};
    if (!p || !n || rig_random_build(VERTICES, JOINTS, k, 30, &rig, &d) != LAB_OK ||
        packed_mesh_build(rig.positions, rig.normals, &rig.in, k, &packed, NULL, &d) != LAB_OK ||
        (format > 0 ? packed_mesh_compress(&packed, PACKED_JOINT_U8, PACKED_WEIGHT_UNORM8, format == 2, &mesh, NULL, &d)
                    : packed_mesh_compress(&packed, PACKED_JOINT_U16, PACKED_WEIGHT_FLOAT, false, &mesh, NULL, &d)) !=
            LAB_OK) {
        fprintf(stderr, "bench-instructions: %s, %s\n", d.where, d.value);
        return 3;
    }
    palette_from_mat4(rig.skin, JOINTS, NULL, pm);
    palette_columns_from_matrices(pm, JOINTS, pc);
    palette_columns_dequantize(pc, JOINTS, &mesh, folded); /* the identity fold unless quantised */
    palette_from_dualquats(rig.dq, JOINTS, pq);
    fastskin_job job = {&mesh, format == 2 ? folded : pc, pq, JOINTS, (skin_method)method, (fastskin_normals)normal, 1,
                        (simd_level)level, p, n, NULL};
    if (baseline >= 0) {
        if (fastskin_validate(&job, &d) != LAB_OK) { /* a baseline checks nothing itself */
            fprintf(stderr, "bench-instructions: %s, %s\n", d.where, d.value);
            return 1;
        }
        run_baseline(baseline, &job, pm);
    } else {
        for (int pass = 0; pass < PASSES; pass++)
            if (fastskin_run(&job, &d) != LAB_OK) {
                fprintf(stderr, "bench-instructions: %s, %s\n", d.where, d.value);
                return 1;
            }
    }
    bool printed = printf("%d\n", PASSES * VERTICES) > 0 && fflush(stdout) == 0;
    packed_mesh_free(&mesh);
    packed_mesh_free(&packed);
    rig_random_free(&rig);
    free(p), free(n);
    return printed ? 0 : 3; /* the count is the output: not written, exit 3 */
}
