/* gltf_draco.c - KHR_draco_mesh_compression's primitives decoded into plain accessors (see
 * gltf.h); the Draco decoder itself is behind gltf_draco_bridge.h. */
#include "gltf/gltf.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "base/child.h"
#include "base/library.h"
#include "gltf/gltf_accessor.h"
#include "gltf/gltf_draco_bridge.h"

/* The bridge is the lab's own shared library, build/lib/libskinlab-draco.so (libdraco
 * behind gltf_draco_bridge.h), opened beside the program, in a child process, by each
 * compressed primitive: libdraco's C++ start-up runs inside main under library_open's
 * guard, and what glibc's loader cannot allocate for it (exit 127) ends the child, not the
 * program, which reads the child's end as out of memory. This process never loads it. */
#define DRACO_BRIDGE "libskinlab-draco.so"
#define DRACO_FUNCTIONS(X)                                                                              \
    X(gltf_draco_result, decode, (const uint8_t *, size_t, gltf_draco_mesh **, char *, size_t))         \
    X(void, free, (gltf_draco_mesh *))                                                                  \
    X(long, points, (const gltf_draco_mesh *))                                                          \
    X(long, faces, (const gltf_draco_mesh *))                                                           \
    X(void, face, (const gltf_draco_mesh *, long, uint32_t[3]))                                         \
    X(int, components, (const gltf_draco_mesh *, int))                                                  \
    X(int, values, (const gltf_draco_mesh *, int, long, double *))

#define DRACO_MEMBER(type, name, params) type(*name) params;
static struct {
    DRACO_FUNCTIONS(DRACO_MEMBER)
} draco;
#undef DRACO_MEMBER

static lab_error draco_load(lab_diag *d)
{
    static bool loaded;
    if (loaded)
        return LAB_OK;
    char path[4200];
    if (!library_beside_program(DRACO_BRIDGE, path, sizeof path))
        return diag_fail(d, LAB_ERR_UNSUPPORTED, DRACO_BRIDGE, "cannot find the program's own folder (/proc/self/exe)");
    void *h;
    lab_error e = library_open(path, LIBRARY_START_ENDS_FOR_MEMORY, &h, d);
#define DRACO_TAKE(type, name, params)                                                                  \
    (void)sizeof(draco.name = gltf_draco_##name);                                                       \
    if (e == LAB_OK)                                                                                    \
        e = library_function(h, path, "gltf_draco_" #name, &draco.name, sizeof draco.name, d);
    DRACO_FUNCTIONS(DRACO_TAKE)
#undef DRACO_TAKE
    loaded = e == LAB_OK;
    return e;
}

/* A new buffer of size bytes (zeroed) and a view over all of it; its index in *view. */
static lab_error new_view(gltf_document *doc, size_t size, int *view, uint8_t **data, lab_diag *d)
{
    gltf_buffer *buffers = realloc(doc->buffers, sizeof *buffers * (size_t)(doc->buffer_count + 1));
    if (buffers)
        doc->buffers = buffers;
    gltf_view *views = buffers ? realloc(doc->views, sizeof *views * (size_t)(doc->view_count + 1)) : NULL;
    if (views)
        doc->views = views;
    *data = views ? calloc(size ? size : 1, 1) : NULL;
    if (!*data)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "KHR_draco_mesh_compression", "%zu decoded bytes", size);
    doc->buffers[doc->buffer_count] = (gltf_buffer){*data, size, false};
    doc->views[doc->view_count] = (gltf_view){doc->buffer_count++, 0, size, 0, {0}};
    *view = doc->view_count++;
    return LAB_OK;
}

/* A decoded mesh as the child sends it: its points and faces, the corners, and for each
 * attribute id the primitive names, its components and each point's values with a flag
 * (the decoder could convert them). */
enum { DRACO_IDS = 2 + 2 * GLTF_MAX_SETS, DRACO_MAX_COMPONENTS = 16 };
typedef struct {
    long points, faces;
    const uint32_t *corners;
    int ids;
    struct {
        int id, components;         /* components -1: the stream does not hold it */
        const double *values;       /* points x (components values, then the flag) */
    } attr[DRACO_IDS];
} decoded_mesh;

static int mesh_components(const decoded_mesh *m, int id, const double **values)
{
    for (int k = 0; k < m->ids; k++)
        if (m->attr[k].id == id) {
            *values = m->attr[k].values;
            return m->attr[k].components;
        }
    return -1;
}

/* One component, the value as the accessor means it (a normalized integer's in [0, 1] or
 * [-1, 1]), stored in the accessor's componentType; false when that type cannot hold it. */
static bool store(uint8_t *at, int type, bool normalized, double value)
{
    if (type == 5126) {
        float f = (float)value;
        memcpy(at, &f, 4);
        return isfinite(f);
    }
    static const struct { int type; double lo, hi; } kinds[] = {
        {5120, -128, 127}, {5121, 0, 255}, {5122, -32768, 32767}, {5123, 0, 65535}, {5125, 0, 4294967295.0}};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        if (kinds[k].type != type)
            continue;
        double v = normalized ? round(value * kinds[k].hi) : value;
        if (!(v >= kinds[k].lo && v <= kinds[k].hi && v == floor(v)))
            return false;
        if (type == 5120) { /* each cast only where the value fits its type */
            int8_t x = (int8_t)v;
            memcpy(at, &x, 1);
        } else if (type == 5121) {
            uint8_t x = (uint8_t)v;
            memcpy(at, &x, 1);
        } else if (type == 5122) {
            int16_t x = (int16_t)v;
            memcpy(at, &x, 2);
        } else if (type == 5123) {
            uint16_t x = (uint16_t)v;
            memcpy(at, &x, 2);
        } else {
            uint32_t x = (uint32_t)v;
            memcpy(at, &x, 4);
        }
        return true;
    }
    return false;
}

