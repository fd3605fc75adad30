/* grade30_table.c - the table of chapter 30's exercises (grade30.h): one entry each, with
 * its cases and the lab's own answer on a case (grade30_cases_*.c), its known mistakes
 * (mistakes*.c) and its picture (grade30_figure*.c). Adding an exercise is one entry here,
 * its cases, and one function on a sheet (exercises30.h). The cases: the chapter's named
 * ones first (bind pose, hand control, radii, invalid inputs), then `generated` ones from a
 * seeded generator, so that a wrong answer cannot hide behind convenient values (a parent
 * turning about its own translation, joints {0, 1}, q_0 the identity). The lab's answers:
 * the library the programs check against closed forms (scene_world, skin_lbs_point, ...). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "math/dualquat.h"
#include "math/linalg.h"
#include "math/quat.h"

#include "grade30_table.h"
#include "mistakes.h"

/* The sheets' functions, weak: the grader links none of them (each sheet is a shared object
 * of its own, opened by name in the grading child, grade30_sandbox.c), so `sheet` is NULL
 * there; the suites link the reference solutions, and `sheet` is the reference's. */
#pragma weak ex30_apply_policy
#pragma weak ex30_check_weights
#pragma weak ex30_cor_point
#pragma weak ex30_corrective_point
#pragma weak ex30_cotan_row
#pragma weak ex30_dq_from_rigid
#pragma weak ex30_dq_normalize
#pragma weak ex30_dq_transform_point
#pragma weak ex30_dqs_blend
#pragma weak ex30_dqs_turn_angle
#pragma weak ex30_heat_row
#pragma weak ex30_keep_heaviest
#pragma weak ex30_lbs_point
#pragma weak ex30_lbs_turn_angle
#pragma weak ex30_normal_matrix
#pragma weak ex30_palette
#pragma weak ex30_ring_radius_ratio
#pragma weak ex30_skeleton_world
#pragma weak ex30_skin_matrix
#pragma weak ex30_skin_mesh
#pragma weak ex30_skin_normal
#pragma weak ex30_unpack_weights
#pragma weak ex30_world_matrix

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

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


static const grade_mistake skeleton_mistakes[] = {
    {"the rule never checked: a parent listed at or after its child is read before it is computed",
     (grade_fn)mistake_skeleton_no_rule},
    {"L G for G L: the parent's world acts last, world[i] = world[parent[i]] local[i]", (grade_fn)mistake_skeleton_l_g},
    {"a root's world taken as the identity: a root's world is its own local", (grade_fn)mistake_skeleton_root_identity},
    {"the parent's local for its world: only one level of the hierarchy", (grade_fn)mistake_skeleton_parent_local},
    {"a node its own parent let through: the rule is parent[i] < i", (grade_fn)mistake_skeleton_self_allowed},
    {"the last node that breaks the rule returned: the first one decides (return at the first)",
     (grade_fn)mistake_skeleton_last_bad},
    {"0 returned for a valid skeleton: -1 says every parent came first (0 names node 0)",
     (grade_fn)mistake_skeleton_zero_for_valid},
};

static const grade_mistake palette_mistakes[] = {
    {"the slot used as a node index: palette slot j is node skin_joints[j]", (grade_fn)mistake_palette_slot_as_node},
    {"IBM_j G for G IBM_j: the inverse bind acts first, so it stands on the right", (grade_fn)mistake_palette_ibm_first},
    {"the inverse bind matrices left out: C_j = G_j moves the bind pose by the bind", (grade_fn)mistake_palette_no_ibm},
    {"IBM_j inverted again: inverseBindMatrices already holds B_j^-1", (grade_fn)mistake_palette_ibm_inverted},
};

static const grade_mistake mesh_mistakes[] = {
    {"the JOINTS value used as a node index: JOINTS_0 holds palette slots, C_j = G_{skin_joints[j]} IBM_j",
     (grade_fn)mistake_mesh_joints_as_nodes},
    {"the locals used as world matrices: every node's world is its parent's world times its local",
     (grade_fn)mistake_mesh_no_hierarchy},
    {"the inverse bind matrices left out: C_j = G_j", (grade_fn)mistake_mesh_no_inverse_bind},
    {"only the first influence, rigidly: every vertex blends its four", (grade_fn)mistake_mesh_first_influence},
};

