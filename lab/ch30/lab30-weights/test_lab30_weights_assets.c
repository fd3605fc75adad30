/* test_lab30_weights_assets.c - end to end: build/bin/lab30-weights on glTF assets. The
 * shipped samples' comparison, recomputed from the CSV; primitive modes (LINES refused where
 * the file says so, a strip read as one); --asset: a re-weighted .glb that the Khronos
 * validator passes, read back by this test and skinned by lab30-gltf. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmocka_all.h"
#include "testutil.h"

#include "gltf/gltf.h"
#include "math/linalg.h"
#include "skin/blend.h"
#include "skin/influences.h"

#define LAB LAB_BIN_DIR "/lab30-weights"
#define run_lab(ctx, ...) tu_run_program(LAB, (ctx)->out_path, (ctx)->err_path, __VA_ARGS__, (char *)NULL)
typedef tu_run_dir run_ctx;

static const char *const set_names[4] = {"hand", "heat", "blender", "bbw"};

/* Every automatic set on the artists' assets: the comparison the JSON states, recomputed by
 * this test from the CSV of every set, and the checks under their bounds. */
static void test_lab30_weights_assets(void **state)
{
    run_ctx *ctx = *state;
    assert_int_equal(run_lab(ctx, ctx->dir), 0);
    cJSON *root = tu_json_load(tu_path(ctx->dir, "weights30.json"));
    static const char *const names[2] = {"RiggedSimple", "RiggedFigure"};
    static const int joints[2] = {2, 19}, vertices[2] = {160, 370};
    FILE *f = fopen(tu_path(ctx->dir, "weights30-assets.csv"), "r");
    assert_non_null(f);
    char line[256];
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, "asset,vertex,joint,x,y,z,artist_weight,heat_weight,blender_weight,bbw_weight,"
                              "blender_cut_weight\n");
    for (int i = 0; i < 2; i++) {
        const cJSON *a = cJSON_GetArrayItem(tu_json_get(root, "assets"), i);
        assert_string_equal(cJSON_GetStringValue(tu_json_get(a, "asset")), names[i]);
        assert_int_equal((int)tu_json_num(a, "joints"), joints[i]);
        assert_int_equal((int)tu_json_num(a, "vertices"), vertices[i]);
        double largest[3] = {0}, mean[3] = {0};
        for (int v = 0; v < vertices[i]; v++) {
            double worst[3] = {0}, sum[3] = {0}, cuts[32], blender[32], cut_sum = 0;
            for (int j = 0; j < joints[i]; j++) {
                char asset[32];
                int vv, jj;
                double x, y, z, artist, set[3], cut;
                assert_non_null(fgets(line, sizeof line, f));
                assert_int_equal(sscanf(line, "%31[^,],%d,%d,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf", asset, &vv, &jj, &x, &y, &z,
                                        &artist, &set[0], &set[1], &set[2], &cut),
                                 11);
                assert_string_equal(asset, names[i]);
                assert_true(vv == v && jj == j);
                cuts[j] = cut, cut_sum += cut, blender[j] = set[1];
                for (int k = 0; k < 3; k++)
                    worst[k] = fmax(worst[k], fabs(set[k] - artist)), sum[k] += set[k];
            }
            for (int j = 0; j < joints[i]; j++) /* Blender deforms with its cut weights over their sum */
                assert_near(blender[j], cut_sum > 0 ? cuts[j] / cut_sum : 0, 1e-15);
            for (int k = 0; k < 3; k++) {
                assert_near(sum[k], 1, 1e-12); /* as each set deforms: a partition of unity */
                largest[k] = fmax(largest[k], worst[k]);
                mean[k] += worst[k] / vertices[i];
            }
        }
        for (int k = 0; k < 3; k++) { /* the comparison the JSON states, from the CSV */
            const cJSON *x = cJSON_GetArrayItem(tu_json_get(a, "automatic_weights"), k);
            assert_string_equal(cJSON_GetStringValue(tu_json_get(x, "weights")), set_names[1 + k]);
            const cJSON *checks = tu_json_get(x, "checks_of_the_solution");
            assert_true(tu_json_num(checks, "max_backward_error") < 1e-14);
            if (k < 2)
                assert_true(tu_json_num(checks, "max_sum_error") < 1e-12);
            const cJSON *w = tu_json_get(x, "against_the_artist");
            assert_near(tu_json_num(w, "max_weight_difference"), largest[k], 1e-15);
            assert_near(tu_json_num(w, "mean_weight_difference"), mean[k], 1e-12);
            assert_true(tu_json_num(w, "max_position_difference_over_size") < 0.1);
        }
    }
    assert_null(fgets(line, sizeof line, f));
    fclose(f);
    cJSON_Delete(root);
}

