/* timer.c - see timer.h. */
#define _POSIX_C_SOURCE 200809L
#include "base/timer.h"

#include <time.h>

static double read_clock(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

double timer_seconds(void) { return read_clock(CLOCK_MONOTONIC); }
double timer_thread_seconds(void) { return read_clock(CLOCK_THREAD_CPUTIME_ID); }
double timer_process_seconds(void) { return read_clock(CLOCK_PROCESS_CPUTIME_ID); }
