/* test_lab30_gltf_scenes.c - end to end: build/bin/lab30-gltf on the chapter's export
 * edited into other scenes: the same mesh instanced twice, once skinned and once not, a
 * mesh with its skin removed and a morph target, and a node animation on an unskinned
 * mesh, each checked against this test's own arithmetic. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmocka_all.h"
#include "testutil.h"

#include "base/diag.h"
#include "gltf/gltf.h"

#define LAB LAB_BIN_DIR "/lab30-gltf"
#define run_lab(ctx, ...) tu_run_program(LAB, (ctx)->out_path, (ctx)->err_path, __VA_ARGS__, (char *)NULL)
typedef tu_run_dir run_ctx;

/* Writes `file` (a committed export, edited by `edit`) into dir/name; returns the path. */
static const char *edited_asset(const char *dir, const char *file, const char *name, void (*edit)(cJSON *root))
{
    char *text = tu_read_file(file, NULL);
    assert_non_null(text);
    cJSON *root = cJSON_Parse(text);
    free(text);
    assert_non_null(root);
    edit(root);
    text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    const char *path = tu_path(dir, name);
    assert_true(tu_write_file(path, text));
    free(text);
    return path;
}

/* A second, unskinned instance of the cylinder at the scene's root, moved by (5, 0, 0). */
static void add_static_instance(cJSON *root)
{
    cJSON *node = cJSON_CreateObject();
    cJSON_AddNumberToObject(node, "mesh", 0);
    cJSON_AddItemToObject(node, "translation", cJSON_CreateDoubleArray((const double[]){5, 0, 0}, 3));
    cJSON_AddItemToArray(cJSON_GetObjectItem(root, "nodes"), node);
    cJSON *scene = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "scenes"), 0);
    cJSON_AddItemToArray(cJSON_GetObjectItem(scene, "nodes"), cJSON_CreateNumber(5));
}

/* The corrective export without its skin: a morph target driven by an animation, no skin. */
static void remove_the_skin(cJSON *root)
{
    cJSON *mesh_node = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "nodes"), 2);
    cJSON_DeleteItemFromObject(mesh_node, "skin");
    cJSON *attributes = cJSON_GetObjectItem(
        cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(root, "meshes"), 0), "primitives"), 0),
        "attributes");
    cJSON_DeleteItemFromObject(attributes, "JOINTS_0");
    cJSON_DeleteItemFromObject(attributes, "WEIGHTS_0");
    cJSON_DeleteItemFromObject(root, "skins");
}

/* lab30-gltf at `times` on the export edited by `edit` (saved as ctx->dir/name), into an
 * empty ctx->dir/out; its gltf30.json, and the export's 216 bind positions as the file
 * holds them. */
static cJSON *run_on_edited_export(const run_ctx *ctx, void (*edit)(cJSON *), const char *name, const char *times,
                                   double *bind, char *outdir, size_t size)
{
    snprintf(outdir, size, "%s/out", ctx->dir);
    assert_int_equal(mkdir(outdir, 0777), 0);
    gltf_document doc;
    assert_int_equal(gltf_load(COMMITTED_OUT_DIR "/ch30/skinning30.gltf", &doc, NULL), LAB_OK);
    assert_int_equal(gltf_validate(&doc, NULL), LAB_OK);
    assert_int_equal(gltf_accessor_read(&doc, 0, bind, NULL), LAB_OK);
    gltf_free(&doc);
    const char *asset = edited_asset(ctx->dir, COMMITTED_OUT_DIR "/ch30/skinning30.gltf", name, edit);
    assert_int_equal(run_lab(ctx, "--time", times, asset, outdir), 0);
    cJSON *json = tu_json_load(tu_path(outdir, "gltf30.json"));
    assert_non_null(json);
    return json;
}

/* Every mesh instance is a part: a static mesh beside a skinned one (placed by its node:
 * the bind positions moved by (5, 0, 0), by this test's arithmetic), and a mesh with morph
 * targets and no skin (at t = 0 its weight is 0: the bind positions placed by its node). */
