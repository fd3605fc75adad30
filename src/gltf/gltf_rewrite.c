/* gltf_rewrite.c - an asset back to a .glb with new influences (see gltf_rewrite.h). */
#include "gltf/gltf_rewrite.h"

#include "gltf/gltf_accessor.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/diag.h"
#include "base/json_memory.h"

void gltf_rewrite_weights_to_float(const double *w, int k, float *out)
{
    int largest = 0;
    double others = 0.0;
    for (int i = 0; i < k; i++) {
        out[i] = (float)w[i];
        if (w[i] > w[largest])
            largest = i;
    }
    for (int i = 0; i < k; i++)
        if (i != largest)
            others += out[i];
    out[largest] = (float)(1.0 - others);
}

static void pad(bytes *b, unsigned char with)
{
    while (b->len % 4)
        bytes_append(b, &with, 1);
}

/* A view over bin[offset, offset + length) and an accessor of `count` VEC4 on it. */
static int add_accessor(cJSON *root, size_t offset, size_t length, int component, int count)
{
    cJSON *views = cJSON_GetObjectItemCaseSensitive(root, "bufferViews");
    cJSON *accessors = cJSON_GetObjectItemCaseSensitive(root, "accessors");
    cJSON *view = cJSON_CreateObject(), *accessor = cJSON_CreateObject();
    cJSON_AddNumberToObject(view, "buffer", 0);
    cJSON_AddNumberToObject(view, "byteOffset", (double)offset);
    cJSON_AddNumberToObject(view, "byteLength", (double)length);
    cJSON_AddNumberToObject(view, "target", 34962); /* ARRAY_BUFFER */
    cJSON_AddItemToArray(views, view);
    cJSON_AddNumberToObject(accessor, "bufferView", cJSON_GetArraySize(views) - 1);
    cJSON_AddNumberToObject(accessor, "componentType", component);
    cJSON_AddNumberToObject(accessor, "count", count);
    cJSON_AddStringToObject(accessor, "type", "VEC4");
    cJSON_AddItemToArray(accessors, accessor);
    return cJSON_GetArraySize(accessors) - 1;
}

static bool lists(const cJSON *root, const char *list, const char *name)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(root, list))
        if (cJSON_IsString(e) && !strcmp(e->valuestring, name))
            return true;
    return false;
}

/* The parent of node i in the JSON (-1: a root), and where it sits in the parent's children. */
static int parent_of(cJSON *nodes, int i, int *slot)
{
    int p = 0;
    cJSON *node;
    cJSON_ArrayForEach(node, nodes) {
        int k = 0;
        cJSON *child;
        cJSON_ArrayForEach(child, cJSON_GetObjectItemCaseSensitive(node, "children")) {
            if ((int)cJSON_GetNumberValue(child) == i) {
                *slot = k;
                return p;
            }
            k++;
        }
        p++;
    }
    return -1;
}

/* A node with a skinned mesh becomes a root of the scenes its ancestors are in: glTF ignores
 * the transforms above a skinned mesh, and the validator warns where it is not a root
 * (NODE_SKINNED_MESH_NON_ROOT). */
static void skinned_meshes_to_roots(cJSON *root)
{
    cJSON *nodes = cJSON_GetObjectItemCaseSensitive(root, "nodes");
    int i = 0;
    cJSON *node;
    cJSON_ArrayForEach(node, nodes) {
        int slot = 0, parent = parent_of(nodes, i, &slot);
        if (cJSON_GetObjectItemCaseSensitive(node, "skin") && cJSON_GetObjectItemCaseSensitive(node, "mesh") && parent >= 0) {
            cJSON *children = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(nodes, parent), "children");
            cJSON_DeleteItemFromArray(children, slot);
            if (cJSON_GetArraySize(children) == 0) /* glTF allows no empty children array */
                cJSON_DeleteItemFromObjectCaseSensitive(cJSON_GetArrayItem(nodes, parent), "children");
            int top = parent, up;
            while ((up = parent_of(nodes, top, &slot)) >= 0)
                top = up;
            cJSON *scene;
            cJSON_ArrayForEach(scene, cJSON_GetObjectItemCaseSensitive(root, "scenes")) {
                cJSON *list = cJSON_GetObjectItemCaseSensitive(scene, "nodes"), *entry;
                bool holds = false;
                cJSON_ArrayForEach(entry, list)
                    holds |= (int)cJSON_GetNumberValue(entry) == top;
                if (holds)
                    cJSON_AddItemToArray(list, cJSON_CreateNumber(i));
            }
        }
        i++;
    }
}

