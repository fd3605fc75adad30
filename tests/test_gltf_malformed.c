/* test_gltf_malformed.c - end to end: build/bin/lab30-gltf on malformed and hostile glTF
 * files. Each case starts from the project's own export (out/ch30/skinning30.gltf, written by
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
#include <unistd.h>

#include "cmocka_all.h"
#include "testutil.h"

#include "base/bytes.h"

#define LAB LAB_BIN_DIR "/lab30-gltf"
#define PEAK_BOUND_KB (256L << 10) /* every run of this suite peaks under 256 MiB (not measured under ASan) */
#define BASE COMMITTED_OUT_DIR "/ch30/skinning30.gltf"
#define URI_PREFIX "data:application/octet-stream;base64,"

/* The export's layout (see lab/ch30/rig30_gltf.c): accessors 0 POSITION, 1 NORMAL, 2 JOINTS_0,
 * 3 WEIGHTS_0, 4 indices, 5 inverse binds, 6 animation times, 7 rotations; one buffer,
 * bufferView k holds accessor k. */
/* The inverse binds: "root", "child" and the end node "child_end"; 12 keys. */
enum { POSITION_OFFSET = 0, JOINTS_OFFSET = 5184, WEIGHTS_OFFSET = 6912, INDICES_OFFSET = 10368, IBM_OFFSET = 12672,
       TIMES_OFFSET = IBM_OFFSET + 3 * 64, ROTATIONS_OFFSET = TIMES_OFFSET + 12 * 4 };

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
    const char *dir;   /* where the case's files go */
    char *raw;         /* when a case sets it: the file's bytes instead of the printed doc */
    size_t raw_size;
} asset;

static cJSON *at(cJSON *root, const char *a, int i)
{
    return cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, a), i);
}

static void set_float(asset *s, size_t offset, float x) { memcpy(s->buffer + offset, &x, sizeof x); }
static void set_u16(asset *s, size_t offset, uint16_t x) { memcpy(s->buffer + offset, &x, sizeof x); }
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
static void rotation_key_zero(asset *s) /* key 3 is (0, 0, 0, 0): no rotation at all */
{
    for (int c = 0; c < 4; c++)
        set_float(s, ROTATIONS_OFFSET + 16 * 3 + 4 * c, 0.0f);
}
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
/* The validator's memo: checking every element of a rotation output (LINEAR, STEP) implies
 * the every-third check CUBICSPLINE needs, never the reverse. One output shared by a
 * CUBICSPLINE sampler (4 keys: in-tangent, value, out-tangent) and, after it, a LINEAR one
 * (12 keys) over the same 12 quaternions: element 0, a tangent to the spline, is (0, 0, 0, 0),
 * which the LINEAR sampler must refuse as a key. */
