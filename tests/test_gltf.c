/* test_gltf.c - the glTF reader: the tutorial's SimpleSkin against the joint-matrix formula
 * by hand, .glb, the chapter's export round trip, the article's three rules, and malformed
 * files, each refused with the JSON pointer of what is wrong. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <meshoptimizer.h>

#include "cmocka_all.h"
#include "gltf/gltf.h"
#include "gltf/gltf_write.h"
#include "base/json_memory.h"
#include "program/evidence.h"
#include "rig30_gltf.h"
#include "rig30.h"
#include "testutil.h"

#define SIMPLE_SKIN tu_simple_skin()

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LAB_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(LAB_ASAN)
#include <sanitizer/lsan_interface.h>
#define PAUSE_LEAK_CHECKS() __lsan_disable()
#define RESUME_LEAK_CHECKS() __lsan_enable()
#else
#define PAUSE_LEAK_CHECKS() ((void)0)
#define RESUME_LEAK_CHECKS() ((void)0)
#endif

/* Samples animation 0 at t and skins node `node`'s first primitive (gltf_skin_at). */
static lab_error skin_at(gltf_document *doc, int node, double t, skin_method method, vec3 *out, lab_diag *d)
{
    return gltf_skin_at(doc, 0, t, node, 0, method, SKIN_POLICY_STRICT, out, NULL, NULL, d);
}

static lab_error parse_text(const char *text, gltf_document *doc, lab_diag *d)
{
    lab_error e = gltf_parse((const uint8_t *)text, strlen(text), NULL, doc, d);
    if (e == LAB_OK)
        e = gltf_validate(doc, d);
    return e;
}

/* base64 of n bytes (RFC 4648), for a data URI. */
static char *base64(const uint8_t *data, size_t n)
{
    static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *out = malloc(4 * ((n + 2) / 3) + 1), *o = out;
    assert_non_null(out);
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)data[i] << 16 | (i + 1 < n ? (uint32_t)data[i + 1] << 8 : 0) | (i + 2 < n ? data[i + 2] : 0);
        *o++ = abc[v >> 18 & 63], *o++ = abc[v >> 12 & 63];
        *o++ = i + 1 < n ? abc[v >> 6 & 63] : '=';
        *o++ = i + 2 < n ? abc[v & 63] : '=';
    }
    *o = '\0';
    return out;
}

/* Every integer component type, normalized and not, at its extremes and its middle: min,
 * min+1, -1, 0, 1, max-1, max (those a type has), each read through the reader and compared
 * exactly with glTF 2.0's formula written here (3.11: max(c / 127, -1), c / 255,
 * max(c / 32767, -1), c / 65535), and the raw value when not normalized. */
static void test_gltf_every_component_type_at_its_extremes(void **state)
{
    (void)state;
    static const struct { int type, size; double min, max; bool is_signed; } types[] = {
        {5120, 1, -128, 127, true}, {5121, 1, 0, 255, false}, {5122, 2, -32768, 32767, true}, {5123, 2, 0, 65535, false}};
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
        for (int normalized = 0; normalized < 2; normalized++) {
            double c[7];
            int n = 0;
            const double all[] = {types[t].min, types[t].min + 1, -1, 0, 1, types[t].max - 1, types[t].max};
            for (int k = 0; k < 7; k++)
                if (all[k] >= types[t].min && all[k] <= types[t].max && (n == 0 || all[k] != c[n - 1]))
                    c[n++] = all[k];
            uint8_t raw[7 * 2 + 4] = {0};
            for (int k = 0; k < n; k++) {
                if (types[t].size == 1 && types[t].is_signed) { /* each cast where the value fits */
                    int8_t s8 = (int8_t)c[k];
                    memcpy(raw + k, &s8, 1);
                } else if (types[t].size == 1) {
                    raw[k] = (uint8_t)c[k];
                } else if (types[t].is_signed) {
                    int16_t s16 = (int16_t)c[k];
                    memcpy(raw + 2 * k, &s16, 2);
                } else {
                    uint16_t u16 = (uint16_t)c[k];
                    memcpy(raw + 2 * k, &u16, 2);
                }
            }
            size_t bytes = (size_t)(n * types[t].size + 3) / 4 * 4;
            char *b64 = base64(raw, bytes), text[2048];
            snprintf(text, sizeof text,
                     "{\"asset\": {\"version\": \"2.0\"}, \"buffers\": [{\"byteLength\": %zu, \"uri\": "
                     "\"data:application/octet-stream;base64,%s\"}], \"bufferViews\": [{\"buffer\": 0, \"byteLength\": %zu}], "
                     "\"accessors\": [{\"bufferView\": 0, \"componentType\": %d, \"count\": %d, \"type\": \"SCALAR\"%s}]}",
                     bytes, b64, bytes, types[t].type, n, normalized ? ", \"normalized\": true" : "");
            free(b64);
            gltf_document doc = {0};
            lab_diag d = {0};
            if (parse_text(text, &doc, &d) != LAB_OK)
                fail_msg("type %d normalized %d: %s %s", types[t].type, normalized, d.where, d.value);
            double got[7];
            assert_int_equal(gltf_accessor_read(&doc, 0, got, &d), LAB_OK);
            for (int k = 0; k < n; k++) {
                double want = c[k];
                if (normalized) /* the specification's formula, apart from the reader's code */
                    want = types[t].type == 5120   ? (c[k] / 127.0 < -1 ? -1 : c[k] / 127.0)
                           : types[t].type == 5121 ? c[k] / 255.0
                           : types[t].type == 5122 ? (c[k] / 32767.0 < -1 ? -1 : c[k] / 32767.0)
                                                   : c[k] / 65535.0;
                if (got[k] != want)
                    fail_msg("componentType %d%s, stored %g: read %.17g, glTF says %.17g", types[t].type,
                             normalized ? " normalized" : "", c[k], got[k], want);
            }
            if (normalized) { /* the ends: exactly -1 (both minima of a signed type) and 1 */
                assert_true(got[n - 1] == 1.0);
                assert_true(got[0] == (types[t].is_signed ? -1.0 : 0.0));
                if (types[t].is_signed)
                    assert_true(got[1] == -1.0);
            }
            gltf_free(&doc);
        }
}

/* One EXT_meshopt_compression view made by libmeshoptimizer's own encoders: `raw`, the
 * view's bytes as a reader must see them (count elements of stride bytes), encoded in
 * `mode` (0 attributes, 1 triangles, 2 indices) with `filter`, as a document whose
 * accessor 0 (componentType, type, normalized) reads them; the reader's decoded values in
 * out. Returns the reader's error. */
static lab_error meshopt_view(const uint8_t *raw, size_t count, size_t stride, int mode, const char *filter,
                              int component_type, const char *type, bool normalized, double *out)
{
    size_t bound = mode == 0 ? meshopt_encodeVertexBufferBound(count, stride)
                             : meshopt_encodeIndexBufferBound(count, 65536) + meshopt_encodeIndexSequenceBound(count, 65536);
    uint8_t *packed = calloc(bound + 4, 1);
    assert_non_null(packed);
    size_t length;
    if (mode == 0) {
        length = meshopt_encodeVertexBuffer(packed, bound, raw, count, stride);
    } else {
        unsigned *indices = malloc(sizeof *indices * count);
        assert_non_null(indices);
        for (size_t i = 0; i < count; i++)
            indices[i] = stride == 2 ? ((const uint16_t *)(const void *)raw)[i] : ((const uint32_t *)(const void *)raw)[i];
        length = mode == 1 ? meshopt_encodeIndexBuffer(packed, bound, indices, count)
                           : meshopt_encodeIndexSequence(packed, bound, indices, count);
        free(indices);
    }
    assert_true(length > 0);
    size_t padded = (length + 3) / 4 * 4;
    char *b64 = base64(packed, padded), *text = malloc(padded * 2 + 2048);
    assert_non_null(text);
    static const char *const modes[] = {"ATTRIBUTES", "TRIANGLES", "INDICES"};
    char view_stride[40] = ""; /* a vertex view's stride: its element size */
    if (mode == 0)
        snprintf(view_stride, sizeof view_stride, ", \"byteStride\": %zu", stride);
    sprintf(text,
            "{\"asset\": {\"version\": \"2.0\"}, \"extensionsUsed\": [\"EXT_meshopt_compression\"], "
            "\"extensionsRequired\": [\"EXT_meshopt_compression\"], \"buffers\": [{\"byteLength\": %zu, \"uri\": "
            "\"data:application/octet-stream;base64,%s\"}, {\"byteLength\": %zu, \"extensions\": "
            "{\"EXT_meshopt_compression\": {\"fallback\": true}}}], \"bufferViews\": [{\"buffer\": 1, \"byteLength\": %zu%s, "
            "\"extensions\": {\"EXT_meshopt_compression\": {\"buffer\": 0, \"byteLength\": %zu, \"byteStride\": %zu, "
            "\"count\": %zu, \"mode\": \"%s\", \"filter\": \"%s\"}}}], \"accessors\": [{\"bufferView\": 0, "
            "\"componentType\": %d, \"count\": %zu, \"type\": \"%s\"%s}]}",
            padded, b64, count * stride, count * stride, view_stride, length, stride, count,
            modes[mode], filter, component_type, mode == 0 ? count : count, type, normalized ? ", \"normalized\": true" : "");
    free(b64), free(packed);
    gltf_document doc = {0};
    lab_diag d = {0};
    lab_error e = parse_text(text, &doc, &d);
    if (e == LAB_OK)
        e = gltf_accessor_read(&doc, 0, out, &d);
    if (e != LAB_OK)
        printf("  meshopt %s %s: %s %s\n", modes[mode], filter, d.where, d.value);
    gltf_free(&doc);
    free(text);
    return e;
}

/* Every filter of EXT_meshopt_compression (octahedral at 8 and 16 bits, quaternion,
 * exponential) and every mode (attributes, triangles, indices), from streams libmeshoptimizer's
 * encoders make: each decoded value within the filter's precision of the unfiltered one, and
 * exactly at hand-derived points (an axis, the identity, powers of two, every index). */
