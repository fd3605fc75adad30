/* grade30_call.c - calling an exercise's function on a case as a student's function is
 * called (grade30_table.h): every array a fresh allocation of exactly its size, the
 * output arrays too, and the answer gathered into the exercise's kind; a bad access named
 * after the arrays of the call under way. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "math/dualquat.h"
#include "math/linalg.h"

#include "grade30_table.h"

/* ---- calling a function on a case ----------------------------------------------------- */

/* The arrays of the call under way, so that a bad access can be named after them. */
enum { ARRAYS = 8 };
static struct {
    const char *name, *noun;
    uintptr_t base;
    size_t size;
    int count;
} arrays[ARRAYS];
static int array_count;

static void arrays_clear(void) { array_count = 0, memset(arrays, 0, sizeof arrays); }

static void array_add(const char *name, const char *noun, const void *base, size_t size, int count)
{
    if (array_count < ARRAYS && base)
        arrays[array_count].name = name, arrays[array_count].noun = noun, arrays[array_count].base = (uintptr_t)base,
        arrays[array_count].size = size, arrays[array_count++].count = count;
}

static void call_arrays(const int *joint, int joints, const double *weight, int weights, const mat4 *palette,
                        int palette_count, const dualquat *q, int qs)
{
    arrays_clear();
    array_add("joint", "influences", joint, sizeof *joint, joints);
    array_add("weight", "weights", weight, sizeof *weight, weights);
    array_add("palette", "matrices of the palette", palette, sizeof *palette, palette_count);
    array_add("q", "dual quaternions", q, sizeof *q, qs);
}

void grade30_name_access(uintptr_t at, bool write, char *out, size_t size)
{
    const char *how = write ? "writes" : "reads";
    int nearest = -1;
    uintptr_t best = 256; /* the array the access is nearest to, within 256 bytes of its ends */
    for (int i = 0; i < array_count; i++) {
        uintptr_t base = arrays[i].base, end = base + arrays[i].size * (size_t)arrays[i].count;
        uintptr_t off = at < base ? base - at : at >= end ? at - end : 0;
        if (base && off < best)
            best = off, nearest = i;
    }
    if (nearest < 0) {
        snprintf(out, size, "%s memory at %#lx, outside every array of the case", how, (unsigned long)at);
        return;
    }
    uintptr_t base = arrays[nearest].base, each = arrays[nearest].size;
    long index = at >= base ? (long)((at - base) / each) : -1 - (long)((base - at - 1) / each);
    snprintf(out, size, "%s %s[%ld], %s the %d %s", how, arrays[nearest].name, index, index < 0 ? "before" : "past",
             arrays[nearest].count, arrays[nearest].noun);
}

/* A fresh allocation of exactly n elements holding a copy of src (malloc(0) for n = 0). */
static void *exact_copy(const void *src, size_t size, int n, bool *ok)
{
    void *p = malloc(size * (size_t)n);
    if (!p && n > 0) {
        *ok = false;
        return NULL;
    }
    if (n > 0)
        memcpy(p, src, size * (size_t)n);
    return p;
}

/* An output array of n elements, every byte 0xff (so that an element left unwritten reads
 * as NaN or -1, never as a plausible answer). */
static void *output(size_t size, int n, bool *ok)
{
    void *p = malloc(size * (size_t)(n > 0 ? n : 1));
    if (!p)
        *ok = false;
    else
        memset(p, 0xff, size * (size_t)(n > 0 ? n : 1));
    return p;
}

static void put(grade30_answer *a, double x)
{
    if (a->n < GRADE30_MAX_VALUES)
        a->v[a->n++] = x;
}
static void put_matrices(grade30_answer *a, const mat4 *m, int n)
{
    for (int i = 0; i < n; i++)
        for (int r = 0; r < 4; r++)
            for (int k = 0; k < 4; k++)
                put(a, m[i].m[r][k]);
}
static void put_dualquat(grade30_answer *a, dualquat q)
{
    const quat *part[2] = {&q.real, &q.dual};
    for (int i = 0; i < 2; i++)
        put(a, part[i]->w), put(a, part[i]->x), put(a, part[i]->y), put(a, part[i]->z);
}

