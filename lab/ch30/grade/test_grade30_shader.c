/* test_grade30_shader.c - exercise 22, the skinning shader, on this machine's EGL/GLES
 * (Mesa's llvmpipe here and in CI): the shipped sheet is "not written yet"; the reference
 * is correct on every path; three wrong shaders are wrong, each named by its mistake; a
 * shader that does not compile comes back with the driver's log on the student's own
 * lines; and where no EGL vendor can be loaded the verdict is "not graded here", never
 * "correct". Where this machine has no EGL display at all, the GPU cases say so and are
 * counted as skipped. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_all.h"
#include "testutil.h"

#include "grade30.h"

#define REFERENCE "lab/ch30/grade/solutions/reference.glsl"

static char dir[64];

static grade_result grade(const char *path)
{
    grade_result r;
    grade30_picture_data picture;
    lab_diag d = {0};
    assert_int_equal(grade30_shader_run(path, 30, &r, &picture, &d), LAB_OK);
    grade30_print(GRADE30_SHADER, &r, stdout);
    return r;
}

/* The reference with one line replaced (from -> to), as a student's file. */
static const char *variant(const char *name, const char *from, const char *to)
{
    static char path[128];
    char *text = tu_read_file(REFERENCE, NULL), *at = text ? strstr(text, from) : NULL;
    assert_non_null(at);
    size_t size = strlen(text) + strlen(to) + 1;
    char *out = malloc(size);
    assert_non_null(out);
    snprintf(out, size, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    snprintf(path, sizeof path, "%s/%s", dir, name);
    assert_true(tu_write_file(path, out));
    free(text), free(out);
    return path;
}

static void skip_without_egl(const grade_result *r)
{
    if (r->verdict == GRADE_NOT_GRADED) {
        fprintf(stderr, "no EGL here (%s): the shader exercise is not graded\n", r->detail);
        skip();
    }
}

static void test_grade30_shader_shipped_is_not_written(void **state)
{
    (void)state;
    assert_int_equal(grade("lab/ch30/sheets/shader.glsl").verdict, GRADE_NOT_WRITTEN);
}

static void test_grade30_shader_reference_and_three_mistakes(void **state)
{
    (void)state;
    grade_result r = grade(REFERENCE);
    skip_without_egl(&r);
    assert_int_equal(r.verdict, GRADE_CORRECT);
    assert_int_equal(r.cases, grade30_exercises[GRADE30_SHADER]->named);
    const struct { const char *name, *from, *to; int mistake; } wrong[] = {
        {"no-implied.glsl", "1.0 - ((stored_weights.x + stored_weights.y) + stored_weights.z)", "0.0", 0},
        {"direction.glsl", "vec4 p1 = vec4(p, 1.0);", "vec4 p1 = vec4(p, 0.0);", 1},
        {"not-unit.glsl", "out_n = normalize(vec3(dot(m0.xyz, n), dot(m1.xyz, n), dot(m2.xyz, n)));",
         "out_n = vec3(dot(m0.xyz, n), dot(m1.xyz, n), dot(m2.xyz, n));", 2},
    };
    for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++) {
        r = grade(variant(wrong[i].name, wrong[i].from, wrong[i].to));
        assert_int_equal(r.verdict, GRADE_WRONG);
        assert_int_equal(r.mistake, wrong[i].mistake);
        assert_true(r.failed > 0 && r.computed[0] && r.expected[0]);
    }
    /* a wrong shader exercise 22 has no name for: wrong, no name */
    r = grade(variant("half.glsl", "out_p = vec3(dot(m0, p1), dot(m1, p1), dot(m2, p1));",
                      "out_p = 0.5 * vec3(dot(m0, p1), dot(m1, p1), dot(m2, p1));"));
    assert_int_equal(r.verdict, GRADE_WRONG);
    assert_int_equal(r.mistake, -1);
}

static void test_grade30_shader_compile_errors_name_the_students_lines(void **state)
{
    (void)state;
    const char *path = variant("broken.glsl", "m1 += w[i]", "m1 += undeclared_weight[i]");
    grade_result r = grade(path);
    skip_without_egl(&r);
    assert_int_equal(r.verdict, GRADE_WRONG);
    /* the replaced line is line 10 of the file */
    if (!strstr(r.detail, "broken.glsl:10:") || !strstr(r.detail, "undeclared_weight"))
        fail_msg("the driver's log, on the file's lines: %s", r.detail);
}

static void test_grade30_shader_without_egl_is_not_graded(void **state)
{
    (void)state;
    /* glvnd with no vendor library: no EGL display can be had */
    const char *saved = getenv("__EGL_VENDOR_LIBRARY_FILENAMES");
    char *keep = saved ? strdup(saved) : NULL;
    setenv("__EGL_VENDOR_LIBRARY_FILENAMES", "/nonexistent/vendor.json", 1);
    setenv("__EGL_VENDOR_LIBRARY_DIRS", "/nonexistent", 1);
    grade_result r = grade(REFERENCE);
    if (keep)
        setenv("__EGL_VENDOR_LIBRARY_FILENAMES", keep, 1), free(keep);
    else
        unsetenv("__EGL_VENDOR_LIBRARY_FILENAMES");
    unsetenv("__EGL_VENDOR_LIBRARY_DIRS");
    assert_int_equal(r.verdict, GRADE_NOT_GRADED);
    assert_non_null(strstr(r.detail, "no EGL display"));
    assert_string_equal(grade_verdict_name(r.verdict), "not graded here");
}

static int make_dir(void **state)
{
    (void)state;
    return tu_make_temp_dir(dir, sizeof dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
    (void)state;
    tu_remove_tree(dir);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grade30_shader_shipped_is_not_written),
        cmocka_unit_test(test_grade30_shader_reference_and_three_mistakes),
        cmocka_unit_test(test_grade30_shader_compile_errors_name_the_students_lines),
        cmocka_unit_test(test_grade30_shader_without_egl_is_not_graded),
    };
    return cmocka_run_group_tests_name("the shader exercise", tests, make_dir, remove_dir);
}
