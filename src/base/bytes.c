/* bytes.c - growable buffers and round-trip number formatting (see bytes.h). */
#define _POSIX_C_SOURCE 200809L
#include "base/bytes.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void bytes_free(bytes *b)
{
    free(b->data);
    *b = (bytes){0};
}

static bool bytes_reserve(bytes *b, size_t extra)
{
    if (b->failed)
        return false;
    if (b->len + extra + 1 <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1)
        cap *= 2;
    unsigned char *p = realloc(b->data, cap);
    if (!p) {
        b->failed = true;
        return false;
    }
    b->data = p;
    b->cap = cap;
    return true;
}

void bytes_append(bytes *b, const void *data, size_t len)
{
    if (!bytes_reserve(b, len))
        return;
    if (len)
        memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = '\0'; /* keeps text buffers usable as C strings */
}

void bytes_printf(bytes *b, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    int n = vsnprintf(NULL, 0, fmt, args);
    va_end(args);
    if (n < 0 || !bytes_reserve(b, (size_t)n))
        return;
    va_start(args, fmt);
    vsnprintf((char *)b->data + b->len, (size_t)n + 1, fmt, args);
    va_end(args);
    b->len += (size_t)n;
}

uint64_t bytes_hash(const void *data, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (const unsigned char *p = data; n > 0; n--, p++)
        h = (h ^ *p) * 0x100000001b3ull;
    return h;
}

bytes_read_result bytes_read_file(const char *path, size_t max_size, bytes *out)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0)
        return BYTES_READ_CANNOT_OPEN;
    struct stat st;
    bytes_read_result r = fstat(fd, &st) != 0    ? BYTES_READ_ERROR
                          : !S_ISREG(st.st_mode) ? BYTES_READ_NOT_REGULAR
                          : (unsigned long long)st.st_size > max_size ? BYTES_READ_TOO_LARGE
                                                                       : BYTES_READ_OK;
    char chunk[1 << 16];
    size_t start = out->len;
    while (r == BYTES_READ_OK) { /* the size may change while we read: the limit holds anyway */
        ssize_t got = read(fd, chunk, sizeof chunk);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            r = got < 0 ? BYTES_READ_ERROR : r;
            break;
        }
        bytes_append(out, chunk, (size_t)got);
        r = out->failed ? BYTES_READ_OUT_OF_MEMORY
            : out->len - start > max_size ? BYTES_READ_TOO_LARGE : BYTES_READ_OK;
    }
    if (r == BYTES_READ_OK)
        bytes_append(out, "", 0); /* an empty file is still a C string */
    if (r == BYTES_READ_OK && out->failed)
        r = BYTES_READ_OUT_OF_MEMORY;
    close(fd);
    return r;
}

const char *bytes_read_message(bytes_read_result r)
{
    static const char *const text[] = {"read", "cannot open the file", "reading the file failed",
                                       "the file is larger than the limit",
                                       "out of memory while reading the file",
                                       "not a regular file (a FIFO, a device or a directory)"};
    return (int)r >= 0 && r <= BYTES_READ_NOT_REGULAR ? text[r] : "?";
}

char *format_or_zero(char *buf, size_t size, double x, const char *fmt, format_zero_mode mode)
{
    if (!(fabs(x) < FORMAT_ZERO_BELOW)) /* NaN too: printed as fmt prints it */
        snprintf(buf, size, fmt, x);
    else if (x == 0.0 || mode == FORMAT_ZERO_BARE)
        snprintf(buf, size, "0");
    else
        snprintf(buf, size, mode == FORMAT_ZERO_NOTE ? "0 (%.2g in floating point)" : "0 (%.2g)", x);
    return buf;
}

char *format_double(char *buf, double x)
{
    if (isnan(x))
        return strcpy(buf, "nan");
    if (isinf(x))
        return strcpy(buf, x > 0 ? "inf" : "-inf");
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(buf, 32, "%.*g", digits, x);
        if (strtod(buf, NULL) == x)
            break;
    }
    return buf;
}
