/* diag.h - errors as values, for every stage of the lab.
 *
 * A stage that can refuse its input returns a lab_error and, when the caller passes a
 * lab_diag, fills in where it happened and the value that broke the rule. Nothing in
 * src/ prints or exits: the chapter program turns a diag into the contract's message
 *
 *     <lab>: error: <rule>, <where>, <value>
 *
 * with diag_format(). The rule text comes from one table, checked at compile time to
 * cover the enum, so every error a student can meet has exactly one explanation.
 */
#ifndef DIAG_H
#define DIAG_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    LAB_OK = 0,
    /* matrices (linalg, skin) */
    LAB_ERR_MATRIX_NOT_FINITE,
    LAB_ERR_MATRIX_NOT_AFFINE,
    LAB_ERR_MATRIX_TOO_LARGE,
    LAB_ERR_NOT_PURE_TRANSLATION,
    /* skeleton (scene) */
    LAB_ERR_PARENT_ORDER,
    /* mesh */
    LAB_ERR_MESH_INDEX_RANGE,
    LAB_ERR_MESH_REPEATED_VERTEX,
    LAB_ERR_MESH_ZERO_AREA,
    LAB_ERR_MESH_EDGE_OVERUSED,
    LAB_ERR_MESH_ORIENTATION,
    /* influences and points (skin) */
    LAB_ERR_POINT_NOT_FINITE,
    LAB_ERR_JOINT_SLOT_RANGE,
    LAB_ERR_WEIGHT_NOT_FINITE,
    LAB_ERR_WEIGHT_NEGATIVE,
    LAB_ERR_WEIGHT_SUM,
    LAB_ERR_WEIGHT_SUM_ZERO,
    LAB_ERR_SINGULAR,
    LAB_ERR_NOT_POSITIVE_DEFINITE,
    LAB_ERR_HEAT_ON_BONE,   /* bone heat: a vertex at distance 0 from its nearest bone */
    LAB_ERR_HEAT_UNSEEN,    /* bone heat: a connected part of the surface that sees no bone */
    LAB_ERR_WEIGHTS_FILE,
    /* dual quaternion skinning */
    LAB_ERR_NOT_RIGID,
    LAB_ERR_DQ_ZERO_NORM,
    LAB_ERR_DQ_MISMATCH,
    /* assets */
    LAB_ERR_GLTF,
    LAB_ERR_GLTF_EXTENSION, /* a valid asset that requires an extension the reader does not read */
    /* computed values */
    LAB_ERR_NOT_FINITE,
    /* resources, limits, calls and output */
    LAB_ERR_LIMIT,
    LAB_ERR_UNSUPPORTED,
    LAB_ERR_GPU,
    LAB_ERR_INVALID_ARGUMENT,
    LAB_ERR_OUT_OF_MEMORY,
    LAB_ERR_OUTPUT,
    LAB_ERR_INPUT_FILE,     /* an input file cannot be read, or is not in its format */
    LAB_ERR_USAGE,          /* an option names what the input does not have (exit 2) */
    LAB_ERR_NOTHING_TO_DO,  /* a valid input holding nothing the program evaluates */
    LAB_ERR_COUNT
} lab_error;

/* Where a rule was broken and with which value; both are short human-readable texts. */
typedef struct {
    lab_error code;
    int vertex;       /* the vertex concerned, or -1 when the error is not about one */
    char where[192];
    char value[256];
} lab_diag;

/* The rule that `code` names, e.g. "weights must sum to 1 within 1e-12". Never NULL. */
const char *lab_error_rule(lab_error code);

/* Records code, where and a printf-formatted value in d (d may be NULL) and returns
 * code, so a stage can write `return diag_fail(d, LAB_ERR_..., where, "w = %.17g", w);`.
 * Build `where` with diag_where() or pass a literal. */
lab_error diag_fail(lab_diag *d, lab_error code, const char *where, const char *value_fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* diag_fail for a rule broken at one vertex: d->vertex = vertex, and the place is `where`
 * (e.g. "mesh 0 primitive 1 vertex 7", "vertex 100 slot 1"), or "vertex V" when NULL. */
lab_error diag_fail_at_vertex(lab_diag *d, lab_error code, int vertex, const char *where,
                              const char *value_fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Puts a printf-formatted context in front of d->where ("mesh 0 primitive 1" before
 * "vertex 7"), separated by a space; truncated to fit. d may be NULL. */
void diag_prefix_where(lab_diag *d, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* snprintf into a lab_diag-sized `where` buffer; returns buf for use inline. */
char *diag_where(char *buf, size_t size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* A case whose refusal is its result (an invalid input run to show the rule it breaks)
 * cannot absorb a failure of the machine: returns `code` and copies `got` into d (d may be
 * NULL) when code is LAB_ERR_OUT_OF_MEMORY, and LAB_OK otherwise, so the program ends
 * with the out-of-memory exit instead of recording "not refused by its rule".
 *
 *     r->case_code = run_the_case(..., &r->case_diag);
 *     e = diag_resource_failure(r->case_code, &r->case_diag, d);                          */
lab_error diag_resource_failure(lab_error code, const lab_diag *got, lab_diag *d);

/* Writes "<rule>, <where>, <value>" into buf (always NUL-terminated). */
void diag_format(const lab_diag *d, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
