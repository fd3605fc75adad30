/* test_lab30_weights_copies.c - RiggedSimple re-weighted as copies that should not change
 * its weights:
 * - the unit: copies at exact scales (powers of two: every float of the copy is the
 *   original's times k, no rounding), from 2^-11 to 2^100, re-weighted with each set: the
 *   weights written are the original's to the bit. Below WEIGHTS30_MIN_SIZE across (2^-14
 *   here; 2^-100, about 1e-30) the run is refused with a message that names the asset's
 *   size and Blender's clamp, and writes nothing;
 * - the parts: its triangles split into two primitives of one mesh, or into two meshes on
 *   two nodes with the one skin: bone heat and biharmonic weights are solved over the
 *   surface the parts form together, so each part's vertices get the original's weights to
 *   the bit; a node with a second skin is refused as the program's limit, naming --skin,
 *   which weights either skin's mesh alone. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

#include "cmocka_all.h"
#include "testutil.h"

#include "gltf/gltf.h"

#define LAB LAB_BIN_DIR "/lab30-weights"
#define run_lab(ctx, ...) tu_run_program(LAB, (ctx)->out_path, (ctx)->err_path, __VA_ARGS__, (char *)NULL)
typedef tu_run_dir run_ctx;

/* Multiplies n VEC3 floats (or the translations of n MAT4s) of accessor i by k, in place. */
static void scale_floats(const gltf_document *doc, int i, double k, bool matrices)
{
    const gltf_accessor *a = &doc->accessors[i];
    const gltf_view *v = &doc->views[a->view];
    size_t stride = v->stride ? v->stride : (matrices ? 64 : 12);
    uint8_t *base = doc->buffers[v->buffer].data + v->offset + a->offset;
    for (long e = 0; e < a->count; e++) {
        float f[16];
        memcpy(f, base + (size_t)e * stride, matrices ? 64 : 12);
        for (int c = matrices ? 12 : 0; c < (matrices ? 15 : 3); c++)
            f[c] = (float)(f[c] * k);
        memcpy(base + (size_t)e * stride, f, matrices ? 64 : 12);
    }
}

