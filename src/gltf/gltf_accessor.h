/* gltf_accessor.h - what the reader's files share (not part of the API): the glTF error,
 * component sizes and the finiteness scan, implemented in gltf_accessor.c with
 * gltf_accessor_read (declared in gltf.h). */
#ifndef GLTF_ACCESSOR_H
#define GLTF_ACCESSOR_H

#include "base/bytes.h"
#include "gltf/gltf.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GLTF_MAX_FILE (256u << 20)   /* files and buffers larger than this are refused */
/* The parse's memory: cJSON's tree of the JSON, estimated before parsing (gltf_parse), at
 * most GLTF_MAX_JSON_TREE; a node is about 80 bytes with malloc's own, a string's copy its
 * length and 32. */
#define GLTF_MAX_JSON_TREE (128u << 20)
#define GLTF_JSON_NODE_BYTES 80
#define GLTF_JSON_STRING_BYTES 32

/* An LAB_ERR_GLTF diag at the JSON pointer `pointer`. */
/* A decoder run in a child process (src/base/child.h, with LAB_ERR_GLTF as child_run's
 * crash code) as the reader reports it: its own error and diag as they are; its end by an
 * allocation (the guard's exit 3, the loader's exit 127) out of memory; any other end a
 * refused stream; all at JSON pointer `at`, naming `what` (the extension). */
lab_error gltf_decoder_child(lab_error e, const lab_diag *crash, const char *at, const char *what, lab_diag *d);

lab_error gltf_fail_at(lab_diag *d, const char *pointer, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* A file the asset names by a relative uri (a buffer's, an image's), read whole into *out:
 * its percent escapes decoded, it must be a plain relative path that resolves inside
 * base_dir (NULL: none allowed), a regular file of at most max bytes; refused at JSON
 * pointer `pointer` naming it. */
lab_error gltf_read_beside(const char *uri, const char *base_dir, size_t max, const char *pointer, bytes *out,
                           lab_diag *d);

/* Bytes of one component of a glTF componentType (0 for an unknown type). */
size_t gltf_component_size(int type);
/* Bytes of one element of an accessor (components times component size). */
size_t gltf_element_size(const gltf_accessor *a);

/* The index of the first non-finite value of values[0..n), or -1. */
int gltf_first_not_finite(const double *values, size_t n);

#ifdef __cplusplus
}
#endif

#endif
