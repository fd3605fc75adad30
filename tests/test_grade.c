/* test_grade.c - the grader engine (src/grade/), which names no chapter: the call arrays
 * (exact heap copies, outputs of 0xff, a written input named by element, a bad access named
 * after the nearest array), the sheet's build (a file of any name, its first error in plain
 * ASCII, an object named by content hash: a sheet restored with an older time is rebuilt,
 * an unchanged one is not, a compiler that runs away is stopped), and the sandbox (a loop, a
 * loop that cancels alarms, a fork bomb, an exit and a signal each end as the engine says,
 * within its deadline as the engine reports it, never a wall clock measured here; a fork
 * bomb is stopped at its first fork by the system-call filter). */
#define _GNU_SOURCE /* setsid, utimensat */
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmocka_all.h"
#include "testutil.h"

#include "grade/arrays.h"
#include "grade/build.h"
#include "grade/ended.h"
#include "grade/failing.h"
#include "grade/grader.h"
#include "grade/sandbox.h"

/* ---- the call arrays ---------------------------------------------------------------------- */

static void test_grade_arrays_copy_compare_and_name(void **state)
{
    (void)state;
    const double weight[3] = {0.25, NAN, 0.5};
    const int joint[2] = {4, 7};
    grade_call call = {0};
    double *w = grade_input(&call, "weight", "weights", weight, sizeof *weight, 3);
    int *j = grade_input(&call, "joint", "influences", joint, sizeof *joint, 2);
    double *out = grade_output(&call, "out", "numbers", sizeof(double), 2);
    double *none = grade_input(&call, "none", "numbers", NULL, sizeof(double), 4); /* an absent input */
    assert_true(grade_call_ready(&call));
    assert_true(w != weight && j != joint && none == NULL);
    assert_memory_equal(w, weight, sizeof weight); /* NaN too, bit for bit */
    assert_true(isnan(out[0]) && isnan(out[1]));   /* 0xff bytes: NaN, never a plausible answer */
    char why[64] = "";
    assert_false(grade_call_changed(&call, why, sizeof why));
    j[1] = 8;
    assert_true(grade_call_changed(&call, why, sizeof why));
    assert_string_equal(why, "joint[1]");
    j[1] = 7, w[2] = 0.5; /* the same double written back is no change */
    assert_false(grade_call_changed(&call, why, sizeof why));
    /* a bad access, in the words of the nearest array */
    grade_name_access((uintptr_t)(j + 2), false, why, sizeof why);
    assert_string_equal(why, "reads joint[2], past the 2 influences");
    grade_name_access((uintptr_t)(w - 2), true, why, sizeof why);
    assert_string_equal(why, "writes weight[-2], before the 3 weights");
    grade_name_access(0, false, why, sizeof why);
    assert_string_equal(why, "reads address 0 (a null pointer)");
    grade_call_end(&call);
    grade_name_access(16, false, why, sizeof why); /* no call under way */
    assert_non_null(strstr(why, "outside every array"));
}

/* world[-2] when local lies nearer to the address but not a whole number of its elements
 * from it (the heap puts the call's arrays where it likes). */
static void test_grade_arrays_name_the_array_an_index_lands_in(void **state)
{
    (void)state;
    static double buffer[1024];
    char *b = (char *)buffer;
    grade_call call = {0};
    /* local: 2 elements of 128 bytes at b + 8; world: 1 element at b + 8 + 256 + 56 */
    call.array[0] = (grade_array){"local", "nodes", GRADE_IN, NULL, b + 8, 128, 2};
    call.array[1] = (grade_array){"world", "nodes", GRADE_OUT, NULL, b + 8 + 256 + 56 + 256, 128, 1};
    call.count = 2;
    assert_true(grade_call_ready(&call));
    char why[96];
    grade_name_access((uintptr_t)(b + 8 + 256 + 56), false, why, sizeof why); /* world - 256: world[-2] */
    assert_string_equal(why, "reads world[-2], before the 1 nodes");
    grade_name_access((uintptr_t)(b + 8 + 256), false, why, sizeof why); /* just past local */
    assert_string_equal(why, "reads local[2], past the 2 nodes");
    call.count = 0; /* the arrays are this test's, not the heap's */
    grade_call_end(&call);
}

