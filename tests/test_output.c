/* test_output.c - round-trip numbers, PNG encoding read back by stb_image, and the
 * all-or-nothing output batch. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stb_image.h>

#include "cmocka_all.h"
#include "program/evidence.h"
#include "program/output.h"
#include "draw/png_decode.h"
#include "draw/png_encode.h"
#include "testutil.h"

static void test_output_check_dir_rules(void **state)
{
    (void)state;
    char dir[64], file[128];
    assert_non_null(tu_make_temp_dir(dir, sizeof dir));
    lab_diag d = {0};
    assert_int_equal(output_check_dir(dir, &d), LAB_OK);
    snprintf(file, sizeof file, "%s/plain", dir);
    assert_true(tu_write_file(file, "x"));
    assert_int_equal(output_check_dir(file, &d), LAB_ERR_OUTPUT);
    assert_non_null(strstr(d.value, "not a directory"));
    snprintf(file, sizeof file, "%s/missing", dir);
    assert_int_equal(output_check_dir(file, &d), LAB_ERR_OUTPUT);
    assert_non_null(strstr(d.value, "does not exist"));
    assert_false(tu_exists(file)); /* never created */
    tu_remove_tree(dir);
}

static void test_output_batch_rejects_bad_names(void **state)
{
    (void)state;
    output_batch b = {0};
    bytes x = {0};
    bytes_printf(&x, "hi");
    assert_int_equal(output_batch_add(&b, "../escape.txt", &x, NULL), LAB_ERR_INVALID_ARGUMENT);
    assert_null(x.data); /* ownership was taken even on refusal */
    bytes_printf(&x, "hi");
    assert_int_equal(output_batch_add(&b, ".hidden", &x, NULL), LAB_ERR_INVALID_ARGUMENT);
    assert_int_equal(b.count, 0);
    bytes_printf(&x, "hi");
    assert_int_equal(output_batch_add(&b, "a.txt", &x, NULL), LAB_OK);
    bytes_printf(&x, "again");
    assert_int_equal(output_batch_add(&b, "a.txt", &x, NULL), LAB_ERR_INVALID_ARGUMENT); /* twice */
    assert_int_equal(b.count, 1);
    output_batch_free(&b);
}

/* A buffer that ran out of memory while it was built is an out-of-memory error, not an
 * output error (the flag was once read after the buffer had been cleared). */
static void test_output_batch_reports_a_buffer_out_of_memory(void **state)
{
    (void)state;
    output_batch b = {0};
    bytes x = {0};
    bytes_printf(&x, "partial");
    x.failed = true; /* what bytes_append sets when realloc fails */
    lab_diag d = {0};
    assert_int_equal(output_batch_add(&b, "a.json", &x, &d), LAB_ERR_OUT_OF_MEMORY);
    assert_int_equal(d.code, LAB_ERR_OUT_OF_MEMORY);
    assert_string_equal(d.where, "a.json");
    assert_null(x.data);
    assert_int_equal(b.count, 0);
    output_batch_free(&b);
}

/* A value 0 in exact arithmetic reads as 0 below 1e-12, with its rounding where there is
 * room; anything else prints as its format says, the threshold's own edge included. */
