/* manifest.h - a program's own outputs in a folder it shares with others.
 *
 * Several programs write into one OUTDIR (out/ch30/), and a student's scratch folder keeps
 * what earlier runs wrote: lab30 --theta 0,120 leaves skinning30-theta120.png, which a
 * later default run does not write. So that a run leaves exactly its own files, each run
 * writes a manifest, `<program>-outputs.txt`, listing the files it wrote with the size and
 * content hash (bytes_hash) of each as written:
 *
 *     skinlab-outputs 2 lab30
 *     # lab30's outputs in this folder from its last run, ...
 *     48213 9f1c2e0b7a6d5f43 skinning30.png
 *     20111 03aa5e1c9b2f7d10 skinning30-theta000.png
 *
 * and the next run removes, in the same all-or-nothing commit (output_batch_remove), each
 * file the previous manifest lists that it does not write itself, and only while that file
 * is provably its own: a regular file (by lstat, never through a symlink) of the recorded
 * size and hash, under a name an output can have. A file the student changed since, a
 * symlink, a directory, another program's file: kept, and the report lists each kept file
 * with the reason. The manifest itself is opened without following a symlink and read
 * whole before anything is acted on; one that is a symlink, too large, not in this format,
 * another program's (its first line names its program) or malformed in any line is
 * ignored, with a line in the report, and its files kept.
 */
#ifndef MANIFEST_H
#define MANIFEST_H

#include <stdio.h>

#include "base/diag.h"
#include "program/output.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MANIFEST_MAX_BYTES (1u << 20)
#define MANIFEST_MAGIC "skinlab-outputs 2"

/* Reads the manifest `<program>-outputs.txt` an earlier run left in dir (none: nothing is
 * stale), adds to batch the removal of each file it lists that batch does not write and
 * that is still exactly as written (batch->notes gets a line for each one kept), then adds
 * the new manifest naming every file batch writes with its size and hash (the batch's
 * images are encoded here for that). Call it after the last file was added and before
 * output_batch_commit. Errors: LAB_ERR_OUTPUT when the manifest's path cannot be opened
 * (the system's reason; a symlink is no error, only ignored) or is not a regular file (the
 * new one could not replace it); LAB_ERR_OUT_OF_MEMORY. */
lab_error manifest_prepare(output_batch *batch, const char *dir, const char *program, lab_diag *d);

/* After a successful commit: writes "  removed NAME" for each earlier output the commit
 * removed, under a title line, then the files kept with their reasons, to out; nothing
 * when there is neither. Returns how many lines it wrote (0: none). */
int manifest_report_removed(const output_batch *batch, FILE *out);

#ifdef __cplusplus
}
#endif

#endif
