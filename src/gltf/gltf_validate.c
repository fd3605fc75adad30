/* gltf_validate.c - the glTF reader, part 2: every index, byte range, count and the skin
 * data checked before anything is read, the accessors read only after it (see gltf.h). */
#define _POSIX_C_SOURCE 200809L
#include "gltf/gltf_accessor.h"

#include <cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- validation --------------------------------------------------------------------------- */

/* What validation has already decoded, so that each accessor is read at most once for
 * each role it plays (values that must be finite, indices, influences, key times, rotation
 * keys, inverse binds), however many nodes, primitives, morph targets, skins or channels
 * use it: the cost of validation is linear in the file, not in what it multiplies. */
enum {
    CHECKED_FINITE = 1,
    CHECKED_TIMES = 2,            /* finite and increasing */
    CHECKED_ROTATIONS = 4,        /* every element a non-zero quaternion (LINEAR, STEP) */
    CHECKED_SPLINE_ROTATIONS = 8, /* every value element of each triple (CUBICSPLINE) */
    CHECKED_AFFINE = 16,          /* first_not_affine known */
    CHECKED_INDICES = 32          /* largest_index known */
};
typedef struct {
    unsigned char *done;     /* [accessor]: the CHECKED_ flags of the checks it passed */
    double *largest_index;   /* [accessor]: its largest value, once CHECKED_INDICES */
    int *first_not_affine;   /* [accessor]: the first matrix that is not affine (or count), once CHECKED_AFFINE */
} checked;

/* Reads accessor a (count x components doubles) into a new *out; refuses a non-finite
 * element, naming it, at pointer `at`, and marks it CHECKED_FINITE. */
static lab_error read_finite(const gltf_document *doc, checked *c, int a, const char *at, double **out, lab_diag *d)
{
    const gltf_accessor *acc = &doc->accessors[a];
    size_t n = (size_t)acc->count * (size_t)acc->components;
    *out = malloc(sizeof(double) * (n ? n : 1));
    if (!*out)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, at, "%zu values", n);
    lab_error e = gltf_accessor_read(doc, a, *out, d);
    int bad = e == LAB_OK ? gltf_first_not_finite(*out, n) : -1;
    if (bad >= 0)
        e = gltf_fail_at(d, at, "element %d component %d of accessor %d is %g: values must be finite",
                         bad / acc->components, bad % acc->components, a, (*out)[bad]);
    if (e != LAB_OK) {
        free(*out);
        *out = NULL;
    } else {
        c->done[a] |= CHECKED_FINITE;
    }
    return e;
}

/* Accessor a's values are finite: read once, the first time it is asked. */
static lab_error check_finite(const gltf_document *doc, checked *c, int a, const char *at, lab_diag *d)
{
    if (c->done[a] & CHECKED_FINITE)
        return LAB_OK;
    double *values = NULL;
    lab_error e = read_finite(doc, c, a, at, &values, d);
    free(values);
    return e;
}

/* [offset, offset + size) inside view v's bytes. */
static bool view_holds(const gltf_document *doc, int v, size_t offset, size_t size)
{
    return v >= 0 && v < doc->view_count && offset <= doc->views[v].length &&
           size <= doc->views[v].length - offset;
}

static lab_error validate_views(const gltf_document *doc, lab_diag *d)
{
    char at[64];
    for (int i = 0; i < doc->view_count; i++) {
        const gltf_view *v = &doc->views[i];
        snprintf(at, sizeof at, "/bufferViews/%d", i);
        if (v->buffer >= doc->buffer_count)
            return gltf_fail_at(d, at, "buffer %d of %d", v->buffer, doc->buffer_count);
        size_t size = doc->buffers[v->buffer].size;
        if (doc->buffers[v->buffer].fallback) /* compressed views were decoded into buffers of their own */
            return gltf_fail_at(d, at, "buffer %d is EXT_meshopt_compression's fallback, which holds no data: only a "
                                "compressed view may name it", v->buffer);
        if (v->offset > size || v->length > size - v->offset)
            return gltf_fail_at(d, at, "bytes [%zu, %zu) outside buffer %d of %zu bytes", v->offset,
                           v->offset + v->length, v->buffer, size);
        if (v->stride % 4)
            return gltf_fail_at(d, at, "byteStride %zu is not a multiple of 4", v->stride);
    }
    return LAB_OK;
}

static lab_error validate_sparse(const gltf_document *doc, const gltf_accessor *a, const char *at, lab_diag *d)
{
    size_t isize = gltf_component_size(a->sparse_index_type), n = (size_t)a->sparse_count;
    if ((int)n > a->count)
        return gltf_fail_at(d, at, "sparse count %zu exceeds the accessor's count %d", n, a->count);
    if (!view_holds(doc, a->sparse_index_view, a->sparse_index_offset, n * isize))
        return gltf_fail_at(d, at, "sparse indices outside bufferView %d", a->sparse_index_view);
    if (!view_holds(doc, a->sparse_value_view, a->sparse_value_offset, n * gltf_element_size(a)))
        return gltf_fail_at(d, at, "sparse values outside bufferView %d", a->sparse_value_view);
    const gltf_view *iv = &doc->views[a->sparse_index_view];
    const uint8_t *p = doc->buffers[iv->buffer].data + iv->offset + a->sparse_index_offset;
    long previous = -1;
    for (size_t k = 0; k < n; k++) {
        uint32_t idx = 0;
        if (isize == 1) idx = p[k];
        else if (isize == 2) { uint16_t s; memcpy(&s, p + 2 * k, 2); idx = s; }
        else memcpy(&idx, p + 4 * k, 4);
        if ((long)idx <= previous || (long)idx >= a->count)
            return gltf_fail_at(d, at, "sparse index %zu is %u: indices must increase and stay below %d", k,
                           idx, a->count);
        previous = (long)idx;
    }
    return LAB_OK;
}

