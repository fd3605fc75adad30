/* png_encode.c - PNG encoding, one image or several on worker threads (see png_encode.h). */
#define _POSIX_C_SOURCE 200809L
#include "draw/png_encode.h"

#include "base/child.h"

#include <stdio.h>
#include <string.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include <stb_image_write.h> /* linked from Debian's libstb */

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

/* The queue of png_encode_all: workers take the largest image not yet taken, so the one
 * big figure starts first and the small panels fill in around it. */
typedef struct {
    const canvas *const *images;
    bytes *out;
    lab_error *result;
    int *order;                  /* image indices, largest first */
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

/* The encoding on this process's threads (png_encode_all runs it in a child). */
static lab_error encode_here(const canvas *const *images, int count, bytes *out, lab_diag *d)
{
    enum { MAX_WORKERS = 4 };
    if (count <= 0)
        return LAB_OK;
    lab_error *result = malloc(sizeof *result * (size_t)count);
    int *order = malloc(sizeof *order * (size_t)count);
    if (!result || !order) {
        free(result), free(order);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "PNG encoder", "%d images", count);
    }
    png_queue q = {.images = images, .out = out, .result = result, .order = order, .count = count};
    for (int i = 0; i < count; i++) { /* insertion sort by size, ties in index order */
        int j = i;
        while (j > 0 && pixels_of(images[order[j - 1]]) < pixels_of(images[i])) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
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
    lab_error e = LAB_OK;
    for (int i = 0; e == LAB_OK && i < count; i++)
        if (result[i] != LAB_OK)
            e = diag_fail(d, result[i], "PNG encoder", "image %d of %d (%d x %d)", i + 1, count,
                          images[i]->width, images[i]->height);
    free(result), free(order);
    return e;
}

/* The child's job: every image encoded, then sent as its length and its bytes. */
typedef struct {
    const canvas *const *images;
    int count;
    png_effort effort;
} png_batch;

static lab_error encode_and_pack(void *state, bytes *result, lab_diag *d)
{
    const png_batch *batch = state;
    if (batch->effort == PNG_QUICK) /* stb's settings are its globals: set in this child only */
        stbi_write_force_png_filter = 0, stbi_write_png_compression_level = 4;
    bytes *out = calloc((size_t)batch->count, sizeof *out);
    lab_error e = out ? encode_here(batch->images, batch->count, out, d)
                      : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "PNG encoder", "%d images", batch->count);
    for (int i = 0; e == LAB_OK && i < batch->count; i++) {
        bytes_append(result, &out[i].len, sizeof out[i].len);
        bytes_append(result, out[i].data, out[i].len);
    }
    for (int i = 0; out && i < batch->count; i++)
        bytes_free(&out[i]);
    free(out);
    return e;
}

/* libstb's encoder asserts (aborts) when an allocation fails inside it, and its allocator
 * cannot be replaced in the shared library. So the encoding runs in a child process
 * (child.h): if the child dies, this process is intact and reports the failure as an
 * error, with nothing written. */
lab_error png_encode_all(const canvas *const *images, int count, png_effort effort, bytes *out, lab_diag *d)
{
    if (count <= 0)
        return LAB_OK;
    png_batch batch = {images, count, effort};
    bytes packed = {0};
    lab_error e = child_run("PNG encoder", encode_and_pack, &batch, &packed, LAB_ERR_OUT_OF_MEMORY, d);
    size_t at = 0;
    for (int i = 0; e == LAB_OK && i < count; i++) { /* the child wrote what it read: lengths fit */
        size_t n = 0;
        memcpy(&n, packed.data + at, sizeof n);
        bytes_append(&out[i], packed.data + at + sizeof n, n);
        at += sizeof n + n;
        if (out[i].failed)
            e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "PNG encoder", "image %d of %d, %zu bytes", i + 1, count, n);
    }
    bytes_free(&packed);
    if (e != LAB_OK)
        for (int i = 0; i < count; i++)
            bytes_free(&out[i]);
    return e;
}
