/* gltf_parse.c - the glTF reader, part 1: the JSON's shapes into a gltf_document, and
 * the buffers decoded (data URIs, external files, the GLB's BIN chunk). Every error names
 * the JSON pointer of the offending element (see gltf.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "base/text.h"
#include "gltf/gltf_accessor.h"
#include "base/bytes.h"
#include "base/json_memory.h"

#include <cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- reading JSON fields ------------------------------------------------------------------ */

/* obj[key] as an integer in [lo, hi]; `fallback` when absent and not required. */
static lab_error get_int(const cJSON *obj, const char *key, long lo, long hi, bool required,
                         long fallback, long *out, const char *at, lab_diag *d)
{
    char pointer[160];
    snprintf(pointer, sizeof pointer, "%s/%s", at, key);
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!item) {
        if (required)
            return gltf_fail_at(d, pointer, "required property is missing");
        *out = fallback;
        return LAB_OK;
    }
    double v = item->valuedouble;
    if (!cJSON_IsNumber(item) || v != floor(v) || v < (double)lo || v > (double)hi)
        return gltf_fail_at(d, pointer, "must be an integer in [%ld, %ld]", lo, hi);
    *out = (long)v;
    return LAB_OK;
}

/* obj[key] as n numbers (an array of exactly n); `fallback` when absent. */
static lab_error get_numbers(const cJSON *obj, const char *key, int n, const double *fallback,
                             double *out, const char *at, lab_diag *d)
{
    char pointer[160];
    snprintf(pointer, sizeof pointer, "%s/%s", at, key);
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!item) {
        memcpy(out, fallback, sizeof(double) * (size_t)n);
        return LAB_OK;
    }
    if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) != n)
        return gltf_fail_at(d, pointer, "must be an array of %d numbers", n);
    for (int i = 0; i < n; i++) {
        const cJSON *x = cJSON_GetArrayItem(item, i);
        if (!cJSON_IsNumber(x) || !isfinite(x->valuedouble))
            return gltf_fail_at(d, pointer, "element %d is not a finite number", i);
        out[i] = x->valuedouble;
    }
    return LAB_OK;
}

/* root[key] as an array (absent: empty); *count its size. */
static lab_error get_array(const cJSON *root, const char *key, const cJSON **out, int *count,
                           lab_diag *d)
{
    char pointer[64];
    snprintf(pointer, sizeof pointer, "/%s", key);
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(root, key);
    *out = a;
    *count = 0;
    if (!a)
        return LAB_OK;
    if (!cJSON_IsArray(a))
        return gltf_fail_at(d, pointer, "must be an array");
    *count = cJSON_GetArraySize(a);
    for (const cJSON *e = a->child; e; e = e->next)
        if (!cJSON_IsObject(e))
            return gltf_fail_at(d, pointer, "every element must be an object");
    return LAB_OK;
}

static void *alloc_array(size_t n, size_t size) { return calloc(n ? n : 1, size); }

/* ---- buffers ---------------------------------------------------------------------------------- */

static int base64_value(unsigned char c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

/* Strict base64 (padding allowed only at the end); refused at `pointer` on any other
 * character. */
static lab_error base64_decode(const char *text, uint8_t **out, size_t *size, const char *pointer, lab_diag *d)
{
    size_t len = strlen(text);
    while (len > 0 && text[len - 1] == '=')
        len--;
    *out = malloc(len * 3 / 4 + 3);
    if (!*out)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, pointer, "decoding %zu base64 characters", len);
    size_t n = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < len; i++) {
        int v = base64_value((unsigned char)text[i]);
        if (v < 0) {
            free(*out);
            *out = NULL;
            return gltf_fail_at(d, pointer, "data URI is not valid base64: character %zu is 0x%02x", i,
                                (unsigned char)text[i]);
        }
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            (*out)[n++] = (uint8_t)(acc >> bits);
        }
    }
    *size = n;
    return LAB_OK;
}

/* The file's bytes, handed over as a malloc'd block. */
static bytes_read_result read_whole_file(const char *path, uint8_t **out, size_t *size)
{
    bytes b = {0};
    bytes_read_result r = bytes_read_file(path, GLTF_MAX_FILE, &b);
    if (r != BYTES_READ_OK)
        bytes_free(&b);
    *out = b.data;
    *size = b.len;
    return r;
}

/* An external buffer: a regular file inside the asset's directory (after resolving
 * symbolic links), read up to its byteLength plus the 3 bytes of padding to a multiple of
 * 4, never more. */
/* A uri's path with its percent escapes decoded (RFC 3986: "skin%20tex.png" names the file
 * "skin tex.png"); -1 for a malformed escape or one that decodes to NUL. */
static int decode_uri_path(const char *uri, char *out, size_t size)
{
    size_t n = 0;
    for (const char *c = uri; *c; c++) {
        int byte = (unsigned char)*c;
        if (*c == '%') {
            unsigned hi, lo;
            if (!isxdigit((unsigned char)c[1]) || !isxdigit((unsigned char)c[2]))
                return -1;
            hi = (unsigned)(isdigit((unsigned char)c[1]) ? c[1] - '0' : (tolower((unsigned char)c[1]) - 'a' + 10));
            lo = (unsigned)(isdigit((unsigned char)c[2]) ? c[2] - '0' : (tolower((unsigned char)c[2]) - 'a' + 10));
            byte = (int)(hi * 16 + lo);
            c += 2;
            if (byte == 0)
                return -1;
        }
        if (n + 1 >= size)
            return -1;
        out[n++] = (char)byte;
    }
    out[n] = '\0';
    return 0;
}

lab_error gltf_read_beside(const char *uri, const char *base_dir, size_t max, const char *pointer, bytes *out,
                           lab_diag *d)
{
    char name[1024];
    if (!base_dir || uri[0] == '/' || strchr(uri, ':'))
        return gltf_fail_at(d, pointer, "external file \"%.60s\" must be a relative path", uri);
    if (decode_uri_path(uri, name, sizeof name) != 0)
        return gltf_fail_at(d, pointer, "external file \"%.60s\": a malformed percent escape, or a path longer than "
                            "%zu bytes", uri, sizeof name - 1);
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", base_dir, name);
    char *dir = realpath(base_dir, NULL), *file = realpath(path, NULL);
    size_t n = dir ? strlen(dir) : 0;
    lab_error e = LAB_OK;
    int reason = errno; /* what the system said, for a file that is not there */
    if (!dir || !file)
        e = gltf_fail_at(d, pointer, "external file \"%.60s\": cannot open the file: %s", name, strerror(reason));
    else if (strncmp(file, dir, n) != 0 || file[n] != '/')
        e = gltf_fail_at(d, pointer, "external file \"%.60s\" resolves to %.80s, outside the asset's directory %.80s",
                         name, file, dir);
    bytes b = {0};
    bytes_read_result r = e == LAB_OK ? bytes_read_file(file, max, &b) : BYTES_READ_OK;
    if (e == LAB_OK && r == BYTES_READ_OUT_OF_MEMORY)
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, pointer, "external file \"%.60s\": %s", name, bytes_read_message(r));
    else if (e == LAB_OK && r != BYTES_READ_OK)
        e = gltf_fail_at(d, pointer, "external file \"%.60s\": %s (at most %zu bytes)", name, bytes_read_message(r), max);
    if (e == LAB_OK)
        *out = b;
    else
        bytes_free(&b);
    free(dir), free(file);
    return e;
}

