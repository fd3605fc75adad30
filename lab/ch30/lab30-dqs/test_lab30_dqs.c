/* test_lab30_dqs.c - end to end: build/bin/lab30-dqs in temporary directories. Exit codes
 * of the contract, the evidence re-read with cJSON and checked with this test's own
 * arithmetic, the figures re-read with stb_image, determinism, and the committed out/. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_all.h"
#include "testutil.h"

#include "draw/raster.h"
#include "math/linalg.h"
#include "rig30.h"

#define LAB LAB_BIN_DIR "/lab30-dqs"
#define run_lab(ctx, ...) tu_run_program(LAB, (ctx)->out_path, (ctx)->err_path, __VA_ARGS__, (char *)NULL)

static const char *const outputs[] = {
    "dqs30.png", "dqs30-radius.png", "dqs30-chord.png", "dqs30.json", "dqs30-rings.csv", "dqs30-twist.gif", "dqs30-bend.gif",
    "dqs30-lbs-twist090.png", "dqs30-lbs-twist180.png", "dqs30-lbs-twist270.png",
    "dqs30-lbs-bend090.png", "dqs30-lbs-bend135.png", "dqs30-dqs-twist090.png",
    "dqs30-dqs-twist180.png", "dqs30-dqs-twist270.png", "dqs30-dqs-bend090.png",
    "dqs30-dqs-bend135.png", "lab30-dqs-checks.json"};
enum { OUTPUT_COUNT = sizeof outputs / sizeof outputs[0] };

typedef tu_run_dir run_ctx;
#define setup_dir tu_run_dir_setup
#define teardown_dir tu_run_dir_teardown

static double at(const cJSON *a, int i) { return cJSON_GetArrayItem(a, i)->valuedouble; }

static void test_lab30_dqs_usage_and_output_errors(void **state)
{
    run_ctx *ctx = *state;
    assert_int_equal(run_lab(ctx, "--help"), 0);
    assert_true(tu_file_contains(ctx->out_path, "usage: lab30-dqs"));
    assert_int_equal(run_lab(ctx, (char *)NULL), 2);
    assert_true(tu_file_contains(ctx->err_path, "missing OUTDIR"));
    assert_int_equal(run_lab(ctx, "--spin", ctx->dir), 2);
    assert_int_equal(run_lab(ctx, "--twist", "90,x", ctx->dir), 2);
    assert_int_equal(run_lab(ctx, "--twist", "1,2,3,4,5", ctx->dir), 2);
    assert_int_equal(run_lab(ctx, "--bend", "45,45", ctx->dir), 2);
    assert_int_equal(run_lab(ctx, "--child-scale", "1,2", ctx->dir), 2);
    assert_int_equal(tu_count_entries(ctx->dir), 0);
    const char *missing = tu_path(ctx->dir, "nope");
    assert_int_equal(run_lab(ctx, missing), 3);
    assert_false(tu_exists(missing));
    const char *file = tu_path(ctx->dir, "file");
    assert_true(tu_write_file(file, "x\n"));
    assert_int_equal(run_lab(ctx, file), 3);
}

/* A scaled child joint: DQS refuses it (exit 1) naming the joint and the scale, and the
 * outputs of an earlier run stay as they were. */
static void test_lab30_dqs_rejects_scaled_child_and_loses_nothing(void **state)
{
    run_ctx *ctx = *state;
    assert_int_equal(run_lab(ctx, ctx->dir), 0);
    char *before = tu_read_file(tu_path(ctx->dir, "dqs30.json"), NULL);
    assert_int_equal(run_lab(ctx, "--child-scale", "2,1,1", ctx->dir), 1);
    assert_true(tu_file_contains(ctx->err_path, "rigid skin matrices only"));
    assert_true(tu_file_contains(ctx->err_path, "joint 1"));
    assert_true(tu_file_contains(ctx->err_path, "column scales (2, 1, 1)"));
    char *after = tu_read_file(tu_path(ctx->dir, "dqs30.json"), NULL);
    assert_string_equal(before, after);
    assert_int_equal(tu_count_entries(ctx->dir), OUTPUT_COUNT + 1); /* and the manifest */
    free(before);
    free(after);
    assert_int_equal(run_lab(ctx, "--child-scale", "1", ctx->dir), 0); /* no scale: fine */
}

