/* test_lab30.c - end to end: runs build/bin/lab30 in temporary directories and checks
 * the exit codes of the contract and the evidence (re-read with cJSON) against this
 * test's own arithmetic; its figures, determinism and the committed out/ are
 * test_lab30_figures.c's. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmocka_all.h"
#include "testutil.h"

#include "base/diag.h"
#include "draw/figure.h"
#include "draw/raster.h"
#include "math/linalg.h"
#include "mesh/mesh.h"
#include "skin/blend.h"

#include "rig30.h"

#define LAB30 LAB_BIN_DIR "/lab30"

typedef tu_run_dir run_ctx;
#define setup_dir tu_run_dir_setup
#define teardown_dir tu_run_dir_teardown

/* Runs lab30 with the NULL-terminated arguments and returns its exit code. */
#define run_lab(ctx, ...) tu_run_program(LAB30, (ctx)->out_path, (ctx)->err_path, __VA_ARGS__, (char *)NULL)


/* ---- the command-line contract --------------------------------------------------- */

static void test_lab30_help_and_usage_errors(void **state)
{
    run_ctx *ctx = *state;
    assert_int_equal(run_lab(ctx, "--help"), 0);
    assert_true(tu_file_contains(ctx->out_path, "usage: lab30"));
    assert_int_equal(run_lab(ctx, (char *)NULL), 2);
    assert_true(tu_file_contains(ctx->err_path, "missing OUTDIR"));
    assert_true(tu_file_contains(ctx->err_path, "usage: lab30"));
    assert_int_equal(run_lab(ctx, "--frobnicate", ctx->dir), 2);
    assert_true(tu_file_contains(ctx->err_path, "unknown option --frobnicate"));
    assert_int_equal(run_lab(ctx, "--theta", "ninety", ctx->dir), 2);
    assert_int_equal(run_lab(ctx, "--theta", "1,2,3,4,5,6,7,8,9", ctx->dir), 2);
    assert_int_equal(run_lab(ctx, "--theta", "90,90", ctx->dir), 2);
    assert_int_equal(run_lab(ctx, "--theta", "90", "--theta", "180", ctx->dir), 2); /* not silently 180 */
    assert_true(tu_file_contains(ctx->err_path, "--theta is given twice"));
    assert_int_equal(run_lab(ctx, "--middle-weights", "0.5", ctx->dir), 2);
    assert_int_equal(run_lab(ctx, "--theta", ctx->dir), 2);
    assert_int_equal(tu_count_entries(ctx->dir), 0);
}

static void test_lab30_output_directory_errors(void **state)
{
    run_ctx *ctx = *state;
    const char *missing = tu_path(ctx->dir, "does-not-exist");
    assert_int_equal(run_lab(ctx, missing), 3);
    assert_false(tu_exists(missing));
    assert_true(tu_file_contains(ctx->err_path, "does not exist"));
    const char *file = tu_path(ctx->dir, "a-file");
    assert_true(tu_write_file(file, "not a directory\n"));
    assert_int_equal(run_lab(ctx, file), 3);
    assert_true(tu_file_contains(ctx->err_path, "not a directory"));
}

/* The report is an output too: when stdout cannot take it (a full disk), the run exits 3
 * and writes nothing. */
static void test_lab30_a_report_that_cannot_be_written_is_an_error(void **state)
{
    run_ctx *ctx = *state;
    char *const argv[] = {LAB30, ctx->dir, NULL};
    assert_int_equal(tu_run(argv, "/dev/full", ctx->err_path), 3);
    assert_true(tu_file_contains(ctx->err_path, "standard output"));
    assert_int_equal(tu_count_entries(ctx->dir), 0);
}

/* ---- the evidence ------------------------------------------------------------------ */

