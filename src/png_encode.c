/* png_encode.c - PNG encoding, one image or several on worker threads (see png_encode.h). */
#define _POSIX_C_SOURCE 200809L
#include "png_encode.h"

#include <pthread.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>

/* stb_image_write's allocations, ours: stb asserts that a realloc succeeded, and uses
 * some mallocs without checking them, so an allocation that fails must not return to it.
 * Instead it ends the encoding with longjmp back to png_encode, which frees every block
 * stb still held (each block is on a per-thread list) and reports LAB_ERR_OUT_OF_MEMORY.
 * The implementation is compiled here, static to this file, from the Debian package's
 * header (libstb-dev), with these allocators. */
typedef union block {
    struct { union block *prev, *next; } link;
    max_align_t align;
} block;

static _Thread_local block *held;          /* the blocks stb holds, most recent first */
static _Thread_local jmp_buf *on_failure;

static void *hold(block *b)
{
    b->link.prev = NULL;
    b->link.next = held;
    if (held)
        held->link.prev = b;
    held = b;
    return b + 1;
}

static void release(block *b)
{
    if (b->link.prev)
        b->link.prev->link.next = b->link.next;
    else
        held = b->link.next;
    if (b->link.next)
        b->link.next->link.prev = b->link.prev;
}

static void *encode_malloc(size_t n)
{
    block *b = malloc(sizeof *b + n);
    if (!b)
        longjmp(*on_failure, 1);
    return hold(b);
}

static void encode_free(void *p)
{
    if (p) {
        release((block *)p - 1);
        free((block *)p - 1);
    }
}

static void *encode_realloc(void *p, size_t n)
{
    if (!p)
        return encode_malloc(n);
    block *b = (block *)p - 1;
    release(b);
    block *grown = realloc(b, sizeof *b + n);
    if (!grown) {
        hold(b); /* still stb's, freed with the rest */
        longjmp(*on_failure, 1);
    }
    return hold(grown);
}

#define STBIW_MALLOC(n) encode_malloc(n)
#define STBIW_REALLOC(p, n) encode_realloc(p, n)
#define STBIW_FREE(p) encode_free(p)
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>

static void png_sink(void *context, void *data, int size)
{
    bytes_append(context, data, (size_t)size);
}

lab_error png_encode(const canvas *c, bytes *out, lab_diag *d)
{
    jmp_buf failed;
    volatile int ok = 0;
    held = NULL;
    on_failure = &failed;
    if (setjmp(failed) == 0) {
        ok = stbi_write_png_to_func(png_sink, out, c->width, c->height, 3, c->rgb, c->width * 3);
    } else { /* an allocation failed inside stb: free what it held */
        while (held) {
            block *b = held;
            release(b);
            free(b);
        }
    }
    on_failure = NULL;
    if (!ok || out->failed)
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

lab_error png_encode_all(const canvas *const *images, int count, bytes *out, lab_diag *d)
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
