/* test_gltf_malformed.c - end to end: build/bin/lab30-gltf on malformed and hostile glTF
 * files. Each case starts from the project's own export (out/skinning30.gltf, written by
 * lab30 --gltf), breaks one thing, either in the JSON or in the bytes of its buffer, and
 * runs the program. Every case must exit 1, name the place in its message (a JSON pointer,
 * or the mesh, primitive and vertex), and leave OUTDIR empty.
 *
 * To add a case: a function that breaks a cJSON document (and the decoded buffer, when
 * the case is in the data), and a row in `cases`. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmocka_all.h"
#include "testutil.h"

#define LAB LAB_BIN_DIR "/lab30-gltf"
#define BASE COMMITTED_OUT_DIR "/skinning30.gltf"
#define URI_PREFIX "data:application/octet-stream;base64,"

/* The export's layout (see src/gltf_export.c): accessors 0 POSITION, 1 NORMAL, 2 JOINTS_0,
 * 3 WEIGHTS_0, 4 indices, 5 inverse binds, 6 animation times, 7 rotations; one buffer,
 * bufferView k holds accessor k. */
enum { POSITION_OFFSET = 0, WEIGHTS_OFFSET = 6912, IBM_OFFSET = 12672, TIMES_OFFSET = 12800,
       ROTATIONS_OFFSET = 12828 };

/* ---- base64, both ways (the test's own, for the buffer's data URI) -------------------- */

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static size_t decode(const char *text, uint8_t *out)
{
    size_t n = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (const char *c = text; *c && *c != '='; c++) {
        const char *at = strchr(b64, *c);
        acc = (acc << 6) | (uint32_t)(at - b64);
        if ((bits += 6) >= 8)
            out[n++] = (uint8_t)(acc >> (bits -= 8));
    }
    return n;
}

static char *encode(const uint8_t *data, size_t n)
{
    char *out = malloc(sizeof URI_PREFIX + 4 * (n / 3 + 1) + 1), *p = out + strlen(URI_PREFIX);
    strcpy(out, URI_PREFIX);
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)data[i] << 16 | (i + 1 < n ? (uint32_t)data[i + 1] << 8 : 0) |
                     (i + 2 < n ? data[i + 2] : 0);
        *p++ = b64[v >> 18 & 63], *p++ = b64[v >> 12 & 63];
        *p++ = i + 1 < n ? b64[v >> 6 & 63] : '=';
        *p++ = i + 2 < n ? b64[v & 63] : '=';
    }
    *p = '\0';
    return out;
}

/* ---- the cases -------------------------------------------------------------------------- */

typedef struct {
    cJSON *doc;
    uint8_t *buffer;   /* the decoded buffer 0 */
    size_t size;
} asset;

static cJSON *at(cJSON *root, const char *a, int i)
{
    return cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, a), i);
}

static void set_float(asset *s, size_t offset, float x) { memcpy(s->buffer + offset, &x, sizeof x); }
static void set_number(cJSON *obj, const char *key, double x)
{
    cJSON_DeleteItemFromObjectCaseSensitive(obj, key);
    cJSON_AddNumberToObject(obj, key, x);
}
static void set_raw(cJSON *obj, const char *key, const char *json)
{
    cJSON_DeleteItemFromObjectCaseSensitive(obj, key);
    cJSON_AddItemToObject(obj, key, cJSON_CreateRaw(json));
}

