/* grade30_table.c - the table of chapter 30's exercises (grade30.h): one entry each, with
 * its cases and the lab's own answer on a case (grade30_cases_*.c), its known mistakes
 * (mistakes*.c) and its picture (grade30_figure*.c). Adding an exercise is one entry here,
 * its cases, and one function on a sheet (exercises30.h). The cases: the chapter's named
 * ones first (bind pose, hand control, radii, invalid inputs), then `generated` ones from a
 * seeded generator, so that a wrong answer cannot hide behind convenient values (a parent
 * turning about its own translation, joints {0, 1}, q_0 the identity). The lab's answers:
 * the library the programs check against closed forms (scene_world, skin_lbs_point, ...).
 * Here the chapter's own sheet (exercises 1 to 7, lab/ch30/exercises.c) and the one ordered
 * list; the other sheets' entries (8 to 24) in grade30_table_sheets.c. */
#include <math.h>

#include "grade30_table.h"
#include "mistakes.h"

/* The sheets' functions, weak: the grader links none of them (each sheet is a shared object
 * of its own, opened by name in the engine's grading child, src/grade/), so `sheet` is NULL
 * there; the suites link the reference solutions, and `sheet` is the reference's. */
#pragma weak ex30_check_weights
#pragma weak ex30_dqs_blend
#pragma weak ex30_lbs_point
#pragma weak ex30_normal_matrix
#pragma weak ex30_ring_radius_ratio
#pragma weak ex30_skin_matrix
#pragma weak ex30_world_matrix

/* Exercise 4's second rule: an answer whose square is within 4e-15 of the expected square
 * (near the collapse r' = sqrt(x) moves by 1e-16 / (2 sqrt(x)), whichever correct form
 * computed it). */
static bool radius_square_within(const grade_answer *got, const grade_answer *want)
{
    double g = got->v[0], w = want->v[0];
    return got->n == 1 && want->n == 1 && g >= 0 && fabs(g * g - w * w) <= 4e-15;
}

/* Exercise 5's answers by name. */
static const char *rule_name(int value)
{
    switch ((ex30_weights)value) {
    case EX30_WEIGHTS_VALID: return "EX30_WEIGHTS_VALID";
    case EX30_WEIGHTS_NEGATIVE: return "EX30_WEIGHTS_NEGATIVE";
    case EX30_WEIGHTS_NOT_SUMMING_TO_ONE: return "EX30_WEIGHTS_NOT_SUMMING_TO_ONE";
    case EX30_WEIGHTS_NOT_FINITE: return "EX30_WEIGHTS_NOT_FINITE";
    }
    return "(not an ex30_weights value)";
}

/* ---- the known mistakes, each named in the chapter's words (mistakes.c) ------------------ */

static const grade_mistake world_mistakes[] = {
    {"L G for G L: the parent's world acts last, G_i = G_parent L_i", (grade_fn)mistake_l_g},
    {"the local alone: G_i forgot its parent's world", (grade_fn)mistake_local_alone},
    {"the parent alone: G_i forgot its own local", (grade_fn)mistake_parent_alone},
    {"translations added, not carried: the parent turns (and scales) the local's translation too",
     (grade_fn)mistake_translations_added},
};

static const grade_mistake skin_mistakes[] = {
    {"B^-1 G for G B^-1: B_j^-1 acts first, so it stands on the right", (grade_fn)mistake_binv_g},
    {"a missing inverse bind: C_j = G_j moves the bind pose by B_j", (grade_fn)mistake_no_inverse_bind},
    {"B_j for B_j^-1: the inverse bind inverted back into the bind matrix", (grade_fn)mistake_bind_for_inverse},
    {"B_j^-1's translation dropped: only its 3x3 part used", (grade_fn)mistake_inverse_bind_linear_only},
};

static const grade_mistake lbs_mistakes[] = {
    {"weights not applied: sum_j C_j p~ counts every bone fully", (grade_fn)mistake_weights_not_applied},
    {"weights applied twice: w_j^2 C_j p~", (grade_fn)mistake_weights_twice},
    {"a homogeneous w divided although it is not 1: the chapter keeps p~' as it is, so data whose weights sum "
     "to 0.8 shows as 0.8 p",
     (grade_fn)mistake_divides_by_w},
    {"the weights in reverse order: weight[i] belongs to joint[i]", (grade_fn)mistake_weights_swapped},
    {"palette[i] for palette[joint[i]]: an influence names its palette slot", (grade_fn)mistake_palette_by_position},
    {"the last influence left out: the loop runs i < k - 1", (grade_fn)mistake_last_influence_dropped},
    {"p~ = (x, y, z, 0): a point carries w = 1, so the palette's translations move it",
     (grade_fn)mistake_point_as_direction},
};

