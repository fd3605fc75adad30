/* test_grade30_sheets.c - the sheets' exercises (8 to 21) against answers written here,
 * apart from the table's mistakes (mistakes_*.c) and from the solutions: realistic wrong
 * answers, each graded wrong (no false accept); and the generators cover what the grader's
 * page promises for the sheets. The reference and the known mistakes: test_grade30.c; the
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

#define SEED 30

/* ---- wrong answers, written here ---------------------------------------------------------------- */

/* 23, 24 */
static vec3 cor_no_rotation(vec3 p, vec3 centre, quat r, const int *j, const double *w, int k, const mat4 *pal)
{
    (void)r;
    vec4 c = skin_lbs_point(centre, j, w, k, pal);
    return vec3_add(vec3_sub(p, centre), vec3_make(c.x, c.y, c.z));
}
static vec3 cor_half_lbs(vec3 p, vec3 centre, quat r, const int *j, const double *w, int k, const mat4 *pal)
{
    vec3 right = ex30_cor_point(p, centre, r, j, w, k, pal); /* the average of CoR and LBS */
    vec4 l = skin_lbs_point(p, j, w, k, pal);
    return vec3_scale(vec3_add(right, vec3_make(l.x, l.y, l.z)), 0.5);
}
static vec3 shape_always_before(vec3 p, vec3 d, double s, mat4 m, quat r, bool after)
{
    (void)after;
    return ex30_corrective_point(p, d, s, m, r, false);
}
static vec3 shape_clamped(vec3 p, vec3 d, double s, mat4 m, quat r, bool after)
{
    return ex30_corrective_point(p, d, s < 0 ? 0 : s > 1 ? 1 : s, m, r, after); /* the weight held in [0, 1] */
}

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
/* 16 */
static vec3 nrm_rigid_always(vec3 n, const int *j, const double *w, int k, const mat4 *p, ex30_normal_method m)
{
    (void)m;
    return ex30_skin_normal(n, j, w, k, p, EX30_NORMAL_RIGID);
}
static vec3 nrm_unnormalised(vec3 n, const int *j, const double *w, int k, const mat4 *p, ex30_normal_method m)
{
    vec3 r = ex30_skin_normal(n, j, w, k, p, m); /* then scaled back by the blend's stretch of n */
    mat4 sum = mat4_scale_by(mat4_identity(), 0);
    for (int i = 0; i < k; i++)
        sum = mat4_add(sum, mat4_scale_by(p[j[i]], w[i]));
    return vec3_scale(r, vec3_length(mat4_transform_direction(sum, n)));
}
static vec3 nrm_blended_for_per_bone(vec3 n, const int *j, const double *w, int k, const mat4 *p, ex30_normal_method m)
{
    return ex30_skin_normal(n, j, w, k, p, m == EX30_NORMAL_PER_BONE ? EX30_NORMAL_BLENDED : m);
}
/* 17 */
static ex30_policy_result pol_loose_strict(int *j, double *w, int k, ex30_policy p, int f)
{
    double s = 0;
    for (int i = 0; i < k; i++)
        s += w[i];
    if (p == EX30_STRICT && isfinite(s) && fabs(s - 1) <= 1e-6 && fabs(s - 1) > 1e-12)
        return EX30_POLICY_KEPT;
    return ex30_apply_policy(j, w, k, p, f);
}
static ex30_policy_result pol_refused_yet_repaired(int *j, double *w, int k, ex30_policy p, int f)
{
    ex30_policy_result r = ex30_apply_policy(j, w, k, p, f);
    if (r == EX30_POLICY_NOT_SUMMING_TO_ONE) {
        double s = 0;
        for (int i = 0; i < k; i++)
            s += w[i];
        for (int i = 0; i < k; i++)
            w[i] /= s;
    }
    return r;
}
static ex30_policy_result pol_fallback_slot(int *j, double *w, int k, ex30_policy p, int f)
{
    int first = j[0];
    ex30_policy_result r = ex30_apply_policy(j, w, k, p, f);
    if (r == EX30_POLICY_FELL_BACK)
        j[0] = first; /* the weight moved, the joint not */
    return r;
}
/* 18 */
static int heavy_keeps_three(const int *j, const double *w, int k, int *oj, double *ow)
{
    int kept = ex30_keep_heaviest(j, w, k, oj, ow);
    if (kept == 4) {
        double s = ow[0] + ow[1] + ow[2];
        ow[0] /= s, ow[1] /= s, ow[2] /= s;
        return 3;
    }
    return kept;
}
static int heavy_unsorted(const int *j, const double *w, int k, int *oj, double *ow)
{
    int kept = ex30_keep_heaviest(j, w, k, oj, ow);
    if (kept >= 2) { /* the kept ones in the order they came */
        int t = oj[0];
        double u = ow[0];
        oj[0] = oj[kept - 1], ow[0] = ow[kept - 1], oj[kept - 1] = t, ow[kept - 1] = u;
    }
    return kept;
}
/* 19 */
static void unpack_float_unit(const unsigned short s[3], double w[4])
{
    for (int i = 0; i < 3; i++)
        w[i] = s[i] / 65536.0;
    w[3] = 1 - (w[0] + w[1] + w[2]);
}
static void unpack_stored_only(const unsigned short s[3], double w[4])
{
    for (int i = 0; i < 3; i++)
        w[i] = s[i] / 65535.0;
    w[3] = 0;
}
static void unpack_fourth_first(const unsigned short s[3], double w[4])
{
    w[0] = (65535 - s[0] - s[1] - s[2]) / 65535.0;
    for (int i = 0; i < 3; i++)
        w[i + 1] = s[i] / 65535.0;
}
/* 20 */
static void cot_full(vec3 c, const vec3 *r, int n, bool closed, double *row)
{
    ex30_cotan_row(c, r, n, closed, row);
    for (int k = 0; k <= n; k++)
        row[k] *= 2;
}
static void cot_always_closed(vec3 c, const vec3 *r, int n, bool closed, double *row)
{
    (void)closed;
    ex30_cotan_row(c, r, n, true, row);
}
static void cot_positive_diagonal(vec3 c, const vec3 *r, int n, bool closed, double *row)
{
    ex30_cotan_row(c, r, n, closed, row);
    row[n] = -row[n];
}
/* 21 */
static void heat_distance_linear(double l, double a, double d, int k, bool near, double c, double *diag, double *rhs)
{
    ex30_heat_row(l, a, sqrt(d), k, near, c, diag, rhs);
}
static void heat_no_share(double l, double a, double d, int k, bool near, double c, double *diag, double *rhs)
{
    ex30_heat_row(l, a, d, k, near, c, diag, rhs);
    *rhs *= k;
}
static void heat_no_area(double l, double a, double d, int k, bool near, double c, double *diag, double *rhs)
{
    (void)a;
    ex30_heat_row(l, 1, d, k, near, c, diag, rhs);
}