/* 8 to 10: the skeleton sheet's calls */
static grade30_answer call_skeleton(grade30_exercise which, grade30_fn f, const grade30_case *c, bool *ok)
{
    grade30_answer a;
    grade30_answer_clear(&a);
    arrays_clear();
    if (which == GRADE30_SKELETON_WORLD) {
        int *parent = exact_copy(c->parent, sizeof *parent, c->nodes, ok);
        mat4 *local = exact_copy(c->local, sizeof *local, c->nodes, ok), *world = output(sizeof *world, c->nodes, ok);
        array_add("parent", "nodes", parent, sizeof *parent, c->nodes);
        array_add("local", "nodes", local, sizeof *local, c->nodes);
        array_add("world", "nodes", world, sizeof *world, c->nodes);
        if (*ok) {
            int first = f.skeleton_world(c->nodes, parent, local, world);
            put(&a, first);
            if (first == -1)
                put_matrices(&a, world, c->nodes);
        }
        free(parent), free(local), free(world);
    } else if (which == GRADE30_PALETTE) {
        int *skin_joints = exact_copy(c->skin_joints, sizeof *skin_joints, c->joints, ok);
        mat4 *world = exact_copy(c->node_world, sizeof *world, c->nodes, ok);
        mat4 *ibm = c->no_inverse_bind ? NULL : exact_copy(c->inverse_bind, sizeof *ibm, c->joints, ok);
        mat4 *palette = output(sizeof *palette, c->joints, ok);
        array_add("skin_joints", "joints", skin_joints, sizeof *skin_joints, c->joints);
        array_add("node_world", "nodes", world, sizeof *world, c->nodes);
        array_add("inverse_bind", "joints", ibm, sizeof *ibm, c->joints);
        array_add("palette", "joints", palette, sizeof *palette, c->joints);
        if (*ok) {
            f.palette(c->joints, skin_joints, world, ibm, palette);
            put_matrices(&a, palette, c->joints);
        }
        free(skin_joints), free(world), free(ibm), free(palette);
    } else {
        int *parent = exact_copy(c->parent, sizeof *parent, c->nodes, ok);
        mat4 *local = exact_copy(c->local, sizeof *local, c->nodes, ok);
        int *skin_joints = exact_copy(c->skin_joints, sizeof *skin_joints, c->joints, ok);
        mat4 *ibm = c->no_inverse_bind ? NULL : exact_copy(c->inverse_bind, sizeof *ibm, c->joints, ok);
        vec3 *position = exact_copy(c->position, sizeof *position, c->vertices, ok);
        int *joints = exact_copy(c->vertex_joint, sizeof *joints, 4 * c->vertices, ok);
        double *weights = exact_copy(c->vertex_weight, sizeof *weights, 4 * c->vertices, ok);
        vec3 *out = output(sizeof *out, c->vertices, ok);
        array_add("parent", "nodes", parent, sizeof *parent, c->nodes);
        array_add("local", "nodes", local, sizeof *local, c->nodes);
        array_add("skin_joints", "joints", skin_joints, sizeof *skin_joints, c->joints);
        array_add("inverse_bind", "joints", ibm, sizeof *ibm, c->joints);
        array_add("position", "vertices", position, sizeof *position, c->vertices);
        array_add("joints", "influences (4 a vertex)", joints, sizeof *joints, 4 * c->vertices);
        array_add("weights", "weights (4 a vertex)", weights, sizeof *weights, 4 * c->vertices);
        array_add("out", "vertices", out, sizeof *out, c->vertices);
        if (*ok) {
            const ex30_skin skin = {c->nodes, parent, local, c->joints, skin_joints, ibm,
                                    c->vertices, position, joints, weights};
            f.skin_mesh(&skin, out);
            for (int v = 0; v < c->vertices; v++)
                put(&a, out[v].x), put(&a, out[v].y), put(&a, out[v].z);
        }
        free(parent), free(local), free(skin_joints), free(ibm), free(position), free(joints), free(weights), free(out);
    }
    arrays_clear();
    return a;
}

