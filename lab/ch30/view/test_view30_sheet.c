/* test_view30_sheet.c - build/bin/view30 with the student's sheet (saved with a mistake,
 * fixed, broken, crashing and looping: the verdicts, the student's twist beside the lab's,
 * the window alive to the end), and in a real X window under Xvfb with xdotool's key and
 * mouse events (tests/view30-xvfb.sh): the X server's own pixels against lab30's PNG. */
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
#include "skin/normals.h"

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

/* Yours follows the state: each sheet's exercises for the method draw the twist at the
 * window's angle with the selected weights (the reference solutions: the same mesh as the
 * lab's in the same camera, so the second panel holds the first's edges), and where a sheet
 * has no exercise for the method the window says so (the saved evidence's yours_by). */
static void test_yours_follows_the_method(void **state)
{
    tu_run_dir *ctx = *state;
    if (!have_view())
        skip();
    static const struct { const char *sheet, *reference, *method, *weights, *by; } runs[] = {
        {"exercises.c", "reference.c", "LBS", "heat", "by exercises 1-3"},
        {"exercises.c", "reference.c", "DQS", "bbw", "by exercise 6"},
        {"skeleton.c", "reference_skeleton.c", "LBS", "blender", "by exercise 10"},
        {"dqs.c", "reference_dqs.c", "DQS", "hand", "by exercises 11-13"},
        {"fixes.c", "reference_fixes.c", "CoR", "heat", "by exercise 23"},
        {"fixes.c", "reference_fixes.c", "corrective-before", "hand", "by exercise 24"},
        {"fixes.c", "reference_fixes.c", "corrective-after", "hand", "by exercise 24"},
        {"dqs.c", "reference_dqs.c", "LBS", "hand", "not on this sheet"},
        {"exercises.c", "reference.c", "twist3", "hand", "no exercise for it"},
        {"shader.glsl", "reference.glsl", "LBS", "hand", "a shader: graded, not drawn"},
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        char dir[300], sheet[400], script[400], shot[400], text[1024], source[200];
        snprintf(dir, sizeof dir, "%s/run%zu", ctx->dir, i);
        assert_int_equal(mkdir(dir, 0777), 0);
        snprintf(sheet, sizeof sheet, "%s/%s", dir, runs[i].sheet);
        snprintf(source, sizeof source, "lab/ch30/grade/solutions/%s", runs[i].reference);
        char *reference = tu_read_file(source, NULL);
        assert_non_null(reference);
        assert_true(tu_write_file(sheet, reference));
        free(reference);
        snprintf(shot, sizeof shot, "%s/frame.png", dir);
        snprintf(script, sizeof script, "%s/script.txt", dir);
        snprintf(text, sizeof text, "graded\nshot %s\nsave\nquit\n", shot);
        assert_true(tu_write_file(script, text));
        char *args[] = {"--sheet", sheet, "--twist", "137", "--method", (char *)runs[i].method, "--weights",
                        (char *)runs[i].weights, "--script", script, "--out", dir, NULL};
        assert_int_equal(run_view(ctx->out_path, ctx->err_path, "offscreen", args), 0);
        char *json = saved_json(dir);
        assert_non_null(json);
        char by[200];
        snprintf(by, sizeof by, "\"yours_by\":\t\"%s\"", runs[i].by);
        if (!strstr(json, by) || strstr(json, ": wrong") || strstr(json, "nan"))
            fail_msg("%s with %s: no %s, or a verdict not correct:\n%s", runs[i].sheet, runs[i].method, by, json);
        bool drawn = strncmp(runs[i].by, "by ", 3) == 0;
        assert_true(strstr(json, drawn ? "\"yours_drawn\":\t1" : "\"yours_drawn\":\t0") != NULL);
        free(json);
        tu_image frame;
        assert_true(tu_image_load(shot, &frame));
        int same = 0, lab_edges = 0;
        for (int y = 120; y < VIEW30_PANEL_H; y++)
            for (int x = 0; x < VIEW30_PANEL_W; x++) {
                const unsigned char *l = frame.rgb + ((size_t)y * VIEW30_WIDTH + (size_t)x) * 3;
                const unsigned char *s = l + VIEW30_PANEL_W * 3;
                lab_edges += l[0] != 255;
                same += l[0] != 255 && memcmp(l, s, 3) == 0;
            }
        if (drawn && !(lab_edges > 1000 && same > lab_edges * 9 / 10))
            fail_msg("%s with %s and %s weights: yours holds %d of the lab's %d edge pixels", runs[i].sheet,
                     runs[i].method, runs[i].weights, same, lab_edges);
        if (!drawn && same > lab_edges / 10) /* nothing drawn: the panel holds its labels alone */
            fail_msg("%s with %s: drawn, though the sheet has no exercise for it", runs[i].sheet, runs[i].method);
        tu_image_free(&frame);
    }
}

