/* test_grade30.c - the grader of chapter 30's exercises: the reference solution is correct
 * on every exercise; the shipped exercises file is "not written yet" on every one; each
 * known mistake, put in place of the reference's function, is found wrong and named; a
 * crash and an endless loop are that exercise's verdict; make grade30 on the shipped file,
 * on the reference and on a file that does not compile exits as the grader's page says. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_all.h"
#include "testutil.h"

#include "exercises30.h"
#include "grade30.h"

/* reference.c's functions are the ex30_* this test links; mistakes.c's are these */
mat4 mistake_l_g(mat4, mat4);
mat4 mistake_binv_g(mat4, mat4);
mat4 mistake_no_inverse_bind(mat4, mat4);
vec3 mistake_weights_not_applied(vec3, const int *, const double *, int, const mat4 *);
vec3 mistake_weights_twice(vec3, const int *, const double *, int, const mat4 *);
vec3 mistake_weights_swapped(vec3, const int *, const double *, int, const mat4 *);
vec3 mistake_divides_by_w(vec3, const int *, const double *, int, const mat4 *);
double mistake_sin_not_squared(double, double);
double mistake_full_angle(double, double);
double mistake_degrees(double, double);
ex30_weights mistake_normalises(const double *, int);
dualquat mistake_no_hemisphere(const dualquat *, const double *, int);
mat4 mistake_transpose(mat4);

static const grade30_exercises reference = {ex30_world_matrix, ex30_skin_matrix, ex30_lbs_point,
                                            ex30_ring_radius_ratio, ex30_check_weights, ex30_dqs_blend,
                                            ex30_normal_matrix};

static void test_grade30_the_reference_is_correct(void **state)
{
    (void)state;
    for (int x = 0; x < GRADE30_EXERCISE_COUNT; x++) {
        grade30_result r;
        grade30_check(&reference, (grade30_exercise)x, &r);
        if (r.verdict != GRADE30_CORRECT)
            grade30_print((grade30_exercise)x, &r, stderr);
        assert_int_equal(r.verdict, GRADE30_CORRECT);
        assert_true(r.cases >= 2);
    }
}

/* The reference with one function replaced: the grader must find that exercise wrong and
 * name the mistake (a fragment of the name given), and every other exercise correct. */
static void expect_diagnosis(grade30_exercises ex, grade30_exercise x, const char *mistake)
{
    for (int i = 0; i < GRADE30_EXERCISE_COUNT; i++) {
        grade30_result r;
        grade30_check(&ex, (grade30_exercise)i, &r);
        if (i != (int)x) {
            assert_int_equal(r.verdict, GRADE30_CORRECT);
            continue;
        }
        grade30_print(x, &r, stdout);
        if (r.verdict != GRADE30_WRONG)
            fail_msg("%s: \"%s\" graded %s, not wrong", grade30_name(x), mistake, grade30_verdict_name(r.verdict));
        if (!r.mistake || !strstr(r.mistake, mistake))
            fail_msg("%s: expected the mistake \"%s\", the grader named %s", grade30_name(x), mistake,
                     r.mistake ? r.mistake : "none");
        assert_true(r.failed_case[0] && r.computed[0] && r.expected[0]);
    }
}

/* Each known mistake: which exercise, the mistaken function in place of the reference's,
 * and the words of the diagnosis the grader must give. */
typedef struct {
    grade30_exercise exercise;
    void (*put)(grade30_exercises *ex);
    const char *diagnosis;
    const char *test_name;
} known_mistake;

static void put_l_g(grade30_exercises *ex) { ex->world_matrix = mistake_l_g; }
static void put_binv_g(grade30_exercises *ex) { ex->skin_matrix = mistake_binv_g; }
static void put_no_inverse_bind(grade30_exercises *ex) { ex->skin_matrix = mistake_no_inverse_bind; }
static void put_not_applied(grade30_exercises *ex) { ex->lbs_point = mistake_weights_not_applied; }
static void put_twice(grade30_exercises *ex) { ex->lbs_point = mistake_weights_twice; }
static void put_divides(grade30_exercises *ex) { ex->lbs_point = mistake_divides_by_w; }
static void put_swapped(grade30_exercises *ex) { ex->lbs_point = mistake_weights_swapped; }
static void put_sin(grade30_exercises *ex) { ex->ring_radius_ratio = mistake_sin_not_squared; }
static void put_full_angle(grade30_exercises *ex) { ex->ring_radius_ratio = mistake_full_angle; }
static void put_degrees(grade30_exercises *ex) { ex->ring_radius_ratio = mistake_degrees; }
static void put_normalises(grade30_exercises *ex) { ex->check_weights = mistake_normalises; }
static void put_no_hemisphere(grade30_exercises *ex) { ex->dqs_blend = mistake_no_hemisphere; }
static void put_transpose(grade30_exercises *ex) { ex->normal_matrix = mistake_transpose; }

