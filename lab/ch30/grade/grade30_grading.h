/* grade30_grading.h - between the grader's machinery (grade30_check.c) and the child it
 * runs in (grade30_sandbox.c): what the child shares with the parent while it grades. Not
 * for students: exercises30.h is theirs. */
#ifndef GRADE30_GRADING_H
#define GRADE30_GRADING_H

#include <sys/types.h>
#include <time.h>

#include "grade30.h"

/* In shared memory: the child writes, the parent reads once the child's group is gone. */
typedef struct {
    pid_t leader;                     /* the child the parent started (its copies are not) */
    int pass, case_index;             /* the call under way: pass 1 or 2, case from 0 */
    bool done;                        /* the result below is whole */
    bool picture_done;                /* and the picture's points after it */
    bool out_of_memory;               /* the child ran out of memory (not the student's verdict) */
    bool sanitizer;                   /* a sanitizer ended the child */
    char access[200];                 /* the bad access, named from the case's arrays */
    unsigned long access_offset;      /* its instruction, as an offset into the object below */
    char access_object[256];          /* that object's path ("" for the grader itself) */
    char report[16384];               /* the child's standard error (a sanitizer's report), as much
                                       * as fits; the parent fills it */
    size_t report_dropped;            /* bytes of it that did not fit */
    grade30_result result;
    grade30_picture_data picture;
} grade30_shared;

/* Grades every case of x through f, twice (in order, then in a shuffled order from seed),
 * into *out; progress (may be NULL) says which call is under way. False when an allocation
 * failed. */
bool grade30_grade_all(const grade30_entry *x, grade30_fn f, uint64_t seed, grade30_result *out,
                       grade30_shared *progress);

/* The verdict of a child that did not finish whole (grade30_ended.c): too slow (late, or
 * SIGXCPU), undefined behaviour, or crashed, with the case s says was under way. */
void grade30_ended_verdict(const grade30_entry *x, uint64_t seed, const grade30_shared *s, int status, bool late,
                           grade30_result *out);

/* The monotonic clock in seconds, and a pause, for the parent's polls. */
static inline double grade30_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
static inline void grade30_pause_ms(long ms) { nanosleep(&(struct timespec){0, ms * 1000000L}, NULL); }

#endif
