/* grade30_table.c - the table of chapter 30's exercises (grade30.h): one entry each, with
 * its cases and the lab's own answer on a case (grade30_cases_*.c), its known mistakes
 * (mistakes.c) and its picture (grade30_figure*.c). Adding an exercise is one entry here,
 * its cases, and one function on the sheet (exercises30.h, exercises.c).
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

#include "grade30_table.h"
#include "mistakes.h"

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---- the known mistakes, each named in the chapter's words (mistakes.c) ------------------ */

static const grade30_mistake world_mistakes[] = {
    {"L G for G L: the parent's world acts last, G_i = G_parent L_i", {.world_matrix = mistake_l_g}},
    {"the local alone: G_i forgot its parent's world", {.world_matrix = mistake_local_alone}},
    {"the parent alone: G_i forgot its own local", {.world_matrix = mistake_parent_alone}},
    {"translations added, not carried: the parent turns (and scales) the local's translation too",
     {.world_matrix = mistake_translations_added}},
};

static const grade30_mistake skin_mistakes[] = {
    {"B^-1 G for G B^-1: B_j^-1 acts first, so it stands on the right", {.skin_matrix = mistake_binv_g}},
    {"a missing inverse bind: C_j = G_j moves the bind pose by B_j", {.skin_matrix = mistake_no_inverse_bind}},
    {"B_j for B_j^-1: the inverse bind inverted back into the bind matrix", {.skin_matrix = mistake_bind_for_inverse}},
    {"B_j^-1's translation dropped: only its 3x3 part used", {.skin_matrix = mistake_inverse_bind_linear_only}},
};

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

static const grade30_mistake radius_mistakes[] = {
    {"sin for sin^2: the squared sine of half the angle", {.ring_radius_ratio = mistake_sin_not_squared}},
    {"theta for theta/2: the half angle, sin^2(theta/2)", {.ring_radius_ratio = mistake_full_angle}},
    {"degrees for radians: theta arrives in radians", {.ring_radius_ratio = mistake_degrees}},
    {"the square of the ratio: the closed form ends in a square root", {.ring_radius_ratio = mistake_ratio_squared}},
    {"|cos(theta/2)| for every ring: that is the middle ring's (w = 1/2) only",
     {.ring_radius_ratio = mistake_middle_ring_form}},
    {"w (1-w) without its factor 4", {.ring_radius_ratio = mistake_without_four}},
};

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
     GRADE30_GENERATED, grade30_world_case, grade30_world_expected, 1e-9, MISTAKES(world_mistakes), grade30_points_world, grade30_draw_world},
    {"the skin matrix C_j = G_j B_j^-1", "ex30_skin_matrix", "lab/ch30/README.md", "Exercise 2: the skin matrix",
     {.skin_matrix = ex30_skin_matrix}, GRADE30_MATRIX, 3, GRADE30_GENERATED, grade30_skin_case, grade30_skin_expected, 1e-9,
     MISTAKES(skin_mistakes), grade30_points_skin, grade30_draw_skin},
    {"the LBS blend p~' = sum_j w_j C_j p~", "ex30_lbs_point", "lab/ch30/README.md", "Exercise 3: the LBS blend",
     {.lbs_point = ex30_lbs_point}, GRADE30_POINT, 4, GRADE30_GENERATED, grade30_lbs_case, grade30_lbs_expected, 1e-9, MISTAKES(lbs_mistakes),
     grade30_points_lbs, grade30_draw_lbs},
    {"the ring radius r'/r = sqrt(1 - 4 w (1-w) sin^2(theta/2))", "ex30_ring_radius_ratio",
     "lab/ch30/README.md", "Exercise 4: the ring radius", {.ring_radius_ratio = ex30_ring_radius_ratio}, GRADE30_NUMBER, 5,
     GRADE30_GENERATED, grade30_radius_case, grade30_radius_expected, 1e-12, MISTAKES(radius_mistakes), grade30_points_radius,
     grade30_draw_radius},
    {"the weight rules (finite, w_j >= 0, sum 1 within 1e-12; refuse, never repair)", "ex30_check_weights",
     "lab/ch30/README.md", "Exercise 5: the weight rules", {.check_weights = ex30_check_weights}, GRADE30_RULE, 7, GRADE30_GENERATED,
     grade30_weights_case, grade30_weights_expected, 0, MISTAKES(weights_mistakes), grade30_points_weights, grade30_draw_weights},
    {"the DQS blend with the hemisphere rule", "ex30_dqs_blend", "lab/ch30/README.md", "Exercise 6: the DQS blend",
     {.dqs_blend = ex30_dqs_blend}, GRADE30_DUALQUAT, 4, GRADE30_GENERATED, grade30_dqs_case, grade30_dqs_expected, 1e-9,
     MISTAKES(dqs_mistakes), grade30_points_dqs, grade30_draw_dqs},
    {"the normal matrix (M_3x3^-1)^T", "ex30_normal_matrix", "lab/ch30/README.md", "Exercise 7: the normal matrix",
     {.normal_matrix = ex30_normal_matrix}, GRADE30_MATRIX, 5, GRADE30_GENERATED, grade30_normal_case, grade30_normal_expected, 1e-9,
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
