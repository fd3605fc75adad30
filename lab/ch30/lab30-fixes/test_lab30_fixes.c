/* test_lab30_fixes.c - the fixes (written in lab30-fixes.c, trained by rig30_fixes.h) by the
 * test's own arithmetic, and build/bin/lab30-fixes end to end: exit codes, the evidence
 * re-read with cJSON against closed forms, the acceptance bounds, determinism and the
 * committed out/. */
#define _POSIX_C_SOURCE 200809L
/* The fixes' formulas are the program's own lines: its file is compiled into this suite,
 * its main renamed, so that the tests below call fixes_twist_joints, fixes_corrective and
 * fixes_cor as the program does. */
#define main lab30_fixes_main
#include "lab30-fixes.c"
#undef main
#undef LAB
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_all.h"
#include "testutil.h"

#include "base/diag.h"
#include "draw/raster.h"
#include "math/linalg.h"
#include "skin/blend.h"

#include "rig30.h"
#include "rig30_check.h"
#include "rig30_fixes.h"

#define LAB LAB_BIN_DIR "/lab30-fixes"
#define run_lab(ctx, ...) tu_run_program(LAB, (ctx)->out_path, (ctx)->err_path, __VA_ARGS__, (char *)NULL)

static const char *const outputs[] = {"fixes30.png", "fixes30-radius.png", "fixes30.json", "fixes30.csv",
                                     "fixes30-corrective.gltf", "fixes30-twist.gif", "lab30-fixes-checks.json"};
enum { OUTPUT_COUNT = sizeof outputs / sizeof outputs[0] };

/* k twist joints at 180 degrees: every vertex's radius is the chapter's formula for its
 * pair, which differs by 180 / (k + 1); the narrowest ring, in the middle of a pair,
 * cos(90 / (k + 1)) degrees, written out here; k = 0 is the chapter's LBS. */
static void test_fixes_twist_joints_closed_form(void **state)
{
    (void)state;
    rig30_rig rig;
    assert_int_equal(rig30_rig_build(&rig, RIG30_TWIST, NULL, NULL), LAB_OK);
    vec3 out[216];
    rig30_pose chapter = {0};
    assert_int_equal(rig30_pose_alloc(&rig, &chapter, NULL), LAB_OK);
    for (int k = 0; k <= 3; k++) {
        double error = -1;
        assert_int_equal(fixes_twist_joints(&rig, k, acos(-1.0), out, &error, NULL), LAB_OK);
        assert_true(error >= 0 && error < 1e-12);
        double narrowest = 1e9;
        for (int ring = 0; ring < RIG30_RINGS; ring++)
            narrowest = fmin(narrowest, rig30_measure_ring(out, ring).mean);
        assert_near(narrowest, cos(acos(-1.0) / 2 / (k + 1)), 1e-12);
        if (k == 0) { /* the chapter's own LBS */
            assert_int_equal(rig30_pose_at(&rig, acos(-1.0), (skin_blend){.method = SKIN_LBS}, &chapter, NULL), LAB_OK);
            assert_true(rig30_max_distance(out, chapter.positions, 216) < 1e-12);
        }
    }
    assert_int_equal(fixes_twist_joints(&rig, FIXES30_MAX_HELPERS + 1, 1.0, out, NULL, NULL), LAB_ERR_LIMIT);
    rig30_pose_free(&chapter);
    rig30_rig_free(&rig);
}

/* The corrective shape on the twist: at 180 degrees each vertex turned by w1 pi (radius 1),
 * by the test's own rotation, off the middle ring; the middle ring, and only it, is
 * unreachable (w0 = w1: M singular): its delta is zero and it collapses. */
