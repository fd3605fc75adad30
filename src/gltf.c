/* gltf.c - the glTF 2.0 reader: parsing, validation, accessors, animation sampling and
 * skinning (see gltf.h). Every error names the JSON pointer of the offending element. */
#define _POSIX_C_SOURCE 200809L
#include "gltf.h"

#include <cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GLTF_MAX_FILE (256u << 20)   /* files and buffers larger than this are refused */

static lab_error fail_at(lab_diag *d, const char *pointer, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static lab_error fail_at(lab_diag *d, const char *pointer, const char *fmt, ...)
{
    char value[256];
    va_list args;
    va_start(args, fmt);
    vsnprintf(value, sizeof value, fmt, args);
    va_end(args);
    return diag_fail(d, LAB_ERR_GLTF, pointer, "%s", value);
}

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
            return fail_at(d, pointer, "required property is missing");
        *out = fallback;
        return LAB_OK;
    }
    double v = item->valuedouble;
    if (!cJSON_IsNumber(item) || v != floor(v) || v < (double)lo || v > (double)hi)
        return fail_at(d, pointer, "must be an integer in [%ld, %ld]", lo, hi);
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
        return fail_at(d, pointer, "must be an array of %d numbers", n);
    for (int i = 0; i < n; i++) {
        const cJSON *x = cJSON_GetArrayItem(item, i);
        if (!cJSON_IsNumber(x) || !isfinite(x->valuedouble))
            return fail_at(d, pointer, "element %d is not a finite number", i);
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
        return fail_at(d, pointer, "must be an array");
    *count = cJSON_GetArraySize(a);
    for (const cJSON *e = a->child; e; e = e->next)
        if (!cJSON_IsObject(e))
            return fail_at(d, pointer, "every element must be an object");
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

/* Strict base64 (padding allowed only at the end); false on any other character. */
static bool base64_decode(const char *text, uint8_t **out, size_t *size)
{
    size_t len = strlen(text);
    while (len > 0 && text[len - 1] == '=')
        len--;
    *out = malloc(len * 3 / 4 + 3);
    if (!*out)
        return false;
    size_t n = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < len; i++) {
        int v = base64_value((unsigned char)text[i]);
        if (v < 0) {
            free(*out);
            *out = NULL;
            return false;
        }
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            (*out)[n++] = (uint8_t)(acc >> bits);
        }
    }
    *size = n;
    return true;
}

static bool read_whole_file(const char *path, uint8_t **out, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) {
            uint8_t *bigger = cap < GLTF_MAX_FILE ? realloc(buf, cap * 2) : NULL;
            if (!bigger) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    fclose(f);
    *out = buf;
    *size = n;
    return buf != NULL;
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
    if (!uri) {
        if (i != 0 || !bin)
            return fail_at(d, pointer, "a buffer without uri must be the GLB's BIN chunk (buffer 0)");
        out->data = malloc(bin_size ? bin_size : 1);
        if (!out->data)
            return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, at, "%zu bytes", bin_size);
        memcpy(out->data, bin, bin_size);
        out->size = bin_size;
    } else if (!cJSON_IsString(uri)) {
        return fail_at(d, pointer, "must be a string");
    } else if (!strncmp(uri->valuestring, "data:", 5)) {
        const char *comma = strstr(uri->valuestring, ";base64,");
        if (!comma || !base64_decode(comma + 8, &out->data, &out->size))
            return fail_at(d, pointer, "data URI is not valid base64");
    } else {
        const char *name = uri->valuestring;
        if (!base_dir || name[0] == '/' || strstr(name, "..") || strchr(name, ':'))
            return fail_at(d, pointer, "external buffer \"%.60s\" must be a plain relative path", name);
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", base_dir, name);
        if (!read_whole_file(path, &out->data, &out->size))
            return fail_at(d, pointer, "cannot read external buffer \"%.60s\"", name);
    }
    if (out->size < (size_t)length)
        return fail_at(d, at, "byteLength %ld but only %zu bytes are there", length, out->size);
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
    *out = (gltf_view){(int)buffer, (size_t)offset, (size_t)length, (size_t)stride};
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

static size_t component_size(int type)
{
    switch (type) {
    case 5120: case 5121: return 1;
    case 5122: case 5123: return 2;
    case 5125: case 5126: return 4;
    default: return 0;
    }
}

static lab_error parse_sparse(const cJSON *s, const char *at, gltf_accessor *a, lab_diag *d)
{
    char sub[128];
    long count = 0, view = 0, offset = 0, type = 0;
    lab_error e = get_int(s, "count", 1, 1L << 30, true, 0, &count, at, d);
    const cJSON *idx = cJSON_GetObjectItemCaseSensitive(s, "indices");
    const cJSON *val = cJSON_GetObjectItemCaseSensitive(s, "values");
    if (e == LAB_OK && (!cJSON_IsObject(idx) || !cJSON_IsObject(val)))
        return fail_at(d, at, "sparse needs indices and values objects");
    snprintf(sub, sizeof sub, "%s/indices", at);
    if (e == LAB_OK) e = get_int(idx, "bufferView", 0, 1L << 30, true, 0, &view, sub, d);
    if (e == LAB_OK) e = get_int(idx, "byteOffset", 0, GLTF_MAX_FILE, false, 0, &offset, sub, d);
    if (e == LAB_OK) e = get_int(idx, "componentType", 5121, 5125, true, 0, &type, sub, d);
    if (e == LAB_OK && type != 5121 && type != 5123 && type != 5125)
        return fail_at(d, sub, "componentType %ld: sparse indices are unsigned byte, short or int", type);
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
    if (component_size((int)type) == 0)
        return fail_at(d, at, "componentType %ld is not a glTF component type", type);
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(j, "type");
    int n = cJSON_IsString(t) ? type_components(t->valuestring) : 0;
    if (n == 0)
        return fail_at(d, at, "type must be SCALAR, VEC2, VEC3, VEC4, MAT2, MAT3 or MAT4");
    const cJSON *norm = cJSON_GetObjectItemCaseSensitive(j, "normalized");
    *a = (gltf_accessor){(int)view, (size_t)offset, (int)type, n, cJSON_IsTrue(norm), (int)count,
                         0, -1, 0, 0, -1, 0};
    const cJSON *sparse = cJSON_GetObjectItemCaseSensitive(j, "sparse");
    if (sparse) {
        char sub[96];
        snprintf(sub, sizeof sub, "%s/sparse", at);
        return cJSON_IsObject(sparse) ? parse_sparse(sparse, sub, a, d) : fail_at(d, sub, "must be an object");
    }
    return LAB_OK;
}

