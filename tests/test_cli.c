/* test_cli.c - the declared option table: every kind of value, every rule the parser
 * enforces, the generated --help, the positional arguments and the OUTDIR check. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/report.h"
#include "program/cli.h"
#include "cmocka_all.h"
#include "testutil.h"

/* The targets of one table, reset before each parse. */
typedef struct {
    double angles[4];
    int angle_count;
    double scale[3];
    int threads, level;
    bool flag, angles_given;
    const char *file;
    int custom;
} targets;

static int parse_even(const char *value, void *target, const void *context, char *err, size_t size)
{
    int n = atoi(value), limit = *(const int *)context;
    if (n % 2 != 0 || n > limit) {
        snprintf(err, size, "%s: an even number up to %d", value, limit);
        return -1;
    }
    *(int *)target = n;
    return 0;
}

static const char *const levels[] = {"low", "high", NULL};
static const int even_limit = 10;

/* Parses `args` (NULL-terminated, without the program name) with stderr silenced; the
 * exit code or CLI_RUN, and the positional arguments in pos. */
static int parse(targets *t, const char **pos, ...)
{
    *t = (targets){{1, 2}, 2, {1, 1, 1}, 2, 0, false, false, NULL, 0};
    const cli_option table[] = {
        {"--angles", CLI_DOUBLES, t->angles, .count = &t->angle_count, .min_count = 1,
         .max_count = 4, .min = -90, .max = 90, .distinct = true, .value_name = "DEG[,DEG...]",
         .help = "angles", .given = &t->angles_given},
        {"--scale", CLI_DOUBLES, t->scale, .max_count = 3, .broadcast = true, .help = "scale"},
        {"--threads", CLI_INT, &t->threads, .min = 1, .max = 8, .value_name = "N", .help = "threads"},
        {"--level", CLI_CHOICE, &t->level, .choices = levels, .help = "level"},
        {"--flag", CLI_FLAG, &t->flag, .help = "a flag\nover two lines"},
        {"--file", CLI_STRING, &t->file, .value_name = "FILE", .help = "a file"},
        {"--even", CLI_CUSTOM, &t->custom, .parse = parse_even, .context = &even_limit, .help = "even"},
    };
    const cli_program program = {"prog", "A test program.", table, 7, {"IN", "OUTDIR"}, 2, NULL};
    char *argv[32] = {"prog"};
    int argc = 1;
    va_list ap;
    va_start(ap, pos);
    for (const char *a; (a = va_arg(ap, const char *)) != NULL && argc < 31;)
        argv[argc++] = (char *)a;
    va_end(ap);
    fflush(stderr);
    int saved = dup(2);
    FILE *null = freopen("/dev/null", "w", stderr);
    (void)null;
    int code = cli_start(&program, argc, argv, pos);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    return code;
}

static void test_cli_parses_every_kind(void **state)
{
    (void)state;
    targets t;
    const char *pos[2] = {NULL, NULL};
    assert_int_equal(parse(&t, pos, "--angles", "-90,0.5,90", "--scale", "2", "--threads", "8",
                           "--level", "high", "--flag", "--file", "w.csv", "--even", "4", "in.gltf",
                           "/tmp", NULL),
                     CLI_RUN);
    assert_int_equal(t.angle_count, 3);
    assert_true(t.angles[0] == -90 && t.angles[1] == 0.5 && t.angles[2] == 90);
    assert_true(t.angles_given);
    assert_true(t.scale[0] == 2 && t.scale[1] == 2 && t.scale[2] == 2); /* one value fills all */
    assert_int_equal(t.threads, 8);
    assert_int_equal(t.level, 1);
    assert_true(t.flag);
    assert_string_equal(t.file, "w.csv");
    assert_int_equal(t.custom, 4);
    assert_string_equal(pos[0], "in.gltf");
    assert_string_equal(pos[1], "/tmp");
    /* defaults stay when an option is absent */
    assert_int_equal(parse(&t, pos, "in", "/tmp", NULL), CLI_RUN);
    assert_int_equal(t.angle_count, 2);
    assert_false(t.angles_given);
    assert_int_equal(parse(&t, pos, "--scale", "1,2,3", "in", "/tmp", NULL), CLI_RUN);
    assert_true(t.scale[0] == 1 && t.scale[1] == 2 && t.scale[2] == 3);
}