static void test_fixes_corrective_shape(void **state)
{
    (void)state;
    rig30_rig rig;
    assert_int_equal(rig30_rig_build(&rig, RIG30_TWIST, NULL, NULL), LAB_OK);
    vec3 deltas[216], out[216];
    bool unreachable[216];
    assert_int_equal(rig30_corrective_deltas(&rig, FIXES30_BEFORE_SKINNING, deltas, unreachable, NULL), LAB_OK);
    assert_int_equal(fixes_corrective(&rig, FIXES30_BEFORE_SKINNING, deltas, acos(-1.0), out, NULL), LAB_OK);
    for (int v = 0; v < 216; v++) {
        vec3 p = rig.bind.vertices[v];
        double w1 = p.z / 2, a = w1 * acos(-1.0);
        assert_true(unreachable[v] == (fabs(w1 - 0.5) < 1e-12)); /* exactly the middle ring */
        if (fabs(w1 - 0.5) < 1e-12) {
            assert_true(vec3_length(deltas[v]) == 0.0);
            assert_true(hypot(out[v].x, out[v].y) < 1e-12); /* collapsed, whatever the shape */
            continue;
        }
        vec3 turned = vec3_make(p.x * cos(a) - p.y * sin(a), p.x * sin(a) + p.y * cos(a), p.z);
        assert_true(vec3_length(vec3_sub(out[v], turned)) < 1e-12);
    }
    /* at 0 the driver is 0: the bind pose */
    assert_int_equal(fixes_corrective(&rig, FIXES30_BEFORE_SKINNING, deltas, 0.0, out, NULL), LAB_OK);
    assert_true(rig30_max_distance(out, rig.bind.vertices, 216) < 1e-15);
    rig30_rig_free(&rig);
}

/* The same target after skinning: at 180 degrees every vertex, the middle ring too, is
 * turned by w1 pi (radius 1), by the test's own rotation; on the middle ring at 90 degrees
 * LBS's cos 45 plus the half-weighted delta, turned by 45 degrees: radius cos 45 + 1/2; at
 * 0, the bind pose. On the bend, the trained pose (90) reaches the target too. */
static void test_fixes_corrective_after_skinning(void **state)
{
    (void)state;
    const double pi = acos(-1.0);
    rig30_rig rig;
    assert_int_equal(rig30_rig_build(&rig, RIG30_TWIST, NULL, NULL), LAB_OK);
    vec3 deltas[216], out[216];
    bool unreachable[216];
    assert_int_equal(rig30_corrective_deltas(&rig, FIXES30_AFTER_SKINNING, deltas, unreachable, NULL), LAB_OK);
    assert_int_equal(fixes_corrective(&rig, FIXES30_AFTER_SKINNING, deltas, pi, out, NULL), LAB_OK);
    for (int v = 0; v < 216; v++) {
        vec3 p = rig.bind.vertices[v];
        double a = p.z / 2 * pi;
        assert_false(unreachable[v]);
        vec3 turned = vec3_make(p.x * cos(a) - p.y * sin(a), p.x * sin(a) + p.y * cos(a), p.z);
        assert_true(vec3_length(vec3_sub(out[v], turned)) < 1e-12);
    }
    assert_int_equal(fixes_corrective(&rig, FIXES30_AFTER_SKINNING, deltas, pi / 2, out, NULL), LAB_OK);
    for (int s = 0; s < RIG30_SEGMENTS; s++) {
        vec3 p = rig.bind.vertices[RIG30_MIDDLE_RING * RIG30_SEGMENTS + s], q = out[RIG30_MIDDLE_RING * RIG30_SEGMENTS + s];
        double k = cos(pi / 4) + 0.5, c = cos(pi / 4), sn = sin(pi / 4);
        assert_true(vec3_length(vec3_sub(q, vec3_make(k * (p.x * c - p.y * sn), k * (p.x * sn + p.y * c), p.z))) < 1e-12);
    }
    assert_int_equal(fixes_corrective(&rig, FIXES30_AFTER_SKINNING, deltas, 0.0, out, NULL), LAB_OK);
    assert_true(rig30_max_distance(out, rig.bind.vertices, 216) < 1e-15);
    rig30_rig_free(&rig);
    assert_int_equal(rig30_rig_build(&rig, RIG30_BEND, NULL, NULL), LAB_OK);
    assert_int_equal(rig30_corrective_deltas(&rig, FIXES30_AFTER_SKINNING, deltas, NULL, NULL), LAB_OK);
    assert_int_equal(fixes_corrective(&rig, FIXES30_AFTER_SKINNING, deltas, pi / 2, out, NULL), LAB_OK);
    for (int v = 0; v < 216; v++)
        assert_true(vec3_length(vec3_sub(out[v], rig30_corrective_target(&rig, v, NULL))) < 1e-12);
    rig30_rig_free(&rig);
}

/* Centres of rotation: on the twist rig every centre lies on the axis (the triangles of a
 * ring band are symmetric about it), so CoR keeps every radius; a vertex of one influence
 * keeps itself as its centre. The volume of the closed bind cylinder: a 24-gon of radius 1,
 * area 12 sin(15 deg), times the height 2. */
