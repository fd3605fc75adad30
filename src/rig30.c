/* rig30.c - chapter 30's rig, its analytic checks, the hand control and the invalid
 * inputs (see rig30.h for the formulas). */
#include "rig30.h"

#include "gltf_write.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

const char *rig30_kind_name(rig30_kind kind) { return kind == RIG30_BEND ? "bend" : "twist"; }

void rig30_joints(rig30_kind kind, double angle, scene_node out[RIG30_JOINTS])
{
    out[0] = (scene_node){"root", SCENE_NO_PARENT, mat4_identity()};
    if (kind == RIG30_BEND)
        out[1] = (scene_node){"child", 0, mat4_mul(mat4_translate(0, 0, RIG30_BEND_JOINT_Z),
                                                   mat4_rotate_x(angle))};
    else
        out[1] = (scene_node){"child", 0,
                              mat4_mul(mat4_translate(0, 0, RIG30_HEIGHT), mat4_rotate_z(angle))};
}

void rig30_joint_dualquats(rig30_kind kind, double angle, dualquat out[RIG30_JOINTS])
{
    out[0] = dualquat_identity();
    if (kind == RIG30_BEND)
        out[1] = dualquat_from_rigid(quat_from_axis_angle(vec3_make(1, 0, 0), angle),
                                     vec3_make(0, 0, RIG30_BEND_JOINT_Z));
    else
        out[1] = dualquat_from_rigid(quat_from_axis_angle(vec3_make(0, 0, 1), angle),
                                     vec3_make(0, 0, RIG30_HEIGHT));
}

/* The bend's band: 0 below it, smoothstep across it, 1 above it. */
static double band_weight(double z)
{
    double u = (z - (RIG30_BEND_JOINT_Z - RIG30_BEND_BAND_HALF)) / (2.0 * RIG30_BEND_BAND_HALF);
    u = u < 0.0 ? 0.0 : u > 1.0 ? 1.0 : u;
    return u * u * (3.0 - 2.0 * u);
}

void rig30_weights(rig30_kind kind, const mesh *m, skin_influence *out)
{
    for (int v = 0; v < m->vertex_count; v++) {
        double z = m->vertices[v].z;
        double w1 = kind == RIG30_BEND ? band_weight(z) : z / RIG30_HEIGHT;
        out[v] = (skin_influence){{0, 1}, {1.0 - w1, w1}};
    }
}

double rig30_child_weight(const skin_influence *influence)
{
    double w = 0.0;
    for (int s = 0; s < SKIN_SLOTS; s++)
        if (influence->joint[s] == 1)
            w += influence->weight[s];
    return w;
}

void rig30_rig_free(rig30_rig *rig)
{
    mesh_free(&rig->bind);
    free(rig->influences);
    memset(rig, 0, sizeof *rig);
}

lab_error rig30_rig_build(rig30_rig *rig, rig30_kind kind, const double *middle_weights,
                          lab_diag *d)
{
    memset(rig, 0, sizeof *rig);
    rig->kind = kind;
    lab_error e = mesh_cylinder(RIG30_RINGS, RIG30_SEGMENTS, RIG30_RADIUS, RIG30_HEIGHT,
                                &rig->bind, d);
    if (e == LAB_OK)
        e = mesh_check(&rig->bind, RIG30_MIN_AREA, &rig->stats, d);
    if (e == LAB_OK && !(rig->influences = malloc(sizeof *rig->influences *
                                                   (size_t)rig->bind.vertex_count)))
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "influences", "%d vertices", rig->bind.vertex_count);
    if (e == LAB_OK) {
        rig30_weights(kind, &rig->bind, rig->influences);
        for (int s = 0; middle_weights && s < RIG30_SEGMENTS; s++) {
            skin_influence *in =
                &rig->influences[mesh_cylinder_index(RIG30_SEGMENTS, RIG30_MIDDLE_RING, s)];
            in->weight[0] = middle_weights[0];
            in->weight[1] = middle_weights[1];
        }
        e = skin_validate_influences(rig->influences, rig->bind.vertex_count, RIG30_JOINTS, d);
    }
    if (e == LAB_OK) {
        rig30_joints(kind, 0.0, rig->bind_joints);
        e = scene_evaluate(rig->bind_joints, RIG30_JOINTS, rig->bind_world, d);
    }
    if (e == LAB_OK)
        e = skin_inverse_binds(rig->bind_world, RIG30_JOINTS, rig->inverse_bind, d);
    if (e != LAB_OK)
        rig30_rig_free(rig);
    return e;
}