static const grade_mistake radius_mistakes[] = {
    {"sin for sin^2: the squared sine of half the angle", (grade_fn)mistake_sin_not_squared},
    {"theta for theta/2: the half angle, sin^2(theta/2)", (grade_fn)mistake_full_angle},
    {"degrees for radians: theta arrives in radians", (grade_fn)mistake_degrees},
    {"the square of the ratio: the closed form ends in a square root", (grade_fn)mistake_ratio_squared},
    {"|cos(theta/2)| for every ring: that is the middle ring's (w = 1/2) only",
     (grade_fn)mistake_middle_ring_form},
    {"w (1-w) without its factor 4", (grade_fn)mistake_without_four},
};

static const grade_mistake weights_mistakes[] = {
    {"weights silently normalised: data that breaks a rule is refused, never repaired behind the caller's back",
     (grade_fn)mistake_normalises},
    {"the sign rule missing: -0.5 + 1.5 sums to 1, and a negative weight still pushes the vertex away from its bone",
     (grade_fn)mistake_no_sign_rule},
    {"the finiteness rule missing: NaN fails every comparison, so it needs its own test (isfinite)",
     (grade_fn)mistake_no_finite_rule},
    {"a one-sided tolerance: sum - 1 <= 1e-12 without fabs accepts any sum below 1",
     (grade_fn)mistake_one_sided_tolerance},
    {"the sum compared exactly: sum == 1 refuses sums that rounding moved by 1e-16",
     (grade_fn)mistake_exact_sum},
    {"the sum judged before the signs: the first weight that breaks a rule decides",
     (grade_fn)mistake_sum_first},
    {"-0.0 called negative (signbit): -0.0 is not below 0", (grade_fn)mistake_negative_zero},
    {"no weights called valid: k = 0 weights sum to 0, not 1", (grade_fn)mistake_none_valid},
};

static const grade_mistake dqs_mistakes[] = {
    {"a missing hemisphere flip: q^ and -q^ are one rotation, so each q^_i joins the pivot's side before the sum",
     (grade_fn)mistake_no_hemisphere},
    {"flipped against q^_0, not the pivot: the pivot is the heaviest influence", (grade_fn)mistake_flip_against_first},
    {"the pivot is the last of equal weights, not the first", (grade_fn)mistake_pivot_last_of_equals},
    {"the hemisphere judged by w alone: the test is the dot product of the real parts",
     (grade_fn)mistake_hemisphere_by_w},
    {"the hemisphere judged by the dual parts: the test is the dot product of the real parts",
     (grade_fn)mistake_hemisphere_by_dual},
    {"only the real part flipped: -q^ negates the dual part too", (grade_fn)mistake_flip_real_only},
    {"the dual part dropped: it carries the translation", (grade_fn)mistake_no_dual_part},
    {"normalised already: the exercise asks for the blend before the division by |q_0|",
     (grade_fn)mistake_normalised_already},
    {"a dot product of exactly 0 flipped: the rule flips below 0 only", (grade_fn)mistake_flip_at_zero},
};

static const grade_mistake normal_mistakes[] = {
    {"the transpose for the inverse transpose: a normal must stay perpendicular to the transformed surface",
     (grade_fn)mistake_transpose},
    {"the inverse without the transpose", (grade_fn)mistake_inverse_only},
    {"M itself: normals carried like points", (grade_fn)mistake_m_itself},
    {"M's 3x3 part: normals carried like directions, which holds for rotations only", (grade_fn)mistake_linear_part},
    {"the cofactor matrix without the division by det M: the right direction, the wrong length, and turned "
     "inside out where det M < 0",
     (grade_fn)mistake_cofactor_only},
    {"M's translation kept: a normal is a direction, the last column stays (0, 0, 0, 1)",
     (grade_fn)mistake_translation_kept},
};

/* ---- the table ------------------------------------------------------------------------ */

