/* test_lab30_weights_compressed.c - lab30-weights --asset on compressed inputs, made at
 * test time from RiggedFigure by Debian's gltfpack (KHR_mesh_quantization alone; with -c and
 * -cc, EXT_meshopt_compression too) and draco_transcoder (KHR_draco_mesh_compression):
 * - meshopt: the three packed files hold the same quantized vertices (-cc in an order of its
 *   own: matched by position), so their weights agree within 1e-12 (the triangles' order
 *   differs, and the sums round differently); the .glb written is plain (no
 *   EXT_meshopt_compression left) and passes the Khronos validator with no error;
 * - Draco: the .glb keeps the primitive's stream, byte for byte, and the extension, the new
 *   JOINTS_0 / WEIGHTS_0 plain accessors outside its attribute map; this test reads it back
 *   with the reader: positions decoded from the kept stream equal the input's bit for bit,
 *   and the influences read equal the CSV written within 1e-6; the validator gives no error. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_all.h"
#include "testutil.h"

#include "gltf/gltf.h"
#include "skin/influences.h"

#define LAB LAB_BIN_DIR "/lab30-weights"
#define GLTFPACK "/usr/bin/gltfpack"                 /* Debian's gltfpack (scripts/ensure-deps.sh) */
#define DRACO_TRANSCODER "/usr/bin/draco_transcoder" /* Debian's draco */
#define run_lab(ctx, ...) tu_run_program(LAB, (ctx)->out_path, (ctx)->err_path, __VA_ARGS__, (char *)NULL)
typedef tu_run_dir run_ctx;


/* vertex,joint,weight rows into a dense table of n x J (zeros elsewhere). */
static double *read_weights(const char *csv, int n, int J)
{
    double *w = calloc((size_t)n * J, sizeof *w);
    FILE *f = fopen(csv, "r");
    assert_true(w && f);
    char line[128];
    assert_non_null(fgets(line, sizeof line, f));
    int v, j;
    double x;
    while (fscanf(f, "%d,%d,%lf\n", &v, &j, &x) == 3) {
        assert_true(v >= 0 && v < n && j >= 0 && j < J);
        w[(size_t)v * J + j] = x;
    }
    assert_int_equal(fclose(f), 0);
    return w;
}

static bool lists(const cJSON *root, const char *list, const char *name)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(root, list))
        if (!strcmp(cJSON_GetStringValue(e), name))
            return true;
    return false;
}

/* The decoded bind positions of path's first primitive (n of them). */
static vec3 *positions(const char *path, int n)
{
    gltf_document doc;
    assert_int_equal(gltf_load(path, &doc, NULL), LAB_OK);
    assert_int_equal(gltf_validate(&doc, NULL), LAB_OK);
    assert_int_equal(gltf_primitive_vertex_count(&doc, 0, 0), n);
    vec3 *p = malloc((size_t)n * sizeof *p);
    assert_non_null(p);
    assert_int_equal(gltf_morph_primitive(&doc, 0, 0, NULL, p, NULL, NULL), LAB_OK);
    gltf_free(&doc);
    return p;
}

static void test_lab30_weights_meshopt_inputs(void **state)
{
    run_ctx *ctx = *state;
    static const char *const flags[3] = {"", "-c", "-cc"};
    enum { N = 370 - 5, J = 19 }; /* gltfpack welds RiggedFigure's 370 vertices to 365 */
    double *first = NULL;
    vec3 *first_at = NULL;
    for (int k = 0; k < 3; k++) {
        char packed[4200], glb[4200];
        snprintf(packed, sizeof packed, "%s/packed%s.glb", ctx->dir, flags[k]);
        char *pack[] = {GLTFPACK, "-i", "assets/RiggedFigure.gltf", "-o", packed, flags[k][0] ? (char *)flags[k] : NULL,
                        NULL};
        assert_int_equal(tu_run(pack, NULL, ctx->err_path), 0);
        gltf_document doc;
        assert_int_equal(gltf_load(packed, &doc, NULL), LAB_OK);
        cJSON *root = cJSON_Parse(doc.json);
        assert_int_equal(lists(root, "extensionsUsed", "EXT_meshopt_compression"), k > 0);
        cJSON_Delete(root);
        gltf_free(&doc);
        assert_int_equal(run_lab(ctx, "--asset", packed, ctx->dir), 0);
        snprintf(glb, sizeof glb, "%s/packed%s-heat.glb", ctx->dir, flags[k]);
        tu_gltf_validate(ctx, glb, true); /* gltfpack's warnings are the source's */
        assert_int_equal(gltf_load(glb, &doc, NULL), LAB_OK);
        root = cJSON_Parse(doc.json);
        assert_false(lists(root, "extensionsUsed", "EXT_meshopt_compression"));
        assert_false(lists(root, "extensionsRequired", "EXT_meshopt_compression"));
        cJSON_Delete(root);
        gltf_free(&doc);
        double *w = read_weights(tu_path(ctx->dir, "weights30-asset.csv"), N, J);
        vec3 *at = positions(packed, N);
        if (k == 0) {
            first = w, first_at = at;
            continue;
        }
        /* -cc orders the vertices its own way: each matched to the first file's vertex at the
         * same quantized position (the paper's heat welds those, so their weights agree) */
        double worst = 0.0;
        for (int v = 0; v < N; v++) {
            int u = 0;
            while (u < N && memcmp(&first_at[u], &at[v], sizeof at[v]))
                u++;
            assert_true(u < N);
            for (int j = 0; j < J; j++)
                worst = fmax(worst, fabs(w[(size_t)v * J + j] - first[(size_t)u * J + j]));
        }
        if (!(worst <= 1e-12))
            fail_msg("gltfpack %s: weights %.3g from the uncompressed quantized file's", flags[k], worst);
        free(w), free(at);
    }
    free(first), free(first_at);
}