lab_error rig30_run(const rig30_inputs *in, rig30_pose *out, lab_diag *d)
{
    mat4 inverse_bind[RIG30_JOINTS];
    lab_error e = skin_inverse_binds(in->bind_world, RIG30_JOINTS, inverse_bind, d);
    if (e != LAB_OK)
        return e;
    memcpy(out->joints, in->joints, sizeof out->joints);
    skin_pose_job job = {
        .joints = in->joints,
        .joint_count = RIG30_JOINTS,
        .inverse_bind = inverse_bind,
        .bind_positions = in->points,
        .influences = in->influences,
        .vertex_count = in->vertex_count,
        .blend = in->blend,
        .local_dq = in->joints_dq,
        .out_world = out->world,
        .out_palette = out->palette,
        .out_positions = out->positions,
    };
    return skin_pose_run(&job, d);
}

lab_error rig30_pose_at(const rig30_rig *rig, double theta, skin_blend blend, rig30_pose *out,
                        lab_diag *d)
{
    scene_node joints[RIG30_JOINTS];
    dualquat joints_dq[RIG30_JOINTS];
    rig30_joints(rig->kind, theta, joints);
    rig30_joint_dualquats(rig->kind, theta, joints_dq);
    rig30_inputs in = {rig->bind.vertices, rig->influences, rig->bind.vertex_count, joints,
                       rig->bind_world, blend, joints_dq};
    out->theta = theta;
    return rig30_run(&in, out, d);
}

/* ---- analytic path: no matrices, no palette, no skin module ------------------------ */

double rig30_radius_ratio(double child_weight, double theta)
{
    double w = child_weight, s = sin(0.5 * theta);
    return sqrt(1.0 - 4.0 * w * (1.0 - w) * s * s);
}

vec3 rig30_analytic_point(vec3 p, double w0, double w1, double theta)
{
    double c = cos(theta), s = sin(theta);
    return vec3_make(w0 * p.x + w1 * (p.x * c - p.y * s), w0 * p.y + w1 * (p.x * s + p.y * c),
                     p.z);
}

double rig30_lbs_twist_angle(double child_weight, double theta)
{
    double w = child_weight;
    return atan2(w * sin(theta), (1.0 - w) + w * cos(theta));
}

double rig30_dqs_twist_angle(double child_weight, double theta)
{
    double w = child_weight;
    double t = remainder(theta, 4.0 * acos(0.0)); /* the hemisphere fix: t in [-pi, pi] */
    return 2.0 * atan2(w * sin(0.5 * t), (1.0 - w) + w * cos(0.5 * t));
}

/* The DQS twist point: p turned about z by phi (radius and height kept). */
static vec3 dqs_twist_point(vec3 p, double w1, double theta)
{
    double phi = rig30_dqs_twist_angle(w1, theta), c = cos(phi), s = sin(phi);
    return vec3_make(p.x * c - p.y * s, p.x * s + p.y * c, p.z);
}

double rig30_measure_ring_angle(const vec3 *bind, const vec3 *positions, int ring)
{
    double sum = 0.0;
    for (int s = 0; s < RIG30_SEGMENTS; s++) {
        int v = mesh_cylinder_index(RIG30_SEGMENTS, ring, s);
        vec3 a = bind[v], b = positions[v];
        if (!(hypot(b.x, b.y) > 1e-9))
            return NAN;
        sum += atan2(a.x * b.y - a.y * b.x, a.x * b.x + a.y * b.y);
    }
    return sum / RIG30_SEGMENTS;
}

