/* test_lab30_gltf_packed.c - end to end: assets as they are shipped, made at test time by
 * Debian's gltfpack from the lab's own exports and a committed sample, and skinned by
 * build/bin/lab30-gltf beside their sources. gltfpack quantizes (KHR_mesh_quantization:
 * integer positions, normalized integer weights, rotations and morph deltas), reorders and
 * may merge vertices, so each sampled time compares the two point sets (the symmetric
 * Hausdorff distance) against a bound made of the steps the packed file declares:
 *
 *   B = (sqrt 3 / 2) s_pos (1 + sum |morph weight|)   positions and deltas: half a step
 *     + 4 w_step R                                    weights: K = 4 of them, each off by
 *                                                     half a step, moving towards joint
 *                                                     candidates up to 2R apart
 *     + 4 r_step R                                    rotation keys: each component off by
 *                                                     half a step turns p by up to 4 of them
 *     + 1e-6                                          float32 rounding of the rest
 *
 * s_pos is the dequantizing scale gltfpack writes on the mesh node (the skin takes it
 * through the inverse binds), w_step 1/255 or 1/65535 for normalized unsigned weights,
 * r_step 1/32767 for normalized short rotations, R the largest |p| of the source's
 * positions. gltfpack runs as `gltfpack -i SRC -o OUT -ar 16 -at 24 -af 0`: rotations and
 * translations at their stored types' full precision, no resampling, so that the steps
 * the file declares are the steps it has. */
#define _POSIX_C_SOURCE 200809L
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

static double type_step(const cJSON *accessor)
{
    int type = (int)tu_json_num(accessor, "componentType");
    bool normalized = cJSON_IsTrue(cJSON_GetObjectItem(accessor, "normalized"));
    if (type == 5126 || !normalized)
        return 0.0; /* floats; integers not normalized are exact (positions: s_pos) */
    return type == 5120 ? 1.0 / 127 : type == 5121 ? 1.0 / 255 : type == 5122 ? 1.0 / 32767 : 1.0 / 65535;
}

/* The steps the packed file declares (see the top). */
static void declared_steps(const cJSON *root, double *s_pos, double *w_step, double *r_step, bool *quantized)
{
    const cJSON *accessors = tu_json_get(root, "accessors"), *node, *mesh, *a;
    *s_pos = *w_step = *r_step = 0.0;
    cJSON_ArrayForEach(node, tu_json_get(root, "nodes")) {
        const cJSON *scale = cJSON_GetObjectItem(node, "scale");
        for (int k = 0; cJSON_GetObjectItem(node, "mesh") && scale && k < 3; k++)
            *s_pos = fmax(*s_pos, fabs(cJSON_GetArrayItem(scale, k)->valuedouble));
    }
    cJSON_ArrayForEach(mesh, tu_json_get(root, "meshes")) {
        const cJSON *p;
        cJSON_ArrayForEach(p, tu_json_get(mesh, "primitives")) {
            const cJSON *w = cJSON_GetObjectItem(tu_json_get(p, "attributes"), "WEIGHTS_0");
            if (w)
                *w_step = fmax(*w_step, type_step(cJSON_GetArrayItem(accessors, w->valueint)));
        }
    }
    const cJSON *animation;
    cJSON_ArrayForEach(animation, tu_json_get(root, "animations")) {
        const cJSON *s;
        cJSON_ArrayForEach(s, tu_json_get(animation, "samplers"))
            if ((a = cJSON_GetArrayItem(accessors, (int)tu_json_num(s, "output"))) && !strcmp(
                    cJSON_GetStringValue(tu_json_get(a, "type")), "VEC4"))
                *r_step = fmax(*r_step, type_step(a));
    }
    *quantized = false;
    cJSON_ArrayForEach(a, cJSON_GetObjectItem(root, "extensionsRequired"))
        *quantized |= !strcmp(cJSON_GetStringValue(a), "KHR_mesh_quantization");
}