/* An asset playing with a sheet: the sheet's whole loop (exercise 10) skins each part, drawn
 * over the lab's in red, dashed: the reference's coincides with the lab's mesh (every red
 * pixel on a lab edge's place), a loop that takes JOINTS_0 for nodes does not; a sheet
 * without the loop, and an asset beyond the exercise's limits, say so (the saved JSON). */
static void test_your_loop_over_an_asset(void **state)
{
    tu_run_dir *ctx = *state;
    if (!have_view())
        skip();
    char cwd[512];
    assert_non_null(getcwd(cwd, sizeof cwd));
    static const struct { const char *sheet, *body, *asset, *yours; bool drawn, on_lab; } runs[] = {
        {"skeleton.c", NULL, "assets/RiggedSimple.gltf", "by exercise 10", true, true},
        {"skeleton.c",
         "#define ex30_skin_mesh reference_version\n#include \"%s/lab/ch30/grade/solutions/reference_skeleton.c\"\n"
         "#undef ex30_skin_mesh\n"
         "void ex30_skin_mesh(const ex30_skin *s, vec3 *out)\n"
         "{ mat4 w[EX30_MAX_NODES]; ex30_skeleton_world(s->node_count, s->parent, s->local, w);\n"
         "  for (int v = 0; v < s->vertex_count; v++) { vec4 sum = {0, 0, 0, 0};\n"
         "    for (int i = 0; i < 4; i++) { int j = s->joints[4 * v + i];\n"
         "      mat4 c = mat4_mul(w[j], s->inverse_bind ? s->inverse_bind[j] : mat4_identity());\n"
         "      sum = vec4_add(sum, vec4_scale(mat4_mul_vec4(c, vec4_point(s->position[v])), s->weights[4 * v + i])); }\n"
         "    out[v] = vec3_make(sum.x, sum.y, sum.z); } }\n",
         "assets/RiggedSimple.gltf", "by exercise 10", true, false},
        {"dqs.c", NULL, "assets/RiggedSimple.gltf", "not on this sheet", false, false},
        {"skeleton.c", NULL, "assets/RiggedFigure.gltf", "too large for exercise 10", false, false},
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        char dir[300], sheet[400], script[400], shot[400], text[4096];
        snprintf(dir, sizeof dir, "%s/asset%zu", ctx->dir, i);
        assert_int_equal(mkdir(dir, 0777), 0);
        snprintf(sheet, sizeof sheet, "%s/%s", dir, runs[i].sheet);
        if (runs[i].body)
            snprintf(text, sizeof text, runs[i].body, cwd);
        else
            snprintf(text, sizeof text, "#include \"%s/lab/ch30/grade/solutions/reference_%s\"\n", cwd, runs[i].sheet);
        assert_true(tu_write_file(sheet, text));
        snprintf(shot, sizeof shot, "%s/frame.png", dir);
        snprintf(script, sizeof script, "%s/script.txt", dir);
        snprintf(text, sizeof text, "graded\nkey Space\nwait 0.5\nshot %s\nsave\nquit\n", shot);
        assert_true(tu_write_file(script, text));
        char *args[] = {"--sheet", sheet, "--script", script, "--out", dir, (char *)runs[i].asset, NULL};
        assert_int_equal(run_view(ctx->out_path, ctx->err_path, "offscreen", args), 0);
        char *json = saved_json(dir), want[200];
        assert_non_null(json);
        snprintf(want, sizeof want, "\"yours\":\"%s\"", runs[i].yours);
        if (!strstr(json, want))
            fail_msg("%s on %s: no %s in %s", runs[i].sheet, runs[i].asset, want, json);
        free(json);
        /* the lab's frame alone, at the same time: where its edges are */
        char lab_shot[400], *lab_args[] = {"--script", script, "--out", dir, (char *)runs[i].asset, NULL};
        snprintf(lab_shot, sizeof lab_shot, "%s/lab.png", dir);
        snprintf(text, sizeof text, "key Space\nwait 0.5\nshot %s\nquit\n", lab_shot);
        assert_true(tu_write_file(script, text));
        assert_int_equal(run_view(ctx->out_path, ctx->err_path, "offscreen", lab_args), 0);
        tu_image frame, lab;
        assert_true(tu_image_load(shot, &frame) && tu_image_load(lab_shot, &lab));
        int red = 0, red_off_lab = 0; /* a red pixel with no lab edge (dark) within a pixel of it */
        for (int y = 100; y < VIEW30_HEIGHT - 1; y++)
            for (int x = 1; x < VIEW30_WIDTH - 1; x++) {
                size_t at = ((size_t)y * VIEW30_WIDTH + (size_t)x) * 3;
                const unsigned char *p = frame.rgb + at;
                if (!(p[0] == 200 && p[1] == 30 && p[2] == 30))
                    continue;
                red++;
                bool near_lab = false;
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++) {
                        const unsigned char *q = lab.rgb + at + ((ptrdiff_t)dy * VIEW30_WIDTH + dx) * 3;
                        near_lab = near_lab || (q[0] == 64 && q[1] == 64 && q[2] == 72);
                    }
                red_off_lab += !near_lab;
            }
        tu_image_free(&frame), tu_image_free(&lab);
        if (runs[i].drawn != (red > 100) || (runs[i].drawn && runs[i].on_lab != (red_off_lab < red / 20)))
            fail_msg("%s on %s: %d red pixels, %d of them off the lab's edges", runs[i].sheet, runs[i].asset, red,
                     red_off_lab);
    }
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