/* The twist: DQS keeps every radius; LBS follows the article's formula; both checked from
 * the positions with this test's arithmetic. */
static void test_lab30_dqs_twist_evidence(void **state)
{
    run_ctx *ctx = *state;
    assert_int_equal(run_lab(ctx, ctx->dir), 0);
    for (int i = 0; i < OUTPUT_COUNT; i++)
        assert_true(tu_exists(tu_path(ctx->dir, outputs[i])));
    cJSON *root = tu_json_load(tu_path(ctx->dir, "dqs30.json"));
    assert_non_null(root);
    /* the companion text calls the map one-to-one; the report corrects it */
    assert_true(tu_file_contains(ctx->out_path, "the map is two-to-one"));
    cJSON *poses = tu_json_get(root, "poses"), *p;
    assert_int_equal(cJSON_GetArraySize(poses), 10);
    int twists = 0;
    cJSON_ArrayForEach(p, poses)
    {
        if (strcmp(cJSON_GetStringValue(tu_json_get(p, "rig")), "twist"))
            continue;
        twists++;
        bool dqs = !strcmp(cJSON_GetStringValue(tu_json_get(p, "method")), "DQS");
        double theta = tu_json_num(p, "angle_deg") * 3.141592653589793 / 180;
        cJSON *pos = tu_json_get(p, "positions");
        for (int ring = 0; ring < 9; ring++) {
            double w = ring / 8.0, s = sin(theta / 2);
            double expect = dqs ? 1.0 : sqrt(1 - 4 * w * (1 - w) * s * s);
            for (int k = 0; k < 24; k++) {
                cJSON *q = cJSON_GetArrayItem(pos, ring * 24 + k);
                assert_near(hypot(at(q, 0), at(q, 1)), expect, 1e-12);
            }
        }
    }
    assert_int_equal(twists, 6);
    cJSON *checks = tu_json_get(root, "checks");
    assert_true(tu_json_num(tu_json_get(checks, "dqs_twist"), "max_position_error") < 1e-12);
    assert_true(tu_json_num(tu_json_get(checks, "lbs_twist"), "max_position_error") < 1e-12);
    cJSON *shortway = tu_json_get(checks, "short_way_270");
    assert_near(tu_json_num(shortway, "middle_turn_with_fix_deg"), -(45), 1e-9);
    assert_near(tu_json_num(shortway, "middle_turn_without_fix_deg"), 135, 1e-9);
    cJSON *full = tu_json_get(tu_json_get(checks, "full_turn_360"), "without_fix");
    assert_true(cJSON_IsTrue(tu_json_get(full, "rejected")));
    assert_non_null(strstr(cJSON_GetStringValue(tu_json_get(full, "message")), "vertex 96"));
    assert_true(cJSON_IsTrue(tu_json_get(tu_json_get(checks, "rigid_only"), "rejected")));
    assert_true(tu_json_num(checks, "sign_q_vs_minus_q_max_difference") < 1e-12);
    cJSON_Delete(root);
}

/* lab30-dqs.c writes the DQS blend (hemisphere rule, normalisation, Kavan's point
 * transform) in its own lines. The library's job (skin_deform with SKIN_DQS, through
 * rig30_pose_at) must give the same positions on every vertex of every pose of both rigs:
 * at seeded angles of both signs, at the +-180 seam and beyond one turn. */
