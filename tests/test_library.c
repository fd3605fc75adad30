/* test_library.c - shared libraries opened at run time (src/base/library.h): a function
 * taken and called, the loader's refusals sorted, and the start-up guard gone once the
 * library has started. Its failures for want of memory are failed allocation by
 * allocation in test_faults (CHOLMOD's start). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/library.h"
#include "cmocka_all.h"

#define LIBM "libm.so.6"

static void test_a_function_is_taken_and_called(void **state)
{
    (void)state;
    void *h = NULL;
    lab_diag d = {0};
    assert_int_equal(library_open(LIBM, LIBRARY_START_AS_IS, &h, &d), LAB_OK);
    assert_non_null(h);
    double (*cosine)(double) = NULL;
    assert_int_equal(library_function(h, LIBM, "cos", &cosine, sizeof cosine, &d), LAB_OK);
    volatile double x = 0.5; /* not folded by the compiler: the loaded function computes it */
    assert_true(cosine(x) == cos(x));
}

static void test_refusals_are_sorted(void **state)
{
    (void)state;
    void *h = &h;
    lab_diag d = {0};
    assert_int_equal(library_open("libnot-a-lab-library.so.7", LIBRARY_START_ENDS_FOR_MEMORY, &h, &d),
                     LAB_ERR_UNSUPPORTED);
    assert_null(h);
    assert_string_equal(d.where, "libnot-a-lab-library.so.7");
    assert_non_null(strstr(d.value, "cannot be loaded: "));
    assert_non_null(strstr(d.value, "No such file"));
    assert_int_equal(library_open(LIBM, LIBRARY_START_AS_IS, &h, &d), LAB_OK);
    void (*f)(void) = NULL;
    assert_int_equal(library_function(h, LIBM, "not_a_libm_function", &f, sizeof f, &d), LAB_ERR_UNSUPPORTED);
    assert_string_equal(d.value, "has no not_a_libm_function");
    assert_null(f);
    double x;
    assert_int_equal(library_function(h, LIBM, "cos", &x, sizeof x - 1, &d), LAB_ERR_INVALID_ARGUMENT);
}

static void exit_7(int signal_number)
{
    (void)signal_number;
    _exit(7);
}

/* A child sets a SIGSEGV handler of its own (exit 7), opens a library under the guard,
 * then ends as asked: after library_open the guard is disarmed, so exit(5) stays 5 and a
 * crash reaches the handler that was there before, never the guard's exit 3. */
static int child_status(bool crash)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        struct sigaction own = {.sa_handler = exit_7};
        sigemptyset(&own.sa_mask);
        sigaction(SIGSEGV, &own, NULL);
        void *h;
        if (library_open(LIBM, LIBRARY_START_ENDS_FOR_MEMORY, &h, NULL) != LAB_OK)
            _exit(9);
        if (crash)
            raise(SIGSEGV);
        exit(5);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

static void test_the_guard_ends_with_the_start(void **state)
{
    (void)state;
    assert_int_equal(child_status(false), 5);
    assert_int_equal(child_status(true), 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_function_is_taken_and_called),
        cmocka_unit_test(test_refusals_are_sorted),
        cmocka_unit_test(test_the_guard_ends_with_the_start),
    };
    return cmocka_run_group_tests_name("library: dlopen and its failures", tests, NULL, NULL);
}