rig30_ring_radius rig30_measure_ring(const vec3 *positions, int ring)
{
    rig30_ring_radius r = {0.0, INFINITY, 0.0};
    for (int s = 0; s < RIG30_SEGMENTS; s++) {
        vec3 p = positions[mesh_cylinder_index(RIG30_SEGMENTS, ring, s)];
        double dist = hypot(p.x, p.y);
        r.mean += dist / RIG30_SEGMENTS;
        r.min = fmin(r.min, dist);
        r.max = fmax(r.max, dist);
    }
    return r;
}

/* The weights of vertex v as (root, child), whatever slots hold them. */
static void root_child_weights(const skin_influence *in, double *w0, double *w1)
{
    *w1 = rig30_child_weight(in);
    *w0 = 0.0;
    for (int s = 0; s < SKIN_SLOTS; s++)
        if (in->joint[s] == 0)
            *w0 += in->weight[s];
}

void rig30_check_twist(const rig30_rig *rig, const rig30_pose *pose, skin_method method,
                       rig30_check *acc)
{
    const vec3 axis = {0, 0, 1};
    quat top = quat_from_axis_angle(axis, pose->theta); /* chapter 29's rotation of w = 1 */
    for (int v = 0; v < rig->bind.vertex_count; v++) {
        vec3 p = rig->bind.vertices[v], q = pose->positions[v];
        double w0, w1;
        root_child_weights(&rig->influences[v], &w0, &w1);
        bool dqs = method == SKIN_DQS;
        vec3 a = dqs ? dqs_twist_point(p, w1, pose->theta) : rig30_analytic_point(p, w0, w1, pose->theta);
        double r_expected = hypot(p.x, p.y) * (dqs ? 1.0 : rig30_radius_ratio(w1, pose->theta));
        acc->max_position_error = fmax(acc->max_position_error, vec3_length(vec3_sub(q, a)));
        acc->max_radius_error = fmax(acc->max_radius_error, fabs(hypot(q.x, q.y) - r_expected));
        acc->max_height_error = fmax(acc->max_height_error, fabs(q.z - p.z));
        if (w1 == 0.0 || w1 == 1.0) {
            vec3 rigid = (w1 == 0.0) ? p : quat_rotate(top, p);
            acc->max_end_ring_error = fmax(acc->max_end_ring_error, vec3_length(vec3_sub(q, rigid)));
        }
    }
    /* the ring means too, so a pattern that averages out per vertex still shows */
    for (int ring = 0; ring < RIG30_RINGS; ring++) {
        int v = mesh_cylinder_index(RIG30_SEGMENTS, ring, 0);
        double w1 = rig30_child_weight(&rig->influences[v]);
        double expected = RIG30_RADIUS * (method == SKIN_DQS ? 1.0 : rig30_radius_ratio(w1, pose->theta));
        double mean = rig30_measure_ring(pose->positions, ring).mean;
        acc->max_radius_error = fmax(acc->max_radius_error, fabs(mean - expected));
    }
}

lab_error rig30_sweep_ring_radius(skin_method method, double child_weight, double theta,
                                  double *out_radius, lab_diag *d)
{
    vec3 bind[RIG30_SEGMENTS], skinned[RIG30_SEGMENTS];
    skin_influence in[RIG30_SEGMENTS];
    const double two_pi = 4.0 * acos(0.0);
    for (int s = 0; s < RIG30_SEGMENTS; s++) {
        bind[s] = vec3_make(cos(two_pi * s / RIG30_SEGMENTS), sin(two_pi * s / RIG30_SEGMENTS), 1.0);
        in[s] = (skin_influence){{0, 1}, {1.0 - child_weight, child_weight}};
    }
    const mat4 palette[RIG30_JOINTS] = {mat4_identity(), mat4_rotate_z(theta)};
    const dualquat signed_dq[RIG30_JOINTS] = {
        dualquat_identity(),
        dualquat_from_rigid(quat_from_axis_angle(vec3_make(0, 0, 1), theta), vec3_make(0, 0, 0))};
    skin_blend blend = {.method = method, .palette_dq = signed_dq};
    lab_error e = skin_deform(bind, in, RIG30_SEGMENTS, palette, RIG30_JOINTS, blend, skinned, d);
    if (e == LAB_OK)
        *out_radius = rig30_measure_ring(skinned, 0).mean;
    return e;
}

