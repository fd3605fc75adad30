/* rig30_check.h - the independent path for chapter 30's rigs: closed forms written
 * without matrices, palettes or the skin module, and the measurements of skinned
 * positions that are compared with them.
 */
#ifndef RIG30_CHECK_H
#define RIG30_CHECK_H

#include "rig30.h"

/* The closed forms written at the top of rig30.h: the LBS radius ratio r'/r of a ring
 * with child weight w, and the weighted 2-D rotation of a point. */
double rig30_radius_ratio(double child_weight, double theta);
vec3 rig30_analytic_point(vec3 p, double w0, double w1, double theta);

/* The DQS twist angle phi of a ring with child weight w (closed form above), for any
 * theta: the hemisphere fix blends the child's quaternion (cos(theta/2), 0, 0,
 * sin(theta/2)) as it is when its real part is >= 0 and negated when it is < 0 (the root's
 * is 1), so the closed form takes the same sign from the same cos(theta/2): theta and
 * theta + 360 degrees give the same phi, and at an odd multiple of 180 degrees, where that
 * real part is zero up to rounding, the sign rounding gives it decides the way round. */
double rig30_dqs_twist_angle(double child_weight, double theta);
/* The LBS twist angle psi of a ring with child weight w. */
double rig30_lbs_twist_angle(double child_weight, double theta);
/* |a - b| as angles, in [0, pi]: a turn is defined up to whole turns, so -180 and +180
 * degrees are the same (0 apart) and 359 and -1 are 0 apart too. */
double rig30_angle_difference(double a, double b);

typedef struct {
    double mean, min, max;
    double vertex[RIG30_SEGMENTS];   /* each vertex's own, segment 0 first */
} rig30_ring_radius;
/* Distances from the z axis of the vertices of one ring of a cylinder layout: each one,
 * and their mean (summed, then divided once; never outside [min, max]). */
rig30_ring_radius rig30_measure_ring(const vec3 *positions, int ring);

/* The mean turn of a ring about the z axis from its bind position, in radians, from each
 * vertex's signed angle atan2(p x p', p . p') in the xy plane. NAN when the ring has
 * collapsed (a radius below 1e-9 has no direction). */
double rig30_measure_ring_angle(const vec3 *bind, const vec3 *positions, int ring);

typedef struct {
    double max_position_error;   /* |p_skinned - p_analytic| over all vertices */
    double max_radius_error;     /* | |p|_xy - analytic radius | over all vertices */
    double max_mean_radius_error; /* | ring mean - analytic radius | over all rings */
    double max_height_error;     /* |z_skinned - z_bind| */
    double max_end_ring_error;   /* end rings against quat_rotate (w = 0 and w = 1) */
} rig30_check;

/* Compares a twist pose skinned with `method` with its closed form (LBS: the weighted
 * 2-D rotation; DQS: the rotation by phi, radius kept); errors accumulate into *acc. */
void rig30_check_twist(const rig30_rig *rig, const rig30_pose *pose, skin_method method,
                       rig30_check *acc);

/* max_v |a_v - b_v| over n points: how far one set of positions is from another. */
double rig30_max_distance(const vec3 *a, const vec3 *b, int n);
/* The twist rig at `theta` under DQS, with or without the hemisphere fix (the library's
 * pose job): the middle ring's turn (*turn, radians) and how far the whole mesh moved
 * from the bind pose (*moved). */
lab_error rig30_dqs_twist(const rig30_rig *rig, double theta, bool fix, double *turn, double *moved, lab_diag *d);

/* Every ring of a pose against the closed forms of `method`. Twist: the mean radius and
 * turn beside r'/r (LBS) or 1 (DQS) and psi (LBS) or phi (DQS). Bend: each ring's radius
 * about its centre (rig30_measure_bend) beside 1 for DQS, which keeps rings rigid, and NAN
 * for LBS, which has no closed form there; no turn. */
typedef struct {
    double radius[RIG30_RINGS], radius_analytic[RIG30_RINGS];
    double angle[RIG30_RINGS], angle_analytic[RIG30_RINGS];   /* radians; NAN where none */
} rig30_ring_table;
void rig30_measure_rings(const rig30_rig *rig, const rig30_pose *pose, skin_method method,
                         rig30_ring_table *out);

/* Vertices whose child weight equals that of all four neighbours on the cylinder: there
 * the weight gradient is zero, so a normal method's only approximation is gone. */
void rig30_steady_vertices(const rig30_rig *rig, bool *out);

/* The true normal of the skinned surface p'(a, z) = sum_j w_j(a, z) C_j p(a, z), mapped by
 * `model`: the cross product of its two tangents, each carried by model's 3x3 part,
 *   dp'/da = sum_j (w_j C_j dp/da + dw_j/da C_j p),  dp'/dz = likewise with z,
 * with dp/da = (-y, x, 0), dp/dz = (0, 0, 1) exactly, and the weight gradient taken from
 * the weights of the neighbouring vertices (central differences, one-sided at the open
 * ends). This is the ground truth the normal methods are measured against; none of them
 * knows the weight gradient. */
void rig30_true_normals(const rig30_rig *rig, const mat4 *palette, mat4 model, vec3 *out);

/* Skins one ring of RIG30_SEGMENTS vertices (radius 1, z = 1) with child weight w under
 * palette {I, Rz(theta)} (the twist's C_0, C_1; for DQS signed from the quaternion) and
 * returns the ring's mean radius: the measured points of the radius-against-weight plot. */
lab_error rig30_sweep_ring_radius(skin_method method, double child_weight, double theta,
                                  double *out_radius, lab_diag *d);

/* The plot's series: rig30_sweep_ring_radius at w = k / (samples - 1), 0 <= k < samples,
 * into out_measured[k], and the closed form (LBS r'/r, DQS 1) into out_analytic[k]. */
lab_error rig30_sweep_radius(skin_method method, double theta, int samples, double *out_measured,
                             double *out_analytic, lab_diag *d);

/* What a bend does to the elbow, measured on the skinned positions. */
typedef struct {
    double inner_min_distance;   /* inner side (bind y < 0): min |p' - joint|; 1 at bind */
    double outer_max_bulge;      /* outer side (bind y > 0): max dist(p', bones) - radius */
    double ring_radius[RIG30_RINGS]; /* each ring's mean distance from its own centre */
} rig30_bend_metrics;

/* The bent axis is the two bones as segments: root (0,0,0)-(0,0,1), child from the joint
 * (0,0,1) along the child's rotated z axis for 1 unit. A ring's cross-section radius is
 * taken about its centroid, the point where the bent axis passes through it. */
void rig30_measure_bend(const rig30_rig *rig, const rig30_pose *pose, rig30_bend_metrics *out);

#endif
