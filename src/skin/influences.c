/* influences.c - the influence model, its strict validation and the weight policies (see
 * influences.h). */
#include "skin/influences.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An influence error at vertex v (and slot, when slot >= 0). */
#define fail_at_vertex(d, code, v, slot, ...)                                                  \
    diag_fail_at_vertex(d, code, v,                                                            \
                        (slot) >= 0 ? diag_where((char[64]){0}, 64, "vertex %d slot %d", v, slot) \
                                    : NULL,                                                    \
                        __VA_ARGS__)

lab_error skin_influences_init(skin_influences *in, int vertex_count, int per_vertex, lab_diag *d)
{
    *in = (skin_influences){0};
    if (per_vertex < 1 || per_vertex > SKIN_MAX_INFLUENCES)
        return diag_fail(d, LAB_ERR_LIMIT, "influences", "%d per vertex, 1 to %d", per_vertex,
                         SKIN_MAX_INFLUENCES);
    if (vertex_count < 0)
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "influences", "%d vertices", vertex_count);
    size_t n = (size_t)vertex_count * (size_t)per_vertex;
    in->joint = calloc(n ? n : 1, sizeof *in->joint);
    in->weight = calloc(n ? n : 1, sizeof *in->weight);
    if (!in->joint || !in->weight) {
        skin_influences_free(in);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "influences", "%d vertices x %d", vertex_count,
                         per_vertex);
    }
    in->vertex_count = vertex_count;
    in->per_vertex = per_vertex;
    return LAB_OK;
}

void skin_influences_free(skin_influences *in)
{
    free(in->joint);
    free(in->weight);
    *in = (skin_influences){0};
}

lab_error skin_influences_copy(const skin_influences *src, skin_influences *out, lab_diag *d)
{
    lab_error e = skin_influences_init(out, src->vertex_count, src->per_vertex, d);
    size_t n = (size_t)src->vertex_count * (size_t)src->per_vertex;
    if (e == LAB_OK && n) {
        memcpy(out->joint, src->joint, sizeof *out->joint * n);
        memcpy(out->weight, src->weight, sizeof *out->weight * n);
    }
    return e;
}

double skin_joint_weight(const skin_influences *in, int v, int joint)
{
    double w = 0.0;
    for (int k = 0; k < in->per_vertex; k++)
        if (in->joint[v * in->per_vertex + k] == joint)
            w += in->weight[v * in->per_vertex + k];
    return w;
}

/* The rules every weight policy keeps: slots in range (also for zero weights), weights
 * finite and non-negative. */
static lab_error validate_slots_and_signs(const skin_influences *in, int v, int joint_count,
                                          lab_diag *d)
{
    const int *joint = in->joint + v * in->per_vertex;
    const double *weight = in->weight + v * in->per_vertex;
    for (int s = 0; s < in->per_vertex; s++) {
        if (joint[s] < 0 || joint[s] >= joint_count)
            return fail_at_vertex(d, LAB_ERR_JOINT_SLOT_RANGE, v, s,
                                  "joint %d (weight %.15g), palette has %d joints", joint[s],
                                  weight[s], joint_count);
        if (!isfinite(weight[s]))
            return fail_at_vertex(d, LAB_ERR_WEIGHT_NOT_FINITE, v, s, "weight %g", weight[s]);
        if (weight[s] < 0.0)
            return fail_at_vertex(d, LAB_ERR_WEIGHT_NEGATIVE, v, s, "weight %.15g", weight[s]);
    }
    return LAB_OK;
}

static double weight_sum(const skin_influences *in, int v)
{
    double sum = 0.0;
    for (int s = 0; s < in->per_vertex; s++)
        sum += in->weight[v * in->per_vertex + s];
    return sum;
}

/* "w0 + w1 + ..." of vertex v, for messages (the first eight weights). */
static const char *weight_terms(const skin_influences *in, int v, char *buf, size_t size)
{
    int n = 0, k = in->per_vertex < 8 ? in->per_vertex : 8;
    buf[0] = '\0';
    for (int s = 0; s < k && n >= 0 && (size_t)n < size; s++)
        n += snprintf(buf + n, size - (size_t)n, "%s%.15g", s ? " + " : "", in->weight[v * in->per_vertex + s]);
    if (in->per_vertex > k && n >= 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, " + ...");
    return buf;
}

static lab_error validate_influence(const skin_influences *in, int v, int joint_count,
                                    double tolerance, lab_diag *d)
{
    lab_error e = validate_slots_and_signs(in, v, joint_count, d);
    if (e != LAB_OK)
        return e;
    double sum = weight_sum(in, v);
    char terms[160];
    if (!(fabs(sum - 1.0) <= tolerance))
        return fail_at_vertex(d, LAB_ERR_WEIGHT_SUM, v, -1,
                              "weights %s sum to %.15g, not 1 within %g: at the bind pose every "
                              "C_j = I, so this vertex would move to %.15g p with homogeneous "
                              "w = %.15g",
                              weight_terms(in, v, terms, sizeof terms), sum, tolerance, sum, sum);
    return LAB_OK;
}

