/* test_lab30_normals.c - end to end: build/bin/lab30-normals in temporary directories.
 * Exit codes, the weights templates, the evidence re-read with cJSON and checked with this
 * test's own arithmetic, the panels, determinism, committed out/ (the weight policies on an
 * edited weights file: test_lab30_normals_policies.c). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmocka_all.h"
#include "testutil.h"

#include "draw/raster.h"
#include "math/linalg.h"
#include "skin/normals.h"
#include "skin/weights_csv.h"
#include "rig30.h"

#define LAB LAB_BIN_DIR "/lab30-normals"
#define run_lab(ctx, ...) tu_run_program(LAB, (ctx)->out_path, (ctx)->err_path, __VA_ARGS__, (char *)NULL)
typedef tu_run_dir run_ctx;

static const char *const poses[4] = {"bind", "bend135", "child-scale", "model-scale"};
static const char *const views[4] = {"rigid", "blended", "per-bone", "perspective"};
enum { OUTPUT_COUNT = 4 * 4 + 1 + 4 + 1 + 2 * 5 + 1 };
static const char *const shaded_poses[2] = {"child-scale", "bend135"};
static const char *const shaded_views[5] = {"rigid", "blended", "per-bone", "true", "error"};

static int output_names(const char *names[OUTPUT_COUNT], char storage[OUTPUT_COUNT][64])
{
    int n = 0;
    for (int p = 0; p < 4; p++)
        for (int v = 0; v < 4; v++)
            snprintf(storage[n], 64, "normals30-%s-%s.png", poses[p], views[v]), names[n] = storage[n], n++;
    for (int p = 0; p < 2; p++)
        for (int v = 0; v < 5; v++)
            snprintf(storage[n], 64, "normals30-shaded-%s-%s.png", shaded_poses[p], shaded_views[v]),
                names[n] = storage[n], n++;
    const char *fixed[7] = {"normals30.png", "normals30.json", "normals30-errors.csv", "normals30-weights-twist.csv",
                            "normals30-weights-bend.csv", "normals30-shaded.png", "lab30-normals-checks.json"};
    for (int k = 0; k < 7; k++)
        names[n++] = fixed[k];
    return n;
}


static cJSON *pose(const cJSON *root, const char *name)
{
    cJSON *p;
    cJSON_ArrayForEach(p, tu_json_get(root, "poses")) if (!strcmp(cJSON_GetStringValue(tu_json_get(p, "pose")), name)) return p;
    fail_msg("no pose %s", name);
    return NULL;
}

static double method_error(const cJSON *p, const char *method, const char *key)
{
    return tu_json_num(tu_json_get(tu_json_get(tu_json_get(p, "methods"), method), "error"), key);
}

static mat4 json_mat4_at(const cJSON *m)
{
    mat4 a;
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            a.m[r][c] = tu_json_number(cJSON_GetArrayItem(cJSON_GetArrayItem(m, r), c));
    return a;
}

/* lab30-normals.c writes the three normal rules in its own lines. The library's job
 * (normals_skin, then normals_to_world) must give the same world normals at every vertex
 * of every pose, by every method: on the rigs' own weights and on seeded bend weights of
 * every kind (a vertex bound to one joint, extreme and middle weights) under normalize. */
