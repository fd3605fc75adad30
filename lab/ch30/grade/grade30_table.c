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


static const grade30_mistake skeleton_mistakes[] = {
    {"the rule never checked: a parent listed at or after its child is read before it is computed",
     {.skeleton_world = mistake_skeleton_no_rule}},
    {"L G for G L: the parent's world acts last, world[i] = world[parent[i]] local[i]", {.skeleton_world = mistake_skeleton_l_g}},
    {"a root's world taken as the identity: a root's world is its own local", {.skeleton_world = mistake_skeleton_root_identity}},
    {"the parent's local for its world: only one level of the hierarchy", {.skeleton_world = mistake_skeleton_parent_local}},
    {"a node its own parent let through: the rule is parent[i] < i", {.skeleton_world = mistake_skeleton_self_allowed}},
    {"the last node that breaks the rule returned: the first one decides (return at the first)",
     {.skeleton_world = mistake_skeleton_last_bad}},
    {"0 returned for a valid skeleton: -1 says every parent came first (0 names node 0)",
     {.skeleton_world = mistake_skeleton_zero_for_valid}},
};

static const grade30_mistake palette_mistakes[] = {
    {"the slot used as a node index: palette slot j is node skin_joints[j]", {.palette = mistake_palette_slot_as_node}},
    {"IBM_j G for G IBM_j: the inverse bind acts first, so it stands on the right", {.palette = mistake_palette_ibm_first}},
    {"the inverse bind matrices left out: C_j = G_j moves the bind pose by the bind", {.palette = mistake_palette_no_ibm}},
    {"IBM_j inverted again: inverseBindMatrices already holds B_j^-1", {.palette = mistake_palette_ibm_inverted}},
};

static const grade30_mistake mesh_mistakes[] = {
    {"the JOINTS value used as a node index: JOINTS_0 holds palette slots, C_j = G_{skin_joints[j]} IBM_j",
     {.skin_mesh = mistake_mesh_joints_as_nodes}},
    {"the locals used as world matrices: every node's world is its parent's world times its local",
     {.skin_mesh = mistake_mesh_no_hierarchy}},
    {"the inverse bind matrices left out: C_j = G_j", {.skin_mesh = mistake_mesh_no_inverse_bind}},
    {"only the first influence, rigidly: every vertex blends its four", {.skin_mesh = mistake_mesh_first_influence}},
};

static const grade30_mistake dq_rigid_mistakes[] = {
    {"a dual quaternion translation without its 1/2: q_e = 1/2 t q_0", {.dq_from_rigid = mistake_dq_no_half}},
    {"q_0 t for t q_0: the translation acts after the rotation, so t stands on the left", {.dq_from_rigid = mistake_dq_q0_t}},
    {"q_e = t/2 without q_0: the dual part carries the rotation too", {.dq_from_rigid = mistake_dq_no_q0}},
    {"t q_0* for t q_0: the conjugate belongs to the translation's read-back, t = 2 q_e q_0*",
     {.dq_from_rigid = mistake_dq_conjugate}},
};

static const grade30_mistake dq_normalize_mistakes[] = {
    {"divided by the length of all eight numbers: the norm is the real part's, |b_0|", {.dq_normalize = mistake_norm_eight}},
    {"only the real part divided: the dual part is divided by |b_0| too", {.dq_normalize = mistake_norm_real_only}},
    {"a zero norm divided by: |b_0| <= 1e-9 (or not finite) is refused", {.dq_normalize = mistake_norm_no_refusal}},
    {"divided by |b_0|^2: the norm is a length, sqrt(b_0 . b_0)", {.dq_normalize = mistake_norm_squared}},
    {"a refusal that still writes *out: a refused blend leaves *out as it was", {.dq_normalize = mistake_norm_refusal_writes}},
    {"a NaN slipping past a comparison: n <= 1e-9 is false for NaN (and an infinity); refuse unless n > 1e-9 "
     "and n is finite",
     {.dq_normalize = mistake_norm_nan_passes}},
    {"1e-9 itself divided by: a norm not above 1e-9 is refused (n <= 1e-9), 1e-9 too", {.dq_normalize = mistake_norm_at_threshold}},
    {"the dual part judged: only |b_0| decides, a non-finite dual part is divided like any other",
     {.dq_normalize = mistake_norm_dual_judged}},
};

