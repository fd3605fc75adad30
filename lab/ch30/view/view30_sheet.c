/* view30_sheet.c - the student's sheet, watched (view30_sheet.h): rebuilt into a shared
 * object when it is saved, its skinning of the cylinder run in a child process with a
 * deadline, and graded by the chapter's grader (make grade30), one line an exercise. */
#define _XOPEN_SOURCE 700 /* nftw, mkdtemp */
#include <dlfcn.h>
#include <ftw.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/bytes.h"
#include "base/child.h"
#include "base/diag.h"
#include "base/text.h"
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

/* The flag a body that is not written yet sets; the sheet's shared object resolves it here
 * (view30 exports its symbols, -rdynamic), as it resolves the src/math/ functions it calls. */
bool exercise30_not_written;

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

/* Runs a shell command with its output into `out` (at most size bytes kept), killed after
 * `seconds`; returns its exit status (124: the deadline). */
static int run_command(const char *command, int seconds, char *out, size_t size)
{
    char line[4096];
    snprintf(line, sizeof line, "timeout -s KILL %d %s 2>&1", seconds, command);
    fflush(NULL);
    FILE *p = popen(line, "r");
    if (!p) {
        snprintf(out, size, "cannot run the command: %s", strerror(errno));
        return -1;
    }
    size_t used = 0;
    int c;
    while ((c = fgetc(p)) != EOF)
        if (used + 1 < size)
            out[used++] = (char)c;
    out[used] = '\0';
    int status = pclose(p);
    return status == -1 ? -1 : (status >> 8) & 0xff;
}

/* The first line of the compiler's output that says "error", whole. */
static void first_error(const char *log, char *out, size_t size)
{
    const char *at = strstr(log, "error");
    const char *start = at ? at : log;
    while (at && start > log && start[-1] != '\n')
        start--;
    size_t n = strcspn(start, "\n");
    char raw[VIEW30_LINE];
    if (n >= sizeof raw)
        n = sizeof raw - 1;
    memcpy(raw, start, n);
    raw[n] = '\0';
    text_printable(out, size, raw);
}

bool view30_sheet_build(view30_sheet *w, view30_student *s)
{
    char so[600], command[2048], log[8192];
    snprintf(so, sizeof so, "%s/sheet-%d.so", w->dir, w->generation + 1);
    /* the grader's rule (scripts/grade.sh): the lab's warnings, shown but not fatal */
    snprintf(command, sizeof command,
             "%s -std=c11 -Wall -Wextra -Wpedantic -O1 -g -fPIC -shared -Isrc -Ilab/ch30 '%s' -o '%s'", VIEW30_CC,
             w->path, so);
    int status = run_command(command, 60, log, sizeof log);
    s->loaded = true;
    if (status != 0) { /* keep the last version that compiled */
        snprintf(s->status, sizeof s->status, "no compile: last good one");
        s->line_count = 1;
        first_error(log, s->lines[0], sizeof s->lines[0]);
        if (!s->lines[0][0])
            snprintf(s->lines[0], sizeof s->lines[0], "the compiler failed (status %d)", status);
        s->grade_stale = true;
        return false;
    }
    if (w->have_so)
        unlink(w->so); /* the previous generation's: the viewer's own */
    w->generation++;
    snprintf(w->so, sizeof w->so, "%s", so);
    w->have_so = true;
    snprintf(s->status, sizeof s->status, "version %d", w->generation);
    s->line_count = 0;
    s->grade_stale = true;
    return true;
}

/* ---- the student's skinning, in a child with a deadline ---------------------------------- */

typedef struct {
    const char *so;
    const rig30_rig *rig;
    double theta;
} skin_request;

typedef mat4 (*world_fn)(mat4, mat4);
typedef mat4 (*skin_fn)(mat4, mat4);
typedef vec3 (*lbs_fn)(vec3, const int *, const double *, int, const mat4 *);

/* In the child: the sheet's exercises 1 to 3 skin the twist rig, the chapter's chain
 * (G_1 = G_0 L_1, C_j = G_j B_j^-1, p' = sum_j w_j C_j p). An endless loop ends at the
 * alarm. */
