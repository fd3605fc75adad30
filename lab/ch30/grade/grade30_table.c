/* grade30_table.c - the table of chapter 30's exercises (grade30.h): one entry each, with
 * its cases, the lab's own answer on a case, its known mistakes (mistakes.c) and its
 * picture (grade30_figure.c). Adding an exercise is one entry here and one function on the
 * sheet (exercises30.h, exercises.c).
 *
 * The cases: first the chapter's named ones (the bind pose, the hand control, the radii,
 * the invalid inputs), then `generated` ones drawn from a seeded generator, so that a
 * wrong answer cannot hide behind the chapter's convenient values (a parent that turns
 * about its own translation, joints {0, 1}, a rotation with q_0 the identity). The lab's
 * answers come from the library the chapter's programs check against closed forms:
 * scene_world, skin_palette_run, skin_lbs_point, rig30_radius_ratio,
 * skin_validate_influences, dualquat_blend and mat4_linear_inverse_transpose. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "math/dualquat.h"
#include "math/linalg.h"
#include "math/quat.h"
#include "mesh/scene.h"
#include "skin/blend.h"
#include "skin/influences.h"
#include "skin/pose.h"

#include "grade30_table.h"
#include "mistakes.h"
#include "rig30_check.h"

#define DEG(x) deg_to_rad(x)
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define GENERATED 240 /* generated cases an exercise */

/* ---- the generator: splitmix64, one stream a case ------------------------------------ */

typedef struct { uint64_t s; } rng;

static uint64_t next(rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Case i of exercise x under seed: its own stream, so a case is the same whatever else runs. */
static rng stream(uint64_t seed, int x, int i)
{
    rng r = {seed * 0x100000001B3ull ^ ((uint64_t)(x + 1) << 40) ^ (uint64_t)i};
    next(&r);
    return r;
}

static double uniform(rng *r, double a, double b) { return a + (b - a) * (double)(next(r) >> 11) * 0x1.0p-53; }
static int below(rng *r, int n) { return (int)(next(r) % (uint64_t)n); }

/* An axis: each of +-x, +-y, +-z a sixteenth of the time, else any direction. */
static vec3 axis(rng *r)
{
    static const vec3 principal[6] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {-1, 0, 0}, {0, -1, 0}, {0, 0, -1}};
    int pick = below(r, 16);
    if (pick < 6)
        return principal[pick];
    for (;;) {
        vec3 v = vec3_make(uniform(r, -1, 1), uniform(r, -1, 1), uniform(r, -1, 1));
        double n = vec3_length(v);
        if (n > 0.2 && n <= 1)
            return vec3_scale(v, 1 / n);
    }
}

/* An angle in degrees: a seam (0, +-90, +-180, 270, 360) a quarter of the time, else any
 * within two turns either way. */
static double angle_deg(rng *r)
{
    static const double seams[] = {0, 90, -90, 180, -180, 270, 360, -360};
    return below(r, 4) == 0 ? seams[below(r, COUNT(seams))] : uniform(r, -720, 720);
}

static quat rotation(rng *r, vec3 *ax, double *deg)
{
    *ax = axis(r);
    *deg = angle_deg(r);
    return quat_from_axis_angle(*ax, DEG(*deg));
}

static vec3 offset(rng *r, double size)
{
    return vec3_make(uniform(r, -size, size), uniform(r, -size, size), uniform(r, -size, size));
}

/* A rigid transform T(t) R, words for it appended to `words`. */
static mat4 rigid(rng *r, char *words, size_t size, const char *name)
{
    vec3 ax, t = offset(r, 3);
    double deg;
    quat q = rotation(r, &ax, &deg);
    size_t used = strlen(words);
    snprintf(words + used, size - used, "%s%s = T(%.3g, %.3g, %.3g) R(%.4g deg about (%.3g, %.3g, %.3g))",
             used ? "; " : "", name, t.x, t.y, t.z, deg, ax.x, ax.y, ax.z);
    return mat4_mul(mat4_translate(t.x, t.y, t.z), quat_to_mat4(q));
}

/* Scales of 0.5 to 2 (the same on every axis half the time). */
static vec3 scales(rng *r)
{
    double s = uniform(r, 0.5, 2);
    return below(r, 2) ? vec3_make(s, s, s) : vec3_make(s, uniform(r, 0.5, 2), uniform(r, 0.5, 2));
}

static void words(grade30_case *c, const char *detail, uint64_t seed)
{
    char head[64];
    snprintf(head, sizeof head, "generated (seed %llu): ", (unsigned long long)seed);
    size_t used = strlen(head);
    snprintf(c->what, sizeof c->what, "%s%.*s", head, (int)(sizeof c->what - 1 - used), detail);
}