/* An external buffer: its byteLength and at most 3 bytes of padding. */
static lab_error read_external(const char *name, const char *base_dir, size_t length, const char *pointer,
                               gltf_buffer *out, lab_diag *d)
{
    bytes b = {0};
    lab_error e = gltf_read_beside(name, base_dir, length + 3, pointer, &b, d);
    if (e == LAB_OK)
        out->data = b.data, out->size = b.len;
    return e;
}

/* A buffer's bytes: data URI, external file beside the asset, or the GLB's BIN chunk. */
static lab_error load_buffer(const cJSON *b, int i, const char *base_dir, const uint8_t *bin,
                             size_t bin_size, gltf_buffer *out, lab_diag *d)
{
    char at[64];
    snprintf(at, sizeof at, "/buffers/%d", i);
    long length = 0;
    lab_error e = get_int(b, "byteLength", 1, GLTF_MAX_FILE, true, 0, &length, at, d);
    if (e != LAB_OK)
        return e;
    const cJSON *uri = cJSON_GetObjectItemCaseSensitive(b, "uri");
    char pointer[96];
    snprintf(pointer, sizeof pointer, "%s/uri", at);
    const cJSON *fallback = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(b, "extensions"), "EXT_meshopt_compression"),
        "fallback");
    if (!uri && cJSON_IsTrue(fallback)) { /* EXT_meshopt_compression's: a reader of the extension never reads it */
        *out = (gltf_buffer){NULL, 0, true};
        return LAB_OK;
    }
    if (!uri) {
        if (i != 0 || !bin)
            return gltf_fail_at(d, pointer, "a buffer without uri must be the GLB's BIN chunk (buffer 0)");
        out->data = malloc(bin_size ? bin_size : 1);
        if (!out->data)
            return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, at, "%zu bytes", bin_size);
        memcpy(out->data, bin, bin_size);
        out->size = bin_size;
    } else if (!cJSON_IsString(uri)) {
        return gltf_fail_at(d, pointer, "must be a string");
    } else if (!strncmp(uri->valuestring, "data:", 5)) {
        /* a buffer's data URI has one of glTF's two buffer media types (2.0, 3.6.1.1) */
        static const char *const media[2] = {"data:application/octet-stream;base64,",
                                             "data:application/gltf-buffer;base64,"};
        const char *payload = NULL;
        for (int k = 0; k < 2 && !payload; k++)
            if (!strncmp(uri->valuestring, media[k], strlen(media[k])))
                payload = uri->valuestring + strlen(media[k]);
        if (!payload)
            return gltf_fail_at(d, pointer, "data URI \"%.40s...\" is not base64 of application/octet-stream "
                                "or application/gltf-buffer", uri->valuestring);
        e = base64_decode(payload, &out->data, &out->size, pointer, d);
        if (e != LAB_OK)
            return e;
    } else {
        e = read_external(uri->valuestring, base_dir, (size_t)length, pointer, out, d);
        if (e != LAB_OK)
            return e;
    }
    if (out->size < (size_t)length)
        return gltf_fail_at(d, at, "byteLength %ld but only %zu bytes are there", length, out->size);
    out->size = (size_t)length;
    return LAB_OK;
}

/* ---- parsing the arrays ---------------------------------------------------------------------- */

static lab_error parse_view(const cJSON *v, int i, gltf_view *out, lab_diag *d)
{
    char at[64];
    snprintf(at, sizeof at, "/bufferViews/%d", i);
    long buffer = 0, offset = 0, length = 0, stride = 0;
    lab_error e = get_int(v, "buffer", 0, 1L << 30, true, 0, &buffer, at, d);
    if (e == LAB_OK) e = get_int(v, "byteOffset", 0, GLTF_MAX_FILE, false, 0, &offset, at, d);
    if (e == LAB_OK) e = get_int(v, "byteLength", 1, GLTF_MAX_FILE, true, 0, &length, at, d);
    if (e == LAB_OK) e = get_int(v, "byteStride", 4, 252, false, 0, &stride, at, d);
    *out = (gltf_view){(int)buffer, (size_t)offset, (size_t)length, (size_t)stride, {0}};
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(v, "extensions"),
                                                      "EXT_meshopt_compression");
    if (e != LAB_OK || !m)
        return e;
    /* EXT_meshopt_compression: the compressed bytes and how they decode (gltf_meshopt.c) */
    char sub[128];
    snprintf(sub, sizeof sub, "%s/extensions/EXT_meshopt_compression", at);
    long count = 0;
    e = get_int(m, "buffer", 0, 1L << 30, true, 0, &buffer, sub, d);
    if (e == LAB_OK) e = get_int(m, "byteOffset", 0, GLTF_MAX_FILE, false, 0, &offset, sub, d);
    if (e == LAB_OK) e = get_int(m, "byteLength", 1, GLTF_MAX_FILE, true, 0, &length, sub, d);
    if (e == LAB_OK) e = get_int(m, "byteStride", 1, 256, true, 0, &stride, sub, d);
    if (e == LAB_OK) e = get_int(m, "count", 1, GLTF_MAX_FILE, true, 0, &count, sub, d);
    static const char *const modes[] = {"ATTRIBUTES", "TRIANGLES", "INDICES"};
    static const char *const filters[] = {"NONE", "OCTAHEDRAL", "QUATERNION", "EXPONENTIAL"};
    const cJSON *mode = cJSON_GetObjectItemCaseSensitive(m, "mode"), *filter = cJSON_GetObjectItemCaseSensitive(m, "filter");
    int mode_k = -1, filter_k = filter ? -1 : 0;
    for (int k = 0; k < 3; k++)
        mode_k = cJSON_IsString(mode) && !strcmp(mode->valuestring, modes[k]) ? k : mode_k;
    for (int k = 0; k < 4; k++)
        filter_k = cJSON_IsString(filter) && !strcmp(filter->valuestring, filters[k]) ? k : filter_k;
    if (e == LAB_OK && mode_k < 0)
        e = gltf_fail_at(d, sub, "mode must be ATTRIBUTES, TRIANGLES or INDICES");
    if (e == LAB_OK && filter_k < 0)
        e = gltf_fail_at(d, sub, "filter \"%.40s\" is not NONE, OCTAHEDRAL, QUATERNION or EXPONENTIAL",
                         cJSON_IsString(filter) ? filter->valuestring : "?");
    out->meshopt = (gltf_meshopt){true, (int)buffer, (size_t)offset, (size_t)length, (size_t)stride, count,
                                  (gltf_meshopt_mode)mode_k, (gltf_meshopt_filter)filter_k};
    return e;
}

static int type_components(const char *type)
{
    static const struct { const char *name; int n; } types[] = {
        {"SCALAR", 1}, {"VEC2", 2}, {"VEC3", 3}, {"VEC4", 4}, {"MAT2", 4}, {"MAT3", 9}, {"MAT4", 16}};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (!strcmp(type, types[i].name))
            return types[i].n;
    return 0;
}