static int limit(int set, int fallback) { return set > 0 ? set : fallback; }

/* A LAB_ERR_LIMIT at pointer/key naming the limit and the option that raises it. */
static lab_error over_limit(lab_diag *d, const char *pointer, const char *key, long value, const char *what,
                            long max, const char *option)
{
    char at[256];
    snprintf(at, sizeof at, "%s/%s", pointer, key);
    return diag_fail(d, LAB_ERR_LIMIT, at, "%ld %s (%ld); %s raises the limit", value, what, max, option);
}

static lab_error validate_accessors(const gltf_document *doc, lab_diag *d)
{
    char at[64];
    for (int i = 0; i < doc->accessor_count; i++) {
        const gltf_accessor *a = &doc->accessors[i];
        snprintf(at, sizeof at, "/accessors/%d", i);
        size_t csize = gltf_component_size(a->component_type), esize = gltf_element_size(a);
        if (a->components > 4 && csize != 4)
            return gltf_fail_at(d, at, "matrix accessors of 1- or 2-byte components are not supported");
        long max_elements = (long)GLTF_ELEMENTS_PER_VERTEX * limit(doc->limits.max_vertices, GLTF_DEFAULT_MAX_VERTICES);
        if (a->count > max_elements)
            return over_limit(d, at, "count", a->count, "elements, more than 8 x the vertex limit", max_elements,
                              "--max-vertices");
        if (a->view >= 0) {
            if (a->view >= doc->view_count)
                return gltf_fail_at(d, at, "bufferView %d of %d", a->view, doc->view_count);
            const gltf_view *v = &doc->views[a->view];
            size_t stride = v->stride ? v->stride : esize;
            if (stride < esize)
                return gltf_fail_at(d, at, "byteStride %zu is smaller than an element (%zu bytes)", stride, esize);
            if ((v->offset + a->offset) % csize)
                return gltf_fail_at(d, at, "byteOffset is not aligned to the %zu-byte components", csize);
            if (!view_holds(doc, a->view, a->offset, stride * (size_t)(a->count - 1) + esize))
                return gltf_fail_at(d, at, "%d elements of %zu bytes (stride %zu) from byte %zu do not fit "
                               "bufferView %d of %zu bytes", a->count, esize, stride, a->offset,
                               a->view, v->length);
        }
        if (a->sparse_count) {
            lab_error e = validate_sparse(doc, a, at, d);
            if (e != LAB_OK)
                return e;
        }
    }
    return LAB_OK;
}

/* One parent per node, children in range, no cycles; fills node.parent. */
static lab_error validate_nodes(gltf_document *doc, lab_diag *d)
{
    char at[96];
    int max_nodes = limit(doc->limits.max_nodes, GLTF_DEFAULT_MAX_NODES);
    if (doc->node_count > max_nodes)
        return over_limit(d, "", "nodes", doc->node_count, "nodes, more than the limit", max_nodes, "--max-nodes");
    for (int i = 0; i < doc->node_count; i++)
        doc->nodes[i].parent = -1;
    for (int i = 0; i < doc->node_count; i++) {
        gltf_node *n = &doc->nodes[i];
        const double trs[10] = {n->translation.x, n->translation.y, n->translation.z, n->rotation.w,
                                n->rotation.x, n->rotation.y, n->rotation.z, n->scale.x, n->scale.y, n->scale.z};
        int bad = gltf_first_not_finite(trs, 10);
        snprintf(at, sizeof at, "/nodes/%d/%s", i, bad < 3 ? "translation" : bad < 7 ? "rotation" : "scale");
        if (bad >= 0)
            return gltf_fail_at(d, at, "value %g: values must be finite", trs[bad]);
        snprintf(at, sizeof at, "/nodes/%d/matrix", i);
        bad = n->has_matrix ? gltf_first_not_finite(&n->matrix.m[0][0], 16) : -1;
        if (bad >= 0)
            return gltf_fail_at(d, at, "element %d is %g: values must be finite", bad, (&n->matrix.m[0][0])[bad]);
        snprintf(at, sizeof at, "/nodes/%d", i);
        if (n->mesh >= doc->mesh_count || n->skin >= doc->skin_count)
            return gltf_fail_at(d, at, "mesh %d of %d or skin %d of %d", n->mesh, doc->mesh_count, n->skin,
                           doc->skin_count);
        for (int k = 0; k < n->child_count; k++) {
            int c = n->children[k];
            snprintf(at, sizeof at, "/nodes/%d/children/%d", i, k);
            if (c >= doc->node_count || c == i)
                return gltf_fail_at(d, at, "child %d is not another node (%d nodes)", c, doc->node_count);
            if (doc->nodes[c].parent >= 0)
                return gltf_fail_at(d, at, "node %d already has parent %d", c, doc->nodes[c].parent);
            doc->nodes[c].parent = i;
        }
    }
    /* Every node has one parent at most, so a walk up from each node either reaches a
     * node already known to end at a root, or comes back to itself: a cycle. Each node is
     * walked once (linear in the nodes, however deep the chains). */
    unsigned char *state = calloc((size_t)doc->node_count + 1, 1); /* 0 new, 1 on this walk, 2 ends at a root */
    if (!state)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "/nodes", "%d nodes", doc->node_count);
    lab_error e = LAB_OK;
    for (int i = 0; e == LAB_OK && i < doc->node_count; i++) {
        int p = i;
        while (p >= 0 && state[p] == 0)
            state[p] = 1, p = doc->nodes[p].parent;
        if (p >= 0 && state[p] == 1) {
            snprintf(at, sizeof at, "/nodes/%d", p);
            e = gltf_fail_at(d, at, "the node hierarchy has a cycle through this node");
        }
        for (int q = i; q >= 0 && state[q] == 1; q = doc->nodes[q].parent)
            state[q] = 2;
    }
    free(state);
    return e;
}

