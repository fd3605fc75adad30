/* test_programs.c - end to end, the contract every program keeps (DESIGN.md), checked on
 * every chapter program of the build's list and the three benchmarks at once: the report
 * on stdout is an output, so a stdout that cannot take it (a full disk: /dev/full) makes
 * the run exit 3 having written nothing; --help too. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmocka_all.h"
#include "testutil.h"

#include "base/text.h"

/* After the chapter programs (tests/testutil.h; LAB_ONLY narrows them), the benchmarks'
 * --smoke runs (not when LAB_ONLY is set). */
static const char *const benchmarks[] = {"bench-skinning", "bench-gpu", "bench-weights"};

/* Runs one program with its report going to a full disk: exit 3 and nothing written; its
 * --help likewise. */
static void full_stdout(tu_run_dir *ctx, const char *name, const char *option, const char *input)
{
    char program[256];
    snprintf(program, sizeof program, "%s/%s", LAB_BIN_DIR, name);
    char *argv[5] = {program};
    int n = 1;
    if (option)
        argv[n++] = (char *)option;
    if (input)
        argv[n++] = (char *)input;
    argv[n++] = ctx->dir;
    argv[n] = NULL;
    int rc = tu_run(argv, "/dev/full", ctx->err_path);
    if (rc == 1 && tu_file_contains(ctx->err_path, "no EGL display")) { /* test_gpu counts the skip */
        fprintf(stderr, "%s: no EGL display here, not run\n", name);
        return;
    }
    if (rc != 3 || tu_count_entries(ctx->dir) != 0 || !tu_file_contains(ctx->err_path, "standard output"))
        fprintf(stderr, "%s: exit %d, %d files written\n", name, rc, tu_count_entries(ctx->dir));
    assert_int_equal(rc, 3);
    assert_int_equal(tu_count_entries(ctx->dir), 0);
    assert_true(tu_file_contains(ctx->err_path, "standard output"));
    char *help[] = {program, "--help", NULL};
    assert_int_equal(tu_run(help, "/dev/full", ctx->err_path), 3);
}

static void test_programs_a_full_stdout_is_an_output_failure(void **state)
{
    tu_run_dir *ctx = *state;
    int ran = 0;
    for (int i = 0; i < tu_program_count; i++)
        if (tu_program_selected(&tu_programs[i])) {
            full_stdout(ctx, tu_programs[i].name, NULL, tu_programs[i].input);
            ran++;
        }
    const char *only = getenv("LAB_ONLY");
    for (size_t i = 0; i < sizeof benchmarks / sizeof benchmarks[0] && !(only && *only); i++, ran++)
        full_stdout(ctx, benchmarks[i], "--smoke", NULL);
    printf("  %d programs\n", ran);
    assert_true(ran > 0);
}

/* Whether a report line that ends in a verdict ("ok", "FAIL") shows a nan or an inf: a
 * value no check can have passed on. Returns the first such line (in a static buffer). */
static const char *verdict_beside_nan(const char *report)
{
    static char line[512];
    for (const char *at = report; at && *at;) {
        const char *end = strchr(at, '\n');
        size_t n = end ? (size_t)(end - at) : strlen(at);
        snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), at);
        size_t len = strlen(line);
        bool verdict = (len >= 4 && !strcmp(line + len - 4, "  ok")) || (len >= 6 && !strcmp(line + len - 6, "  FAIL"));
        for (char *w = verdict ? strtok(line, " ") : NULL; w; w = strtok(NULL, " "))
            if (!strcasecmp(w, "nan") || !strcasecmp(w, "-nan") || !strcasecmp(w, "inf") || !strcasecmp(w, "-inf")) {
                snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), at);
                return line;
            }
        at = end ? end + 1 : NULL;
    }
    return NULL;
}

/* Every JSON file (.json, .gltf) a run wrote into dir is valid UTF-8 and parses: evidence
 * a JSON reader takes, whatever names the input held. Returns how many. */
static int assert_json_files_valid(const char *dir, const char *program)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        const char *dot = strrchr(e->d_name, '.');
        if (!dot || (strcmp(dot, ".json") && strcmp(dot, ".gltf")))
            continue;
        size_t len;
        char *text = tu_read_file(tu_path(dir, e->d_name), &len);
        assert_non_null(text);
        cJSON *root = cJSON_ParseWithLength(text, len);
        if (text_utf8_invalid(text, len) >= 0 || !root)
            fail_msg("%s wrote %s, which is not valid JSON in UTF-8", program, e->d_name);
        cJSON_Delete(root);
        free(text);
        n++;
    }
    closedir(d);
    return n;
}

