/* grade30_sandbox.c - an exercise graded in the engine's limited child (src/grade/sandbox.h):
 * the child opens the student's sheet (a shared object built on its own, src/grade/build.h)
 * or takes the function it is given, grades every case, and then makes the picture's
 * points; the parent reads the result from the shared record, or, when the child did not
 * finish, makes the verdict from how it ended (grade30_ended.c).
 *
 * The sheet is opened only in the child, after the fork and under the limits: a
 * constructor, a destructor or a function named like libc's (kill, write, exit) never runs
 * in the grader, and RTLD_LOCAL keeps the sheet's names from the grader's own calls. */
#define _GNU_SOURCE /* dlsym */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/diag.h"
#include "grade/build.h"
#include "grade/sandbox.h"

#include "grade30.h"
#include "grade30_grading.h"

typedef struct {
    const grade30_entry *x;
    grade30_fn f;                     /* the function, or */
    const char *object;               /* the shared object whose symbol x->function it is */
    int object_fd;                    /* open on it: the child, nobody by then, opens it through
                                       * /proc/self/fd, whatever the folders' permissions */
    uint64_t seed;
} child_job;

/* The student's function from the sheet's shared object; false, with the verdict, when
 * the object cannot be opened or has no such function. */
static bool open_sheet(const child_job *job, grade30_fn *f, grade30_result *r)
{
    char why[400];
    void *h = grade_object_open(job->object_fd, why, sizeof why);
    if (!h) {
        *r = (grade30_result){.verdict = GRADE30_DOES_NOT_COMPILE, .mistake = -1};
        snprintf(r->detail, sizeof r->detail, "it does not link: %.400s", why);
        return false;
    }
    void *sym = dlsym(h, job->x->function);
    if (!sym) {
        *r = (grade30_result){.verdict = GRADE30_DOES_NOT_COMPILE, .mistake = -1};
        snprintf(r->detail, sizeof r->detail,
                 "the sheet has no function %s (named otherwise, or static?): the grader calls it by that name",
                 job->x->function);
        return false;
    }
    memcpy(f, &sym, sizeof sym); /* every member of grade30_fn is one function pointer */
    return true;
}

static void run_child(void *arg, grade_shared_head *head)
{
    const child_job *job = arg;
    grade30_shared *shared = (grade30_shared *)head;
    grade30_fn f = job->f;
    if (job->object && !open_sheet(job, &f, &shared->result)) {
        shared->done = true, head->phase = 1;
        return;
    }
    shared->out_of_memory = !grade30_grade_all(job->x, f, job->seed, &shared->result, shared);
    /* the result is whole; then, in the same child, the picture's points (where there is
     * something to draw): what ends the child from here on costs the picture only */
    fflush(NULL);
    shared->done = grade_in_child();
    head->phase = 1;
    if (shared->done && !shared->out_of_memory && shared->result.verdict != GRADE30_NOT_WRITTEN &&
        job->x->picture_points) {
        exercise30_not_written = false;
        job->x->picture_points(f, &shared->picture);
        if (!grade_in_child())
            _exit(0);
        shared->picture_done = !exercise30_not_written;
    }
    fflush(NULL); /* what the student's code printed */
}

static lab_error run(const child_job *job, grade30_result *out, grade30_picture_data *picture, lab_diag *d)
{
    const grade30_entry *x = job->x;
    grade30_shared *s = (grade30_shared *)grade_shared_new(sizeof *s);
    static grade_end end; /* 16 KB of the child's standard error: not on the stack */
    if (!s)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, x->function, "no memory to share with its child");
    grade_limits limits = grade_limits_default(grade30_seconds);
    lab_error e = grade_sandbox_run(x->function, &limits, run_child, (void *)job, &s->head, &end, d);
    if (e == LAB_OK) {
        if (s->done && s->out_of_memory)
            e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, x->function, "its cases in the grading child");
        else if (s->done) /* the result whole, whatever ended the child in the picture after it */
            *out = s->result;
        else {
            if (job->object && !strncmp(s->head.access_object, "/proc/self/fd/", 14)) /* for addr2line */
                snprintf(s->head.access_object, sizeof s->head.access_object, "%s", job->object);
            grade30_ended_verdict(x, job->seed, s, &end, out);
        }
    }
    if (e == LAB_OK && picture) {
        *picture = s->picture;
        picture->drawn = picture->drawn && s->picture_done;
    }
    if (e == LAB_OK && end.report[0] && out->verdict != GRADE30_UNDEFINED) { /* what the body printed, not lost */
        fprintf(stderr, "%s wrote to its standard error:\n%s%s", x->function, end.report,
                end.report[strlen(end.report) - 1] == '\n' ? "" : "\n");
        if (end.report_dropped)
            fprintf(stderr, "(%zu more bytes not shown)\n", end.report_dropped);
    }
    grade_shared_free(&s->head, sizeof *s);
    return e;
}

lab_error grade30_run(const grade30_entry *x, grade30_fn f, uint64_t seed, grade30_result *out,
                      grade30_picture_data *picture, lab_diag *d)
{
    const child_job job = {x, f, NULL, -1, seed};
    return run(&job, out, picture, d);
}

lab_error grade30_run_object(const grade30_entry *x, const char *object, uint64_t seed, grade30_result *out,
                             grade30_picture_data *picture, lab_diag *d)
{
    int fd = open(object, O_RDONLY);
    if (fd < 0) {
        *out = (grade30_result){.verdict = GRADE30_DOES_NOT_COMPILE, .mistake = -1};
        snprintf(out->detail, sizeof out->detail, "its shared object cannot be opened: %.300s: %s", object, strerror(errno));
        return LAB_OK;
    }
    const child_job job = {x, {0}, object, fd, seed};
    lab_error e = run(&job, out, picture, d);
    close(fd);
    return e;
}

lab_error grade30_check(const grade30_entry *x, grade30_fn f, uint64_t seed, grade30_result *out)
{
    return grade30_grade_all(x, f, seed, out, NULL) ? LAB_OK : LAB_ERR_OUT_OF_MEMORY;
}