lab_error rig30_set_influences(rig30_rig *rig, const skin_influence *influences,
                               skin_weight_policy policy, skin_weight_report *report, lab_diag *d)
{
    int n = rig->bind.vertex_count;
    skin_influence *copy = malloc(sizeof *copy * (size_t)n);
    if (!copy)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "influences", "%d vertices", n);
    memcpy(copy, influences, sizeof *copy * (size_t)n);
    lab_error e = skin_apply_weight_policy(copy, n, RIG30_JOINTS, policy, report, d);
    if (e == LAB_OK)
        memcpy(rig->influences, copy, sizeof *copy * (size_t)n);
    free(copy);
    return e;
}

void rig30_bind_normals(const rig30_rig *rig, vec3 *out)
{
    for (int v = 0; v < rig->bind.vertex_count; v++) {
        vec3 p = rig->bind.vertices[v];
        out[v] = vec3_normalize(vec3_make(p.x, p.y, 0.0));
    }
}

/* The weight vertex v gives joint j. */
static double joint_weight(const skin_influence *in, int j)
{
    double w = 0.0;
    for (int s = 0; s < SKIN_SLOTS; s++)
        if (in->joint[s] == j)
            w += in->weight[s];
    return w;
}

/* d w_j / da and d w_j / dz at (ring, segment) by differences of the neighbours' weights. */
static void weight_gradient(const rig30_rig *rig, int ring, int seg, int j, double *dwda,
                            double *dwdz)
{
    const int S = RIG30_SEGMENTS;
    const skin_influence *in = rig->influences;
    double da = 2.0 * (4.0 * acos(0.0) / S); /* two segments apart, in radians */
    *dwda = (joint_weight(&in[mesh_cylinder_index(S, ring, (seg + 1) % S)], j) -
             joint_weight(&in[mesh_cylinder_index(S, ring, (seg + S - 1) % S)], j)) / da;
    int lo = ring > 0 ? ring - 1 : ring, hi = ring + 1 < RIG30_RINGS ? ring + 1 : ring;
    double dz = rig->bind.vertices[mesh_cylinder_index(S, hi, seg)].z -
                rig->bind.vertices[mesh_cylinder_index(S, lo, seg)].z;
    *dwdz = (joint_weight(&in[mesh_cylinder_index(S, hi, seg)], j) -
             joint_weight(&in[mesh_cylinder_index(S, lo, seg)], j)) / dz;
}

void rig30_true_normals(const rig30_rig *rig, const mat4 *palette, mat4 model, vec3 *out)
{
    for (int v = 0; v < rig->bind.vertex_count; v++) {
        int ring = v / RIG30_SEGMENTS, seg = v % RIG30_SEGMENTS;
        vec3 p = rig->bind.vertices[v], ta = {0, 0, 0}, tz = {0, 0, 0};
        for (int j = 0; j < RIG30_JOINTS; j++) {
            double w = joint_weight(&rig->influences[v], j), dwda, dwdz;
            weight_gradient(rig, ring, seg, j, &dwda, &dwdz);
            vec3 moved = mat4_transform_point(palette[j], p);
            ta = vec3_add(ta, vec3_add(vec3_scale(mat4_transform_direction(palette[j], vec3_make(-p.y, p.x, 0)), w),
                                       vec3_scale(moved, dwda)));
            tz = vec3_add(tz, vec3_add(vec3_scale(mat4_transform_direction(palette[j], vec3_make(0, 0, 1)), w),
                                       vec3_scale(moved, dwdz)));
        }
        out[v] = vec3_normalize(vec3_cross(mat4_transform_direction(model, ta),
                                           mat4_transform_direction(model, tz)));
    }
}

