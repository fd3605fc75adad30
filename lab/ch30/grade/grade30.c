/* grade30.c - the grader's main: make grade30 links this program once and runs it on the
 * student's sheets (lab/ch30/exercises.c and lab/ch30/sheets/NAME.c; SHEET=name grades one,
 * EXERCISES=path grades another file as that sheet, or alone as its own) as
 * `grade30 [--only NAME] [--sheet FILE] [--cc COMMAND] build/grade30`
 * (lab/ch30/grade/README.md). The grader is the engine's (src/grade/grader.h) over the
 * chapter's exercises and sheets (GRADE30_LIST, grade30_sheets.c): each sheet compiled on
 * its own, each exercise graded in a limited child, the verdicts printed, the pictures and
 * the records written all or nothing. Exit codes: 0 every exercise graded correct; 1 one is
 * not written yet, wrong, crashed, too slow, undefined, not graded here or does not
 * compile; 2 usage; 3 OUTDIR or a write failed, or out of memory. */
#include "grade/grader.h"

#include "grade30_table.h"

int main(int argc, char **argv) { return grade_main(&grade30_chapter, argc, argv); }
