/* grade30.c - the grader's main: make grade30 links a student's exercises file (by default
 * lab/ch30/exercises.c; EXERCISES=path for another) into build/grade30/grade30 and runs it
 * as `grade30 --sheet FILE build/grade30` (lab/ch30/grade/README.md).
 *
 * It first removes its previous outputs from OUTDIR (those its manifest lists), so that
 * nothing stale can look current; then grades each exercise of the table in a limited
 * child and prints its verdict; then draws each exercise's picture; then writes the
 * pictures and the verdicts as records, all or nothing, and prints the summary last.
 * Exit codes: 0 every exercise correct; 1 an exercise not written yet, wrong, crashed, too
 * slow or undefined; 2 usage; 3 OUTDIR or a write failed, or out of memory.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/diag.h"
#include "base/report.h"
#include "draw/figure.h"
#include "program/cli.h"
#include "program/manifest.h"
#include "program/output.h"

#include "grade30.h"
#include "grade30_table.h"

#define LAB "grade30"

/* The previous run's outputs, removed before anything is graded. */
static lab_error remove_previous(const char *dir, lab_diag *d)
{
    output_batch none = {0};
    lab_error e = manifest_prepare(&none, dir, LAB, d);
    if (e == LAB_OK)
        e = output_batch_commit(&none, dir, d);
    output_batch_free(&none);
    return e;
}

/* One exercise's picture: the student's points from a limited child (none where the
 * exercise is not written or was too slow), drawn beside the lab's. */
static lab_error picture(int x, const grade30_result *r, canvas *out, lab_diag *d)
{
    const grade30_entry *e = &grade30_table[x];
    grade30_picture_data yours = {0};
    if (r->verdict == GRADE30_NOT_WRITTEN || !e->picture) { /* an exercise may come without a picture */
        lab_error err = canvas_init(out, GRADE30_PICTURE_W, GRADE30_PICTURE_H, FIGURE_BACKGROUND, d);
        char title[96];
        snprintf(title, sizeof title, "%d. %s", x + 1, e->picture ? "not written yet" : "(no picture)");
        if (err == LAB_OK)
            figure_draw_label(out, 0, title);
        return err;
    }
    if (r->verdict != GRADE30_TOO_SLOW) {
        lab_error err = grade30_picture_points(e, e->sheet, &yours, d);
        if (err != LAB_OK)
            return err;
    }
    return e->picture(&yours, out, d);
}

int main(int argc, char **argv)
{
    static int seed = 30;
    static double seconds = 2;
    static const char *sheet = "lab/ch30/exercises.c";
    static const cli_option options[] = {
        {"--seed", CLI_INT, &seed, .min = 0, .max = 2147483647, .value_name = "N",
         .help = "the generator's seed for the generated cases (default 30)"},
        {"--seconds", CLI_DOUBLES, &seconds, .min = 0.1, .max = 600, .value_name = "S",
         .help = "wall-clock seconds for each exercise's calls, all its cases twice (default 2)"},
        {"--sheet", CLI_STRING, &sheet, .value_name = "FILE",
         .help = "the exercises file graded, as its sanitizer reports name it (make grade30 sets it)"},
    };
    const cli_program program = {LAB, "Grades chapter 30's exercises (lab/ch30/exercises.c).", options,
                                 CLI_COUNT(options), {"OUTDIR"}, 1, NULL};
    const char *args[CLI_MAX_POSITIONAL];
    int code = cli_start(&program, argc, argv, args);
    if (code != CLI_RUN)
        return code;
    grade30_seconds = seconds;
    grade30_sheet_path = sheet;
    lab_diag d = {0};
    lab_error e = remove_previous(args[0], &d);
    if (e != LAB_OK)
        return cli_fail(LAB, &d, cli_exit_code(e));

    /* the verdicts, each as a record: the first failing case's difference against its
     * tolerance (0 when correct; null when not written, crashed, too slow or not finite) */
    report_checks checks = {0};
    grade30_result results[GRADE30_EXERCISE_COUNT];
    int correct = 0;
    for (int x = 0; x < GRADE30_EXERCISE_COUNT && e == LAB_OK; x++) {
        const grade30_entry *entry = &grade30_table[x];
        grade30_result *r = &results[x];
        e = grade30_run(entry, entry->sheet, (uint64_t)seed, r, &d);
        if (e != LAB_OK)
            break;
        grade30_print(x, r, stdout);
        correct += r->verdict == GRADE30_CORRECT;
        char what[480], section[160];
        snprintf(what, sizeof what, "%d. %s: %s%s%.300s", x + 1, entry->title, grade30_verdict_name(r->verdict),
                 r->failed ? ", case: " : "", r->failed ? r->failed_case : "");
        grade30_anchor(entry->heading, section, sizeof section);
        char where[200];
        snprintf(where, sizeof where, "%s#%s", entry->page, section);
        double diff = r->verdict == GRADE30_CORRECT ? 0 : r->verdict == GRADE30_WRONG ? r->difference : NAN;
        report_checks one = {0}; /* the exercise's verdict, under its heading's link */
        check_add(&one, what, REPORT_COMPARE, isfinite(diff) ? diff : NAN, 0, entry->tolerance,
                  r->verdict == GRADE30_CORRECT);
        checks_append(&checks, &one, where);
        report_checks_free(&one);
    }

    /* the pictures, one an exercise, and all of them in one figure */
    canvas panels[GRADE30_EXERCISE_COUNT] = {{0}}, figure = {0};
    output_name names[GRADE30_EXERCISE_COUNT];
    for (int x = 0; x < GRADE30_EXERCISE_COUNT && e == LAB_OK; x++) {
        snprintf(names[x], sizeof names[x], "grade30-%d.png", x + 1);
        e = picture(x, &results[x], &panels[x], &d);
    }
    char title[96];
    snprintf(title, sizeof title, "grade30: %d of %d correct; green the lab's, red yours", correct,
             GRADE30_EXERCISE_COUNT);
    if (e == LAB_OK)
        e = figure_compose_grid(&figure, panels, GRADE30_EXERCISE_COUNT, 4, 10, title, &d);
    output_batch out = {0};
    e = output_batch_add_figure(&out, e, "grade30.png", &figure, panels, names, GRADE30_EXERCISE_COUNT, &d);
    if (e == LAB_OK)
        e = cli_add_checks(LAB, &checks, &out, &d);
    if (e == LAB_OK)
        e = manifest_prepare(&out, args[0], LAB, &d);
    if (e == LAB_OK)
        e = output_batch_commit(&out, args[0], &d);
    output_batch_free(&out);
    report_checks_free(&checks);
    if (e != LAB_OK)
        return cli_fail(LAB, &d, cli_exit_code(e));
    printf("\n%d of %d exercises correct (generated cases of seed %d; each exercise within %g s)\n"
           "pictures: %s/grade30.png (each alone: grade30-N.png); verdicts as records: %s/grade30-checks.json\n",
           correct, GRADE30_EXERCISE_COUNT, seed, seconds, args[0], args[0]);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        d = (lab_diag){0};
        diag_fail(&d, LAB_ERR_OUTPUT, "standard output", "the verdicts could not be written");
        return cli_fail(LAB, &d, 3);
    }
    return correct == GRADE30_EXERCISE_COUNT ? 0 : 1;
}
