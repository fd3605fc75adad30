/* test_lab30_weights.c - end to end: build/bin/lab30-weights in temporary directories.
 * Exit codes, the evidence re-read with cJSON and checked with this test's own arithmetic
 * (the article's r'/r from the weights the run wrote, the bend's symmetry about its joint),
 * the weights CSV, the colour bar, determinism, committed out/. */
#define _DEFAULT_SOURCE /* realpath */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_all.h"
#include "testutil.h"

#define LAB LAB_BIN_DIR "/lab30-weights"
#define run_lab(ctx, ...) tu_run_program(LAB, (ctx)->out_path, (ctx)->err_path, __VA_ARGS__, (char *)NULL)
typedef tu_run_dir run_ctx;

enum { RINGS = 9, SEGMENTS = 24, VERTS = RINGS * SEGMENTS, SETS = 4, OUTPUT_COUNT = 4 * SETS * 2 + 9 };
static const char *const set_names[SETS] = {"hand", "heat", "blender", "bbw"};

static int output_names(const char *names[OUTPUT_COUNT], char storage[OUTPUT_COUNT][64])
{
    static const char *const poses[4] = {"twist090", "twist180", "bend090", "bend135"};
    int n = 0;
    for (int p = 0; p < 4; p++)
        for (int k = 0; k < 2 * SETS; k++)
            snprintf(storage[n], 64, "weights30-%s-%s-%s.png", poses[p], set_names[k % SETS], k / SETS ? "dqs" : "lbs"),
                names[n] = storage[n], n++;
    const char *fixed[9] = {"weights30.png",  "weights30-profile.png", "weights30-poses.png", "weights30.json",
                            "weights30.csv", "weights30-assets.png",  "weights30-assets.csv", "lab30-weights-checks.json",
                            NULL};
    for (int k = 0; fixed[k]; k++)
        names[n++] = fixed[k];
    return n;
}

static void test_lab30_weights_usage_and_output_errors(void **state)
{
    run_ctx *ctx = *state;
    assert_int_equal(run_lab(ctx, "--help"), 0);
    assert_true(tu_file_contains(ctx->out_path, "--heat-c"));
    assert_int_equal(run_lab(ctx, (char *)NULL), 2);
    assert_int_equal(run_lab(ctx, "--heat-c", "0.05", ctx->dir), 2);
    assert_true(tu_file_contains(ctx->err_path, "outside [0.1, 100]"));
    assert_int_equal(run_lab(ctx, "--heat-c", "inf", ctx->dir), 2);
    assert_int_equal(run_lab(ctx, "--heat-c", "1,2", ctx->dir), 2);
    assert_int_equal(tu_count_entries(ctx->dir), 0);
    assert_int_equal(run_lab(ctx, tu_path(ctx->dir, "missing")), 3);
    assert_false(tu_exists(tu_path(ctx->dir, "missing")));
    /* the assets are read from --assets DIR; a folder without them names the file */
    assert_int_equal(run_lab(ctx, "--assets", "tests", ctx->dir), 1);
    assert_true(tu_file_contains(ctx->err_path, "tests/RiggedSimple.gltf"));
    assert_int_equal(tu_count_entries(ctx->dir), 0);
    /* a folder that is not there names the option */
    assert_int_equal(run_lab(ctx, "--assets", "no-such-folder", ctx->dir), 1);
    assert_true(tu_file_contains(ctx->err_path, "--assets") && tu_file_contains(ctx->err_path, "no-such-folder"));
    /* without --assets the program finds assets/ from its own location, from any folder */
    char exe[4096], command[8192];
    assert_non_null(realpath(LAB, exe));
    snprintf(command, sizeof command, "cd '%s' && mkdir out && '%s' out > /dev/null", ctx->dir, exe);
    assert_int_equal(system(command), 0);
    assert_true(tu_exists(tu_path(ctx->dir, "out/weights30-assets.csv")));
}