/* DIR/copy.gltf and DIR/copy.bin: a JSON root and its one buffer's bytes. */
static void write_copy(const char *dir, cJSON *root, const uint8_t *data, size_t size)
{
    FILE *f = fopen(tu_path(dir, "copy.bin"), "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, size, f), size);
    assert_int_equal(fclose(f), 0);
    cJSON *buffer = cJSON_GetArrayItem(tu_json_get(root, "buffers"), 0);
    cJSON_ReplaceItemInObject(buffer, "uri", cJSON_CreateString("copy.bin"));
    cJSON_ReplaceItemInObject(buffer, "byteLength", cJSON_CreateNumber((double)size));
    char *text = cJSON_Print(root);
    assert_true(tu_write_file(tu_path(dir, "copy.gltf"), text));
    free(text);
    cJSON_Delete(root);
}

/* DIR/copy.gltf and DIR/copy.bin: RiggedSimple with every length times k. */
static void write_scaled_copy(const char *dir, double k)
{
    gltf_document doc;
    assert_int_equal(gltf_load("assets/RiggedSimple.gltf", &doc, NULL), LAB_OK);
    assert_int_equal(gltf_validate(&doc, NULL), LAB_OK);
    cJSON *root = cJSON_Parse(doc.json), *item;
    int position = doc.meshes[0].primitives[0].position;
    scale_floats(&doc, position, k, false);
    cJSON *pa = cJSON_GetArrayItem(tu_json_get(root, "accessors"), position);
    static const char *const bounds[2] = {"min", "max"};
    for (int b = 0; b < 2; b++)
        cJSON_ArrayForEach(item, tu_json_get(pa, bounds[b])) cJSON_SetNumberValue(item, (float)(item->valuedouble * k));
    scale_floats(&doc, doc.skins[0].inverse_bind, k, true);
    cJSON_ArrayForEach(item, tu_json_get(root, "nodes"))
    {
        cJSON *t = cJSON_GetObjectItemCaseSensitive(item, "translation"), *c;
        cJSON_ArrayForEach(c, t) cJSON_SetNumberValue(c, c->valuedouble * k);
        cJSON *m = cJSON_GetObjectItemCaseSensitive(item, "matrix"); /* column-major: 12..14 move */
        for (int e = 12; m && e < 15; e++) {
            c = cJSON_GetArrayItem(m, e);
            cJSON_SetNumberValue(c, c->valuedouble * k);
        }
    }
    cJSON *anim;
    cJSON_ArrayForEach(anim, tu_json_get(root, "animations"))
    {
        cJSON *ch;
        cJSON_ArrayForEach(ch, tu_json_get(anim, "channels"))
        {
            if (strcmp(cJSON_GetStringValue(tu_json_get(tu_json_get(ch, "target"), "path")), "translation"))
                continue;
            cJSON *sampler = cJSON_GetArrayItem(tu_json_get(anim, "samplers"), (int)tu_json_num(ch, "sampler"));
            scale_floats(&doc, (int)tu_json_num(sampler, "output"), k, false);
        }
    }
    assert_int_equal(doc.parsed_buffer_count, 1);
    write_copy(dir, root, doc.buffers[0].data, doc.buffers[0].size);
    gltf_free(&doc);
}

static void test_lab30_weights_do_not_depend_on_the_unit(void **state)
{
    run_ctx *ctx = *state;
    static const char *const sets[3] = {"heat", "blender", "bbw"};
    static const int powers[] = {0, -11, 7, 100};
    char *reference[3] = {NULL, NULL, NULL};
    for (size_t p = 0; p < sizeof powers / sizeof powers[0]; p++) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s", tu_path(ctx->dir, powers[p] ? "copy" : "one"));
        tu_remove_tree(dir);
        assert_int_equal(mkdir(dir, 0755), 0);
        write_scaled_copy(dir, ldexp(1.0, powers[p]));
        for (int s = 0; s < 3; s++) {
            char in[4200];
            snprintf(in, sizeof in, "%s", tu_path(dir, "copy.gltf"));
            assert_int_equal(run_lab(ctx, "--asset", in, "--weights", sets[s], dir), 0);
            char *weights = tu_read_file(tu_path(dir, "weights30-asset.csv"), NULL);
            assert_non_null(weights);
            if (powers[p] == 0)
                reference[s] = weights;
            else if (strcmp(weights, reference[s]))
                fail_msg("%s weights at 2^%d differ from the original's", sets[s], powers[p]);
            if (powers[p] != 0)
                free(weights);
        }
    }
    for (int s = 0; s < 3; s++)
        free(reference[s]);
    static const int small[] = {-14, -100}; /* 0.000585 and about 7.6e-30 across */
    for (size_t p = 0; p < sizeof small / sizeof small[0]; p++) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s", tu_path(ctx->dir, "small"));
        tu_remove_tree(dir);
        assert_int_equal(mkdir(dir, 0755), 0);
        write_scaled_copy(dir, ldexp(1.0, small[p]));
        char in[4200];
        snprintf(in, sizeof in, "%s", tu_path(dir, "copy.gltf"));
        assert_int_equal(run_lab(ctx, "--asset", in, dir), 1);
        assert_true(tu_file_contains(ctx->err_path, small[p] == -14 ? "the asset is 0.000585 across" : "e-30 across"));
        assert_true(tu_file_contains(ctx->err_path, "clamps a vertex's distance to a bone at 1e-4 units"));
        assert_int_equal(tu_count_entries(dir), 2); /* copy.gltf and copy.bin: nothing written */
    }
}

/* How RiggedSimple's triangles are parted in a copy. */
typedef enum { ONE_MESH_TWO_PRIMITIVES, TWO_MESHES_ONE_SKIN, TWO_SKINS } parting;

/* Appends `count` elements of `size` bytes, read at `stride` from `from` (in reverse order
 * when `reverse`), to data (4-byte aligned) as a view of its own; returns the view's index. */