static lab_error check_accessor(const gltf_document *doc, int a, const int *types, int type_count,
                                int components, const char *at, lab_diag *d)
{
    if (a < 0 || a >= doc->accessor_count)
        return gltf_fail_at(d, at, "accessor %d of %d", a, doc->accessor_count);
    const gltf_accessor *acc = &doc->accessors[a];
    bool type_ok = false;
    for (int k = 0; k < type_count; k++)
        type_ok |= acc->component_type == types[k];
    if (!type_ok || acc->components != components)
        return gltf_fail_at(d, at, "accessor %d has componentType %d with %d components, not allowed here", a,
                       acc->component_type, acc->components);
    return LAB_OK;
}

static const int FLOAT_ONLY[1] = {5126};
/* KHR_mesh_quantization's types (see gltf.h): float, byte, unsigned byte, short, unsigned
 * short; which of them a role takes, and whether it must be normalized, is checked by
 * check_quantized. */
static const int QUANTIZED_TYPES[5] = {5126, 5120, 5121, 5122, 5123};

/* A POSITION, NORMAL or morph-target accessor: float VEC3; with KHR_mesh_quantization also
 * the integer types that extension allows for the role (POSITION any 8- or 16-bit type;
 * a POSITION delta byte or short; a normal or a normal delta byte or short, normalized).
 * A normalized flag is refused where the type may not have one (float). */
static lab_error check_quantized(const gltf_document *doc, int a, bool normal, bool delta, const char *at, lab_diag *d)
{
    lab_error e = check_accessor(doc, a, doc->quantized ? QUANTIZED_TYPES : FLOAT_ONLY, doc->quantized ? 5 : 1, 3, at, d);
    if (e != LAB_OK)
        return e;
    const gltf_accessor *acc = &doc->accessors[a];
    int type = acc->component_type;
    bool is_unsigned = type == 5121 || type == 5123;
    if (type == 5126 && acc->normalized)
        return gltf_fail_at(d, at, "accessor %d is float and normalized: only integer types may be", a);
    if (type != 5126 && (normal || delta) && is_unsigned)
        return gltf_fail_at(d, at, "accessor %d is unsigned (componentType %d): KHR_mesh_quantization allows a %s "
                            "only signed byte or short", a, type, normal ? "normal" : "position delta");
    if (type != 5126 && normal && !acc->normalized)
        return gltf_fail_at(d, at, "accessor %d is an integer normal that is not normalized: KHR_mesh_quantization "
                            "requires normalized byte or short", a);
    return LAB_OK;
}

/* Each node's interval in a depth-first walk of the node forest: u is v or an ancestor
 * of v exactly when enter[u] <= enter[v] < leave[u]. One walk for the whole document, so
 * that checking a joint under its skeleton costs O(1), however many skins and however
 * deep the hierarchy. The hierarchy is a forest here (validate_nodes has run). */
static lab_error node_intervals(const gltf_document *doc, int *enter, int *leave, lab_diag *d)
{
    int n = doc->node_count, clock = 0;
    int *stack = malloc(sizeof(int) * ((size_t)n + 1)), *next = calloc((size_t)n + 1, sizeof(int));
    if (!stack || !next) {
        free(stack), free(next);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "/nodes", "%d nodes", n);
    }
    for (int root = 0; root < n; root++) {
        if (doc->nodes[root].parent >= 0)
            continue;
        int depth = 0;
        stack[depth++] = root;
        enter[root] = clock++;
        while (depth > 0) {
            const gltf_node *top = &doc->nodes[stack[depth - 1]];
            if (next[stack[depth - 1]] < top->child_count) {
                int child = top->children[next[stack[depth - 1]]++];
                enter[child] = clock++;
                stack[depth++] = child;
            } else {
                leave[stack[--depth]] = clock;
            }
        }
    }
    free(stack), free(next);
    return LAB_OK;
}

/* Accessor a's matrices: finite, and the index of the first whose last row is not
 * (0, 0, 0, 1) within 1e-6 (count when all are), read once. */
