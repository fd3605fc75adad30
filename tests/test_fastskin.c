/* test_fastskin.c - the fast kernels against the double-precision chapter path: every
 * influence count, method, SIMD level available here, normals choice and thread count, odd
 * sizes; the compressed vertex against its own decoding; instancing; the pool; validation;
 * vanishing DQS blends. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_all.h"
#include "skin/fastskin.h"

#define J 16

static unsigned long long seed = 7;
static double rnd(void)
{
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(seed >> 11) / 9007199254740992.0;
}

typedef struct {
    int n, k;
    vec3 *pos, *nor;
    int *joint;
    double *weight;
    mat4 skin[J];
    dualquat dq[J];
    packed_mesh packed;
    palette_matrix pm[J];
    palette_columns pc[J];
    palette_dualquat pd[J];
} fixture;

static void build(fixture *f, int n, int k)
{
    f->n = n;
    f->k = k;
    f->pos = malloc(sizeof(vec3) * n);
    f->nor = malloc(sizeof(vec3) * n);
    f->joint = malloc(sizeof(int) * n * k);
    f->weight = malloc(sizeof(double) * n * k);
    for (int v = 0; v < n; v++) {
        f->pos[v] = vec3_make(2 * rnd() - 1, 2 * rnd() - 1, 2 * rnd());
        f->nor[v] = vec3_normalize(vec3_make(rnd() - 0.5, rnd() - 0.5, rnd() - 0.5));
        double sum = 0;
        for (int i = 0; i < k; i++) {
            f->joint[v * k + i] = (int)(rnd() * J);
            f->weight[v * k + i] = 0.1 + rnd();
            sum += f->weight[v * k + i];
        }
        for (int i = 0; i < k; i++)
            f->weight[v * k + i] /= sum;
    }
    for (int j = 0; j < J; j++) { /* rotations up to 3 rad: some pairs need the sign fix */
        f->dq[j] = dualquat_from_rigid(quat_from_axis_angle(vec3_make(rnd() - .5, rnd() - .5, rnd() - .5), 6 * (rnd() - 0.5)),
                                       vec3_make(rnd(), rnd(), rnd()));
        f->skin[j] = dualquat_to_mat4(f->dq[j]);
    }
    assert_int_equal(packed_mesh_build(f->pos, f->nor, &(skin_influences){n, k, (int *)f->joint, (double *)f->weight}, k, &f->packed, NULL, NULL), LAB_OK);
    palette_from_mat4(f->skin, J, NULL, f->pm);
    palette_columns_from_matrices(f->pm, J, f->pc);
    palette_from_dualquats(f->dq, J, f->pd);
}

static void release(fixture *f)
{
    free(f->pos), free(f->nor), free(f->joint), free(f->weight);
    packed_mesh_free(&f->packed);
}

/* The reference in doubles, written out here: LBS blends the matrices; DQS blends the dual
 * quaternions with the heaviest influence as the pivot, as packing sorted them. */
