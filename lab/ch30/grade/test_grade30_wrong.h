/* test_grade30_wrong.h - what the suites of wrong answers share (test_grade30_sheets.c,
 * test_grade30_sheets_weights.c): each answer, written in the suite apart from the exercises' own
 * mistakes and from the solutions, must be graded wrong on the generated cases of SEED. */
#ifndef TEST_GRADE30_WRONG_H
#define TEST_GRADE30_WRONG_H

#include <stdio.h>

#include "cmocka_all.h"
#include "grade30.h"

#define SEED 30

typedef struct {
    int x; /* the exercise, grade30_exercise */
    grade_fn f;
    const char *what;
} wrong_answer;

/* Grades each answer; fails on the first not graded wrong, printing its verdict. */
static inline void expect_all_wrong(const wrong_answer *wrong, int n, const char *which)
{
    for (int i = 0; i < n; i++) {
        grade_result r;
        assert_int_equal(grade30_check(grade30_exercises[wrong[i].x], wrong[i].f, SEED, &r), LAB_OK);
        if (r.verdict != GRADE_WRONG) {
            grade30_print(wrong[i].x, &r, stdout);
            fail_msg("exercise %d, \"%s\": graded %s", wrong[i].x + 1, wrong[i].what, grade_verdict_name(r.verdict));
        }
    }
    printf("  %d wrong answers to %s written apart from the table, each graded wrong\n", n, which);
}

#endif