/* ---- 1. the world matrix -------------------------------------------------------------- */

static void world_case(int i, uint64_t seed, grade30_case *c)
{
    *c = (grade30_case){0};
    if (i == 0) {
        snprintf(c->what, sizeof c->what, "the chapter's twist at 90 deg: G_0 = I, L_1 = Tz(2) Rz(90)");
        c->a = mat4_identity(), c->b = mat4_mul(mat4_translate(0, 0, 2), mat4_rotate_z(DEG(90)));
        return;
    }
    if (i == 1) {
        snprintf(c->what, sizeof c->what, "the hand control's chain: G_parent = Ty(1) Rz(90), L = Tx(1) Rz(30)");
        c->a = mat4_mul(mat4_translate(0, 1, 0), mat4_rotate_z(DEG(90)));
        c->b = mat4_mul(mat4_translate(1, 0, 0), mat4_rotate_z(DEG(30)));
        return;
    }
    rng r = stream(seed, 0, i);
    char d[200] = "";
    c->a = rigid(&r, d, sizeof d, "G_parent"), c->b = rigid(&r, d, sizeof d, "L");
    if (below(&r, 3) == 0) { /* a scaled parent: a joint's world may carry its parent's scale */
        vec3 s = scales(&r);
        c->a = mat4_mul(c->a, mat4_scale(s.x, s.y, s.z));
    }
    words(c, d, seed);
}

static grade30_answer world_expected(const grade30_case *c)
{
    /* the lab's hierarchy product over a two-node chain, parents first */
    scene_node nodes[2] = {{.parent = SCENE_NO_PARENT, .local = c->a}, {.parent = 0, .local = c->b}};
    mat4 world[2];
    scene_world(nodes, 2, NULL, world);
    return (grade30_answer){.m = world[1]};
}

static const grade30_mistake world_mistakes[] = {
    {"L G for G L: the parent's world acts last, G_i = G_parent L_i", {.world_matrix = mistake_l_g}},
    {"the local alone: G_i forgot its parent's world", {.world_matrix = mistake_local_alone}},
    {"the parent alone: G_i forgot its own local", {.world_matrix = mistake_parent_alone}},
    {"translations added, not carried: the parent turns (and scales) the local's translation too",
     {.world_matrix = mistake_translations_added}},
};

/* ---- 2. the skin matrix --------------------------------------------------------------- */

static void skin_case(int i, uint64_t seed, grade30_case *c)
{
    static const struct { const char *what; double turn, bind_y, bind_z; } named[] = {
        {"the bind pose: G_1(0) = B_1 = Tz(2), so C_1 = I", 0, 0, 2},
        {"the hand control: G_1 = Ty(1) Rz(90), B_1 = Ty(1)", 90, 1, 0},
        {"the chapter's twist at 120 deg: G_1 = Tz(2) Rz(120), B_1 = Tz(2)", 120, 0, 2},
    };
    *c = (grade30_case){0};
    if (i < COUNT(named)) {
        snprintf(c->what, sizeof c->what, "%s", named[i].what);
        mat4 bind = mat4_translate(0, named[i].bind_y, named[i].bind_z);
        c->a = mat4_mul(bind, mat4_rotate_z(DEG(named[i].turn)));
        c->b = mat4_translate(0, -named[i].bind_y, -named[i].bind_z);
        return;
    }
    rng r = stream(seed, 1, i);
    char d[200] = "";
    c->a = rigid(&r, d, sizeof d, "G");
    /* B = T(t) R S, so B^-1 = S^-1 R^T T(-t): an inverse bind that turns, scales and moves */
    vec3 ax, t = offset(&r, 3), s = scales(&r);
    double deg;
    mat4 turn = quat_to_mat4(rotation(&r, &ax, &deg));
    c->b = mat4_mul(mat4_mul(mat4_scale(1 / s.x, 1 / s.y, 1 / s.z), mat4_transpose(turn)),
                    mat4_translate(-t.x, -t.y, -t.z));
    size_t used = strlen(d);
    snprintf(d + used, sizeof d - used, "; B = T(%.3g, %.3g, %.3g) R(%.4g deg) S(%.3g, %.3g, %.3g)", t.x, t.y, t.z,
             deg, s.x, s.y, s.z);
    words(c, d, seed);
}

static grade30_answer skin_expected(const grade30_case *c)
{
    mat4 want; /* the library's palette product */
    int node = 0;
    skin_palette_run(&c->a, &node, &c->b, 1, &want);
    return (grade30_answer){.m = want};
}

