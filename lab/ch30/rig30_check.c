/* rig30_check.c - the closed forms of chapter 30's rigs and the measurements compared
 * with them; none of it calls the skinning path it checks (see rig30_check.h). */
#include "base/diag.h"
#include "math/dualquat.h"
#include "math/linalg.h"
#include "math/quat.h"
#include "mesh/mesh.h"
#include "skin/blend.h"
#include "skin/influences.h"

#include "rig30.h"
#include "rig30_check.h"

#include <math.h>
#include <stdlib.h>
#include <stdbool.h>

double rig30_radius_ratio(double child_weight, double theta)
{
    /* The article's r'/r = sqrt(1 - 4 w (1-w) sin^2(theta/2)), written with
     * sin^2 = 1 - cos^2 as sqrt((1 - 2w)^2 + 4 w (1-w) cos^2(theta/2)): the same number,
     * but a sum of two squares, so near the collapse (w = 1/2, theta near an odd multiple
     * of 180 degrees) it keeps its digits where 1 - (a number near 1) would lose them all. */
    double w = child_weight, c = cos(0.5 * theta);
    return sqrt((1.0 - 2.0 * w) * (1.0 - 2.0 * w) + 4.0 * w * (1.0 - w) * c * c);
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
    double w = child_weight, c = cos(0.5 * theta), s = sin(0.5 * theta);
    if (c < 0.0) /* the hemisphere fix: -q is the same rotation, on the root's side */
        c = -c, s = -s;
    return 2.0 * atan2(w * s, (1.0 - w) + w * c);
}

double rig30_angle_difference(double a, double b)
{
    return fabs(remainder(a - b, 4.0 * acos(0.0)));
}

/* The DQS twist point: p turned about z by phi (radius and height kept). */
static vec3 dqs_twist_point(vec3 p, double w1, double theta)
{
    double phi = rig30_dqs_twist_angle(w1, theta), c = cos(phi), s = sin(phi);
    return vec3_make(p.x * c - p.y * s, p.x * s + p.y * c, p.z);
}

double rig30_measure_ring_angle(const vec3 *bind, const vec3 *positions, int ring)
{
    double sum = 0.0, first = 0.0;
    for (int s = 0; s < RIG30_SEGMENTS; s++) {
        int v = mesh_cylinder_index(RIG30_SEGMENTS, ring, s);
        vec3 a = bind[v], b = positions[v];
        if (!(hypot(b.x, b.y) > 1e-9))
            return NAN;
        double turn = atan2(a.x * b.y - a.y * b.x, a.x * b.x + a.y * b.y);
        if (s > 0 && fabs(turn - first) > 2.0 * acos(0.0)) /* a ring turned by about 180 degrees: */
            turn += turn < first ? 4.0 * acos(0.0) : -4.0 * acos(0.0); /* keep its vertices on one side */
        first = s == 0 ? turn : first;
        sum += turn;
    }
    return sum / RIG30_SEGMENTS;
}

rig30_ring_radius rig30_measure_ring(const vec3 *positions, int ring)
{
    rig30_ring_radius r = {0.0, INFINITY, 0.0, {0}};
    double sum = 0.0; /* summed first, divided once */
    for (int s = 0; s < RIG30_SEGMENTS; s++) {
        vec3 p = positions[mesh_cylinder_index(RIG30_SEGMENTS, ring, s)];
        double dist = hypot(p.x, p.y);
        r.vertex[s] = dist;
        sum += dist;
        r.min = fmin(r.min, dist);
        r.max = fmax(r.max, dist);
    }
    /* the true mean lies in [min, max]; a last-bit rounding outside it is clamped back */
    r.mean = fmin(fmax(sum / RIG30_SEGMENTS, r.min), r.max);
    return r;
}

