/* test_manifest.c - a run leaves exactly its own files: the manifest of a program's outputs
 * (src/program/manifest.h), the removal of its earlier outputs inside the all-or-nothing
 * commit (output_batch_remove), and lab30's scratch folder end to end. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmocka_all.h"
#include "program/manifest.h"
#include "program/output.h"
#include "testutil.h"

static void add_text(output_batch *b, const char *name, const char *text)
{
    bytes content = {0};
    bytes_printf(&content, "%s", text);
    assert_int_equal(output_batch_add(b, name, &content, NULL), LAB_OK);
}

/* One run of program "prog" writing the files names[0 <= i < n] ("x" each). */
static lab_error run(const char *dir, const char *const *names, int n, int (*hook)(const char *, const char *, void *),
                     int *left, int *removed)
{
    output_batch b = {.rename_file = hook, .rename_context = left};
    for (int i = 0; i < n; i++)
        add_text(&b, names[i], "x");
    lab_diag d = {0};
    lab_error e = manifest_prepare(&b, dir, "prog", &d);
    if (e == LAB_OK)
        e = output_batch_commit(&b, dir, &d);
    FILE *sink = fopen("/dev/null", "w");
    assert_non_null(sink);
    *removed = e == LAB_OK ? manifest_report_removed(&b, sink) : 0;
    fclose(sink);
    output_batch_free(&b);
    return e;
}

/* A manifest line as this run would write it: "SIZE HASH NAME" of the text. */
static void manifest_line(FILE *f, const char *name, const char *text)
{
    fprintf(f, "%zu %016llx %s\n", strlen(text), (unsigned long long)bytes_hash(text, strlen(text)), name);
}

/* The earlier run's extra files go, each still exactly as written; a file the student
 * changed since, a folder, a dotfile, a name with a '/', and a file the manifest names with
 * another hash stay, each listed as kept. */
static void test_manifest_removes_exactly_the_earlier_outputs(void **state)
{
    (void)state;
    char dir[64], sub[128];
    assert_non_null(tu_make_temp_dir(dir, sizeof dir));
    int removed;
    const char *first[] = {"prog-a.png", "prog-b.png", "prog-c.csv", "prog-d.png"}, *second[] = {"prog-a.png"};
    assert_int_equal(run(dir, first, 4, NULL, NULL, &removed), LAB_OK);
    assert_int_equal(removed, 0);
    char *manifest = tu_read_file(tu_path(dir, "prog-outputs.txt"), NULL);
    assert_int_equal(strncmp(manifest, MANIFEST_MAGIC " prog\n", strlen(MANIFEST_MAGIC " prog\n")), 0);
    char line[128];
    snprintf(line, sizeof line, "\n1 %016llx prog-a.png\n", (unsigned long long)bytes_hash("x", 1));
    assert_non_null(strstr(manifest, line));
    free(manifest);
    /* the student's edit of an earlier output, their own files, and lines naming them */
    assert_true(tu_write_file(tu_path(dir, "prog-d.png"), "the student's annotated copy"));
    assert_true(tu_write_file(tu_path(dir, "prog-mine.png"), "mine"));
    snprintf(sub, sizeof sub, "%s/prog-dir", dir);
    assert_int_equal(mkdir(sub, 0777), 0);
    assert_true(tu_write_file(tu_path(sub, "x.png"), "in a folder"));
    assert_true(tu_write_file(tu_path(dir, ".hidden"), "hidden"));
    FILE *f = fopen(tu_path(dir, "prog-outputs.txt"), "a");
    assert_non_null(f);
    manifest_line(f, "prog-mine.png", "not what the file holds");
    manifest_line(f, "prog-dir", "x");
    manifest_line(f, "prog-gone.png", "x");
    fputs("# prog-mine.png\n", f);
    fclose(f);
    FILE *report = tmpfile();
    assert_non_null(report);
    output_batch b = {0};
    add_text(&b, second[0], "x");
    lab_diag d = {0};
    assert_int_equal(manifest_prepare(&b, dir, "prog", &d), LAB_OK);
    assert_int_equal(output_batch_commit(&b, dir, &d), LAB_OK);
    assert_true(manifest_report_removed(&b, report) > 0);
    output_batch_free(&b);
    assert_false(tu_exists(tu_path(dir, "prog-b.png")));
    assert_false(tu_exists(tu_path(dir, "prog-c.csv")));
    assert_true(tu_file_contains(tu_path(dir, "prog-d.png"), "the student's annotated copy"));
    assert_true(tu_exists(tu_path(dir, "prog-a.png")));
    assert_true(tu_file_contains(tu_path(dir, "prog-mine.png"), "mine"));
    assert_true(tu_exists(tu_path(sub, "x.png")));
    assert_true(tu_exists(tu_path(dir, ".hidden")));
    assert_int_equal(tu_count_entries(dir), 6); /* a, d, mine, the folder, .hidden, the manifest */
    rewind(report);
    char text[2048] = "";
    assert_true(fread(text, 1, sizeof text - 1, report) > 0);
    fclose(report);
    assert_non_null(strstr(text, "removed prog-b.png"));
    assert_non_null(strstr(text, "kept prog-d.png: changed since this program wrote it"));
    assert_non_null(strstr(text, "kept prog-mine.png: changed since"));
    assert_non_null(strstr(text, "kept prog-dir: not a regular file"));
    manifest = tu_read_file(tu_path(dir, "prog-outputs.txt"), NULL);
    assert_null(strstr(manifest, "prog-b.png")); /* the new manifest lists this run's files only */
    free(manifest);
    unlink(tu_path(sub, "x.png"));
    rmdir(sub);
    tu_remove_tree(dir);
}