static lab_error skin_job(void *state, bytes *result, lab_diag *d)
{
    const skin_request *q = state;
    /* a fault in the student's code ends the child by its signal, in every build: a
     * sanitizer's handler would turn it into an exit status and a report */
    const int faults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
    for (size_t k = 0; k < sizeof faults / sizeof faults[0]; k++)
        signal(faults[k], SIG_DFL);
    alarm(VIEW30_SHEET_DEADLINE_S);
    void *h = dlopen(q->so, RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return diag_fail(d, LAB_ERR_UNSUPPORTED, "the sheet", "%s", dlerror());
    world_fn world = (world_fn)(uintptr_t)dlsym(h, "ex30_world_matrix");
    skin_fn skin = (skin_fn)(uintptr_t)dlsym(h, "ex30_skin_matrix");
    lbs_fn lbs = (lbs_fn)(uintptr_t)dlsym(h, "ex30_lbs_point");
    if (!world || !skin || !lbs)
        return diag_fail(d, LAB_ERR_UNSUPPORTED, "the sheet", "%s", "has no ex30_world_matrix, ex30_skin_matrix or ex30_lbs_point");
    scene_node joints[RIG30_JOINTS];
    rig30_joints(RIG30_TWIST, q->theta, joints);
    mat4 G[RIG30_JOINTS], C[RIG30_JOINTS];
    exercise30_not_written = false;
    G[0] = joints[0].local;
    G[1] = world(G[0], joints[1].local);
    for (int j = 0; j < RIG30_JOINTS; j++)
        C[j] = skin(G[j], q->rig->inverse_bind[j]);
    vec3 out[VERTS];
    const skin_influences *in = &q->rig->influences;
    for (int v = 0; v < VERTS; v++)
        out[v] = lbs(q->rig->bind.vertices[v], in->joint + v * in->per_vertex, in->weight + v * in->per_vertex,
                     in->per_vertex, C);
    unsigned char flag = exercise30_not_written;
    bytes_append(result, &flag, 1);
    bytes_append(result, out, sizeof out);
    return result->failed ? diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "the sheet", "%s", "its positions") : LAB_OK;
}

void view30_sheet_skin(const view30_sheet *w, const rig30_rig *twist, double twist_deg, view30_student *s)
{
    s->positions_deg = twist_deg;
    s->has_positions = false;
    if (!w->have_so)
        return;
    skin_request q = {w->so, twist, deg_to_rad(twist_deg)};
    bytes result = {0};
    lab_diag d = {0};
    lab_error e = child_run("your skinning", skin_job, &q, &result, LAB_ERR_UNSUPPORTED, &d);
    bool memory;
    if (e == LAB_OK && result.len == 1 + sizeof(vec3) * VERTS) {
        if (result.data[0]) {
            snprintf(s->status, sizeof s->status, "not written yet");
        } else {
            memcpy(s->positions, result.data + 1, sizeof(vec3) * VERTS);
            s->has_positions = true;
            snprintf(s->status, sizeof s->status, "version %d", w->generation);
        }
    } else if (e != LAB_OK && child_ended(&d, &memory) && strstr(d.value, "signal 14")) {
        snprintf(s->status, sizeof s->status, "stopped at %d s: a loop?", VIEW30_SHEET_DEADLINE_S);
    } else if (e != LAB_OK && child_ended(&d, &memory)) { /* "signal 11 (Segmentation fault)" */
        int number = 0;
        const char *signal_at = strstr(d.value, "signal "), *status_at = strstr(d.value, "exit status ");
        if (signal_at && sscanf(signal_at, "signal %d", &number) == 1)
            snprintf(s->status, sizeof s->status, "crashed: signal %d", number);
        else if (status_at && sscanf(status_at, "exit status %d", &number) == 1)
            snprintf(s->status, sizeof s->status, "ended: exit status %d", number);
        else
            snprintf(s->status, sizeof s->status, "ended: see stderr");
        fprintf(stderr, "view30: your skinning: %s\n", d.value);
    } else {
        snprintf(s->status, sizeof s->status, "did not run: see stderr");
        fprintf(stderr, "view30: your skinning: %s\n", e != LAB_OK ? d.value : "no positions came back");
    }
    bytes_free(&result);
}

/* ---- the grader's verdicts ----------------------------------------------------------------- */

void view30_sheet_grade(const view30_sheet *w, view30_student *s)
{
    char command[2048], log[16384];
    snprintf(command, sizeof command,
             "make -s --no-print-directory " VIEW30_MAKE_VARIABLES " grade30 SHEET=lab30 EXERCISES='%s' GRADE_DIR='%s/grade'",
             w->path, w->dir);
    int status = run_command(command, 120, log, sizeof log);
    s->grade_stale = false;
    if (status == 124) {
        s->line_count = 1;
        snprintf(s->lines[0], sizeof s->lines[0], "the grader did not finish in 120 s");
        return;
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
        } else if (detail == 1 && line[0] == ' ') {
            text_printable(s->lines[n], sizeof s->lines[n], line);
            n++, detail = 2;
        }
    }
    if (n == 0) {
        n = 1;
        first_error(log, s->lines[0], sizeof s->lines[0]);
        if (!s->lines[0][0])
            snprintf(s->lines[0], sizeof s->lines[0], "the grader said nothing (status %d)", status);
    }
    s->line_count = n;
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
    /* the folder mkdtemp made for this run, and what the run put in it */
    if (w->dir[0])
        nftw(w->dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    w->have_so = false;
}
