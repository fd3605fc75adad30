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

/* A temporary OUTDIR and files for a program's stdout and stderr: the state of the
 * end-to-end tests. tu_run_dir_setup/teardown have cmocka's setup/teardown signature. */
typedef struct {
    char dir[64];
    char out_path[128], err_path[128];
} tu_run_dir;
int tu_run_dir_setup(void **state);
int tu_run_dir_teardown(void **state);

/* Runs argv[0] with argv, stdout and stderr captured into the given files (may be NULL
 * for /dev/null). Returns the exit status, or -1 when it did not exit normally. */
int tu_run(char *const argv[], const char *stdout_path, const char *stderr_path);

/* Runs `program` with the NULL-terminated arguments after err_path; like tu_run. */
int tu_run_program(const char *program, const char *out_path, const char *err_path, ...);

/* dir/name in one of 8 rotating static buffers (enough for one assertion's operands). */
const char *tu_path(const char *dir, const char *name);
bool tu_file_contains(const char *path, const char *needle);
bool tu_same_bytes(const char *a, const char *b);
bool tu_same_pixels(const char *a, const char *b);   /* decoded PNGs, pixel for pixel */
/* Compares fresh outputs in dir with the committed ones: text byte for byte, PNGs pixel
 * for pixel. Returns the first name that differs, or NULL when all match. */
const char *tu_first_stale_output(const char *dir, const char *committed_dir,
                                  const char *const *names, int count);

/* The first of names whose bytes differ between dir_a and dir_b (determinism), or NULL. */
const char *tu_first_differing_output(const char *dir_a, const char *dir_b,
                                      const char *const *names, int count);

/* Decoded RGB image (stbi_load with 3 channels); free with tu_image_free. */
typedef struct { int width, height; unsigned char *rgb; } tu_image;
bool tu_image_load(const char *path, tu_image *out);
void tu_image_free(tu_image *img);

/* The article's shared assets live beside the repository (../shared/assets), as they do in
 * CI. A clone without them skips the tests that need them, except under CI (CI=true),
 * where a missing asset fails. Returns true when the test must be skipped. */
bool tu_shared_asset_missing(const char *path);

/* Parses a JSON file; NULL on failure. */
cJSON *tu_json_load(const char *path);
/* o[key], or NULL. */
cJSON *tu_obj(const cJSON *o, const char *key);
double tu_json_number(const cJSON *item);

#endif