/* Attribute `id` of the decoded mesh into accessor a (named `name` at pointer at). */
static lab_error decode_attribute(gltf_document *doc, const decoded_mesh *mesh, int id, int a, const char *name,
                                  const char *at, lab_diag *d)
{
    if (a < 0 || a >= doc->accessor_count)
        return gltf_fail_at(d, at, "KHR_draco_mesh_compression: %s is accessor %d of %d", name, a, doc->accessor_count);
    gltf_accessor *acc = &doc->accessors[a];
    const double *values = NULL;
    int components = mesh_components(mesh, id, &values);
    long points = mesh->points;
    if (components < 0)
        return gltf_fail_at(d, at, "KHR_draco_mesh_compression: %s is Draco attribute %d, which the stream does not "
                            "hold", name, id);
    if (components != acc->components || points != acc->count)
        return gltf_fail_at(d, at, "KHR_draco_mesh_compression: %s decodes to %ld points of %d components; its "
                            "accessor %d has %d of %d", name, points, components, a, acc->count, acc->components);
    size_t size = gltf_component_size(acc->component_type), element = size * (size_t)components;
    if (size == 0 || doc->decoded_bytes + element * (size_t)points > GLTF_MAX_DECODED)
        return size == 0 ? gltf_fail_at(d, at, "KHR_draco_mesh_compression: %s: componentType %d", name, acc->component_type)
                         : diag_fail(d, LAB_ERR_LIMIT, at, "KHR_draco_mesh_compression: the compressed data decodes to "
                                     "more than %u bytes in all", GLTF_MAX_DECODED);
    int view;
    uint8_t *data;
    lab_error e = new_view(doc, element * (size_t)points, &view, &data, d);
    for (long p = 0; e == LAB_OK && p < points; p++) {
        const double *value = values + (size_t)p * (size_t)(components + 1);
        if (value[components] == 0)
            return gltf_fail_at(d, at, "KHR_draco_mesh_compression: %s, point %ld: the decoder cannot convert it", name, p);
        for (int c = 0; c < components; c++)
            if (!store(data + (size_t)p * element + (size_t)c * size, acc->component_type, acc->normalized, value[c]))
                return gltf_fail_at(d, at, "KHR_draco_mesh_compression: %s, point %ld: %g does not fit componentType "
                                    "%d%s", name, p, value[c], acc->component_type, acc->normalized ? " (normalized)" : "");
    }
    if (e == LAB_OK) {
        doc->decoded_bytes += element * (size_t)points;
        acc->view = view, acc->offset = 0, acc->sparse_count = 0, acc->from_draco = true;
    }
    return e;
}