static lab_error parse_int_list(const cJSON *obj, const char *key, int **out, int *count, const char *at,
                                lab_diag *d)
{
    char pointer[160];
    snprintf(pointer, sizeof pointer, "%s/%s", at, key);
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(obj, key);
    *count = 0;
    *out = NULL;
    if (!a)
        return LAB_OK;
    if (!cJSON_IsArray(a))
        return fail_at(d, pointer, "must be an array of indices");
    *count = cJSON_GetArraySize(a);
    if (!(*out = alloc_array((size_t)*count, sizeof(int))))
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, pointer, "%d indices", *count);
    int k = 0;
    for (const cJSON *e = a->child; e; e = e->next, k++) {
        if (!cJSON_IsNumber(e) || e->valuedouble != floor(e->valuedouble) || e->valuedouble < 0 ||
            e->valuedouble > (1 << 30))
            return fail_at(d, pointer, "element %d is not an index", k);
        (*out)[k] = (int)e->valuedouble;
    }
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
    n->has_matrix = cJSON_GetObjectItemCaseSensitive(j, "matrix") != NULL;
    if (e == LAB_OK && n->has_matrix && (e = get_numbers(j, "matrix", 16, NULL, m, at, d)) == LAB_OK)
        for (int c = 0; c < 4; c++)
            for (int row = 0; row < 4; row++)
                n->matrix.m[row][c] = m[4 * c + row]; /* column-major -> row-major */
    if (e == LAB_OK)
        e = parse_int_list(j, "children", &n->children, &n->child_count, at, d);
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
        return fail_at(d, at, "joints must list at least one node");
    s->inverse_bind = (int)ibm;
    s->skeleton = (int)skeleton;
    return e;
}

/* The attributes a skinning reader needs: POSITION, JOINTS_n, WEIGHTS_n. */
static lab_error parse_primitive(const cJSON *j, const char *at, gltf_primitive *p, lab_diag *d)
{
    long idx = 0, v = 0;
    char sub[128];
    lab_error e = get_int(j, "indices", 0, 1L << 30, false, -1, &idx, at, d);
    const cJSON *attr = cJSON_GetObjectItemCaseSensitive(j, "attributes");
    snprintf(sub, sizeof sub, "%s/attributes", at);
    if (e == LAB_OK && !cJSON_IsObject(attr))
        return fail_at(d, sub, "required object is missing");
    if (e == LAB_OK) e = get_int(attr, "POSITION", 0, 1L << 30, true, 0, &v, sub, d);
    if (e != LAB_OK)
        return e;
    *p = (gltf_primitive){.position = (int)v, .indices = (int)idx};
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
            return fail_at(d, sub, "%s and %s must come together", jk, wk);
        if (jv < 0)
            break;
        p->joints[s] = (int)jv;
        p->weights[s] = (int)wv;
        p->sets = s + 1;
    }
    return LAB_OK;
}

static lab_error parse_mesh(const cJSON *j, int i, gltf_mesh *m, lab_diag *d)
{
    char at[64], sub[96];
    snprintf(at, sizeof at, "/meshes/%d", i);
    const cJSON *prims = cJSON_GetObjectItemCaseSensitive(j, "primitives");
    if (!cJSON_IsArray(prims) || cJSON_GetArraySize(prims) == 0)
        return fail_at(d, at, "primitives must be a non-empty array");
    m->primitive_count = cJSON_GetArraySize(prims);
    if (!(m->primitives = alloc_array((size_t)m->primitive_count, sizeof *m->primitives)))
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, at, "%d primitives", m->primitive_count);
    int k = 0;
    for (const cJSON *p = prims->child; p; p = p->next, k++) {
        snprintf(sub, sizeof sub, "%s/primitives/%d", at, k);
        lab_error e = cJSON_IsObject(p) ? parse_primitive(p, sub, &m->primitives[k], d)
                                        : fail_at(d, sub, "must be an object");
        if (e != LAB_OK)
            return e;
    }
    return LAB_OK;
}

static lab_error parse_animation(const cJSON *j, int i, gltf_animation *a, lab_diag *d)
{
    char at[64], sub[128];
    snprintf(at, sizeof at, "/animations/%d", i);
    const cJSON *samplers = cJSON_GetObjectItemCaseSensitive(j, "samplers");
    const cJSON *channels = cJSON_GetObjectItemCaseSensitive(j, "channels");
    if (!cJSON_IsArray(samplers) || !cJSON_IsArray(channels))
        return fail_at(d, at, "samplers and channels must be arrays");
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
            return fail_at(d, sub, "interpolation must be STEP, LINEAR or CUBICSPLINE");
        a->samplers[k] = (gltf_sampler){(int)in, (int)out, mode};
    }
    k = 0;
    for (const cJSON *c = channels->child; c; c = c->next, k++) {
        long sampler = 0, node = 0;
        snprintf(sub, sizeof sub, "%s/channels/%d", at, k);
        const cJSON *target = cJSON_GetObjectItemCaseSensitive(c, "target");
        lab_error e = get_int(c, "sampler", 0, 1L << 30, true, 0, &sampler, sub, d);
        if (e == LAB_OK && !cJSON_IsObject(target))
            return fail_at(d, sub, "target must be an object");
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
            return fail_at(d, tat, "path must be translation, rotation, scale or weights");
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

static lab_error parse_json(const cJSON *root, const char *base_dir, const uint8_t *bin,
                            size_t bin_size, gltf_document *doc, lab_diag *d)
{
    lab_error e = LAB_OK;
    const cJSON *asset = cJSON_GetObjectItemCaseSensitive(root, "asset");
    const cJSON *version = cJSON_GetObjectItemCaseSensitive(asset, "version");
    if (!cJSON_IsString(version) || strncmp(version->valuestring, "2.", 2) != 0)
        return fail_at(d, "/asset/version", "must be a string \"2.x\"");
    const cJSON *buffers;
    e = get_array(root, "buffers", &buffers, &doc->buffer_count, d);
    if (e == LAB_OK && !(doc->buffers = alloc_array((size_t)doc->buffer_count, sizeof *doc->buffers)))
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "/buffers", "%d", doc->buffer_count);
    int i = 0;
    for (const cJSON *b = buffers ? buffers->child : NULL; e == LAB_OK && b; b = b->next, i++)
        e = load_buffer(b, i, base_dir, bin, bin_size, &doc->buffers[i], d);
    PARSE_ALL(root, "bufferViews", doc->views, doc->view_count, parse_view);
    PARSE_ALL(root, "accessors", doc->accessors, doc->accessor_count, parse_accessor);
    PARSE_ALL(root, "nodes", doc->nodes, doc->node_count, parse_node);
    PARSE_ALL(root, "skins", doc->skins, doc->skin_count, parse_skin);
    PARSE_ALL(root, "meshes", doc->meshes, doc->mesh_count, parse_mesh);
    PARSE_ALL(root, "animations", doc->animations, doc->animation_count, parse_animation);
    return e;
}

