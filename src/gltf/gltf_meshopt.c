/* gltf_meshopt.c - EXT_meshopt_compression's views decoded with libmeshoptimizer (see gltf.h),
 * which only a child process opens (src/base/library.h), for an asset that needs it. */
#include "gltf/gltf.h"

#include <meshoptimizer.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "base/child.h"
#include "base/library.h"
#include "gltf/gltf_accessor.h"

#ifndef GLTF_MESHOPT_LIBRARY
#error "GLTF_MESHOPT_LIBRARY (libmeshoptimizer's SONAME) is set by the build (scripts/ensure-deps.sh)"
#endif

/* The decoders this file calls, taken from the library by name. */
#define MESHOPT_FUNCTIONS(X)                                                                            \
    X(int, decodeVertexBuffer, (void *, size_t, size_t, const unsigned char *, size_t))                 \
    X(int, decodeIndexBuffer, (void *, size_t, size_t, const unsigned char *, size_t))                  \
    X(int, decodeIndexSequence, (void *, size_t, size_t, const unsigned char *, size_t))                \
    X(void, decodeFilterOct, (void *, size_t, size_t))                                                  \
    X(void, decodeFilterQuat, (void *, size_t, size_t))                                                 \
    X(void, decodeFilterExp, (void *, size_t, size_t))

#define MESHOPT_MEMBER(type, name, params) type(*name) params;
static struct {
    MESHOPT_FUNCTIONS(MESHOPT_MEMBER)
} meshopt;
#undef MESHOPT_MEMBER

/* Opens the library once; each pointer is checked against the header's prototype by an
 * assignment the compiler types but never evaluates (sizeof). */
static lab_error meshopt_load(lab_diag *d)
{
    static bool loaded;
    if (loaded)
        return LAB_OK;
    void *h;
    lab_error e = library_open(GLTF_MESHOPT_LIBRARY, LIBRARY_START_ENDS_FOR_MEMORY, &h, d);
#define MESHOPT_TAKE(type, name, params)                                                                \
    (void)sizeof(meshopt.name = meshopt_##name);                                                        \
    if (e == LAB_OK)                                                                                    \
        e = library_function(h, GLTF_MESHOPT_LIBRARY, "meshopt_" #name, &meshopt.name, sizeof meshopt.name, d);
    MESHOPT_FUNCTIONS(MESHOPT_TAKE)
#undef MESHOPT_TAKE
    loaded = e == LAB_OK;
    return e;
}

static const char *const mode_names[] = {"ATTRIBUTES", "TRIANGLES", "INDICES"};
static const char *const filter_names[] = {"NONE", "OCTAHEDRAL", "QUATERNION", "EXPONENTIAL"};

/* The rules of the extension's specification, checked before anything is decoded. */
static lab_error check_view(const gltf_document *doc, const gltf_view *v, const char *at, lab_diag *d)
{
    const gltf_meshopt *m = &v->meshopt;
    if (m->buffer < 0 || m->buffer >= doc->buffer_count)
        return gltf_fail_at(d, at, "EXT_meshopt_compression: buffer %d of %d", m->buffer, doc->buffer_count);
    const gltf_buffer *b = &doc->buffers[m->buffer];
    if (b->fallback)
        return gltf_fail_at(d, at, "EXT_meshopt_compression: buffer %d is a fallback buffer, which holds no data",
                            m->buffer);
    if (m->offset > b->size || m->length > b->size - m->offset)
        return gltf_fail_at(d, at, "EXT_meshopt_compression: bytes [%zu, %zu) outside buffer %d of %zu bytes",
                            m->offset, m->offset + m->length, m->buffer, b->size);
    if (m->count <= 0 || (size_t)m->count * m->stride != v->length)
        return gltf_fail_at(d, at, "EXT_meshopt_compression: count %ld x byteStride %zu is not the view's "
                            "byteLength %zu", m->count, m->stride, v->length);
    bool stride_ok = m->mode == GLTF_MESHOPT_ATTRIBUTES ? m->stride % 4 == 0 && m->stride <= 256
                                                        : m->stride == 2 || m->stride == 4;
    if (!stride_ok)
        return gltf_fail_at(d, at, "EXT_meshopt_compression: byteStride %zu is not allowed in mode %s (%s)",
                            m->stride, mode_names[m->mode],
                            m->mode == GLTF_MESHOPT_ATTRIBUTES ? "a multiple of 4, at most 256" : "2 or 4");
    if (m->mode == GLTF_MESHOPT_TRIANGLES && m->count % 3)
        return gltf_fail_at(d, at, "EXT_meshopt_compression: count %ld of mode TRIANGLES is not a multiple of 3",
                            m->count);
    if (v->stride && v->stride != m->stride)
        return gltf_fail_at(d, at, "EXT_meshopt_compression: byteStride %zu differs from the view's %zu", m->stride,
                            v->stride);
    bool filter_ok = m->filter == GLTF_MESHOPT_NONE ||
                     (m->mode == GLTF_MESHOPT_ATTRIBUTES &&
                      (m->filter == GLTF_MESHOPT_OCTAHEDRAL ? m->stride == 4 || m->stride == 8
                       : m->filter == GLTF_MESHOPT_QUATERNION ? m->stride == 8 : true));
    if (!filter_ok)
        return gltf_fail_at(d, at, "EXT_meshopt_compression: filter %s does not go with mode %s and byteStride %zu",
                            filter_names[m->filter], mode_names[m->mode], m->stride);
    return LAB_OK;
}

/* One view: its count x stride bytes decoded into out (a new allocation). */
static lab_error decode_view(const gltf_document *doc, const gltf_view *v, const char *at, uint8_t **out,
                             lab_diag *d)
{
    const gltf_meshopt *m = &v->meshopt;
    const unsigned char *src = doc->buffers[m->buffer].data + m->offset;
    *out = malloc(v->length);
    if (!*out)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, at, "EXT_meshopt_compression: %zu decoded bytes", v->length);
    int rc;
    const char *call;
    if (m->mode == GLTF_MESHOPT_ATTRIBUTES)
        call = "meshopt_decodeVertexBuffer", rc = meshopt.decodeVertexBuffer(*out, (size_t)m->count, m->stride, src,
                                                                             m->length);
    else if (m->mode == GLTF_MESHOPT_TRIANGLES)
        call = "meshopt_decodeIndexBuffer", rc = meshopt.decodeIndexBuffer(*out, (size_t)m->count, m->stride, src,
                                                                           m->length);
    else
        call = "meshopt_decodeIndexSequence", rc = meshopt.decodeIndexSequence(*out, (size_t)m->count, m->stride,
                                                                               src, m->length);
    if (rc != 0) {
        free(*out), *out = NULL;
        return gltf_fail_at(d, at, "EXT_meshopt_compression: %s returned %d: the %zu-byte stream is truncated or "
                            "malformed for %ld elements of %zu bytes", call, rc, m->length, m->count, m->stride);
    }
    if (m->filter == GLTF_MESHOPT_OCTAHEDRAL)
        meshopt.decodeFilterOct(*out, (size_t)m->count, m->stride);
    else if (m->filter == GLTF_MESHOPT_QUATERNION)
        meshopt.decodeFilterQuat(*out, (size_t)m->count, m->stride);
    else if (m->filter == GLTF_MESHOPT_EXPONENTIAL)
        meshopt.decodeFilterExp(*out, (size_t)m->count, m->stride);
    return LAB_OK;
}

/* In the child: the library opened, every compressed view decoded, their bytes one after
 * another in the views' order. */
static lab_error decode_in_child(void *state, bytes *out, lab_diag *d)
{
    const gltf_document *doc = state;
    lab_error e = meshopt_load(d);
    char at[64];
    for (int i = 0; e == LAB_OK && i < doc->view_count; i++) {
        const gltf_view *v = &doc->views[i];
        if (!v->meshopt.on)
            continue;
        snprintf(at, sizeof at, "/bufferViews/%d", i);
        uint8_t *data;
        e = decode_view(doc, v, at, &data, d);
        if (e == LAB_OK)
            bytes_append(out, data, v->length);
        free(data);
    }
    return e == LAB_OK && out->failed ? diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "EXT_meshopt_compression", "%zu decoded bytes",
                                                  out->len)
                                      : e;
}

