/* grade30_cases.c - the cases each of chapter 30's exercises is graded on (grade30.h):
 * the checks the chapter's programs make (the bind pose, the hand control, the radii, the
 * invalid inputs, DQS and its hemisphere rule, normals against the true normal), each
 * case's expected value from the lab's own code, and the values the known mistakes give on
 * it, each under the words the grader names it with. */
#include <math.h>
#include <string.h>

#include "math/dualquat.h"
#include "math/linalg.h"
#include "math/quat.h"
#include "mesh/scene.h"
#include "skin/blend.h"
#include "skin/pose.h"

#include "grade30_grading.h"
#include "rig30_check.h"

#define DEG(x) deg_to_rad(x)
#define EXACT 1e-12

/* 1. G_i = G_parent L_i: the chapter's twist (parent I, so both orders agree) and the hand
 *    control's chain, whose parent Ty(1) Rz(90) does not commute with the child's local. */
static void grade_world_matrix(const grade30_exercises *ex, grading *g)
{
    static const struct { const char *what; double parent_turn, parent_y, local_turn, local_z; } cases[] = {
        {"the chapter's twist at 90 deg: G_0 = I, L_1 = Tz(2) Rz(90)", 0, 0, 90, 2},
        {"the hand control's chain: G_parent = Ty(1) Rz(90), L = Tz(2) Rz(30)", 90, 1, 30, 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0] && !g->stop; i++) {
        mat4 parent = mat4_mul(mat4_translate(0, cases[i].parent_y, 0), mat4_rotate_z(DEG(cases[i].parent_turn)));
        mat4 local = mat4_mul(mat4_translate(0, 0, cases[i].local_z), mat4_rotate_z(DEG(cases[i].local_turn)));
        exercise30_not_written = false;
        mat4 got = ex->world_matrix(parent, local);
        if (not_written(g))
            return;
        /* the lab's hierarchy product over a two-node chain, parents first */
        scene_node nodes[2] = {{.parent = SCENE_NO_PARENT, .local = parent}, {.parent = 0, .local = local}};
        mat4 world[2];
        scene_world(nodes, 2, NULL, world);
        const mistake m[] = {{.name = "L G for G L: the parent's world acts last, G_i = G_parent L_i",
                              .m = mat4_mul(local, parent)},
                             {.name = "the local alone: G_i forgot its parent's world", .m = local}};
        check_mat4(g, cases[i].what, got, world[1], EXACT, m, 2);
    }
}

/* 2. C_j = G_j B_j^-1: the bind pose (C = I), the hand control (G_1 = Ty(1) Rz(90), B_1 =
 *    Ty(1): the two orders differ), and the chapter's twist at 120 degrees. */
static void grade_skin_matrix(const grade30_exercises *ex, grading *g)
{
    static const struct { const char *what; double turn, bind_y, bind_z; } cases[] = {
        {"the bind pose: G_1(0) = B_1 = Tz(2), so C_1 = I", 0, 0, 2},
        {"the hand control: G_1 = Ty(1) Rz(90), B_1 = Ty(1)", 90, 1, 0},
        {"the chapter's twist at 120 deg: G_1 = Tz(2) Rz(120), B_1 = Tz(2)", 120, 0, 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0] && !g->stop; i++) {
        mat4 bind = mat4_translate(0, cases[i].bind_y, cases[i].bind_z);
        mat4 world = mat4_mul(bind, mat4_rotate_z(DEG(cases[i].turn)));
        mat4 inverse_bind = mat4_translate(0, -cases[i].bind_y, -cases[i].bind_z);
        exercise30_not_written = false;
        mat4 got = ex->skin_matrix(world, inverse_bind);
        if (not_written(g))
            return;
        mat4 want; /* the library's palette product */
        int node = 0;
        skin_palette_run(&world, &node, &inverse_bind, 1, &want);
        const mistake m[] = {
            {.name = "B^-1 G for G B^-1: B_j^-1 acts first, so it stands on the right", .m = mat4_mul(inverse_bind, world)},
            {.name = "a missing inverse bind: C_j = G_j moves the bind pose by B_j", .m = world},
            {.name = "B_j for B_j^-1: the bind matrix itself instead of its inverse", .m = mat4_mul(world, bind)},
        };
        check_mat4(g, cases[i].what, got, want, EXACT, m, 3);
    }
}

