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

#include "bytes.h"
#include "skin.h"

#define WEIGHTS_CSV_HEADER "vertex,joint0,weight0,joint1,weight1"
#define WEIGHTS_CSV_MAX_BYTES (16 << 20)   /* a larger weights file is refused */

/* Parses text into out[0 <= v < vertex_count]. Errors name the line, the field and the
 * rule (LAB_ERR_WEIGHTS_FILE): wrong header, wrong field count, unreadable number,
 * vertex out of range, a vertex given twice or missing. */
lab_error weights_csv_parse(const char *text, int vertex_count, skin_influence *out, lab_diag *d);

/* The same format, written from influences (round-trips through weights_csv_parse). */
void weights_csv_write(const skin_influence *influences, int vertex_count, bytes *out);

#endif