static lab_error parse_sparse(const cJSON *s, const char *at, gltf_accessor *a, lab_diag *d)
{
    char sub[128];
    long count = 0, view = 0, offset = 0, type = 0;
    lab_error e = get_int(s, "count", 1, 1L << 30, true, 0, &count, at, d);
    const cJSON *idx = cJSON_GetObjectItemCaseSensitive(s, "indices");
    const cJSON *val = cJSON_GetObjectItemCaseSensitive(s, "values");
    if (e == LAB_OK && (!cJSON_IsObject(idx) || !cJSON_IsObject(val)))
        return gltf_fail_at(d, at, "sparse needs indices and values objects");
    snprintf(sub, sizeof sub, "%s/indices", at);
    if (e == LAB_OK) e = get_int(idx, "bufferView", 0, 1L << 30, true, 0, &view, sub, d);
    if (e == LAB_OK) e = get_int(idx, "byteOffset", 0, GLTF_MAX_FILE, false, 0, &offset, sub, d);
    if (e == LAB_OK) e = get_int(idx, "componentType", 5121, 5125, true, 0, &type, sub, d);
    if (e == LAB_OK && type != 5121 && type != 5123 && type != 5125)
        return gltf_fail_at(d, sub, "componentType %ld: sparse indices are unsigned byte, short or int", type);
    if (e != LAB_OK)
        return e;
    a->sparse_count = (int)count;
    a->sparse_index_view = (int)view;
    a->sparse_index_offset = (size_t)offset;
    a->sparse_index_type = (int)type;
    snprintf(sub, sizeof sub, "%s/values", at);
    e = get_int(val, "bufferView", 0, 1L << 30, true, 0, &view, sub, d);
    if (e == LAB_OK) e = get_int(val, "byteOffset", 0, GLTF_MAX_FILE, false, 0, &offset, sub, d);
    a->sparse_value_view = (int)view;
    a->sparse_value_offset = (size_t)offset;
    return e;
}

static lab_error parse_accessor(const cJSON *j, int i, gltf_accessor *a, lab_diag *d)
{
    char at[64];
    snprintf(at, sizeof at, "/accessors/%d", i);
    long view = 0, offset = 0, type = 0, count = 0;
    lab_error e = get_int(j, "bufferView", 0, 1L << 30, false, -1, &view, at, d);
    if (e == LAB_OK) e = get_int(j, "byteOffset", 0, GLTF_MAX_FILE, false, 0, &offset, at, d);
    if (e == LAB_OK) e = get_int(j, "componentType", 5120, 5126, true, 0, &type, at, d);
    if (e == LAB_OK) e = get_int(j, "count", 1, 1L << 30, true, 0, &count, at, d);
    if (e != LAB_OK)
        return e;
    if (gltf_component_size((int)type) == 0)
        return gltf_fail_at(d, at, "componentType %ld is not a glTF component type", type);
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(j, "type");
    int n = cJSON_IsString(t) ? type_components(t->valuestring) : 0;
    if (n == 0)
        return gltf_fail_at(d, at, "type must be SCALAR, VEC2, VEC3, VEC4, MAT2, MAT3 or MAT4");
    const cJSON *norm = cJSON_GetObjectItemCaseSensitive(j, "normalized");
    if (cJSON_IsTrue(norm) && (type == 5126 || type == 5125)) {
        char sub[96];
        snprintf(sub, sizeof sub, "%s/normalized", at);
        return gltf_fail_at(d, sub, "must not be true for componentType %ld (FLOAT or UNSIGNED_INT)", type);
    }
    *a = (gltf_accessor){(int)view, (size_t)offset, (int)type, n, cJSON_IsTrue(norm), (int)count,
                         0, -1, 0, 0, -1, 0, false, false, {0}, {0}};
    const cJSON *lo = cJSON_GetObjectItemCaseSensitive(j, "min"), *hi = cJSON_GetObjectItemCaseSensitive(j, "max");
    a->has_bounds = n == 3 && cJSON_GetArraySize(lo) == 3 && cJSON_GetArraySize(hi) == 3;
    for (int k = 0; a->has_bounds && k < 3; k++) { /* kept as declared: a check compares decoded data with them */
        const cJSON *l = cJSON_GetArrayItem(lo, k), *h = cJSON_GetArrayItem(hi, k);
        a->has_bounds = cJSON_IsNumber(l) && cJSON_IsNumber(h);
        a->min[k] = a->has_bounds ? l->valuedouble : 0, a->max[k] = a->has_bounds ? h->valuedouble : 0;
    }
    const cJSON *sparse = cJSON_GetObjectItemCaseSensitive(j, "sparse");
    if (sparse) {
        char sub[96];
        snprintf(sub, sizeof sub, "%s/sparse", at);
        return cJSON_IsObject(sparse) ? parse_sparse(sparse, sub, a, d) : gltf_fail_at(d, sub, "must be an object");
    }
    return LAB_OK;
}

/* An optional array of finite numbers under key (NULL and 0 when absent); non_empty: an
 * empty array is refused. */
static lab_error parse_numbers_any(const cJSON *obj, const char *key, bool non_empty, double **out, int *count,
                                   const char *pointer, lab_diag *d)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(obj, key);
    *count = 0;
    *out = NULL;
    if (!a)
        return LAB_OK;
    if (!cJSON_IsArray(a) || (non_empty && cJSON_GetArraySize(a) == 0))
        return gltf_fail_at(d, pointer, "must be a%s array of numbers", non_empty ? " non-empty" : "n");
    *count = cJSON_GetArraySize(a);
    if (!(*out = alloc_array((size_t)*count, sizeof(double))))
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, pointer, "%d numbers", *count);
    int k = 0;
    for (const cJSON *e = a->child; e; e = e->next, k++) {
        if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble))
            return gltf_fail_at(d, pointer, "element %d is not a finite number", k);
        (*out)[k] = e->valuedouble;
    }
    return LAB_OK;
}

/* An optional array of indices (children, joints). */
static lab_error parse_int_list(const cJSON *obj, const char *key, int **out, int *count, const char *at,
                                lab_diag *d)
{
    char pointer[160];
    snprintf(pointer, sizeof pointer, "%s/%s", at, key);
    double *values = NULL;
    *out = NULL;
    lab_error e = parse_numbers_any(obj, key, false, &values, count, pointer, d);
    if (e == LAB_OK && values && !(*out = alloc_array((size_t)*count, sizeof(int))))
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, pointer, "%d indices", *count);
    for (int k = 0; e == LAB_OK && values && k < *count; k++) {
        if (values[k] != floor(values[k]) || values[k] < 0 || values[k] > (1 << 30))
            e = gltf_fail_at(d, pointer, "element %d is not an index", k);
        else
            (*out)[k] = (int)values[k];
    }
    free(values);
    return e;
}

/* An optional non-empty array of finite numbers (morph weights). */
static lab_error parse_number_list(const cJSON *obj, const char *key, double **out, int *count, const char *at,
                                   lab_diag *d)
{
    char pointer[160];
    snprintf(pointer, sizeof pointer, "%s/%s", at, key);
    return parse_numbers_any(obj, key, true, out, count, pointer, d);
}

/* An object's optional "name" (a string) into *out (NULL when it has none). */
static lab_error parse_name(const cJSON *j, const char *at, char **out, lab_diag *d)
{
    char sub[128];
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(j, "name");
    *out = NULL;
    if (name && !cJSON_IsString(name)) {
        snprintf(sub, sizeof sub, "%s/name", at);
        return gltf_fail_at(d, sub, "must be a string");
    }
    if (name && !(*out = malloc(strlen(name->valuestring) + 1)))
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, at, "%s", "its name");
    if (name)
        strcpy(*out, name->valuestring);
    return LAB_OK;
}