static lab_error check_affine(const gltf_document *doc, checked *c, int a, const char *at, lab_diag *d)
{
    if (c->done[a] & CHECKED_AFFINE)
        return LAB_OK;
    double *m = NULL;
    lab_error e = read_finite(doc, c, a, at, &m, d);
    int count = doc->accessors[a].count, k = 0;
    for (; e == LAB_OK && k < count; k++) {
        const double *col = m + 16 * k; /* column-major: the last row is col[3], col[7], col[11], col[15] */
        if (!(fabs(col[3]) <= 1e-6 && fabs(col[7]) <= 1e-6 && fabs(col[11]) <= 1e-6 && fabs(col[15] - 1) <= 1e-6))
            break;
    }
    if (e == LAB_OK) {
        c->first_not_affine[a] = k;
        c->done[a] |= CHECKED_AFFINE;
    }
    free(m);
    return e;
}

static lab_error validate_skins(const gltf_document *doc, checked *c, lab_diag *d)
{
    char at[96];
    int max_joints = limit(doc->limits.max_joints, GLTF_DEFAULT_MAX_JOINTS);
    size_t n = (size_t)doc->node_count + 1;
    int *slot = malloc(sizeof(int) * n), *enter = malloc(sizeof(int) * n), *leave = malloc(sizeof(int) * n);
    lab_error e = slot && enter && leave ? node_intervals(doc, enter, leave, d)
                                         : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "/skins", "%d nodes", doc->node_count);
    for (int i = 0; e == LAB_OK && i < doc->node_count; i++)
        slot[i] = -1; /* node -> its joint slot in the skin being checked; reset after each skin */
    for (int i = 0; e == LAB_OK && i < doc->skin_count; i++) {
        const gltf_skin *s = &doc->skins[i];
        snprintf(at, sizeof at, "/skins/%d", i);
        if (s->joint_count > max_joints) {
            e = over_limit(d, at, "joints", s->joint_count, "joints, more than the limit", max_joints, "--max-joints");
            break;
        }
        for (int k = 0; e == LAB_OK && k < s->joint_count; k++)
            if (s->joints[k] >= doc->node_count) {
                snprintf(at, sizeof at, "/skins/%d/joints/%d", i, k);
                e = gltf_fail_at(d, at, "node %d of %d", s->joints[k], doc->node_count);
            }
        int twice = -1, first = -1;
        for (int k = 0; e == LAB_OK && twice < 0 && k < s->joint_count; k++)
            if (slot[s->joints[k]] >= 0)
                twice = k, first = slot[s->joints[k]];
            else
                slot[s->joints[k]] = k;
        for (int k = 0; e == LAB_OK && k < s->joint_count; k++)
            slot[s->joints[k]] = -1;
        if (e == LAB_OK && twice >= 0) {
            snprintf(at, sizeof at, "/skins/%d/joints/%d", i, twice);
            e = gltf_fail_at(d, at, "node %d is already joint %d: joints must be unique", s->joints[twice], first);
        }
        snprintf(at, sizeof at, "/skins/%d/skeleton", i);
        if (e == LAB_OK && s->skeleton >= doc->node_count)
            e = gltf_fail_at(d, at, "node %d of %d", s->skeleton, doc->node_count);
        for (int k = 0; e == LAB_OK && s->skeleton >= 0 && k < s->joint_count; k++) {
            int j = s->joints[k], r = s->skeleton;
            if (!(enter[r] <= enter[j] && enter[j] < leave[r]))
                e = gltf_fail_at(d, at, "node %d is not an ancestor of joint %d (node %d): the skeleton must be a "
                                 "common root of the joints", r, k, j);
        }
        if (e != LAB_OK || s->inverse_bind < 0)
            continue; /* identity matrices (5.28.1) */
        snprintf(at, sizeof at, "/skins/%d/inverseBindMatrices", i);
        e = check_accessor(doc, s->inverse_bind, FLOAT_ONLY, 1, 16, at, d);
        if (e == LAB_OK && doc->accessors[s->inverse_bind].count < s->joint_count)
            e = gltf_fail_at(d, at, "%d matrices for %d joints", doc->accessors[s->inverse_bind].count, s->joint_count);
        if (e == LAB_OK)
            e = check_affine(doc, c, s->inverse_bind, at, d);
        int bad = e == LAB_OK ? c->first_not_affine[s->inverse_bind] : s->joint_count;
        if (bad < s->joint_count) { /* the message's numbers: read again, on the way out only */
            double *m = NULL;
            e = read_finite(doc, c, s->inverse_bind, at, &m, d);
            const double *col = e == LAB_OK ? m + 16 * bad : NULL;
            if (col)
                e = gltf_fail_at(d, at, "matrix %d is not affine: last row (%g, %g, %g, %g)", bad, col[3], col[7],
                                 col[11], col[15]);
            free(m);
        }
    }
    free(slot), free(enter), free(leave);
    return e;
}

/* What the influence check found in a primitive's JOINTS_n and WEIGHTS_n, which the skin
 * of each node that draws it is then held to: the largest joint index and where it is. */
typedef struct {
    double largest;          /* -1 when the primitive has no influences */
    int vertex, slot;
} influence_summary;

/* The joints and weights of a primitive: weights non-negative and finite, no joint twice
 * in a vertex with a non-zero weight; the largest joint index, for the skins to check. */
