/* output.h - the output directory of a chapter program, written all or nothing.
 *
 * The contract (DESIGN.md): OUTDIR must exist; every output is first built in memory (a
 * `bytes` buffer, or a canvas that becomes a PNG), collected in a batch, and committed:
 *   0. the PNGs are encoded (png_encode_all) and a journal, `.output-journal.PID`, is
 *      created for this run alone, listing every file with its size and content hash;
 *   1. every file is written to a temporary `.NAME.PID.tmp` inside OUTDIR and synced;
 *   2. a target that rename() could not replace (a directory in the way) is refused;
 *   3. each existing regular target is kept as a hard link `.NAME.PID.old`, its size and
 *      hash added to the journal;
 *   4. the temporaries are renamed into place, one by one, each noted in the journal
 *      first; then the journal notes the commit point;
 *   5. the `.old` links and the journal are removed.
 * Nothing is written outside OUTDIR and nothing of the user's is overwritten on the way:
 * every temporary and the journal are created with O_CREAT | O_EXCL | O_NOFOLLOW, under
 * a fresh name (`.NAME.PID-K.tmp`) where one is taken, so that a symlink planted at a
 * run's name is never followed. A batch may also remove files (output_batch_remove: a
 * program's earlier outputs that this run does not write, each proven its own first by
 * src/program/manifest.c); a removal is kept in steps 3 and 4 like a replacement, so it is
 * rolled back and recovered with the rest.
 * A failure in steps 0-3 leaves OUTDIR as it was. A failure in step 4 (a refused rename)
 * rolls back: the files already renamed get their old contents back (or are removed when
 * there was none), so OUTDIR again holds the previous run's outputs.
 *
 * A run killed on the way (SIGKILL, power loss) cannot roll back; the next commit into
 * the same OUTDIR does it first, for a journal in this format whose process is gone: before
 * the commit point, each file it renamed gets its old contents back (from the .old that
 * still has its hash) or goes when it had none (when it still has the new hash); then the
 * temporaries and old links it lists go, each only while it still has its size and hash. A
 * file no journal lists (a dotfile of the user's shaped like a temporary) and a journal in
 * another format are never touched. What a reader of OUTDIR can rely on: after a run
 * that exited, OUTDIR holds one run's outputs, whole: the new ones (exit 0) or the
 * previous ones (any other exit). While a commit is renaming, or after a kill until the
 * next run, a reader can see some new files beside old ones, and whenever it can, a
 * journal is in OUTDIR; each file on its own is always whole (rename is atomic). The outputs stay
 * plain files in OUTDIR, not links into a directory switched in one step, because out/ is
 * committed to git and several programs write into it at once (DESIGN.md, "The contract").
 *
 * Same inputs, same bytes: nothing here reads the clock or iterates in an unspecified
 * order (the recovery's directory scan only removes and restores files).
 */
#ifndef OUTPUT_H
#define OUTPUT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/bytes.h"
#include "base/diag.h"
#include "draw/png_encode.h"
#include "draw/raster.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Checks that dir exists, is a directory and is writable (exit code 3 otherwise). */
lab_error output_check_dir(const char *dir, lab_diag *d);

#define OUTPUT_MAX_NAME 63   /* a file name's length; names are plain (no '/', no leading '.') */

typedef struct {
    char name[OUTPUT_MAX_NAME + 1];
    bytes content;           /* the file's bytes (a PNG's once encoded) */
    canvas image;            /* a PNG still to encode; width 0 when none */
    bool remove;             /* not a file to write: an earlier output to remove */
    bool existed;            /* set by a successful commit: there was a file of this name */
    /* the commit's own bookkeeping */
    uint64_t hash;           /* bytes_hash of content */
    int tmp_attempt, old_attempt; /* which fresh name its temporary and its old file took */
    bool kept_old;           /* its previous regular file is kept as .NAME.PID[-K].old */
    bool remove_skipped;     /* a removal of something that is not a regular file: left */
} output_file;