lab_error gltf_meshopt_decode(gltf_document *doc, lab_diag *d)
{
    char at[64];
    size_t total = doc->decoded_bytes;
    int compressed = 0;
    for (int i = 0; i < doc->view_count; i++) { /* every rule first, and the total, before any allocation */
        const gltf_view *v = &doc->views[i];
        if (!v->meshopt.on)
            continue;
        snprintf(at, sizeof at, "/bufferViews/%d", i);
        lab_error e = check_view(doc, v, at, d);
        if (e != LAB_OK)
            return e;
        if (v->length > GLTF_MAX_DECODED - total)
            return diag_fail(d, LAB_ERR_LIMIT, at, "EXT_meshopt_compression: the compressed data decodes to more than "
                             "%u bytes in all", GLTF_MAX_DECODED);
        total += v->length;
        compressed++;
    }
    if (compressed == 0)
        return LAB_OK;
    /* decoded in a child, which alone opens the library (src/base/library.h) */
    bytes decoded = {0};
    lab_diag crash = {0};
    lab_error e = child_run("EXT_meshopt_compression", decode_in_child, doc, &decoded, LAB_ERR_GLTF, &crash);
    e = gltf_decoder_child(e, &crash, "/bufferViews", "EXT_meshopt_compression", d);
    if (e == LAB_OK && decoded.len != total - doc->decoded_bytes)
        e = diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "EXT_meshopt_compression", "the decoder's child sent %zu bytes, not %zu",
                      decoded.len, total - doc->decoded_bytes);
    gltf_buffer *buffers = e == LAB_OK ? realloc(doc->buffers, sizeof *buffers * (size_t)(doc->buffer_count + compressed))
                                       : NULL;
    if (e == LAB_OK && !buffers)
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "/buffers", "%d decoded views", compressed);
    if (e == LAB_OK)
        doc->buffers = buffers, doc->decoded_bytes = total;
    size_t from = 0;
    for (int i = 0; e == LAB_OK && i < doc->view_count; i++) {
        gltf_view *v = &doc->views[i];
        if (!v->meshopt.on)
            continue;
        uint8_t *data = malloc(v->length ? v->length : 1);
        if (!data) {
            e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "EXT_meshopt_compression", "%zu decoded bytes", v->length);
            break;
        }
        memcpy(data, decoded.data + from, v->length);
        from += v->length;
        doc->buffers[doc->buffer_count] = (gltf_buffer){data, v->length, false};
        *v = (gltf_view){doc->buffer_count++, 0, v->length, v->stride ? v->stride : 0, {0}};
    }
    bytes_free(&decoded);
    return e;
}
