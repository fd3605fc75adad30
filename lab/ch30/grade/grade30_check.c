/* grade30_check.c - what the chapter adds to the engine's grading (src/grade/exercise.h,
 * src/grade/grader.h) for the suites that hand it a function (grade30.h): an exercise in
 * the engine's limited child, in process, and printed. */
#include <stdio.h>

#include "grade/grader.h"

#include "grade30.h"

double grade30_seconds = 2;

lab_error grade30_run(const grade30_entry *x, grade_fn f, uint64_t seed, grade_result *out,
                      grade30_picture_data *picture, lab_diag *d)
{
    int at = 0; /* x's place on the list, which the engine's child goes by */
    while (at < GRADE30_EXERCISE_COUNT && grade30_exercises[at] != x)
        at++;
    if (at == GRADE30_EXERCISE_COUNT)
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "grade30_run", "the exercise is not on GRADE30_LIST");
    return grade_exercise_run(&grade30_chapter, at, (grade_code){f, NULL}, grade30_sheets[x->sheet].file, seed,
                              grade30_seconds, out, picture, d);
}

lab_error grade30_check(const grade30_entry *x, grade_fn f, uint64_t seed, grade_result *out)
{
    return grade_exercise_grade(x, f, seed, out) ? LAB_OK : LAB_ERR_OUT_OF_MEMORY;
}

void grade30_print(int x, const grade_result *r, FILE *out) { grade_print(x, grade30_exercises[x], r, out); }
