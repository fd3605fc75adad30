/* test_view30_sheet.c - build/bin/view30 with the student's sheet (saved with a mistake,
 * fixed, broken, crashing and looping: the verdicts, the student's twist beside the lab's,
 * the window alive to the end; the headline mistakes drawn with their whole verdicts; two
 * quick saves; quit while grading). What the sheet draws: test_view30_yours.c; the window
 * under Xvfb: test_view30_xvfb.c. */
#define _XOPEN_SOURCE 700
#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmocka_all.h"
#include "testutil.h"

#include "base/diag.h"
#include "draw/figure.h"
#include "draw/raster.h"
#include "math/linalg.h"

#include "rig30.h"
#include "rig30_check.h"
#include "view30_frame.h"
#include "view30_scene.h"
#include "test_view30.h"

/* The shipped sheet (lab/ch30/exercises.c, nothing written yet) copied to dir/name, whose
 * path is written into path: the student's file as the window is given it. */
static void shipped_sheet_as(char *path, size_t size, const char *dir, const char *name)
{
    snprintf(path, size, "%s/%s", dir, name);
    char *shipped = tu_read_file("lab/ch30/exercises.c", NULL);
    assert_non_null(shipped);
    assert_true(tu_write_file(path, shipped));
    free(shipped);
}

/* A sheet saved with a mistake, then fixed, then broken, crashing and looping: the grader's
 * verdicts on stdout (and on screen), the student's twist beside the lab's, and the window
 * alive to the end. */
static void test_sheet_reloads(void **state)
{
    tu_run_dir *ctx = *state;
    if (!have_view())
        skip();
    char cwd[512], sheet[256], script[256], text[4096], files[5][256];
    assert_non_null(getcwd(cwd, sizeof cwd));
    const char *bodies[5] = {
        /* the weights left out: every influence at 1/2 */
        "#define ex30_lbs_point reference_version\n#include \"%s/lab/ch30/grade/solutions/reference.c\"\n#undef ex30_lbs_point\n"
        "vec3 ex30_lbs_point(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette)\n"
        "{ (void)weight; vec4 s = {0, 0, 0, 0}; for (int i = 0; i < k; i++) s = vec4_add(s, vec4_scale(mat4_mul_vec4(palette[joint[i]], vec4_point(p)), 0.5));"
        " return vec3_make(s.x, s.y, s.z); }\n",
        "#include \"%s/lab/ch30/grade/solutions/reference.c\"\n",
        "#include \"%s/lab/ch30/grade/solutions/reference.c\"\nint broken(void) { return undeclared_name; }\n",
        "#define ex30_lbs_point reference_version\n#include \"%s/lab/ch30/grade/solutions/reference.c\"\n#undef ex30_lbs_point\n"
        "vec3 ex30_lbs_point(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette)\n"
        "{ (void)p, (void)joint, (void)weight, (void)k, (void)palette; return *(volatile vec3 *)0; }\n",
        "#define ex30_lbs_point reference_version\n#include \"%s/lab/ch30/grade/solutions/reference.c\"\n#undef ex30_lbs_point\n"
        "vec3 ex30_lbs_point(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette)\n"
        "{ (void)joint, (void)weight, (void)k, (void)palette; for (volatile int s = 1; s;) {} return p; }\n"};
    for (int k = 0; k < 5; k++) {
        snprintf(files[k], sizeof files[k], "%s/v%d.c", ctx->dir, k);
        snprintf(text, sizeof text, bodies[k], cwd);
        assert_true(tu_write_file(files[k], text));
    }
    shipped_sheet_as(sheet, sizeof sheet, ctx->dir, "exercises.c");
    snprintf(script, sizeof script, "%s/script.txt", ctx->dir);
    snprintf(text, sizeof text,
             "graded\nkey Right\nwrite %s\ngraded\nwrite %s\ngraded\ndrag 85 0\nshot %s/right.png\nwrite %s\ngraded\nwrite %s\n"
             "graded\nwrite %s\ngraded\nquit\n",
             files[0], files[1], ctx->dir, files[2], files[3], files[4]);
    assert_true(tu_write_file(script, text));
    char *args[] = {"--sheet", sheet, "--script", script, "--out", ctx->dir, NULL};
    assert_int_equal(run_view(ctx->out_path, ctx->err_path, "offscreen", args), 0);
    char *out = tu_read_file(ctx->out_path, NULL);
    assert_non_null(out);
    const char *order[] = {"version 1: not written yet", "3. the LBS blend p~' = sum_j w_j C_j p~: not written yet",
                           "version 2: version 2", "3. the LBS blend p~' = sum_j w_j C_j p~: wrong",
                           "version 3: version 3", "3. the LBS blend p~' = sum_j w_j C_j p~: correct",
                           "no compile: last good one", "error", "crashed: signal 11", "stopped at 2 s: a loop?"};
    const char *at = out;
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
        const char *next = strstr(at, order[k]);
        if (!next)
            fail_msg("view30's output lacks \"%s\" after what came before:\n%s", order[k], out);
        at = next + 1;
    }
    free(out);
    /* the student's twist (the reference's) beside the lab's at 90 degrees: the same mesh in
     * the same camera, so the student's panel holds the lab's edges */
    tu_image shot;
    assert_true(tu_image_load(tu_path(ctx->dir, "right.png"), &shot));
    int same = 0, lab_edges = 0;
    for (int y = 120; y < VIEW30_PANEL_H; y++)
        for (int x = 0; x < VIEW30_PANEL_W; x++) {
            const unsigned char *l = shot.rgb + ((size_t)y * VIEW30_WIDTH + (size_t)x) * 3;
            const unsigned char *s = l + VIEW30_PANEL_W * 3;
            lab_edges += l[0] != 255;
            same += l[0] != 255 && memcmp(l, s, 3) == 0;
        }
    assert_true(lab_edges > 1000 && same > lab_edges * 9 / 10);
    tu_image_free(&shot);
}