static void test_gltf_every_meshopt_filter_and_mode(void **state)
{
    (void)state;
    enum { N = 64 };
    float unit[N][4], quats[N][4], values[N][4];
    unit[0][0] = 0, unit[0][1] = 0, unit[0][2] = 1, unit[1][0] = 1, unit[1][1] = 0, unit[1][2] = 0;
    quats[0][0] = quats[0][1] = quats[0][2] = 0, quats[0][3] = 1; /* the identity */
    values[0][0] = 1.5f, values[0][1] = 0.25f, values[0][2] = -2.0f, values[0][3] = 1024.0f;
    for (int i = 2; i < N; i++) { /* directions all round */
        double a = 0.7 * i, b = 0.37 * i, x = cos(a) * sin(b), y = sin(a) * sin(b), z = cos(b);
        unit[i][0] = (float)x, unit[i][1] = (float)y, unit[i][2] = (float)z;
    }
    for (int i = 0; i < N; i++) {
        unit[i][3] = 1.0f;
        if (i > 0) {
            double a = 0.3 * i, h = sin(a / 2), ax = cos(1.1 * i), ay = sin(1.1 * i);
            quats[i][0] = (float)(h * ax * 0.6), quats[i][1] = (float)(h * ay * 0.6), quats[i][2] = (float)(h * 0.8),
            quats[i][3] = (float)cos(a / 2);
            for (int c = 0; c < 4; c++)
                values[i][c] = (float)(sin(0.9 * i + c) * pow(2.0, (i % 9) - 4));
        }
    }
    uint8_t raw[N * 16];
    double got[N * 4];
    /* octahedral, 8 bits on 4 bytes and 16 bits on 8 */
    static const struct { int bits; size_t stride; int type; } oct[] = {{8, 4, 5120}, {16, 8, 5122}};
    for (int k = 0; k < 2; k++) {
        meshopt_encodeFilterOct(raw, N, oct[k].stride, oct[k].bits, &unit[0][0]);
        assert_int_equal(meshopt_view(raw, N, oct[k].stride, 0, "OCTAHEDRAL", oct[k].type, "VEC4", true, got), LAB_OK);
        double tolerance = 3.0 / ((1 << (oct[k].bits - 1)) - 1);
        for (int i = 0; i < N; i++)
            for (int c = 0; c < 3; c++)
                if (fabs(got[4 * i + c] - unit[i][c]) > tolerance)
                    fail_msg("octahedral %d bits, vector %d component %d: %.9g, not %.9g within %g", oct[k].bits, i, c,
                             got[4 * i + c], unit[i][c], tolerance);
        assert_true(got[2] == 1.0 && got[0] == 0.0 && got[1] == 0.0); /* +z exactly */
        assert_true(got[4] == 1.0 && got[5] == 0.0 && got[6] == 0.0); /* +x exactly */
    }
    /* quaternion, 12 bits a component on 8 bytes */
    meshopt_encodeFilterQuat(raw, N, 8, 12, &quats[0][0]);
    assert_int_equal(meshopt_view(raw, N, 8, 0, "QUATERNION", 5122, "VEC4", true, got), LAB_OK);
    for (int i = 0; i < N; i++) {
        double dot = 0; /* q and -q are one rotation */
        for (int c = 0; c < 4; c++)
            dot += got[4 * i + c] * quats[i][c];
        if (fabs(fabs(dot) - 1) > 3.0 / ((1 << 11) - 1))
            fail_msg("quaternion %d: |q . q'| = %.9g", i, fabs(dot));
    }
    assert_true(got[0] == 0.0 && got[1] == 0.0 && got[2] == 0.0 && got[3] == 1.0); /* the identity exactly */
    /* exponential, 16-bit mantissas shared by a vector of 4 floats */
    meshopt_encodeFilterExp(raw, N, 16, 16, &values[0][0]);
    assert_int_equal(meshopt_view(raw, N, 16, 0, "EXPONENTIAL", 5126, "VEC4", false, got), LAB_OK);
    for (int i = 0; i < N; i++) {
        double largest = 0;
        for (int c = 0; c < 4; c++)
            largest = fmax(largest, fabs(values[i][c]));
        for (int c = 0; c < 4; c++)
            if (fabs(got[4 * i + c] - values[i][c]) > largest * 0x1p-14)
                fail_msg("exponential %d.%d: %.9g, not %.9g", i, c, got[4 * i + c], values[i][c]);
    }
    assert_true(got[0] == 1.5 && got[1] == 0.25 && got[2] == -2.0 && got[3] == 1024.0); /* exactly */
    /* triangles and indices, 16- and 32-bit: every index exactly (a triangle up to the
     * rotation of its corners the triangle codec makes) */
    uint16_t i16[3 * N];
    uint32_t i32[3 * N];
    for (int i = 0; i < 3 * N; i++)
        i16[i] = (uint16_t)((i * 7 + i / 3) % 200), i32[i] = (uint32_t)((i * 13) % 70000);
    for (int mode = 1; mode <= 2; mode++)
        for (int wide = 0; wide < 2; wide++) {
            double idx[3 * N];
            assert_int_equal(meshopt_view(wide ? (const uint8_t *)i32 : (const uint8_t *)i16, 3 * N, wide ? 4 : 2, mode,
                                          "NONE", wide ? 5125 : 5123, "SCALAR", false, idx),
                             LAB_OK);
            for (int t = 0; t < N; t++) { /* the triangle codec may rotate a triangle's corners, keeping its winding */
                double want[3];
                for (int c = 0; c < 3; c++)
                    want[c] = wide ? (double)i32[3 * t + c] : (double)i16[3 * t + c];
                bool same = false;
                for (int r = 0; r < (mode == 1 ? 3 : 1); r++)
                    same |= idx[3 * t] == want[r] && idx[3 * t + 1] == want[(r + 1) % 3] && idx[3 * t + 2] == want[(r + 2) % 3];
                if (!same)
                    fail_msg("%s %d-bit, triangle %d: (%g, %g, %g), not (%g, %g, %g)%s", mode == 1 ? "triangles" : "indices",
                             wide ? 32 : 16, t, idx[3 * t], idx[3 * t + 1], idx[3 * t + 2], want[0], want[1], want[2],
                             mode == 1 ? " or a rotation of it" : "");
            }
        }
}

/* A chain of 20,000 nodes, each a step of 1 along z below its parent, listed leaf first
 * (the worst order for a walk up from every node): every world matrix is right, each node
 * evaluated once (the evaluation is linear; a walk per node was quadratic and took seconds),
 * and a cycle anywhere in such a chain is still found. */
static void test_gltf_deep_chain_of_nodes(void **state)
{
    (void)state;
    enum { N = 20000 };
    bytes text = {0};
    bytes_printf(&text, "{\"asset\": {\"version\": \"2.0\"}, \"nodes\": [");
    for (int i = 0; i < N; i++) /* node i's child is node i - 1: node N - 1 is the root */
        i == 0 ? bytes_printf(&text, "{\"translation\": [0, 0, 1]}")
               : bytes_printf(&text, ", {\"translation\": [0, 0, 1], \"children\": [%d]}", i - 1);
    bytes_printf(&text, "]}");
    assert_false(text.failed);
    gltf_document doc = {0};
    lab_diag d = {0};
    assert_int_equal(parse_text((const char *)text.data, &doc, &d), LAB_OK);
    mat4 *locals = malloc(sizeof(mat4) * N), *world = malloc(sizeof(mat4) * N);
    assert_int_equal(gltf_sample_locals(&doc, -1, 0.0, locals, &d), LAB_OK);
    assert_int_equal(gltf_world_matrices(&doc, locals, world, &d), LAB_OK);
    for (int i = 0; i < N; i++) /* node i lies N - i steps down from the root's origin */
        assert_true(world[i].m[2][3] == (double)(N - i));
    gltf_free(&doc);
    free(locals), free(world);
    /* the leaf taking the root as its child closes a loop through all N nodes */
    bytes looped = {0};
    const char *first = strchr((char *)text.data, '}') + 2; /* past the asset object */
    first = strchr(first, '}'); /* the end of node 0's translation object */
    bytes_append(&looped, text.data, (size_t)(first - (const char *)text.data));
    bytes_printf(&looped, ", \"children\": [%d]%s", N - 1, first);
    bytes_free(&text);
    text = looped;
    assert_int_equal(parse_text((const char *)text.data, &doc, &d), LAB_ERR_GLTF);
    char msg[700];
    diag_format(&d, msg, sizeof msg);
    assert_non_null(strstr(msg, "cycle"));
    gltf_free(&doc);
    bytes_free(&text);
}

/* LINEAR translation and scale: each component interpolated on its own between the keys,
 * clamped outside them. Keys at 1 s and 3 s: T from (0,0,0) to (2,4,6), S from (1,1,1)
 * to (3,5,7). At 1.5 s, u = 1/4: T = (0.5, 1, 1.5), S = (1.5, 2, 2.5). */
static void test_gltf_linear_translation_and_scale(void **state)
{
    (void)state;
    const float data[14] = {1, 3, 0, 0, 0, 2, 4, 6, 1, 1, 1, 3, 5, 7};
    bytes text = {0};
    bytes_printf(&text,
        "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{}],"
        "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\",\"min\":[1],\"max\":[3]},"
        "{\"bufferView\":0,\"byteOffset\":8,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"},"
        "{\"bufferView\":0,\"byteOffset\":32,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}],"
        "\"bufferViews\":[{\"buffer\":0,\"byteLength\":56}],"
        "\"animations\":[{\"samplers\":[{\"input\":0,\"output\":1},{\"input\":0,\"output\":2,\"interpolation\":\"LINEAR\"}],"
        "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}},"
        "{\"sampler\":1,\"target\":{\"node\":0,\"path\":\"scale\"}}]}],"
        "\"buffers\":[{\"byteLength\":56,\"uri\":\"data:application/octet-stream;base64,");
    base64_append(&text, (const uint8_t *)data, sizeof data); /* little-endian floats */
    bytes_printf(&text, "\"}]}");
    gltf_document doc;
    lab_diag d = {0};
    assert_int_equal(parse_text((const char *)text.data, &doc, &d), LAB_OK);
    const double t[4] = {1.5, 2.0, 0.0, 9.0};
    const vec3 translation[4] = {{0.5, 1, 1.5}, {1, 2, 3}, {0, 0, 0}, {2, 4, 6}};
    const vec3 scale[4] = {{1.5, 2, 2.5}, {2, 3, 4}, {1, 1, 1}, {3, 5, 7}};
    for (int k = 0; k < 4; k++) {
        mat4 local;
        assert_int_equal(gltf_sample_locals(&doc, 0, t[k], &local, &d), LAB_OK);
        /* the point (1, 1, 1) goes to S (1, 1, 1) + T */
        vec3 p = mat4_transform_point(local, vec3_make(1, 1, 1));
        vec3 expected = vec3_add(scale[k], translation[k]);
        assert_true(vec3_length(vec3_sub(p, expected)) < 1e-12);
        assert_near(local.m[0][0], scale[k].x, 1e-12);
        assert_near(local.m[2][3], translation[k].z, 1e-12);
    }
    gltf_free(&doc);
    bytes_free(&text);
}

/* ---- SimpleSkin by hand ------------------------------------------------------------------ */

/* The tutorial's rig: joint 0 at T(0,1,0), joint 1 its child with the animated rotation
 * about z, both inverse binds T(-0.5,-1,0). p' = w0 J0 p + w1 J1 p with
 * J0 = T(0,1,0) T(-0.5,-1,0) and J1 = T(0,1,0) Rz(a) T(-0.5,-1,0). */
static vec3 simple_skin_by_hand(vec3 p, double w1, double angle)
{
    mat4 ibm = mat4_translate(-0.5, -1, 0), g0 = mat4_translate(0, 1, 0);
    mat4 j0 = mat4_mul(g0, ibm), j1 = mat4_mul(mat4_mul(g0, mat4_rotate_z(angle)), ibm);
    return vec3_add(vec3_scale(mat4_transform_point(j0, p), 1 - w1), vec3_scale(mat4_transform_point(j1, p), w1));
}

static void check_simple_skin(gltf_document *doc)
{
    /* the keys: 0 deg at t = 0, q = (0, 0, 0.383, 0.924) at 0.5 s, (0, 0, 0.707, 0.707) at 1 s */
    const double a1 = 2 * atan2(0.382999986410141, 0.9240000247955322), a2 = 2 * atan2(1.0, 1.0);
    const struct { double t, angle; } cases[] = {
        {0.0, 0.0}, {0.5, a1}, {1.0, a2}, {0.25, a1 / 2}, {-3.0, 0.0}, {99.0, 0.0} /* clamped */};
    const double w1[5] = {0, 0.25, 0.5, 0.75, 1}; /* rows y = 0, 0.5, 1, 1.5, 2 */
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        vec3 out[10];
        assert_int_equal(skin_at(doc, 0, cases[c].t, SKIN_LBS, out, NULL), LAB_OK);
        for (int v = 0; v < 10; v++) {
            vec3 p = vec3_make(v % 2, 0.5 * (v / 2), 0);
            vec3 e = simple_skin_by_hand(p, w1[v / 2], cases[c].angle);
            if (vec3_length(vec3_sub(e, out[v])) > 1e-6)
                fail_msg("t = %g vertex %d: (%g %g %g), by hand (%g %g %g)", cases[c].t, v, out[v].x, out[v].y,
                         out[v].z, e.x, e.y, e.z);
        }
    }
    /* the tutorial's numbers at t = 1: the top-left vertex (0, 2) swings to (-1, 0.5) */
    vec3 out[10];
    assert_int_equal(skin_at(doc, 0, 1.0, SKIN_LBS, out, NULL), LAB_OK);
    assert_true(vec3_length(vec3_sub(out[8], vec3_make(-1, 0.5, 0))) < 1e-6);
}

static void test_gltf_simple_skin_matches_the_joint_matrix_formula(void **state)
{
    assert_non_null(SIMPLE_SKIN);
    (void)state;
    gltf_document doc;
    lab_diag d = {0};
    assert_int_equal(gltf_load(SIMPLE_SKIN, &doc, &d), LAB_OK);
    assert_int_equal(gltf_validate(&doc, &d), LAB_OK);
    double start, end;
    assert_int_equal(gltf_animation_range(&doc, 0, &start, &end, &d), LAB_OK);
    assert_true(start == 0.0 && end == 5.5);
    check_simple_skin(&doc);
    /* a weight sum off by more than the validator's tolerance: refused, naming the mesh,
     * the primitive and the vertex, with the one tolerance it applied */
    float bad = 0.9f; /* vertex 0's first weight: buffer 1, byte 160 */
    memcpy(doc.buffers[1].data + 160, &bad, sizeof bad);
    vec3 out[10];
    assert_int_equal(skin_at(&doc, 0, 0.0, SKIN_LBS, out, &d), LAB_ERR_WEIGHT_SUM);
    assert_string_equal(d.where, "mesh 0 primitive 0 vertex 0");
    assert_non_null(strstr(d.value, "not 1 within 8e-07"));
    assert_null(strstr(lab_error_rule(d.code), "1e-12"));
    gltf_free(&doc);
}