void rig30_check_twist(const rig30_rig *rig, const rig30_pose *pose, skin_method method,
                       rig30_check *acc)
{
    const vec3 axis = {0, 0, 1};
    quat top = quat_from_axis_angle(axis, pose->theta); /* chapter 29's rotation of w = 1 */
    for (int v = 0; v < rig->bind.vertex_count; v++) {
        vec3 p = rig->bind.vertices[v], q = pose->positions[v];
        /* the weights as (root, child), whatever slots hold them */
        double w0 = skin_joint_weight(&rig->influences, v, 0), w1 = skin_joint_weight(&rig->influences, v, 1);
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
        double w1 = rig30_child_weight(&rig->influences, v);
        double expected = RIG30_RADIUS * (method == SKIN_DQS ? 1.0 : rig30_radius_ratio(w1, pose->theta));
        double mean = rig30_measure_ring(pose->positions, ring).mean;
        acc->max_mean_radius_error = fmax(acc->max_mean_radius_error, fabs(mean - expected));
    }
}

lab_error rig30_sweep_ring_radius(skin_method method, double child_weight, double theta,
                                  double *out_radius, lab_diag *d)
{
    vec3 bind[RIG30_SEGMENTS], skinned[RIG30_SEGMENTS];
    int joint[2 * RIG30_SEGMENTS];
    double weight[2 * RIG30_SEGMENTS];
    skin_influences in = {RIG30_SEGMENTS, 2, joint, weight};
    const double two_pi = 4.0 * acos(0.0);
    for (int s = 0; s < RIG30_SEGMENTS; s++) {
        bind[s] = vec3_make(cos(two_pi * s / RIG30_SEGMENTS), sin(two_pi * s / RIG30_SEGMENTS), 1.0);
        joint[2 * s] = 0, weight[2 * s] = 1.0 - child_weight;
        joint[2 * s + 1] = 1, weight[2 * s + 1] = child_weight;
    }
    const mat4 palette[RIG30_JOINTS] = {mat4_identity(), mat4_rotate_z(theta)};
    const dualquat signed_dq[RIG30_JOINTS] = {
        dualquat_identity(),
        dualquat_from_rigid(quat_from_axis_angle(vec3_make(0, 0, 1), theta), vec3_make(0, 0, 0))};
    skin_blend blend = {.method = method, .palette_dq = signed_dq};
    lab_error e = skin_deform(bind, &in, palette, RIG30_JOINTS, blend, skinned, d);
    if (e == LAB_OK)
        *out_radius = rig30_measure_ring(skinned, 0).mean;
    return e;
}

lab_error rig30_sweep_radius(skin_method method, double theta, int samples, double *out_measured,
                             double *out_analytic, lab_diag *d)
{
    lab_error e = LAB_OK;
    for (int k = 0; e == LAB_OK && k < samples; k++) {
        double w = (double)k / (samples - 1);
        e = rig30_sweep_ring_radius(method, w, theta, &out_measured[k], d);
        out_analytic[k] = method == SKIN_DQS ? 1.0 : rig30_radius_ratio(w, theta);
    }
    return e;
}

/* d w_j / da and d w_j / dz at (ring, segment) by differences of the neighbours' weights. */
static void weight_gradient(const rig30_rig *rig, int ring, int seg, int j, double *dwda,
                            double *dwdz)
{
    const int S = RIG30_SEGMENTS;
    const skin_influences *in = &rig->influences;
    double da = 2.0 * (4.0 * acos(0.0) / S); /* two segments apart, in radians */
    *dwda = (skin_joint_weight(in, mesh_cylinder_index(S, ring, (seg + 1) % S), j) -
             skin_joint_weight(in, mesh_cylinder_index(S, ring, (seg + S - 1) % S), j)) / da;
    int lo = ring > 0 ? ring - 1 : ring, hi = ring + 1 < RIG30_RINGS ? ring + 1 : ring;
    double dz = rig->bind.vertices[mesh_cylinder_index(S, hi, seg)].z -
                rig->bind.vertices[mesh_cylinder_index(S, lo, seg)].z;
    *dwdz = (skin_joint_weight(in, mesh_cylinder_index(S, hi, seg), j) -
             skin_joint_weight(in, mesh_cylinder_index(S, lo, seg), j)) / dz;
}