static lab_error parse_node(const cJSON *j, int i, gltf_node *n, lab_diag *d)
{
    char at[64];
    snprintf(at, sizeof at, "/nodes/%d", i);
    long mesh = 0, skin = 0;
    static const double zero[3] = {0, 0, 0}, one[3] = {1, 1, 1}, identity_q[4] = {0, 0, 0, 1};
    double t[3] = {0}, s[3] = {0}, r[4] = {0}, m[16] = {0};
    lab_error e = get_int(j, "mesh", 0, 1L << 30, false, -1, &mesh, at, d);
    if (e == LAB_OK) e = get_int(j, "skin", 0, 1L << 30, false, -1, &skin, at, d);
    if (e == LAB_OK) e = get_numbers(j, "translation", 3, zero, t, at, d);
    if (e == LAB_OK) e = get_numbers(j, "scale", 3, one, s, at, d);
    if (e == LAB_OK) e = get_numbers(j, "rotation", 4, identity_q, r, at, d);
    n->parent = -1;
    n->mesh = (int)mesh;
    n->skin = (int)skin;
    n->translation = vec3_make(t[0], t[1], t[2]);
    n->scale = vec3_make(s[0], s[1], s[2]);
    n->rotation = quat_normalize((quat){r[3], r[0], r[1], r[2]}); /* glTF: x, y, z, w */
    double length = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
    char sub[96];
    snprintf(sub, sizeof sub, "%s/rotation", at);
    if (e == LAB_OK && isfinite(length) && !(length > 1e-6)) /* non-finite: validation names it */
        e = gltf_fail_at(d, sub, "length %g: a rotation must be a unit quaternion", length);
    n->has_matrix = cJSON_GetObjectItemCaseSensitive(j, "matrix") != NULL;
    static const char *const trs_keys[3] = {"translation", "rotation", "scale"};
    for (int k = 0; e == LAB_OK && n->has_matrix && k < 3; k++)
        if (cJSON_GetObjectItemCaseSensitive(j, trs_keys[k])) {
            snprintf(sub, sizeof sub, "%s/%s", at, trs_keys[k]);
            e = gltf_fail_at(d, sub, "a node with a matrix must not also have translation, rotation or scale");
        }
    if (e == LAB_OK && n->has_matrix && (e = get_numbers(j, "matrix", 16, NULL, m, at, d)) == LAB_OK)
        for (int c = 0; c < 4; c++)
            for (int row = 0; row < 4; row++)
                n->matrix.m[row][c] = m[4 * c + row]; /* column-major -> row-major */
    if (e == LAB_OK)
        e = parse_int_list(j, "children", &n->children, &n->child_count, at, d);
    if (e == LAB_OK)
        e = parse_number_list(j, "weights", &n->weights, &n->weight_count, at, d);
    if (e == LAB_OK)
        e = parse_name(j, at, &n->name, d);
    return e;
}

static lab_error parse_skin(const cJSON *j, int i, gltf_skin *s, lab_diag *d)
{
    char at[64];
    snprintf(at, sizeof at, "/skins/%d", i);
    long ibm = 0, skeleton = 0;
    lab_error e = get_int(j, "inverseBindMatrices", 0, 1L << 30, false, -1, &ibm, at, d);
    if (e == LAB_OK) e = get_int(j, "skeleton", 0, 1L << 30, false, -1, &skeleton, at, d);
    if (e == LAB_OK) e = parse_int_list(j, "joints", &s->joints, &s->joint_count, at, d);
    if (e == LAB_OK && s->joint_count == 0)
        return gltf_fail_at(d, at, "joints must list at least one node");
    s->inverse_bind = (int)ibm;
    s->skeleton = (int)skeleton;
    return e;
}

/* A morph target's attributes (glTF 2.0, 3.7.2.2 and the schema): at least one; each
 * POSITION, NORMAL, TANGENT, TEXCOORD_n, COLOR_n or application-specific (a leading
 * underscore); each an accessor index. Only POSITION and NORMAL are read afterwards. */
static lab_error check_target_attributes(const cJSON *target, const char *at, lab_diag *d)
{
    if (!target->child)
        return gltf_fail_at(d, at, "a morph target must have at least one attribute");
    for (const cJSON *a = target->child; a; a = a->next) {
        const char *name = a->string;
        size_t digits = 0, prefix = strncmp(name, "TEXCOORD_", 9) == 0 ? 9 : strncmp(name, "COLOR_", 6) == 0 ? 6 : 0;
        while (prefix && isdigit((unsigned char)name[prefix + digits]))
            digits++;
        bool known = strcmp(name, "POSITION") == 0 || strcmp(name, "NORMAL") == 0 || strcmp(name, "TANGENT") == 0 ||
                     (prefix && digits > 0 && name[prefix + digits] == '\0') || name[0] == '_';
        if (!known)
            return gltf_fail_at(d, at, "attribute \"%s\": a morph target's attributes are POSITION, NORMAL, TANGENT, "
                                "TEXCOORD_n, COLOR_n or start with an underscore", name);
        long index = 0;
        lab_error e = get_int(target, name, 0, 1L << 30, true, 0, &index, at, d);
        if (e != LAB_OK)
            return e;
    }
    return LAB_OK;
}

/* The attributes a skinning reader needs: POSITION, NORMAL, JOINTS_n, WEIGHTS_n; and the
 * morph targets (their POSITION and NORMAL deltas). */
/* KHR_draco_mesh_compression on a primitive: its bufferView, and the Draco attribute ids of
 * the attributes this reader uses (the others stay undecoded: nothing reads them). */
static lab_error parse_draco(const cJSON *j, const char *at, gltf_primitive *p, lab_diag *d)
{
    gltf_draco *g = &p->draco;
    g->view = g->position = g->normal = -1;
    for (int s = 0; s < GLTF_MAX_SETS; s++)
        g->joints[s] = g->weights[s] = -1;
    const cJSON *ext = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(j, "extensions"),
                                                        "KHR_draco_mesh_compression");
    if (!ext)
        return LAB_OK;
    char sub[192], attr_at[224];
    snprintf(sub, sizeof sub, "%s/extensions/KHR_draco_mesh_compression", at);
    snprintf(attr_at, sizeof attr_at, "%s/attributes", sub);
    long view = -1, id = -1;
    lab_error e = get_int(ext, "bufferView", 0, 1L << 30, true, 0, &view, sub, d);
    const cJSON *attributes = cJSON_GetObjectItemCaseSensitive(ext, "attributes");
    if (e == LAB_OK && !cJSON_IsObject(attributes))
        return gltf_fail_at(d, sub, "attributes must be an object");
    g->view = (int)view;
    if (e == LAB_OK) e = get_int(attributes, "POSITION", 0, 1L << 30, false, -1, &id, attr_at, d);
    g->position = (int)id;
    if (e == LAB_OK) e = get_int(attributes, "NORMAL", 0, 1L << 30, false, -1, &id, attr_at, d);
    g->normal = (int)id;
    for (int s = 0; e == LAB_OK && s < p->sets; s++) {
        char name[16];
        snprintf(name, sizeof name, "JOINTS_%d", s);
        e = get_int(attributes, name, 0, 1L << 30, false, -1, &id, attr_at, d);
        g->joints[s] = (int)id;
        snprintf(name, sizeof name, "WEIGHTS_%d", s);
        if (e == LAB_OK)
            e = get_int(attributes, name, 0, 1L << 30, false, -1, &id, attr_at, d);
        g->weights[s] = (int)id;
    }
    return e;
}