/* 1. non-finite data, and finite data whose product overflows */
static void ibm_nan_rotation(asset *s) { set_float(s, IBM_OFFSET + 4 * 1, NAN); }
static void ibm_infinite_translation(asset *s) { set_float(s, IBM_OFFSET + 64 + 4 * 14, INFINITY); }
static void position_nan(asset *s) { set_float(s, POSITION_OFFSET + 12 * 10, NAN); }
static void position_infinite(asset *s) { set_float(s, POSITION_OFFSET + 12 * 20 + 8, -INFINITY); }
static void rotation_key_nan(asset *s) { set_float(s, ROTATIONS_OFFSET + 16 * 3 + 4, NAN); }
static void translation_overflows_json(asset *s) { set_raw(at(s->doc, "nodes", 1), "translation", "[0, 0, 1e400]"); }
static void nested_scales_overflow(asset *s)
{
    set_raw(at(s->doc, "nodes", 0), "scale", "[1e300, 1e300, 1e300]");
    set_raw(at(s->doc, "nodes", 1), "scale", "[1e300, 1e300, 1e300]");
}
/* 7. glTF MUSTs */
static void joints_normalized(asset *s) { cJSON_AddTrueToObject(at(s->doc, "accessors", 2), "normalized"); }
static void float_normalized(asset *s) { cJSON_AddTrueToObject(at(s->doc, "accessors", 0), "normalized"); }
static void zero_rotation(asset *s) { set_raw(at(s->doc, "nodes", 0), "rotation", "[0, 0, 0, 0]"); }
static void animated_matrix_node(asset *s)
{
    cJSON_DeleteItemFromObjectCaseSensitive(at(s->doc, "nodes", 1), "translation");
    set_raw(at(s->doc, "nodes", 1), "matrix", "[1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,2,1]");
}
static void matrix_and_trs(asset *s)
{
    set_raw(at(s->doc, "nodes", 0), "matrix", "[1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]");
    set_raw(at(s->doc, "nodes", 0), "translation", "[0, 0, 0]");
}
static void duplicate_joint(asset *s) { set_raw(at(s->doc, "skins", 0), "joints", "[1, 1]"); }
static void unsigned_int_rotation(asset *s) { set_number(at(s->doc, "accessors", 7), "componentType", 5125); }
static void integer_weights_not_normalized(asset *s) { set_number(at(s->doc, "accessors", 3), "componentType", 5121); }
/* rules that held before: indices, ranges, the hierarchy, the skin data */
static void joint_out_of_range(asset *s) { set_raw(at(s->doc, "skins", 0), "joints", "[0, 9]"); }
static void accessor_past_view(asset *s) { set_number(at(s->doc, "accessors", 0), "count", 217); }
static void view_past_buffer(asset *s) { set_number(at(s->doc, "bufferViews", 7), "byteLength", 100000); }
static void hierarchy_cycle(asset *s) { set_raw(at(s->doc, "nodes", 1), "children", "[0]"); }
static void mesh_out_of_range(asset *s) { set_number(at(s->doc, "nodes", 2), "mesh", 5); }
static void ibm_not_affine(asset *s) { set_float(s, IBM_OFFSET + 4 * 3, 1.0f); }
static void weight_sum(asset *s) { set_float(s, WEIGHTS_OFFSET + 16 * 5, 1.5f); }
static void weight_negative(asset *s)
{
    set_float(s, WEIGHTS_OFFSET + 16 * 100, 1.25f);
    set_float(s, WEIGHTS_OFFSET + 16 * 100 + 4, -0.25f);
}
static void times_decrease(asset *s) { set_float(s, TIMES_OFFSET + 4 * 3, 0.0f); }
static void unknown_component_type(asset *s) { set_number(at(s->doc, "accessors", 4), "componentType", 5124); }

typedef struct {
    const char *name;
    void (*broken)(asset *s);
    const char *place;       /* what the message must name */
} malformed_case;

static const malformed_case cases[] = {
    {"inverse bind: NaN in the rotation", ibm_nan_rotation, "/skins/0/inverseBindMatrices"},
    {"inverse bind: infinite translation", ibm_infinite_translation, "/skins/0/inverseBindMatrices"},
    {"POSITION: NaN", position_nan, "/meshes/0/primitives/0/attributes/POSITION"},
    {"POSITION: -infinity", position_infinite, "/meshes/0/primitives/0/attributes/POSITION"},
    {"rotation key: NaN", rotation_key_nan, "/animations/0/samplers/0/output"},
    {"translation 1e400 in the JSON", translation_overflows_json, "/nodes/1/translation"},
    {"scales 1e300 on two nested nodes", nested_scales_overflow, "/nodes/1"},
    {"normalized JOINTS", joints_normalized, "/meshes/0/primitives/0/attributes/JOINTS_0"},
    {"normalized FLOAT accessor", float_normalized, "/accessors/0/normalized"},
    {"zero-length rotation", zero_rotation, "/nodes/0/rotation"},
    {"animation targets a node with a matrix", animated_matrix_node, "/animations/0/channels/0/target/node"},
    {"matrix together with TRS", matrix_and_trs, "/nodes/0/translation"},
    {"duplicate skin joint", duplicate_joint, "/skins/0/joints/1"},
    {"UNSIGNED_INT rotation output", unsigned_int_rotation, "/animations/0/channels/0"},
    {"integer weights not normalized", integer_weights_not_normalized, "/meshes/0/primitives/0/attributes/WEIGHTS_0"},
    {"skin joint out of range", joint_out_of_range, "/skins/0/joints/1"},
    {"accessor past its bufferView", accessor_past_view, "/accessors/0"},
    {"bufferView past its buffer", view_past_buffer, "/bufferViews/7"},
    {"node hierarchy cycle", hierarchy_cycle, "/nodes/"},
    {"mesh index out of range", mesh_out_of_range, "/nodes/2"},
    {"inverse bind not affine", ibm_not_affine, "/skins/0/inverseBindMatrices"},
    {"weights sum to 1.5", weight_sum, "vertex 5"},
    {"negative weight", weight_negative, "vertex 100"},
    {"animation times decrease", times_decrease, "/animations/0/samplers/0/input"},
    {"componentType INT (5124) for indices", unknown_component_type, "/accessors/4"},
};
enum { CASE_COUNT = sizeof cases / sizeof cases[0] };