static void test_lab30_normals_formulas_match_the_library_job(void **state)
{
    run_ctx *ctx = *state;
    char weights[300];
    snprintf(weights, sizeof weights, "%s.seeded.csv", ctx->dir);
    FILE *f = fopen(weights, "w");
    assert_non_null(f);
    fprintf(f, "%s\n", WEIGHTS_CSV_HEADER);
    unsigned long long x = 2002;
    for (int v = 0; v < 216; v++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        double u = (double)(x >> 11) / 9007199254740992.0, w = v % 7 == 0 ? 0.0 : v % 7 == 1 ? 1.0 : u;
        fprintf(f, "%d,0,%.17g,1,%.17g\n", v, (1.0 - w) * 1.5, w * 1.5); /* sums 1.5: normalised */
    }
    assert_int_equal(fclose(f), 0);
    for (int round = 0; round < 2; round++) {
        if (round == 0)
            assert_int_equal(run_lab(ctx, ctx->dir), 0);
        else
            assert_int_equal(run_lab(ctx, "--policy", "normalize", "--bend-weights", weights, ctx->dir), 0);
        cJSON *root = tu_json_load(tu_path(ctx->dir, "normals30.json")), *p;
        assert_non_null(root);
        rig30_rig rigs[2];
        skin_influences used[2];
        for (int kind = 0; kind < 2; kind++) {
            assert_int_equal(rig30_rig_build(&rigs[kind], (rig30_kind)kind, NULL, NULL), LAB_OK);
            const char *csv = kind == RIG30_TWIST ? "normals30-weights-twist.csv" : "normals30-weights-bend.csv";
            assert_int_equal(weights_csv_load(tu_path(ctx->dir, csv), 216, &used[kind], NULL), LAB_OK);
        }
        double worst = 0;
        int compared = 0;
        cJSON_ArrayForEach(p, tu_json_get(root, "poses"))
        {
            int kind = strcmp(cJSON_GetStringValue(tu_json_get(p, "rig")), "twist") ? RIG30_BEND : RIG30_TWIST;
            cJSON *chain = tu_json_get(p, "chain");
            mat4 palette[2] = {json_mat4_at(cJSON_GetArrayItem(tu_json_get(chain, "skin"), 0)),
                               json_mat4_at(cJSON_GetArrayItem(tu_json_get(chain, "skin"), 1))};
            mat4 model = json_mat4_at(tu_json_get(chain, "model"));
            vec3 bind[216], model_space[216], world[216];
            rig30_bind_normals(&rigs[kind], bind);
            for (int m = 0; m < NORMALS_METHOD_COUNT; m++) {
                assert_int_equal(normals_skin(bind, &used[kind], palette, 2, (normals_method)m, model_space, NULL),
                                 LAB_OK);
                assert_int_equal(normals_to_world(model_space, 216, model, world, NULL), LAB_OK);
                cJSON *n = tu_json_get(tu_json_get(tu_json_get(p, "methods"), normals_method_name((normals_method)m)),
                                       "normals");
                assert_int_equal(cJSON_GetArraySize(n), 216);
                for (int v = 0; v < 216; v++) {
                    cJSON *q = cJSON_GetArrayItem(n, v);
                    vec3 got = vec3_make(tu_json_number(cJSON_GetArrayItem(q, 0)), tu_json_number(cJSON_GetArrayItem(q, 1)),
                                         tu_json_number(cJSON_GetArrayItem(q, 2)));
                    double diff = vec3_length(vec3_sub(got, world[v]));
                    worst = isnan(diff) || diff > worst ? diff : worst;
                }
                compared++;
            }
        }
        assert_int_equal(compared, 4 * NORMALS_METHOD_COUNT);
        if (!(worst <= 1e-12))
            fail_msg("round %d: the program's normals and the library's differ by %.3g (tolerance 1e-12)", round, worst);
        for (int kind = 0; kind < 2; kind++)
            skin_influences_free(&used[kind]), rig30_rig_free(&rigs[kind]);
        cJSON_Delete(root);
    }
    unlink(weights);
}

static void test_lab30_normals_usage_and_output_errors(void **state)
{
    run_ctx *ctx = *state;
    assert_int_equal(run_lab(ctx, "--help"), 0);
    assert_true(tu_file_contains(ctx->out_path, "--policy"));
    assert_int_equal(run_lab(ctx, (char *)NULL), 2);
    assert_int_equal(run_lab(ctx, "--policy", "lenient", ctx->dir), 2);
    assert_true(tu_file_contains(ctx->err_path, "expected strict, normalize or fallback=J"));
    assert_int_equal(run_lab(ctx, "--policy", "fallback=2", ctx->dir), 2);
    assert_int_equal(run_lab(ctx, "--twist-weights"), 2);
    assert_int_equal(run_lab(ctx, "--weights-file", "x.csv", ctx->dir), 2); /* one file per rig now */
    assert_int_equal(run_lab(ctx, "--normals", ctx->dir), 2);
    assert_int_equal(tu_count_entries(ctx->dir), 0);
    assert_int_equal(run_lab(ctx, tu_path(ctx->dir, "missing")), 3);
    assert_false(tu_exists(tu_path(ctx->dir, "missing")));
}

/* The text with every line holding `key` removed: what two runs may differ in by design. */
static char *without_lines(char *text, const char *key)
{
    char *out = text;
    for (char *line = text, *next; *line; line = next) {
        char *end = strchr(line, '\n');
        next = end ? end + 1 : line + strlen(line);
        char saved = *next;
        *next = '\0';
        bool drop = strstr(line, key) != NULL;
        *next = saved;
        if (!drop)
            memmove(out, line, (size_t)(next - line)), out += next - line;
    }
    *out = '\0';
    return text;
}

