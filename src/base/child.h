/* child.h - work that can take its process down, run in a child process.
 *
 * Two libraries the lab calls cannot be trusted to fail politely: Debian's libstb asserts
 * (aborts) when an allocation fails inside its PNG encoder, and a GPU driver can abort or
 * crash inside glvnd, LLVM or Mesa. child_run forks; the child runs the job and sends its
 * error, its diag and its result bytes back through a pipe, then ends with _exit (no
 * atexit handler, no second flush of the parent's stdio). This process reads them, waits
 * for the child, and returns the job's own error and diag, with the result in *result.
 *
 * When the child dies (a signal, an abort) or its message arrives incomplete, child_run
 * returns `crash_code` with a diag that names `what` and the child's end ("signal 11
 * (Segmentation fault)", "exit status 1"), and *result is empty. Nothing the job did in
 * the child reaches this process except the result: the job writes what the parent needs
 * into `result` (a flat struct, a list of lengths and bytes) and the parent unpacks it.
 *
 *     lab_error e = child_run("GPU work", gpu_job, &state, &result, LAB_ERR_GPU, d);
 *
 * In sanitizer builds the child runs LeakSanitizer's check before it ends, so the job's
 * leaks are still reported (and make the child fail). Call it before any output is
 * written; the parent's stdio is flushed first. */
#ifndef CHILD_H
#define CHILD_H

#include "base/bytes.h"
#include "base/diag.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef lab_error (*child_job)(void *state, bytes *result, lab_diag *d);

lab_error child_run(const char *what, child_job job, void *state, bytes *result, lab_error crash_code,
                    lab_diag *d);

/* Whether a diag from child_run says the child ended (rather than its job's own error), and
 * then, in *out_of_memory, whether that end is an allocation's: exit 3 (the out-of-memory
 * guard of src/base/library.h, or the contract's code) or exit 127 (glibc's loader, which
 * ends a process so where it cannot allocate for a library it opens). */
bool child_ended(const lab_diag *crash, bool *out_of_memory);

/* True in the child process while child_run's job runs: what would end the program says
 * nothing there (src/base/library.h's guard), since the parent reports the child's end. */
bool child_in_job(void);

#ifdef __cplusplus
}
#endif

#endif
