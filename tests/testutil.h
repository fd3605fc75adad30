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

/* Runs job(arg) in a child process as an ordinary user, and returns the child's wait status
 * (waitpid's; -1 where no child could be made). The user is nobody (uid and gid 65534, no
 * supplementary groups) where the suite runs as root, else the suite's own; the child exits
 * with job's return, or TU_NOT_ORDINARY where it could not become nobody (the caller says
 * "not run"). tu_ordinary_uid is the uid it runs as. */
enum { TU_NOT_ORDINARY = 77 };
int tu_run_as_ordinary_user(int (*job)(void *arg), void *arg);
int tu_ordinary_uid(void);

/* A temporary OUTDIR and files for a program's stdout and stderr: the state of the
 * end-to-end tests. tu_run_dir_setup/teardown have cmocka's setup/teardown signature. */
typedef struct {
    char dir[64];
    char out_path[128], err_path[128];
} tu_run_dir;
int tu_run_dir_setup(void **state);
int tu_run_dir_teardown(void **state);

/* Runs argv[0] with argv, stdout and stderr captured into the given files (may be NULL
 * for /dev/null). Returns the exit status, or -1 when it did not exit normally. A program
 * still running after TU_RUN_SECONDS is killed (SIGALRM): a hang fails its test instead
 * of stopping the suite. */
#define TU_RUN_SECONDS 300
int tu_run(char *const argv[], const char *stdout_path, const char *stderr_path);
/* The peak resident memory of the last program tu_run ran, in KiB (wait4's ru_maxrss).
 * Under AddressSanitizer it includes the shadow memory: TU_SANITIZED says so. */
extern long tu_last_peak_kb;
#if defined(__SANITIZE_ADDRESS__)
#define TU_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TU_SANITIZED 1
#endif
#endif
#ifndef TU_SANITIZED
#define TU_SANITIZED 0
#endif

/* An output batch's rename hook (output.h) that lets *(int *)context renames through and
 * fails the next with EXDEV, to show a commit's rollback. */
int tu_failing_rename(const char *from, const char *to, void *context);

/* Runs `program` with the NULL-terminated arguments after err_path; like tu_run. */
int tu_run_program(const char *program, const char *out_path, const char *err_path, ...);

/* dir/name in one of 8 rotating static buffers (enough for one assertion's operands). */
const char *tu_path(const char *dir, const char *name);
/* The Khronos validator (tests/gltf-validate.js, the npm package under GLTF_VALIDATOR_DIR) on
 * file, its output in ctx's out_path: the test fails unless it reports 0 errors and, unless
 * warnings_ok (warnings the source carries), 0 warnings. */
void tu_gltf_validate(const tu_run_dir *ctx, const char *file, bool warnings_ok);
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

/* The determinism and committed-output check every end-to-end suite makes: `program`
 * runs with args_a (NULL-terminated) into one new directory and with args_b (NULL: the
 * same) into another, OUTDIR last; both must exit 0 and write exactly `count` files and
 * their manifest `<program>-outputs.txt` (checked like them), the
 * same bytes in both runs, and the same as the committed ones in make_target's chapter
 * folder, out/<chapter>/ (PNGs pixel for pixel). Fails the test naming the file, and
 * `make make_target` (a program's name) as the way to regenerate it. */
void tu_check_deterministic_and_committed(const char *program, const char *const *args_a,
                                          const char *const *args_b, const char *const *names,
                                          int count, const char *make_target);

/* Every chapter program, from the list the build writes (build/gen/programs.h, made from
 * lab/chapters.mk and the chapters' folders): the suites that run every program
 * (test_programs, test_faults, test_sweep, test_docs) take it from here, so a new chapter's
 * programs are run without a test being edited. */
