/* test_lab30_gltf_formula.c - the library's job held to the program's lines: lab30-gltf.c
 * writes glTF's joint matrices J_j = G(skin.joints[j]) IBM_j and the blend; the library's
 * gltf_skin_at (sampling, world matrices, morph weights, gltf_skin_primitive) must give the
 * same positions for every skinned part at every time: the lab's assets, both methods, both
 * policies, at seeded times inside, before and after each animation's range. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_all.h"
#include "testutil.h"

#include "base/diag.h"
#include "gltf/gltf.h"
#include "math/linalg.h"

#define LAB LAB_BIN_DIR "/lab30-gltf"
#define run_lab(ctx, ...) tu_run_program(LAB, (ctx)->out_path, (ctx)->err_path, __VA_ARGS__, (char *)NULL)
typedef tu_run_dir run_ctx;

static double uniform(unsigned long long *x)
{
    *x = *x * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*x >> 11) / 9007199254740992.0;
}

/* The largest distance between the program's positions in OUTDIR/gltf30.json and the
 * library's at the same times; *parts counts the skinned parts compared. */
static double compare_with_the_library(const char *asset, const char *dir, skin_method method,
                                       skin_policy_kind policy, int *parts)
{
    gltf_document doc = {0};
    assert_int_equal(gltf_load(asset, &doc, NULL), LAB_OK);
    assert_int_equal(gltf_validate(&doc, NULL), LAB_OK);
    cJSON *root = tu_json_load(tu_path(dir, "gltf30.json")), *time, *part;
    assert_non_null(root);
    int animation = (int)tu_json_num(tu_json_get(root, "animation"), "index");
    double worst = 0;
    cJSON_ArrayForEach(time, tu_json_get(root, "times"))
    {
        double t = tu_json_num(time, "time");
        cJSON_ArrayForEach(part, tu_json_get(time, "parts"))
        {
            if (strcmp(cJSON_GetStringValue(tu_json_get(part, "kind")), "skinned"))
                continue;
            int node = (int)tu_json_num(part, "node"), primitive = (int)tu_json_num(part, "primitive");
            cJSON *positions = tu_json_get(part, "positions");
            int n = cJSON_GetArraySize(positions);
            vec3 *mine = malloc(sizeof(vec3) * (size_t)(n ? n : 1));
            assert_non_null(mine);
            assert_int_equal(gltf_skin_at(&doc, animation, t, node, primitive, method, policy, mine, NULL, NULL, NULL),
                             LAB_OK);
            for (int v = 0; v < n; v++) {
                cJSON *q = cJSON_GetArrayItem(positions, v);
                vec3 got = vec3_make(tu_json_number(cJSON_GetArrayItem(q, 0)), tu_json_number(cJSON_GetArrayItem(q, 1)),
                                     tu_json_number(cJSON_GetArrayItem(q, 2)));
                worst = max_or_nan(worst, vec3_length(vec3_sub(got, mine[v])));
            }
            free(mine);
            (*parts)++;
        }
    }
    cJSON_Delete(root);
    gltf_free(&doc);
    return worst;
}

static void test_lab30_gltf_formula_matches_the_library_job(void **state)
{
    run_ctx *ctx = *state;
    static const char *const assets[] = {"assets/SimpleSkin.gltf", "assets/RiggedSimple.gltf",
                                         "assets/RiggedFigure.gltf"};
    static const char *const methods[] = {"lbs", "dqs"}, *const policies[] = {"strict", "normalize"};
    unsigned long long seed = 3073;
    for (int a = 0; a < 3; a++)
        for (int m = 0; m < 2; m++) {
            char times[128]; /* seeded in [-1, 6] s: before, inside and after every range here */
            snprintf(times, sizeof times, "%.17g,%.17g,%.17g", -1 + 7 * uniform(&seed), -1 + 7 * uniform(&seed),
                     -1 + 7 * uniform(&seed));
            int p = (a + m) % 2, parts = 0;
            assert_int_equal(run_lab(ctx, "--time", times, "--method", methods[m], "--policy", policies[p], assets[a],
                                     ctx->dir),
                             0);
            double worst = compare_with_the_library(assets[a], ctx->dir, (skin_method)m, (skin_policy_kind)p, &parts);
            assert_true(parts >= 3);
            if (!(worst <= 1e-12))
                fail_msg("%s, %s: the program's positions and gltf_skin_at's differ by %.3g (tolerance 1e-12)",
                         assets[a], methods[m], worst);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_lab30_gltf_formula_matches_the_library_job, tu_run_dir_setup,
                                        tu_run_dir_teardown),
    };
    return cmocka_run_group_tests_name("lab30-gltf's formula against the library", tests, NULL, NULL);
}
