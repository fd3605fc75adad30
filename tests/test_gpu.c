/* test_gpu.c - the GPU paths (gpu.h, gpu_skin.h) and lab30-gpu, on whatever renderer EGL
 * gives: Mesa's llvmpipe where there is no GPU (CI installs it).
 *
 * Every path and method against a double-precision blend written out here on its own; the
 * split against one draw; the refusals, each naming its limit; a shader that does not
 * compile, reported with the driver's log; the program end to end: its checks, its
 * determinism, the committed out/ where the renderer is the committed one, nothing written
 * when it fails, and a machine without an EGL driver (glvnd told to load none) refused
 * with exit 1. Where this machine has no EGL display at all, each test says so and is
 * counted as skipped, never passed. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_all.h"
#include "skin/fastskin.h"
#include "gpu/gpu_skin.h"
#include "skin/rig_random.h"
#include "testutil.h"

#define LAB LAB_BIN_DIR "/lab30-gpu"
#define J 24
#define N 301

typedef struct {
    gpu_context *gpu;
    gpu_skinner *skinner;
} gpu_fixture;

static int open_gpu(void **state)
{
    static gpu_fixture f;
    lab_diag d = {0};
    f = (gpu_fixture){0};
    if (gpu_open(&f.gpu, &d) == LAB_OK && gpu_skinner_create(f.gpu, NULL, &f.skinner, &d) != LAB_OK) {
        char msg[700];
        diag_format(&d, msg, sizeof msg);
        fprintf(stderr, "the GPU skinner cannot be built here: %s\n", msg);
        return -1; /* a driver that opens but cannot build our shaders is a failure */
    }
    if (!f.gpu) {
        char msg[700];
        diag_format(&d, msg, sizeof msg);
        fprintf(stderr, "no EGL/OpenGL ES 3.1 here (%s): the GPU tests are skipped\n", msg);
    }
    *state = &f;
    return 0;
}

static int close_gpu(void **state)
{
    gpu_fixture *f = *state;
    gpu_skinner_free(f->skinner);
    gpu_close(f->gpu);
    return 0;
}

static gpu_fixture *fixture_or_skip(void **state)
{
    gpu_fixture *f = *state;
    if (!f->gpu)
        skip();
    return f;
}

/* The blend in doubles, from the rig's own influences sorted heaviest first (the packed
 * order, so DQS has the same pivot): LBS M = sum w C; DQS Kavan's, normalised. */
static void reference(const rig_random *r, int v, skin_method method, vec3 *p, vec3 *n)
{
    int joint[4];
    double weight[4];
    memcpy(joint, r->in.joint + 4 * v, sizeof joint);
    memcpy(weight, r->in.weight + 4 * v, sizeof weight);
    skin_sort_heaviest_first(joint, weight, 4);
    if (method == SKIN_LBS) {
        mat4 m = {{{0}}};
        for (int i = 0; i < 4; i++)
            m = mat4_add(m, mat4_scale_by(r->skin[joint[i]], weight[i]));
        *p = mat4_transform_point(m, r->positions[v]);
        *n = vec3_normalize(mat4_transform_direction(m, r->normals[v]));
        return;
    }
    dualquat q[4], u;
    for (int i = 0; i < 4; i++)
        q[i] = r->dq[joint[i]];
    assert_int_equal(dualquat_normalize(dualquat_blend(q, weight, 4, true), &u, "reference", NULL), LAB_OK);
    *p = dualquat_transform_point(u, r->positions[v]);
    *n = quat_rotate(u.real, r->normals[v]);
}

typedef struct {
    rig_random rig;
    packed_mesh packed;
    palette_matrix pm[J];
    palette_dualquat pd[J];
    float p[3 * N], n[3 * N], q[3 * N], m[3 * N];
} rig_data;

static void build_rig(rig_data *r)
{
    assert_int_equal(rig_random_build(N, J, 4, 99, &r->rig, NULL), LAB_OK);
    for (int v = 0; v < N; v++) /* normals in every direction, not only +x */
        r->rig.normals[v] = vec3_normalize(vec3_make(r->rig.positions[v].y, 1.0, r->rig.positions[v].x));
    assert_int_equal(packed_mesh_build(r->rig.positions, r->rig.normals, &r->rig.in, 4, &r->packed, NULL, NULL), LAB_OK);
    palette_from_mat4(r->rig.skin, J, NULL, r->pm);
    palette_from_dualquats(r->rig.dq, J, r->pd);
}