static const cJSON *find_pose(const cJSON *root, const char *rig, double deg, const char *weights, const char *method)
{
    const cJSON *p;
    cJSON_ArrayForEach(p, tu_json_get(root, "poses")) {
        if (!strcmp(cJSON_GetStringValue(tu_json_get(p, "rig")), rig) && tu_json_num(p, "angle_deg") == deg &&
            !strcmp(cJSON_GetStringValue(tu_json_get(p, "weights")), weights) &&
            !strcmp(cJSON_GetStringValue(tu_json_get(p, "method")), method))
            return p;
    }
    fail_msg("no pose %s %g %s %s", rig, deg, weights, method);
    return NULL;
}

/* The twist's middle ring under LBS keeps sqrt(1 - 4 w (1 - w) sin^2(theta / 2)) of its
 * radius, for the hand weights (w = 1/2: 0.707106781186548 at 90 degrees, 0 at 180) and for
 * whatever weight bone heat gave the ring, read back from the file. */
static void test_lab30_weights_evidence(void **state)
{
    run_ctx *ctx = *state;
    assert_int_equal(run_lab(ctx, ctx->dir), 0);
    assert_true(tu_file_contains(ctx->out_path, "All checks passed."));
    cJSON *root = tu_json_load(tu_path(ctx->dir, "weights30.json"));
    assert_near(tu_json_num(find_pose(root, "twist", 90, "hand", "LBS"), "middle_ring_radius"), 0.707106781186548, 1e-15);
    assert_near(tu_json_num(find_pose(root, "twist", 180, "hand", "LBS"), "middle_ring_radius"), 0, 1e-15);
    const cJSON *twist = cJSON_GetArrayItem(tu_json_get(root, "rigs"), 0), *bend = cJSON_GetArrayItem(tu_json_get(root, "rigs"), 1);
    assert_string_equal(cJSON_GetStringValue(tu_json_get(twist, "rig")), "twist");
    double w = cJSON_GetArrayItem(tu_json_get(twist, "heat_child_weight"), 4 * SEGMENTS)->valuedouble;
    for (int k = 0; k < 2; k++) {
        double theta = (k ? 180 : 90) * acos(-1.0) / 180, s = sin(theta / 2);
        double radius = tu_json_num(find_pose(root, "twist", k ? 180 : 90, "heat", "LBS"), "middle_ring_radius");
        assert_near(radius, sqrt(1 - 4 * w * (1 - w) * s * s), 1e-12);
        assert_near(tu_json_num(find_pose(root, "twist", k ? 180 : 90, "heat", "DQS"), "middle_ring_radius"), 1, 1e-12);
    }
    /* "all equal": a twist pose's rings, measured here from its positions (mean distance to
     * the z axis), spread over at most 1e-12 exactly when the file says so; then no ring is
     * named the narrowest (DQS), otherwise the narrowest is named (LBS) */
    const cJSON *p;
    cJSON_ArrayForEach(p, tu_json_get(root, "poses")) {
        if (strcmp(cJSON_GetStringValue(tu_json_get(p, "rig")), "twist"))
            continue;
        const cJSON *pos = tu_json_get(p, "positions");
        double lo = INFINITY, hi = -INFINITY;
        for (int ring = 0; ring < RINGS; ring++) {
            double sum = 0;
            for (int k = 0; k < SEGMENTS; k++) {
                const cJSON *v = cJSON_GetArrayItem(pos, ring * SEGMENTS + k);
                sum += hypot(cJSON_GetArrayItem(v, 0)->valuedouble, cJSON_GetArrayItem(v, 1)->valuedouble);
            }
            lo = fmin(lo, sum / SEGMENTS), hi = fmax(hi, sum / SEGMENTS);
        }
        bool equal = hi - lo <= 1e-12;
        assert_int_equal(cJSON_IsTrue(tu_json_get(p, "rings_all_equal")), equal);
        assert_int_equal(cJSON_IsNull(tu_json_get(p, "narrowest_ring")), equal);
        assert_int_equal(equal, !strcmp(cJSON_GetStringValue(tu_json_get(p, "method")), "DQS"));
    }
    /* the bend's bones are mirror images about the middle ring: w(z) + w(2 - z) = 1, rising */
    const cJSON *heat = tu_json_get(bend, "heat_child_weight");
    for (int ring = 0; ring < RINGS; ring++)
        for (int s = 0; s < SEGMENTS; s++) {
            double a = cJSON_GetArrayItem(heat, ring * SEGMENTS + s)->valuedouble;
            double b = cJSON_GetArrayItem(heat, (RINGS - 1 - ring) * SEGMENTS + s)->valuedouble;
            assert_near(a + b - 1, 0, 1e-12);
            if (ring > 0)
                assert_true(a > cJSON_GetArrayItem(heat, (ring - 1) * SEGMENTS + s)->valuedouble);
        }
    /* the checks the report printed are in the file, each under its bound */
    const cJSON *paper = tu_json_get(tu_json_get(bend, "models"), "paper");
    const cJSON *checks = tu_json_get(paper, "checks_of_the_solution");
    assert_true(tu_json_num(checks, "max_sum_error") < 1e-12 && tu_json_num(checks, "min_weight") >= 0);
    assert_true(tu_json_num(checks, "max_closed_form_error") < tu_json_num(checks, "closed_form_tolerance"));
    assert_true(tu_json_num(tu_json_get(paper, "cost"), "factor_nonzeros") > VERTS);
    /* Blender's model against Blender 3.4 itself: the child weight by ring that Blender's
     * "With Automatic Weights" gave on this twist rig (make blender-check printed these four
     * decimals; it compares every vertex to 1e-4) */
    static const double blender_ring[RINGS] = {0, 0, 0, 0, 0.0049, 0.0390, 0.0727, 0.1191, 0.1953};
    const cJSON *blender = tu_json_get(twist, "blender_child_weight");
    for (int v = 0; v < VERTS; v++)
        assert_near(cJSON_GetArrayItem(blender, v)->valuedouble, blender_ring[v / SEGMENTS], 0.6e-4);
    cJSON_Delete(root);
    char *csv = tu_read_file(tu_path(ctx->dir, "weights30.csv"), NULL);
    int lines = 0;
    for (char *c = csv; *c; c++)
        lines += *c == '\n';
    assert_int_equal(lines, 1 + 2 * VERTS);
    const char *head = "rig,vertex,ring,z,hand_child_weight,heat_child_weight,blender_root_weight,blender_child_weight\n"
                       "twist,0,0,0,0,0.03";
    assert_true(!strncmp(csv, head, strlen(head)));
    free(csv);
}

