/* gltf_draco.c - KHR_draco_mesh_compression's primitives decoded into plain accessors (see
 * gltf.h); the Draco decoder itself is behind gltf_draco_bridge.h. */
#include "gltf/gltf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gltf/gltf_accessor.h"
#include "gltf/gltf_draco_bridge.h"

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
static lab_error decode_attribute(gltf_document *doc, const gltf_draco_mesh *mesh, int id, int a, const char *name,
                                  const char *at, lab_diag *d)
{
    if (a < 0 || a >= doc->accessor_count)
        return gltf_fail_at(d, at, "KHR_draco_mesh_compression: %s is accessor %d of %d", name, a, doc->accessor_count);
    gltf_accessor *acc = &doc->accessors[a];
    int components = gltf_draco_components(mesh, id);
    long points = gltf_draco_points(mesh);
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
    double value[16];
    for (long p = 0; e == LAB_OK && p < points; p++) {
        if (!gltf_draco_values(mesh, id, p, value))
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
static lab_error decode_indices(gltf_document *doc, const gltf_draco_mesh *mesh, int a, const char *at, lab_diag *d)
{
    if (a < 0 || a >= doc->accessor_count)
        return gltf_fail_at(d, at, "KHR_draco_mesh_compression: a compressed primitive needs its indices accessor");
    gltf_accessor *acc = &doc->accessors[a];
    long faces = gltf_draco_faces(mesh);
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
        uint32_t corner[3];
        gltf_draco_face(mesh, f, corner);
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

/* One compressed primitive: its stream checked inside its buffer, decoded, written out. */
static lab_error decode_primitive(gltf_document *doc, gltf_primitive *p, const char *at, lab_diag *d)
{
    const gltf_draco *g = &p->draco;
    if (g->view >= doc->view_count)
        return gltf_fail_at(d, at, "KHR_draco_mesh_compression: bufferView %d of %d", g->view, doc->view_count);
    const gltf_view *v = &doc->views[g->view];
    if (v->buffer < 0 || v->buffer >= doc->buffer_count || doc->buffers[v->buffer].fallback ||
        v->offset > doc->buffers[v->buffer].size || v->length > doc->buffers[v->buffer].size - v->offset)
        return gltf_fail_at(d, at, "KHR_draco_mesh_compression: bufferView %d lies outside its buffer", g->view);
    gltf_draco_mesh *mesh;
    char message[160];
    gltf_draco_result r = gltf_draco_decode(doc->buffers[v->buffer].data + v->offset, v->length, &mesh, message,
                                            sizeof message);
    if (r == GLTF_DRACO_OUT_OF_MEMORY)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, at, "KHR_draco_mesh_compression: decoding bufferView %d", g->view);
    if (r != GLTF_DRACO_OK)
        return gltf_fail_at(d, at, "KHR_draco_mesh_compression: bufferView %d: the Draco decoder refuses the %zu-byte "
                            "stream: %s", g->view, v->length, message);
    lab_error e = decode_indices(doc, mesh, p->indices, at, d);
    if (e == LAB_OK && g->position >= 0)
        e = decode_attribute(doc, mesh, g->position, p->position, "POSITION", at, d);
    if (e == LAB_OK && g->normal >= 0)
        e = decode_attribute(doc, mesh, g->normal, p->normal, "NORMAL", at, d);
    for (int s = 0; e == LAB_OK && s < p->sets; s++) {
        char name[16];
        snprintf(name, sizeof name, "JOINTS_%d", s);
        if (g->joints[s] >= 0)
            e = decode_attribute(doc, mesh, g->joints[s], p->joints[s], name, at, d);
        snprintf(name, sizeof name, "WEIGHTS_%d", s);
        if (e == LAB_OK && g->weights[s] >= 0)
            e = decode_attribute(doc, mesh, g->weights[s], p->weights[s], name, at, d);
    }
    gltf_draco_free(mesh);
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
