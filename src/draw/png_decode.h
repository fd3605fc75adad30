/* png_decode.h - a PNG file read back into a canvas (RGB, 8 bits) through Debian's
 * stb_image (libstb-dev), nothing vendored: the window shows the grader's own pictures.
 *
 *     canvas c = {0};
 *     if (png_decode_file("build/grade30/grade30-3.png", 4096, &c, &d) == LAB_OK) ...
 *     canvas_free(&c);
 */
#ifndef PNG_DECODE_H
#define PNG_DECODE_H

#include "base/diag.h"
#include "draw/raster.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The PNG at path into *out (new), every pixel as RGB (grey and palette images widened, an
 * alpha channel dropped). Only a regular file of at most 64 MiB is read, and an image wider
 * or taller than max_side pixels is refused before its pixels are decoded. Errors:
 * LAB_ERR_INPUT_FILE (the file cannot be read, is not a PNG stb_image reads, or is too
 * large: the reason named), LAB_ERR_OUT_OF_MEMORY. */
lab_error png_decode_file(const char *path, int max_side, canvas *out, lab_diag *d);

#ifdef __cplusplus
}
#endif

#endif