/* Writes the base export with case c applied to dir/case.gltf; returns the path. */
static const char *write_case(const malformed_case *c, const char *dir)
{
    char *text = tu_read_file(BASE, NULL);
    assert_non_null(text);
    asset s = {cJSON_Parse(text), NULL, 0};
    free(text);
    assert_non_null(s.doc);
    cJSON *buffer = at(s.doc, "buffers", 0);
    const char *uri = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(buffer, "uri"));
    assert_non_null(uri);
    assert_int_equal(strncmp(uri, URI_PREFIX, strlen(URI_PREFIX)), 0);
    s.buffer = malloc(strlen(uri));
    s.size = decode(uri + strlen(URI_PREFIX), s.buffer);
    assert_int_equal(s.size, 12940);
    c->broken(&s);
    char *new_uri = encode(s.buffer, s.size);
    cJSON_ReplaceItemInObjectCaseSensitive(buffer, "uri", cJSON_CreateString(new_uri));
    char *out = cJSON_Print(s.doc);
    const char *path = tu_path(dir, "case.gltf");
    assert_true(tu_write_file(path, out));
    free(out), free(new_uri), free(s.buffer);
    cJSON_Delete(s.doc);
    return path;
}

/* The base export itself is accepted: the cases break one thing each, nothing else. */
static void test_gltf_malformed_base_is_accepted(void **state)
{
    tu_run_dir *ctx = *state;
    assert_int_equal(tu_run_program(LAB, ctx->out_path, ctx->err_path, BASE, ctx->dir, (char *)NULL), 0);
}

static void test_gltf_malformed_cases(void **state)
{
    tu_run_dir *ctx = *state;
    char in[128], out[128];
    snprintf(in, sizeof in, "%s/in", ctx->dir);
    assert_int_equal(mkdir(in, 0777), 0);
    int failed = 0;
    for (int i = 0; i < CASE_COUNT; i++) {
        snprintf(out, sizeof out, "%s/out%02d", ctx->dir, i + 1); /* an OUTDIR of its own */
        assert_int_equal(mkdir(out, 0777), 0);
        const char *path = write_case(&cases[i], in);
        int rc = tu_run_program(LAB, ctx->out_path, ctx->err_path, path, out, (char *)NULL);
        bool named = tu_file_contains(ctx->err_path, cases[i].place);
        int left = tu_count_entries(out);
        if (rc != 1 || !named || left != 0 || getenv("MALFORMED_VERBOSE")) {
            char *msg = tu_read_file(ctx->err_path, NULL);
            fprintf(stderr, "case %d (%s): exit %d, %s \"%s\", %d files left\n  %s", i + 1, cases[i].name, rc,
                    named ? "names" : "does NOT name", cases[i].place, left, msg ? msg : "(no message)\n");
            free(msg);
            failed++;
        }
    }
    assert_int_equal(failed, 0);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, tu_run_dir_setup, tu_run_dir_teardown)
    const struct CMUnitTest tests[] = {
        T(test_gltf_malformed_base_is_accepted),
        T(test_gltf_malformed_cases),
    };
#undef T
    return cmocka_run_group_tests_name("lab30-gltf on malformed assets", tests, NULL, NULL);
}
