/* chapter@NN@.c - chapter @NN@'s exercises in one ordered list (exercise x + 1 is exercises[x];
 * each is one file), its sheet, and the chapter as the engine's grade_main takes it
 * (src/grade/grader.h). Adding an exercise: its file, and its name on this list. */
#include "grade@NN@.h"

static const grade_exercise *const exercises[] = {&grade@NN@_turn};

static const grade_sheet sheets[] = {
    {"lab@NN@", "lab/ch@NN@/exercises.c", "lab/ch@NN@/README.md", "Write it yourself", "the chapter's formula", NULL},
};

/* The headers a sheet includes: their bytes name its object with its own. */
static const char *const headers[] = {"lab/ch@NN@/exercises@NN@.h", "src/math/linalg.h", NULL};

const grade_chapter grade@NN@_chapter = {
    "grade@NN@",
    "Grades chapter @NN@'s exercises (lab/ch@NN@/exercises.c).",
    exercises,
    (int)(sizeof exercises / sizeof exercises[0]),
    sheets,
    (int)(sizeof sheets / sizeof sheets[0]),
    headers,
    "cc -std=c11 -Wall -Wextra -Wpedantic -O1 -g -Isrc -Ilab/ch@NN@",
    sizeof(grade_picture),
};