/* Each rule of the table is a usage error (exit 2), never a silent clamp. */
static void test_cli_refuses_what_the_table_forbids(void **state)
{
    (void)state;
    targets t;
    const char *pos[2];
    const char *bad[][3] = {
        {"--angles", "91", NULL},          /* outside [-90, 90] */
        {"--angles", "1,2,1", NULL},       /* twice */
        {"--angles", "1,2,3,4,5", NULL},   /* more than 4 */
        {"--angles", "1,,2", NULL},        /* not a number */
        {"--angles", "nan", NULL},         /* not finite */
        {"--angles", "1e999", NULL},       /* overflows */
        {"--scale", "1,2", NULL},          /* 1 or 3 */
        {"--threads", "0", NULL},          /* below the range */
        {"--threads", "2x", NULL},         /* not an integer */
        {"--level", "medium", NULL},       /* not a choice */
        {"--even", "3", NULL},             /* the custom rule */
        {"--frobnicate", NULL, NULL},      /* unknown */
        {"--threads", NULL, NULL},         /* value missing (then only one positional) */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int code = bad[i][1] ? parse(&t, pos, bad[i][0], bad[i][1], "in", "/tmp", NULL)
                             : parse(&t, pos, bad[i][0], "in", "/tmp", NULL);
        if (code != CLI_EXIT_USAGE)
            fail_msg("%s %s gave %d, not 2", bad[i][0], bad[i][1] ? bad[i][1] : "", code);
    }
    /* an option given twice: the later value would silently replace the first */
    assert_int_equal(parse(&t, pos, "--angles", "10", "--angles", "20", "in", "/tmp", NULL), CLI_EXIT_USAGE);
    assert_int_equal(parse(&t, pos, "--flag", "--flag", "in", "/tmp", NULL), CLI_EXIT_USAGE);
    assert_int_equal(parse(&t, pos, "--level", "low", "--threads", "2", "--level", "high", "in", "/tmp", NULL),
                     CLI_EXIT_USAGE);
    /* a value that looks like an option is the value, not a second option */
    assert_int_equal(parse(&t, pos, "--file", "--flag", "--flag", "in", "/tmp", NULL), CLI_RUN);
    assert_string_equal(t.file, "--flag");
    assert_true(t.flag);
    assert_int_equal(parse(&t, pos, "in", NULL), CLI_EXIT_USAGE);               /* OUTDIR missing */
    assert_int_equal(parse(&t, pos, "in", "/tmp", "extra", NULL), CLI_EXIT_USAGE); /* one too many */
    assert_int_equal(parse(&t, pos, "in", "/nonexistent/dir", NULL), CLI_EXIT_OUTPUT);
}

/* --help is generated from the table: every option, its value name and its rule. */
static void test_cli_help_is_generated_from_the_table(void **state)
{
    (void)state;
    char path[] = "/tmp/test_cli_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w+");
    const cli_option table[] = {
        {"--angles", CLI_DOUBLES, NULL, .min_count = 1, .max_count = 4, .min = -90, .max = 90,
         .distinct = true, .value_name = "DEG[,DEG...]", .help = "angles"},
        {"--level", CLI_CHOICE, NULL, .choices = levels, .help = "level"},
        {"--threads", CLI_INT, NULL, .min = 1, .max = 8, .value_name = "N", .help = "threads"},
    };
    const cli_program program = {"prog", "A test program.", table, 3, {"OUTDIR"}, 1, "A note."};
    cli_usage(&program, f);
    rewind(f);
    char text[2048] = {0};
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    unlink(path);
    assert_true(n > 0);
    assert_non_null(strstr(text, "usage: prog [--angles DEG[,DEG...]] [--level low|high] [--threads N] OUTDIR"));
    assert_non_null(strstr(text, "(1 to 4 numbers, each in [-90, 90], none twice)"));
    assert_non_null(strstr(text, "(an integer in [1, 8])"));
    assert_non_null(strstr(text, "--help"));
    assert_non_null(strstr(text, "A note."));
    assert_non_null(strstr(text, "Exit codes: 0 ok, 1 data rejected, 2 usage, 3 output."));
}

/* The end of every main: a failed self-check writes nothing and exits 1; a build error
 * exits 3; otherwise the batch is committed. */
static void test_cli_finish_writes_nothing_after_a_failed_check(void **state)
{
    (void)state;
    char dir[64];
    assert_non_null(tu_make_temp_dir(dir, sizeof dir));
    for (int round = 0; round < 3; round++) {
        output_batch b = {0};
        bytes x = {0};
        bytes_printf(&x, "evidence\n");
        assert_int_equal(output_batch_add(&b, "e.json", &x, NULL), LAB_OK);
        lab_diag d = {0};
        diag_fail(&d, LAB_ERR_OUT_OF_MEMORY, "somewhere", "%s", "a test");
        fflush(stderr);
        int saved = dup(2);
        FILE *null = freopen("/dev/null", "w", stderr);
        (void)null;
        int code = round == 0   ? cli_finish("prog", &b, LAB_OK, NULL, false, dir)
                   : round == 1 ? cli_finish("prog", &b, LAB_ERR_OUT_OF_MEMORY, &d, true, dir)
                                : cli_finish("prog", &b, LAB_OK, NULL, true, dir);
        fflush(stderr);
        dup2(saved, 2);
        close(saved);
        assert_int_equal(b.count, 0); /* freed in every case */
        if (round < 2) {
            assert_int_equal(code, round == 0 ? CLI_EXIT_REJECTED : CLI_EXIT_OUTPUT);
            assert_int_equal(tu_count_entries(dir), 0);
        } else {
            assert_int_equal(code, CLI_EXIT_OK);
            assert_int_equal(tu_count_entries(dir), 1); /* e.json; a manifest is cli_end's */
        }
    }
    tu_remove_tree(dir);
}

