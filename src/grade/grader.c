/* grader.c - a chapter's grader, whole (grader.h): an exercise in the sandbox's child, the
 * verdict of a child that did not finish, and the main every chapter's grader is. */
#define _GNU_SOURCE /* dlsym */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/bytes.h"
#include "base/report.h"
#include "draw/figure.h"
#include "grade/build.h"
#include "grade/ended.h"
#include "grade/failing.h"
#include "grade/grader.h"
#include "grade/sandbox.h"
#include "program/cli.h"
#include "program/manifest.h"
#include "program/output.h"

/* A grader is built with the sanitizers for the student's sheets' sake (a read past an
 * array is a verdict); its own leaks are its suites' business, whose ASAN_OPTIONS come
 * first, so a student's run spends no time scanning for them at each child's end. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "detect_leaks=0:symbolize=0"; }
/* No symbolizer is started from the grading child (the system-call filter runs no program
 * there): the parent names the file and line with addr2line (src/grade/ended.h). */
const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void) { return "symbolize=0"; }

/* ---- one exercise in the sandbox's child ----------------------------------------------- */

/* What a picture's child shares with the parent: the engine's head, then the picture's
 * data (the chapter's size). The answers come through a pipe (grade_sandbox_answers), and
 * no verdict ever crosses from a child: the parent judges the answers itself. */
typedef struct {
    grade_shared_head head;
    bool picture_done;                /* the picture's data below is whole */
    max_align_t picture[];            /* the chapter's grade_picture, aligned for any of its members */
} shared_record;

typedef struct {
    const grade_exercise *x;
    grade_code code;
    int object_fd;                    /* open on code.object: the child, nobody by then, opens
                                       * it through /proc/self/fd, whatever the folders' rights */
    uint64_t seed;
    int failing;                      /* the picture's child: the first failing case, or -1 */
} child_job;

/* The student's function from the sheet's shared object; false, with the verdict's words
 * into why, when the object cannot be opened or has no such function. */
static bool open_sheet(const child_job *job, grade_fn *f, char *why, size_t size)
{
    char loader[400];
    void *h = grade_object_open(job->object_fd, loader, sizeof loader);
    void *sym = h ? dlsym(h, job->x->function) : NULL;
    if (!h)
        snprintf(why, size, "it does not link: %.400s", loader);
    else if (!sym)
        snprintf(why, size, "the sheet has no function %s (named otherwise, or static?): the grader calls it by that name",
                 job->x->function);
    else
        memcpy(f, &sym, sizeof sym); /* a function's address, as the loader gives it */
    return sym != NULL;
}

/* What the answers' child shares: the engine's head, and why the sheet could not be opened
 * (words only: a verdict is never read from here). */
typedef struct {
    grade_shared_head head;
    char open_error[480];
} answer_record;

/* The answers' child: the sheet opened, every call of the two passes, each answer down the
 * pipe. A sheet that cannot be opened sends nothing and says why. */
static void answer_child(void *arg, grade_shared_head *head)
{
    const child_job *job = arg;
    answer_record *r = (answer_record *)head;
    grade_fn f = job->code.f;
    if (job->code.object && !open_sheet(job, &f, r->open_error, sizeof r->open_error))
        return;
    /* the sheet is open; its cases made, then no file more */
    grade_exercise_answer(job->x, f, job->seed, head->answers_fd, head, job->code.object ? grade_sandbox_seal : NULL);
    head->phase = 1;
}

/* The picture's child: the points through the student's function, on the failing case. */
static void picture_child(void *arg, grade_shared_head *head)
{
    const child_job *job = arg;
    shared_record *s = (shared_record *)head;
    grade_fn f = job->code.f;
    char why[480];
    if (job->code.object && !open_sheet(job, &f, why, sizeof why))
        return;
    grade_case *failing = NULL; /* the first case it failed, made again */
    if (job->failing >= 0 && (failing = malloc(job->x->case_size)))
        job->x->make_case(job->failing, job->seed, failing);
    if (job->code.object)
        grade_sandbox_seal(); /* the case made: no file more */
    grade_not_written = false;
    job->x->picture_points(f, failing, (grade_picture *)s->picture);
    free(failing);
    s->picture_done = grade_in_child() && !grade_not_written;
}