static void test_lab30_json_counts_radii_and_checks(void **state)
{
    run_ctx *ctx = *state;
    assert_int_equal(run_lab(ctx, ctx->dir), 0);
    /* the evidence; every output, byte for byte, is test_lab30_figures.c's */
    static const char *const evidence[] = {"skinning30.json", "skinning30-radii.csv", "lab30-checks.json"};
    for (size_t i = 0; i < sizeof evidence / sizeof evidence[0]; i++)
        assert_true(tu_exists(tu_path(ctx->dir, evidence[i])));
    cJSON *root = tu_json_load(tu_path(ctx->dir, "skinning30.json"));
    assert_non_null(root);
    cJSON *mesh = tu_json_get(root, "mesh");
    assert_int_equal(cJSON_GetArraySize(tu_json_get(mesh, "vertices")), 216);
    assert_int_equal(cJSON_GetArraySize(tu_json_get(mesh, "triangles")), 384);
    assert_true(tu_json_num(mesh, "unique_edges") == 600 && tu_json_num(mesh, "boundary_edges") == 48);
    assert_int_equal(cJSON_GetArraySize(tu_json_get(root, "influences")), 216);
    cJSON *poses = tu_json_get(root, "poses");
    assert_int_equal(cJSON_GetArraySize(poses), 3);
    const double theta[3] = {0, 90, 180}, pi = 3.141592653589793;
    const int degenerate[3] = {0, 0, 48};
    for (int i = 0; i < 3; i++) {
        cJSON *p = cJSON_GetArrayItem(poses, i);
        assert_true(tu_json_num(p, "theta_deg") == theta[i]);
        assert_int_equal((int)tu_json_num(p, "degenerate_triangles"), degenerate[i]);
        /* the middle ring's radius from the positions themselves, by this test's own
         * arithmetic, against the article's formula with w = 1/2: |cos(theta/2)| */
        cJSON *pos = tu_json_get(p, "positions");
        double expect = fabs(cos(theta[i] * pi / 360.0));
        for (int s = 0; s < 24; s++) {
            cJSON *q = cJSON_GetArrayItem(pos, 4 * 24 + s);
            double r = hypot(cJSON_GetArrayItem(q, 0)->valuedouble, cJSON_GetArrayItem(q, 1)->valuedouble);
            assert_near(r, expect, 1e-12);
            assert_true(cJSON_GetArrayItem(q, 2)->valuedouble == 1.0);
        }
        assert_near(tu_json_num(p, "middle_ring_radius"), expect, 1e-12);
    }
    cJSON *checks = tu_json_get(root, "checks");
    assert_true(tu_json_num(checks, "bind_max_error") < 1e-12);
    cJSON *analytic = tu_json_get(checks, "analytic");
    assert_true(tu_json_num(analytic, "max_position_error") < 1e-12);
    assert_true(tu_json_num(analytic, "max_radius_error") < 1e-12);
    assert_true(tu_json_num(analytic, "max_height_error") < 1e-12);
    assert_true(tu_json_num(tu_json_get(checks, "quaternion_end_rings"), "max_difference") < 1e-12);
    cJSON *hand = tu_json_get(checks, "hand_control");
    assert_near(tu_json_num(tu_json_get(hand, "missing_inverse_bind"), "error_vs_correct"), 0.5, 1e-12);
    assert_near(tu_json_num(tu_json_get(hand, "reversed_order"), "error_vs_correct"), sqrt(0.5), 1e-12);
    cJSON *invalid = tu_json_get(checks, "invalid_inputs");
    assert_true(cJSON_GetArraySize(invalid) >= 11);
    cJSON *c;
    cJSON_ArrayForEach(c, invalid)
    {
        assert_true(cJSON_IsTrue(tu_json_get(c, "rejected")));
        assert_true(strlen(cJSON_GetStringValue(tu_json_get(c, "message"))) > 20);
    }
    /* the skin matrices obey C_j = G_j B_j^-1, recomputed here from the JSON */
    cJSON *p90 = cJSON_GetArrayItem(poses, 1);
    cJSON *g1 = cJSON_GetArrayItem(tu_json_get(p90, "world"), 1), *c1 = cJSON_GetArrayItem(tu_json_get(p90, "skin"), 1);
    cJSON *inv1 = tu_json_get(cJSON_GetArrayItem(tu_json_get(root, "joints"), 1), "inverse_bind");
    for (int r = 0; r < 4; r++)
        for (int k = 0; k < 4; k++) {
            double s = 0;
            for (int m = 0; m < 4; m++)
                s += cJSON_GetArrayItem(cJSON_GetArrayItem(g1, r), m)->valuedouble *
                     cJSON_GetArrayItem(cJSON_GetArrayItem(inv1, m), k)->valuedouble;
            assert_near(s - cJSON_GetArrayItem(cJSON_GetArrayItem(c1, r), k)->valuedouble, 0, 1e-15);
        }
    cJSON_Delete(root);
    char *csv = tu_read_file(tu_path(ctx->dir, "skinning30-radii.csv"), NULL);
    int lines = 0;
    for (char *s = csv; *s; s++)
        lines += *s == '\n';
    assert_int_equal(lines, 1 + 27);
    assert_true(strncmp(csv, "theta_deg,ring,z,child_weight,", 30) == 0);
    free(csv);
}