static const grade_mistake dq_rigid_mistakes[] = {
    {"a dual quaternion translation without its 1/2: q_e = 1/2 t q_0", (grade_fn)mistake_dq_no_half},
    {"q_0 t for t q_0: the translation acts after the rotation, so t stands on the left", (grade_fn)mistake_dq_q0_t},
    {"q_e = t/2 without q_0: the dual part carries the rotation too", (grade_fn)mistake_dq_no_q0},
    {"t q_0* for t q_0: the conjugate belongs to the translation's read-back, t = 2 q_e q_0*",
     (grade_fn)mistake_dq_conjugate},
};

static const grade_mistake dq_normalize_mistakes[] = {
    {"divided by the length of all eight numbers: the norm is the real part's, |b_0|", (grade_fn)mistake_norm_eight},
    {"only the real part divided: the dual part is divided by |b_0| too", (grade_fn)mistake_norm_real_only},
    {"a zero norm divided by: |b_0| <= 1e-9 (or not finite) is refused", (grade_fn)mistake_norm_no_refusal},
    {"divided by |b_0|^2: the norm is a length, sqrt(b_0 . b_0)", (grade_fn)mistake_norm_squared},
    {"a refusal that still writes *out: a refused blend leaves *out as it was", (grade_fn)mistake_norm_refusal_writes},
    {"a NaN slipping past a comparison: n <= 1e-9 is false for NaN (and an infinity); refuse unless n > 1e-9 "
     "and n is finite",
     (grade_fn)mistake_norm_nan_passes},
    {"1e-9 itself divided by: a norm not above 1e-9 is refused (n <= 1e-9), 1e-9 too", (grade_fn)mistake_norm_at_threshold},
    {"the dual part judged: only |b_0| decides, a non-finite dual part is divided like any other",
     (grade_fn)mistake_norm_dual_judged},
};

static const grade_mistake dq_point_mistakes[] = {
    {"the translation forgotten: p' = R p + t", (grade_fn)mistake_point_no_translation},
    {"t = q_e q_0* without its 2: q_e holds half the translation", (grade_fn)mistake_point_no_two},
    {"t = 2 q_0* q_e: the order of the product is q_e q_0*", (grade_fn)mistake_point_order},
    {"rotated by q_0*: p turns by q_0 p q_0*, the conjugate on the right", (grade_fn)mistake_point_conjugate},
    {"moved before it is turned: R (p + t) for R p + t", (grade_fn)mistake_point_move_first},
};

static const grade_mistake lbs_turn_mistakes[] = {
    {"w theta: LBS does not turn a ring by its weight's share of the angle", (grade_fn)mistake_turn_linear},
    {"atan for atan2: the quadrant is lost once the blend points backwards", (grade_fn)mistake_turn_atan},
    {"degrees for radians: theta arrives in radians", (grade_fn)mistake_turn_degrees},
    {"w and 1-w swapped: the child's weight goes with the child's rotation", (grade_fn)mistake_turn_weights_swapped},
    {"the DQS ring's angle: the LBS ring turns by the angle of the blended point, atan2(w sin theta, ...)",
     (grade_fn)mistake_turn_dqs_form},
};

static const grade_mistake dqs_turn_mistakes[] = {
    {"the hemisphere rule missing: past 180 deg the child's quaternion is flipped (t wrapped into [-pi, pi])",
     (grade_fn)mistake_turn_no_hemisphere},
    {"the LBS ring's angle: DQS blends the half angles, 2 atan2(w sin(t/2), (1-w) + w cos(t/2))",
     (grade_fn)mistake_turn_lbs_form},
    {"the half angle returned: the rotation turns by twice the quaternion's angle", (grade_fn)mistake_turn_without_two},
    {"w t: the blend of unit quaternions is not a linear share of the angle", (grade_fn)mistake_turn_linear_wrapped},
};

static const grade_mistake skin_normal_mistakes[] = {
    {"not renormalised: a blended or inverse-transposed normal changes length", (grade_fn)mistake_normal_not_renormalised},
    {"no inverse transpose: the blended and per-bone methods carry n by (L^-1)^T", (grade_fn)mistake_normal_no_inverse_transpose},
    {"per bone as blended: per-bone sums the inverse transposes, sum w_i (S_i^-1)^T, not (sum w_i S_i)^-T",
     (grade_fn)mistake_normal_per_bone_as_blended},
    {"the inverse without the transpose", (grade_fn)mistake_normal_inverse_only},
    {"the normal carried as a point: a normal is a direction, no translation", (grade_fn)mistake_normal_as_point},
};

