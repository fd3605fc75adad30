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

static void grade30_put_matrices(grade_answer *a, const mat4 *m, int n)
{
    for (int i = 0; i < n; i++)
        grade30_put_matrix(a, m[i]);
}

void grade30_call(const grade_exercise *x, grade_fn g, const grade30_case *c, grade_call *k, grade_answer *a)
{
    grade30_exercise which = (grade30_exercise)x->tag;
    grade30_fn f = grade30_fn_of(g);
#define IN(name, noun, src, count) grade_input(k, name, noun, src, sizeof *(src), count)
    switch (which) {
    case GRADE30_WORLD_MATRIX: grade30_put_matrix(a, f.world_matrix(c->a, c->b)); break;
    case GRADE30_SKIN_MATRIX: grade30_put_matrix(a, f.skin_matrix(c->a, c->b)); break;
    case GRADE30_RING_RADIUS: grade_put(a, f.ring_radius_ratio(c->w, c->theta)); break;
    case GRADE30_NORMAL_MATRIX: grade30_put_matrix(a, f.normal_matrix(c->a)); break;
    case GRADE30_DQ_FROM_RIGID: grade30_put_dualquat(a, f.dq_from_rigid(c->rotation, c->p)); break;
    case GRADE30_DQ_TRANSFORM: grade30_put_point(a, f.dq_transform_point(c->q[0], c->p)); break;
    case GRADE30_LBS_TURN:
    case GRADE30_DQS_TURN: grade_put(a, f.turn_angle(c->w, c->theta)); break;
    case GRADE30_CORRECTIVE: grade30_put_point(a, f.corrective_point(c->p, c->delta, c->s, c->a, c->rotation, c->after)); break;
    case GRADE30_LBS_POINT:
    case GRADE30_COR_POINT:
    case GRADE30_SKIN_NORMAL: { /* a point or normal from its influences and the palette */
        const int *joint = IN("joint", "influences", c->joint, c->k);
        const double *weight = IN("weight", "weights", c->weight, c->k);
        const mat4 *palette = IN("palette", "matrices of the palette", c->palette, c->palette_count);
        if (!grade_call_ready(k))
            break;
        grade30_put_point(a, which == GRADE30_LBS_POINT ? f.lbs_point(c->p, joint, weight, c->k, palette)
                             : which == GRADE30_COR_POINT
                                 ? f.cor_point(c->p, c->centre, c->rotation, joint, weight, c->k, palette)
                                 : f.skin_normal(c->p, joint, weight, c->k, palette, (ex30_normal_method)c->method));
        break;
    }
    case GRADE30_CHECK_WEIGHTS: {
        const double *weight = IN("weight", "weights", c->weight, c->k);
        if (grade_call_ready(k))
            grade_put(a, f.check_weights(weight, c->k));
        break;
    }
    case GRADE30_DQS_BLEND: {
        const dualquat *q = IN("q", "dual quaternions", c->q, c->k);
        const double *weight = IN("weight", "weights", c->weight, c->k);
        if (grade_call_ready(k))
            grade30_put_dualquat(a, f.dqs_blend(q, weight, c->k));
        break;
    }
    case GRADE30_DQ_NORMALIZE: { /* *out on the heap, holding what a refusal must leave as it is */
        dualquat *out = grade_inout(k, "out", "dual quaternion (one: *out)", &c->q[1], sizeof c->q[1], 1);
        if (!grade_call_ready(k))
            break;
        grade_put(a, f.dq_normalize(c->q[0], out));
        grade30_put_dualquat(a, *out);
        break;
    }
    case GRADE30_SKELETON_WORLD: {
        const int *parent = IN("parent", "nodes", c->parent, c->nodes);
        const mat4 *local = IN("local", "nodes", c->local, c->nodes);
        mat4 *world = grade_output(k, "world", "nodes", sizeof *world, c->nodes);
        if (!grade_call_ready(k))
            break;
        int first = f.skeleton_world(c->nodes, parent, local, world);
        grade_put(a, first);
        if (first == -1)
            grade30_put_matrices(a, world, c->nodes);
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
        grade30_put_matrices(a, palette, c->joints);
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
        /* the struct itself on the heap too (not compared: it is this call's own, and its
         * arrays are compared one by one) */
        const ex30_skin *given = grade_inout(k, "skin", "skin (one)", &skin, sizeof skin, 1);
        vec3 *out = grade_output(k, "out", "vertices", sizeof *out, c->vertices);
        if (!grade_call_ready(k))
            break;
        f.skin_mesh(given, out);
        for (int v = 0; v < c->vertices; v++)
            grade_put(a, out[v].x), grade_put(a, out[v].y), grade_put(a, out[v].z);
        break;
    }
    case GRADE30_POLICY: { /* the weights are the function's to change: its answer */
        int *joint = grade_inout(k, "joint", "influences", c->joint, sizeof *c->joint, c->k);
        double *weight = grade_inout(k, "weight", "weights", c->weight, sizeof *c->weight, c->k);
        if (!grade_call_ready(k))
            break;
        grade_put(a, f.apply_policy(joint, weight, c->k, (ex30_policy)c->method, c->fallback));
        for (int i = 0; i < c->k; i++)
            grade_put(a, joint[i]);
        for (int i = 0; i < c->k; i++)
            grade_put(a, weight[i]);
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
        grade_put(a, kept);
        for (int i = 0; i < kept && i < 4; i++)
            grade_put(a, out_joint[i]);
        for (int i = 0; i < kept && i < 4; i++)
            grade_put(a, out_weight[i]);
        break;
    }
    case GRADE30_UNPACK_WEIGHTS: {
        const unsigned short *stored = IN("stored", "stored weights", c->stored, 3);
        double *w = grade_output(k, "w", "weights", sizeof *w, 4);
        if (!grade_call_ready(k))
            break;
        f.unpack_weights(stored, w);
        for (int i = 0; i < 4; i++)
            grade_put(a, w[i]);
        break;
    }
    case GRADE30_COTAN_ROW: {
        const vec3 *ring = IN("ring", "neighbours", c->ring, c->k);
        double *row = grade_output(k, "row", "entries of the row (n + 1)", sizeof *row, c->k + 1);
        if (!grade_call_ready(k))
            break;
        f.cotan_row(c->p, ring, c->k, c->closed, row);
        for (int i = 0; i <= c->k; i++)
            grade_put(a, row[i]);
        break;
    }
    case GRADE30_HEAT_ROW: {
        double *diagonal = grade_output(k, "diagonal", "numbers (one: *diagonal)", sizeof *diagonal, 1);
        double *rhs = grade_output(k, "rhs", "numbers (one: *rhs)", sizeof *rhs, 1);
        if (!grade_call_ready(k))
            break;
        f.heat_row(c->laplacian_ii, c->area, c->distance, c->ties, c->nearest, c->c, diagonal, rhs);
        grade_put(a, *diagonal), grade_put(a, *rhs);
        break;
    }
    case GRADE30_SHADER:
    case GRADE30_EXERCISE_COUNT: grade_call_ready(k); break;
    }
#undef IN
}
