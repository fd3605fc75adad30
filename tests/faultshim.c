/* faultshim.c - an LD_PRELOAD shim for test_faults: the faults a program must survive,
 * injected into the C library calls it makes. glibc only.
 *
 * - FAIL_AT=N: malloc, calloc, realloc and aligned_alloc, counted over all threads; the one numbered N
 *   (1-based) returns NULL, as an exhausted heap would (the real allocators are glibc's
 *   __libc_ entry points).
 * - FAIL_FROM=N: the one numbered N and every one after it return NULL: the heap is gone
 *   for good, so the error path itself cannot allocate either.
 * - SITES_FILE: receives, one per line, the number of the first allocation made from each
 *   distinct call chain (the SITE_DEPTH callers above the allocator), in order. Failing
 *   each of those in turn fails every allocation site the run reaches, each in the context
 *   it is called from, without running the program once per allocation (tens of
 *   thousands). The call chains come from glibc's backtrace(); allocations made by the
 *   shim itself (backtrace loads libgcc_s once) are not counted, so the numbers match a
 *   run without SITES_FILE.
 * - SITES_WITHOUT=TEXT (with SITES_FILE): leaves out of the list the call chains made
 *   while a shared object whose path contains TEXT is anywhere on the stack (view30's suite:
 *   "libSDL2", whose own setup is SDL's, not the lab's; the numbering is unchanged).
 *   SITES_WITHOUT_SPAN=PATH receives "FIRST LAST": the first and the last allocation so left
 *   out (0 0: none).
 * - FAIL_RENAME_AT=N: the Nth rename(2) is refused with EPERM, as renaming over an
 *   immutable file (chattr +i) is.
 * - KILL_AT_RENAME=N: the process kills itself (SIGKILL: no handler, no cleanup) just
 *   before its Nth rename, as a power cut or the OOM killer would in the middle of a
 *   commit.
 * - COUNT_FILE: receives "ALLOCATIONS RENAMES" made when the program ends.
 *
 * The allocations are counted over the program and every child it forks (the PNG
 * encoder's, the GPU work's): one numbering for the whole run, kept in shared memory.
 * Counting starts when main does (the shim wraps it through __libc_start_main): before
 * that, the dynamic loader runs the constructors of the libraries the program links, where
 * no program can answer (libstdc++ allocates 5 times there, its exception pool's). CHOLMOD,
 * whose BLAS and LAPACK bring libgfortran and libgomp (their constructors allocate and end
 * the process when they cannot), is not linked but opened within main (src/base/library.h),
 * so its start is counted and failed like any other allocation. */
#define _GNU_SOURCE /* backtrace, renameat */
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t count, size_t n);
extern void *__libc_realloc(void *p, size_t n);
extern void *__libc_memalign(size_t alignment, size_t n);

enum { SITE_DEPTH = 3, SITE_SLOTS = 1 << 16 };

/* The counts and the call chains, in memory shared with every child the program forks
 * (the PNG encoder's, the GPU work's), so that allocation N is one allocation of the whole
 * run, in whichever process it happens, and the child's call chains are listed too. */
typedef struct {
    atomic_long made;
    atomic_flag lock;
    long site_count;
    long without_first, without_last; /* the first and last allocation left out by SITES_WITHOUT */
    uint64_t site_hash[SITE_SLOTS];
    long site_first[SITE_SLOTS];
} shared_counts;

static shared_counts *shared;
static atomic_long renamed;
static long fail_at = -2, fail_from = -1; /* -2: not read yet; -1: never */
static const char *sites_path, *sites_without;
static _Thread_local int inside_shim;
static int in_main; /* set when main starts; a forked child inherits it */

typedef int (*main_function)(int, char **, char **);
typedef int (*start_function)(main_function, int, char **, void (*)(void), void (*)(void), void (*)(void), void *);
static main_function real_main;

static int counted_main(int argc, char **argv, char **envp)
{
    in_main = 1;
    return real_main(argc, argv, envp);
}

/* glibc's entry point calls main; the shim's runs the program's main through counted_main. */
int __libc_start_main(main_function main, int argc, char **argv, void (*init)(void), void (*fini)(void),
                      void (*rtld_fini)(void), void *stack_end)
{
    start_function real;
    *(void **)&real = dlsym(RTLD_NEXT, "__libc_start_main");
    real_main = main;
    return real(counted_main, argc, argv, init, fini, rtld_fini, stack_end);
}

