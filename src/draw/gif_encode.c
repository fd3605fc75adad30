/* gif_encode.c - canvases as a looping GIF through giflib (see gif_encode.h). */
#include "draw/gif_encode.h"

#include <gif_lib.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* giflib's output callback: append to the caller's buffer. */
static int append(GifFileType *gif, const GifByteType *data, int len)
{
    gif_writer *w = gif->UserData;
    size_t before = w->out->len;
    bytes_append(w->out, data, (size_t)len);
    if (w->out->failed || w->out->len != before + (size_t)len) {
        w->write_error = 1;
        return 0;
    }
    return len;
}

/* giflib's error: an allocation (or our buffer's) is out of memory; anything else is a
 * call outside giflib's contract, which this module never makes. */
static lab_error gif_failure(const gif_writer *w, int code, const char *what, lab_diag *d)
{
    if (code == E_GIF_ERR_NOT_ENOUGH_MEM || w->write_error || w->out->failed)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "GIF encoder", "%s", what);
    return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "GIF encoder", "%s: %s", what, GifErrorString(code));
}

lab_error gif_begin(gif_writer *w, int width, int height, int delay_cs, bytes *out, lab_diag *d)
{
    *w = (gif_writer){.out = out, .width = width, .height = height, .delay_cs = delay_cs};
    if (width < 1 || height < 1 || width > 65535 || height > 65535 || delay_cs < 0 || delay_cs > 65535)
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "GIF encoder", "%d x %d pixels, delay %d", width, height,
                         delay_cs);
    w->indices = malloc((size_t)width * (size_t)height);
    int err = 0;
    GifFileType *gif = w->indices ? EGifOpen(w, append, &err) : NULL;
    if (!gif) {
        free(w->indices), w->indices = NULL;
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "GIF encoder", "opening a %d x %d animation", width, height);
    }
    w->gif = gif;
    EGifSetGifVersion(gif, true); /* GIF89a: delays and looping */
    static const GifByteType netscape[11] = {'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0'};
    static const GifByteType loop_forever[3] = {1, 0, 0};
    if (EGifPutScreenDesc(gif, width, height, 8, 0, NULL) == GIF_ERROR ||
        EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
        EGifPutExtensionBlock(gif, 11, netscape) == GIF_ERROR ||
        EGifPutExtensionBlock(gif, 3, loop_forever) == GIF_ERROR || EGifPutExtensionTrailer(gif) == GIF_ERROR) {
        lab_error e = gif_failure(w, gif->Error, "the screen and loop", d);
        gif_abandon(w);
        return e;
    }
    return LAB_OK;
}

/* Up to 256 distinct colours of a frame, in the order they first appear (so the same
 * frame gives the same table), and each pixel's index, through a small open hash. */
enum { SLOTS = 1024 };
typedef struct {
    uint32_t key[SLOTS];      /* colour + 1 (0: empty) */
    unsigned char index[SLOTS];
    GifColorType colors[256];
    int count;
} palette;

static int palette_index(palette *p, rgb c)
{
    uint32_t key = ((uint32_t)c.r << 16 | (uint32_t)c.g << 8 | c.b) + 1, h = key * 2654435761u;
    for (uint32_t k = h >> 22;; k = (k + 1) & (SLOTS - 1)) {
        if (p->key[k] == key)
            return p->index[k];
        if (p->key[k] == 0) {
            if (p->count == 256)
                return -1;
            p->key[k] = key;
            p->index[k] = (unsigned char)p->count;
            p->colors[p->count] = (GifColorType){c.r, c.g, c.b};
            return p->count++;
        }
    }
}

lab_error gif_add_frame(gif_writer *w, const canvas *frame, lab_diag *d)
{
    GifFileType *gif = w->gif;
    if (frame->width != w->width || frame->height != w->height)
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "GIF frame", "%d x %d, the animation is %d x %d", frame->width,
                         frame->height, w->width, w->height);
    char name[32];
    snprintf(name, sizeof name, "GIF frame %d", w->frames);
    lab_error e = canvas_check_whole(frame, name, d);
    if (e != LAB_OK)
        return e;
    palette *p = calloc(1, sizeof *p);
    if (!p)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, name, "its colour table");
    /* one pass: every pixel's index (a figure is mostly runs of one colour: the previous
     * pixel's index is reused without hashing) */
    const unsigned char *prev = NULL;
    int index = 0;
    for (size_t i = 0; i < (size_t)frame->width * frame->height; i++) {
        const unsigned char *c = frame->rgb + 3 * i;
        if (!prev || c[0] != prev[0] || c[1] != prev[1] || c[2] != prev[2])
            index = palette_index(p, (rgb){c[0], c[1], c[2]});
        if (index < 0) {
            free(p);
            return diag_fail(d, LAB_ERR_LIMIT, name, "more than 256 colours: a GIF frame holds 256");
        }
        w->indices[i] = (unsigned char)index;
        prev = c;
    }
    int size = 2;
    while (size < p->count)
        size *= 2;
    ColorMapObject *map = GifMakeMapObject(size, p->colors); /* unused entries stay black */
    GraphicsControlBlock gcb = {DISPOSAL_UNSPECIFIED, false, w->delay_cs, NO_TRANSPARENT_COLOR};
    GifByteType extension[4];
    size_t extension_len = EGifGCBToExtension(&gcb, extension);
    int ok = map && EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, (int)extension_len, extension) != GIF_ERROR &&
             EGifPutImageDesc(gif, 0, 0, w->width, w->height, false, map) != GIF_ERROR;
    for (int y = 0; ok && y < w->height; y++)
        ok = EGifPutLine(gif, w->indices + (size_t)w->width * y, w->width) != GIF_ERROR;
    GifFreeMapObject(map);
    free(p);
    if (!ok)
        return map ? gif_failure(w, gif->Error, name, d) : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, name, "its colour map");
    w->frames++;
    return LAB_OK;
}

lab_error gif_end(gif_writer *w, lab_diag *d)
{
    int err = 0;
    int closed = EGifCloseFile(w->gif, &err); /* frees giflib's state in every case */
    w->gif = NULL;
    lab_error e = closed == GIF_ERROR ? gif_failure(w, err, "closing", d) : LAB_OK;
    if (e == LAB_OK && (w->write_error || w->out->failed))
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "GIF encoder", "the file's buffer");
    gif_abandon(w);
    return e;
}

void gif_abandon(gif_writer *w)
{
    if (w->gif)
        EGifCloseFile(w->gif, NULL);
    free(w->indices);
    w->gif = NULL, w->indices = NULL;
}