static void free_rig(rig_data *r)
{
    packed_mesh_free(&r->packed);
    rig_random_free(&r->rig);
}

static void test_gpu_every_path_matches_the_double_blend(void **state)
{
    gpu_fixture *f = fixture_or_skip(state);
    static rig_data r;
    build_rig(&r);
    gpu_mesh *mesh;
    assert_int_equal(gpu_mesh_upload(f->skinner, &r.packed, 0, &mesh, NULL), LAB_OK);
    for (int path = 0; path < GPU_PATH_COUNT; path++)
        for (int method = 0; method < 2; method++) {
            gpu_skin_job job = {mesh, (gpu_path)path, (skin_method)method, r.pm, r.pd, J, r.p, r.n};
            gpu_timing t = {-1, -1, -1};
            lab_diag d = {0};
            assert_int_equal(gpu_skin_run(f->skinner, &job, &t, &d), LAB_OK);
            assert_true(t.upload >= 0 && t.run >= 0 && t.readback >= 0);
            double ep = 0, en = 0;
            for (int v = 0; v < N; v++) {
                vec3 p, n;
                reference(&r.rig, v, (skin_method)method, &p, &n);
                ep = fmax(ep, vec3_length(vec3_sub(p, vec3_make(r.p[3 * v], r.p[3 * v + 1], r.p[3 * v + 2]))));
                en = fmax(en, vec3_length(vec3_sub(n, vec3_make(r.n[3 * v], r.n[3 * v + 1], r.n[3 * v + 2]))));
            }
            if (!(ep < 1e-5 && en < 1e-5))
                fail_msg("%s %s: position %g, normal %g", gpu_path_name((gpu_path)path),
                         skin_method_name((skin_method)method), ep, en);
        }
    gpu_mesh_free(mesh);
    free_rig(&r);
}

/* The shader's hemisphere rule, exercised: the random palette's rotations are at most
 * 1 rad, so every pair of its quaternions is on one side. Here every other joint's dual
 * quaternion is negated (the same transform, the other hemisphere) and every third turns
 * by more than 180 degrees (a real part below 0), so a blend without the rule goes the
 * long way or vanishes; every path must still match the double blend with the rule. */
static void test_gpu_hemisphere_rule_with_antipodal_quaternions(void **state)
{
    gpu_fixture *f = fixture_or_skip(state);
    static rig_data r;
    build_rig(&r);
    for (int j = 0; j < J; j++) {
        if (j % 3 == 0) { /* past a half turn: 200 to 340 degrees */
            double angle = acos(-1.0) * (200.0 + 140.0 * j / J) / 180.0;
            vec3 axis = vec3_make(0.3 + 0.01 * j, -0.5, 0.8), t = vec3_make(0.1 * (j % 5), 0.2, -0.1);
            r.rig.dq[j] = dualquat_from_rigid(quat_from_axis_angle(axis, angle), t);
            r.rig.skin[j] = dualquat_to_mat4(r.rig.dq[j]);
        }
        if (j % 2 == 1)
            r.rig.dq[j] = dualquat_scale(r.rig.dq[j], -1.0);
    }
    palette_from_mat4(r.rig.skin, J, NULL, r.pm);
    palette_from_dualquats(r.rig.dq, J, r.pd);
    int opposite = 0; /* vertices whose influences do straddle the hemispheres */
    for (int v = 0; v < N; v++) {
        int joint[4];
        double weight[4];
        memcpy(joint, r.rig.in.joint + 4 * v, sizeof joint);
        memcpy(weight, r.rig.in.weight + 4 * v, sizeof weight);
        skin_sort_heaviest_first(joint, weight, 4);
        for (int i = 1; i < 4; i++)
            if (weight[i] > 0 && quat_dot(r.rig.dq[joint[i]].real, r.rig.dq[joint[0]].real) < 0) {
                opposite++;
                break;
            }
    }
    assert_true(opposite > N / 2);
    gpu_mesh *mesh;
    assert_int_equal(gpu_mesh_upload(f->skinner, &r.packed, 0, &mesh, NULL), LAB_OK);
    for (int path = 0; path < GPU_PATH_COUNT; path++) {
        gpu_skin_job job = {mesh, (gpu_path)path, SKIN_DQS, r.pm, r.pd, J, r.p, r.n};
        assert_int_equal(gpu_skin_run(f->skinner, &job, NULL, NULL), LAB_OK);
        double ep = 0, en = 0;
        for (int v = 0; v < N; v++) {
            vec3 p, n;
            reference(&r.rig, v, SKIN_DQS, &p, &n);
            ep = fmax(ep, vec3_length(vec3_sub(p, vec3_make(r.p[3 * v], r.p[3 * v + 1], r.p[3 * v + 2]))));
            en = fmax(en, vec3_length(vec3_sub(n, vec3_make(r.n[3 * v], r.n[3 * v + 1], r.n[3 * v + 2]))));
        }
        if (!(ep < 1e-5 && en < 1e-5))
            fail_msg("%s DQS with antipodal quaternions: position %g, normal %g", gpu_path_name((gpu_path)path), ep,
                     en);
    }
    gpu_mesh_free(mesh);
    free_rig(&r);
}

