/* child.c - a job in a child process, its result through a pipe (see child.h). */
#define _POSIX_C_SOURCE 200809L
#include "base/child.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define CHILD_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CHILD_LSAN 1
#endif
#endif
#ifdef CHILD_LSAN
#include <sanitizer/lsan_interface.h>
#endif

static bool write_all(int fd, const void *data, size_t n)
{
    for (const char *p = data; n > 0;) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w, n -= (size_t)w;
    }
    return true;
}

static bool read_all(int fd, void *data, size_t n)
{
    for (char *p = data; n > 0;) {
        ssize_t r = read(fd, p, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        p += r, n -= (size_t)r;
    }
    return true;
}

/* What the child sends first; the result's bytes follow. */
typedef struct {
    lab_error error;
    lab_diag diag;
    size_t size;
} child_header;

static bool in_job;

bool child_in_job(void) { return in_job; }

/* The child's side: run, send, end. Never returns. */
static void run_and_send(int fd, child_job job, void *state)
{
    in_job = true;
    child_header h = {0};
    bytes result = {0};
    h.error = job(state, &result, &h.diag);
    if (h.error == LAB_OK && result.failed)
        h.error = diag_fail(&h.diag, LAB_ERR_OUT_OF_MEMORY, "child process", "its result, %zu bytes", result.len);
    h.size = h.error == LAB_OK ? result.len : 0;
    bool sent = write_all(fd, &h, sizeof h) && write_all(fd, result.data, h.size);
    bytes_free(&result);
    int status = sent ? 0 : 1;
#ifdef CHILD_LSAN
    if (__lsan_do_recoverable_leak_check())
        status = 1;
#endif
    _exit(status);
}

/* How the child ended, in words. */
static void describe_end(int status, char *buf, size_t size)
{
    if (WIFSIGNALED(status))
        snprintf(buf, size, "signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
    else if (WIFEXITED(status))
        snprintf(buf, size, "exit status %d", WEXITSTATUS(status));
    else
        snprintf(buf, size, "wait status %d", status);
}

lab_error child_run(const char *what, child_job job, void *state, bytes *result, lab_error crash_code,
                    lab_diag *d)
{
    int fd[2];
    if (pipe(fd) != 0)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, what, "no pipe for its child process: %s", strerror(errno));
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]), close(fd[1]);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, what, "no child process: %s", strerror(errno));
    }
    if (pid == 0) {
        close(fd[0]);
        run_and_send(fd[1], job, state);
    }
    close(fd[1]);
    child_header h;
    bool whole = read_all(fd[0], &h, sizeof h);
    unsigned char *chunk = whole ? malloc(h.size ? h.size : 1) : NULL;
    bool received = chunk && read_all(fd[0], chunk, h.size);
    if (received)
        bytes_append(result, chunk, h.size);
    free(chunk);
    close(fd[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (received && !result->failed && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        if (h.error != LAB_OK) { /* the job's own error: its diag, and no result */
            bytes_free(result);
            if (d)
                *d = h.diag;
        }
        return h.error;
    }
    bool not_taken = (whole && !chunk) || result->failed; /* the child was fine; this process ran out */
    bytes_free(result);
    if (not_taken)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, what, "its child's result, %zu bytes", h.size);
    char end[96];
    describe_end(status, end, sizeof end);
    return diag_fail(d, crash_code, what, "its child process ended by %s before its result was whole", end);
}

bool child_ended(const lab_diag *crash, bool *out_of_memory)
{
    bool ended = strstr(crash->value, "before its result was whole") != NULL;
    *out_of_memory = ended && (strstr(crash->value, "exit status 3 ") || strstr(crash->value, "exit status 127 "));
    return ended;
}