/* The faces into the indices accessor. */
static lab_error decode_indices(gltf_document *doc, const decoded_mesh *mesh, int a, const char *at, lab_diag *d)
{
    if (a < 0 || a >= doc->accessor_count)
        return gltf_fail_at(d, at, "KHR_draco_mesh_compression: a compressed primitive needs its indices accessor");
    gltf_accessor *acc = &doc->accessors[a];
    long faces = mesh->faces;
    size_t size = gltf_component_size(acc->component_type);
    if (acc->components != 1 || (long)acc->count != 3 * faces || size == 0)
        return gltf_fail_at(d, at, "KHR_draco_mesh_compression: the stream decodes to %ld triangles; indices accessor %d "
                            "has %d elements of %d components", faces, a, acc->count, acc->components);
    if (doc->decoded_bytes + size * (size_t)acc->count > GLTF_MAX_DECODED)
        return diag_fail(d, LAB_ERR_LIMIT, at, "KHR_draco_mesh_compression: the compressed data decodes to more than %u "
                         "bytes in all", GLTF_MAX_DECODED);
    int view;
    uint8_t *data;
    lab_error e = new_view(doc, size * (size_t)acc->count, &view, &data, d);
    for (long f = 0; e == LAB_OK && f < faces; f++) {
        const uint32_t *corner = mesh->corners + 3 * f;
        for (int k = 0; k < 3; k++)
            if (!store(data + (size_t)(3 * f + k) * size, acc->component_type, false, corner[k]))
                return gltf_fail_at(d, at, "KHR_draco_mesh_compression: triangle %ld: index %u does not fit componentType "
                                    "%d", f, corner[k], acc->component_type);
    }
    if (e == LAB_OK) {
        doc->decoded_bytes += size * (size_t)acc->count;
        acc->view = view, acc->offset = 0, acc->sparse_count = 0;
    }
    return e;
}

/* What the child decodes: one stream, and the attribute ids the primitive names. */
typedef struct {
    const uint8_t *data;
    size_t size;
    int view;
    const char *at;
    int ids[DRACO_IDS], id_count;
} draco_job;

/* In the child: the bridge opened, the stream decoded, the mesh sent as decoded_mesh's
 * bytes (points, faces, corners, then per id: id, components, values and flags). */
static lab_error decode_in_child(void *state, bytes *out, lab_diag *d)
{
    const draco_job *j = state;
    lab_error e = draco_load(d);
    if (e != LAB_OK)
        return e;
    gltf_draco_mesh *mesh;
    char message[160];
    gltf_draco_result r = draco.decode(j->data, j->size, &mesh, message, sizeof message);
    if (r == GLTF_DRACO_OUT_OF_MEMORY)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, j->at, "KHR_draco_mesh_compression: decoding bufferView %d", j->view);
    if (r != GLTF_DRACO_OK)
        return gltf_fail_at(d, j->at, "KHR_draco_mesh_compression: bufferView %d: the Draco decoder refuses the %zu-byte "
                            "stream: %s", j->view, j->size, message);
    long points = draco.points(mesh), faces = draco.faces(mesh);
    if (points > GLTF_MAX_DECODED / 8 || faces > GLTF_MAX_DECODED / 12) {
        draco.free(mesh);
        return diag_fail(d, LAB_ERR_LIMIT, j->at, "KHR_draco_mesh_compression: the compressed data decodes to more than "
                         "%u bytes in all", GLTF_MAX_DECODED);
    }
    bytes_append(out, &points, sizeof points);
    bytes_append(out, &faces, sizeof faces);
    for (long f = 0; f < faces && !out->failed; f++) {
        uint32_t corner[3];
        draco.face(mesh, f, corner);
        bytes_append(out, corner, sizeof corner);
    }
    for (int k = 0; k < j->id_count && !out->failed; k++) {
        int id = j->ids[k], components = draco.components(mesh, id);
        if (components > DRACO_MAX_COMPONENTS || (size_t)points * (size_t)(components + 1) > GLTF_MAX_DECODED / 8)
            components = -1; /* more than an accessor holds: the parent refuses it by its count */
        bytes_append(out, &id, sizeof id);
        bytes_append(out, &components, sizeof components);
        for (long p = 0; components >= 0 && p < points && !out->failed; p++) {
            double value[DRACO_MAX_COMPONENTS + 1] = {0};
            value[components] = draco.values(mesh, id, p, value) ? 1 : 0;
            bytes_append(out, value, sizeof(double) * (size_t)(components + 1));
        }
    }
    draco.free(mesh);
    return out->failed ? diag_fail(d, LAB_ERR_OUT_OF_MEMORY, j->at, "KHR_draco_mesh_compression: the decoded mesh") : LAB_OK;
}

