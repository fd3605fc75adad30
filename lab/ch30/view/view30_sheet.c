/* view30_sheet.c - the student's sheet, watched (view30_sheet.h), through the grader's
 * engine (src/grade/): rebuilt into a shared object on its own when it is saved (build.h:
 * no shell, the compiler limited), and graded by the chapter's grader (make grade30, run
 * from an argument vector under a deadline): its verdicts whole, and the grader's picture of
 * the first exercise that is not correct. What the sheet draws: view30_yours.c. */
#define _XOPEN_SOURCE 700 /* nftw, mkdtemp */
#include <fcntl.h>
#include <ftw.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/text.h"
#include "draw/png_decode.h"
#include "grade/build.h"
#include "grade/ended.h"

#include "view30_sheet.h"

#define VERTS (RIG30_RINGS * RIG30_SEGMENTS)

/* The build's compiler, folder and make variables (the Makefile's view rules). */
#ifndef VIEW30_CC
#define VIEW30_CC "cc"
#endif
#ifndef VIEW30_BUILD
#define VIEW30_BUILD "build"
#endif
#ifndef VIEW30_MAKE_VARIABLES
#define VIEW30_MAKE_VARIABLES ""
#endif


bool view30_sheet_init(view30_sheet *w, const char *path)
{
    *w = (view30_sheet){.path = path};
    /* a folder of this run's own, so that two windows never share a shared object */
    snprintf(w->dir, sizeof w->dir, "%s/view30", VIEW30_BUILD);
    if (mkdir(VIEW30_BUILD, 0777) != 0 && errno != EEXIST)
        return false;
    if (mkdir(w->dir, 0777) != 0 && errno != EEXIST)
        return false;
    snprintf(w->dir, sizeof w->dir, "%s/view30/run-XXXXXX", VIEW30_BUILD);
    return mkdtemp(w->dir) != NULL;
}

bool view30_sheet_changed(view30_sheet *w)
{
    struct stat st;
    if (stat(w->path, &st) != 0)
        return false; /* an editor may remove and rename: the next poll sees the new file */
    bool changed = st.st_mtim.tv_sec != w->seen_sec || st.st_mtim.tv_nsec != w->seen_nsec || st.st_size != w->seen_size;
    w->seen_sec = st.st_mtim.tv_sec, w->seen_nsec = st.st_mtim.tv_nsec, w->seen_size = st.st_size;
    return changed;
}

/* The compiler's first error, or the first line of the grader's output, as the panel draws it. */
static void first_error(const char *log, char *out, size_t size)
{
    char line[VIEW30_LINE];
    grade_first_error(log, line, sizeof line);
    text_printable(out, size, line);
}

bool view30_sheet_build(view30_sheet *w, view30_student *s)
{
    size_t n = strlen(w->path);
    if (n < 2 || strcmp(w->path + n - 2, ".c") != 0) { /* the shader's sheet: the grader runs it on the GPU */
        s->loaded = true, s->grade_stale = true, s->line_count = 0;
        w->generation++, w->have_so = false;
        snprintf(s->status, sizeof s->status, "version %d", w->generation);
        snprintf(s->how, sizeof s->how, "a shader: graded, not drawn");
        return true;
    }
    /* the grader's rule: the lab's warnings, shown but not fatal */
    static const char *const headers[] = {"lab/ch30/exercises30.h", "src/math/linalg.h", "src/math/quat.h",
                                          "src/math/dualquat.h", NULL};
    static grade_build b;
    grade_build_result result;
    lab_diag d = {0};
    lab_error e = grade_build_shared(&(grade_build_request){VIEW30_CC " -std=c11 -Wall -Wextra -Wpedantic -O1 -g -Isrc -Ilab/ch30",
                                                            w->path, w->dir, "sheet", headers, 60},
                                     &b, &result, &d);
    s->loaded = true;
    if (e != LAB_OK || result != GRADE_BUILD_OK) { /* keep the last version that compiled */
        snprintf(s->status, sizeof s->status, "no compile: last good one");
        s->line_count = 1;
        if (e != LAB_OK)
            diag_format(&d, s->lines[0], sizeof s->lines[0]);
        else
            text_printable(s->lines[0], sizeof s->lines[0], b.first_error);
        s->grade_stale = true;
        return false;
    }
    if (!b.reused || !w->have_so)
        w->generation++;
    snprintf(w->so, sizeof w->so, "%s", b.object);
    w->have_so = true;
    snprintf(s->status, sizeof s->status, "version %d", w->generation);
    s->line_count = 0;
    s->grade_stale = true;
    return true;
}

/* ---- the grader's verdicts ----------------------------------------------------------------- */

bool view30_sheet_grade_start(view30_sheet *w, view30_student *s)
{
    view30_sheet_grade_stop(w);
    /* make, from an argument vector: the sheet's path is one word whatever it holds */
    char variables[] = VIEW30_MAKE_VARIABLES, exercises[700], dir[600], *argv[16];
    int words = 0;
    argv[words++] = "make", argv[words++] = "-s", argv[words++] = "--no-print-directory";
    for (char *v = strtok(variables, " "); v && words < 10; v = strtok(NULL, " "))
        argv[words++] = v;
    snprintf(exercises, sizeof exercises, "EXERCISES=%s", w->path);
    snprintf(dir, sizeof dir, "GRADE_DIR=%s/grade", w->dir);
    /* no SHEET: the grader grades the file alone, as the sheet it is for (its name, else
     * the exercises' functions it defines) */
    argv[words++] = "grade30", argv[words++] = exercises, argv[words++] = dir;
    argv[words] = NULL;
    lab_diag d = {0};
    const grade_command_limits limits = {120, 0};
    if (grade_command_start(&w->grade, argv, &limits, w->grade_log, sizeof w->grade_log, &d) != LAB_OK) {
        s->line_count = 1;
        diag_format(&d, s->lines[0], sizeof s->lines[0]);
        s->grade_stale = false;
        return false;
    }
    w->grading = true;
    return true;
}