/* GLB: 12-byte header ("glTF", version 2, length), then a JSON chunk and an optional BIN. */
static lab_error split_glb(const uint8_t *data, size_t size, const uint8_t **json, size_t *json_size,
                           const uint8_t **bin, size_t *bin_size, lab_diag *d)
{
    uint32_t h[5];
    if (size < 20)
        return fail_at(d, "(glb header)", "%zu bytes, a GLB needs at least 20", size);
    memcpy(h, data, sizeof h);
    if (h[1] != 2 || h[2] > size || h[2] < 20)
        return fail_at(d, "(glb header)", "version %u, length %u of %zu bytes", h[1], h[2], size);
    size = h[2];
    if (h[4] != 0x4E4F534Au || h[3] > size - 20)
        return fail_at(d, "(glb JSON chunk)", "missing or longer than the file");
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
                return fail_at(d, "(glb BIN chunk)", "%u bytes but the file ends first", c[0]);
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
    cJSON *root = cJSON_ParseWithLength((const char *)json, json_size);
    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        return fail_at(d, "(document)", "not a JSON object");
    }
    lab_error e = parse_json(root, base_dir, bin, bin_size, out, d);
    cJSON_Delete(root);
    if (e != LAB_OK)
        gltf_free(out);
    return e;
}

lab_error gltf_load(const char *path, gltf_document *out, lab_diag *d)
{
    uint8_t *data;
    size_t size;
    memset(out, 0, sizeof *out);
    if (!read_whole_file(path, &data, &size))
        return fail_at(d, path, "cannot read the file");
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
        free(doc->nodes[i].children);
    for (int i = 0; doc->skins && i < doc->skin_count; i++)
        free(doc->skins[i].joints);
    for (int i = 0; doc->meshes && i < doc->mesh_count; i++)
        free(doc->meshes[i].primitives);
    for (int i = 0; doc->animations && i < doc->animation_count; i++) {
        free(doc->animations[i].samplers);
        free(doc->animations[i].channels);
    }
    free(doc->buffers), free(doc->views), free(doc->accessors), free(doc->nodes);
    free(doc->skins), free(doc->meshes), free(doc->animations);
    memset(doc, 0, sizeof *doc);
}

/* ---- validation --------------------------------------------------------------------------- */

static size_t element_size(const gltf_accessor *a) { return component_size(a->component_type) * (size_t)a->components; }

/* [offset, offset + size) inside view v's bytes. */
static bool view_holds(const gltf_document *doc, int v, size_t offset, size_t size)
{
    return v >= 0 && v < doc->view_count && offset <= doc->views[v].length &&
           size <= doc->views[v].length - offset;
}

static lab_error validate_views(const gltf_document *doc, lab_diag *d)
{
    char at[64];
    for (int i = 0; i < doc->view_count; i++) {
        const gltf_view *v = &doc->views[i];
        snprintf(at, sizeof at, "/bufferViews/%d", i);
        if (v->buffer >= doc->buffer_count)
            return fail_at(d, at, "buffer %d of %d", v->buffer, doc->buffer_count);
        size_t size = doc->buffers[v->buffer].size;
        if (v->offset > size || v->length > size - v->offset)
            return fail_at(d, at, "bytes [%zu, %zu) outside buffer %d of %zu bytes", v->offset,
                           v->offset + v->length, v->buffer, size);
        if (v->stride % 4)
            return fail_at(d, at, "byteStride %zu is not a multiple of 4", v->stride);
    }
    return LAB_OK;
}

static lab_error validate_sparse(const gltf_document *doc, const gltf_accessor *a, const char *at, lab_diag *d)
{
    size_t isize = component_size(a->sparse_index_type), n = (size_t)a->sparse_count;
    if ((int)n > a->count)
        return fail_at(d, at, "sparse count %zu exceeds the accessor's count %d", n, a->count);
    if (!view_holds(doc, a->sparse_index_view, a->sparse_index_offset, n * isize))
        return fail_at(d, at, "sparse indices outside bufferView %d", a->sparse_index_view);
    if (!view_holds(doc, a->sparse_value_view, a->sparse_value_offset, n * element_size(a)))
        return fail_at(d, at, "sparse values outside bufferView %d", a->sparse_value_view);
    const gltf_view *iv = &doc->views[a->sparse_index_view];
    const uint8_t *p = doc->buffers[iv->buffer].data + iv->offset + a->sparse_index_offset;
    long previous = -1;
    for (size_t k = 0; k < n; k++) {
        uint32_t idx = 0;
        if (isize == 1) idx = p[k];
        else if (isize == 2) { uint16_t s; memcpy(&s, p + 2 * k, 2); idx = s; }
        else memcpy(&idx, p + 4 * k, 4);
        if ((long)idx <= previous || (long)idx >= a->count)
            return fail_at(d, at, "sparse index %zu is %u: indices must increase and stay below %d", k,
                           idx, a->count);
        previous = (long)idx;
    }
    return LAB_OK;
}