/* The child's bytes as a decoded_mesh (pointers into them). */
static bool read_mesh(const bytes *b, decoded_mesh *m)
{
    size_t at = 0;
#define TAKE(dst, n)                                                                                    \
    do {                                                                                                \
        if ((n) > b->len - at)                                                                          \
            return false;                                                                               \
        memcpy((dst), b->data + at, (n));                                                               \
        at += (n);                                                                                      \
    } while (0)
    *m = (decoded_mesh){0};
    TAKE(&m->points, sizeof m->points);
    TAKE(&m->faces, sizeof m->faces);
    if (m->faces < 0 || (size_t)m->faces * 12 > b->len - at)
        return false;
    m->corners = (const uint32_t *)(const void *)(b->data + at);
    at += (size_t)m->faces * 12;
    while (at < b->len && m->ids < DRACO_IDS) {
        int k = m->ids++;
        TAKE(&m->attr[k].id, sizeof(int));
        TAKE(&m->attr[k].components, sizeof(int));
        if (m->attr[k].components < 0)
            continue;
        size_t n = (size_t)m->points * (size_t)(m->attr[k].components + 1) * sizeof(double);
        if (n > b->len - at)
            return false;
        m->attr[k].values = (const double *)(const void *)(b->data + at);
        at += n;
    }
#undef TAKE
    return at == b->len;
}

/* One compressed primitive: its stream checked inside its buffer, decoded in a child,
 * written out. */
static lab_error decode_primitive(gltf_document *doc, gltf_primitive *p, const char *at, lab_diag *d)
{
    const gltf_draco *g = &p->draco;
    if (g->view >= doc->view_count)
        return gltf_fail_at(d, at, "KHR_draco_mesh_compression: bufferView %d of %d", g->view, doc->view_count);
    const gltf_view *v = &doc->views[g->view];
    if (v->buffer < 0 || v->buffer >= doc->buffer_count || doc->buffers[v->buffer].fallback ||
        v->offset > doc->buffers[v->buffer].size || v->length > doc->buffers[v->buffer].size - v->offset)
        return gltf_fail_at(d, at, "KHR_draco_mesh_compression: bufferView %d lies outside its buffer", g->view);
    draco_job job = {doc->buffers[v->buffer].data + v->offset, v->length, g->view, at, {0}, 0};
    const int wanted[] = {g->position, g->normal};
    for (int k = 0; k < 2; k++)
        if (wanted[k] >= 0)
            job.ids[job.id_count++] = wanted[k];
    for (int s = 0; s < p->sets; s++) {
        if (g->joints[s] >= 0)
            job.ids[job.id_count++] = g->joints[s];
        if (g->weights[s] >= 0)
            job.ids[job.id_count++] = g->weights[s];
    }
    bytes result = {0};
    lab_diag crash = {0};
    lab_error e = child_run("KHR_draco_mesh_compression", decode_in_child, &job, &result, LAB_ERR_GLTF, &crash);
    e = gltf_decoder_child(e, &crash, at, "KHR_draco_mesh_compression", d);
    decoded_mesh mesh;
    if (e == LAB_OK && !read_mesh(&result, &mesh))
        e = diag_fail(d, LAB_ERR_INVALID_ARGUMENT, at, "KHR_draco_mesh_compression: the decoder's child sent %zu bytes that "
                      "are not a mesh", result.len);
    if (e == LAB_OK)
        e = decode_indices(doc, &mesh, p->indices, at, d);
    if (e == LAB_OK && g->position >= 0)
        e = decode_attribute(doc, &mesh, g->position, p->position, "POSITION", at, d);
    if (e == LAB_OK && g->normal >= 0)
        e = decode_attribute(doc, &mesh, g->normal, p->normal, "NORMAL", at, d);
    for (int s = 0; e == LAB_OK && s < p->sets; s++) {
        char name[16];
        snprintf(name, sizeof name, "JOINTS_%d", s);
        if (g->joints[s] >= 0)
            e = decode_attribute(doc, &mesh, g->joints[s], p->joints[s], name, at, d);
        snprintf(name, sizeof name, "WEIGHTS_%d", s);
        if (e == LAB_OK && g->weights[s] >= 0)
            e = decode_attribute(doc, &mesh, g->weights[s], p->weights[s], name, at, d);
    }
    bytes_free(&result);
    return e;
}

lab_error gltf_draco_decode_all(gltf_document *doc, lab_diag *d)
{
    char at[128];
    for (int m = 0; m < doc->mesh_count; m++)
        for (int k = 0; k < doc->meshes[m].primitive_count; k++) {
            gltf_primitive *p = &doc->meshes[m].primitives[k];
            if (p->draco.view < 0)
                continue;
            snprintf(at, sizeof at, "/meshes/%d/primitives/%d/extensions/KHR_draco_mesh_compression", m, k);
            lab_error e = decode_primitive(doc, p, at, d);
            if (e != LAB_OK)
                return e;
            p->draco.view = -1; /* decoded: its accessors are plain now */
        }
    return LAB_OK;
}
