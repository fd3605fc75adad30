/* test_lab30_gltf_names.c - end to end: names from the asset cannot break the evidence or
 * the terminal. The chapter's export with its animation renamed or doubled: invalid UTF-8
 * is refused at its JSON pointer, \u0000 at its byte, control characters are escaped in the
 * report and the messages (and kept, escaped, in valid JSON), a name two animations share
 * cannot be chosen by name, and --anim's rule between a number and a name holds. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmocka_all.h"
#include "testutil.h"

#include "base/text.h"

#define LAB LAB_BIN_DIR "/lab30-gltf"
#define EXPORT COMMITTED_OUT_DIR "/ch30/skinning30.gltf"
#define run_lab(ctx, ...) tu_run_program(LAB, (ctx)->out_path, (ctx)->err_path, __VA_ARGS__, (char *)NULL)
typedef tu_run_dir run_ctx;

/* The export with its animation named names[0], and one copy of it for each further name
 * (NULL: no name); `raw` replaces the text "RAW" in the printed file (what cJSON cannot
 * hold, such as \u0000). Returns the file's path in dir. */
static const char *renamed(const char *dir, const char *const *names, int count, const char *raw)
{
    char *text = tu_read_file(EXPORT, NULL);
    assert_non_null(text);
    cJSON *root = cJSON_Parse(text);
    free(text);
    cJSON *animations = cJSON_GetObjectItem(root, "animations");
    cJSON *first = cJSON_GetArrayItem(animations, 0);
    for (int i = 1; i < count; i++)
        cJSON_AddItemToArray(animations, cJSON_Duplicate(first, true));
    for (int i = 0; i < count; i++) {
        cJSON *a = cJSON_GetArrayItem(animations, i);
        cJSON_DeleteItemFromObject(a, "name");
        if (names[i])
            cJSON_AddStringToObject(a, "name", names[i]);
    }
    text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    char *at = raw ? strstr(text, "RAW") : NULL, *out = malloc(strlen(text) + (raw ? strlen(raw) : 0) + 1);
    if (at)
        sprintf(out, "%.*s%s%s", (int)(at - text), text, raw, at + 3);
    else
        strcpy(out, text);
    const char *path = tu_path(dir, "named.gltf");
    assert_true(tu_write_file(path, out));
    free(text), free(out);
    return path;
}

/* Every byte of the file is valid UTF-8 and the file parses: evidence a JSON reader takes. */
static void assert_valid_json(const char *path)
{
    size_t n;
    char *text = tu_read_file(path, &n);
    assert_non_null(text);
    assert_int_equal(text_utf8_invalid(text, n), -1);
    cJSON *root = cJSON_Parse(text);
    assert_non_null(root);
    cJSON_Delete(root);
    free(text);
}

static char outdir[160];

static void test_lab30_gltf_names_invalid_utf8_and_nul(void **state)
{
    run_ctx *ctx = *state;
    snprintf(outdir, sizeof outdir, "%s/out", ctx->dir);
    assert_int_equal(mkdir(outdir, 0777), 0);
    const char *bad[] = {"walk\xff\xfe"};
    assert_int_equal(run_lab(ctx, renamed(ctx->dir, bad, 1, NULL), outdir), 1);
    assert_true(tu_file_contains(ctx->err_path, "/animations/0/name, byte 4 of the string is 0xff, not UTF-8"));
    assert_int_equal(tu_count_entries(outdir), 0);
    const char *nul[] = {"RAW"};
    assert_int_equal(run_lab(ctx, renamed(ctx->dir, nul, 1, "a\\u0000b"), outdir), 1);
    assert_true(tu_file_contains(ctx->err_path, "a string holds \\u0000 (U+0000)"));
    assert_int_equal(tu_count_entries(outdir), 0);
}

/* ESC sequences, a newline, DEL and the C1 control CSI: escaped in the report and in the
 * usage error's list; kept in gltf30.json as JSON escapes, which parse back to the name. */
