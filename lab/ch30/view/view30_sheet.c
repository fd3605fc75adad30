/* view30_sheet.c - the student's sheet, watched (view30_sheet.h), through the grader's
 * engine (src/grade/): rebuilt into a shared object on its own when it is saved (build.h:
 * no shell, the compiler limited), its skinning of the cylinder run in the engine's limited
 * child (sandbox.h: the parent's deadline, the whole process group killed, nobody when
 * root), and graded by the chapter's grader (make grade30, run from an argument vector
 * under a deadline), one line an exercise. */
#define _XOPEN_SOURCE 700 /* nftw, mkdtemp */
#include <dlfcn.h>
#include <fcntl.h>
#include <ftw.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/bytes.h"
#include "base/diag.h"
#include "base/text.h"
#include "grade/build.h"
#include "grade/ended.h"
#include "grade/sandbox.h"
#include "math/linalg.h"
#include "mesh/scene.h"

#include "exercises30.h"
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

/* ---- the student's skinning, in a child with a deadline ---------------------------------- */

typedef struct {
    int object_fd;                   /* the sheet's shared object, open */
    const rig30_rig *rig;
    double theta;
} skin_request;

typedef struct {
    grade_shared_head head;
    bool done, not_written;
    char error[VIEW30_LINE];
    vec3 out[VERTS];
} skin_record;

typedef mat4 (*world_fn)(mat4, mat4);
typedef mat4 (*skin_fn)(mat4, mat4);
typedef vec3 (*lbs_fn)(vec3, const int *, const double *, int, const mat4 *);

/* In the engine's child: the sheet's exercises 1 to 3 skin the twist rig, the chapter's
 * chain (G_1 = G_0 L_1, C_j = G_j B_j^-1, p' = sum_j w_j C_j p). An endless loop ends at the
 * parent's deadline. */
static void skin_job(void *arg, grade_shared_head *head)
{
    const skin_request *q = arg;
    skin_record *r = (skin_record *)head;
    void *h = grade_object_open(q->object_fd, r->error, sizeof r->error);
    if (!h) {
        r->done = true;
        return;
    }
    grade_sandbox_seal(); /* the sheet is open: no file more */
    world_fn world = (world_fn)(uintptr_t)dlsym(h, "ex30_world_matrix");
    skin_fn skin = (skin_fn)(uintptr_t)dlsym(h, "ex30_skin_matrix");
    lbs_fn lbs = (lbs_fn)(uintptr_t)dlsym(h, "ex30_lbs_point");
    if (!world || !skin || !lbs) {
        snprintf(r->error, sizeof r->error, "has no ex30_world_matrix, ex30_skin_matrix or ex30_lbs_point");
        r->done = true;
        return;
    }
    scene_node joints[RIG30_JOINTS];
    rig30_joints(RIG30_TWIST, q->theta, joints);
    mat4 G[RIG30_JOINTS], C[RIG30_JOINTS];
    grade_not_written = false;
    G[0] = joints[0].local;
    G[1] = world(G[0], joints[1].local);
    for (int j = 0; j < RIG30_JOINTS; j++)
        C[j] = skin(G[j], q->rig->inverse_bind[j]);
    const skin_influences *in = &q->rig->influences;
    for (int v = 0; v < VERTS; v++)
        r->out[v] = lbs(q->rig->bind.vertices[v], in->joint + v * in->per_vertex, in->weight + v * in->per_vertex,
                        in->per_vertex, C);
    r->not_written = grade_not_written;
    r->done = grade_in_child();
}