/* The file's buffers into one BIN, each view moved to where its buffer landed. */
static void merge_buffers(const gltf_document *doc, cJSON *root, bytes *bin)
{
    size_t *base = calloc((size_t)doc->parsed_buffer_count + 1, sizeof *base);
    if (!base) {
        bin->failed = true;
        return;
    }
    for (int b = 0; b < doc->parsed_buffer_count; b++) {
        pad(bin, 0);
        base[b] = bin->len;
        if (!doc->buffers[b].fallback) /* EXT_meshopt_compression's: no data (its views are rewritten) */
            bytes_append(bin, doc->buffers[b].data, doc->buffers[b].size);
    }
    cJSON *view;
    cJSON_ArrayForEach(view, cJSON_GetObjectItemCaseSensitive(root, "bufferViews")) {
        int b = (int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(view, "buffer"));
        const cJSON *offset = cJSON_GetObjectItemCaseSensitive(view, "byteOffset");
        double moved = (double)base[b] + (offset ? cJSON_GetNumberValue(offset) : 0.0);
        cJSON_ReplaceItemInObject(view, "buffer", cJSON_CreateNumber(0));
        if (offset)
            cJSON_ReplaceItemInObject(view, "byteOffset", cJSON_CreateNumber(moved));
        else
            cJSON_AddNumberToObject(view, "byteOffset", moved);
    }
    free(base);
}

/* Removes name from root's list (extensionsUsed, extensionsRequired), and the list when it
 * is left empty. */
static void unlist(cJSON *root, const char *list, const char *name)
{
    cJSON *array = cJSON_GetObjectItemCaseSensitive(root, list);
    for (int i = cJSON_GetArraySize(array) - 1; i >= 0; i--) {
        const char *entry = cJSON_GetStringValue(cJSON_GetArrayItem(array, i));
        if (entry && !strcmp(entry, name))
            cJSON_DeleteItemFromArray(array, i);
    }
    if (array && cJSON_GetArraySize(array) == 0)
        cJSON_DeleteItemFromObjectCaseSensitive(root, list);
}

/* Removes object.extensions.name, and "extensions" when it is left empty. */
static void drop_extension(cJSON *object, const char *name)
{
    cJSON *extensions = cJSON_GetObjectItemCaseSensitive(object, "extensions");
    cJSON_DeleteItemFromObjectCaseSensitive(extensions, name);
    if (extensions && !extensions->child)
        cJSON_DeleteItemFromObjectCaseSensitive(object, "extensions");
}

/* EXT_meshopt_compression undone: every compressed view's bytes as gltf_validate decoded
 * them appended to bin, the view pointed at them with its extension removed; the extension
 * leaves extensionsUsed and extensionsRequired. The fallback buffers go with the others:
 * the .glb has one buffer. */
static void decompress_views(const gltf_document *doc, cJSON *root, bytes *bin)
{
    cJSON *view;
    int i = -1;
    cJSON_ArrayForEach(view, cJSON_GetObjectItemCaseSensitive(root, "bufferViews")) {
        i++;
        if (!cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(view, "extensions"),
                                              "EXT_meshopt_compression"))
            continue;
        const gltf_view *v = &doc->views[i]; /* the decoded bytes, in a buffer of their own */
        pad(bin, 0);
        cJSON_ReplaceItemInObject(view, "buffer", cJSON_CreateNumber(0));
        cJSON_DeleteItemFromObjectCaseSensitive(view, "byteOffset");
        cJSON_AddNumberToObject(view, "byteOffset", (double)bin->len);
        cJSON_ReplaceItemInObject(view, "byteLength", cJSON_CreateNumber((double)v->length));
        bytes_append(bin, doc->buffers[v->buffer].data + v->offset, v->length);
        drop_extension(view, "EXT_meshopt_compression");
    }
    unlist(root, "extensionsUsed", "EXT_meshopt_compression");
    unlist(root, "extensionsRequired", "EXT_meshopt_compression");
}

/* The media type of an image from its uri's extension, as glTF and its extensions name them;
 * NULL when it is none of them. */
static const char *media_type_of(const char *uri)
{
    static const char *const known[][2] = {{".png", "image/png"},   {".jpg", "image/jpeg"}, {".jpeg", "image/jpeg"},
                                           {".webp", "image/webp"}, {".ktx2", "image/ktx2"}};
    const char *dot = strrchr(uri, '.');
    for (size_t k = 0; dot && k < sizeof known / sizeof known[0]; k++)
        if (!strcasecmp(dot, known[k][0]))
            return known[k][1];
    return NULL;
}