static const grade_mistake policy_mistakes[] = {
    {"strict that divides: strict refuses a bad sum and changes nothing", (grade_fn)mistake_policy_strict_normalises},
    {"no weightless check: W <= 1e-6 is refused (normalize) or falls back, never divided by",
     (grade_fn)mistake_policy_no_weightless},
    {"the fallback keeps the other weights: the vertex follows the fallback joint alone", (grade_fn)mistake_policy_fallback_keeps_rest},
    {"the fallback weight on the old joint: joint[0] becomes fallback_joint", (grade_fn)mistake_policy_fallback_old_joint},
    {"weights within the tolerance divided too: only |W - 1| > 1e-12 is normalised", (grade_fn)mistake_policy_always_divides},
    {"W < 1e-6 for W <= 1e-6: a sum of exactly 1e-6 is weightless", (grade_fn)mistake_policy_eps_strict},
    {"the finiteness rule missing: NaN fails every comparison, so it needs its own test", (grade_fn)mistake_policy_no_finite},
};

static const grade_mistake heaviest_mistakes[] = {
    {"not renormalised: the kept weights are divided by their own sum", (grade_fn)mistake_heaviest_not_renormalised},
    {"the first four kept, not the heaviest", (grade_fn)mistake_heaviest_first_four},
    {"ties by position: of equal weights the lower joint is kept first", (grade_fn)mistake_heaviest_ties_by_position},
    {"the lightest first: the packed vertex keeps the heaviest, heaviest first", (grade_fn)mistake_heaviest_lightest_first},
};

static const grade_mistake unpack_mistakes[] = {
    {"divided by 65536: UNORM16's 1 is 65535", (grade_fn)mistake_unpack_65536},
    {"the implied fourth left at 0: it is 1 minus the three stored", (grade_fn)mistake_unpack_no_implied},
    {"the fourth as 1 - w0: the implied weight takes what all three leave", (grade_fn)mistake_unpack_from_first},
    {"divided by 255: that is UNORM8's unit", (grade_fn)mistake_unpack_255},
};

static const grade_mistake cotan_mistakes[] = {
    {"(cot alpha + cot beta) without its 1/2", (grade_fn)mistake_cotan_no_half},
    {"the angle at the vertex itself: the cotangents are of the angles opposite the edge", (grade_fn)mistake_cotan_at_centre},
    {"L_ii = +sum: the diagonal is minus the row's sum, so L 1 = 0", (grade_fn)mistake_cotan_diagonal_sign},
    {"an open fan closed: a boundary vertex has n - 1 triangles, its end edges one cot alpha / 2",
     (grade_fn)mistake_cotan_open_closed},
};

static const grade_mistake heat_row_mistakes[] = {
    {"H without k: H_ii = k c / d^2 when k bones tie", (grade_fn)mistake_heat_no_k},
    {"d for d^2: the heat falls with the squared distance", (grade_fn)mistake_heat_not_squared},
    {"p_j = 1 where k bones tie: they share it, p_j = 1/k", (grade_fn)mistake_heat_rhs_no_share},
    {"+L for -L: the system is (-L + M H) w = M H p", (grade_fn)mistake_heat_laplacian_sign},
    {"the heat of every bone: b_i = M H p_j(i) is 0 for a bone that is not the nearest", (grade_fn)mistake_heat_rhs_every_bone},
};

static const grade_mistake cor_mistakes[] = {
    {"turned about the origin: R (p - p*), the vertex turns about its own centre", (grade_fn)mistake_cor_not_about_centre},
    {"the vertex skinned by LBS, not its centre: the centre's LBS carries the vertex", (grade_fn)mistake_cor_lbs_of_vertex},
    {"the centre not skinned: p* moves with the joints, sum w C p*", (grade_fn)mistake_cor_centre_not_skinned},
    {"turned by R*: the blended rotation itself turns the vertex", (grade_fn)mistake_cor_inverse},
};

