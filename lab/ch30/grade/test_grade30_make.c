/* test_grade30_make.c - the grader as a student meets it: make grade30 on the shipped
 * sheets, one sheet, a sheet that is not one, a file graded as its own sheet, every sheet's reference and a second solution in other forms, the page's
 * example, a file with a warning and a NaN, a file that reads past an array and a file that
 * does not compile exits and writes as the grader's page says. The limits through the
 * child: test_grade30_limits.c; the verdicts themselves: test_grade30.c. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmocka_all.h"
#include "testutil.h"

#include "exercises30.h"
#include "grade30.h"

/* ---- make grade30 as a student runs it ------------------------------------------------- */

static int make_grade_sheet(const char *sheet, const char *exercises, const char *dir, const char *log)
{
    char command[1024];
    snprintf(command, sizeof command, "make -s --no-print-directory " LAB_MAKE_VARIABLES " grade30 GRADE_DIR=%s%s%s%s%s",
             dir, sheet ? " SHEET=" : "", sheet ? sheet : "", exercises ? " EXERCISES=" : "", exercises ? exercises : "");
    char *argv[] = {"/bin/sh", "-c", command, NULL};
    return tu_run(argv, log, log);
}

/* The chapter's own sheet (exercises 1 to 7), as the file given. */
static int make_grade(const char *exercises, const char *dir, const char *log)
{
    return make_grade_sheet(exercises ? "lab30" : NULL, exercises, dir, log);
}

/* The grader linked in dir (by an earlier make_grade there) on every sheet as shipped but
 * lab/ch30/exercises.c, which is the file at `exercises`: run in a tree of dir's own whose
 * every other file is a link to the lab's (src/, assets/, lab/ch30/'s). */
static int grade_every_sheet_with(const char *exercises, const char *dir, const char *log)
{
    char cwd[512], command[4096];
    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(command, sizeof command,
             "set -e; root='%s/tree'; rm -rf \"$root\"; mkdir -p \"$root/lab/ch30\"; ln -s '%s/src' \"$root/src\"; ln -s '%s/assets' \"$root/assets\"; "
             "for f in '%s'/lab/ch30/*; do ln -s \"$f\" \"$root/lab/ch30/\"; done; rm \"$root/lab/ch30/exercises.c\"; "
             "cp '%s' \"$root/lab/ch30/exercises.c\"; mkdir -p '%s/out'; cd \"$root\"; set +e; "
             "'%s/grade30' --cc \"$(cat '%s/grade30.flags')\" '%s/out'",
             dir, cwd, cwd, cwd, exercises, dir, dir, dir, dir);
    char *argv[] = {"/bin/sh", "-c", command, NULL};
    return tu_run(argv, log, log);
}

static int count(const char *text, const char *what)
{
    int n = 0;
    for (const char *at = strstr(text, what); at; at = strstr(at + 1, what))
        n++;
    return n;
}

/* The reference with one body replaced, as a student's file, at path. */
static void sheet_from(char *path, size_t size, const char *dir, const char *reference, const char *name,
                       const char *rename, const char *body)
{
    char *text = malloc(4096);
    assert_non_null(text);
    snprintf(path, size, "%s/%s", dir, name);
    snprintf(text, 4096, "#define %s reference_version\n#include \"%s/lab/ch30/grade/solutions/%s\"\n#undef %s\n%s",
             rename, getcwd((char[512]){0}, 512), reference, rename, body);
    assert_true(tu_write_file(path, text));
    free(text);
}
static void sheet_with(char *path, size_t size, const char *dir, const char *name, const char *rename, const char *body)
{
    sheet_from(path, size, dir, "reference.c", name, rename, body);
}

