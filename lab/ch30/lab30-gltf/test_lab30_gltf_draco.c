/* test_lab30_gltf_draco.c - end to end: KHR_draco_mesh_compression files made at test time
 * by Debian's draco_transcoder from the lab's export and a committed sample, skinned by
 * build/bin/lab30-gltf beside their sources within the quantization steps of the command
 * (gltf30_packed_test.h), and broken Draco streams refused. */
#define _POSIX_C_SOURCE 200809L
#include "gltf30_packed_test.h"
#include "gltf/gltf.h"

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

/* Whether this process has a library whose path contains name mapped (/proc/self/maps). */
static bool mapped(const char *name)
{
    char *maps = tu_read_file("/proc/self/maps", NULL);
    bool found = maps && strstr(maps, name);
    free(maps);
    return found;
}

/* The decoders are opened only in a child of the reader: this process reads a Draco file
 * and a meshopt file, in process, and never maps libdraco, the lab's bridge or
 * libmeshoptimizer (the suite links libmeshoptimizer's encoders for its own use, so only
 * the first two are asked). */
static void test_lab30_gltf_decoders_stay_out_of_the_reader(void **state)
{
    tu_run_dir *ctx = *state;
    char draco[160];
    snprintf(draco, sizeof draco, "%s/export-draco.glb", ctx->dir);
    char *transcode[] = {DRACO_TRANSCODER, "-i", COMMITTED_OUT_DIR "/ch30/skinning30.gltf", "-o", draco, NULL};
    assert_int_equal(tu_run(transcode, NULL, ctx->err_path), 0);
    gltf_document doc = {0};
    lab_diag d = {0};
    assert_int_equal(gltf_load(draco, &doc, &d), LAB_OK);
    assert_int_equal(gltf_validate(&doc, &d), LAB_OK);
    assert_true(doc.accessors[doc.meshes[0].primitives[0].position].from_draco); /* decoded */
    gltf_free(&doc);
    assert_false(mapped("libdraco"));
    assert_false(mapped("libskinlab-draco"));
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
        T(test_lab30_gltf_draco_within_the_quantization_steps),
        T(test_lab30_gltf_draco_broken_streams_are_refused),
        T(test_lab30_gltf_decoders_stay_out_of_the_reader),
    };
#undef T
    return cmocka_run_group_tests_name("lab30-gltf on draco_transcoder's assets", tests, NULL, NULL);
}