static lab_error check_influences(const gltf_document *doc, const gltf_primitive *p, int vertices, const char *at,
                                  influence_summary *out, lab_diag *d)
{
    double *j = malloc(sizeof(double) * 4 * (size_t)vertices * (size_t)p->sets);
    double *w = malloc(sizeof(double) * 4 * (size_t)vertices * (size_t)p->sets);
    lab_error e = (j && w) ? LAB_OK : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, at, "%d vertices", vertices);
    for (int set = 0; e == LAB_OK && set < p->sets; set++) {
        e = gltf_accessor_read(doc, p->joints[set], j + (size_t)set * 4 * vertices, d);
        if (e == LAB_OK)
            e = gltf_accessor_read(doc, p->weights[set], w + (size_t)set * 4 * vertices, d);
    }
    *out = (influence_summary){-1, -1, -1};
    for (int v = 0; e == LAB_OK && v < vertices; v++)
        for (int a = 0; e == LAB_OK && a < 4 * p->sets; a++) {
            size_t ia = (size_t)(a / 4) * 4 * vertices + 4 * (size_t)v + a % 4;
            if (j[ia] > out->largest)
                *out = (influence_summary){j[ia], v, a};
            if (!(w[ia] >= 0.0) || !isfinite(w[ia]))
                e = gltf_fail_at(d, at, "vertex %d: WEIGHTS_%d[%d] = %g is negative or not finite", v, a / 4, a % 4, w[ia]);
            for (int b = 0; e == LAB_OK && b < a; b++) {
                size_t ib = (size_t)(b / 4) * 4 * vertices + 4 * (size_t)v + b % 4;
                if (j[ib] == j[ia] && w[ia] > 0 && w[ib] > 0)
                    e = gltf_fail_at(d, at, "vertex %d: joint %g appears twice with non-zero weights", v, j[ia]);
            }
        }
    free(j), free(w);
    return e;
}

/* The influence checks already run, keyed by the primitive's JOINTS_n and WEIGHTS_n
 * accessors: primitives that share them share the result (open addressing). */
typedef struct {
    const gltf_primitive **key;  /* a primitive with those accessors, NULL for an empty slot */
    influence_summary *found;
    size_t slots;
} influence_table;

static bool same_influences(const gltf_primitive *a, const gltf_primitive *b)
{
    if (a->sets != b->sets)
        return false;
    for (int s = 0; s < a->sets; s++)
        if (a->joints[s] != b->joints[s] || a->weights[s] != b->weights[s])
            return false;
    return true;
}

static size_t influence_slot(const influence_table *t, const gltf_primitive *p)
{
    uint64_t h = 1469598103934665603u;
    for (int s = 0; s < p->sets; s++)
        h = ((h ^ (uint64_t)p->joints[s]) * 1099511628211u ^ (uint64_t)p->weights[s]) * 1099511628211u;
    size_t k = (size_t)(h % t->slots);
    while (t->key[k] && !same_influences(t->key[k], p))
        k = (k + 1) % t->slots;
    return k;
}

static const int JOINT_TYPES[2] = {5121, 5123}, WEIGHT_TYPES[3] = {5126, 5121, 5123}, INDEX_TYPES[3] = {5121, 5123, 5125};

/* The largest index of accessor a, read once. */
static lab_error largest_index(const gltf_document *doc, checked *c, int a, const char *at, double *out, lab_diag *d)
{
    if (!(c->done[a] & CHECKED_INDICES)) {
        int count = doc->accessors[a].count;
        double *idx = malloc(sizeof(double) * (size_t)(count ? count : 1)), largest = -1;
        lab_error e = idx ? gltf_accessor_read(doc, a, idx, d) : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, at, "%d indices", count);
        for (int k = 0; e == LAB_OK && k < count; k++)
            largest = fmax(largest, idx[k]);
        free(idx);
        if (e != LAB_OK)
            return e;
        c->largest_index[a] = largest;
        c->done[a] |= CHECKED_INDICES;
    }
    *out = c->largest_index[a];
    return LAB_OK;
}

/* One primitive, whatever skin draws it: the attributes' types and counts, finite values,
 * indices inside POSITION, the morph targets within the limit, and the influences
 * (summarised in *influences for the skins). Each accessor is read once (checked). */