/* The verdict of a child that did not answer every call: how it ended, with the call whose
 * answer did not come (pass 0: it ended before any, while its sheet was opened). */
static void ended_verdict(const grade_exercise *x, uint64_t seed, const grade_shared_head *head, const grade_end *end,
                          const char *source, int pass, int case_index, grade_result *out)
{
    *out = (grade_result){.mistake = -1, .failed = case_index + 1, .failed_pass = pass ? pass : 1};
    char how[400];
    grade_ending ending = grade_ended(head, end, source, how, sizeof how);
    if (pass == 0) { /* no call under way: the sheet was being opened */
        out->failed = 0;
        out->verdict = ending == GRADE_ENDED_TOO_SLOW    ? GRADE_TOO_SLOW
                       : ending == GRADE_ENDED_FORBIDDEN ? GRADE_WRONG
                                                         : GRADE_CRASHED;
        snprintf(out->detail, sizeof out->detail,
                 "it ended before any call, while its sheet was opened: %.300s (a constructor in the sheet? code runs "
                 "only when the grader calls it)",
                 how);
        return;
    }
    grade_case *c = malloc(x->case_size);
    if (c) {
        x->make_case(case_index, seed, c);
        snprintf(out->failed_case, sizeof out->failed_case, "%s", (const char *)c);
        free(c);
    }
    switch (ending) {
    case GRADE_ENDED_TOO_SLOW:
        out->verdict = GRADE_TOO_SLOW;
        snprintf(out->detail, sizeof out->detail,
                 "too slow: %.200s for the exercise's %d calls (a correct body takes microseconds a call); its process "
                 "group was killed",
                 how, 2 * (x->named + x->generated));
        break;
    case GRADE_ENDED_FORBIDDEN:
        out->verdict = GRADE_WRONG;
        snprintf(out->detail, sizeof out->detail,
                 "%.100s: a formula computes its answer from its arguments; the grader lets it start no process, "
                 "signal no other, run no program, write, remove or rename no file, and change no limit",
                 how);
        break;
    case GRADE_ENDED_OUT_OF_MEMORY:
        out->verdict = GRADE_CRASHED;
        snprintf(out->detail, sizeof out->detail, "%.200s inside the call: a formula needs no more than its arguments", how);
        break;
    case GRADE_ENDED_UNDEFINED:
        out->verdict = GRADE_UNDEFINED;
        snprintf(out->detail, sizeof out->detail, "%s", how);
        break;
    case GRADE_ENDED_CRASHED:
        out->verdict = GRADE_CRASHED;
        if (strncmp(how, "the process ended", 17) == 0)
            snprintf(out->detail, sizeof out->detail,
                     "crashed: %.200s inside the call: a formula returns its answer, it never ends the program", how);
        else
            snprintf(out->detail, sizeof out->detail, "crashed: %.300s", how);
        break;
    }
}

/* What the student's code printed (standard output and error), shown before its verdict,
 * bounded, each line behind "  | " and in plain text, so that nothing it prints can pass for
 * a verdict's line or end one. */
static void show_report(const grade_exercise *x, const grade_end *end)
{
    if (!end->report[0])
        return;
    printf("%s printed:\n", x->function);
    int shown_lines = 0;
    for (const char *line = end->report; *line;) {
        size_t n = strcspn(line, "\n");
        if (shown_lines++ == 20) { /* the rest counted, not shown */
            size_t rest = strlen(line) + end->report_dropped;
            printf("  | (%zu more bytes not shown)\n", rest);
            return;
        }
        char shown[200];
        snprintf(shown, sizeof shown, "%.*s", (int)(n < sizeof shown - 1 ? n : sizeof shown - 1), line);
        grade_ascii(shown, false);
        printf("  | %s%s\n", shown, n >= sizeof shown - 1 ? " ..." : "");
        line += n + (line[n] == '\n');
    }
    if (end->report_dropped)
        printf("  | (%zu more bytes not shown)\n", end->report_dropped);
}