static lab_error validate_accessors(const gltf_document *doc, lab_diag *d)
{
    char at[64];
    for (int i = 0; i < doc->accessor_count; i++) {
        const gltf_accessor *a = &doc->accessors[i];
        snprintf(at, sizeof at, "/accessors/%d", i);
        size_t csize = component_size(a->component_type), esize = element_size(a);
        if (a->components > 4 && csize != 4)
            return fail_at(d, at, "matrix accessors of 1- or 2-byte components are not supported");
        if (a->view < 0 && a->count > (1 << 24))
            return fail_at(d, at, "%d elements without a bufferView: at most %d", a->count, 1 << 24);
        if (a->view >= 0) {
            if (a->view >= doc->view_count)
                return fail_at(d, at, "bufferView %d of %d", a->view, doc->view_count);
            const gltf_view *v = &doc->views[a->view];
            size_t stride = v->stride ? v->stride : esize;
            if (stride < esize)
                return fail_at(d, at, "byteStride %zu is smaller than an element (%zu bytes)", stride, esize);
            if ((v->offset + a->offset) % csize)
                return fail_at(d, at, "byteOffset is not aligned to the %zu-byte components", csize);
            if (!view_holds(doc, a->view, a->offset, stride * (size_t)(a->count - 1) + esize))
                return fail_at(d, at, "%d elements of %zu bytes (stride %zu) from byte %zu do not fit "
                               "bufferView %d of %zu bytes", a->count, esize, stride, a->offset,
                               a->view, v->length);
        }
        if (a->sparse_count) {
            lab_error e = validate_sparse(doc, a, at, d);
            if (e != LAB_OK)
                return e;
        }
    }
    return LAB_OK;
}

/* One parent per node, children in range, no cycles; fills node.parent. */
static lab_error validate_nodes(gltf_document *doc, lab_diag *d)
{
    char at[96];
    for (int i = 0; i < doc->node_count; i++)
        doc->nodes[i].parent = -1;
    for (int i = 0; i < doc->node_count; i++) {
        gltf_node *n = &doc->nodes[i];
        snprintf(at, sizeof at, "/nodes/%d", i);
        if (n->mesh >= doc->mesh_count || n->skin >= doc->skin_count)
            return fail_at(d, at, "mesh %d of %d or skin %d of %d", n->mesh, doc->mesh_count, n->skin,
                           doc->skin_count);
        for (int k = 0; k < n->child_count; k++) {
            int c = n->children[k];
            snprintf(at, sizeof at, "/nodes/%d/children/%d", i, k);
            if (c >= doc->node_count || c == i)
                return fail_at(d, at, "child %d is not another node (%d nodes)", c, doc->node_count);
            if (doc->nodes[c].parent >= 0)
                return fail_at(d, at, "node %d already has parent %d", c, doc->nodes[c].parent);
            doc->nodes[c].parent = i;
        }
    }
    for (int i = 0; i < doc->node_count; i++) { /* a parent chain longer than the node count loops */
        int steps = 0;
        for (int p = doc->nodes[i].parent; p >= 0; p = doc->nodes[p].parent)
            if (++steps > doc->node_count) {
                snprintf(at, sizeof at, "/nodes/%d", i);
                return fail_at(d, at, "the node hierarchy has a cycle through this node");
            }
    }
    return LAB_OK;
}

static lab_error check_accessor(const gltf_document *doc, int a, const int *types, int type_count,
                                int components, const char *at, lab_diag *d)
{
    if (a < 0 || a >= doc->accessor_count)
        return fail_at(d, at, "accessor %d of %d", a, doc->accessor_count);
    const gltf_accessor *acc = &doc->accessors[a];
    bool type_ok = false;
    for (int k = 0; k < type_count; k++)
        type_ok |= acc->component_type == types[k];
    if (!type_ok || acc->components != components)
        return fail_at(d, at, "accessor %d has componentType %d with %d components, not allowed here", a,
                       acc->component_type, acc->components);
    return LAB_OK;
}

static const int FLOAT_ONLY[1] = {5126};

static lab_error validate_skins(const gltf_document *doc, lab_diag *d)
{
    char at[96];
    for (int i = 0; i < doc->skin_count; i++) {
        const gltf_skin *s = &doc->skins[i];
        for (int k = 0; k < s->joint_count; k++)
            if (s->joints[k] >= doc->node_count) {
                snprintf(at, sizeof at, "/skins/%d/joints/%d", i, k);
                return fail_at(d, at, "node %d of %d", s->joints[k], doc->node_count);
            }
        snprintf(at, sizeof at, "/skins/%d/skeleton", i);
        if (s->skeleton >= doc->node_count)
            return fail_at(d, at, "node %d of %d", s->skeleton, doc->node_count);
        if (s->inverse_bind < 0)
            continue; /* identity matrices (5.28.1) */
        snprintf(at, sizeof at, "/skins/%d/inverseBindMatrices", i);
        lab_error e = check_accessor(doc, s->inverse_bind, FLOAT_ONLY, 1, 16, at, d);
        if (e == LAB_OK && doc->accessors[s->inverse_bind].count < s->joint_count)
            return fail_at(d, at, "%d matrices for %d joints", doc->accessors[s->inverse_bind].count, s->joint_count);
        if (e != LAB_OK)
            return e;
        double *m = malloc(sizeof(double) * 16 * (size_t)doc->accessors[s->inverse_bind].count);
        if (!m)
            return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, at, "%s", "matrices");
        e = gltf_accessor_read(doc, s->inverse_bind, m, d);
        for (int k = 0; e == LAB_OK && k < s->joint_count; k++) {
            const double *c = m + 16 * k; /* column-major: the last row is c[3], c[7], c[11], c[15] */
            if (!(fabs(c[3]) <= 1e-6 && fabs(c[7]) <= 1e-6 && fabs(c[11]) <= 1e-6 && fabs(c[15] - 1) <= 1e-6))
                e = fail_at(d, at, "matrix %d is not affine: last row (%g, %g, %g, %g)", k, c[3], c[7], c[11], c[15]);
        }
        free(m);
        if (e != LAB_OK)
            return e;
    }
    return LAB_OK;
}

/* The joints and weights of a skinned primitive: joints inside skin.joints, weights
 * non-negative and finite, no joint twice with a non-zero weight. */