typedef struct {
    const char *name;            /* "lab30-dqs": build/bin/<name>, `make <name>` */
    const char *chapter;         /* "ch30": its folder lab/<chapter>/, its outputs out/<chapter>/ */
    const char *input;           /* an argument before OUTDIR (a committed file), or NULL */
    bool gpu;                    /* it needs a GPU context (EGL) */
} tu_program;
extern const tu_program tu_programs[];
extern const int tu_program_count;
/* The program of that name, or NULL. */
const tu_program *tu_find_program(const char *name);
/* Whether the suites run this program: all of them, or with LAB_ONLY set (a comma-separated
 * list of chapters and programs, e.g. "ch31" or "lab30,lab30-dqs") only those it names. */
bool tu_program_selected(const tu_program *p);
/* The folder of a program's committed outputs, "out/<chapter>" (COMMITTED_OUT_DIR/...). */
const char *tu_committed_dir(const char *program);

/* Decoded RGB image (stbi_load with 3 channels); free with tu_image_free. */
typedef struct { int width, height; unsigned char *rgb; } tu_image;
bool tu_image_load(const char *path, tu_image *out);
void tu_image_free(tu_image *img);
/* Pixels of exactly (r, g, b). */
int tu_image_count_color(const tu_image *img, unsigned char r, unsigned char g, unsigned char b);

/* Where `small` appears pixel for pixel inside `big` (every offset is tried): true with its
 * top-left corner in *x, *y, false when nowhere. */
bool tu_image_find(const tu_image *big, const tu_image *small, int *x, int *y);

/* A GIF decoded with giflib, independently of the lab's encoder: every frame as RGB
 * (through its own colour table, or the global one), its delay in hundredths of a second,
 * and whether the file asks to loop (NETSCAPE2.0). Free with tu_gif_free. */
typedef struct {
    int width, height, frame_count;
    tu_image *frames;
    int *delay_cs;
    bool loops;
} tu_gif;
bool tu_gif_load(const char *path, tu_gif *out);
void tu_gif_free(tu_gif *g);
/* A chapter's animation as the issue asks for it: at most 2 MB, decodable, `frames`
 * frames of `delay_cs` each, looping (cmocka assertions); decoded into *out. */
void tu_check_animation(const char *path, int frames, int delay_cs, tu_gif *out);

/* Writes the Khronos glTF tutorial's "Simple Skin" asset (CC0) to path, built from the
 * numbers the tutorial publishes: a 1 x 2 strip of 10 vertices and 8 triangles, joints
 * (0, 1) with joint 1's weight rising 0, 1/4, 1/2, 3/4, 1 by row, both inverse binds
 * T(-0.5, -1, 0), joint 1 at T(0, 1, 0) under its parent and a LINEAR rotation about z
 * keyed every 0.5 s from 0 to 5.5 s (0, 45, 90, 90, 45, 0, 0, -45, -90, -90, -45, 0 deg,
 * as the quaternions (0, 0, 0.383, 0.924) and (0, 0, 0.707, 0.707) store them). The buffers
 * keep the tutorial's layout, joints and weights interleaved with a 16-byte stride. */
bool tu_write_simple_skin(const char *path);
/* The path of a SimpleSkin.gltf written once per test process into a temporary directory
 * (removed at exit). */
const char *tu_simple_skin(void);

/* Parses a JSON file; NULL on failure. */
cJSON *tu_json_load(const char *path);
/* o[key], or NULL. */
cJSON *tu_obj(const cJSON *o, const char *key);
/* o[key]; fails the test, naming the key, when it is missing. */
cJSON *tu_json_get(const cJSON *o, const char *key);
/* The number at o[key] (the test fails when the key is missing). */
double tu_json_num(const cJSON *o, const char *key);
double tu_json_number(const cJSON *item);

/* With FUZZ_SEEDS_DIR set (make fuzz sets it while it runs the glTF suites), a file a
 * test built becomes a seed of the fuzzer: DIR/corpus/NAME holds the options byte (see
 * tests/fuzz_gltf.c) then data; tu_keep_fuzz_asset puts an external buffer the seed names
 * into DIR/assets/NAME, where the fuzzer resolves buffers. Without it, nothing happens. */
void tu_keep_fuzz_seed(const char *name, unsigned char options, const void *data, size_t size);
void tu_keep_fuzz_asset(const char *name, const void *data, size_t size);

#endif
