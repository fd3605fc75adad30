/* test_grade30.c - the grader of chapter 30's exercises: the reference solution is correct
 * on every exercise, in this process and in the limited child; every known mistake of the
 * table, put in place of the reference's function, is found wrong and named by its own
 * name (no other mistake's); answers that depend on earlier calls, NaN and infinity are
 * wrong answers with their case; a crash, an endless loop, alarm(0), an ignored SIGALRM,
 * a sleep, a fork that loops, a fork bomb and exit() are that exercise's verdict within the
 * limit; every table entry's heading exists in its page; and make grade30 on the shipped
 * sheet, the reference, the page's example, a file with a warning, a file that reads past
 * an array and a file that does not compile exits and writes as the grader's page says. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmocka_all.h"
#include "testutil.h"

#include "exercises30.h"
#include "grade30.h"
#include "math/quat.h"

#define SEED 30

static void show(int x, const grade30_result *r) { grade30_print(x, r, stdout); }

static void test_grade30_the_reference_is_correct(void **state)
{
    (void)state;
    for (int x = 0; x < GRADE30_EXERCISE_COUNT; x++) {
        const grade30_entry *e = &grade30_table[x];
        grade30_result r;
        assert_int_equal(grade30_check(e, e->sheet, SEED, &r), LAB_OK);
        if (r.verdict != GRADE30_CORRECT)
            show(x, &r);
        assert_int_equal(r.verdict, GRADE30_CORRECT);
        assert_int_equal(r.cases, e->named + e->generated);
        assert_true(e->generated >= 200);
        /* other seeds, other cases, the same verdict */
        static const uint64_t seeds[] = {0, 1, 12345, 2147483647};
        for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; s++) {
            assert_int_equal(grade30_check(e, e->sheet, seeds[s], &r), LAB_OK);
            if (r.verdict != GRADE30_CORRECT)
                show(x, &r);
            assert_int_equal(r.verdict, GRADE30_CORRECT);
        }
    }
}

/* Every known mistake of the table in place of the reference: wrong, and named by its own
 * entry, so that no mistake is named for another (a missing inverse bind for a 3x3 part,
 * a missing flip for a test on the dual part). */
static void test_grade30_names_every_known_mistake(void **state)
{
    (void)state;
    int named = 0;
    for (int x = 0; x < GRADE30_EXERCISE_COUNT; x++) {
        const grade30_entry *e = &grade30_table[x];
        for (int m = 0; m < e->mistake_count; m++) {
            grade30_result r;
            assert_int_equal(grade30_check(e, e->mistakes[m].fn, SEED, &r), LAB_OK);
            if (r.verdict != GRADE30_WRONG || r.mistake != m) {
                show(x, &r);
                fail_msg("exercise %d, \"%s\": graded %s, named %s", x + 1, e->mistakes[m].name,
                         grade30_verdict_name(r.verdict), r.mistake >= 0 ? e->mistakes[r.mistake].name : "none");
            }
            assert_true(r.failed > 0 && r.failed_case[0] && r.computed[0] && r.expected[0]);
            named++;
        }
    }
    printf("  %d known mistakes, each named\n", named);
}

/* The generated cases cover what the grader's page promises (so that a generator that
 * drifts back to convenient values fails here, not silently). */