/* The window as a student uses it with the chapter's headline mistakes, each written apart
 * from the grader's own (L G for G L, B^-1 G for G B^-1, a point blended as a direction, a
 * dual quaternion's translation without its 1/2, the last on the DQS sheet): each graded
 * wrong, the mistake drawn (a frame that differs from the correct sheet's), its whole
 * verdict (the case, computed, expected, the known mistake, the heading) on stdout and in
 * the JSON p saves, with no "nan" there; and the correct sheet's frame shows no mistake. */
static void test_headline_mistakes_are_drawn(void **state)
{
    tu_run_dir *ctx = *state;
    if (!have_view())
        skip();
    char cwd[512];
    assert_non_null(getcwd(cwd, sizeof cwd));
    static const struct { const char *sheet, *reference, *rename, *body, *mistake; } runs[] = {
        {"exercises.c", "reference.c", NULL, NULL, NULL}, /* correct: the picture every other is held against */
        {"exercises.c", "reference.c", "ex30_world_matrix",
         "mat4 ex30_world_matrix(mat4 parent_world, mat4 local) { return mat4_mul(local, parent_world); }\n",
         "the known mistake: L G for G L"},
        {"exercises.c", "reference.c", "ex30_skin_matrix",
         "mat4 ex30_skin_matrix(mat4 world, mat4 inverse_bind) { return mat4_mul(inverse_bind, world); }\n",
         "the known mistake: B^-1 G for G B^-1"},
        {"exercises.c", "reference.c", "ex30_lbs_point",
         "vec3 ex30_lbs_point(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette)\n"
         "{ vec4 s = {0, 0, 0, 0}; for (int i = 0; i < k; i++)\n"
         "  s = vec4_add(s, vec4_scale(mat4_mul_vec4(palette[joint[i]], (vec4){p.x, p.y, p.z, 0}), weight[i]));\n"
         "  return vec3_make(s.x, s.y, s.z); }\n",
         "the known mistake: p~ = (x, y, z, 0)"},
        {"dqs.c", "reference_dqs.c", "ex30_dq_from_rigid",
         "dualquat ex30_dq_from_rigid(quat rotation, vec3 translation)\n"
         "{ quat t = {0, translation.x, translation.y, translation.z}; return (dualquat){rotation, quat_mul(t, rotation)}; }\n",
         "the known mistake: a dual quaternion translation without its 1/2"},
    };
    tu_image correct = {0};
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        char dir[300], sheet[400], answer[400], script[400], shot[400], text[4096];
        snprintf(dir, sizeof dir, "%s/run%zu", ctx->dir, i);
        assert_int_equal(mkdir(dir, 0777), 0);
        snprintf(sheet, sizeof sheet, "%s/%s", dir, runs[i].sheet);
        assert_true(tu_write_file(sheet, "/* nothing yet */\n"));
        snprintf(answer, sizeof answer, "%s/answer.c", dir);
        if (runs[i].rename)
            snprintf(text, sizeof text, "#define %s reference_version\n#include \"%s/lab/ch30/grade/solutions/%s\"\n#undef %s\n%s",
                     runs[i].rename, cwd, runs[i].reference, runs[i].rename, runs[i].body);
        else
            snprintf(text, sizeof text, "#include \"%s/lab/ch30/grade/solutions/%s\"\n", cwd, runs[i].reference);
        assert_true(tu_write_file(answer, text));
        snprintf(shot, sizeof shot, "%s/frame.png", dir);
        snprintf(script, sizeof script, "%s/script.txt", dir);
        snprintf(text, sizeof text, "graded\nwrite %s\ngraded\nshot %s\nsave\nquit\n", answer, shot);
        assert_true(tu_write_file(script, text));
        char *args[] = {"--sheet", sheet, "--script", script, "--out", dir, NULL};
        assert_int_equal(run_view(ctx->out_path, ctx->err_path, "offscreen", args), 0);
        char *out = tu_read_file(ctx->out_path, NULL);
        assert_non_null(out);
        if (runs[i].mistake) { /* the whole verdict on stdout: the case, computed, expected, the mistake, the heading */
            const char *whole[] = {": wrong", "case ", "computed: ", "expected: ", runs[i].mistake, "read: "};
            for (size_t k = 0; k < sizeof whole / sizeof whole[0]; k++)
                if (!strstr(out, whole[k]))
                    fail_msg("%s: no \"%s\" on view30's output:\n%s", runs[i].body, whole[k], out);
        } else if (strstr(out, ": wrong"))
            fail_msg("the correct sheet graded wrong:\n%s", out);
        free(out);
        /* the saved evidence: the verdicts whole, no nan */
        char *json = saved_json(dir);
        assert_non_null(json);
        assert_null(strstr(json, "nan"));
        assert_non_null(strstr(json, "\"verdicts\""));
        if (runs[i].mistake) {
            assert_non_null(strstr(json, runs[i].mistake));
            assert_non_null(strstr(json, "\"shown\":\t\"the mistake\""));
        }
        free(json);
        tu_image frame;
        assert_true(tu_image_load(shot, &frame));
        if (!runs[i].mistake) {
            correct = frame;
            continue;
        }
        /* the mistake drawn where the correct sheet's twist is: the second panel differs */
        size_t differ = 0;
        for (int y = 0; y < VIEW30_PANEL_H; y++)
            for (int x = VIEW30_PANEL_W; x < 2 * VIEW30_PANEL_W; x++) {
                size_t at = ((size_t)y * VIEW30_WIDTH + (size_t)x) * 3;
                differ += memcmp(frame.rgb + at, correct.rgb + at, 3) != 0;
            }
        if (differ < 1000)
            fail_msg("%s: the frame's second panel differs from the correct sheet's in %zu pixels only", runs[i].body, differ);
        tu_image_free(&frame);
    }
    tu_image_free(&correct);
}

