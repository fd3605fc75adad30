/* evidence.h - the machine-readable evidence: JSON through cJSON, CSV fields.
 *
 * Numbers are written in their shortest round-trip form (format_double), so a reader gets
 * back exactly the double the program computed; matrices are 4 rows of 4 numbers
 * (row-major, as in the code), points are [x, y, z].
 *
 * Every number must be finite. A NaN or an infinity given to json_number (and so to
 * every helper here) is kept as a marker, and json_to_bytes refuses the document with
 * LAB_ERR_NOT_FINITE naming the marker's JSON pointer: a computation that overflowed is
 * never written as null. Where a value is undefined by design (a ring that collapsed has
 * no angle; the bend has no closed form), say so with json_number_or_null.
 */
#ifndef EVIDENCE_H
#define EVIDENCE_H

#include <cJSON.h>

#include "math/linalg.h"
#include "base/bytes.h"
#include "draw/camera.h"
#include "base/diag.h"
#include "program/output.h"

#ifdef __cplusplus
extern "C" {
#endif

cJSON *json_number(double x);
/* x, or null where x is NaN by design (an undefined value, documented at the call). */
cJSON *json_number_or_null(double x);
cJSON *json_number_or_null_array(const double *values, int count);
cJSON *json_vec3(vec3 p);
cJSON *json_mat4(mat4 m);
cJSON *json_vec3_array(const vec3 *points, int count);
cJSON *json_mat4_array(const mat4 *matrices, int count);
cJSON *json_number_array(const double *values, int count);
/* obj[key] = x; returns the added item (NULL when out of memory). */
cJSON *json_add_number(cJSON *obj, const char *key, double x);
/* The conventions block every lab's JSON opens with (DESIGN.md). */
cJSON *json_conventions(void);
/* A lab's evidence document as it opens: {"lab": lab, "conventions": {...}}. */
cJSON *json_evidence_root(const char *lab);
/* Prints root (formatted, ending in a newline) into out. LAB_ERR_OUT_OF_MEMORY when any
 * cJSON allocation of this thread failed since the previous call (a document built with a
 * failed allocation lacks an item: it is never written). */
lab_error json_to_bytes(const cJSON *root, bytes *out, lab_diag *d);

/* {view, projection, viewport}: the camera a figure was drawn with. */
cJSON *json_camera(const camera *c);
/* {rejected: code == expected, message}: what a case that must be refused gave. */
cJSON *json_rejection(lab_error code, lab_error expected, const lab_diag *d);

/* json_to_bytes(root) added to the batch under `name`; deletes root in every case. */
lab_error output_batch_add_json(output_batch *batch, const char *name, cJSON *root, lab_diag *d);

/* A CSV number field: format_double. Every number must be finite: a NaN or infinity
 * writes nothing and records its line in out->not_finite_line, and output_batch_add
 * refuses the file naming that line. */
void csv_number(bytes *out, double x);
/* The same, but a NaN is an empty field: a value undefined by design (documented at the
 * call); an infinity is still refused. */
void csv_number_or_empty(bytes *out, double x);
/* One CSV record of numbers: csv_number fields separated by ',', then '\n'; and the
 * same with csv_number_or_empty. */
void csv_row(bytes *out, const double *fields, int count);
void csv_row_or_empty(bytes *out, const double *fields, int count);

#ifdef __cplusplus
}
#endif

#endif
