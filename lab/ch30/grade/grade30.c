/* grade30.c - the grader's main: make grade30 links the student's sheets (lab/ch30/exercises.c
 * and lab/ch30/sheets/NAME.c; SHEET=name grades one, EXERCISES=path grades another file as
 * that sheet) into build/grade30/grade30 and runs it as
 * `grade30 [--only NAME] [--sheet FILE] build/grade30` (lab/ch30/grade/README.md). The
 * shader sheet, shader.glsl, is read when it is graded.
 *
 * It first removes its previous outputs from OUTDIR (those its manifest lists), so that
 * nothing stale can look current; then grades each exercise of the sheets asked for in a
 * limited child and prints its verdict; then draws each exercise's picture; then writes the
 * pictures and the verdicts as records, all or nothing, and prints the summary last, a line
 * a sheet. Exit codes: 0 every exercise graded correct; 1 an exercise not written yet,
 * wrong, crashed, too slow, undefined or not graded here; 2 usage; 3 OUTDIR or a write
 * failed, or out of memory.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/diag.h"
#include "base/report.h"
#include "draw/figure.h"
#include "grade/build.h"
#include "program/cli.h"
#include "program/manifest.h"
#include "program/output.h"

#include "grade30.h"
#include "grade30_table.h"

#define LAB "grade30"

/* The grader is built with the sanitizers for the student's sheets' sake (a read past an
 * array is a verdict); its own leaks are its suites' business, whose ASAN_OPTIONS come
 * first, so a student's run spends no time scanning for them at each child's end. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "detect_leaks=0"; }

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

/* A panel that only says why there is no picture. */
static lab_error no_picture(int x, const char *why, canvas *out, lab_diag *d)
{
    lab_error err = canvas_init(out, GRADE30_PICTURE_W, GRADE30_PICTURE_H, FIGURE_BACKGROUND, d);
    char title[96];
    snprintf(title, sizeof title, "%d. %s", x + 1, why);
    if (err == LAB_OK)
        figure_draw_label(out, 0, title);
    return err;
}

/* One exercise's picture: the student's points (made in the grading child after the
 * verdict; none where the exercise is not written or its child did not finish them), drawn
 * beside the lab's. */
static lab_error picture(int x, const grade30_result *r, const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    const grade30_entry *e = &grade30_table[x];
    if (r->verdict == GRADE30_NOT_WRITTEN || r->verdict == GRADE30_DOES_NOT_COMPILE)
        return no_picture(x, grade30_verdict_name(r->verdict), out, d);
    return e->kind == GRADE30_GLSL ? grade30_draw_shader(yours, out, d) : e->picture(yours, out, d);
}

/* The verdict as a record, under its heading's link: the first failing case's difference
 * against its tolerance (0 when correct; null when not written, crashed, too slow, not
 * graded, or its answer was not finite). */
static void record(int x, const grade30_result *r, report_checks *checks)
{
    const grade30_entry *entry = &grade30_table[x];
    char what[480], section[160], where[200];
    snprintf(what, sizeof what, "%d. %s: %s%s%.300s", x + 1, entry->title, grade30_verdict_name(r->verdict),
             r->failed ? ", case: " : "", r->failed ? r->failed_case : "");
    grade30_anchor(entry->heading, section, sizeof section);
    snprintf(where, sizeof where, "%s#%s", entry->page, section);
    double diff = r->verdict == GRADE30_CORRECT ? 0 : r->verdict == GRADE30_WRONG ? r->difference : NAN;
    report_checks one = {0};
    check_add(&one, what, REPORT_COMPARE, isfinite(diff) ? diff : NAN, 0, entry->tolerance, r->verdict == GRADE30_CORRECT);
    checks_append(checks, &one, where);
    report_checks_free(&one);
}

/* The headers a sheet includes: their bytes name its object with its own (src/grade/build.h). */
static const char *const sheet_headers[] = {"lab/ch30/exercises30.h", "src/math/linalg.h", "src/math/quat.h",
                                            "src/math/dualquat.h", NULL};

/* Sheet s compiled on its own into a shared object under OUTDIR/obj (its warnings shown,
 * not fatal); false, with the compiler's first error, when it does not compile. */
static lab_error build_sheet(int s, const char *cc, const char *dir, grade_build *b, bool *built, lab_diag *d)
{
    char objects[1024];
    snprintf(objects, sizeof objects, "%s/obj", dir);
    grade_build_result result;
    lab_error e = grade_build_shared(&(grade_build_request){cc, grade30_sheet_paths[s], objects, grade30_sheets[s].name,
                                                            sheet_headers, 0},
                                     b, &result, d);
    *built = e == LAB_OK && result == GRADE_BUILD_OK;
    if (e == LAB_OK && b->log[0]) /* the compiler's warnings, or its errors */
        fprintf(stderr, "%s%s", b->log, b->log[strlen(b->log) - 1] == '\n' ? "" : "\n");
    return e;
}

/* Every exercise of a sheet that does not compile: that verdict, with the compiler's first error. */
static void not_compiled(const grade_build *b, grade30_result *r)
{
    *r = (grade30_result){.verdict = GRADE30_DOES_NOT_COMPILE, .mistake = -1};
    snprintf(r->detail, sizeof r->detail, "the compiler's first error: %.420s", b->first_error);
}

