/* view30_sheet.h - the student's sheet in the window (view30_sheet.c): watched, rebuilt on
 * save into a shared object by the grader's rule (the lab's warnings, not fatal), its
 * exercises 1 to 3 run on the cylinder in a child process with a deadline, and graded by
 * make grade30. A sheet that does not compile keeps the last version that did; a crash or
 * an endless loop ends the child, never the window.
 *
 * The shared object resolves grade_not_written and the src/math/ functions a body
 * calls in view30 itself, which is linked with -rdynamic and every src/math/ object. */
#ifndef VIEW30_SHEET_H
#define VIEW30_SHEET_H

#include <stdbool.h>
#include <sys/types.h>

#include "grade/build.h"
#include "rig30.h"
#include "view30_asset.h"
#include "view30_scene.h"

#define VIEW30_SHEET_DEADLINE_S 2 /* the student's skinning; then it is stopped */

typedef struct {
    const char *path;        /* the sheet (lab/ch30/exercises.c, or a copy) */
    char dir[512];           /* this run's folder, BUILD/view30/run-XXXXXX: its shared
                              * objects and grades, removed at the end */
    long seen_sec, seen_nsec;
    off_t seen_size;
    int generation;          /* versions that compiled */
    char so[1024];           /* the last one that did */
    bool have_so;
    grade_command grade;     /* make grade30, under way while `grading` */
    bool grading;
    char grade_log[16384];
} view30_sheet;

/* Makes this run's folder; false (errno) when it cannot. */
bool view30_sheet_init(view30_sheet *w, const char *path);
/* Whether the file's time or size changed since the last call (true the first time). */
bool view30_sheet_changed(view30_sheet *w);
/* Compiles the sheet into a new shared object; false (s->lines[0]: the compiler's first
 * error) when it does not compile, the last good one kept. */
bool view30_sheet_build(view30_sheet *w, view30_student *s);
/* The twist at the state (its angle, its method, its weights' rig) by the sheet's
 * exercises for the method, in a child process stopped after VIEW30_SHEET_DEADLINE_S:
 * s->positions, s->how (which exercises drew it, or that the sheet has none for the
 * method), or s->status says why none:
 *   LBS        exercises 1 to 3 (the world matrix, the skin matrix, the blend), or 10 (the
 *              whole loop over the rig as one glTF skin), or 16 (the lab's LBS positions,
 *              s->shaded by the student's skinned normals in s->normals);
 *   DQS        exercise 6 (the blend; the lab normalises and moves the point), or 11 to 13
 *              (each joint's dual quaternion, the normalisation, the transform; the lab's
 *              blend);
 *   CoR        exercise 23, on the lab's centres and blended rotations;
 *   corrective exercise 24, on the lab's deltas, blended matrices and rotations;
 *   twist joints: no exercise. */
void view30_sheet_skin(const view30_sheet *w, const view30_scene *scene, const view30_state *st, view30_student *s);
/* An asset's skinned parts at time t by the sheet's whole loop (exercise 10, in the same
 * limited child): a->yours, and a->yours_words ("by exercise 10", or why not: the sheet
 * has none, not written yet, the asset outside the exercise's limits of 16 nodes, 16
 * joints, 240 vertices and four influences, a crash, a loop). */
void view30_sheet_skin_asset(const view30_sheet *w, view30_asset *a, double t);
/* make grade30 on the sheet, started (a grade under way is stopped first) and left to run
 * while the window goes on; false (s->lines[0] says why) when it could not start. */
bool view30_sheet_grade_start(view30_sheet *w, view30_student *s);
/* Whether the grade has ended: then its lines, one an exercise (or the compiler's first
 * error, or how the grader ended), are in s->lines. */
bool view30_sheet_grade_poll(view30_sheet *w, view30_student *s);
/* Stops a grade under way, its whole process group. */
void view30_sheet_grade_stop(view30_sheet *w);
/* Removes this run's folder (its shared objects and grades). */
void view30_sheet_free(view30_sheet *w);

#endif