/* 3. The LBS blend: the bind pose, the hand control (equal weights), the chapter's ring 2
 *    (weights 0.75, 0.25) at 90 degrees, and exercise 2's weights 0.4 + 0.4 at the bind
 *    pose, where the sum's w is 0.8 and the vertex lands at 0.8 p. */
static vec3 lbs_twin(vec3 p, const int *joint, const double *w, int k, const mat4 *palette, int mistake)
{
    vec4 sum = {0, 0, 0, 0};
    for (int i = 0; i < k; i++) {
        double wi = mistake == 1 ? 1.0 : mistake == 2 ? w[i] * w[i] : mistake == 4 ? w[k - 1 - i] : w[i];
        sum = vec4_add(sum, vec4_scale(mat4_mul_vec4(palette[joint[i]], vec4_point(p)), wi));
    }
    if (mistake == 3)
        return vec3_make(sum.x / sum.w, sum.y / sum.w, sum.z / sum.w);
    return vec3_make(sum.x, sum.y, sum.z);
}

static void grade_lbs_point(const grade30_exercises *ex, grading *g)
{
    const mat4 twist90 = mat4_rotate_z(DEG(90)); /* C_1 of the twist: Tz(2) Rz(90) Tz(-2) = Rz(90) */
    const mat4 hand = mat4_mul(mat4_mul(mat4_translate(0, 1, 0), mat4_rotate_z(DEG(90))), mat4_translate(0, -1, 0));
    static const int joints[2] = {0, 1};
    const struct { const char *what; vec3 p; mat4 c1; double w[2]; } cases[] = {
        {"the bind pose: C_0 = C_1 = I, weights 0.5, 0.5; no vertex may move", {1, 0, 1}, mat4_identity(), {0.5, 0.5}},
        {"the hand control: p = (1,1,0), C_0 = I, C_1 = Ty(1) Rz(90) Ty(-1), weights 0.5, 0.5", {1, 1, 0}, hand,
         {0.5, 0.5}},
        {"ring 2 (z = 0.5, w0 = 0.75, w1 = 0.25) at a 90 deg twist, vertex (1, 0, 0.5)", {1, 0, 0.5}, twist90,
         {0.75, 0.25}},
        {"exercise 2: weights 0.4 + 0.4 at the bind pose: p~' has w = 0.8 and lands at 0.8 p", {1, 0, 1},
         mat4_identity(), {0.4, 0.4}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0] && !g->stop; i++) {
        const mat4 palette[2] = {mat4_identity(), cases[i].c1};
        exercise30_not_written = false;
        vec3 got = ex->lbs_point(cases[i].p, joints, cases[i].w, 2, palette);
        if (not_written(g))
            return;
        vec4 want = skin_lbs_point(cases[i].p, joints, cases[i].w, 2, palette); /* the library's blend */
        const mistake m[] = {
            {.name = "weights not applied: sum_j C_j p~ counts every bone fully",
             .p = lbs_twin(cases[i].p, joints, cases[i].w, 2, palette, 1)},
            {.name = "weights applied twice: w_j^2 C_j p~", .p = lbs_twin(cases[i].p, joints, cases[i].w, 2, palette, 2)},
            {.name = "a homogeneous w divided although it is not 1: the chapter keeps p~' as it is, so data "
                     "whose weights sum to 0.8 shows as 0.8 p",
             .p = lbs_twin(cases[i].p, joints, cases[i].w, 2, palette, 3)},
            {.name = "w0 and w1 swapped: each weight belongs to its own joint",
             .p = lbs_twin(cases[i].p, joints, cases[i].w, 2, palette, 4)},
        };
        check_vec3(g, cases[i].what, got, vec3_make(want.x, want.y, want.z), EXACT, m, 4);
    }
}

