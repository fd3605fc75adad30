/* build.h - a student's sheet compiled on its own into a shared object, for the grader
 * engine's child to load (src/grade/sandbox.h): one sheet's mistake never stops another
 * sheet, and nothing of the sheet (a constructor, a function named like libc's) runs in the
 * grader or the window, only in the child that opens it.
 *
 * The compiler runs from an argument vector, never through a shell, so that any file name
 * reaches it as it is (spaces, quotes, newlines, backquotes); in a process group of its own
 * under limits (wall clock, CPU, address space, file size), so that a sheet that includes /dev/zero
 * ends as a verdict; with LC_ALL=C and no colour, so that its messages are plain ASCII.
 * The object is named by the content hash of the source, the command and the files the
 * caller names (its headers), never by a file's time: a sheet restored with an older time
 * is rebuilt, an unchanged one is not.
 *
 *     grade_build b;
 *     grade_build_result r = grade_build_shared(&(grade_build_request){
 *         .compile = "cc -std=c11 -Wall -Isrc -Ilab/ch30", .source = path, .dir = "build/grade30/obj",
 *         .name = "dqs", .hashed = headers}, &b, &d);
 *     r == GRADE_BUILD_OK: b.object is the shared object; b.log the compiler's warnings
 *     r == GRADE_BUILD_FAILED: b.first_error "dqs.c:12:5: error: expected ';' before 'return'"
 */
#ifndef GRADE_BUILD_H
#define GRADE_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "base/diag.h"

typedef struct {
    const char *compile;          /* the compiler and its flags, words apart by spaces (no quoting) */
    const char *source;           /* the sheet, any name */
    const char *dir;              /* where the objects go (made when missing); the engine's own */
    const char *name;             /* the object's name there: NAME-HASH.so ([A-Za-z0-9_-] only) */
    const char *const *hashed;    /* more files whose bytes name the object (its headers), NULL-ended; may be NULL */
    double seconds;               /* the compiler's wall clock (0: 60 s) */
} grade_build_request;

typedef enum {
    GRADE_BUILD_OK,
    GRADE_BUILD_FAILED,           /* the sheet does not compile (the compiler's first error) */
    GRADE_BUILD_LIMIT,            /* the compiler went past a limit (time, memory, output) */
    GRADE_BUILD_UNREADABLE        /* the sheet cannot be read (first_error says why) */
} grade_build_result;

enum { GRADE_BUILD_LOG = 8192 };
typedef struct {
    char object[1024];            /* the shared object */
    bool reused;                  /* it was built before from the same bytes */
    char log[GRADE_BUILD_LOG];    /* the compiler's messages, plain ASCII, as much as fits */
    size_t log_dropped;
    char first_error[400];        /* FAILED, LIMIT, UNREADABLE: one line, plain ASCII */
} grade_build;

/* Compiles req->source into a shared object (-fPIC -shared) in req->dir. The build's own
 * failures are results; errors (diag) are the system's: LAB_ERR_OUT_OF_MEMORY (no child,
 * no memory) and LAB_ERR_OUTPUT (the folder cannot be made). */
lab_error grade_build_shared(const grade_build_request *req, grade_build *out, grade_build_result *result, lab_diag *d);

/* A command run from argv (never through a shell) in a process group of its own: its
 * standard output and error into log (plain ASCII, as much as fits in size; *dropped the
 * bytes that did not), ended with everything it started at the deadline (*late) or when it
 * has written 64 MiB; *status its end as waitpid says. CPU seconds, file size (256 MiB) and,
 * when address_space is not 0, address space are limited; LC_ALL=C, no colour. Errors:
 * LAB_ERR_OUT_OF_MEMORY when no pipe or child could be made. */
typedef struct {
    double seconds;               /* wall clock */
    unsigned long address_space;  /* bytes, 0 none (a sanitized program needs terabytes) */
} grade_command_limits;
lab_error grade_command_run(char *const *argv, const grade_command_limits *limits, char *log, size_t size,
                            size_t *dropped, int *status, bool *late, lab_diag *d);

/* The same, one step at a time, for a program that must stay responsive (the window):
 * started, polled (true once it has ended, or was ended at its deadline), or stopped with
 * its whole group. */
typedef struct {
    pid_t pid;
    int fd;
    char *log;                    /* the caller's buffer */
    size_t size, used, dropped;
    double seconds, start;
    int status;                   /* once done: waitpid's */
    bool late, done;
} grade_command;
lab_error grade_command_start(grade_command *cmd, char *const *argv, const grade_command_limits *limits, char *log,
                              size_t size, lab_diag *d);
bool grade_command_poll(grade_command *cmd);
void grade_command_stop(grade_command *cmd);

/* In a sandbox's child (src/grade/sandbox.h): the shared object open on fd (opened by the
 * parent before the fork), through /proc/self/fd, so that the child, nobody by then, needs
 * no right to the object's folders; RTLD_LOCAL, so that its names never reach the
 * program's own calls. NULL with the loader's words in why. */
void *grade_object_open(int fd, char *why, size_t size);

/* The first line of a compiler's messages that says "error" (else the first that says
 * anything), plain ASCII, into out. */
void grade_first_error(const char *log, char *out, size_t size);

/* Text as plain printable ASCII: a byte outside 0x20..0x7e (but a newline when `lines`)
 * becomes '?', so that any font draws it. */
void grade_ascii(char *text, bool lines);

#endif
