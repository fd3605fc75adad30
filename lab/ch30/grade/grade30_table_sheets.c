/* grade30_table_sheets.c - the table's entries of the sheets beside lab/ch30/exercises.c
 * (grade30_table.h): 8 to 10 the skeleton, 11 to 15 DQS, 16 and 17 normals and policies,
 * 18 and 19 the palette, 20 and 21 automatic weights, 22 the shader, 23 and 24 the
 * production fixes; each with its known mistakes (mistakes_*.c) in the chapter's words.
 * The chapter's own sheet and the ordered list: grade30_table.c. */
#include "grade30_table.h"
#include "mistakes.h"

/* The sheets' functions, weak: the grader links none of them (each sheet is a shared object
 * of its own, opened by name in the engine's grading child, src/grade/), so `sheet` is NULL
 * there; the suites link the reference solutions, and `sheet` is the reference's. */
#pragma weak ex30_apply_policy
#pragma weak ex30_cor_point
#pragma weak ex30_corrective_point
#pragma weak ex30_cotan_row
#pragma weak ex30_dq_from_rigid
#pragma weak ex30_dq_normalize
#pragma weak ex30_dq_transform_point
#pragma weak ex30_dqs_turn_angle
#pragma weak ex30_heat_row
#pragma weak ex30_keep_heaviest
#pragma weak ex30_lbs_turn_angle
#pragma weak ex30_palette
#pragma weak ex30_skeleton_world
#pragma weak ex30_skin_mesh
#pragma weak ex30_skin_normal
#pragma weak ex30_unpack_weights

/* ---- the known mistakes, each named in the chapter's words (mistakes*.c) ----------------- */

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

/* ---- the entries ---------------------------------------------------------------------- */