static void shared_output_spline_then_linear(asset *s)
{
    for (int c = 0; c < 4; c++)
        set_float(s, ROTATIONS_OFFSET + 4 * c, 0.0f);
    float t0, t3;
    memcpy(&t0, s->buffer + TIMES_OFFSET, 4);
    memcpy(&t3, s->buffer + TIMES_OFFSET + 12, 4);
    char json[200];
    snprintf(json, sizeof json, "{\"bufferView\": 6, \"componentType\": 5126, \"count\": 4, \"type\": \"SCALAR\", "
             "\"min\": [%.9g], \"max\": [%.9g]}", t0, t3);
    cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(s->doc, "accessors"), cJSON_Parse(json)); /* accessor 8 */
    cJSON *animation = at(s->doc, "animations", 0);
    set_raw(animation, "samplers", "[{\"input\": 8, \"output\": 7, \"interpolation\": \"CUBICSPLINE\"}, "
                                   "{\"input\": 6, \"output\": 7, \"interpolation\": \"LINEAR\"}]");
    cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(animation, "channels"),
                         cJSON_Parse("{\"sampler\": 1, \"target\": {\"node\": 0, \"path\": \"rotation\"}}"));
}
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
static void data_uri_media_type(asset *s) { cJSON_AddStringToObject(s->doc, "x-uri", "text/plain"); }
static void extension_required(asset *s) { set_raw(s->doc, "extensionsRequired", "[\"KHR_texture_basisu\"]"); }
/* an extension the reader acts on, used without extensionsUsed listing it */
static void meshopt_undeclared(asset *s)
{
    set_raw(at(s->doc, "bufferViews", 0), "extensions",
            "{\"EXT_meshopt_compression\": {\"buffer\": 0, \"byteLength\": 4, \"byteStride\": 4, \"count\": 1, "
            "\"mode\": \"ATTRIBUTES\"}}");
}
static void meshopt_fallback_undeclared(asset *s) /* a fallback buffer: the extension on a buffer */
{
    set_raw(at(s->doc, "buffers", 0), "extensions", "{\"EXT_meshopt_compression\": {\"fallback\": true}}");
}
static void draco_undeclared(asset *s)
{
    set_raw(at(at(s->doc, "meshes", 0), "primitives", 0), "extensions",
            "{\"KHR_draco_mesh_compression\": {\"bufferView\": 0, \"attributes\": {\"POSITION\": 0}}}");
}
static void scene_node_out_of_range(asset *s) { set_raw(at(s->doc, "scenes", 0), "nodes", "[0, 7]"); }
static void scene_out_of_range(asset *s) { set_number(s->doc, "scene", 3); }
static void skeleton_not_a_root(asset *s) { set_number(at(s->doc, "skins", 0), "skeleton", 2); }
static void node_name_a_number(asset *s) { set_number(at(s->doc, "nodes", 1), "name", 7); }

/* more rules that held before, one per place the reader checks */
static void view_out_of_range(asset *s) { set_number(at(s->doc, "accessors", 0), "bufferView", 99); }
static void stride_not_multiple_of_4(asset *s) { set_number(at(s->doc, "bufferViews", 0), "byteStride", 14); }
static void stride_below_element(asset *s) { set_number(at(s->doc, "bufferViews", 0), "byteStride", 8); }
static void misaligned_offset(asset *s) { set_number(at(s->doc, "accessors", 0), "byteOffset", 2); }
static void joints_count_mismatch(asset *s) { set_number(at(s->doc, "accessors", 2), "count", 100); }
static void joints_wrong_type(asset *s) { cJSON_ReplaceItemInObjectCaseSensitive(at(s->doc, "accessors", 2), "type", cJSON_CreateString("VEC3")); }
static void index_past_vertices(asset *s) { set_u16(s, INDICES_OFFSET + 2 * 7, 999); }
static void too_few_inverse_binds(asset *s) { set_number(at(s->doc, "accessors", 5), "count", 1); }
static void inverse_binds_wrong_type(asset *s) { cJSON_ReplaceItemInObjectCaseSensitive(at(s->doc, "accessors", 5), "type", cJSON_CreateString("VEC4")); }
static void sampler_input_out_of_range(asset *s)
{
    set_number(at(at(s->doc, "animations", 0), "samplers", 0), "input", 99);
}
static void channel_node_out_of_range(asset *s)
{
    cJSON *channel = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(at(s->doc, "animations", 0), "channels"), 0);
    set_number(cJSON_GetObjectItemCaseSensitive(channel, "target"), "node", 9);
}
static void output_count_mismatch(asset *s) { set_number(at(s->doc, "accessors", 7), "count", 6); }
static void second_parent(asset *s) { set_raw(at(s->doc, "nodes", 2), "children", "[1]"); }
static void version_1(asset *s) { cJSON_ReplaceItemInObjectCaseSensitive(cJSON_GetObjectItemCaseSensitive(s->doc, "asset"), "version", cJSON_CreateString("1.0")); }
static void joint_outside_skin(asset *s) { set_u16(s, JOINTS_OFFSET + 8 * 3, 5); }
static void weight_nan(asset *s) { set_float(s, WEIGHTS_OFFSET + 16 * 7 + 4, NAN); }
static void buffer_longer_than_data(asset *s) { set_number(at(s->doc, "buffers", 0), "byteLength", 20000); }
static void bad_base64(asset *s) { cJSON_AddStringToObject(s->doc, "x-uri", "application/octet-stream;x=!"); }