/* ---- the sheet's build -------------------------------------------------------------------- */

static grade_build_result build_within(const char *dir, const char *source, double seconds, grade_build *b)
{
    char objects[128];
    snprintf(objects, sizeof objects, "%s/obj", dir);
    grade_build_result r;
    lab_diag d = {0};
    assert_int_equal(grade_build_shared(&(grade_build_request){"cc -std=c11 -Wall", source, objects, "sheet", NULL, seconds},
                                        b, &r, &d),
                     LAB_OK);
    return r;
}
static grade_build_result build(const char *dir, const char *source, grade_build *b) { return build_within(dir, source, 30, b); }

static void test_grade_build_any_name_and_the_first_error(void **state)
{
    (void)state;
    char dir[64], path[256];
    assert_non_null(tu_make_temp_dir(dir, sizeof dir));
    static grade_build b;
    /* a name a shell would split, quote or run */
    snprintf(path, sizeof path, "%s/my 'odd' `touch x` \"name\"\nline.c", dir);
    assert_true(tu_write_file(path, "int f(void) { return 1; }\n"));
    assert_int_equal(build(dir, path, &b), GRADE_BUILD_OK);
    assert_false(b.reused);
    assert_false(tu_exists("x"));
    /* the first error, plain ASCII, file:line first */
    snprintf(path, sizeof path, "%s/broken.c", dir);
    assert_true(tu_write_file(path, "int f(void) { return undeclared; }\nint g(void) { return also; }\n"));
    assert_int_equal(build(dir, path, &b), GRADE_BUILD_FAILED);
    char want[300];
    snprintf(want, sizeof want, "%s:1:", path);
    assert_int_equal(strncmp(b.first_error, want, strlen(want)), 0);
    assert_non_null(strstr(b.first_error, "error"));
    assert_non_null(strstr(b.first_error, "'undeclared'")); /* plain quotes, not the UTF-8 ones */
    for (const char *c = b.log; *c; c++)
        assert_true(*c == '\n' || (*c >= 0x20 && *c <= 0x7e));
    /* a file that is not there */
    snprintf(path, sizeof path, "%s/missing.c", dir);
    assert_int_equal(build(dir, path, &b), GRADE_BUILD_UNREADABLE);
    assert_non_null(strstr(b.first_error, "No such file"));
    tu_remove_tree(dir);
}

static void test_grade_build_by_content_not_by_time(void **state)
{
    (void)state;
    char dir[64], path[128], first[1024];
    assert_non_null(tu_make_temp_dir(dir, sizeof dir));
    static grade_build b;
    snprintf(path, sizeof path, "%s/sheet.c", dir);
    assert_true(tu_write_file(path, "int f(void) { return 1; }\n"));
    assert_int_equal(build(dir, path, &b), GRADE_BUILD_OK);
    snprintf(first, sizeof first, "%s", b.object);
    assert_int_equal(build(dir, path, &b), GRADE_BUILD_OK); /* unchanged: reused */
    assert_true(b.reused);
    assert_string_equal(b.object, first);
    /* another version, restored with an older time (cp -p, tar): rebuilt all the same */
    assert_true(tu_write_file(path, "int f(void) { return 2; }\n"));
    struct timespec old[2] = {{1000000, 0}, {1000000, 0}};
    assert_int_equal(utimensat(AT_FDCWD, path, old, 0), 0);
    assert_int_equal(build(dir, path, &b), GRADE_BUILD_OK);
    assert_false(b.reused);
    assert_string_not_equal(b.object, first);
    assert_false(tu_exists(first)); /* the earlier object, the engine's own, removed */
    tu_remove_tree(dir);
}