/* Distance from p to the segment [a, b]. */
static double distance_to_segment(vec3 p, vec3 a, vec3 b)
{
    vec3 ab = vec3_sub(b, a);
    double t = vec3_dot(vec3_sub(p, a), ab) / vec3_dot(ab, ab);
    t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
    return vec3_length(vec3_sub(p, vec3_add(a, vec3_scale(ab, t))));
}

void rig30_measure_bend(const rig30_rig *rig, const rig30_pose *pose, rig30_bend_metrics *out)
{
    /* the bones in the current pose: the child's axis is its world z column */
    vec3 root = {0, 0, 0}, joint = mat4_transform_point(pose->world[1], vec3_make(0, 0, 0));
    vec3 tip = mat4_transform_point(pose->world[1], vec3_make(0, 0, 1));
    out->inner_min_distance = INFINITY;
    out->outer_max_bulge = -INFINITY;
    for (int v = 0; v < rig->bind.vertex_count; v++) {
        vec3 bind = rig->bind.vertices[v], p = pose->positions[v];
        double to_axis = fmin(distance_to_segment(p, root, joint), distance_to_segment(p, joint, tip));
        if (bind.y < 0.0)
            out->inner_min_distance = fmin(out->inner_min_distance, vec3_length(vec3_sub(p, joint)));
        if (bind.y > 0.0)
            out->outer_max_bulge = fmax(out->outer_max_bulge, to_axis - RIG30_RADIUS);
    }
    for (int ring = 0; ring < RIG30_RINGS; ring++) {
        const vec3 *p = pose->positions + mesh_cylinder_index(RIG30_SEGMENTS, ring, 0);
        vec3 centre = {0, 0, 0};
        for (int s = 0; s < RIG30_SEGMENTS; s++)
            centre = vec3_add(centre, vec3_scale(p[s], 1.0 / RIG30_SEGMENTS));
        out->ring_radius[ring] = 0.0;
        for (int s = 0; s < RIG30_SEGMENTS; s++)
            out->ring_radius[ring] += vec3_length(vec3_sub(p[s], centre)) / RIG30_SEGMENTS;
    }
}

/* ---- hand control ---------------------------------------------------------------- */

lab_error rig30_hand_control_run(rig30_hand_control *out, lab_diag *d)
{
    const double quarter = 0.5 * acos(-1.0);
    const vec3 p = {1, 1, 0};
    const skin_influence equal = {{0, 1}, {0.5, 0.5}};
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
        vec4 h = skin_lbs_point(p, &equal, palette);
        out->name[r] = names[r];
        out->computed[r] = vec3_make(h.x, h.y, h.z);
        out->article[r] = article[r];
    }
    for (int r = 0; r < HAND_ROWS; r++)
        out->error_vs_correct[r] =
            vec3_length(vec3_sub(out->computed[r], out->computed[HAND_CORRECT]));
    return LAB_OK;
}

/* ---- invalid inputs -------------------------------------------------------------- */

/* A private copy of everything the pipeline reads, for one case to break. */
typedef struct {
    vec3 *points;
    skin_influence *influences;
    scene_node joints[RIG30_JOINTS];
    mat4 bind_world[RIG30_JOINTS];
} scratch_inputs;

typedef void (*break_inputs)(scratch_inputs *s);