void view30_sheet_grade_stop(view30_sheet *w)
{
    if (w->grading)
        grade_command_stop(&w->grade);
    w->grading = false;
}

/* Whether line is an exercise's verdict: "N. title: verdict". */
static bool verdict_line(const char *line)
{
    int n = 0;
    while (line[n] >= '0' && line[n] <= '9')
        n++;
    return n > 0 && line[n] == '.' && line[n + 1] == ' ' && strstr(line, ": ");
}

/* The grade's lines into the student's verdicts, whole (a verdict's own lines are indented
 * four spaces; what a body printed, "  | ", and the summary are not its), the one-line list,
 * the first exercise that is not correct, and the sheet the grader took the file for. */
static void read_verdicts(char *log, view30_student *s)
{
    s->verdict_count = s->wrong = s->line_count = 0;
    s->sheet_name[0] = 0;
    view30_verdict *v = NULL;
    for (char *line = strtok(log, "\n"); line; line = strtok(NULL, "\n")) {
        if (strncmp(line, "sheet ", 6) == 0 && strchr(line, '(') && !s->sheet_name[0])
            sscanf(line + 6, "%31[^ (]", s->sheet_name);
        if (verdict_line(line) && s->verdict_count < VIEW30_EXERCISES) {
            v = &s->verdicts[s->verdict_count++];
            memset(v, 0, sizeof *v);
            text_printable(v->line, sizeof v->line, line);
            if (!s->wrong && !strstr(line, ": correct") && !strstr(line, ": not written yet"))
                s->wrong = s->verdict_count;
            if (s->line_count < VIEW30_VERDICT_LINES)
                text_printable(s->lines[s->line_count++], sizeof s->lines[0], line);
        } else if (v && strncmp(line, "    ", 4) == 0 && v->details < VIEW30_DETAIL) {
            text_printable(v->detail[v->details++], sizeof v->detail[0], line + 4);
        } else if (strncmp(line, "    ", 4) != 0 && strncmp(line, "  |", 3) != 0) {
            v = NULL; /* the summary, a sheet's heading, what a body printed: no verdict's */
        }
    }
}

/* The grader's picture of the first exercise that is not correct (its grade30-N.png in
 * this run's grade folder), or why there is none. */
static void read_mistake(const view30_sheet *w, view30_student *s)
{
    canvas_free(&s->mistake);
    if (!s->wrong)
        return;
    int number = 0;
    sscanf(s->verdicts[s->wrong - 1].line, "%d.", &number);
    char path[700];
    snprintf(path, sizeof path, "%s/grade/grade30-%d.png", w->dir, number);
    lab_diag d = {0};
    if (png_decode_file(path, 4096, &s->mistake, &d) != LAB_OK) {
        char why[400];
        diag_format(&d, why, sizeof why);
        fprintf(stderr, "view30: the grader's picture of the mistake: %s\n", why);
    }
}

bool view30_sheet_grade_poll(view30_sheet *w, view30_student *s)
{
    if (!w->grading || !grade_command_poll(&w->grade))
        return false;
    w->grading = false;
    s->grade_stale = false;
    int status = w->grade.status;
    if (w->grade.late) {
        s->line_count = 1, s->verdict_count = s->wrong = 0;
        snprintf(s->lines[0], sizeof s->lines[0], "the grader did not finish in 120 s");
        return true;
    }
    char *log = malloc(sizeof w->grade_log);
    if (log) { /* the log stays whole for stdout: the verdicts are read from a copy */
        memcpy(log, w->grade_log, sizeof w->grade_log);
        read_verdicts(log, s);
        free(log);
    } else {
        s->verdict_count = s->wrong = s->line_count = 0;
    }
    read_mistake(w, s);
    s->show_mistake = s->wrong > 0;
    if (s->line_count == 0) {
        s->line_count = 1;
        first_error(w->grade_log, s->lines[0], sizeof s->lines[0]);
        if (!s->lines[0][0] && WIFSIGNALED(status)) {
            char how[96];
            grade_signal_words(WTERMSIG(status), how, sizeof how);
            snprintf(s->lines[0], sizeof s->lines[0], "the grader was ended by %.60s", how);
        } else if (!s->lines[0][0])
            snprintf(s->lines[0], sizeof s->lines[0], "the grader said nothing (exit status %d)",
                     WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
    return true;
}

/* Removes one entry of the run's folder, never following a link. */
static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *at)
{
    (void)st, (void)at;
    if (flag == FTW_DP)
        rmdir(path);
    else
        unlink(path);
    return 0;
}

void view30_sheet_free(view30_sheet *w)
{
    view30_sheet_grade_stop(w); /* nothing of a grade under way is left behind */
    /* the folder mkdtemp made for this run, and what the run put in it */
    if (w->dir[0])
        nftw(w->dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    w->have_so = false;
}
