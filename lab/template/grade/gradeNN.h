/* grade@NN@.h - what chapter @NN@'s exercises share in its grader (src/grade/: the engine
 * grades them): the case every exercise's cases are, and the picture's data. Each exercise
 * is one file (turn@NN@.c: its cases, the lab's answer, its call, its mistakes, its picture),
 * registered in the chapter's one ordered list (chapter@NN@.c). */
#ifndef GRADE@NN@_H
#define GRADE@NN@_H

#include "grade/exercise.h"
#include "grade/grader.h"
#include "math/linalg.h"

/* One case: its words first (the engine reads them there), then what the exercises read. */
struct grade_case {
    char what[GRADE_CASE_WORDS];
    vec3 p;
    double theta;
};

/* A picture: the points the student's function made, and what they were made from. */
enum { GRADE@NN@_PICTURE_POINTS = 24 };
struct grade_picture {
    bool drawn;
    bool failing;                     /* the first failing case, not the named pose */
    int count;
    double theta;
    vec3 from[GRADE@NN@_PICTURE_POINTS], yours[GRADE@NN@_PICTURE_POINTS];
};

/* The exercises (each in its file) and the chapter (chapter@NN@.c). */
extern const grade_exercise grade@NN@_turn;
extern const grade_chapter grade@NN@_chapter;

#endif