static void test_fixes_centres_and_volume(void **state)
{
    (void)state;
    rig30_rig rig;
    assert_int_equal(rig30_rig_build(&rig, RIG30_TWIST, NULL, NULL), LAB_OK);
    vec3 centres[216], out[216];
    /* above zero: the 7 inner rings' vertices (two weights) against all 384 triangles (each
     * touches an inner ring, so its mean weights are both above zero) */
    assert_int_equal(rig30_cor_centres(&rig, centres), 7 * 24 * 384);
    for (int v = 0; v < 216; v++) {
        double w1 = rig30_child_weight(&rig.influences, v);
        if (w1 == 0.0 || w1 == 1.0)
            assert_true(vec3_length(vec3_sub(centres[v], rig.bind.vertices[v])) == 0.0);
        else
            assert_true(hypot(centres[v].x, centres[v].y) < 1e-12);
    }
    assert_int_equal(fixes_cor(&rig, centres, acos(-1.0), out, NULL), LAB_OK);
    for (int v = 0; v < 216; v++)
        assert_near(hypot(out[v].x, out[v].y), 1.0, 1e-12);
    assert_near(rig30_volume(&rig, rig.bind.vertices), 2 * 12 * sin(acos(-1.0) / 12), 1e-12);
    rig30_rig_free(&rig);
}

static const cJSON *row(const cJSON *root, const char *rig, double deg, const char *method)
{
    const cJSON *r;
    cJSON_ArrayForEach(r, tu_json_get(root, "rows"))
    if (!strcmp(tu_json_get(r, "rig")->valuestring, rig) && tu_json_num(r, "angle_deg") == deg &&
        !strcmp(tu_json_get(r, "method")->valuestring, method))
        return r;
    fail_msg("no row %s %g %s", rig, deg, method);
    return NULL;
}

