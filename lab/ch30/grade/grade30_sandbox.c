/* grade30_sandbox.c - the child a student's code runs in, and the limits the parent puts on
 * it (grade30.h).
 *
 * The parent forks a child that leads a process group of its own and shares one page-sized
 * record with it (grade30_grading.h): which call is under way, and the result. The child
 * lowers its limits (CPU seconds, processes, address space, no core file) and grades. The
 * parent does not read a pipe or trust an alarm the child could cancel: it polls for the
 * child's end against a wall-clock deadline, and then kills the child's whole process
 * group, so that a copy the student's code forked, a loop that ignores SIGALRM, alarm(0)
 * or a sleep all end there. A grandchild that calls setsid leaves the group: the lab
 * cannot end what escapes on purpose.
 *
 * Where the sheet was built with -fsanitize=address,undefined (make grade30 does so where
 * the compiler can), the sanitizer's report goes to a pipe of the child's instead of the
 * terminal, and its death callback names the bad access from the arrays of the call under
 * way ("reads joint[4], past the 4 influences") and the file and line from the report. */
#define _GNU_SOURCE /* MAP_ANONYMOUS, setgroups, dladdr */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/diag.h"

#include "grade30.h"
#include "grade30_grading.h"


/* The sanitizers' interface, present only where the sheet was built with them. */
extern void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));
extern void *__asan_get_report_address(void) __attribute__((weak));
extern int __asan_get_report_access_type(void) __attribute__((weak));
extern void *__asan_get_report_pc(void) __attribute__((weak));

/* ---- in the child --------------------------------------------------------------------- */

static grade30_shared *shared;  /* the child's record (the parent's mapping, inherited) */

/* The bad access in the arrays' words (grade30_name_access), when the sanitizer says where. */
static void name_access(char *out, size_t size)
{
    if (!__asan_get_report_address)
        return;
    grade30_name_access((uintptr_t)__asan_get_report_address(),
                        __asan_get_report_access_type && __asan_get_report_access_type(), out, size);
}

static void sanitizer_death(void)
{
    if (!shared)
        return;
    shared->sanitizer = true;
    name_access(shared->access, sizeof shared->access);
    /* where the access is, for addr2line in the parent: the report's own symbolizer runs as
     * this child's user, who may not read the grader's folder */
    void *pc = __asan_get_report_pc ? __asan_get_report_pc() : NULL;
    Dl_info info, self;
    if (pc && dladdr(pc, &info) && info.dli_fbase) {
        bool main_program = dladdr((void *)(uintptr_t)sanitizer_death, &self) && self.dli_fbase == info.dli_fbase;
        shared->access_offset = (unsigned long)((uintptr_t)pc - (uintptr_t)info.dli_fbase);
        snprintf(shared->access_object, sizeof shared->access_object, "%s",
                 main_program || !info.dli_fname ? "" : info.dli_fname);
    }
}

static void child_limits(void)
{
    static const int defaults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGALRM, SIGXCPU, SIGTERM, SIGPIPE};
    for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++)
        signal(defaults[i], SIG_DFL); /* a handler the parent installed (a test runner's) must not catch it */
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    /* Root is exempt from the process limit: a child of root's grades as nobody, so that a
     * fork bomb stops at the limit (where the system lets it change users). Dumpable again,
     * so that a sanitizer can still read /proc/self/maps. */
    if (geteuid() == 0 && setgroups(0, NULL) == 0 && setgid(65534) == 0 && setuid(65534) == 0)
        prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
    rlim_t cpu = (rlim_t)ceil(grade30_seconds) + 1;
    setrlimit(RLIMIT_CPU, &(struct rlimit){cpu, cpu + 1});
    setrlimit(RLIMIT_CORE, &(struct rlimit){0, 0});
    setrlimit(RLIMIT_NPROC, &(struct rlimit){1024, 1024});
    if (!__asan_get_report_address) /* AddressSanitizer reserves terabytes of address space */
        setrlimit(RLIMIT_AS, &(struct rlimit){(rlim_t)4 << 30, (rlim_t)4 << 30});
    if (__sanitizer_set_death_callback)
        __sanitizer_set_death_callback(sanitizer_death);
}

static void run_child(const grade30_entry *x, grade30_fn f, uint64_t seed)
{
    setpgid(0, 0);
    shared->leader = getpid();
    child_limits();
    shared->out_of_memory = !grade30_grade_all(x, f, seed, &shared->result, shared);
    /* the result is whole; then, in the same child, the picture's points (where there is
     * something to draw): what ends the child from here on costs the picture only */
    fflush(NULL);
    shared->done = getpid() == shared->leader;
    if (shared->done && !shared->out_of_memory && shared->result.verdict != GRADE30_NOT_WRITTEN &&
        x->picture_points) {
        exercise30_not_written = false;
        x->picture_points(f, &shared->picture);
        if (getpid() != shared->leader)
            _exit(0);
        shared->picture_done = !exercise30_not_written;
    }
    fflush(NULL); /* what the student's code printed */
    _exit(0);
}