static void test_lab30_weights_draco_inputs(void **state)
{
    run_ctx *ctx = *state;
    char draco[4200], glb[4200];
    snprintf(draco, sizeof draco, "%s/figure-draco.gltf", ctx->dir);
    char *transcode[] = {DRACO_TRANSCODER, "-i", "assets/RiggedFigure.gltf", "-o", draco, NULL};
    assert_int_equal(tu_run(transcode, NULL, ctx->err_path), 0);
    assert_int_equal(run_lab(ctx, "--asset", draco, "--weights", "blender", ctx->dir), 0);
    snprintf(glb, sizeof glb, "%s/figure-draco-blender.glb", ctx->dir);
    tu_gltf_validate(ctx, glb, false);
    gltf_document in, out;
    assert_int_equal(gltf_load(draco, &in, NULL), LAB_OK);
    assert_int_equal(gltf_load(glb, &out, NULL), LAB_OK);
    cJSON *root = cJSON_Parse(out.json);
    assert_true(lists(root, "extensionsRequired", "KHR_draco_mesh_compression"));
    cJSON *map = tu_json_get(tu_json_get(tu_json_get(cJSON_GetArrayItem(tu_json_get(cJSON_GetArrayItem(
                                                                            tu_json_get(root, "meshes"), 0),
                                                                        "primitives"),
                                                    0),
                                  "extensions"),
                      "KHR_draco_mesh_compression"),
                      "attributes");
    assert_non_null(cJSON_GetObjectItem(map, "POSITION"));
    assert_null(cJSON_GetObjectItem(map, "JOINTS_0"));
    assert_null(cJSON_GetObjectItem(map, "WEIGHTS_0"));
    cJSON_Delete(root);
    /* the stream kept: the same bytes (the input's view and the output's, before decoding) */
    const gltf_view *vi = &in.views[in.meshes[0].primitives[0].draco.view];
    const gltf_view *vo = &out.views[out.meshes[0].primitives[0].draco.view];
    assert_int_equal(vi->length, vo->length);
    assert_memory_equal(in.buffers[vi->buffer].data + vi->offset, out.buffers[vo->buffer].data + vo->offset, vi->length);
    assert_int_equal(gltf_validate(&in, NULL), LAB_OK);
    assert_int_equal(gltf_validate(&out, NULL), LAB_OK);
    int n = gltf_primitive_vertex_count(&in, 0, 0);
    assert_int_equal(gltf_primitive_vertex_count(&out, 0, 0), n);
    vec3 *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
    assert_true(a && b);
    assert_int_equal(gltf_morph_primitive(&in, 0, 0, NULL, a, NULL, NULL), LAB_OK);
    assert_int_equal(gltf_morph_primitive(&out, 0, 0, NULL, b, NULL, NULL), LAB_OK);
    assert_memory_equal(a, b, (size_t)n * sizeof *a);
    free(a), free(b);
    /* the influences as written */
    skin_influences got;
    assert_int_equal(gltf_primitive_influences(&out, 0, 0, &got, NULL), LAB_OK);
    double *w = read_weights(tu_path(ctx->dir, "weights30-asset.csv"), n, 19), worst = 0.0;
    for (int v = 0; v < n; v++)
        for (int j = 0; j < 19; j++) {
            double x = 0.0;
            for (int k = 0; k < got.per_vertex; k++)
                x += got.joint[v * got.per_vertex + k] == j ? got.weight[v * got.per_vertex + k] : 0.0;
            worst = fmax(worst, fabs(x - w[(size_t)v * 19 + j]));
        }
    assert_true(worst <= 1e-6);
    skin_influences_free(&got);
    free(w);
    gltf_free(&in), gltf_free(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_lab30_weights_meshopt_inputs, tu_run_dir_setup, tu_run_dir_teardown),
        cmocka_unit_test_setup_teardown(test_lab30_weights_draco_inputs, tu_run_dir_setup, tu_run_dir_teardown),
    };
    return cmocka_run_group_tests_name("lab30-weights --asset on compressed inputs", tests, NULL, NULL);
}
