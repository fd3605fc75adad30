/* test_child.c - src/base/child.h: a job in a child process, its result through a pipe,
 * and every way that pipe can fail: the job's own error and diag, a result whose append
 * ran out of memory, a child that dies before its result, a child whose result cannot be
 * written (the parent reads it short), and a child that ends by the loader's exit 127 or
 * the guard's exit 3 (child_ended). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/child.h"
#include "cmocka_all.h"

static lab_error answers(void *state, bytes *result, lab_diag *d)
{
    (void)d;
    bytes_append(result, state, strlen(state) + 1);
    return LAB_OK;
}

static lab_error refuses(void *state, bytes *result, lab_diag *d)
{
    (void)state, (void)result;
    return diag_fail(d, LAB_ERR_GLTF, "/buffers/0", "the job's own words");
}

/* A result whose append ran out of memory: never taken for whole. */
static lab_error append_fails(void *state, bytes *result, lab_diag *d)
{
    (void)state, (void)d;
    bytes_append(result, "partial", 7);
    result->failed = true;
    return LAB_OK;
}

static lab_error dies(void *state, bytes *result, lab_diag *d)
{
    (void)state, (void)d;
    bytes_append(result, "never sent", 10);
    raise(SIGKILL);
    return LAB_OK;
}

/* Every descriptor above stderr closed: the child cannot write its result, and the parent
 * reads nothing, or less than the header promised. */
static lab_error pipe_closed(void *state, bytes *result, lab_diag *d)
{
    (void)state, (void)d;
    for (int fd = 3; fd < 1024; fd++)
        close(fd);
    bytes_append(result, "unsendable", 10);
    return LAB_OK;
}

static lab_error exits(void *state, bytes *result, lab_diag *d)
{
    (void)result, (void)d;
    _exit(*(const int *)state);
}

static void test_child_results_and_errors(void **state)
{
    (void)state;
    bytes result = {0};
    lab_diag d = {0};
    assert_int_equal(child_run("a job", answers, "hello", &result, LAB_ERR_GPU, &d), LAB_OK);
    assert_string_equal((const char *)result.data, "hello");
    bytes_free(&result);

    assert_int_equal(child_run("a job", refuses, NULL, &result, LAB_ERR_GPU, &d), LAB_ERR_GLTF);
    assert_string_equal(d.value, "the job's own words"); /* the child's diag crosses */
    assert_int_equal(result.len, 0);

    d = (lab_diag){0};
    assert_int_equal(child_run("a job", append_fails, NULL, &result, LAB_ERR_GPU, &d), LAB_ERR_OUT_OF_MEMORY);
    assert_int_equal(result.len, 0);
}

static void test_child_ends_are_the_crash_code(void **state)
{
    (void)state;
    bytes result = {0};
    lab_diag d = {0};
    bool oom;
    assert_int_equal(child_run("a job", dies, NULL, &result, LAB_ERR_GPU, &d), LAB_ERR_GPU);
    assert_non_null(strstr(d.value, "signal 9"));
    assert_int_equal(result.len, 0);
    assert_true(child_ended(&d, &oom) && !oom);

    d = (lab_diag){0};
    assert_int_equal(child_run("a job", pipe_closed, NULL, &result, LAB_ERR_GPU, &d), LAB_ERR_GPU);
    assert_non_null(strstr(d.value, "exit status 1"));
    assert_int_equal(result.len, 0);

    static const int codes[] = {3, 127, 2};
    for (int i = 0; i < 3; i++) {
        d = (lab_diag){0};
        assert_int_equal(child_run("a job", exits, (void *)&codes[i], &result, LAB_ERR_GPU, &d), LAB_ERR_GPU);
        assert_true(child_ended(&d, &oom));
        assert_true(oom == (codes[i] != 2)); /* the guard's 3 and the loader's 127 are an allocation's */
    }
    lab_diag own = {0};
    diag_fail(&own, LAB_ERR_GLTF, "/x", "a job's own error");
    assert_false(child_ended(&own, &oom));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_child_results_and_errors),
        cmocka_unit_test(test_child_ends_are_the_crash_code),
    };
    return cmocka_run_group_tests_name("child", tests, NULL, NULL);
}
