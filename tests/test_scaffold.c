/* test_scaffold.c - a new chapter is one folder and one line: in a copy of the tree,
 * `make new-chapter N=99` and the word ch99 added to lab/chapters.mk give a chapter that
 * builds, runs, is listed by make help, grades the template's exercise (make grade99: the
 * shipped sheet not written yet, the reference correct), and passes its own tests and the
 * program, fault, sweep and docs suites, with no other file edited (tests/scaffold-check.sh). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_all.h"
#include "testutil.h"

static void test_scaffold_a_new_chapter_is_one_folder_and_one_line(void **state)
{
    (void)state;
    char build[256], log[64];
    snprintf(build, sizeof build, "%s", LAB_BIN_DIR);
    *strrchr(build, '/') = '\0'; /* "build/bin" -> "build" */
    assert_non_null(tu_make_temp_dir(log, sizeof log));
    char *argv[] = {"/bin/sh", "tests/scaffold-check.sh", "99", build, LAB_MAKE_VARIABLES, NULL};
    const char *out = tu_path(log, "scaffold.log");
    int rc = tu_run(argv, out, out);
    char *text = tu_read_file(out, NULL);
    printf("%s", text ? text : "");
    if (rc != 0)
        fail_msg("tests/scaffold-check.sh exited %d", rc);
    /* the registration is the one line changed outside the new chapter's folders (a diff
     * shows it as the line removed and the line added) */
    assert_non_null(text);
    assert_non_null(strstr(text, "lines changed outside lab/ch99 and out/ch99: 2\n"));
    assert_non_null(strstr(text, "> CHAPTERS := ch30 ch99"));
    assert_non_null(strstr(text, "scaffold: make grade99 graded the template's exercise: 1 of 1 exercises correct"));
    free(text);
    tu_remove_tree(log);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scaffold_a_new_chapter_is_one_folder_and_one_line),
    };
    return cmocka_run_group_tests_name("the chapter scaffold", tests, NULL, NULL);
}