static const grade30_entry grade30_lab30_entries[GRADE30_SKELETON_WORLD] = {
    {"the world matrix G_i = G_parent L_i", "ex30_world_matrix",
     "lab/ch30/README.md", "Exercise 1: the world matrix", (grade_fn)ex30_world_matrix, GRADE_MATRIX, 2,
     GRADE30_GENERATED, grade30_world_case, grade30_world_expected, 1e-9, GRADE30_MISTAKES(world_mistakes), grade30_points_world, grade30_draw_world, .sheet = GRADE30_SHEET_LAB30, .tag = GRADE30_WORLD_MATRIX, GRADE30_COMMON},
    {"the skin matrix C_j = G_j B_j^-1", "ex30_skin_matrix", "lab/ch30/README.md", "Exercise 2: the skin matrix",
     (grade_fn)ex30_skin_matrix, GRADE_MATRIX, 3, GRADE30_GENERATED, grade30_skin_case, grade30_skin_expected, 1e-9,
     GRADE30_MISTAKES(skin_mistakes), grade30_points_skin, grade30_draw_skin, .sheet = GRADE30_SHEET_LAB30, .tag = GRADE30_SKIN_MATRIX, GRADE30_COMMON},
    {"the LBS blend p~' = sum_j w_j C_j p~", "ex30_lbs_point", "lab/ch30/README.md", "Exercise 3: the LBS blend",
     (grade_fn)ex30_lbs_point, GRADE_POINT, 4, GRADE30_GENERATED, grade30_lbs_case, grade30_lbs_expected, 1e-9, GRADE30_MISTAKES(lbs_mistakes),
     grade30_points_lbs, grade30_draw_lbs, .sheet = GRADE30_SHEET_LAB30, .tag = GRADE30_LBS_POINT, GRADE30_COMMON},
    {"the ring radius r'/r = sqrt(1 - 4 w (1-w) sin^2(theta/2))", "ex30_ring_radius_ratio",
     "lab/ch30/README.md", "Exercise 4: the ring radius", (grade_fn)ex30_ring_radius_ratio, GRADE_NUMBER, 5,
     GRADE30_GENERATED, grade30_radius_case, grade30_radius_expected, 1e-12, GRADE30_MISTAKES(radius_mistakes), grade30_points_radius,
     grade30_draw_radius, .sheet = GRADE30_SHEET_LAB30, .tag = GRADE30_RING_RADIUS, GRADE30_COMMON, .also_within = radius_square_within},
    {"the weight rules (finite, w_j >= 0, sum 1 within 1e-12; refuse, never repair)", "ex30_check_weights",
     "lab/ch30/README.md", "Exercise 5: the weight rules", (grade_fn)ex30_check_weights, GRADE_RULE, 11, GRADE30_GENERATED,
     grade30_weights_case, grade30_weights_expected, 0, GRADE30_MISTAKES(weights_mistakes), grade30_points_weights, grade30_draw_weights, .sheet = GRADE30_SHEET_LAB30, .tag = GRADE30_CHECK_WEIGHTS, GRADE30_COMMON, .rule_name = rule_name},
    {"the DQS blend with the hemisphere rule", "ex30_dqs_blend", "lab/ch30/README.md", "Exercise 6: the DQS blend",
     (grade_fn)ex30_dqs_blend, GRADE_DUALQUAT, 4, GRADE30_GENERATED, grade30_dqs_case, grade30_dqs_expected, 1e-9,
     GRADE30_MISTAKES(dqs_mistakes), grade30_points_dqs, grade30_draw_dqs, .sheet = GRADE30_SHEET_LAB30, .tag = GRADE30_DQS_BLEND, GRADE30_COMMON},
    {"the normal matrix (M_3x3^-1)^T", "ex30_normal_matrix", "lab/ch30/README.md", "Exercise 7: the normal matrix",
     (grade_fn)ex30_normal_matrix, GRADE_MATRIX, 5, GRADE30_GENERATED, grade30_normal_case, grade30_normal_expected, 1e-9,
     GRADE30_MISTAKES(normal_mistakes), grade30_points_normal, grade30_draw_normal, .sheet = GRADE30_SHEET_LAB30, .tag = GRADE30_NORMAL_MATRIX, GRADE30_COMMON},
};

/* The chapter's one ordered list, as the engine takes it (src/grade/grader.h): exercise
 * x + 1 is grade30_exercises[x]. */
const grade_exercise *const grade30_exercises[GRADE30_EXERCISE_COUNT] = {
    &grade30_lab30_entries[0],
    &grade30_lab30_entries[1],
    &grade30_lab30_entries[2],
    &grade30_lab30_entries[3],
    &grade30_lab30_entries[4],
    &grade30_lab30_entries[5],
    &grade30_lab30_entries[6],
    &grade30_sheet_entries[0],
    &grade30_sheet_entries[1],
    &grade30_sheet_entries[2],
    &grade30_sheet_entries[3],
    &grade30_sheet_entries[4],
    &grade30_sheet_entries[5],
    &grade30_sheet_entries[6],
    &grade30_sheet_entries[7],
    &grade30_sheet_entries[8],
    &grade30_sheet_entries[9],
    &grade30_sheet_entries[10],
    &grade30_sheet_entries[11],
    &grade30_sheet_entries[12],
    &grade30_sheet_entries[13],
    &grade30_sheet_entries[14],
    &grade30_sheet_entries[15],
    &grade30_sheet_entries[16],
};