/* The answers' child run and judged: *out. */
static lab_error grade_answers(child_job *job, const char *source, double seconds, grade_result *out, grade_end *end,
                               lab_diag *d)
{
    const grade_exercise *x = job->x;
    answer_record *r = (answer_record *)grade_shared_new(sizeof *r);
    grade_shared_head *head = r ? &r->head : NULL;
    bytes answers = {0};
    lab_error e = head ? LAB_OK : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, x->function, "no memory to share with its child");
    grade_limits limits = grade_limits_default(seconds);
    limits.extra_seconds = 0;
    /* every record at most: a head and GRADE_MAX_VALUES numbers, each call twice */
    size_t most = (size_t)(2 * (x->named + x->generated) + 1) * (64 + sizeof(double) * GRADE_MAX_VALUES);
    if (e == LAB_OK)
        e = grade_sandbox_answers(x->function, &limits, answer_child, job, head, &answers, most, end, d);
    int pass = 0, case_index = 0;
    grade_judgement j = e == LAB_OK ? grade_exercise_judge(x, job->seed, answers.data, answers.len, out, &pass, &case_index)
                                    : GRADE_JUDGED;
    if (e == LAB_OK && j == GRADE_JUDGE_NO_MEMORY)
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, x->function, "judging its answers");
    else if (e == LAB_OK && j == GRADE_JUDGE_STOPPED) {
        r->open_error[sizeof r->open_error - 1] = '\0';
        if (pass == 0 && r->open_error[0]) { /* the sheet itself: no function of that name, or it does not link */
            *out = (grade_result){.verdict = GRADE_DOES_NOT_COMPILE, .mistake = -1};
            snprintf(out->detail, sizeof out->detail, "%s", r->open_error);
        } else {
            if (job->code.object && !strncmp(head->access_object, "/proc/self/fd/", 14)) /* for addr2line */
                snprintf(head->access_object, sizeof head->access_object, "%s", job->code.object);
            ended_verdict(x, job->seed, head, end, source, pass, case_index, out);
        }
    }
    bytes_free(&answers);
    grade_shared_free(head, sizeof *r);
    return e;
}

/* Whether a wrong answer's picture of the exercise's pose is the lab's own, pixel for pixel
 * (the lab's data made here, in the grader, through x->lab): then the pose cannot show the
 * mistake. */
static lab_error pose_hides(const grade_chapter *ch, const grade_exercise *x, uint64_t seed,
                            const grade_picture *yours, grade_result *out, lab_diag *d)
{
    if (!x->lab || !x->picture)
        return LAB_OK;
    grade_picture *lab = calloc(1, ch->picture_size);
    grade_case *failing = malloc(x->case_size);
    lab_error e = lab && failing ? LAB_OK : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, x->function, "the lab's picture");
    canvas a = {0}, b = {0};
    if (e == LAB_OK) {
        x->make_case(out->failed - 1, seed, failing); /* as the child made it */
        x->picture_points(x->lab, failing, lab);
        e = x->picture(lab, &a, d);
    }
    if (e == LAB_OK)
        e = x->picture(yours, &b, d);
    if (e == LAB_OK)
        out->pose_hides = a.width == b.width && a.height == b.height &&
                          memcmp(a.rgb, b.rgb, (size_t)a.width * (size_t)a.height * 3) == 0;
    canvas_free(&a), canvas_free(&b);
    free(failing);
    free(lab);
    return e;
}