int main(int argc, char **argv)
{
    static int seed = 30;
    static double seconds = 2;
    static const char *only = NULL, *sheet = NULL;
    static const char *cc = "cc -std=c11 -Wall -Wextra -Wpedantic -O1 -g -Isrc -Ilab/ch30";
    static const cli_option options[] = {
        {"--seed", CLI_INT, &seed, .min = 0, .max = 2147483647, .value_name = "N",
         .help = "the generator's seed for the generated cases (default 30)"},
        {"--seconds", CLI_DOUBLES, &seconds, .min = 0.1, .max = 600, .value_name = "S",
         .help = "wall-clock seconds for each exercise's calls, all its cases twice (default 2)"},
        {"--only", CLI_STRING, &only, .value_name = "NAME",
         .help = "grade one sheet: lab30, skeleton, dqs, normals, palette, weights, shader or fixes (default: every sheet)"},
        {"--sheet", CLI_STRING, &sheet, .value_name = "FILE",
         .help = "the file graded as that sheet (lab30's without --only), as its reports name it (make grade30 sets it)"},
        {"--cc", CLI_STRING, &cc, .value_name = "COMMAND",
         .help = "the compiler and flags each sheet is built with, words apart by spaces (make grade30 sets it)"},
    };
    const cli_program program = {LAB, "Grades chapter 30's exercises (lab/ch30/exercises.c, lab/ch30/sheets/).", options,
                                 CLI_COUNT(options), {"OUTDIR"}, 1, NULL};
    const char *args[CLI_MAX_POSITIONAL];
    int code = cli_start(&program, argc, argv, args);
    if (code != CLI_RUN)
        return code;
    int chosen = -1; /* the sheet asked for, or -1 for every one */
    for (int s = 0; only && s < GRADE30_SHEET_COUNT; s++)
        if (strcmp(only, grade30_sheets[s].name) == 0)
            chosen = s;
    lab_diag d = {0};
    if (only && chosen < 0) {
        char names[160] = "";
        for (int s = 0; s < GRADE30_SHEET_COUNT; s++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", s ? ", " : "", grade30_sheets[s].name);
        diag_fail(&d, LAB_ERR_USAGE, "--only", "no sheet \"%s\" (the sheets: %s)", only, names);
        return cli_fail(LAB, &d, 2);
    }
    if (sheet)
        grade30_sheet_paths[chosen < 0 ? GRADE30_SHEET_LAB30 : chosen] = sheet;
    grade30_seconds = seconds;
    lab_error e = remove_previous(args[0], &d);
    if (e != LAB_OK)
        return cli_fail(LAB, &d, cli_exit_code(e));

    /* the verdicts, sheet by sheet */
    report_checks checks = {0};
    static grade30_result results[GRADE30_EXERCISE_COUNT];
    static grade30_picture_data points[GRADE30_EXERCISE_COUNT];
    int graded[GRADE30_EXERCISE_COUNT], count = 0, correct = 0, sheet_correct[GRADE30_SHEET_COUNT] = {0};
    for (int s = 0; s < GRADE30_SHEET_COUNT && e == LAB_OK; s++) {
        if (chosen >= 0 && s != chosen)
            continue;
        const grade30_sheet *sh = &grade30_sheets[s];
        static grade_build build;
        bool glsl = grade30_table[sh->first].kind == GRADE30_GLSL, built = false;
        fflush(stdout);
        if (!glsl)
            e = build_sheet(s, cc, args[0], &build, &built, &d);
        printf("sheet %s (%s): %s\n", sh->name, grade30_sheet_paths[s], sh->topics);
        for (int x = sh->first; x < sh->first + sh->count && e == LAB_OK; x++) {
            const grade30_entry *entry = &grade30_table[x];
            grade30_result *r = &results[x];
            if (glsl)
                e = grade30_shader_run(grade30_sheet_paths[s], (uint64_t)seed, r, &points[x], &d);
            else if (built)
                e = grade30_run_object(entry, build.object, (uint64_t)seed, r, &points[x], &d);
            else
                not_compiled(&build, r);
            if (e != LAB_OK)
                break;
            grade30_print(x, r, stdout);
            correct += r->verdict == GRADE30_CORRECT, sheet_correct[s] += r->verdict == GRADE30_CORRECT;
            graded[count++] = x;
            record(x, r, &checks);
        }
        printf("\n");
    }

    /* the pictures, one an exercise, and all of them in one figure */
    static canvas panels[GRADE30_EXERCISE_COUNT];
    static output_name names[GRADE30_EXERCISE_COUNT];
    canvas figure = {0};
    for (int i = 0; i < count && e == LAB_OK; i++) {
        snprintf(names[i], sizeof names[i], "grade30-%d.png", graded[i] + 1);
        e = picture(graded[i], &results[graded[i]], &points[graded[i]], &panels[i], &d);
    }
    char title[96];
    snprintf(title, sizeof title, "grade30: %d of %d correct; green the lab's, red yours", correct, count);
    if (e == LAB_OK)
        e = figure_compose_grid(&figure, panels, count, 4, 10, title, &d);
    output_batch out = {.png = PNG_QUICK}; /* redrawn on every edit: speed before size */
    e = output_batch_add_figure(&out, e, "grade30.png", &figure, panels, names, count, &d);
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
    for (int s = 0; s < GRADE30_SHEET_COUNT; s++)
        if (chosen < 0 || s == chosen) {
            char anchor[96];
            grade30_anchor(grade30_sheets[s].heading, anchor, sizeof anchor);
            printf("sheet %-8s %d of %d correct  (%s#%s)\n", grade30_sheets[s].name, sheet_correct[s],
                   grade30_sheets[s].count, grade30_sheets[s].page, anchor);
        }
    printf("%d of %d exercises correct (generated cases of seed %d; each exercise within %g s)\n"
           "pictures: %s/grade30.png (each alone: grade30-N.png); verdicts as records: %s/grade30-checks.json\n",
           correct, count, seed, seconds, args[0], args[0]);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        d = (lab_diag){0};
        diag_fail(&d, LAB_ERR_OUTPUT, "standard output", "the verdicts could not be written");
        return cli_fail(LAB, &d, 3);
    }
    return correct == count ? 0 : 1;
}
