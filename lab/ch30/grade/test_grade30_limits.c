/* test_grade30_limits.c - the grader's limits as a student meets them: a crash, an endless
 * loop, alarm(0), an ignored SIGALRM, a sleep, a right answer 1.5 times too slow, a fork that
 * loops, a fork bomb, exit() and a write over every shared page are that exercise's verdict
 * within the limit, and the reference is correct through the same child. make grade30
 * itself: test_grade30_make.c. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmocka_all.h"

#include "exercises30.h"
#include "grade30.h"

#define SEED 30

static void show(int x, const grade_result *r) { grade30_print(x, r, stdout); }

/* ---- the limits, through the child ----------------------------------------------------- */

static mat4 crashes(mat4 m)
{
    (void)m;
    raise(SIGSEGV);
    return mat4_identity();
}

static double loops(double w, double theta)
{
    volatile double x = w + theta;
    for (;;)
        x += 1;
    return x;
}

static double cancels_the_alarm_and_loops(double w, double theta)
{
    alarm(0);
    return loops(w, theta);
}

static double ignores_sigalrm_and_loops(double w, double theta)
{
    signal(SIGALRM, SIG_IGN);
    return loops(w, theta);
}

static double sleeps(double w, double theta)
{
    sleep(60);
    return w + theta;
}

/* Right, but its first call takes 1.5 times the limit of 0.5 s (0.75 s asleep): too slow,
 * not passed by a second more (the picture's, or the compile's) given to its calls. */
static double right_but_slow(double w, double theta)
{
    static bool slept;
    if (!slept)
        nanosleep(&(struct timespec){0, 750000000}, NULL), slept = true;
    double s = sin(theta / 2);
    return sqrt(fmax(0, 1 - 4 * w * (1 - w) * s * s));
}

static double forks_and_loops(double w, double theta)
{
    if (fork() == 0)
        loops(w, theta);
    double s = sin(theta / 2);
    return sqrt(fmax(0, 1 - 4 * w * (1 - w) * s * s));
}

static double fork_bomb(double w, double theta)
{
    for (;;)
        fork();
    return w + theta;
}

static double exits(double w, double theta)
{
    (void)w, (void)theta;
    exit(0);
}

/* A wrong answer that, on its first call, overwrites every shared mapping of its process
 * with `byte` (the grading child's pages that the parent shares): the verdict is the
 * parent's own comparison of the answers, so it stays "wrong". */
static int overwrite_byte;
static mat4 overwrites_shared_pages(mat4 a, mat4 b)
{
    static bool done;
    FILE *maps = done ? NULL : fopen("/proc/self/maps", "r");
    char line[512];
    while (maps && fgets(line, sizeof line, maps)) {
        unsigned long from, to;
        char perms[8];
        if (sscanf(line, "%lx-%lx %7s", &from, &to, perms) == 3 && perms[0] == 'r' && perms[1] == 'w' && perms[3] == 's')
            memset((void *)from, overwrite_byte, to - from);
    }
    if (maps)
        fclose(maps);
    done = true;
    return mat4_mul(b, a); /* L G: wrong */
}

/* The verdict and what the grader says it allowed, never the wall clock this suite saw: on
 * a loaded machine the kill comes late, and the verdict is the same (no timed assertion). */
static void expect_verdict(int x, grade_fn f, grade_verdict v, const char *words)
{
    grade_result r;
    assert_int_equal(grade30_run(grade30_exercises[x], f, SEED, &r, NULL, NULL), LAB_OK);
    show(x, &r);
    assert_int_equal(r.verdict, v);
    assert_true(r.failed > 0 && r.failed_case[0]); /* the case it was in */
    if (words && !strstr(r.detail, words))
        fail_msg("expected \"%s\" in \"%s\"", words, r.detail);
    char limit[64];
    snprintf(limit, sizeof limit, "over %g s", grade30_seconds);
    if (v == GRADE_TOO_SLOW && !strstr(r.detail, limit))
        fail_msg("a verdict of too slow names the limit it was given (\"%s\"): \"%s\"", limit, r.detail);
}

static void test_grade30_limits_make_every_end_a_verdict(void **state)
{
    (void)state;
    double saved = grade30_seconds;
    grade30_seconds = 0.5;
    expect_verdict(GRADE30_NORMAL_MATRIX, (grade_fn)crashes, GRADE_CRASHED, "SIGSEGV");
    expect_verdict(GRADE30_RING_RADIUS, (grade_fn)loops, GRADE_TOO_SLOW, "over 0.5 s");
    expect_verdict(GRADE30_RING_RADIUS, (grade_fn)cancels_the_alarm_and_loops,
                   GRADE_TOO_SLOW, "too slow");
    expect_verdict(GRADE30_RING_RADIUS, (grade_fn)ignores_sigalrm_and_loops,
                   GRADE_TOO_SLOW, "too slow");
    expect_verdict(GRADE30_RING_RADIUS, (grade_fn)sleeps, GRADE_TOO_SLOW, "too slow");
    expect_verdict(GRADE30_RING_RADIUS, (grade_fn)right_but_slow, GRADE_TOO_SLOW, "over 0.5 s");
    expect_verdict(GRADE30_RING_RADIUS, (grade_fn)forks_and_loops, GRADE_WRONG, "it called fork");
    expect_verdict(GRADE30_RING_RADIUS, (grade_fn)fork_bomb, GRADE_WRONG, "it called fork");
    expect_verdict(GRADE30_RING_RADIUS, (grade_fn)exits, GRADE_CRASHED, "exit status 0");
    for (overwrite_byte = 0; overwrite_byte < 2; overwrite_byte++)
        expect_verdict(GRADE30_WORLD_MATRIX, (grade_fn)overwrites_shared_pages, GRADE_WRONG, NULL);
    /* the reference through the same child */
    for (int x = 0; x < GRADE30_EXERCISE_COUNT; x++) {
        grade_result r;
        if (grade30_exercises[x]->shape == GRADE_ELSEWHERE) /* on the GPU: test_grade30_shader.c */
            continue;
        assert_int_equal(grade30_run(grade30_exercises[x], grade30_exercises[x]->reference, SEED, &r, NULL, NULL), LAB_OK);
        assert_int_equal(r.verdict, GRADE_CORRECT);
    }
    grade30_seconds = saved;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grade30_limits_make_every_end_a_verdict),
    };
    return cmocka_run_group_tests_name("the grader's limits, through the child", tests, NULL, NULL);
}