/* Every image the file names by an external uri, embedded: its bytes read from beside the
 * asset (the reader's rules: a relative path inside its folder), appended to bin in a view
 * of their own, the image given the view and its mimeType (its own, or its extension's) and
 * its uri removed, so that the .glb loads whole wherever it is put. Data URIs and images
 * already in views stay as they are. */
static lab_error embed_images(const gltf_document *doc, cJSON *root, bytes *bin, lab_diag *d)
{
    cJSON *image, *views = cJSON_GetObjectItemCaseSensitive(root, "bufferViews");
    int i = -1;
    cJSON_ArrayForEach(image, cJSON_GetObjectItemCaseSensitive(root, "images")) {
        i++;
        const cJSON *uri = cJSON_GetObjectItemCaseSensitive(image, "uri");
        if (!cJSON_IsString(uri) || !strncmp(uri->valuestring, "data:", 5))
            continue;
        char pointer[64];
        snprintf(pointer, sizeof pointer, "/images/%d/uri", i);
        const cJSON *given = cJSON_GetObjectItemCaseSensitive(image, "mimeType");
        const char *type = cJSON_IsString(given) ? given->valuestring : media_type_of(uri->valuestring);
        if (!type)
            return diag_fail(d, LAB_ERR_GLTF, pointer, "\"%.60s\": an image with neither a mimeType nor a known "
                             "extension (.png, .jpg, .jpeg, .webp, .ktx2) cannot be embedded in the .glb",
                             uri->valuestring);
        bytes file = {0};
        lab_error e = gltf_read_beside(uri->valuestring, doc->base_dir, GLTF_MAX_FILE, pointer, &file, d);
        if (e != LAB_OK)
            return e;
        pad(bin, 0);
        cJSON *view = cJSON_CreateObject();
        cJSON_AddNumberToObject(view, "buffer", 0);
        cJSON_AddNumberToObject(view, "byteOffset", (double)bin->len);
        cJSON_AddNumberToObject(view, "byteLength", (double)file.len);
        bytes_append(bin, file.data, file.len);
        bytes_free(&file);
        cJSON_AddItemToArray(views, view);
        cJSON_DeleteItemFromObjectCaseSensitive(image, "uri");
        cJSON_AddNumberToObject(image, "bufferView", cJSON_GetArraySize(views) - 1);
        if (!cJSON_IsString(given))
            cJSON_AddStringToObject(image, "mimeType", type);
    }
    return LAB_OK;
}

/* One primitive's JOINTS_n / WEIGHTS_n replaced by the caller's sets for its n vertices from
 * `first` on, each set in views of its own at the end of bin. */
static void replace_influences(cJSON *root, const gltf_rewrite_influences *in, gltf_primitive_ref part, size_t first,
                               int n, bytes *bin)
{
    cJSON *prim = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(
                                         cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "meshes"), part.mesh),
                                         "primitives"),
                                     part.primitive);
    cJSON *attributes = cJSON_GetObjectItemCaseSensitive(prim, "attributes");
    /* a Draco primitive keeps its stream for the rest; the new sets are plain accessors
     * beside it, which a loader reads "as usual" (the extension's conformance section) */
    cJSON *draco = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(prim, "extensions"), "KHR_draco_mesh_compression"),
        "attributes");
    for (int s = 0; s < GLTF_MAX_SETS; s++) { /* the old sets go */
        char name[32];
        snprintf(name, sizeof name, "JOINTS_%d", s);
        cJSON_DeleteItemFromObjectCaseSensitive(attributes, name);
        cJSON_DeleteItemFromObjectCaseSensitive(draco, name);
        snprintf(name, sizeof name, "WEIGHTS_%d", s);
        cJSON_DeleteItemFromObjectCaseSensitive(attributes, name);
        cJSON_DeleteItemFromObjectCaseSensitive(draco, name);
    }
    for (int s = 0; s < in->sets; s++) {
        char name[32];
        pad(bin, 0);
        size_t at = bin->len;
        for (size_t v = first; v < first + (size_t)n; v++)
            bytes_append(bin, in->joints + (v * (size_t)in->sets + (size_t)s) * 4, 4 * sizeof *in->joints);
        snprintf(name, sizeof name, "JOINTS_%d", s);
        cJSON_AddNumberToObject(attributes, name, add_accessor(root, at, bin->len - at, 5123, n));
        at = bin->len;
        for (size_t v = first; v < first + (size_t)n; v++)
            bytes_append(bin, in->weights + (v * (size_t)in->sets + (size_t)s) * 4, 4 * sizeof *in->weights);
        snprintf(name, sizeof name, "WEIGHTS_%d", s);
        cJSON_AddNumberToObject(attributes, name, add_accessor(root, at, bin->len - at, 5126, n));
    }
}