/* 4. The ring radius's closed form at the article's values and beyond. */
static void grade_ring_radius(const grade30_exercises *ex, grading *g)
{
    static const struct { const char *what; double w, theta_deg; } cases[] = {
        {"the middle ring (w = 0.5) at 180 deg: the collapse, r' = 0", 0.5, 180},
        {"the middle ring (w = 0.5) at 90 deg: sqrt(1/2)", 0.5, 90},
        {"exercise 1b: w = 0.25 at 120 deg: sqrt(7)/4", 0.25, 120},
        {"ring 1 (w = 0.125) at -270 deg", 0.125, -270},
        {"the ends (w = 0 and 1) keep r' = r at any twist: w = 1 at 123 deg", 1, 123},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0] && !g->stop; i++) {
        double w = cases[i].w, t = DEG(cases[i].theta_deg), s = sin(t / 2), s1 = sin(t), s2 = sin(DEG(t) / 2);
        exercise30_not_written = false;
        double got = ex->ring_radius_ratio(w, t);
        if (not_written(g))
            return;
        const mistake m[] = {
            {.name = "sin for sin^2: the squared sine of half the angle", .x = sqrt(fmax(0, 1 - 4 * w * (1 - w) * s))},
            {.name = "theta for theta/2: the half angle, sin^2(theta/2)", .x = sqrt(fmax(0, 1 - 4 * w * (1 - w) * s1 * s1))},
            {.name = "degrees for radians: theta arrives in radians", .x = sqrt(fmax(0, 1 - 4 * w * (1 - w) * s2 * s2))},
            {.name = "the square of the ratio: the closed form ends in a square root",
             .x = fmax(0, 1 - 4 * w * (1 - w) * s * s)},
        };
        check_double(g, cases[i].what, got, rig30_radius_ratio(w, t), 1e-12, m, 4);
    }
}

/* 5. The weight rules on the chapter's valid and invalid inputs; the weights must come back
 *    untouched. */
static void grade_check_weights(const grade30_exercises *ex, grading *g)
{
    static const struct { const char *what; double w[2]; ex30_weights want; } cases[] = {
        {"the middle ring's weights 0.5, 0.5", {0.5, 0.5}, EX30_WEIGHTS_VALID},
        {"exercise 1b's weights 0.75, 0.25", {0.75, 0.25}, EX30_WEIGHTS_VALID},
        {"exercise 2's weights 0.4, 0.4 (sum 0.8)", {0.4, 0.4}, EX30_WEIGHTS_NOT_SUMMING_TO_ONE},
        {"weights -0.5, 1.5: sum 1, one negative", {-0.5, 1.5}, EX30_WEIGHTS_NEGATIVE},
        {"weights 0.5, 0.5 + 1e-13: within 1e-12 of 1", {0.5, 0.5 + 1e-13}, EX30_WEIGHTS_VALID},
        {"weights 0.5, 0.5 + 1e-11: beyond 1e-12", {0.5, 0.5 + 1e-11}, EX30_WEIGHTS_NOT_SUMMING_TO_ONE},
        {"weights 0, 1: an end ring, valid", {0, 1}, EX30_WEIGHTS_VALID},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0] && !g->stop; i++) {
        double w[2] = {cases[i].w[0], cases[i].w[1]};
        exercise30_not_written = false;
        ex30_weights got = ex->check_weights(w, 2);
        if (not_written(g))
            return;
        bool changed = memcmp(w, cases[i].w, sizeof w) != 0;
        /* the twins: what a check that repairs the sum, or one without the sign rule, says */
        double sum = cases[i].w[0] + cases[i].w[1];
        bool negative = cases[i].w[0] < 0 || cases[i].w[1] < 0;
        const mistake m[] = {
            {.name = "weights silently normalised: data that breaks a rule is refused, never repaired behind "
                     "the student's back",
             .w = negative ? EX30_WEIGHTS_NEGATIVE : EX30_WEIGHTS_VALID},
            {.name = "the sign rule missing: -0.5 + 1.5 sums to 1, and a negative weight still pushes the vertex "
                     "away from its bone",
             .w = fabs(sum - 1) <= 1e-12 ? EX30_WEIGHTS_VALID : EX30_WEIGHTS_NOT_SUMMING_TO_ONE},
        };
        double twin[2] = {got == m[0].w || changed ? 0 : 1, got == m[1].w && !changed ? 0 : 1};
        char a[160], b[160];
        snprintf(a, sizeof a, "%s%s", weights_name(got), changed ? ", and the weights were changed" : "");
        snprintf(b, sizeof b, "%s, the weights unchanged", weights_name(cases[i].want));
        outcome(g, cases[i].what, got == cases[i].want && !changed ? 0 : 1, 0, a, b, m, twin, 2);
    }
}

/* 6. The DQS blend: two joints of the twist rig, with one of them given as -q^ (the same
 *    rotation), so the hemisphere rule matters; the pivot is the heavier influence. */