lab_error skin_validate_influences(const skin_influences *in, int joint_count, lab_diag *d)
{
    for (int v = 0; v < in->vertex_count; v++) {
        lab_error e = validate_influence(in, v, joint_count, SKIN_WEIGHT_TOLERANCE, d);
        if (e != LAB_OK)
            return e;
    }
    return LAB_OK;
}

const char *skin_policy_name(skin_policy_kind kind)
{
    static const char *const names[] = {"strict", "normalize", "fallback"};
    return (int)kind >= 0 && kind <= SKIN_POLICY_FALLBACK ? names[kind] : "?";
}

void skin_weight_report_free(skin_weight_report *r)
{
    free(r->normalized_vertices);
    free(r->fallback_vertices);
    *r = (skin_weight_report){0};
}

lab_error skin_apply_weight_policy(skin_influences *in, int joint_count, skin_weight_policy policy,
                                   skin_weight_report *report, lab_diag *d)
{
    double tolerance = policy.tolerance > 0.0 ? policy.tolerance : SKIN_WEIGHT_TOLERANCE;
    if (policy.kind == SKIN_POLICY_STRICT) {
        lab_error e = LAB_OK;
        for (int v = 0; e == LAB_OK && v < in->vertex_count; v++)
            e = validate_influence(in, v, joint_count, tolerance, d);
        if (e == LAB_OK && report)
            *report = (skin_weight_report){.largest_deviation_vertex = -1};
        return e;
    }
    double eps = policy.eps_w > 0.0 ? policy.eps_w : SKIN_DEFAULT_EPS_W;
    if (policy.kind == SKIN_POLICY_FALLBACK &&
        (policy.fallback_joint < 0 || policy.fallback_joint >= joint_count))
        return diag_fail(d, LAB_ERR_JOINT_SLOT_RANGE, "fallback joint", "joint %d of %d",
                         policy.fallback_joint, joint_count);
    /* first pass: every error, before anything changes */
    for (int v = 0; v < in->vertex_count; v++) {
        lab_error e = validate_slots_and_signs(in, v, joint_count, d);
        if (e == LAB_OK && policy.kind == SKIN_POLICY_NORMALIZE && !(weight_sum(in, v) > eps))
            e = fail_at_vertex(d, LAB_ERR_WEIGHT_SUM_ZERO, v, -1, "W = %.15g <= eps_w = %g",
                               weight_sum(in, v), eps);
        if (e != LAB_OK)
            return e;
    }
    int n = in->vertex_count, k = in->per_vertex;
    skin_weight_report r = {.largest_deviation_vertex = -1};
    r.normalized_vertices = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    r.fallback_vertices = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    if (!r.normalized_vertices || !r.fallback_vertices) {
        skin_weight_report_free(&r);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "weight report", "%d vertices", n);
    }
    for (int v = 0; v < n; v++) {
        double sum = weight_sum(in, v), deviation = fabs(sum - 1.0);
        if (deviation > r.largest_deviation) {
            r.largest_deviation = deviation;
            r.largest_deviation_vertex = v;
        }
        if (!(sum > eps)) { /* fallback: the whole vertex follows one joint */
            in->joint[v * k] = policy.fallback_joint;
            in->weight[v * k] = 1.0;
            for (int s = 1; s < k; s++)
                in->weight[v * k + s] = 0.0;
            r.fallback_vertices[r.fallback_count++] = v;
        } else if (deviation > tolerance) {
            for (int s = 0; s < k; s++)
                in->weight[v * k + s] /= sum;
            r.normalized_vertices[r.normalized_count++] = v;
        }
    }
    if (report)
        *report = r;
    else
        skin_weight_report_free(&r);
    return LAB_OK;
}

void skin_renormalize(skin_influences *in)
{
    for (int v = 0; v < in->vertex_count; v++) {
        double sum = weight_sum(in, v);
        for (int s = 0; s < in->per_vertex; s++)
            in->weight[v * in->per_vertex + s] /= sum;
    }
}

void skin_sort_heaviest_first(int *joint, double *weight, int k)
{
    for (int i = 1; i < k; i++) { /* insertion sort: k is small */
        int j = i - 1, key_joint = joint[i];
        double key_weight = weight[i];
        while (j >= 0 && (weight[j] < key_weight || (weight[j] == key_weight && joint[j] > key_joint))) {
            joint[j + 1] = joint[j];
            weight[j + 1] = weight[j];
            j--;
        }
        joint[j + 1] = key_joint;
        weight[j + 1] = key_weight;
    }
}

