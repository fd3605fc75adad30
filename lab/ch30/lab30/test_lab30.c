/* test_lab30.c - end to end: runs build/bin/lab30 in temporary directories and checks
 * the exit codes of the contract, the evidence (re-read with cJSON), the figure
 * (re-read with stb_image), determinism, and that the committed out/ is up to date. */
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
static const unsigned char orange[3] = {255, 140, 0};
static const char *const outputs[] = {"skinning30.png", "skinning30-theta000.png",
                                      "skinning30-theta090.png", "skinning30-theta180.png",
                                      "skinning30.json", "skinning30-radii.csv", "skinning30-hand.png",
                                      "skinning30-weights.png", "skinning30-refused-weights.png",
                                      "skinning30-twist.gif", "lab30-checks.json"};
enum { OUTPUT_COUNT = sizeof outputs / sizeof outputs[0] };

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

/* Exercise 2: weights (0.4, 0.4) are rejected with the article's explanation, and the
 * outputs of an earlier run stay exactly as they were. */
static void test_lab30_rejected_weights_lose_nothing(void **state)
{
    run_ctx *ctx = *state;
    assert_int_equal(run_lab(ctx, ctx->dir), 0);
    size_t before_len;
    char *before = tu_read_file(tu_path(ctx->dir, "skinning30.json"), &before_len);
    assert_int_equal(run_lab(ctx, "--middle-weights", "0.4,0.4", ctx->dir), 1);
    assert_true(tu_file_contains(ctx->err_path, "ring 4"));
    assert_true(tu_file_contains(ctx->err_path, "sum to 0.8, not 1"));
    assert_true(tu_file_contains(ctx->err_path, "0.8 p with homogeneous w = 0.8"));
    /* a negative weight summing to 1 breaks the other rule, named as such (--help says it) */
    assert_int_equal(run_lab(ctx, "--middle-weights", "-0.5,1.5", ctx->dir), 1);
    assert_true(tu_file_contains(ctx->err_path, "weights must be non-negative, vertex 96 slot 0 (ring 4"));
    assert_true(tu_file_contains(ctx->err_path, "weight -0.5"));
    size_t after_len;
    char *after = tu_read_file(tu_path(ctx->dir, "skinning30.json"), &after_len);
    assert_int_equal(before_len, after_len);
    assert_memory_equal(before, after, before_len);
    assert_int_equal(tu_count_entries(ctx->dir), OUTPUT_COUNT); /* no temporaries */
    free(before);
    free(after);
}

/* ---- the evidence ------------------------------------------------------------------ */