static const grade30_mistake skin_mistakes[] = {
    {"B^-1 G for G B^-1: B_j^-1 acts first, so it stands on the right", {.skin_matrix = mistake_binv_g}},
    {"a missing inverse bind: C_j = G_j moves the bind pose by B_j", {.skin_matrix = mistake_no_inverse_bind}},
    {"B_j for B_j^-1: the inverse bind inverted back into the bind matrix", {.skin_matrix = mistake_bind_for_inverse}},
    {"B_j^-1's translation dropped: only its 3x3 part used", {.skin_matrix = mistake_inverse_bind_linear_only}},
};

/* ---- 3. the LBS blend ----------------------------------------------------------------- */

static void lbs_case(int i, uint64_t seed, grade30_case *c)
{
    const mat4 hand = mat4_mul(mat4_mul(mat4_translate(0, 1, 0), mat4_rotate_z(DEG(90))), mat4_translate(0, -1, 0));
    const struct { const char *what; vec3 p; mat4 c1; double w[2]; } named[] = {
        {"the bind pose: C_0 = C_1 = I, weights 0.5, 0.5; no vertex may move", {1, 0, 1}, mat4_identity(), {0.5, 0.5}},
        {"the hand control: p = (1,1,0), C_0 = I, C_1 = Ty(1) Rz(90) Ty(-1), weights 0.5, 0.5", {1, 1, 0}, hand,
         {0.5, 0.5}},
        {"ring 2 (z = 0.5, w0 = 0.75, w1 = 0.25) at a 90 deg twist, vertex (1, 0, 0.5)", {1, 0, 0.5},
         mat4_rotate_z(DEG(90)), {0.75, 0.25}},
        {"weights 0.4 + 0.4 at the bind pose (\"Weights that do not sum to 1\"): w = 0.8, so 0.8 p", {1, 0, 1},
         mat4_identity(), {0.4, 0.4}},
    };
    *c = (grade30_case){0};
    if (i < COUNT(named)) {
        snprintf(c->what, sizeof c->what, "%s", named[i].what);
        c->p = named[i].p, c->k = 2, c->palette_count = 2;
        c->joint[0] = 0, c->joint[1] = 1, c->weight[0] = named[i].w[0], c->weight[1] = named[i].w[1];
        c->palette[0] = mat4_identity(), c->palette[1] = named[i].c1;
        return;
    }
    rng r = stream(seed, 2, i);
    int n = 3 + below(&r, GRADE30_MAX_PALETTE - 2), k = 1 + below(&r, n); /* k <= n: palette[i] stays inside */
    char d[200] = "";
    for (int j = 0; j < n; j++) {
        char ignored[200] = "";
        vec3 s = scales(&r);
        c->palette[j] = mat4_mul(rigid(&r, ignored, sizeof ignored, "C"), mat4_scale(s.x, s.y, s.z));
    }
    /* joints: a permutation of distinct slots, slots with repeats, or slots that avoid 0 */
    int mode = below(&r, 3), order[GRADE30_MAX_PALETTE];
    for (int j = 0; j < n; j++)
        order[j] = j;
    for (int j = n - 1; j > 0; j--) {
        int m = below(&r, j + 1), t = order[j];
        order[j] = order[m], order[m] = t;
    }
    double total = 0;
    for (int j = 0; j < k; j++) {
        c->joint[j] = mode == 0 ? order[j] : mode == 2 ? 1 + below(&r, n - 1) : below(&r, n);
        c->weight[j] = uniform(&r, 0.05, 1);
        total += c->weight[j];
    }
    for (int j = 0; j < k; j++)
        c->weight[j] /= total;
    c->k = k, c->palette_count = n;
    c->p = offset(&r, 2);
    size_t used = 0;
    used += (size_t)snprintf(d, sizeof d, "p = (%.3g, %.3g, %.3g), %d of %d palette matrices, joints", c->p.x, c->p.y,
                             c->p.z, k, n);
    for (int j = 0; j < k && used < sizeof d; j++)
        used += (size_t)snprintf(d + used, sizeof d - used, " %d", c->joint[j]);
    words(c, d, seed);
}

static grade30_answer lbs_expected(const grade30_case *c)
{
    vec4 want = skin_lbs_point(c->p, c->joint, c->weight, c->k, c->palette); /* the library's blend */
    return (grade30_answer){.p = vec3_make(want.x, want.y, want.z)};
}