lab_error grade_exercise_run(const grade_chapter *ch, int xi, grade_code code, const char *source, uint64_t seed,
                             double seconds, grade_result *out, grade_picture *picture, lab_diag *d)
{
    const grade_exercise *x = ch->exercises[xi];
    child_job job = {x, code, -1, seed, -1};
    if (code.object && (job.object_fd = open(code.object, O_RDONLY)) < 0) {
        *out = (grade_result){.verdict = GRADE_DOES_NOT_COMPILE, .mistake = -1};
        snprintf(out->detail, sizeof out->detail, "its shared object cannot be opened: %.300s: %s", code.object,
                 strerror(errno));
        return LAB_OK;
    }
    grade_end *end = malloc(sizeof *end); /* 16 KB of the child's standard error: not on the stack */
    lab_error e = end ? grade_answers(&job, source, seconds, out, end, d)
                      : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, x->function, "its child's report");
    if (e == LAB_OK && out->verdict != GRADE_UNDEFINED)
        show_report(x, end);
    /* then the picture, in a child of its own, a second at most, on the first failing case */
    if (picture && ch->picture_size)
        memset(picture, 0, ch->picture_size);
    bool draws = e == LAB_OK && picture && ch->picture_size && x->picture_points && out->verdict != GRADE_NOT_WRITTEN &&
                 out->verdict != GRADE_DOES_NOT_COMPILE;
    size_t size = sizeof(shared_record) + ch->picture_size;
    shared_record *s = draws ? (shared_record *)grade_shared_new(size) : NULL;
    if (draws && !s)
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, x->function, "no memory to share with its picture's child");
    if (s) {
        job.failing = out->verdict == GRADE_WRONG && out->failed > 0 ? out->failed - 1 : -1;
        grade_limits limits = grade_limits_default(fmin(1, seconds));
        e = grade_sandbox_run(x->function, &limits, picture_child, &job, &s->head, end, d);
        if (e == LAB_OK && s->picture_done)
            memcpy(picture, s->picture, ch->picture_size);
        grade_shared_free(&s->head, size);
        if (e == LAB_OK && job.failing >= 0 && !x->picture_draws_failing)
            e = pose_hides(ch, x, job.seed, picture, out, d);
    }
    if (job.object_fd >= 0)
        close(job.object_fd);
    free(end);
    return e;
}

/* ---- the grader's main ------------------------------------------------------------------ */

/* The previous run's outputs, removed before anything is graded. */
static lab_error remove_previous(const char *program, const char *dir, lab_diag *d)
{
    output_batch none = {0};
    lab_error e = manifest_prepare(&none, dir, program, d);
    if (e == LAB_OK)
        e = output_batch_commit(&none, dir, d);
    output_batch_free(&none);
    return e;
}

/* A panel that only says why there is no picture. */
static lab_error no_picture(int x, const char *why, canvas *out, lab_diag *d)
{
    lab_error err = canvas_init(out, GRADE_PICTURE_W, GRADE_PICTURE_H, FIGURE_BACKGROUND, d);
    char title[96];
    snprintf(title, sizeof title, "%d. %s", x + 1, why);
    if (err == LAB_OK)
        figure_draw_label(out, 0, title);
    return err;
}

/* The verdict as a record, under its heading's link: the first failing case's difference
 * against its tolerance (0 when correct; null when not written, crashed, too slow, not
 * graded, or its answer was not finite). */
static void record(int x, const grade_exercise *e, const grade_result *r, report_checks *checks)
{
    char what[480], section[160], where[200];
    snprintf(what, sizeof what, "%d. %s: %s%s%.300s", x + 1, e->title, grade_verdict_name(r->verdict),
             r->failed ? ", case: " : "", r->failed ? r->failed_case : "");
    grade_anchor(e->heading, section, sizeof section);
    snprintf(where, sizeof where, "%s#%s", e->page, section);
    double diff = r->verdict == GRADE_CORRECT ? 0 : r->verdict == GRADE_WRONG ? r->difference : NAN;
    report_checks one = {0};
    check_add(&one, what, REPORT_COMPARE, isfinite(diff) ? diff : NAN, 0, e->tolerance, r->verdict == GRADE_CORRECT);
    checks_append(checks, &one, where);
    report_checks_free(&one);
}

/* Sheet s compiled on its own into a shared object under OUTDIR/obj (its warnings shown,
 * not fatal); *built false, with the compiler's first error, when it does not compile. */
static lab_error build_sheet(const grade_chapter *ch, const char *path, int s, const char *cc, const char *dir,
                             grade_build *b, bool *built, lab_diag *d)
{
    char objects[1024];
    snprintf(objects, sizeof objects, "%s/obj", dir);
    grade_build_result result;
    lab_error e = grade_build_shared(&(grade_build_request){cc, path, objects, ch->sheets[s].name, ch->headers, 0}, b,
                                     &result, d);
    *built = e == LAB_OK && result == GRADE_BUILD_OK;
    if (e == LAB_OK && b->log[0]) /* the compiler's warnings, or its errors */
        fprintf(stderr, "%s%s", b->log, b->log[strlen(b->log) - 1] == '\n' ? "" : "\n");
    return e;
}

typedef struct {
    grade_result result;
    bool graded;
} verdict_slot;

/* Every exercise of the sheets asked for: built, graded, printed, recorded; their pictures'
 * data into pictures (picture_size each). */
