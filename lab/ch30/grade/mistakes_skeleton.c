/* mistakes_skeleton.c - the known mistakes of the skeleton and dual quaternion sheets
 * (exercises 8 to 15, mistakes.h), each written once, as a student would write it; where
 * several slip in one formula, the formula is written once with the slip as a parameter. */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "math/quat.h"

#include "mistakes.h"

/* ---- 8: the hierarchy, one formula and its slips ---------------------------------------- */
typedef enum {
    SKELETON_RIGHT, SKELETON_NO_RULE, SKELETON_L_G, SKELETON_ROOT_IDENTITY, SKELETON_PARENT_LOCAL, SKELETON_SELF_ALLOWED,
    SKELETON_LAST_BAD, SKELETON_ZERO_FOR_VALID
} skeleton_slip;

static int skeleton(skeleton_slip slip, int n, const int *parent, const mat4 *local, mat4 *world)
{
    int last_bad = -1;
    for (int i = 0; i < n; i++) {
        int p = parent[i];
        bool breaks = slip == SKELETON_SELF_ALLOWED ? p < -1 || p > i : p < -1 || p >= i;
        if (breaks && slip == SKELETON_LAST_BAD) { /* every node checked, the last one kept */
            last_bad = i;
            continue;
        }
        if (breaks && slip != SKELETON_NO_RULE)
            return i;
        if (p < 0 || p >= n) /* no rule: a parent out of range taken as a root */
            world[i] = slip == SKELETON_ROOT_IDENTITY ? mat4_identity() : local[i];
        else if (slip == SKELETON_L_G)
            world[i] = mat4_mul(local[i], world[p]);
        else if (slip == SKELETON_PARENT_LOCAL)
            world[i] = mat4_mul(local[p], local[i]);
        else
            world[i] = mat4_mul(world[p], local[i]);
    }
    return slip == SKELETON_LAST_BAD ? last_bad : slip == SKELETON_ZERO_FOR_VALID ? 0 : -1;
}
int mistake_skeleton_last_bad(int n, const int *p, const mat4 *l, mat4 *w) { return skeleton(SKELETON_LAST_BAD, n, p, l, w); }
int mistake_skeleton_zero_for_valid(int n, const int *p, const mat4 *l, mat4 *w)
{
    return skeleton(SKELETON_ZERO_FOR_VALID, n, p, l, w);
}
int mistake_skeleton_no_rule(int n, const int *p, const mat4 *l, mat4 *w) { return skeleton(SKELETON_NO_RULE, n, p, l, w); }
int mistake_skeleton_l_g(int n, const int *p, const mat4 *l, mat4 *w) { return skeleton(SKELETON_L_G, n, p, l, w); }
int mistake_skeleton_root_identity(int n, const int *p, const mat4 *l, mat4 *w)
{
    return skeleton(SKELETON_ROOT_IDENTITY, n, p, l, w);
}
int mistake_skeleton_parent_local(int n, const int *p, const mat4 *l, mat4 *w)
{
    return skeleton(SKELETON_PARENT_LOCAL, n, p, l, w);
}
int mistake_skeleton_self_allowed(int n, const int *p, const mat4 *l, mat4 *w)
{
    return skeleton(SKELETON_SELF_ALLOWED, n, p, l, w);
}

/* ---- 9: the palette ------------------------------------------------------------------------ */

/* The general inverse of an affine matrix: [A^-1, -A^-1 t]. */
static mat4 affine_inverse(mat4 m)
{
    mat4 it = mat4_identity();
    (void)mat4_linear_inverse_transpose(m, &it, "inverse bind", NULL);
    mat4 inv = mat4_transpose(it);
    vec3 t = mat4_transform_direction(inv, vec3_make(m.m[0][3], m.m[1][3], m.m[2][3]));
    inv.m[0][3] = -t.x, inv.m[1][3] = -t.y, inv.m[2][3] = -t.z;
    inv.m[3][0] = inv.m[3][1] = inv.m[3][2] = 0, inv.m[3][3] = 1;
    return inv;
}

typedef enum { PALETTE_RIGHT, PALETTE_SLOT_AS_NODE, PALETTE_IBM_FIRST, PALETTE_NO_IBM, PALETTE_IBM_INVERTED } palette_slip;
static void palette(palette_slip slip, int count, const int *skin_joints, const mat4 *world, const mat4 *ibm, mat4 *out)
{
    for (int j = 0; j < count; j++) {
        mat4 g = world[slip == PALETTE_SLOT_AS_NODE ? j : skin_joints[j]], b = ibm ? ibm[j] : mat4_identity();
        out[j] = slip == PALETTE_IBM_FIRST      ? mat4_mul(b, g)
                 : slip == PALETTE_NO_IBM       ? g
                 : slip == PALETTE_IBM_INVERTED ? mat4_mul(g, affine_inverse(b))
                                                : mat4_mul(g, b);
    }
}
void mistake_palette_slot_as_node(int n, const int *s, const mat4 *w, const mat4 *b, mat4 *o)
{
    palette(PALETTE_SLOT_AS_NODE, n, s, w, b, o);
}
void mistake_palette_ibm_first(int n, const int *s, const mat4 *w, const mat4 *b, mat4 *o) { palette(PALETTE_IBM_FIRST, n, s, w, b, o); }
void mistake_palette_no_ibm(int n, const int *s, const mat4 *w, const mat4 *b, mat4 *o) { palette(PALETTE_NO_IBM, n, s, w, b, o); }
void mistake_palette_ibm_inverted(int n, const int *s, const mat4 *w, const mat4 *b, mat4 *o)
{
    palette(PALETTE_IBM_INVERTED, n, s, w, b, o);
}