static const grade30_mistake lbs_mistakes[] = {
    {"weights not applied: sum_j C_j p~ counts every bone fully", {.lbs_point = mistake_weights_not_applied}},
    {"weights applied twice: w_j^2 C_j p~", {.lbs_point = mistake_weights_twice}},
    {"a homogeneous w divided although it is not 1: the chapter keeps p~' as it is, so data whose weights sum "
     "to 0.8 shows as 0.8 p",
     {.lbs_point = mistake_divides_by_w}},
    {"the weights in reverse order: weight[i] belongs to joint[i]", {.lbs_point = mistake_weights_swapped}},
    {"palette[i] for palette[joint[i]]: an influence names its palette slot", {.lbs_point = mistake_palette_by_position}},
    {"the last influence left out: the loop runs i < k - 1", {.lbs_point = mistake_last_influence_dropped}},
    {"p~ = (x, y, z, 0): a point carries w = 1, so the palette's translations move it",
     {.lbs_point = mistake_point_as_direction}},
};

/* ---- 4. the ring radius --------------------------------------------------------------- */

static void radius_case(int i, uint64_t seed, grade30_case *c)
{
    static const struct { const char *what; double w, theta_deg; } named[] = {
        {"the middle ring (w = 0.5) at 180 deg: the collapse, r' = 0", 0.5, 180},
        {"the middle ring (w = 0.5) at 90 deg: sqrt(1/2)", 0.5, 90},
        {"a quarter weight: w = 0.25 at 120 deg: sqrt(7)/4", 0.25, 120},
        {"ring 1 (w = 0.125) at -270 deg", 0.125, -270},
        {"the ends (w = 0 and 1) keep r' = r at any twist: w = 1 at 123 deg", 1, 123},
    };
    *c = (grade30_case){0};
    if (i < COUNT(named)) {
        snprintf(c->what, sizeof c->what, "%s", named[i].what);
        c->w = named[i].w, c->theta = DEG(named[i].theta_deg);
        return;
    }
    static const double weights[] = {0, 1, 0.5, 0.25, 0.125, 0.875};
    rng r = stream(seed, 3, i);
    c->w = below(&r, 5) == 0 ? weights[below(&r, COUNT(weights))] : uniform(&r, 0, 1);
    double deg = angle_deg(&r);
    c->theta = DEG(deg);
    char d[96];
    snprintf(d, sizeof d, "w = %.17g, theta = %.17g deg (%.17g rad)", c->w, deg, c->theta);
    words(c, d, seed);
}

static grade30_answer radius_expected(const grade30_case *c)
{
    return (grade30_answer){.x = rig30_radius_ratio(c->w, c->theta)};
}

static const grade30_mistake radius_mistakes[] = {
    {"sin for sin^2: the squared sine of half the angle", {.ring_radius_ratio = mistake_sin_not_squared}},
    {"theta for theta/2: the half angle, sin^2(theta/2)", {.ring_radius_ratio = mistake_full_angle}},
    {"degrees for radians: theta arrives in radians", {.ring_radius_ratio = mistake_degrees}},
    {"the square of the ratio: the closed form ends in a square root", {.ring_radius_ratio = mistake_ratio_squared}},
    {"|cos(theta/2)| for every ring: that is the middle ring's (w = 1/2) only",
     {.ring_radius_ratio = mistake_middle_ring_form}},
    {"w (1-w) without its factor 4", {.ring_radius_ratio = mistake_without_four}},
};

/* ---- 5. the weight rules -------------------------------------------------------------- */