static lab_error grade_sheets(const grade_chapter *ch, int chosen, const char *const *paths, const char *cc,
                              uint64_t seed, double seconds, const char *dir, verdict_slot *slots,
                              unsigned char *pictures, report_checks *checks, lab_diag *d)
{
    lab_error e = LAB_OK;
    for (int s = 0; s < ch->sheet_count && e == LAB_OK; s++) {
        if (chosen >= 0 && s != chosen)
            continue;
        const grade_sheet *sh = &ch->sheets[s];
        grade_build *build = malloc(sizeof *build); /* the compiler's log: 8 KB */
        bool built = false;
        fflush(stdout);
        if (!build)
            e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, sh->name, "its build");
        else if (!sh->run)
            e = build_sheet(ch, paths[s], s, cc, dir, build, &built, d);
        printf("sheet %s (%s): %s\n", sh->name, paths[s], sh->topics);
        for (int x = 0; x < ch->exercise_count && e == LAB_OK; x++) {
            if (ch->exercises[x]->sheet != s)
                continue;
            grade_result *r = &slots[x].result;
            grade_picture *picture = (grade_picture *)(pictures + ch->picture_size * (size_t)x);
            if (sh->run)
                e = sh->run(paths[s], x, seed, r, picture, d);
            else if (built)
                e = grade_exercise_run(ch, x, (grade_code){NULL, build->object}, paths[s], seed, seconds, r, picture, d);
            else {
                *r = (grade_result){.verdict = GRADE_DOES_NOT_COMPILE, .mistake = -1};
                snprintf(r->detail, sizeof r->detail, "the compiler's first error: %.420s", build->first_error);
            }
            if (e != LAB_OK)
                break;
            grade_print(x, ch->exercises[x], r, stdout);
            slots[x].graded = true;
            record(x, ch->exercises[x], r, checks);
        }
        free(build);
        printf("\n");
    }
    return e;
}

/* The pictures, one an exercise, and all of them in one figure, with the records. */
static lab_error write_outputs(const grade_chapter *ch, const verdict_slot *slots, const unsigned char *pictures,
                               const report_checks *checks, const char *dir, int correct, int count, lab_diag *d)
{
    canvas *panels = calloc((size_t)(count ? count : 1), sizeof *panels);
    output_name *names = calloc((size_t)(count ? count : 1), sizeof *names);
    lab_error e = panels && names ? LAB_OK : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, ch->program, "the pictures");
    int n = 0;
    for (int x = 0; x < ch->exercise_count && e == LAB_OK; x++) {
        if (!slots[x].graded)
            continue;
        const grade_exercise *ex = ch->exercises[x];
        const grade_result *r = &slots[x].result;
        snprintf(names[n], sizeof names[n], "%s-%d.png", ch->program, x + 1);
        canvas own = {0}, failing = {0};
        bool failing_alone = r->verdict == GRADE_WRONG && r->failed_want > 0 && r->pose_hides;
        if (failing_alone) { /* never the pose where it cannot show the mistake */
            e = grade_failing_picture(x, ex, r, &panels[n], d);
        } else {
            if (r->verdict == GRADE_NOT_WRITTEN || r->verdict == GRADE_DOES_NOT_COMPILE || !ex->picture)
                e = no_picture(x, ex->picture ? grade_verdict_name(r->verdict) : "no picture", &own, d);
            else
                e = ex->picture((const grade_picture *)(pictures + ch->picture_size * (size_t)x), &own, d);
            if (e == LAB_OK && r->verdict == GRADE_WRONG && r->failed_want > 0 && !ex->picture_draws_failing) {
                /* the exercise's picture, and the failing case under it */
                e = grade_failing_picture(x, ex, r, &failing, d);
                const canvas both[2] = {own, failing};
                if (e == LAB_OK)
                    e = figure_compose_grid(&panels[n], both, 2, 1, 0, NULL, d);
                canvas_free(&own);
            } else
                panels[n] = own, own = (canvas){0};
        }
        canvas_free(&failing);
        n++;
    }
    canvas figure = {0};
    char title[96];
    snprintf(title, sizeof title, "%s: %d of %d correct; green the lab's, red yours", ch->program, correct, count);
    if (e == LAB_OK)
        e = figure_compose_grid(&figure, panels, n, 4, 10, title, d);
    output_batch out = {.png = PNG_QUICK}; /* redrawn on every edit: speed before size */
    char figure_name[64];
    snprintf(figure_name, sizeof figure_name, "%s.png", ch->program);
    e = output_batch_add_figure(&out, e, figure_name, &figure, panels, names, n, d);
    if (e == LAB_OK)
        e = cli_add_checks(ch->program, checks, &out, d);
    if (e == LAB_OK)
        e = manifest_prepare(&out, dir, ch->program, d);
    if (e == LAB_OK)
        e = output_batch_commit(&out, dir, d);
    output_batch_free(&out);
    free(panels), free(names);
    return e;
}

