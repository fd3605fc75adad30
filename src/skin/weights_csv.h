/* weights_csv.h - per-vertex skin weights as a CSV a student can edit:
 *
 *   vertex,joint0,weight0,joint1,weight1
 *   0,0,1,1,0
 *   ...
 *
 * One row per vertex, each vertex exactly once, rows in any order. Joint slots and
 * weights are taken as written: whether they are valid is the weight policy's call, so a
 * file can carry unnormalised or broken weights on purpose.
 */
#ifndef WEIGHTS_CSV_H
#define WEIGHTS_CSV_H

#include "base/bytes.h"
#include "skin/skin.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WEIGHTS_CSV_HEADER "vertex,joint0,weight0,joint1,weight1"
#define WEIGHTS_CSV_MAX_BYTES (16 << 20)   /* a larger weights file is refused */

/* Parses text into out, whose vertex_count and K = 2 the caller has set (skin_influences_init).
 * Errors name the line, the field and the rule (LAB_ERR_WEIGHTS_FILE): wrong header, wrong
 * field count, unreadable number, vertex out of range, a vertex given twice or missing.
 * The format holds two influences a vertex; other K are refused (LAB_ERR_INVALID_ARGUMENT). */
lab_error weights_csv_parse(const char *text, skin_influences *out, lab_diag *d);

/* Reads the file at path (at most WEIGHTS_CSV_MAX_BYTES) into a new *out of
 * vertex_count x 2 influences (free with skin_influences_free). An unreadable, empty or
 * oversized file is LAB_ERR_WEIGHTS_FILE saying which; a parse error names the file too. */
lab_error weights_csv_load(const char *path, int vertex_count, skin_influences *out, lab_diag *d);

/* The same format, written from influences of K = 2 (round-trips through weights_csv_parse). */
lab_error weights_csv_write(const skin_influences *in, bytes *out, lab_diag *d);

#ifdef __cplusplus
}
#endif

#endif
