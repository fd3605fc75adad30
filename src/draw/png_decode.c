/* png_decode.c - a PNG file read back into a canvas (png_decode.h). */
#include <stdlib.h>
#include <string.h>

#include <stb_image.h>

#include "base/bytes.h"
#include "draw/png_decode.h"

lab_error png_decode_file(const char *path, int max_side, canvas *out, lab_diag *d)
{
    *out = (canvas){0};
    bytes file = {0};
    bytes_read_result r = bytes_read_file(path, (size_t)64 << 20, &file);
    if (r != BYTES_READ_OK) {
        bytes_free(&file);
        return diag_fail(d, r == BYTES_READ_OUT_OF_MEMORY ? LAB_ERR_OUT_OF_MEMORY : LAB_ERR_INPUT_FILE, path, "%s",
                         bytes_read_message(r));
    }
    int width = 0, height = 0, channels = 0;
    lab_error e = LAB_OK;
    if (file.len > (size_t)0x7fffffff || !stbi_info_from_memory(file.data, (int)file.len, &width, &height, &channels))
        e = diag_fail(d, LAB_ERR_INPUT_FILE, path, "not a PNG image stb_image reads (%s)",
                      file.len > (size_t)0x7fffffff ? "too large" : stbi_failure_reason());
    else if (width < 1 || height < 1 || width > max_side || height > max_side)
        e = diag_fail(d, LAB_ERR_INPUT_FILE, path, "%d x %d pixels, more than %d on a side", width, height, max_side);
    unsigned char *pixels = e == LAB_OK ? stbi_load_from_memory(file.data, (int)file.len, &width, &height, &channels, 3)
                                        : NULL;
    if (e == LAB_OK && !pixels) /* stb_image says "outofmem" when an allocation failed */
        e = diag_fail(d, strcmp(stbi_failure_reason(), "outofmem") == 0 ? LAB_ERR_OUT_OF_MEMORY : LAB_ERR_INPUT_FILE,
                      path, "its pixels: %s", stbi_failure_reason());
    if (e == LAB_OK && (e = canvas_init(out, width, height, (rgb){255, 255, 255}, d)) == LAB_OK)
        memcpy(out->rgb, pixels, (size_t)width * (size_t)height * 3);
    stbi_image_free(pixels);
    bytes_free(&file);
    return e;
}