static int append_view(cJSON *root, uint8_t *data, size_t *used, const uint8_t *from, size_t stride, size_t size,
                       int count, bool reverse, int target)
{
    *used = (*used + 3) & ~(size_t)3;
    for (int e = 0; e < count; e++)
        memcpy(data + *used + (size_t)e * size, from + (size_t)(reverse ? count - 1 - e : e) * stride, size);
    cJSON *views = tu_json_get(root, "bufferViews"), *view = cJSON_CreateObject();
    cJSON_AddNumberToObject(view, "buffer", 0);
    cJSON_AddNumberToObject(view, "byteOffset", (double)*used);
    cJSON_AddNumberToObject(view, "byteLength", (double)((size_t)count * size));
    cJSON_AddNumberToObject(view, "target", target);
    cJSON_AddItemToArray(views, view);
    *used += (size_t)count * size;
    return cJSON_GetArraySize(views) - 1;
}

/* DIR/copy.gltf: RiggedSimple's triangles split in two at a triangle, the second half a
 * second primitive of its mesh, or of a second mesh on a second node skinned with the first
 * skin (or with a copy of it). The second part has vertices of its own, the original's in
 * reverse order (its vertex u is the original's n - 1 - u) and its indices mapped so. */
static void write_parted_copy(const char *dir, parting how)
{
    gltf_document doc;
    assert_int_equal(gltf_load("assets/RiggedSimple.gltf", &doc, NULL), LAB_OK);
    assert_int_equal(gltf_validate(&doc, NULL), LAB_OK);
    assert_int_equal(doc.parsed_buffer_count, 1);
    const gltf_primitive *source = &doc.meshes[0].primitives[0];
    int n = gltf_primitive_vertex_count(&doc, 0, 0);
    size_t used = doc.buffers[0].size, size = used + 64 * (size_t)n + 8 * (size_t)doc.accessors[source->indices].count + 64;
    uint8_t *data = calloc(size, 1);
    assert_non_null(data);
    memcpy(data, doc.buffers[0].data, used);
    cJSON *root = cJSON_Parse(doc.json);
    cJSON *accessors = tu_json_get(root, "accessors"), *meshes = tu_json_get(root, "meshes");
    cJSON *first = cJSON_GetArrayItem(tu_json_get(cJSON_GetArrayItem(meshes, 0), "primitives"), 0);
    cJSON *primitive = cJSON_Duplicate(first, true), *attribute;
    cJSON_ArrayForEach(attribute, tu_json_get(primitive, "attributes")) /* each reversed */
    {
        const gltf_accessor *a = &doc.accessors[(int)tu_json_number(attribute)];
        const gltf_view *v = &doc.views[a->view];
        size_t element = (size_t)a->components * (a->component_type == 5126 ? 4 : a->component_type == 5123 ? 2 : 1);
        cJSON *copy = cJSON_Duplicate(cJSON_GetArrayItem(accessors, (int)tu_json_number(attribute)), true);
        int view = append_view(root, data, &used, doc.buffers[v->buffer].data + v->offset + a->offset,
                               v->stride ? v->stride : element, element, a->count, true, 34962);
        cJSON_ReplaceItemInObject(copy, "bufferView", cJSON_CreateNumber(view));
        cJSON_ReplaceItemInObject(copy, "byteOffset", cJSON_CreateNumber(0));
        cJSON_AddItemToArray(accessors, copy);
        cJSON_SetNumberValue(attribute, cJSON_GetArraySize(accessors) - 1);
    }
    int *index = NULL, count = 0, repeated = 0;
    assert_int_equal(gltf_primitive_triangles(&doc, 0, 0, &index, &count, &repeated, NULL), LAB_OK);
    int half = count / 2; /* part 1: triangles [0, half); part 2: [half, count), on its own vertices */
    uint16_t *mapped = malloc(3 * (size_t)(count - half) * sizeof *mapped);
    assert_non_null(mapped);
    for (int k = 0; k < 3 * (count - half); k++)
        mapped[k] = (uint16_t)(n - 1 - index[3 * half + k]);
    cJSON *indices = cJSON_CreateObject();
    int view = append_view(root, data, &used, (const uint8_t *)mapped, 2, 2, 3 * (count - half), false, 34963);
    cJSON_AddNumberToObject(indices, "bufferView", view);
    cJSON_AddNumberToObject(indices, "componentType", 5123);
    cJSON_AddNumberToObject(indices, "count", 3 * (count - half));
    cJSON_AddStringToObject(indices, "type", "SCALAR");
    cJSON_AddItemToArray(accessors, indices);
    cJSON_ReplaceItemInObject(primitive, "indices", cJSON_CreateNumber(cJSON_GetArraySize(accessors) - 1));
    cJSON *whole = cJSON_GetArrayItem(accessors, source->indices); /* part 1: the first half */
    cJSON_DeleteItemFromObject(whole, "min"), cJSON_DeleteItemFromObject(whole, "max");
    cJSON_ReplaceItemInObject(whole, "count", cJSON_CreateNumber(3 * half));
    free(index), free(mapped);
    if (how == ONE_MESH_TWO_PRIMITIVES) {
        cJSON_AddItemToArray(tu_json_get(cJSON_GetArrayItem(meshes, 0), "primitives"), primitive);
    } else {
        cJSON *mesh = cJSON_CreateObject(), *list = cJSON_AddArrayToObject(mesh, "primitives");
        cJSON_AddItemToArray(list, primitive);
        cJSON_AddItemToArray(meshes, mesh);
        cJSON *nodes = tu_json_get(root, "nodes"), *node = cJSON_CreateObject();
        cJSON_AddNumberToObject(node, "mesh", cJSON_GetArraySize(meshes) - 1);
        cJSON_AddNumberToObject(node, "skin", how == TWO_SKINS ? 1 : 0);
        cJSON_AddItemToArray(nodes, node);
        cJSON_AddItemToArray(tu_json_get(cJSON_GetArrayItem(tu_json_get(root, "scenes"), 0), "nodes"),
                             cJSON_CreateNumber(cJSON_GetArraySize(nodes) - 1));
        if (how == TWO_SKINS)
            cJSON_AddItemToArray(tu_json_get(root, "skins"), cJSON_Duplicate(cJSON_GetArrayItem(tu_json_get(root, "skins"), 0), true));
    }
    assert_true(used <= size);
    write_copy(dir, root, data, used);
    free(data);
    gltf_free(&doc);
}