static const grade_mistake corrective_mistakes[] = {
    {"the shape's weight left out: the delta is scaled by s, 1 only at the trained pose", (grade_fn)mistake_shape_unscaled},
    {"the morph target not skinned: before skinning the delta is added to p and skinned with it",
     (grade_fn)mistake_shape_not_skinned},
    {"after skinning without R: the delta is in the vertex's frame, so it turns with it", (grade_fn)mistake_shape_no_rotation},
    {"the orders swapped: before is M (p + s d), after is M p + s R d", (grade_fn)mistake_shape_orders_swapped},
    {"the delta skinned as a point: a delta is a direction, M's translation taken once",
     (grade_fn)mistake_shape_moved_twice},
};

/* exercise 22's, in the order of grade30_shader.c's slips: named when the GPU's answer is the
 * CPU's with that mistake on every case (there is no C function to call) */
static const grade_mistake shader_mistakes[] = {
    {"the implied fourth weight left out: w3 = 1 - (w0 + w1 + w2)", NULL},
    {"p~ = (p, 0): a point carries w = 1, so the palette's translations move it", NULL},
    {"the normal not normalised: the blended 3x3 changes its length", NULL},
    {"the weights not applied: sum_i C_i p~ counts every influence fully", NULL},
    {"the normal moved like a point: a normal takes the 3x3 part only, then is normalised", NULL},
};

/* ---- the table ------------------------------------------------------------------------ */

#define MISTAKES(list) .mistakes = list, .mistake_count = COUNT(list)
/* what every exercise of the chapter shares: its case type and its call */
#define COMMON .case_size = sizeof(grade30_case), .call = grade30_call