/* The same asset as .glb: buffer 0 moves into the BIN chunk. */
static void test_gltf_glb_reads_like_gltf(void **state)
{
    assert_non_null(SIMPLE_SKIN);
    (void)state;
    char *text = tu_read_file(SIMPLE_SKIN, NULL);
    cJSON *root = cJSON_Parse(text);
    free(text);
    cJSON *b0 = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "buffers"), 0);
    const char *uri = cJSON_GetObjectItem(b0, "uri")->valuestring;
    const char *comma = strchr(uri, ',') + 1;
    /* decode buffer 0 with the reader itself: parse a one-buffer document */
    static const char prefix[] = "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":168,\"uri\":\"data:application/octet-stream;base64,";
    size_t n = strlen(prefix) + strlen(comma) + 8;
    char *one = malloc(n);
    snprintf(one, n, "%s%s\"}]}", prefix, comma);
    gltf_document tmp;
    assert_int_equal(gltf_parse((const uint8_t *)one, strlen(one), NULL, &tmp, NULL), LAB_OK);
    free(one);
    cJSON_DeleteItemFromObject(b0, "uri");
    char *json = cJSON_PrintUnformatted(root);
    size_t jlen = (strlen(json) + 3) & ~(size_t)3, blen = (tmp.buffers[0].size + 3) & ~(size_t)3;
    size_t total = 12 + 8 + jlen + 8 + blen;
    uint8_t *glb = calloc(1, total);
    uint32_t header[5] = {0x46546C67u, 2, (uint32_t)total, (uint32_t)jlen, 0x4E4F534Au};
    memcpy(glb, header, sizeof header);
    memset(glb + 20, ' ', jlen);
    memcpy(glb + 20, json, strlen(json));
    uint32_t chunk[2] = {(uint32_t)blen, 0x004E4942u};
    memcpy(glb + 20 + jlen, chunk, sizeof chunk);
    memcpy(glb + 28 + jlen, tmp.buffers[0].data, tmp.buffers[0].size);
    gltf_document doc;
    lab_diag d = {0};
    assert_int_equal(gltf_parse(glb, total, NULL, &doc, &d), LAB_OK);
    assert_int_equal(gltf_validate(&doc, &d), LAB_OK);
    check_simple_skin(&doc);
    tu_keep_fuzz_seed("SimpleSkin.glb", 0x1c, glb, total); /* every sampled time */
    gltf_free(&doc);
    /* a GLB cut short is refused */
    assert_int_equal(gltf_parse(glb, total - 40, NULL, &doc, &d), LAB_ERR_GLTF);
    assert_int_equal(gltf_parse(glb, 16, NULL, &doc, &d), LAB_ERR_GLTF);
    free(glb);
    free(json);
    cJSON_Delete(root);
    gltf_free(&tmp);
}

/* ---- the chapter's export ---------------------------------------------------------------- */

typedef struct { rig30_rig rig; char *text; } exported;

static int setup_export(void **state)
{
    exported *x = calloc(1, sizeof *x);
    bytes b = {0};
    if (!x || rig30_rig_build(&x->rig, RIG30_TWIST, NULL, NULL) != LAB_OK ||
        rig30_gltf_export(&x->rig, &b, NULL) != LAB_OK)
        return -1;
    x->text = (char *)b.data;
    *state = x;
    return 0;
}

static int teardown_export(void **state)
{
    exported *x = *state;
    rig30_rig_free(&x->rig);
    free(x->text);
    free(x);
    return 0;
}

static cJSON *at_path(cJSON *root, const char *array, int index) { return cJSON_GetArrayItem(cJSON_GetObjectItem(root, array), index); }

/* The export's frame conversion, by the test's own arithmetic: the chapter's z up is
 * glTF's +Y up, a chapter point (x, y, z) is seen at (x, z, -y) (rig30_gltf.h); and back. */
static vec3 to_gltf_frame(vec3 p) { return vec3_make(p.x, p.z, -p.y); }
static vec3 to_chapter_frame(vec3 q) { return vec3_make(q.x, -q.z, q.y); }

/* Export, import, skin at theta = 0, 90, 180 (t = 0, 0.5, 1): lab30's positions, seen in
 * glTF's frame. */
static void test_gltf_round_trip_equals_lab30(void **state)
{
    exported *x = *state;
    gltf_document doc;
    lab_diag d = {0};
    assert_int_equal(parse_text(x->text, &doc, &d), LAB_OK);
    const double t[3] = {0.0, 0.5, 1.0};
    for (int k = 0; k < 3; k++)
        for (int m = 0; m < 2; m++) {
            vec3 out[216];
            rig30_pose p = {.positions = malloc(sizeof(vec3) * 216)};
            assert_int_equal(skin_at(&doc, 2, t[k], (skin_method)m, out, &d), LAB_OK);
            assert_int_equal(rig30_pose_at(&x->rig, t[k] * acos(-1.0), (skin_blend){.method = (skin_method)m}, &p, NULL), LAB_OK);
            for (int v = 0; v < 216; v++)
                assert_true(vec3_length(vec3_sub(out[v], to_gltf_frame(p.positions[v]))) < 1e-5);
            free(p.positions);
        }
    gltf_free(&doc);
}

/* The export as a viewer opens it: the rig's root above the skeleton turns the chapter's
 * z up to +Y up, the skin, the animation and the root have names, the leaf joint has an
 * end node, and the keys are close enough that a viewer blending each quaternion
 * component linearly (then renormalising) stays within 1e-4 of glTF's slerp on the
 * cylinder (radius 1): checked here on the exported keys with the test's own quaternion
 * arithmetic, a point turned by both. */
/* The largest distance, over every key interval of the export's twist and t in [0, 1],
 * between where slerp and where nlerp (per-component blend, renormalised) turn the point
 * (1, 0, 0) about z: this test's own quaternion arithmetic on the file's keys. A point r
 * from the axis moves r times as far. */
static double nlerp_deviation_of_keys(const gltf_document *doc)
{
    const gltf_sampler *sampler = &doc->animations[0].samplers[0];
    int keys = doc->accessors[sampler->output].count;
    double *q = malloc(sizeof(double) * 4 * (size_t)keys);
    assert_int_equal(gltf_accessor_read(doc, sampler->output, q, NULL), LAB_OK);
    double worst = 0.0;
    for (int k = 0; k + 1 < keys; k++)
        for (int i = 0; i <= 200; i++) {
            double t = i / 200.0, a0 = 2 * atan2(q[4 * k + 2], q[4 * k + 3]), a1 = 2 * atan2(q[4 * k + 6], q[4 * k + 7]);
            double slerp = a0 + t * (a1 - a0); /* one axis: slerp turns the angle linearly */
            double z = (1 - t) * q[4 * k + 2] + t * q[4 * k + 6], w = (1 - t) * q[4 * k + 3] + t * q[4 * k + 7];
            double nlerp = 2 * atan2(z / hypot(z, w), w / hypot(z, w));
            worst = fmax(worst, hypot(cos(slerp) - cos(nlerp), sin(slerp) - sin(nlerp)));
        }
    free(q);
    return worst;
}

/* The corrective export's keys hold the budget for its farthest vertex: the bind positions
 * and the morph target's deltas read from the committed file, the largest distance from
 * the twist axis (z in the mesh's own frame) at weight 0 or 1 found here, times the keys'
 * deviation at radius 1, below 1e-4. */
static void test_gltf_corrective_export_budget_holds_for_every_vertex(void **state)
{
    (void)state;
    gltf_document doc;
    assert_int_equal(gltf_load(COMMITTED_OUT_DIR "/ch30/fixes30-corrective.gltf", &doc, NULL), LAB_OK);
    assert_int_equal(gltf_validate(&doc, NULL), LAB_OK);
    const gltf_primitive *p = &doc.meshes[0].primitives[0];
    int n = doc.accessors[p->position].count;
    double *bind = malloc(sizeof(double) * 3 * (size_t)n), *delta = malloc(sizeof(double) * 3 * (size_t)n);
    assert_true(bind && delta && p->target_count == 1);
    assert_int_equal(gltf_accessor_read(&doc, p->position, bind, NULL), LAB_OK);
    assert_int_equal(gltf_accessor_read(&doc, p->targets[0].position, delta, NULL), LAB_OK);
    double radius = 0.0;
    for (int v = 0; v < n; v++)
        radius = fmax(radius, fmax(hypot(bind[3 * v], bind[3 * v + 1]),
                                   hypot(bind[3 * v] + delta[3 * v], bind[3 * v + 1] + delta[3 * v + 1])));
    assert_true(radius > 3.0); /* the corrective shape reaches far past the cylinder's radius 1 */
    assert_true(radius * nlerp_deviation_of_keys(&doc) < 1e-4);
    /* and it names the program that wrote it */
    assert_true(tu_file_contains(COMMITTED_OUT_DIR "/ch30/fixes30-corrective.gltf", "\"skinning lab, lab30-fixes\""));
    free(bind), free(delta);
    gltf_free(&doc);
}

static void test_gltf_export_as_a_viewer_opens_it(void **state)
{
    exported *x = *state;
    cJSON *root = cJSON_Parse(x->text);
    cJSON *rig = at_path(root, "nodes", 3), *end = at_path(root, "nodes", 4);
    assert_string_equal(cJSON_GetObjectItem(rig, "name")->valuestring, "chapter30 rig (z up to +Y up)");
    assert_string_equal(cJSON_GetObjectItem(at_path(root, "skins", 0), "name")->valuestring, "cylinder skin");
    assert_string_equal(cJSON_GetObjectItem(at_path(root, "animations", 0), "name")->valuestring, "twist");
    assert_string_equal(cJSON_GetObjectItem(end, "name")->valuestring, "child_end");
    assert_int_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(at_path(root, "nodes", 1), "children"), 0)->valueint, 4);
    cJSON_Delete(root);
    gltf_document doc;
    assert_int_equal(parse_text(x->text, &doc, NULL), LAB_OK);
    /* upright: at t = 0 the skinned cylinder spans y in [0, 2] and z in [-1, 1] */
    vec3 out[216];
    assert_int_equal(skin_at(&doc, 2, 0.0, SKIN_LBS, out, NULL), LAB_OK);
    double ymin = 1e9, ymax = -1e9, zmax = -1e9;
    for (int v = 0; v < 216; v++)
        ymin = fmin(ymin, out[v].y), ymax = fmax(ymax, out[v].y), zmax = fmax(zmax, out[v].z);
    assert_near(ymin, 0, 1e-6);
    assert_near(ymax, 2, 1e-6);
    assert_near(zmax, 1, 1e-6);
    /* a node or primitive that is not there is refused, not read */
    assert_int_equal(skin_at(&doc, doc.node_count, 0.0, SKIN_LBS, out, NULL), LAB_ERR_GLTF);
    assert_int_equal(skin_at(&doc, -1, 0.0, SKIN_LBS, out, NULL), LAB_ERR_GLTF);
    assert_int_equal(gltf_skin_at(&doc, 0, 0.0, 2, 1, SKIN_LBS, SKIN_POLICY_STRICT, out, NULL, NULL, NULL), LAB_ERR_GLTF);
    /* the keys: rotations about z (x, y, z, w), turned point (1, 0, 0) */
    const gltf_sampler *sampler = &doc.animations[0].samplers[0];
    int keys = doc.accessors[sampler->output].count;
    assert_true(nlerp_deviation_of_keys(&doc) < 1e-4);
    assert_true(keys == rig30_gltf_key_segments(acos(-1.0), 1.0, 1e-4) + 1);
    /* and the spacing is the coarsest that does: 30-degree keys gave 5.8e-4 */
    assert_true(rig30_gltf_nlerp_deviation(acos(-1.0) / (keys - 2), 1.0) >= 1e-4);
    assert_near(rig30_gltf_nlerp_deviation(acos(-1.0) / 6, 1.0), 5.775e-4, 1e-6);
    gltf_free(&doc);
}

/* Each cJSON allocation of the export made to fail in turn: the writer reports it (it
 * once returned LAB_OK with a document missing "asset"), or, once the fault lies beyond
 * the last allocation, writes exactly the normal bytes. A cJSON item whose parent failed
 * to allocate cannot be attached and is lost (cJSON_AddItemTo* with a NULL parent does not
 * free it); a program exits right after such a failure, so the leak checker is paused
 * for this loop only. */