static const grade30_mistake dq_point_mistakes[] = {
    {"the translation forgotten: p' = R p + t", {.dq_transform_point = mistake_point_no_translation}},
    {"t = q_e q_0* without its 2: q_e holds half the translation", {.dq_transform_point = mistake_point_no_two}},
    {"t = 2 q_0* q_e: the order of the product is q_e q_0*", {.dq_transform_point = mistake_point_order}},
    {"rotated by q_0*: p turns by q_0 p q_0*, the conjugate on the right", {.dq_transform_point = mistake_point_conjugate}},
    {"moved before it is turned: R (p + t) for R p + t", {.dq_transform_point = mistake_point_move_first}},
};

static const grade30_mistake lbs_turn_mistakes[] = {
    {"w theta: LBS does not turn a ring by its weight's share of the angle", {.turn_angle = mistake_turn_linear}},
    {"atan for atan2: the quadrant is lost once the blend points backwards", {.turn_angle = mistake_turn_atan}},
    {"degrees for radians: theta arrives in radians", {.turn_angle = mistake_turn_degrees}},
    {"w and 1-w swapped: the child's weight goes with the child's rotation", {.turn_angle = mistake_turn_weights_swapped}},
    {"the DQS ring's angle: the LBS ring turns by the angle of the blended point, atan2(w sin theta, ...)",
     {.turn_angle = mistake_turn_dqs_form}},
};

static const grade30_mistake dqs_turn_mistakes[] = {
    {"the hemisphere rule missing: past 180 deg the child's quaternion is flipped (t wrapped into [-pi, pi])",
     {.turn_angle = mistake_turn_no_hemisphere}},
    {"the LBS ring's angle: DQS blends the half angles, 2 atan2(w sin(t/2), (1-w) + w cos(t/2))",
     {.turn_angle = mistake_turn_lbs_form}},
    {"the half angle returned: the rotation turns by twice the quaternion's angle", {.turn_angle = mistake_turn_without_two}},
    {"w t: the blend of unit quaternions is not a linear share of the angle", {.turn_angle = mistake_turn_linear_wrapped}},
};

static const grade30_mistake skin_normal_mistakes[] = {
    {"not renormalised: a blended or inverse-transposed normal changes length", {.skin_normal = mistake_normal_not_renormalised}},
    {"no inverse transpose: the blended and per-bone methods carry n by (L^-1)^T", {.skin_normal = mistake_normal_no_inverse_transpose}},
    {"per bone as blended: per-bone sums the inverse transposes, sum w_i (S_i^-1)^T, not (sum w_i S_i)^-T",
     {.skin_normal = mistake_normal_per_bone_as_blended}},
    {"the inverse without the transpose", {.skin_normal = mistake_normal_inverse_only}},
    {"the normal carried as a point: a normal is a direction, no translation", {.skin_normal = mistake_normal_as_point}},
};

static const grade30_mistake policy_mistakes[] = {
    {"strict that divides: strict refuses a bad sum and changes nothing", {.apply_policy = mistake_policy_strict_normalises}},
    {"no weightless check: W <= 1e-6 is refused (normalize) or falls back, never divided by",
     {.apply_policy = mistake_policy_no_weightless}},
    {"the fallback keeps the other weights: the vertex follows the fallback joint alone", {.apply_policy = mistake_policy_fallback_keeps_rest}},
    {"the fallback weight on the old joint: joint[0] becomes fallback_joint", {.apply_policy = mistake_policy_fallback_old_joint}},
    {"weights within the tolerance divided too: only |W - 1| > 1e-12 is normalised", {.apply_policy = mistake_policy_always_divides}},
    {"W < 1e-6 for W <= 1e-6: a sum of exactly 1e-6 is weightless", {.apply_policy = mistake_policy_eps_strict}},
    {"the finiteness rule missing: NaN fails every comparison, so it needs its own test", {.apply_policy = mistake_policy_no_finite}},
};

static const grade30_mistake heaviest_mistakes[] = {
    {"not renormalised: the kept weights are divided by their own sum", {.keep_heaviest = mistake_heaviest_not_renormalised}},
    {"the first four kept, not the heaviest", {.keep_heaviest = mistake_heaviest_first_four}},
    {"ties by position: of equal weights the lower joint is kept first", {.keep_heaviest = mistake_heaviest_ties_by_position}},
    {"the lightest first: the packed vertex keeps the heaviest, heaviest first", {.keep_heaviest = mistake_heaviest_lightest_first}},
};

