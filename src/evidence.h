/* evidence.h - the machine-readable evidence: JSON through cJSON, CSV fields.
 *
 * Numbers are written in their shortest round-trip form (format_double), so a reader gets
 * back exactly the double the program computed; matrices are 4 rows of 4 numbers
 * (row-major, as in the code), points are [x, y, z]. Non-finite numbers become null.
 */
#ifndef EVIDENCE_H
#define EVIDENCE_H

#include <cJSON.h>

#include "linalg.h"
#include "output.h"

cJSON *json_number(double x);
cJSON *json_vec3(vec3 p);
cJSON *json_mat4(mat4 m);
cJSON *json_vec3_array(const vec3 *points, int count);
cJSON *json_mat4_array(const mat4 *matrices, int count);
cJSON *json_number_array(const double *values, int count);
/* obj[key] = x; returns the added item (NULL when out of memory). */
cJSON *json_add_number(cJSON *obj, const char *key, double x);
/* The conventions block every lab's JSON opens with (design.md). */
cJSON *json_conventions(void);
/* Prints root (formatted, ending in a newline) into out. */
lab_error json_to_bytes(const cJSON *root, bytes *out, lab_diag *d);

/* A CSV number field: format_double, or empty for non-finite values. */
void csv_number(bytes *out, double x);

#endif
