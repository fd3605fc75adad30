/* rig30_cases.c - the article's hand control and the invalid inputs, each run through
 * the real pipeline (see rig30_cases.h). */
#include "base/diag.h"
#include "math/dualquat.h"
#include "math/linalg.h"
#include "math/quat.h"
#include "mesh/scene.h"
#include "skin/blend.h"
#include "skin/influences.h"
#include "skin/pose.h"

#include "rig30.h"
#include "rig30_cases.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

lab_error rig30_hand_control_run(rig30_hand_control *out, lab_diag *d)
{
    const double quarter = 0.5 * acos(-1.0);
    const vec3 p = {1, 1, 0};
    const int joint[2] = {0, 1};
    const double equal[2] = {0.5, 0.5};
    mat4 bind1 = mat4_translate(0, 1, 0);
    mat4 world1 = mat4_mul(mat4_translate(0, 1, 0), mat4_rotate_z(quarter));
    mat4 inverse_bind1;
    lab_error e = mat4_invert_translation(bind1, &inverse_bind1, "hand control B_1", d);
    if (e != LAB_OK)
        return e;
    const mat4 child[HAND_ROWS] = {
        [HAND_CORRECT] = mat4_mul(world1, inverse_bind1),
        [HAND_NO_INVERSE_BIND] = world1,
        [HAND_REVERSED_ORDER] = mat4_mul(inverse_bind1, world1),
    };
    static const char *const names[HAND_ROWS] = {"correct G1 B1^-1", "missing inverse bind G1",
                                                 "reversed order B1^-1 G1"};
    const vec3 article[HAND_ROWS] = {{0.5, 1.5, 0}, {0, 1.5, 0}, {0, 1, 0}};
    for (int r = 0; r < HAND_ROWS; r++) {
        mat4 palette[2] = {mat4_identity(), child[r]};
        vec4 h = skin_lbs_point(p, joint, equal, 2, palette);
        out->name[r] = names[r];
        out->computed[r] = vec3_make(h.x, h.y, h.z);
        out->article[r] = article[r];
    }
    for (int r = 0; r < HAND_ROWS; r++)
        out->error_vs_correct[r] =
            vec3_length(vec3_sub(out->computed[r], out->computed[HAND_CORRECT]));
    out->point = p;
    out->in_bind_frame = mat4_transform_point(inverse_bind1, p);
    out->child_moves_it = mat4_transform_point(child[HAND_CORRECT], p);
    /* row vector times the transpose: (p^T K)_j = sum_i p_i K[i][j], K = C_1^T */
    mat4 k = mat4_transpose(child[HAND_CORRECT]);
    const double row[4] = {p.x, p.y, p.z, 1.0};
    double product[4] = {0, 0, 0, 0};
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 4; i++)
            product[j] += row[i] * k.m[i][j];
    out->row_vector = vec3_make(product[0], product[1], product[2]);
    out->row_column_difference = vec3_length(vec3_sub(out->row_vector, out->child_moves_it));
    return LAB_OK;
}

lab_error rig30_reversed_order_on_cylinder(const rig30_rig *rig, double theta, double *out,
                                           lab_diag *d)
{
    int n = rig->bind.vertex_count;
    rig30_pose right, reversed;
    lab_error e = rig30_pose_alloc(rig, &right, d);
    if (e == LAB_OK)
        e = rig30_pose_alloc(rig, &reversed, d);
    else
        reversed.positions = NULL;
    if (e == LAB_OK)
        e = rig30_pose_at(rig, theta, (skin_blend){.method = SKIN_LBS}, &right, d);
    mat4 palette[RIG30_JOINTS];
    for (int j = 0; e == LAB_OK && j < RIG30_JOINTS; j++) /* B^-1 G: G acts first */
        palette[j] = mat4_mul(rig->inverse_bind[j], right.world[j]);
    if (e == LAB_OK)
        e = skin_deform(rig->bind.vertices, &rig->influences, palette, RIG30_JOINTS,
                        (skin_blend){.method = SKIN_LBS}, reversed.positions, d);
    *out = 0.0;
    for (int v = 0; e == LAB_OK && v < n; v++)
        *out = fmax(*out, vec3_length(vec3_sub(right.positions[v], reversed.positions[v])));
    rig30_pose_free(&right);
    rig30_pose_free(&reversed);
    return e;
}