/* Two saves of the same size within a second are both seen: the file's time to the
 * nanosecond, not the second (an editor's quick double save). The two versions differ in one
 * digit: the second's exercise 4 is wrong. */
static void test_two_quick_saves_of_one_size(void **state)
{
    tu_run_dir *ctx = *state;
    if (!have_view())
        skip();
    char cwd[512], sheet[300], a[300], b[300], script[300], text[2048];
    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(sheet, sizeof sheet, "%s/exercises.c", ctx->dir);
    snprintf(a, sizeof a, "%s/a.c", ctx->dir), snprintf(b, sizeof b, "%s/b.c", ctx->dir);
    const char *body = "#define ex30_ring_radius_ratio reference_version\n#include \"%s/lab/ch30/grade/solutions/reference.c\"\n"
                       "#undef ex30_ring_radius_ratio\n"
                       "double ex30_ring_radius_ratio(double w, double theta) { return reference_version(w, theta) * %d; }\n";
    snprintf(text, sizeof text, body, cwd, 1);
    assert_true(tu_write_file(a, text));
    snprintf(text, sizeof text, body, cwd, 2);
    assert_true(tu_write_file(b, text));
    assert_true(tu_write_file(sheet, "/* nothing yet */\n"));
    snprintf(script, sizeof script, "%s/script.txt", ctx->dir);
    snprintf(text, sizeof text, "graded\nwrite %s\nwrite %s\ngraded\nquit\n", a, b);
    assert_true(tu_write_file(script, text));
    char *args[] = {"--sheet", sheet, "--script", script, "--out", ctx->dir, NULL};
    assert_int_equal(run_view(ctx->out_path, ctx->err_path, "offscreen", args), 0);
    char *out = tu_read_file(ctx->out_path, NULL);
    assert_non_null(out);
    if (!strstr(out, "version 3") || !strstr(out, "4. the ring radius r'/r = sqrt(1 - 4 w (1-w) sin^2(theta/2)): wrong"))
        fail_msg("the second save of the same size was not seen:\n%s", out);
    free(out);
}