/* An assets folder in the run's directory: RiggedFigure as shipped and RiggedSimple with its
 * primitive's mode set to `mode`. Returns the folder. */
static const char *assets_with_mode(run_ctx *ctx, int mode)
{
    static char folder[4096];
    snprintf(folder, sizeof folder, "%s", tu_path(ctx->dir, "assets"));
    char command[2 * sizeof folder + 64];
    snprintf(command, sizeof command, "mkdir -p '%s' && cp assets/RiggedFigure.gltf '%s'/", folder, folder);
    assert_int_equal(system(command), 0);
    cJSON *doc = tu_json_load("assets/RiggedSimple.gltf");
    cJSON *prim = cJSON_GetArrayItem(tu_json_get(cJSON_GetArrayItem(tu_json_get(doc, "meshes"), 0), "primitives"), 0);
    cJSON_ReplaceItemInObject(prim, "mode", cJSON_CreateNumber(mode));
    char *text = cJSON_Print(doc);
    char path[4200];
    snprintf(path, sizeof path, "%s/RiggedSimple.gltf", folder);
    assert_true(tu_write_file(path, text));
    free(text);
    cJSON_Delete(doc);
    return folder;
}

/* Primitive modes: LINES (and every point or line mode) has no surface and is refused where
 * the file says so; a TRIANGLE_STRIP is read as a strip, its index-repeating joins left out. */
static void test_lab30_weights_primitive_modes(void **state)
{
    run_ctx *ctx = *state;
    const char *folder = assets_with_mode(ctx, 1);
    char out[4200];
    snprintf(out, sizeof out, "%s", tu_path(ctx->dir, "out"));
    assert_int_equal(mkdir(out, 0755), 0);
    assert_int_equal(run_lab(ctx, "--assets", folder, out), 1);
    assert_true(tu_file_contains(ctx->err_path, "/meshes/0/primitives/0/mode") &&
                tu_file_contains(ctx->err_path, "1 (LINES)"));
    assert_int_equal(tu_count_entries(out), 0);
    folder = assets_with_mode(ctx, 5);
    assert_int_equal(run_lab(ctx, "--assets", folder, out), 0);
    assert_true(tu_file_contains(ctx->out_path, "172 more repeat an index"));
}

/* What an engine that reads only JOINTS_0 / WEIGHTS_0 does (three.js's glTF loader: the
 * first 4, divided by their sum), worked out here from the written file through the
 * library's sampler, against the program's figure in weights30-asset.json: the largest
 * distance from the 8 weights' positions over the animation (25 times), over the model's
 * size. The file's weights are floats, the program's doubles: within 1e-6. */