/* 2. cost bounded by the input: counts beyond the documented limits are refused first */
static void zero_filled_positions(asset *s) /* no bufferView: zeros, 2^24 of them */
{
    cJSON_DeleteItemFromObjectCaseSensitive(at(s->doc, "accessors", 0), "bufferView");
    set_number(at(s->doc, "accessors", 0), "count", 1 << 24);
}
static void positions_over_the_limit(asset *s)
{
    cJSON_DeleteItemFromObjectCaseSensitive(at(s->doc, "accessors", 0), "bufferView");
    set_number(at(s->doc, "accessors", 0), "count", (1 << 20) + 1);
}
static void too_many_nodes(asset *s)
{
    cJSON *nodes = cJSON_GetObjectItemCaseSensitive(s->doc, "nodes");
    while (cJSON_GetArraySize(nodes) <= 1 << 16)
        cJSON_AddItemToArray(nodes, cJSON_CreateObject());
}
static void too_many_joints(asset *s)
{
    cJSON *joints = cJSON_CreateArray();
    for (int k = 0; k <= 1 << 12; k++)
        cJSON_AddItemToArray(joints, cJSON_CreateNumber(k % 2));
    cJSON_ReplaceItemInObjectCaseSensitive(at(s->doc, "skins", 0), "joints", joints);
}

/* 8. the document itself: what the message must locate is a byte */
static void set_text(asset *s, const char *text, size_t n)
{
    s->raw = malloc(n + 1);
    memcpy(s->raw, text, n);
    s->raw_size = n;
}
static char *printed(asset *s) { return cJSON_Print(s->doc); }
static void nul_in_whitespace(asset *s)
{
    char *t = printed(s);
    t[1] = '\0'; /* the whitespace after the opening brace */
    set_text(s, t, strlen(t + 2) + 2);
    free(t);
}
static void truncated(asset *s)
{
    char *t = printed(s);
    set_text(s, t, strlen(t) / 2);
    free(t);
}
static void deep_nesting(asset *s)
{
    enum { DEPTH = 100000 };
    char *t = malloc(2 * DEPTH + 16);
    strcpy(t, "{\"a\": ");
    memset(t + 6, '[', DEPTH), memset(t + 6 + DEPTH, ']', DEPTH);
    strcpy(t + 6 + 2 * DEPTH, "}");
    set_text(s, t, strlen(t));
    free(t);
}
static void text_after(asset *s)
{
    char *t = printed(s);
    size_t n = strlen(t);
    t = realloc(t, n + 3);
    strcpy(t + n, "{}");
    set_text(s, t, n + 2);
    free(t);
}
static void bad_magic(asset *s) { set_text(s, "gltF\2\0\0\0\24\0\0\0JSON\0\0\0\0\0\0\0\0", 24); }
/* A GLB whose JSON chunk length is not a multiple of 4 (the padding left out). */
static void unpadded_glb(asset *s)
{
    char *t = printed(s);
    uint32_t json = (uint32_t)strlen(t) | 1u, total = 12 + 8 + json; /* odd: never a multiple of 4 */
    char *g = calloc(total, 1);
    const uint32_t header[5] = {0x46546C67u, 2, total, json, 0x4E4F534Au};
    memcpy(g, header, sizeof header);
    memcpy(g + 20, t, strlen(t));
    memset(g + 20 + strlen(t), ' ', json - strlen(t));
    set_text(s, g, total);
    free(g), free(t);
}

