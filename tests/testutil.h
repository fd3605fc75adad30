/* testutil.h - helpers the suites share: temporary directories, running a chapter program,
 * reading files, PNG decoding (stb_image) and JSON loading (cJSON). */
#ifndef TESTUTIL_H
#define TESTUTIL_H

#include <stdbool.h>
#include <stddef.h>

#include <cJSON.h>

/* mkdtemp under /tmp; the path is written into buf (>= 64 bytes). Returns buf or NULL. */
char *tu_make_temp_dir(char *buf, size_t size);
/* rm -rf of a directory made by tu_make_temp_dir (regular files and empty subdirs). */
void tu_remove_tree(const char *dir);
/* Whole file into a malloc'd NUL-terminated buffer; NULL when missing. len may be NULL. */
char *tu_read_file(const char *path, size_t *len);
bool tu_write_file(const char *path, const char *text);
bool tu_exists(const char *path);
int tu_count_entries(const char *dir); /* entries other than . and .. ; -1 if unreadable */

/* Runs argv[0] with argv, stdout and stderr captured into the given files (may be NULL
 * for /dev/null). Returns the exit status, or -1 when it did not exit normally. */
int tu_run(char *const argv[], const char *stdout_path, const char *stderr_path);

/* Decoded RGB image (stbi_load with 3 channels); free with tu_image_free. */
typedef struct { int width, height; unsigned char *rgb; } tu_image;
bool tu_image_load(const char *path, tu_image *out);
void tu_image_free(tu_image *img);

/* Parses a JSON file; NULL on failure. */
cJSON *tu_json_load(const char *path);
double tu_json_number(const cJSON *item);

#endif
