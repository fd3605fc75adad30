/* test_grade30_pictures.c - a wrong answer's picture: each exercise's lab function (the other
 * side of its picture) answers as the lab's own answers do, on every case; and for every
 * known mistake, the grader draws the exercise's pose only where the pose shows the mistake.
 * Whether it does is decided here apart from the grader's numbers: the pose drawn through the
 * mistake and through the reference solution, pixel by pixel. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_all.h"

#include "exercises30.h"
#include "grade30.h"

#define SEED 30

/* The lab's functions, called as a student's are: correct on every case, each twice. */
static void test_grade30_the_lab_functions_are_correct(void **state)
{
    (void)state;
    int checked = 0;
    for (int x = 0; x < GRADE30_EXERCISE_COUNT; x++) {
        const grade_exercise *e = grade30_exercises[x];
        if (!e->lab) {
            assert_int_equal(e->shape, GRADE_ELSEWHERE); /* only the shader has none */
            continue;
        }
        grade_result r;
        assert_int_equal(grade30_check(e, e->lab, SEED, &r), LAB_OK);
        if (r.verdict != GRADE_CORRECT) {
            grade30_print(x, &r, stdout);
            fail_msg("exercise %d: the lab's function is %s", x + 1, grade_verdict_name(r.verdict));
        }
        checked++;
    }
    printf("  %d lab functions, each correct on every case\n", checked);
}

/* The exercise's pose drawn through f into *out (the picture's data made here). */
static void pose_drawn(const grade_exercise *e, grade_fn f, const grade30_case *failing, canvas *out)
{
    grade30_picture_data *data = calloc(1, sizeof *data);
    assert_non_null(data);
    e->picture_points(f, failing, data);
    lab_diag d = {0};
    assert_int_equal(e->picture(data, out, &d), LAB_OK);
    free(data);
}

/* For every known mistake: the grader says the pose hides it exactly when the pose, drawn
 * through the mistake, is the reference's pixel for pixel. */
static void test_grade30_a_pose_that_hides_the_mistake_is_not_drawn(void **state)
{
    (void)state;
    int mistakes = 0, hidden = 0;
    grade30_case failing;
    for (int x = 0; x < GRADE30_EXERCISE_COUNT; x++) {
        const grade_exercise *e = grade30_exercises[x];
        for (int m = 0; m < e->mistake_count && e->picture_points; m++) {
            grade_result r;
            grade30_picture_data *picture = calloc(1, sizeof *picture);
            assert_non_null(picture);
            assert_int_equal(grade30_run(e, e->mistakes[m].fn, SEED, &r, picture, NULL), LAB_OK);
            assert_int_equal(r.verdict, GRADE_WRONG);
            free(picture);
            e->make_case(r.failed - 1, SEED, &failing);
            canvas yours = {0}, lab = {0};
            pose_drawn(e, e->mistakes[m].fn, &failing, &yours);
            pose_drawn(e, e->reference, &failing, &lab);
            bool same = yours.width == lab.width && yours.height == lab.height &&
                        memcmp(yours.rgb, lab.rgb, (size_t)yours.width * (size_t)yours.height * 3) == 0;
            if (same != r.pose_hides)
                fail_msg("exercise %d, \"%s\": the pose drawn through it is %s the reference's, but the grader %s",
                         x + 1, e->mistakes[m].name, same ? "pixel for pixel" : "not",
                         r.pose_hides ? "draws the failing case alone" : "draws the pose");
            canvas_free(&yours), canvas_free(&lab);
            mistakes++, hidden += same;
        }
    }
    printf("  %d known mistakes with a picture: %d hidden by their exercise's pose, so drawn as their failing case "
           "alone\n", mistakes, hidden);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grade30_the_lab_functions_are_correct),
        cmocka_unit_test(test_grade30_a_pose_that_hides_the_mistake_is_not_drawn),
    };
    return cmocka_run_group_tests_name("a wrong answer's picture", tests, NULL, NULL);
}