/* 6. external buffers: regular files inside the asset's directory, of bounded size */
static void external(asset *s, const char *name)
{
    cJSON_ReplaceItemInObjectCaseSensitive(at(s->doc, "buffers", 0), "uri", cJSON_CreateString(name));
}
static const char *in_dir(asset *s, const char *name) { return tu_path(s->dir, name); }
static void external_fifo(asset *s)
{
    assert_int_equal(mkfifo(in_dir(s, "fifo.bin"), 0600), 0);
    external(s, "fifo.bin");
}
static void external_symlink_out(asset *s)
{
    assert_int_equal(symlink("/etc/passwd", in_dir(s, "passwd.bin")), 0);
    external(s, "passwd.bin");
}
static void external_dev_zero(asset *s)
{
    assert_int_equal(symlink("/dev/zero", in_dir(s, "zero.bin")), 0);
    external(s, "zero.bin");
}
static void external_parent(asset *s) /* a real file, one directory up */
{
    assert_true(tu_write_file(in_dir(s, "../outside.bin"), "0123456789"));
    external(s, "../outside.bin");
}
static void external_missing(asset *s) { external(s, "missing.bin"); }
static void external_too_large(asset *s)
{
    FILE *f = fopen(in_dir(s, "large.bin"), "wb");
    assert_non_null(f);
    fwrite(s->buffer, 1, s->size, f);
    for (int k = 0; k < 100; k++)
        fputc(0, f);
    fclose(f);
    external(s, "large.bin");
}

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
    {"rotation key: length 0", rotation_key_zero, "/animations/0/samplers/0/output"},
    {"rotation output shared, CUBICSPLINE then LINEAR", shared_output_spline_then_linear,
     "/animations/0/samplers/1/output, key 0 is (0, 0, 0, 0)"},
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
    {"weights sum to 1.5", weight_sum, "vertex 5 (--policy normalize divides its weights by their sum)"},
    {"negative weight", weight_negative, "vertex 100"},
    {"animation times decrease", times_decrease, "/animations/0/samplers/0/input"},
    {"componentType INT (5124) for indices", unknown_component_type, "/accessors/4"},
    {"bufferView index out of range", view_out_of_range, "/accessors/0"},
    {"byteStride 14", stride_not_multiple_of_4, "/bufferViews/0"},
    {"byteStride smaller than an element", stride_below_element, "/accessors/0"},
    {"byteOffset not aligned", misaligned_offset, "/accessors/0"},
    {"JOINTS_0 count differs from POSITION", joints_count_mismatch, "/meshes/0/primitives/0/attributes/JOINTS_0"},
    {"JOINTS_0 of type VEC3", joints_wrong_type, "/meshes/0/primitives/0/attributes/JOINTS_0"},
    {"an index past the vertices", index_past_vertices, "/meshes/0/primitives/0/indices"},
    {"fewer inverse binds than joints", too_few_inverse_binds, "/skins/0/inverseBindMatrices"},
    {"inverse binds of type VEC4", inverse_binds_wrong_type, "/skins/0/inverseBindMatrices"},
    {"sampler input out of range", sampler_input_out_of_range, "/animations/0/samplers/0/input"},
    {"channel node out of range", channel_node_out_of_range, "/animations/0/channels/0"},
    {"output count differs from the keys", output_count_mismatch, "/animations/0/channels/0"},
    {"a node with two parents", second_parent, "/nodes/2/children/0"},
    {"asset version 1.0", version_1, "/asset/version"},
    {"joint index outside skin.joints", joint_outside_skin, "vertex 3"},
    {"NaN weight", weight_nan, "vertex 7"},
    {"byteLength beyond the data", buffer_longer_than_data, "/buffers/0"},
    {"data URI with a parameter", bad_base64, "/buffers/0/uri"},
    {"2^24 zero-filled positions", zero_filled_positions, "/accessors/0/count"},
    {"2^20 + 1 positions", positions_over_the_limit, "--max-vertices"},
    {"65,537 nodes", too_many_nodes, "/nodes"},
    {"4,097 joints", too_many_joints, "/skins/0/joints"},
    {"data URI of media type text/plain", data_uri_media_type, "/buffers/0/uri"},
    {"an extension required", extension_required, "/extensionsRequired/0"},
    {"EXT_meshopt_compression used, not declared", meshopt_undeclared, "/bufferViews/0/extensions/EXT_meshopt_compression"},
    {"EXT_meshopt_compression on a fallback buffer, not declared", meshopt_fallback_undeclared,
     "/buffers/0/extensions/EXT_meshopt_compression"},
    {"KHR_draco_mesh_compression used, not declared", draco_undeclared,
     "/meshes/0/primitives/0/extensions/KHR_draco_mesh_compression"},
    {"scene node out of range", scene_node_out_of_range, "/scenes/0/nodes/1"},
    {"default scene out of range", scene_out_of_range, "/scene"},
    {"skeleton not a common root of the joints", skeleton_not_a_root, "/skins/0/skeleton"},
    {"a node's name a number", node_name_a_number, "/nodes/1/name"},
    {"NUL in the JSON's whitespace", nul_in_whitespace, "byte 1 of the JSON"},
    {"truncated JSON", truncated, "(document), byte "},
    {"100,000 nested arrays", deep_nesting, "(document), byte "},
    {"text after the document", text_after, "text after the document"},
    {"bad GLB magic", bad_magic, "magic 0x46746c67"},
    {"GLB JSON chunk without its padding", unpadded_glb, "(glb JSON chunk), byte 12"},
    {"external buffer: a FIFO", external_fifo, "not a regular file"},
    {"external buffer: a symlink to /etc/passwd", external_symlink_out, "outside the asset's directory"},
    {"external buffer: a symlink to /dev/zero", external_dev_zero, "outside the asset's directory"},
    {"external buffer: ../outside.bin", external_parent, "outside the asset's directory"},
    {"external buffer: missing", external_missing, "cannot open the file"},
    {"external buffer: 100 bytes past byteLength", external_too_large, "larger than the limit"},
};
enum { CASE_COUNT = sizeof cases / sizeof cases[0] };

