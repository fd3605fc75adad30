/* build.c - a student's sheet compiled on its own into a shared object (build.h). */
#define _GNU_SOURCE /* O_CLOEXEC, dirent's d_type */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/bytes.h"
#include "grade/build.h"
#include "grade/sandbox.h"

enum { WORDS = 128, SOURCE_BYTES = 1 << 20 };

void grade_ascii(char *text, bool lines)
{
    for (unsigned char *c = (unsigned char *)text; *c; c++)
        if (!((*c >= 0x20 && *c <= 0x7e) || (lines && *c == '\n')))
            *c = '?';
}

void grade_first_error(const char *log, char *out, size_t size)
{
    const char *line, *pick = NULL;
    for (const char *at = log; at && *at; at = strchr(at, '\n') ? strchr(at, '\n') + 1 : NULL)
        if (!pick) {
            size_t n = strcspn(at, "\n");
            const char *e = strstr(at, "error");
            if (e && (size_t)(e - at) < n)
                pick = at;
        }
    if (!pick) /* else the first line that says anything */
        for (pick = log; *pick == '\n' || *pick == ' ' || *pick == '\t';)
            pick++;
    line = pick;
    size_t n = strcspn(line, "\n");
    if (size == 0)
        return;
    if (n >= size)
        n = size - 1;
    memcpy(out, line, n);
    out[n] = '\0';
    grade_ascii(out, false);
}

lab_error grade_command_start(grade_command *cmd, char *const *argv, const grade_command_limits *limits, char *log,
                              size_t size, lab_diag *d)
{
    *cmd = (grade_command){.pid = -1, .fd = -1, .log = log, .size = size, .seconds = limits->seconds};
    log[0] = '\0';
    int pipe_fd[2];
    if (pipe(pipe_fd) != 0)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, argv[0], "no pipe: %s", strerror(errno));
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(pipe_fd[0]), close(pipe_fd[1]);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, argv[0], "no child process: %s", strerror(errno));
    }
    if (pid == 0) {
        setpgid(0, 0);
        dup2(pipe_fd[1], STDOUT_FILENO), dup2(pipe_fd[1], STDERR_FILENO);
        close(pipe_fd[0]), close(pipe_fd[1]);
        int null = open("/dev/null", O_RDONLY);
        if (null >= 0)
            dup2(null, STDIN_FILENO);
        signal(SIGPIPE, SIG_DFL);
        setenv("LC_ALL", "C", 1), setenv("LANG", "C", 1), unsetenv("LANGUAGE"), unsetenv("GCC_COLORS");
        /* time, file size and memory: a sheet that includes /dev/zero ends here (set last:
         * in a sanitized program this copy allocates through the sanitizer, which the
         * address-space limit would refuse; exec starts the command afresh under them) */
        rlim_t cpu = (rlim_t)limits->seconds + 1;
        setrlimit(RLIMIT_CPU, &(struct rlimit){cpu, cpu + 1});
        setrlimit(RLIMIT_FSIZE, &(struct rlimit){(rlim_t)256 << 20, (rlim_t)256 << 20});
        setrlimit(RLIMIT_CORE, &(struct rlimit){0, 0});
        if (limits->address_space)
            setrlimit(RLIMIT_AS, &(struct rlimit){(rlim_t)limits->address_space, (rlim_t)limits->address_space});
        execvp(argv[0], argv);
        fprintf(stderr, "%s: cannot run it: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(pipe_fd[1]);
    fcntl(pipe_fd[0], F_SETFL, O_NONBLOCK);
    setpgid(pid, pid);
    cmd->pid = pid, cmd->fd = pipe_fd[0], cmd->start = grade_now();
    return LAB_OK;
}

/* Ends the command's whole group and collects what is left of its output. */
static void finish(grade_command *cmd)
{
    kill(-cmd->pid, SIGKILL); /* whatever it left in its group */
    close(cmd->fd);
    cmd->log[cmd->used] = '\0';
    grade_ascii(cmd->log, true);
    cmd->pid = -1, cmd->fd = -1, cmd->done = true;
}

bool grade_command_poll(grade_command *cmd)
{
    if (cmd->done || cmd->pid < 0)
        return true;
    char buf[4096];
    ssize_t n;
    while ((n = read(cmd->fd, buf, sizeof buf)) > 0) {
        size_t room = cmd->size - 1 - cmd->used, take = (size_t)n < room ? (size_t)n : room;
        memcpy(cmd->log + cmd->used, buf, take);
        cmd->used += take, cmd->dropped += (size_t)n - take;
    }
    if (waitpid(cmd->pid, &cmd->status, WNOHANG) == cmd->pid) {
        finish(cmd);
        return true;
    }
    if (grade_now() - cmd->start > cmd->seconds || cmd->dropped > ((size_t)64 << 20)) {
        cmd->late = true;
        kill(-cmd->pid, SIGKILL);
        waitpid(cmd->pid, &cmd->status, 0);
        finish(cmd);
        return true;
    }
    return false;
}

void grade_command_stop(grade_command *cmd)
{
    if (cmd->done || cmd->pid < 0)
        return;
    kill(-cmd->pid, SIGKILL);
    waitpid(cmd->pid, &cmd->status, 0);
    cmd->late = true;
    finish(cmd);
}

lab_error grade_command_run(char *const *argv, const grade_command_limits *limits, char *log, size_t size,
                            size_t *dropped, int *status, bool *late, lab_diag *d)
{
    grade_command cmd;
    lab_error e = grade_command_start(&cmd, argv, limits, log, size, d);
    if (e != LAB_OK)
        return e;
    while (!grade_command_poll(&cmd))
        nanosleep(&(struct timespec){0, 2000000L}, NULL);
    *dropped = cmd.dropped, *status = cmd.status, *late = cmd.late;
    return LAB_OK;
}

void *grade_object_open(int fd, char *why, size_t size)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h)
        snprintf(why, size, "%s", dlerror());
    return h;
}