static void test_grade30_the_generator_covers_what_the_page_says(void **state)
{
    (void)state;
    int axes[3] = {0}, sizes[GRADE30_MAX_PALETTE + 1] = {0}, ks[GRADE30_MAX_K + 1] = {0}, not_from_zero = 0,
        repeats = 0, moved = 0, ties = 0, scaled_binds = 0, nan = 0, inf = 0, negzero = 0, none = 0, mirror = 0,
        sheared = 0, seams = 0, quats = 0;
    grade30_case c;
    for (int x = 0; x < GRADE30_EXERCISE_COUNT; x++) {
        const grade30_entry *e = &grade30_table[x];
        for (int i = e->named; i < e->named + e->generated; i++) {
            e->make_case(i, SEED, &c);
            switch ((grade30_exercise)x) {
            case GRADE30_WORLD_MATRIX:
                for (int a = 0; a < 3; a++) /* a local turning about exactly one principal axis */
                    axes[a] += fabs(c.b.m[a][a] - 1) < 1e-12 && fabs(c.b.m[(a + 1) % 3][(a + 1) % 3] - 1) > 1e-6;
                break;
            case GRADE30_SKIN_MATRIX:
                scaled_binds += fabs(mat4_linear_det(c.b) - 1) > 1e-3;
                break;
            case GRADE30_LBS_POINT: {
                sizes[c.palette_count]++, ks[c.k]++;
                bool zero = false, twice = false;
                for (int j = 0; j < c.k; j++) {
                    zero |= c.joint[j] == 0;
                    for (int m = 0; m < j; m++)
                        twice |= c.joint[m] == c.joint[j];
                }
                not_from_zero += !zero, repeats += twice;
                break;
            }
            case GRADE30_RING_RADIUS:
                seams += fabs(fmod(fabs(c.theta), LAB_PI)) < 1e-12;
                break;
            case GRADE30_CHECK_WEIGHTS:
                none += c.k == 0;
                for (int j = 0; j < c.k; j++)
                    nan += isnan(c.weight[j]), inf += isinf(c.weight[j]), negzero += c.weight[j] == 0 && signbit(c.weight[j]);
                break;
            case GRADE30_DQS_BLEND:
                for (int j = 0; j < c.k; j++) {
                    moved += quat_norm(c.q[j].dual) > 1e-3, quats++;
                    for (int m = 0; m < j; m++)
                        ties += c.weight[m] == c.weight[j];
                }
                break;
            case GRADE30_NORMAL_MATRIX:
                mirror += mat4_linear_det(c.a) < 0;
                sheared += fabs(vec3_dot(vec3_make(c.a.m[0][0], c.a.m[1][0], c.a.m[2][0]),
                                         vec3_make(c.a.m[0][1], c.a.m[1][1], c.a.m[2][1]))) > 1e-6;
                break;
            case GRADE30_EXERCISE_COUNT: break;
            }
        }
    }
    for (int a = 0; a < 3; a++)
        assert_true(axes[a] > 0);
    for (int n = 3; n <= GRADE30_MAX_PALETTE; n++)
        assert_true(sizes[n] > 0);
    for (int k = 1; k <= GRADE30_MAX_K; k++)
        assert_true(ks[k] > 0);
    assert_true(not_from_zero > 0 && repeats > 0 && 2 * moved > quats && ties > 0 && scaled_binds > 0);
    assert_true(nan > 0 && inf > 0 && negzero > 0 && none > 0 && mirror > 0 && sheared > 0 && seams > 0);
}

/* ---- wrong answers the table does not name ------------------------------------------- */

static mat4 scaled_by_two(mat4 a, mat4 b)
{
    (void)a, (void)b;
    return mat4_scale(2, 2, 2);
}

static int calls;
/* right twice, then wrong: a body that keeps state */
static double goes_wrong_later(double w, double theta)
{
    double s = sin(theta / 2), r = sqrt(fmax(0, 1 - 4 * w * (1 - w) * s * s));
    return ++calls > 2 ? r + 1e-3 : r;
}

/* right on every call of the first order, then its cache answers the second */
static double cached(double w, double theta)
{
    static double last_w = -1, last_theta, last;
    if (calls++ > 300 && w == last_w && theta == last_theta)
        return last;
    double s = sin(theta / 2);
    last_w = w, last_theta = theta, last = sqrt(fmax(0, 1 - 4 * w * (1 - w) * s * s));
    return calls > 300 ? last * (1 + 1e-6) : last;
}