static lab_error validate_primitive(const gltf_document *doc, checked *c, influence_table *seen,
                                    const gltf_primitive *p, const char *at, influence_summary *influences,
                                    lab_diag *d)
{
    char sub[160];
    snprintf(sub, sizeof sub, "%s/attributes/POSITION", at);
    lab_error e = check_quantized(doc, p->position, false, false, sub, d);
    if (e != LAB_OK)
        return e;
    int vertices = doc->accessors[p->position].count;
    int max_vertices = limit(doc->limits.max_vertices, GLTF_DEFAULT_MAX_VERTICES);
    char accessor[48];
    snprintf(accessor, sizeof accessor, "/accessors/%d", p->position);
    if (vertices > max_vertices) /* named where the count is: on the POSITION accessor */
        return over_limit(d, accessor, "count", vertices, "vertices (POSITION), more than the limit", max_vertices,
                          "--max-vertices");
    int max_targets = limit(doc->limits.max_targets, GLTF_DEFAULT_MAX_TARGETS);
    if (p->target_count > max_targets) /* before any target is read */
        return over_limit(d, at, "targets", p->target_count, "morph targets, more than the limit", max_targets,
                          "--max-targets");
    e = check_finite(doc, c, p->position, sub, d);
    if (e != LAB_OK)
        return e;
    /* NORMAL, and each morph target's deltas: VEC3 (float, or quantized), one per vertex, finite */
    for (int t = -1; t < p->target_count; t++)
        for (int k = 0; k < 2; k++) {
            int a = t < 0 ? (k == 0 ? -1 : p->normal) : (k == 0 ? p->targets[t].position : p->targets[t].normal);
            if (a < 0)
                continue;
            if (t < 0)
                snprintf(sub, sizeof sub, "%s/attributes/NORMAL", at);
            else
                snprintf(sub, sizeof sub, "%s/targets/%d/%s", at, t, k == 0 ? "POSITION" : "NORMAL");
            e = check_quantized(doc, a, k == 1, t >= 0, sub, d);
            if (e == LAB_OK && doc->accessors[a].count != vertices)
                e = gltf_fail_at(d, sub, "count %d, POSITION has %d: %s", doc->accessors[a].count, vertices,
                                 t < 0 ? "one normal a vertex" : "a morph target holds one delta a vertex");
            if (e == LAB_OK)
                e = check_finite(doc, c, a, sub, d);
            if (e != LAB_OK)
                return e;
        }
    for (int s = 0; s < p->sets; s++) {
        snprintf(sub, sizeof sub, "%s/attributes/JOINTS_%d", at, s);
        e = check_accessor(doc, p->joints[s], JOINT_TYPES, 2, 4, sub, d);
        if (e == LAB_OK && doc->accessors[p->joints[s]].normalized)
            e = gltf_fail_at(d, sub, "accessor %d is normalized: joint indices must not be", p->joints[s]);
        if (e == LAB_OK && doc->accessors[p->joints[s]].count != vertices)
            e = gltf_fail_at(d, sub, "count %d, POSITION has %d", doc->accessors[p->joints[s]].count, vertices);
        snprintf(sub, sizeof sub, "%s/attributes/WEIGHTS_%d", at, s);
        if (e == LAB_OK) e = check_accessor(doc, p->weights[s], WEIGHT_TYPES, 3, 4, sub, d);
        if (e == LAB_OK && doc->accessors[p->weights[s]].component_type != 5126 && !doc->accessors[p->weights[s]].normalized)
            e = gltf_fail_at(d, sub, "accessor %d holds integers that are not normalized: integer weights must be",
                             p->weights[s]);
        if (e == LAB_OK && doc->accessors[p->weights[s]].count != vertices)
            e = gltf_fail_at(d, sub, "count %d, POSITION has %d", doc->accessors[p->weights[s]].count, vertices);
        if (e != LAB_OK)
            return e;
    }
    if (p->indices >= 0) {
        snprintf(sub, sizeof sub, "%s/indices", at);
        e = check_accessor(doc, p->indices, INDEX_TYPES, 3, 1, sub, d);
        double largest = -1;
        if (e == LAB_OK)
            e = largest_index(doc, c, p->indices, sub, &largest, d);
        if (e == LAB_OK && largest >= vertices) { /* the first one out, named: read again on the way out */
            double *idx = malloc(sizeof(double) * (size_t)doc->accessors[p->indices].count);
            e = idx ? gltf_accessor_read(doc, p->indices, idx, d) : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, sub, "indices");
            for (int k = 0; e == LAB_OK && k < doc->accessors[p->indices].count; k++)
                if (idx[k] >= vertices)
                    e = gltf_fail_at(d, sub, "index %d is %g, POSITION has %d vertices", k, idx[k], vertices);
            free(idx);
        }
        if (e != LAB_OK)
            return e;
    }
    *influences = (influence_summary){-1, -1, -1};
    if (p->sets == 0)
        return LAB_OK;
    size_t k = influence_slot(seen, p);
    if (!seen->key[k]) {
        snprintf(sub, sizeof sub, "%s/attributes", at);
        e = check_influences(doc, p, vertices, sub, &seen->found[k], d);
        if (e != LAB_OK)
            return e;
        seen->key[k] = p;
    }
    *influences = seen->found[k];
    return LAB_OK;
}

/* Every mesh a node uses, each primitive once (whatever skins draw it); then each node:
 * its skin holds the joints its mesh's influences name, its weights match the targets,
 * and the morph work of the whole document stays within max_morph_deltas. */