const grade30_entry grade30_sheet_entries[GRADE30_EXERCISE_COUNT - GRADE30_SKELETON_WORLD] = {
    {"the world matrices of a skeleton, parents first", "ex30_skeleton_world", "lab/ch30/lab30-gltf/README.md",
     "Exercise 8: the skeleton's world matrices", (grade_fn)ex30_skeleton_world, GRADE_VALUES, 8,
     GRADE30_GENERATED, grade30_skeleton_case, grade30_skeleton_expected, 1e-9, GRADE30_MISTAKES(skeleton_mistakes),
     grade30_points_skeleton, grade30_draw_skeleton, grade30_skeleton_value_name, .sheet = GRADE30_SHEET_SKELETON, .tag = GRADE30_SKELETON_WORLD, GRADE30_COMMON},
    {"the palette through skin.joints, C_j = G_{skin.joints[j]} IBM_j", "ex30_palette", "lab/ch30/lab30-gltf/README.md",
     "Exercise 9: the palette through skin.joints", (grade_fn)ex30_palette, GRADE_VALUES, 3, GRADE30_GENERATED,
     grade30_palette_case, grade30_palette_expected, 1e-9, GRADE30_MISTAKES(palette_mistakes), grade30_points_palette,
     grade30_draw_palette, grade30_matrices_value_name, .sheet = GRADE30_SHEET_SKELETON, .tag = GRADE30_PALETTE, GRADE30_COMMON},
    {"the whole loop: a skeleton, a skin and a mesh (the cylinder, RiggedSimple)", "ex30_skin_mesh",
     "lab/ch30/lab30-gltf/README.md", "Exercise 10: the whole loop", (grade_fn)ex30_skin_mesh, GRADE_VALUES, 8,
     GRADE30_GENERATED, grade30_skin_mesh_case, grade30_skin_mesh_expected, 1e-9, GRADE30_MISTAKES(mesh_mistakes),
     grade30_points_mesh, grade30_draw_mesh, grade30_skin_mesh_value_name, .sheet = GRADE30_SHEET_SKELETON, .tag = GRADE30_SKIN_MESH, GRADE30_COMMON},
    {"the rigid transform as a unit dual quaternion, q_e = 1/2 t q_0", "ex30_dq_from_rigid", "lab/ch30/lab30-dqs/README.md",
     "Exercise 11: the rigid transform as a dual quaternion", (grade_fn)ex30_dq_from_rigid, GRADE_DUALQUAT, 3,
     GRADE30_GENERATED, grade30_dq_rigid_case, grade30_dq_rigid_expected, 1e-9, GRADE30_MISTAKES(dq_rigid_mistakes),
     grade30_points_dq_rigid, grade30_draw_dq_rigid, NULL, .sheet = GRADE30_SHEET_DQS, .tag = GRADE30_DQ_FROM_RIGID, GRADE30_COMMON},
    {"the normalisation b / |b_0|, refused at a zero norm", "ex30_dq_normalize", "lab/ch30/lab30-dqs/README.md",
     "Exercise 12: the normalisation", (grade_fn)ex30_dq_normalize, GRADE_VALUES, 13, GRADE30_GENERATED,
     grade30_dq_normalize_case, grade30_dq_normalize_expected, 1e-9, GRADE30_MISTAKES(dq_normalize_mistakes),
     grade30_points_dq_normalize, grade30_draw_dq_normalize, grade30_dq_normalize_value_name, .sheet = GRADE30_SHEET_DQS, .tag = GRADE30_DQ_NORMALIZE, GRADE30_COMMON},
    {"Kavan's point transform, p' = R p + t with t = 2 q_e q_0*", "ex30_dq_transform_point", "lab/ch30/lab30-dqs/README.md",
     "Exercise 13: Kavan's point transform", (grade_fn)ex30_dq_transform_point, GRADE_POINT, 3,
     GRADE30_GENERATED, grade30_dq_transform_case, grade30_dq_transform_expected, 1e-9, GRADE30_MISTAKES(dq_point_mistakes),
     grade30_points_dq_transform, grade30_draw_dq_transform, NULL, .sheet = GRADE30_SHEET_DQS, .tag = GRADE30_DQ_TRANSFORM, GRADE30_COMMON},
    {"the LBS ring's turn, atan2(w sin theta, (1-w) + w cos theta)", "ex30_lbs_turn_angle", "lab/ch30/lab30-dqs/README.md",
     "Exercise 14: the LBS ring's turn", (grade_fn)ex30_lbs_turn_angle, GRADE_ANGLE, 6, GRADE30_GENERATED,
     grade30_lbs_turn_case, grade30_lbs_turn_expected, 1e-12, GRADE30_MISTAKES(lbs_turn_mistakes), grade30_points_lbs_turn,
     grade30_draw_lbs_turn, NULL, .sheet = GRADE30_SHEET_DQS, .tag = GRADE30_LBS_TURN, GRADE30_COMMON},
    {"the DQS ring's turn, 2 atan2(w sin(t/2), (1-w) + w cos(t/2))", "ex30_dqs_turn_angle", "lab/ch30/lab30-dqs/README.md",
     "Exercise 15: the DQS ring's turn", (grade_fn)ex30_dqs_turn_angle, GRADE_ANGLE, 6, GRADE30_GENERATED,
     grade30_dqs_turn_case, grade30_dqs_turn_expected, 1e-12, GRADE30_MISTAKES(dqs_turn_mistakes), grade30_points_dqs_turn,
     grade30_draw_dqs_turn, NULL, .sheet = GRADE30_SHEET_DQS, .tag = GRADE30_DQS_TURN, GRADE30_COMMON},
    {"a normal skinned three ways: rigid, blended inverse transpose, per bone", "ex30_skin_normal",
     "lab/ch30/lab30-normals/README.md", "Exercise 16: three ways to skin a normal", (grade_fn)ex30_skin_normal,
     GRADE_POINT, 6, GRADE30_GENERATED, grade30_normal_skin_case, grade30_normal_skin_expected, 1e-9,
     GRADE30_MISTAKES(skin_normal_mistakes), grade30_points_skin_normal, grade30_draw_skin_normal, NULL, .sheet = GRADE30_SHEET_NORMALS, .tag = GRADE30_SKIN_NORMAL, GRADE30_COMMON},
    {"the weight policies strict, normalize and fallback=J", "ex30_apply_policy", "lab/ch30/lab30-normals/README.md",
     "Exercise 17: the weight policies", (grade_fn)ex30_apply_policy, GRADE_VALUES, 16, GRADE30_GENERATED,
     grade30_policy_case, grade30_policy_expected, 1e-12, GRADE30_MISTAKES(policy_mistakes), grade30_points_policy,
     grade30_draw_policy, grade30_policy_value_name, .sheet = GRADE30_SHEET_NORMALS, .tag = GRADE30_POLICY, GRADE30_COMMON},
    {"the four heaviest influences, renormalised", "ex30_keep_heaviest", "lab/ch30/lab30-palette/README.md",
     "Exercise 18: the four heaviest", (grade_fn)ex30_keep_heaviest, GRADE_VALUES, 5, GRADE30_GENERATED,
     grade30_heaviest_case, grade30_heaviest_expected, 1e-12, GRADE30_MISTAKES(heaviest_mistakes), grade30_points_heaviest,
     grade30_draw_heaviest, grade30_heaviest_value_name, .sheet = GRADE30_SHEET_PALETTE, .tag = GRADE30_KEEP_HEAVIEST, GRADE30_COMMON},
    {"the implied last weight of the compressed vertex", "ex30_unpack_weights", "lab/ch30/lab30-palette/README.md",
     "Exercise 19: the implied last weight", (grade_fn)ex30_unpack_weights, GRADE_VALUES, 4, GRADE30_GENERATED,
     grade30_unpack_case, grade30_unpack_expected, 1e-12, GRADE30_MISTAKES(unpack_mistakes), grade30_points_unpack,
     grade30_draw_unpack, NULL, .sheet = GRADE30_SHEET_PALETTE, .tag = GRADE30_UNPACK_WEIGHTS, GRADE30_COMMON},
    {"the cotangent Laplacian's row of a vertex", "ex30_cotan_row", "lab/ch30/lab30-weights/README.md",
     "Exercise 20: the cotangent Laplacian's row", (grade_fn)ex30_cotan_row, GRADE_VALUES, 4, GRADE30_GENERATED,
     grade30_cotan_case, grade30_cotan_expected, 1e-9, GRADE30_MISTAKES(cotan_mistakes), grade30_points_cotan, grade30_draw_cotan,
     grade30_cotan_value_name, .sheet = GRADE30_SHEET_WEIGHTS, .tag = GRADE30_COTAN_ROW, GRADE30_COMMON},
    {"the heat system's row, (-L + M H) w_j = M H p_j", "ex30_heat_row", "lab/ch30/lab30-weights/README.md",
     "Exercise 21: the heat system's row", (grade_fn)ex30_heat_row, GRADE_VALUES, 10, GRADE30_GENERATED,
     grade30_heat_row_case, grade30_heat_row_expected, 1e-12, GRADE30_MISTAKES(heat_row_mistakes), grade30_points_heat_row,
     grade30_draw_heat_row, grade30_heat_row_value_name, .sheet = GRADE30_SHEET_WEIGHTS, .tag = GRADE30_HEAT_ROW, GRADE30_COMMON},
    {"the skinning shader: the palette in GLSL, run on the GPU", "skin() in lab/ch30/sheets/shader.glsl",
     "lab/ch30/lab30-gpu/README.md", "Exercise 22: the skinning shader", NULL, GRADE_ELSEWHERE, 9, 0, NULL, NULL, 1e-6,
     GRADE30_MISTAKES(shader_mistakes), NULL, NULL, NULL, .sheet = GRADE30_SHEET_SHADER, .tag = GRADE30_SHADER, GRADE30_COMMON},
    {"a vertex about its centre of rotation, R (p - p*) + sum w C p*", "ex30_cor_point", "lab/ch30/lab30-fixes/README.md",
     "Exercise 23: centres of rotation", (grade_fn)ex30_cor_point, GRADE_POINT, 2, GRADE30_GENERATED,
     grade30_cor_case, grade30_cor_expected, 1e-9, GRADE30_MISTAKES(cor_mistakes), grade30_points_cor, grade30_draw_cor, NULL, .sheet = GRADE30_SHEET_FIXES, .tag = GRADE30_COR_POINT, GRADE30_COMMON},
    {"a corrective shape, M (p + s d) before skinning, M p + s R d after", "ex30_corrective_point",
     "lab/ch30/lab30-fixes/README.md", "Exercise 24: a corrective shape", (grade_fn)ex30_corrective_point,
     GRADE_POINT, 4, GRADE30_GENERATED, grade30_corrective_case, grade30_corrective_expected, 1e-9,
     GRADE30_MISTAKES(corrective_mistakes), grade30_points_corrective, grade30_draw_corrective, NULL, .sheet = GRADE30_SHEET_FIXES, .tag = GRADE30_CORRECTIVE, GRADE30_COMMON},
};