static void test_lab30_dqs_formula_matches_the_library_job(void **state)
{
    run_ctx *ctx = *state;
    unsigned seed = 3007u;
    double angle[2][4] = {{-180, 180, 540, 0}, {-90, 0, 0, 0}};
    for (int i = 0; i < 4; i++) { /* seeded, distinct, in [-720, 720) */
        seed = seed * 1103515245u + 12345u;
        double a = -720.0 + (double)(seed >> 8) / (double)(1u << 24) * 1440.0;
        if (i == 3)
            angle[0][3] = a;
        else
            angle[1][1 + i] = a;
    }
    char twist[160], bend[160];
    snprintf(twist, sizeof twist, "%.17g,%.17g,%.17g,%.17g", angle[0][0], angle[0][1], angle[0][2], angle[0][3]);
    snprintf(bend, sizeof bend, "%.17g,%.17g,%.17g,%.17g", angle[1][0], angle[1][1], angle[1][2], angle[1][3]);
    assert_int_equal(run_lab(ctx, "--twist", twist, "--bend", bend, ctx->dir), 0);
    cJSON *root = tu_json_load(tu_path(ctx->dir, "dqs30.json")), *p;
    assert_non_null(root);
    rig30_rig rigs[2];
    rig30_pose pose[2];
    for (int kind = 0; kind < 2; kind++) {
        assert_int_equal(rig30_rig_build(&rigs[kind], (rig30_kind)kind, NULL, NULL), LAB_OK);
        assert_int_equal(rig30_pose_alloc(&rigs[kind], &pose[kind], NULL), LAB_OK);
    }
    int compared = 0;
    double worst = 0;
    cJSON_ArrayForEach(p, tu_json_get(root, "poses"))
    {
        int kind = strcmp(cJSON_GetStringValue(tu_json_get(p, "rig")), "twist") ? RIG30_BEND : RIG30_TWIST;
        bool dqs = !strcmp(cJSON_GetStringValue(tu_json_get(p, "method")), "DQS");
        double theta = deg_to_rad(tu_json_num(p, "angle_deg"));
        assert_int_equal(rig30_pose_at(&rigs[kind], theta, (skin_blend){.method = dqs ? SKIN_DQS : SKIN_LBS},
                                       &pose[kind], NULL), LAB_OK);
        cJSON *pos = tu_json_get(p, "positions");
        assert_int_equal(cJSON_GetArraySize(pos), rigs[kind].bind.vertex_count);
        for (int v = 0; v < rigs[kind].bind.vertex_count; v++) {
            cJSON *q = cJSON_GetArrayItem(pos, v);
            vec3 got = vec3_make(at(q, 0), at(q, 1), at(q, 2));
            double diff = vec3_length(vec3_sub(got, pose[kind].positions[v]));
            worst = isnan(diff) || diff > worst ? diff : worst;
        }
        compared += dqs;
    }
    assert_int_equal(compared, 8); /* every DQS pose: 4 twists, 4 bends */
    if (!(worst <= 1e-12))
        fail_msg("the program's DQS and the library's differ by %.3g (tolerance 1e-12)", worst);
    for (int kind = 0; kind < 2; kind++)
        rig30_pose_free(&pose[kind]), rig30_rig_free(&rigs[kind]);
    cJSON_Delete(root);
}