/* The name after the last '/'. */
static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* Whether text holds name as a function: the identifier, then '(' after spaces. */
static bool names_function(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *at = strstr(text, name); n && at; at = strstr(at + 1, name)) {
        bool starts = at == text || !(isalnum((unsigned char)at[-1]) || at[-1] == '_');
        const char *after = at + n;
        while (*after == ' ' || *after == '\t')
            after++;
        if (starts && *after == '(')
            return true;
    }
    return false;
}

/* The sheet the file at path is for: the one whose file has its name (exercises.c, dqs.c),
 * else its extension alone among the sheets' (.glsl), else the one of which it defines the
 * most exercises' functions (the first on a tie), else the chapter's first sheet. Errors:
 * the file cannot be read (LAB_ERR_INPUT_FILE, named) or no memory. */
static lab_error sheet_for_file(const grade_chapter *ch, const char *path, int *out, lab_diag *d)
{
    *out = 0;
    int extension = -1, same_extension = 0;
    const char *dot = strrchr(base_name(path), '.');
    for (int s = 0; s < ch->sheet_count; s++) {
        const char *file = base_name(ch->sheets[s].file), *file_dot = strrchr(file, '.');
        if (strcmp(file, base_name(path)) == 0)
            return *out = s, LAB_OK;
        if (dot && file_dot && strcmp(dot, file_dot) == 0)
            extension = s, same_extension++;
    }
    if (same_extension == 1)
        return *out = extension, LAB_OK;
    bytes text = {0};
    bytes_read_result r = bytes_read_file(path, (size_t)1 << 26, &text);
    if (r != BYTES_READ_OK) {
        bytes_free(&text);
        return diag_fail(d, r == BYTES_READ_OUT_OF_MEMORY ? LAB_ERR_OUT_OF_MEMORY : LAB_ERR_INPUT_FILE, path, "%s",
                         bytes_read_message(r));
    }
    int best = 0;
    for (int s = 0; s < ch->sheet_count; s++) {
        int defined = 0;
        for (int x = 0; x < ch->exercise_count; x++)
            defined += ch->exercises[x]->sheet == s && names_function((const char *)text.data, ch->exercises[x]->function);
        if (defined > best)
            best = defined, *out = s;
    }
    bytes_free(&text);
    return LAB_OK;
}