static void test_output_format_or_zero(void **state)
{
    (void)state;
    char b[64];
    assert_string_equal(format_or_zero(b, sizeof b, 6.7276365657783e-17, "%.6g", FORMAT_ZERO_NOTE),
                        "0 (6.7e-17 in floating point)");
    assert_string_equal(format_or_zero(b, sizeof b, -3.7494e-33, "%.3g", FORMAT_ZERO_BRIEF), "0 (-3.7e-33)");
    assert_string_equal(format_or_zero(b, sizeof b, -8.26e-15, "%.3g", FORMAT_ZERO_BARE), "0");
    assert_string_equal(format_or_zero(b, sizeof b, 0.0, "%.3g", FORMAT_ZERO_NOTE), "0");
    assert_string_equal(format_or_zero(b, sizeof b, 1e-12, "%.3g", FORMAT_ZERO_NOTE), "1e-12"); /* not below */
    assert_string_equal(format_or_zero(b, sizeof b, 0.707106781186548, "%.6g", FORMAT_ZERO_BRIEF), "0.707107");
    assert_string_equal(format_or_zero(b, sizeof b, -45, "%.3g", FORMAT_ZERO_BARE), "-45");
    assert_string_equal(format_or_zero(b, sizeof b, NAN, "%.3g", FORMAT_ZERO_BARE), "nan");
    assert_string_equal(format_or_zero(b, 8, 1e-20, "%.3g", FORMAT_ZERO_NOTE), "0 (1e-2"); /* cut, terminated */
}

static void test_output_format_double_round_trips(void **state)
{
    (void)state;
    char buf[32];
    const double samples[] = {0.1, 1.0 / 3.0, 0.70710678118654757, 6.123233995736766e-17,
                              -2.0, 1e300, 5e-324, 0.0, 123456789.123456789};
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++)
        assert_true(strtod(format_double(buf, samples[i]), NULL) == samples[i]);
    assert_string_equal(format_double(buf, 0.1), "0.1"); /* shortest, not 0.10000000000000001 */
    assert_string_equal(format_double(buf, 2.0), "2");
    /* 17 digits when needed */
    double next = nextafter(0.1, 1.0);
    assert_true(strtod(format_double(buf, next), NULL) == next);
    assert_int_equal(strlen(buf), 19);
    /* JSON numbers keep every bit */
    cJSON *n = json_number(next);
    char *text = cJSON_PrintUnformatted(n);
    assert_true(strtod(text, NULL) == next);
    free(text);
    cJSON_Delete(n);
}

static void test_output_png_decodes_to_the_same_pixels(void **state)
{
    (void)state;
    canvas c;
    assert_int_equal(canvas_init(&c, 7, 5, (rgb){1, 2, 3}, NULL), LAB_OK);
    canvas_put(&c, 6, 0, (rgb){255, 140, 0});
    canvas_put(&c, 0, 4, (rgb){9, 8, 7});
    bytes png = {0};
    assert_int_equal(png_encode(&c, &png, NULL), LAB_OK);
    int w, h, n;
    unsigned char *pixels = stbi_load_from_memory(png.data, (int)png.len, &w, &h, &n, 3);
    assert_non_null(pixels);
    assert_int_equal(w, 7);
    assert_int_equal(h, 5);
    assert_memory_equal(pixels, c.rgb, 7 * 5 * 3);
    stbi_image_free(pixels);
    bytes_free(&png);
    canvas_free(&c);
}

/* png_decode_file reads back what png_encode wrote, pixel for pixel (seeded pixels), and
 * refuses by name what it cannot read: a file that is not a PNG, an image wider than asked,
 * a folder, a file that is not there. */
