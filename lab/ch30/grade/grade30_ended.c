/* grade30_ended.c - the verdict of a grading child that did not finish (grade30_grading.h):
 * too slow (the parent's deadline, or the CPU limit), undefined behaviour (a sanitizer's
 * report, read for the array, the sheet's file and line, and its own words; addr2line where
 * the report is unsymbolized), or crashed (a signal, an exit), each with the case it was in. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "grade30.h"
#include "grade30_grading.h"

double grade30_seconds = 2;
const char *grade30_sheet_paths[GRADE30_SHEET_COUNT] = {
    "lab/ch30/exercises.c", "lab/ch30/sheets/skeleton.c", "lab/ch30/sheets/dqs.c", "lab/ch30/sheets/normals.c",
    "lab/ch30/sheets/palette.c", "lab/ch30/sheets/weights.c", "lab/ch30/sheets/shader.glsl",
    "lab/ch30/sheets/fixes.c"};

/* A signal's name: "SIGSEGV (Segmentation fault)". */
static void signal_words(int sig, char *out, size_t size)
{
    static const struct { int sig; const char *name; } names[] = {
        {SIGSEGV, "SIGSEGV"}, {SIGBUS, "SIGBUS"}, {SIGFPE, "SIGFPE"},   {SIGILL, "SIGILL"}, {SIGABRT, "SIGABRT"},
        {SIGKILL, "SIGKILL"}, {SIGXCPU, "SIGXCPU"}, {SIGALRM, "SIGALRM"}, {SIGTERM, "SIGTERM"}, {SIGPIPE, "SIGPIPE"},
    };
    const char *name = "a signal";
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].sig == sig)
            name = names[i].name;
    snprintf(out, size, "%s %d (%s)", name, sig, strsignal(sig));
}

/* The token of the report that names the sheet's file and line ("lab/ch30/exercises.c:42"). */
static void sheet_line(const char *path, const char *report, char *out, size_t size)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    for (const char *at = strstr(report, base); at; at = strstr(at + 1, base)) {
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

/* The file and line of an instruction, from binutils' addr2line (run with a deadline of
 * its own); "" when it cannot say. */
static void line_of(const grade30_shared *s, const char *path, char *out, size_t size)
{
    out[0] = '\0';
    if (!s->access_offset)
        return;
    char object[300], offset[32];
    if (!s->access_object[0])
        snprintf(object, sizeof object, "/proc/%ld/exe", (long)getpid()); /* this grader: the child's program */
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
    double start = grade30_now();
    fcntl(fd[0], F_SETFL, O_NONBLOCK);
    for (int status; pid > 0;) {
        ssize_t n = read(fd[0], text + used, sizeof text - 1 - used);
        if (n > 0)
            used += (size_t)n;
        if (waitpid(pid, &status, WNOHANG) == pid)
            break;
        if (grade30_now() - start > 2) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            break;
        }
        grade30_pause_ms(1);
    }
    ssize_t n;
    while (used < sizeof text - 1 && (n = read(fd[0], text + used, sizeof text - 1 - used)) > 0)
        used += (size_t)n;
    close(fd[0]);
    text[used] = '\0';
    sheet_line(path, text, out, size);
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

/* The verdict of a child that did not finish: too slow, crashed, or a sanitizer's. */
void grade30_ended_verdict(const grade30_entry *x, uint64_t seed, const grade30_shared *s, int status, bool late,
                           grade30_result *out)
{
    *out = (grade30_result){.mistake = -1, .failed = s->case_index + 1, .failed_pass = s->pass ? s->pass : 1};
    grade30_case c;
    x->make_case(s->case_index, seed, &c);
    snprintf(out->failed_case, sizeof out->failed_case, "%s", c.what);
    char how[96];
    if (late || (WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU)) {
        out->verdict = GRADE30_TOO_SLOW;
        snprintf(out->detail, sizeof out->detail,
                 "too slow: over %g s for the exercise's %d calls (a correct body takes microseconds a call); "
                 "its process group was killed",
                 grade30_seconds, 2 * (x->named + x->generated));
    } else if (s->sanitizer || strstr(s->report, "runtime error: ") || strstr(s->report, "ERROR: AddressSanitizer")) {
        out->verdict = GRADE30_UNDEFINED;
        char where[160], words[200];
        const char *path = grade30_sheet_paths[grade30_sheet_of((int)(x - grade30_table))];
        sheet_line(path, s->report, where, sizeof where);
        if (!where[0]) /* the report unsymbolized: ask addr2line */
            line_of(s, path, where, sizeof where);
        sanitizer_words(s->report, words, sizeof words);
        snprintf(out->detail, sizeof out->detail, "%.150s%s%s%.150s%s(%.160s)", s->access[0] ? s->access : "", s->access[0] ? " " : "",
                 where[0] ? "at " : "", where, where[0] ? " " : "", words);
    } else if (WIFSIGNALED(status)) {
        out->verdict = GRADE30_CRASHED;
        signal_words(WTERMSIG(status), how, sizeof how);
        snprintf(out->detail, sizeof out->detail, "crashed: %s", how);
    } else {
        out->verdict = GRADE30_CRASHED;
        snprintf(out->detail, sizeof out->detail,
                 "crashed: the process ended (exit status %d) inside the call: a formula returns its answer, it "
                 "never ends the program",
                 WIFEXITED(status) ? WEXITSTATUS(status) : status);
    }
}