static void weights_case(int i, uint64_t seed, grade30_case *c)
{
    static const struct { const char *what; double w[2]; } named[] = {
        {"the middle ring's weights 0.5, 0.5", {0.5, 0.5}},
        {"a quarter weight: 0.75, 0.25", {0.75, 0.25}},
        {"weights 0.4, 0.4 (sum 0.8, \"Weights that do not sum to 1\")", {0.4, 0.4}},
        {"weights -0.5, 1.5: sum 1, one negative", {-0.5, 1.5}},
        {"weights 0.5, 0.5 + 1e-13: within 1e-12 of 1", {0.5, 0.5 + 1e-13}},
        {"weights 0.5, 0.5 + 1e-11: beyond 1e-12", {0.5, 0.5 + 1e-11}},
        {"weights 0, 1: an end ring, valid", {0, 1}},
    };
    *c = (grade30_case){0};
    if (i < COUNT(named)) {
        snprintf(c->what, sizeof c->what, "%s", named[i].what);
        c->k = 2, c->weight[0] = named[i].w[0], c->weight[1] = named[i].w[1];
        return;
    }
    rng r = stream(seed, 4, i);
    int k = below(&r, GRADE30_MAX_K + 1), kind = i % 8;
    double total = 0;
    for (int j = 0; j < k; j++)
        total += c->weight[j] = uniform(&r, 0.05, 1);
    for (int j = 0; j < k; j++)
        c->weight[j] /= total;
    int at = k ? below(&r, k) : 0, other = k > 1 ? (at + 1 + below(&r, k - 1)) % k : at;
    static const char *const kinds[] = {"valid",           "one negative, the sum kept", "off the sum",
                                        "a NaN",           "an infinity",                "-0.0 among valid ones",
                                        "two rules broken", "the sum at the tolerance's edge"};
    if (k > 0)
        switch (kind) {
        case 1: c->weight[other] += c->weight[at] + 0.25, c->weight[at] = -0.25; break;
        case 2: {
            double by = (below(&r, 2) ? 1 : -1) * (below(&r, 2) ? uniform(&r, 1e-11, 1e-6) : uniform(&r, 0.01, 0.5));
            for (int j = 0; j < k; j++)
                c->weight[j] *= 1 + by;
            break;
        }
        case 3: c->weight[at] = NAN; break;
        case 4: c->weight[at] = below(&r, 2) ? INFINITY : -INFINITY; break;
        case 5: c->weight[other] += c->weight[at], c->weight[at] = -0.0; break;
        case 6: /* a negative and an off sum, or a NaN beside a negative, in either order */
            c->weight[at] = -uniform(&r, 0.01, 1);
            if (k > 1)
                c->weight[other] = below(&r, 2) ? NAN : c->weight[other] * 3;
            break;
        case 7: {
            double by = (below(&r, 2) ? 1 : -1) * (below(&r, 2) ? 4e-13 : 4e-12);
            for (int j = 0; j < k; j++)
                c->weight[j] *= 1 + by;
            break;
        }
        default: break;
        }
    c->k = k;
    char d[200];
    size_t used = (size_t)snprintf(d, sizeof d, "%s, k = %d:", k ? kinds[kind] : "no influences", k);
    for (int j = 0; j < k && used < sizeof d; j++)
        used += (size_t)snprintf(d + used, sizeof d - used, " %.17g", c->weight[j]);
    words(c, d, seed);
}

/* The lab's strict validation of one vertex of k influences (every slot joint 0 of a
 * one-joint palette, so only the weights' rules speak). */
static grade30_answer weights_expected(const grade30_case *c)
{
    if (c->k == 0)
        return (grade30_answer){.rule = EX30_WEIGHTS_NOT_SUMMING_TO_ONE};
    int joint[GRADE30_MAX_K] = {0};
    double weight[GRADE30_MAX_K];
    memcpy(weight, c->weight, sizeof weight);
    skin_influences in = {.vertex_count = 1, .per_vertex = c->k, .joint = joint, .weight = weight};
    switch (skin_validate_influences(&in, 1, NULL)) {
    case LAB_OK: return (grade30_answer){.rule = EX30_WEIGHTS_VALID};
    case LAB_ERR_WEIGHT_NOT_FINITE: return (grade30_answer){.rule = EX30_WEIGHTS_NOT_FINITE};
    case LAB_ERR_WEIGHT_NEGATIVE: return (grade30_answer){.rule = EX30_WEIGHTS_NEGATIVE};
    default: return (grade30_answer){.rule = EX30_WEIGHTS_NOT_SUMMING_TO_ONE};
    }
}

static const grade30_mistake weights_mistakes[] = {
    {"weights silently normalised: data that breaks a rule is refused, never repaired behind the caller's back",
     {.check_weights = mistake_normalises}},
    {"the sign rule missing: -0.5 + 1.5 sums to 1, and a negative weight still pushes the vertex away from its bone",
     {.check_weights = mistake_no_sign_rule}},
    {"the finiteness rule missing: NaN fails every comparison, so it needs its own test (isfinite)",
     {.check_weights = mistake_no_finite_rule}},
    {"a one-sided tolerance: sum - 1 <= 1e-12 without fabs accepts any sum below 1",
     {.check_weights = mistake_one_sided_tolerance}},
    {"the sum compared exactly: sum == 1 refuses sums that rounding moved by 1e-16",
     {.check_weights = mistake_exact_sum}},
    {"the sum judged before the signs: the first weight that breaks a rule decides",
     {.check_weights = mistake_sum_first}},
    {"-0.0 called negative (signbit): -0.0 is not below 0", {.check_weights = mistake_negative_zero}},
    {"no weights called valid: k = 0 weights sum to 0, not 1", {.check_weights = mistake_none_valid}},
};

/* ---- 6. the DQS blend ----------------------------------------------------------------- */