/* Questions A and C from the command line. */
/* The article's explanation, as numbers: the middle ring's blended matrix at 0, 90 and
 * 180 degrees (singular values 1 1 1, 1 r r, 1 0 0); the article's radii are one vertex's,
 * and every radius row keeps min <= mean <= max. */
/* lab30.c writes the palette loop C_j = G_j B_j^-1 and the blend loop sum_j w_j C_j p~ in
 * its own lines. They must give what the library's job (skin_pose_run, through
 * rig30_pose_at) gives, on every vertex of every pose: here at seeded twists of both signs,
 * at the +-180 seam and beyond one turn, with seeded middle-ring weights. */
static void test_lab30_loops_match_the_library_job(void **state)
{
    run_ctx *ctx = *state;
    unsigned seed = 30u;
    for (int trial = 0; trial < 3; trial++) {
        double theta[8] = {-180, 180, 540, -721.5}, w1 = trial == 0 ? 0.5 : trial == 1 ? 0.0 : 1.0;
        for (int i = 4; i < 8; i++) { /* distinct seeded angles in [-3600, 3600) */
            seed = seed * 1103515245u + 12345u;
            theta[i] = -3600.0 + (double)(seed >> 8) / (double)(1u << 24) * 7200.0;
        }
        if (trial == 2) { /* and a weight strictly between 0 and 1 */
            seed = seed * 1103515245u + 12345u;
            w1 = (double)(seed >> 8) / (double)(1u << 24);
        }
        char list[256], weights[64];
        snprintf(list, sizeof list, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g", theta[0], theta[1],
                 theta[2], theta[3], theta[4], theta[5], theta[6], theta[7]);
        snprintf(weights, sizeof weights, "%.17g,%.17g", 1.0 - w1, w1);
        assert_int_equal(run_lab(ctx, "--theta", list, "--middle-weights", weights, ctx->dir), 0);
        cJSON *root = tu_json_load(tu_path(ctx->dir, "skinning30.json"));
        assert_non_null(root);
        rig30_rig rig;
        const double middle[2] = {1.0 - w1, w1};
        assert_int_equal(rig30_rig_build(&rig, RIG30_TWIST, middle, NULL), LAB_OK);
        rig30_pose pose;
        assert_int_equal(rig30_pose_alloc(&rig, &pose, NULL), LAB_OK);
        cJSON *poses = tu_json_get(root, "poses");
        assert_int_equal(cJSON_GetArraySize(poses), 8);
        for (int i = 0; i < 8; i++) {
            cJSON *p = cJSON_GetArrayItem(poses, i);
            double deg = tu_json_num(p, "theta_deg");
            assert_true(deg == theta[i]);
            assert_int_equal(rig30_pose_at(&rig, deg_to_rad(deg), (skin_blend){.method = SKIN_LBS}, &pose, NULL),
                             LAB_OK);
            cJSON *skin = tu_json_get(p, "skin"), *pos = tu_json_get(p, "positions");
            for (int j = 0; j < RIG30_JOINTS; j++)
                for (int r = 0; r < 4; r++)
                    for (int c = 0; c < 4; c++)
                        assert_true(tu_json_number(cJSON_GetArrayItem(cJSON_GetArrayItem(cJSON_GetArrayItem(skin, j), r), c)) ==
                                    pose.palette[j].m[r][c]);
            assert_int_equal(cJSON_GetArraySize(pos), rig.bind.vertex_count);
            for (int v = 0; v < rig.bind.vertex_count; v++) {
                cJSON *q = cJSON_GetArrayItem(pos, v);
                /* the same arithmetic in the same order: equal to the last bit */
                assert_true(tu_json_number(cJSON_GetArrayItem(q, 0)) == pose.positions[v].x);
                assert_true(tu_json_number(cJSON_GetArrayItem(q, 1)) == pose.positions[v].y);
                assert_true(tu_json_number(cJSON_GetArrayItem(q, 2)) == pose.positions[v].z);
            }
        }
        rig30_pose_free(&pose);
        rig30_rig_free(&rig);
        cJSON_Delete(root);
    }
}