static void test_output_png_decode_file_reads_back_and_refuses(void **state)
{
    (void)state;
    char dir[64], path[128];
    assert_non_null(tu_make_temp_dir(dir, sizeof dir));
    canvas c, back;
    assert_int_equal(canvas_init(&c, 37, 23, (rgb){1, 2, 3}, NULL), LAB_OK);
    unsigned long long s = 30;
    for (int k = 0; k < 37 * 23 * 3; k++)
        s = s * 6364136223846793005ull + 1442695040888963407ull, c.rgb[k] = (unsigned char)(s >> 56);
    bytes png = {0};
    assert_int_equal(png_encode(&c, &png, NULL), LAB_OK);
    snprintf(path, sizeof path, "%s/a.png", dir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(png.data, 1, png.len, f), png.len);
    fclose(f);
    assert_int_equal(png_decode_file(path, 4096, &back, NULL), LAB_OK);
    assert_int_equal(back.width, 37);
    assert_int_equal(back.height, 23);
    assert_memory_equal(back.rgb, c.rgb, 37 * 23 * 3);
    canvas_free(&back);
    lab_diag d = {0};
    assert_int_equal(png_decode_file(path, 30, &back, &d), LAB_ERR_INPUT_FILE); /* 37 wide, 30 asked */
    assert_non_null(strstr(d.value, "37 x 23 pixels"));
    snprintf(path, sizeof path, "%s/not.png", dir);
    assert_true(tu_write_file(path, "not a picture"));
    assert_int_equal(png_decode_file(path, 4096, &back, &d), LAB_ERR_INPUT_FILE);
    assert_non_null(strstr(d.value, "not a PNG"));
    assert_int_equal(png_decode_file(dir, 4096, &back, &d), LAB_ERR_INPUT_FILE);
    snprintf(path, sizeof path, "%s/missing.png", dir);
    assert_int_equal(png_decode_file(path, 4096, &back, &d), LAB_ERR_INPUT_FILE);
    assert_null(back.rgb);
    bytes_free(&png);
    canvas_free(&c);
}

static void add_text(output_batch *b, const char *name, const char *text)
{
    bytes x = {0};
    bytes_printf(&x, "%s", text);
    assert_int_equal(output_batch_add(b, name, &x, NULL), LAB_OK);
}

static void test_output_batch_commits_every_file(void **state)
{
    (void)state;
    char dir[64], path[160];
    assert_non_null(tu_make_temp_dir(dir, sizeof dir));
    output_batch b = {0};
    add_text(&b, "a.txt", "alpha\n");
    add_text(&b, "b.csv", "x,y\n1,2\n");
    assert_int_equal(output_batch_commit(&b, dir, NULL), LAB_OK);
    snprintf(path, sizeof path, "%s/b.csv", dir);
    char *got = tu_read_file(path, NULL);
    assert_string_equal(got, "x,y\n1,2\n");
    free(got);
    assert_int_equal(tu_count_entries(dir), 2); /* no temporaries left */
    output_batch_free(&b);
    tu_remove_tree(dir);
}

/* A directory where an output should go: the batch fails before renaming anything,
 * removes its temporaries and leaves the earlier outputs as they were. */
static void test_output_batch_failure_keeps_earlier_outputs(void **state)
{
    (void)state;
    char dir[64], path[160];
    assert_non_null(tu_make_temp_dir(dir, sizeof dir));
    snprintf(path, sizeof path, "%s/a.txt", dir);
    assert_true(tu_write_file(path, "old alpha\n"));
    snprintf(path, sizeof path, "%s/b.csv", dir);
    assert_int_equal(mkdir(path, 0755), 0);
    output_batch b = {0};
    add_text(&b, "a.txt", "new alpha\n");
    add_text(&b, "b.csv", "new\n");
    lab_diag d = {0};
    assert_int_equal(output_batch_commit(&b, dir, &d), LAB_ERR_OUTPUT);
    assert_string_equal(d.where, "b.csv");
    snprintf(path, sizeof path, "%s/a.txt", dir);
    char *got = tu_read_file(path, NULL);
    assert_string_equal(got, "old alpha\n");
    free(got);
    assert_int_equal(tu_count_entries(dir), 2); /* a.txt and the directory, no temporaries */
    output_batch_free(&b);
    tu_remove_tree(dir);
}

/* The two runs of the rollback tests: the previous one (a and c) committed into dir, and
 * the next one (new a, b which the previous run did not have, new c) whose renames go
 * through `hook`. */
static void commit_previous_run(const char *dir)
{
    output_batch old = {0};
    add_text(&old, "a.txt", "old a\n");
    add_text(&old, "c.txt", "old c\n");
    assert_int_equal(output_batch_commit(&old, dir, NULL), LAB_OK);
    output_batch_free(&old);
}