static void dqs_case(int i, uint64_t seed, grade30_case *c)
{
    *c = (grade30_case){0};
    const dualquat turned = dualquat_from_rigid(quat_from_axis_angle(vec3_make(0, 0, 1), DEG(90)), vec3_make(0, 0, 0));
    const dualquat far = dualquat_from_rigid(quat_from_axis_angle(vec3_make(0, 0, 1), DEG(200)), vec3_make(0, 0, 0));
    const dualquat half = dualquat_from_rigid((quat){0, 1, 0, 0}, vec3_make(0, 0, 2)); /* w exactly 0 */
    const struct { const char *what; dualquat q1; double w[2]; } named[] = {
        {"the twist at 90 deg, weights 0.5, 0.5 (both in one hemisphere)", turned, {0.5, 0.5}},
        {"the same joint given as -q^ (the same rotation), weights 0.75, 0.25", dualquat_scale(turned, -1),
         {0.75, 0.25}},
        {"a 200 deg twist, weights 0.25, 0.75: the pivot is the heavier joint", far, {0.25, 0.75}},
        {"a half turn about x, moved by Tz(2): real parts at dot 0 exactly, so s = 1", half, {0.6, 0.4}},
    };
    if (i < COUNT(named)) {
        snprintf(c->what, sizeof c->what, "%s", named[i].what);
        c->k = 2, c->q[0] = dualquat_identity(), c->q[1] = named[i].q1;
        c->weight[0] = named[i].w[0], c->weight[1] = named[i].w[1];
        return;
    }
    rng r = stream(seed, 5, i);
    int k = 1 + below(&r, GRADE30_MAX_K);
    double total = 0;
    for (int j = 0; j < k; j++) {
        vec3 ax;
        double deg;
        quat turn = rotation(&r, &ax, &deg);
        c->q[j] = dualquat_from_rigid(turn, offset(&r, 3));
        if (below(&r, 2))
            c->q[j] = dualquat_scale(c->q[j], -1);
        total += c->weight[j] = uniform(&r, 0.05, 1);
    }
    int kind = k > 1 ? below(&r, 3) : 0, a = below(&r, k), b = k > 1 ? (a + 1 + below(&r, k - 1)) % k : a;
    if (kind == 1) { /* equal largest weights: the pivot is the first of them */
        double top = 0;
        for (int j = 0; j < k; j++)
            top = fmax(top, c->weight[j]);
        total += 2 * top + 0.5 - c->weight[a] - c->weight[b];
        c->weight[a] = c->weight[b] = top + 0.25;
    } else if (kind == 2) { /* real parts at a negative dot whose w's share a sign, one the pivot */
        vec3 u = axis(&r);
        double s = sqrt(1 - 0.3 * 0.3);
        c->q[a] = dualquat_from_rigid((quat){0.3, s * u.x, s * u.y, s * u.z}, offset(&r, 3));
        c->q[b] = dualquat_from_rigid((quat){0.3, -s * u.x, -s * u.y, -s * u.z}, offset(&r, 3));
        total += 2 - c->weight[a];
        c->weight[a] = 2;
    }
    for (int j = 0; j < k; j++)
        c->weight[j] /= total;
    c->k = k;
    static const char *const kinds[] = {"rotations and translations", "equal largest weights",
                                        "two real parts at a negative dot with w's of one sign"};
    char d[200];
    size_t used = (size_t)snprintf(d, sizeof d, "%s, k = %d, weights", kinds[kind], k);
    for (int j = 0; j < k && used < sizeof d; j++)
        used += (size_t)snprintf(d + used, sizeof d - used, " %.4g", c->weight[j]);
    words(c, d, seed);
}

static grade30_answer dqs_expected(const grade30_case *c)
{
    return (grade30_answer){.q = dualquat_blend(c->q, c->weight, c->k, true)};
}

static const grade30_mistake dqs_mistakes[] = {
    {"a missing hemisphere flip: q^ and -q^ are one rotation, so each q^_i joins the pivot's side before the sum",
     {.dqs_blend = mistake_no_hemisphere}},
    {"flipped against q^_0, not the pivot: the pivot is the heaviest influence", {.dqs_blend = mistake_flip_against_first}},
    {"the pivot is the last of equal weights, not the first", {.dqs_blend = mistake_pivot_last_of_equals}},
    {"the hemisphere judged by w alone: the test is the dot product of the real parts",
     {.dqs_blend = mistake_hemisphere_by_w}},
    {"the hemisphere judged by the dual parts: the test is the dot product of the real parts",
     {.dqs_blend = mistake_hemisphere_by_dual}},
    {"only the real part flipped: -q^ negates the dual part too", {.dqs_blend = mistake_flip_real_only}},
    {"the dual part dropped: it carries the translation", {.dqs_blend = mistake_no_dual_part}},
    {"normalised already: the exercise asks for the blend before the division by |q_0|",
     {.dqs_blend = mistake_normalised_already}},
    {"a dot product of exactly 0 flipped: the rule flips below 0 only", {.dqs_blend = mistake_flip_at_zero}},
};