/* The colour bar's ends: blue (20, 90, 210) at 0 and red (220, 40, 30) at 1, one column of
 * 10 pixels each in every one of the four panels. */
static void test_lab30_weights_colour_bar(void **state)
{
    run_ctx *ctx = *state;
    assert_int_equal(run_lab(ctx, ctx->dir), 0);
    tu_image img;
    assert_true(tu_image_load(tu_path(ctx->dir, "weights30.png"), &img));
    assert_true(tu_image_count_color(&img, 220, 40, 30) >= 4 * 10);
    assert_true(tu_image_count_color(&img, 20, 90, 210) >= 4 * 10);
    tu_image_free(&img);
}

static void test_lab30_weights_deterministic_and_committed(void **state)
{
    (void)state;
    const char *names[OUTPUT_COUNT];
    char storage[OUTPUT_COUNT][64];
    int n = output_names(names, storage);
    tu_check_deterministic_and_committed(LAB, NULL, NULL, names, n, "lab30-weights");
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, tu_run_dir_setup, tu_run_dir_teardown)
    const struct CMUnitTest tests[] = {
        T(test_lab30_weights_usage_and_output_errors),
        T(test_lab30_weights_evidence),
        T(test_lab30_weights_colour_bar),
        T(test_lab30_weights_deterministic_and_committed),
    };
#undef T
    return cmocka_run_group_tests_name("lab30-weights end to end", tests, NULL, NULL);
}
