/* sandbox.c - a student's code run in a child process that the parent limits (sandbox.h). */
#define _GNU_SOURCE /* MAP_ANONYMOUS, setgroups, dladdr */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/audit.h>
#include <linux/sched.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
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

#include "grade/arrays.h"
#include "grade/sandbox.h"

/* The sanitizers' interface, present only where the program was built with them. */
extern void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));
extern void *__asan_get_report_address(void) __attribute__((weak));
extern int __asan_get_report_access_type(void) __attribute__((weak));
extern void *__asan_get_report_pc(void) __attribute__((weak));

double grade_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void pause_ms(long ms) { nanosleep(&(struct timespec){0, ms * 1000000L}, NULL); }

grade_limits grade_limits_default(double seconds)
{
    return (grade_limits){seconds, fmin(1, seconds), (unsigned long)4 << 30, 1024, true, true};
}

grade_shared_head *grade_shared_new(size_t size)
{
    if (size < sizeof(grade_shared_head))
        size = sizeof(grade_shared_head);
    void *s = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (s == MAP_FAILED)
        return NULL;
    memset(s, 0, size);
    return s;
}

void grade_shared_free(grade_shared_head *s, size_t size)
{
    if (s)
        munmap(s, size < sizeof *s ? sizeof *s : size);
}

/* ---- in the child --------------------------------------------------------------------- */

/* The child's record (the parent's mapping, inherited), for the death callback. */
static grade_shared_head *child_record;

/* The child's own pid, in its own memory (the shared record is the student's to scribble on). */
static pid_t child_pid;
static bool child_filtered; /* the child runs under the system-call filter */

bool grade_in_child(void) { return child_pid != 0 && child_pid == getpid(); }

static void sanitizer_death(void)
{
    grade_shared_head *s = child_record;
    if (!s)
        return;
    s->sanitizer = true;
    if (__asan_get_report_address) {
        s->access_address = (unsigned long)(uintptr_t)__asan_get_report_address();
        s->access_write = __asan_get_report_access_type && __asan_get_report_access_type();
        grade_name_access((uintptr_t)s->access_address, s->access_write, s->access, sizeof s->access);
    }
    /* where the access is, for addr2line in the parent: the report's own symbolizer runs as
     * this child's user, who may not read the program's folder */
    void *pc = __asan_get_report_pc ? __asan_get_report_pc() : NULL;
    Dl_info info, self;
    if (pc && dladdr(pc, &info) && info.dli_fbase) {
        bool main_program = dladdr((void *)(uintptr_t)sanitizer_death, &self) && self.dli_fbase == info.dli_fbase;
        s->access_offset = (unsigned long)((uintptr_t)pc - (uintptr_t)info.dli_fbase);
        snprintf(s->access_object, sizeof s->access_object, "%s", main_program || !info.dli_fname ? "" : info.dli_fname);
    }
}

/* ---- the system-call filter ----------------------------------------------------------- */

