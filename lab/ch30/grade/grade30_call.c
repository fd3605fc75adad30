/* grade30_call.c - calling an exercise's function on a case as a student's function is
 * called (grade30_table.h), through the engine's call arrays (src/grade/arrays.h): every
 * input a fresh heap copy of exactly its size, compared with the case after the call;
 * every output, *out too, a heap allocation of exactly its size; the answer gathered into
 * the exercise's kind. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grade/arrays.h"
#include "math/dualquat.h"
#include "math/linalg.h"

#include "grade30_table.h"

void grade30_name_access(uintptr_t at, bool write, char *out, size_t size) { grade_name_access(at, write, out, size); }

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

/* The arrays, then the call, on case c; *ok false when an array could not be made. */
static void call(grade30_exercise which, grade30_fn f, const grade30_case *c, grade_call *k, grade30_answer *a)
{
#define IN(name, noun, src, count) grade_input(k, name, noun, src, sizeof *(src), count)
    switch (which) {
    case GRADE30_WORLD_MATRIX: a->m = f.world_matrix(c->a, c->b); break;
    case GRADE30_SKIN_MATRIX: a->m = f.skin_matrix(c->a, c->b); break;
    case GRADE30_RING_RADIUS: a->x = f.ring_radius_ratio(c->w, c->theta); break;
    case GRADE30_NORMAL_MATRIX: a->m = f.normal_matrix(c->a); break;
    case GRADE30_DQ_FROM_RIGID: a->q = f.dq_from_rigid(c->rotation, c->p); break;
    case GRADE30_DQ_TRANSFORM: a->p = f.dq_transform_point(c->q[0], c->p); break;
    case GRADE30_LBS_TURN:
    case GRADE30_DQS_TURN: a->x = f.turn_angle(c->w, c->theta); break;
    case GRADE30_CORRECTIVE: a->p = f.corrective_point(c->p, c->delta, c->s, c->a, c->rotation, c->after); break;
    case GRADE30_LBS_POINT:
    case GRADE30_COR_POINT:
    case GRADE30_SKIN_NORMAL: { /* a point or normal from its influences and the palette */
        const int *joint = IN("joint", "influences", c->joint, c->k);
        const double *weight = IN("weight", "weights", c->weight, c->k);
        const mat4 *palette = IN("palette", "matrices of the palette", c->palette, c->palette_count);
        if (!grade_call_ready(k))
            break;
        a->p = which == GRADE30_LBS_POINT ? f.lbs_point(c->p, joint, weight, c->k, palette)
               : which == GRADE30_COR_POINT
                   ? f.cor_point(c->p, c->centre, c->rotation, joint, weight, c->k, palette)
                   : f.skin_normal(c->p, joint, weight, c->k, palette, (ex30_normal_method)c->method);
        break;
    }
    case GRADE30_CHECK_WEIGHTS: {
        const double *weight = IN("weight", "weights", c->weight, c->k);
        if (grade_call_ready(k))
            a->rule = f.check_weights(weight, c->k);
        break;
    }
    case GRADE30_DQS_BLEND: {
        const dualquat *q = IN("q", "dual quaternions", c->q, c->k);
        const double *weight = IN("weight", "weights", c->weight, c->k);
        if (grade_call_ready(k))
            a->q = f.dqs_blend(q, weight, c->k);
        break;
    }
    case GRADE30_DQ_NORMALIZE: { /* *out on the heap, holding what a refusal must leave as it is */
        dualquat *out = grade_inout(k, "out", "dual quaternion (one: *out)", &c->q[1], sizeof c->q[1], 1);
        if (!grade_call_ready(k))
            break;
        put(a, f.dq_normalize(c->q[0], out));
        put_dualquat(a, *out);
        break;
    }
    case GRADE30_SKELETON_WORLD: {
        const int *parent = IN("parent", "nodes", c->parent, c->nodes);
        const mat4 *local = IN("local", "nodes", c->local, c->nodes);
        mat4 *world = grade_output(k, "world", "nodes", sizeof *world, c->nodes);
        if (!grade_call_ready(k))
            break;
        int first = f.skeleton_world(c->nodes, parent, local, world);
        put(a, first);
        if (first == -1)
            put_matrices(a, world, c->nodes);
        break;
    }
    case GRADE30_PALETTE: {
        const int *skin_joints = IN("skin_joints", "joints", c->skin_joints, c->joints);
        const mat4 *world = IN("node_world", "nodes", c->node_world, c->nodes);
        const mat4 *ibm = c->no_inverse_bind ? NULL : IN("inverse_bind", "joints", c->inverse_bind, c->joints);
        mat4 *palette = grade_output(k, "palette", "joints", sizeof *palette, c->joints);
        if (!grade_call_ready(k))
            break;
        f.palette(c->joints, skin_joints, world, ibm, palette);
        put_matrices(a, palette, c->joints);
        break;
    }
    case GRADE30_SKIN_MESH: {
        const int *parent = IN("parent", "nodes", c->parent, c->nodes);
        const mat4 *local = IN("local", "nodes", c->local, c->nodes);
        const int *skin_joints = IN("skin_joints", "joints", c->skin_joints, c->joints);
        const mat4 *ibm = c->no_inverse_bind ? NULL : IN("inverse_bind", "joints", c->inverse_bind, c->joints);
        const vec3 *position = IN("position", "vertices", c->position, c->vertices);
        const int *joints = IN("joints", "influences (4 a vertex)", c->vertex_joint, 4 * c->vertices);
        const double *weights = IN("weights", "weights (4 a vertex)", c->vertex_weight, 4 * c->vertices);
        const ex30_skin skin = {c->nodes, parent, local, c->joints, skin_joints, ibm, c->vertices, position, joints, weights};
        const ex30_skin *given = grade_input(k, "skin", "skin (one)", &skin, sizeof skin, 1);
        vec3 *out = grade_output(k, "out", "vertices", sizeof *out, c->vertices);
        if (!grade_call_ready(k))
            break;
        f.skin_mesh(given, out);
        for (int v = 0; v < c->vertices; v++)
            put(a, out[v].x), put(a, out[v].y), put(a, out[v].z);
        break;
    }
    case GRADE30_POLICY: { /* the weights are the function's to change: its answer */
        int *joint = grade_inout(k, "joint", "influences", c->joint, sizeof *c->joint, c->k);
        double *weight = grade_inout(k, "weight", "weights", c->weight, sizeof *c->weight, c->k);
        if (!grade_call_ready(k))
            break;
        put(a, f.apply_policy(joint, weight, c->k, (ex30_policy)c->method, c->fallback));
        for (int i = 0; i < c->k; i++)
            put(a, joint[i]);
        for (int i = 0; i < c->k; i++)
            put(a, weight[i]);
        break;
    }
    case GRADE30_KEEP_HEAVIEST: {
        const int *joint = IN("joint", "influences", c->joint, c->k);
        const double *weight = IN("weight", "weights", c->weight, c->k);
        int *out_joint = grade_output(k, "out_joint", "kept influences", sizeof *out_joint, 4);
        double *out_weight = grade_output(k, "out_weight", "kept weights", sizeof *out_weight, 4);
        if (!grade_call_ready(k))
            break;
        int kept = f.keep_heaviest(joint, weight, c->k, out_joint, out_weight);
        put(a, kept);
        for (int i = 0; i < kept && i < 4; i++)
            put(a, out_joint[i]);
        for (int i = 0; i < kept && i < 4; i++)
            put(a, out_weight[i]);
        break;
    }
    case GRADE30_UNPACK_WEIGHTS: {
        const unsigned short *stored = IN("stored", "stored weights", c->stored, 3);
        double *w = grade_output(k, "w", "weights", sizeof *w, 4);
        if (!grade_call_ready(k))
            break;
        f.unpack_weights(stored, w);
        for (int i = 0; i < 4; i++)
            put(a, w[i]);
        break;
    }
    case GRADE30_COTAN_ROW: {
        const vec3 *ring = IN("ring", "neighbours", c->ring, c->k);
        double *row = grade_output(k, "row", "entries of the row (n + 1)", sizeof *row, c->k + 1);
        if (!grade_call_ready(k))
            break;
        f.cotan_row(c->p, ring, c->k, c->closed, row);
        for (int i = 0; i <= c->k; i++)
            put(a, row[i]);
        break;
    }
    case GRADE30_HEAT_ROW: {
        double *diagonal = grade_output(k, "diagonal", "numbers (one: *diagonal)", sizeof *diagonal, 1);
        double *rhs = grade_output(k, "rhs", "numbers (one: *rhs)", sizeof *rhs, 1);
        if (!grade_call_ready(k))
            break;
        f.heat_row(c->laplacian_ii, c->area, c->distance, c->ties, c->nearest, c->c, diagonal, rhs);
        put(a, *diagonal), put(a, *rhs);
        break;
    }
    case GRADE30_SHADER:
    case GRADE30_EXERCISE_COUNT: grade_call_ready(k); break;
    }
#undef IN
}

grade30_answer grade30_call(const grade30_entry *x, grade30_fn f, const grade30_case *c, bool *ok)
{
    grade30_answer a;
    grade30_answer_clear(&a);
    grade30_exercise which = (grade30_exercise)(x - grade30_table);
    grade_call k = {0};
    call(which, f, c, &k, &a);
    *ok = !k.failed;
    if (*ok && grade_call_changed(&k, a.input_changed, sizeof a.input_changed))
        a.changed = true; /* the weight rules' answer says so itself (refuse, never repair) */
    grade_call_end(&k);
    return a;
}
