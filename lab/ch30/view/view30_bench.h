/* view30_bench.h - view30 --bench FILE (view30_bench.c): frame times at 800 x 600 by thread
 * CPU time, median and 99th percentile, 3 untimed frames first: every method while both
 * angles move, or the asset playing at 30 frames a second under LBS and DQS, and with a
 * sheet a save to its new picture (wall time); the table, with the CPU, into FILE. */
#ifndef VIEW30_BENCH_H
#define VIEW30_BENCH_H

#include "view30_viewer.h"

/* 0, 1 (a frame could not be drawn) or 3 (the file could not be written). */
int view30_bench(view30_viewer *v, view30_window *w, lab_diag *d);

#endif