/* ---- 10: the whole loop -------------------------------------------------------------------- */
typedef enum { MESH_JOINTS_AS_NODES, MESH_NO_HIERARCHY, MESH_NO_IBM, MESH_FIRST_INFLUENCE } mesh_slip;
static void skin_mesh(mesh_slip slip, const ex30_skin *s, vec3 *out)
{
    mat4 world[EX30_MAX_NODES], pal[EX30_MAX_NODES], node_pal[EX30_MAX_NODES];
    if (slip == MESH_NO_HIERARCHY)
        memcpy(world, s->local, sizeof *world * (size_t)s->node_count);
    else
        skeleton(SKELETON_RIGHT, s->node_count, s->parent, s->local, world);
    palette(slip == MESH_NO_IBM ? PALETTE_NO_IBM : PALETTE_RIGHT, s->joint_count, s->skin_joints, world,
            s->inverse_bind, pal);
    for (int j = 0; j < s->joint_count; j++) /* the JOINTS value as a node: G_{value} IBM_{value} */
        node_pal[j] = mat4_mul(world[j], s->inverse_bind ? s->inverse_bind[j] : mat4_identity());
    for (int v = 0; v < s->vertex_count; v++) {
        vec3 sum = {0, 0, 0};
        for (int i = 0; i < (slip == MESH_FIRST_INFLUENCE ? 1 : 4); i++) {
            int slot = s->joints[4 * v + i];
            double w = slip == MESH_FIRST_INFLUENCE ? 1 : s->weights[4 * v + i];
            mat4 c = slip == MESH_JOINTS_AS_NODES ? node_pal[slot] : pal[slot];
            sum = vec3_add(sum, vec3_scale(mat4_transform_point(c, s->position[v]), w));
        }
        out[v] = sum;
    }
}
void mistake_mesh_joints_as_nodes(const ex30_skin *s, vec3 *o) { skin_mesh(MESH_JOINTS_AS_NODES, s, o); }
void mistake_mesh_no_hierarchy(const ex30_skin *s, vec3 *o) { skin_mesh(MESH_NO_HIERARCHY, s, o); }
void mistake_mesh_no_inverse_bind(const ex30_skin *s, vec3 *o) { skin_mesh(MESH_NO_IBM, s, o); }
void mistake_mesh_first_influence(const ex30_skin *s, vec3 *o) { skin_mesh(MESH_FIRST_INFLUENCE, s, o); }

/* ---- 11: the rigid transform as a dual quaternion ------------------------------------------ */
static quat scaled(quat q, double s) { return (quat){q.w * s, q.x * s, q.y * s, q.z * s}; }
typedef enum { RIGID_NO_HALF, RIGID_Q0_T, RIGID_NO_Q0, RIGID_CONJUGATE } rigid_slip;
static dualquat rigid(rigid_slip slip, quat q, vec3 t)
{
    quat tq = {0, t.x, t.y, t.z};
    quat dual = slip == RIGID_Q0_T ? quat_mul(q, tq) : slip == RIGID_NO_Q0 ? tq
                : slip == RIGID_CONJUGATE ? quat_mul(tq, quat_conjugate(q)) : quat_mul(tq, q);
    return (dualquat){q, scaled(dual, slip == RIGID_NO_HALF ? 1 : 0.5)};
}
dualquat mistake_dq_no_half(quat q, vec3 t) { return rigid(RIGID_NO_HALF, q, t); }
dualquat mistake_dq_q0_t(quat q, vec3 t) { return rigid(RIGID_Q0_T, q, t); }
dualquat mistake_dq_no_q0(quat q, vec3 t) { return rigid(RIGID_NO_Q0, q, t); }
dualquat mistake_dq_conjugate(quat q, vec3 t) { return rigid(RIGID_CONJUGATE, q, t); }