/* Checks as data: each kind's rule, NaN failing every kind (a max that skips NaN would
 * call a broken stage correct), and checks_passed over a list. */
static void test_checks_decide_where_the_numbers_are_made(void **state)
{
    (void)state;
    report_checks c = {0};
    assert_true(check_compare(&c, "equal within", 1.0, 1.0 + 1e-13, 1e-12));
    assert_false(check_compare(&c, "too far", 1.0, 1.1, 1e-12));
    assert_false(check_compare(&c, "nan", NAN, 1.0, 1e-12));
    assert_false(check_compare(&c, "infinite", INFINITY, INFINITY, 1e-12));
    assert_true(check_bound(&c, "under", 0.5, 1.0));
    assert_false(check_bound(&c, "at the bound", 1.0, 1.0));
    assert_false(check_bound(&c, "nan", NAN, 1.0));
    assert_true(check_above(&c, "above", 1.5, 1.0));
    assert_false(check_above(&c, "nan", NAN, 1.0));
    assert_true(check_count(&c, "count", 216, 216));
    assert_false(check_count(&c, "count off", 215, 216));
    assert_int_equal(c.count, 11);
    assert_null(c.items[0].section); /* the shell gives the section */
    assert_string_equal(c.items[1].what, "too far");
    assert_false(checks_passed(&c));
    report_checks ok = {0};
    check_count(&ok, "one", 1, 1);
    assert_true(checks_passed(&ok));
    ok.out_of_memory = true; /* a lost record is never a pass */
    assert_false(checks_passed(&ok));
    report_checks_free(&ok);
    report_checks_free(&c);
}

/* Each kind at its exact tie and one ulp either side (a value exactly on a bound decides as
 * the rule says, so that a `<` written `<=` or a `==` written `>=` fails here), NaN failing
 * each: compare |computed - reference| <= tolerance (0.5 is exact in doubles), bound
 * value < bound, above value > bound, count computed == reference. */
static void test_checks_at_their_ties(void **state)
{
    (void)state;
    report_checks c = {0};
    const double up = nextafter(1.0, 2.0), down = nextafter(1.0, 0.0);
    /* compare: |1 - 0.5| = 0.5, exactly the tolerance */
    assert_true(check_compare(&c, "tie", 1.0, 0.5, 0.5));
    assert_true(check_compare(&c, "tie, the other side", 0.0, 0.5, 0.5));
    assert_false(check_compare(&c, "an ulp beyond", up, 0.5, 0.5));
    assert_true(check_compare(&c, "an ulp inside", down, 0.5, 0.5));
    assert_false(check_compare(&c, "tolerance an ulp short", 1.0, 0.5, nextafter(0.5, 0.0)));
    assert_false(check_compare(&c, "nan tolerance", 1.0, 0.5, NAN));
    /* bound: strictly below */
    assert_false(check_bound(&c, "tie", 1.0, 1.0));
    assert_true(check_bound(&c, "an ulp below", down, 1.0));
    assert_false(check_bound(&c, "an ulp above", up, 1.0));
    assert_false(check_bound(&c, "nan bound", 0.5, NAN));
    /* above: strictly above */
    assert_false(check_above(&c, "tie", 1.0, 1.0));
    assert_true(check_above(&c, "an ulp above", up, 1.0));
    assert_false(check_above(&c, "an ulp below", down, 1.0));
    assert_false(check_above(&c, "nan bound", 1.5, NAN));
    /* count: equal, neither more nor fewer */
    assert_true(check_count(&c, "equal", 216, 216));
    assert_false(check_count(&c, "one more", 217, 216));
    assert_false(check_count(&c, "one fewer", 215, 216));
    assert_false(check_count(&c, "far more", 2147483647L, 216));
    /* add: the stage's own verdict, recorded as given */
    assert_true(check_add(&c, "given", REPORT_COMPARE, 1.0, 2.0, 0.0, true));
    assert_false(check_add(&c, "given", REPORT_COMPARE, 1.0, 1.0, 0.0, false));
    assert_int_equal(c.count, 20);
    for (int i = 0; i < c.count; i++) /* each record holds the verdict the call returned */
        assert_true(c.items[i].passed == (i == 0 || i == 1 || i == 3 || i == 7 || i == 11 || i == 14 || i == 18));
    report_checks_free(&c);
}