static void check_first_set_only(const gltf_document *doc, const skin_influences *in, const char *json)
{
    int node = 0; /* the skinned mesh's node */
    while (node < doc->node_count && (doc->nodes[node].mesh < 0 || doc->nodes[node].skin < 0))
        node++;
    assert_true(node < doc->node_count);
    gltf_skin_input input;
    assert_int_equal(gltf_skin_input_read(doc, node, 0, NULL, SKIN_POLICY_NORMALIZE, &input, NULL), LAB_OK);
    cJSON *root = tu_json_load(json), *a = tu_json_get(root, "asset"), *set;
    double t0 = tu_json_num(a, "animation_start"), t1 = tu_json_num(a, "animation_end"), size = tu_json_num(a, "model_size");
    double reported = NAN;
    cJSON_ArrayForEach(set, tu_json_get(a, "automatic_weights")) if (!strcmp(cJSON_GetStringValue(tu_json_get(set, "weights")), "bbw"))
        reported = tu_json_num(tu_json_get(set, "cut_to_the_heaviest"), "first_set_only_max_position_change_over_size");
    int n = in->vertex_count, K = in->per_vertex, J = input.joint_count;
    assert_int_equal(K, 8);
    mat4 *locals = malloc(sizeof(mat4) * (size_t)doc->node_count), *world = malloc(sizeof(mat4) * (size_t)doc->node_count);
    mat4 *palette = malloc(sizeof(mat4) * (size_t)J);
    assert_true(locals && world && palette);
    double worst = 0;
    for (int k = 0; k < 25; k++) {
        double t = t0 + (t1 - t0) * k / 24;
        assert_int_equal(gltf_sample_locals(doc, 0, t, locals, NULL), LAB_OK);
        assert_int_equal(gltf_world_matrices(doc, locals, world, NULL), LAB_OK);
        for (int j = 0; j < J; j++)
            palette[j] = mat4_mul(world[input.joints[j]], input.inverse_bind[j]);
        for (int v = 0; v < n; v++) {
            const int *joint = in->joint + v * K;
            const double *w = in->weight + v * K;
            double first[4], sum = w[0] + w[1] + w[2] + w[3];
            for (int i = 0; i < 4; i++)
                first[i] = w[i] / sum;
            vec4 all = skin_lbs_point(input.bind[v], joint, w, K, palette);
            vec4 four = skin_lbs_point(input.bind[v], joint, first, 4, palette);
            worst = fmax(worst, vec3_length(vec3_make(all.x - four.x, all.y - four.y, all.z - four.z)) / size);
        }
    }
    if (!(fabs(worst - reported) <= 1e-6))
        fail_msg("first set only: the program says %.9g of the size, the file gives %.9g", reported, worst);
    assert_true(worst > 1e-4); /* RiggedFigure's bbw weights spread over more than 4 joints */
    free(locals), free(world), free(palette);
    gltf_skin_input_free(&input);
    cJSON_Delete(root);
}

/* --asset: RiggedFigure with bounded biharmonic weights, 8 a vertex, written as a .glb that
 * passes the Khronos validator with no error and no warning; read back by the reader (this
 * test's own call) within 1e-6 of the weights the run wrote to its CSV; and lab30-gltf
 * skins it. An asset without a skin is refused. */
static void test_lab30_weights_asset_out(void **state)
{
    run_ctx *ctx = *state;
    assert_int_equal(run_lab(ctx, "--asset", "assets/RiggedFigure.gltf", "--weights", "bbw", "--influences", "8",
                             ctx->dir),
                     0);
    char glb[4096];
    snprintf(glb, sizeof glb, "%s", tu_path(ctx->dir, "RiggedFigure-bbw.glb"));
    tu_gltf_validate(ctx, glb, false);
    gltf_document doc;
    lab_diag d;
    assert_int_equal(gltf_load(glb, &doc, &d), LAB_OK);
    assert_int_equal(gltf_validate(&doc, &d), LAB_OK);
    assert_int_equal(doc.meshes[0].primitives[0].sets, 2);
    skin_influences in;
    assert_int_equal(gltf_primitive_influences(&doc, 0, 0, &in, &d), LAB_OK);
    static double written[370][19];
    FILE *f = fopen(tu_path(ctx->dir, "weights30-asset.csv"), "r");
    assert_non_null(f);
    char line[128];
    assert_non_null(fgets(line, sizeof line, f));
    int v, j, rows = 0;
    double w;
    while (fscanf(f, "%d,%d,%lf\n", &v, &j, &w) == 3) {
        assert_true(v >= 0 && v < 370 && j >= 0 && j < 19);
        written[v][j] = w, rows++;
    }
    fclose(f);
    assert_true(rows > 370);
    double worst = 0;
    for (v = 0; v < 370; v++)
        for (j = 0; j < 19; j++) {
            double got = 0;
            for (int k = 0; k < in.per_vertex; k++)
                got += in.joint[v * in.per_vertex + k] == j ? in.weight[v * in.per_vertex + k] : 0;
            worst = fmax(worst, fabs(got - written[v][j]));
        }
    assert_true(worst < 1e-6);
    check_first_set_only(&doc, &in, tu_path(ctx->dir, "weights30-asset.json"));
    skin_influences_free(&in);
    gltf_free(&doc);
    char out[4200];
    snprintf(out, sizeof out, "%s", tu_path(ctx->dir, "gltf"));
    assert_int_equal(mkdir(out, 0755), 0);
    assert_int_equal(tu_run_program(LAB_BIN_DIR "/lab30-gltf", ctx->out_path, ctx->err_path, glb, out, (char *)NULL), 0);
    /* a document with no skinned mesh has nothing to weight */
    assert_true(tu_write_file(tu_path(ctx->dir, "plain.gltf"),
                              "{\"asset\": {\"version\": \"2.0\"}, \"scenes\": [{\"nodes\": [0]}], \"nodes\": [{}]}"));
    assert_int_equal(run_lab(ctx, "--asset", tu_path(ctx->dir, "plain.gltf"), out), 1);
    assert_true(tu_file_contains(ctx->err_path, "no node with a mesh and a skin"));
}