int grade_main(const grade_chapter *ch, int argc, char **argv)
{
    int seed = 30;
    double seconds = 2;
    const char *only = NULL, *sheet = NULL, *cc = NULL;
    const cli_option options[] = {
        {"--seed", CLI_INT, &seed, .min = 0, .max = 2147483647, .value_name = "N",
         .help = "the generator's seed for the generated cases (default 30)"},
        {"--seconds", CLI_DOUBLES, &seconds, .min = 0.1, .max = 600, .value_name = "S",
         .help = "wall-clock seconds for each exercise's calls, all its cases twice (default 2)"},
        {"--only", CLI_STRING, &only, .value_name = "NAME", .help = "grade one sheet (default: every sheet)"},
        {"--sheet", CLI_STRING, &sheet, .value_name = "FILE",
         .help = "the file graded as that sheet, alone (without --only: the sheet whose file has its name, else "
                 "whose exercises it defines most), as its reports name it"},
        {"--cc", CLI_STRING, &cc, .value_name = "COMMAND",
         .help = "the compiler and flags each sheet is built with, words apart by spaces (make sets it)"},
    };
    const cli_program program = {ch->program, ch->description, options, CLI_COUNT(options), {"OUTDIR"}, 1, NULL};
    const char *args[CLI_MAX_POSITIONAL];
    int code = cli_start(&program, argc, argv, args);
    if (code != CLI_RUN)
        return code;
    lab_diag d = {0};
    int chosen = -1; /* the sheet asked for, or -1 for every one */
    for (int s = 0; only && s < ch->sheet_count; s++)
        if (strcmp(only, ch->sheets[s].name) == 0)
            chosen = s;
    if (only && chosen < 0) {
        char names[400] = "";
        for (int s = 0; s < ch->sheet_count; s++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", s ? ", " : "", ch->sheets[s].name);
        diag_fail(&d, LAB_ERR_USAGE, "--only", "no sheet \"%s\" (the sheets: %s)", only, names);
        return cli_fail(ch->program, &d, 2);
    }
    struct stat st;
    int found = sheet ? stat(sheet, &st) : 0;
    if (sheet && (found != 0 || !S_ISREG(st.st_mode))) { /* a file that is not there: usage, named */
        diag_fail(&d, LAB_ERR_USAGE, "--sheet", "%s: %s", sheet, found != 0 ? strerror(errno) : "not a regular file");
        return cli_fail(ch->program, &d, 2);
    }
    if (sheet && !only) { /* the file's own sheet, alone */
        lab_error found_sheet = sheet_for_file(ch, sheet, &chosen, &d);
        if (found_sheet != LAB_OK)
            return cli_fail(ch->program, &d, found_sheet == LAB_ERR_OUT_OF_MEMORY ? 3 : 2);
    }
    const char **paths = calloc((size_t)ch->sheet_count, sizeof *paths);
    verdict_slot *slots = calloc((size_t)ch->exercise_count, sizeof *slots);
    unsigned char *pictures = calloc((size_t)ch->exercise_count, ch->picture_size ? ch->picture_size : 1);
    report_checks checks = {0};
    lab_error e = paths && slots && pictures ? LAB_OK : diag_fail(&d, LAB_ERR_OUT_OF_MEMORY, ch->program, "its verdicts");
    for (int s = 0; e == LAB_OK && s < ch->sheet_count; s++)
        paths[s] = ch->sheets[s].file;
    if (e == LAB_OK && sheet)
        paths[chosen < 0 ? 0 : chosen] = sheet;
    if (e == LAB_OK)
        e = remove_previous(ch->program, args[0], &d);
    if (e == LAB_OK)
        e = grade_sheets(ch, chosen, paths, cc ? cc : ch->compile, (uint64_t)seed, seconds, args[0], slots, pictures,
                         &checks, &d);
    int correct = 0, count = 0;
    for (int x = 0; x < ch->exercise_count; x++)
        count += slots && slots[x].graded, correct += slots && slots[x].graded && slots[x].result.verdict == GRADE_CORRECT;
    if (e == LAB_OK)
        e = write_outputs(ch, slots, pictures, &checks, args[0], correct, count, &d);
    report_checks_free(&checks);
    for (int s = 0; e == LAB_OK && s < ch->sheet_count; s++) {
        if (chosen >= 0 && s != chosen)
            continue;
        int of = 0, right = 0;
        for (int x = 0; x < ch->exercise_count; x++)
            if (ch->exercises[x]->sheet == s)
                of++, right += slots[x].result.verdict == GRADE_CORRECT;
        char anchor[96];
        grade_anchor(ch->sheets[s].heading, anchor, sizeof anchor);
        printf("sheet %-8s %d of %d correct  (%s#%s)\n", ch->sheets[s].name, right, of, ch->sheets[s].page, anchor);
    }
    free(paths), free(slots), free(pictures);
    if (e != LAB_OK)
        return cli_fail(ch->program, &d, cli_exit_code(e));
    printf("%d of %d exercises correct (generated cases of seed %d; each exercise within %g s)\n"
           "pictures: %s/%s.png (each alone: %s-N.png); verdicts as records: %s/%s-checks.json\n",
           correct, count, seed, seconds, args[0], ch->program, ch->program, args[0], ch->program);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        d = (lab_diag){0};
        diag_fail(&d, LAB_ERR_OUTPUT, "standard output", "the verdicts could not be written");
        return cli_fail(ch->program, &d, 3);
    }
    return correct == count ? 0 : 1;
}