static void test_gltf_export_reports_every_failed_allocation(void **state)
{
    exported *x = *state;
    int failures = 0;
    PAUSE_LEAK_CHECKS();
    for (long k = 0;; k++) {
        bytes b = {0};
        lab_diag d = {0};
        json_fail_allocation_after(k);
        lab_error e = rig30_gltf_export(&x->rig, &b, &d);
        json_fail_allocation_after(-1);
        if (e == LAB_OK) {
            assert_string_equal((char *)b.data, x->text);
            bytes_free(&b);
            break;
        }
        assert_int_equal(e, LAB_ERR_OUT_OF_MEMORY);
        failures++;
        bytes_free(&b);
    }
    RESUME_LEAK_CHECKS();
    assert_true(failures > 50); /* the document has far more items than that */
}

/* Rebuilds the export with one change made through cJSON. */
static char *mutate(const char *text, void (*change)(cJSON *root))
{
    cJSON *root = cJSON_Parse(text);
    change(root);
    char *out = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    return out;
}


static void drop_inverse_binds(cJSON *root) { cJSON_DeleteItemFromObject(at_path(root, "skins", 0), "inverseBindMatrices"); }
static void move_mesh_node(cJSON *root)
{
    cJSON_AddItemToObject(at_path(root, "nodes", 2), "translation", cJSON_CreateDoubleArray((const double[]){5, -3, 7}, 3));
}
static void swap_skin_joints(cJSON *root)
{
    cJSON *j = cJSON_GetObjectItem(at_path(root, "skins", 0), "joints");
    cJSON_ReplaceItemInArray(j, 0, cJSON_CreateNumber(1));
    cJSON_ReplaceItemInArray(j, 1, cJSON_CreateNumber(0));
}

/* The article's three rules, each shown by a change that a wrong reader would miss. */
static void test_gltf_the_three_rules(void **state)
{
    exported *x = *state;
    gltf_document doc;
    vec3 out[216];
    const vec3 *bind = x->rig.bind.vertices;
    /* no inverseBindMatrices: identity, so J_1 = G_1 = Tz(2) and the top lifts by 2 w1 */
    char *text = mutate(x->text, drop_inverse_binds);
    assert_int_equal(parse_text(text, &doc, NULL), LAB_OK);
    assert_int_equal(skin_at(&doc, 2, 0.0, SKIN_LBS, out, NULL), LAB_OK);
    for (int v = 0; v < 216; v++)
        out[v] = to_chapter_frame(out[v]);
    for (int v = 0; v < 216; v++)
        assert_near(out[v].z, (bind[v].z + 2 * (bind[v].z / 2)), 1e-5);
    gltf_free(&doc);
    free(text);
    /* the skinned mesh node's own transform is ignored */
    text = mutate(x->text, move_mesh_node);
    assert_int_equal(parse_text(text, &doc, NULL), LAB_OK);
    assert_int_equal(skin_at(&doc, 2, 0.0, SKIN_LBS, out, NULL), LAB_OK);
    for (int v = 0; v < 216; v++)
        assert_true(vec3_length(vec3_sub(to_chapter_frame(out[v]), bind[v])) < 1e-5);
    gltf_free(&doc);
    free(text);
    /* JOINTS index skin.joints: swapping the list swaps the nodes the slots mean, so
     * J_0 = G(node 1) IBM_0 = Tz(2) and J_1 = G(node 0) IBM_1 = Tz(-2) */
    text = mutate(x->text, swap_skin_joints);
    assert_int_equal(parse_text(text, &doc, NULL), LAB_OK);
    assert_int_equal(skin_at(&doc, 2, 0.0, SKIN_LBS, out, NULL), LAB_OK);
    for (int v = 0; v < 216; v++)
        out[v] = to_chapter_frame(out[v]);
    for (int v = 0; v < 216; v++) {
        double w1 = bind[v].z / 2;
        assert_near(out[v].z, (bind[v].z + 2 * (1 - w1) - 2 * w1), 1e-5);
    }
    gltf_free(&doc);
    free(text);
}

/* ---- malformed files ------------------------------------------------------------------------ */

static void expect_refused(const char *text, lab_error code, const char *pointer)
{
    gltf_document doc;
    lab_diag d = {0};
    lab_error e = parse_text(text, &doc, &d);
    if (e != code)
        fail_msg("expected %s, got %s (%s: %s)", lab_error_rule(code), lab_error_rule(e), d.where, d.value);
    if (pointer && strncmp(d.where, pointer, strlen(pointer)) != 0)
        fail_msg("pointer %s, expected %s (%s)", d.where, pointer, d.value);
    gltf_free(&doc); /* after a parse error the document is already empty: freeing is safe */
}

static void big_byte_length(cJSON *r) { cJSON_ReplaceItemInObject(at_path(r, "buffers", 0), "byteLength", cJSON_CreateNumber(1e6)); }
static void bad_base64(cJSON *r)
{
    cJSON *b = at_path(r, "buffers", 0);
    char *uri = strdup(cJSON_GetObjectItem(b, "uri")->valuestring);
    uri[60] = '!';
    cJSON_ReplaceItemInObject(b, "uri", cJSON_CreateString(uri));
    free(uri);
}
static void view_out_of_range(cJSON *r) { cJSON_ReplaceItemInObject(at_path(r, "accessors", 1), "bufferView", cJSON_CreateNumber(99)); }
static void count_too_big(cJSON *r) { cJSON_ReplaceItemInObject(at_path(r, "accessors", 0), "count", cJSON_CreateNumber(5000)); }
static void view_past_buffer(cJSON *r) { cJSON_ReplaceItemInObject(at_path(r, "bufferViews", 2), "byteLength", cJSON_CreateNumber(1e6)); }
static void node_cycle(cJSON *r) { cJSON_ReplaceItemInObject(at_path(r, "nodes", 1), "children", cJSON_CreateIntArray((const int[]){0}, 1)); }
static void self_child(cJSON *r) { cJSON_AddItemToObject(at_path(r, "nodes", 2), "children", cJSON_CreateIntArray((const int[]){2}, 1)); }
static void mesh_index(cJSON *r) { cJSON_ReplaceItemInObject(at_path(r, "nodes", 2), "mesh", cJSON_CreateNumber(3)); }
static void one_joint(cJSON *r) /* only "root" left: the vertices' joint 1 is outside the skin */
{
    cJSON *joints = cJSON_GetObjectItem(at_path(r, "skins", 0), "joints");
    cJSON_DeleteItemFromArray(joints, 2); /* the end node */
    cJSON_DeleteItemFromArray(joints, 1);
}
static void bad_version(cJSON *r) { cJSON_ReplaceItemInObject(cJSON_GetObjectItem(r, "asset"), "version", cJSON_CreateString("1.0")); }
static void wrong_type(cJSON *r) { cJSON_ReplaceItemInObject(at_path(r, "accessors", 0), "type", cJSON_CreateString("VEC5")); }
static void animation_node(cJSON *r)
{
    cJSON *ch = cJSON_GetArrayItem(cJSON_GetObjectItem(at_path(r, "animations", 0), "channels"), 0);
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(ch, "target"), "node", cJSON_CreateNumber(40));
}

