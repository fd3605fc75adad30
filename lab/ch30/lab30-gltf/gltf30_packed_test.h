/* gltf30_packed_test.h - what lab30-gltf's suites of shipped assets share
 * (test_lab30_gltf_packed.c: gltfpack's quantized and meshopt files; test_lab30_gltf_draco.c:
 * draco_transcoder's files): the tools, the comparison of a packed file with its source,
 * and a compressed export to break. Tests only.
 *
 * Delivery tools reorder and may merge vertices, so each sampled time compares the two
 * point sets (the symmetric Hausdorff distance) against a bound made of the steps the
 * packed file declares:
 *
 *   B = (sqrt 3 / 2) s_pos (1 + sum |morph weight|)   positions and deltas: half a step
 *     + 4 w_step R                                    weights: K = 4 of them, each off by
 *                                                     half a step, moving towards joint
 *                                                     candidates up to 2R apart
 *     + 4 r_step R                                    rotation keys: each component off by
 *                                                     half a step turns p by up to 4 of them
 *     + 1e-6                                          float32 rounding of the rest
 *
 * with R the largest |p| of the source's positions. */
#ifndef GLTF30_PACKED_TEST_H
#define GLTF30_PACKED_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmocka_all.h"
#include "testutil.h"

#define LAB LAB_BIN_DIR "/lab30-gltf"
#define GLTFPACK "/usr/bin/gltfpack" /* Debian's package gltfpack (scripts/ensure-deps.sh) */
#define DRACO_TRANSCODER "/usr/bin/draco_transcoder" /* Debian's package draco */

/* Every part's positions at time k of a gltf30.json, as one point set. */
static inline int points(const cJSON *json, int k, double (**out)[3])
{
    const cJSON *parts = tu_json_get(cJSON_GetArrayItem(tu_json_get(json, "times"), k), "parts"), *part, *v;
    int n = 0;
    cJSON_ArrayForEach(part, parts) n += cJSON_GetArraySize(tu_json_get(part, "positions"));
    *out = malloc(sizeof **out * (size_t)(n ? n : 1));
    n = 0;
    cJSON_ArrayForEach(part, parts) cJSON_ArrayForEach(v, tu_json_get(part, "positions")) {
        for (int c = 0; c < 3; c++)
            (*out)[n][c] = cJSON_GetArrayItem(v, c)->valuedouble;
        n++;
    }
    return n;
}

/* The larger of the two directed distances: every point of each set near one of the other. */
static inline double hausdorff(double (*a)[3], int na, double (*b)[3], int nb)
{
    double worst = 0.0;
    for (int pass = 0; pass < 2; pass++) {
        double (*p)[3] = pass ? b : a, (*q)[3] = pass ? a : b;
        int np = pass ? nb : na, nq = pass ? na : nb;
        for (int i = 0; i < np; i++) {
            double best = INFINITY;
            for (int j = 0; j < nq; j++)
                best = fmin(best, hypot(hypot(p[i][0] - q[j][0], p[i][1] - q[j][1]), p[i][2] - q[j][2]));
            worst = fmax(worst, best);
        }
    }
    return worst;
}

/* Skins src and packed at three times inside src's range (under `policy`) and compares
 * the point sets within the bound of the steps s_pos, w_step, r_step (see the top);
 * returns the largest distance over the bound. */
static inline double compare_runs(tu_run_dir *ctx, const char *src, const char *packed, const char *name, const char *policy,
                           double s_pos, double w_step, double r_step)
{
    char out_src[160], out_packed[160], times[96];
    snprintf(out_src, sizeof out_src, "%s/%s-src", ctx->dir, name);
    snprintf(out_packed, sizeof out_packed, "%s/%s-out", ctx->dir, name);
    assert_int_equal(mkdir(out_src, 0777), 0);
    assert_int_equal(mkdir(out_packed, 0777), 0);
    assert_int_equal(tu_run_program(LAB, ctx->out_path, ctx->err_path, "--policy", policy, src, out_src, (char *)NULL), 0);
    cJSON *first = tu_json_load(tu_path(out_src, "gltf30.json"));
    double start = cJSON_GetArrayItem(tu_json_get(first, "animation_range"), 0)->valuedouble;
    double end = cJSON_GetArrayItem(tu_json_get(first, "animation_range"), 1)->valuedouble;
    cJSON_Delete(first);
    snprintf(times, sizeof times, "%.17g,%.17g,%.17g", start + 0.25 * (end - start), start + 0.5 * (end - start),
             start + 0.75 * (end - start));
    assert_int_equal(tu_run_program(LAB, ctx->out_path, ctx->err_path, "--policy", policy, "--time", times, src, out_src,
                                    (char *)NULL), 0);
    assert_int_equal(tu_run_program(LAB, ctx->out_path, ctx->err_path, "--policy", policy, "--time", times, packed,
                                    out_packed, (char *)NULL), 0);
    assert_true(tu_file_contains(ctx->out_path, "All checks passed."));
    cJSON *a = tu_json_load(tu_path(out_src, "gltf30.json")), *b = tu_json_load(tu_path(out_packed, "gltf30.json"));
    double worst_ratio = 0.0;
    for (int k = 0; k < 3; k++) {
        double (*p)[3], (*q)[3], radius = 0.0, morph = 0.0;
        int np = points(a, k, &p), nq = points(b, k, &q);
        for (int i = 0; i < np; i++)
            radius = fmax(radius, hypot(hypot(p[i][0], p[i][1]), p[i][2]));
        const cJSON *part, *w;
        cJSON_ArrayForEach(part, tu_json_get(cJSON_GetArrayItem(tu_json_get(a, "times"), k), "parts"))
            cJSON_ArrayForEach(w, cJSON_GetObjectItem(part, "morph_weights")) morph += fabs(w->valuedouble);
        double bound = sqrt(3.0) / 2 * s_pos * (1 + morph) + 4 * w_step * radius + 4 * r_step * radius + 1e-6;
        double distance = hausdorff(p, np, q, nq);
        printf("  %s t = %.4g: %d and %d vertices, %.3g apart, bound %.3g (s_pos %.3g, w %.3g, r %.3g)\n", name,
               start + 0.25 * (k + 1) * (end - start), np, nq, distance, bound, s_pos, w_step, r_step);
        worst_ratio = fmax(worst_ratio, distance / bound);
        free(p), free(q);
    }
    cJSON_Delete(a), cJSON_Delete(b);
    return worst_ratio;
}

static inline cJSON *load_json(const char *path)
{
    char *text = tu_read_file(path, NULL);
    assert_non_null(text);
    cJSON *root = cJSON_Parse(text);
    free(text);
    assert_non_null(root);
    return root;
}

/* The export through `tool` (with `flag`, or none) into dir/name.gltf, the name of a broken
 * copy beside it (sharing its .bin) and an OUTDIR. */
static inline void compressed_export(tu_run_dir *ctx, const char *tool, const char *flag, const char *name, char file[160],
                              char broken[160], char out[160])
{
    snprintf(file, 160, "%s/%s.gltf", ctx->dir, name);
    snprintf(broken, 160, "%s/broken.gltf", ctx->dir);
    snprintf(out, 160, "%s/out", ctx->dir);
    assert_int_equal(mkdir(out, 0777), 0);
    char *argv[] = {(char *)tool, "-i", COMMITTED_OUT_DIR "/ch30/skinning30.gltf", "-o", file, (char *)flag, NULL};
    assert_int_equal(tu_run(argv, NULL, ctx->err_path), 0);
}

#endif
