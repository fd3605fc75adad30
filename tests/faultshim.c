/* faultshim.c - an LD_PRELOAD shim for test_faults: the faults a program must survive,
 * injected into the C library calls it makes. glibc only.
 *
 * - FAIL_AT=N: malloc, calloc and realloc, counted over all threads; the one numbered N
 *   (1-based) returns NULL, as an exhausted heap would (the real allocators are glibc's
 *   __libc_ entry points).
 * - FAIL_RENAME_AT=N: the Nth rename(2) is refused with EPERM, as renaming over an
 *   immutable file (chattr +i) is.
 * - KILL_AT_RENAME=N: the process kills itself (SIGKILL: no handler, no cleanup) just
 *   before its Nth rename, as a power cut or the OOM killer would in the middle of a
 *   commit.
 * - COUNT_FILE: receives "ALLOCATIONS RENAMES" made when the program ends. */
#define _POSIX_C_SOURCE 200809L /* renameat */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t count, size_t n);
extern void *__libc_realloc(void *p, size_t n);

static atomic_long made, renamed;
static long fail_at = -2; /* -2: not read yet; -1: never */

/* The value of an environment variable that numbers one call, or -1. */
static long numbered(const char *name)
{
    const char *s = getenv(name);
    return s ? atol(s) : -1;
}

static int fails(void)
{
    if (fail_at == -2)
        fail_at = numbered("FAIL_AT");
    if (atomic_fetch_add(&made, 1) + 1 != fail_at)
        return 0;
    errno = ENOMEM; /* as the C library's allocators do */
    return 1;
}

void *malloc(size_t n) { return fails() ? NULL : __libc_malloc(n); }
void *calloc(size_t count, size_t n) { return fails() ? NULL : __libc_calloc(count, n); }
void *realloc(void *p, size_t n) { return fails() ? NULL : __libc_realloc(p, n); }

int rename(const char *from, const char *to)
{
    long n = atomic_fetch_add(&renamed, 1) + 1;
    if (n == numbered("KILL_AT_RENAME"))
        raise(SIGKILL);
    if (n == numbered("FAIL_RENAME_AT")) {
        errno = EPERM;
        return -1;
    }
    return renameat(AT_FDCWD, from, AT_FDCWD, to); /* the C library's own, not this one */
}

__attribute__((destructor)) static void report(void)
{
    const char *path = getenv("COUNT_FILE");
    FILE *f = path ? fopen(path, "w") : NULL;
    if (f) {
        fprintf(f, "%ld %ld\n", (long)atomic_load(&made), (long)atomic_load(&renamed));
        fclose(f);
    }
}