static mat4 nan_matrix(mat4 a, mat4 b)
{
    mat4 g = mat4_mul(a, b);
    g.m[1][2] = NAN;
    return g;
}

static double infinite(double w, double theta)
{
    (void)w, (void)theta;
    return INFINITY;
}

static dualquat nan_blend(const dualquat *q, const double *weight, int k)
{
    (void)q, (void)weight, (void)k;
    return (dualquat){{NAN, NAN, NAN, NAN}, {NAN, NAN, NAN, NAN}};
}

static ex30_weights nan_passes(const double *weight, int k)
{
    double sum = 0;
    for (int i = 0; i < k; i++) {
        if (weight[i] < 0)
            return EX30_WEIGHTS_NEGATIVE;
        sum += weight[i];
    }
    return !(fabs(sum - 1) > 1e-12) ? EX30_WEIGHTS_VALID : EX30_WEIGHTS_NOT_SUMMING_TO_ONE;
}

static void expect_wrong(int x, grade30_fn f, const char *detail)
{
    grade30_result r;
    assert_int_equal(grade30_check(&grade30_table[x], f, SEED, &r), LAB_OK);
    show(x, &r);
    assert_int_equal(r.verdict, GRADE30_WRONG);
    assert_true(r.failed > 0);
    if (detail && !strstr(r.detail, detail) && !strstr(r.computed, detail))
        fail_msg("expected \"%s\" in the verdict", detail);
}

static void test_grade30_unknown_history_nan_and_infinity_are_wrong(void **state)
{
    (void)state;
    grade30_result r;
    assert_int_equal(grade30_check(&grade30_table[GRADE30_SKIN_MATRIX], (grade30_fn){.skin_matrix = scaled_by_two},
                                   SEED, &r),
                     LAB_OK);
    assert_int_equal(r.verdict, GRADE30_WRONG);
    assert_int_equal(r.mistake, -1); /* no name for a mistake the table does not know */
    assert_int_equal(r.failed, 1);

    calls = 0;
    expect_wrong(GRADE30_RING_RADIUS, (grade30_fn){.ring_radius_ratio = goes_wrong_later}, NULL);
    calls = 0;
    expect_wrong(GRADE30_RING_RADIUS, (grade30_fn){.ring_radius_ratio = cached}, "depends on earlier calls");
    expect_wrong(GRADE30_WORLD_MATRIX, (grade30_fn){.world_matrix = nan_matrix}, "nan");
    expect_wrong(GRADE30_RING_RADIUS, (grade30_fn){.ring_radius_ratio = infinite}, "inf");
    expect_wrong(GRADE30_DQS_BLEND, (grade30_fn){.dqs_blend = nan_blend}, "nan");
    expect_wrong(GRADE30_CHECK_WEIGHTS, (grade30_fn){.check_weights = nan_passes}, NULL);
}

/* ---- the limits, through the child ----------------------------------------------------- */

static mat4 crashes(mat4 m)
{
    (void)m;
    raise(SIGSEGV);
    return mat4_identity();
}

static double loops(double w, double theta)
{
    volatile double x = w + theta;
    for (;;)
        x += 1;
    return x;
}

static double cancels_the_alarm_and_loops(double w, double theta)
{
    alarm(0);
    return loops(w, theta);
}

static double ignores_sigalrm_and_loops(double w, double theta)
{
    signal(SIGALRM, SIG_IGN);
    return loops(w, theta);
}

static double sleeps(double w, double theta)
{
    sleep(60);
    return w + theta;
}

static double forks_and_loops(double w, double theta)
{
    if (fork() == 0)
        loops(w, theta);
    double s = sin(theta / 2);
    return sqrt(fmax(0, 1 - 4 * w * (1 - w) * s * s));
}

static double fork_bomb(double w, double theta)
{
    for (;;)
        fork();
    return w + theta;
}

static double exits(double w, double theta)
{
    (void)w, (void)theta;
    exit(0);
}