/* Writes the base export with case c applied to dir/case.gltf; returns the path. */
static const char *write_case(const malformed_case *c, const char *dir)
{
    char *text = tu_read_file(BASE, NULL);
    assert_non_null(text);
    asset s = {cJSON_Parse(text), NULL, 0, dir, NULL, 0};
    free(text);
    assert_non_null(s.doc);
    cJSON *buffer = at(s.doc, "buffers", 0);
    const char *uri = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(buffer, "uri"));
    assert_non_null(uri);
    assert_int_equal(strncmp(uri, URI_PREFIX, strlen(URI_PREFIX)), 0);
    s.buffer = malloc(strlen(uri));
    s.size = decode(uri + strlen(URI_PREFIX), s.buffer);
    assert_int_equal(s.size, 13104); /* the offsets the cases edit are this export's */
    const int offsets[8] = {POSITION_OFFSET, -1, JOINTS_OFFSET, WEIGHTS_OFFSET, INDICES_OFFSET, IBM_OFFSET, TIMES_OFFSET,
                            ROTATIONS_OFFSET};
    for (int k = 0; k < 8; k++)
        if (offsets[k] >= 0)
            assert_int_equal(cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(at(s.doc, "bufferViews", k), "byteOffset")),
                             offsets[k]);
    c->broken(&s);
    /* the (possibly changed) buffer back into its data URI, unless the case moved it out */
    const char *media = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(s.doc, "x-uri"));
    const char *now = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(buffer, "uri"));
    char *new_uri = !strncmp(now, URI_PREFIX, strlen(URI_PREFIX)) ? encode(s.buffer, s.size) : NULL;
    if (new_uri && media) { /* the same bytes under another media type */
        char *other = malloc(strlen(new_uri) + 64);
        sprintf(other, "data:%s;base64,%s", media, strchr(new_uri, ',') + 1);
        free(new_uri);
        new_uri = other;
    }
    cJSON_DeleteItemFromObjectCaseSensitive(s.doc, "x-uri");
    if (new_uri)
        cJSON_ReplaceItemInObjectCaseSensitive(buffer, "uri", cJSON_CreateString(new_uri));
    char *out = s.raw ? NULL : cJSON_Print(s.doc);
    const char *path = tu_path(dir, "case.gltf");
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(s.raw ? s.raw : out, 1, s.raw ? s.raw_size : strlen(out), f), s.raw ? s.raw_size : strlen(out));
    assert_int_equal(fclose(f), 0);
    free(out), free(new_uri), free(s.buffer), free(s.raw);
    cJSON_Delete(s.doc);
    return path;
}