static vec3 reference(const fixture *f, int v, skin_method method, vec3 p, bool point, bool unit)
{
    int order[8];
    for (int i = 0; i < f->k; i++)
        order[i] = i;
    for (int i = 0; i < f->k; i++)
        for (int j = i + 1; j < f->k; j++)
            if (f->weight[v * f->k + order[j]] > f->weight[v * f->k + order[i]]) {
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
    if (method == SKIN_LBS) {
        mat4 m = {{{0}}};
        for (int i = 0; i < f->k; i++)
            m = mat4_add(m, mat4_scale_by(f->skin[f->joint[v * f->k + i]], f->weight[v * f->k + i]));
        if (point)
            return mat4_transform_point(m, p);
        return unit ? vec3_normalize(mat4_transform_direction(m, p)) : mat4_transform_direction(m, p);
    }
    dualquat q[8];
    double w[8];
    for (int i = 0; i < f->k; i++) {
        q[i] = f->dq[f->joint[v * f->k + order[i]]];
        w[i] = f->weight[v * f->k + order[i]];
    }
    dualquat u;
    assert_int_equal(dualquat_normalize(dualquat_blend(q, w, f->k, true), &u, "ref", NULL), LAB_OK);
    if (point)
        return dualquat_transform_point(u, p);
    return quat_rotate(u.real, p);
}

static double max_error(const fixture *f, skin_method method, const float *out, const vec3 *in, bool point,
                        bool unit)
{
    double worst = 0;
    for (int v = 0; v < f->n; v++) {
        vec3 r = reference(f, v, method, in[v], point, unit);
        vec3 o = vec3_make(out[3 * v], out[3 * v + 1], out[3 * v + 2]);
        worst = fmax(worst, vec3_length(vec3_sub(r, o)));
    }
    return worst;
}

static void test_fastskin_matches_the_double_path_everywhere(void **state)
{
    (void)state;
    const int threads[4] = {1, 2, 3, 7};
    fastskin_pool *pool;
    assert_int_equal(fastskin_pool_create(6, &pool, NULL), LAB_OK); /* one pool for every job */
    for (int k = 1; k <= PACKED_MAX_INFLUENCES; k++) { /* 1, 2, 4, 8 specialised; the others generic */
        fixture f;
        build(&f, 257, k); /* odd: ranges do not divide evenly */
        float *p = malloc(12 * f.n), *nn = malloc(12 * f.n), *p1 = malloc(12 * f.n), *p0 = malloc(12 * f.n);
        for (int method = 0; method < 2; method++)
            for (int level = 0; level < SIMD_LEVEL_COUNT; level++) {
                if (!simd_level_available((simd_level)level))
                    continue;
                for (int normals = FASTSKIN_NO_NORMALS; normals <= FASTSKIN_RAW_NORMALS; normals++)
                    for (int ti = 0; ti < 4; ti++) {
                        memset(nn, 0xFF, 12 * f.n); /* NaN: a normal left unwritten shows */
                        fastskin_job job = {&f.packed, f.pc, f.pd, J, method ? SKIN_DQS : SKIN_LBS,
                                            (fastskin_normals)normals, threads[ti], (simd_level)level, p, nn, pool};
                        assert_int_equal(fastskin_run(&job, NULL), LAB_OK);
                        double ep = max_error(&f, job.method, p, f.pos, true, true);
                        double en = normals ? max_error(&f, job.method, nn, f.nor, false,
                                                        normals == FASTSKIN_UNIT_NORMALS)
                                            : 0.0;
                        if (!(ep < 2e-5 && en < 2e-5))
                            fail_msg("K=%d %s %s normals %d, %d threads: position error %g, normal error %g", k,
                                     skin_method_name(job.method), simd_level_name(job.level), normals, threads[ti],
                                     ep, en);
                        if (normals == FASTSKIN_NO_NORMALS && ti == 0)
                            memcpy(p0, p, 12 * f.n);
                        else /* the normals choice changes no position bit */
                            assert_memory_equal(p0, p, 12 * f.n);
                        if (ti == 0)
                            memcpy(p1, nn, 12 * f.n);
                        else if (normals) /* deterministic: the thread count changes no bit */
                            assert_memory_equal(p1, nn, 12 * f.n);
                    }
            }
        free(p), free(nn), free(p1), free(p0);
        release(&f);
    }
    fastskin_pool_destroy(pool);
}

/* DQS of one vertex of a compressed mesh in doubles: its slots' dual quaternions with the
 * weights decoded by the test (slot 0, the heaviest, the pivot). */
static vec3 dqs_of(const fixture *f, const packed_mesh *c, int v, const double *w, vec3 p)
{
    dualquat q[4], u;
    for (int i = 0; i < 4; i++)
        q[i] = f->dq[c->joint_format == PACKED_JOINT_U8 ? c->joint8[4 * v + i] : c->joint[4 * v + i]];
    assert_int_equal(dualquat_normalize(dualquat_blend(q, w, 4, true), &u, "ref", NULL), LAB_OK);
    return dualquat_transform_point(u, p);
}

/* The compressed vertex, decoded here on its own: weights from their integer units (the
 * implied one as U minus the rest), positions as offset + scale q; the kernels must agree
 * with a double blend of exactly that data, and the data with the float mesh within one
 * unit of each weight. */
static void test_fastskin_compressed_vertex(void **state)
{
    (void)state;
    static const packed_weight_format formats[3] = {PACKED_WEIGHT_FLOAT, PACKED_WEIGHT_UNORM16, PACKED_WEIGHT_UNORM8};
    fixture f;
    build(&f, 301, 4);
    float *p = malloc(12 * f.n), *nn = malloc(12 * f.n), *p3 = malloc(12 * f.n);
    double (*decoded)[4] = malloc(sizeof *decoded * f.n);
    fastskin_pool *pool;
    assert_int_equal(fastskin_pool_create(2, &pool, NULL), LAB_OK);
    for (int jf = 0; jf < 2; jf++)
        for (int wi = 0; wi < 3; wi++)
            for (int quantized = 0; quantized < 2; quantized++) {
                packed_mesh c;
                packed_compress_report r;
                assert_int_equal(packed_mesh_compress(&f.packed, (packed_joint_format)jf, formats[wi], quantized, &c,
                                                      &r, NULL),
                                 LAB_OK);
                const double unit_count = formats[wi] == PACKED_WEIGHT_UNORM16 ? 65535.0 : 255.0;
                palette_columns pc[J];
                if (quantized)
                    palette_columns_dequantize(f.pc, J, &c, pc);
                else
                    memcpy(pc, f.pc, sizeof pc);
                assert_int_equal(packed_mesh_bytes_per_vertex(&c, 0),
                                 (quantized ? 6 : 12) + 4 * (jf ? 1 : 2) + 3 * (wi == 0 ? 4 : wi == 1 ? 2 : 1));
                double worst_weight = 0.0;
                for (int v = 0; v < f.n; v++) {
                    double w[4], sum_units = 0.0;
                    for (int i = 0; i < 3; i++) {
                        size_t at = (size_t)v * 3 + i;
                        w[i] = wi == 0 ? c.weight[at] : wi == 1 ? c.weight16[at] / 65535.0 : c.weight8[at] / 255.0;
                        sum_units += wi == 0 ? 0.0 : w[i] * unit_count;
                    }
                    w[3] = wi == 0 ? 1.0 - (double)(c.weight[3 * v] + c.weight[3 * v + 1] + c.weight[3 * v + 2])
                                   : (unit_count - floor(sum_units + 0.5)) / unit_count;
                    assert_true(w[3] >= 0.0); /* the units of the stored weights never exceed U */
                    memcpy(decoded[v], w, sizeof w);
                    float exact[4];
                    packed_vertex_weights(&f.packed, v, exact);
                    for (int i = 0; i < 4; i++)
                        worst_weight = fmax(worst_weight, fabs(w[i] - exact[i]));
                    mat4 m = {{{0}}};
                    for (int i = 0; i < 4; i++) {
                        int j = jf ? c.joint8[4 * v + i] : c.joint[4 * v + i];
                        assert_int_equal(j, f.packed.joint[4 * v + i]);
                        m = mat4_add(m, mat4_scale_by(f.skin[j], w[i]));
                    }
                    vec3 bind = quantized ? vec3_make(c.position_offset[0] + (double)c.position_scale[0] * c.position16[3 * v],
                                                      c.position_offset[1] + (double)c.position_scale[1] * c.position16[3 * v + 1],
                                                      c.position_offset[2] + (double)c.position_scale[2] * c.position16[3 * v + 2])
                                          : vec3_make(c.position[3 * v], c.position[3 * v + 1], c.position[3 * v + 2]);
                    f.pos[v] = bind;
                    f.nor[v] = mat4_transform_point(m, bind); /* the expected skinned point, kept here */
                }
                if (wi > 0) { /* largest remainder: within one unit, as reported */
                    assert_true(worst_weight <= 1.0 / unit_count + 1e-7);
                    assert_near(r.largest_weight_error, worst_weight, 1e-6);
                }
                if (quantized) /* half a step per axis at most */
                    assert_true(r.largest_position_error > 0.0 && r.largest_position_error < 0.5 * 4.0 / 65535.0 * 1.74);
                for (int level = 0; level < SIMD_LEVEL_COUNT; level++) {
                    if (!simd_level_available((simd_level)level))
                        continue;
                    fastskin_job job = {&c, pc, f.pd, J, SKIN_LBS, FASTSKIN_NO_NORMALS, 1, (simd_level)level, p, NULL, NULL};
                    assert_int_equal(fastskin_run(&job, NULL), LAB_OK);
                    double worst = 0.0;
                    for (int v = 0; v < f.n; v++)
                        worst = fmax(worst, vec3_length(vec3_sub(f.nor[v], vec3_make(p[3 * v], p[3 * v + 1], p[3 * v + 2]))));
                    if (!(worst < 2e-5))
                        fail_msg("joints %s, weights %d, quantised %d, %s: error %g", jf ? "u8" : "u16", wi, quantized,
                                 simd_level_name(job.level), worst);
                    /* the split into ranges changes no bit: ranges end inside and at the
                     * edges of the kernels' eight-vertex blocks */
                    fastskin_job split = job;
                    split.threads = 3, split.pool = pool, split.out_position = p3;
                    assert_int_equal(fastskin_run(&split, NULL), LAB_OK);
                    assert_memory_equal(p, p3, 12 * f.n);
                    job.method = SKIN_DQS; /* the quantised positions are LBS's only */
                    assert_int_equal(fastskin_run(&job, NULL), quantized ? LAB_ERR_INVALID_ARGUMENT : LAB_OK);
                    if (quantized)
                        continue;
                    double worst_dqs = 0.0;
                    for (int v = 0; v < f.n; v++) {
                        vec3 r = dqs_of(&f, &c, v, decoded[v], f.pos[v]);
                        worst_dqs = fmax(worst_dqs, vec3_length(vec3_sub(r, vec3_make(p[3 * v], p[3 * v + 1], p[3 * v + 2]))));
                    }
                    if (!(worst_dqs < 2e-5))
                        fail_msg("DQS, joints %s, weights %d, %s: error %g", jf ? "u8" : "u16", wi,
                                 simd_level_name(job.level), worst_dqs);
                    split.method = SKIN_DQS;
                    assert_int_equal(fastskin_run(&split, NULL), LAB_OK);
                    assert_memory_equal(p, p3, 12 * f.n);
                }
                packed_mesh_free(&c);
            }
    free(p), free(nn), free(p3), free(decoded);
    fastskin_pool_destroy(pool);
    release(&f);
}

/* Every tail length: the first n vertices (n = 1 .. 40) of a mesh, skinned alone, give the
 * bits they have in the whole mesh's run, for every level, method, normals choice, K of
 * both kinds (specialised and generic) and weight format: the AVX2 DQS kernel takes eight
 * vertices at a time, the AVX-512 one sixteen, and each runs a range's last ones through
 * a block of their own. Nothing past the n-th vertex is written. */
static void test_fastskin_every_tail_length(void **state)
{
    (void)state;
    enum { N = 40, GUARD = 8 };
    static const packed_weight_format formats[3] = {PACKED_WEIGHT_FLOAT, PACKED_WEIGHT_UNORM16, PACKED_WEIGHT_UNORM8};
    const int ks[4] = {4, 3, 1, 8};
    for (int ki = 0; ki < 4; ki++) {
        fixture f;
        build(&f, N, ks[ki]);
        for (int wi = 0; wi < 3; wi++) {
            packed_mesh c;
            assert_int_equal(packed_mesh_compress(&f.packed, wi ? PACKED_JOINT_U8 : PACKED_JOINT_U16, formats[wi], false,
                                                  &c, NULL, NULL),
                             LAB_OK);
            for (int level = 0; level < SIMD_LEVEL_COUNT; level++)
                for (int method = 0; method < 2; method++)
                    for (int normals = FASTSKIN_NO_NORMALS; normals <= FASTSKIN_RAW_NORMALS; normals++) {
                        if (!simd_level_available((simd_level)level))
                            continue;
                        float whole_p[3 * N], whole_n[3 * N], part_p[3 * N + GUARD], part_n[3 * N + GUARD];
                        fastskin_job job = {&c, f.pc, f.pd, J, method ? SKIN_DQS : SKIN_LBS, (fastskin_normals)normals,
                                            1, (simd_level)level, whole_p, whole_n, NULL};
                        assert_int_equal(fastskin_run(&job, NULL), LAB_OK);
                        for (int n = 1; n <= N; n++) {
                            packed_mesh first = c;
                            first.count = n;
                            memset(part_p, 0xFF, sizeof part_p), memset(part_n, 0xFF, sizeof part_n);
                            job.mesh = &first, job.out_position = part_p, job.out_normal = part_n;
                            assert_int_equal(fastskin_run(&job, NULL), LAB_OK);
                            if (memcmp(part_p, whole_p, 12 * (size_t)n) != 0 ||
                                (normals && memcmp(part_n, whole_n, 12 * (size_t)n) != 0))
                                fail_msg("K=%d weights %d %s %s normals %d: the first %d vertices alone differ", ks[ki],
                                         wi, simd_level_name(job.level), skin_method_name(job.method), normals, n);
                            for (int i = 3 * n; i < 3 * N + GUARD; i++) {
                                uint32_t bits_p, bits_n;
                                memcpy(&bits_p, &part_p[i], 4), memcpy(&bits_n, &part_n[i], 4);
                                if (bits_p != 0xFFFFFFFFu || bits_n != 0xFFFFFFFFu)
                                    fail_msg("K=%d %s %s: %d vertices wrote float %d", ks[ki], simd_level_name(job.level),
                                             skin_method_name(job.method), n, i);
                            }
                            job.mesh = &c, job.out_position = whole_p, job.out_normal = whole_n;
                        }
                    }
            packed_mesh_free(&c);
        }
        release(&f);
    }
}

/* Instancing: one shared palette plus each instance's model-to-world equals a palette
 * merged with that model-to-world. */
static void test_fastskin_instancing_equals_merged_palette(void **state)
{
    (void)state;
    fixture f;
    build(&f, 33, 4);
    mat4 world = mat4_mul(mat4_translate(5, -2, 1), mat4_rotate_y(0.7));
    palette_matrix merged[J];
    palette_columns columns[J];
    palette_from_mat4(f.skin, J, &world, merged);
    palette_columns_from_matrices(merged, J, columns);
    float shared[99], own[99];
    fastskin_job a = {&f.packed, f.pc, NULL, J, SKIN_LBS, FASTSKIN_NO_NORMALS, 1, simd_best_level(), shared, NULL, NULL};
    fastskin_job b = {&f.packed, columns, NULL, J, SKIN_LBS, FASTSKIN_NO_NORMALS, 1, simd_best_level(), own, NULL, NULL};
    assert_int_equal(fastskin_run(&a, NULL), LAB_OK);
    assert_int_equal(fastskin_run(&b, NULL), LAB_OK);
    for (int v = 0; v < f.n; v++) {
        vec3 moved = mat4_transform_point(world, vec3_make(shared[3 * v], shared[3 * v + 1], shared[3 * v + 2]));
        assert_true(vec3_length(vec3_sub(moved, vec3_make(own[3 * v], own[3 * v + 1], own[3 * v + 2]))) < 1e-5);
    }
    release(&f);
}

/* The default level (fastskin.h): the rule on every CPU kind it names, and on this one. With
 * AVX-512, the 44-byte vertex takes avx512 on AMD family 25 and later (Zen 4, Zen 5), a
 * compressed one on family 26 and later (Zen 5); Intel and an unknown vendor take avx2, the
 * fallback; below AVX-512 the best level there is. This CPU gets what the rule gives it, a
 * level it has. */
static void test_fastskin_default_level_per_cpu_and_format(void **state)
{
    (void)state;
    const simd_cpu zen5 = {"AuthenticAMD", 26, 2, ""}, zen4 = {"AuthenticAMD", 25, 17, ""};
    const simd_cpu intel = {"GenuineIntel", 6, 143, ""}, unknown = {"", 0, 0, ""};
    const simd_cpu *cpus[4] = {&zen5, &zen4, &intel, &unknown};
    for (int c = 0; c < 4; c++)
        for (int method = SKIN_LBS; method <= SKIN_DQS; method++)
            for (int normals = FASTSKIN_NO_NORMALS; normals <= FASTSKIN_RAW_NORMALS; normals++) {
                skin_method m = (skin_method)method;
                fastskin_normals n = (fastskin_normals)normals;
                assert_int_equal(fastskin_level_rule(cpus[c], SIMD_AVX512, m, n, false), c < 2 ? SIMD_AVX512 : SIMD_AVX2);
                assert_int_equal(fastskin_level_rule(cpus[c], SIMD_AVX512, m, n, true), c == 0 ? SIMD_AVX512 : SIMD_AVX2);
                for (int best = SIMD_SCALAR; best < SIMD_AVX512; best++) /* no AVX-512: the best there is */
                    assert_int_equal(fastskin_level_rule(cpus[c], (simd_level)best, m, n, true), best);
            }
    simd_cpu here = simd_cpu_running();
    packed_mesh compressed = {0};
    compressed.joint_format = PACKED_JOINT_U8, compressed.weight_format = PACKED_WEIGHT_UNORM8;
    for (int method = SKIN_LBS; method <= SKIN_DQS; method++)
        for (int normals = FASTSKIN_NO_NORMALS; normals <= FASTSKIN_RAW_NORMALS; normals++) {
            simd_level level = fastskin_default_level((skin_method)method, (fastskin_normals)normals, NULL);
            assert_true(simd_level_available(level));
            assert_int_equal(level, fastskin_level_rule(&here, simd_best_level(), (skin_method)method,
                                                        (fastskin_normals)normals, false));
            level = fastskin_default_level((skin_method)method, (fastskin_normals)normals, &compressed);
            assert_true(simd_level_available(level));
            assert_int_equal(level, fastskin_level_rule(&here, simd_best_level(), (skin_method)method,
                                                        (fastskin_normals)normals, true));
        }
}

/* cpuid's signature decoded as the manuals combine it, on the signatures the rule names:
 * Zen 4 (EPYC 9004, 0x00A10F11: family 25, model 17), Zen 5 (0x00B00F20: 26, 2), Intel
 * Sapphire Rapids (0x000806F8: 6, 143), Skylake-SP (0x00050654: 6, 85), a Pentium 4
 * (0x00000F29: 15, 2, no extended family), an old family 5 (0x00000543: the extended model
 * ignored there: 5, 4). */
static void test_fastskin_cpu_signature(void **state)
{
    (void)state;
    static const struct { unsigned eax; int family, model; } cpus[] = {
        {0x00A10F11u, 25, 17}, {0x00B00F20u, 26, 2}, {0x000806F8u, 6, 143},
        {0x00050654u, 6, 85},  {0x00000F29u, 15, 2}, {0x00010543u, 5, 4},
    };
    for (size_t i = 0; i < sizeof cpus / sizeof cpus[0]; i++) {
        int family = -1, model = -1;
        simd_cpu_signature(cpus[i].eax, &family, &model);
        if (family != cpus[i].family || model != cpus[i].model)
            fail_msg("0x%08X: family %d, model %d; the manuals say %d, %d", cpus[i].eax, family, model, cpus[i].family,
                     cpus[i].model);
    }
}

static void test_fastskin_validates_the_job(void **state)
{
    (void)state;
    fixture f;
    build(&f, 10, 2);
    float out[30];
    lab_diag d = {0};
    fastskin_job job = {&f.packed, f.pc, f.pd, f.packed.max_joint, SKIN_LBS, FASTSKIN_NO_NORMALS, 1, SIMD_SCALAR, out, NULL, NULL};
    /* a misused job is the caller's bug, never reported as bad data or an output error */
    assert_int_equal(fastskin_run(&job, &d), LAB_ERR_INVALID_ARGUMENT); /* palette too short */
    job.joint_count = J;
    job.threads = FASTSKIN_MAX_THREADS + 1;
    assert_int_equal(fastskin_validate(&job, &d), LAB_ERR_INVALID_ARGUMENT);
    job.threads = 3; /* more threads than the pool's workers + 1 */
    fastskin_pool *pool;
    assert_int_equal(fastskin_pool_create(1, &pool, NULL), LAB_OK);
    assert_int_equal(fastskin_validate(&job, &d), LAB_ERR_INVALID_ARGUMENT); /* no pool */
    job.pool = pool;
    assert_int_equal(fastskin_validate(&job, &d), LAB_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(d.value, "at least 2 workers"));
    job.threads = 2;
    assert_int_equal(fastskin_validate(&job, &d), LAB_OK);
    fastskin_pool_destroy(pool);
    job.pool = NULL;
    job.threads = 1;
    job.normals = FASTSKIN_UNIT_NORMALS; /* no normal output */
    assert_int_equal(fastskin_validate(&job, &d), LAB_ERR_INVALID_ARGUMENT);
    job.normals = FASTSKIN_NO_NORMALS;
    packed_mesh narrow; /* joint 300 does not fit 8 bits */
    f.packed.max_joint = 300;
    assert_int_equal(packed_mesh_compress(&f.packed, PACKED_JOINT_U8, PACKED_WEIGHT_UNORM8, false, &narrow, NULL, &d),
                     LAB_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(d.value, "300"));
    f.packed.max_joint = J - 1;
    /* a palette off its type's boundary, as a plain malloc'd one would be: refused, not
     * loaded split between cache lines (packed.h) */
    uintptr_t off = (uintptr_t)f.pc + 16;
    job.columns = (const palette_columns *)off;
    assert_int_equal(fastskin_validate(&job, &d), LAB_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(d.value, "not on a 64-byte boundary"));
    job.columns = f.pc;
    job.method = SKIN_DQS;
    off = (uintptr_t)f.pd + 16;
    job.dualquats = (const palette_dualquat *)off;
    assert_int_equal(fastskin_validate(&job, &d), LAB_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(d.value, "not on a 32-byte boundary"));
    job.dualquats = f.pd;
    assert_int_equal(fastskin_validate(&job, &d), LAB_OK);
    job.dualquats = NULL;
    assert_int_equal(fastskin_validate(&job, &d), LAB_ERR_INVALID_ARGUMENT);
    packed_mesh empty = {0};
    fastskin_job none = {&empty, NULL, NULL, 0, SKIN_LBS, FASTSKIN_NO_NORMALS, 1, SIMD_SCALAR, NULL, NULL, NULL};
    assert_int_equal(fastskin_run(&none, &d), LAB_OK); /* an empty mesh is not an error */
    release(&f);
}

/* Opposite real parts are the same rotation: the fix flips one and the blend is fine. A
 * palette whose real parts blend to nothing is reported, never turned into NaN. */
static void test_fastskin_reports_a_vanishing_dqs_blend(void **state)
{
    (void)state;
    const int joints[4] = {0, 1, 0, 1};
    const double weights[4] = {0.5, 0.5, 1.0, 0.0};
    vec3 pos[2] = {{1, 0, 0}, {2, 0, 0}};
    packed_mesh m;
    assert_int_equal(packed_mesh_build(pos, NULL, &(skin_influences){2, 2, (int *)joints, (double *)weights}, 2, &m, NULL, NULL), LAB_OK);
    float out[6];
    for (int level = 0; level < SIMD_LEVEL_COUNT; level++) {
        if (!simd_level_available((simd_level)level))
            continue;
        palette_dualquat opposite[2] = {{{0, 1, 0, 0}, {0, 0, 0, 0}}, {{0, -1, 0, 0}, {0, 0, 0, 0}}};
        fastskin_job job = {&m, NULL, opposite, 2, SKIN_DQS, FASTSKIN_NO_NORMALS, 1, (simd_level)level, out, NULL, NULL};
        lab_diag d = {0};
        assert_int_equal(fastskin_run(&job, &d), LAB_OK);
        assert_true(fabsf(out[0] - 1.0f) < 1e-6f && fabsf(out[1]) < 1e-6f); /* turned 180 about x */
        palette_dualquat empty[2] = {{{0, 0, 0, 0}, {0, 0, 0, 0}}, {{0, 0, 0, 0}, {0, 0, 0, 0}}};
        job.dualquats = empty;
        assert_int_equal(fastskin_run(&job, &d), LAB_ERR_DQ_ZERO_NORM);
        assert_int_equal(d.vertex, 0);
        assert_true(out[0] == 1.0f && out[3] == 2.0f); /* those vertices keep their bind positions */
    }
    packed_mesh_free(&m);
    /* inside a range and inside an eight-vertex block: vertices 11 and 13 of 20 blend a
     * vanishing entry alone; the lowest is reported on any split, the others are skinned */
    enum { N = 20 };
    int joint[2 * N];
    double weight[2 * N];
    vec3 bind[N];
    for (int v = 0; v < N; v++) {
        joint[2 * v] = v == 11 || v == 13 ? 2 : 0, joint[2 * v + 1] = 1;
        weight[2 * v] = 1.0, weight[2 * v + 1] = 0.0;
        bind[v] = vec3_make(v, 1, 0);
    }
    assert_int_equal(packed_mesh_build(bind, NULL, &(skin_influences){N, 2, joint, weight}, 2, &m, NULL, NULL), LAB_OK);
    palette_dualquat palette[3] = {{{0, 0, 0, 1}, {0, 0, 0, 0}}, {{1, 0, 0, 0}, {0, 0, 0, 0}}, {{0, 0, 0, 0}, {0, 0, 0, 0}}};
    fastskin_pool *pool;
    assert_int_equal(fastskin_pool_create(2, &pool, NULL), LAB_OK);
    float many[3 * N];
    for (int level = 0; level < SIMD_LEVEL_COUNT; level++)
        for (int threads = 1; threads <= 3; threads += 2) {
            if (!simd_level_available((simd_level)level))
                continue;
            fastskin_job job = {&m, NULL, palette, 3, SKIN_DQS, FASTSKIN_NO_NORMALS, threads, (simd_level)level, many,
                                NULL, pool};
            lab_diag d = {0};
            assert_int_equal(fastskin_run(&job, &d), LAB_ERR_DQ_ZERO_NORM);
            assert_int_equal(d.vertex, 11);
            for (int v = 0; v < N; v++) { /* joint 0 turns half a turn about z: (x, y) -> (-x, -y) */
                bool kept = v == 11 || v == 13;
                assert_float_equal(many[3 * v], kept ? v : -v, 1e-5);
                assert_float_equal(many[3 * v + 1], kept ? 1 : -1, 1e-5);
            }
        }
    fastskin_pool_destroy(pool);
    packed_mesh_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fastskin_matches_the_double_path_everywhere),
        cmocka_unit_test(test_fastskin_compressed_vertex),
        cmocka_unit_test(test_fastskin_every_tail_length),
        cmocka_unit_test(test_fastskin_instancing_equals_merged_palette),
        cmocka_unit_test(test_fastskin_default_level_per_cpu_and_format),
        cmocka_unit_test(test_fastskin_cpu_signature),
        cmocka_unit_test(test_fastskin_validates_the_job),
        cmocka_unit_test(test_fastskin_reports_a_vanishing_dqs_blend),
    };
    return cmocka_run_group_tests_name("fastskin", tests, NULL, NULL);
}
