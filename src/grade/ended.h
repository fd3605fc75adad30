/* ended.h - how a sandboxed child that did not finish ended, in the grader engine's words
 * (src/grade/sandbox.h): too slow (the parent's deadline, or the CPU limit), out of memory
 * (the address-space limit, or a sanitizer's allocator), undefined behaviour (a sanitizer's
 * report: the array of the call it names, the source's file and line, its own words;
 * addr2line where the report is unsymbolized), or crashed (a signal named, an exit).
 *
 *     char detail[480];
 *     grade_ending how = grade_ended(shared, &end, "lab/ch30/sheets/dqs.c", detail, sizeof detail);
 */
#ifndef GRADE_ENDED_H
#define GRADE_ENDED_H

#include <stddef.h>

#include "grade/sandbox.h"

typedef enum {
    GRADE_ENDED_TOO_SLOW, GRADE_ENDED_OUT_OF_MEMORY, GRADE_ENDED_UNDEFINED, GRADE_ENDED_CRASHED,
    GRADE_ENDED_FORBIDDEN /* the system-call filter stopped a call: "it called kill" */
} grade_ending;

/* How the child ended, and in words into detail: "over 2 s", "reads joint[2], past the 2
 * influences at lab/ch30/exercises.c:42 (AddressSanitizer: heap-buffer-overflow)",
 * "SIGSEGV 11 (Segmentation fault)", "the process ended (exit status 0)". `source` is the
 * student's file, whose name the report's lines are matched with. */
grade_ending grade_ended(const grade_shared_head *s, const grade_end *end, const char *source, char *detail,
                         size_t size);

#endif