/* ---- 7. the normal matrix ------------------------------------------------------------- */

static void normal_case(int i, uint64_t seed, grade30_case *c)
{
    mat4 shear = mat4_identity();
    shear.m[0][1] = 0.5;
    const struct { const char *what; mat4 m; } named[] = {
        {"a rotation Rz(30): the normal matrix is the rotation itself", mat4_rotate_z(DEG(30))},
        {"the scaled child: S(2, 1, 1)", mat4_scale(2, 1, 1)},
        {"a shear: x += 0.5 y", shear},
        {"Tz(2) Rz(45) S(1, 1, 3): translation must not reach a normal",
         mat4_mul(mat4_mul(mat4_translate(0, 0, 2), mat4_rotate_z(DEG(45))), mat4_scale(1, 1, 3))},
        {"a mirror S(-1, 2, 1): det < 0", mat4_scale(-1, 2, 1)},
    };
    *c = (grade30_case){0};
    if (i < COUNT(named)) {
        snprintf(c->what, sizeof c->what, "%s", named[i].what);
        c->a = named[i].m;
        return;
    }
    rng r = stream(seed, 6, i);
    char d[200] = "";
    mat4 outer = rigid(&r, d, sizeof d, "T R"), inner = quat_to_mat4(quat_from_axis_angle(axis(&r), DEG(angle_deg(&r))));
    mat4 s = mat4_identity();
    for (int j = 0; j < 3; j++)
        s.m[j][j] = (below(&r, 3) == 0 ? -1 : 1) * uniform(&r, 0.4, 2.5);
    int sheared = below(&r, 3), from = below(&r, 3), to = (from + 1 + below(&r, 2)) % 3;
    mat4 sh = mat4_identity();
    if (sheared)
        sh.m[to][from] = uniform(&r, -1, 1);
    c->a = mat4_mul(mat4_mul(mat4_mul(outer, sh), s), inner);
    size_t used = strlen(d);
    snprintf(d + used, sizeof d - used, "; S(%.3g, %.3g, %.3g)%s", s.m[0][0], s.m[1][1], s.m[2][2],
             sheared ? ", sheared" : "");
    words(c, d, seed);
}

static grade30_answer normal_expected(const grade30_case *c)
{
    mat4 want = mat4_identity();
    mat4_linear_inverse_transpose(c->a, &want, "grade30", NULL);
    return (grade30_answer){.m = want};
}

static const grade30_mistake normal_mistakes[] = {
    {"the transpose for the inverse transpose: a normal must stay perpendicular to the transformed surface",
     {.normal_matrix = mistake_transpose}},
    {"the inverse without the transpose", {.normal_matrix = mistake_inverse_only}},
    {"M itself: normals carried like points", {.normal_matrix = mistake_m_itself}},
    {"M's 3x3 part: normals carried like directions, which holds for rotations only", {.normal_matrix = mistake_linear_part}},
    {"the cofactor matrix without the division by det M: the right direction, the wrong length, and turned "
     "inside out where det M < 0",
     {.normal_matrix = mistake_cofactor_only}},
    {"M's translation kept: a normal is a direction, the last column stays (0, 0, 0, 1)",
     {.normal_matrix = mistake_translation_kept}},
};

/* ---- the table ------------------------------------------------------------------------ */

#define MISTAKES(list) .mistakes = list, .mistake_count = COUNT(list)