/* The calls the filter stops, by name (the parent's words: grade_syscall_name). */
static const struct {
    long nr;
    const char *name;
} forbidden_calls[] = {
    {SYS_kill, "kill"}, {SYS_tkill, "tkill"}, {SYS_tgkill, "tgkill"}, {SYS_rt_sigqueueinfo, "rt_sigqueueinfo"},
    {SYS_rt_tgsigqueueinfo, "rt_tgsigqueueinfo"}, {SYS_execve, "execve"}, {SYS_execveat, "execveat"},
    {SYS_setsid, "setsid"}, {SYS_setpgid, "setpgid"}, {SYS_setrlimit, "setrlimit"}, {SYS_prlimit64, "prlimit64"},
    {SYS_socket, "socket"}, {SYS_socketpair, "socketpair"}, {SYS_unlinkat, "unlinkat"}, {SYS_renameat, "renameat"},
    {SYS_renameat2, "renameat2"}, {SYS_mkdirat, "mkdirat"}, {SYS_linkat, "linkat"}, {SYS_symlinkat, "symlinkat"},
    {SYS_clone, "fork (clone)"}, {SYS_clone3, "clone3"},
    {SYS_fchmod, "fchmod"}, {SYS_fchmodat, "fchmodat"}, {SYS_fchown, "fchown"}, {SYS_fchownat, "fchownat"},
    {SYS_truncate, "truncate"}, {SYS_ftruncate, "ftruncate"}, {SYS_openat, "openat"}, {SYS_ioctl, "ioctl"},
#ifdef SYS_fork
    {SYS_fork, "fork"}, {SYS_vfork, "vfork"},
#endif
#ifdef SYS_open
    {SYS_open, "open"}, {SYS_creat, "creat"}, {SYS_unlink, "unlink"}, {SYS_rename, "rename"}, {SYS_rmdir, "rmdir"},
    {SYS_mkdir, "mkdir"}, {SYS_link, "link"}, {SYS_symlink, "symlink"}, {SYS_chmod, "chmod"}, {SYS_chown, "chown"},
    {SYS_lchown, "lchown"},
#endif
#ifdef SYS_openat2
    {SYS_openat2, "openat2"},
#endif
#ifdef SYS_pidfd_send_signal
    {SYS_pidfd_send_signal, "pidfd_send_signal"},
#endif
};

const char *grade_syscall_name(int nr)
{
    for (size_t i = 0; i < sizeof forbidden_calls / sizeof forbidden_calls[0]; i++)
        if (forbidden_calls[i].nr == nr)
            return forbidden_calls[i].name;
    return "a system call the grader does not allow";
}

/* A stopped call: its number for the parent, then the end of the child. A copy the job
 * forked says nothing (the copy is not the one grading). */
static void stopped(int sig, siginfo_t *info, void *context)
{
    (void)sig, (void)context;
    if (child_record && grade_in_child())
        child_record->forbidden = info->si_syscall + 1;
    _exit(121);
}

#if defined(__x86_64__)
#define FILTER_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define FILTER_ARCH AUDIT_ARCH_AARCH64
#endif

/* The filter: the calls above stopped (SECCOMP_RET_TRAP, a SIGSYS the handler above turns
 * into the child's end), but a signal to this process or its own group (abort and raise
 * send them), opens that only read, ioctl's other requests, and getrlimit through prlimit64
 * (no new limit). Everything else is allowed. */
static void install_filter(void)
{
#ifdef FILTER_ARCH
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = stopped, sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSYS, &sa, NULL);
    uint32_t self = (uint32_t)getpid(), group = (uint32_t)-(int32_t)getpid();
    enum { MOST = 200 };
    struct sock_filter f[MOST];
    int n = 0;