typedef struct {
    output_file *files;      /* count of them, in the order they were added */
    int count, cap;
    /* Tests only: called instead of rename(2) for the renames of step 4, to show the
     * rollback. NULL (zero-initialised) means rename(2). */
    int (*rename_file)(const char *from, const char *to, void *context);
    void *rename_context;
    /* Tests only: called with a temporary's path just before it is created (step 1), to
     * plant a file there as a race would. NULL means nothing. */
    void (*before_create)(const char *path, void *context);
    bytes notes;             /* lines for the report: earlier outputs kept (src/program/manifest.h) */
    png_effort png;          /* how hard the figures are compressed (zero: PNG_SMALLEST) */
} output_batch;

/* An output name made from a user's input, `stem` (a file's name without its folder and
 * extension) then `suffix` ("-heat.glb"): every control character, DEL, '/', '\\' and byte of
 * no valid UTF-8 sequence becomes '_', a leading '.' becomes '_', and a stem longer than
 * OUTPUT_STEM_MAX characters is shortened stably to its first OUTPUT_STEM_MAX - 9, '~' and
 * 8 hex digits of its hash, so that two long names stay two. Returns whether the name
 * differs from stem + suffix (the report must say so); out holds OUTPUT_MAX_NAME + 1. */
#define OUTPUT_STEM_MAX 40
bool output_name_from_input(const char *stem, const char *suffix, char out[OUTPUT_MAX_NAME + 1]);

/* Takes ownership of `content` (reset to empty, also on error). Fails with
 * LAB_ERR_OUT_OF_MEMORY when the buffer had run out of memory, LAB_ERR_INVALID_ARGUMENT
 * when the name is not a plain file name or is already in the batch. */
lab_error output_batch_add(output_batch *batch, const char *name, bytes *content, lab_diag *d);
/* The removal of dir/name (an earlier output this run does not write, src/program/manifest.h)
 * as part of the commit: in step 3 the file is kept as .NAME.PID.old like a replaced one,
 * in step 4 it is removed, and a rollback or a later recovery brings it back. A name that
 * is not there is no error; after the commit, `existed` tells whether one was removed. */
lab_error output_batch_remove(output_batch *batch, const char *name, lab_diag *d);
/* Takes ownership of `image` (reset to empty, also on error); it is encoded as a PNG at
 * commit, all images of the batch at once on several threads. */
lab_error output_batch_add_image(output_batch *batch, const char *name, canvas *image,
                                 lab_diag *d);
/* A figure and each of its panels alone, after the step that drew them (status): takes
 * ownership of *figure and panels[0 <= i < count] and frees them in every case; when
 * status is LAB_OK adds the figure as figure_name and panel i as names[i]. Returns status
 * or the first error of adding. */
typedef char output_name[OUTPUT_MAX_NAME + 1];
lab_error output_batch_add_figure(output_batch *batch, lab_error status, const char *figure_name,
                                  canvas *figure, canvas *panels, output_name *names, int count,
                                  lab_diag *d);

/* An animation as a looping GIF (src/draw/gif_encode.h): draw_frame(context, k, &frame, d)
 * draws frame k of `frames` onto a new canvas (every frame the size of the first), which is
 * encoded at once and freed, so no frame is kept; each shows for delay_cs hundredths of a
 * second. The file is added as `name` when every frame was drawn and encoded. */
typedef lab_error (*output_frame_fn)(const void *context, int k, canvas *frame, lab_diag *d);
lab_error output_batch_add_animation(output_batch *batch, const char *name, int frames, int delay_cs,
                                     output_frame_fn draw_frame, const void *context, lab_diag *d);

/* Encodes the batch's images now (output_batch_commit does it otherwise): what a
 * manifest needs to record the PNGs' sizes and hashes before the commit. */
lab_error output_batch_encode(output_batch *batch, lab_diag *d);

/* Whether path is a regular file (reached through no symlink) of exactly size bytes whose
 * bytes_hash is hash: the proof that a file is the lab's own before it is removed. */
bool output_is_own(const char *path, uint64_t size, uint64_t hash);

/* Writes every file into dir as described at the top of this header. */
lab_error output_batch_commit(output_batch *batch, const char *dir, lab_diag *d);
void output_batch_free(output_batch *batch);

#ifdef __cplusplus
}
#endif

#endif