static double seconds_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

static void expect_verdict(int x, grade30_fn f, grade30_verdict v, const char *words)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    grade30_result r;
    assert_int_equal(grade30_run(&grade30_table[x], f, SEED, &r, NULL), LAB_OK);
    double took = seconds_since(&t0);
    show(x, &r);
    printf("    (%.2f s)\n", took);
    assert_int_equal(r.verdict, v);
    assert_true(r.failed > 0 && r.failed_case[0]); /* the case it was in */
    if (words && !strstr(r.detail, words))
        fail_msg("expected \"%s\" in \"%s\"", words, r.detail);
    assert_true(took < grade30_seconds + 1.5);
}

static void test_grade30_limits_make_every_end_a_verdict(void **state)
{
    (void)state;
    double saved = grade30_seconds;
    grade30_seconds = 0.5;
    expect_verdict(GRADE30_NORMAL_MATRIX, (grade30_fn){.normal_matrix = crashes}, GRADE30_CRASHED, "SIGSEGV");
    expect_verdict(GRADE30_RING_RADIUS, (grade30_fn){.ring_radius_ratio = loops}, GRADE30_TOO_SLOW, "over 0.5 s");
    expect_verdict(GRADE30_RING_RADIUS, (grade30_fn){.ring_radius_ratio = cancels_the_alarm_and_loops},
                   GRADE30_TOO_SLOW, "too slow");
    expect_verdict(GRADE30_RING_RADIUS, (grade30_fn){.ring_radius_ratio = ignores_sigalrm_and_loops},
                   GRADE30_TOO_SLOW, "too slow");
    expect_verdict(GRADE30_RING_RADIUS, (grade30_fn){.ring_radius_ratio = sleeps}, GRADE30_TOO_SLOW, "too slow");
    expect_verdict(GRADE30_RING_RADIUS, (grade30_fn){.ring_radius_ratio = forks_and_loops}, GRADE30_WRONG,
                   "started a process");
    expect_verdict(GRADE30_RING_RADIUS, (grade30_fn){.ring_radius_ratio = fork_bomb}, GRADE30_TOO_SLOW, "too slow");
    expect_verdict(GRADE30_RING_RADIUS, (grade30_fn){.ring_radius_ratio = exits}, GRADE30_CRASHED, "exit status 0");
    /* the reference through the same child */
    for (int x = 0; x < GRADE30_EXERCISE_COUNT; x++) {
        grade30_result r;
        assert_int_equal(grade30_run(&grade30_table[x], grade30_table[x].sheet, SEED, &r, NULL), LAB_OK);
        assert_int_equal(r.verdict, GRADE30_CORRECT);
    }
    grade30_seconds = saved;
}

/* ---- the pages ------------------------------------------------------------------------- */

/* Every entry's heading is a heading of its page, and the page links the same anchor. */
static void test_grade30_every_verdict_points_to_a_heading(void **state)
{
    (void)state;
    for (int x = 0; x < GRADE30_EXERCISE_COUNT; x++) {
        const grade30_entry *e = &grade30_table[x];
        char *page = tu_read_file(e->page, NULL), heading[160];
        assert_non_null(page);
        snprintf(heading, sizeof heading, "\n### %s\n", e->heading);
        if (!strstr(page, heading))
            fail_msg("%s has no heading \"### %s\"", e->page, e->heading);
        free(page);
        char anchor[128];
        grade30_anchor(e->heading, anchor, sizeof anchor);
        char want[32];
        snprintf(want, sizeof want, "exercise-%d-", x + 1);
        assert_int_equal(strncmp(anchor, want, strlen(want)), 0);
    }
}

/* ---- make grade30 as a student runs it ------------------------------------------------- */