static lab_error validate_meshes(const gltf_document *doc, checked *c, lab_diag *d)
{
    char at[96];
    size_t primitives = 0;
    for (int m = 0; m < doc->mesh_count; m++)
        primitives += (size_t)doc->meshes[m].primitive_count;
    unsigned char *used = calloc((size_t)doc->mesh_count + 1, 1);
    influence_summary *largest = malloc(sizeof *largest * ((size_t)doc->mesh_count + 1)); /* per mesh */
    long *deltas = calloc((size_t)doc->mesh_count + 1, sizeof *deltas); /* per mesh: targets x vertices */
    influence_table seen = {calloc(2 * primitives + 1, sizeof *seen.key), malloc(sizeof *seen.found * (2 * primitives + 1)),
                            2 * primitives + 1};
    lab_error e = used && largest && deltas && seen.key && seen.found
                      ? LAB_OK : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "/meshes", "%zu primitives", primitives);
    for (int n = 0; e == LAB_OK && n < doc->node_count; n++)
        if (doc->nodes[n].mesh >= 0)
            used[doc->nodes[n].mesh] = 1;
    for (int m = 0; e == LAB_OK && m < doc->mesh_count; m++) {
        const gltf_mesh *mesh = &doc->meshes[m];
        largest[m] = (influence_summary){-1, -1, -1};
        for (int k = 0; e == LAB_OK && used[m] && k < mesh->primitive_count; k++) {
            const gltf_primitive *p = &mesh->primitives[k];
            influence_summary found;
            snprintf(at, sizeof at, "/meshes/%d/primitives/%d", m, k);
            e = validate_primitive(doc, c, &seen, p, at, &found, d);
            if (e == LAB_OK && p->target_count != mesh->primitives[0].target_count)
                e = gltf_fail_at(d, at, "%d morph targets, primitive 0 has %d: every primitive of a mesh has as many",
                                 p->target_count, mesh->primitives[0].target_count);
            if (e == LAB_OK && found.largest > largest[m].largest)
                largest[m] = found;
            if (e == LAB_OK)
                deltas[m] += (long)p->target_count * doc->accessors[p->position].count;
        }
    }
    long max_deltas = limit(doc->limits.max_morph_deltas, GLTF_DEFAULT_MAX_MORPH_DELTAS);
    long total = 0;
    for (int n = 0; e == LAB_OK && n < doc->node_count; n++) {
        const gltf_node *node = &doc->nodes[n];
        if (node->mesh < 0)
            continue;
        const gltf_mesh *m = &doc->meshes[node->mesh];
        const influence_summary *l = &largest[node->mesh];
        if (node->skin >= 0 && l->largest >= doc->skins[node->skin].joint_count) {
            snprintf(at, sizeof at, "/nodes/%d/skin", n);
            for (int k = 0; k < m->primitive_count; k++) { /* name the primitive: on the way out only */
                influence_summary found = {-1, -1, -1};
                if (m->primitives[k].sets)
                    found = seen.found[influence_slot(&seen, &m->primitives[k])];
                if (found.largest == l->largest) {
                    snprintf(at, sizeof at, "/meshes/%d/primitives/%d/attributes", node->mesh, k);
                    break;
                }
            }
            e = gltf_fail_at(d, at, "vertex %d: JOINTS_%d[%d] = %g is not in [0, %d) of skin.joints (node %d's skin %d)",
                             l->vertex, l->slot / 4, l->slot % 4, l->largest, doc->skins[node->skin].joint_count, n,
                             node->skin);
            break;
        }
        int targets = m->primitives[0].target_count;
        snprintf(at, sizeof at, "/meshes/%d/weights", node->mesh);
        if (m->weights && m->weight_count != targets) {
            e = gltf_fail_at(d, at, "%d weights, the mesh has %d morph targets", m->weight_count, targets);
            break;
        }
        snprintf(at, sizeof at, "/nodes/%d/weights", n);
        if (node->weights && node->weight_count != targets) {
            e = gltf_fail_at(d, at, "%d weights, its mesh has %d morph targets", node->weight_count, targets);
            break;
        }
        total += deltas[node->mesh];
        if (total > max_deltas) {
            snprintf(at, sizeof at, "/nodes/%d", n);
            e = over_limit(d, at, "mesh", total, "morph deltas (targets x vertices over the nodes so far), more than "
                           "the limit", max_deltas, "--max-morph-deltas");
        }
    }
    for (int n = 0; e == LAB_OK && n < doc->node_count; n++)
        if (doc->nodes[n].weights && doc->nodes[n].mesh < 0) {
            snprintf(at, sizeof at, "/nodes/%d/weights", n);
            e = gltf_fail_at(d, at, "%s", "morph weights on a node without a mesh");
        }
    free(used), free(largest), free(deltas), free(seen.key), free(seen.found);
    return e;
}

