/* output.c - buffers, formatting, PNG encoding, atomic batches (see output.h). */
#define _POSIX_C_SOURCE 200809L
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pthread.h>

#include <stb_image_write.h>

void bytes_free(bytes *b)
{
    free(b->data);
    *b = (bytes){0};
}

static int bytes_reserve(bytes *b, size_t extra)
{
    if (b->failed)
        return 0;
    if (b->len + extra + 1 <= b->cap)
        return 1;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1)
        cap *= 2;
    unsigned char *p = realloc(b->data, cap);
    if (!p) {
        b->failed = 1;
        return 0;
    }
    b->data = p;
    b->cap = cap;
    return 1;
}

void bytes_append(bytes *b, const void *data, size_t len)
{
    if (!bytes_reserve(b, len))
        return;
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

bool bytes_read_file(const char *path, size_t max_size, bytes *out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    char chunk[1 << 16];
    bool ok = true;
    for (size_t got; ok && (got = fread(chunk, 1, sizeof chunk, f)) > 0;) {
        bytes_append(out, chunk, got);
        ok = !out->failed && out->len <= max_size;
    }
    ok = ok && !ferror(f);
    fclose(f);
    return ok;
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

static void png_sink(void *context, void *data, int size)
{
    bytes_append(context, data, (size_t)size);
}

lab_error png_encode(const canvas *c, bytes *out, lab_diag *d)
{
    if (!stbi_write_png_to_func(png_sink, out, c->width, c->height, 3, c->rgb, c->width * 3) ||
        out->failed)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "PNG encoder", "%d x %d image", c->width,
                         c->height);
    return LAB_OK;
}

/* png_encode_all's queue: workers take the largest image not yet taken, so the one
 * big figure starts first and the small panels fill in around it. */
typedef struct {
    const canvas *const *images;
    bytes *out;
    lab_error *result;
    int order[OUTPUT_MAX_FILES]; /* image indices, largest first */
    int count, next;
    pthread_mutex_t lock;
} png_queue;

static void *encode_from_queue(void *arg)
{
    png_queue *q = arg;
    for (;;) {
        pthread_mutex_lock(&q->lock);
        int k = q->next < q->count ? q->order[q->next++] : -1;
        pthread_mutex_unlock(&q->lock);
        if (k < 0)
            return NULL;
        q->result[k] = png_encode(q->images[k], &q->out[k], NULL);
    }
}

static long pixels_of(const canvas *c) { return (long)c->width * c->height; }

lab_error png_encode_all(const canvas *const *images, int count, bytes *out, lab_diag *d)
{
    enum { MAX_WORKERS = 4 };
    lab_error result[OUTPUT_MAX_FILES];
    if (count > OUTPUT_MAX_FILES)
        return diag_fail(d, LAB_ERR_OUTPUT, "PNG encoder", "%d images, at most %d", count,
                         OUTPUT_MAX_FILES);
    png_queue q = {.images = images, .out = out, .result = result, .count = count};
    for (int i = 0; i < count; i++) { /* insertion sort by size, ties in index order */
        int j = i;
        while (j > 0 && pixels_of(images[q.order[j - 1]]) < pixels_of(images[i])) {
            q.order[j] = q.order[j - 1];
            j--;
        }
        q.order[j] = i;
    }
    pthread_mutex_init(&q.lock, NULL);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int workers = (int)(cores < 1 ? 1 : cores > MAX_WORKERS ? MAX_WORKERS : cores);
    workers = workers < count ? workers : count;
    pthread_t thread[MAX_WORKERS];
    int started = 0; /* this thread is a worker too; if a thread fails to start, we do more */
    while (started + 1 < workers && pthread_create(&thread[started], NULL, encode_from_queue, &q) == 0)
        started++;
    encode_from_queue(&q);
    for (int k = 0; k < started; k++)
        pthread_join(thread[k], NULL);
    pthread_mutex_destroy(&q.lock);
    for (int i = 0; i < count; i++)
        if (result[i] != LAB_OK)
            return diag_fail(d, result[i], "PNG encoder", "image %d of %d (%d x %d)", i + 1, count,
                             images[i]->width, images[i]->height);
    return LAB_OK;
}

lab_error output_check_dir(const char *dir, lab_diag *d)
{
    struct stat st;
    if (stat(dir, &st) != 0)
        return diag_fail(d, LAB_ERR_OUTPUT, dir, "output directory does not exist (%s); create it first",
                         strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return diag_fail(d, LAB_ERR_OUTPUT, dir, "output path is not a directory");
    if (access(dir, W_OK | X_OK) != 0)
        return diag_fail(d, LAB_ERR_OUTPUT, dir, "output directory is not writable (%s)",
                         strerror(errno));
    return LAB_OK;
}

static int plain_name(const char *name)
{
    size_t n = strlen(name);
    return n > 0 && n < 64 && !strchr(name, '/') && name[0] != '.';
}

lab_error output_batch_add(output_batch *batch, const char *name, bytes *content, lab_diag *d)
{
    if (batch->count >= OUTPUT_MAX_FILES || !plain_name(name) || content->failed) {
        bytes_free(content);
        return diag_fail(d, content->failed ? LAB_ERR_OUT_OF_MEMORY : LAB_ERR_OUTPUT, name,
                         "cannot add output %d of at most %d", batch->count + 1, OUTPUT_MAX_FILES);
    }
    snprintf(batch->name[batch->count], sizeof batch->name[0], "%s", name);
    batch->content[batch->count] = *content;
    *content = (bytes){0};
    batch->count++;
    return LAB_OK;
}

lab_error output_batch_add_pngs(output_batch *batch, const char (*names)[96],
                                const canvas *const *images, int count, lab_diag *d)
{
    bytes png[OUTPUT_MAX_FILES] = {{0}};
    lab_error e = png_encode_all(images, count, png, d);
    for (int i = 0; i < count; i++) {
        if (e == LAB_OK)
            e = output_batch_add(batch, names[i], &png[i], d);
        bytes_free(&png[i]);
    }
    return e;
}

static void join_path(char *buf, size_t size, const char *dir, const char *name, const char *tag)
{
    if (tag)
        snprintf(buf, size, "%s/.%s.%ld.tmp", dir, name, (long)getpid());
    else
        snprintf(buf, size, "%s/%s", dir, name);
}

static int write_file(const char *path, const bytes *b)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return -1;
    size_t done = 0;
    while (done < b->len) {
        ssize_t w = write(fd, b->data + done, b->len - done);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            close(fd);
            return -1;
        }
        done += (size_t)w;
    }
    if (fsync(fd) != 0) {
        close(fd);
        return -1;
    }
    return close(fd);
}