static void next_run(output_batch *b, int (*hook)(const char *, const char *, void *), int *left)
{
    *b = (output_batch){0};
    add_text(b, "a.txt", "new a\n");
    add_text(b, "b.txt", "new b\n");
    add_text(b, "c.txt", "new c\n");
    b->rename_file = hook;
    b->rename_context = left;
}

/* dir holds the previous run again: a and c with their old contents, no b, and then
 * `others` files more, nothing hidden. */
static void assert_previous_run(const char *dir, int others)
{
    char *a = tu_read_file(tu_path(dir, "a.txt"), NULL), *c = tu_read_file(tu_path(dir, "c.txt"), NULL);
    assert_string_equal(a, "old a\n");
    assert_string_equal(c, "old c\n");
    free(a), free(c);
    assert_false(tu_exists(tu_path(dir, "b.txt")));
    assert_int_equal(tu_count_entries(dir), 2 + others); /* no .tmp, no .old, no journal */
}

/* Renaming fails midway, after 0, 1 or 2 files are in place: those get their old contents
 * back, a file the old run did not have is removed, and nothing temporary is left. */
static void test_output_batch_rolls_back_a_commit_that_fails_midway(void **state)
{
    (void)state;
    char dir[64];
    assert_non_null(tu_make_temp_dir(dir, sizeof dir));
    commit_previous_run(dir);
    for (int fail_at = 0; fail_at < 3; fail_at++) {
        output_batch b;
        int left = fail_at;
        next_run(&b, tu_failing_rename, &left);
        lab_diag d = {0};
        assert_int_equal(output_batch_commit(&b, dir, &d), LAB_ERR_OUTPUT);
        assert_non_null(strstr(d.value, "rolled back"));
        assert_previous_run(dir, 0);
        output_batch_free(&b);
    }
    tu_remove_tree(dir);
}

/* A rename hook that lets `*left` renames through, then kills its own process (SIGKILL:
 * no handler, no cleanup), as a power cut or an OOM killer would in the middle of step 4. */
static int killed_rename(const char *from, const char *to, void *context)
{
    int *left = context;
    if ((*left)-- == 0)
        raise(SIGKILL);
    return rename(from, to);
}

/* A run killed while renaming leaves a mix of two runs and hidden files; the next commit
 * into the directory first restores the killed run's previous outputs (its journal names
 * them), removes the files that run added and every leftover temporary, then commits. */
static void test_output_batch_recovers_from_a_run_killed_midway(void **state)
{
    (void)state;
    char dir[64];
    assert_non_null(tu_make_temp_dir(dir, sizeof dir));
    for (int kill_at = 0; kill_at < 3; kill_at++) {
        commit_previous_run(dir);
        fflush(NULL);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) { /* the run that gets killed */
            output_batch b;
            int left = kill_at;
            next_run(&b, killed_rename, &left);
            output_batch_commit(&b, dir, NULL);
            _exit(0); /* not reached */
        }
        int status;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
        assert_true(tu_count_entries(dir) > 2); /* leftovers: temporaries, old links, the journal */
        output_batch next = {0}; /* the next run, with an unrelated file */
        add_text(&next, "d.txt", "d\n");
        assert_int_equal(output_batch_commit(&next, dir, NULL), LAB_OK);
        output_batch_free(&next);
        assert_previous_run(dir, 1);
        unlink(tu_path(dir, "d.txt"));
    }
    tu_remove_tree(dir);
}

/* A symlink planted at the run's own temporary, old-file and journal names (the user knows
 * the pid) is never followed: the canary outside the folder is unchanged, the outputs are
 * regular files with the run's bytes, and the planted links stay as the user left them. */