/* A main in the template's shape: sections numbered in the order it prints them, each
 * section's checks recorded under its heading in -checks.json; a failed check writes
 * nothing and exits 1; a stage's error exits with its code and no report. */
static int run_shape(const char *dir, bool fail_a_check, lab_error stage, const char *stdout_path)
{
    static const cli_program program = {"shape", "a test", NULL, 0, {"OUTDIR"}, 1, NULL};
    char *argv[] = {"shape", (char *)dir, NULL};
    fflush(stdout);
    int saved = dup(1), saved_err = dup(2);
    assert_non_null(freopen(stdout_path, "w", stdout));
    FILE *null = freopen("/dev/null", "w", stderr);
    (void)null;
    cli_run run;
    int code = cli_begin(&run, &program, 2, argv);
    assert_int_equal(code, CLI_RUN);
    report_checks a = {0}, b = {0};
    check_count(&a, "vertices", 216, 216);
    check_bound(&b, "error", fail_a_check ? 2.0 : 0.5, 1.0);
    lab_error e = stage;
    if (e != LAB_OK)
        diag_fail(&run.diag, e, "a stage", "%s", "in a test");
    if (e == LAB_OK && cli_report(&run, "Title")) {
        cli_section(&run, "A", &a);
        report_rows(stdout, &a);
        cli_subsection(&run, "B", &b);
        report_rows(stdout, &b);
        cli_section(&run, "C", NULL);
    }
    code = cli_end(&run, e);
    fflush(stdout), fflush(stderr);
    dup2(saved, 1), dup2(saved_err, 2);
    close(saved), close(saved_err);
    report_checks_free(&a), report_checks_free(&b);
    return code;
}

static void test_cli_run_numbers_sections_and_records_their_checks(void **state)
{
    (void)state;
    char dir[256], out[300];
    assert_non_null(tu_make_temp_dir(dir, sizeof dir));
    snprintf(out, sizeof out, "%s.stdout", dir);
    assert_int_equal(run_shape(dir, false, LAB_OK, out), CLI_EXIT_OK);
    char *text = tu_read_file(out, NULL);
    assert_non_null(text);
    assert_non_null(strstr(text, "Title\n\n1. A\n  vertices "));
    assert_non_null(strstr(text, "\n\n1b. B\n  error "));
    assert_non_null(strstr(text, "\n\n2. C\n\nAll checks passed.\n"));
    free(text);
    cJSON *root = tu_json_load(tu_path(dir, "shape-checks.json"));
    assert_non_null(root);
    cJSON *checks = tu_json_get(root, "checks");
    assert_int_equal(cJSON_GetArraySize(checks), 2);
    assert_string_equal(cJSON_GetStringValue(tu_json_get(cJSON_GetArrayItem(checks, 0), "section")), "1. A");
    assert_string_equal(cJSON_GetStringValue(tu_json_get(cJSON_GetArrayItem(checks, 1), "section")), "1b. B");
    assert_string_equal(cJSON_GetStringValue(tu_json_get(cJSON_GetArrayItem(checks, 1), "kind")), "bound");
    cJSON_Delete(root);
    tu_remove_tree(dir);

    assert_non_null(tu_make_temp_dir(dir, sizeof dir));
    assert_int_equal(run_shape(dir, true, LAB_OK, out), CLI_EXIT_REJECTED);
    assert_true(tu_file_contains(out, "  FAIL\n\n2. C\n\nSOME CHECKS FAILED.\n"));
    assert_int_equal(tu_count_entries(dir), 0);
    assert_int_equal(run_shape(dir, false, LAB_ERR_OUT_OF_MEMORY, out), CLI_EXIT_OUTPUT);
    assert_int_equal(run_shape(dir, false, LAB_ERR_WEIGHT_SUM, out), CLI_EXIT_REJECTED);
    assert_false(tu_file_contains(out, "Title")); /* no report after a stage's error */
    assert_int_equal(tu_count_entries(dir), 0);
    tu_remove_tree(dir);
    unlink(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cli_parses_every_kind),
        cmocka_unit_test(test_cli_refuses_what_the_table_forbids),
        cmocka_unit_test(test_cli_help_is_generated_from_the_table),
        cmocka_unit_test(test_cli_finish_writes_nothing_after_a_failed_check),
        cmocka_unit_test(test_checks_decide_where_the_numbers_are_made),
        cmocka_unit_test(test_checks_at_their_ties),
        cmocka_unit_test(test_cli_run_numbers_sections_and_records_their_checks),
    };
    return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