static int make_grade(const char *exercises, const char *dir, const char *log)
{
    char command[1024];
    snprintf(command, sizeof command, "make -s --no-print-directory " LAB_MAKE_VARIABLES " grade30 GRADE_DIR=%s%s%s",
             dir, exercises ? " EXERCISES=" : "", exercises ? exercises : "");
    char *argv[] = {"/bin/sh", "-c", command, NULL};
    return tu_run(argv, log, log);
}

static int count(const char *text, const char *what)
{
    int n = 0;
    for (const char *at = strstr(text, what); at; at = strstr(at + 1, what))
        n++;
    return n;
}

/* The reference with one body replaced, as a student's file, at path. */
static void sheet_with(char *path, size_t size, const char *dir, const char *name, const char *rename, const char *body)
{
    char *text = malloc(4096);
    assert_non_null(text);
    snprintf(path, size, "%s/%s", dir, name);
    snprintf(text, 4096, "#define %s reference_version\n#include \"%s/lab/ch30/grade/solutions/reference.c\"\n#undef %s\n%s",
             rename, getcwd((char[512]){0}, 512), rename, body);
    assert_true(tu_write_file(path, text));
    free(text);
}

static void test_grade30_make_grade30_as_a_student_runs_it(void **state)
{
    (void)state;
    char dir[64];
    assert_non_null(tu_make_temp_dir(dir, sizeof dir));
    char log[128], nan_sheet[128], past[128];
    snprintf(log, sizeof log, "%s/grade.log", dir);

    /* the shipped sheet: every exercise not written yet, the outputs written all the same */
    assert_int_not_equal(make_grade(NULL, dir, log), 0);
    char *text = tu_read_file(log, NULL);
    assert_non_null(text);
    assert_int_equal(count(text, ": not written yet"), GRADE30_EXERCISE_COUNT);
    assert_non_null(strstr(text, "0 of 7 exercises correct"));
    free(text);
    assert_int_equal(access(tu_path(dir, "grade30.png"), F_OK), 0);

    /* the reference: exit 0, every record passed */
    assert_int_equal(make_grade("lab/ch30/grade/solutions/reference.c", dir, log), 0);
    text = tu_read_file(log, NULL);
    assert_non_null(strstr(text, "7 of 7 exercises correct"));
    free(text);
    cJSON *records = tu_json_load(tu_path(dir, "grade30-checks.json"));
    assert_non_null(records);
    assert_near(tu_json_num(records, "checks_passed"), GRADE30_EXERCISE_COUNT, 0);
    cJSON_Delete(records);

    /* a second correct solution in other algebraic forms */
    assert_int_equal(make_grade("lab/ch30/grade/solutions/alternative.c", dir, log), 0);

    /* the page's worked example: its verdict and its picture, pixel for pixel */
    assert_int_not_equal(make_grade("lab/ch30/grade/solutions/example.c", dir, log), 0);
    text = tu_read_file(log, NULL);
    assert_non_null(strstr(text, "6 of 7 exercises correct"));
    assert_non_null(strstr(text, "the known mistake: a missing inverse bind"));
    free(text);
    records = tu_json_load(tu_path(dir, "grade30-checks.json"));
    assert_non_null(records);
    cJSON *second = cJSON_GetArrayItem(tu_json_get(records, "checks"), GRADE30_SKIN_MATRIX);
    assert_string_equal(cJSON_GetStringValue(tu_json_get(second, "verdict")), "FAIL");
    assert_near(tu_json_num(second, "computed"), 2, 0); /* the bind pose moved 2 up its axis */
    assert_near(tu_json_num(records, "checks_failed"), 1, 0);
    cJSON_Delete(records);
    if (!tu_same_pixels(tu_path(dir, "grade30-2.png"), "lab/ch30/grade/example.png"))
        fail_msg("%s differs from lab/ch30/grade/example.png: run make grade30 "
                 "EXERCISES=lab/ch30/grade/solutions/example.c and copy build/grade30/grade30-2.png there",
                 tu_path(dir, "grade30-2.png"));

    /* a warning is shown, not fatal; a NaN answer is a wrong answer, the records written */
    sheet_with(nan_sheet, sizeof nan_sheet, dir, "nan.c", "ex30_ring_radius_ratio",
               "double ex30_ring_radius_ratio(double w, double theta)\n"
               "{ int unused; (void)w, (void)theta; return NAN; }\n");
    assert_int_not_equal(make_grade(nan_sheet, dir, log), 0);
    text = tu_read_file(log, NULL);
    assert_non_null(strstr(text, "unused"));   /* the compiler's warning */
    assert_non_null(strstr(text, "computed: nan"));
    assert_non_null(strstr(text, "6 of 7 exercises correct"));
    assert_null(strstr(text, "does not compile"));
    free(text);
    records = tu_json_load(tu_path(dir, "grade30-checks.json"));
    assert_non_null(records);
    cJSON *fourth = cJSON_GetArrayItem(tu_json_get(records, "checks"), GRADE30_RING_RADIUS);
    assert_true(cJSON_IsNull(tu_json_get(fourth, "computed"))); /* NaN as null, never a stale file */
    assert_near(tu_json_num(records, "checks_failed"), 1, 0);
    cJSON_Delete(records);

    /* a read past the arrays: the sanitizer's verdict, with the array, the file and the line */
    sheet_with(past, sizeof past, dir, "past.c", "ex30_lbs_point",
                                  "vec3 ex30_lbs_point(vec3 p, const int *joint, const double *weight, int k,\n"
                                  "                    const mat4 *palette)\n"
                                  "{\n"
                                  "    vec4 sum = {0, 0, 0, 0};\n"
                                  "    for (int i = 0; i <= k; i++)\n"
                                  "        sum = vec4_add(sum, vec4_scale(mat4_mul_vec4(palette[joint[i] & 1], vec4_point(p)), weight[i]));\n"
                                  "    return vec3_make(sum.x, sum.y, sum.z);\n"
                                  "}\n");
    assert_int_not_equal(make_grade(past, dir, log), 0);
    text = tu_read_file(log, NULL);
    printf("%s", text);
    if (!strstr(text, "could not build")) { /* a compiler without the sanitizers says so instead */
        assert_non_null(strstr(text, "undefined behaviour"));
        /* the compiler may read weight[i] before joint[i]: either is named, at its line */
        assert_true(strstr(text, "reads joint[2], past the 2 influences") ||
                    strstr(text, "reads weight[2], past the 2 weights"));
        assert_non_null(strstr(text, "past.c:9")); /* the body's line 6, after the three lines above it */
    }
    free(text);

    /* a file that does not compile: the compiler's message, exit 2 */
    char bad[128];
    snprintf(bad, sizeof bad, "%s/broken.c", dir);
    assert_true(tu_write_file(bad, "#include \"exercises30.h\"\nmat4 ex30_world_matrix(mat4 a, mat4 b) { return a * b; }\n"));
    assert_int_equal(make_grade(bad, dir, log), 2);
    text = tu_read_file(log, NULL);
    assert_non_null(strstr(text, "error:"));
    assert_non_null(strstr(text, "does not compile"));
    free(text);
    tu_remove_tree(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grade30_the_reference_is_correct),
        cmocka_unit_test(test_grade30_names_every_known_mistake),
        cmocka_unit_test(test_grade30_the_generator_covers_what_the_page_says),
        cmocka_unit_test(test_grade30_unknown_history_nan_and_infinity_are_wrong),
        cmocka_unit_test(test_grade30_limits_make_every_end_a_verdict),
        cmocka_unit_test(test_grade30_every_verdict_points_to_a_heading),
        cmocka_unit_test(test_grade30_make_grade30_as_a_student_runs_it),
    };
    return cmocka_run_group_tests_name("the grader of chapter 30's exercises", tests, NULL, NULL);
}
