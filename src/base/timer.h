/* timer.h - the clocks the lab reads, for timings that are printed or benchmarked, never
 * written into evidence (outputs stay deterministic):
 *
 *   timer_seconds          wall time, CLOCK_MONOTONIC
 *   timer_thread_seconds   the calling thread's CPU time, CLOCK_THREAD_CPUTIME_ID: what one
 *                          thread's work costs on a shared machine, whoever else runs
 *   timer_process_seconds  the CPU time of all the process's threads, CLOCK_PROCESS_CPUTIME_ID
 */
#ifndef TIMER_H
#define TIMER_H

#ifdef __cplusplus
extern "C" {
#endif

double timer_seconds(void);
double timer_thread_seconds(void);
double timer_process_seconds(void);

#ifdef __cplusplus
}
#endif

#endif
