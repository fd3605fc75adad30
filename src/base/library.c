/* library.c - shared libraries opened at run time (see library.h). */
#define _GNU_SOURCE /* program_invocation_short_name, strcasestr */
#include "base/library.h"

#include "base/child.h"

#include <dlfcn.h>
#include <errno.h> /* program_invocation_short_name */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The guard of LIBRARY_START_ENDS_FOR_MEMORY: armed while a library starts. Its line is
 * written before the library runs, so that ending the process allocates nothing. */
static volatile sig_atomic_t starting;
static char last_words[512];
static size_t last_words_length;

static void say_out_of_memory(void)
{
    /* a child of child_run says nothing: its parent reports its end, exit 3 */
    ssize_t written = child_in_job() ? 0 : write(STDERR_FILENO, last_words, last_words_length);
    (void)written; /* nothing more can be done about stderr here */
    _exit(LIBRARY_EXIT_OUT_OF_MEMORY);
}

/* Registered once with atexit: the library called exit while it started. */
static void exit_while_starting(void)
{
    if (starting)
        say_out_of_memory();
}

/* Installed only while a library starts, on a stack of its own: libgfortran's recursion
 * has used up the thread's. */
static void crash_while_starting(int signal_number)
{
    (void)signal_number;
    say_out_of_memory();
}

static char alternate_stack[1 << 16];

typedef struct {
    struct sigaction segv, bus, abrt;
    stack_t stack;
} saved_handlers;

static bool arm(const char *file, saved_handlers *saved)
{
    static bool registered;
    if (!registered && atexit(exit_while_starting) != 0)
        return false; /* atexit allocates once its first block is full */
    registered = true;
    lab_diag d;
    diag_fail(&d, LAB_ERR_OUT_OF_MEMORY, file, "its start-up code could not allocate");
    char msg[sizeof last_words - 64];
    diag_format(&d, msg, sizeof msg);
    int n = snprintf(last_words, sizeof last_words, "%s: error: %s\n", program_invocation_short_name, msg);
    last_words_length = n < 0 ? 0 : (size_t)n < sizeof last_words ? (size_t)n : sizeof last_words - 1;
    stack_t stack = {.ss_sp = alternate_stack, .ss_size = sizeof alternate_stack};
    struct sigaction on_crash = {.sa_handler = crash_while_starting, .sa_flags = SA_ONSTACK};
    sigemptyset(&on_crash.sa_mask);
    sigaltstack(&stack, &saved->stack);
    sigaction(SIGSEGV, &on_crash, &saved->segv);
    sigaction(SIGBUS, &on_crash, &saved->bus);
    sigaction(SIGABRT, &on_crash, &saved->abrt); /* C++'s std::terminate on a bad_alloc */
    starting = 1;
    return true;
}

static void disarm(const saved_handlers *saved)
{
    starting = 0;
    sigaction(SIGSEGV, &saved->segv, NULL);
    sigaction(SIGBUS, &saved->bus, NULL);
    sigaction(SIGABRT, &saved->abrt, NULL);
    sigaltstack(&saved->stack, NULL);
}

/* The loader's words for a failed allocation (library.h). */
static bool loader_out_of_memory(const char *message)
{
    return strcasestr(message, "cannot allocate") || strstr(message, "shared object descriptor") ||
           strcasestr(message, "out of memory");
}

lab_error library_open(const char *file, library_start start, void **handle, lab_diag *d)
{
    *handle = NULL;
    saved_handlers saved;
    if (start == LIBRARY_START_ENDS_FOR_MEMORY && !arm(file, &saved))
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, file, "the guard of its start-up could not be registered");
    void *h = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (start == LIBRARY_START_ENDS_FOR_MEMORY)
        disarm(&saved);
    if (!h) {
        const char *why = dlerror();
        why = why ? why : "no reason given";
        if (loader_out_of_memory(why) || (strchr(file, '/') && access(file, R_OK) == 0 &&
                                          strstr(why, "cannot open shared object file")))
            /* a file that is there and readable, which the loader "cannot open": its path
             * search could not allocate */
            return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, file, "the loader could not allocate (%s)", why);
        return diag_fail(d, LAB_ERR_UNSUPPORTED, file, "cannot be loaded: %s", why);
    }
    *handle = h;
    return LAB_OK;
}

bool library_beside_program(const char *name, char *out, size_t size)
{
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return false;
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (!slash)
        return false;
    *slash = '\0';
    int m = snprintf(out, size, "%s/../lib/%s", self, name);
    return m > 0 && (size_t)m < size;
}

lab_error library_function(void *handle, const char *file, const char *name, void *out, size_t size,
                           lab_diag *d)
{
    void *entry;
    if (size != sizeof entry)
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, name, "a function pointer of %zu bytes", size);
    dlerror(); /* clear an earlier message */
    entry = dlsym(handle, name);
    if (!entry) {
        const char *why = dlerror();
        if (why && loader_out_of_memory(why))
            return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, file, "the loader could not allocate (%s)", why);
        return diag_fail(d, LAB_ERR_UNSUPPORTED, file, "has no %s", name);
    }
    /* ISO C has no conversion from void * to a function pointer; POSIX guarantees dlsym's
     * result converts, and memcpy says so without a cast the compiler would flag. */
    memcpy(out, &entry, size);
    return LAB_OK;
}
