/* json_writer.h - JSON evidence written as it is produced, for documents too large to hold
 * as a cJSON tree first (lab30-gltf's gltf30.json: up to --max-values numbers, each a cJSON
 * node of 64 bytes and a string before a byte is printed).
 *
 * The text goes straight into a bytes buffer (which the output batch then owns, as every
 * output is built in memory first): an object's members one a line, indented by tabs, an
 * array's elements on its line (as cJSON prints them). Numbers in their shortest round-trip form (format_double), strings escaped as
 * JSON requires (quotes, backslashes and control characters; the caller's text must be
 * UTF-8). A NaN or an infinity is never written: the first one's key is kept and
 * json_writer_finish refuses the document with LAB_ERR_NOT_FINITE, as json_to_bytes does.
 *
 *     json_writer w;
 *     json_writer_begin(&w, &text);               // the document's object
 *     json_writer_string(&w, "lab", "lab30-gltf");
 *     json_writer_array(&w, "positions");
 *     json_writer_number(&w, NULL, x);             // NULL key inside an array
 *     json_writer_end(&w);                         // the array
 *     lab_error e = json_writer_finish(&w, d);     // closes the document
 */
#ifndef JSON_WRITER_H
#define JSON_WRITER_H

#include <stdbool.h>

#include <cJSON.h>

#include "base/bytes.h"
#include "base/diag.h"

#ifdef __cplusplus
extern "C" {
#endif

#define JSON_WRITER_MAX_DEPTH 32

typedef struct {
    bytes *out;
    int depth;
    bool inline_[JSON_WRITER_MAX_DEPTH];  /* arrays print on one line */
    bool array_[JSON_WRITER_MAX_DEPTH];   /* the level is an array (else an object) */
    bool started[JSON_WRITER_MAX_DEPTH];  /* a member was written at this depth */
    char not_finite[64];                  /* the key of the first NaN or infinity; "" when none */
    bool misuse;                          /* too deep, or an end without a begin */
} json_writer;

/* Opens the document's top-level object in out. */
void json_writer_begin(json_writer *w, bytes *out);
/* Opens an object or an array as member `key` (NULL inside an array). */
void json_writer_object(json_writer *w, const char *key);
void json_writer_array(json_writer *w, const char *key);
/* Closes the innermost open object or array. */
void json_writer_end(json_writer *w);
void json_writer_number(json_writer *w, const char *key, double x);
void json_writer_int(json_writer *w, const char *key, long x);
void json_writer_string(json_writer *w, const char *key, const char *s);
void json_writer_null(json_writer *w, const char *key);
/* A small cJSON item (the conventions block) printed in place as member key. */
void json_writer_item(json_writer *w, const char *key, const cJSON *item);
/* The document closed with a newline. LAB_ERR_NOT_FINITE naming the first non-finite
 * number's key, LAB_ERR_OUT_OF_MEMORY when the buffer could not grow (or cJSON failed),
 * LAB_ERR_INVALID_ARGUMENT when objects and arrays did not nest. */
lab_error json_writer_finish(json_writer *w, lab_diag *d);

#ifdef __cplusplus
}
#endif

#endif