static void slot_out_of_range(scratch_inputs *s) { s->influences[100].joint[1] = 2; }
static void zero_weight_slot_out_of_range(scratch_inputs *s)
{
    s->influences[0] = (skin_influence){{0, 7}, {1.0, 0.0}};
}
static void negative_slot(scratch_inputs *s) { s->influences[30].joint[0] = -1; }
static void negative_weight(scratch_inputs *s)
{
    s->influences[50] = (skin_influence){{0, 1}, {1.25, -0.25}};
}
static void sum_not_one(scratch_inputs *s)
{
    for (int k = 0; k < RIG30_SEGMENTS; k++)
        s->influences[mesh_cylinder_index(RIG30_SEGMENTS, RIG30_MIDDLE_RING, k)] =
            (skin_influence){{0, 1}, {0.4, 0.4}};
}
static void sum_just_beyond_tolerance(scratch_inputs *s) { s->influences[120].weight[1] += 2e-12; }
static void nan_weight(scratch_inputs *s) { s->influences[70].weight[0] = NAN; }
static void infinite_weight(scratch_inputs *s) { s->influences[80].weight[1] = INFINITY; }
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
    int n = rig->bind.vertex_count;
    scratch_inputs s = {malloc(sizeof *s.points * (size_t)n),
                        malloc(sizeof *s.influences * (size_t)n), {{0}}, {{{{0}}}}};
    rig30_pose pose = {.positions = malloc(sizeof *pose.positions * (size_t)n)};
    lab_error e;
    if (!s.points || !s.influences || !pose.positions || i < 0 || i >= CASE_COUNT) {
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "invalid-input case", "case %d", i);
    } else {
        memcpy(s.points, rig->bind.vertices, sizeof *s.points * (size_t)n);
        memcpy(s.influences, rig->influences, sizeof *s.influences * (size_t)n);
        rig30_joints(rig->kind, 0.5 * acos(-1.0), s.joints);
        memcpy(s.bind_world, rig->bind_world, sizeof s.bind_world);
        cases[i].apply(&s);
        rig30_inputs in = {s.points, s.influences, n, s.joints, s.bind_world, {.method = SKIN_LBS},
                           NULL};
        e = rig30_run(&in, &pose, d);
    }
    free(s.points);
    free(s.influences);
    free(pose.positions);
    return e;
}

/* ---- glTF export ----------------------------------------------------------------- */

lab_error rig30_export_gltf(const rig30_rig *rig, bytes *out, lab_diag *d)
{
    enum { KEYS = 7 };
    int n = rig->bind.vertex_count;
    vec3 *normals = malloc(sizeof *normals * (size_t)n);
    uint16_t (*joints)[4] = malloc(sizeof *joints * (size_t)n);
    float (*weights)[4] = malloc(sizeof *weights * (size_t)n);
    lab_error e = (normals && joints && weights) ? LAB_OK
                                                 : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "glTF", "%d vertices", n);
    if (e == LAB_OK)
        rig30_bind_normals(rig, normals);
    for (int v = 0; e == LAB_OK && v < n; v++) {
        const skin_influence *in = &rig->influences[v];
        for (int s = 0; s < 4; s++) {
            bool used = s < SKIN_SLOTS && in->weight[s] > 0.0;
            joints[v][s] = (uint16_t)(used ? in->joint[s] : 0);
            weights[v][s] = used ? (float)in->weight[s] : 0.0f;
        }
    }
    const gltf_write_joint skeleton[RIG30_JOINTS] = {
        {"root", -1, {0, 0, 0}, quat_identity()},
        {"child", 0, {0, 0, RIG30_HEIGHT}, quat_identity()},
    };
    double times[KEYS];
    quat rotations[KEYS];
    for (int k = 0; k < KEYS; k++) {
        times[k] = (double)k / (KEYS - 1);
        rotations[k] = quat_from_axis_angle(vec3_make(0, 0, 1), acos(-1.0) * k / (KEYS - 1));
    }
    gltf_write_input in = {&rig->bind, normals, (const uint16_t(*)[4])joints, (const float(*)[4])weights,
                           skeleton, RIG30_JOINTS, rig->inverse_bind, 1, times, rotations, KEYS,
                           "skinning lab, lab30 --gltf"};
    if (e == LAB_OK)
        e = gltf_write(&in, out, d);
    free(normals), free(joints), free(weights);
    return e;
}
