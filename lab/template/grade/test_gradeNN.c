/* test_grade@NN@.c - chapter @NN@'s grader on the engine: the reference (solutions/
 * reference.c) graded correct, in this process and in the sandbox's child; each known
 * mistake in its place named; answers written here, apart from the mistakes, graded wrong;
 * the generated cases cover what the exercise's page says (every sign, the seams, beyond a
 * turn, heights off the plane). make grade@NN@ as a student runs it: tests/scaffold-check.sh. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cmocka_all.h"

#include "exercises@NN@.h"
#include "grade@NN@.h"

#define SEED 30

static void test_grade@NN@_the_reference_is_correct(void **state)
{
    (void)state;
    for (int x = 0; x < grade@NN@_chapter.exercise_count; x++) {
        const grade_exercise *e = grade@NN@_chapter.exercises[x];
        grade_result r;
        assert_true(grade_exercise_grade(e, e->reference, SEED, &r));
        grade_print(x, e, &r, stdout);
        assert_int_equal(r.verdict, GRADE_CORRECT);
        assert_int_equal(r.cases, e->named + e->generated);
        lab_diag d = {0};
        assert_int_equal(grade_exercise_run(&grade@NN@_chapter, x, (grade_code){e->reference, NULL}, "exercises.c", SEED, 2,
                                            &r, NULL, &d),
                         LAB_OK);
        assert_int_equal(r.verdict, GRADE_CORRECT);
    }
}

static void test_grade@NN@_names_every_known_mistake(void **state)
{
    (void)state;
    const grade_exercise *e = &grade@NN@_turn;
    for (int m = 0; m < e->mistake_count; m++) {
        grade_result r;
        assert_true(grade_exercise_grade(e, e->mistakes[m].fn, SEED, &r));
        grade_print(0, e, &r, stdout);
        assert_int_equal(r.verdict, GRADE_WRONG);
        assert_int_equal(r.mistake, m);
    }
}

/* Wrong answers written here: about the x axis, by half the angle, a turn that wraps theta
 * into [0, 2 pi) and then only handles quarter turns, a NaN. */
static vec3 about_x(vec3 p, double t) { return vec3_make(p.x, cos(t) * p.y - sin(t) * p.z, sin(t) * p.y + cos(t) * p.z); }
static vec3 half(vec3 p, double t) { return ex@NN@_turn(p, t / 2); }
static vec3 quarters(vec3 p, double t)
{
    int q = (int)lround(fmod(fmod(t, 2 * LAB_PI) + 2 * LAB_PI, 2 * LAB_PI) / (LAB_PI / 2)) % 4;
    return ex@NN@_turn(p, q * LAB_PI / 2);
}
static vec3 nan_answer(vec3 p, double t)
{
    (void)t;
    return vec3_make(p.x, NAN, p.z);
}

static void test_grade@NN@_wrong_answers_are_wrong(void **state)
{
    (void)state;
    const grade_fn wrong[] = {(grade_fn)about_x, (grade_fn)half, (grade_fn)quarters, (grade_fn)nan_answer};
    for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++) {
        grade_result r;
        assert_true(grade_exercise_grade(&grade@NN@_turn, wrong[i], SEED, &r));
        grade_print(0, &grade@NN@_turn, &r, stdout);
        assert_int_equal(r.verdict, GRADE_WRONG);
    }
}

static void test_grade@NN@_the_generator_covers_the_domain(void **state)
{
    (void)state;
    const grade_exercise *e = &grade@NN@_turn;
    int negative = 0, beyond = 0, seams = 0, small = 0, lifted = 0;
    grade_case c;
    for (int i = e->named; i < e->named + e->generated; i++) {
        e->make_case(i, SEED, &c);
        negative += c.theta < 0;
        beyond += fabs(c.theta) > 2 * LAB_PI;
        seams += fabs(remainder(c.theta, LAB_PI / 2)) < 1e-12;
        small += fabs(c.theta) < 0.1 && c.theta != 0;
        lifted += fabs(c.p.z) > 0.5;
    }
    printf("  %d generated: %d negative, %d beyond a turn, %d on a seam, %d small, %d off the plane\n", e->generated,
           negative, beyond, seams, small, lifted);
    assert_true(negative > 40 && beyond > 20 && seams > 40 && small > 40 && lifted > 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grade@NN@_the_reference_is_correct),
        cmocka_unit_test(test_grade@NN@_names_every_known_mistake),
        cmocka_unit_test(test_grade@NN@_wrong_answers_are_wrong),
        cmocka_unit_test(test_grade@NN@_the_generator_covers_the_domain),
    };
    return cmocka_run_group_tests_name("chapter @NN@'s grader", tests, NULL, NULL);
}