/* The normals sheet lights the lab's LBS by the student's normals (exercise 16, the blended
 * inverse transpose): the reference's second panel is, pixel for pixel, the frame made here
 * with the library's normals (normals_skin); normals left unnormalised light it otherwise. */
static void test_your_normals_light_the_twist(void **state)
{
    tu_run_dir *ctx = *state;
    if (!have_view())
        skip();
    static view30_scene scene;
    lab_diag d = {0};
    assert_int_equal(view30_scene_build(&scene, &d), LAB_OK);
    const view30_state st = {100, 0, VIEW30_LBS, VIEW30_HEAT};
    /* the frame with the library's normals, made here */
    static view30_student lab;
    lab = (view30_student){.loaded = true, .has_positions = true, .shaded = true, .positions_deg = st.twist_deg,
                           .positions_method = VIEW30_LBS, .positions_weights = st.weights};
    snprintf(lab.how, sizeof lab.how, "lit by exercise 16");
    snprintf(lab.status, sizeof lab.status, "version 1");
    const rig30_rig *rig = &scene.rigs[st.weights][RIG30_TWIST];
    assert_int_equal(view30_skin(&scene, &st, RIG30_TWIST, lab.positions, NULL, &d), LAB_OK);
    mat4 palette[RIG30_JOINTS];
    dualquat dq[RIG30_JOINTS];
    static vec3 bind_normals[VERTS];
    rig30_bind_normals(rig, bind_normals);
    assert_int_equal(rig30_palettes(rig, deg_to_rad(st.twist_deg), palette, dq, &d), LAB_OK);
    assert_int_equal(normals_skin(bind_normals, &rig->influences, palette, RIG30_JOINTS, NORMALS_BLENDED_INVERSE_TRANSPOSE,
                                  lab.normals, &d),
                     LAB_OK);
    canvas expected = {0};
    view30_readout r;
    assert_int_equal(view30_frame(&scene, &st, &lab, &expected, &r, &d), LAB_OK);
    char cwd[512];
    assert_non_null(getcwd(cwd, sizeof cwd));
    const char *bodies[2] = {"#include \"%s/lab/ch30/grade/solutions/reference_normals.c\"\n",
                             "#define ex30_skin_normal reference_version\n"
                             "#include \"%s/lab/ch30/grade/solutions/reference_normals.c\"\n#undef ex30_skin_normal\n"
                             "vec3 ex30_skin_normal(vec3 n, const int *joint, const double *weight, int k, const mat4 *palette,\n"
                             "                      ex30_normal_method method)\n"
                             "{ return vec3_scale(reference_version(n, joint, weight, k, palette, method), 0.5); }\n"};
    for (int i = 0; i < 2; i++) {
        char dir[300], sheet[400], script[400], shot[400], text[2048];
        snprintf(dir, sizeof dir, "%s/normals%d", ctx->dir, i);
        assert_int_equal(mkdir(dir, 0777), 0);
        snprintf(sheet, sizeof sheet, "%s/normals.c", dir);
        snprintf(text, sizeof text, bodies[i], cwd);
        assert_true(tu_write_file(sheet, text));
        snprintf(shot, sizeof shot, "%s/frame.png", dir);
        snprintf(script, sizeof script, "%s/script.txt", dir);
        snprintf(text, sizeof text, "graded\nkey v\nshot %s\nquit\n", shot); /* v: a wrong one's mistake away */
        assert_true(tu_write_file(script, text));
        char *args[] = {"--sheet", sheet, "--twist", "100", "--weights", "heat", "--script", script, "--out", dir, NULL};
        assert_int_equal(run_view(ctx->out_path, ctx->err_path, "offscreen", args), 0);
        tu_image frame;
        assert_true(tu_image_load(shot, &frame));
        int differ = 0;
        for (int y = 0; y < VIEW30_PANEL_H; y++)
            for (int x = VIEW30_PANEL_W; x < 2 * VIEW30_PANEL_W; x++) {
                size_t at = ((size_t)y * VIEW30_WIDTH + (size_t)x) * 3;
                differ += memcmp(frame.rgb + at, expected.rgb + at, 3) != 0;
            }
        tu_image_free(&frame);
        if ((i == 0) != (differ == 0))
            fail_msg("%s: the second panel differs from the library's lighting in %d pixels", i ? "unnormalised" : "the reference",
                     differ);
    }
    canvas_free(&expected);
    view30_scene_free(&scene);
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

/* Xvfb, xdotool's real events and the window's pixels read back (tests/view30-xvfb.sh). */
/* A big-endian 32-bit field of an XWD header. */
static unsigned long xwd_field(const unsigned char *h, int index)
{
    const unsigned char *f = h + 4 * index;
    return (unsigned long)f[0] << 24 | (unsigned long)f[1] << 16 | (unsigned long)f[2] << 8 | f[3];
}

/* The window's 800 x 600 pixels as the X server holds them: Xvfb's screen file (XWD, the
 * header big-endian, then the colormap, then 32-bit pixels in the header's byte order and
 * masks) cut at the window's place (x, y). A reader of its own, sharing nothing with SDL. */
static bool xwd_window(const char *path, long x, long y, tu_image *out)
{
    size_t size = 0;
    unsigned char *f = (unsigned char *)tu_read_file(path, &size);
    if (!f || size < 100) {
        free(f);
        return false;
    }
    unsigned long header = xwd_field(f, 0), width = xwd_field(f, 4), height = xwd_field(f, 5),
                  order = xwd_field(f, 7), bpp = xwd_field(f, 11), line = xwd_field(f, 12), masks[3] = {
                      xwd_field(f, 14), xwd_field(f, 15), xwd_field(f, 16)}, colors = xwd_field(f, 19);
    size_t start = header + 12 * colors;
    bool ok = bpp == 32 && x >= 0 && y >= 0 && (unsigned long)x + VIEW30_WIDTH <= width &&
              (unsigned long)y + VIEW30_HEIGHT <= height && start + line * height <= size;
    *out = (tu_image){VIEW30_WIDTH, VIEW30_HEIGHT, ok ? malloc((size_t)VIEW30_WIDTH * VIEW30_HEIGHT * 3) : NULL};
    ok = ok && out->rgb;
    for (int r = 0; ok && r < VIEW30_HEIGHT; r++)
        for (int c = 0; c < VIEW30_WIDTH; c++) {
            const unsigned char *p = f + start + (size_t)(y + r) * line + (size_t)(x + c) * 4;
            unsigned long v = order == 0 ? (unsigned long)p[0] | (unsigned long)p[1] << 8 | (unsigned long)p[2] << 16 |
                                               (unsigned long)p[3] << 24
                                         : xwd_field(p, 0);
            for (int k = 0; k < 3; k++) {
                unsigned long m = masks[k], shift = 0;
                while (m && !(m & 1))
                    m >>= 1, shift++;
                out->rgb[((size_t)r * VIEW30_WIDTH + (size_t)c) * 3 + (size_t)k] = (unsigned char)((v >> shift) & m);
            }
        }
    free(f);
    if (!ok)
        free(out->rgb), out->rgb = NULL;
    return ok;
}

static void test_under_xvfb(void **state)
{
    tu_run_dir *ctx = *state;
    if (!have_view())
        skip();
    char *argv[] = {"/bin/sh", "tests/view30-xvfb.sh", VIEW, ctx->dir, NULL};
    int code = tu_run(argv, ctx->out_path, ctx->err_path);
    if (code != 0) {
        char *err = tu_read_file(ctx->err_path, NULL), shown[4096];
        snprintf(shown, sizeof shown, "%s", err ? err : "");
        free(err);
        fail_msg("tests/view30-xvfb.sh exited %d:\n%s", code, shown);
    }
    char lab[128];
    snprintf(lab, sizeof lab, "%s/lab", ctx->dir);
    assert_int_equal(mkdir(lab, 0777), 0);
    assert_int_equal(tu_run_program(LAB30, NULL, NULL, "--theta", "137", lab, (char *)NULL), 0);
    assert_true(twist_equals(tu_path(ctx->dir, "window-137.png"), tu_path(lab, "skinning30-theta137.png")));
    /* the X server's own pixels of the window: the same panel, and the whole frame SDL read */
    long x = -1, y = -1;
    char *geometry = tu_read_file(tu_path(ctx->dir, "geometry.txt"), NULL);
    assert_non_null(geometry);
    const char *at_x = strstr(geometry, "X="), *at_y = strstr(geometry, "Y=");
    assert_true(at_x && at_y && sscanf(at_x, "X=%ld", &x) == 1 && sscanf(at_y, "Y=%ld", &y) == 1);
    free(geometry);
    tu_image screen, read_back;
    assert_true(xwd_window(tu_path(ctx->dir, "screen.xwd"), x, y, &screen));
    assert_true(twist_panel_equals(&screen, tu_path(lab, "skinning30-theta137.png")));
    assert_true(tu_image_load(tu_path(ctx->dir, "window-137.png"), &read_back));
    assert_memory_equal(screen.rgb, read_back.rgb, (size_t)VIEW30_WIDTH * VIEW30_HEIGHT * 3);
    tu_image_free(&screen), tu_image_free(&read_back);
    /* the bend's slider dragged a quarter of its track left of 0: -180, the twist kept */
    assert_true(tu_exists(tu_path(ctx->dir, "view30-twist137-bend-180-0-hand.json")));
    /* the help over the frame, on the X server's screen as read back, and not the frame
     * without it (the same twist, the help box in the middle) */
    tu_image help, help_back, before;
    assert_true(xwd_window(tu_path(ctx->dir, "screen-help.xwd"), x, y, &help));
    assert_true(tu_image_load(tu_path(ctx->dir, "view30-window.png"), &help_back));
    assert_memory_equal(help.rgb, help_back.rgb, (size_t)VIEW30_WIDTH * VIEW30_HEIGHT * 3);
    assert_true(tu_image_load(tu_path(ctx->dir, "window-137.png"), &before));
    size_t centre = ((size_t)(VIEW30_HEIGHT / 2) * VIEW30_WIDTH + VIEW30_WIDTH / 2) * 3;
    assert_memory_not_equal(help.rgb + centre - 3 * 200, before.rgb + centre - 3 * 200, 3 * 400);
    tu_image_free(&help), tu_image_free(&help_back), tu_image_free(&before);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_sheet_reloads, tu_run_dir_setup, tu_run_dir_teardown),
        cmocka_unit_test_setup_teardown(test_quit_while_grading, tu_run_dir_setup, tu_run_dir_teardown),
        cmocka_unit_test_setup_teardown(test_headline_mistakes_are_drawn, tu_run_dir_setup, tu_run_dir_teardown),
        cmocka_unit_test_setup_teardown(test_yours_follows_the_method, tu_run_dir_setup, tu_run_dir_teardown),
        cmocka_unit_test_setup_teardown(test_your_loop_over_an_asset, tu_run_dir_setup, tu_run_dir_teardown),
        cmocka_unit_test_setup_teardown(test_two_quick_saves_of_one_size, tu_run_dir_setup, tu_run_dir_teardown),
        cmocka_unit_test_setup_teardown(test_your_normals_light_the_twist, tu_run_dir_setup, tu_run_dir_teardown),
        cmocka_unit_test_setup_teardown(test_under_xvfb, tu_run_dir_setup, tu_run_dir_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
