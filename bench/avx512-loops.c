/* avx512-loops.c - the AVX-512 level's hot loops, one function each, for counting their
 * instructions in the disassembly (scripts/bench-instructions.sh): compiled with the
 * project's flags, never linked or run. valgrind cannot run AVX-512 code, so these counts
 * are static: the instructions of the LBS vertex loop's body, and of the DQS block (no
 * branch: it runs straight through for sixteen vertices). They include the same file the
 * library builds, so the code is the level's own, specialised as its loops specialise it.
 */
#define FASTSKIN_AVX512_LOOPS_ONLY /* the level's entries are not compiled here */
#include "../src/skin/fastskin_avx512.c"

#if AVX512_BUILT && !defined(FASTSKIN_AVX512_TWIN)

/* LBS, K = 4, positions only, the 44-byte vertex (u16 joints, float weights) */
AVX512_TARGET __attribute__((noinline)) void loop_lbs_44_byte(const fastskin_job *caller, int begin, int end)
{
    local_job l;
    const fastskin_job *job = localize(caller, &l);
    for (int v = begin; v < end; v++)
        lbs16_vertex(job, v, 4, FASTSKIN_NO_NORMALS, PACKED_JOINT_U16, PACKED_WEIGHT_FLOAT, false, false);
}

/* LBS, K = 4, positions only, u8 joints and UNORM8 weights */
AVX512_TARGET __attribute__((noinline)) void loop_lbs_u8_unorm8(const fastskin_job *caller, int begin, int end)
{
    local_job l;
    const fastskin_job *job = localize(caller, &l);
    for (int v = begin; v < end; v++)
        lbs16_vertex(job, v, 4, FASTSKIN_NO_NORMALS, PACKED_JOINT_U8, PACKED_WEIGHT_UNORM8, false, false);
}

/* DQS, K = 4, positions only, the 44-byte vertex: one block of sixteen vertices */
AVX512_TARGET __attribute__((noinline)) unsigned block_dqs_44_byte(const float *palette, const packed_mesh *m,
                                                                   size_t v0, float *out)
{
    return dqs16_block(palette, m, v0, 4, PACKED_JOINT_U16, PACKED_WEIGHT_FLOAT, false, out, NULL);
}

#endif
