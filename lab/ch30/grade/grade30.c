/* grade30.c - the grader's main: make grade30 links a student's exercises file (by default
 * lab/ch30/exercises.c; EXERCISES=path for another) into build/grade30/grade30 and runs it
 * as `grade30 build/grade30` (lab/ch30/grade/README.md).
 *
 * It prints one verdict per exercise, then draws the student's skinned cylinder beside the
 * lab's into OUTDIR/grade30.png. Exit codes: 0 every exercise correct; 1 an exercise not
 * written yet, wrong or crashed; 2 usage; 3 OUTDIR or a write failed, or out of memory.
 * (A file that does not compile never gets here: make grade30 prints the compiler's
 * message and exits 2.)
 */
#include <math.h>
#include <stdio.h>

#include "base/diag.h"
#include "base/report.h"
#include "program/cli.h"

#include "exercises30.h"
#include "grade30.h"

#define LAB "grade30"

int main(int argc, char **argv)
{
    static double theta = 180;
    static const cli_option options[] = {
        {"--theta", CLI_DOUBLES, &theta, .min = -3600, .max = 3600, .value_name = "DEG",
         .help = "the twist of the figure's two panels in degrees (default 180)"},
    };
    const cli_program program = {LAB, "Grades chapter 30's exercises (lab/ch30/exercises.c).", options,
                                 CLI_COUNT(options), {"OUTDIR"}, 1, NULL};
    const char *args[CLI_MAX_POSITIONAL];
    int code = cli_start(&program, argc, argv, args);
    if (code != CLI_RUN)
        return code;
    static const grade30_exercises student = {ex30_world_matrix, ex30_skin_matrix, ex30_lbs_point,
                                              ex30_ring_radius_ratio, ex30_check_weights, ex30_dqs_blend,
                                              ex30_normal_matrix};
    int correct = 0;
    lab_diag d = {0};
    /* the verdicts as records, one an exercise: the first failing case's difference against
     * its tolerance (0 when correct; none when not written or crashed) */
    report_checks checks = {0};
    report_collect(&checks);
    for (int x = 0; x < GRADE30_EXERCISE_COUNT; x++) {
        grade30_result r;
        lab_error e = grade30_run(&student, (grade30_exercise)x, &r, &d);
        if (e != LAB_OK) {
            report_collect(NULL);
            report_checks_free(&checks);
            return cli_fail(LAB, &d, cli_exit_code(e));
        }
        grade30_print((grade30_exercise)x, &r, stdout);
        correct += r.verdict == GRADE30_CORRECT;
        char what[480];
        snprintf(what, sizeof what, "%s: %s%s%s", grade30_name((grade30_exercise)x), grade30_verdict_name(r.verdict),
                 r.verdict == GRADE30_WRONG ? ", case: " : "", r.verdict == GRADE30_WRONG ? r.failed_case : "");
        report_section(grade30_section((grade30_exercise)x));
        report_record(what, REPORT_COMPARE, r.verdict == GRADE30_CORRECT ? 0 : r.verdict == GRADE30_WRONG ? r.difference : NAN,
                      0, r.tolerance, r.verdict == GRADE30_CORRECT);
    }
    report_collect(NULL);
    lab_error e = grade30_figure(&student, theta, &checks, args[0], &d);
    report_checks_free(&checks);
    if (e != LAB_OK)
        return cli_fail(LAB, &d, cli_exit_code(e));
    printf("\n%d of %d exercises correct; your skinning beside the lab's: %s/grade30.png\n", correct,
           GRADE30_EXERCISE_COUNT, args[0]);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        d = (lab_diag){0};
        diag_fail(&d, LAB_ERR_OUTPUT, "standard output", "the verdicts could not be written");
        return cli_fail(LAB, &d, 3);
    }
    return correct == GRADE30_EXERCISE_COUNT ? 0 : 1;
}
