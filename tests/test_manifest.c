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

/* The earlier run's extra files go; the student's files, another program's, a directory and
 * every line of the manifest that is not a plain name stay. */
static void test_manifest_removes_exactly_the_earlier_outputs(void **state)
{
    (void)state;
    char dir[64], sub[128];
    assert_non_null(tu_make_temp_dir(dir, sizeof dir));
    int removed;
    const char *first[] = {"prog-a.png", "prog-b.png", "prog-c.csv"}, *second[] = {"prog-a.png"};
    assert_int_equal(run(dir, first, 3, NULL, NULL, &removed), LAB_OK);
    assert_int_equal(removed, 0);
    char *manifest = tu_read_file(tu_path(dir, "prog-outputs.txt"), NULL);
    assert_non_null(strstr(manifest, "\nprog-a.png\nprog-b.png\nprog-c.csv\n"));
    free(manifest);
    /* the student's own files, another program's, and a hand-edited manifest */
    assert_true(tu_write_file(tu_path(dir, "prog-mine.png"), "mine"));
    assert_true(tu_write_file(tu_path(dir, "other-a.png"), "other"));
    snprintf(sub, sizeof sub, "%s/prog-dir", dir);
    assert_int_equal(mkdir(sub, 0777), 0);
    assert_true(tu_write_file(tu_path(sub, "x.png"), "in a folder"));
    assert_true(tu_write_file(tu_path(dir, ".hidden"), "hidden"));
    FILE *f = fopen(tu_path(dir, "prog-outputs.txt"), "a");
    assert_non_null(f);
    fputs("../escape.png\nprog-dir/x.png\n.hidden\nprog-dir\nprog-gone.png\n\n# prog-mine.png\n", f);
    fclose(f);
    assert_int_equal(run(dir, second, 1, NULL, NULL, &removed), LAB_OK);
    assert_int_equal(removed, 2); /* prog-b.png and prog-c.csv; prog-gone.png was not there */
    assert_false(tu_exists(tu_path(dir, "prog-b.png")));
    assert_false(tu_exists(tu_path(dir, "prog-c.csv")));
    assert_true(tu_exists(tu_path(dir, "prog-a.png")));
    assert_true(tu_exists(tu_path(dir, "prog-mine.png")));
    assert_true(tu_exists(tu_path(dir, "other-a.png")));
    assert_true(tu_exists(tu_path(sub, "x.png")));
    assert_true(tu_exists(tu_path(dir, ".hidden")));
    assert_int_equal(tu_count_entries(dir), 6); /* a, mine, other, the folder, .hidden, the manifest */
    manifest = tu_read_file(tu_path(dir, "prog-outputs.txt"), NULL);
    assert_null(strstr(manifest, "prog-b.png")); /* the new manifest lists this run's files only */
    free(manifest);
    unlink(tu_path(sub, "x.png"));
    rmdir(sub);
    tu_remove_tree(dir);
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
    assert_int_equal(tu_run_program(lab, ctx->out_path, ctx->err_path, ctx->dir, (char *)NULL), 0);
    const char *gone[] = {"045", "120", "240", "300", "359"}, *kept[] = {"000", "090", "180"};
    char name[64];
    for (int i = 0; i < 5; i++) {
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
        cmocka_unit_test(test_manifest_removal_is_rolled_back_with_the_commit),
        cmocka_unit_test(test_manifest_unreadable_is_an_output_error),
        cmocka_unit_test_setup_teardown(test_manifest_lab30_scratch_folder, tu_run_dir_setup, tu_run_dir_teardown),
    };
    return cmocka_run_group_tests_name("manifest", tests, NULL, NULL);
}