static lab_error parse_primitive(const cJSON *j, const char *at, gltf_primitive *p, lab_diag *d)
{
    long idx = 0, v = 0;
    char sub[128];
    lab_error e = get_int(j, "indices", 0, 1L << 30, false, -1, &idx, at, d);
    const cJSON *attr = cJSON_GetObjectItemCaseSensitive(j, "attributes");
    snprintf(sub, sizeof sub, "%s/attributes", at);
    if (e == LAB_OK && !cJSON_IsObject(attr))
        return gltf_fail_at(d, sub, "required object is missing");
    if (e == LAB_OK) e = get_int(attr, "POSITION", 0, 1L << 30, true, 0, &v, sub, d);
    if (e != LAB_OK)
        return e;
    long normal = -1, mode = GLTF_TRIANGLES;
    e = get_int(attr, "NORMAL", 0, 1L << 30, false, -1, &normal, sub, d);
    if (e == LAB_OK)
        e = get_int(j, "mode", GLTF_POINTS, GLTF_TRIANGLE_FAN, false, GLTF_TRIANGLES, &mode, at, d);
    if (e != LAB_OK)
        return e;
    *p = (gltf_primitive){.position = (int)v, .indices = (int)idx, .normal = (int)normal, .mode = (gltf_mode)mode};
    const cJSON *targets = cJSON_GetObjectItemCaseSensitive(j, "targets");
    snprintf(sub, sizeof sub, "%s/targets", at);
    if (targets && (!cJSON_IsArray(targets) || cJSON_GetArraySize(targets) == 0))
        return gltf_fail_at(d, sub, "must be a non-empty array of objects");
    p->target_count = targets ? cJSON_GetArraySize(targets) : 0;
    if (p->target_count && !(p->targets = alloc_array((size_t)p->target_count, sizeof *p->targets)))
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, sub, "%d targets", p->target_count);
    int t = 0;
    for (const cJSON *target = targets ? targets->child : NULL; target; target = target->next, t++) {
        char tat[160];
        long tp = -1, tn = -1;
        snprintf(tat, sizeof tat, "%s/targets/%d", at, t);
        e = cJSON_IsObject(target) ? check_target_attributes(target, tat, d) : gltf_fail_at(d, tat, "must be an object");
        if (e == LAB_OK)
            e = get_int(target, "POSITION", 0, 1L << 30, false, -1, &tp, tat, d);
        if (e == LAB_OK)
            e = get_int(target, "NORMAL", 0, 1L << 30, false, -1, &tn, tat, d);
        if (e != LAB_OK)
            return e;
        p->targets[t] = (gltf_target){(int)tp, (int)tn};
    }
    snprintf(sub, sizeof sub, "%s/attributes", at);
    for (int s = 0; s < GLTF_MAX_SETS; s++) {
        char jk[16], wk[16];
        long jv = 0, wv = 0;
        snprintf(jk, sizeof jk, "JOINTS_%d", s);
        snprintf(wk, sizeof wk, "WEIGHTS_%d", s);
        e = get_int(attr, jk, 0, 1L << 30, false, -1, &jv, sub, d);
        if (e == LAB_OK) e = get_int(attr, wk, 0, 1L << 30, false, -1, &wv, sub, d);
        if (e != LAB_OK)
            return e;
        if ((jv < 0) != (wv < 0))
            return gltf_fail_at(d, sub, "%s and %s must come together", jk, wk);
        if (jv < 0)
            break;
        p->joints[s] = (int)jv;
        p->weights[s] = (int)wv;
        p->sets = s + 1;
    }
    return parse_draco(j, at, p, d);
}

static lab_error parse_mesh(const cJSON *j, int i, gltf_mesh *m, lab_diag *d)
{
    char at[64], sub[96];
    snprintf(at, sizeof at, "/meshes/%d", i);
    const cJSON *prims = cJSON_GetObjectItemCaseSensitive(j, "primitives");
    if (!cJSON_IsArray(prims) || cJSON_GetArraySize(prims) == 0)
        return gltf_fail_at(d, at, "primitives must be a non-empty array");
    m->primitive_count = cJSON_GetArraySize(prims);
    if (!(m->primitives = alloc_array((size_t)m->primitive_count, sizeof *m->primitives)))
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, at, "%d primitives", m->primitive_count);
    int k = 0;
    for (const cJSON *p = prims->child; p; p = p->next, k++) {
        snprintf(sub, sizeof sub, "%s/primitives/%d", at, k);
        lab_error e = cJSON_IsObject(p) ? parse_primitive(p, sub, &m->primitives[k], d)
                                        : gltf_fail_at(d, sub, "must be an object");
        if (e != LAB_OK)
            return e;
    }
    return parse_number_list(j, "weights", &m->weights, &m->weight_count, at, d);
}

static lab_error parse_animation(const cJSON *j, int i, gltf_animation *a, lab_diag *d)
{
    char at[64], sub[128];
    snprintf(at, sizeof at, "/animations/%d", i);
    const cJSON *samplers = cJSON_GetObjectItemCaseSensitive(j, "samplers");
    const cJSON *channels = cJSON_GetObjectItemCaseSensitive(j, "channels");
    if (!cJSON_IsArray(samplers) || !cJSON_IsArray(channels))
        return gltf_fail_at(d, at, "samplers and channels must be arrays");
    lab_error named = parse_name(j, at, &a->name, d);
    if (named != LAB_OK)
        return named;
    a->sampler_count = cJSON_GetArraySize(samplers);
    a->channel_count = cJSON_GetArraySize(channels);
    a->samplers = alloc_array((size_t)a->sampler_count, sizeof *a->samplers);
    a->channels = alloc_array((size_t)a->channel_count, sizeof *a->channels);
    if (!a->samplers || !a->channels)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, at, "%s", "animation");
    int k = 0;
    for (const cJSON *s = samplers->child; s; s = s->next, k++) {
        long in = 0, out = 0;
        snprintf(sub, sizeof sub, "%s/samplers/%d", at, k);
        lab_error e = get_int(s, "input", 0, 1L << 30, true, 0, &in, sub, d);
        if (e == LAB_OK) e = get_int(s, "output", 0, 1L << 30, true, 0, &out, sub, d);
        if (e != LAB_OK)
            return e;
        const cJSON *interp = cJSON_GetObjectItemCaseSensitive(s, "interpolation");
        const char *name = cJSON_IsString(interp) ? interp->valuestring : interp ? "" : "LINEAR";
        gltf_interpolation mode = !strcmp(name, "STEP") ? GLTF_STEP : !strcmp(name, "CUBICSPLINE") ? GLTF_CUBICSPLINE : GLTF_LINEAR;
        if (strcmp(name, "STEP") && strcmp(name, "LINEAR") && strcmp(name, "CUBICSPLINE"))
            return gltf_fail_at(d, sub, "interpolation must be STEP, LINEAR or CUBICSPLINE");
        a->samplers[k] = (gltf_sampler){(int)in, (int)out, mode};
    }
    k = 0;
    for (const cJSON *c = channels->child; c; c = c->next, k++) {
        long sampler = 0, node = 0;
        snprintf(sub, sizeof sub, "%s/channels/%d", at, k);
        const cJSON *target = cJSON_GetObjectItemCaseSensitive(c, "target");
        lab_error e = get_int(c, "sampler", 0, 1L << 30, true, 0, &sampler, sub, d);
        if (e == LAB_OK && !cJSON_IsObject(target))
            return gltf_fail_at(d, sub, "target must be an object");
        char tat[160];
        snprintf(tat, sizeof tat, "%s/target", sub);
        if (e == LAB_OK) e = get_int(target, "node", 0, 1L << 30, true, 0, &node, tat, d);
        if (e != LAB_OK)
            return e;
        const cJSON *path = cJSON_GetObjectItemCaseSensitive(target, "path");
        const char *p = cJSON_IsString(path) ? path->valuestring : "";
        static const char *const paths[4] = {"translation", "rotation", "scale", "weights"};
        int found = -1;
        for (int q = 0; q < 4; q++)
            if (!strcmp(p, paths[q]))
                found = q;
        if (found < 0)
            return gltf_fail_at(d, tat, "path must be translation, rotation, scale or weights");
        a->channels[k] = (gltf_channel){(int)sampler, (int)node, (gltf_path)found};
    }
    return LAB_OK;
}

