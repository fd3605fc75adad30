/* test_lab30_weights_scale.c - weights that do not depend on the unit: RiggedSimple copied
 * at exact scales (powers of two: every float of the copy is the original's times k, no
 * rounding), from 2^-11 to 2^100, re-weighted with each set: the weights written are the
 * original's to the bit. Below WEIGHTS30_MIN_SIZE across (2^-14 here; 2^-100, about 1e-30)
 * the run is refused with a message that names the asset's size and Blender's clamp, and
 * writes nothing. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

/* DIR/scaled.gltf and DIR/scaled.bin: RiggedSimple with every length times k. */
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
    FILE *f = fopen(tu_path(dir, "scaled.bin"), "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(doc.buffers[0].data, 1, doc.buffers[0].size, f), doc.buffers[0].size);
    assert_int_equal(fclose(f), 0);
    cJSON_ReplaceItemInObject(cJSON_GetArrayItem(tu_json_get(root, "buffers"), 0), "uri", cJSON_CreateString("scaled.bin"));
    char *text = cJSON_Print(root);
    assert_true(tu_write_file(tu_path(dir, "scaled.gltf"), text));
    free(text);
    cJSON_Delete(root);
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
            snprintf(in, sizeof in, "%s", tu_path(dir, "scaled.gltf"));
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
        snprintf(in, sizeof in, "%s", tu_path(dir, "scaled.gltf"));
        assert_int_equal(run_lab(ctx, "--asset", in, dir), 1);
        assert_true(tu_file_contains(ctx->err_path, small[p] == -14 ? "the asset is 0.000585 across" : "e-30 across"));
        assert_true(tu_file_contains(ctx->err_path, "clamps a vertex's distance to a bone at 1e-4 units"));
        assert_int_equal(tu_count_entries(dir), 2); /* scaled.gltf and scaled.bin: nothing written */
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_lab30_weights_do_not_depend_on_the_unit, tu_run_dir_setup,
                                        tu_run_dir_teardown),
    };
    return cmocka_run_group_tests_name("lab30-weights at any unit", tests, NULL, NULL);
}
