/* test_grade30_sandbox.c - a sheet's own code never runs in the grader: each sheet is built
 * into a shared object of its own (src/grade/build.h) that only the grading child opens, so
 * a constructor that ends the process or loops is that exercise's verdict ("while its sheet
 * was opened"), functions named like the C library's (kill, waitpid, fork) stay the sheet's
 * own: the grader's calls never reach them, and once the sheet is open it opens no file.
 * The sheets here call nothing of the lab,
 * so that this suite's program, which exports none of its symbols, can open them. */
#define _GNU_SOURCE /* strsignal */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmocka_all.h"
#include "testutil.h"

#include "grade/build.h"
#include "grade/grader.h"
#include "grade30.h"

#define SEED 30

/* The ring radius, correct, written from the header alone. */
#define RADIUS                                                                                                   \
    "#include <math.h>\n"                                                                                        \
    "double ex30_ring_radius_ratio(double w, double theta);\n"                                                   \
    "double ex30_ring_radius_ratio(double w, double theta)\n"                                                    \
    "{ double s = sin(theta / 2); return sqrt(fmax(0, 1 - 4 * w * (1 - w) * s * s)); }\n"

/* The sheet `text` built, and exercise 4 graded from its object within 0.5 s; false when it
 * could not be built or graded (no assertion: the ordinary user's copy runs it too). */
static bool grade_sheet_file(const char *dir, const char *name, const char *text, grade_result *r)
{
    char path[256], objects[256];
    snprintf(path, sizeof path, "%s/%s.c", dir, name);
    snprintf(objects, sizeof objects, "%s/obj", dir);
    static grade_build b;
    grade_build_result built;
    lab_diag d = {0};
    if (!tu_write_file(path, text) ||
        grade_build_shared(&(grade_build_request){"cc -std=c11 -O1", path, objects, name, NULL, 60}, &b, &built, &d) !=
            LAB_OK ||
        built != GRADE_BUILD_OK)
        return false;
    if (grade_exercise_run(&grade30_chapter, GRADE30_RING_RADIUS, (grade_code){NULL, b.object}, path, SEED, 0.5, r, NULL,
                           &d) != LAB_OK)
        return false;
    grade30_print(GRADE30_RING_RADIUS, r, stdout);
    return true;
}

/* The sheets and their verdicts, with words in the verdict's detail. */
static const struct { const char *name, *text; grade_verdict verdict; const char *words; } sheets[] = {
    /* a constructor runs only in the child: an exit or a loop there is the verdict */
    {"leaves", RADIUS "#include <stdlib.h>\n__attribute__((constructor)) static void leave(void) { exit(0); }\n",
     GRADE_CRASHED, "while its sheet was opened"},
    {"spins", RADIUS "__attribute__((constructor)) static void spin(void) { for (volatile int i = 1; i;) {} }\n",
     GRADE_TOO_SLOW, "while its sheet was opened: over 0.5 s"},
    /* names of the C library's defined in the sheet never reach the grader's own calls */
    {"shadows",
     RADIUS "int kill(int pid, int sig);\n"
            "int kill(int pid, int sig) { (void)pid, (void)sig; for (;;) {} }\n"
            "int waitpid(int pid, int *status, int options);\n"
            "int waitpid(int pid, int *status, int options) { (void)pid, (void)status, (void)options; for (;;) {} }\n"
            "int fork(void);\n"
            "int fork(void) { for (;;) {} }\n",
     GRADE_CORRECT, ""},
    /* once the sheet is open it opens no file, not even to read: wrong when it could */
    {"reads",
     "#include <math.h>\n#include <stdio.h>\n"
     "double ex30_ring_radius_ratio(double w, double theta);\n"
     "double ex30_ring_radius_ratio(double w, double theta)\n"
     "{ FILE *f = fopen(\"/etc/hostname\", \"r\"); if (f) return -1;\n"
     "  double s = sin(theta / 2); return sqrt(fmax(0, 1 - 4 * w * (1 - w) * s * s)); }\n",
     GRADE_CORRECT, ""},
    /* a sheet that kills whatever its uid may: the grader (as an ordinary user, its own) */
    {"kills",
     RADIUS "#include <signal.h>\n#include <unistd.h>\n"
            "__attribute__((constructor)) static void end_them(void) { kill(getppid(), SIGKILL); kill(-1, SIGKILL); }\n",
     GRADE_WRONG, "it called kill"},
};

/* Every sheet of the table graded in dir: 0, or the first that was not as the table says,
 * plus 1. */
static int grade_the_table(void *folder)
{
    const char *dir = folder;
    for (size_t i = 0; i < sizeof sheets / sizeof sheets[0]; i++) {
        grade_result r;
        if (!grade_sheet_file(dir, sheets[i].name, sheets[i].text, &r) || r.verdict != sheets[i].verdict ||
            !strstr(r.detail, sheets[i].words))
            return (int)i + 1;
    }
    return 0;
}

static void test_grade30_sandbox_the_sheet_stays_in_the_child(void **state)
{
    (void)state;
    char dir[64];
    assert_non_null(tu_make_temp_dir(dir, sizeof dir));
    int failed = grade_the_table(dir);
    if (failed)
        fail_msg("the sheet \"%s\" was not graded %s", sheets[failed - 1].name, grade_verdict_name(sheets[failed - 1].verdict));
    tu_remove_tree(dir);
}

/* The same sheets, built and graded by an ordinary user (nobody, where this suite runs as
 * root; it says so where it cannot become one), who shares the child's uid: the same
 * verdicts, and the grader lives. */
static void test_grade30_sandbox_as_an_ordinary_user(void **state)
{
    (void)state;
    char dir[64];
    assert_non_null(tu_make_temp_dir(dir, sizeof dir));
    assert_int_equal(chmod(dir, 0777), 0);
    int status = tu_run_as_ordinary_user(grade_the_table, dir);
    tu_remove_tree(dir);
    assert_int_not_equal(status, -1);
    if (WIFEXITED(status) && WEXITSTATUS(status) == TU_NOT_ORDINARY) {
        printf("  not run: this suite could not become an ordinary user (nobody)\n");
        return;
    }
    if (WIFSIGNALED(status))
        fail_msg("a sheet ended its grader (%s)", strsignal(WTERMSIG(status)));
    if (WEXITSTATUS(status) != 0)
        fail_msg("as an ordinary user, the sheet \"%s\" was not graded %s", sheets[WEXITSTATUS(status) - 1].name,
                 grade_verdict_name(sheets[WEXITSTATUS(status) - 1].verdict));
    printf("  as uid %d: every sheet graded as for root, the grader alive\n", tu_ordinary_uid());
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grade30_sandbox_the_sheet_stays_in_the_child),
        cmocka_unit_test(test_grade30_sandbox_as_an_ordinary_user),
    };
    return cmocka_run_group_tests_name("the sheet's code in the child alone", tests, NULL, NULL);
}