/* RTR4's model splitting: any budget from 4 joints a draw gives what one draw gives. */
static void test_gpu_split_mesh_equals_one_draw(void **state)
{
    gpu_fixture *f = fixture_or_skip(state);
    static rig_data r;
    build_rig(&r);
    gpu_mesh *whole, *split;
    assert_int_equal(gpu_mesh_upload(f->skinner, &r.packed, 0, &whole, NULL), LAB_OK);
    assert_int_equal(gpu_mesh_parts(whole), 1);
    const int budgets[3] = {4, 7, 16};
    for (int b = 0; b < 3; b++) {
        assert_int_equal(gpu_mesh_upload(f->skinner, &r.packed, budgets[b], &split, NULL), LAB_OK);
        assert_true(gpu_mesh_parts(split) > 1); /* 24 joints never fit one part of 16 */
        for (int path = 0; path < GPU_PATH_COUNT; path++)
            for (int method = 0; method < 2; method++) {
                gpu_skin_job one = {whole, (gpu_path)path, (skin_method)method, r.pm, r.pd, J, r.p, r.n};
                gpu_skin_job parts = {split, (gpu_path)path, (skin_method)method, r.pm, r.pd, J, r.q, r.m};
                assert_int_equal(gpu_skin_run(f->skinner, &one, NULL, NULL), LAB_OK);
                assert_int_equal(gpu_skin_run(f->skinner, &parts, NULL, NULL), LAB_OK);
                for (int k = 0; k < 3 * N; k++)
                    assert_true(fabsf(r.p[k] - r.q[k]) <= 1e-6f && fabsf(r.n[k] - r.m[k]) <= 1e-6f);
            }
        gpu_mesh_free(split);
    }
    gpu_mesh_free(whole);
    free_rig(&r);
}

/* What cannot be served is refused, naming the limit; nothing is skinned. */
static void test_gpu_refusals_name_the_limit(void **state)
{
    gpu_fixture *f = fixture_or_skip(state);
    static rig_data r;
    build_rig(&r);
    lab_diag d = {0};
    gpu_mesh *mesh = NULL;
    assert_int_equal(gpu_mesh_upload(f->skinner, &r.packed, 3, &mesh, &d), LAB_ERR_LIMIT);
    assert_null(mesh);
    assert_non_null(strstr(d.value, "at least 4"));
    packed_mesh narrow;
    assert_int_equal(packed_mesh_compress(&r.packed, PACKED_JOINT_U8, PACKED_WEIGHT_UNORM8, false, &narrow, NULL, NULL), LAB_OK);
    assert_int_equal(gpu_mesh_upload(f->skinner, &narrow, 0, &mesh, &d), LAB_ERR_INVALID_ARGUMENT);
    packed_mesh_free(&narrow);
    /* a budget above what a uniform block holds is still met when every part fits one:
     * the uniform path serves it, with a block of what the block holds */
    int too_many = gpu_uniform_joints(f->skinner, SKIN_LBS) + 1;
    assert_int_equal(gpu_mesh_upload(f->skinner, &r.packed, too_many, &mesh, NULL), LAB_OK);
    assert_true(gpu_mesh_largest_part(mesh) <= J);
    gpu_skin_job job = {mesh, GPU_PATH_UNIFORM, SKIN_LBS, r.pm, r.pd, J, r.p, r.n};
    assert_int_equal(gpu_skin_run(f->skinner, &job, NULL, &d), LAB_OK);
    gpu_mesh_free(mesh);
    /* a draw of more joints than a uniform block holds is refused, naming the limit: the
     * lab's 2000-joint rig in one block (test_lab30_gpu_end_to_end, its report's check) */
    /* a palette that does not cover the mesh's joints */
    assert_int_equal(gpu_mesh_upload(f->skinner, &r.packed, 0, &mesh, NULL), LAB_OK);
    job = (gpu_skin_job){mesh, GPU_PATH_COMPUTE, SKIN_DQS, r.pm, r.pd, r.packed.max_joint, r.p, r.n};
    assert_int_equal(gpu_skin_run(f->skinner, &job, NULL, &d), LAB_ERR_INVALID_ARGUMENT);
    gpu_mesh_free(mesh);
    free_rig(&r);
}

