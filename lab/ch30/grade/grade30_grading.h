/* grade30_grading.h - between the grader's machinery (grade30_check.c) and the child it
 * runs in (grade30_sandbox.c): what the child shares with the parent while it grades. Not
 * for students: exercises30.h is theirs. */
#ifndef GRADE30_GRADING_H
#define GRADE30_GRADING_H

#include "grade/sandbox.h"

#include "grade30.h"

/* In shared memory: the child writes, the parent reads once the child's group is gone. The
 * engine's head first (the leader, the phase: 1 once the result is whole, and a bad access
 * a sanitizer reported). */
typedef struct {
    grade_shared_head head;
    int pass, case_index;             /* the call under way: pass 1 or 2 (0: none yet, the sheet
                                       * being opened), case from 0 */
    bool done;                        /* the result below is whole */
    bool picture_done;                /* and the picture's points after it */
    bool out_of_memory;               /* the child ran out of memory (not the student's verdict) */
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
void grade30_ended_verdict(const grade30_entry *x, uint64_t seed, const grade30_shared *s, const grade_end *end,
                           grade30_result *out);

#endif