/* ---- in the parent -------------------------------------------------------------------- */

/* What the child wrote to its standard error so far, kept as far as it fits (the pipe is
 * emptied as the child writes, so that a chatty body never blocks on it). */
static void drain(int fd, grade30_shared *s, size_t *used)
{
    char buf[4096];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0) {
        size_t room = sizeof s->report - 1 - *used, take = (size_t)n < room ? (size_t)n : room;
        memcpy(s->report + *used, buf, take);
        *used += take, s->report_dropped += (size_t)n - take;
    }
    s->report[*used] = '\0';
}

/* Runs the job in a child; *status how it ended, *late whether the deadline ended it. */
static lab_error sandbox(const grade30_entry *x, grade30_fn f, uint64_t seed, grade30_shared **out,
                         int *status, bool *late, lab_diag *d)
{
    /* the grading's seconds; once its result is whole, a second at most for the picture's calls */
    double seconds = grade30_seconds, picture_seconds = fmin(1, grade30_seconds);
    grade30_shared *s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (s == MAP_FAILED)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, x->function, "no memory to share with its child: %s",
                         strerror(errno));
    memset(s, 0, sizeof *s);
    int err[2];
    if (pipe(err) != 0) {
        munmap(s, sizeof *s);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, x->function, "no pipe for its child: %s", strerror(errno));
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        munmap(s, sizeof *s);
        close(err[0]), close(err[1]);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, x->function, "no child process: %s", strerror(errno));
    }
    if (pid == 0) {
        shared = s;
        dup2(err[1], STDERR_FILENO); /* a sanitizer's report, and whatever the body prints there */
        close(err[0]), close(err[1]);
        run_child(x, f, seed);
    }
    close(err[1]);
    fcntl(err[0], F_SETFL, O_NONBLOCK);
    size_t used = 0;
    setpgid(pid, pid); /* also here, so that the group exists before the first kill */
    double start = grade30_now();
    *late = false;
    siginfo_t info;
    for (;;) { /* the child's end, seen without reaping it, or the deadline */
        memset(&info, 0, sizeof info);
        drain(err[0], s, &used);
        if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid)
            break;
        if (grade30_now() - start > seconds + (s->done ? picture_seconds : 0)) {
            *late = true;
            break;
        }
        grade30_pause_ms(1);
    }
    /* the whole group: the child and every copy of it; then, the child reaped, whatever
     * copies are left, until none is (a copy that is a zombie nobody reaps still counts:
     * at most 200 ms) */
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
    while (waitpid(pid, status, 0) < 0 && errno == EINTR)
        ;
    for (int i = 0; i < 200 && kill(-pid, SIGKILL) == 0; i++)
        grade30_pause_ms(1);
    drain(err[0], s, &used);
    close(err[0]);
    *out = s;
    return LAB_OK;
}

lab_error grade30_run(const grade30_entry *x, grade30_fn f, uint64_t seed, grade30_result *out,
                      grade30_picture_data *picture, lab_diag *d)
{
    grade30_shared *s = NULL;
    int status = 0;
    bool late = false;
    lab_error e = sandbox(x, f, seed, &s, &status, &late, d);
    if (e != LAB_OK)
        return e;
    if (s->done && s->out_of_memory)
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, x->function, "its cases in the grading child");
    else if (s->done) /* the result whole, whatever ended the child in the picture after it */
        *out = s->result;
    else
        grade30_ended_verdict(x, seed, s, status, late, out);
    if (picture) {
        *picture = s->picture;
        picture->drawn = picture->drawn && s->picture_done;
    }
    if (s->report[0] && out->verdict != GRADE30_UNDEFINED) { /* what the body printed, not lost */
        fprintf(stderr, "%s wrote to its standard error:\n%s%s", x->function, s->report,
                s->report[strlen(s->report) - 1] == '\n' ? "" : "\n");
        if (s->report_dropped)
            fprintf(stderr, "(%zu more bytes not shown)\n", s->report_dropped);
    }
    munmap(s, sizeof *s);
    return e;
}

lab_error grade30_check(const grade30_entry *x, grade30_fn f, uint64_t seed, grade30_result *out)
{
    return grade30_grade_all(x, f, seed, out, NULL) ? LAB_OK : LAB_ERR_OUT_OF_MEMORY;
}