static void test_gltf_refuses_malformed_files(void **state)
{
    exported *x = *state;
    const struct { void (*change)(cJSON *); lab_error code; const char *pointer; } cases[] = {
        {big_byte_length, LAB_ERR_GLTF, "/buffers/0"},
        {bad_base64, LAB_ERR_GLTF, "/buffers/0/uri"},
        {view_out_of_range, LAB_ERR_GLTF, "/accessors/1"},
        {count_too_big, LAB_ERR_GLTF, "/accessors/0"},
        {view_past_buffer, LAB_ERR_GLTF, "/bufferViews/2"},
        {node_cycle, LAB_ERR_GLTF, "/nodes/"},
        {self_child, LAB_ERR_GLTF, "/nodes/2/children/0"},
        {mesh_index, LAB_ERR_GLTF, "/nodes/2"},
        {one_joint, LAB_ERR_GLTF, "/meshes/0/primitives/0/attributes"},
        {bad_version, LAB_ERR_GLTF, "/asset/version"},
        {wrong_type, LAB_ERR_GLTF, "/accessors/0"},
        {animation_node, LAB_ERR_GLTF, "/animations/0/channels/0"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *text = mutate(x->text, cases[i].change);
        expect_refused(text, cases[i].code, cases[i].pointer);
        free(text);
    }
    expect_refused("not json at all", LAB_ERR_GLTF, "(document)");
    expect_refused("{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":4,\"uri\":\"../../etc/passwd\"}]}",
                   LAB_ERR_GLTF, "/buffers/0/uri");
    /* truncated text: every prefix is refused or, if it happens to parse, validated */
    size_t len = strlen(x->text);
    for (size_t cut = 0; cut < len; cut += len / 97 + 1) {
        gltf_document doc;
        if (gltf_parse((const uint8_t *)x->text, cut, NULL, &doc, NULL) == LAB_OK)
            gltf_validate(&doc, NULL);
        gltf_free(&doc);
    }
}

/* Binary damage: the buffer decoded, one value changed, encoded again. */
static char *patch_float(const char *text, int accessor, int element, int component, float value)
{
    cJSON *root = cJSON_Parse(text);
    cJSON *acc = at_path(root, "accessors", accessor);
    cJSON *view = at_path(root, "bufferViews", cJSON_GetObjectItem(acc, "bufferView")->valueint);
    cJSON *buf = at_path(root, "buffers", 0);
    const char *uri = cJSON_GetObjectItem(buf, "uri")->valuestring;
    const char *data = strchr(uri, ',') + 1;
    /* decode through a one-buffer document, as the reader does */
    size_t n = strlen(data) + 128;
    char *one = malloc(n);
    snprintf(one, n, "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":%d,\"uri\":\"data:application/octet-stream;base64,%s\"}]}",
             cJSON_GetObjectItem(buf, "byteLength")->valueint, data);
    gltf_document tmp;
    assert_int_equal(gltf_parse((const uint8_t *)one, strlen(one), NULL, &tmp, NULL), LAB_OK);
    int comps = !strcmp(cJSON_GetObjectItem(acc, "type")->valuestring, "MAT4") ? 16 : 4;
    size_t at = (size_t)cJSON_GetObjectItem(view, "byteOffset")->valueint + 4 * ((size_t)element * comps + component);
    memcpy(tmp.buffers[0].data + at, &value, 4);
    bytes b64 = {0};
    bytes_printf(&b64, "data:application/octet-stream;base64,");
    base64_append(&b64, tmp.buffers[0].data, tmp.buffers[0].size);
    cJSON_ReplaceItemInObject(buf, "uri", cJSON_CreateString((char *)b64.data));
    char *out = cJSON_PrintUnformatted(root);
    bytes_free(&b64);
    gltf_free(&tmp);
    free(one);
    cJSON_Delete(root);
    return out;
}

static int accessor_of(const char *text, const char *what)
{
    cJSON *root = cJSON_Parse(text);
    int a = -1;
    if (!strcmp(what, "IBM"))
        a = cJSON_GetObjectItem(at_path(root, "skins", 0), "inverseBindMatrices")->valueint;
    else
    {
        cJSON *prim = cJSON_GetArrayItem(cJSON_GetObjectItem(at_path(root, "meshes", 0), "primitives"), 0);
        a = cJSON_GetObjectItem(cJSON_GetObjectItem(prim, "attributes"), what)->valueint;
    }
    cJSON_Delete(root);
    return a;
}

static void test_gltf_refuses_bad_skin_data(void **state)
{
    exported *x = *state;
    int weights = accessor_of(x->text, "WEIGHTS_0"), ibm = accessor_of(x->text, "IBM");
    char *text = patch_float(x->text, weights, 100, 1, -0.25f);
    expect_refused(text, LAB_ERR_GLTF, "/meshes/0/primitives/0/attributes");
    free(text);
    text = patch_float(x->text, ibm, 1, 3, 0.5f); /* last row, first column */
    expect_refused(text, LAB_ERR_GLTF, "/skins/0/inverseBindMatrices");
    free(text);
    /* a weight sum off by 1e-3: strict refuses, normalize divides and counts */
    text = patch_float(x->text, weights, 100, 0, 0.376f);
    gltf_document doc;
    lab_diag d = {0};
    assert_int_equal(parse_text(text, &doc, &d), LAB_OK);
    vec3 out[216];
    mat4 locals[8], world[8];
    assert_int_equal(gltf_sample_locals(&doc, 0, 0.0, locals, NULL), LAB_OK);
    assert_int_equal(gltf_world_matrices(&doc, locals, world, NULL), LAB_OK);
    assert_int_equal(gltf_skin_primitive(&doc, 2, 0, world, NULL, SKIN_LBS, SKIN_POLICY_STRICT, out, NULL, &d), LAB_ERR_WEIGHT_SUM);
    int normalized = 0;
    assert_int_equal(gltf_skin_primitive(&doc, 2, 0, world, NULL, SKIN_LBS, SKIN_POLICY_NORMALIZE, out, &normalized, &d), LAB_OK);
    assert_int_equal(normalized, 1);
    gltf_free(&doc);
    free(text);
}

/* A hand-built asset exercising what the two real files do not: an external .bin, a node
 * with a matrix, a sparse POSITION accessor without a bufferView, normalised unsigned-byte
 * weights in two sets (eight influences), STEP and CUBICSPLINE channels. */
typedef struct {
    float positions_sparse_values[2 * 3];   /* vertices 1 and 3 */
    uint8_t sparse_indices[2];
    uint8_t pad[2];
    uint16_t joints[4 * 2 * 4];             /* 4 vertices x 2 sets x 4 */
    uint8_t weights[4 * 2 * 4];             /* normalised: 255 = 1 */
    float times[2], step_values[2 * 3], cubic_values[3 * 2 * 3];
} custom_bin;

static void write_custom(const char *dir)
{
    custom_bin b;
    memset(&b, 0, sizeof b);
    const float sparse[6] = {1, 0, 0, 0, 2, 0};
    memcpy(b.positions_sparse_values, sparse, sizeof sparse);
    b.sparse_indices[0] = 1, b.sparse_indices[1] = 3;
    for (int set = 0; set < 2; set++) /* each set its own run: set 0 joints 0..3, set 1 4..7 */
        for (int v = 0; v < 4; v++)
            for (int c = 0; c < 4; c++) {
                int k = 4 * set + c;
                b.joints[16 * set + 4 * v + c] = (uint16_t)k;
                b.weights[16 * set + 4 * v + c] = k < 5 ? 51 : 0; /* five joints at 0.2 each */
            }
    b.times[0] = 0, b.times[1] = 2;
    const float step[6] = {0, 0, 0, 10, 0, 0};
    memcpy(b.step_values, step, sizeof step);
    const float cubic[18] = {0, 0, 0, 0, 0, 0, 0, 0, 0, /* in, value, out at t = 0 */
                             0, 0, 0, 0, 4, 0, 0, 0, 0}; /* in, value, out at t = 2 */
    memcpy(b.cubic_values, cubic, sizeof cubic);
    char path[256];
    snprintf(path, sizeof path, "%s/custom.bin", dir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(&b, sizeof b, 1, f), 1);
    fclose(f);
    tu_keep_fuzz_asset("custom.bin", &b, sizeof b);
    size_t o_idx = offsetof(custom_bin, sparse_indices), o_j = offsetof(custom_bin, joints),
           o_w = offsetof(custom_bin, weights), o_t = offsetof(custom_bin, times),
           o_s = offsetof(custom_bin, step_values), o_c = offsetof(custom_bin, cubic_values);
    char json[4096];
    snprintf(json, sizeof json,
        "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"uri\":\"custom.bin\",\"byteLength\":%zu}],"
        "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":24},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":2},"
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":64},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":32},"
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":8},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":24},"
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":72}],"
        "\"accessors\":[{\"componentType\":5126,\"count\":4,\"type\":\"VEC3\",\"sparse\":{\"count\":2,"
        "\"indices\":{\"bufferView\":1,\"componentType\":5121},\"values\":{\"bufferView\":0}}},"
        "{\"bufferView\":2,\"componentType\":5123,\"count\":4,\"type\":\"VEC4\"},"
        "{\"bufferView\":2,\"byteOffset\":32,\"componentType\":5123,\"count\":4,\"type\":\"VEC4\"},"
        "{\"bufferView\":3,\"componentType\":5121,\"normalized\":true,\"count\":4,\"type\":\"VEC4\"},"
        "{\"bufferView\":3,\"byteOffset\":16,\"componentType\":5121,\"normalized\":true,\"count\":4,\"type\":\"VEC4\"},"
        "{\"bufferView\":4,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
        "{\"bufferView\":5,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"},"
        "{\"bufferView\":6,\"componentType\":5126,\"count\":6,\"type\":\"VEC3\"}],"
        "\"nodes\":[{\"mesh\":0,\"skin\":0},{\"matrix\":[1,0,0,0,0,1,0,0,0,0,1,0,1,2,3,1]},{},{},{},{},{},{},{}],"
        "\"skins\":[{\"joints\":[1,2,3,4,5,6,7,8]}],"
        "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"JOINTS_0\":1,\"JOINTS_1\":2,"
        "\"WEIGHTS_0\":3,\"WEIGHTS_1\":4}}]}],"
        "\"animations\":[{\"samplers\":[{\"input\":5,\"output\":6,\"interpolation\":\"STEP\"},"
        "{\"input\":5,\"output\":7,\"interpolation\":\"CUBICSPLINE\"}],"
        "\"channels\":[{\"sampler\":0,\"target\":{\"node\":2,\"path\":\"translation\"}},"
        "{\"sampler\":1,\"target\":{\"node\":3,\"path\":\"translation\"}}]}]}",
        sizeof b, o_idx, o_j, o_w, o_t, o_s, o_c);
    snprintf(path, sizeof path, "%s/custom.gltf", dir);
    assert_true(tu_write_file(path, json));
    tu_keep_fuzz_seed("custom-sparse-external.gltf", 0x1e, json, strlen(json));
}

static void test_gltf_external_sparse_normalised_sets_step_cubic(void **state)
{
    (void)state;
    char dir[64], path[128];
    assert_non_null(tu_make_temp_dir(dir, sizeof dir));
    write_custom(dir);
    snprintf(path, sizeof path, "%s/custom.gltf", dir);
    gltf_document doc;
    lab_diag d = {0};
    assert_int_equal(gltf_load(path, &doc, &d), LAB_OK);
    if (gltf_validate(&doc, &d) != LAB_OK)
        fail_msg("%s: %s", d.where, d.value);
    double pos[12], w[16];
    assert_int_equal(gltf_accessor_read(&doc, 0, pos, NULL), LAB_OK); /* zeros + sparse */
    assert_true(pos[0] == 0 && pos[3] == 1 && pos[6] == 0 && pos[10] == 2);
    assert_int_equal(gltf_accessor_read(&doc, 3, w, NULL), LAB_OK);
    assert_near(w[0], 0.2, 1e-15);
    assert_true(w[4] == 0.2);
    assert_true(w[12] == 0.2);
    mat4 locals[9], world[9];
    /* STEP holds the first value until the second key; CUBICSPLINE with zero tangents is
     * the smoothstep of the two values: at the middle, half way */
    assert_int_equal(gltf_sample_locals(&doc, 0, 1.999, locals, NULL), LAB_OK);
    assert_true(locals[2].m[0][3] == 0.0);
    assert_int_equal(gltf_sample_locals(&doc, 0, 1.0, locals, NULL), LAB_OK);
    assert_near(locals[3].m[1][3], 2.0, 1e-12);
    assert_int_equal(gltf_sample_locals(&doc, 0, 2.0, locals, NULL), LAB_OK);
    assert_true(locals[2].m[0][3] == 10.0 && locals[3].m[1][3] == 4.0);
    assert_int_equal(gltf_sample_locals(&doc, 0, 0.5, locals, NULL), LAB_OK);
    assert_near(locals[3].m[1][3], 4.0 * (3 * 0.0625 - 2 * 0.015625), 1e-12);
    /* the matrix node: column-major in the file, translation (1, 2, 3) */
    assert_true(locals[1].m[0][3] == 1 && locals[1].m[1][3] == 2 && locals[1].m[2][3] == 3);
    assert_int_equal(gltf_world_matrices(&doc, locals, world, NULL), LAB_OK);
    /* eight slots over two sets, no inverse binds (identity): slots index skin.joints =
     * nodes 1..8; at t = 0.5 node 1 sits at (1, 2, 3), node 2 at the STEP's (0, 0, 0),
     * node 3 at (0, y, 0), each with weight 0.2 (five slots of 0.2, three of 0) */
    vec3 out[4];
    assert_int_equal(gltf_skin_primitive(&doc, 0, 0, world, NULL, SKIN_LBS, SKIN_POLICY_STRICT, out, NULL, &d), LAB_OK);
    vec3 expect = vec3_make(0.2 * 1, 0.2 * 2 + 0.2 * locals[3].m[1][3], 0.2 * 3);
    assert_true(vec3_length(vec3_sub(out[0], expect)) < 1e-6);
    gltf_free(&doc);
    tu_remove_tree(dir);
}

/* ---- morph targets -------------------------------------------------------------------------- */

/* Appends floats as a new buffer (a data URI) with one bufferView; returns the view. */
static int add_float_view(cJSON *root, const float *data, size_t floats)
{
    bytes uri = {0};
    bytes_printf(&uri, "data:application/octet-stream;base64,");
    base64_append(&uri, (const uint8_t *)data, 4 * floats);
    cJSON *buffers = cJSON_GetObjectItem(root, "buffers"), *views = cJSON_GetObjectItem(root, "bufferViews");
    cJSON *b = cJSON_CreateObject(), *v = cJSON_CreateObject();
    cJSON_AddNumberToObject(b, "byteLength", (double)(4 * floats));
    cJSON_AddStringToObject(b, "uri", (char *)uri.data);
    cJSON_AddItemToArray(buffers, b);
    cJSON_AddNumberToObject(v, "buffer", cJSON_GetArraySize(buffers) - 1);
    cJSON_AddNumberToObject(v, "byteLength", (double)(4 * floats));
    cJSON_AddItemToArray(views, v);
    bytes_free(&uri);
    return cJSON_GetArraySize(views) - 1;
}

/* A float accessor over a whole view; returns its index. */
static int add_float_accessor(cJSON *root, const float *data, int count, int components, bool bounds)
{
    static const char *const types[5] = {"", "SCALAR", "VEC2", "VEC3", "VEC4"};
    cJSON *accessors = cJSON_GetObjectItem(root, "accessors"), *a = cJSON_CreateObject();
    cJSON_AddNumberToObject(a, "bufferView", add_float_view(root, data, (size_t)count * components));
    cJSON_AddNumberToObject(a, "componentType", 5126);
    cJSON_AddNumberToObject(a, "count", count);
    cJSON_AddStringToObject(a, "type", types[components]);
    if (bounds) { /* animation inputs carry min and max */
        cJSON_AddItemToObject(a, "min", cJSON_CreateDoubleArray((const double[]){data[0]}, 1));
        cJSON_AddItemToObject(a, "max", cJSON_CreateDoubleArray((const double[]){data[count - 1]}, 1));
    }
    cJSON_AddItemToArray(accessors, a);
    return cJSON_GetArraySize(accessors) - 1;
}

/* Three of the sampler's rules, each with data that only the rule gets right (issue 21):
 * node 0, CUBICSPLINE over keys 2 s apart with an out-tangent of (1, 0, 0): at t = 1 the
 * Hermite term h10(1/2) dt m0 = 0.125 * 2 = 0.25 (0.125 if the tangent were not scaled by
 * the key interval); node 1, STEP over keys 0, 1, 2 with x = 10, 20, 30: at t = 1 exactly,
 * key 1's 20 (10 if an interior key were taken as the end of the interval before it);
 * node 2, LINEAR over keys 0 and 2 whose output accessor has a bufferView of zeros and a
 * sparse substitution of key 1 by (6, 0, 0): at t = 1, (3, 0, 0) (0 if sparse values were
 * ignored beside a bufferView). Expected values by this test's own arithmetic. */