static void test_grade30_make_grade30_as_a_student_runs_it(void **state)
{
    (void)state;
    char dir[64];
    assert_non_null(tu_make_temp_dir(dir, sizeof dir));
    char log[128], nan_sheet[128], past[128];
    snprintf(log, sizeof log, "%s/grade.log", dir);

    /* the shipped sheets: every exercise of every sheet not written yet, the outputs written
     * all the same, a line a sheet */
    assert_int_not_equal(make_grade(NULL, dir, log), 0);
    char *text = tu_read_file(log, NULL);
    assert_non_null(text);
    assert_int_equal(count(text, ": not written yet"), GRADE30_EXERCISE_COUNT);
    char line[96];
    snprintf(line, sizeof line, "0 of %d exercises correct", GRADE30_EXERCISE_COUNT);
    assert_non_null(strstr(text, line));
    for (int s = 0; s < GRADE30_SHEET_COUNT; s++) {
        snprintf(line, sizeof line, "sheet %-8s 0 of %d correct", grade30_sheets[s].name, grade30_sheet_exercises(s, &(int){0}));
        if (!strstr(text, line))
            fail_msg("no line \"%s\" in:\n%s", line, text);
    }
    free(text);
    assert_int_equal(access(tu_path(dir, "grade30.png"), F_OK), 0);

    /* one sheet: its exercises alone; a sheet that is not one: exit 2, naming the sheets */
    assert_int_not_equal(make_grade_sheet("dqs", NULL, dir, log), 0);
    text = tu_read_file(log, NULL);
    assert_int_equal(count(text, ": not written yet"), grade30_sheet_exercises(GRADE30_SHEET_DQS, &(int){0}));
    assert_non_null(strstr(text, "0 of 5 exercises correct"));
    free(text);
    assert_int_equal(make_grade_sheet("dq", NULL, dir, log), 2);
    text = tu_read_file(log, NULL);
    assert_non_null(strstr(text, "no sheet \"dq\""));
    assert_non_null(strstr(text, "skeleton"));
    free(text);

    /* every sheet's reference, and a second solution in other forms: exit 0 */
    static const char *const sheets[] = {"skeleton", "dqs", "normals", "palette", "weights", "fixes"};
    for (size_t s = 0; s < sizeof sheets / sizeof sheets[0]; s++)
        for (int second = 0; second < 2; second++) {
            char path[128];
            snprintf(path, sizeof path, "lab/ch30/grade/solutions/%s_%s.c", second ? "alternative" : "reference", sheets[s]);
            if (make_grade_sheet(sheets[s], path, dir, log) != 0) {
                text = tu_read_file(log, NULL);
                printf("%s", text ? text : "");
                free(text);
                fail_msg("%s is not graded correct", path);
            }
        }

    /* the reference: exit 0, every record passed */
    assert_int_equal(make_grade("lab/ch30/grade/solutions/reference.c", dir, log), 0);
    text = tu_read_file(log, NULL);
    assert_non_null(strstr(text, "7 of 7 exercises correct"));
    free(text);
    cJSON *records = tu_json_load(tu_path(dir, "grade30-checks.json"));
    assert_non_null(records);
    assert_near(tu_json_num(records, "checks_passed"), grade30_sheet_exercises(GRADE30_SHEET_LAB30, &(int){0}), 0);
    cJSON_Delete(records);

    /* a second correct solution in other algebraic forms */
    assert_int_equal(make_grade("lab/ch30/grade/solutions/alternative.c", dir, log), 0);

    /* the page's worked example: its verdict and its picture, pixel for pixel */
    assert_int_not_equal(make_grade("lab/ch30/grade/solutions/example.c", dir, log), 0);
    text = tu_read_file(log, NULL);
    assert_non_null(strstr(text, "6 of 7 exercises correct"));
    assert_non_null(strstr(text, "the known mistake: a missing inverse bind"));
    free(text);
    records = tu_json_load(tu_path(dir, "grade30-checks.json"));
    assert_non_null(records);
    cJSON *second = cJSON_GetArrayItem(tu_json_get(records, "checks"), GRADE30_SKIN_MATRIX);
    assert_string_equal(cJSON_GetStringValue(tu_json_get(second, "verdict")), "FAIL");
    assert_near(tu_json_num(second, "computed"), 2, 0); /* the bind pose moved 2 up its axis */
    assert_near(tu_json_num(records, "checks_failed"), 1, 0);
    cJSON_Delete(records);
    if (!tu_same_pixels(tu_path(dir, "grade30-2.png"), "lab/ch30/grade/example.png"))
        fail_msg("%s differs from lab/ch30/grade/example.png: run make grade30 "
                 "EXERCISES=lab/ch30/grade/solutions/example.c and copy build/grade30/grade30-2.png there",
                 tu_path(dir, "grade30-2.png"));

    /* a warning is shown, not fatal; a NaN answer is a wrong answer, the records written */
    sheet_with(nan_sheet, sizeof nan_sheet, dir, "nan.c", "ex30_ring_radius_ratio",
               "double ex30_ring_radius_ratio(double w, double theta)\n"
               "{ int unused; (void)w, (void)theta; return NAN; }\n");
    assert_int_not_equal(make_grade(nan_sheet, dir, log), 0);
    text = tu_read_file(log, NULL);
    assert_non_null(strstr(text, "unused"));   /* the compiler's warning */
    assert_non_null(strstr(text, "computed: nan"));
    assert_non_null(strstr(text, "6 of 7 exercises correct"));
    assert_null(strstr(text, "does not compile"));
    free(text);
    records = tu_json_load(tu_path(dir, "grade30-checks.json"));
    assert_non_null(records);
    cJSON *fourth = cJSON_GetArrayItem(tu_json_get(records, "checks"), GRADE30_RING_RADIUS);
    assert_true(cJSON_IsNull(tu_json_get(fourth, "computed"))); /* NaN as null, never a stale file */
    assert_near(tu_json_num(records, "checks_failed"), 1, 0);
    cJSON_Delete(records);

    /* a read past the arrays: the sanitizer's verdict, with the array, the file and the line */
    sheet_with(past, sizeof past, dir, "past.c", "ex30_lbs_point",
                                  "vec3 ex30_lbs_point(vec3 p, const int *joint, const double *weight, int k,\n"
                                  "                    const mat4 *palette)\n"
                                  "{\n"
                                  "    vec4 sum = {0, 0, 0, 0};\n"
                                  "    for (int i = 0; i <= k; i++)\n"
                                  "        sum = vec4_add(sum, vec4_scale(mat4_mul_vec4(palette[joint[i] & 1], vec4_point(p)), weight[i]));\n"
                                  "    return vec3_make(sum.x, sum.y, sum.z);\n"
                                  "}\n");
    assert_int_not_equal(make_grade(past, dir, log), 0);
    text = tu_read_file(log, NULL);
    printf("%s", text);
    if (!strstr(text, "could not build")) { /* a compiler without the sanitizers says so instead */
        assert_non_null(strstr(text, "undefined behaviour"));
        /* the compiler may read weight[i] before joint[i]: either is named, at its line */
        assert_true(strstr(text, "reads joint[2], past the 2 influences") ||
                    strstr(text, "reads weight[2], past the 2 weights"));
        assert_non_null(strstr(text, "past.c:9")); /* the body's line 6, after the three lines above it */
    }
    free(text);

    /* any file name: spaces, quotes, backquotes and a newline reach the compiler as one
     * argument, and nothing of the name runs (make, from an argument vector, no shell here) */
    char odd[256];
    snprintf(odd, sizeof odd, "%s/my 'odd' `touch grade30-ran` \"name\"\nline.c", dir);
    char *reference = tu_read_file("lab/ch30/grade/solutions/reference.c", NULL);
    assert_non_null(reference);
    assert_true(tu_write_file(odd, reference));
    free(reference);
    {
        char variables[] = LAB_MAKE_VARIABLES, exercises[300], grade_dir[128], *argv[16] = {"/usr/bin/make", "-s", "--no-print-directory"};
        int n = 3;
        for (char *w = strtok(variables, " "); w && n < 10; w = strtok(NULL, " "))
            argv[n++] = w;
        snprintf(exercises, sizeof exercises, "EXERCISES=%s", odd);
        snprintf(grade_dir, sizeof grade_dir, "GRADE_DIR=%s", dir);
        argv[n++] = "grade30", argv[n++] = "SHEET=lab30", argv[n++] = exercises, argv[n++] = grade_dir, argv[n] = NULL;
        assert_int_equal(tu_run(argv, log, log), 0);
        text = tu_read_file(log, NULL);
        assert_non_null(strstr(text, "7 of 7 exercises correct"));
        free(text);
        assert_false(tu_exists("grade30-ran")); /* where make and the grader run */
    }

    /* an allocation past what the sanitizer's allocator can give: out of memory, in words,
     * never "reads memory at 0" */
    char huge[128];
    sheet_with(huge, sizeof huge, dir, "huge.c", "ex30_ring_radius_ratio",
               "double ex30_ring_radius_ratio(double w, double theta)\n"
               "{ volatile char *p = malloc((size_t)1 << 44); return p ? p[0] + w + theta : -1; }\n");
    assert_int_not_equal(make_grade(huge, dir, log), 0);
    text = tu_read_file(log, NULL);
    if (!strstr(text, "could not build")) {
        assert_non_null(strstr(text, "it ran out of memory"));
        assert_null(strstr(text, "outside every array"));
    }
    free(text);

    /* a write past *out, a heap allocation of exactly one dual quaternion: the sanitizer's
     * verdict, naming out[1] */
    char past_out[128];
    sheet_from(past_out, sizeof past_out, dir, "reference_dqs.c", "past_out.c", "ex30_dq_normalize",
               "bool ex30_dq_normalize(dualquat b, dualquat *out)\n"
               "{\n"
               "    bool r = reference_version(b, out);\n"
               "    out[1] = out[0];\n"
               "    return r;\n"
               "}\n");
    assert_int_not_equal(make_grade_sheet("dqs", past_out, dir, log), 0);
    text = tu_read_file(log, NULL);
    if (!strstr(text, "could not build")) {
        assert_non_null(strstr(text, "12. the normalisation b / |b_0|, refused at a zero norm: undefined behaviour"));
        assert_non_null(strstr(text, "writes out[1], past the 1"));
    }
    free(text);

    /* a file that does not compile: each of its exercises "does not compile", with the
     * compiler's first error as file:line in plain ASCII; exit 1 */
    char bad[128];
    snprintf(bad, sizeof bad, "%s/broken.c", dir);
    assert_true(tu_write_file(bad, "#include \"exercises30.h\"\nmat4 ex30_world_matrix(mat4 a, mat4 b) { return a * b; }\n"));
    assert_int_not_equal(make_grade(bad, dir, log), 0);
    text = tu_read_file(log, NULL);
    assert_int_equal(count(text, ": does not compile"), grade30_sheet_exercises(GRADE30_SHEET_LAB30, &(int){0}));
    char first[160];
    snprintf(first, sizeof first, "the compiler's first error: %s:2:", bad);
    if (!strstr(text, first))
        fail_msg("no \"%s\" in:\n%s", first, text);
    for (const unsigned char *c = (const unsigned char *)text; *c; c++)
        if (*c >= 0x80) /* gcc's curly quotes in a UTF-8 locale: the grader's are plain */
            fail_msg("a byte that is not ASCII in the grader's output, at %d", (int)(c - (const unsigned char *)text));
    free(text);

    /* one sheet that does not compile leaves every other sheet graded: the grader make just
     * linked, run as make runs it, in a tree whose lab/ch30/exercises.c is that file (every
     * other file the lab's own, linked) */
    assert_int_not_equal(grade_every_sheet_with(bad, dir, log), 0);
    text = tu_read_file(log, NULL);
    assert_int_equal(count(text, ": does not compile"), grade30_sheet_exercises(GRADE30_SHEET_LAB30, &(int){0}));
    assert_int_equal(count(text, ": not written yet"), GRADE30_EXERCISE_COUNT - grade30_sheet_exercises(GRADE30_SHEET_LAB30, &(int){0}));
    free(text);

    /* M_PI in a sheet: the sheets' header defines it where the C standard does not */
    char pi[128];
    sheet_with(pi, sizeof pi, dir, "pi.c", "ex30_ring_radius_ratio",
               "double ex30_ring_radius_ratio(double w, double theta)\n"
               "{ double s = sin(fmod(theta, 2 * M_PI) / 2); return sqrt(fmax(0, 1 - 4 * w * (1 - w) * s * s)); }\n");
    assert_int_equal(make_grade(pi, dir, log), 0);

    /* a sheet that compiles but names a function otherwise: that exercise alone */
    char renamed[128];
    sheet_with(renamed, sizeof renamed, dir, "renamed.c", "ex30_normal_matrix", "");
    assert_int_not_equal(make_grade(renamed, dir, log), 0);
    text = tu_read_file(log, NULL);
    assert_non_null(strstr(text, "the sheet has no function ex30_normal_matrix"));
    assert_non_null(strstr(text, "6 of 7 exercises correct"));
    free(text);
    tu_remove_tree(dir);
}