static void test_lab30_blended_matrix_and_honest_radii(void **state)
{
    run_ctx *ctx = *state;
    assert_int_equal(run_lab(ctx, ctx->dir), 0);
    cJSON *root = tu_json_load(tu_path(ctx->dir, "skinning30.json"));
    const double expect[3][3] = {{1, 1, 1}, {1, sqrt(0.5), sqrt(0.5)}, {1, 0, 0}};
    for (int i = 0; i < 3; i++) {
        cJSON *p = cJSON_GetArrayItem(tu_json_get(root, "poses"), i);
        cJSON *blend = tu_json_get(p, "middle_ring_blend");
        for (int s = 0; s < 3; s++)
            assert_near(tu_json_number(cJSON_GetArrayItem(tu_json_get(blend, "singular_values"), s)), expect[i][s], 1e-15);
        double det = tu_json_num(blend, "det");
        assert_near(det, expect[i][1] * expect[i][2], 1e-15);
        /* M^T M is not I once the pose turns: its (0, 0) entry is r'^2 */
        double mtm00 = tu_json_number(cJSON_GetArrayItem(cJSON_GetArrayItem(tu_json_get(blend, "MtM"), 0), 0));
        assert_near(mtm00, expect[i][1] * expect[i][1], 1e-15);
        /* segment 0 of the middle ring is the value the article printed */
        cJSON *ring4 = cJSON_GetArrayItem(tu_json_get(p, "ring_radius_per_vertex"), 4);
        const double article[3] = {1, 0.707106781186548, 6.12323399573677e-17};
        const double last_digit[3] = {0, 5e-16, 5e-31}; /* half a unit of the last printed digit */
        assert_near(tu_json_number(cJSON_GetArrayItem(ring4, 0)), article[i], last_digit[i]);
    }
    cJSON_Delete(root);
    /* the CSV: min <= mean <= max on every row */
    char *csv = tu_read_file(tu_path(ctx->dir, "skinning30-radii.csv"), NULL);
    assert_non_null(csv);
    int rows = 0;
    for (char *line = strchr(csv, '\n') + 1; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        double f[9];
        assert_int_equal(sscanf(line, "%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf", &f[0], &f[1], &f[2], &f[3], &f[4],
                                &f[5], &f[6], &f[7], &f[8]), 9);
        assert_true(f[5] <= f[4] && f[4] <= f[6]); /* radius_min <= radius_mean <= radius_max */
        rows++;
    }
    assert_int_equal(rows, 27);
    free(csv);
    assert_true(tu_file_contains(ctx->out_path, "segment 0 vs article"));
    assert_false(tu_file_contains(ctx->out_path, "(article: 48"));
}