static void test_grade_build_stops_a_compiler_that_runs_away(void **state)
{
    (void)state;
    char dir[64], path[128];
    assert_non_null(tu_make_temp_dir(dir, sizeof dir));
    static grade_build b;
    snprintf(path, sizeof path, "%s/zero.c", dir);
    assert_true(tu_write_file(path, "#include \"/dev/zero\"\n"));
    grade_build_result r = build_within(dir, path, 5, &b);
    printf("  #include \"/dev/zero\": %s\n", b.first_error);
    assert_true(r == GRADE_BUILD_LIMIT || r == GRADE_BUILD_FAILED); /* gcc: out of memory under the limit */
    assert_true(b.first_error[0] != '\0');
    if (r == GRADE_BUILD_LIMIT && !strstr(b.first_error, ": 5 s, 2 GiB,")) /* the limits it was given */
        fail_msg("the compiler's limits named otherwise than given: %s", b.first_error);
    /* a deadline no compiler meets (its own start takes longer): stopped, the limit named */
    snprintf(path, sizeof path, "%s/small.c", dir);
    assert_true(tu_write_file(path, "int f(void) { return 1; }\n"));
    assert_int_equal(build_within(dir, path, 0.001, &b), GRADE_BUILD_LIMIT);
    printf("  within 0.001 s: %s\n", b.first_error);
    assert_non_null(strstr(b.first_error, "stopped at the deadline"));
    assert_non_null(strstr(b.first_error, ": 0.001 s, 2 GiB,"));
    tu_remove_tree(dir);
}

/* ---- the sandbox ---------------------------------------------------------------------------- */

typedef enum {
    LOOPS, CANCELS_ALARMS, FORK_BOMB, EXITS, SEGFAULTS, FINISHES, ESCAPES, KILLS_PARENT, LEAVES_SESSION, WRITES_FILE,
    RUNS_PROGRAM, SETS_LIMIT, ABORTS, REPORTS_LIMITS
} job_kind;

/* What the limits' job tells the test: the limits it runs under. */
typedef struct {
    grade_shared_head head;
    struct rlimit address_space, processes, core;
} limits_record;

/* What the escaping job tells the test: the daemon it left. */
typedef struct {
    grade_shared_head head;
    volatile pid_t escaped;
} escape_record;

static void job(void *arg, grade_shared_head *head)
{
    volatile unsigned long spin = 0;
    switch (*(const job_kind *)arg) {
    case LOOPS:
        for (;;)
            spin++;
    case CANCELS_ALARMS:
        alarm(0);
        signal(SIGALRM, SIG_IGN);
        signal(SIGTERM, SIG_IGN);
        for (;;)
            spin++;
    case FORK_BOMB:
        for (;;)
            fork();
    case EXITS: exit(0);
    case SEGFAULTS: raise(SIGSEGV); break;
    case FINISHES: head->phase = 1; break;
    case KILLS_PARENT: kill(getppid(), SIGKILL); break;
    case LEAVES_SESSION: setsid(); break;
    case WRITES_FILE: fopen("grade-test-written", "w"); break;
    case RUNS_PROGRAM: execl("/bin/true", "true", (char *)NULL); break;
    case SETS_LIMIT: setrlimit(RLIMIT_CPU, &(struct rlimit){1000, 1000}); break;
    case ABORTS: abort();
    case REPORTS_LIMITS: {
        limits_record *r = (limits_record *)head;
        getrlimit(RLIMIT_AS, &r->address_space), getrlimit(RLIMIT_NPROC, &r->processes), getrlimit(RLIMIT_CORE, &r->core);
        head->phase = 1;
        break;
    }
    case ESCAPES: { /* a daemon: out of the group and the session, its parent gone; then a loop */
        escape_record *r = (escape_record *)head;
        pid_t p = fork();
        if (p == 0) {
            setsid();
            pid_t q = fork();
            if (q == 0)
                for (;;)
                    spin++;
            r->escaped = q;
            _exit(0);
        }
        while (!r->escaped)
            spin++;
        for (;;)
            spin++;
    }
    }
}

