/* test_grade30_sheets.c - the skeleton and dual quaternion sheets' exercises (8 to 15)
 * against answers written here, apart from the exercises' own mistakes (exNN_*.c) and from the
 * solutions: realistic wrong answers, each graded wrong (no false accept). The other sheets'
 * (16 to 24): test_grade30_sheets_weights.c; what the generators cover:
 * test_grade30_generators.c; the reference and the known mistakes: test_grade30.c; the
 * second solutions in other forms, through make: test_grade30_make.c; the shader:
 * test_grade30_shader.c. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_all.h"

#include "exercises30.h"
#include "grade30.h"
#include "math/quat.h"
#include "skin/blend.h"
#include "test_grade30_wrong.h"

/* ---- wrong answers, written here ---------------------------------------------------------------- */

/* 8 */
static int sk_zero_when_valid(int n, const int *parent, const mat4 *local, mat4 *world)
{
    int r = ex30_skeleton_world(n, parent, local, world);
    return r == -1 ? 0 : r;
}
static int sk_returns_parent(int n, const int *parent, const mat4 *local, mat4 *world)
{
    int r = ex30_skeleton_world(n, parent, local, world);
    return r >= 0 ? parent[r] : r;
}
static int sk_one_root_only(int n, const int *parent, const mat4 *local, mat4 *world)
{
    for (int i = 1; i < n; i++)
        if (parent[i] < 0)
            return i;
    return ex30_skeleton_world(n, parent, local, world);
}
/* 9 */
static void pal_ibm_transposed(int count, const int *sj, const mat4 *world, const mat4 *ibm, mat4 *out)
{
    for (int j = 0; j < count; j++)
        out[j] = mat4_mul(world[sj[j]], ibm ? mat4_transpose(ibm[j]) : mat4_identity());
}
static void pal_null_ibm_zero(int count, const int *sj, const mat4 *world, const mat4 *ibm, mat4 *out)
{
    for (int j = 0; j < count; j++)
        out[j] = ibm ? mat4_mul(world[sj[j]], ibm[j]) : mat4_scale_by(world[sj[j]], 0);
}
static void pal_node_order(int count, const int *sj, const mat4 *world, const mat4 *ibm, mat4 *out)
{
    for (int j = 0; j < count; j++) /* the node's own index for its IBM */
        out[j] = mat4_mul(world[sj[j]], ibm ? ibm[sj[j] < count ? sj[j] : j] : mat4_identity());
}
/* 10 */
static void mesh_average(const ex30_skin *s, vec3 *out)
{
    double *w = malloc(sizeof *w * 4 * (size_t)s->vertex_count);
    assert_non_null(w);
    for (int i = 0; i < 4 * s->vertex_count; i++) /* every influence a quarter */
        w[i] = 0.25;
    ex30_skin copy = *s;
    copy.weights = w;
    ex30_skin_mesh(&copy, out);
    free(w);
}
static void mesh_joint_nodes(const ex30_skin *s, vec3 *out)
{
    mat4 world[EX30_MAX_NODES];
    ex30_skeleton_world(s->node_count, s->parent, s->local, world);
    for (int v = 0; v < s->vertex_count; v++) {
        vec3 p = {0, 0, 0};
        for (int i = 0; i < 4; i++) {
            int j = s->joints[4 * v + i];
            mat4 c = mat4_mul(world[j], s->inverse_bind ? s->inverse_bind[j] : mat4_identity());
            p = vec3_add(p, vec3_scale(mat4_transform_point(c, s->position[v]), s->weights[4 * v + i]));
        }
        out[v] = p;
    }
}
static void mesh_bind_pose(const ex30_skin *s, vec3 *out)
{
    for (int v = 0; v < s->vertex_count; v++)
        out[v] = s->position[v];
}
/* 11 */
static dualquat dq_q0_t_half(quat q, vec3 t)
{
    quat d = quat_mul(q, (quat){0, t.x, t.y, t.z});
    return (dualquat){q, {d.w / 2, d.x / 2, d.y / 2, d.z / 2}};
}
static dualquat dq_t_only(quat q, vec3 t) { return (dualquat){q, {0, t.x, t.y, t.z}}; }
static dualquat dq_full_t(quat q, vec3 t)
{
    quat d = quat_mul((quat){0, t.x, t.y, t.z}, q);
    return (dualquat){q, d};
}
/* 12 */
static bool norm_threshold_1e6(dualquat b, dualquat *out)
{
    double n = quat_norm(b.real);
    if (!(n > 1e-6) || !isfinite(n))
        return false;
    *out = dualquat_scale(b, 1 / n);
    return true;
}
static bool norm_only_zero(dualquat b, dualquat *out)
{
    double n = quat_norm(b.real);
    if (n == 0)
        return false;
    *out = dualquat_scale(b, 1 / n);
    return true;
}
static bool norm_full_length(dualquat b, dualquat *out)
{
    double n = sqrt(quat_dot(b.real, b.real) + quat_dot(b.dual, b.dual));
    if (!(n > 1e-9) || !isfinite(n))
        return false;
    *out = dualquat_scale(b, 1 / n);
    return true;
}
/* 13 */
static vec3 pt_no_two(dualquat q, vec3 p)
{
    quat t = quat_mul(q.dual, quat_conjugate(q.real));
    return vec3_add(quat_rotate(q.real, p), vec3_make(t.x, t.y, t.z));
}
static vec3 pt_inverse_rotation(dualquat q, vec3 p)
{
    quat t = quat_mul(q.dual, quat_conjugate(q.real));
    return vec3_add(quat_rotate(quat_conjugate(q.real), p), vec3_make(2 * t.x, 2 * t.y, 2 * t.z));
}
static vec3 pt_rotation_only(dualquat q, vec3 p) { return quat_rotate(q.real, p); }
/* 14, 15 */
static double turn_atan(double w, double t) { return atan(w * sin(t) / ((1 - w) + w * cos(t))); }
static double turn_linear(double w, double t) { return w * t; }
static double turn_degrees_out(double w, double t) { return atan2(w * sin(t), (1 - w) + w * cos(t)) * 180 / LAB_PI; }
static double dqs_fmod_wrap(double w, double t)
{
    double u = fmod(t, 2 * LAB_PI); /* into (-2 pi, 2 pi): not the hemisphere rule */
    return 2 * atan2(w * sin(u / 2), (1 - w) + w * cos(u / 2));
}
static double dqs_no_wrap(double w, double t) { return 2 * atan2(w * sin(t / 2), (1 - w) + w * cos(t / 2)); }
static double dqs_linear_wrapped(double w, double t) { return w * remainder(t, 2 * LAB_PI); }
/* Every wrong answer above is graded wrong, on the generated cases. */
static void test_grade30_sheets_grade_wrong_answers_wrong(void **state)
{
    (void)state;
    static const wrong_answer wrong[] = {
        {GRADE30_SKELETON_WORLD, (grade_fn)sk_zero_when_valid, "0 for valid"},
        {GRADE30_SKELETON_WORLD, (grade_fn)sk_returns_parent, "the parent's index returned"},
        {GRADE30_SKELETON_WORLD, (grade_fn)sk_one_root_only, "one root only"},
        {GRADE30_PALETTE, (grade_fn)pal_ibm_transposed, "IBM transposed"},
        {GRADE30_PALETTE, (grade_fn)pal_null_ibm_zero, "no IBM as zero"},
        {GRADE30_PALETTE, (grade_fn)pal_node_order, "IBM by node"},
        {GRADE30_SKIN_MESH, (grade_fn)mesh_average, "weights averaged"},
        {GRADE30_SKIN_MESH, (grade_fn)mesh_joint_nodes, "JOINTS as nodes"},
        {GRADE30_SKIN_MESH, (grade_fn)mesh_bind_pose, "the bind pose"},
        {GRADE30_DQ_FROM_RIGID, (grade_fn)dq_q0_t_half, "q_0 t / 2"},
        {GRADE30_DQ_FROM_RIGID, (grade_fn)dq_t_only, "t alone"},
        {GRADE30_DQ_FROM_RIGID, (grade_fn)dq_full_t, "t q_0 without 1/2"},
        {GRADE30_DQ_NORMALIZE, (grade_fn)norm_threshold_1e6, "refused below 1e-6"},
        {GRADE30_DQ_NORMALIZE, (grade_fn)norm_only_zero, "refused at 0 only"},
        {GRADE30_DQ_NORMALIZE, (grade_fn)norm_full_length, "the eight numbers' length"},
        {GRADE30_DQ_TRANSFORM, (grade_fn)pt_no_two, "t without 2"},
        {GRADE30_DQ_TRANSFORM, (grade_fn)pt_inverse_rotation, "the inverse rotation"},
        {GRADE30_DQ_TRANSFORM, (grade_fn)pt_rotation_only, "the rotation alone"},
        {GRADE30_LBS_TURN, (grade_fn)turn_atan, "atan"},
        {GRADE30_LBS_TURN, (grade_fn)turn_linear, "w theta"},
        {GRADE30_LBS_TURN, (grade_fn)turn_degrees_out, "degrees out"},
        {GRADE30_DQS_TURN, (grade_fn)dqs_fmod_wrap, "fmod's wrap"},
        {GRADE30_DQS_TURN, (grade_fn)dqs_no_wrap, "no wrap"},
        {GRADE30_DQS_TURN, (grade_fn)dqs_linear_wrapped, "w t wrapped"},
    };
    expect_all_wrong(wrong, (int)(sizeof wrong / sizeof wrong[0]), "the skeleton and DQS sheets");
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_grade30_sheets_grade_wrong_answers_wrong)};
    return cmocka_run_group_tests_name("the skeleton and DQS sheets' exercises", tests, NULL, NULL);
}