/* With FUZZ_SEEDS_DIR set (make fuzz sets it), each case also becomes a seed of the
 * fuzzer's corpus, malformed-NN.gltf, so that the fuzzer starts from every rule this
 * suite knows; the options byte varies over the cases. */
static void keep_as_seed(const char *path, int i)
{
    size_t n = 0;
    char *text = tu_read_file(path, &n), seed[64];
    snprintf(seed, sizeof seed, "malformed-%02d.gltf", i + 1);
    if (text)
        tu_keep_fuzz_seed(seed, (unsigned char)((i * 37) & 0x7f), text, n);
    free(text);
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
    int failed = 0;
    long peak_kb = 0;
    for (int i = 0; i < CASE_COUNT; i++) { /* an asset directory and an OUTDIR of its own */
        snprintf(in, sizeof in, "%s/in%02d", ctx->dir, i + 1);
        snprintf(out, sizeof out, "%s/out%02d", ctx->dir, i + 1);
        assert_int_equal(mkdir(in, 0777), 0);
        assert_int_equal(mkdir(out, 0777), 0);
        const char *path = write_case(&cases[i], in);
        keep_as_seed(path, i);
        int rc = tu_run_program(LAB, ctx->out_path, ctx->err_path, path, out, (char *)NULL);
        bool named = tu_file_contains(ctx->err_path, cases[i].place);
        int left = tu_count_entries(out);
        peak_kb = tu_last_peak_kb > peak_kb ? tu_last_peak_kb : peak_kb;
        if (rc != 1 || !named || left != 0 || getenv("MALFORMED_VERBOSE")) {
            char *msg = tu_read_file(ctx->err_path, NULL);
            fprintf(stderr, "case %d (%s): exit %d, %s \"%s\", %d files left\n  %s", i + 1, cases[i].name, rc,
                    named ? "names" : "does NOT name", cases[i].place, left, msg ? msg : "(no message)\n");
            free(msg);
            failed++;
        }
    }
    assert_int_equal(failed, 0);
    printf("  the largest peak over the %d cases: %ld KiB\n", CASE_COUNT, peak_kb);
    assert_true(TU_SANITIZED || peak_kb < PEAK_BOUND_KB);
}

/* Memory bounded by the file. A 17 MB JSON of a million morph targets is refused before its
 * tree is built (cJSON would take about 270 MiB), and a 225-byte asset whose one mesh has
 * 174,000 vertices (an accessor without a bufferView: zeros) at four times, 2.1 million
 * numbers of evidence, is written as it is produced: each run peaks under 256 MiB (322 MB
 * when gltf30.json was a cJSON tree first). */