static void test_lab30_gltf_names_control_characters_are_escaped(void **state)
{
    run_ctx *ctx = *state;
    snprintf(outdir, sizeof outdir, "%s/out", ctx->dir);
    assert_int_equal(mkdir(outdir, 0777), 0);
    const char *name = "walk\x1b[2J\nrun\x7f\xc2\x9b";
    const char *names[] = {name};
    const char *path = renamed(ctx->dir, names, 1, NULL);
    assert_int_equal(run_lab(ctx, path, outdir), 0);
    assert_true(tu_file_contains(ctx->out_path, "\"walk\\x1B[2J\\nrun\\x7F\\u009B\""));
    char *report = tu_read_file(ctx->out_path, NULL);
    assert_null(strchr(report, '\x1b'));
    assert_null(strstr(report, "\xc2\x9b"));
    free(report);
    assert_valid_json(tu_path(outdir, "gltf30.json"));
    cJSON *root = tu_json_load(tu_path(outdir, "gltf30.json"));
    assert_string_equal(cJSON_GetStringValue(tu_json_get(tu_json_get(root, "animation"), "name")), name);
    cJSON_Delete(root);
    assert_int_equal(run_lab(ctx, "--anim", "none", path, outdir), 2);
    assert_true(tu_file_contains(ctx->err_path, "0 \"walk\\x1B[2J\\nrun\\x7F\\u009B\""));
    char *err = tu_read_file(ctx->err_path, NULL);
    assert_null(strchr(err, '\x1b'));
    free(err);
}

/* Two animations named "dup": --anim dup is refused with both indices; by index each is
 * chosen. Animation 0 named "1": --anim 1 is index 1, --anim name:1 is animation 0. */
static void test_lab30_gltf_names_duplicates_and_numbers(void **state)
{
    run_ctx *ctx = *state;
    snprintf(outdir, sizeof outdir, "%s/out", ctx->dir);
    assert_int_equal(mkdir(outdir, 0777), 0);
    const char *dup[] = {"dup", "other", "dup"};
    const char *path = renamed(ctx->dir, dup, 3, NULL);
    assert_int_equal(run_lab(ctx, "--anim", "dup", path, outdir), 2);
    assert_true(tu_file_contains(ctx->err_path, "\"dup\" names animations 0, 2: choose one by its index"));
    assert_int_equal(run_lab(ctx, "--anim", "2", path, outdir), 0);
    assert_true(tu_file_contains(ctx->out_path, "* 2 \"dup\""));
    const char *numbered[] = {"1", NULL};
    path = renamed(ctx->dir, numbered, 2, NULL);
    const struct { const char *arg; int index; } rule[] = {{"1", 1}, {"name:1", 0}, {"0", 0}, {"01", 1}};
    for (int k = 0; k < 4; k++) {
        assert_int_equal(run_lab(ctx, "--anim", rule[k].arg, path, outdir), 0);
        cJSON *root = tu_json_load(tu_path(outdir, "gltf30.json"));
        assert_int_equal((int)tu_json_num(tu_json_get(root, "animation"), "index"), rule[k].index);
        cJSON_Delete(root);
    }
    assert_int_equal(run_lab(ctx, "--anim", "name:2", path, outdir), 2); /* no animation is named "2" */
    assert_int_equal(run_lab(ctx, "--help"), 0);
    assert_true(tu_file_contains(ctx->out_path, "digits only are an"));
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, tu_run_dir_setup, tu_run_dir_teardown)
    const struct CMUnitTest tests[] = {
        T(test_lab30_gltf_names_invalid_utf8_and_nul),
        T(test_lab30_gltf_names_control_characters_are_escaped),
        T(test_lab30_gltf_names_duplicates_and_numbers),
    };
#undef T
    return cmocka_run_group_tests_name("lab30-gltf names", tests, NULL, NULL);
}