/* Allocates *out (count elements) and runs parse on each element of array `key`. */
#define PARSE_ALL(root, key, out, count, parse)                                                  \
    do {                                                                                         \
        const cJSON *arr_ = NULL;                                                                \
        if (e == LAB_OK) e = get_array(root, key, &arr_, &(count), d);                           \
        if (e == LAB_OK && !((out) = alloc_array((size_t)(count), sizeof *(out))))               \
            e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, key, "%d elements", count);                 \
        int i_ = 0;                                                                              \
        for (const cJSON *el_ = arr_ ? arr_->child : NULL; e == LAB_OK && el_; el_ = el_->next, i_++) \
            e = parse(el_, i_, &(out)[i_], d);                                                   \
    } while (0)

/* The scenes are not drawn here, but their node indices and the default scene must exist. */
static lab_error check_scenes(const cJSON *root, int node_count, lab_diag *d)
{
    const cJSON *scenes;
    int count = 0;
    lab_error e = get_array(root, "scenes", &scenes, &count, d);
    long scene = 0;
    if (e == LAB_OK)
        e = get_int(root, "scene", 0, count > 0 ? count - 1 : -1, false, 0, &scene, "", d);
    int i = 0;
    for (const cJSON *s = scenes ? scenes->child : NULL; e == LAB_OK && s; s = s->next, i++) {
        char at[64];
        snprintf(at, sizeof at, "/scenes/%d", i);
        int *nodes = NULL, n = 0;
        e = parse_int_list(s, "nodes", &nodes, &n, at, d);
        for (int k = 0; e == LAB_OK && k < n; k++)
            if (nodes[k] >= node_count) {
                snprintf(at, sizeof at, "/scenes/%d/nodes/%d", i, k);
                e = gltf_fail_at(d, at, "node %d of %d", nodes[k], node_count);
            }
        free(nodes);
    }
    return e;
}

/* JSON is UTF-8 (RFC 8259, 8.1): every string and key of the asset must be valid UTF-8, or
 * it is refused at its JSON pointer (pointer holds the item's, len bytes of it). */
static lab_error check_strings(const cJSON *item, char *pointer, size_t len, size_t size, lab_diag *d)
{
    if (cJSON_IsString(item) && item->valuestring) {
        long bad = text_utf8_invalid(item->valuestring, strlen(item->valuestring));
        if (bad >= 0)
            return gltf_fail_at(d, len ? pointer : "(document)", "byte %ld of the string is 0x%02x, not UTF-8: "
                                "JSON text is UTF-8 (RFC 8259)", bad, (unsigned char)item->valuestring[bad]);
    }
    int k = 0;
    for (const cJSON *c = item->child; c; c = c->next, k++) {
        char step[32];
        size_t at = len;
        if (cJSON_IsObject(item) && c->string) {
            long bad = text_utf8_invalid(c->string, strlen(c->string));
            if (bad >= 0)
                return gltf_fail_at(d, len ? pointer : "(document)", "a key's byte %ld is 0x%02x, not UTF-8: JSON "
                                    "text is UTF-8 (RFC 8259)", bad, (unsigned char)c->string[bad]);
            if (at + 1 < size)
                pointer[at++] = '/';
            for (const char *ch = c->string; *ch && at + 2 < size; ch++) /* RFC 6901: ~ as ~0, / as ~1 */
                if (*ch == '~' || *ch == '/')
                    pointer[at++] = '~', pointer[at++] = *ch == '~' ? '0' : '1';
                else
                    pointer[at++] = *ch;
        } else {
            snprintf(step, sizeof step, "/%d", k);
            for (const char *ch = step; *ch && at + 1 < size; ch++)
                pointer[at++] = *ch;
        }
        pointer[at] = '\0'; /* a pointer longer than the buffer is cut: the error still names its start */
        lab_error e = check_strings(c, pointer, at, size, d);
        pointer[len] = '\0';
        if (e != LAB_OK)
            return e;
    }
    return LAB_OK;
}

/* What cJSON's tree of json (n bytes) would take, from one pass over the text: a node of
 * about GLTF_JSON_NODE_BYTES for every object, array, string, number, true, false and
 * null, and a copy of every string and key. Strings are skipped whole (their escapes
 * with them), so a bracket inside one counts nothing. */
static size_t json_tree_bytes(const uint8_t *json, size_t n)
{
    size_t bytes = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = json[i];
        if (c == '"') { /* a string value or a key: a copy of it, and a node when a value */
            size_t start = i++;
            while (i < n && json[i] != '"')
                i += json[i] == '\\' ? 2 : 1;
            size_t after = i + 1;
            while (after < n && (json[after] == ' ' || json[after] == '\t' || json[after] == '\n' || json[after] == '\r'))
                after++;
            bytes += (i - start) + GLTF_JSON_STRING_BYTES + (after < n && json[after] == ':' ? 0 : GLTF_JSON_NODE_BYTES);
        } else if (c == '{' || c == '[' || c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f' || c == 'n') {
            bytes += GLTF_JSON_NODE_BYTES;
            while (c != '{' && c != '[' && i + 1 < n && strchr("0123456789+-.eEtrufalsn", json[i + 1]))
                i++; /* the rest of the scalar */
        }
    }
    return bytes;
}

/* A string escape \u0000 would end the name it is in (a C string): the reader refuses it,
 * at its byte. Escapes come in pairs, so a backslash's partner is skipped. */
static lab_error check_no_nul_escape(const uint8_t *json, size_t n, lab_diag *d)
{
    for (size_t i = 0; i + 1 < n; i++)
        if (json[i] == '\\') {
            if (json[i + 1] == 'u' && i + 6 <= n && !memcmp(json + i + 2, "0000", 4))
                return gltf_fail_at(d, "(document)", "byte %zu of the JSON: a string holds \\u0000 (U+0000), which "
                                    "would cut the name it is in: this reader refuses it", i);
            i++;
        }
    return LAB_OK;
}