static void test_grade_sandbox_ends_every_child_as_it_says(void **state)
{
    (void)state;
    const struct { job_kind kind; grade_ending ending; const char *words; } runs[] = {
        {LOOPS, GRADE_ENDED_TOO_SLOW, "over 0.3 s"},  {CANCELS_ALARMS, GRADE_ENDED_TOO_SLOW, "over 0.3 s"},
        {FORK_BOMB, GRADE_ENDED_FORBIDDEN, "it called fork"}, {EXITS, GRADE_ENDED_CRASHED, "exit status 0"},
        {SEGFAULTS, GRADE_ENDED_CRASHED, "SIGSEGV 11"},
    };
    grade_limits limits = grade_limits_default(0.3);
    limits.processes = 64;
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        grade_shared_head *s = grade_shared_new(sizeof *s);
        assert_non_null(s);
        static grade_end end;
        lab_diag d = {0};
        assert_int_equal(grade_sandbox_run("a job", &limits, job, (void *)&runs[i].kind, s, &end, &d), LAB_OK);
        char words[200];
        grade_ending how = grade_ended(s, &end, "sheet.c", words, sizeof words);
        printf("  job %d: %s\n", (int)runs[i].kind, words);
        assert_int_equal(how, runs[i].ending);
        assert_non_null(strstr(words, runs[i].words));
        assert_true(end.seconds_allowed == 0.3); /* the limit it reports, not a time measured here */
        /* nothing of the group is left */
        assert_int_equal(kill(-s->leader, 0), -1);
        grade_shared_free(s, sizeof *s);
    }
    /* a job that finishes: phase 1, and the extra second granted after it */
    job_kind finishes = FINISHES;
    grade_shared_head *s = grade_shared_new(sizeof *s);
    static grade_end end;
    assert_int_equal(grade_sandbox_run("a job", &limits, job, &finishes, s, &end, NULL), LAB_OK);
    assert_int_equal(s->phase, 1);
    assert_false(end.late);
    assert_true(WIFEXITED(end.status) && WEXITSTATUS(end.status) == 0);
    assert_true(end.seconds_allowed == 0.3 + limits.extra_seconds);
    grade_shared_free(s, sizeof *s);
    /* a daemon that left the group and the session (where no filter stops setsid): ended
     * all the same, nothing left */
    job_kind escapes = ESCAPES;
    escape_record *r = (escape_record *)grade_shared_new(sizeof *r);
    assert_non_null(r);
    grade_limits unfiltered = limits;
    unfiltered.filtered = false;
    assert_int_equal(grade_sandbox_run("a job", &unfiltered, job, &escapes, &r->head, &end, NULL), LAB_OK);
    assert_true(end.late);
    assert_true(r->escaped > 0);
    assert_int_equal(kill(r->escaped, 0), -1);
    grade_shared_free(&r->head, sizeof *r);
}

/* The failing case's panel fits its labels for any answers: every magnitude from 1e-300 to
 * 1e300, either sign, zeros, NaN and infinities, 1 to 16 numbers, counts that differ, as
 * numbers, as a point and as a matrix (its frame), with the pose's note or not (seeded). */