lab_error rig30_chord_run(rig30_chord *out, lab_diag *d)
{
    const double quarter = 0.5 * acos(-1.0);
    const int joint[2] = {0, 1};
    const double weight[2] = {0.5, 0.5};
    const mat4 palette[2] = {mat4_rotate_z(quarter), mat4_rotate_z(-quarter)};
    const vec3 z = {0, 0, 1}, none = {0, 0, 0};
    const dualquat signed_dq[2] = {dualquat_from_rigid(quat_from_axis_angle(z, quarter), none),
                                   dualquat_from_rigid(quat_from_axis_angle(z, -quarter), none)};
    out->v = vec3_make(1, 0, 0);
    out->by_first = mat4_transform_point(palette[0], out->v);
    out->by_second = mat4_transform_point(palette[1], out->v);
    vec4 h = skin_lbs_point(out->v, joint, weight, 2, palette);
    out->lbs = vec3_make(h.x, h.y, h.z);
    lab_error e = skin_dqs_point(out->v, joint, weight, 2, signed_dq, true, &out->dqs, "chord sketch", d);
    out->lbs_distance = vec3_length(out->lbs);
    out->dqs_distance = vec3_length(out->dqs);
    out->lbs_distance_analytic = fabs(cos(quarter)); /* half the 180 degrees between the bones */
    return e;
}

lab_error rig30_candidates_run(double angle, rig30_candidates *out, lab_diag *d)
{
    scene_node joints[RIG30_JOINTS];
    mat4 world[RIG30_JOINTS], bind[RIG30_JOINTS], inverse_bind[RIG30_JOINTS], palette[RIG30_JOINTS];
    dualquat palette_dq[RIG30_JOINTS];
    rig30_joints(RIG30_BEND, 0.0, joints);
    lab_error e = scene_evaluate(joints, RIG30_JOINTS, bind, d);
    if (e == LAB_OK)
        e = skin_inverse_binds(bind, RIG30_JOINTS, inverse_bind, d);
    rig30_joints(RIG30_BEND, angle, joints);
    if (e == LAB_OK)
        e = skin_pose_palette(joints, RIG30_JOINTS, inverse_bind, NULL, world, palette, NULL, d);
    for (int j = 0; e == LAB_OK && j < RIG30_JOINTS; j++)
        e = dualquat_from_mat4(palette[j], &palette_dq[j], "candidates sketch", d);
    const int joint[2] = {0, 1};
    *out = (rig30_candidates){.angle = angle, .p = vec3_make(0, -1, 1.25), .weight = {2.0 / 3.0, 1.0 / 3.0}};
    for (int j = 0; e == LAB_OK && j < RIG30_JOINTS; j++) /* the flowchart's n candidate positions */
        out->candidate[j] = mat4_transform_point(palette[j], out->p);
    if (e == LAB_OK) {
        vec4 h = skin_lbs_point(out->p, joint, out->weight, 2, palette);
        out->lbs = vec3_make(h.x, h.y, h.z);
        out->lbs_by_hand = vec3_add(vec3_scale(out->candidate[0], out->weight[0]),
                                    vec3_scale(out->candidate[1], out->weight[1]));
        out->joint = mat4_transform_point(world[1], vec3_make(0, 0, 0));
        out->child_tip = mat4_transform_point(world[1], vec3_make(0, 0, 1));
        e = skin_dqs_point(out->p, joint, out->weight, 2, palette_dq, true, &out->dqs, "candidates sketch", d);
    }
    return e;
}

/* A private copy of everything the pipeline reads, for one case to break. */
typedef struct {
    vec3 *points;
    skin_influences influences;   /* K = 2: vertex v's slot s at [2 v + s] */
    scene_node joints[RIG30_JOINTS];
    mat4 bind_world[RIG30_JOINTS];
} scratch_inputs;

typedef void (*break_inputs)(scratch_inputs *s);

/* Vertex v's two influences become (j0, w0), (j1, w1). */
static void set_vertex(scratch_inputs *s, int v, int j0, double w0, int j1, double w1)
{
    s->influences.joint[2 * v] = j0, s->influences.weight[2 * v] = w0;
    s->influences.joint[2 * v + 1] = j1, s->influences.weight[2 * v + 1] = w1;
}

static void slot_out_of_range(scratch_inputs *s) { s->influences.joint[2 * 100 + 1] = 2; }
static void zero_weight_slot_out_of_range(scratch_inputs *s) { set_vertex(s, 0, 0, 1.0, 7, 0.0); }
static void negative_slot(scratch_inputs *s) { s->influences.joint[2 * 30] = -1; }
static void negative_weight(scratch_inputs *s) { set_vertex(s, 50, 0, 1.25, 1, -0.25); }
static void sum_not_one(scratch_inputs *s)
{
    const double w[2] = {0.4, 0.4};
    rig30_set_middle_ring(&s->influences, w);
}
static void sum_just_beyond_tolerance(scratch_inputs *s) { s->influences.weight[2 * 120 + 1] += 2e-12; }
static void nan_weight(scratch_inputs *s) { s->influences.weight[2 * 70] = NAN; }
static void infinite_weight(scratch_inputs *s) { s->influences.weight[2 * 80 + 1] = INFINITY; }
static void nan_point(scratch_inputs *s) { s->points[10].z = NAN; }
static void infinite_point(scratch_inputs *s) { s->points[11].x = -INFINITY; }
static void non_affine_local(scratch_inputs *s) { s->joints[1].local.m[3][2] = 0.5; }
static void non_finite_local(scratch_inputs *s) { s->joints[1].local.m[0][3] = INFINITY; }
static void huge_local(scratch_inputs *s) { s->joints[1].local.m[2][3] = 1e9; }
static void rotated_bind(scratch_inputs *s)
{
    s->bind_world[1] = mat4_mul(mat4_translate(0, 0, 2), mat4_rotate_z(0.5));
}
static void scaled_bind(scratch_inputs *s)
{
    s->bind_world[1] = mat4_mul(mat4_translate(0, 0, 2), mat4_scale(2, 2, 2));
}
static void parent_after_child(scratch_inputs *s)
{
    s->joints[0].parent = 1;
    s->joints[1].parent = SCENE_NO_PARENT;
}