static const grade30_mistake unpack_mistakes[] = {
    {"divided by 65536: UNORM16's 1 is 65535", {.unpack_weights = mistake_unpack_65536}},
    {"the implied fourth left at 0: it is 1 minus the three stored", {.unpack_weights = mistake_unpack_no_implied}},
    {"the fourth as 1 - w0: the implied weight takes what all three leave", {.unpack_weights = mistake_unpack_from_first}},
    {"divided by 255: that is UNORM8's unit", {.unpack_weights = mistake_unpack_255}},
};

static const grade30_mistake cotan_mistakes[] = {
    {"(cot alpha + cot beta) without its 1/2", {.cotan_row = mistake_cotan_no_half}},
    {"the angle at the vertex itself: the cotangents are of the angles opposite the edge", {.cotan_row = mistake_cotan_at_centre}},
    {"L_ii = +sum: the diagonal is minus the row's sum, so L 1 = 0", {.cotan_row = mistake_cotan_diagonal_sign}},
    {"an open fan closed: a boundary vertex has n - 1 triangles, its end edges one cot alpha / 2",
     {.cotan_row = mistake_cotan_open_closed}},
};

static const grade30_mistake heat_row_mistakes[] = {
    {"H without k: H_ii = k c / d^2 when k bones tie", {.heat_row = mistake_heat_no_k}},
    {"d for d^2: the heat falls with the squared distance", {.heat_row = mistake_heat_not_squared}},
    {"p_j = 1 where k bones tie: they share it, p_j = 1/k", {.heat_row = mistake_heat_rhs_no_share}},
    {"+L for -L: the system is (-L + M H) w = M H p", {.heat_row = mistake_heat_laplacian_sign}},
    {"the heat of every bone: b_i = M H p_j(i) is 0 for a bone that is not the nearest", {.heat_row = mistake_heat_rhs_every_bone}},
};

static const grade30_mistake cor_mistakes[] = {
    {"turned about the origin: R (p - p*), the vertex turns about its own centre", {.cor_point = mistake_cor_not_about_centre}},
    {"the vertex skinned by LBS, not its centre: the centre's LBS carries the vertex", {.cor_point = mistake_cor_lbs_of_vertex}},
    {"the centre not skinned: p* moves with the joints, sum w C p*", {.cor_point = mistake_cor_centre_not_skinned}},
    {"turned by R*: the blended rotation itself turns the vertex", {.cor_point = mistake_cor_inverse}},
};

static const grade30_mistake corrective_mistakes[] = {
    {"the shape's weight left out: the delta is scaled by s, 1 only at the trained pose", {.corrective_point = mistake_shape_unscaled}},
    {"the morph target not skinned: before skinning the delta is added to p and skinned with it",
     {.corrective_point = mistake_shape_not_skinned}},
    {"after skinning without R: the delta is in the vertex's frame, so it turns with it", {.corrective_point = mistake_shape_no_rotation}},
    {"the orders swapped: before is M (p + s d), after is M p + s R d", {.corrective_point = mistake_shape_orders_swapped}},
    {"the delta skinned as a point: a delta is a direction, M's translation taken once",
     {.corrective_point = mistake_shape_moved_twice}},
};

/* exercise 22's, in the order of grade30_shader.c's slips: named when the GPU's answer is the
 * CPU's with that mistake on every case (there is no C function to call) */