static void test_grade_failing_picture_fits_every_answer(void **state)
{
    (void)state;
    static const grade_shape shapes[3] = {GRADE_VALUES, GRADE_POINT, GRADE_MATRIX};
    uint64_t s = 30;
    int drawn = 0, places = 0;
    for (int run = 0; run < 1200; run++) {
        const grade_exercise x = {.title = "an exercise", .named = 1, .generated = 240, .shape = shapes[run % 3]};
        grade_result r = {.verdict = GRADE_WRONG, .failed = 1 + run % 241, .mistake = -1, .pose_hides = run % 5 == 0};
        snprintf(r.failed_case, sizeof r.failed_case, "generated (seed 30): a case whose words run on and on, %d of them", run);
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        int n = x.shape == GRADE_POINT ? 3 : x.shape == GRADE_MATRIX ? 16 : 1 + (int)(s >> 60);
        r.failed_got = n, r.failed_want = run % 7 ? n : 1 + (int)((s >> 50) % 16);
        bool finite = run % 2 == 0; /* half the runs: finite numbers only, so that points and frames are drawn */
        for (int k = 0; k < 16; k++) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            int kind = finite ? 3 - (int)(s >> 63) * 3 : (int)(s >> 61);
            double magnitude = pow(10, (double)((int)((s >> 20) % 601) - 300)) * ((s >> 40) & 1 ? -1 : 1);
            if ((s >> 10) % 4 == 0) /* and numbers of one scale, as most answers are */
                magnitude = ((double)((s >> 11) % 2001) - 1000) / 100;
            double v = kind == 0 ? 0 : kind == 1 ? NAN : kind == 2 ? ((s >> 30) & 1 ? INFINITY : -INFINITY) : magnitude;
            r.got[k] = v, r.want[k] = kind == 3 ? v * 1.5 : magnitude;
        }
        canvas c = {0};
        lab_diag d = {0};
        assert_int_equal(grade_failing_picture(run % 24, &x, &r, &c, &d), LAB_OK);
        if (c.text_outside)
            fail_msg("run %d (shape %d): a label does not fit: \"%s\"", run, (int)x.shape, c.first_outside);
        drawn += c.width > 0;
        places += x.shape != GRADE_VALUES && finite && r.failed_got == r.failed_want;
        canvas_free(&c);
    }
    assert_int_equal(drawn, 1200);
    printf("  1200 failing cases drawn, %d of them as points or frames, every label inside\n", places);
}

/* The child runs under the limits grade_limits_default states: 4 GiB of address space
 * (not under AddressSanitizer, which reserves terabytes), 1,024 processes, no core file. */
static void test_grade_sandbox_sets_its_limits(void **state)
{
    (void)state;
    grade_limits limits = grade_limits_default(2);
    limits_record *r = (limits_record *)grade_shared_new(sizeof *r);
    assert_non_null(r);
    static grade_end end;
    job_kind kind = REPORTS_LIMITS;
    assert_int_equal(grade_sandbox_run("a job", &limits, job, &kind, &r->head, &end, NULL), LAB_OK);
    assert_int_equal(r->head.phase, 1);
    if (!TU_SANITIZED) {
        assert_true(r->address_space.rlim_cur == (rlim_t)4 << 30);
        assert_true(r->address_space.rlim_max == (rlim_t)4 << 30);
    }
    assert_true(r->processes.rlim_cur <= 1024);
    assert_true(r->core.rlim_cur == 0);
    grade_shared_free(&r->head, sizeof *r);
}

/* The system-call filter, for an ordinary user as for root: the call is stopped before it
 * runs (the parent lives, no file is written) and named; a signal to itself still crashes it. */
static void test_grade_sandbox_filter_names_the_call(void **state)
{
    (void)state;
    const struct { job_kind kind; grade_ending ending; const char *words; } runs[] = {
        {KILLS_PARENT, GRADE_ENDED_FORBIDDEN, "it called kill"}, {LEAVES_SESSION, GRADE_ENDED_FORBIDDEN, "it called setsid"},
        {WRITES_FILE, GRADE_ENDED_FORBIDDEN, "it called openat"}, {RUNS_PROGRAM, GRADE_ENDED_FORBIDDEN, "it called execve"},
        {SETS_LIMIT, GRADE_ENDED_FORBIDDEN, "it called prlimit64"}, {ABORTS, GRADE_ENDED_CRASHED, "SIGABRT"},
    };
    grade_limits limits = grade_limits_default(2);
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        grade_shared_head *s = grade_shared_new(sizeof *s);
        static grade_end end;
        assert_int_equal(grade_sandbox_run("a job", &limits, job, (void *)&runs[i].kind, s, &end, NULL), LAB_OK);
        char words[200];
        grade_ending how = grade_ended(s, &end, "sheet.c", words, sizeof words);
        printf("  job %d: %s\n", (int)runs[i].kind, words);
        assert_int_equal(how, runs[i].ending);
        assert_non_null(strstr(words, runs[i].words));
        grade_shared_free(s, sizeof *s);
    }
    assert_false(tu_exists("grade-test-written"));
}