const char *const gltf_read_extensions[] = {"KHR_mesh_quantization", "EXT_meshopt_compression",
                                            "KHR_draco_mesh_compression", NULL};

static bool reads_extension(const char *name)
{
    for (int k = 0; gltf_read_extensions[k]; k++)
        if (!strcmp(name, gltf_read_extensions[k]))
            return true;
    return false;
}

/* extensionsRequired: each one this reader reads, or the asset is refused naming it;
 * extensionsUsed: the ones it does not read, named in doc->unread_extensions (ignored). */
static lab_error read_extensions(const cJSON *root, gltf_document *doc, lab_diag *d)
{
    char at[64];
    bytes unread = {0};
    for (int list = 0; list < 2; list++) {
        const char *key = list == 0 ? "extensionsRequired" : "extensionsUsed";
        const cJSON *names = cJSON_GetObjectItemCaseSensitive(root, key), *name;
        if (names && !cJSON_IsArray(names)) {
            bytes_free(&unread);
            snprintf(at, sizeof at, "/%s", key);
            return gltf_fail_at(d, at, "must be an array of strings");
        }
        int k = 0;
        cJSON_ArrayForEach(name, names) {
            snprintf(at, sizeof at, "/%s/%d", key, k++);
            if (!cJSON_IsString(name)) {
                bytes_free(&unread);
                return gltf_fail_at(d, at, "must be a string");
            }
            doc->quantized |= !strcmp(name->valuestring, "KHR_mesh_quantization");
            if (reads_extension(name->valuestring))
                continue;
            if (list == 0) { /* required: the asset cannot be read without it */
                bytes_free(&unread);
                return diag_fail(d, LAB_ERR_GLTF_EXTENSION, at, "uses \"%.60s\", which this reader does not read "
                                 "(it reads KHR_mesh_quantization, EXT_meshopt_compression and KHR_draco_mesh_compression)", name->valuestring);
            }
            bytes_printf(&unread, "%s%s", unread.len ? ", " : "", name->valuestring);
        }
    }
    if (unread.failed)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "/extensionsUsed", "their names");
    doc->unread_extensions = unread.len ? (char *)unread.data : NULL;
    if (!unread.len)
        bytes_free(&unread);
    return LAB_OK;
}

/* Whether extensionsUsed lists name. */
static bool declared(const cJSON *root, const char *name)
{
    const cJSON *item;
    cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(root, "extensionsUsed"))
        if (cJSON_IsString(item) && !strcmp(item->valuestring, name))
            return true;
    return false;
}

/* An extension this reader acts on, used in one of objects[i].extensions (or, with
 * `inner`, in objects[i].inner[k].extensions) without extensionsUsed listing it: refused
 * with its JSON pointer (glTF 2.0, 3.12: every extension used must be listed in
 * extensionsUsed; the Khronos validator's UNDECLARED_EXTENSION). */
static lab_error undeclared_in(const cJSON *root, const char *array, const char *inner, lab_diag *d)
{
    const cJSON *object;
    int i = 0;
    cJSON_ArrayForEach(object, cJSON_GetObjectItemCaseSensitive(root, array)) {
        const cJSON *list = inner ? cJSON_GetObjectItemCaseSensitive(object, inner) : NULL, *item;
        int k = 0;
        for (item = inner ? (cJSON_IsArray(list) ? list->child : NULL) : object; item; item = inner ? item->next : NULL, k++) {
            for (int x = 0; gltf_read_extensions[x]; x++) {
                const char *name = gltf_read_extensions[x];
                if (!cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(item, "extensions"), name) ||
                    declared(root, name))
                    continue;
                char at[160];
                if (inner)
                    snprintf(at, sizeof at, "/%s/%d/%s/%d/extensions/%s", array, i, inner, k, name);
                else
                    snprintf(at, sizeof at, "/%s/%d/extensions/%s", array, i, name);
                return gltf_fail_at(d, at, "uses %s, which extensionsUsed does not list (glTF 2.0: every "
                                    "extension used must be listed there)", name);
            }
            if (!inner)
                break;
        }
        i++;
    }
    return LAB_OK;
}

static lab_error parse_json(const cJSON *root, const char *base_dir, const uint8_t *bin,
                            size_t bin_size, gltf_document *doc, lab_diag *d)
{
    lab_error e = LAB_OK;
    const cJSON *asset = cJSON_GetObjectItemCaseSensitive(root, "asset");
    const cJSON *version = cJSON_GetObjectItemCaseSensitive(asset, "version");
    if (!cJSON_IsString(version) || strncmp(version->valuestring, "2.", 2) != 0)
        return gltf_fail_at(d, "/asset/version", "must be a string \"2.x\"");
    e = read_extensions(root, doc, d);
    if (e == LAB_OK)
        e = undeclared_in(root, "buffers", NULL, d);
    if (e == LAB_OK)
        e = undeclared_in(root, "bufferViews", NULL, d);
    if (e == LAB_OK)
        e = undeclared_in(root, "meshes", "primitives", d);
    if (e != LAB_OK)
        return e;
    const cJSON *buffers;
    e = get_array(root, "buffers", &buffers, &doc->buffer_count, d);
    if (e == LAB_OK && !(doc->buffers = alloc_array((size_t)doc->buffer_count, sizeof *doc->buffers)))
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "/buffers", "%d", doc->buffer_count);
    int i = 0;
    for (const cJSON *b = buffers ? buffers->child : NULL; e == LAB_OK && b; b = b->next, i++)
        e = load_buffer(b, i, base_dir, bin, bin_size, &doc->buffers[i], d);
    doc->parsed_buffer_count = doc->buffer_count;
    PARSE_ALL(root, "bufferViews", doc->views, doc->view_count, parse_view);
    PARSE_ALL(root, "accessors", doc->accessors, doc->accessor_count, parse_accessor);
    PARSE_ALL(root, "nodes", doc->nodes, doc->node_count, parse_node);
    PARSE_ALL(root, "skins", doc->skins, doc->skin_count, parse_skin);
    PARSE_ALL(root, "meshes", doc->meshes, doc->mesh_count, parse_mesh);
    PARSE_ALL(root, "animations", doc->animations, doc->animation_count, parse_animation);
    if (e == LAB_OK)
        e = check_scenes(root, doc->node_count, d);
    return e;
}

/* GLB: 12-byte header ("glTF", version 2, length), then a JSON chunk and an optional BIN. */
static lab_error split_glb(const uint8_t *data, size_t size, const uint8_t **json, size_t *json_size,
                           const uint8_t **bin, size_t *bin_size, lab_diag *d)
{
    uint32_t h[5];
    if (size < 20)
        return gltf_fail_at(d, "(glb header)", "%zu bytes, a GLB needs at least 20", size);
    memcpy(h, data, sizeof h);
    if (h[1] != 2 || h[2] > size || h[2] < 20)
        return gltf_fail_at(d, "(glb header)", "version %u, length %u of %zu bytes", h[1], h[2], size);
    size = h[2];
    if (h[4] != 0x4E4F534Au || h[3] > size - 20)
        return gltf_fail_at(d, "(glb JSON chunk)", "byte 12: chunk type 0x%08x, length %u: missing or longer than the file",
                            h[4], h[3]);
    if (h[3] % 4 != 0) /* chunks are padded to 4 bytes (2.0, 4.4.3.1) */
        return gltf_fail_at(d, "(glb JSON chunk)", "byte 12: length %u is not a multiple of 4", h[3]);
    *json = data + 20;
    *json_size = h[3];
    *bin = NULL;
    *bin_size = 0;
    size_t next = 20 + (size_t)h[3];
    if (next + 8 <= size) {
        uint32_t c[2];
        memcpy(c, data + next, sizeof c);
        if (c[1] == 0x004E4942u) {
            if (c[0] > size - next - 8)
                return gltf_fail_at(d, "(glb BIN chunk)", "byte %zu: %u bytes but the file ends first", next, c[0]);
            if (c[0] % 4 != 0)
                return gltf_fail_at(d, "(glb BIN chunk)", "byte %zu: length %u is not a multiple of 4", next, c[0]);
            *bin = data + next + 8;
            *bin_size = c[0];
        }
    }
    return LAB_OK;
}

