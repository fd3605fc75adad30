/* output.h - byte buffers, number formatting, PNG encoding and atomic output batches.
 *
 * The contract of every chapter program (design.md): OUTDIR must exist; every output is
 * first built in memory, then written to a temporary name inside OUTDIR, and renamed into
 * place only after all of them were written; on any failure the temporaries are removed
 * and the earlier outputs stay untouched. Same inputs, same bytes: nothing here reads the
 * clock or iterates in an unspecified order.
 */
#ifndef OUTPUT_H
#define OUTPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "raster.h"

typedef struct {
    unsigned char *data;
    size_t len, cap;
    int failed;              /* set when an append ran out of memory; later appends no-op */
} bytes;

void bytes_free(bytes *b);
void bytes_append(bytes *b, const void *data, size_t len);
void bytes_printf(bytes *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Appends the whole file at path to out (NUL-terminated, so text can be used as a string).
 * False when it cannot be opened or read, or is larger than max_size bytes. */
bool bytes_read_file(const char *path, size_t max_size, bytes *out);

/* The shortest of %.15g, %.16g, %.17g that reads back as exactly x (round trip);
 * "nan", "inf", "-inf" for non-finite x. buf needs 32 bytes. Returns buf. */
char *format_double(char *buf, double x);

/* PNG of the canvas (RGB, 8 bits) through stb_image_write, into out. */
lab_error png_encode(const canvas *c, bytes *out, lab_diag *d);

/* png_encode for several canvases at once, on up to four threads: encoding dominates a
 * chapter program's run time, and each image is independent, so the bytes are the same
 * as encoding them one by one. out[0 <= i < count] receives image i. */
lab_error png_encode_all(const canvas *const *images, int count, bytes *out, lab_diag *d);

/* Checks that dir exists, is a directory and is writable (exit code 3 otherwise). */
lab_error output_check_dir(const char *dir, lab_diag *d);

#define OUTPUT_MAX_FILES 32

typedef struct {
    int count;
    char name[OUTPUT_MAX_FILES][96];   /* plain file names inside the directory */
    bytes content[OUTPUT_MAX_FILES];
} output_batch;

/* Takes ownership of `content` (it is reset to empty). Fails when the batch is full, the
 * name is not a plain file name, or the buffer had run out of memory. */
lab_error output_batch_add(output_batch *batch, const char *name, bytes *content, lab_diag *d);
/* Encodes the images (png_encode_all) and adds them under names[i]. */
lab_error output_batch_add_pngs(output_batch *batch, const char (*names)[96],
                                const canvas *const *images, int count, lab_diag *d);
/* Writes every file atomically into dir (see the top of this header). */
lab_error output_batch_commit(const output_batch *batch, const char *dir, lab_diag *d);
void output_batch_free(output_batch *batch);

#endif