/* Removes the earlier objects of this name (NAME-*.so, regular files: the engine's own). */
static void remove_earlier(const char *dir, const char *name, const char *keep)
{
    DIR *dd = opendir(dir);
    if (!dd)
        return;
    size_t n = strlen(name);
    for (struct dirent *e; (e = readdir(dd));) {
        size_t len = strlen(e->d_name);
        bool object = len > 3 && !strcmp(e->d_name + len - 3, ".so"), log = len > 4 && !strcmp(e->d_name + len - 4, ".log");
        if (strncmp(e->d_name, name, n) || e->d_name[n] != '-' || strspn(e->d_name + n + 1, "0123456789abcdef") != 16 ||
            e->d_name[n + 17] != '.' || !(object || log) || !strncmp(e->d_name, keep, strlen(keep) - 3))
            continue;
        char path[1300];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
            unlink(path);
    }
    closedir(dd);
}

static lab_error make_dirs(const char *dir, lab_diag *d)
{
    char path[1024];
    snprintf(path, sizeof path, "%s", dir);
    for (char *c = path + 1;; c++)
        if (*c == '/' || *c == '\0') {
            char was = *c;
            *c = '\0';
            if (mkdir(path, 0777) != 0 && errno != EEXIST)
                return diag_fail(d, LAB_ERR_OUTPUT, path, "the sheets' objects: %s", strerror(errno));
            if (!(*c = was))
                return LAB_OK;
        }
}

