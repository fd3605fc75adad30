/* view30_sheet.h - the student's sheet in the window (view30_sheet.c): watched, rebuilt on
 * save into a shared object by the grader's rule (the lab's warnings, not fatal), and
 * graded by make grade30 (what it draws: view30_yours.h). A sheet that does not compile
 * keeps the last version that did.
 *
 * The shared object resolves grade_not_written and the src/math/ functions a body
 * calls in view30 itself, which is linked with -rdynamic and every src/math/ object. */
#ifndef VIEW30_SHEET_H
#define VIEW30_SHEET_H

#include <stdbool.h>
#include <sys/types.h>

#include "grade/build.h"
#include "rig30.h"
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
