/* mistakes.h - the known mistakes of chapter 30's exercises (mistakes.c), each a function
 * of its exercise's signature written as a student would write it. The grader's table
 * (grade30_table.c) names each one and compares a student's answers with its answers;
 * test_grade30 puts each in place of the reference and expects the grader to name it. */
#ifndef MISTAKES30_H
#define MISTAKES30_H

#include "exercises30.h"

/* 1 */
mat4 mistake_l_g(mat4 parent_world, mat4 local);
mat4 mistake_local_alone(mat4 parent_world, mat4 local);
mat4 mistake_parent_alone(mat4 parent_world, mat4 local);
mat4 mistake_translations_added(mat4 parent_world, mat4 local);
/* 2 */
mat4 mistake_binv_g(mat4 world, mat4 inverse_bind);
mat4 mistake_no_inverse_bind(mat4 world, mat4 inverse_bind);
mat4 mistake_bind_for_inverse(mat4 world, mat4 inverse_bind);
mat4 mistake_inverse_bind_linear_only(mat4 world, mat4 inverse_bind);
/* 3 */
vec3 mistake_weights_not_applied(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette);
vec3 mistake_weights_twice(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette);
vec3 mistake_divides_by_w(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette);
vec3 mistake_weights_swapped(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette);
vec3 mistake_palette_by_position(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette);
vec3 mistake_last_influence_dropped(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette);
vec3 mistake_point_as_direction(vec3 p, const int *joint, const double *weight, int k, const mat4 *palette);
/* 4 */
double mistake_sin_not_squared(double w, double theta);
double mistake_full_angle(double w, double theta);
double mistake_degrees(double w, double theta);
double mistake_ratio_squared(double w, double theta);
double mistake_middle_ring_form(double w, double theta);
double mistake_without_four(double w, double theta);
/* 5 */
ex30_weights mistake_normalises(const double *weight, int k);
ex30_weights mistake_no_sign_rule(const double *weight, int k);
ex30_weights mistake_no_finite_rule(const double *weight, int k);
ex30_weights mistake_one_sided_tolerance(const double *weight, int k);
ex30_weights mistake_exact_sum(const double *weight, int k);
ex30_weights mistake_sum_first(const double *weight, int k);
ex30_weights mistake_negative_zero(const double *weight, int k);
ex30_weights mistake_none_valid(const double *weight, int k);
/* 6 */
dualquat mistake_no_hemisphere(const dualquat *q, const double *weight, int k);
dualquat mistake_flip_against_first(const dualquat *q, const double *weight, int k);
dualquat mistake_pivot_last_of_equals(const dualquat *q, const double *weight, int k);
dualquat mistake_hemisphere_by_w(const dualquat *q, const double *weight, int k);
dualquat mistake_hemisphere_by_dual(const dualquat *q, const double *weight, int k);
dualquat mistake_flip_real_only(const dualquat *q, const double *weight, int k);
dualquat mistake_no_dual_part(const dualquat *q, const double *weight, int k);
dualquat mistake_normalised_already(const dualquat *q, const double *weight, int k);
dualquat mistake_flip_at_zero(const dualquat *q, const double *weight, int k);
/* 7 */
mat4 mistake_transpose(mat4 m);
mat4 mistake_inverse_only(mat4 m);
mat4 mistake_m_itself(mat4 m);
mat4 mistake_linear_part(mat4 m);
mat4 mistake_cofactor_only(mat4 m);
mat4 mistake_translation_kept(mat4 m);
/* 8 to 15 (mistakes_skeleton.c) and 16 to 21 (mistakes_weights.c) */
int mistake_skeleton_no_rule(int n, const int *p, const mat4 *l, mat4 *w);
int mistake_skeleton_l_g(int n, const int *p, const mat4 *l, mat4 *w);
int mistake_skeleton_root_identity(int n, const int *p, const mat4 *l, mat4 *w);
int mistake_skeleton_parent_local(int n, const int *p, const mat4 *l, mat4 *w);
int mistake_skeleton_self_allowed(int n, const int *p, const mat4 *l, mat4 *w);
int mistake_skeleton_last_bad(int n, const int *p, const mat4 *l, mat4 *w);
int mistake_skeleton_zero_for_valid(int n, const int *p, const mat4 *l, mat4 *w);
void mistake_palette_slot_as_node(int n, const int *s, const mat4 *w, const mat4 *b, mat4 *o);
void mistake_palette_ibm_first(int n, const int *s, const mat4 *w, const mat4 *b, mat4 *o);
void mistake_palette_no_ibm(int n, const int *s, const mat4 *w, const mat4 *b, mat4 *o);
void mistake_palette_ibm_inverted(int n, const int *s, const mat4 *w, const mat4 *b, mat4 *o);
void mistake_mesh_joints_as_nodes(const ex30_skin *s, vec3 *o);
void mistake_mesh_no_hierarchy(const ex30_skin *s, vec3 *o);
void mistake_mesh_no_inverse_bind(const ex30_skin *s, vec3 *o);
void mistake_mesh_first_influence(const ex30_skin *s, vec3 *o);
dualquat mistake_dq_no_half(quat q, vec3 t);
dualquat mistake_dq_q0_t(quat q, vec3 t);
dualquat mistake_dq_no_q0(quat q, vec3 t);
dualquat mistake_dq_conjugate(quat q, vec3 t);
bool mistake_norm_eight(dualquat b, dualquat *o);
bool mistake_norm_real_only(dualquat b, dualquat *o);
bool mistake_norm_no_refusal(dualquat b, dualquat *o);
bool mistake_norm_squared(dualquat b, dualquat *o);
bool mistake_norm_refusal_writes(dualquat b, dualquat *o);
bool mistake_norm_nan_passes(dualquat b, dualquat *o);
bool mistake_norm_at_threshold(dualquat b, dualquat *o);
bool mistake_norm_dual_judged(dualquat b, dualquat *o);
vec3 mistake_point_no_translation(dualquat q, vec3 p);
vec3 mistake_point_no_two(dualquat q, vec3 p);
vec3 mistake_point_order(dualquat q, vec3 p);
vec3 mistake_point_conjugate(dualquat q, vec3 p);
vec3 mistake_point_move_first(dualquat q, vec3 p);
double mistake_turn_linear(double w, double theta);
double mistake_turn_atan(double w, double theta);
double mistake_turn_degrees(double w, double theta);
double mistake_turn_weights_swapped(double w, double theta);
double mistake_turn_dqs_form(double w, double theta);
double mistake_turn_no_hemisphere(double w, double theta);
double mistake_turn_lbs_form(double w, double theta);
double mistake_turn_without_two(double w, double theta);
double mistake_turn_linear_wrapped(double w, double theta);
vec3 mistake_normal_not_renormalised(vec3 n, const int *joint, const double *weight, int k, const mat4 *palette, ex30_normal_method method);
vec3 mistake_normal_no_inverse_transpose(vec3 n, const int *joint, const double *weight, int k, const mat4 *palette, ex30_normal_method method);
vec3 mistake_normal_per_bone_as_blended(vec3 n, const int *joint, const double *weight, int k, const mat4 *palette, ex30_normal_method method);
vec3 mistake_normal_inverse_only(vec3 n, const int *joint, const double *weight, int k, const mat4 *palette, ex30_normal_method method);
vec3 mistake_normal_as_point(vec3 n, const int *joint, const double *weight, int k, const mat4 *palette, ex30_normal_method method);
ex30_policy_result mistake_policy_strict_normalises(int *joint, double *weight, int k, ex30_policy p, int fallback_joint);
ex30_policy_result mistake_policy_no_weightless(int *joint, double *weight, int k, ex30_policy p, int fallback_joint);
ex30_policy_result mistake_policy_fallback_keeps_rest(int *joint, double *weight, int k, ex30_policy p, int fallback_joint);
ex30_policy_result mistake_policy_fallback_old_joint(int *joint, double *weight, int k, ex30_policy p, int fallback_joint);
ex30_policy_result mistake_policy_always_divides(int *joint, double *weight, int k, ex30_policy p, int fallback_joint);
ex30_policy_result mistake_policy_eps_strict(int *joint, double *weight, int k, ex30_policy p, int fallback_joint);
ex30_policy_result mistake_policy_no_finite(int *joint, double *weight, int k, ex30_policy p, int fallback_joint);
int mistake_heaviest_not_renormalised(const int *joint, const double *weight, int k, int *out_joint, double *out_weight);
int mistake_heaviest_first_four(const int *joint, const double *weight, int k, int *out_joint, double *out_weight);
int mistake_heaviest_ties_by_position(const int *joint, const double *weight, int k, int *out_joint, double *out_weight);
int mistake_heaviest_lightest_first(const int *joint, const double *weight, int k, int *out_joint, double *out_weight);
void mistake_cotan_no_half(vec3 center, const vec3 *ring, int n, bool closed, double *row);
void mistake_cotan_at_centre(vec3 center, const vec3 *ring, int n, bool closed, double *row);
void mistake_cotan_diagonal_sign(vec3 center, const vec3 *ring, int n, bool closed, double *row);
void mistake_cotan_open_closed(vec3 center, const vec3 *ring, int n, bool closed, double *row);
void mistake_heat_no_k(double l, double area, double d, int k, bool nearest, double c, double *diagonal, double *rhs);
void mistake_heat_not_squared(double l, double area, double d, int k, bool nearest, double c, double *diagonal, double *rhs);
void mistake_heat_rhs_no_share(double l, double area, double d, int k, bool nearest, double c, double *diagonal, double *rhs);
void mistake_heat_laplacian_sign(double l, double area, double d, int k, bool nearest, double c, double *diagonal, double *rhs);
void mistake_heat_rhs_every_bone(double l, double area, double d, int k, bool nearest, double c, double *diagonal, double *rhs);
void mistake_unpack_65536(const unsigned short s[3], double w[4]);
void mistake_unpack_no_implied(const unsigned short s[3], double w[4]);
void mistake_unpack_from_first(const unsigned short s[3], double w[4]);
void mistake_unpack_255(const unsigned short s[3], double w[4]);
/* 23, 24 (mistakes_fixes.c) */
vec3 mistake_cor_not_about_centre(vec3 p, vec3 centre, quat r, const int *joint, const double *weight, int k, const mat4 *palette);
vec3 mistake_cor_lbs_of_vertex(vec3 p, vec3 centre, quat r, const int *joint, const double *weight, int k, const mat4 *palette);
vec3 mistake_cor_centre_not_skinned(vec3 p, vec3 centre, quat r, const int *joint, const double *weight, int k, const mat4 *palette);
vec3 mistake_cor_inverse(vec3 p, vec3 centre, quat r, const int *joint, const double *weight, int k, const mat4 *palette);
vec3 mistake_shape_unscaled(vec3 p, vec3 d, double s, mat4 m, quat r, bool after);
vec3 mistake_shape_not_skinned(vec3 p, vec3 d, double s, mat4 m, quat r, bool after);
vec3 mistake_shape_no_rotation(vec3 p, vec3 d, double s, mat4 m, quat r, bool after);
vec3 mistake_shape_orders_swapped(vec3 p, vec3 d, double s, mat4 m, quat r, bool after);
vec3 mistake_shape_moved_twice(vec3 p, vec3 d, double s, mat4 m, quat r, bool after);

#endif
