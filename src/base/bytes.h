/* bytes.h - growable byte buffers and the one number format every output uses.
 *
 * A `bytes` buffer is where every output is built in memory before it is written. It
 * never fails loudly in the middle of a writer: an append that runs out of memory sets
 * `failed`, later appends do nothing, and whoever hands the buffer on (output_batch_add,
 * json_to_bytes) turns `failed` into LAB_ERR_OUT_OF_MEMORY. So a writer can append a
 * hundred fields and check once.
 */
#ifndef BYTES_H
#define BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    unsigned char *data;     /* len bytes, then a NUL (text buffers are C strings) */
    size_t len, cap;
    bool failed;             /* an append ran out of memory; later appends no-op */
    size_t not_finite_line;  /* CSV: the line of the first NaN or infinity given to
                                csv_number (1-based; 0: none); such a file is refused */
} bytes;

void bytes_free(bytes *b);
void bytes_append(bytes *b, const void *data, size_t len);
void bytes_printf(bytes *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The 64-bit FNV-1a hash of n bytes: how the manifest and the commit's journal recognise
 * a file the lab wrote (its size and this hash), so that nothing else is ever removed. Not
 * a defence against a forger, a check against an accident. */
uint64_t bytes_hash(const void *data, size_t n);

/* Why bytes_read_file gave up. */
typedef enum {
    BYTES_READ_OK = 0,
    BYTES_READ_CANNOT_OPEN,      /* errno says why */
    BYTES_READ_ERROR,            /* a read failed */
    BYTES_READ_TOO_LARGE,        /* more than max_size bytes */
    BYTES_READ_OUT_OF_MEMORY,
    BYTES_READ_NOT_REGULAR       /* a FIFO, a device, a directory, ... */
} bytes_read_result;

/* Appends the whole file at path to out (NUL-terminated, so text can be used as a
 * string), reading at most max_size bytes. Only a regular file is read: the path is
 * opened without blocking (a FIFO cannot hang the program) and checked with fstat, and
 * a file whose size already exceeds max_size is refused before anything is read. */
bytes_read_result bytes_read_file(const char *path, size_t max_size, bytes *out);
/* "cannot open the file", "the file is larger than the limit", ...; never NULL. */
const char *bytes_read_message(bytes_read_result r);

/* The shortest of %.15g, %.16g, %.17g that reads back as exactly x (round trip);
 * "nan", "inf", "-inf" for non-finite x. buf needs 32 bytes. Returns buf. */
char *format_double(char *buf, double x);

/* A quantity of order 1 that is 0 in exact arithmetic and only rounding in floating point
 * (the collapsed ring's radius 6.7e-17, det M = 3.7e-33), as a student reads it: when
 * |x| < FORMAT_ZERO_BELOW, "0 (3.7e-33 in floating point)" (FORMAT_ZERO_NOTE), "0 (3.7e-33)"
 * (FORMAT_ZERO_BRIEF, a figure's label) or "0" (FORMAT_ZERO_BARE); otherwise x as printf's
 * `fmt` (one double) prints it. An exact 0 prints "0". Returns buf. */
#define FORMAT_ZERO_BELOW 1e-12
typedef enum { FORMAT_ZERO_NOTE, FORMAT_ZERO_BRIEF, FORMAT_ZERO_BARE } format_zero_mode;
char *format_or_zero(char *buf, size_t size, double x, const char *fmt, format_zero_mode mode);

#ifdef __cplusplus
}
#endif

#endif