static void test_gltf_sampler_rules_cubic_step_sparse(void **state)
{
    (void)state;
    cJSON *root = cJSON_Parse("{\"asset\":{\"version\":\"2.0\"},\"buffers\":[],\"bufferViews\":[],"
                              "\"accessors\":[],\"nodes\":[{},{},{}],\"animations\":[{\"samplers\":[],"
                              "\"channels\":[]}]}");
    assert_non_null(root);
    static const float two_keys[2] = {0, 2}, three_keys[3] = {0, 1, 2};
    static const float cubic[18] = {0, 0, 0, 0, 0, 0, 1, 0, 0,  /* key 0: in, value, out */
                                    0, 0, 0, 0, 0, 0, 0, 0, 0}; /* key 1 */
    static const float step[9] = {10, 0, 0, 20, 0, 0, 30, 0, 0}, zeros[6] = {0}, six[3] = {6, 0, 0};
    float index_bits[1];
    const uint32_t index = 1; /* the sparse index, an UNSIGNED_INT, as 4 bytes of a view */
    memcpy(index_bits, &index, sizeof index);
    int sparse_output = add_float_accessor(root, zeros, 2, 3, false);
    cJSON *sparse = cJSON_AddObjectToObject(at_path(root, "accessors", sparse_output), "sparse");
    cJSON_AddNumberToObject(sparse, "count", 1);
    cJSON *indices = cJSON_AddObjectToObject(sparse, "indices"), *values = cJSON_AddObjectToObject(sparse, "values");
    cJSON_AddNumberToObject(indices, "bufferView", add_float_view(root, index_bits, 1));
    cJSON_AddNumberToObject(indices, "componentType", 5125);
    cJSON_AddNumberToObject(values, "bufferView", add_float_view(root, six, 3));
    const struct { int input, output; const char *mode; } samplers[3] = {
        {add_float_accessor(root, two_keys, 2, 1, true), add_float_accessor(root, cubic, 6, 3, false), "CUBICSPLINE"},
        {add_float_accessor(root, three_keys, 3, 1, true), add_float_accessor(root, step, 3, 3, false), "STEP"},
        {add_float_accessor(root, two_keys, 2, 1, true), sparse_output, "LINEAR"}};
    cJSON *anim = at_path(root, "animations", 0);
    for (int k = 0; k < 3; k++) {
        cJSON *sampler = cJSON_CreateObject(), *channel = cJSON_CreateObject(), *target = cJSON_CreateObject();
        cJSON_AddNumberToObject(sampler, "input", samplers[k].input);
        cJSON_AddNumberToObject(sampler, "output", samplers[k].output);
        cJSON_AddStringToObject(sampler, "interpolation", samplers[k].mode);
        cJSON_AddItemToArray(cJSON_GetObjectItem(anim, "samplers"), sampler);
        cJSON_AddNumberToObject(channel, "sampler", k);
        cJSON_AddNumberToObject(target, "node", k);
        cJSON_AddStringToObject(target, "path", "translation");
        cJSON_AddItemToObject(channel, "target", target);
        cJSON_AddItemToArray(cJSON_GetObjectItem(anim, "channels"), channel);
    }
    char *text = cJSON_PrintUnformatted(root);
    tu_keep_fuzz_seed("sampler-rules.gltf", 0x1c, text, strlen(text));
    cJSON_Delete(root);
    gltf_document doc;
    lab_diag d = {0};
    assert_int_equal(gltf_parse((const uint8_t *)text, strlen(text), NULL, &doc, &d), LAB_OK);
    if (gltf_validate(&doc, &d) != LAB_OK)
        fail_msg("%s: %s", d.where, d.value);
    mat4 locals[3];
    assert_int_equal(gltf_sample_locals(&doc, 0, 1.0, locals, NULL), LAB_OK);
    const double u = 0.5, h10 = u * u * u - 2 * u * u + u, dt = 2.0; /* the Hermite basis */
    assert_near(locals[0].m[0][3], h10 * dt * 1.0, 1e-12);
    assert_true(locals[1].m[0][3] == 20.0);
    assert_near(locals[2].m[0][3], 0.5 * 6.0, 1e-12);
    gltf_free(&doc);
    free(text);
}

/* The export with two morph targets on its cylinder and no twist: target 0 moves each
 * vertex by (0.1 x, 0.2 y, 0) and its normal by (0, 0, 0.5), target 1 by (0, 0, 0.3 + 0.01 v);
 * mesh.weights {0.5, -0.25}. `weights` (NULL: none) replaces the animation by one weights
 * channel on the mesh node: keys at 0 and 1 with `values` (2 a key, x3 for CUBICSPLINE). */
static char *morph_asset(const exported *x, const char *interpolation, const float *values, int value_count,
                         void (*change)(cJSON *))
{
    cJSON *root = cJSON_Parse(x->text);
    static float d0[3 * 216], d1[3 * 216], dn[3 * 216];
    for (int v = 0; v < 216; v++) {
        vec3 p = x->rig.bind.vertices[v];
        d0[3 * v] = (float)(0.1 * p.x), d0[3 * v + 1] = (float)(0.2 * p.y), d0[3 * v + 2] = 0;
        d1[3 * v] = 0, d1[3 * v + 1] = 0, d1[3 * v + 2] = (float)(0.3 + 0.01 * v);
        dn[3 * v] = 0, dn[3 * v + 1] = 0, dn[3 * v + 2] = 0.5f;
    }
    cJSON *prim = cJSON_GetArrayItem(cJSON_GetObjectItem(at_path(root, "meshes", 0), "primitives"), 0);
    cJSON *targets = cJSON_AddArrayToObject(prim, "targets"), *t0 = cJSON_CreateObject(), *t1 = cJSON_CreateObject();
    cJSON_AddNumberToObject(t0, "POSITION", add_float_accessor(root, d0, 216, 3, false));
    cJSON_AddNumberToObject(t0, "NORMAL", add_float_accessor(root, dn, 216, 3, false));
    cJSON_AddNumberToObject(t1, "POSITION", add_float_accessor(root, d1, 216, 3, false));
    cJSON_AddItemToArray(targets, t0);
    cJSON_AddItemToArray(targets, t1);
    cJSON_AddItemToObject(at_path(root, "meshes", 0), "weights", cJSON_CreateDoubleArray((const double[]){0.5, -0.25}, 2));
    cJSON_DeleteItemFromObject(root, "animations");
    if (interpolation) {
        static const float times[2] = {0, 1};
        cJSON *sampler = cJSON_CreateObject(), *channel = cJSON_CreateObject(), *target = cJSON_CreateObject();
        cJSON_AddNumberToObject(sampler, "input", add_float_accessor(root, times, 2, 1, true));
        cJSON_AddNumberToObject(sampler, "output", add_float_accessor(root, values, value_count, 1, false));
        cJSON_AddStringToObject(sampler, "interpolation", interpolation);
        cJSON_AddNumberToObject(channel, "sampler", 0);
        cJSON_AddNumberToObject(target, "node", 2);
        cJSON_AddStringToObject(target, "path", "weights");
        cJSON_AddItemToObject(channel, "target", target);
        cJSON *anim = cJSON_CreateObject();
        cJSON_AddItemToArray(cJSON_AddArrayToObject(anim, "samplers"), sampler);
        cJSON_AddItemToArray(cJSON_AddArrayToObject(anim, "channels"), channel);
        cJSON_AddItemToArray(cJSON_AddArrayToObject(root, "animations"), anim);
    }
    if (change)
        change(root);
    char *text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    return text;
}

/* The skinned cylinder with weights w: at rest both joints carry only the frame conversion,
 * so each vertex is to_gltf_frame(p + w0 d0 + w1 d1), computed here on its own. */
static void expect_morphed(const exported *x, gltf_document *doc, double t, double w0, double w1)
{
    double w[2];
    assert_int_equal(gltf_node_target_count(doc, 2), 2);
    assert_int_equal(gltf_sample_morph_weights(doc, 0, t, 2, w, NULL), LAB_OK);
    if (!(fabs(w[0] - w0) < 1e-6 && fabs(w[1] - w1) < 1e-6))
        fail_msg("t = %g: weights (%g, %g), expected (%g, %g)", t, w[0], w[1], w0, w1);
    vec3 out[216];
    double used[2] = {NAN, NAN}; /* gltf_skin_at samples the same weights itself */
    assert_int_equal(gltf_skin_at(doc, 0, t, 2, 0, SKIN_LBS, SKIN_POLICY_STRICT, out, used, NULL, NULL), LAB_OK);
    assert_true(used[0] == w[0] && used[1] == w[1]);
    for (int v = 0; v < 216; v++) {
        vec3 p = x->rig.bind.vertices[v];
        vec3 morphed = vec3_make(p.x + w0 * 0.1f * (float)p.x, p.y + w0 * (float)(0.2 * p.y), p.z + w1 * (float)(0.3 + 0.01 * v));
        assert_true(vec3_length(vec3_sub(out[v], to_gltf_frame(morphed))) < 1e-5);
    }
}

static void node_weights(cJSON *root) { cJSON_AddItemToObject(at_path(root, "nodes", 2), "weights", cJSON_CreateDoubleArray((const double[]){1.5, 2.0}, 2)); }

/* glTF's order: the morph targets move the bind pose, then the skin moves the result; the
 * weights come from node.weights, else mesh.weights, else an animation; any value is a
 * weight (outside [0, 1] too); STEP, LINEAR and CUBICSPLINE sample them. */
static void test_gltf_morph_targets_before_the_skin(void **state)
{
    exported *x = *state;
    gltf_document doc;
    char *text = morph_asset(x, NULL, NULL, 0, NULL); /* mesh.weights {0.5, -0.25} */
    assert_int_equal(parse_text(text, &doc, NULL), LAB_OK);
    expect_morphed(x, &doc, 0.0, 0.5, -0.25);
    vec3 p[216], n[216], base[216]; /* the NORMAL deltas: 0.5 of (0, 0, 0.5) */
    const double w[2] = {0.5, -0.25};
    assert_int_equal(gltf_morph_primitive(&doc, 0, 0, w, p, n, NULL), LAB_OK);
    assert_int_equal(gltf_morph_primitive(&doc, 0, 0, NULL, p, base, NULL), LAB_OK);
    for (int v = 0; v < 216; v++)
        assert_true(vec3_length(vec3_sub(n[v], vec3_add(base[v], vec3_make(0, 0, 0.25)))) < 1e-7);
    gltf_free(&doc);
    free(text);
    text = morph_asset(x, NULL, NULL, 0, node_weights); /* node.weights {1.5, 2} win */
    assert_int_equal(parse_text(text, &doc, NULL), LAB_OK);
    expect_morphed(x, &doc, 0.0, 1.5, 2.0);
    gltf_free(&doc);
    free(text);
    static const float linear[4] = {0, 0, 1, -1}; /* keys (0, 0) and (1, -1) */
    text = morph_asset(x, "LINEAR", linear, 4, NULL);
    assert_int_equal(parse_text(text, &doc, NULL), LAB_OK);
    tu_keep_fuzz_seed("morph-weights-linear.gltf", 0x1c, text, strlen(text));
    expect_morphed(x, &doc, 0.25, 0.25, -0.25);
    expect_morphed(x, &doc, 2.0, 1.0, -1.0); /* past the last key: the last */
    gltf_free(&doc);
    free(text);
    text = morph_asset(x, "STEP", linear, 4, NULL);
    assert_int_equal(parse_text(text, &doc, NULL), LAB_OK);
    expect_morphed(x, &doc, 0.75, 0.0, 0.0);
    gltf_free(&doc);
    free(text);
    /* CUBICSPLINE: per key in-tangents (2), values (2), out-tangents (2); at t = 0.5 the
     * Hermite basis is (1/2, 1/8, 1/2, -1/8): w = 1/8 * out_0 + 1/2 * v_1 - 1/8 * in_1 */
    static const float cubic[12] = {0, 0, 0, 0, 2, 0, /* key 0: in, value, out */
                                    0, 4, 1, 1, 0, 0}; /* key 1 */
    text = morph_asset(x, "CUBICSPLINE", cubic, 12, NULL);
    assert_int_equal(parse_text(text, &doc, NULL), LAB_OK);
    tu_keep_fuzz_seed("morph-weights-cubic.gltf", 0x1d, text, strlen(text));
    expect_morphed(x, &doc, 0.5, 0.125 * 2 + 0.5 * 1 - 0.125 * 0, 0.125 * 0 + 0.5 * 1 - 0.125 * 4);
    gltf_free(&doc);
    free(text);
}