static void expect_wrong(int x, grade30_fn f, const char *what)
{
    grade30_result r;
    assert_int_equal(grade30_check(&grade30_table[x], f, SEED, &r), LAB_OK);
    if (r.verdict != GRADE30_WRONG) {
        grade30_print(x, &r, stdout);
        fail_msg("exercise %d, \"%s\": graded %s", x + 1, what, grade30_verdict_name(r.verdict));
    }
}

/* Every wrong answer above is graded wrong, on the generated cases of several seeds. */
static void test_grade30_sheets_grade_wrong_answers_wrong(void **state)
{
    (void)state;
    const struct { int x; grade30_fn f; const char *what; } wrong[] = {
        {GRADE30_SKELETON_WORLD, {.skeleton_world = sk_zero_when_valid}, "0 for valid"},
        {GRADE30_SKELETON_WORLD, {.skeleton_world = sk_returns_parent}, "the parent's index returned"},
        {GRADE30_SKELETON_WORLD, {.skeleton_world = sk_one_root_only}, "one root only"},
        {GRADE30_PALETTE, {.palette = pal_ibm_transposed}, "IBM transposed"},
        {GRADE30_PALETTE, {.palette = pal_null_ibm_zero}, "no IBM as zero"},
        {GRADE30_PALETTE, {.palette = pal_node_order}, "IBM by node"},
        {GRADE30_SKIN_MESH, {.skin_mesh = mesh_average}, "weights averaged"},
        {GRADE30_SKIN_MESH, {.skin_mesh = mesh_joint_nodes}, "JOINTS as nodes"},
        {GRADE30_SKIN_MESH, {.skin_mesh = mesh_bind_pose}, "the bind pose"},
        {GRADE30_DQ_FROM_RIGID, {.dq_from_rigid = dq_q0_t_half}, "q_0 t / 2"},
        {GRADE30_DQ_FROM_RIGID, {.dq_from_rigid = dq_t_only}, "t alone"},
        {GRADE30_DQ_FROM_RIGID, {.dq_from_rigid = dq_full_t}, "t q_0 without 1/2"},
        {GRADE30_DQ_NORMALIZE, {.dq_normalize = norm_threshold_1e6}, "refused below 1e-6"},
        {GRADE30_DQ_NORMALIZE, {.dq_normalize = norm_only_zero}, "refused at 0 only"},
        {GRADE30_DQ_NORMALIZE, {.dq_normalize = norm_full_length}, "the eight numbers' length"},
        {GRADE30_DQ_TRANSFORM, {.dq_transform_point = pt_no_two}, "t without 2"},
        {GRADE30_DQ_TRANSFORM, {.dq_transform_point = pt_inverse_rotation}, "the inverse rotation"},
        {GRADE30_DQ_TRANSFORM, {.dq_transform_point = pt_rotation_only}, "the rotation alone"},
        {GRADE30_LBS_TURN, {.turn_angle = turn_atan}, "atan"},
        {GRADE30_LBS_TURN, {.turn_angle = turn_linear}, "w theta"},
        {GRADE30_LBS_TURN, {.turn_angle = turn_degrees_out}, "degrees out"},
        {GRADE30_DQS_TURN, {.turn_angle = dqs_fmod_wrap}, "fmod's wrap"},
        {GRADE30_DQS_TURN, {.turn_angle = dqs_no_wrap}, "no wrap"},
        {GRADE30_DQS_TURN, {.turn_angle = dqs_linear_wrapped}, "w t wrapped"},
        {GRADE30_SKIN_NORMAL, {.skin_normal = nrm_rigid_always}, "rigid for every method"},
        {GRADE30_SKIN_NORMAL, {.skin_normal = nrm_unnormalised}, "not unit"},
        {GRADE30_SKIN_NORMAL, {.skin_normal = nrm_blended_for_per_bone}, "blended for per bone"},
        {GRADE30_POLICY, {.apply_policy = pol_loose_strict}, "strict within 1e-6"},
        {GRADE30_POLICY, {.apply_policy = pol_refused_yet_repaired}, "refused, yet repaired"},
        {GRADE30_POLICY, {.apply_policy = pol_fallback_slot}, "the fallback's joint not set"},
        {GRADE30_KEEP_HEAVIEST, {.keep_heaviest = heavy_keeps_three}, "three kept"},
        {GRADE30_KEEP_HEAVIEST, {.keep_heaviest = heavy_unsorted}, "not heaviest first"},
        {GRADE30_UNPACK_WEIGHTS, {.unpack_weights = unpack_float_unit}, "1/65536"},
        {GRADE30_UNPACK_WEIGHTS, {.unpack_weights = unpack_stored_only}, "no implied weight"},
        {GRADE30_UNPACK_WEIGHTS, {.unpack_weights = unpack_fourth_first}, "the implied weight first"},
        {GRADE30_COTAN_ROW, {.cotan_row = cot_full}, "without 1/2"},
        {GRADE30_COTAN_ROW, {.cotan_row = cot_always_closed}, "always closed"},
        {GRADE30_COTAN_ROW, {.cotan_row = cot_positive_diagonal}, "positive diagonal"},
        {GRADE30_HEAT_ROW, {.heat_row = heat_distance_linear}, "d, not d^2"},
        {GRADE30_HEAT_ROW, {.heat_row = heat_no_share}, "no 1/k"},
        {GRADE30_HEAT_ROW, {.heat_row = heat_no_area}, "no area"},
        {GRADE30_COR_POINT, {.cor_point = cor_no_rotation}, "no rotation"},
        {GRADE30_COR_POINT, {.cor_point = cor_half_lbs}, "half LBS"},
        {GRADE30_CORRECTIVE, {.corrective_point = shape_always_before}, "always before"},
        {GRADE30_CORRECTIVE, {.corrective_point = shape_clamped}, "s clamped to [0, 1]"},
    };
    int n = (int)(sizeof wrong / sizeof wrong[0]);
    for (int i = 0; i < n; i++)
        expect_wrong(wrong[i].x, wrong[i].f, wrong[i].what);
    printf("  %d wrong answers written apart from the table, each graded wrong\n", n);
}

