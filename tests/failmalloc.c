/* failmalloc.c - an LD_PRELOAD shim for test_allocation_failures: malloc, calloc and
 * realloc of the program it is preloaded into, counted over all threads; the one whose
 * number is FAIL_AT (1-based) returns NULL, as an exhausted heap would. COUNT_FILE, when
 * set, receives the number of allocations made when the program ends. glibc only (the
 * real allocators are glibc's __libc_ entry points). */
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t count, size_t n);
extern void *__libc_realloc(void *p, size_t n);

static atomic_long made;
static long fail_at = -2; /* -2: not read yet; -1: never */

static int fails(void)
{
    if (fail_at == -2) {
        const char *s = getenv("FAIL_AT");
        fail_at = s ? atol(s) : -1;
    }
    if (atomic_fetch_add(&made, 1) + 1 != fail_at)
        return 0;
    errno = ENOMEM; /* as the C library's allocators do */
    return 1;
}

void *malloc(size_t n) { return fails() ? NULL : __libc_malloc(n); }
void *calloc(size_t count, size_t n) { return fails() ? NULL : __libc_calloc(count, n); }
void *realloc(void *p, size_t n) { return fails() ? NULL : __libc_realloc(p, n); }

__attribute__((destructor)) static void report(void)
{
    const char *path = getenv("COUNT_FILE");
    FILE *f = path ? fopen(path, "w") : NULL;
    if (f) {
        fprintf(f, "%ld\n", (long)atomic_load(&made));
        fclose(f);
    }
}