/* The acceptance, re-read from the evidence. */
static void test_lab30_fixes_evidence(void **state)
{
    tu_run_dir *ctx = *state;
    assert_int_equal(run_lab(ctx, "--help"), 0);
    assert_int_equal(run_lab(ctx, "--twist", ctx->dir), 2);
    assert_int_equal(run_lab(ctx, tu_path(ctx->dir, "missing")), 3);
    assert_int_equal(tu_count_entries(ctx->dir), 0);
    assert_int_equal(run_lab(ctx, ctx->dir), 0);
    assert_true(tu_file_contains(ctx->out_path, "All checks passed."));
    cJSON *root = tu_json_load(tu_path(ctx->dir, "fixes30.json"));
    assert_non_null(root);
    /* the companion text says DQS keeps volume; the closed cylinder says otherwise, and the
     * report prints the correction with the measured ratios */
    for (int deg = 90; deg <= 135; deg += 45)
        assert_true(tu_json_num(row(root, "bend", deg, "DQS"), "volume_ratio") < 0.99);
    assert_true(tu_file_contains(ctx->out_path, "which says DQS keeps volume"));
    /* the plot's curves, every 2.5 degrees, pass through the rows at every 30 degrees, and
     * LBS's narrowest ring is the chapter's formula at w = 1/2 between them too */
    cJSON *curves = tu_json_get(root, "twist_curves");
    cJSON *deg = tu_json_get(curves, "twist_deg");
    assert_int_equal(cJSON_GetArraySize(deg), 85);
    static const char *const methods[] = {"LBS", "LBS + 1 twist joint", "DQS", "CoR", "post-skin corrective"};
    for (int m = 0; m < 5; m++)
        for (int p = 0; p <= 7; p++) {
            cJSON *c = tu_json_get(curves, methods[m]);
            const cJSON *w = row(root, "twist", 30 * p, methods[m]);
            assert_true(tu_json_number(cJSON_GetArrayItem(tu_json_get(c, "narrowest_ring_radius"), 12 * p)) ==
                        tu_json_num(w, "narrowest_ring_radius"));
            assert_true(tu_json_number(cJSON_GetArrayItem(tu_json_get(c, "radius_error"), 12 * p)) ==
                        tu_json_num(w, "radius_error"));
        }
    for (int i = 0; i < 85; i++) {
        double t = tu_json_number(cJSON_GetArrayItem(deg, i)) * acos(-1.0) / 180.0;
        double lbs = tu_json_number(cJSON_GetArrayItem(tu_json_get(tu_json_get(curves, "LBS"), "narrowest_ring_radius"), i));
        assert_near(lbs, fabs(cos(t / 2)), 1e-12); /* w = 1/2 is the narrowest LBS ring */
    }
    static const double twist[8] = {0, 30, 60, 90, 120, 150, 180, 210};
    for (int p = 0; p < 8; p++)
        for (int k = 1; k <= 3; k += 2)
            assert_true(tu_json_num(row(root, "twist", twist[p], k == 1 ? "LBS + 1 twist joint" : "LBS + 3 twist joints"),
                                    "closed_form_error") < 1e-12);
    static const char *const corrective[2] = {"pre-skin corrective", "post-skin corrective"};
    for (int k = 0; k < 2; k++) {
        assert_true(tu_json_num(row(root, "twist", 180, corrective[k]), "closed_form_error") < 1e-12);
        assert_true(tu_json_num(row(root, "bend", 90, corrective[k]), "closed_form_error") < 1e-12);
        assert_true(tu_json_num(row(root, "bend", 90, corrective[k]), "inner_distance") > 0.999); /* trained */
    }
    /* at the trained pose: radius 1 everywhere after skinning; before, the middle ring is
     * out of reach (M singular) */
    const cJSON *after = row(root, "twist", 180, "post-skin corrective");
    assert_near(tu_json_num(after, "radius_min"), 1, 1e-12);
    assert_near(tu_json_num(after, "radius_max"), 1, 1e-12);
    assert_near(tu_json_num(after, "narrowest_ring_radius"), 1, 1e-12);
    assert_true(tu_json_num(row(root, "twist", 180, "pre-skin corrective"), "radius_max") < 1e-9);
    assert_int_equal((int)tu_json_num(root, "corrective_unreachable_before_skinning"), 24);
    assert_true(tu_json_num(row(root, "twist", 180, "LBS"), "radius_mean") < 1e-9); /* the collapse */
    for (int p = 0; p < 8; p++) { /* the radius error: LBS's worst ring is the middle one, 1 - |cos(theta/2)| */
        double half = twist[p] * acos(-1.0) / 360;
        assert_near(tu_json_num(row(root, "twist", twist[p], "LBS"), "radius_error"), (1 - fabs(cos(half))), 1e-12);
        assert_true(tu_json_num(row(root, "twist", twist[p], "DQS"), "radius_error") < 1e-12);
    }
    /* and above 1: the post-skin shape's middle ring at 90 is cos 45 + 1/2 */
    assert_true(tu_json_num(row(root, "twist", 90, "post-skin corrective"), "radius_error") >=
                cos(acos(-1.0) / 4) + 0.5 - 1 - 1e-12);
    assert_true(tu_json_num(row(root, "twist", 180, "CoR"), "radius_mean") > 0.99);
    double cor = tu_json_num(row(root, "bend", 90, "CoR"), "bulge"), dqs = tu_json_num(row(root, "bend", 90, "DQS"), "bulge");
    assert_true(cor < dqs);
    assert_near(dqs, 0.0307, 1e-3); /* lab30-dqs's bulge on the 90-degree bend */
    assert_true(tu_json_num(row(root, "twist", 0, "DQS"), "volume_ratio") == 1.0);
    cJSON_Delete(root);
}

/* The corrective shape exported as a glTF morph target: the Khronos validator finds no
 * error and no warning, and lab30-gltf, skinning it at t = 0.5 (90 degrees, weight 0.5),
 * lands within 1e-6 of the double path, seen in glTF's frame. */
static void test_lab30_fixes_corrective_as_gltf(void **state)
{
    tu_run_dir *ctx = *state;
    assert_int_equal(run_lab(ctx, ctx->dir), 0);
    const char *asset = tu_path(ctx->dir, "fixes30-corrective.gltf");
    tu_gltf_validate(ctx, asset, false);
    char out[64];
    assert_non_null(tu_make_temp_dir(out, sizeof out));
    assert_int_equal(tu_run_program(LAB_BIN_DIR "/lab30-gltf", NULL, NULL, "--time", "0.5", asset, out, (char *)NULL), 0);
    cJSON *json = tu_json_load(tu_path(out, "gltf30.json"));
    cJSON *part = cJSON_GetArrayItem(tu_json_get(cJSON_GetArrayItem(tu_json_get(json, "times"), 0), "parts"), 0);
    assert_near(tu_json_number(cJSON_GetArrayItem(tu_json_get(part, "morph_weights"), 0)), 0.5, 1e-7);
    rig30_rig rig;
    assert_int_equal(rig30_rig_build(&rig, RIG30_TWIST, NULL, NULL), LAB_OK);
    vec3 deltas[216], expect[216];
    assert_int_equal(rig30_corrective_deltas(&rig, FIXES30_BEFORE_SKINNING, deltas, NULL, NULL), LAB_OK);
    assert_int_equal(fixes_corrective(&rig, FIXES30_BEFORE_SKINNING, deltas, acos(-1.0) / 2, expect, NULL), LAB_OK);
    cJSON *positions = tu_json_get(part, "positions");
    for (int v = 0; v < 216; v++) {
        cJSON *q = cJSON_GetArrayItem(positions, v);
        vec3 got = vec3_make(tu_json_number(cJSON_GetArrayItem(q, 0)), tu_json_number(cJSON_GetArrayItem(q, 1)),
                             tu_json_number(cJSON_GetArrayItem(q, 2)));
        assert_true(vec3_length(vec3_sub(got, vec3_make(expect[v].x, expect[v].z, -expect[v].y))) < 1e-6);
    }
    cJSON_Delete(json);
    rig30_rig_free(&rig);
    tu_remove_tree(out);
}