static const grade30_mistake shader_mistakes[] = {
    {"the implied fourth weight left out: w3 = 1 - (w0 + w1 + w2)", {0}},
    {"p~ = (p, 0): a point carries w = 1, so the palette's translations move it", {0}},
    {"the normal not normalised: the blended 3x3 changes its length", {0}},
    {"the weights not applied: sum_i C_i p~ counts every influence fully", {0}},
    {"the normal moved like a point: a normal takes the 3x3 part only, then is normalised", {0}},
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
     "lab/ch30/README.md", "Exercise 5: the weight rules", {.check_weights = ex30_check_weights}, GRADE30_RULE, 11, GRADE30_GENERATED,
     grade30_weights_case, grade30_weights_expected, 0, MISTAKES(weights_mistakes), grade30_points_weights, grade30_draw_weights},
    {"the DQS blend with the hemisphere rule", "ex30_dqs_blend", "lab/ch30/README.md", "Exercise 6: the DQS blend",
     {.dqs_blend = ex30_dqs_blend}, GRADE30_DUALQUAT, 4, GRADE30_GENERATED, grade30_dqs_case, grade30_dqs_expected, 1e-9,
     MISTAKES(dqs_mistakes), grade30_points_dqs, grade30_draw_dqs},
    {"the normal matrix (M_3x3^-1)^T", "ex30_normal_matrix", "lab/ch30/README.md", "Exercise 7: the normal matrix",
     {.normal_matrix = ex30_normal_matrix}, GRADE30_MATRIX, 5, GRADE30_GENERATED, grade30_normal_case, grade30_normal_expected, 1e-9,
     MISTAKES(normal_mistakes), grade30_points_normal, grade30_draw_normal},
    {"the world matrices of a skeleton, parents first", "ex30_skeleton_world", "lab/ch30/lab30-gltf/README.md",
     "Exercise 8: the skeleton's world matrices", {.skeleton_world = ex30_skeleton_world}, GRADE30_VALUES, 8,
     GRADE30_GENERATED, grade30_skeleton_case, grade30_skeleton_expected, 1e-9, MISTAKES(skeleton_mistakes),
     grade30_points_skeleton, grade30_draw_skeleton, grade30_skeleton_value_name},
    {"the palette through skin.joints, C_j = G_{skin.joints[j]} IBM_j", "ex30_palette", "lab/ch30/lab30-gltf/README.md",
     "Exercise 9: the palette through skin.joints", {.palette = ex30_palette}, GRADE30_VALUES, 3, GRADE30_GENERATED,
     grade30_palette_case, grade30_palette_expected, 1e-9, MISTAKES(palette_mistakes), grade30_points_palette,
     grade30_draw_palette, grade30_matrices_value_name},
    {"the whole loop: a skeleton, a skin and a mesh (the cylinder, RiggedSimple)", "ex30_skin_mesh",
     "lab/ch30/lab30-gltf/README.md", "Exercise 10: the whole loop", {.skin_mesh = ex30_skin_mesh}, GRADE30_VALUES, 8,
     GRADE30_GENERATED, grade30_skin_mesh_case, grade30_skin_mesh_expected, 1e-9, MISTAKES(mesh_mistakes),
     grade30_points_mesh, grade30_draw_mesh, grade30_skin_mesh_value_name},
    {"the rigid transform as a unit dual quaternion, q_e = 1/2 t q_0", "ex30_dq_from_rigid", "lab/ch30/lab30-dqs/README.md",
     "Exercise 11: the rigid transform as a dual quaternion", {.dq_from_rigid = ex30_dq_from_rigid}, GRADE30_DUALQUAT, 3,
     GRADE30_GENERATED, grade30_dq_rigid_case, grade30_dq_rigid_expected, 1e-9, MISTAKES(dq_rigid_mistakes),
     grade30_points_dq_rigid, grade30_draw_dq_rigid, NULL},
    {"the normalisation b / |b_0|, refused at a zero norm", "ex30_dq_normalize", "lab/ch30/lab30-dqs/README.md",
     "Exercise 12: the normalisation", {.dq_normalize = ex30_dq_normalize}, GRADE30_VALUES, 13, GRADE30_GENERATED,
     grade30_dq_normalize_case, grade30_dq_normalize_expected, 1e-9, MISTAKES(dq_normalize_mistakes),
     grade30_points_dq_normalize, grade30_draw_dq_normalize, grade30_dq_normalize_value_name},
    {"Kavan's point transform, p' = R p + t with t = 2 q_e q_0*", "ex30_dq_transform_point", "lab/ch30/lab30-dqs/README.md",
     "Exercise 13: Kavan's point transform", {.dq_transform_point = ex30_dq_transform_point}, GRADE30_POINT, 3,
     GRADE30_GENERATED, grade30_dq_transform_case, grade30_dq_transform_expected, 1e-9, MISTAKES(dq_point_mistakes),
     grade30_points_dq_transform, grade30_draw_dq_transform, NULL},
    {"the LBS ring's turn, atan2(w sin theta, (1-w) + w cos theta)", "ex30_lbs_turn_angle", "lab/ch30/lab30-dqs/README.md",
     "Exercise 14: the LBS ring's turn", {.turn_angle = ex30_lbs_turn_angle}, GRADE30_ANGLE, 6, GRADE30_GENERATED,
     grade30_lbs_turn_case, grade30_lbs_turn_expected, 1e-12, MISTAKES(lbs_turn_mistakes), grade30_points_lbs_turn,
     grade30_draw_lbs_turn, NULL},
    {"the DQS ring's turn, 2 atan2(w sin(t/2), (1-w) + w cos(t/2))", "ex30_dqs_turn_angle", "lab/ch30/lab30-dqs/README.md",
     "Exercise 15: the DQS ring's turn", {.turn_angle = ex30_dqs_turn_angle}, GRADE30_ANGLE, 6, GRADE30_GENERATED,
     grade30_dqs_turn_case, grade30_dqs_turn_expected, 1e-12, MISTAKES(dqs_turn_mistakes), grade30_points_dqs_turn,
     grade30_draw_dqs_turn, NULL},
    {"a normal skinned three ways: rigid, blended inverse transpose, per bone", "ex30_skin_normal",
     "lab/ch30/lab30-normals/README.md", "Exercise 16: three ways to skin a normal", {.skin_normal = ex30_skin_normal},
     GRADE30_POINT, 6, GRADE30_GENERATED, grade30_normal_skin_case, grade30_normal_skin_expected, 1e-9,
     MISTAKES(skin_normal_mistakes), grade30_points_skin_normal, grade30_draw_skin_normal, NULL},
    {"the weight policies strict, normalize and fallback=J", "ex30_apply_policy", "lab/ch30/lab30-normals/README.md",
     "Exercise 17: the weight policies", {.apply_policy = ex30_apply_policy}, GRADE30_VALUES, 16, GRADE30_GENERATED,
     grade30_policy_case, grade30_policy_expected, 1e-12, MISTAKES(policy_mistakes), grade30_points_policy,
     grade30_draw_policy, grade30_policy_value_name},
    {"the four heaviest influences, renormalised", "ex30_keep_heaviest", "lab/ch30/lab30-palette/README.md",
     "Exercise 18: the four heaviest", {.keep_heaviest = ex30_keep_heaviest}, GRADE30_VALUES, 5, GRADE30_GENERATED,
     grade30_heaviest_case, grade30_heaviest_expected, 1e-12, MISTAKES(heaviest_mistakes), grade30_points_heaviest,
     grade30_draw_heaviest, grade30_heaviest_value_name},
    {"the implied last weight of the compressed vertex", "ex30_unpack_weights", "lab/ch30/lab30-palette/README.md",
     "Exercise 19: the implied last weight", {.unpack_weights = ex30_unpack_weights}, GRADE30_VALUES, 4, GRADE30_GENERATED,
     grade30_unpack_case, grade30_unpack_expected, 1e-12, MISTAKES(unpack_mistakes), grade30_points_unpack,
     grade30_draw_unpack, NULL},
    {"the cotangent Laplacian's row of a vertex", "ex30_cotan_row", "lab/ch30/lab30-weights/README.md",
     "Exercise 20: the cotangent Laplacian's row", {.cotan_row = ex30_cotan_row}, GRADE30_VALUES, 4, GRADE30_GENERATED,
     grade30_cotan_case, grade30_cotan_expected, 1e-9, MISTAKES(cotan_mistakes), grade30_points_cotan, grade30_draw_cotan,
     grade30_cotan_value_name},
    {"the heat system's row, (-L + M H) w_j = M H p_j", "ex30_heat_row", "lab/ch30/lab30-weights/README.md",
     "Exercise 21: the heat system's row", {.heat_row = ex30_heat_row}, GRADE30_VALUES, 10, GRADE30_GENERATED,
     grade30_heat_row_case, grade30_heat_row_expected, 1e-12, MISTAKES(heat_row_mistakes), grade30_points_heat_row,
     grade30_draw_heat_row, grade30_heat_row_value_name},
    {"the skinning shader: the palette in GLSL, run on the GPU", "skin() in lab/ch30/sheets/shader.glsl",
     "lab/ch30/lab30-gpu/README.md", "Exercise 22: the skinning shader", {0}, GRADE30_GLSL, 9, 0, NULL, NULL, 1e-6,
     MISTAKES(shader_mistakes), NULL, NULL, NULL},
    {"a vertex about its centre of rotation, R (p - p*) + sum w C p*", "ex30_cor_point", "lab/ch30/lab30-fixes/README.md",
     "Exercise 23: centres of rotation", {.cor_point = ex30_cor_point}, GRADE30_POINT, 2, GRADE30_GENERATED,
     grade30_cor_case, grade30_cor_expected, 1e-9, MISTAKES(cor_mistakes), grade30_points_cor, grade30_draw_cor, NULL},
    {"a corrective shape, M (p + s d) before skinning, M p + s R d after", "ex30_corrective_point",
     "lab/ch30/lab30-fixes/README.md", "Exercise 24: a corrective shape", {.corrective_point = ex30_corrective_point},
     GRADE30_POINT, 4, GRADE30_GENERATED, grade30_corrective_case, grade30_corrective_expected, 1e-9,
     MISTAKES(corrective_mistakes), grade30_points_corrective, grade30_draw_corrective, NULL},
};