const grade30_entry grade30_table[GRADE30_EXERCISE_COUNT] = {
    {"the world matrix G_i = G_parent L_i", "ex30_world_matrix",
     "lab/ch30/README.md", "Exercise 1: the world matrix", (grade_fn)ex30_world_matrix, GRADE_MATRIX, 2,
     GRADE30_GENERATED, grade30_world_case, grade30_world_expected, 1e-9, MISTAKES(world_mistakes), grade30_points_world, grade30_draw_world, .sheet = GRADE30_SHEET_LAB30, .tag = GRADE30_WORLD_MATRIX, COMMON},
    {"the skin matrix C_j = G_j B_j^-1", "ex30_skin_matrix", "lab/ch30/README.md", "Exercise 2: the skin matrix",
     (grade_fn)ex30_skin_matrix, GRADE_MATRIX, 3, GRADE30_GENERATED, grade30_skin_case, grade30_skin_expected, 1e-9,
     MISTAKES(skin_mistakes), grade30_points_skin, grade30_draw_skin, .sheet = GRADE30_SHEET_LAB30, .tag = GRADE30_SKIN_MATRIX, COMMON},
    {"the LBS blend p~' = sum_j w_j C_j p~", "ex30_lbs_point", "lab/ch30/README.md", "Exercise 3: the LBS blend",
     (grade_fn)ex30_lbs_point, GRADE_POINT, 4, GRADE30_GENERATED, grade30_lbs_case, grade30_lbs_expected, 1e-9, MISTAKES(lbs_mistakes),
     grade30_points_lbs, grade30_draw_lbs, .sheet = GRADE30_SHEET_LAB30, .tag = GRADE30_LBS_POINT, COMMON},
    {"the ring radius r'/r = sqrt(1 - 4 w (1-w) sin^2(theta/2))", "ex30_ring_radius_ratio",
     "lab/ch30/README.md", "Exercise 4: the ring radius", (grade_fn)ex30_ring_radius_ratio, GRADE_NUMBER, 5,
     GRADE30_GENERATED, grade30_radius_case, grade30_radius_expected, 1e-12, MISTAKES(radius_mistakes), grade30_points_radius,
     grade30_draw_radius, .sheet = GRADE30_SHEET_LAB30, .tag = GRADE30_RING_RADIUS, COMMON, .also_within = radius_square_within},
    {"the weight rules (finite, w_j >= 0, sum 1 within 1e-12; refuse, never repair)", "ex30_check_weights",
     "lab/ch30/README.md", "Exercise 5: the weight rules", (grade_fn)ex30_check_weights, GRADE_RULE, 11, GRADE30_GENERATED,
     grade30_weights_case, grade30_weights_expected, 0, MISTAKES(weights_mistakes), grade30_points_weights, grade30_draw_weights, .sheet = GRADE30_SHEET_LAB30, .tag = GRADE30_CHECK_WEIGHTS, COMMON, .rule_name = rule_name},
    {"the DQS blend with the hemisphere rule", "ex30_dqs_blend", "lab/ch30/README.md", "Exercise 6: the DQS blend",
     (grade_fn)ex30_dqs_blend, GRADE_DUALQUAT, 4, GRADE30_GENERATED, grade30_dqs_case, grade30_dqs_expected, 1e-9,
     MISTAKES(dqs_mistakes), grade30_points_dqs, grade30_draw_dqs, .sheet = GRADE30_SHEET_LAB30, .tag = GRADE30_DQS_BLEND, COMMON},
    {"the normal matrix (M_3x3^-1)^T", "ex30_normal_matrix", "lab/ch30/README.md", "Exercise 7: the normal matrix",
     (grade_fn)ex30_normal_matrix, GRADE_MATRIX, 5, GRADE30_GENERATED, grade30_normal_case, grade30_normal_expected, 1e-9,
     MISTAKES(normal_mistakes), grade30_points_normal, grade30_draw_normal, .sheet = GRADE30_SHEET_LAB30, .tag = GRADE30_NORMAL_MATRIX, COMMON},
    {"the world matrices of a skeleton, parents first", "ex30_skeleton_world", "lab/ch30/lab30-gltf/README.md",
     "Exercise 8: the skeleton's world matrices", (grade_fn)ex30_skeleton_world, GRADE_VALUES, 8,
     GRADE30_GENERATED, grade30_skeleton_case, grade30_skeleton_expected, 1e-9, MISTAKES(skeleton_mistakes),
     grade30_points_skeleton, grade30_draw_skeleton, grade30_skeleton_value_name, .sheet = GRADE30_SHEET_SKELETON, .tag = GRADE30_SKELETON_WORLD, COMMON},
    {"the palette through skin.joints, C_j = G_{skin.joints[j]} IBM_j", "ex30_palette", "lab/ch30/lab30-gltf/README.md",
     "Exercise 9: the palette through skin.joints", (grade_fn)ex30_palette, GRADE_VALUES, 3, GRADE30_GENERATED,
     grade30_palette_case, grade30_palette_expected, 1e-9, MISTAKES(palette_mistakes), grade30_points_palette,
     grade30_draw_palette, grade30_matrices_value_name, .sheet = GRADE30_SHEET_SKELETON, .tag = GRADE30_PALETTE, COMMON},
    {"the whole loop: a skeleton, a skin and a mesh (the cylinder, RiggedSimple)", "ex30_skin_mesh",
     "lab/ch30/lab30-gltf/README.md", "Exercise 10: the whole loop", (grade_fn)ex30_skin_mesh, GRADE_VALUES, 8,
     GRADE30_GENERATED, grade30_skin_mesh_case, grade30_skin_mesh_expected, 1e-9, MISTAKES(mesh_mistakes),
     grade30_points_mesh, grade30_draw_mesh, grade30_skin_mesh_value_name, .sheet = GRADE30_SHEET_SKELETON, .tag = GRADE30_SKIN_MESH, COMMON},
    {"the rigid transform as a unit dual quaternion, q_e = 1/2 t q_0", "ex30_dq_from_rigid", "lab/ch30/lab30-dqs/README.md",
     "Exercise 11: the rigid transform as a dual quaternion", (grade_fn)ex30_dq_from_rigid, GRADE_DUALQUAT, 3,
     GRADE30_GENERATED, grade30_dq_rigid_case, grade30_dq_rigid_expected, 1e-9, MISTAKES(dq_rigid_mistakes),
     grade30_points_dq_rigid, grade30_draw_dq_rigid, NULL, .sheet = GRADE30_SHEET_DQS, .tag = GRADE30_DQ_FROM_RIGID, COMMON},
    {"the normalisation b / |b_0|, refused at a zero norm", "ex30_dq_normalize", "lab/ch30/lab30-dqs/README.md",
     "Exercise 12: the normalisation", (grade_fn)ex30_dq_normalize, GRADE_VALUES, 13, GRADE30_GENERATED,
     grade30_dq_normalize_case, grade30_dq_normalize_expected, 1e-9, MISTAKES(dq_normalize_mistakes),
     grade30_points_dq_normalize, grade30_draw_dq_normalize, grade30_dq_normalize_value_name, .sheet = GRADE30_SHEET_DQS, .tag = GRADE30_DQ_NORMALIZE, COMMON},
    {"Kavan's point transform, p' = R p + t with t = 2 q_e q_0*", "ex30_dq_transform_point", "lab/ch30/lab30-dqs/README.md",
     "Exercise 13: Kavan's point transform", (grade_fn)ex30_dq_transform_point, GRADE_POINT, 3,
     GRADE30_GENERATED, grade30_dq_transform_case, grade30_dq_transform_expected, 1e-9, MISTAKES(dq_point_mistakes),
     grade30_points_dq_transform, grade30_draw_dq_transform, NULL, .sheet = GRADE30_SHEET_DQS, .tag = GRADE30_DQ_TRANSFORM, COMMON},
    {"the LBS ring's turn, atan2(w sin theta, (1-w) + w cos theta)", "ex30_lbs_turn_angle", "lab/ch30/lab30-dqs/README.md",
     "Exercise 14: the LBS ring's turn", (grade_fn)ex30_lbs_turn_angle, GRADE_ANGLE, 6, GRADE30_GENERATED,
     grade30_lbs_turn_case, grade30_lbs_turn_expected, 1e-12, MISTAKES(lbs_turn_mistakes), grade30_points_lbs_turn,
     grade30_draw_lbs_turn, NULL, .sheet = GRADE30_SHEET_DQS, .tag = GRADE30_LBS_TURN, COMMON},
    {"the DQS ring's turn, 2 atan2(w sin(t/2), (1-w) + w cos(t/2))", "ex30_dqs_turn_angle", "lab/ch30/lab30-dqs/README.md",
     "Exercise 15: the DQS ring's turn", (grade_fn)ex30_dqs_turn_angle, GRADE_ANGLE, 6, GRADE30_GENERATED,
     grade30_dqs_turn_case, grade30_dqs_turn_expected, 1e-12, MISTAKES(dqs_turn_mistakes), grade30_points_dqs_turn,
     grade30_draw_dqs_turn, NULL, .sheet = GRADE30_SHEET_DQS, .tag = GRADE30_DQS_TURN, COMMON},
    {"a normal skinned three ways: rigid, blended inverse transpose, per bone", "ex30_skin_normal",
     "lab/ch30/lab30-normals/README.md", "Exercise 16: three ways to skin a normal", (grade_fn)ex30_skin_normal,
     GRADE_POINT, 6, GRADE30_GENERATED, grade30_normal_skin_case, grade30_normal_skin_expected, 1e-9,
     MISTAKES(skin_normal_mistakes), grade30_points_skin_normal, grade30_draw_skin_normal, NULL, .sheet = GRADE30_SHEET_NORMALS, .tag = GRADE30_SKIN_NORMAL, COMMON},
    {"the weight policies strict, normalize and fallback=J", "ex30_apply_policy", "lab/ch30/lab30-normals/README.md",
     "Exercise 17: the weight policies", (grade_fn)ex30_apply_policy, GRADE_VALUES, 16, GRADE30_GENERATED,
     grade30_policy_case, grade30_policy_expected, 1e-12, MISTAKES(policy_mistakes), grade30_points_policy,
     grade30_draw_policy, grade30_policy_value_name, .sheet = GRADE30_SHEET_NORMALS, .tag = GRADE30_POLICY, COMMON},
    {"the four heaviest influences, renormalised", "ex30_keep_heaviest", "lab/ch30/lab30-palette/README.md",
     "Exercise 18: the four heaviest", (grade_fn)ex30_keep_heaviest, GRADE_VALUES, 5, GRADE30_GENERATED,
     grade30_heaviest_case, grade30_heaviest_expected, 1e-12, MISTAKES(heaviest_mistakes), grade30_points_heaviest,
     grade30_draw_heaviest, grade30_heaviest_value_name, .sheet = GRADE30_SHEET_PALETTE, .tag = GRADE30_KEEP_HEAVIEST, COMMON},
    {"the implied last weight of the compressed vertex", "ex30_unpack_weights", "lab/ch30/lab30-palette/README.md",
     "Exercise 19: the implied last weight", (grade_fn)ex30_unpack_weights, GRADE_VALUES, 4, GRADE30_GENERATED,
     grade30_unpack_case, grade30_unpack_expected, 1e-12, MISTAKES(unpack_mistakes), grade30_points_unpack,
     grade30_draw_unpack, NULL, .sheet = GRADE30_SHEET_PALETTE, .tag = GRADE30_UNPACK_WEIGHTS, COMMON},
    {"the cotangent Laplacian's row of a vertex", "ex30_cotan_row", "lab/ch30/lab30-weights/README.md",
     "Exercise 20: the cotangent Laplacian's row", (grade_fn)ex30_cotan_row, GRADE_VALUES, 4, GRADE30_GENERATED,
     grade30_cotan_case, grade30_cotan_expected, 1e-9, MISTAKES(cotan_mistakes), grade30_points_cotan, grade30_draw_cotan,
     grade30_cotan_value_name, .sheet = GRADE30_SHEET_WEIGHTS, .tag = GRADE30_COTAN_ROW, COMMON},
    {"the heat system's row, (-L + M H) w_j = M H p_j", "ex30_heat_row", "lab/ch30/lab30-weights/README.md",
     "Exercise 21: the heat system's row", (grade_fn)ex30_heat_row, GRADE_VALUES, 10, GRADE30_GENERATED,
     grade30_heat_row_case, grade30_heat_row_expected, 1e-12, MISTAKES(heat_row_mistakes), grade30_points_heat_row,
     grade30_draw_heat_row, grade30_heat_row_value_name, .sheet = GRADE30_SHEET_WEIGHTS, .tag = GRADE30_HEAT_ROW, COMMON},
    {"the skinning shader: the palette in GLSL, run on the GPU", "skin() in lab/ch30/sheets/shader.glsl",
     "lab/ch30/lab30-gpu/README.md", "Exercise 22: the skinning shader", NULL, GRADE_ELSEWHERE, 9, 0, NULL, NULL, 1e-6,
     MISTAKES(shader_mistakes), NULL, NULL, NULL, .sheet = GRADE30_SHEET_SHADER, .tag = GRADE30_SHADER, COMMON},
    {"a vertex about its centre of rotation, R (p - p*) + sum w C p*", "ex30_cor_point", "lab/ch30/lab30-fixes/README.md",
     "Exercise 23: centres of rotation", (grade_fn)ex30_cor_point, GRADE_POINT, 2, GRADE30_GENERATED,
     grade30_cor_case, grade30_cor_expected, 1e-9, MISTAKES(cor_mistakes), grade30_points_cor, grade30_draw_cor, NULL, .sheet = GRADE30_SHEET_FIXES, .tag = GRADE30_COR_POINT, COMMON},
    {"a corrective shape, M (p + s d) before skinning, M p + s R d after", "ex30_corrective_point",
     "lab/ch30/lab30-fixes/README.md", "Exercise 24: a corrective shape", (grade_fn)ex30_corrective_point,
     GRADE_POINT, 4, GRADE30_GENERATED, grade30_corrective_case, grade30_corrective_expected, 1e-9,
     MISTAKES(corrective_mistakes), grade30_points_corrective, grade30_draw_corrective, NULL, .sheet = GRADE30_SHEET_FIXES, .tag = GRADE30_CORRECTIVE, COMMON},
};

/* The chapter's one ordered list, as the engine takes it (src/grade/grader.h): exercise
 * x + 1 is the table's entry x. */
const grade_exercise *const grade30_exercises[GRADE30_EXERCISE_COUNT] = {
    &grade30_table[0],
    &grade30_table[1],
    &grade30_table[2],
    &grade30_table[3],
    &grade30_table[4],
    &grade30_table[5],
    &grade30_table[6],
    &grade30_table[7],
    &grade30_table[8],
    &grade30_table[9],
    &grade30_table[10],
    &grade30_table[11],
    &grade30_table[12],
    &grade30_table[13],
    &grade30_table[14],
    &grade30_table[15],
    &grade30_table[16],
    &grade30_table[17],
    &grade30_table[18],
    &grade30_table[19],
    &grade30_table[20],
    &grade30_table[21],
    &grade30_table[22],
    &grade30_table[23],
};
