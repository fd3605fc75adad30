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
#include <sys/stat.h>

#include "cmocka_all.h"
#include "testutil.h"

#include "gltf/gltf.h"
#include "skin/influences.h"

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

/* Bone heat on the artists' assets: the comparison the JSON states, recomputed by this test
 * from the CSV of both weight sets, and the checks under their bounds. */
static void test_lab30_weights_assets(void **state)
{
    run_ctx *ctx = *state;
    assert_int_equal(run_lab(ctx, ctx->dir), 0);
    cJSON *root = tu_json_load(tu_path(ctx->dir, "weights30.json"));
    static const char *const names[2] = {"RiggedSimple", "RiggedFigure"};
    static const int joints[2] = {2, 19}, vertices[2] = {160, 370};
    FILE *f = fopen(tu_path(ctx->dir, "weights30-assets.csv"), "r");
    assert_non_null(f);
    char line[256];
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, "asset,vertex,joint,x,y,z,artist_weight,heat_weight,blender_weight,bbw_weight,"
                              "blender_cut_weight\n");
    for (int i = 0; i < 2; i++) {
        const cJSON *a = cJSON_GetArrayItem(tu_json_get(root, "assets"), i);
        assert_string_equal(cJSON_GetStringValue(tu_json_get(a, "asset")), names[i]);
        assert_int_equal((int)tu_json_num(a, "joints"), joints[i]);
        assert_int_equal((int)tu_json_num(a, "vertices"), vertices[i]);
        double largest[3] = {0}, mean[3] = {0};
        for (int v = 0; v < vertices[i]; v++) {
            double worst[3] = {0}, sum[3] = {0}, cuts[32], blender[32], cut_sum = 0;
            for (int j = 0; j < joints[i]; j++) {
                char asset[32];
                int vv, jj;
                double x, y, z, artist, set[3], cut;
                assert_non_null(fgets(line, sizeof line, f));
                assert_int_equal(sscanf(line, "%31[^,],%d,%d,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf", asset, &vv, &jj, &x, &y, &z,
                                        &artist, &set[0], &set[1], &set[2], &cut),
                                 11);
                assert_string_equal(asset, names[i]);
                assert_true(vv == v && jj == j);
                cuts[j] = cut, cut_sum += cut, blender[j] = set[1];
                for (int k = 0; k < 3; k++)
                    worst[k] = fmax(worst[k], fabs(set[k] - artist)), sum[k] += set[k];
            }
            for (int j = 0; j < joints[i]; j++) /* Blender deforms with its cut weights over their sum */
                assert_near(blender[j], cut_sum > 0 ? cuts[j] / cut_sum : 0, 1e-15);
            for (int k = 0; k < 3; k++) {
                assert_near(sum[k], 1, 1e-12); /* as each set deforms: a partition of unity */
                largest[k] = fmax(largest[k], worst[k]);
                mean[k] += worst[k] / vertices[i];
            }
        }
        for (int k = 0; k < 3; k++) { /* the comparison the JSON states, from the CSV */
            const cJSON *x = cJSON_GetArrayItem(tu_json_get(a, "automatic_weights"), k);
            assert_string_equal(cJSON_GetStringValue(tu_json_get(x, "weights")), set_names[1 + k]);
            const cJSON *checks = tu_json_get(x, "checks_of_the_solution");
            assert_true(tu_json_num(checks, "max_backward_error") < 1e-14);
            if (k < 2)
                assert_true(tu_json_num(checks, "max_sum_error") < 1e-12);
            const cJSON *w = tu_json_get(x, "against_the_artist");
            assert_near(tu_json_num(w, "max_weight_difference"), largest[k], 1e-15);
            assert_near(tu_json_num(w, "mean_weight_difference"), mean[k], 1e-12);
            assert_true(tu_json_num(w, "max_position_difference_over_size") < 0.1);
        }
    }
    assert_null(fgets(line, sizeof line, f));
    fclose(f);
    cJSON_Delete(root);
}

/* An assets folder in the run's directory: RiggedFigure as shipped and RiggedSimple with its
 * primitive's mode set to `mode`. Returns the folder. */
static const char *assets_with_mode(run_ctx *ctx, int mode)
{
    static char folder[4096];
    snprintf(folder, sizeof folder, "%s", tu_path(ctx->dir, "assets"));
    char command[2 * sizeof folder + 64];
    snprintf(command, sizeof command, "mkdir -p '%s' && cp assets/RiggedFigure.gltf '%s'/", folder, folder);
    assert_int_equal(system(command), 0);
    cJSON *doc = tu_json_load("assets/RiggedSimple.gltf");
    cJSON *prim = cJSON_GetArrayItem(tu_json_get(cJSON_GetArrayItem(tu_json_get(doc, "meshes"), 0), "primitives"), 0);
    cJSON_ReplaceItemInObject(prim, "mode", cJSON_CreateNumber(mode));
    char *text = cJSON_Print(doc);
    char path[4200];
    snprintf(path, sizeof path, "%s/RiggedSimple.gltf", folder);
    assert_true(tu_write_file(path, text));
    free(text);
    cJSON_Delete(doc);
    return folder;
}