static lab_error validate_animations(const gltf_document *doc, checked *memo, lab_diag *d)
{
    char at[128];
    for (int i = 0; i < doc->animation_count; i++) {
        const gltf_animation *a = &doc->animations[i];
        for (int k = 0; k < a->sampler_count; k++) {
            const gltf_sampler *s = &a->samplers[k];
            snprintf(at, sizeof at, "/animations/%d/samplers/%d/input", i, k);
            lab_error e = check_accessor(doc, s->input, FLOAT_ONLY, 1, 1, at, d);
            if (e != LAB_OK)
                return e;
            if (!(memo->done[s->input] & CHECKED_TIMES)) { /* samplers share inputs: read once */
                double *t = malloc(sizeof(double) * (size_t)doc->accessors[s->input].count);
                e = t ? gltf_accessor_read(doc, s->input, t, d) : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, at, "%s", "times");
                for (int q = 0; e == LAB_OK && q < doc->accessors[s->input].count; q++)
                    if (!isfinite(t[q]) || (q > 0 && !(t[q] > t[q - 1])))
                        e = gltf_fail_at(d, at, "time %d is %g: times must be finite and increase", q, t[q]);
                free(t);
                if (e == LAB_OK)
                    memo->done[s->input] |= CHECKED_TIMES | CHECKED_FINITE;
            }
            snprintf(at, sizeof at, "/animations/%d/samplers/%d/output", i, k);
            if (e == LAB_OK && (s->output < 0 || s->output >= doc->accessor_count))
                e = gltf_fail_at(d, at, "accessor %d of %d", s->output, doc->accessor_count);
            if (e != LAB_OK)
                return e;
        }
        for (int k = 0; k < a->channel_count; k++) {
            const gltf_channel *c = &a->channels[k];
            snprintf(at, sizeof at, "/animations/%d/channels/%d", i, k);
            if (c->sampler >= a->sampler_count || c->node >= doc->node_count)
                return gltf_fail_at(d, at, "sampler %d of %d or node %d of %d", c->sampler, a->sampler_count,
                               c->node, doc->node_count);
            const gltf_sampler *s = &a->samplers[c->sampler];
            int keys = doc->accessors[s->input].count, per = s->interpolation == GLTF_CUBICSPLINE ? 3 : 1;
            const gltf_accessor *out = &doc->accessors[s->output];
            /* weights: one scalar a morph target a key (x3 for CUBICSPLINE's tangents) */
            int targets = c->path == GLTF_MORPH_WEIGHTS ? gltf_node_target_count(doc, c->node) : 1;
            if (c->path == GLTF_MORPH_WEIGHTS && targets == 0)
                return gltf_fail_at(d, at, "path weights on node %d, which has no morph targets", c->node);
            int want = c->path == GLTF_ROTATION ? 4 : c->path == GLTF_MORPH_WEIGHTS ? 1 : 3;
            if (out->components != want || out->count != keys * per * targets)
                return gltf_fail_at(d, at, "output accessor %d: %d elements of %d components, want %d of %d", s->output,
                               out->count, out->components, keys * per * targets, want);
            /* translation and scale are floats; a rotation or a weight is a float or a
             * normalised signed or unsigned byte or short (glTF 2.0, 3.11) */
            bool normalized_type = out->component_type == 5126 ||
                                   (out->component_type >= 5120 && out->component_type <= 5123 && out->normalized);
            if (c->path == GLTF_ROTATION || c->path == GLTF_MORPH_WEIGHTS ? !normalized_type
                                                                          : out->component_type != 5126)
                return gltf_fail_at(d, at, "output accessor %d has componentType %d%s, not allowed for this path",
                                    s->output, out->component_type, out->normalized ? " (normalized)" : "");
            snprintf(at, sizeof at, "/animations/%d/channels/%d/target/node", i, k);
            if (doc->nodes[c->node].has_matrix && c->path != GLTF_MORPH_WEIGHTS)
                return gltf_fail_at(d, at, "node %d has a matrix: a node targeted by an animation must use TRS", c->node);
            snprintf(at, sizeof at, "/animations/%d/samplers/%d/output", i, c->sampler);
            /* the values: finite (any path), read once however many channels share them */
            int keys_checked = c->path != GLTF_ROTATION ? 0 : per == 1 ? CHECKED_ROTATIONS : CHECKED_SPLINE_ROTATIONS;
            int done = memo->done[s->output] | (memo->done[s->output] & CHECKED_ROTATIONS ? CHECKED_SPLINE_ROTATIONS : 0);
            if ((done & (CHECKED_FINITE | keys_checked)) == (CHECKED_FINITE | keys_checked))
                continue;
            double *values = NULL;
            lab_error e = read_finite(doc, memo, s->output, at, &values, d);
            /* a rotation key must be a unit quaternion (3.11); a reader may renormalise a
             * key a little off unit length, as exporters write them, but length 0 names no
             * rotation at all. CUBICSPLINE's tangents (elements 0 and 2 of 3) may be 0. */
            for (int q = 0; e == LAB_OK && c->path == GLTF_ROTATION && q < out->count; q++) {
                const double *v = &values[4 * q];
                if ((per == 1 || q % 3 == 1) && !(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3] > 0.0))
                    e = gltf_fail_at(d, at, "key %d is (%g, %g, %g, %g), length 0: a rotation key must be a unit "
                                     "quaternion", per == 1 ? q : q / 3, v[0], v[1], v[2], v[3]);
            }
            free(values);
            if (e != LAB_OK)
                return e;
            memo->done[s->output] |= (unsigned char)keys_checked;
        }
    }
    return LAB_OK;
}

lab_error gltf_validate(gltf_document *doc, lab_diag *d)
{
    doc->validated = false;
    lab_error e = gltf_meshopt_decode(doc, d); /* compressed views and primitives into plain ones, first */
    if (e == LAB_OK) e = gltf_draco_decode_all(doc, d);
    if (e == LAB_OK) e = validate_views(doc, d);
    if (e == LAB_OK) e = validate_accessors(doc, d);
    if (e == LAB_OK) e = validate_nodes(doc, d);
    doc->validated = e == LAB_OK; /* accessors may be read from here on */
    size_t n = (size_t)doc->accessor_count + 1;
    checked c = {calloc(n, 1), malloc(sizeof(double) * n), malloc(sizeof(int) * n)};
    if (e == LAB_OK && (!c.done || !c.largest_index || !c.first_not_affine))
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "/accessors", "%d accessors", doc->accessor_count);
    if (e == LAB_OK) e = validate_skins(doc, &c, d);
    if (e == LAB_OK) e = validate_meshes(doc, &c, d);
    if (e == LAB_OK) e = validate_animations(doc, &c, d);
    free(c.done), free(c.largest_index), free(c.first_not_affine);
    doc->validated = e == LAB_OK;
    return e;
}