static void test_output_batch_never_writes_through_a_planted_symlink(void **state)
{
    (void)state;
    char dir[64], outside[64], target[160];
    assert_non_null(tu_make_temp_dir(dir, sizeof dir));
    assert_non_null(tu_make_temp_dir(outside, sizeof outside));
    assert_true(tu_write_file(tu_path(outside, "canary.txt"), "canary\n"));
    snprintf(target, sizeof target, "%s/canary.txt", outside);
    assert_true(tu_write_file(tu_path(dir, "b.txt"), "previous b\n")); /* so that b gets an old link */
    int go[2];
    assert_int_equal(pipe(go), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        char c;
        close(go[1]);
        if (read(go[0], &c, 1) != 1)
            _exit(2);
        output_batch b = {0};
        add_text(&b, "a.txt", "new a\n");
        add_text(&b, "b.txt", "new b\n");
        _exit(output_batch_commit(&b, dir, NULL) == LAB_OK ? 0 : 1);
    }
    close(go[0]);
    const char *planted[] = {".a.txt.%ld.tmp", ".b.txt.%ld.tmp", ".b.txt.%ld.old", ".output-journal.%ld"};
    char names[4][64];
    for (int i = 0; i < 4; i++) {
        snprintf(names[i], sizeof names[i], planted[i], (long)pid);
        assert_int_equal(symlink(target, tu_path(dir, names[i])), 0);
    }
    assert_int_equal(write(go[1], "g", 1), 1);
    close(go[1]);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_true(tu_file_contains(target, "canary\n"));
    char *canary = tu_read_file(target, NULL);
    assert_string_equal(canary, "canary\n");
    free(canary);
    struct stat st;
    assert_int_equal(lstat(tu_path(dir, "a.txt"), &st), 0);
    assert_true(S_ISREG(st.st_mode));
    assert_true(tu_file_contains(tu_path(dir, "a.txt"), "new a\n"));
    assert_true(tu_file_contains(tu_path(dir, "b.txt"), "new b\n"));
    for (int i = 0; i < 4; i++) { /* the user's links, untouched */
        assert_int_equal(lstat(tu_path(dir, names[i]), &st), 0);
        assert_true(S_ISLNK(st.st_mode));
        unlink(tu_path(dir, names[i]));
    }
    assert_int_equal(tu_count_entries(dir), 2); /* a.txt and b.txt: nothing of the run's left */
    tu_remove_tree(dir);
    tu_remove_tree(outside);
}

/* A regular file planted at a temporary's name in the moment before it is created (a race
 * the free-name check cannot see): the create fails with EEXIST, named, and the planted
 * bytes stay as they are; the earlier output is kept. */
static void plant(const char *path, void *context)
{
    (void)context;
    FILE *f = fopen(path, "wx");
    if (f)
        fputs("planted\n", f), fclose(f);
}

static void test_output_batch_never_writes_over_a_planted_temporary(void **state)
{
    (void)state;
    char dir[64], tmp[160];
    assert_non_null(tu_make_temp_dir(dir, sizeof dir));
    assert_true(tu_write_file(tu_path(dir, "a.txt"), "previous a\n"));
    output_batch b = {.before_create = plant};
    add_text(&b, "a.txt", "new a\n");
    lab_diag d = {0};
    assert_int_equal(output_batch_commit(&b, dir, &d), LAB_ERR_OUTPUT);
    output_batch_free(&b);
    assert_non_null(strstr(d.value, strerror(EEXIST)));
    snprintf(tmp, sizeof tmp, ".a.txt.%ld.tmp", (long)getpid());
    char *planted = tu_read_file(tu_path(dir, tmp), NULL);
    assert_non_null(planted);
    assert_string_equal(planted, "planted\n");
    free(planted);
    assert_true(tu_file_contains(tu_path(dir, "a.txt"), "previous a\n"));
    tu_remove_tree(dir);
}

/* Leftovers of a dead run are trusted only when its journal is in the lab's format and each
 * file still has the journal's hash: an old-format journal naming the student's files, a
 * forged one with other hashes, and dotfiles shaped like temporaries of a dead process all
 * stay, byte for byte. */