/* Re-weighted assets load whole: RiggedSimple with an image beside it, named by an external
 * uri (skin.v2 tex.png: a name with two dots, its type the last one's), re-weighted into
 * another folder: the .glb embeds the image (a view of its own holding
 * the file's bytes, its mimeType, no uri) and the Khronos validator reads it there with no
 * error and no warning. An image whose file is missing, or whose type cannot be told, is
 * refused naming it, and nothing is written. */
static void test_lab30_weights_asset_embeds_images(void **state)
{
    run_ctx *ctx = *state;
    char src[4096], out[4200];
    snprintf(src, sizeof src, "%s", tu_path(ctx->dir, "src"));
    snprintf(out, sizeof out, "%s", tu_path(ctx->dir, "out"));
    assert_int_equal(mkdir(src, 0755), 0);
    assert_int_equal(mkdir(out, 0755), 0);
    char *text = tu_read_file("assets/RiggedSimple.gltf", NULL), *png = NULL;
    size_t png_size = 0;
    assert_non_null(text);
    cJSON *root = cJSON_Parse(text);
    free(text);
    assert_non_null(root);
    cJSON_AddItemToObject(root, "images", cJSON_Parse("[{\"uri\": \"skin.v2 tex.png\"}]"));
    cJSON_AddItemToObject(root, "samplers", cJSON_Parse("[{}]"));
    cJSON_AddItemToObject(root, "textures", cJSON_Parse("[{\"source\": 0, \"sampler\": 0}]"));
    static const char *const files[3] = {"with-image.gltf", "missing-image.gltf", "unknown-image.gltf"};
    static const char *const uris[3] = {"skin.v2%20tex.png", "gone.png", "skin.bin2"}; /* the type: its last dot's */
    for (int k = 0; k < 3; k++) {
        cJSON_ReplaceItemInObject(cJSON_GetArrayItem(tu_json_get(root, "images"), 0), "uri", cJSON_CreateString(uris[k]));
        char *json = cJSON_Print(root);
        assert_true(tu_write_file(tu_path(src, files[k]), json));
        free(json);
    }
    cJSON_Delete(root);
    png = tu_read_file("out/ch30/skinning30-hand.png", &png_size); /* a real PNG for the validator */
    assert_non_null(png);
    FILE *f = fopen(tu_path(src, "skin.v2 tex.png"), "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(png, 1, png_size, f), png_size);
    assert_int_equal(fclose(f), 0);
    f = fopen(tu_path(src, "skin.bin2"), "wb");
    assert_non_null(f);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(run_lab(ctx, "--asset", tu_path(src, files[0]), out), 0);
    char glb[4400];
    snprintf(glb, sizeof glb, "%s", tu_path(out, "with-image-heat.glb"));
    tu_gltf_validate(ctx, glb, false);
    gltf_document doc;
    assert_int_equal(gltf_load(glb, &doc, NULL), LAB_OK);
    cJSON *back = cJSON_Parse(doc.json), *image = cJSON_GetArrayItem(tu_json_get(back, "images"), 0);
    assert_null(cJSON_GetObjectItemCaseSensitive(image, "uri"));
    assert_string_equal(cJSON_GetStringValue(tu_json_get(image, "mimeType")), "image/png");
    cJSON *view = cJSON_GetArrayItem(tu_json_get(back, "bufferViews"), (int)tu_json_num(image, "bufferView"));
    size_t at = (size_t)tu_json_num(view, "byteOffset"), length = (size_t)tu_json_num(view, "byteLength");
    assert_int_equal(length, png_size);
    assert_true(at + length <= doc.buffers[0].size && !memcmp(doc.buffers[0].data + at, png, png_size));
    cJSON_Delete(back);
    gltf_free(&doc);
    free(png);
    for (int k = 1; k < 3; k++) { /* refused, naming the image, and nothing more written */
        int before = tu_count_entries(out);
        assert_int_equal(run_lab(ctx, "--asset", tu_path(src, files[k]), out), 1);
        assert_true(tu_file_contains(ctx->err_path, "/images/0/uri"));
        assert_true(tu_file_contains(ctx->err_path, k == 1 ? "cannot open the file" : "neither a mimeType"));
        assert_int_equal(tu_count_entries(out), before);
    }
}

/* Names from input: an asset file named with a newline, an escape sequence, a leading dot
 * and seventy characters gives plain output names (sanitised, shortened stably, the report
 * says so with the name escaped), and two runs into a folder holding the student's
 * notes.txt leave it byte for byte: the manifest cannot be split into a line naming it. */
static void test_lab30_weights_names_from_input(void **state)
{
    run_ctx *ctx = *state;
    char *gltf = tu_read_file("assets/RiggedSimple.gltf", NULL);
    assert_non_null(gltf);
    const char *names[] = {"notes.txt\nx.gltf", "\x1b[31mred\x07.gltf",
                           ".aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.gltf"};
    const char *outputs[] = {"notes.txt_x-heat.glb", "_[31mred_-heat.glb", "_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa~"};
    char out[128], input[256];
    snprintf(out, sizeof out, "%s/out", ctx->dir);
    assert_int_equal(mkdir(out, 0777), 0);
    assert_true(tu_write_file(tu_path(out, "notes.txt"), "the student's notes\n"));
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
            snprintf(input, sizeof input, "%s/%s", ctx->dir, names[i]);
            assert_true(tu_write_file(input, gltf));
            assert_int_equal(run_lab(ctx, "--asset", input, out), 0);
            char *report = tu_read_file(ctx->out_path, NULL);
            assert_non_null(strstr(report, "made a plain file name"));
            for (const char *c = report; *c; c++) /* no control character but the line ends */
                assert_true((unsigned char)*c >= 0x20 || *c == '\n');
            free(report);
            char *manifest = tu_read_file(tu_path(out, "lab30-weights-outputs.txt"), NULL);
            assert_non_null(strstr(manifest, outputs[i]));
            free(manifest);
            unlink(input);
        }
    assert_true(tu_file_contains(tu_path(out, "notes.txt"), "the student's notes\n"));
    char *notes = tu_read_file(tu_path(out, "notes.txt"), NULL);
    assert_string_equal(notes, "the student's notes\n");
    free(notes);
    free(gltf);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, tu_run_dir_setup, tu_run_dir_teardown)
    const struct CMUnitTest tests[] = {
        T(test_lab30_weights_assets),
        T(test_lab30_weights_primitive_modes),
        T(test_lab30_weights_asset_out),
        T(test_lab30_weights_asset_embeds_images),
        T(test_lab30_weights_names_from_input),
    };
#undef T
    return cmocka_run_group_tests_name("lab30-weights on glTF assets", tests, NULL, NULL);
}