/* 16 to 21: the sheets of normals, policies, the packed vertex and bone heat */
static grade30_answer call_weights(grade30_exercise which, grade30_fn f, const grade30_case *c, bool *ok)
{
    grade30_answer a;
    grade30_answer_clear(&a);
    int *joint = exact_copy(c->joint, sizeof *joint, c->k, ok);
    double *weight = exact_copy(c->weight, sizeof *weight, c->k, ok);
    arrays_clear();
    array_add("joint", "influences", joint, sizeof *joint, c->k);
    array_add("weight", "weights", weight, sizeof *weight, c->k);
    if (!*ok) {
        free(joint), free(weight);
        return a;
    }
    switch (which) {
    case GRADE30_SKIN_NORMAL: {
        mat4 *palette = exact_copy(c->palette, sizeof *palette, c->palette_count, ok);
        array_add("palette", "matrices of the palette", palette, sizeof *palette, c->palette_count);
        if (*ok)
            a.p = f.skin_normal(c->p, joint, weight, c->k, palette, (ex30_normal_method)c->method);
        free(palette);
        break;
    }
    case GRADE30_POLICY:
        put(&a, f.apply_policy(joint, weight, c->k, (ex30_policy)c->method, c->fallback));
        for (int i = 0; i < c->k; i++)
            put(&a, joint[i]);
        for (int i = 0; i < c->k; i++)
            put(&a, weight[i]);
        break;
    case GRADE30_KEEP_HEAVIEST: {
        int *out_joint = output(sizeof *out_joint, 4, ok);
        double *out_weight = output(sizeof *out_weight, 4, ok);
        array_add("out_joint", "kept influences", out_joint, sizeof *out_joint, 4);
        array_add("out_weight", "kept weights", out_weight, sizeof *out_weight, 4);
        if (*ok) {
            int kept = f.keep_heaviest(joint, weight, c->k, out_joint, out_weight);
            put(&a, kept);
            for (int i = 0; i < kept && i < 4; i++)
                put(&a, out_joint[i]);
            for (int i = 0; i < kept && i < 4; i++)
                put(&a, out_weight[i]);
        }
        free(out_joint), free(out_weight);
        break;
    }
    case GRADE30_UNPACK_WEIGHTS: {
        unsigned short *stored = exact_copy(c->stored, sizeof *stored, 3, ok);
        double *w = output(sizeof *w, 4, ok);
        array_add("stored", "stored weights", stored, sizeof *stored, 3);
        array_add("w", "weights", w, sizeof *w, 4);
        if (*ok) {
            f.unpack_weights(stored, w);
            for (int i = 0; i < 4; i++)
                put(&a, w[i]);
        }
        free(stored), free(w);
        break;
    }
    case GRADE30_COTAN_ROW: {
        vec3 *ring = exact_copy(c->ring, sizeof *ring, c->k, ok);
        double *row = output(sizeof *row, c->k + 1, ok);
        array_add("ring", "neighbours", ring, sizeof *ring, c->k);
        array_add("row", "entries of the row (n + 1)", row, sizeof *row, c->k + 1);
        if (*ok) {
            f.cotan_row(c->p, ring, c->k, c->closed, row);
            for (int i = 0; i <= c->k; i++)
                put(&a, row[i]);
        }
        free(ring), free(row);
        break;
    }
    case GRADE30_HEAT_ROW: {
        double *out = output(sizeof *out, 2, ok);
        if (*ok) {
            f.heat_row(c->laplacian_ii, c->area, c->distance, c->ties, c->nearest, c->c, &out[0], &out[1]);
            put(&a, out[0]), put(&a, out[1]);
        }
        free(out);
        break;
    }
    default: break;
    }
    arrays_clear();
    free(joint), free(weight);
    return a;
}