static void test_lab30_exercises(void **state)
{
    run_ctx *ctx = *state;
    assert_int_equal(run_lab(ctx, "--theta", "120", ctx->dir), 0);
    assert_true(tu_exists(tu_path(ctx->dir, "skinning30-theta120.png")));
    cJSON *root = tu_json_load(tu_path(ctx->dir, "skinning30.json"));
    cJSON *p = cJSON_GetArrayItem(tu_json_get(root, "poses"), 0);
    assert_near(tu_json_num(p, "middle_ring_radius"), 0.5, 1e-12);
    cJSON_Delete(root);
    assert_int_equal(
        run_lab(ctx, "--theta", "120", "--middle-weights", "0.75,0.25", ctx->dir), 0);
    root = tu_json_load(tu_path(ctx->dir, "skinning30.json"));
    p = cJSON_GetArrayItem(tu_json_get(root, "poses"), 0);
    assert_near(tu_json_num(p, "middle_ring_radius"), sqrt(7.0) / 4.0, 1e-12);
    assert_near(tu_json_number(cJSON_GetArrayItem(tu_json_get(p, "ring_radius_analytic"), 4)), sqrt(7.0) / 4.0, 1e-12);
    cJSON_Delete(root);
    assert_true(tu_file_contains(ctx->out_path, "0.661437827766148"));
    /* the blended matrix explains it: singular values 1 and twice sqrt(7)/4 */
    root = tu_json_load(tu_path(ctx->dir, "skinning30.json"));
    cJSON *sv = tu_json_get(tu_json_get(cJSON_GetArrayItem(tu_json_get(root, "poses"), 0), "middle_ring_blend"),
                            "singular_values");
    assert_near(tu_json_number(cJSON_GetArrayItem(sv, 0)), 1.0, 1e-12);
    for (int s = 1; s < 3; s++)
        assert_near(tu_json_number(cJSON_GetArrayItem(sv, s)), sqrt(7.0) / 4.0, 1e-12);
    cJSON_Delete(root);
    /* every line of the report is about this run: no comparison with the article's poses */
    assert_false(tu_file_contains(ctx->out_path, "article saw 0,"));
    assert_false(tu_file_contains(ctx->out_path, "segment 0 vs article"));
    assert_int_equal(run_lab(ctx, "--theta", "-45,22.5", ctx->dir), 0);
    assert_true(tu_exists(tu_path(ctx->dir, "skinning30-theta-045.png")));
    assert_true(tu_exists(tu_path(ctx->dir, "skinning30-theta22p5.png")));
}

/* The README's exercise commands write into the student's scratch directory `ex`, never
 * into out/: each is run here as printed, with `ex` a directory of this test, and must
 * exit as the README says (the weights that do not sum to 1 exit 1). */
static void test_lab30_readme_exercises_keep_out_intact(void **state)
{
    run_ctx *ctx = *state;
    char *readme = tu_read_file("README.md", NULL) /* tests run in the source tree */;
    assert_non_null(readme);
    char *section = strstr(readme, "\n## The exercises"), *end = section ? strstr(section + 1, "\n## ") : NULL;
    assert_non_null(end);
    *end = '\0';
    assert_non_null(strstr(section, "\nmkdir -p ex\n"));
    char scratch[512];
    snprintf(scratch, sizeof scratch, "%s/ex", ctx->dir);
    assert_int_equal(mkdir(scratch, 0777), 0);
    int commands = 0;
    for (char *line = strstr(section, "\nbuild/bin/lab30 "); line; line = strstr(line + 1, "\nbuild/bin/lab30 ")) {
        char text[256], *argv[16] = {LAB30};
        int argc = 1;
        size_t n = strcspn(line + 1, "\n");
        assert_true(n < sizeof text);
        memcpy(text, line + 1, n), text[n] = '\0';
        text[strcspn(text, "#")] = '\0'; /* "# exits 1": what the README says, not an argument */
        bool bad_weights = strstr(text, "0.4,0.4") != NULL;
        strtok(text, " "); /* build/bin/lab30 */
        for (char *arg = strtok(NULL, " "); arg && argc < 15; arg = strtok(NULL, " "))
            argv[argc++] = arg;
        assert_string_equal(argv[argc - 1], "ex"); /* the scratch directory, never out */
        argv[argc - 1] = scratch, argv[argc] = NULL;
        assert_int_equal(tu_run(argv, ctx->out_path, ctx->err_path), bad_weights ? 1 : 0);
        commands++;
    }
    assert_int_equal(commands, 4);
    free(readme);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup_dir, teardown_dir)
    const struct CMUnitTest tests[] = {
        T(test_lab30_help_and_usage_errors),
        T(test_lab30_output_directory_errors),
        T(test_lab30_a_report_that_cannot_be_written_is_an_error),
        T(test_lab30_json_counts_radii_and_checks),
        T(test_lab30_loops_match_the_library_job),
        T(test_lab30_blended_matrix_and_honest_radii),
        T(test_lab30_exercises),
        T(test_lab30_readme_exercises_keep_out_intact),
    };
#undef T
    return cmocka_run_group_tests_name("lab30 end to end", tests, NULL, NULL);
}