/* Vertices whose weights equal those of all four neighbours: there the weight gradient
 * is zero, so the normal methods' only approximation is gone. */
void rig30_steady_vertices(const rig30_rig *rig, bool *out)
{
    const int S = RIG30_SEGMENTS;
    for (int v = 0; v < rig->bind.vertex_count; v++) {
        int ring = v / S, seg = v % S;
        double w = rig30_child_weight(&rig->influences, v);
        const int nb[4][2] = {{ring - 1, seg}, {ring + 1, seg}, {ring, (seg + 1) % S}, {ring, (seg + S - 1) % S}};
        out[v] = true;
        for (int k = 0; k < 4; k++)
            if (nb[k][0] >= 0 && nb[k][0] < RIG30_RINGS &&
                rig30_child_weight(&rig->influences, mesh_cylinder_index(S, nb[k][0], nb[k][1])) != w)
                out[v] = false;
    }
}

double rig30_max_distance(const vec3 *a, const vec3 *b, int n)
{
    double m = 0.0;
    for (int v = 0; v < n; v++)
        m = fmax(m, vec3_length(vec3_sub(a[v], b[v])));
    return m;
}

void rig30_measure_rings(const rig30_rig *rig, const rig30_pose *pose, skin_method method,
                         rig30_ring_table *out)
{
    bool dqs = method == SKIN_DQS;
    rig30_bend_metrics bend;
    if (rig->kind == RIG30_BEND)
        rig30_measure_bend(rig, pose, &bend);
    for (int k = 0; k < RIG30_RINGS; k++) {
        double w = rig30_child_weight(&rig->influences, mesh_cylinder_index(RIG30_SEGMENTS, k, 0));
        if (rig->kind == RIG30_BEND) {
            out->radius[k] = bend.ring_radius[k];
            out->radius_analytic[k] = dqs ? RIG30_RADIUS : NAN;
            out->angle[k] = out->angle_analytic[k] = NAN;
            continue;
        }
        out->radius[k] = rig30_measure_ring(pose->positions, k).mean;
        out->radius_analytic[k] = RIG30_RADIUS * (dqs ? 1.0 : rig30_radius_ratio(w, pose->theta));
        out->angle[k] = rig30_measure_ring_angle(rig->bind.vertices, pose->positions, k);
        out->angle_analytic[k] = dqs ? rig30_dqs_twist_angle(w, pose->theta)
                                     : rig30_lbs_twist_angle(w, pose->theta);
    }
}

void rig30_true_normals(const rig30_rig *rig, const mat4 *palette, mat4 model, vec3 *out)
{
    for (int v = 0; v < rig->bind.vertex_count; v++) {
        int ring = v / RIG30_SEGMENTS, seg = v % RIG30_SEGMENTS;
        vec3 p = rig->bind.vertices[v], ta = {0, 0, 0}, tz = {0, 0, 0};
        for (int j = 0; j < RIG30_JOINTS; j++) {
            double w = skin_joint_weight(&rig->influences, v, j), dwda, dwdz;
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


lab_error rig30_dqs_twist(const rig30_rig *rig, double theta, bool fix, double *turn, double *moved, lab_diag *d)
{
    rig30_pose p;
    lab_error e = rig30_pose_alloc(rig, &p, d);
    if (e == LAB_OK)
        e = rig30_pose_at(rig, theta, (skin_blend){.method = SKIN_DQS, .skip_hemisphere_fix = !fix}, &p, d);
    if (e == LAB_OK) {
        *turn = rig30_measure_ring_angle(rig->bind.vertices, p.positions, RIG30_MIDDLE_RING);
        *moved = rig30_max_distance(p.positions, rig->bind.vertices, rig->bind.vertex_count);
    }
    rig30_pose_free(&p);
    return e;
}
