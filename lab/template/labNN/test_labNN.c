/* test_lab@NN@.c - lab@NN@ end to end: its turned positions against this test's own
 * arithmetic (cos and sin, no matrix) at seeded angles of both signs, at the +-180 degree
 * seam and beyond one turn; its usage and output errors; determinism and the committed
 * out/ch@NN@/. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmocka_all.h"
#include "testutil.h"

#define LAB LAB_BIN_DIR "/lab@NN@"

/* Every turned vertex of OUTDIR/lab@NN@.json is the bind vertex (ring k of 9 at z = k/4,
 * segment j of 24 at angle 15 j degrees, radius 1) turned by theta about +z. */
static void check_turn(tu_run_dir *ctx, double theta_deg)
{
    char theta[64];
    snprintf(theta, sizeof theta, "%.17g", theta_deg);
    assert_int_equal(tu_run_program(LAB, ctx->out_path, ctx->err_path, "--theta", theta, ctx->dir, NULL), 0);
    assert_true(tu_file_contains(ctx->out_path, "All checks passed."));
    cJSON *root = tu_json_load(tu_path(ctx->dir, "lab@NN@.json"));
    assert_non_null(root);
    cJSON *turned = tu_json_get(root, "turned");
    assert_int_equal(cJSON_GetArraySize(turned), 9 * 24);
    double t = theta_deg * acos(-1.0) / 180.0, worst = 0;
    for (int k = 0; k < 9; k++)
        for (int j = 0; j < 24; j++) {
            cJSON *p = cJSON_GetArrayItem(turned, k * 24 + j);
            double a = (15.0 * j) * acos(-1.0) / 180.0 + t;
            double want[3] = {cos(a), sin(a), 0.25 * k};
            for (int c = 0; c < 3; c++)
                worst = fmax(worst, fabs(tu_json_number(cJSON_GetArrayItem(p, c)) - want[c]));
        }
    cJSON_Delete(root);
    if (worst > 1e-9)
        fail_msg("theta %s: a turned vertex is %.3g from cos/sin's (tolerance 1e-9)", theta, worst);
}

static void test_lab@NN@_turns_every_vertex(void **state)
{
    tu_run_dir *ctx = *state;
    static const double seams[] = {0, 90, -90, 180, -180, 180 + 1e-9, -180 - 1e-9, 360, 540, -3600, 3600};
    for (size_t i = 0; i < sizeof seams / sizeof seams[0]; i++)
        check_turn(ctx, seams[i]);
    unsigned long long x = 30;
    for (int i = 0; i < 8; i++) { /* seeded: anywhere in the option's range */
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        check_turn(ctx, -3600.0 + 7200.0 * (double)(x >> 11) / 9007199254740992.0);
    }
}

static void test_lab@NN@_usage_and_output_errors(void **state)
{
    tu_run_dir *ctx = *state;
    assert_int_equal(tu_run_program(LAB, ctx->out_path, ctx->err_path, "--theta", "3601", ctx->dir, NULL), 2);
    assert_int_equal(tu_run_program(LAB, ctx->out_path, ctx->err_path, "--theta", "nan", ctx->dir, NULL), 2);
    assert_int_equal(tu_run_program(LAB, ctx->out_path, ctx->err_path, NULL), 2);
    assert_int_equal(tu_run_program(LAB, ctx->out_path, ctx->err_path, "/nonexistent/lab@NN@", NULL), 3);
    assert_int_equal(tu_count_entries(ctx->dir), 0);
}

static void test_lab@NN@_deterministic_and_committed(void **state)
{
    (void)state;
    static const char *const outputs[] = {"lab@NN@.png", "lab@NN@-bind.png", "lab@NN@-turned.png", "lab@NN@.json",
                                          "lab@NN@-checks.json"};
    tu_check_deterministic_and_committed(LAB, NULL, NULL, outputs, 5, "lab@NN@");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_lab@NN@_turns_every_vertex, tu_run_dir_setup, tu_run_dir_teardown),
        cmocka_unit_test_setup_teardown(test_lab@NN@_usage_and_output_errors, tu_run_dir_setup, tu_run_dir_teardown),
        cmocka_unit_test(test_lab@NN@_deterministic_and_committed),
    };
    return cmocka_run_group_tests_name("lab@NN@", tests, NULL, NULL);
}
