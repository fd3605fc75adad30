/* diag.c - the message table and the helpers that fill a lab_diag. */
#include "base/diag.h"
#include "base/text.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const rules[] = {
    [LAB_OK] = "no error",
    [LAB_ERR_MATRIX_NOT_FINITE] = "matrix elements must be finite",
    [LAB_ERR_MATRIX_NOT_AFFINE] = "matrix must be affine (last row 0 0 0 1)",
    [LAB_ERR_MATRIX_TOO_LARGE] = "matrix elements must not exceed the magnitude bound",
    [LAB_ERR_NOT_PURE_TRANSLATION] =
        "the inverse-bind helper inverts a pure translation only (no rotation, no scale)",
    [LAB_ERR_PARENT_ORDER] = "a joint's parent must be listed before it",
    [LAB_ERR_MESH_INDEX_RANGE] = "triangle indices must lie in [0, vertex count)",
    [LAB_ERR_MESH_REPEATED_VERTEX] = "a triangle must use three different vertices",
    [LAB_ERR_MESH_ZERO_AREA] = "a triangle must have non-zero area",
    [LAB_ERR_MESH_EDGE_OVERUSED] = "an edge must be used by one or two triangles",
    [LAB_ERR_MESH_ORIENTATION] =
        "neighbouring triangles must be consistently oriented (a shared edge runs both ways)",
    [LAB_ERR_POINT_NOT_FINITE] = "vertex positions must be finite",
    [LAB_ERR_JOINT_SLOT_RANGE] =
        "joint slots must index the palette, also where the weight is zero",
    [LAB_ERR_WEIGHT_NOT_FINITE] = "weights must be finite",
    [LAB_ERR_WEIGHT_NEGATIVE] = "weights must be non-negative",
    [LAB_ERR_WEIGHT_SUM] =
        "weights must sum to 1 within the tolerance named in the message (no automatic normalisation)",
    [LAB_ERR_WEIGHT_SUM_ZERO] =
        "weights summing to at most eps_w cannot be normalised (choose a fallback joint)",
    [LAB_ERR_SINGULAR] = "a linear part that transforms normals must be invertible",
    [LAB_ERR_NOT_POSITIVE_DEFINITE] = "a system solved by Cholesky factorisation must be symmetric positive definite "
                                      "(by L D L^T without pivoting: have no zero pivot)",
    [LAB_ERR_HEAT_ON_BONE] =
        "bone heat needs every vertex off the bones: its heat c / d^2 has no value at distance d = 0",
    [LAB_ERR_HEAT_UNSEEN] = "bone heat needs every connected part of the surface to see a bone: "
                            "a part that sees none has no heat to pin its weights",
    [LAB_ERR_WEIGHTS_FILE] =
        "a weights file has the header vertex,joint0,weight0,joint1,weight1 and one row per vertex",
    [LAB_ERR_NOT_RIGID] = ("dual quaternion skinning takes rigid skin matrices only "
                           "(rotation and translation; scale must be handled separately)"),
    [LAB_ERR_DQ_ZERO_NORM] =
        "the blended dual quaternion's real part must not vanish (|q_0| > 1e-9)",
    [LAB_ERR_DQ_MISMATCH] =
        "a dual-quaternion palette must hold the same transforms as the matrix palette",
    [LAB_ERR_GLTF] = "a glTF asset must follow the glTF 2.0 specification",
    [LAB_ERR_GLTF_EXTENSION] = "a glTF asset may require only the extensions this reader reads",
    [LAB_ERR_NOT_FINITE] = "every number a program computes must be finite before it is written",
    [LAB_ERR_LIMIT] = "the input exceeds a documented limit of this program",
    [LAB_ERR_UNSUPPORTED] = "the run asks for a feature this machine does not have",
    [LAB_ERR_GPU] = "the GPU driver failed: a shader did not compile or link, a GL call failed, or the driver ended the process running it",
    [LAB_ERR_INVALID_ARGUMENT] =
        "a library function was called outside its contract (a bug in the caller, not bad data)",
    [LAB_ERR_OUT_OF_MEMORY] = "out of memory",
    [LAB_ERR_OUTPUT] = "outputs must be written completely or not at all",
    [LAB_ERR_INPUT_FILE] = "an input file must be readable and in its format",
    [LAB_ERR_USAGE] = "an option must name something the input has",
    [LAB_ERR_NOTHING_TO_DO] = "the input must hold something this program evaluates",
};
_Static_assert(sizeof rules / sizeof rules[0] == LAB_ERR_COUNT,
               "every lab_error needs its rule in the table");

const char *lab_error_rule(lab_error code)
{
    if ((int)code < 0 || code >= LAB_ERR_COUNT || rules[code] == NULL)
        return "unknown error";
    return rules[code];
}

/* The one place a failure is recorded: code, vertex (or -1), where, formatted value. */
static lab_error record(lab_diag *d, lab_error code, int vertex, const char *where, const char *value_fmt,
                        va_list args)
{
    if (d == NULL)
        return code;
    d->code = code;
    d->vertex = vertex;
    if (where)
        snprintf(d->where, sizeof d->where, "%s", where);
    else
        snprintf(d->where, sizeof d->where, "vertex %d", vertex);
    vsnprintf(d->value, sizeof d->value, value_fmt, args);
    return code;
}

lab_error diag_fail(lab_diag *d, lab_error code, const char *where, const char *value_fmt, ...)
{
    va_list args;
    va_start(args, value_fmt);
    record(d, code, -1, where ? where : "", value_fmt, args);
    va_end(args);
    return code;
}

lab_error diag_fail_at_vertex(lab_diag *d, lab_error code, int vertex, const char *where,
                              const char *value_fmt, ...)
{
    va_list args;
    va_start(args, value_fmt);
    record(d, code, vertex, where, value_fmt, args);
    va_end(args);
    return code;
}

void diag_prefix_where(lab_diag *d, const char *fmt, ...)
{
    if (d == NULL)
        return;
    char joined[2 * sizeof d->where];
    va_list args;
    va_start(args, fmt);
    int n = vsnprintf(joined, sizeof joined, fmt, args);
    va_end(args);
    if (n < 0)
        return;
    size_t used = strlen(joined);
    snprintf(joined + used, sizeof joined - used, " %s", d->where);
    joined[sizeof d->where - 1] = '\0'; /* keep what fits */
    memcpy(d->where, joined, sizeof d->where);
}

char *diag_where(char *buf, size_t size, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(buf, size, fmt, args);
    va_end(args);
    return buf;
}

lab_error diag_resource_failure(lab_error code, const lab_diag *got, lab_diag *d)
{
    if (code != LAB_ERR_OUT_OF_MEMORY)
        return LAB_OK;
    if (d && got && d != got)
        *d = *got;
    else if (d && !got)
        diag_fail(d, code, "", "%s", "");
    return code;
}

void diag_format(const lab_diag *d, char *buf, size_t size)
{
    /* where and value may quote a file (a name, a key): its control characters escaped */
    char where[4 * sizeof d->where], value[4 * sizeof d->value];
    snprintf(buf, size, "%s, %s, %s", lab_error_rule(d->code), text_printable(where, sizeof where, d->where),
             text_printable(value, sizeof value, d->value));
}