static lab_error validate_influences(const gltf_document *doc, const gltf_primitive *p, const gltf_skin *s,
                                     int vertices, const char *at, lab_diag *d)
{
    double *j = malloc(sizeof(double) * 4 * (size_t)vertices * (size_t)p->sets);
    double *w = malloc(sizeof(double) * 4 * (size_t)vertices * (size_t)p->sets);
    lab_error e = (j && w) ? LAB_OK : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, at, "%d vertices", vertices);
    for (int set = 0; e == LAB_OK && set < p->sets; set++) {
        e = gltf_accessor_read(doc, p->joints[set], j + (size_t)set * 4 * vertices, d);
        if (e == LAB_OK)
            e = gltf_accessor_read(doc, p->weights[set], w + (size_t)set * 4 * vertices, d);
    }
    for (int v = 0; e == LAB_OK && v < vertices; v++)
        for (int a = 0; e == LAB_OK && a < 4 * p->sets; a++) {
            size_t ia = (size_t)(a / 4) * 4 * vertices + 4 * (size_t)v + a % 4;
            if (j[ia] >= s->joint_count)
                e = fail_at(d, at, "vertex %d: JOINTS_%d[%d] = %g is not in [0, %d) of skin.joints", v,
                            a / 4, a % 4, j[ia], s->joint_count);
            else if (!(w[ia] >= 0.0) || !isfinite(w[ia]))
                e = fail_at(d, at, "vertex %d: WEIGHTS_%d[%d] = %g is negative or not finite", v, a / 4, a % 4, w[ia]);
            for (int b = 0; e == LAB_OK && b < a; b++) {
                size_t ib = (size_t)(b / 4) * 4 * vertices + 4 * (size_t)v + b % 4;
                if (j[ib] == j[ia] && w[ia] > 0 && w[ib] > 0)
                    e = fail_at(d, at, "vertex %d: joint %g appears twice with non-zero weights", v, j[ia]);
            }
        }
    free(j), free(w);
    return e;
}

static const int JOINT_TYPES[2] = {5121, 5123}, WEIGHT_TYPES[3] = {5126, 5121, 5123}, INDEX_TYPES[3] = {5121, 5123, 5125};

static lab_error validate_primitive(const gltf_document *doc, const gltf_primitive *p, const gltf_skin *skin,
                                    const char *at, lab_diag *d)
{
    char sub[160];
    snprintf(sub, sizeof sub, "%s/attributes/POSITION", at);
    lab_error e = check_accessor(doc, p->position, FLOAT_ONLY, 1, 3, sub, d);
    if (e != LAB_OK)
        return e;
    int vertices = doc->accessors[p->position].count;
    for (int s = 0; s < p->sets; s++) {
        snprintf(sub, sizeof sub, "%s/attributes/JOINTS_%d", at, s);
        e = check_accessor(doc, p->joints[s], JOINT_TYPES, 2, 4, sub, d);
        if (e == LAB_OK && doc->accessors[p->joints[s]].count != vertices)
            e = fail_at(d, sub, "count %d, POSITION has %d", doc->accessors[p->joints[s]].count, vertices);
        snprintf(sub, sizeof sub, "%s/attributes/WEIGHTS_%d", at, s);
        if (e == LAB_OK) e = check_accessor(doc, p->weights[s], WEIGHT_TYPES, 3, 4, sub, d);
        if (e == LAB_OK && doc->accessors[p->weights[s]].count != vertices)
            e = fail_at(d, sub, "count %d, POSITION has %d", doc->accessors[p->weights[s]].count, vertices);
        if (e != LAB_OK)
            return e;
    }
    if (p->indices >= 0) {
        snprintf(sub, sizeof sub, "%s/indices", at);
        e = check_accessor(doc, p->indices, INDEX_TYPES, 3, 1, sub, d);
        double *idx = e == LAB_OK ? malloc(sizeof(double) * (size_t)doc->accessors[p->indices].count) : NULL;
        if (e == LAB_OK && !idx)
            e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, sub, "%s", "indices");
        if (e == LAB_OK)
            e = gltf_accessor_read(doc, p->indices, idx, d);
        for (int k = 0; e == LAB_OK && k < doc->accessors[p->indices].count; k++)
            if (idx[k] >= vertices)
                e = fail_at(d, sub, "index %d is %g, POSITION has %d vertices", k, idx[k], vertices);
        free(idx);
        if (e != LAB_OK)
            return e;
    }
    snprintf(sub, sizeof sub, "%s/attributes", at);
    return skin && p->sets ? validate_influences(doc, p, skin, vertices, sub, d) : LAB_OK;
}

static lab_error validate_meshes(const gltf_document *doc, lab_diag *d)
{
    char at[96];
    for (int n = 0; n < doc->node_count; n++) { /* skinned or not, each mesh as its nodes use it */
        const gltf_node *node = &doc->nodes[n];
        if (node->mesh < 0)
            continue;
        const gltf_mesh *m = &doc->meshes[node->mesh];
        for (int k = 0; k < m->primitive_count; k++) {
            snprintf(at, sizeof at, "/meshes/%d/primitives/%d", node->mesh, k);
            lab_error e = validate_primitive(doc, &m->primitives[k], node->skin >= 0 ? &doc->skins[node->skin] : NULL, at, d);
            if (e != LAB_OK)
                return e;
        }
    }
    return LAB_OK;
}