grade30_answer grade30_call(const grade30_entry *x, grade30_fn f, const grade30_case *c, bool *ok)
{
    grade30_answer a;
    grade30_answer_clear(&a);
    *ok = true;
    switch ((grade30_exercise)(x - grade30_table)) {
    case GRADE30_WORLD_MATRIX: a.m = f.world_matrix(c->a, c->b); break;
    case GRADE30_SKIN_MATRIX: a.m = f.skin_matrix(c->a, c->b); break;
    case GRADE30_RING_RADIUS: a.x = f.ring_radius_ratio(c->w, c->theta); break;
    case GRADE30_NORMAL_MATRIX: a.m = f.normal_matrix(c->a); break;
    case GRADE30_LBS_POINT:
    case GRADE30_COR_POINT: { /* a point from its influences and the palette */
        int *joint = exact_copy(c->joint, sizeof *joint, c->k, ok);
        double *weight = exact_copy(c->weight, sizeof *weight, c->k, ok);
        mat4 *palette = exact_copy(c->palette, sizeof *palette, c->palette_count, ok);
        call_arrays(joint, c->k, weight, c->k, palette, c->palette_count, NULL, 0);
        if (*ok)
            a.p = x == &grade30_table[GRADE30_LBS_POINT]
                      ? f.lbs_point(c->p, joint, weight, c->k, palette)
                      : f.cor_point(c->p, c->centre, c->rotation, joint, weight, c->k, palette);
        call_arrays(NULL, 0, NULL, 0, NULL, 0, NULL, 0);
        free(joint), free(weight), free(palette);
        break;
    }
    case GRADE30_CHECK_WEIGHTS: {
        double *weight = exact_copy(c->weight, sizeof *weight, c->k, ok);
        call_arrays(NULL, 0, weight, c->k, NULL, 0, NULL, 0);
        if (*ok) {
            a.rule = f.check_weights(weight, c->k);
            a.changed = c->k > 0 && memcmp(weight, c->weight, sizeof *weight * (size_t)c->k) != 0;
        }
        call_arrays(NULL, 0, NULL, 0, NULL, 0, NULL, 0);
        free(weight);
        break;
    }
    case GRADE30_DQS_BLEND: {
        dualquat *q = exact_copy(c->q, sizeof *q, c->k, ok);
        double *weight = exact_copy(c->weight, sizeof *weight, c->k, ok);
        call_arrays(NULL, 0, weight, c->k, NULL, 0, q, c->k);
        if (*ok)
            a.q = f.dqs_blend(q, weight, c->k);
        call_arrays(NULL, 0, NULL, 0, NULL, 0, NULL, 0);
        free(q), free(weight);
        break;
    }
    case GRADE30_SKELETON_WORLD:
    case GRADE30_PALETTE:
    case GRADE30_SKIN_MESH: return call_skeleton((grade30_exercise)(x - grade30_table), f, c, ok);
    case GRADE30_DQ_FROM_RIGID: a.q = f.dq_from_rigid(c->rotation, c->p); break;
    case GRADE30_DQ_NORMALIZE: {
        dualquat out = c->q[1]; /* what a refusal must leave as it is */
        bool normalized = f.dq_normalize(c->q[0], &out);
        put(&a, normalized);
        put_dualquat(&a, out);
        break;
    }
    case GRADE30_DQ_TRANSFORM: a.p = f.dq_transform_point(c->q[0], c->p); break;
    case GRADE30_LBS_TURN:
    case GRADE30_DQS_TURN: a.x = f.turn_angle(c->w, c->theta); break;
    case GRADE30_SKIN_NORMAL:
    case GRADE30_POLICY:
    case GRADE30_KEEP_HEAVIEST:
    case GRADE30_UNPACK_WEIGHTS:
    case GRADE30_COTAN_ROW:
    case GRADE30_HEAT_ROW: return call_weights((grade30_exercise)(x - grade30_table), f, c, ok);
    case GRADE30_CORRECTIVE: a.p = f.corrective_point(c->p, c->delta, c->s, c->a, c->rotation, c->after); break;
    case GRADE30_SHADER:
    case GRADE30_EXERCISE_COUNT: break;
    }
    return a;
}