lab_error gltf_rewrite(const gltf_document *doc, const gltf_rewrite_influences *in, bytes *glb, lab_diag *d)
{
    if (in->sets < 1 || in->sets > GLTF_MAX_SETS || in->part_count < 1 || !in->parts || !doc->json)
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "gltf_rewrite", "%d parts, %d sets", in->part_count, in->sets);
    for (int p = 0; p < in->part_count; p++) {
        gltf_primitive_ref r = in->parts[p];
        bool twice = false;
        for (int q = 0; q < p; q++)
            twice |= in->parts[q].mesh == r.mesh && in->parts[q].primitive == r.primitive;
        if (r.mesh < 0 || r.mesh >= doc->mesh_count || r.primitive < 0 ||
            r.primitive >= doc->meshes[r.mesh].primitive_count || twice)
            return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "gltf_rewrite", "part %d: mesh %d primitive %d%s", p, r.mesh,
                             r.primitive, twice ? ", named twice" : "");
    }
    long failures = json_memory_failures(); /* any of cJSON's allocations failing below */
    cJSON *root = cJSON_ParseWithLength(doc->json, doc->json_size);
    if (!root)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "gltf_rewrite", "%zu bytes of JSON", doc->json_size);
    bytes bin = {0};
    merge_buffers(doc, root, &bin);
    if (lists(root, "extensionsUsed", "EXT_meshopt_compression"))
        decompress_views(doc, root, &bin);
    skinned_meshes_to_roots(root);
    if (!cJSON_GetObjectItemCaseSensitive(root, "bufferViews"))
        cJSON_AddArrayToObject(root, "bufferViews");
    lab_error e = embed_images(doc, root, &bin, d);
    if (e != LAB_OK) {
        cJSON_Delete(root), bytes_free(&bin);
        return e;
    }
    if (!cJSON_GetObjectItemCaseSensitive(root, "accessors"))
        cJSON_AddArrayToObject(root, "accessors");
    size_t first = 0; /* the part's first vertex in the caller's arrays */
    for (int p = 0; p < in->part_count; p++) {
        int n = gltf_primitive_vertex_count(doc, in->parts[p].mesh, in->parts[p].primitive);
        replace_influences(root, in, in->parts[p], first, n, &bin);
        first += (size_t)n;
    }
    pad(&bin, 0);
    cJSON *buffer = cJSON_CreateObject();
    cJSON_AddNumberToObject(buffer, "byteLength", (double)bin.len);
    cJSON *buffers = cJSON_CreateArray();
    cJSON_AddItemToArray(buffers, buffer);
    cJSON_DeleteItemFromObjectCaseSensitive(root, "buffers");
    cJSON_AddItemToObject(root, "buffers", buffers);
    cJSON *asset = cJSON_GetObjectItemCaseSensitive(root, "asset");
    cJSON_DeleteItemFromObjectCaseSensitive(asset, "generator");
    cJSON_AddStringToObject(asset, "generator", in->generator);
    char *json = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    if (!json || bin.failed || json_memory_failures() != failures) {
        free(json), bytes_free(&bin);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "gltf_rewrite", "a document of %zu bytes of binary data", bin.len);
    }
    /* GLB: the header, the JSON chunk padded with spaces, the BIN chunk padded with zeros */
    bytes text = {0};
    bytes_append(&text, json, strlen(json));
    free(json);
    pad(&text, ' ');
    uint32_t header[3] = {0x46546C67u, 2, (uint32_t)(12 + 8 + text.len + 8 + bin.len)};
    uint32_t json_chunk[2] = {(uint32_t)text.len, 0x4E4F534Au}, bin_chunk[2] = {(uint32_t)bin.len, 0x004E4942u};
    bytes_append(glb, header, sizeof header);
    bytes_append(glb, json_chunk, sizeof json_chunk);
    bytes_append(glb, text.data, text.len);
    bytes_append(glb, bin_chunk, sizeof bin_chunk);
    bytes_append(glb, bin.data, bin.len);
    bool failed = text.failed || glb->failed;
    bytes_free(&text), bytes_free(&bin);
    if (failed)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "gltf_rewrite", "the .glb");
    return LAB_OK;
}