/* lab30-gltf end to end on the LINEAR asset: the weights it records and the positions. */
static void test_lab30_gltf_applies_morph_targets(void **state)
{
    exported *x = *state;
    static const float linear[4] = {0, 0, 1, -1};
    char *text = morph_asset(x, "LINEAR", linear, 4, NULL);
    char dir[64], out[64];
    assert_non_null(tu_make_temp_dir(dir, sizeof dir));
    assert_non_null(tu_make_temp_dir(out, sizeof out));
    char asset[128];
    snprintf(asset, sizeof asset, "%s/morph.gltf", dir);
    assert_true(tu_write_file(asset, text));
    free(text);
    assert_int_equal(tu_run_program(LAB_BIN_DIR "/lab30-gltf", NULL, NULL, "--time", "0.25", asset, out, (char *)NULL), 0);
    cJSON *json = tu_json_load(tu_path(out, "gltf30.json"));
    assert_non_null(json);
    cJSON *part = cJSON_GetArrayItem(tu_json_get(cJSON_GetArrayItem(tu_json_get(json, "times"), 0), "parts"), 0);
    cJSON *w = tu_json_get(part, "morph_weights");
    assert_int_equal(cJSON_GetArraySize(w), 2);
    assert_near(tu_json_number(cJSON_GetArrayItem(w, 0)), 0.25, 1e-12);
    assert_near(tu_json_number(cJSON_GetArrayItem(w, 1)), -(0.25), 1e-12);
    cJSON *positions = tu_json_get(part, "positions");
    for (int v = 0; v < 216; v++) {
        vec3 p = x->rig.bind.vertices[v];
        vec3 expect = to_gltf_frame(vec3_make(p.x + 0.25 * 0.1f * (float)p.x, p.y + 0.25 * (float)(0.2 * p.y),
                                              p.z - 0.25 * (float)(0.3 + 0.01 * v)));
        cJSON *q = cJSON_GetArrayItem(positions, v);
        vec3 got = vec3_make(tu_json_number(cJSON_GetArrayItem(q, 0)), tu_json_number(cJSON_GetArrayItem(q, 1)),
                             tu_json_number(cJSON_GetArrayItem(q, 2)));
        assert_true(vec3_length(vec3_sub(got, expect)) < 1e-5);
    }
    cJSON_Delete(json);
    tu_remove_tree(dir);
    tu_remove_tree(out);
}

static void target_count_short(cJSON *r)
{
    cJSON *t = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(at_path(r, "meshes", 0), "primitives"), 0), "targets"), 1);
    cJSON_ReplaceItemInObject(at_path(r, "accessors", cJSON_GetObjectItem(t, "POSITION")->valueint), "count", cJSON_CreateNumber(215));
}
static void mesh_weights_three(cJSON *r) { cJSON_ReplaceItemInObject(at_path(r, "meshes", 0), "weights", cJSON_CreateDoubleArray((const double[]){1, 2, 3}, 3)); }
static cJSON *target_at(cJSON *r, int t)
{
    return cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(at_path(r, "meshes", 0), "primitives"), 0), "targets"), t);
}
static void empty_target(cJSON *r) { cJSON_DeleteItemFromObject(target_at(r, 1), "POSITION"); }
static void unknown_target_attribute(cJSON *r) { cJSON_AddNumberToObject(target_at(r, 0), "FOO", 5); }
static void allowed_target_attributes(cJSON *r)
{
    cJSON_AddNumberToObject(target_at(r, 0), "_EXTRA", 0);
    cJSON_AddNumberToObject(target_at(r, 0), "TEXCOORD_0", 0);
    cJSON_AddNumberToObject(target_at(r, 1), "COLOR_12", 0);
}
static void joint_weights(cJSON *r) { cJSON_AddItemToObject(at_path(r, "nodes", 0), "weights", cJSON_CreateDoubleArray((const double[]){1, 2}, 2)); }

/* What does not fit is refused, named by its JSON pointer. */
static void test_gltf_morph_targets_refused_where_wrong(void **state)
{
    exported *x = *state;
    static const float three_keys_short[3] = {0, 0, 1}; /* 2 keys x 2 targets need 4 */
    const struct { const char *interpolation; const float *values; int count; void (*change)(cJSON *); const char *pointer; } cases[] = {
        {NULL, NULL, 0, target_count_short, "/meshes/0/primitives/0/targets/1/POSITION"},
        {NULL, NULL, 0, mesh_weights_three, "/meshes/0/weights"},
        {NULL, NULL, 0, joint_weights, "/nodes/0/weights"},
        {NULL, NULL, 0, empty_target, "/meshes/0/primitives/0/targets/1"},        /* the schema: at least one */
        {NULL, NULL, 0, unknown_target_attribute, "/meshes/0/primitives/0/targets/0"}, /* no such attribute */
        {"LINEAR", three_keys_short, 3, NULL, "/animations/0/channels/0"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *text = morph_asset(x, cases[i].interpolation, cases[i].values, cases[i].count, cases[i].change);
        expect_refused(text, LAB_ERR_GLTF, cases[i].pointer);
        free(text);
    }
    /* what the specification allows in a target is taken: TEXCOORD_n, COLOR_n, _NAME */
    char *text = morph_asset(x, NULL, NULL, 0, allowed_target_attributes);
    gltf_document doc;
    assert_int_equal(parse_text(text, &doc, NULL), LAB_OK);
    gltf_free(&doc);
    free(text);
}

static void overflowing_weights(cJSON *r)
{
    cJSON_ReplaceItemInObject(at_path(r, "meshes", 0), "weights", cJSON_CreateDoubleArray((const double[]){0, 1.7e308}, 2));
}

/* Finite weights and deltas whose weighted sum overflows: refused as a morphed position,
 * naming the mesh, the primitive, the vertex and the POSITION accessor, not blamed on the
 * skin. Target 1 moves vertex v by 0.3 + 0.01 v along z, so the first vertex past the
 * largest double is the first whose float delta times 1.7e308, plus its z, is not finite:
 * found here by the test's own arithmetic. */
static void test_gltf_morph_overflow_names_its_vertex(void **state)
{
    exported *x = *state;
    char *text = morph_asset(x, NULL, NULL, 0, overflowing_weights);
    gltf_document doc;
    assert_int_equal(parse_text(text, &doc, NULL), LAB_OK);
    int first = -1;
    for (int v = 0; v < 216 && first < 0; v++) {
        double z = x->rig.bind.vertices[v].z + 1.7e308 * (double)(float)(0.3 + 0.01 * v);
        first = isfinite(z) ? -1 : v;
    }
    assert_true(first > 0);
    char where[96], accessor[32];
    snprintf(where, sizeof where, "mesh 0 primitive 0 vertex %d", first);
    snprintf(accessor, sizeof accessor, "accessor %d ", doc.meshes[0].primitives[0].position);
    vec3 out[216];
    lab_diag d = {0};
    assert_int_equal(gltf_skin_at(&doc, 0, 0.0, 2, 0, SKIN_LBS, SKIN_POLICY_STRICT, out, NULL, NULL, &d), LAB_ERR_NOT_FINITE);
    if (strcmp(d.where, where) != 0 || !strstr(d.value, "morphed position") || !strstr(d.value, accessor))
        fail_msg("expected %s, morphed position, %s; got %s: %s", where, accessor, d.where, d.value);
    gltf_free(&doc);
    free(text);
}

/* A primitive's influences as stored: SimpleSkin's joint 1 weighs 0, 1/4, 1/2, 3/4, 1 row
 * by row (two vertices a row), joint 0 the rest; K = 4 for its one JOINTS_0/WEIGHTS_0 set. */
static void test_gltf_primitive_influences_as_stored(void **state)
{
    (void)state;
    gltf_document doc;
    assert_int_equal(gltf_load(SIMPLE_SKIN, &doc, NULL), LAB_OK);
    assert_int_equal(gltf_validate(&doc, NULL), LAB_OK);
    skin_influences in;
    assert_int_equal(gltf_primitive_influences(&doc, 0, 0, &in, NULL), LAB_OK);
    assert_int_equal(in.vertex_count, 10);
    assert_int_equal(in.per_vertex, 4);
    for (int v = 0; v < 10; v++) {
        assert_near(skin_joint_weight(&in, v, 1), (v / 2) / 4.0, 1e-7);
        assert_near(skin_joint_weight(&in, v, 0), (1 - (v / 2) / 4.0), 1e-7);
    }
    skin_influences_free(&in);
    lab_diag d = {0};
    assert_int_equal(gltf_primitive_influences(&doc, 0, 1, &in, &d), LAB_ERR_GLTF); /* no such primitive */
    gltf_free(&doc);
}

/* The SimpleSkin the tests build from the tutorial's published numbers
 * (tu_write_simple_skin) has, buffer for buffer, the bytes of the Khronos asset itself
 * (assets/SimpleSkin.gltf, CC0), so what the tests check holds for the real file. */
static void test_gltf_built_simple_skin_has_the_assets_bytes(void **state)
{
    (void)state;
    gltf_document built, asset;
    assert_int_equal(gltf_load(SIMPLE_SKIN, &built, NULL), LAB_OK);
    assert_int_equal(gltf_load("assets/SimpleSkin.gltf", &asset, NULL), LAB_OK);
    assert_int_equal(built.buffer_count, asset.buffer_count);
    for (int b = 0; b < built.buffer_count; b++) {
        assert_int_equal(built.buffers[b].size, asset.buffers[b].size);
        assert_memory_equal(built.buffers[b].data, asset.buffers[b].data, built.buffers[b].size);
    }
    gltf_free(&built);
    gltf_free(&asset);
}

/* The hostile shapes of validation cost: `nodes` nodes drawing one mesh whose primitive
 * has `targets` morph targets, every one of them pointing at accessor 1 (three vertices'
 * deltas; accessor 0 is POSITION). A few bytes of JSON per target or node, each of which
 * used to re-read the accessors it names: 10,000 targets on 500 nodes took 17 s. */
static char *hostile_morphs(int targets, int nodes)
{
    const float data[18] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0.1f, 0, 0, 0, 0.1f, 0, 0, 0, 0.1f};
    bytes b = {0};
    bytes_printf(&b, "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":72,"
                     "\"uri\":\"data:application/octet-stream;base64,");
    base64_append(&b, (const uint8_t *)data, sizeof data);
    bytes_printf(&b, "\"}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":36},"
                     "{\"buffer\":0,\"byteOffset\":36,\"byteLength\":36}],\"accessors\":["
                     "{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\","
                     "\"min\":[0,0,0],\"max\":[1,1,0]},"
                     "{\"bufferView\":1,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}],"
                     "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"targets\":[");
    for (int t = 0; t < targets; t++)
        bytes_printf(&b, "%s{\"POSITION\":1}", t ? "," : "");
    bytes_printf(&b, "]}]}],\"nodes\":[");
    for (int n = 0; n < nodes; n++)
        bytes_printf(&b, "%s{\"mesh\":0}", n ? "," : "");
    bytes_printf(&b, "],\"scenes\":[{\"nodes\":[");
    for (int n = 0; n < nodes; n++)
        bytes_printf(&b, "%s%d", n ? "," : "", n);
    bytes_printf(&b, "]}],\"scene\":0}");
    assert_false(b.failed);
    return (char *)b.data;
}

/* Parses text, sets the limits, validates; returns the accessor reads validation made. */
static long validation_reads(const char *text, gltf_limits limits, lab_error expected, const char *where)
{
    gltf_document doc;
    lab_diag d = {0};
    assert_int_equal(gltf_parse((const uint8_t *)text, strlen(text), NULL, &doc, &d), LAB_OK);
    doc.limits = limits;
    long before = gltf_accessor_reads();
    lab_error e = gltf_validate(&doc, &d);
    long reads = gltf_accessor_reads() - before;
    if (e != expected)
        fprintf(stderr, "validate: %d (%s, %s), expected %d\n", e, d.where, d.value, expected);
    assert_int_equal(e, expected);
    if (where)
        assert_non_null(strstr(d.where, where));
    gltf_free(&doc);
    return reads;
}

/* Validation reads each accessor once however many nodes and targets use it, and refuses
 * a count beyond the documented limits before it reads anything for it: 10,000 targets on
 * 500 nodes and 100,000 targets on one accessor; a million targets stop at the parse. */