/* Each rig's template fed back unedited reproduces the default run: every figure, CSV and
 * the checks byte for byte; the JSON and the report differ only in naming the files. */
static void test_lab30_normals_templates_reproduce_the_default_run(void **state)
{
    run_ctx *ctx = *state;
    const char *names[OUTPUT_COUNT];
    char storage[OUTPUT_COUNT][64], twist[128], bend[128];
    int n = output_names(names, storage);
    assert_int_equal(run_lab(ctx, ctx->dir), 0);
    char *before[OUTPUT_COUNT], *report = tu_read_file(ctx->out_path, NULL);
    size_t before_len[OUTPUT_COUNT];
    for (int i = 0; i < n; i++)
        before[i] = tu_read_file(tu_path(ctx->dir, names[i]), &before_len[i]);
    snprintf(twist, sizeof twist, "%s.twist.csv", ctx->dir);
    snprintf(bend, sizeof bend, "%s.bend.csv", ctx->dir);
    assert_int_equal(rename(tu_path(ctx->dir, "normals30-weights-twist.csv"), twist), 0);
    assert_int_equal(rename(tu_path(ctx->dir, "normals30-weights-bend.csv"), bend), 0);
    assert_int_equal(run_lab(ctx, "--twist-weights", twist, "--bend-weights", bend, ctx->dir), 0);
    for (int i = 0; i < n; i++) {
        size_t len;
        char *after = tu_read_file(tu_path(ctx->dir, names[i]), &len);
        assert_non_null(after);
        if (!strcmp(names[i], "normals30.json")) {
            assert_non_null(strstr(after, twist));
            assert_string_equal(without_lines(before[i], "\"source\":"), without_lines(after, "\"source\":"));
        } else {
            if (len != before_len[i] || memcmp(before[i], after, len))
                fail_msg("%s differs when the templates are fed back", names[i]);
        }
        free(before[i]);
        free(after);
    }
    char *fed = tu_read_file(ctx->out_path, NULL);
    assert_string_equal(without_lines(report, "rig's weights:"), without_lines(fed, "rig's weights:"));
    free(report);
    free(fed);
    remove(twist);
    remove(bend);
}

static void test_lab30_normals_evidence(void **state)
{
    run_ctx *ctx = *state;
    assert_int_equal(run_lab(ctx, ctx->dir), 0);
    cJSON *root = tu_json_load(tu_path(ctx->dir, "normals30.json"));
    assert_non_null(root);
    cJSON *bind = pose(root, "bind");
    for (int m = 0; m < 3; m++) {
        assert_true(method_error(bind, views[m], "max_deg") < 1e-9);
        /* the twist's weights vary at every vertex: a maximum over none is null, never 0 */
        assert_true(cJSON_IsNull(tu_json_get(tu_json_get(tu_json_get(bind, "methods"), views[m]),
                                             "steady_max_error_deg")));
    }
    assert_int_equal((int)tu_json_num(bind, "steady_vertex_count"), 0);
    assert_true(tu_file_contains(ctx->out_path, "steady: none;"));
    /* non-uniform child scale: where the weights are steady, blended is exact and rigid is
     * off by atan(2) - atan(1/2) = 36.87 deg at the 45 degree normals */
    cJSON *scaled = tu_json_get(pose(root, "child-scale"), "methods");
    assert_near(tu_json_num(tu_json_get(scaled, "rigid"), "steady_max_error_deg"), 36.869897645844, 1e-6);
    assert_true(tu_json_num(tu_json_get(scaled, "blended"), "steady_max_error_deg") < 1e-9);
    /* the model matrix: world normals stay perpendicular to the world ring (this test's
     * own chord between neighbours), and using M itself is worse */
    cJSON *model = pose(root, "model-scale");
    cJSON *pos = tu_json_get(model, "world_positions");
    cJSON *n = tu_json_get(tu_json_get(tu_json_get(model, "methods"), "blended"), "normals");
    for (int s = 0; s < 24; s++) {
        int v = 8 * 24 + s, a = 8 * 24 + (s + 1) % 24, b = 8 * 24 + (s + 23) % 24; /* top ring */
        double chord[3], dot = 0, len = 0;
        for (int k = 0; k < 3; k++) {
            chord[k] = cJSON_GetArrayItem(cJSON_GetArrayItem(pos, a), k)->valuedouble -
                       cJSON_GetArrayItem(cJSON_GetArrayItem(pos, b), k)->valuedouble;
            len += chord[k] * chord[k];
        }
        for (int k = 0; k < 3; k++)
            dot += chord[k] * cJSON_GetArrayItem(cJSON_GetArrayItem(n, v), k)->valuedouble;
        assert_near(dot / sqrt(len), 0, 1e-12);
    }
    assert_true(tu_json_num(tu_json_get(model, "blended_with_model_3x3_error"), "mean_deg") >
                2 * method_error(model, "blended", "mean_deg"));
    cJSON_Delete(root);
    char *csv = tu_read_file(tu_path(ctx->dir, "normals30-errors.csv"), NULL);
    int lines = 0;
    for (char *c = csv; *c; c++)
        lines += *c == '\n';
    assert_int_equal(lines, 1 + 3 * 4 * 216);
    assert_true(!strncmp(csv, "method,pose,vertex,angle_error_deg\nrigid,bind,0,", 48));
    free(csv);
}

