/* manifest.h - a program's own outputs in a folder it shares with others.
 *
 * Several programs write into one OUTDIR (out/ch30/), and a student's scratch folder keeps
 * what earlier runs wrote: lab30 --theta 0,120 leaves skinning30-theta120.png, which a
 * later default run does not write. So that a run leaves exactly its own files, each run
 * writes a manifest, `<program>-outputs.txt`, listing the files it wrote:
 *
 *     # lab30's outputs in this folder, from its last run; ...
 *     skinning30.png
 *     skinning30-theta000.png
 *
 * and the next run removes, in the same all-or-nothing commit (output_batch_remove), each
 * file the previous manifest lists that it does not write itself. Nothing else is touched:
 * not another program's files, not a file the student made, not a line of the manifest
 * that is not a plain file name, not a name that is not a regular file now.
 */
#ifndef MANIFEST_H
#define MANIFEST_H

#include <stdio.h>

#include "base/diag.h"
#include "program/output.h"

#define MANIFEST_MAX_BYTES (1u << 20)

/* Reads the manifest `<program>-outputs.txt` an earlier run left in dir (none: nothing is
 * stale), adds to batch the removal of each file it lists that batch does not write, then
 * adds the new manifest naming every file batch writes. Call it after the last file was
 * added and before output_batch_commit. Errors: LAB_ERR_OUTPUT when the manifest exists
 * but cannot be read (the system's reason) or is over MANIFEST_MAX_BYTES;
 * LAB_ERR_OUT_OF_MEMORY. */
lab_error manifest_prepare(output_batch *batch, const char *dir, const char *program, lab_diag *d);

/* After a successful commit: writes "  removed NAME" for each earlier output the commit
 * removed, under a title line, to out; nothing when none was. Returns how many. */
int manifest_report_removed(const output_batch *batch, FILE *out);

#endif
