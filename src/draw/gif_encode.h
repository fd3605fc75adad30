/* gif_encode.h - animations as GIF files in memory, through Debian's giflib (libgif-dev),
 * nothing vendored.
 *
 *   gif_writer w;
 *   gif_begin(&w, width, height, delay_cs, &bytes, d);   a looping GIF89a
 *   gif_add_frame(&w, &canvas, d);  ...                    every frame width x height
 *   gif_end(&w, d);                                        bytes holds the file
 *
 * Frames are written as they come (no frame is kept), each with its own colour table of
 * exactly the colours it uses: the lab's rasterizer draws without anti-aliasing, so a
 * figure has a few dozen colours and a frame is its pixels exactly, never dithered. A
 * frame of more than 256 colours is refused (LAB_ERR_LIMIT), as is a frame whose labels
 * did not fit (canvas_check_whole). Every frame shows for delay_cs hundredths of a second;
 * the animation loops forever (the NETSCAPE2.0 extension). The same frames give the same
 * bytes. A failed allocation, ours or giflib's, is LAB_ERR_OUT_OF_MEMORY; gif_end (or
 * gif_abandon after an error) frees everything.
 */
#ifndef GIF_ENCODE_H
#define GIF_ENCODE_H

#include "base/bytes.h"
#include "base/diag.h"
#include "draw/raster.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    void *gif;                  /* giflib's GifFileType */
    bytes *out;
    int width, height, delay_cs, frames;
    unsigned char *indices;     /* one frame of palette indices, width x height */
    int write_error;            /* giflib's output callback could not append */
} gif_writer;

lab_error gif_begin(gif_writer *w, int width, int height, int delay_cs, bytes *out, lab_diag *d);
lab_error gif_add_frame(gif_writer *w, const canvas *frame, lab_diag *d);
/* Closes the file; LAB_OK when every byte reached out. */
lab_error gif_end(gif_writer *w, lab_diag *d);
/* Frees a writer after an error (out then holds a partial file: discard it). */
void gif_abandon(gif_writer *w);

#ifdef __cplusplus
}
#endif

#endif
