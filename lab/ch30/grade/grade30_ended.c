/* grade30_ended.c - the verdict of a grading child that did not finish (grade30_grading.h),
 * in the engine's words (src/grade/ended.h) with the case it was in: too slow, out of
 * memory (the grader's error, not the student's verdict), undefined behaviour, or crashed. */
#include <stdio.h>
#include <string.h>

#include "grade/ended.h"

#include "grade30.h"
#include "grade30_grading.h"

double grade30_seconds = 2;
const char *grade30_sheet_paths[GRADE30_SHEET_COUNT] = {
    "lab/ch30/exercises.c", "lab/ch30/sheets/skeleton.c", "lab/ch30/sheets/dqs.c", "lab/ch30/sheets/normals.c",
    "lab/ch30/sheets/palette.c", "lab/ch30/sheets/weights.c", "lab/ch30/sheets/shader.glsl",
    "lab/ch30/sheets/fixes.c"};

void grade30_ended_verdict(const grade30_entry *x, uint64_t seed, const grade30_shared *s, const grade_end *end,
                           grade30_result *out)
{
    *out = (grade30_result){.mistake = -1, .failed = s->case_index + 1, .failed_pass = s->pass ? s->pass : 1};
    char how[400];
    const char *path = grade30_sheet_paths[grade30_sheet_of((int)(x - grade30_table))];
    grade_ending ending = grade_ended(&s->head, end, path, how, sizeof how);
    if (s->pass == 0) { /* no call under way: the sheet was being opened */
        out->failed = 0;
        out->verdict = ending == GRADE_ENDED_TOO_SLOW ? GRADE30_TOO_SLOW : GRADE30_CRASHED;
        snprintf(out->detail, sizeof out->detail,
                 "it ended before any call, while its sheet was opened: %.300s (a constructor in the sheet? code runs "
                 "only when the grader calls it)",
                 how);
        return;
    }
    grade30_case c;
    x->make_case(s->case_index, seed, &c);
    snprintf(out->failed_case, sizeof out->failed_case, "%s", c.what);
    switch (ending) {
    case GRADE_ENDED_TOO_SLOW:
        out->verdict = GRADE30_TOO_SLOW;
        snprintf(out->detail, sizeof out->detail,
                 "too slow: %.200s for the exercise's %d calls (a correct body takes microseconds a call); its process "
                 "group was killed",
                 how, 2 * (x->named + x->generated));
        break;
    case GRADE_ENDED_OUT_OF_MEMORY:
        out->verdict = GRADE30_CRASHED;
        snprintf(out->detail, sizeof out->detail, "%.200s inside the call: a formula needs no more than its arguments", how);
        break;
    case GRADE_ENDED_UNDEFINED:
        out->verdict = GRADE30_UNDEFINED;
        snprintf(out->detail, sizeof out->detail, "%s", how);
        break;
    case GRADE_ENDED_CRASHED:
        out->verdict = GRADE30_CRASHED;
        if (strncmp(how, "the process ended", 17) == 0)
            snprintf(out->detail, sizeof out->detail,
                     "crashed: %.200s inside the call: a formula returns its answer, it never ends the program", how);
        else
            snprintf(out->detail, sizeof out->detail, "crashed: %.300s", how);
        break;
    }
}