/* ---- 12: the normalisation ---------------------------------------------------------------- */
typedef enum {
    NORM_EIGHT, NORM_REAL_ONLY, NORM_NO_REFUSAL, NORM_SQUARED, NORM_REFUSAL_WRITES, NORM_NAN_PASSES, NORM_AT_THRESHOLD,
    NORM_DUAL_JUDGED
} norm_slip;
static bool dual_finite(quat d) { return isfinite(d.w) && isfinite(d.x) && isfinite(d.y) && isfinite(d.z); }
static bool normalize(norm_slip slip, dualquat b, dualquat *out)
{
    double n = quat_norm(b.real);
    if (slip == NORM_EIGHT)
        n = sqrt(quat_dot(b.real, b.real) + quat_dot(b.dual, b.dual));
    bool refuse = slip == NORM_NAN_PASSES     ? n <= 1e-9 /* NaN, and an infinity, pass it */
                  : slip == NORM_AT_THRESHOLD ? n < 1e-9 || !isfinite(n)
                  : slip == NORM_DUAL_JUDGED  ? !(n > 1e-9) || !isfinite(n) || !dual_finite(b.dual)
                                              : !(n > 1e-9) || !isfinite(n);
    if (slip != NORM_NO_REFUSAL && refuse) {
        if (slip == NORM_REFUSAL_WRITES)
            *out = (dualquat){{0, 0, 0, 0}, {0, 0, 0, 0}};
        return false;
    }
    double by = slip == NORM_SQUARED ? n * n : n;
    *out = (dualquat){scaled(b.real, 1 / by), slip == NORM_REAL_ONLY ? b.dual : scaled(b.dual, 1 / by)};
    return true;
}
bool mistake_norm_eight(dualquat b, dualquat *o) { return normalize(NORM_EIGHT, b, o); }
bool mistake_norm_real_only(dualquat b, dualquat *o) { return normalize(NORM_REAL_ONLY, b, o); }
bool mistake_norm_no_refusal(dualquat b, dualquat *o) { return normalize(NORM_NO_REFUSAL, b, o); }
bool mistake_norm_squared(dualquat b, dualquat *o) { return normalize(NORM_SQUARED, b, o); }
bool mistake_norm_refusal_writes(dualquat b, dualquat *o) { return normalize(NORM_REFUSAL_WRITES, b, o); }
bool mistake_norm_nan_passes(dualquat b, dualquat *o) { return normalize(NORM_NAN_PASSES, b, o); }
bool mistake_norm_at_threshold(dualquat b, dualquat *o) { return normalize(NORM_AT_THRESHOLD, b, o); }
bool mistake_norm_dual_judged(dualquat b, dualquat *o) { return normalize(NORM_DUAL_JUDGED, b, o); }

/* ---- 13: Kavan's point transform ------------------------------------------------------------ */
typedef enum { POINT_NO_TRANSLATION, POINT_NO_TWO, POINT_ORDER, POINT_CONJUGATE, POINT_MOVE_FIRST } point_slip;
static vec3 transform(point_slip slip, dualquat q, vec3 p)
{
    quat tq = slip == POINT_ORDER ? quat_mul(quat_conjugate(q.real), q.dual) : quat_mul(q.dual, quat_conjugate(q.real));
    vec3 t = vec3_scale(vec3_make(tq.x, tq.y, tq.z), slip == POINT_NO_TWO ? 1 : 2);
    if (slip == POINT_NO_TRANSLATION)
        t = vec3_make(0, 0, 0);
    if (slip == POINT_MOVE_FIRST)
        return quat_rotate(q.real, vec3_add(p, t));
    return vec3_add(quat_rotate(slip == POINT_CONJUGATE ? quat_conjugate(q.real) : q.real, p), t);
}
vec3 mistake_point_no_translation(dualquat q, vec3 p) { return transform(POINT_NO_TRANSLATION, q, p); }
vec3 mistake_point_no_two(dualquat q, vec3 p) { return transform(POINT_NO_TWO, q, p); }
vec3 mistake_point_order(dualquat q, vec3 p) { return transform(POINT_ORDER, q, p); }
vec3 mistake_point_conjugate(dualquat q, vec3 p) { return transform(POINT_CONJUGATE, q, p); }
vec3 mistake_point_move_first(dualquat q, vec3 p) { return transform(POINT_MOVE_FIRST, q, p); }

/* ---- 14, 15: the turn angles --------------------------------------------------------------- */
double mistake_turn_linear(double w, double theta) { return w * theta; }
double mistake_turn_atan(double w, double theta) { return atan(w * sin(theta) / ((1 - w) + w * cos(theta))); }
double mistake_turn_degrees(double w, double theta)
{
    double t = theta * 3.14159265358979323846 / 180;
    return atan2(w * sin(t), (1 - w) + w * cos(t));
}
double mistake_turn_weights_swapped(double w, double theta) { return atan2((1 - w) * sin(theta), w + (1 - w) * cos(theta)); }
/* the DQS ring's angle, with or without its hemisphere rule */
static double dqs_angle(bool hemisphere, double w, double theta)
{
    double c = cos(theta / 2), s = sin(theta / 2);
    if (hemisphere && c < 0)
        c = -c, s = -s;
    return 2 * atan2(w * s, (1 - w) + w * c);
}
double mistake_turn_dqs_form(double w, double theta) { return dqs_angle(true, w, theta); }
double mistake_turn_no_hemisphere(double w, double theta) { return dqs_angle(false, w, theta); }
double mistake_turn_lbs_form(double w, double theta) { return atan2(w * sin(theta), (1 - w) + w * cos(theta)); }
double mistake_turn_without_two(double w, double theta) { return dqs_angle(true, w, theta) / 2; }
double mistake_turn_linear_wrapped(double w, double theta) { return w * remainder(theta, 2 * 3.14159265358979323846); }