const grade30_entry grade30_table[GRADE30_EXERCISE_COUNT] = {
    {"the world matrix G_i = G_parent L_i", "ex30_world_matrix",
     "lab/ch30/README.md", "Exercise 1: the world matrix", {.world_matrix = ex30_world_matrix}, GRADE30_MATRIX, 2,
     GENERATED, world_case, world_expected, 1e-9, MISTAKES(world_mistakes), grade30_points_world, grade30_draw_world},
    {"the skin matrix C_j = G_j B_j^-1", "ex30_skin_matrix", "lab/ch30/README.md", "Exercise 2: the skin matrix",
     {.skin_matrix = ex30_skin_matrix}, GRADE30_MATRIX, 3, GENERATED, skin_case, skin_expected, 1e-9,
     MISTAKES(skin_mistakes), grade30_points_skin, grade30_draw_skin},
    {"the LBS blend p~' = sum_j w_j C_j p~", "ex30_lbs_point", "lab/ch30/README.md", "Exercise 3: the LBS blend",
     {.lbs_point = ex30_lbs_point}, GRADE30_POINT, 4, GENERATED, lbs_case, lbs_expected, 1e-9, MISTAKES(lbs_mistakes),
     grade30_points_lbs, grade30_draw_lbs},
    {"the ring radius r'/r = sqrt(1 - 4 w (1-w) sin^2(theta/2))", "ex30_ring_radius_ratio",
     "lab/ch30/README.md", "Exercise 4: the ring radius", {.ring_radius_ratio = ex30_ring_radius_ratio}, GRADE30_NUMBER, 5,
     GENERATED, radius_case, radius_expected, 1e-12, MISTAKES(radius_mistakes), grade30_points_radius,
     grade30_draw_radius},
    {"the weight rules (finite, w_j >= 0, sum 1 within 1e-12; refuse, never repair)", "ex30_check_weights",
     "lab/ch30/README.md", "Exercise 5: the weight rules", {.check_weights = ex30_check_weights}, GRADE30_RULE, 7, GENERATED,
     weights_case, weights_expected, 0, MISTAKES(weights_mistakes), grade30_points_weights, grade30_draw_weights},
    {"the DQS blend with the hemisphere rule", "ex30_dqs_blend", "lab/ch30/README.md", "Exercise 6: the DQS blend",
     {.dqs_blend = ex30_dqs_blend}, GRADE30_DUALQUAT, 4, GENERATED, dqs_case, dqs_expected, 1e-9,
     MISTAKES(dqs_mistakes), grade30_points_dqs, grade30_draw_dqs},
    {"the normal matrix (M_3x3^-1)^T", "ex30_normal_matrix", "lab/ch30/README.md", "Exercise 7: the normal matrix",
     {.normal_matrix = ex30_normal_matrix}, GRADE30_MATRIX, 5, GENERATED, normal_case, normal_expected, 1e-9,
     MISTAKES(normal_mistakes), grade30_points_normal, grade30_draw_normal},
};

/* ---- calling a function on a case ----------------------------------------------------- */

/* The arrays of the call under way, so that a bad access can be named after them. */
static struct {
    const char *name, *noun;
    uintptr_t base;
    size_t size;
    int count;
} arrays[4];

static void call_arrays(const int *joint, int joints, const double *weight, int weights, const mat4 *palette,
                        int palette_count, const dualquat *q, int qs)
{
    arrays[0].name = "joint", arrays[0].noun = "influences", arrays[0].base = (uintptr_t)joint;
    arrays[0].size = sizeof *joint, arrays[0].count = joints;
    arrays[1].name = "weight", arrays[1].noun = "weights", arrays[1].base = (uintptr_t)weight;
    arrays[1].size = sizeof *weight, arrays[1].count = weights;
    arrays[2].name = "palette", arrays[2].noun = "matrices of the palette", arrays[2].base = (uintptr_t)palette;
    arrays[2].size = sizeof *palette, arrays[2].count = palette_count;
    arrays[3].name = "q", arrays[3].noun = "dual quaternions", arrays[3].base = (uintptr_t)q;
    arrays[3].size = sizeof *q, arrays[3].count = qs;
}

void grade30_name_access(uintptr_t at, bool write, char *out, size_t size)
{
    const char *how = write ? "writes" : "reads";
    int nearest = -1;
    uintptr_t best = 256; /* the array the access is nearest to, within 256 bytes of its ends */
    for (int i = 0; i < 4; i++) {
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

grade30_answer grade30_call(const grade30_entry *x, grade30_fn f, const grade30_case *c, bool *ok)
{
    grade30_answer a = {0};
    *ok = true;
    switch ((grade30_exercise)(x - grade30_table)) {
    case GRADE30_WORLD_MATRIX: a.m = f.world_matrix(c->a, c->b); break;
    case GRADE30_SKIN_MATRIX: a.m = f.skin_matrix(c->a, c->b); break;
    case GRADE30_RING_RADIUS: a.x = f.ring_radius_ratio(c->w, c->theta); break;
    case GRADE30_NORMAL_MATRIX: a.m = f.normal_matrix(c->a); break;
    case GRADE30_LBS_POINT: {
        int *joint = exact_copy(c->joint, sizeof *joint, c->k, ok);
        double *weight = exact_copy(c->weight, sizeof *weight, c->k, ok);
        mat4 *palette = exact_copy(c->palette, sizeof *palette, c->palette_count, ok);
        call_arrays(joint, c->k, weight, c->k, palette, c->palette_count, NULL, 0);
        if (*ok)
            a.p = f.lbs_point(c->p, joint, weight, c->k, palette);
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
    case GRADE30_EXERCISE_COUNT: break;
    }
    return a;
}
