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

#endif