/* The colour scale: exact normals are green (0,170,0); 20 degrees and more are red (220,0,0). */
static void test_lab30_normals_panels(void **state)
{
    run_ctx *ctx = *state;
    assert_int_equal(run_lab(ctx, ctx->dir), 0);
    tu_image bind, scaled;
    assert_true(tu_image_load(tu_path(ctx->dir, "normals30-bind-rigid.png"), &bind));
    assert_true(tu_image_load(tu_path(ctx->dir, "normals30-child-scale-rigid.png"), &scaled));
    assert_true(tu_image_count_color(&bind, 0, 170, 0) > 200);
    int bar = 1 * 8; /* the colour bar's red end: one column of 8 pixels */
    assert_int_equal(tu_image_count_color(&bind, 220, 0, 0), bar);
    assert_true(tu_image_count_color(&scaled, 220, 0, 0) > bar + 100);
    tu_image_free(&bind);
    tu_image_free(&scaled);
}

/* The shaded panels: the light each normal gives. Bind normals in the bend's straight part
 * all agree, so the panels share most of their pixels; under the scaled child the rigid
 * normal lights the mesh differently from the true normal, and the error panel is mostly
 * red there (the rigid normal is 36.87 degrees off where nothing blends). */
static void test_lab30_normals_shaded_panels(void **state)
{
    run_ctx *ctx = *state;
    assert_int_equal(run_lab(ctx, ctx->dir), 0);
    tu_image rigid, truth, error;
    assert_true(tu_image_load(tu_path(ctx->dir, "normals30-shaded-child-scale-rigid.png"), &rigid));
    assert_true(tu_image_load(tu_path(ctx->dir, "normals30-shaded-child-scale-true.png"), &truth));
    assert_true(tu_image_load(tu_path(ctx->dir, "normals30-shaded-child-scale-error.png"), &error));
    assert_true(rigid.width == truth.width && rigid.height == truth.height);
    int differ = 0;
    for (int i = 0; i < rigid.width * rigid.height; i++)
        differ += memcmp(rigid.rgb + 3 * i, truth.rgb + 3 * i, 3) != 0;
    assert_true(differ > 1000); /* wrong normals, wrong light */
    assert_true(tu_image_count_color(&error, 220, 0, 0) > 2000);
    tu_image_free(&rigid), tu_image_free(&truth), tu_image_free(&error);
}

static void test_lab30_normals_deterministic_and_committed(void **state)
{
    (void)state;
    const char *names[OUTPUT_COUNT];
    char storage[OUTPUT_COUNT][64];
    int n = output_names(names, storage);
    tu_check_deterministic_and_committed(LAB, NULL, NULL, names, n, "lab30-normals");
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, tu_run_dir_setup, tu_run_dir_teardown)
    const struct CMUnitTest tests[] = {
        T(test_lab30_normals_usage_and_output_errors),
        T(test_lab30_normals_templates_reproduce_the_default_run),
        T(test_lab30_normals_evidence),
        T(test_lab30_normals_formulas_match_the_library_job),
        T(test_lab30_normals_panels),
        T(test_lab30_normals_shaded_panels),
        T(test_lab30_normals_deterministic_and_committed),
    };
#undef T
    return cmocka_run_group_tests_name("lab30-normals end to end", tests, NULL, NULL);
}
