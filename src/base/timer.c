/* timer.c - see timer.h. */
#define _POSIX_C_SOURCE 200809L
#include "base/timer.h"

#include <time.h>

double timer_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
