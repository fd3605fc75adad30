/* test_view30_yours.c - build/bin/view30 drawing the student's sheet beside the lab's: each
 * sheet's exercises for the selected method and weights (the reference solutions' twist is
 * the lab's), words where a sheet has none, the whole loop over an asset, and the normals
 * sheet's lighting held pixel for pixel to the library's. */
#define _XOPEN_SOURCE 700
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
#include "draw/raster.h"
#include "math/linalg.h"
#include "skin/normals.h"

#include "rig30.h"
#include "view30_frame.h"
#include "view30_scene.h"
#include "test_view30.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_yours_follows_the_method, tu_run_dir_setup, tu_run_dir_teardown),
        cmocka_unit_test_setup_teardown(test_your_loop_over_an_asset, tu_run_dir_setup, tu_run_dir_teardown),
        cmocka_unit_test_setup_teardown(test_your_normals_light_the_twist, tu_run_dir_setup, tu_run_dir_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