static void test_gltf_memory_is_bounded_by_the_file(void **state)
{
    tu_run_dir *ctx = *state;
    char *text = tu_read_file(BASE, NULL), out[128];
    cJSON *root = cJSON_Parse(text);
    free(text);
    snprintf(out, sizeof out, "%s/out", ctx->dir);
    assert_int_equal(mkdir(out, 0777), 0);
    bytes big = {0};
    char *head = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    /* the export's text with a million targets and weights spliced into its primitive */
    char *attributes = strstr(head, "\"attributes\"");
    assert_non_null(attributes);
    bytes_append(&big, head, (size_t)(attributes - head));
    bytes_printf(&big, "\"targets\":[");
    for (int k = 0; k < 1000000; k++)
        bytes_printf(&big, "%s{\"POSITION\":1}", k ? "," : "");
    bytes_printf(&big, "],%s", attributes);
    free(head);
    const char *million = tu_path(ctx->dir, "million.gltf");
    assert_true(tu_write_file(million, (const char *)big.data));
    assert_true(big.len > 15000000);
    bytes_free(&big);
    assert_int_equal(tu_run_program(LAB, ctx->out_path, ctx->err_path, million, out, (char *)NULL), 1);
    assert_true(tu_file_contains(ctx->err_path, "would make a tree of about"));
    printf("  a million targets: refused, peak %ld KiB\n", tu_last_peak_kb);
    assert_true(TU_SANITIZED || tu_last_peak_kb < PEAK_BOUND_KB);
    const char *small_text = "{\"asset\":{\"version\":\"2.0\"},\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"mesh\":0}],"
                             "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}],\"accessors\":"
                             "[{\"componentType\":5126,\"count\":174000,\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":[0,0,0]}]}";
    const char *small = tu_path(ctx->dir, "small.gltf");
    assert_true(tu_write_file(small, small_text));
    assert_int_equal(tu_run_program(LAB, ctx->out_path, ctx->err_path, "--time", "0,1,2,3", small, out, (char *)NULL), 0);
    printf("  %zu bytes, 2.1 million numbers written: peak %ld KiB\n", strlen(small_text), tu_last_peak_kb);
    assert_true(TU_SANITIZED || tu_last_peak_kb < PEAK_BOUND_KB);
}

/* The limits are options: the export's 216 vertices pass a limit of 216 and fail one of
 * 215, naming the accessor and the option; the same for nodes (5: two joints, the mesh, the
 * rig's root, the end node) and joints (3: the two and the end node). */
static void test_gltf_limits_are_options(void **state)
{
    tu_run_dir *ctx = *state;
    const struct { const char *option, *ok, *refused, *place, *asset; } limits[] = {
        {"--max-vertices", "216", "215", "/accessors/0/count", BASE},
        {"--max-nodes", "5", "4", "/nodes", BASE},
        {"--max-joints", "3", "2", "/skins/0/joints", BASE},
        /* 216 positions and 3 joint matrices at 4 times: 4 x (648 + 48) numbers */
        {"--max-values", "2784", "2783", "gltf30.json", BASE},
        /* the corrective export: one target of 216 deltas on the mesh node */
        {"--max-morph-deltas", "216", "215", "/nodes/2/mesh", COMMITTED_OUT_DIR "/ch30/fixes30-corrective.gltf"},
    };
    for (int i = 0; i < 5; i++) {
        assert_int_equal(tu_run_program(LAB, ctx->out_path, ctx->err_path, limits[i].option, limits[i].ok,
                                        limits[i].asset, ctx->dir, (char *)NULL), 0);
        char out[128];
        snprintf(out, sizeof out, "%s/refused%d", ctx->dir, i);
        assert_int_equal(mkdir(out, 0777), 0);
        assert_int_equal(tu_run_program(LAB, ctx->out_path, ctx->err_path, limits[i].option, limits[i].refused,
                                        limits[i].asset, out, (char *)NULL), 1);
        assert_true(tu_file_contains(ctx->err_path, limits[i].place));
        assert_true(tu_file_contains(ctx->err_path, limits[i].option));
        assert_int_equal(tu_count_entries(out), 0);
    }
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, tu_run_dir_setup, tu_run_dir_teardown)
    const struct CMUnitTest tests[] = {
        T(test_gltf_malformed_base_is_accepted),
        T(test_gltf_malformed_cases),
        T(test_gltf_limits_are_options),
        T(test_gltf_memory_is_bounded_by_the_file),
    };
#undef T
    return cmocka_run_group_tests_name("lab30-gltf on malformed assets", tests, NULL, NULL);
}