/* Every hostile job as an ordinary user (nobody, where this suite runs as root: it says so
 * otherwise), who shares the grader's uid, so that only the deadline, the group's kill, the
 * process limit and the filter hold it: each ends as it does for root, the grader lives,
 * and nothing of the job is left. Each job's result is a byte of the grader's exit code's
 * story: the index of the first job that ended otherwise, plus 1 (0: all as expected). */
static const struct { job_kind kind; grade_ending ending; } ordinary_runs[] = {
    {LOOPS, GRADE_ENDED_TOO_SLOW},           {CANCELS_ALARMS, GRADE_ENDED_TOO_SLOW},
    {FORK_BOMB, GRADE_ENDED_FORBIDDEN},      {EXITS, GRADE_ENDED_CRASHED},
    {SEGFAULTS, GRADE_ENDED_CRASHED},        {KILLS_PARENT, GRADE_ENDED_FORBIDDEN},
    {LEAVES_SESSION, GRADE_ENDED_FORBIDDEN}, {WRITES_FILE, GRADE_ENDED_FORBIDDEN},
    {RUNS_PROGRAM, GRADE_ENDED_FORBIDDEN},   {SETS_LIMIT, GRADE_ENDED_FORBIDDEN},
    {ABORTS, GRADE_ENDED_CRASHED},
};

/* The grader of ordinary_runs, as the ordinary user: 0, or the first job that ended
 * otherwise plus 1, or 100 where a job could not be run. */
static int grade_the_ordinary_runs(void *unused)
{
    (void)unused;
    grade_limits limits = grade_limits_default(0.5);
    limits.processes = 64;
    for (size_t i = 0; i < sizeof ordinary_runs / sizeof ordinary_runs[0]; i++) {
        grade_shared_head *s = grade_shared_new(sizeof *s);
        static grade_end end;
        if (!s || grade_sandbox_run("a job", &limits, job, (void *)&ordinary_runs[i].kind, s, &end, NULL) != LAB_OK)
            return 100;
        char words[200];
        if (grade_ended(s, &end, "sheet.c", words, sizeof words) != ordinary_runs[i].ending || kill(-s->leader, 0) == 0)
            return (int)i + 1;
        grade_shared_free(s, sizeof *s);
    }
    return 0;
}

static void test_grade_sandbox_holds_for_an_ordinary_user(void **state)
{
    (void)state;
    int runs = (int)(sizeof ordinary_runs / sizeof ordinary_runs[0]);
    int status = tu_run_as_ordinary_user(grade_the_ordinary_runs, NULL);
    assert_int_not_equal(status, -1);
    if (WIFEXITED(status) && WEXITSTATUS(status) == TU_NOT_ORDINARY) {
        printf("  not run: this suite could not become an ordinary user (nobody)\n");
        return;
    }
    if (WIFSIGNALED(status))
        fail_msg("the student's code ended the grader (%s)", strsignal(WTERMSIG(status)));
    if (WIFEXITED(status) && WEXITSTATUS(status) > 0 && WEXITSTATUS(status) <= runs)
        fail_msg("as an ordinary user, job %d ended otherwise than as root", (int)ordinary_runs[WEXITSTATUS(status) - 1].kind);
    printf("  as uid %d: %d hostile jobs each ended as for root, the grader alive, nothing left\n", tu_ordinary_uid(), runs);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_false(tu_exists("grade-test-written"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grade_arrays_copy_compare_and_name),
        cmocka_unit_test(test_grade_arrays_name_the_array_an_index_lands_in),
        cmocka_unit_test(test_grade_build_any_name_and_the_first_error),
        cmocka_unit_test(test_grade_build_by_content_not_by_time),
        cmocka_unit_test(test_grade_build_stops_a_compiler_that_runs_away),
        cmocka_unit_test(test_grade_sandbox_ends_every_child_as_it_says),
        cmocka_unit_test(test_grade_failing_picture_fits_every_answer),
        cmocka_unit_test(test_grade_sandbox_filter_names_the_call),
        cmocka_unit_test(test_grade_sandbox_sets_its_limits),
        cmocka_unit_test(test_grade_sandbox_holds_for_an_ordinary_user),
    };
    return cmocka_run_group_tests_name("the grader engine", tests, NULL, NULL);
}