/* A shader the driver refuses is reported with the driver's own log, never an abort. */
static void test_gpu_shader_errors_carry_the_info_log(void **state)
{
    gpu_fixture *f = fixture_or_skip(state);
    const char *broken[2] = {"#version 310 es\nlayout(local_size_x = 1) in;\n", "void main() { undeclared = 1; }\n"};
    unsigned program = 0;
    lab_diag d = {0};
    assert_int_equal(gpu_program_build(f->gpu, "broken", (gpu_source){NULL, 0}, (gpu_source){NULL, 0},
                                       (gpu_source){broken, 2}, NULL, 0, &program, &d),
                     LAB_ERR_GPU);
    assert_int_equal(program, 0);
    assert_non_null(strstr(d.where, "compute shader"));
    assert_non_null(strstr(d.value, "does not compile"));
    assert_non_null(strstr(d.value, "undeclared")); /* the driver's words */
    assert_int_equal(gpu_check("after a refused shader", &d), LAB_OK); /* no GL error left behind */
}

/* The program end to end. */
static void test_lab30_gpu_end_to_end(void **state)
{
    fixture_or_skip(state);
    char dir[64], again[64];
    assert_non_null(tu_make_temp_dir(dir, sizeof dir));
    assert_non_null(tu_make_temp_dir(again, sizeof again));
    char out[96], err[96];
    snprintf(out, sizeof out, "%s/.stdout", again);
    snprintf(err, sizeof err, "%s/.stderr", again);
    assert_int_equal(tu_run_program(LAB, out, err, dir, (char *)NULL), 0);
    assert_true(tu_file_contains(out, "All checks passed."));
    cJSON *json = tu_json_load(tu_path(dir, "gpu30.json"));
    assert_non_null(json);
    const cJSON *results = tu_json_get(json, "results");
    int rows = 0;
    for (const cJSON *o = results->child; o; o = o->next, rows++) {
        assert_true(tu_json_num(o, "max_position_vs_cpu_float") < 1e-6);
        assert_true(tu_json_num(o, "max_position_vs_cpu_double") < 1e-5);
        assert_true(tu_json_num(o, "max_normal_angle_vs_cpu_float") < 1e-5);
    }
    assert_int_equal(rows, 8 * 3 * 2); /* 8 cases x 3 paths x 2 methods */
    const cJSON *renderer = tu_json_get(json, "renderer");
    assert_true(strlen(cJSON_GetObjectItem(renderer, "GL_RENDERER")->valuestring) > 0);
    const cJSON *fit = tu_json_get(json, "when_the_palette_does_not_fit");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(tu_json_get(fit, "uniform_block_2000_joints"), "rejected")));
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(tu_json_get(fit, "joint_budget_3"), "rejected")));
    /* the same bytes again; the committed out/ where it came from this renderer */
    remove(out), remove(err);
    assert_int_equal(tu_run_program(LAB, NULL, NULL, again, (char *)NULL), 0);
    static const char *const names[2] = {"gpu30.json", "gpu30.png"};
    assert_null(tu_first_differing_output(dir, again, names, 2));
    cJSON *committed = tu_json_load(COMMITTED_OUT_DIR "/ch30/gpu30.json");
    assert_non_null(committed);
    const char *here = cJSON_GetObjectItem(renderer, "GL_RENDERER")->valuestring;
    const char *there = cJSON_GetObjectItem(tu_json_get(committed, "renderer"), "GL_RENDERER")->valuestring;
    if (!strcmp(here, there))
        assert_null(tu_first_stale_output(dir, tu_committed_dir("lab30-gpu"), names, 2));
    else
        fprintf(stderr, "renderer %s, out/ was made on %s: compared with itself only\n", here, there);
    cJSON_Delete(committed);
    cJSON_Delete(json);
    tu_remove_tree(dir);
    tu_remove_tree(again);
}

/* Any budget the option accepts works, the largest too; failures write nothing: a machine
 * whose EGL has no driver (glvnd pointed at a vendor file that does not exist). */