static void test_lab30_gltf_every_mesh_instance(void **state)
{
    run_ctx *ctx = *state;
    char outdir[160];
    double bind[3 * 216];
    cJSON *json = run_on_edited_export(ctx, add_static_instance, "both.gltf", "0.5", bind, outdir, sizeof outdir);
    cJSON *parts = tu_json_get(cJSON_GetArrayItem(tu_json_get(json, "times"), 0), "parts");
    assert_int_equal(cJSON_GetArraySize(parts), 2);
    assert_string_equal(cJSON_GetStringValue(tu_json_get(cJSON_GetArrayItem(parts, 0), "kind")), "skinned");
    cJSON *rigid = cJSON_GetArrayItem(parts, 1);
    assert_string_equal(cJSON_GetStringValue(tu_json_get(rigid, "kind")), "rigid");
    cJSON *pos = tu_json_get(rigid, "positions");
    for (int v = 0; v < 216; v++)
        for (int c = 0; c < 3; c++)
            assert_near(tu_json_number(cJSON_GetArrayItem(cJSON_GetArrayItem(pos, v), c)), (bind[3 * v + c] + (c == 0 ? 5.0 : 0.0)), 1e-12);
    cJSON_Delete(json);
    assert_true(tu_file_contains(ctx->out_path, "rigid"));
    const char *morph = edited_asset(ctx->dir, COMMITTED_OUT_DIR "/ch30/fixes30-corrective.gltf", "morph.gltf", remove_the_skin);
    assert_int_equal(run_lab(ctx, "--time", "0,0.5", morph, outdir), 0);
    json = tu_json_load(tu_path(outdir, "gltf30.json"));
    cJSON *part = cJSON_GetArrayItem(tu_json_get(cJSON_GetArrayItem(tu_json_get(json, "times"), 0), "parts"), 0);
    assert_string_equal(cJSON_GetStringValue(tu_json_get(part, "kind")), "morphed");
    cJSON *world = tu_json_get(part, "node_world"); /* the mesh node's world, here I */
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            assert_true(tu_json_number(cJSON_GetArrayItem(cJSON_GetArrayItem(world, r), c)) == (r == c ? 1.0 : 0.0));
    pos = tu_json_get(part, "positions");
    for (int v = 0; v < 216; v++)
        for (int c = 0; c < 3; c++)
            assert_near(tu_json_number(cJSON_GetArrayItem(cJSON_GetArrayItem(pos, v), c)), bind[3 * v + c], 1e-6);
    cJSON_Delete(json);
}

/* The static instance animated by the export's own rotation keys: a second channel of
 * "twist" drives node 5's rotation with sampler 0 (about z, 180 t degrees). */
static void animate_static_instance(cJSON *root)
{
    add_static_instance(root);
    cJSON *channel = cJSON_CreateObject(), *target = cJSON_AddObjectToObject(channel, "target");
    cJSON_AddNumberToObject(channel, "sampler", 0);
    cJSON_AddNumberToObject(target, "node", 5);
    cJSON_AddStringToObject(target, "path", "rotation");
    cJSON *anim = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "animations"), 0);
    cJSON_AddItemToArray(cJSON_GetObjectItem(anim, "channels"), channel);
}

/* A node animation on an unskinned mesh moves it: at t its world is T(5, 0, 0) Rz(180 t
 * degrees), so at t = 0.5 a bind point (x, y, z) is at (5 - y, x, z) and at t = 1 at
 * (5 - x, -y, z), by this test's arithmetic. */
static void test_lab30_gltf_node_animation_moves_an_unskinned_mesh(void **state)
{
    run_ctx *ctx = *state;
    char outdir[160];
    double bind[3 * 216];
    cJSON *json = run_on_edited_export(ctx, animate_static_instance, "moving.gltf", "0.5,1", bind, outdir, sizeof outdir);
    for (int k = 0; k < 2; k++) {
        cJSON *parts = tu_json_get(cJSON_GetArrayItem(tu_json_get(json, "times"), k), "parts");
        assert_int_equal(cJSON_GetArraySize(parts), 2);
        cJSON *rigid = cJSON_GetArrayItem(parts, 1);
        assert_string_equal(cJSON_GetStringValue(tu_json_get(rigid, "kind")), "rigid");
        cJSON *pos = tu_json_get(rigid, "positions");
        for (int v = 0; v < 216; v++) {
            double x = bind[3 * v], y = bind[3 * v + 1], z = bind[3 * v + 2];
            double expect[3] = {k == 0 ? 5 - y : 5 - x, k == 0 ? x : -y, z};
            for (int c = 0; c < 3; c++) {
                double got = tu_json_number(cJSON_GetArrayItem(cJSON_GetArrayItem(pos, v), c));
                if (!(fabs(got - expect[c]) < 1e-6))
                    fail_msg("t = %s, vertex %d, coordinate %d: %.9g, expected %.9g", k == 0 ? "0.5" : "1", v, c,
                             got, expect[c]);
            }
        }
    }
    cJSON_Delete(json);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, tu_run_dir_setup, tu_run_dir_teardown)
    const struct CMUnitTest tests[] = {
        T(test_lab30_gltf_every_mesh_instance),
        T(test_lab30_gltf_node_animation_moves_an_unskinned_mesh),
    };
#undef T
    return cmocka_run_group_tests_name("lab30-gltf on edited scenes", tests, NULL, NULL);
}