/* A file given alone (EXERCISES, no SHEET) is graded as its own sheet, alone: by its name
 * (a sheet's file name), by its extension (the shader's), else by the exercises' functions
 * it defines; a file of no sheet's functions as the chapter's own sheet (one sheet's
 * summary line, "... correct  (", each time). */
static void test_grade30_make_grades_a_file_as_its_own_sheet(void **state)
{
    (void)state;
    char dir[64], log[128], path[160];
    assert_non_null(tu_make_temp_dir(dir, sizeof dir));
    snprintf(log, sizeof log, "%s/grade.log", dir);
    static const struct { const char *from, *name, *sheet; int exit; } files[] = {
        {"reference_dqs.c", "mine.c", "sheet dqs (", 0},         /* by its functions */
        {"alternative_fixes.c", "fixes.c", "sheet fixes (", 0},  /* by its name */
        {"reference_skeleton.c", "dqs.c", "sheet dqs (", 1},     /* the name decides: not dqs's functions */
        {"reference.c", "attempt.c", "sheet lab30 (", 0},
        {NULL, "nothing.c", "sheet lab30 (", 1},                  /* no sheet's function: the chapter's own */
        {"reference.glsl", "my.glsl", "sheet shader (", -1},      /* by its extension (graded where EGL is) */
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i].name);
        char source[160], *text = NULL;
        if (files[i].from) {
            snprintf(source, sizeof source, "lab/ch30/grade/solutions/%s", files[i].from);
            text = tu_read_file(source, NULL);
        }
        assert_true(tu_write_file(path, text ? text : "int nothing_here;\n"));
        free(text);
        int code = make_grade_sheet(NULL, path, dir, log);
        text = tu_read_file(log, NULL);
        if (!strstr(text, files[i].sheet) || count(text, " correct  (") != 1 ||
            (files[i].exit >= 0 && (code == 0) != (files[i].exit == 0)))
            fail_msg("%s (from %s): make exited %d, expected %s alone:\n%s", files[i].name,
                     files[i].from ? files[i].from : "nothing", code, files[i].sheet, text);
        free(text);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grade30_make_grade30_as_a_student_runs_it),
        cmocka_unit_test(test_grade30_make_grades_a_file_as_its_own_sheet),
    };
    return cmocka_run_group_tests_name("the grader as a student runs it", tests, NULL, NULL);
}