static void test_lab30_json_counts_radii_and_checks(void **state)
{
    run_ctx *ctx = *state;
    assert_int_equal(run_lab(ctx, ctx->dir), 0);
    for (int i = 0; i < OUTPUT_COUNT; i++)
        assert_true(tu_exists(tu_path(ctx->dir, outputs[i])));
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

/* Exercises 1 and 2 from the command line. */
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

/* Section 4 shown, not only asserted: the hand-control panel puts each point where the
 * computation put it (100 pixels a unit, origin at (210, 330)), in its colour; the JSON
 * says the cylinder cannot tell the orders apart and the hand control can; the weights
 * panel's colour bar runs from green (root) to red (child). */
static void test_lab30_hand_control_and_weights_panels(void **state)
{
    run_ctx *ctx = *state;
    assert_int_equal(run_lab(ctx, ctx->dir), 0);
    tu_image img;
    assert_true(tu_image_load(tu_path(ctx->dir, "skinning30-hand.png"), &img));
    const struct { double x, y; unsigned char r, g, b; } marks[] = {
        {0.5, 1.5, 0, 140, 60}, /* the correct blend, green */
        {0, 1.5, 200, 30, 30},  /* G1 alone, red */
        {0, 1, 200, 30, 30},    /* B1^-1 G1, red */
        {0, 2, 40, 90, 200},    /* C1 p, blue */
    };
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++) {
        const unsigned char *px = &img.rgb[3 * ((int)(330 - 100 * marks[i].y) * img.width + (int)(210 + 100 * marks[i].x))];
        assert_true(px[0] == marks[i].r && px[1] == marks[i].g && px[2] == marks[i].b);
    }
    tu_image_free(&img);
    cJSON *root = tu_json_load(tu_path(ctx->dir, "skinning30.json"));
    cJSON *hand = tu_json_get(tu_json_get(root, "checks"), "hand_control");
    assert_true(tu_json_num(hand, "reversed_order_on_cylinder") == 0.0);
    assert_near(tu_json_num(tu_json_get(hand, "reversed_order"), "error_vs_correct"), sqrt(0.5), 1e-12);
    assert_true(tu_json_num(hand, "row_column_difference") < 1e-15);
    cJSON *local = tu_json_get(hand, "in_bind_frame");
    assert_near(tu_json_number(cJSON_GetArrayItem(local, 0)), 1, 1e-15);
    assert_near(tu_json_number(cJSON_GetArrayItem(local, 1)), 0, 1e-15);
    cJSON_Delete(root);
    assert_true(tu_image_load(tu_path(ctx->dir, "skinning30-weights.png"), &img));
    const unsigned char *lo = &img.rgb[3 * (47 * img.width + 41)], *hi = &img.rgb[3 * (47 * img.width + 40 + 12 * 19 + 6)];
    assert_true(lo[1] > lo[0] && hi[0] > hi[1]); /* green at w1 = 0, red at w1 = 1 */
    tu_image_free(&img);
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

/* ---- the figure -------------------------------------------------------------------- */

typedef struct { double view[4][4], proj[4][4]; int vp[4]; } json_camera;

static void load_camera(const cJSON *root, json_camera *cam)
{
    cJSON *c = tu_json_get(root, "camera");
    for (int r = 0; r < 4; r++)
        for (int k = 0; k < 4; k++) {
            cam->view[r][k] = cJSON_GetArrayItem(cJSON_GetArrayItem(tu_json_get(c, "view"), r), k)->valuedouble;
            cam->proj[r][k] = cJSON_GetArrayItem(cJSON_GetArrayItem(tu_json_get(c, "projection"), r), k)->valuedouble;
        }
    for (int i = 0; i < 4; i++)
        cam->vp[i] = cJSON_GetArrayItem(tu_json_get(c, "viewport"), i)->valueint;
}

/* This test's own chain: clip = P V p, divide, viewport with NDC +y at the top. */
static void project(const json_camera *cam, const double p[3], double *px, double *py)
{
    double h[4] = {p[0], p[1], p[2], 1}, v[4], c[4];
    for (int r = 0; r < 4; r++)
        v[r] = cam->view[r][0] * h[0] + cam->view[r][1] * h[1] + cam->view[r][2] * h[2] + cam->view[r][3];
    for (int r = 0; r < 4; r++)
        c[r] = cam->proj[r][0] * v[0] + cam->proj[r][1] * v[1] + cam->proj[r][2] * v[2] + cam->proj[r][3] * v[3];
    *px = cam->vp[0] + 0.5 * (c[0] / c[3] + 1.0) * cam->vp[2];
    *py = cam->vp[1] + 0.5 * (1.0 - c[1] / c[3]) * cam->vp[3];
}

static bool is_orange(const tu_image *img, int x, int y)
{
    return !memcmp(img->rgb + 3 * (y * img->width + x), orange, 3);
}

static void test_lab30_figure_shows_ring_and_collapse(void **state)
{
    run_ctx *ctx = *state;
    assert_int_equal(run_lab(ctx, ctx->dir), 0);
    cJSON *root = tu_json_load(tu_path(ctx->dir, "skinning30.json"));
    json_camera cam;
    load_camera(root, &cam);
    cJSON_Delete(root);

    /* theta = 0: the orange pixels span the ring's projected ellipse */
    tu_image img;
    assert_true(tu_image_load(tu_path(ctx->dir, "skinning30-theta000.png"), &img));
    double ex0 = 1e9, ex1 = -1e9, ey0 = 1e9, ey1 = -1e9;
    for (int k = 0; k < 360; k++) {
        double p[3] = {cos(k * 3.141592653589793 / 180), sin(k * 3.141592653589793 / 180), 1}, x, y;
        project(&cam, p, &x, &y);
        ex0 = fmin(ex0, x), ex1 = fmax(ex1, x), ey0 = fmin(ey0, y), ey1 = fmax(ey1, y);
    }
    int ox0 = img.width, ox1 = -1, oy0 = img.height, oy1 = -1;
    for (int y = 0; y < img.height; y++)
        for (int x = 0; x < img.width; x++)
            if (is_orange(&img, x, y))
                ox0 = x < ox0 ? x : ox0, ox1 = x > ox1 ? x : ox1, oy0 = y < oy0 ? y : oy0,
                oy1 = y > oy1 ? y : oy1;
    const double reach = FIGURE_MARKER_HALF + 1.5; /* a vertex's marker square, and a pixel */
    assert_near(ox0, ex0, reach);
    assert_near(ox1 + 1 - ex1, 0, reach);
    assert_near(oy0, ey0, reach);
    assert_near(oy1 + 1 - ey1, 0, reach);
    assert_true(ex1 - ex0 > 100 && ey1 - ey0 > 20); /* an ellipse, not a line: oblique view */
    tu_image_free(&img);

    /* theta = 180: every orange pixel lies on the axis's projection, within a marker */
    assert_true(tu_image_load(tu_path(ctx->dir, "skinning30-theta180.png"), &img));
    double a[3] = {0, 0, 0}, b[3] = {0, 0, 2}, ax, ay, bx, by;
    project(&cam, a, &ax, &ay);
    project(&cam, b, &bx, &by);
    int count = 0;
    for (int y = 0; y < img.height; y++)
        for (int x = 0; x < img.width; x++)
            if (is_orange(&img, x, y)) {
                double px = x + 0.5 - ax, py = y + 0.5 - ay, dx = bx - ax, dy = by - ay;
                double d = fabs(px * dy - py * dx) / hypot(dx, dy);
                assert_true(d <= FIGURE_MARKER_HALF * sqrt(2.0) + 1.0);
                count++;
            }
    assert_true(count > 0);
    tu_image_free(&img);

    /* the figure holds the three panels side by side, each with orange in it */
    assert_true(tu_image_load(tu_path(ctx->dir, "skinning30.png"), &img));
    tu_image panel;
    assert_true(tu_image_load(tu_path(ctx->dir, "skinning30-theta090.png"), &panel));
    assert_true(img.width > 3 * panel.width && img.height > panel.height);
    for (int i = 0; i < 3; i++) {
        int found = 0;
        for (int y = 0; y < img.height && !found; y++)
            for (int x = 12 + i * (panel.width + 12); x < 12 + (i + 1) * panel.width + i * 12; x++)
                found |= is_orange(&img, x, y);
        assert_true(found);
    }
    tu_image_free(&panel);
    tu_image_free(&img);
}

/* ---- determinism and the committed figures ------------------------------------------ */

/* out/ holds the article's figures: two runs give the same bytes, and the same as out/,
 * so the figures never go stale. JSON and CSV byte for byte, PNGs pixel for pixel (the
 * encoder may change, pixels not). */
/* The animation, decoded by giflib here: 73 frames of 0.08 s from 0 to 360 degrees, looping,
 * under 2 MB; the frames at 0, 90 and 180 degrees hold the PNG panels of those poses, pixel
 * for pixel (frame k is 5k degrees). */
static void test_lab30_twist_animation(void **state)
{
    run_ctx *ctx = *state;
    assert_int_equal(run_lab(ctx, ctx->dir), 0);
    tu_gif gif;
    tu_check_animation(tu_path(ctx->dir, "skinning30-twist.gif"), 73, 8, &gif);
    static const char *const panels[3] = {"skinning30-theta000.png", "skinning30-theta090.png", "skinning30-theta180.png"};
    int x0 = -1, y0 = -1;
    for (int i = 0; i < 3; i++) {
        tu_image panel;
        assert_true(tu_image_load(tu_path(ctx->dir, panels[i]), &panel));
        int x, y;
        if (!tu_image_find(&gif.frames[18 * i], &panel, &x, &y))
            fail_msg("frame %d (theta %d) does not hold %s", 18 * i, 90 * i, panels[i]);
        assert_true(i == 0 || (x == x0 && y == y0)); /* the same place in every frame */
        x0 = x, y0 = y;
        /* and no other frame holds it: the frames move */
        assert_false(tu_image_find(&gif.frames[18 * i + 1], &panel, &x, &y));
        tu_image_free(&panel);
    }
    tu_gif_free(&gif);
}

static void test_lab30_deterministic_and_committed(void **state)
{
    (void)state;
    tu_check_deterministic_and_committed(LAB30, NULL, NULL, outputs, OUTPUT_COUNT, "lab30");
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup_dir, teardown_dir)
    const struct CMUnitTest tests[] = {
        T(test_lab30_help_and_usage_errors),
        T(test_lab30_output_directory_errors),
        T(test_lab30_a_report_that_cannot_be_written_is_an_error),
        T(test_lab30_rejected_weights_lose_nothing),
        T(test_lab30_json_counts_radii_and_checks),
        T(test_lab30_loops_match_the_library_job),
        T(test_lab30_blended_matrix_and_honest_radii),
        T(test_lab30_hand_control_and_weights_panels),
        T(test_lab30_exercises),
        T(test_lab30_readme_exercises_keep_out_intact),
        T(test_lab30_figure_shows_ring_and_collapse),
        T(test_lab30_twist_animation),
        T(test_lab30_deterministic_and_committed),
    };
#undef T
    return cmocka_run_group_tests_name("lab30 end to end", tests, NULL, NULL);
}
