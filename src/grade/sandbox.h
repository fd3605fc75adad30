/* sandbox.h - a student's code run in a child process that the parent limits: the grader
 * engine's one sandbox, for every chapter's grader and for the window.
 *
 * The parent maps a record both processes share (grade_shared_new), forks, and the child
 * leads a process group of its own. The child lowers its limits (CPU seconds, processes,
 * address space, no core file), drops root for nobody where the system lets it, and runs
 * the job, which writes what it found into the shared record. The parent trusts nothing the
 * child could cancel (an alarm, a signal handler, a pipe it must read to the end): it polls
 * for the child's end against its own wall-clock deadline and then kills the child's whole
 * process group, so that a loop, alarm(0), an ignored SIGALRM, a sleep, a fork that loops
 * and a fork bomb all end there. The child's standard error (a sanitizer's report and
 * whatever the student's code printed) is kept, bounded, for the verdict.
 *
 *     grade_shared_head *s = grade_shared_new(sizeof(my_record));
 *     grade_end end;
 *     grade_limits lim = grade_limits_default(2.0);
 *     if (grade_sandbox_run("ex30_lbs_point", &lim, my_job, &args, s, &end, &d) == LAB_OK)
 *         ... end.late, end.status, end.report, s->phase ...
 *     grade_shared_free(s, sizeof(my_record));
 *
 * A grader's job sends its answers through a pipe (grade_sandbox_answers) and the parent
 * judges them: nothing the child writes into the shared record is ever a verdict (the
 * student's code runs there, and can write anywhere in its own process, the shared pages
 * too).
 *
 * The job's record starts with a grade_shared_head: the job raises `phase` as it goes
 * (1: its result is whole), and the parent gives it `extra_seconds` more once phase is 1
 * (a picture drawn after a verdict costs the picture only). Where the child was built with
 * AddressSanitizer, its death callback records the bad access (address, kind, instruction
 * and object) in the head, named in the words of the call under way (src/grade/arrays.h).
 */
#ifndef GRADE_SANDBOX_H
#define GRADE_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "base/bytes.h"
#include "base/diag.h"

/* The limits on one child. */
typedef struct {
    double seconds;               /* wall clock until phase 1; then the group is killed */
    double extra_seconds;         /* and this much more once phase reaches 1 */
    unsigned long address_space;  /* bytes of address space (RLIMIT_AS), 0 none; not under
                                   * AddressSanitizer, which reserves terabytes */
    int processes;                /* RLIMIT_NPROC: a fork bomb stops here (as nobody when root) */
    bool as_nobody;               /* when root: the child grades as nobody (uid and gid 65534) */
    bool filtered;                /* the system-call filter (below): for a student's code, not
                                   * for a GPU driver */
} grade_limits;

/* The limits a grading child takes: `seconds`, a second more at most for what follows
 * phase 1, 4 GiB of address space, 1,024 processes, nobody when root, and the system-call
 * filter: seccomp-bpf, for an ordinary user as for root, so that the student's code may
 * compute, allocate and write to the pipes it was given (and, until grade_sandbox_seal,
 * read files: the loader opens the sheet's object), but may not start a
 * process (fork, vfork, clone without CLONE_VM; a thread shares the memory and may), signal
 * another process (kill, tkill, tgkill, sigqueue: only itself and its own group), run a
 * program (execve), leave its session or group (setsid, setpgid), change a limit
 * (setrlimit, prlimit), open a file to write, remove, rename, link or make a file or folder,
 * change a file's mode or owner, truncate one, open a socket, or push characters into a
 * terminal (TIOCSTI). Such a call ends the child, and the parent names it
 * (grade_ended: "it called kill"). Where the kernel has no seccomp the filter is left out. */
grade_limits grade_limits_default(double seconds);

/* The head of the record the child and the parent share. */
typedef struct {
    pid_t leader;                 /* the child the parent started (its copies are not) */
    int answers_fd;               /* in the child: the pipe its answers go to (-1: none asked) */
    volatile int phase;           /* the job's progress: 0 under way, 1 its result whole, ... */
    bool sanitizer;               /* a sanitizer ended the child */
    bool access_write;            /* the bad access was a write */
    unsigned long access_address; /* and its address (0 unknown) */
    char access[200];             /* named from the arrays of the call under way */
    unsigned long access_offset;  /* its instruction, as an offset into the object below */
    char access_object[256];      /* that object's path ("" for the program itself) */
    int forbidden;                /* the system call the filter stopped, plus one (0 none) */
} grade_shared_head;

/* A record of `size` bytes (at least a head), zeroed, shared with the child; NULL when no
 * memory could be mapped. */
grade_shared_head *grade_shared_new(size_t size);
void grade_shared_free(grade_shared_head *s, size_t size);

/* How the child ended. */
enum { GRADE_REPORT_BYTES = 16384 };
typedef struct {
    int status;                   /* waitpid's status */
    bool late;                    /* the deadline ended it */
    double seconds_allowed;       /* the wall-clock seconds it was given in all */
    char report[GRADE_REPORT_BYTES]; /* its standard error, as much as fits */
    size_t report_dropped;        /* bytes of it that did not fit */
} grade_end;

/* The job, in the child: it reads `arg` (the parent's, copied by the fork) and writes into
 * the shared record. Returning ends the child with exit status 0. */
typedef void (*grade_job)(void *arg, grade_shared_head *shared);

/* Runs job in a limited child, waits for its end or the deadline, kills its whole process
 * group, and says how it ended in *end. Errors: LAB_ERR_OUT_OF_MEMORY when no pipe or child
 * could be made (`what` names whose). */
lab_error grade_sandbox_run(const char *what, const grade_limits *limits, grade_job job, void *arg,
                            grade_shared_head *shared, grade_end *end, lab_diag *d);

/* The same, with a pipe for the job's answers (shared->answers_fd in the child), read as
 * the child writes them into *answers, at most max_bytes (past that the child is stopped,
 * and end->late says so): what the parent judges, never anything the child decides.
 * Errors: LAB_ERR_OUT_OF_MEMORY as above, or when *answers could not grow. */
lab_error grade_sandbox_answers(const char *what, const grade_limits *limits, grade_job job, void *arg,
                                grade_shared_head *shared, bytes *answers, size_t max_bytes, grade_end *end,
                                lab_diag *d);

/* In a filtered child, once the sheet's object is open: every later open of a file is
 * refused (EACCES; one to write is still stopped and named). The loader needs to open
 * files, the student's code does not. */
void grade_sandbox_seal(void);

/* True in a sandbox's child (its own process, not a copy the job forked). */
bool grade_in_child(void);

/* Whether the process that called this has started a process since (one running, or
 * ended and not waited for). A copy the job forked leaves at once (_exit(0)), so that only
 * one process grades. For a job that must refuse fork (a formula's answer comes from its
 * arguments alone). */
bool grade_started_a_process(const grade_shared_head *shared);

/* A system call's name, for the filter's stopped calls: "kill", "openat". */
const char *grade_syscall_name(int nr);

/* A signal's name and words: "SIGSEGV 11 (Segmentation fault)". */
void grade_signal_words(int sig, char *out, size_t size);

/* The wall clock (monotonic) in seconds, for the polls. */
double grade_now(void);

#endif