static void test_output_batch_recovery_touches_only_its_own_files(void **state)
{
    (void)state;
    char dir[64], forged[512];
    assert_non_null(tu_make_temp_dir(dir, sizeof dir));
    const long dead = 99999999; /* above any pid_max: a process that is gone */
    assert_true(tu_write_file(tu_path(dir, "notes.txt"), "the student's notes\n"));
    assert_true(tu_write_file(tu_path(dir, ".notes.txt.99999999.tmp"), "the student's dotfile\n"));
    assert_true(tu_write_file(tu_path(dir, ".notes.txt.99999999.old"), "another dotfile\n"));
    assert_true(tu_write_file(tu_path(dir, ".output-journal.99999998"), "0 notes.txt\n1 notes.txt\n"));
    snprintf(forged, sizeof forged,
             "skinlab-output-journal 2\nW 5 %016llx 0 notes.txt\nO 5 %016llx 0 notes.txt\nN notes.txt\n",
             (unsigned long long)bytes_hash("other", 5), (unsigned long long)bytes_hash("other", 5));
    assert_true(tu_write_file(tu_path(dir, ".output-journal.99999999"), forged));
    (void)dead;
    output_batch b = {0};
    add_text(&b, "a.txt", "a\n");
    assert_int_equal(output_batch_commit(&b, dir, NULL), LAB_OK);
    output_batch_free(&b);
    assert_true(tu_file_contains(tu_path(dir, "notes.txt"), "the student's notes\n"));
    assert_true(tu_file_contains(tu_path(dir, ".notes.txt.99999999.tmp"), "the student's dotfile\n"));
    assert_true(tu_file_contains(tu_path(dir, ".notes.txt.99999999.old"), "another dotfile\n"));
    assert_true(tu_exists(tu_path(dir, ".output-journal.99999998"))); /* not ours: left as it is */
    assert_false(tu_exists(tu_path(dir, ".output-journal.99999999"))); /* ours in form: done, gone */
    tu_remove_tree(dir);
}

/* No fixed number of files: a batch holds as many as the program makes. */
static void test_output_batch_takes_many_files_and_images(void **state)
{
    (void)state;
    char dir[64], name[32];
    assert_non_null(tu_make_temp_dir(dir, sizeof dir));
    output_batch b = {0};
    for (int i = 0; i < 40; i++) {
        snprintf(name, sizeof name, "f%02d.txt", i);
        add_text(&b, name, name);
    }
    canvas c;
    assert_int_equal(canvas_init(&c, 5, 3, (rgb){10, 20, 30}, NULL), LAB_OK);
    canvas_put(&c, 4, 0, (rgb){255, 0, 0});
    canvas copy = {.width = 5, .height = 3, .rgb = malloc(45)};
    memcpy(copy.rgb, c.rgb, 45);
    assert_int_equal(output_batch_add_image(&b, "img.png", &c, NULL), LAB_OK);
    assert_null(c.rgb); /* taken */
    assert_int_equal(output_batch_commit(&b, dir, NULL), LAB_OK);
    assert_int_equal(tu_count_entries(dir), 41);
    tu_image img;
    assert_true(tu_image_load(tu_path(dir, "img.png"), &img));
    assert_int_equal(img.width, 5);
    assert_memory_equal(img.rgb, copy.rgb, 45);
    tu_image_free(&img);
    canvas_free(&copy);
    output_batch_free(&b);
    tu_remove_tree(dir);
}

/* A NaN or infinity that reaches the JSON writer is refused, naming its JSON pointer;
 * a value undefined by design is written as null only through json_number_or_null. */