static void grade_dqs_blend(const grade30_exercises *ex, grading *g)
{
    const dualquat root = dualquat_identity();
    const dualquat turned = dualquat_from_rigid(quat_from_axis_angle(vec3_make(0, 0, 1), DEG(90)), vec3_make(0, 0, 0));
    const dualquat far = dualquat_from_rigid(quat_from_axis_angle(vec3_make(0, 0, 1), DEG(200)), vec3_make(0, 0, 0));
    const struct { const char *what; dualquat q1; double w[2]; } cases[] = {
        {"the twist at 90 deg, weights 0.5, 0.5 (both in one hemisphere)", turned, {0.5, 0.5}},
        {"the same joint given as -q^ (the same rotation), weights 0.75, 0.25", dualquat_scale(turned, -1),
         {0.75, 0.25}},
        {"a 200 deg twist, weights 0.25, 0.75: the pivot is the heavier joint", far, {0.25, 0.75}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0] && !g->stop; i++) {
        const dualquat q[2] = {root, cases[i].q1};
        exercise30_not_written = false;
        dualquat got = ex->dqs_blend(q, cases[i].w, 2);
        if (not_written(g))
            return;
        dualquat normalised;
        dualquat sum = dualquat_blend(q, cases[i].w, 2, true);
        bool unit = dualquat_normalize(sum, &normalised, "grade30", NULL) == LAB_OK;
        const mistake m[] = {
            {.name = "a missing hemisphere flip: q^ and -q^ are one rotation, so each q^_i joins the pivot's "
                     "side before the sum",
             .q = dualquat_blend(q, cases[i].w, 2, false)},
            {.name = "normalised already: the exercise asks for the blend before the division by |q_0|",
             .q = unit ? normalised : sum},
        };
        check_dualquat(g, cases[i].what, got, sum, EXACT, m, 2);
    }
}

/* 7. The normal matrix: a rotation (its own inverse transpose), a non-uniform scale, a
 *    shear, and a transform with a translation; then a sheared plane's normal against the
 *    true normal, the cross product of its transformed tangents. */
static void grade_normal_matrix(const grade30_exercises *ex, grading *g)
{
    mat4 shear = mat4_identity();
    shear.m[0][1] = 0.5;
    const struct { const char *what; mat4 m; } cases[] = {
        {"a rotation Rz(30): the normal matrix is the rotation itself", mat4_rotate_z(DEG(30))},
        {"the scaled child: S(2, 1, 1)", mat4_scale(2, 1, 1)},
        {"a shear: x += 0.5 y", shear},
        {"Tz(2) Rz(45) S(1, 1, 3): translation must not reach a normal",
         mat4_mul(mat4_mul(mat4_translate(0, 0, 2), mat4_rotate_z(DEG(45))), mat4_scale(1, 1, 3))},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0] && !g->stop; i++) {
        exercise30_not_written = false;
        mat4 got = ex->normal_matrix(cases[i].m);
        if (not_written(g))
            return;
        mat4 want, inverse;
        mat4_linear_inverse_transpose(cases[i].m, &want, "grade30", NULL);
        inverse = mat4_transpose(want);
        const mistake m[] = {
            {.name = "the transpose for the inverse transpose: a normal must stay perpendicular to the "
                     "transformed surface",
             .m = mat4_transpose(mat4_linear_part(cases[i].m))},
            {.name = "the inverse without the transpose", .m = inverse},
            {.name = "M itself: normals carried like points", .m = cases[i].m},
            {.name = "M's 3x3 part: normals carried like directions, which holds for rotations only",
             .m = mat4_linear_part(cases[i].m)},
        };
        check_mat4(g, cases[i].what, got, want, 1e-12, m, 4);
    }
    if (g->stop)
        return;
    /* the plane z = 0 under the shear: tangents (1,0,0), (0,1,0); its true normal is the
     * cross product of the transformed tangents */
    vec3 t1 = mat4_transform_direction(shear, vec3_make(1, 0, 0)), t2 = mat4_transform_direction(shear, vec3_make(0, 1, 0));
    vec3 truth = vec3_normalize(vec3_cross(t1, t2));
    exercise30_not_written = false;
    mat4 n = ex->normal_matrix(shear);
    if (not_written(g))
        return;
    vec3 got = vec3_normalize(mat4_transform_direction(n, vec3_make(0, 0, 1)));
    check_vec3(g, "the plane z = 0 under the shear: N (0,0,1) against the cross product of its turned tangents",
               got, truth, 1e-12, NULL, 0);
}

void (*const grade30_cases[GRADE30_EXERCISE_COUNT])(const grade30_exercises *ex, grading *g) = {
    grade_world_matrix, grade_skin_matrix, grade_lbs_point, grade_ring_radius,
    grade_check_weights, grade_dqs_blend, grade_normal_matrix,
};
