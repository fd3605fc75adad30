/* test_lab30_gltf_packed.c - end to end: assets as gltfpack ships them, made at test time
 * by Debian's gltfpack from the lab's own exports and a committed sample, and skinned by
 * build/bin/lab30-gltf beside their sources within the steps the packed file declares
 * (gltf30_packed_test.h): KHR_mesh_quantization (integer positions, normalized integer
 * weights, rotations and morph deltas) and EXT_meshopt_compression; broken meshopt streams;
 * extensions the reader does not read. s_pos is the dequantizing scale gltfpack writes on
 * the mesh node (the skin takes it through the inverse binds), w_step 1/255 or 1/65535 for
 * normalized unsigned weights, r_step 1/32767 for normalized short rotations. gltfpack runs
 * as `gltfpack -i SRC -o OUT -ar 16 -at 24 -af 0`: rotations on 16 bits and translations on
 * 24, and -af 0 turns resampling at a frame rate off, but gltfpack 0.18 still drops every key
 * its interpolation reproduces: measured on its own output, the export's 12 rotation keys
 * (a twist at constant speed about one axis) become 2, and RiggedFigure's 57 samplers of 2
 * keys become 4 of 3. The test samples the animation between keys, where the kept keys'
 * slerp gives the dropped ones back up to the stored rotation's step: the bound's r_step term
 * (4 r_step times the mesh's radius) covers that error with the rotations' quantization; its
 * w_step term the weights, which gltfpack writes on 8 bits whatever the options; s_pos the
 * positions' quantization. */
#define _POSIX_C_SOURCE 200809L
#include "gltf30_packed_test.h"

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

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, tu_run_dir_setup, tu_run_dir_teardown)
    const struct CMUnitTest tests[] = {
        T(test_lab30_gltf_quantized_within_the_declared_steps),
        T(test_lab30_gltf_meshopt_within_the_declared_steps),
        T(test_lab30_gltf_meshopt_broken_streams_are_refused),
        T(test_lab30_gltf_extensions_read_required_and_ignored),
    };
#undef T
    return cmocka_run_group_tests_name("lab30-gltf on gltfpack's assets", tests, NULL, NULL);
}
