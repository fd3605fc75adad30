/* grade30_check.c - what the chapter adds to the engine's grading (src/grade/exercise.h):
 * the suites' in-process grading and printing, exercise 4's second rule and exercise 5's
 * names (grade30.h). */
#include <math.h>
#include <stdio.h>

#include "grade30.h"

lab_error grade30_check(const grade30_entry *x, grade_fn f, uint64_t seed, grade_result *out)
{
    return grade_exercise_grade(x, f, seed, out, NULL, NULL) ? LAB_OK : LAB_ERR_OUT_OF_MEMORY;
}

void grade30_print(int x, const grade_result *r, FILE *out) { grade_print(x, &grade30_table[x], r, out); }

bool grade30_radius_square_within(const grade_answer *got, const grade_answer *want)
{
    double g = got->v[0], w = want->v[0];
    return got->n == 1 && want->n == 1 && g >= 0 && fabs(g * g - w * w) <= 4e-15;
}

const char *grade30_rule_name(int value)
{
    switch ((ex30_weights)value) {
    case EX30_WEIGHTS_VALID: return "EX30_WEIGHTS_VALID";
    case EX30_WEIGHTS_NEGATIVE: return "EX30_WEIGHTS_NEGATIVE";
    case EX30_WEIGHTS_NOT_SUMMING_TO_ONE: return "EX30_WEIGHTS_NOT_SUMMING_TO_ONE";
    case EX30_WEIGHTS_NOT_FINITE: return "EX30_WEIGHTS_NOT_FINITE";
    }
    return "(not an ex30_weights value)";
}