lab_error grade_build_shared(const grade_build_request *req, grade_build *out, grade_build_result *result, lab_diag *d)
{
    memset(out, 0, sizeof *out);
    *result = GRADE_BUILD_UNREADABLE;
    /* the name: the hash of the command, the source's name and bytes, and the headers' bytes */
    bytes named = {0}, text = {0};
    bytes_append(&named, req->compile, strlen(req->compile) + 1);
    bytes_append(&named, req->source, strlen(req->source) + 1);
    bytes_read_result read = bytes_read_file(req->source, SOURCE_BYTES, &text);
    if (read == BYTES_READ_OUT_OF_MEMORY || named.failed) {
        bytes_free(&named), bytes_free(&text);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, req->source, "the sheet's text");
    }
    if (read != BYTES_READ_OK) {
        snprintf(out->first_error, sizeof out->first_error, "%s: cannot be read: %s", req->source,
                 read == BYTES_READ_CANNOT_OPEN || read == BYTES_READ_ERROR ? strerror(errno) : bytes_read_message(read));
        grade_ascii(out->first_error, false);
        bytes_free(&named), bytes_free(&text);
        return LAB_OK;
    }
    bytes_append(&named, text.data, text.len);
    bytes_free(&text);
    for (int i = 0; req->hashed && req->hashed[i]; i++) {
        bytes header = {0};
        if (bytes_read_file(req->hashed[i], SOURCE_BYTES, &header) == BYTES_READ_OK)
            bytes_append(&named, header.data, header.len);
        bytes_free(&header);
    }
    uint64_t h = bytes_hash(named.data, named.len);
    bool failed = named.failed;
    bytes_free(&named);
    if (failed)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, req->source, "the sheet's text");
    lab_error e = make_dirs(req->dir, d);
    if (e != LAB_OK)
        return e;
    char file[96];
    snprintf(file, sizeof file, "%s-%016llx.so", req->name, (unsigned long long)h);
    snprintf(out->object, sizeof out->object, "%s/%s", req->dir, file);
    char log_path[1100];
    snprintf(log_path, sizeof log_path, "%.*s.log", (int)strlen(out->object) - 3, out->object);
    struct stat st;
    if (lstat(out->object, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        out->reused = true;
        bytes log = {0}; /* its warnings, shown again */
        if (bytes_read_file(log_path, sizeof out->log - 1, &log) == BYTES_READ_OK && log.len)
            snprintf(out->log, sizeof out->log, "%.*s", (int)log.len, (const char *)log.data);
        bytes_free(&log);
        *result = GRADE_BUILD_OK;
        return LAB_OK;
    }
    /* argv: the command's words, then the object's flags, the output and the source */
    char words[4096], *argv[WORDS + 8];
    int n = 0;
    snprintf(words, sizeof words, "%s", req->compile);
    for (char *w = strtok(words, " "); w && n < WORDS; w = strtok(NULL, " "))
        argv[n++] = w;
    char tmp[1100];
    snprintf(tmp, sizeof tmp, "%s.tmp", out->object);
    argv[n++] = "-fPIC", argv[n++] = "-shared", argv[n++] = "-fdiagnostics-color=never";
    argv[n++] = "-o", argv[n++] = tmp, argv[n++] = (char *)req->source, argv[n] = NULL;
    int status = 0;
    bool late = false;
    unlink(tmp);
    const grade_command_limits limits = {req->seconds > 0 ? req->seconds : 60, (unsigned long)2 << 30};
    e = grade_command_run(argv, &limits, out->log, sizeof out->log, &out->log_dropped, &status, &late, d);
    if (e != LAB_OK)
        return e;
    if (late || (WIFSIGNALED(status))) {
        *result = GRADE_BUILD_LIMIT;
        char how[96] = "";
        if (WIFSIGNALED(status))
            grade_signal_words(WTERMSIG(status), how, sizeof how);
        snprintf(out->first_error, sizeof out->first_error,
                 "the compiler went past its limits on %s (%s): %g s, %lu GiB, 256 MiB of output", req->source,
                 late ? "stopped at the deadline" : how, limits.seconds, limits.address_space >> 30);
        grade_ascii(out->first_error, false);
        unlink(tmp);
        return LAB_OK;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        *result = GRADE_BUILD_FAILED;
        grade_first_error(out->log, out->first_error, sizeof out->first_error);
        if (!out->first_error[0])
            snprintf(out->first_error, sizeof out->first_error, "the compiler failed (exit status %d)",
                     WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        unlink(tmp);
        return LAB_OK;
    }
    FILE *f = out->log[0] ? fopen(log_path, "w") : NULL;
    if (f) /* a log that cannot be kept costs its warnings on the next run only */
        fputs(out->log, f), fclose(f);
    chmod(tmp, 0755); /* readable by the child, which runs as nobody when the grader is root */
    if (rename(tmp, out->object) != 0)
        return diag_fail(d, LAB_ERR_OUTPUT, out->object, "the sheet's object: %s", strerror(errno));
    remove_earlier(req->dir, req->name, file);
    *result = GRADE_BUILD_OK;
    return LAB_OK;
}