/* Primitive modes: LINES (and every point or line mode) has no surface and is refused where
 * the file says so; a TRIANGLE_STRIP is read as a strip, its index-repeating joins left out. */
static void test_lab30_weights_primitive_modes(void **state)
{
    run_ctx *ctx = *state;
    const char *folder = assets_with_mode(ctx, 1);
    char out[4200];
    snprintf(out, sizeof out, "%s", tu_path(ctx->dir, "out"));
    assert_int_equal(mkdir(out, 0755), 0);
    assert_int_equal(run_lab(ctx, "--assets", folder, out), 1);
    assert_true(tu_file_contains(ctx->err_path, "/meshes/0/primitives/0/mode") &&
                tu_file_contains(ctx->err_path, "1 (LINES)"));
    assert_int_equal(tu_count_entries(out), 0);
    folder = assets_with_mode(ctx, 5);
    assert_int_equal(run_lab(ctx, "--assets", folder, out), 0);
    assert_true(tu_file_contains(ctx->out_path, "172 more repeat an index"));
}

/* --asset: RiggedFigure with bounded biharmonic weights, 8 a vertex, written as a .glb that
 * passes the Khronos validator with no error and no warning; read back by the reader (this
 * test's own call) within 1e-6 of the weights the run wrote to its CSV; and lab30-gltf
 * skins it. An asset without a skin is refused. */
static void test_lab30_weights_asset_out(void **state)
{
    run_ctx *ctx = *state;
    assert_int_equal(run_lab(ctx, "--asset", "assets/RiggedFigure.gltf", "--weights", "bbw", "--influences", "8",
                             ctx->dir),
                     0);
    char glb[4096];
    snprintf(glb, sizeof glb, "%s", tu_path(ctx->dir, "RiggedFigure-bbw.glb"));
    int rc = tu_run_program("/usr/bin/env", ctx->out_path, ctx->err_path, "node", "tests/gltf-validate.js",
                            GLTF_VALIDATOR_DIR, glb, (char *)NULL);
    char *report = tu_read_file(ctx->out_path, NULL);
    if (rc != 0 || !strstr(report, "0 errors, 0 warnings"))
        fail_msg("validator exit %d: %s", rc, report ? report : "(no output)");
    free(report);
    gltf_document doc;
    lab_diag d;
    assert_int_equal(gltf_load(glb, &doc, &d), LAB_OK);
    assert_int_equal(gltf_validate(&doc, &d), LAB_OK);
    assert_int_equal(doc.meshes[0].primitives[0].sets, 2);
    skin_influences in;
    assert_int_equal(gltf_primitive_influences(&doc, 0, 0, &in, &d), LAB_OK);
    static double written[370][19];
    FILE *f = fopen(tu_path(ctx->dir, "weights30-asset.csv"), "r");
    assert_non_null(f);
    char line[128];
    assert_non_null(fgets(line, sizeof line, f));
    int v, j, rows = 0;
    double w;
    while (fscanf(f, "%d,%d,%lf\n", &v, &j, &w) == 3) {
        assert_true(v >= 0 && v < 370 && j >= 0 && j < 19);
        written[v][j] = w, rows++;
    }
    fclose(f);
    assert_true(rows > 370);
    double worst = 0;
    for (v = 0; v < 370; v++)
        for (j = 0; j < 19; j++) {
            double got = 0;
            for (int k = 0; k < in.per_vertex; k++)
                got += in.joint[v * in.per_vertex + k] == j ? in.weight[v * in.per_vertex + k] : 0;
            worst = fmax(worst, fabs(got - written[v][j]));
        }
    assert_true(worst < 1e-6);
    skin_influences_free(&in);
    gltf_free(&doc);
    char out[4200];
    snprintf(out, sizeof out, "%s", tu_path(ctx->dir, "gltf"));
    assert_int_equal(mkdir(out, 0755), 0);
    assert_int_equal(tu_run_program(LAB_BIN_DIR "/lab30-gltf", ctx->out_path, ctx->err_path, glb, out, (char *)NULL), 0);
    /* a document with no skinned mesh has nothing to weight */
    assert_true(tu_write_file(tu_path(ctx->dir, "plain.gltf"),
                              "{\"asset\": {\"version\": \"2.0\"}, \"scenes\": [{\"nodes\": [0]}], \"nodes\": [{}]}"));
    assert_int_equal(run_lab(ctx, "--asset", tu_path(ctx->dir, "plain.gltf"), out), 1);
    assert_true(tu_file_contains(ctx->err_path, "no node with a mesh and a skin"));
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
        T(test_lab30_weights_primitive_modes),
        T(test_lab30_weights_asset_out),
        T(test_lab30_weights_evidence),
        T(test_lab30_weights_assets),
        T(test_lab30_weights_colour_bar),
        T(test_lab30_weights_deterministic_and_committed),
    };
#undef T
    return cmocka_run_group_tests_name("lab30-weights end to end", tests, NULL, NULL);
}