/* Whether a process's command line holds `what` (the grader of a sheet of that path). */
static bool a_process_names(const char *what)
{
    DIR *proc = opendir("/proc");
    bool found = false;
    for (struct dirent *e; proc && !found && (e = readdir(proc));) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        char path[300];
        snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
        size_t n = 0;
        char *cmd = tu_read_file(path, &n);
        for (size_t k = 0; cmd && k + 1 < n; k++)
            cmd[k] = cmd[k] ? cmd[k] : ' ';
        found = cmd && strstr(cmd, what);
        free(cmd);
    }
    if (proc)
        closedir(proc);
    return found;
}

/* The window quits while a sheet is being graded (a constructor that loops makes each of
 * its exercises take the whole limit): the grade runs beside the window, q ends it with its
 * whole process group, and nothing is left behind. */
static void test_quit_while_grading(void **state)
{
    tu_run_dir *ctx = *state;
    if (!have_view())
        skip();
    char cwd[512], slow[256], sheet[256], script[256], text[2048];
    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(slow, sizeof slow, "%s/slow.c", ctx->dir);
    snprintf(text, sizeof text,
             "#include \"%s/lab/ch30/grade/solutions/reference.c\"\n"
             "__attribute__((constructor)) static void spin(void) { for (volatile int i = 1; i;) {} }\n",
             cwd);
    assert_true(tu_write_file(slow, text));
    shipped_sheet_as(sheet, sizeof sheet, ctx->dir, "sheet-being-graded.c");
    snprintf(script, sizeof script, "%s/script.txt", ctx->dir);
    snprintf(text, sizeof text, "graded\nwrite %s\nquit\n", slow);
    assert_true(tu_write_file(script, text));
    char *args[] = {"--sheet", sheet, "--script", script, "--out", ctx->dir, NULL};
    assert_int_equal(run_view(ctx->out_path, ctx->err_path, "offscreen", args), 0);
    char *out = tu_read_file(ctx->out_path, NULL);
    assert_non_null(out);
    assert_non_null(strstr(out, "version 2")); /* the slow sheet built, its grade started */
    assert_null(strstr(strstr(out, "version 2"), "1. the world matrix")); /* and stopped by q */
    free(out);
    assert_false(a_process_names("sheet-being-graded.c"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_sheet_reloads, tu_run_dir_setup, tu_run_dir_teardown),
        cmocka_unit_test_setup_teardown(test_quit_while_grading, tu_run_dir_setup, tu_run_dir_teardown),
        cmocka_unit_test_setup_teardown(test_headline_mistakes_are_drawn, tu_run_dir_setup, tu_run_dir_teardown),
        cmocka_unit_test_setup_teardown(test_two_quick_saves_of_one_size, tu_run_dir_setup, tu_run_dir_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