/* An earlier output replaced by a symlink to a file of its exact bytes, and one by a dangling
 * symlink: both kept, neither followed (the file they point to intact), each reported as
 * "not a regular file now" (a stat that follows the link would take the first for the
 * program's own and remove it, the second for gone). */
static void test_manifest_keeps_an_output_replaced_by_a_symlink(void **state)
{
    (void)state;
    char dir[64], outside[64];
    assert_non_null(tu_make_temp_dir(dir, sizeof dir));
    assert_non_null(tu_make_temp_dir(outside, sizeof outside));
    int removed;
    const char *first[] = {"prog-a.png", "prog-b.png", "prog-c.png"}, *second[] = {"prog-a.png"};
    assert_int_equal(run(dir, first, 3, NULL, NULL, &removed), LAB_OK);
    assert_true(tu_write_file(tu_path(outside, "same.png"), "x")); /* the output's exact bytes */
    assert_int_equal(unlink(tu_path(dir, "prog-b.png")), 0);
    assert_int_equal(symlink(tu_path(outside, "same.png"), tu_path(dir, "prog-b.png")), 0);
    assert_int_equal(unlink(tu_path(dir, "prog-c.png")), 0);
    assert_int_equal(symlink(tu_path(outside, "nowhere.png"), tu_path(dir, "prog-c.png")), 0);
    output_batch b = {0};
    add_text(&b, second[0], "x");
    lab_diag d = {0};
    assert_int_equal(manifest_prepare(&b, dir, "prog", &d), LAB_OK);
    assert_int_equal(output_batch_commit(&b, dir, &d), LAB_OK);
    FILE *report = tmpfile();
    assert_non_null(report);
    manifest_report_removed(&b, report);
    output_batch_free(&b);
    struct stat st;
    assert_int_equal(lstat(tu_path(dir, "prog-b.png"), &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_int_equal(lstat(tu_path(dir, "prog-c.png"), &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_true(tu_file_contains(tu_path(outside, "same.png"), "x"));
    rewind(report);
    char text[2048] = "";
    assert_true(fread(text, 1, sizeof text - 1, report) > 0);
    fclose(report);
    assert_non_null(strstr(text, "kept prog-b.png: not a regular file now"));
    assert_non_null(strstr(text, "kept prog-c.png: not a regular file now"));
    tu_remove_tree(dir);
    tu_remove_tree(outside);
}

/* The student's files, byte for byte, and a canary outside the folder: what every hostile
 * case below checks after the run. */
typedef struct {
    char dir[64], outside[64];
} scene;

static void scene_make(scene *s)
{
    assert_non_null(tu_make_temp_dir(s->dir, sizeof s->dir));
    assert_non_null(tu_make_temp_dir(s->outside, sizeof s->outside));
    assert_true(tu_write_file(tu_path(s->outside, "canary.txt"), "canary\n"));
    assert_true(tu_write_file(tu_path(s->dir, "notes.txt"), "the student's notes\n"));
    assert_true(tu_write_file(tu_path(s->dir, "prog-annotated.png"), "the student's picture\n"));
}

static void scene_check(const scene *s)
{
    assert_true(tu_file_contains(tu_path(s->outside, "canary.txt"), "canary\n"));
    assert_true(tu_file_contains(tu_path(s->dir, "notes.txt"), "the student's notes\n"));
    assert_true(tu_file_contains(tu_path(s->dir, "prog-annotated.png"), "the student's picture\n"));
}

static void scene_free(scene *s)
{
    tu_remove_tree(s->dir);
    tu_remove_tree(s->outside);
}

static void write_manifest(const char *dir, const char *text)
{
    assert_true(tu_write_file(tu_path(dir, "prog-outputs.txt"), text));
}

/* Manifests the program did not write are never acted on: a symlink to a file outside the
 * folder, one in the old format of bare names, one naming the student's files with any
 * hash, another program's copied in, one with a malformed line, one whose name is split by
 * a newline. */
static void test_manifest_acts_only_on_its_own_manifest(void **state)
{
    (void)state;
    const char *second[] = {"prog-a.png"};
    int removed;
    char forged[512];
    snprintf(forged, sizeof forged, MANIFEST_MAGIC " prog\n%zu %016llx notes.txt\n", strlen("the student's notes\n"),
             (unsigned long long)bytes_hash("other", 5));
    const char *bodies[] = {
        "notes.txt\nprog-annotated.png\n",                            /* the old format */
        forged,                                                         /* the student's file, another hash */
        MANIFEST_MAGIC " other\n1 0000000000000000 notes.txt\n",      /* another program's */
        MANIFEST_MAGIC " prog\nnotes.txt\n",                          /* a malformed line */
        MANIFEST_MAGIC " prog\n20 0123456789abcdef prog-x\n.txt\n",   /* a name split by a newline */
    };
    for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
        scene s;
        scene_make(&s);
        write_manifest(s.dir, bodies[i]);
        assert_int_equal(run(s.dir, second, 1, NULL, NULL, &removed), LAB_OK);
        scene_check(&s);
        scene_free(&s);
    }
    /* a symlink to a manifest-shaped file outside the folder that names the student's notes
     * with their true hash: ignored, and replaced by the run's own manifest, not written through */
    scene s;
    scene_make(&s);
    char link_to[200], text[256];
    snprintf(text, sizeof text, MANIFEST_MAGIC " prog\n%zu %016llx notes.txt\n", strlen("the student's notes\n"),
             (unsigned long long)bytes_hash("the student's notes\n", strlen("the student's notes\n")));
    assert_true(tu_write_file(tu_path(s.outside, "manifest.txt"), text));
    snprintf(link_to, sizeof link_to, "%s/manifest.txt", s.outside);
    assert_int_equal(symlink(link_to, tu_path(s.dir, "prog-outputs.txt")), 0);
    assert_int_equal(run(s.dir, second, 1, NULL, NULL, &removed), LAB_OK);
    scene_check(&s);
    assert_true(tu_file_contains(tu_path(s.outside, "manifest.txt"), text)); /* not written through */
    struct stat st;
    assert_int_equal(lstat(tu_path(s.dir, "prog-outputs.txt"), &st), 0);
    assert_true(S_ISREG(st.st_mode));
    scene_free(&s);
}

/* 20,000 lines naming the student's files, bare as the old format had them: none removed. */
static void test_manifest_naming_many_user_files_removes_none(void **state)
{
    (void)state;
    scene s;
    scene_make(&s);
    bytes text = {0};
    for (int i = 0; i < 20000; i++) {
        char name[32];
        snprintf(name, sizeof name, "user-%05d.txt", i);
        if (i < 50)
            assert_true(tu_write_file(tu_path(s.dir, name), "user\n"));
        bytes_printf(&text, "%s\n", name);
    }
    write_manifest(s.dir, (const char *)text.data);
    bytes_free(&text);
    const char *second[] = {"prog-a.png"};
    int removed;
    assert_int_equal(run(s.dir, second, 1, NULL, NULL, &removed), LAB_OK);
    for (int i = 0; i < 50; i++) {
        char name[32];
        snprintf(name, sizeof name, "user-%05d.txt", i);
        assert_true(tu_file_contains(tu_path(s.dir, name), "user\n"));
    }
    scene_check(&s);
    scene_free(&s);
}

/* A commit that fails after the removal brings the removed file back with the rest. */
static void test_manifest_removal_is_rolled_back_with_the_commit(void **state)
{
    (void)state;
    char dir[64];
    assert_non_null(tu_make_temp_dir(dir, sizeof dir));
    int removed;
    const char *first[] = {"prog-a.png", "prog-b.png"}, *second[] = {"prog-a.png"};
    assert_int_equal(run(dir, first, 2, NULL, NULL, &removed), LAB_OK);
    char *before = tu_read_file(tu_path(dir, "prog-outputs.txt"), NULL);
    /* the batch: prog-a.png, the removal of prog-b.png, the manifest; its second rename fails */
    int left = 1;
    assert_int_equal(run(dir, second, 1, tu_failing_rename, &left, &removed), LAB_ERR_OUTPUT);
    assert_true(tu_exists(tu_path(dir, "prog-b.png")));
    char *after = tu_read_file(tu_path(dir, "prog-outputs.txt"), NULL);
    assert_string_equal(before, after);
    assert_int_equal(tu_count_entries(dir), 3); /* nothing hidden left */
    free(before), free(after);
    tu_remove_tree(dir);
}

/* A manifest that cannot be read is an output error naming it and the reason; nothing is
 * written. */
static void test_manifest_unreadable_is_an_output_error(void **state)
{
    (void)state;
    char dir[64], path[128];
    assert_non_null(tu_make_temp_dir(dir, sizeof dir));
    snprintf(path, sizeof path, "%s/prog-outputs.txt", dir);
    assert_int_equal(mkdir(path, 0777), 0);
    output_batch b = {0};
    add_text(&b, "prog-a.png", "x");
    lab_diag d = {0};
    assert_int_equal(manifest_prepare(&b, dir, "prog", &d), LAB_ERR_OUTPUT);
    assert_non_null(strstr(d.where, "prog-outputs.txt"));
    assert_non_null(strstr(d.value, "not a regular file"));
    output_batch_free(&b);
    rmdir(path);
    tu_remove_tree(dir);
}

/* The case: an 8-angle run's panels, then a default run in the same folder. */
static void test_manifest_lab30_scratch_folder(void **state)
{
    tu_run_dir *ctx = *state;
    const char *lab = LAB_BIN_DIR "/lab30";
    assert_int_equal(tu_run_program(lab, ctx->out_path, ctx->err_path, "--theta", "0,45,90,120,180,240,300,359",
                                    ctx->dir, (char *)NULL), 0);
    assert_true(tu_exists(tu_path(ctx->dir, "skinning30-theta120.png")));
    assert_true(tu_write_file(tu_path(ctx->dir, "notes.txt"), "mine"));
    /* the student annotates one panel: their copy is theirs now */
    assert_true(tu_write_file(tu_path(ctx->dir, "skinning30-theta120.png"), "annotated"));
    assert_int_equal(tu_run_program(lab, ctx->out_path, ctx->err_path, ctx->dir, (char *)NULL), 0);
    assert_true(tu_file_contains(tu_path(ctx->dir, "skinning30-theta120.png"), "annotated"));
    assert_true(tu_file_contains(ctx->out_path, "  kept skinning30-theta120.png: changed since this program wrote it"));
    unlink(tu_path(ctx->dir, "skinning30-theta120.png"));
    const char *gone[] = {"045", "240", "300", "359"}, *kept[] = {"000", "090", "180"};
    char name[64];
    for (int i = 0; i < 4; i++) {
        snprintf(name, sizeof name, "skinning30-theta%s.png", gone[i]);
        assert_false(tu_exists(tu_path(ctx->dir, name)));
        snprintf(name, sizeof name, "  removed skinning30-theta%s.png\n", gone[i]);
        assert_true(tu_file_contains(ctx->out_path, name));
    }
    for (int i = 0; i < 3; i++) {
        snprintf(name, sizeof name, "skinning30-theta%s.png", kept[i]);
        assert_true(tu_exists(tu_path(ctx->dir, name)));
    }
    assert_true(tu_exists(tu_path(ctx->dir, "notes.txt")));
    /* a third run removes nothing and says nothing about it */
    assert_int_equal(tu_run_program(lab, ctx->out_path, ctx->err_path, ctx->dir, (char *)NULL), 0);
    assert_false(tu_file_contains(ctx->out_path, "removed"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_manifest_removes_exactly_the_earlier_outputs),
        cmocka_unit_test(test_manifest_keeps_an_output_replaced_by_a_symlink),
        cmocka_unit_test(test_manifest_acts_only_on_its_own_manifest),
        cmocka_unit_test(test_manifest_naming_many_user_files_removes_none),
        cmocka_unit_test(test_manifest_removal_is_rolled_back_with_the_commit),
        cmocka_unit_test(test_manifest_unreadable_is_an_output_error),
        cmocka_unit_test_setup_teardown(test_manifest_lab30_scratch_folder, tu_run_dir_setup, tu_run_dir_teardown),
    };
    return cmocka_run_group_tests_name("manifest", tests, NULL, NULL);
}