/* Checks as data: each program's <name>-checks.json holds every check its report made, and
 * each verdict is what its numbers say, worked out here again: |computed - independent| <=
 * tolerance for a comparison, computed < bound for a bound (> for "above"), equality for a
 * count. A
 * program with no checks would write no such file. No line of a report that ends in a
 * verdict shows a nan or an inf, and every JSON file a run writes parses, in UTF-8. */
static void test_programs_checks_are_data_and_their_verdicts_hold(void **state)
{
    tu_run_dir *ctx = *state;
    int programs = 0, records = 0, json_files = 0;
    for (int i = 0; i < tu_program_count; i++) {
        const tu_program *p = &tu_programs[i];
        if (!tu_program_selected(p))
            continue;
        char program[256], name[128];
        snprintf(program, sizeof program, "%s/%s", LAB_BIN_DIR, p->name);
        snprintf(name, sizeof name, "%s-checks.json", p->name);
        char *argv[] = {program, (char *)p->input, ctx->dir, NULL};
        if (!p->input)
            argv[1] = ctx->dir, argv[2] = NULL;
        int rc = tu_run(argv, ctx->out_path, ctx->err_path);
        if (rc == 1 && tu_file_contains(ctx->err_path, "no EGL display"))
            continue;
        assert_int_equal(rc, 0);
        json_files += assert_json_files_valid(ctx->dir, p->name);
        char *report = tu_read_file(ctx->out_path, NULL);
        const char *bad = report ? verdict_beside_nan(report) : NULL;
        if (bad)
            fail_msg("%s prints a verdict beside a nan or an inf:\n%s", p->name, bad);
        free(report);
        cJSON *root = tu_json_load(tu_path(ctx->dir, name));
        bool has_checks = tu_file_contains(ctx->out_path, "All checks passed.");
        if (!has_checks) { /* a report that only describes */
            assert_null(root);
            continue;
        }
        assert_non_null(root);
        cJSON *checks = tu_json_get(root, "checks"), *c;
        int passed = 0;
        cJSON_ArrayForEach(c, checks) {
            const char *kind = cJSON_GetStringValue(tu_json_get(c, "kind"));
            const char *verdict = cJSON_GetStringValue(tu_json_get(c, "verdict"));
            double computed = tu_json_num(c, "computed");
            bool holds;
            if (!strcmp(kind, "bound"))
                holds = computed < tu_json_num(c, "bound");
            else if (!strcmp(kind, "above"))
                holds = computed > tu_json_num(c, "bound");
            else if (!strcmp(kind, "count"))
                holds = computed == tu_json_num(c, "independent");
            else
                holds = fabs(computed - tu_json_num(c, "independent")) <= tu_json_num(c, "tolerance");
            if (holds != !strcmp(verdict, "ok"))
                fail_msg("%s: \"%s\" (%s) says %s, its numbers say %s", name,
                         cJSON_GetStringValue(tu_json_get(c, "what")), kind, verdict, holds ? "ok" : "FAIL");
            assert_non_null(cJSON_GetStringValue(tu_json_get(c, "section")));
            passed += holds;
        }
        assert_true(cJSON_GetArraySize(checks) > 0);
        assert_near(tu_json_num(root, "checks_passed"), passed, 0);
        assert_near(tu_json_num(root, "checks_failed"), cJSON_GetArraySize(checks) - passed, 0);
        assert_int_equal(passed, cJSON_GetArraySize(checks)); /* a run that writes passed every check */
        records += passed;
        programs++;
        cJSON_Delete(root);
        char command[256];
        snprintf(command, sizeof command, "rm -f %s/* %s/.[!.]*", ctx->dir, ctx->dir);
        assert_int_equal(system(command), 0);
    }
    printf("  %d programs' checks, %d records, every verdict what its numbers say; %d JSON files valid\n", programs,
           records, json_files);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_programs_a_full_stdout_is_an_output_failure, tu_run_dir_setup,
                                        tu_run_dir_teardown),
        cmocka_unit_test_setup_teardown(test_programs_checks_are_data_and_their_verdicts_hold, tu_run_dir_setup,
                                        tu_run_dir_teardown),
    };
    return cmocka_run_group_tests_name("every program's contract", tests, NULL, NULL);
}