static void test_lab30_fixes_deterministic_and_committed(void **state)
{
    (void)state;
    const char *args[] = {NULL};
    tu_check_deterministic_and_committed(LAB, args, NULL, outputs, OUTPUT_COUNT, "lab30-fixes");
}

/* The animation, decoded by giflib here: every method over the twist, 0 to 210 degrees every
 * 10 (22 frames, 0.15 s each, looping), four panels to a row under a two-line title: panel m
 * of a frame sits at (8 + (m % 4)(260 + 8), top + (m / 4)(356 + 8)), the rows at the frame's
 * bottom. The frames fit the README's gallery (at most 1400 pixels wide, as its stills). At
 * 90 and 180 degrees each method's panel is the one fixes30.png shows for that method and
 * pose, pixel for pixel. */
static void test_lab30_fixes_animation(void **state)
{
    tu_run_dir *ctx = *state;
    assert_int_equal(run_lab(ctx, ctx->dir), 0);
    tu_gif gif;
    tu_check_animation(tu_path(ctx->dir, "fixes30-twist.gif"), 22, 15, &gif);
    tu_image grid;
    assert_true(tu_image_load(tu_path(ctx->dir, "fixes30.png"), &grid));
    enum { W = 260, H = 356, GAP = 8, COLUMNS = 4, ROWS = 2 };
    assert_true(gif.frames[0].width <= 1400 && gif.frames[0].width < gif.frames[0].height * 2);
    assert_int_equal(gif.frames[0].width, GAP + COLUMNS * (W + GAP));
    tu_image panel = {W, H, malloc(3 * W * H)};
    assert_non_null(panel.rgb);
    int column_x[2] = {-1, -1};
    for (int a = 0; a < 2; a++) { /* 90 and 180 degrees: frames 9 and 18, grid columns 0 and 1 */
        const tu_image *f = &gif.frames[9 * (a + 1)];
        int top = f->height - ROWS * (H + GAP); /* below the title */
        assert_true(top > 2 * GAP);
        for (int m = 0; m < 7; m++) {
            int x0 = GAP + (m % COLUMNS) * (W + GAP), y0 = top + (m / COLUMNS) * (H + GAP);
            for (int y = 0; y < H; y++)
                memcpy(panel.rgb + 3 * (size_t)W * y, f->rgb + 3 * ((size_t)(y0 + y) * f->width + x0), 3 * (size_t)W);
            int x, y;
            if (!tu_image_find(&grid, &panel, &x, &y))
                fail_msg("frame %d: method %d's panel is not in fixes30.png", 9 * (a + 1), m);
            assert_true(m == 0 || x == column_x[a]); /* one column of the grid: one pose */
            column_x[a] = x;
        }
    }
    assert_true(column_x[0] < column_x[1]);
    free(panel.rgb);
    tu_image_free(&grid);
    tu_gif_free(&gif);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, tu_run_dir_setup, tu_run_dir_teardown)
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixes_twist_joints_closed_form),
        cmocka_unit_test(test_fixes_corrective_shape),
        cmocka_unit_test(test_fixes_corrective_after_skinning),
        cmocka_unit_test(test_fixes_centres_and_volume),
        T(test_lab30_fixes_evidence),
        T(test_lab30_fixes_corrective_as_gltf),
        T(test_lab30_fixes_animation),
        cmocka_unit_test(test_lab30_fixes_deterministic_and_committed),
    };
#undef T
    return cmocka_run_group_tests_name("lab30-fixes", tests, NULL, NULL);
}