lab_error gltf_parse(const uint8_t *data, size_t size, const char *base_dir, gltf_document *out,
                     lab_diag *d)
{
    memset(out, 0, sizeof *out);
    const uint8_t *json = data, *bin = NULL;
    size_t json_size = size, bin_size = 0;
    if (size >= 4 && !memcmp(data, "glTF", 4)) {
        lab_error e = split_glb(data, size, &json, &json_size, &bin, &bin_size, d);
        if (e != LAB_OK)
            return e;
    }
    size_t start = 0; /* JSON may start with whitespace; a GLB starts with its magic */
    while (start < json_size && strchr(" \t\r\n", json[start]) && json[start])
        start++;
    if (json == data && start < json_size && json[start] != '{') {
        uint32_t magic = 0;
        memcpy(&magic, data, size < 4 ? size : 4);
        return gltf_fail_at(d, "(document)", "byte 0: neither JSON (byte %zu is 0x%02x, not '{') nor GLB "
                            "(magic 0x%08x, not 'glTF')", start, json[start], magic);
    }
    const uint8_t *nul = memchr(json, 0, json_size); /* JSON text holds no NUL, not even as whitespace */
    if (nul)
        return gltf_fail_at(d, "(document)", "byte %zu of the JSON: a NUL character", (size_t)(nul - json));
    size_t tree = json_tree_bytes(json, json_size); /* the parse's memory, known before it is spent */
    if (tree > GLTF_MAX_JSON_TREE)
        return diag_fail(d, LAB_ERR_LIMIT, "(document)", "%zu bytes of JSON would make a tree of about %zu MiB, more "
                         "than the reader's %u MiB: an asset's data belongs in its buffers, not in its JSON", json_size,
                         tree >> 20, GLTF_MAX_JSON_TREE >> 20);
    const char *end = NULL;
    long failures = json_memory_failures();
    cJSON *root = cJSON_ParseWithLengthOpts((const char *)json, json_size, &end, false);
    if (!root && json_memory_failures() != failures) /* the heap ran out, the text may be fine */
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "(document)", "reading %zu bytes of JSON", json_size);
    if (!root) {
        const char *where = cJSON_GetErrorPtr();
        size_t offset = where && where >= (const char *)json ? (size_t)(where - (const char *)json) : 0;
        return gltf_fail_at(d, "(document)", "byte %zu of the JSON: a syntax error, the text ends early, or "
                            "arrays and objects nest deeper than %d", offset, CJSON_NESTING_LIMIT);
    }
    while (end && (size_t)(end - (const char *)json) < json_size && strchr(" \t\r\n", *end))
        end++;
    if (!cJSON_IsObject(root) || (end && (size_t)(end - (const char *)json) < json_size)) {
        size_t offset = end ? (size_t)(end - (const char *)json) : 0;
        cJSON_Delete(root);
        return gltf_fail_at(d, "(document)", cJSON_IsObject(root) ? "byte %zu of the JSON: text after the document"
                                                                   : "byte %zu of the JSON: not a JSON object",
                            cJSON_IsObject(root) ? offset : start);
    }
    char pointer[192] = "";
    lab_error e = check_no_nul_escape(json, json_size, d);
    if (e == LAB_OK)
        e = check_strings(root, pointer, 0, sizeof pointer, d);
    if (e == LAB_OK)
        e = parse_json(root, base_dir, bin, bin_size, out, d);
    cJSON_Delete(root);
    if (e == LAB_OK && !(out->json = malloc(json_size + 1)))
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "(document)", "a copy of %zu bytes of JSON", json_size);
    if (e == LAB_OK) {
        memcpy(out->json, json, json_size);
        out->json[json_size] = '\0';
        out->json_size = json_size;
    }
    if (e == LAB_OK && base_dir && !(out->base_dir = malloc(strlen(base_dir) + 1)))
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "(document)", "a copy of its folder's name");
    if (e == LAB_OK && base_dir)
        strcpy(out->base_dir, base_dir);
    if (e != LAB_OK)
        gltf_free(out);
    return e;
}

lab_error gltf_load(const char *path, gltf_document *out, lab_diag *d)
{
    uint8_t *data;
    size_t size;
    memset(out, 0, sizeof *out);
    errno = 0;
    bytes_read_result r = read_whole_file(path, &data, &size);
    int reason = errno;
    /* the file itself could not be had: not a breach of the specification, and said as
     * the system said it */
    if (r == BYTES_READ_OUT_OF_MEMORY)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, path, "%s", bytes_read_message(r));
    if (r == BYTES_READ_TOO_LARGE)
        return diag_fail(d, LAB_ERR_LIMIT, path, "%s: an asset may have at most %u bytes", bytes_read_message(r),
                         GLTF_MAX_FILE);
    if (r == BYTES_READ_NOT_REGULAR)
        return diag_fail(d, LAB_ERR_INPUT_FILE, path, "%s", bytes_read_message(r));
    if (r != BYTES_READ_OK)
        return diag_fail(d, LAB_ERR_INPUT_FILE, path, "%s: %s", bytes_read_message(r),
                         reason ? strerror(reason) : "no reason given");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    lab_error e = gltf_parse(data, size, dir, out, d);
    free(data);
    return e;
}

void gltf_free(gltf_document *doc)
{
    for (int i = 0; i < doc->buffer_count; i++)
        free(doc->buffers ? doc->buffers[i].data : NULL);
    for (int i = 0; doc->nodes && i < doc->node_count; i++)
        free(doc->nodes[i].children), free(doc->nodes[i].weights), free(doc->nodes[i].name);
    for (int i = 0; doc->skins && i < doc->skin_count; i++)
        free(doc->skins[i].joints);
    for (int i = 0; doc->meshes && i < doc->mesh_count; i++) {
        for (int k = 0; doc->meshes[i].primitives && k < doc->meshes[i].primitive_count; k++)
            free(doc->meshes[i].primitives[k].targets);
        free(doc->meshes[i].primitives);
        free(doc->meshes[i].weights);
    }
    for (int i = 0; doc->animations && i < doc->animation_count; i++) {
        free(doc->animations[i].samplers);
        free(doc->animations[i].channels);
        free(doc->animations[i].name);
    }
    free(doc->json), free(doc->base_dir);
    free(doc->buffers), free(doc->views), free(doc->accessors), free(doc->nodes);
    free(doc->skins), free(doc->meshes), free(doc->animations);
    free(doc->unread_extensions);
    memset(doc, 0, sizeof *doc);
}
