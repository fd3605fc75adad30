/* test_programs.c - end to end, the contract every program keeps (DESIGN.md), checked on
 * all eleven at once: the report on stdout is an output, so a stdout that cannot take it (a
 * full disk: /dev/full) makes the run exit 3 having written nothing; --help too. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_all.h"
#include "testutil.h"

typedef struct {
    const char *program;
    const char *input;      /* an argument before OUTDIR, or NULL */
    const char *option;     /* an option that keeps the run short, or NULL */
} program_run;

static const program_run programs[] = {
    {LAB_BIN_DIR "/lab30", NULL, NULL},
    {LAB_BIN_DIR "/lab30-dqs", NULL, NULL},
    {LAB_BIN_DIR "/lab30-normals", NULL, NULL},
    {LAB_BIN_DIR "/lab30-palette", NULL, NULL},
    {LAB_BIN_DIR "/lab30-gltf", COMMITTED_OUT_DIR "/skinning30.gltf", NULL},
    {LAB_BIN_DIR "/bench-skinning", NULL, "--smoke"},
    {LAB_BIN_DIR "/lab30-fixes", NULL, NULL},
    {LAB_BIN_DIR "/lab30-gpu", NULL, NULL},
    {LAB_BIN_DIR "/bench-gpu", NULL, "--smoke"},
    {LAB_BIN_DIR "/lab30-weights", NULL, NULL},
    {LAB_BIN_DIR "/bench-weights", NULL, "--smoke"},
};
enum { PROGRAM_COUNT = sizeof programs / sizeof programs[0] };

static void test_programs_a_full_stdout_is_an_output_failure(void **state)
{
    tu_run_dir *ctx = *state;
    for (int i = 0; i < PROGRAM_COUNT; i++) {
        const program_run *p = &programs[i];
        char *argv[5] = {(char *)p->program};
        int n = 1;
        if (p->option)
            argv[n++] = (char *)p->option;
        if (p->input)
            argv[n++] = (char *)p->input;
        argv[n++] = ctx->dir;
        argv[n] = NULL;
        int rc = tu_run(argv, "/dev/full", ctx->err_path);
        if (rc == 1 && tu_file_contains(ctx->err_path, "no EGL display")) { /* test_gpu counts the skip */
            fprintf(stderr, "%s: no EGL display here, not run\n", p->program);
            continue;
        }
        if (rc != 3 || tu_count_entries(ctx->dir) != 0 || !tu_file_contains(ctx->err_path, "standard output"))
            fprintf(stderr, "%s: exit %d, %d files written\n", p->program, rc, tu_count_entries(ctx->dir));
        assert_int_equal(rc, 3);
        assert_int_equal(tu_count_entries(ctx->dir), 0);
        assert_true(tu_file_contains(ctx->err_path, "standard output"));
        char *help[] = {(char *)p->program, "--help", NULL};
        assert_int_equal(tu_run(help, "/dev/full", ctx->err_path), 3);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_programs_a_full_stdout_is_an_output_failure, tu_run_dir_setup,
                                        tu_run_dir_teardown),
    };
    return cmocka_run_group_tests_name("every program's contract", tests, NULL, NULL);
}