static void test_gltf_validation_cost_is_per_accessor(void **state)
{
    (void)state;
    char *many_nodes = hostile_morphs(10000, 500);
    /* the default limit: 1,024 targets a primitive, refused before any target is read */
    assert_int_equal(validation_reads(many_nodes, (gltf_limits){0}, LAB_ERR_LIMIT, "/meshes/0/primitives/0/targets"), 0);
    /* raised: both accessors read once each (it was 500 x 10,001 reads) */
    gltf_limits raised = {.max_targets = 10000};
    assert_int_equal(validation_reads(many_nodes, raised, LAB_OK, NULL), 2);
    /* the morph work: 30,000 deltas a node; a limit of 1,000,000 stops at node 33 */
    gltf_limits work = {.max_targets = 10000, .max_morph_deltas = 1000000};
    assert_int_equal(validation_reads(many_nodes, work, LAB_ERR_LIMIT, "/nodes/33/mesh"), 2);
    free(many_nodes);
    /* a million targets: 15 MB of JSON whose cJSON tree would take about 270 MiB, refused by
     * the parse before it builds the tree (GLTF_MAX_JSON_TREE); 100,000 are read as before */
    char *million = hostile_morphs(1000000, 1);
    gltf_document doc;
    lab_diag d = {0};
    assert_int_equal(gltf_parse((const uint8_t *)million, strlen(million), NULL, &doc, &d), LAB_ERR_LIMIT);
    assert_non_null(strstr(d.value, "would make a tree of about"));
    free(million);
    char *many = hostile_morphs(100000, 1);
    assert_int_equal(validation_reads(many, (gltf_limits){0}, LAB_ERR_LIMIT, "/meshes/0/primitives/0/targets"), 0);
    gltf_limits all = {.max_targets = 1 << 20};
    assert_int_equal(validation_reads(many, all, LAB_OK, NULL), 2);
    free(many);
}

/* A one-triangle mesh whose POSITION, NORMAL and one morph target's POSITION delta have the
 * given componentTypes and normalization (0: not normalized, 1: normalized), 3 vertices of
 * 12-byte strides (room for every type, 4-byte aligned); KHR_mesh_quantization required
 * when `extension`. */
static char *quantized_mesh(bool extension, int position, int pn, int normal, int nn, int delta, int dn)
{
    uint8_t data[3 * 12 * 3] = {0};
    bytes b = {0};
    bytes_printf(&b, "{\"asset\":{\"version\":\"2.0\"},%s\"buffers\":[{\"byteLength\":108,"
                     "\"uri\":\"data:application/octet-stream;base64,",
                 extension ? "\"extensionsUsed\":[\"KHR_mesh_quantization\"],\"extensionsRequired\":"
                             "[\"KHR_mesh_quantization\"]," : "");
    base64_append(&b, data, sizeof data);
    bytes_printf(&b, "\"}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":36,\"byteStride\":12},"
                     "{\"buffer\":0,\"byteOffset\":36,\"byteLength\":36,\"byteStride\":12},"
                     "{\"buffer\":0,\"byteOffset\":72,\"byteLength\":36,\"byteStride\":12}],\"accessors\":[");
    const int types[3][2] = {{position, pn}, {normal, nn}, {delta, dn}};
    for (int k = 0; k < 3; k++)
        bytes_printf(&b, "%s{\"bufferView\":%d,\"componentType\":%d,%s\"count\":3,\"type\":\"VEC3\"%s}", k ? "," : "", k,
                     types[k][0], types[k][1] ? "\"normalized\":true," : "",
                     k == 0 ? ",\"min\":[0,0,0],\"max\":[0,0,0]" : "");
    bytes_printf(&b, "],\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1},"
                     "\"targets\":[{\"POSITION\":2}]}]}],\"nodes\":[{\"mesh\":0}],\"scenes\":[{\"nodes\":[0]}]}");
    assert_false(b.failed);
    return (char *)b.data;
}

/* KHR_mesh_quantization's table, role by role: POSITION takes float and every 8- and
 * 16-bit type, normalized or not; NORMAL float or normalized byte or short; a POSITION
 * delta float, byte or short, normalized or not. Anything else is refused at its pointer,
 * and without the extension every integer type is. */
static void test_gltf_quantization_table(void **state)
{
    (void)state;
    const int F = 5126, B = 5120, UB = 5121, S = 5122, US = 5123;
    const struct { int p, pn, n, nn, t, tn; bool ok; const char *where; } rows[] = {
        {F, 0, F, 0, F, 0, true, NULL},   {B, 0, F, 0, F, 0, true, NULL},     {B, 1, F, 0, F, 0, true, NULL},
        {UB, 0, F, 0, F, 0, true, NULL},  {UB, 1, F, 0, F, 0, true, NULL},    {S, 0, F, 0, F, 0, true, NULL},
        {S, 1, F, 0, F, 0, true, NULL},   {US, 0, F, 0, F, 0, true, NULL},    {US, 1, F, 0, F, 0, true, NULL},
        {F, 0, B, 1, F, 0, true, NULL},   {F, 0, S, 1, F, 0, true, NULL},     {F, 0, F, 0, B, 0, true, NULL},
        {F, 0, F, 0, B, 1, true, NULL},   {F, 0, F, 0, S, 0, true, NULL},     {F, 0, F, 0, S, 1, true, NULL},
        {F, 0, B, 0, F, 0, false, "NORMAL"},     /* an integer normal, not normalized */
        {F, 0, UB, 1, F, 0, false, "NORMAL"},    /* an unsigned normal */
        {F, 0, US, 1, F, 0, false, "NORMAL"},
        {F, 0, F, 0, UB, 0, false, "targets/0/POSITION"}, /* an unsigned delta */
        {F, 0, F, 0, US, 1, false, "targets/0/POSITION"},
        {5125, 0, F, 0, F, 0, false, "POSITION"}, /* 32-bit integers: never */
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        for (int extension = 0; extension < 2; extension++) {
            char *text = quantized_mesh(extension, rows[i].p, rows[i].pn, rows[i].n, rows[i].nn, rows[i].t, rows[i].tn);
            gltf_document doc;
            lab_diag d = {0};
            assert_int_equal(gltf_parse((const uint8_t *)text, strlen(text), NULL, &doc, &d), LAB_OK);
            lab_error e = gltf_validate(&doc, &d);
            bool all_float = rows[i].p == F && rows[i].n == F && rows[i].t == F;
            bool expect_ok = rows[i].ok && (extension || all_float);
            if ((e == LAB_OK) != expect_ok || (!expect_ok && rows[i].where && !strstr(d.where, rows[i].where)))
                fail_msg("row %zu, extension %d: %d (%s, %s)", i, extension, e, d.where, d.value);
            gltf_free(&doc);
            free(text);
        }
}

/* The writer refuses what a reader would refuse, before writing (the fuzzer's writer
 * round trip found a joint translation of 7e35: a finite float whose joint matrix breaks
 * the library's magnitude bound). Each case changes one field of a rig it accepts. */
static void test_gltf_write_refuses_what_a_reader_would(void **state)
{
    (void)state;
    vec3 vertices[3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, normals[3] = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
    mesh_triangle tri = {{0, 1, 2}};
    mesh bind = {3, vertices, 1, &tri};
    uint16_t joints[3][4] = {{0}};
    float weights[3][4] = {{1, 0, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}};
    gltf_write_joint skeleton[2] = {{"root", -1, {0, 0, 0}, {0, 0, 0, 1}}, {"child", 0, {0, 0, 1}, {0, 0, 0, 1}}};
    mat4 inverse_bind[2] = {mat4_identity(), mat4_translate(0, 0, -1)};
    double times[2] = {0, 1};
    quat rotations[2] = {{0, 0, 0, 1}, {0, 0, 1, 0}};
    const gltf_write_input good = {
        .bind = &bind, .normals = normals, .joints = (const uint16_t(*)[4])joints,
        .weights = (const float(*)[4])weights, .skeleton = skeleton, .joint_count = 2, .inverse_bind = inverse_bind,
        .animated_joint = 1, .key_times = times, .key_rotations = rotations, .key_count = 2, .generator = "test",
        .mesh_name = "m", .mesh_node_name = "m", .rig_name = "rig", .rig_rotation = {0, 0, 0, 1}, .skin_name = "s",
        .animation_name = "a"};
    bytes b = {0};
    assert_int_equal(gltf_write(&good, &b, NULL), LAB_OK);
    bytes_free(&b);
    struct { const char *what; lab_error expected; } cases[] = {
        {"a joint translation of 7e35", LAB_ERR_MATRIX_TOO_LARGE},
        {"key times that do not increase", LAB_ERR_INVALID_ARGUMENT},
        {"key times equal as floats", LAB_ERR_INVALID_ARGUMENT},
        {"a rotation key of length 0", LAB_ERR_INVALID_ARGUMENT},
        {"a joint rotation of length 2", LAB_ERR_INVALID_ARGUMENT},
        {"a parent listed after its child", LAB_ERR_INVALID_ARGUMENT},
        {"a position that overflows a float", LAB_ERR_NOT_FINITE},
        {"a joint index outside the skin", LAB_ERR_INVALID_ARGUMENT},
        {"an inverse bind that is not affine", LAB_ERR_MATRIX_NOT_AFFINE},
        {"a joint name that is not UTF-8", LAB_ERR_INVALID_ARGUMENT}, /* the reader refuses it: JSON is UTF-8 */
        {"an animation name that is not UTF-8", LAB_ERR_INVALID_ARGUMENT},
    };
    for (int i = 0; i < (int)(sizeof cases / sizeof cases[0]); i++) {
        gltf_write_input in = good;
        gltf_write_joint bad_skeleton[2] = {skeleton[0], skeleton[1]};
        double bad_times[2] = {0, 1};
        quat bad_rotations[2] = {rotations[0], rotations[1]};
        vec3 bad_vertices[3] = {vertices[0], vertices[1], vertices[2]};
        mesh bad_bind = {3, bad_vertices, 1, &tri};
        uint16_t bad_joints[3][4] = {{0}};
        mat4 bad_inverse[2] = {inverse_bind[0], inverse_bind[1]};
        in.skeleton = bad_skeleton, in.key_times = bad_times, in.key_rotations = bad_rotations, in.bind = &bad_bind;
        in.joints = (const uint16_t(*)[4])bad_joints, in.inverse_bind = bad_inverse;
        switch (i) {
        case 0: bad_skeleton[1].translation.x = 7e35; break;
        case 1: bad_times[1] = -1; break;
        case 2: bad_times[1] = 1e-50; break; /* 0 and 1e-50 are both 0.0f */
        case 3: bad_rotations[1] = (quat){0, 0, 0, 0}; break;
        case 4: bad_skeleton[0].rotation = (quat){0, 0, 0, 2}; break;
        case 5: bad_skeleton[0].parent = 1; break;
        case 6: bad_vertices[2].z = 1e39; break;
        case 7: bad_joints[1][0] = 2; break;
        case 8: bad_inverse[0].m[3][0] = 0.5; break;
        case 9: bad_skeleton[1].name = "child\xcc"; break;
        default: in.animation_name = "\xff"; break;
        }
        lab_diag d = {0};
        lab_error e = gltf_write(&in, &b, &d);
        if (e != cases[i].expected)
            fail_msg("%s: %d (%s, %s), expected %d", cases[i].what, e, d.where, d.value, cases[i].expected);
        assert_int_equal(b.len, 0); /* nothing written */
        bytes_free(&b);
    }
}

int main(void)
{
#define X(f) cmocka_unit_test_setup_teardown(f, setup_export, teardown_export)
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gltf_every_component_type_at_its_extremes),
        cmocka_unit_test(test_gltf_every_meshopt_filter_and_mode),
        cmocka_unit_test(test_gltf_simple_skin_matches_the_joint_matrix_formula),
        cmocka_unit_test(test_gltf_built_simple_skin_has_the_assets_bytes),
        cmocka_unit_test(test_gltf_corrective_export_budget_holds_for_every_vertex),
        cmocka_unit_test(test_gltf_primitive_influences_as_stored),
        cmocka_unit_test(test_gltf_glb_reads_like_gltf),
        cmocka_unit_test(test_gltf_quantization_table),
        cmocka_unit_test(test_gltf_linear_translation_and_scale),
        cmocka_unit_test(test_gltf_deep_chain_of_nodes),
        X(test_gltf_round_trip_equals_lab30),
        X(test_gltf_export_as_a_viewer_opens_it),
        X(test_gltf_the_three_rules),
        X(test_gltf_export_reports_every_failed_allocation),
        X(test_gltf_refuses_malformed_files),
        X(test_gltf_refuses_bad_skin_data),
        X(test_gltf_morph_targets_before_the_skin),
        X(test_gltf_morph_overflow_names_its_vertex),
        X(test_gltf_morph_targets_refused_where_wrong),
        X(test_lab30_gltf_applies_morph_targets),
        cmocka_unit_test(test_gltf_external_sparse_normalised_sets_step_cubic),
        cmocka_unit_test(test_gltf_sampler_rules_cubic_step_sparse),
        cmocka_unit_test(test_gltf_validation_cost_is_per_accessor),
        cmocka_unit_test(test_gltf_write_refuses_what_a_reader_would),
    };
#undef X
    return cmocka_run_group_tests_name("gltf", tests, NULL, NULL);
}