static void test_output_json_refuses_non_finite_numbers(void **state)
{
    (void)state;
    lab_diag d = {0};
    bytes text = {0};
    cJSON *root = json_evidence_root("test");
    cJSON *poses = cJSON_AddArrayToObject(root, "poses");
    cJSON *pose = cJSON_CreateObject();
    cJSON_AddItemToArray(poses, cJSON_CreateObject());
    cJSON_AddItemToArray(poses, pose);
    json_add_number(pose, "radius", 1.0);
    cJSON_AddItemToObject(pose, "angle", json_number_or_null(NAN)); /* undefined: null */
    assert_int_equal(json_to_bytes(root, &text, &d), LAB_OK);
    assert_non_null(strstr((char *)text.data, "null"));
    bytes_free(&text);
    const vec3 overflow = {1, INFINITY, 0};
    cJSON_AddItemToObject(pose, "position", json_vec3(overflow));
    assert_int_equal(json_to_bytes(root, &text, &d), LAB_ERR_NOT_FINITE);
    char msg[700];
    diag_format(&d, msg, sizeof msg);
    assert_non_null(strstr(msg, "/poses/1/position/1"));
    assert_true(text.len == 0);
    bytes_free(&text);
    cJSON_Delete(root);
}

static void test_output_csv_and_json_helpers(void **state)
{
    (void)state;
    bytes csv = {0};
    csv_number(&csv, 0.25);
    bytes_append(&csv, ",", 1);
    csv_number_or_empty(&csv, NAN); /* undefined by design: an empty field */
    bytes_append(&csv, "\n", 1);
    assert_string_equal((char *)csv.data, "0.25,\n");
    assert_int_equal(csv.not_finite_line, 0);
    const double second[2] = {1.0, INFINITY}; /* a computation that overflowed */
    csv_row_or_empty(&csv, second, 2);
    assert_int_equal(csv.not_finite_line, 2);
    output_batch b = {0};
    lab_diag d = {0};
    assert_int_equal(output_batch_add(&b, "table.csv", &csv, &d), LAB_ERR_NOT_FINITE);
    assert_non_null(strstr(d.value, "line 2"));
    assert_int_equal(b.count, 0);
    output_batch_free(&b);
    mat4 m = mat4_translate(1, 2, 3);
    cJSON *j = json_mat4(m);
    assert_int_equal(cJSON_GetArraySize(j), 4);
    /* row-major: row 1, column 3 holds the y translation */
    char *text = cJSON_PrintUnformatted(j);
    cJSON *back = cJSON_Parse(text);
    assert_true(cJSON_GetArrayItem(cJSON_GetArrayItem(back, 1), 3)->valuedouble == 2.0);
    free(text);
    cJSON_Delete(back);
    cJSON_Delete(j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_output_check_dir_rules),
        cmocka_unit_test(test_output_batch_rejects_bad_names),
        cmocka_unit_test(test_output_format_double_round_trips),
        cmocka_unit_test(test_output_format_or_zero),
        cmocka_unit_test(test_output_png_decodes_to_the_same_pixels),
        cmocka_unit_test(test_output_png_decode_file_reads_back_and_refuses),
        cmocka_unit_test(test_output_batch_commits_every_file),
        cmocka_unit_test(test_output_batch_failure_keeps_earlier_outputs),
        cmocka_unit_test(test_output_batch_reports_a_buffer_out_of_memory),
        cmocka_unit_test(test_output_batch_rolls_back_a_commit_that_fails_midway),
        cmocka_unit_test(test_output_batch_recovers_from_a_run_killed_midway),
        cmocka_unit_test(test_output_batch_never_writes_through_a_planted_symlink),
        cmocka_unit_test(test_output_batch_never_writes_over_a_planted_temporary),
        cmocka_unit_test(test_output_batch_recovery_touches_only_its_own_files),
        cmocka_unit_test(test_output_batch_takes_many_files_and_images),
        cmocka_unit_test(test_output_csv_and_json_helpers),
        cmocka_unit_test(test_output_json_refuses_non_finite_numbers),
    };
    return cmocka_run_group_tests_name("output", tests, NULL, NULL);
}
