/* test_lab30_normals_policies.c - lab30-normals' weight policies on an edited weights
 * file: strict refuses it, naming the vertex and changing nothing; normalize refuses a zero
 * sum; fallback=J binds it and normalises the rest, and says so; a broken, an empty and a
 * missing file each name what is wrong. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_all.h"
#include "testutil.h"

#define LAB LAB_BIN_DIR "/lab30-normals"
#define run_lab(ctx, ...) tu_run_program(LAB, (ctx)->out_path, (ctx)->err_path, __VA_ARGS__, (char *)NULL)
typedef tu_run_dir run_ctx;

/* Edit the weights template: vertex 96 gets (0.4, 0.4), vertex 0 gets (0, 0). */
static void write_edited_weights(const char *template_path, const char *out_path)
{
    char *text = tu_read_file(template_path, NULL);
    assert_non_null(text);
    char *row96 = strstr(text, "\n96,0,0.5,1,0.5\n"), *row0 = strstr(text, "\n0,0,1,1,0\n");
    assert_non_null(row96);
    assert_non_null(row0);
    memcpy(row96, "\n96,0,0.4,1,0.4\n", 16);
    memcpy(row0, "\n0,0,0,1,0\n", 11);
    assert_true(tu_write_file(out_path, text));
    free(text);
}

static void test_lab30_normals_policies_on_an_edited_file(void **state)
{
    run_ctx *ctx = *state;
    char edited[128];
    snprintf(edited, sizeof edited, "%s.weights.csv", ctx->dir);
    assert_int_equal(run_lab(ctx, ctx->dir), 0);
    write_edited_weights(tu_path(ctx->dir, "normals30-weights-twist.csv"), edited);
    char *before = tu_read_file(tu_path(ctx->dir, "normals30.json"), NULL);
    /* strict (chapter 30): rejected as in chapter 30, nothing lost */
    assert_int_equal(run_lab(ctx, "--twist-weights", edited, ctx->dir), 1);
    assert_true(tu_file_contains(ctx->err_path, "weights must sum to 1"));
    assert_true(tu_file_contains(ctx->err_path, "(the twist rig's weights) vertex 0,"));
    /* normalize: W = 0 at vertex 0 cannot be normalised */
    assert_int_equal(run_lab(ctx, "--policy", "normalize", "--twist-weights", edited, ctx->dir), 1);
    assert_true(tu_file_contains(ctx->err_path, "vertex 0"));
    char *after = tu_read_file(tu_path(ctx->dir, "normals30.json"), NULL);
    assert_string_equal(before, after);
    free(before);
    free(after);
    /* fallback=1: vertex 0 follows joint 1, vertex 96 is normalised, both reported */
    assert_int_equal(run_lab(ctx, "--policy", "fallback=1", "--twist-weights", edited, ctx->dir), 0);
    assert_true(tu_file_contains(ctx->out_path, "bound to the fallback joint: vertices 0"));
    assert_true(tu_file_contains(ctx->out_path, "largest |W - 1|, over every vertex: 1 at vertex 0"));
    cJSON *root = tu_json_load(tu_path(ctx->dir, "normals30.json"));
    assert_string_equal(cJSON_GetStringValue(tu_json_get(tu_json_get(root, "weights"), "policy")), "fallback");
    cJSON *w = tu_json_get(tu_json_get(tu_json_get(root, "weights"), "rigs"), "twist");
    assert_string_equal(cJSON_GetStringValue(tu_json_get(w, "source")), edited);
    assert_int_equal((int)tu_json_num(w, "normalized_count"), 1);
    assert_int_equal(cJSON_GetArrayItem(tu_json_get(w, "normalized_vertices"), 0)->valueint, 96);
    assert_int_equal(cJSON_GetArrayItem(tu_json_get(w, "fallback_vertices"), 0)->valueint, 0);
    assert_near(tu_json_num(w, "largest_deviation"), 1.0, 1e-15);
    cJSON_Delete(root);
    char *weights = tu_read_file(tu_path(ctx->dir, "normals30-weights-twist.csv"), NULL);
    assert_non_null(strstr(weights, "\n0,1,1,1,0\n"));    /* bound to joint 1 */
    assert_non_null(strstr(weights, "\n96,0,0.5,1,0.5\n")); /* 0.4 / 0.8 */
    free(weights);
    /* a broken file names its line */
    assert_true(tu_write_file(edited, "vertex,joint0,weight0,joint1,weight1\n0,0,1,1\n"));
    assert_int_equal(run_lab(ctx, "--twist-weights", edited, ctx->dir), 1);
    assert_true(tu_file_contains(ctx->err_path, "line 2, 4 fields, expected 5"));
    /* an empty file says so, not "cannot read" */
    assert_true(tu_write_file(edited, ""));
    assert_int_equal(run_lab(ctx, "--twist-weights", edited, ctx->dir), 1);
    assert_true(tu_file_contains(ctx->err_path, "the file is empty"));
    remove(edited);
    assert_int_equal(run_lab(ctx, "--twist-weights", edited, ctx->dir), 1);
    assert_true(tu_file_contains(ctx->err_path, "cannot open the file"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_lab30_normals_policies_on_an_edited_file, tu_run_dir_setup,
                                        tu_run_dir_teardown),
    };
    return cmocka_run_group_tests_name("lab30-normals' weight policies", tests, NULL, NULL);
}
