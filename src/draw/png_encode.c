/* png_encode.c - PNG encoding, one image or several on worker threads (see png_encode.h). */
#define _POSIX_C_SOURCE 200809L
#include "draw/png_encode.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/wait.h>
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

static bool write_all(int fd, const void *data, size_t n)
{
    for (const char *p = data; n > 0;) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w, n -= (size_t)w;
    }
    return true;
}

static bool read_all(int fd, void *data, size_t n)
{
    for (char *p = data; n > 0;) {
        ssize_t r = read(fd, p, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        p += r, n -= (size_t)r;
    }
    return true;
}

/* libstb's encoder asserts (aborts) when an allocation fails inside it, and its allocator
 * cannot be replaced in the shared library. So the encoding runs in a child process that
 * sends each PNG back through a pipe: if the child dies, this process is intact and
 * reports the failure as an error, with nothing written. */
lab_error png_encode_all(const canvas *const *images, int count, bytes *out, lab_diag *d)
{
    if (count <= 0)
        return LAB_OK;
    int fd[2];
    if (pipe(fd) != 0)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "PNG encoder", "no pipe: %s", strerror(errno));
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]), close(fd[1]);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "PNG encoder", "no process: %s", strerror(errno));
    }
    if (pid == 0) { /* the child: encode, send every image's length and bytes */
        close(fd[0]);
        bool ok = encode_here(images, count, out, NULL) == LAB_OK;
        for (int i = 0; ok && i < count; i++)
            ok = write_all(fd[1], &out[i].len, sizeof out[i].len) && write_all(fd[1], out[i].data, out[i].len);
        _exit(ok ? 0 : 1);
    }
    close(fd[1]);
    bool ok = true;
    for (int i = 0; ok && i < count; i++) {
        size_t n = 0;
        ok = read_all(fd[0], &n, sizeof n);
        unsigned char *chunk = ok ? malloc(n ? n : 1) : NULL;
        ok = chunk && read_all(fd[0], chunk, n);
        if (ok)
            bytes_append(&out[i], chunk, n);
        ok = ok && !out[i].failed;
        free(chunk);
    }
    close(fd[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (ok && WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return LAB_OK;
    for (int i = 0; i < count; i++)
        bytes_free(&out[i]);
    return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "PNG encoder",
                     "the encoding of %d images failed (%s): most likely out of memory", count,
                     WIFSIGNALED(status) ? "the encoder aborted" : "its result was incomplete");
}