static void test_lab30_gpu_failures_write_nothing(void **state)
{
    fixture_or_skip(state);
    tu_run_dir *ctx;
    assert_int_equal(tu_run_dir_setup((void **)&ctx), 0);
    assert_int_equal(tu_run_program(LAB, NULL, ctx->err_path, "--joint-budget", "1048576", ctx->dir, (char *)NULL), 0);
    tu_remove_tree(ctx->dir);
    assert_true(tu_make_temp_dir(ctx->dir, sizeof ctx->dir) != NULL);
    setenv("__EGL_VENDOR_LIBRARY_FILENAMES", "/nonexistent/egl_vendor.json", 1);
    int rc = tu_run_program(LAB, NULL, ctx->err_path, ctx->dir, (char *)NULL);
    unsetenv("__EGL_VENDOR_LIBRARY_FILENAMES");
    assert_int_equal(rc, 1);
    assert_true(tu_file_contains(ctx->err_path, "no EGL display"));
    assert_int_equal(tu_count_entries(ctx->dir), 0);
    tu_run_dir_teardown((void **)&ctx);
}

/* The GPU benchmark is no test; this only checks that it runs and writes its rows. */
static void test_bench_gpu_smoke(void **state)
{
    fixture_or_skip(state);
    tu_run_dir *ctx;
    assert_int_equal(tu_run_dir_setup((void **)&ctx), 0);
    assert_int_equal(tu_run_program(LAB_BIN_DIR "/bench-gpu", ctx->out_path, ctx->err_path, "--smoke", ctx->dir,
                                    (char *)NULL),
                     0);
    char *csv = tu_read_file(tu_path(ctx->dir, "gpu.csv"), NULL);
    assert_non_null(csv);
    assert_true(!strncmp(csv, "renderer,kernel,method,vertices,upload_us,run_us,readback_us,", 61));
    static const char *const kernels[] = {",gpu-uniform,LBS,1000,", ",gpu-texture,DQS,1000,", ",gpu-compute,LBS,1000,",
                                          ",cpu-"};
    for (int i = 0; i < 4; i++)
        assert_non_null(strstr(csv, kernels[i]));
    free(csv);
    assert_true(tu_file_contains(ctx->out_path, "renderer: "));
    tu_run_dir_teardown((void **)&ctx);
}

/* The results file's GPU table is one committed run: every row of out/bench/gpu.csv is in it,
 * rounded as printed. Needs no GPU. */
static void test_results_gpu_table_is_the_committed_run(void **state)
{
    (void)state;
    char *readme = tu_read_file(COMMITTED_OUT_DIR "/bench/RESULTS.md", NULL),
         *csv = tu_read_file(COMMITTED_OUT_DIR "/bench/gpu.csv", NULL);
    assert_true(readme && csv);
    int rows = 0;
    for (char *line = strchr(csv, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
        char kernel[32], method[8], expect[256];
        int vertices;
        double f[5];
        const char *at = strstr(line + 1, "\","); /* after the quoted renderer */
        assert_non_null(at);
        assert_int_equal(sscanf(at + 2, "%31[^,],%7[^,],%d,%lf,%lf,%lf,%lf,%lf", kernel, method, &vertices, &f[0], &f[1],
                                &f[2], &f[3], &f[4]),
                         8);
        snprintf(expect, sizeof expect, "| %s | %s | %d | %.1f | %.1f | %.1f | %.1f | %.2f |", kernel, method, vertices, f[0],
                 f[1], f[2], f[3], f[4]);
        if (!strstr(readme, expect))
            fail_msg("RESULTS.md has no row \"%s\"", expect);
        rows++;
    }
    assert_int_equal(rows, 3 * 2 * 5); /* 3 sizes, 2 methods, 3 GPU paths and 2 CPU rows */
    free(readme), free(csv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpu_every_path_matches_the_double_blend),
        cmocka_unit_test(test_gpu_hemisphere_rule_with_antipodal_quaternions),
        cmocka_unit_test(test_gpu_split_mesh_equals_one_draw),
        cmocka_unit_test(test_gpu_refusals_name_the_limit),
        cmocka_unit_test(test_gpu_shader_errors_carry_the_info_log),
        cmocka_unit_test(test_lab30_gpu_end_to_end),
        cmocka_unit_test(test_lab30_gpu_failures_write_nothing),
        cmocka_unit_test(test_bench_gpu_smoke),
        cmocka_unit_test(test_results_gpu_table_is_the_committed_run),
    };
    return cmocka_run_group_tests_name("GPU skinning", tests, open_gpu, close_gpu);
}
