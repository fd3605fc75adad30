/* fastskin_job.h - the job fastskin runs (fastskin.h is the manual): the level of code
 * (simd_level), the normals choice, the packed mesh, the palette and the caller's output
 * buffers. Apart from fastskin.h so that the kernel files (fastskin_kernels.h) see the
 * job without the functions that run it. */
#ifndef FASTSKIN_JOB_H
#define FASTSKIN_JOB_H

#include "skin/packed.h"
#include "skin/skin.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { SIMD_SCALAR = 0, SIMD_SSE2, SIMD_AVX2, SIMD_AVX512, SIMD_LEVEL_COUNT } simd_level;

#define FASTSKIN_MAX_THREADS 64

typedef enum {
    FASTSKIN_NO_NORMALS = 0,   /* positions only */
    FASTSKIN_UNIT_NORMALS,     /* normals transformed and normalised */
    FASTSKIN_RAW_NORMALS,      /* normals transformed, not normalised (LBS; DQS keeps length) */
} fastskin_normals;

/* A persistent thread pool (fastskin_pool_create in fastskin.h). */
typedef struct fastskin_pool fastskin_pool;

typedef struct {
    const packed_mesh *mesh;
    const palette_columns *columns;      /* LBS: joint_count entries (dequantised when the
                                            mesh's positions are quantised) */
    const palette_dualquat *dualquats;   /* DQS: joint_count entries */
    int joint_count;
    skin_method method;
    fastskin_normals normals;            /* also write out_normal unless FASTSKIN_NO_NORMALS */
    int threads;                         /* 1 .. FASTSKIN_MAX_THREADS (0 means 1) */
    simd_level level;
    float *out_position;                 /* 3 per vertex, caller-owned */
    float *out_normal;                   /* 3 per vertex when normals */
    fastskin_pool *pool;                 /* threads > 1: at least threads - 1 workers */
} fastskin_job;

#ifdef __cplusplus
}
#endif

#endif