static lab_error validate_animations(const gltf_document *doc, lab_diag *d)
{
    char at[128];
    for (int i = 0; i < doc->animation_count; i++) {
        const gltf_animation *a = &doc->animations[i];
        for (int k = 0; k < a->sampler_count; k++) {
            const gltf_sampler *s = &a->samplers[k];
            snprintf(at, sizeof at, "/animations/%d/samplers/%d/input", i, k);
            lab_error e = check_accessor(doc, s->input, FLOAT_ONLY, 1, 1, at, d);
            if (e != LAB_OK)
                return e;
            double *t = malloc(sizeof(double) * (size_t)doc->accessors[s->input].count);
            e = t ? gltf_accessor_read(doc, s->input, t, d) : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, at, "%s", "times");
            for (int q = 0; e == LAB_OK && q < doc->accessors[s->input].count; q++)
                if (!isfinite(t[q]) || (q > 0 && !(t[q] > t[q - 1])))
                    e = fail_at(d, at, "time %d is %g: times must be finite and increase", q, t[q]);
            free(t);
            snprintf(at, sizeof at, "/animations/%d/samplers/%d/output", i, k);
            if (e == LAB_OK && (s->output < 0 || s->output >= doc->accessor_count))
                e = fail_at(d, at, "accessor %d of %d", s->output, doc->accessor_count);
            if (e != LAB_OK)
                return e;
        }
        for (int k = 0; k < a->channel_count; k++) {
            const gltf_channel *c = &a->channels[k];
            snprintf(at, sizeof at, "/animations/%d/channels/%d", i, k);
            if (c->sampler >= a->sampler_count || c->node >= doc->node_count)
                return fail_at(d, at, "sampler %d of %d or node %d of %d", c->sampler, a->sampler_count,
                               c->node, doc->node_count);
            if (c->path == GLTF_MORPH_WEIGHTS)
                continue; /* morph targets are not part of this lab: the channel is ignored */
            const gltf_sampler *s = &a->samplers[c->sampler];
            int keys = doc->accessors[s->input].count, per = s->interpolation == GLTF_CUBICSPLINE ? 3 : 1;
            const gltf_accessor *out = &doc->accessors[s->output];
            int want = c->path == GLTF_ROTATION ? 4 : 3;
            if (out->components != want || out->count != keys * per || (out->component_type != 5126 && c->path != GLTF_ROTATION))
                return fail_at(d, at, "output accessor %d: %d elements of %d components, want %d of %d", s->output,
                               out->count, out->components, keys * per, want);
        }
    }
    return LAB_OK;
}

lab_error gltf_validate(gltf_document *doc, lab_diag *d)
{
    doc->validated = false;
    lab_error e = validate_views(doc, d);
    if (e == LAB_OK) e = validate_accessors(doc, d);
    if (e == LAB_OK) e = validate_nodes(doc, d);
    doc->validated = e == LAB_OK; /* accessors may be read from here on */
    if (e == LAB_OK) e = validate_skins(doc, d);
    if (e == LAB_OK) e = validate_meshes(doc, d);
    if (e == LAB_OK) e = validate_animations(doc, d);
    doc->validated = e == LAB_OK;
    return e;
}

/* ---- reading accessors -------------------------------------------------------------------- */

static double read_component(const uint8_t *p, int type, bool normalized)
{
    switch (type) {
    case 5120: { int8_t v; memcpy(&v, p, 1); return normalized ? fmax(v / 127.0, -1.0) : v; }
    case 5121: return normalized ? p[0] / 255.0 : p[0];
    case 5122: { int16_t v; memcpy(&v, p, 2); return normalized ? fmax(v / 32767.0, -1.0) : v; }
    case 5123: { uint16_t v; memcpy(&v, p, 2); return normalized ? v / 65535.0 : v; }
    case 5125: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { float v; memcpy(&v, p, 4); return v; }
    }
}

static void read_elements(const gltf_document *doc, int view, size_t offset, size_t stride,
                          const gltf_accessor *a, int count, double *out)
{
    const gltf_view *v = &doc->views[view];
    const uint8_t *base = doc->buffers[v->buffer].data + v->offset + offset;
    size_t csize = component_size(a->component_type);
    for (int i = 0; i < count; i++)
        for (int c = 0; c < a->components; c++)
            out[(size_t)i * a->components + c] =
                read_component(base + (size_t)i * stride + (size_t)c * csize, a->component_type, a->normalized);
}

lab_error gltf_accessor_read(const gltf_document *doc, int index, double *out, lab_diag *d)
{
    if (!doc->validated || index < 0 || index >= doc->accessor_count)
        return fail_at(d, "(accessor)", "accessor %d read before validation or out of range", index);
    const gltf_accessor *a = &doc->accessors[index];
    if (a->view >= 0) {
        size_t stride = doc->views[a->view].stride ? doc->views[a->view].stride : element_size(a);
        read_elements(doc, a->view, a->offset, stride, a, a->count, out);
    } else {
        memset(out, 0, sizeof(double) * (size_t)a->count * (size_t)a->components);
    }
    if (a->sparse_count) {
        gltf_accessor index_acc = {.component_type = a->sparse_index_type, .components = 1};
        double *idx = malloc(sizeof(double) * (size_t)a->sparse_count);
        double *val = malloc(sizeof(double) * (size_t)a->sparse_count * (size_t)a->components);
        if (!idx || !val) {
            free(idx), free(val);
            return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "(accessor)", "sparse %d", a->sparse_count);
        }
        read_elements(doc, a->sparse_index_view, a->sparse_index_offset, component_size(a->sparse_index_type),
                      &index_acc, a->sparse_count, idx);
        read_elements(doc, a->sparse_value_view, a->sparse_value_offset, element_size(a), a, a->sparse_count, val);
        for (int k = 0; k < a->sparse_count; k++)
            memcpy(out + (size_t)idx[k] * a->components, val + (size_t)k * a->components,
                   sizeof(double) * (size_t)a->components);
        free(idx), free(val);
    }
    return LAB_OK;
}

/* ---- animation and hierarchy ---------------------------------------------------------------- */

void gltf_animation_range(const gltf_document *doc, int animation, double *start, double *end)
{
    *start = *end = 0.0;
    if (!doc->validated || animation < 0 || animation >= doc->animation_count)
        return;
    const gltf_animation *a = &doc->animations[animation];
    bool first = true;
    for (int k = 0; k < a->sampler_count; k++) {
        const gltf_accessor *in = &doc->accessors[a->samplers[k].input];
        double *t = malloc(sizeof(double) * (size_t)in->count);
        if (t && gltf_accessor_read(doc, a->samplers[k].input, t, NULL) == LAB_OK) {
            *start = first ? t[0] : fmin(*start, t[0]);
            *end = first ? t[in->count - 1] : fmax(*end, t[in->count - 1]);
            first = false;
        }
        free(t);
    }
}