#define ARG(k) ((uint32_t)offsetof(struct seccomp_data, args[k])) /* the low 32 bits, little-endian */
    f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
    f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, FILTER_ARCH, 1, 0);
    f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP); /* another ABI's calls */
    f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
    f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1); /* x32's numbering */
    f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
    for (size_t i = 0; i < sizeof forbidden_calls / sizeof forbidden_calls[0] && n + 12 < MOST; i++) {
        long nr = forbidden_calls[i].nr;
        /* each call: load nr; not this one: skip the block; else the block's tests */
        struct sock_filter block[10];
        int b = 0;
        if (nr == SYS_kill || nr == SYS_tgkill || nr == SYS_tkill) { /* itself, or its own group */
            block[b++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG(0));
            block[b++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, self, 3, 0);
            block[b++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr == SYS_kill ? 0 : self, 2, 0);
            block[b++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr == SYS_kill ? group : self, 1, 0);
            block[b++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
            block[b++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
        } else if (nr == SYS_openat) { /* flags in args[2]: to read only */
            block[b++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG(2));
            block[b++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K,
                                                      O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND, 0, 1);
            block[b++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
            block[b++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
#ifdef SYS_open
        } else if (nr == SYS_open) { /* flags in args[1] */
            block[b++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG(1));
            block[b++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K,
                                                      O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND, 0, 1);
            block[b++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
            block[b++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
#endif
        } else if (nr == SYS_clone) { /* a new process (no CLONE_VM): stopped; a thread, or the
                                         * sanitizer's own tracer, shares the memory and passes */
            block[b++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG(0));
            block[b++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_VM, 1, 0);
            block[b++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
            block[b++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
        } else if (nr == SYS_clone3) { /* its flags are behind a pointer: "not here", and the C
                                          * library falls back to clone, judged above */
            block[b++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS);
        } else if (nr == SYS_ioctl) { /* TIOCSTI alone */
            block[b++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG(1));
            block[b++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TIOCSTI, 0, 1);
            block[b++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
            block[b++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
        } else if (nr == SYS_prlimit64) { /* a new limit in args[2]: stopped; getrlimit passes */
            block[b++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG(2));
            block[b++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1);
            block[b++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG(2) + 4);
            block[b++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0);
            block[b++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
            block[b++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
        } else
            block[b++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
        f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
        f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, (uint8_t)b);
        for (int k = 0; k < b; k++)
            f[n++] = block[k];
    }
    f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
#undef ARG
    struct sock_fprog prog = {(unsigned short)n, f};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0)
        prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog); /* refused by an old kernel: left out */
#endif
}

void grade_sandbox_seal(void)
{
#ifdef FILTER_ARCH
    /* a second filter, stacked on the first (whose stopped calls still stop): every open
     * refused with EACCES from here on, the sheet's object being open already */
    static const long opens[] = {SYS_openat,
#ifdef SYS_open
                                 SYS_open, SYS_creat,
#endif
#ifdef SYS_openat2
                                 SYS_openat2,
#endif
    };
    struct sock_filter f[4 + 2 * sizeof opens / sizeof opens[0]];
    int n = 0;
    f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
    for (size_t i = 0; i < sizeof opens / sizeof opens[0]; i++) {
        f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)opens[i], 0, 1);
        f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES);
    }
    f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    struct sock_fprog prog = {(unsigned short)n, f};
    if (child_filtered)
        prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
#endif
}

static void child_limits(const grade_limits *lim)
{
    static const int defaults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGALRM, SIGXCPU, SIGTERM, SIGPIPE, SIGINT};
    for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++)
        signal(defaults[i], SIG_DFL); /* a handler the parent installed (a test runner's) must not catch it */
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    /* Root is exempt from the process limit: a child of root's runs as nobody, so that a
     * fork bomb stops at the limit (where the system lets it change users). Dumpable again,
     * so that a sanitizer can still read /proc/self/maps. */
    if (lim->as_nobody && geteuid() == 0 && setgroups(0, NULL) == 0 && setgid(65534) == 0 && setuid(65534) == 0)
        prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
    rlim_t cpu = (rlim_t)ceil(lim->seconds + lim->extra_seconds) + 1;
    setrlimit(RLIMIT_CPU, &(struct rlimit){cpu, cpu + 1});
    setrlimit(RLIMIT_CORE, &(struct rlimit){0, 0});
    if (lim->processes > 0)
        setrlimit(RLIMIT_NPROC, &(struct rlimit){(rlim_t)lim->processes, (rlim_t)lim->processes});
    if (lim->address_space && !__asan_get_report_address) /* AddressSanitizer reserves terabytes */
        setrlimit(RLIMIT_AS, &(struct rlimit){(rlim_t)lim->address_space, (rlim_t)lim->address_space});
    if (__sanitizer_set_death_callback)
        __sanitizer_set_death_callback(sanitizer_death);
    int null = open("/dev/null", O_RDONLY); /* nothing to read from the grader's terminal */
    if (null >= 0)
        dup2(null, STDIN_FILENO), close(null);
    if (lim->filtered)
        install_filter();
    child_filtered = lim->filtered;
}

bool grade_started_a_process(const grade_shared_head *shared)
{
    if (!shared)
        return false;
    if (!grade_in_child())
        _exit(0);
    int status;
    pid_t w = waitpid(-1, &status, WNOHANG);
    return !(w < 0 && errno == ECHILD);
}

/* ---- in the parent -------------------------------------------------------------------- */

enum { KNOWN_CHILDREN = 256 };

/* This process's children, from /proc (a name's parentheses read from the last one); at
 * most max into out, the count returned. */
static int children_of_this(pid_t *out, int max)
{
    DIR *proc = opendir("/proc");
    if (!proc)
        return 0;
    int n = 0;
    pid_t self = getpid();
    for (struct dirent *e; (e = readdir(proc)) && n < max;) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        char path[64], text[512];
        snprintf(path, sizeof path, "/proc/%.20s/stat", e->d_name);
        int fd = open(path, O_RDONLY);
        if (fd < 0)
            continue;
        ssize_t len = read(fd, text, sizeof text - 1);
        close(fd);
        if (len <= 0)
            continue;
        text[len] = '\0';
        const char *close_paren = strrchr(text, ')');
        char state;
        long ppid;
        if (close_paren && sscanf(close_paren + 1, " %c %ld", &state, &ppid) == 2 && ppid == (long)self)
            out[n++] = (pid_t)atol(e->d_name);
    }
    closedir(proc);
    return n;
}

/* Ends every descendant the job left: this process is the children's subreaper while the
 * job runs, so that a copy that left the group (setsid, a daemon's double fork) comes to it
 * when its parent ends; each child that was not this process's before the run is killed and
 * reaped, until none is left (at most 200 ms). */
static void end_the_escaped(const pid_t *before, int known)
{
    pid_t now[KNOWN_CHILDREN];
    for (int round = 0; round < 200; round++) {
        int n = children_of_this(now, KNOWN_CHILDREN), left = 0;
        for (int i = 0; i < n; i++) {
            bool old = false;
            for (int k = 0; k < known && !old; k++)
                old = before[k] == now[i];
            if (old)
                continue;
            kill(now[i], SIGKILL);
            left += waitpid(now[i], NULL, WNOHANG) == 0;
        }
        if (left == 0 && n <= known)
            return;
        pause_ms(1);
    }
}

/* What the child wrote to its standard error so far, kept as far as it fits (the pipe is
 * emptied as the child writes, so that a chatty body never blocks on it). */
static void drain(int fd, grade_end *end, size_t *used)
{
    char buf[4096];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0) {
        size_t room = sizeof end->report - 1 - *used, take = (size_t)n < room ? (size_t)n : room;
        memcpy(end->report + *used, buf, take);
        *used += take, end->report_dropped += (size_t)n - take;
    }
    end->report[*used] = '\0';
}

/* The answers written so far, kept as far as max_bytes; false past it. */
static bool take_answers(int fd, bytes *answers, size_t max_bytes)
{
    unsigned char buf[65536];
    ssize_t n;
    while (fd >= 0 && (n = read(fd, buf, sizeof buf)) > 0) {
        if (answers->len + (size_t)n > max_bytes)
            return false;
        bytes_append(answers, buf, (size_t)n);
    }
    return true;
}

lab_error grade_sandbox_run(const char *what, const grade_limits *limits, grade_job job, void *arg,
                            grade_shared_head *shared, grade_end *end, lab_diag *d)
{
    return grade_sandbox_answers(what, limits, job, arg, shared, NULL, 0, end, d);
}

lab_error grade_sandbox_answers(const char *what, const grade_limits *limits, grade_job job, void *arg,
                                grade_shared_head *shared, bytes *answers, size_t max_bytes, grade_end *end,
                                lab_diag *d)
{
    memset(end, 0, sizeof *end);
    pid_t before[KNOWN_CHILDREN];
    int known = children_of_this(before, KNOWN_CHILDREN), subreaper = 0;
    prctl(PR_GET_CHILD_SUBREAPER, &subreaper, 0, 0, 0);
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    int err[2], ans[2] = {-1, -1};
    if (pipe(err) != 0 || (answers && pipe(ans) != 0)) {
        prctl(PR_SET_CHILD_SUBREAPER, subreaper, 0, 0, 0);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, what, "no pipe for its child: %s", strerror(errno));
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(err[0]), close(err[1]);
        if (answers)
            close(ans[0]), close(ans[1]);
        prctl(PR_SET_CHILD_SUBREAPER, subreaper, 0, 0, 0);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, what, "no child process: %s", strerror(errno));
    }
    if (pid == 0) {
        setpgid(0, 0);
        shared->leader = child_pid = getpid();
        shared->answers_fd = ans[1];
        child_record = shared;
        /* a sanitizer's report, and whatever the body prints, on either stream: kept apart from
         * the verdicts, which the parent prints */
        dup2(err[1], STDERR_FILENO), dup2(err[1], STDOUT_FILENO);
        close(err[0]), close(err[1]);
        if (answers)
            close(ans[0]);
        child_limits(limits);
        job(arg, shared);
        fflush(NULL);
        _exit(0);
    }
    close(err[1]);
    fcntl(err[0], F_SETFL, O_NONBLOCK);
    if (answers) {
        close(ans[1]);
        fcntl(ans[0], F_SETFL, O_NONBLOCK);
    }
    bool too_much = false;
    size_t used = 0;
    setpgid(pid, pid); /* also here, so that the group exists before the first kill */
    double start = grade_now();
    siginfo_t info;
    for (;;) { /* the child's end, seen without reaping it, or the deadline */
        memset(&info, 0, sizeof info);
        drain(err[0], end, &used);
        if (answers && !take_answers(ans[0], answers, max_bytes)) {
            too_much = end->late = true; /* more answers than the exercise has: stopped */
            break;
        }
        if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid)
            break;
        end->seconds_allowed = limits->seconds + (shared->phase >= 1 ? limits->extra_seconds : 0);
        if (grade_now() - start > end->seconds_allowed) {
            end->late = true;
            break;
        }
        pause_ms(1);
    }
    end->seconds_allowed = limits->seconds + (shared->phase >= 1 ? limits->extra_seconds : 0);
    /* the whole group: the child and every copy of it; then, the child reaped, whatever
     * copies are left, until none is (a copy that is a zombie nobody reaps still counts:
     * at most 200 ms) */
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
    while (waitpid(pid, &end->status, 0) < 0 && errno == EINTR)
        ;
    for (int i = 0; i < 200 && kill(-pid, SIGKILL) == 0; i++) {
        while (waitpid(-pid, NULL, WNOHANG) > 0) /* the group's copies, ours now: reaped */
            ;
        pause_ms(1);
    }
    end_the_escaped(before, known);
    prctl(PR_SET_CHILD_SUBREAPER, subreaper, 0, 0, 0);
    drain(err[0], end, &used);
    close(err[0]);
    if (answers) {
        if (!too_much && !take_answers(ans[0], answers, max_bytes))
            end->late = true;
        close(ans[0]);
        if (answers->failed)
            return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, what, "its answers");
    }
    return LAB_OK;
}

void grade_signal_words(int sig, char *out, size_t size)
{
    static const struct { int sig; const char *name; } names[] = {
        {SIGSEGV, "SIGSEGV"}, {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},   {SIGILL, "SIGILL"},   {SIGABRT, "SIGABRT"},
        {SIGKILL, "SIGKILL"}, {SIGXCPU, "SIGXCPU"}, {SIGALRM, "SIGALRM"}, {SIGTERM, "SIGTERM"}, {SIGPIPE, "SIGPIPE"},
        {SIGSYS, "SIGSYS"},   {SIGXFSZ, "SIGXFSZ"}, {SIGINT, "SIGINT"},   {SIGHUP, "SIGHUP"},   {SIGUSR1, "SIGUSR1"},
        {SIGUSR2, "SIGUSR2"}, {SIGTRAP, "SIGTRAP"}, {SIGQUIT, "SIGQUIT"},
    };
    const char *name = "a signal";
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].sig == sig)
            name = names[i].name;
    snprintf(out, size, "%s %d (%s)", name, sig, strsignal(sig));
}
