/* bench-stepcount.c - executed instructions of one function, counted by single-stepping it
 * under ptrace (x86-64 Linux): the counter for code valgrind cannot run (AVX-512), so that
 * the results state what the shipped kernels execute, not an estimate from other code.
 *
 * Usage:  build/bin/bench-stepcount OFFSET CALLS PROGRAM [ARGS...]
 *   OFFSET  the function's address in PROGRAM's file image (hex, as nm prints it; PROGRAM
 *           is position independent: the counter adds where the loader put it)
 *   CALLS   how many calls to count (the first ones)
 * Runs PROGRAM with ARGS, its standard output and error its own; stops it at the function's
 * entry with a breakpoint, then single-steps it until it returns (the stack pointer above
 * the entry's), counting every instruction: the function's and its callees', as callgrind's
 * --toggle-collect counts them. Prints "STEPS CALLS_COUNTED" on its standard error.
 * scripts/bench-instructions.sh checks it against callgrind on the avx2 kernel.
 * Exit 0; 1 when PROGRAM cannot be traced or never calls the function; 2 usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__x86_64__) && defined(__linux__)

/* Where the loader put PROGRAM: the start of its mapping at file offset 0. */
static unsigned long image_base(pid_t pid, const char *program)
{
    char maps[64], path[PATH_MAX], line[PATH_MAX + 128];
    snprintf(maps, sizeof maps, "/proc/%d/maps", (int)pid);
    if (!realpath(program, path))
        return 0;
    FILE *f = fopen(maps, "r");
    unsigned long base = 0;
    while (f && !base && fgets(line, sizeof line, f)) {
        unsigned long lo, offset;
        char name[PATH_MAX];
        if (sscanf(line, "%lx-%*x %*s %lx %*s %*s %4095s", &lo, &offset, name) == 3 && offset == 0 &&
            !strcmp(name, path))
            base = lo;
    }
    if (f)
        fclose(f);
    return base;
}

static int fail(const char *what)
{
    fprintf(stderr, "bench-stepcount: %s: %s\n", what, strerror(errno));
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: bench-stepcount OFFSET CALLS PROGRAM [ARGS...]\n");
        return 2;
    }
    unsigned long offset = strtoul(argv[1], NULL, 16);
    long calls = strtol(argv[2], NULL, 10);
    pid_t pid = fork();
    if (pid < 0)
        return fail("fork");
    if (pid == 0) {
        ptrace(PTRACE_TRACEME, 0, NULL, NULL);
        execv(argv[3], argv + 3);
        _exit(127);
    }
    int status;
    if (waitpid(pid, &status, 0) < 0 || !WIFSTOPPED(status)) /* stopped at the exec */
        return fail("the program did not start");
    unsigned long entry = image_base(pid, argv[3]) + offset;
    if (entry == offset)
        return fail("the program's image is not in its maps");
    errno = 0;
    long original = ptrace(PTRACE_PEEKTEXT, pid, (void *)entry, NULL);
    if (errno)
        return fail("reading the function's first bytes");
    long trap = (original & ~0xffL) | 0xcc; /* int3 */
    long steps = 0, counted = 0;
    if (ptrace(PTRACE_POKETEXT, pid, (void *)entry, (void *)trap) < 0)
        return fail("setting the breakpoint");
    int pass = 0; /* a signal to hand on to the program */
    for (;;) {
        if (ptrace(PTRACE_CONT, pid, NULL, (void *)(long)pass) < 0)
            return fail("continuing");
        if (waitpid(pid, &status, 0) < 0)
            return fail("waiting");
        if (WIFEXITED(status) || WIFSIGNALED(status))
            break;
        struct user_regs_struct r;
        ptrace(PTRACE_GETREGS, pid, NULL, &r);
        if (WSTOPSIG(status) != SIGTRAP || r.rip != entry + 1) {
            pass = WSTOPSIG(status) == SIGTRAP ? 0 : WSTOPSIG(status);
            continue;
        }
        pass = 0;
        /* at the entry: the breakpoint out, back one byte, then step until the return */
        ptrace(PTRACE_POKETEXT, pid, (void *)entry, (void *)original);
        r.rip = entry;
        ptrace(PTRACE_SETREGS, pid, NULL, &r);
        unsigned long entry_sp = r.rsp; /* the return address is at [rsp] */
        do {
            if (ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL) < 0 || waitpid(pid, &status, 0) < 0)
                return fail("stepping");
            if (!WIFSTOPPED(status))
                break;
            steps++;
            ptrace(PTRACE_GETREGS, pid, NULL, &r);
        } while (r.rsp <= entry_sp);
        if (!WIFSTOPPED(status))
            break;
        if (++counted < calls)
            ptrace(PTRACE_POKETEXT, pid, (void *)entry, (void *)trap);
    }
    fprintf(stderr, "%ld %ld\n", steps, counted);
    return counted > 0 ? 0 : 1;
}

#else
int main(void)
{
    fprintf(stderr, "bench-stepcount: x86-64 Linux only\n");
    return 1;
}
#endif