static mat4 trs_matrix(vec3 t, quat r, vec3 s)
{
    return mat4_mul(mat4_mul(mat4_translate(t.x, t.y, t.z), quat_to_mat4(quat_normalize(r))),
                    mat4_scale(s.x, s.y, s.z));
}

/* The sampler's value at t: n components (3 or 4) into out. Rotations are slerped (LINEAR)
 * or normalised after the cubic Hermite (CUBICSPLINE), as the specification asks. */
static void sample(const double *times, int keys, const double *values, int n, gltf_interpolation mode,
                   bool rotation, double t, double *out)
{
    int per = mode == GLTF_CUBICSPLINE ? 3 : 1, at = mode == GLTF_CUBICSPLINE ? 1 : 0;
    if (t <= times[0] || keys == 1) {
        memcpy(out, values + (size_t)at * n, sizeof(double) * (size_t)n);
        return;
    }
    if (t >= times[keys - 1]) {
        memcpy(out, values + ((size_t)(keys - 1) * per + at) * n, sizeof(double) * (size_t)n);
        return;
    }
    int k = 0;
    while (k + 1 < keys && times[k + 1] <= t)
        k++;
    double dt = times[k + 1] - times[k], u = (t - times[k]) / dt;
    const double *a = values + ((size_t)k * per + at) * n, *b = values + ((size_t)(k + 1) * per + at) * n;
    if (mode == GLTF_STEP) {
        memcpy(out, a, sizeof(double) * (size_t)n);
    } else if (mode == GLTF_LINEAR && rotation) {
        /* keys normalised first: stored quaternions are often a little off unit length */
        quat q = quat_slerp(quat_normalize((quat){a[3], a[0], a[1], a[2]}),
                            quat_normalize((quat){b[3], b[0], b[1], b[2]}), u);
        out[0] = q.x, out[1] = q.y, out[2] = q.z, out[3] = q.w;
    } else if (mode == GLTF_LINEAR) {
        for (int c = 0; c < n; c++)
            out[c] = a[c] + u * (b[c] - a[c]);
    } else { /* Hermite with the out-tangent of k and the in-tangent of k + 1, scaled by dt */
        const double *out_tangent = a + n, *in_tangent = b - n;
        double u2 = u * u, u3 = u2 * u;
        for (int c = 0; c < n; c++)
            out[c] = (2 * u3 - 3 * u2 + 1) * a[c] + (u3 - 2 * u2 + u) * dt * out_tangent[c] +
                     (-2 * u3 + 3 * u2) * b[c] + (u3 - u2) * dt * in_tangent[c];
        if (rotation) {
            quat q = quat_normalize((quat){out[3], out[0], out[1], out[2]});
            out[0] = q.x, out[1] = q.y, out[2] = q.z, out[3] = q.w;
        }
    }
}

static lab_error apply_channel(const gltf_document *doc, const gltf_animation *a, const gltf_channel *c,
                               double t, vec3 *tr, quat *rot, vec3 *sc, lab_diag *d)
{
    const gltf_sampler *s = &a->samplers[c->sampler];
    int keys = doc->accessors[s->input].count, n = c->path == GLTF_ROTATION ? 4 : 3;
    double *times = malloc(sizeof(double) * (size_t)keys);
    double *values = malloc(sizeof(double) * (size_t)doc->accessors[s->output].count * (size_t)n);
    lab_error e = (times && values) ? gltf_accessor_read(doc, s->input, times, d)
                                    : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "(animation)", "%d keys", keys);
    if (e == LAB_OK)
        e = gltf_accessor_read(doc, s->output, values, d);
    double v[4];
    if (e == LAB_OK) {
        sample(times, keys, values, n, s->interpolation, c->path == GLTF_ROTATION, t, v);
        if (c->path == GLTF_TRANSLATION) *tr = vec3_make(v[0], v[1], v[2]);
        else if (c->path == GLTF_SCALE) *sc = vec3_make(v[0], v[1], v[2]);
        else *rot = quat_normalize((quat){v[3], v[0], v[1], v[2]});
    }
    free(times), free(values);
    return e;
}

lab_error gltf_sample_locals(const gltf_document *doc, int animation, double t, mat4 *out, lab_diag *d)
{
    if (!doc->validated)
        return fail_at(d, "(document)", "sampled before validation");
    vec3 *tr = malloc(sizeof(vec3) * (size_t)(doc->node_count + 1)), *sc = malloc(sizeof(vec3) * (size_t)(doc->node_count + 1));
    quat *rot = malloc(sizeof(quat) * (size_t)(doc->node_count + 1));
    lab_error e = (tr && sc && rot) ? LAB_OK : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "(nodes)", "%d", doc->node_count);
    for (int i = 0; e == LAB_OK && i < doc->node_count; i++) {
        tr[i] = doc->nodes[i].translation;
        rot[i] = doc->nodes[i].rotation;
        sc[i] = doc->nodes[i].scale;
    }
    if (e == LAB_OK && animation >= 0 && animation < doc->animation_count) {
        const gltf_animation *a = &doc->animations[animation];
        for (int k = 0; e == LAB_OK && k < a->channel_count; k++) {
            const gltf_channel *c = &a->channels[k];
            if (c->path != GLTF_MORPH_WEIGHTS && !doc->nodes[c->node].has_matrix)
                e = apply_channel(doc, a, c, t, &tr[c->node], &rot[c->node], &sc[c->node], d);
        }
    }
    for (int i = 0; e == LAB_OK && i < doc->node_count; i++)
        out[i] = doc->nodes[i].has_matrix ? doc->nodes[i].matrix : trs_matrix(tr[i], rot[i], sc[i]);
    free(tr), free(sc), free(rot);
    return e;
}

void gltf_world_matrices(const gltf_document *doc, const mat4 *locals, mat4 *out_world)
{
    /* validated: parents form a forest, so walking up from each node ends at a root */
    for (int i = 0; i < doc->node_count; i++) {
        mat4 m = locals[i];
        for (int p = doc->nodes[i].parent; p >= 0; p = doc->nodes[p].parent)
            m = mat4_mul(locals[p], m);
        out_world[i] = m;
    }
}

/* ---- skinning ---------------------------------------------------------------------------------- */