/* The generated cases cover what the grader's page promises for the sheets. */
static void test_grade30_sheets_generators_cover_the_page(void **state)
{
    (void)state;
    int broken[2] = {0}, roots = 0, no_ibm = 0, slots_not_nodes = 0, big = 0, refused[3] = {0}, tiny_kept = 0,
        negated = 0, beyond = 0, methods[3] = {0}, results[7] = {0}, policies[3] = {0}, ties = 0, over_four = 0,
        under_four = 0, fans[2] = {0}, shared_bones = 0, sources[3] = {0};
    static grade30_case c;
    for (int x = GRADE30_SKELETON_WORLD; x < GRADE30_EXERCISE_COUNT; x++) {
        const grade30_entry *e = &grade30_table[x];
        if (e->kind == GRADE30_GLSL)
            continue;
        for (int i = 0; i < e->named + e->generated; i++) {
            e->make_case(i, SEED, &c);
            grade30_answer a = e->expected(&c);
            switch ((grade30_exercise)x) {
            case GRADE30_SKELETON_WORLD:
                if (a.v[0] >= 0)
                    broken[c.parent[(int)a.v[0]] < -1]++; /* a parent after its child, or below -1 */
                for (int j = 1; j < c.nodes; j++)
                    roots += c.parent[j] == -1;
                break;
            case GRADE30_PALETTE:
            case GRADE30_SKIN_MESH:
                no_ibm += c.no_inverse_bind;
                for (int j = 0; j < c.joints; j++)
                    slots_not_nodes += c.skin_joints[j] != j;
                big += c.vertices > 100;
                sources[c.source]++;
                break;
            case GRADE30_DQ_NORMALIZE: {
                double n = quat_norm(c.q[0].real);
                refused[!isfinite(n) ? 2 : n == 0 ? 0 : 1] += a.v[0] == 0;
                tiny_kept += a.v[0] == 1 && n < 1e-6;
                break;
            }
            case GRADE30_DQ_TRANSFORM: negated += c.q[0].real.w < 0; break;
            case GRADE30_LBS_TURN:
            case GRADE30_DQS_TURN: beyond += fabs(c.theta) > LAB_PI; break;
            case GRADE30_SKIN_NORMAL: methods[c.method]++; break;
            case GRADE30_POLICY: results[(int)a.v[0]]++, policies[c.method]++; break;
            case GRADE30_KEEP_HEAVIEST:
                over_four += c.k > 4, under_four += c.k < 4;
                for (int j = 0; j < c.k; j++)
                    for (int m = 0; m < j; m++)
                        ties += c.weight[j] == c.weight[m] && c.weight[j] > 0;
                break;
            case GRADE30_COTAN_ROW: fans[c.closed]++; break;
            case GRADE30_HEAT_ROW: shared_bones += c.ties > 1; break;
            default: break;
            }
        }
    }
    assert_true(broken[0] > 0 && broken[1] > 0 && roots > 0 && no_ibm > 0 && slots_not_nodes > 0 && big > 0);
    assert_true(sources[GRADE30_FROM_CYLINDER] > 0 && sources[GRADE30_FROM_ASSET] > 0 && sources[0] > 0);
    assert_true(refused[0] > 0 && refused[1] > 0 && refused[2] > 0 && tiny_kept > 0 && negated > 0 && beyond > 0);
    for (int k = 0; k < 3; k++)
        assert_true(methods[k] > 0 && policies[k] > 0);
    for (int k = 0; k < 7; k++)
        if (results[k] == 0)
            fail_msg("no case of the policies' result %d", k);
    assert_true(ties > 0 && over_four > 0 && under_four > 0 && fans[0] > 0 && fans[1] > 0 && shared_bones > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grade30_sheets_grade_wrong_answers_wrong),
        cmocka_unit_test(test_grade30_sheets_generators_cover_the_page),
    };
    return cmocka_run_group_tests_name("the sheets' exercises", tests, NULL, NULL);
}
