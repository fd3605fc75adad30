/* grade@NN@.c - chapter @NN@'s grader: `make grade@NN@` links it and runs it on the student's
 * sheet, lab/ch@NN@/exercises.c (EXERCISES=path grades another file in its place). The
 * grader is the engine's (src/grade/grader.h) over the chapter's list (chapter@NN@.c). */
#include "grade/grader.h"

#include "grade@NN@.h"

int main(int argc, char **argv) { return grade_main(&grade@NN@_chapter, argc, argv); }