static const known_mistake mistakes[] = {
    {GRADE30_WORLD_MATRIX, put_l_g, "L G for G L", "test_grade30_names_l_g"},
    {GRADE30_SKIN_MATRIX, put_binv_g, "B^-1 G for G B^-1", "test_grade30_names_binv_g"},
    {GRADE30_SKIN_MATRIX, put_no_inverse_bind, "a missing inverse bind", "test_grade30_names_no_inverse_bind"},
    {GRADE30_LBS_POINT, put_not_applied, "weights not applied", "test_grade30_names_weights_not_applied"},
    {GRADE30_LBS_POINT, put_twice, "weights applied twice", "test_grade30_names_weights_applied_twice"},
    {GRADE30_LBS_POINT, put_divides, "a homogeneous w divided although it is not 1", "test_grade30_names_w_divided"},
    {GRADE30_LBS_POINT, put_swapped, "w0 and w1 swapped", "test_grade30_names_w0_w1_swapped"},
    {GRADE30_RING_RADIUS, put_sin, "sin for sin^2", "test_grade30_names_sin_for_sin2"},
    {GRADE30_RING_RADIUS, put_full_angle, "theta for theta/2", "test_grade30_names_theta_for_half_theta"},
    {GRADE30_RING_RADIUS, put_degrees, "degrees for radians", "test_grade30_names_degrees_for_radians"},
    {GRADE30_CHECK_WEIGHTS, put_normalises, "weights silently normalised", "test_grade30_names_weights_normalised"},
    {GRADE30_DQS_BLEND, put_no_hemisphere, "a missing hemisphere flip", "test_grade30_names_no_hemisphere_flip"},
    {GRADE30_NORMAL_MATRIX, put_transpose, "the transpose for the inverse transpose", "test_grade30_names_transpose_for_inverse_transpose"},
};

/* One known mistake (the test's state): the reference with that function replaced. */
static void test_grade30_names_the_mistake(void **state)
{
    const known_mistake *k = *state;
    grade30_exercises ex = reference;
    k->put(&ex);
    expect_diagnosis(ex, k->exercise, k->diagnosis);
}

/* A wrong answer that is no known mistake is wrong, with no name. */
static mat4 some_other_matrix(mat4 a, mat4 b)
{
    (void)a, (void)b;
    return mat4_scale(2, 2, 2);
}

static void test_grade30_an_unknown_mistake_is_wrong_without_a_name(void **state)
{
    (void)state;
    grade30_exercises ex = reference;
    ex.skin_matrix = some_other_matrix;
    grade30_result r;
    grade30_check(&ex, GRADE30_SKIN_MATRIX, &r);
    assert_int_equal(r.verdict, GRADE30_WRONG);
    assert_null(r.mistake);
    assert_int_equal(r.cases, 1); /* the first case failed */
}

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

static void test_grade30_a_crash_or_an_endless_loop_is_the_exercise_s_verdict(void **state)
{
    (void)state;
    grade30_exercises ex = reference;
    ex.normal_matrix = crashes;
    ex.ring_radius_ratio = loops;
    grade30_seconds = 1;
    grade30_result r;
    assert_int_equal(grade30_run(&ex, GRADE30_NORMAL_MATRIX, &r, NULL), LAB_OK);
    assert_int_equal(r.verdict, GRADE30_CRASHED);
    assert_non_null(strstr(r.failed_case, "signal 11"));
    assert_int_equal(grade30_run(&ex, GRADE30_RING_RADIUS, &r, NULL), LAB_OK);
    assert_int_equal(r.verdict, GRADE30_CRASHED);
    printf("  an endless loop: %s\n", r.failed_case);
    assert_non_null(strstr(r.failed_case, "signal 14"));
    assert_int_equal(grade30_run(&ex, GRADE30_LBS_POINT, &r, NULL), LAB_OK);
    assert_int_equal(r.verdict, GRADE30_CORRECT);
}