static const struct {
    rig30_invalid_case info;
    break_inputs apply;
} cases[] = {
    {{"joint slot out of range (joint 2 of 2)", "joint slot", LAB_ERR_JOINT_SLOT_RANGE}, slot_out_of_range},
    {{"joint slot out of range with zero weight", "joint slot", LAB_ERR_JOINT_SLOT_RANGE},
     zero_weight_slot_out_of_range},
    {{"negative joint slot", "joint slot", LAB_ERR_JOINT_SLOT_RANGE}, negative_slot},
    {{"negative weight (1.25, -0.25)", "weight", LAB_ERR_WEIGHT_NEGATIVE}, negative_weight},
    {{"weights of ring 4 sum to 0.8 (0.4, 0.4)", "weight", LAB_ERR_WEIGHT_SUM}, sum_not_one},
    {{"weights sum to 1 + 2e-12", "weight", LAB_ERR_WEIGHT_SUM}, sum_just_beyond_tolerance},
    {{"NaN weight", "weight", LAB_ERR_WEIGHT_NOT_FINITE}, nan_weight},
    {{"infinite weight", "weight", LAB_ERR_WEIGHT_NOT_FINITE}, infinite_weight},
    {{"NaN coordinate in a bind vertex", "point", LAB_ERR_POINT_NOT_FINITE}, nan_point},
    {{"infinite coordinate in a bind vertex", "point", LAB_ERR_POINT_NOT_FINITE}, infinite_point},
    {{"non-affine local matrix (last row 0 0 0.5 1)", "matrix", LAB_ERR_MATRIX_NOT_AFFINE},
     non_affine_local},
    {{"non-finite local matrix", "matrix", LAB_ERR_MATRIX_NOT_FINITE}, non_finite_local},
    {{"local matrix beyond the magnitude bound", "matrix", LAB_ERR_MATRIX_TOO_LARGE}, huge_local},
    {{"bind transform with rotation", "bind transform", LAB_ERR_NOT_PURE_TRANSLATION}, rotated_bind},
    {{"bind transform with scale", "bind transform", LAB_ERR_NOT_PURE_TRANSLATION}, scaled_bind},
    {{"parent listed after its child", "skeleton", LAB_ERR_PARENT_ORDER}, parent_after_child},
};
enum { CASE_COUNT = sizeof cases / sizeof cases[0] };

int rig30_invalid_case_count(void) { return CASE_COUNT; }

const rig30_invalid_case *rig30_invalid_case_get(int i)
{
    return (i >= 0 && i < CASE_COUNT) ? &cases[i].info : NULL;
}

lab_error rig30_invalid_case_run(const rig30_rig *rig, int i, lab_diag *d)
{
    if (i < 0 || i >= CASE_COUNT)
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "invalid-input case", "case %d of %d", i,
                         CASE_COUNT);
    int n = rig->bind.vertex_count;
    scratch_inputs s = {.points = malloc(sizeof *s.points * (size_t)n)};
    vec3 *positions = malloc(sizeof *positions * (size_t)n);
    mat4 inverse_bind[RIG30_JOINTS], world[RIG30_JOINTS], palette[RIG30_JOINTS];
    lab_error e = skin_influences_copy(&rig->influences, &s.influences, d);
    if (e == LAB_OK && (!s.points || !positions))
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "invalid-input case", "case %d, %d vertices", i, n);
    if (e == LAB_OK) {
        memcpy(s.points, rig->bind.vertices, sizeof *s.points * (size_t)n);
        rig30_joints(rig->kind, 0.5 * acos(-1.0), s.joints);
        memcpy(s.bind_world, rig->bind_world, sizeof s.bind_world);
        cases[i].apply(&s);
        /* the whole chain, from the (possibly broken) bind matrices on */
        e = skin_inverse_binds(s.bind_world, RIG30_JOINTS, inverse_bind, d);
    }
    if (e == LAB_OK) {
        skin_pose_job job = {.joints = s.joints, .joint_count = RIG30_JOINTS,
                             .inverse_bind = inverse_bind, .bind_positions = s.points,
                             .influences = &s.influences,
                             .out_world = world, .out_palette = palette, .out_positions = positions};
        e = skin_pose_run(&job, d);
    }
    free(s.points);
    skin_influences_free(&s.influences);
    free(positions);
    return e;
}