/* The bend: LBS collapses the inner side, DQS keeps it and bulges on the outer side. */
static void test_lab30_dqs_bend_evidence(void **state)
{
    run_ctx *ctx = *state;
    assert_int_equal(run_lab(ctx, "--twist", "90", "--bend", "60,90,120", ctx->dir), 0);
    cJSON *root = tu_json_load(tu_path(ctx->dir, "dqs30.json"));
    cJSON *poses = tu_json_get(root, "poses"), *p;
    double inner[2][3] = {{0}}, bulge[2][3] = {{0}};
    int seen = 0;
    cJSON_ArrayForEach(p, poses)
    {
        if (strcmp(cJSON_GetStringValue(tu_json_get(p, "rig")), "bend"))
            continue;
        int m = !strcmp(cJSON_GetStringValue(tu_json_get(p, "method")), "DQS");
        int k = (int)(tu_json_num(p, "angle_deg") / 30) - 2;
        inner[m][k] = tu_json_num(tu_json_get(p, "bend"), "inner_min_distance");
        bulge[m][k] = tu_json_num(tu_json_get(p, "bend"), "outer_max_bulge");
        seen++;
    }
    assert_int_equal(seen, 6);
    for (int k = 0; k < 3; k++) {
        double beta = (k + 2) * 30 * 3.141592653589793 / 180;
        /* LBS: the joint ring's inner vertex is averaged to cos(beta/2) from the joint */
        assert_near(inner[0][k], cos(beta / 2), 1e-9);
        assert_near(inner[1][k], 1.0, 1e-9);
        assert_true(bulge[1][k] > bulge[0][k]);
    }
    assert_true(inner[0][2] < inner[0][1] && inner[0][1] < inner[0][0]); /* worse as it bends */
    cJSON_Delete(root);
    assert_true(tu_exists(tu_path(ctx->dir, "dqs30-lbs-bend120.png")));
}

/* The CSV holds the figure's rings and the plot's sweep; the plot shows every LBS colour. */
/* Twists at the seams a student reaches first: -180 (the top ring's vertices straddle the
 * -180/+180 cut) and 540 (the child's quaternion has a real part that is zero up to
 * rounding), with their neighbours and a full turn: every check passes. */
static void test_lab30_dqs_twists_at_the_seams(void **state)
{
    run_ctx *ctx = *state;
    const char *twists[] = {"-180,540,-540,180", "360,-720,179.5,-180.5"};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(run_lab(ctx, "--twist", twists[i], ctx->dir), 0);
        assert_true(tu_file_contains(ctx->out_path, "All checks passed."));
        assert_false(tu_file_contains(ctx->out_path, "FAIL"));
    }
}

static void test_lab30_dqs_csv_and_plot(void **state)
{
    run_ctx *ctx = *state;
    assert_int_equal(run_lab(ctx, ctx->dir), 0);
    char *csv = tu_read_file(tu_path(ctx->dir, "dqs30-rings.csv"), NULL);
    int lines = 0, sweep = 0;
    for (char *line = csv; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        lines++;
        sweep += !strncmp(line, "LBS,sweep,", 10) || !strncmp(line, "DQS,sweep,", 10);
    }
    assert_int_equal(lines, 1 + 10 * 9 + 2 * 4 * 21);
    assert_int_equal(sweep, 2 * 4 * 21);
    assert_non_null(strstr(csv, "LBS,sweep,180,10,0.5,")); /* w = 1/2 at 180 deg */
    free(csv);
    tu_image img;
    assert_true(tu_image_load(tu_path(ctx->dir, "dqs30-radius.png"), &img));
    const unsigned char colors[4][3] = {{0, 114, 178}, {0, 158, 115}, {213, 94, 0}, {204, 121, 167}};
    for (int c = 0; c < 4; c++) {
        int found = 0;
        for (int i = 0; i < img.width * img.height && !found; i++)
            found = !memcmp(img.rgb + 3 * i, colors[c], 3);
        assert_true(found);
    }
    tu_image_free(&img);
}

/* The LBS-versus-DQS text's picture: with this test's own arithmetic, M1 v = (0, 1, 0)
 * and M2 v = (0, -1, 0), so LBS's half-and-half lands on the centre, and DQS (the half
 * of +90 and -90 degrees is no turn) leaves v where it was, on the unit circle. */