void view30_sheet_skin(const view30_sheet *w, const rig30_rig *twist, double twist_deg, view30_student *s)
{
    s->positions_deg = twist_deg;
    s->has_positions = false;
    if (!w->have_so)
        return;
    int fd = open(w->so, O_RDONLY);
    skin_record *r = fd < 0 ? NULL : (skin_record *)grade_shared_new(sizeof *r);
    if (!r) {
        snprintf(s->status, sizeof s->status, "did not run: see stderr");
        fprintf(stderr, "view30: your skinning: %s: %s\n", w->so, fd < 0 ? strerror(errno) : "no shared memory");
        if (fd >= 0)
            close(fd);
        return;
    }
    skin_request q = {fd, twist, deg_to_rad(twist_deg)};
    grade_limits limits = grade_limits_default(VIEW30_SHEET_DEADLINE_S);
    static grade_end end;
    lab_diag d = {0};
    lab_error e = grade_sandbox_run("your skinning", &limits, skin_job, &q, &r->head, &end, &d);
    close(fd);
    char how[400];
    if (e != LAB_OK) {
        snprintf(s->status, sizeof s->status, "did not run: see stderr");
        diag_format(&d, how, sizeof how);
        fprintf(stderr, "view30: your skinning: %s\n", how);
    } else if (r->done && r->error[0]) {
        snprintf(s->status, sizeof s->status, "did not run: see stderr");
        fprintf(stderr, "view30: your skinning: the sheet %s\n", r->error);
    } else if (r->done && r->not_written) {
        snprintf(s->status, sizeof s->status, "not written yet");
    } else if (r->done) {
        memcpy(s->positions, r->out, sizeof r->out);
        s->has_positions = true;
        snprintf(s->status, sizeof s->status, "version %d", w->generation);
    } else { /* the child did not finish: the engine's words for how it ended */
        grade_ending ending = grade_ended(&r->head, &end, w->path, how, sizeof how);
        if (ending == GRADE_ENDED_TOO_SLOW)
            snprintf(s->status, sizeof s->status, "stopped at %d s: a loop?", VIEW30_SHEET_DEADLINE_S);
        else if (ending == GRADE_ENDED_FORBIDDEN) /* "it called kill" */
            snprintf(s->status, sizeof s->status, "stopped: %.60s", how);
        else if (ending == GRADE_ENDED_CRASHED && WIFSIGNALED(end.status))
            snprintf(s->status, sizeof s->status, "crashed: signal %d", WTERMSIG(end.status));
        else if (ending == GRADE_ENDED_CRASHED)
            snprintf(s->status, sizeof s->status, "ended: exit status %d", WIFEXITED(end.status) ? WEXITSTATUS(end.status) : 0);
        else
            snprintf(s->status, sizeof s->status, "ended: see stderr");
        fprintf(stderr, "view30: your skinning: %s\n", how);
    }
    grade_shared_free(&r->head, sizeof *r);
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
    argv[words++] = "grade30", argv[words++] = "SHEET=lab30", argv[words++] = exercises, argv[words++] = dir;
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

bool view30_sheet_grade_poll(view30_sheet *w, view30_student *s)
{
    if (!w->grading || !grade_command_poll(&w->grade))
        return false;
    w->grading = false;
    s->grade_stale = false;
    int status = w->grade.status;
    char *log = w->grade_log;
    if (w->grade.late) {
        s->line_count = 1;
        snprintf(s->lines[0], sizeof s->lines[0], "the grader did not finish in 120 s");
        return true;
    }
    /* "N. title: verdict", one an exercise; the compiler's first error otherwise */
    int n = 0, detail = 0; /* the first line under the first verdict that is not "correct" */
    for (char *line = strtok(log, "\n"); line && n < VIEW30_VERDICT_LINES; line = strtok(NULL, "\n")) {
        bool verdict = line[0] >= '1' && line[0] <= '9' && strchr(line, '.') && strchr(line, ':');
        if (verdict) {
            text_printable(s->lines[n], sizeof s->lines[n], line);
            n++;
            if (!detail && !strstr(line, ": correct") && !strstr(line, ": not written yet"))
                detail = 1; /* its next indented line follows it */
        } else if (detail == 1 && line[0] == ' ' && line[2] != '|') { /* not what the body printed */
            text_printable(s->lines[n], sizeof s->lines[n], line);
            n++, detail = 2;
        }
    }
    if (n == 0) {
        n = 1;
        first_error(log, s->lines[0], sizeof s->lines[0]);
        if (!s->lines[0][0] && WIFSIGNALED(status)) {
            char how[96];
            grade_signal_words(WTERMSIG(status), how, sizeof how);
            snprintf(s->lines[0], sizeof s->lines[0], "the grader was ended by %.60s", how);
        } else if (!s->lines[0][0])
            snprintf(s->lines[0], sizeof s->lines[0], "the grader said nothing (exit status %d)",
                     WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
    s->line_count = n;
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