int gltf_primitive_vertex_count(const gltf_document *doc, int mesh, int primitive)
{
    return doc->accessors[doc->meshes[mesh].primitives[primitive].position].count;
}

/* J_j = G(skin.joints[j]) IBM_j, with identity IBMs when the skin has none (5.28.1). */
static lab_error joint_matrices(const gltf_document *doc, const gltf_skin *s, const mat4 *world, mat4 *out,
                                lab_diag *d)
{
    double *ibm = NULL;
    if (s->inverse_bind >= 0) {
        ibm = malloc(sizeof(double) * 16 * (size_t)doc->accessors[s->inverse_bind].count);
        if (!ibm || gltf_accessor_read(doc, s->inverse_bind, ibm, d) != LAB_OK) {
            free(ibm);
            return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "(skin)", "%s", "inverse binds");
        }
    }
    for (int j = 0; j < s->joint_count; j++) {
        mat4 inverse_bind = mat4_identity();
        for (int c = 0; ibm && c < 4; c++)
            for (int r = 0; r < 4; r++)
                inverse_bind.m[r][c] = ibm[16 * j + 4 * c + r];
        out[j] = mat4_mul(world[s->joints[j]], inverse_bind);
    }
    free(ibm);
    return LAB_OK;
}

/* One vertex: gather its influences (all sets), apply the weight policy, blend. */
static lab_error skin_vertex(const double *j, const double *w, int n, vec3 p, const mat4 *jm, const dualquat *jq,
                             skin_method method, skin_policy_kind policy, int v, vec3 *out, bool *normalized,
                             lab_diag *d)
{
    double sum = 0.0;
    for (int k = 0; k < n; k++)
        sum += w[k];
    double tolerance = 2e-7 * n;
    *normalized = false;
    if (!(fabs(sum - 1.0) <= tolerance)) {
        char where[64];
        if (policy == SKIN_POLICY_STRICT || !(sum > SKIN_DEFAULT_EPS_W))
            return diag_fail(d, policy == SKIN_POLICY_STRICT ? LAB_ERR_WEIGHT_SUM : LAB_ERR_WEIGHT_SUM_ZERO,
                             diag_where(where, sizeof where, "vertex %d", v), "weights sum to %.9g (tolerance %g)", sum,
                             tolerance);
        *normalized = true;
    }
    if (method == SKIN_DQS) {
        dualquat q[4 * GLTF_MAX_SETS], unit;
        double wn[4 * GLTF_MAX_SETS];
        for (int k = 0; k < n; k++) {
            q[k] = jq[(int)j[k]];
            wn[k] = w[k] / sum;
        }
        char where[64];
        lab_error e = dualquat_normalize(dualquat_blend(q, wn, n, true), &unit,
                                         diag_where(where, sizeof where, "vertex %d", v), d);
        if (e == LAB_OK)
            *out = dualquat_transform_point(unit, p);
        return e;
    }
    vec4 acc = {0, 0, 0, 0};
    for (int k = 0; k < n; k++)
        acc = vec4_add(acc, vec4_scale(mat4_mul_vec4(jm[(int)j[k]], vec4_point(p)), w[k] / sum));
    *out = vec3_make(acc.x, acc.y, acc.z);
    return LAB_OK;
}

lab_error gltf_skin_primitive(const gltf_document *doc, int node, int primitive, const mat4 *world,
                              skin_method method, skin_policy_kind policy, vec3 *out_positions,
                              int *normalized, lab_diag *d)
{
    const gltf_node *nd = &doc->nodes[node];
    if (!doc->validated || nd->mesh < 0 || nd->skin < 0)
        return fail_at(d, "(node)", "node %d is not a validated skinned mesh node", node);
    const gltf_primitive *p = &doc->meshes[nd->mesh].primitives[primitive];
    const gltf_skin *s = &doc->skins[nd->skin];
    int n = doc->accessors[p->position].count, per = 4 * p->sets;
    mat4 *jm = malloc(sizeof(mat4) * (size_t)s->joint_count);
    dualquat *jq = malloc(sizeof(dualquat) * (size_t)s->joint_count);
    double *pos = malloc(sizeof(double) * 3 * (size_t)n), *jw = malloc(sizeof(double) * 2 * (size_t)(per ? per : 1) * n);
    lab_error e = (jm && jq && pos && jw) ? joint_matrices(doc, s, world, jm, d)
                                          : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "(skin)", "%d vertices", n);
    char where[64];
    for (int k = 0; e == LAB_OK && method == SKIN_DQS && k < s->joint_count; k++)
        e = dualquat_from_mat4(jm[k], &jq[k], diag_where(where, sizeof where, "joint matrix %d", k), d);
    if (e == LAB_OK)
        e = gltf_accessor_read(doc, p->position, pos, d);
    double *joints = jw, *weights = jw + (size_t)per * n;
    for (int set = 0; e == LAB_OK && set < p->sets; set++) {
        double *tj = malloc(sizeof(double) * 4 * (size_t)n), *tw = malloc(sizeof(double) * 4 * (size_t)n);
        e = (tj && tw) ? gltf_accessor_read(doc, p->joints[set], tj, d) : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "(skin)", "%s", "sets");
        if (e == LAB_OK)
            e = gltf_accessor_read(doc, p->weights[set], tw, d);
        for (int v = 0; e == LAB_OK && v < n; v++)
            for (int c = 0; c < 4; c++) {
                joints[(size_t)v * per + 4 * set + c] = tj[4 * v + c];
                weights[(size_t)v * per + 4 * set + c] = tw[4 * v + c];
            }
        free(tj), free(tw);
    }
    int count = 0;
    for (int v = 0; e == LAB_OK && v < n; v++) {
        bool norm;
        vec3 pt = vec3_make(pos[3 * v], pos[3 * v + 1], pos[3 * v + 2]);
        if (per == 0) { /* no influences: the mesh follows nothing; keep the bind position */
            out_positions[v] = pt;
            continue;
        }
        e = skin_vertex(joints + (size_t)v * per, weights + (size_t)v * per, per, pt, jm, jq, method, policy, v,
                        &out_positions[v], &norm, d);
        count += norm;
    }
    if (normalized)
        *normalized = count;
    free(jm), free(jq), free(pos), free(jw);
    return e;
}