/* Every part's positions at time k of a gltf30.json, as one point set. */
static int points(const cJSON *json, int k, double (**out)[3])
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
static double hausdorff(double (*a)[3], int na, double (*b)[3], int nb)
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
static double compare_runs(tu_run_dir *ctx, const char *src, const char *packed, const char *name, const char *policy,
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

static cJSON *load_json(const char *path)
{
    char *text = tu_read_file(path, NULL);
    assert_non_null(text);
    cJSON *root = cJSON_Parse(text);
    free(text);
    assert_non_null(root);
    return root;
}

/* Packs src with gltfpack (with `compress`: -c, -cc, or "" for quantization alone) and
 * compares the result with src within the steps the packed file declares. */
static double packed_against_source(tu_run_dir *ctx, const char *src, const char *name, const char *compress)
{
    char packed[160], tag[64];
    snprintf(tag, sizeof tag, "%s%s", name, compress);
    snprintf(packed, sizeof packed, "%s/%s-packed.gltf", ctx->dir, tag);
    char *pack[] = {GLTFPACK, "-i", (char *)src, "-o", packed, "-ar", "16", "-at", "24", "-af", "0",
                    compress[0] ? (char *)compress : NULL, NULL};
    assert_int_equal(tu_run(pack, NULL, ctx->err_path), 0);
    cJSON *root = load_json(packed);
    double s_pos, w_step, r_step;
    bool quantized, meshopt = false;
    declared_steps(root, &s_pos, &w_step, &r_step, &quantized);
    const cJSON *ext;
    cJSON_ArrayForEach(ext, cJSON_GetObjectItem(root, "extensionsRequired"))
        meshopt |= !strcmp(cJSON_GetStringValue(ext), "EXT_meshopt_compression");
    cJSON_Delete(root);
    assert_true(quantized && s_pos > 0.0);
    assert_int_equal(meshopt, compress[0] != '\0'); /* -c, -cc: EXT_meshopt_compression */
    double ratio = compare_runs(ctx, src, packed, tag, "strict", s_pos, w_step, r_step);
    /* the report checked what meshopt decoded against the bounds the file declares */
    assert_true(!compress[0] || tu_file_contains(ctx->out_path, "decoded POSITION outside its declared min/max"));
    return ratio;
}

/* KHR_mesh_quantization from gltfpack: the chapter's export (a skinned twist), the
 * corrective export (a skin and an animated morph target) and RiggedFigure (a sample of
 * 19 joints) each skin within the steps their packed files declare. */
static void test_lab30_gltf_quantized_within_the_declared_steps(void **state)
{
    tu_run_dir *ctx = *state;
    const char *sources[3][2] = {{COMMITTED_OUT_DIR "/ch30/skinning30.gltf", "export"},
                                 {COMMITTED_OUT_DIR "/ch30/fixes30-corrective.gltf", "corrective"},
                                 {"assets/RiggedFigure.gltf", "RiggedFigure"}};
    for (int i = 0; i < 3; i++)
        assert_true(packed_against_source(ctx, sources[i][0], sources[i][1], "") <= 1.0);
}

/* EXT_meshopt_compression from gltfpack -c (and -cc, which adds the octahedral and
 * quaternion filters): the same three, decoded by libmeshoptimizer, within the same steps
 * (the codec is lossless over the quantized data; the filters keep the stored types). */
static void test_lab30_gltf_meshopt_within_the_declared_steps(void **state)
{
    tu_run_dir *ctx = *state;
    const char *sources[3][2] = {{COMMITTED_OUT_DIR "/ch30/skinning30.gltf", "export"},
                                 {COMMITTED_OUT_DIR "/ch30/fixes30-corrective.gltf", "corrective"},
                                 {"assets/RiggedFigure.gltf", "RiggedFigure"}};
    for (int i = 0; i < 3; i++) {
        assert_true(packed_against_source(ctx, sources[i][0], sources[i][1], "-c") <= 1.0);
        assert_true(packed_against_source(ctx, sources[i][0], sources[i][1], "-cc") <= 1.0);
    }
}

/* The export with extensionsUsed and extensionsRequired set (JSON arrays as text). */
static const char *with_extensions(tu_run_dir *ctx, const char *used, const char *required)
{
    char *text = tu_read_file(COMMITTED_OUT_DIR "/ch30/skinning30.gltf", NULL);
    cJSON *root = cJSON_Parse(text);
    free(text);
    cJSON_AddItemToObject(root, "extensionsUsed", cJSON_Parse(used));
    if (required)
        cJSON_AddItemToObject(root, "extensionsRequired", cJSON_Parse(required));
    text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    const char *path = tu_path(ctx->dir, "extended.gltf");
    assert_true(tu_write_file(path, text));
    free(text);
    return path;
}

/* An extension the reader does not read: required, the asset is refused naming it and
 * not as a breach of glTF (it may be valid); used only, it is ignored and the report says
 * so. KHR_mesh_quantization, which the reader reads, may be either. */
static void test_lab30_gltf_extensions_read_required_and_ignored(void **state)
{
    tu_run_dir *ctx = *state;
    char out[160];
    snprintf(out, sizeof out, "%s/out", ctx->dir);
    assert_int_equal(mkdir(out, 0777), 0);
    const char *path = with_extensions(ctx, "[\"KHR_texture_basisu\"]", "[\"KHR_texture_basisu\"]");
    assert_int_equal(tu_run_program(LAB, ctx->out_path, ctx->err_path, path, out, (char *)NULL), 1);
    assert_true(tu_file_contains(ctx->err_path, "may require only the extensions this reader reads, "
                                                "/extensionsRequired/0, uses \"KHR_texture_basisu\", which "
                                                "this reader does not read"));
    assert_false(tu_file_contains(ctx->err_path, "must follow the glTF 2.0 specification"));
    assert_int_equal(tu_count_entries(out), 0);
    path = with_extensions(ctx, "[\"KHR_materials_variants\", \"KHR_mesh_quantization\"]", "[\"KHR_mesh_quantization\"]");
    assert_int_equal(tu_run_program(LAB, ctx->out_path, ctx->err_path, path, out, (char *)NULL), 0);
    assert_true(tu_file_contains(ctx->out_path, "extensions this reader ignores (used, not required): "
                                                "KHR_materials_variants"));
    assert_true(tu_file_contains(ctx->out_path, "KHR_mesh_quantization: integer positions"));
}

/* A compressed file broken one way: the first compressed view's extension edited. */
typedef struct {
    const char *name, *key, *json; /* the field of the first view's EXT_meshopt_compression, its new value */
    const char *message;           /* what the error must say, after the view's pointer */
} broken_case;

/* The export through `tool` (with `flag`, or none) into dir/name.gltf, the name of a broken
 * copy beside it (sharing its .bin) and an OUTDIR. */
static void compressed_export(tu_run_dir *ctx, const char *tool, const char *flag, const char *name, char file[160],
                              char broken[160], char out[160])
{
    snprintf(file, 160, "%s/%s.gltf", ctx->dir, name);
    snprintf(broken, 160, "%s/broken.gltf", ctx->dir);
    snprintf(out, 160, "%s/out", ctx->dir);
    assert_int_equal(mkdir(out, 0777), 0);
    char *argv[] = {(char *)tool, "-i", COMMITTED_OUT_DIR "/ch30/skinning30.gltf", "-o", file, (char *)flag, NULL};
    assert_int_equal(tu_run(argv, NULL, ctx->err_path), 0);
}

static void test_lab30_gltf_meshopt_broken_streams_are_refused(void **state)
{
    tu_run_dir *ctx = *state;
    char packed[160], broken[160], out[160];
    compressed_export(ctx, GLTFPACK, "-c", "export-c", packed, broken, out);
    static const broken_case cases[] = {
        {"a truncated stream", "byteLength", "8", "EXT_meshopt_compression: meshopt_decodeVertexBuffer returned"},
        {"a wrong count", "count", "217", "EXT_meshopt_compression: count 217 x byteStride"},
        {"an unknown filter", "filter", "\"WAVELET\"", "filter \"WAVELET\" is not NONE"},
        {"a stride a mode does not allow", "mode", "\"TRIANGLES\"", "is not allowed in mode TRIANGLES"},
        {"the fallback buffer as the source", "buffer", "1", "buffer 1 is a fallback buffer, which holds no data"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *text = tu_read_file(packed, NULL);
        cJSON *root = cJSON_Parse(text);
        free(text);
        cJSON *view = cJSON_GetArrayItem(tu_json_get(root, "bufferViews"), 0);
        cJSON *m = tu_json_get(tu_json_get(view, "extensions"), "EXT_meshopt_compression");
        cJSON_DeleteItemFromObject(m, cases[i].key);
        cJSON_AddItemToObject(m, cases[i].key, cJSON_Parse(cases[i].json));
        text = cJSON_PrintUnformatted(root);
        cJSON_Delete(root);
        assert_true(tu_write_file(broken, text));
        free(text);
        int rc = tu_run_program(LAB, ctx->out_path, ctx->err_path, broken, out, (char *)NULL);
        if (rc != 1 || !tu_file_contains(ctx->err_path, "/bufferViews/0") ||
            !tu_file_contains(ctx->err_path, cases[i].message) || tu_count_entries(out) != 0)
            fail_msg("%s: exit %d, the message does not name /bufferViews/0 and \"%s\"", cases[i].name, rc,
                     cases[i].message);
    }
    /* an uncompressed view that reads the fallback buffer: it holds no data */
    char *text = tu_read_file(packed, NULL);
    cJSON *root = cJSON_Parse(text);
    free(text);
    cJSON_DeleteItemFromObject(cJSON_GetArrayItem(tu_json_get(root, "bufferViews"), 0), "extensions");
    text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    assert_true(tu_write_file(broken, text));
    free(text);
    assert_int_equal(tu_run_program(LAB, ctx->out_path, ctx->err_path, broken, out, (char *)NULL), 1);
    assert_true(tu_file_contains(ctx->err_path, "/bufferViews/0, buffer 1 is EXT_meshopt_compression's fallback"));
}

/* KHR_draco_mesh_compression from Debian's draco_transcoder (-qp 14 -qw 12: positions on 14
 * bits of the POSITION accessor's extent, weights on 12): the export and RiggedFigure skin
 * within those steps of their sources. The transcoder's weights, quantized, sum to 1 only
 * within their step, so both run under --policy normalize. (It refuses morph targets.) */
static void test_lab30_gltf_draco_within_the_quantization_steps(void **state)
{
    tu_run_dir *ctx = *state;
    const char *sources[2][2] = {{COMMITTED_OUT_DIR "/ch30/skinning30.gltf", "export"},
                                 {"assets/RiggedFigure.gltf", "RiggedFigure"}};
    for (int i = 0; i < 2; i++) {
        char draco[160], tag[64];
        snprintf(tag, sizeof tag, "%s-draco", sources[i][1]);
        snprintf(draco, sizeof draco, "%s/%s.gltf", ctx->dir, tag);
        char *transcode[] = {DRACO_TRANSCODER, "-i", (char *)sources[i][0], "-o", draco, "-qp", "14", "-qw", "12", NULL};
        assert_int_equal(tu_run(transcode, NULL, ctx->err_path), 0);
        cJSON *root = load_json(draco);
        const cJSON *ext, *accessors = tu_json_get(root, "accessors"), *mesh, *p;
        bool required = false;
        cJSON_ArrayForEach(ext, cJSON_GetObjectItem(root, "extensionsRequired"))
            required |= !strcmp(cJSON_GetStringValue(ext), "KHR_draco_mesh_compression");
        assert_true(required);
        double extent = 0.0; /* the POSITION accessors' largest side: 14 bits span it */
        cJSON_ArrayForEach(mesh, tu_json_get(root, "meshes")) cJSON_ArrayForEach(p, tu_json_get(mesh, "primitives")) {
            const cJSON *a = cJSON_GetArrayItem(accessors, (int)tu_json_num(tu_json_get(p, "attributes"), "POSITION"));
            for (int c = 0; c < 3; c++)
                extent = fmax(extent, cJSON_GetArrayItem(tu_json_get(a, "max"), c)->valuedouble -
                                          cJSON_GetArrayItem(tu_json_get(a, "min"), c)->valuedouble);
        }
        cJSON_Delete(root);
        assert_true(compare_runs(ctx, sources[i][0], draco, tag, "normalize", extent / 16383, 1.0 / 4095, 0.0) <= 1.0);
    }
}

/* A broken Draco file: the stream cut short, or an accessor whose count is not the stream's,
 * is refused naming the primitive's extension and the cause. */
static void test_lab30_gltf_draco_broken_streams_are_refused(void **state)
{
    tu_run_dir *ctx = *state;
    char draco[160], broken[160], out[160];
    compressed_export(ctx, DRACO_TRANSCODER, NULL, "export-draco", draco, broken, out);
    for (int k = 0; k < 2; k++) {
        cJSON *root = load_json(draco);
        const cJSON *p = cJSON_GetArrayItem(tu_json_get(cJSON_GetArrayItem(tu_json_get(root, "meshes"), 0), "primitives"), 0);
        int view = (int)tu_json_num(tu_json_get(tu_json_get(p, "extensions"), "KHR_draco_mesh_compression"), "bufferView");
        cJSON *target = k == 0 ? cJSON_GetArrayItem(tu_json_get(root, "bufferViews"), view)
                               : cJSON_GetArrayItem(tu_json_get(root, "accessors"),
                                                    (int)tu_json_num(tu_json_get(p, "attributes"), "POSITION"));
        const char *key = k == 0 ? "byteLength" : "count";
        double value = k == 0 ? 40 : tu_json_num(target, "count") + 1;
        cJSON_DeleteItemFromObject(target, key);
        cJSON_AddNumberToObject(target, key, value);
        char *text = cJSON_PrintUnformatted(root);
        cJSON_Delete(root);
        assert_true(tu_write_file(broken, text));
        free(text);
        /* the external .bin sits beside the copy under the same name */
        assert_int_equal(tu_run_program(LAB, ctx->out_path, ctx->err_path, broken, out, (char *)NULL), 1);
        assert_true(tu_file_contains(ctx->err_path, "/meshes/0/primitives/0/extensions/KHR_draco_mesh_compression"));
        assert_true(tu_file_contains(ctx->err_path, k == 0 ? "the Draco decoder refuses the 40-byte stream"
                                                           : "POSITION decodes to 216 points"));
        assert_int_equal(tu_count_entries(out), 0);
    }
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, tu_run_dir_setup, tu_run_dir_teardown)
    const struct CMUnitTest tests[] = {
        T(test_lab30_gltf_quantized_within_the_declared_steps),
        T(test_lab30_gltf_meshopt_within_the_declared_steps),
        T(test_lab30_gltf_meshopt_broken_streams_are_refused),
        T(test_lab30_gltf_draco_within_the_quantization_steps),
        T(test_lab30_gltf_draco_broken_streams_are_refused),
        T(test_lab30_gltf_extensions_read_required_and_ignored),
    };
#undef T
    return cmocka_run_group_tests_name("lab30-gltf on packed assets", tests, NULL, NULL);
}