/* What a parted copy's CSV (vertex,joint,weight) should be, from the original's over n
 * vertices: the original's rows, then for part 2's vertex u the rows of the original's
 * vertex n - 1 - u, numbered n + u. */
static char *parted_rows(const char *csv, int n)
{
    const char **row = calloc((size_t)n + 1, sizeof *row); /* where vertex v's rows start */
    size_t size = 3 * strlen(csv) + 64;
    char *out = malloc(size), *at = out;
    assert_true(row && out);
    const char *r = strchr(csv, '\n') + 1, *end = r + strlen(r);
    for (const char *p = r; p < end; p = strchr(p, '\n') + 1) {
        int v = atoi(p);
        assert_true(v >= 0 && v < n);
        if (!row[v])
            row[v] = p;
    }
    at += snprintf(at, size, "%s", csv);
    for (int u = 0; u < n; u++) {
        int v = n - 1 - u;
        for (const char *p = row[v]; p && p < end && atoi(p) == v; p = strchr(p, '\n') + 1) {
            const char *tail = strchr(p, ','), *next = strchr(p, '\n');
            at += snprintf(at, size - (size_t)(at - out), "%d%.*s", n + u, (int)(next + 1 - tail), tail);
        }
    }
    free(row);
    return out;
}

static void test_lab30_weights_solve_over_every_part(void **state)
{
    run_ctx *ctx = *state;
    static const char *const sets[3] = {"heat", "bbw", "blender"};
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", tu_path(ctx->dir, "parts"));
    for (parting how = ONE_MESH_TWO_PRIMITIVES; how <= TWO_SKINS; how++) {
        tu_remove_tree(dir);
        assert_int_equal(mkdir(dir, 0755), 0);
        write_parted_copy(dir, how);
        char in[4200];
        snprintf(in, sizeof in, "%s", tu_path(dir, "copy.gltf"));
        if (how == TWO_SKINS) { /* one skeleton a run: the program's limit, named with its option */
            assert_int_equal(run_lab(ctx, "--asset", in, dir), 1);
            assert_true(tu_file_contains(ctx->err_path, "/nodes/5/skin"));
            assert_true(tu_file_contains(ctx->err_path, "the input exceeds a documented limit of this program"));
            assert_true(tu_file_contains(ctx->err_path, "--asset weights one skeleton a run; choose it with --skin N (0 to 1)"));
            assert_int_equal(tu_count_entries(dir), 2);
            assert_int_equal(run_lab(ctx, "--asset", in, "--skin", "2", dir), 2);
            assert_true(tu_file_contains(ctx->err_path, "--skin, 2: the asset has 2 skins"));
            for (int chosen = 0; chosen < 2; chosen++) { /* each skin's mesh alone, the other's kept */
                char skin[8];
                snprintf(skin, sizeof skin, "%d", chosen);
                assert_int_equal(run_lab(ctx, "--asset", in, "--skin", skin, dir), 0);
                cJSON *json = tu_json_load(tu_path(dir, "weights30-asset.json"));
                cJSON *parts = tu_json_get(tu_json_get(json, "asset"), "primitives");
                assert_int_equal(cJSON_GetArraySize(parts), 1);
                assert_int_equal((int)tu_json_num(cJSON_GetArrayItem(parts, 0), "mesh"), chosen);
                cJSON_Delete(json);
                char glb[4200];
                snprintf(glb, sizeof glb, "%s", tu_path(dir, "copy-heat.glb"));
                tu_gltf_validate(ctx, glb, false);
            }
            continue;
        }
        for (int s = 0; s < 3; s++) {
            assert_int_equal(run_lab(ctx, "--asset", "assets/RiggedSimple.gltf", "--weights", sets[s], ctx->dir), 0);
            char *whole = tu_read_file(tu_path(ctx->dir, "weights30-asset.csv"), NULL);
            assert_int_equal(run_lab(ctx, "--asset", in, "--weights", sets[s], dir), 0);
            char *parted = tu_read_file(tu_path(dir, "weights30-asset.csv"), NULL);
            cJSON *json = tu_json_load(tu_path(dir, "weights30-asset.json"));
            cJSON *asset = tu_json_get(json, "asset");
            assert_int_equal(cJSON_GetArraySize(tu_json_get(asset, "primitives")), 2);
            assert_int_equal((int)tu_json_num(cJSON_GetArrayItem(tu_json_get(asset, "primitives"), 1), "first_vertex"), 160);
            assert_int_equal((int)tu_json_num(asset, "vertices"), 2 * 160);
            assert_true(tu_json_num(tu_json_get(json, "written"), "max_read_back_weight_error") <= 1e-6);
            cJSON_Delete(json);
            if (s < 2) { /* the welded surface is the original's, and so are the weights */
                char *expected = parted_rows(whole, 160);
                if (strcmp(parted, expected))
                    fail_msg("%s weights of the %s copy differ from RiggedSimple's", sets[s],
                             how == ONE_MESH_TWO_PRIMITIVES ? "two-primitive" : "two-mesh");
                free(expected);
            }
            free(whole), free(parted);
        }
        /* the .glb written holds both parts with the new weights (the program read them back,
         * above) and passes the Khronos validator */
        char glb[4200];
        snprintf(glb, sizeof glb, "%s", tu_path(dir, "copy-blender.glb"));
        tu_gltf_validate(ctx, glb, false);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_lab30_weights_do_not_depend_on_the_unit, tu_run_dir_setup,
                                        tu_run_dir_teardown),
        cmocka_unit_test_setup_teardown(test_lab30_weights_solve_over_every_part, tu_run_dir_setup,
                                        tu_run_dir_teardown),
    };
    return cmocka_run_group_tests_name("lab30-weights on copies of RiggedSimple", tests, NULL, NULL);
}