static void remove_temporaries(const output_batch *batch, const char *dir, int count)
{
    char path[4200];
    for (int i = 0; i < count; i++) {
        join_path(path, sizeof path, dir, batch->name[i], "tmp");
        unlink(path);
    }
}

/* Phase 1 writes every temporary; phase 2 refuses targets that rename() could not replace
 * (a directory in the way); phase 3 renames, each one atomic on its own. Failures in
 * phases 1 and 2 leave the directory exactly as it was. */
lab_error output_batch_commit(const output_batch *batch, const char *dir, lab_diag *d)
{
    char tmp[4200], final[4200];
    lab_error e = output_check_dir(dir, d);
    if (e != LAB_OK)
        return e;
    for (int i = 0; i < batch->count; i++) {
        join_path(tmp, sizeof tmp, dir, batch->name[i], "tmp");
        if (write_file(tmp, &batch->content[i]) != 0) {
            int err = errno;
            remove_temporaries(batch, dir, i + 1);
            return diag_fail(d, LAB_ERR_OUTPUT, batch->name[i], "writing %s failed: %s", tmp,
                             strerror(err));
        }
    }
    for (int i = 0; i < batch->count; i++) {
        struct stat st;
        join_path(final, sizeof final, dir, batch->name[i], NULL);
        if (lstat(final, &st) == 0 && S_ISDIR(st.st_mode)) {
            remove_temporaries(batch, dir, batch->count);
            return diag_fail(d, LAB_ERR_OUTPUT, batch->name[i], "%s is a directory", final);
        }
    }
    for (int i = 0; i < batch->count; i++) {
        join_path(tmp, sizeof tmp, dir, batch->name[i], "tmp");
        join_path(final, sizeof final, dir, batch->name[i], NULL);
        if (rename(tmp, final) != 0) {
            int err = errno;
            remove_temporaries(batch, dir, batch->count);
            return diag_fail(d, LAB_ERR_OUTPUT, batch->name[i], "renaming into place failed: %s",
                             strerror(err));
        }
    }
    return LAB_OK;
}

void output_batch_free(output_batch *batch)
{
    for (int i = 0; i < batch->count; i++)
        bytes_free(&batch->content[i]);
    batch->count = 0;
}
