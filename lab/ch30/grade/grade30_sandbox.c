/* grade30_sandbox.c - an exercise of the chapter graded in the engine's limited child
 * (src/grade/grader.h), for the suites that hand it a function (grade30.h). */
#include "grade/grader.h"

#include "grade30.h"

double grade30_seconds = 2;

lab_error grade30_run(const grade30_entry *x, grade_fn f, uint64_t seed, grade_result *out,
                      grade30_picture_data *picture, lab_diag *d)
{
    int i = (int)(x - grade30_table);
    return grade_exercise_run(&grade30_chapter, i, (grade_code){f, NULL}, grade30_sheets[x->sheet].file, seed,
                              grade30_seconds, out, picture, d);
}