static void test_lab30_dqs_chord_sketch(void **state)
{
    run_ctx *ctx = *state;
    assert_int_equal(run_lab(ctx, ctx->dir), 0);
    cJSON *root = tu_json_load(tu_path(ctx->dir, "dqs30.json"));
    cJSON *chord = tu_json_get(root, "chord_sketch");
    const double m1[3] = {0, 1, 0}, m2[3] = {0, -1, 0}, v[3] = {1, 0, 0};
    for (int i = 0; i < 3; i++) {
        assert_near(at(tu_json_get(chord, "M1_v"), i), m1[i], 1e-15);
        assert_near(at(tu_json_get(chord, "M2_v"), i), m2[i], 1e-15);
        assert_near(at(tu_json_get(chord, "lbs"), i), 0.5 * (m1[i] + m2[i]), 1e-15);
        assert_near(at(tu_json_get(chord, "dqs"), i), v[i], 1e-15);
    }
    assert_true(tu_json_num(chord, "lbs_distance_from_centre") < 1e-15);
    assert_near(tu_json_num(chord, "dqs_distance_from_centre"), 1.0, 1e-15);
    cJSON_Delete(root);
    assert_true(tu_file_contains(ctx->out_path, "LBS distance from the centre"));
    tu_image img; /* the chord is drawn: the LBS marker (red) and the DQS marker (green) */
    assert_true(tu_image_load(tu_path(ctx->dir, "dqs30-chord.png"), &img));
    assert_true(tu_image_count_color(&img, 200, 30, 30) > 49); /* the LBS marker (7x7) and its label */
    assert_true(tu_image_count_color(&img, 0, 140, 60) > 49);  /* the DQS marker and its label */
    tu_image_free(&img);
}

/* The animations, decoded by giflib here: a whole twist every 10 degrees (37 frames) and a
 * bend to 150 degrees every 15 (11), 0.12 s a frame, looping; LBS beside DQS, and at the
 * figure's poses each half is that pose's PNG panel, pixel for pixel. */
static void test_lab30_dqs_animations(void **state)
{
    run_ctx *ctx = *state;
    assert_int_equal(run_lab(ctx, ctx->dir), 0);
    static const struct {
        const char *gif, *rig;
        int frames, angles[3];
        int step;
    } anims[2] = {{"dqs30-twist.gif", "twist", 37, {90, 180, 270}, 10}, {"dqs30-bend.gif", "bend", 11, {90, 135, -1}, 15}};
    for (int a = 0; a < 2; a++) {
        tu_gif gif;
        tu_check_animation(tu_path(ctx->dir, anims[a].gif), anims[a].frames, 12, &gif);
        for (int i = 0; i < 3 && anims[a].angles[i] >= 0; i++)
            for (int m = 0; m < 2; m++) {
                char name[64];
                snprintf(name, sizeof name, "dqs30-%s-%s%03d.png", m ? "dqs" : "lbs", anims[a].rig, anims[a].angles[i]);
                tu_image panel;
                assert_true(tu_image_load(tu_path(ctx->dir, name), &panel));
                int x, y, k = anims[a].angles[i] / anims[a].step;
                if (!tu_image_find(&gif.frames[k], &panel, &x, &y))
                    fail_msg("%s frame %d does not hold %s", anims[a].gif, k, name);
                assert_true(m ? x > gif.width / 2 : x < gif.width / 2); /* LBS left, DQS right */
                tu_image_free(&panel);
            }
        tu_gif_free(&gif);
    }
}

static void test_lab30_dqs_deterministic_and_committed(void **state)
{
    (void)state;
    tu_check_deterministic_and_committed(LAB, NULL, NULL, outputs, OUTPUT_COUNT, "lab30-dqs");
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup_dir, teardown_dir)
    const struct CMUnitTest tests[] = {
        T(test_lab30_dqs_usage_and_output_errors),
        T(test_lab30_dqs_rejects_scaled_child_and_loses_nothing),
        T(test_lab30_dqs_twist_evidence),
        T(test_lab30_dqs_formula_matches_the_library_job),
        T(test_lab30_dqs_bend_evidence),
        T(test_lab30_dqs_twists_at_the_seams),
        T(test_lab30_dqs_csv_and_plot),
        T(test_lab30_dqs_chord_sketch),
        T(test_lab30_dqs_animations),
        T(test_lab30_dqs_deterministic_and_committed),
    };
#undef T
    return cmocka_run_group_tests_name("lab30-dqs end to end", tests, NULL, NULL);
}