/* The shared counts, mapped on the first allocation (before any thread or child exists). */
static shared_counts *counts(void)
{
    if (!shared) {
        void *p = mmap(NULL, sizeof *shared, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            abort();
        shared = p; /* zero-filled: no count, no site, the lock clear */
    }
    return shared;
}

/* The value of an environment variable that numbers one call, or -1. */
static long numbered(const char *name)
{
    const char *s = getenv(name);
    return s ? atol(s) : -1;
}

/* Records allocation n under its call chain, if the chain is new. */
static void note_site(long n)
{
    void *frame[SITE_DEPTH + 3];
    inside_shim = 1;
    int count = backtrace(frame, SITE_DEPTH + 3); /* this function, the allocator, its callers */
    if (sites_without) { /* the whole stack: is the excluded library anywhere on it? */
        void *stack[128];
        int depth = backtrace(stack, 128);
        for (int i = 2; i < depth; i++) {
            Dl_info info;
            if (dladdr(stack[i], &info) && info.dli_fname && strstr(info.dli_fname, sites_without)) {
                inside_shim = 0;
                shared_counts *c = counts();
                while (atomic_flag_test_and_set(&c->lock))
                    ;
                if (!c->without_first)
                    c->without_first = n;
                c->without_last = n;
                atomic_flag_clear(&c->lock);
                return;
            }
        }
    }
    inside_shim = 0;
    uint64_t h = 1469598103934665603u; /* FNV-1a over the callers' addresses */
    for (int i = 2; i < count; i++)
        h = (h ^ (uint64_t)(uintptr_t)frame[i]) * 1099511628211u;
    h |= 1; /* 0 marks an empty slot */
    shared_counts *c = counts();
    while (atomic_flag_test_and_set(&c->lock))
        ;
    size_t k = h & (SITE_SLOTS - 1);
    while (c->site_hash[k] && c->site_hash[k] != h)
        k = (k + 1) & (SITE_SLOTS - 1);
    if (!c->site_hash[k] && c->site_count < SITE_SLOTS / 2) {
        c->site_hash[k] = h;
        c->site_first[k] = n;
        c->site_count++;
    }
    atomic_flag_clear(&c->lock);
}

static int fails(void)
{
    if (inside_shim || !in_main)
        return 0;
    if (fail_at == -2) {
        fail_at = numbered("FAIL_AT");
        fail_from = numbered("FAIL_FROM");
        sites_path = getenv("SITES_FILE");
        sites_without = getenv("SITES_WITHOUT");
    }
    long n = atomic_fetch_add(&counts()->made, 1) + 1;
    if (sites_path)
        note_site(n);
    if (n != fail_at && (fail_from < 0 || n < fail_from))
        return 0;
    errno = ENOMEM; /* as the C library's allocators do */
    return 1;
}

void *malloc(size_t n) { return fails() ? NULL : __libc_malloc(n); }
void *calloc(size_t count, size_t n) { return fails() ? NULL : __libc_calloc(count, n); }
void *realloc(void *p, size_t n) { return fails() ? NULL : __libc_realloc(p, n); }
void *aligned_alloc(size_t alignment, size_t n) { return fails() ? NULL : __libc_memalign(alignment, n); }

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

static int by_number(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

__attribute__((destructor)) static void report(void)
{
    inside_shim = 1; /* stdio's own buffers are not the program's allocations */
    const char *path = getenv("COUNT_FILE");
    FILE *f = path ? fopen(path, "w") : NULL;
    if (f) {
        fprintf(f, "%ld %ld\n", (long)atomic_load(&counts()->made), (long)atomic_load(&renamed));
        fclose(f);
    }
    const char *span = sites_without ? getenv("SITES_WITHOUT_SPAN") : NULL;
    f = span ? fopen(span, "w") : NULL;
    if (f) {
        fprintf(f, "%ld %ld\n", counts()->without_first, counts()->without_last);
        fclose(f);
    }
    f = sites_path ? fopen(sites_path, "w") : NULL;
    if (f) {
        shared_counts *c = counts();
        long n = 0;
        for (size_t k = 0; k < SITE_SLOTS; k++)
            if (c->site_hash[k])
                c->site_first[n++] = c->site_first[k]; /* n <= k: compacts in place */
        qsort(c->site_first, (size_t)n, sizeof *c->site_first, by_number);
        for (long i = 0; i < n; i++)
            fprintf(f, "%ld\n", c->site_first[i]);
        fclose(f);
    }
}
