/* ended.c - how a sandboxed child that did not finish ended (ended.h). */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "grade/ended.h"

/* The token of the report that names the source's file and line ("lab/ch30/exercises.c:42"). */
static void source_line(const char *path, const char *report, char *out, size_t size)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    for (const char *at = strstr(report, base); n && at; at = strstr(at + 1, base)) {
        if (at[n] != ':' || at[n + 1] < '0' || at[n + 1] > '9')
            continue;
        const char *end = at + n + 1;
        while (*end >= '0' && *end <= '9')
            end++;
        snprintf(out, size, "%s:%.*s", path, (int)(end - at - n - 1), at + n + 1);
        return;
    }
    out[0] = '\0';
}

/* The file and line of the bad instruction, from binutils' addr2line (run with a deadline
 * of its own); "" when it cannot say. */
static void line_of(const grade_shared_head *s, const char *path, char *out, size_t size)
{
    out[0] = '\0';
    if (!s->access_offset)
        return;
    char object[300], offset[32];
    if (!s->access_object[0])
        snprintf(object, sizeof object, "/proc/%ld/exe", (long)getpid()); /* this program: the child's */
    else
        snprintf(object, sizeof object, "%s", s->access_object);
    snprintf(offset, sizeof offset, "%#lx", s->access_offset);
    int fd[2];
    if (pipe(fd) != 0)
        return;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], STDOUT_FILENO);
        close(fd[0]), close(fd[1]);
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0)
            dup2(null, STDERR_FILENO);
        execlp("addr2line", "addr2line", "-e", object, offset, (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    char text[512] = "";
    size_t used = 0;
    double start = grade_now();
    fcntl(fd[0], F_SETFL, O_NONBLOCK);
    for (int status; pid > 0;) {
        ssize_t n = read(fd[0], text + used, sizeof text - 1 - used);
        if (n > 0)
            used += (size_t)n;
        if (waitpid(pid, &status, WNOHANG) == pid)
            break;
        if (grade_now() - start > 2) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            break;
        }
        nanosleep(&(struct timespec){0, 1000000L}, NULL);
    }
    ssize_t n;
    while (used < sizeof text - 1 && (n = read(fd[0], text + used, sizeof text - 1 - used)) > 0)
        used += (size_t)n;
    close(fd[0]);
    text[used] = '\0';
    source_line(path, text, out, size);
}

/* The sanitizer's own words: UBSan's "runtime error: ..." line, or ASan's kind of error. */
static void sanitizer_words(const char *report, char *out, size_t size)
{
    const char *ub = strstr(report, "runtime error: "), *asan = strstr(report, "AddressSanitizer: ");
    const char *from = ub ? ub + 15 : asan ? asan : NULL;
    if (!from) {
        snprintf(out, size, "a sanitizer's report");
        return;
    }
    size_t len = strcspn(from, "\n");
    snprintf(out, size, "%s%.*s", ub ? "UndefinedBehaviorSanitizer: " : "", (int)(len > 160 ? 160 : len), from);
    char *cut = strstr(out, " on address"); /* ASan's kind of error, without the addresses */
    if (cut)
        *cut = '\0';
}

grade_ending grade_ended(const grade_shared_head *s, const grade_end *end, const char *source, char *detail,
                         size_t size)
{
    int status = end->status;
    const char *r = end->report;
    if (s->forbidden > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 121) {
        snprintf(detail, size, "it called %s", grade_syscall_name(s->forbidden - 1));
        return GRADE_ENDED_FORBIDDEN;
    }
    if (end->late || (WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU)) {
        snprintf(detail, size, "over %g s", end->seconds_allowed);
        return GRADE_ENDED_TOO_SLOW;
    }
    /* the allocator's end, not the student's undefined behaviour: ASan's "allocator is out
     * of memory" and "requested allocation size exceeds", glibc's under the address limit */
    if (strstr(r, "out of memory") || strstr(r, "allocation-size-too-big") || strstr(r, "exceeds maximum supported size") ||
        strstr(r, "Cannot allocate memory")) {
        snprintf(detail, size, "it ran out of memory (%s)",
                 s->sanitizer ? "the sanitizer's allocator" : "the child's limit on its address space");
        return GRADE_ENDED_OUT_OF_MEMORY;
    }
    if (s->sanitizer || strstr(r, "runtime error: ") || strstr(r, "ERROR: AddressSanitizer")) {
        char where[160], words[200];
        source_line(source, r, where, sizeof where);
        if (!where[0]) /* the report unsymbolized: ask addr2line */
            line_of(s, source, where, sizeof where);
        sanitizer_words(r, words, sizeof words);
        snprintf(detail, size, "%.150s%s%s%.150s%s(%.160s)", s->access[0] ? s->access : "", s->access[0] ? " " : "",
                 where[0] ? "at " : "", where, where[0] ? " " : "", words);
        return GRADE_ENDED_UNDEFINED;
    }
    if (WIFSIGNALED(status)) {
        char how[96];
        grade_signal_words(WTERMSIG(status), how, sizeof how);
        snprintf(detail, size, "%s", how);
    } else
        snprintf(detail, size, "the process ended (exit status %d)", WIFEXITED(status) ? WEXITSTATUS(status) : status);
    return GRADE_ENDED_CRASHED;
}
