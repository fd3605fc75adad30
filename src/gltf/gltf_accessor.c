/* gltf_accessor.c - the glTF reader's ground floor: its error, component sizes, and the
 * accessors read as doubles once gltf_validate has checked their byte ranges (see
 * gltf_accessor.h). The parser, the validator and the sampler stand on it; it calls none
 * of them. */
#include "gltf/gltf_accessor.h"

#include "base/child.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

lab_error gltf_fail_at(lab_diag *d, const char *pointer, const char *fmt, ...)
{
    char value[256];
    va_list args;
    va_start(args, fmt);
    vsnprintf(value, sizeof value, fmt, args);
    va_end(args);
    return diag_fail(d, LAB_ERR_GLTF, pointer, "%s", value);
}

size_t gltf_component_size(int type)
{
    switch (type) {
    case 5120: case 5121: return 1;
    case 5122: case 5123: return 2;
    case 5125: case 5126: return 4;
    default: return 0;
    }
}

size_t gltf_element_size(const gltf_accessor *a)
{
    return gltf_component_size(a->component_type) * (size_t)a->components;
}

int gltf_first_not_finite(const double *values, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(values[i]))
            return (int)i;
    return -1;
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
    size_t csize = gltf_component_size(a->component_type);
    for (int i = 0; i < count; i++)
        for (int c = 0; c < a->components; c++)
            out[(size_t)i * a->components + c] =
                read_component(base + (size_t)i * stride + (size_t)c * csize, a->component_type, a->normalized);
}

static _Thread_local long reads;

long gltf_accessor_reads(void) { return reads; }

lab_error gltf_accessor_read(const gltf_document *doc, int index, double *out, lab_diag *d)
{
    if (!doc->validated || index < 0 || index >= doc->accessor_count)
        return gltf_fail_at(d, "(accessor)", "accessor %d read before validation or out of range", index);
    reads++;
    const gltf_accessor *a = &doc->accessors[index];
    if (a->view >= 0) {
        size_t stride = doc->views[a->view].stride ? doc->views[a->view].stride : gltf_element_size(a);
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
        read_elements(doc, a->sparse_index_view, a->sparse_index_offset, gltf_component_size(a->sparse_index_type),
                      &index_acc, a->sparse_count, idx);
        read_elements(doc, a->sparse_value_view, a->sparse_value_offset, gltf_element_size(a), a, a->sparse_count, val);
        for (int k = 0; k < a->sparse_count; k++)
            memcpy(out + (size_t)idx[k] * a->components, val + (size_t)k * a->components,
                   sizeof(double) * (size_t)a->components);
        free(idx), free(val);
    }
    return LAB_OK;
}

bool gltf_accessor_decoded(const gltf_document *doc, int a)
{
    int v = a >= 0 && a < doc->accessor_count ? doc->accessors[a].view : -1;
    return v >= 0 && v < doc->view_count && doc->views[v].buffer >= doc->parsed_buffer_count;
}

lab_error gltf_decoder_child(lab_error e, const lab_diag *crash, const char *at, const char *what, lab_diag *d)
{
    bool out_of_memory, ended = e == LAB_ERR_GLTF && child_ended(crash, &out_of_memory);
    if (ended && out_of_memory) /* the child's guard (exit 3) or glibc's loader (exit 127) */
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, at, "%s: the decoder's child could not allocate (%s)", what,
                         crash->value);
    if (ended)
        return gltf_fail_at(d, at, "%s: the decoder's process ended on the stream (%s)", what, crash->value);
    if (e != LAB_OK && d)
        *d = *crash;
    return e;
}