/* make grade30 as a student runs it: the shipped file (every exercise not written yet,
 * exit non-zero), the reference (exit 0, every exercise correct, the figure written), the
 * page's worked example (its verdict and its picture), and a file that does not compile
 * (the compiler's message, exit 2). */
static int make_grade(const char *exercises, const char *dir, const char *log)
{
    char command[1024];
    snprintf(command, sizeof command, "make -s --no-print-directory " LAB_MAKE_VARIABLES " grade30 GRADE_DIR=%s%s%s",
             dir, exercises ? " EXERCISES=" : "", exercises ? exercises : "");
    char *argv[] = {"/bin/sh", "-c", command, NULL};
    return tu_run(argv, log, log);
}

static void test_grade30_make_grade30_on_four_files(void **state)
{
    (void)state;
    char dir[64];
    assert_non_null(tu_make_temp_dir(dir, sizeof dir));
    const char *log = tu_path(dir, "grade.log");
    assert_int_not_equal(make_grade(NULL, dir, log), 0);
    char *text = tu_read_file(log, NULL);
    assert_non_null(text);
    int unwritten = 0;
    for (const char *at = strstr(text, ": not written yet"); at; at = strstr(at + 1, ": not written yet"))
        unwritten++;
    assert_int_equal(unwritten, GRADE30_EXERCISE_COUNT);
    free(text);

    assert_int_equal(make_grade("lab/ch30/grade/reference.c", dir, log), 0);
    text = tu_read_file(log, NULL);
    assert_non_null(strstr(text, "7 of 7 exercises correct"));
    free(text);
    /* the verdicts as records, in the programs' format: one an exercise, every one ok */
    cJSON *records = tu_json_load(tu_path(dir, "grade30-checks.json"));
    assert_non_null(records);
    assert_near(tu_json_num(records, "checks_passed"), GRADE30_EXERCISE_COUNT, 0);
    assert_near(tu_json_num(records, "checks_failed"), 0, 0);
    cJSON_Delete(records);

    /* the page's worked example: its verdict and its picture, pixel for pixel */
    assert_int_not_equal(make_grade("lab/ch30/grade/example.c", dir, log), 0);
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
    const char *picture = tu_path(dir, "grade30.png");
    if (!tu_same_pixels(picture, "lab/ch30/grade/example.png"))
        fail_msg("%s differs from lab/ch30/grade/example.png: run make grade30 EXERCISES=lab/ch30/grade/example.c "
                 "and copy it there", picture);

    char bad[128];
    snprintf(bad, sizeof bad, "%s/broken.c", dir);
    assert_true(tu_write_file(bad, "#include \"exercises30.h\"\nmat4 ex30_world_matrix(mat4 a, mat4 b) { return a * b; }\n"));
    assert_int_equal(make_grade(bad, dir, log), 2);
    text = tu_read_file(log, NULL);
    assert_non_null(strstr(text, "error:"));         /* the compiler's own message */
    assert_non_null(strstr(text, "does not compile")); /* and the grader's line */
    free(text);
    tu_remove_tree(dir);
}

int main(void)
{
    _Static_assert(sizeof mistakes / sizeof mistakes[0] == 13, "one test per known mistake");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grade30_the_reference_is_correct),
#define MISTAKE(i) {mistakes[i].test_name, test_grade30_names_the_mistake, NULL, NULL, (void *)&mistakes[i]}
        MISTAKE(0), MISTAKE(1), MISTAKE(2), MISTAKE(3), MISTAKE(4), MISTAKE(5), MISTAKE(6),
        MISTAKE(7), MISTAKE(8), MISTAKE(9), MISTAKE(10), MISTAKE(11), MISTAKE(12),
        cmocka_unit_test(test_grade30_an_unknown_mistake_is_wrong_without_a_name),
        cmocka_unit_test(test_grade30_a_crash_or_an_endless_loop_is_the_exercise_s_verdict),
        cmocka_unit_test(test_grade30_make_grade30_on_four_files),
    };
    return cmocka_run_group_tests_name("the grader of chapter 30's exercises", tests, NULL, NULL);
}
