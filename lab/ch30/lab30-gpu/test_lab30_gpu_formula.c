/* test_lab30_gpu_formula.c - the library's shaders held to the program's lines:
 * lab30-gpu.c writes the blends the shaders run (skin_blend_glsl); the library's own
 * shaders/skin_blend.glsl (gpu_skinner_create with NULL) must give the same floats on every
 * path and method, on a seeded 64-joint rig and on antipodal dual quaternions (the
 * hemisphere rule). And a blend the driver refuses is refused with its log, naming the
 * program. Where this machine has no EGL display, the test says so and is counted as
 * skipped, never passed. */
#define _POSIX_C_SOURCE 200809L
/* The blend is the program's own: its file is compiled into this suite, main renamed. */
#define main lab30_gpu_main
#include "lab30-gpu.c"
#undef main

#include "cmocka_all.h"

#define JOINTS 64
#define VERTS 517

static void skin_with(gpu_skinner *s, const packed_mesh *m, gpu_path path, skin_method method,
                      const palette_matrix *pm, const palette_dualquat *pd, float *p, float *n)
{
    gpu_mesh *mesh = NULL;
    lab_diag d = {0};
    lab_error e = gpu_mesh_upload(s, m, 0, &mesh, &d);
    gpu_skin_job job = {mesh, path, method, pm, pd, JOINTS, p, n};
    if (e == LAB_OK)
        e = gpu_skin_run(s, &job, NULL, &d);
    if (e != LAB_OK) {
        char msg[700];
        diag_format(&d, msg, sizeof msg);
        fail_msg("%s %s: %s", gpu_path_name(path), skin_method_name(method), msg);
    }
    gpu_mesh_free(mesh);
}

static void test_gpu_blend_matches_the_library_shaders(void **state)
{
    (void)state;
    gpu_context *gpu = NULL;
    lab_diag d = {0};
    if (gpu_open(&gpu, &d) != LAB_OK) {
        char msg[700];
        diag_format(&d, msg, sizeof msg);
        fprintf(stderr, "no EGL/OpenGL ES 3.1 here (%s): the program's blend is not compared\n", msg);
        skip();
    }
    gpu_skinner *mine = NULL, *library = NULL;
    assert_int_equal(gpu_skinner_create(gpu, skin_blend_glsl, &mine, NULL), LAB_OK);
    assert_int_equal(gpu_skinner_create(gpu, NULL, &library, NULL), LAB_OK);
    for (int round = 0; round < 2; round++) {
        rig_random rig;
        assert_int_equal(rig_random_build(VERTS, JOINTS, 4, 3000 + (unsigned)round, &rig, NULL), LAB_OK);
        if (round == 1) /* every other joint's dual quaternion negated: the same transforms */
            for (int j = 1; j < JOINTS; j += 2)
                rig.dq[j] = dualquat_scale(rig.dq[j], -1.0);
        packed_mesh m = {0};
        assert_int_equal(packed_mesh_build(rig.positions, rig.normals, &rig.in, 4, &m, NULL, NULL), LAB_OK);
        static palette_matrix pm[JOINTS];
        palette_dualquat *pd = aligned_alloc(_Alignof(palette_dualquat), sizeof(palette_dualquat) * JOINTS);
        assert_non_null(pd);
        palette_from_mat4(rig.skin, JOINTS, NULL, pm);
        palette_from_dualquats(rig.dq, JOINTS, pd);
        static float p[2][3 * VERTS], n[2][3 * VERTS];
        for (int path = 0; path < GPU_PATH_COUNT; path++)
            for (int method = 0; method < 2; method++) {
                skin_with(mine, &m, (gpu_path)path, (skin_method)method, pm, pd, p[0], n[0]);
                skin_with(library, &m, (gpu_path)path, (skin_method)method, pm, pd, p[1], n[1]);
                double worst = 0;
                for (int k = 0; k < 3 * VERTS; k++) {
                    worst = max_or_nan(worst, fabs((double)p[0][k] - p[1][k]));
                    worst = max_or_nan(worst, fabs((double)n[0][k] - n[1][k]));
                }
                if (!(worst <= 1e-6))
                    fail_msg("round %d, %s %s: the program's blend and the library's differ by %.3g (bound 1e-6)",
                             round, gpu_path_name((gpu_path)path), skin_method_name((skin_method)method), worst);
            }
        free(pd);
        packed_mesh_free(&m);
        rig_random_free(&rig);
    }
    /* a blend that does not compile: refused, with the driver's log */
    gpu_skinner *broken = NULL;
    lab_error e = gpu_skinner_create(gpu, "void skin(uvec4 j, vec3 w, vec3 p, vec3 n, out vec3 a, out vec3 b)\n"
                                          "{ a = p + undeclared; b = n; }\n",
                                     &broken, &d);
    assert_int_not_equal(e, LAB_OK);
    assert_null(broken);
    char msg[2000];
    diag_format(&d, msg, sizeof msg);
    if (!strstr(msg, "undeclared"))
        fail_msg("the refusal does not carry the driver's log: %s", msg);
    gpu_skinner_free(mine), gpu_skinner_free(library);
    gpu_close(gpu);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpu_blend_matches_the_library_shaders),
    };
    return cmocka_run_group_tests_name("lab30-gpu's blend against the library's shaders", tests, NULL, NULL);
}
