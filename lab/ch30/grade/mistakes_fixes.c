/* mistakes_fixes.c - the known mistakes of the sheet of the production fixes (exercises 23
 * and 24, mistakes.h), each written once, as a student would write it; where several slip
 * in one formula, the formula is written once with the slip as a parameter. */
#include <stdbool.h>

#include "math/quat.h"
#include "skin/blend.h"

#include "mistakes.h"

/* ---- 23: centres of rotation ---------------------------------------------------------------- */
typedef enum { COR_NOT_ABOUT_CENTRE, COR_LBS_OF_VERTEX, COR_CENTRE_NOT_SKINNED, COR_INVERSE } cor_slip;
static vec3 cor(cor_slip slip, vec3 p, vec3 centre, quat r, const int *joint, const double *weight, int k,
                const mat4 *palette)
{
    vec4 lbs = skin_lbs_point(slip == COR_LBS_OF_VERTEX ? p : centre, joint, weight, k, palette);
    vec3 moved = slip == COR_CENTRE_NOT_SKINNED ? centre : vec3_make(lbs.x, lbs.y, lbs.z);
    vec3 arm = slip == COR_NOT_ABOUT_CENTRE ? p : vec3_sub(p, centre);
    return vec3_add(quat_rotate(slip == COR_INVERSE ? quat_conjugate(r) : r, arm), moved);
}
#define COR_MISTAKE(name, slip)                                                                                      \
    vec3 name(vec3 p, vec3 centre, quat r, const int *joint, const double *weight, int k, const mat4 *palette) \
    {                                                                                                                \
        return cor(slip, p, centre, r, joint, weight, k, palette);                                                 \
    }
COR_MISTAKE(mistake_cor_not_about_centre, COR_NOT_ABOUT_CENTRE)
COR_MISTAKE(mistake_cor_lbs_of_vertex, COR_LBS_OF_VERTEX)
COR_MISTAKE(mistake_cor_centre_not_skinned, COR_CENTRE_NOT_SKINNED)
COR_MISTAKE(mistake_cor_inverse, COR_INVERSE)

/* ---- 24: a corrective shape ------------------------------------------------------------------- */
typedef enum { SHAPE_UNSCALED, SHAPE_NOT_SKINNED, SHAPE_NO_ROTATION, SHAPE_ORDERS_SWAPPED, SHAPE_MOVED_TWICE } shape_slip;
static vec3 shape(shape_slip slip, vec3 p, vec3 d, double s, mat4 m, quat r, bool after)
{
    if (slip == SHAPE_UNSCALED)
        s = 1;
    if (slip == SHAPE_ORDERS_SWAPPED)
        after = !after;
    if (after)
        return vec3_add(mat4_transform_point(m, p), vec3_scale(slip == SHAPE_NO_ROTATION ? d : quat_rotate(r, d), s));
    if (slip == SHAPE_NOT_SKINNED)
        return vec3_add(mat4_transform_point(m, p), vec3_scale(d, s));
    if (slip == SHAPE_MOVED_TWICE) /* each term skinned as a point: M's translation twice */
        return vec3_add(mat4_transform_point(m, p), mat4_transform_point(m, vec3_scale(d, s)));
    return mat4_transform_point(m, vec3_add(p, vec3_scale(d, s)));
}
#define SHAPE_MISTAKE(name, slip)                                                        \
    vec3 name(vec3 p, vec3 d, double s, mat4 m, quat r, bool after)                    \
    {                                                                                    \
        return shape(slip, p, d, s, m, r, after);                                        \
    }
SHAPE_MISTAKE(mistake_shape_unscaled, SHAPE_UNSCALED)
SHAPE_MISTAKE(mistake_shape_not_skinned, SHAPE_NOT_SKINNED)
SHAPE_MISTAKE(mistake_shape_no_rotation, SHAPE_NO_ROTATION)
SHAPE_MISTAKE(mistake_shape_orders_swapped, SHAPE_ORDERS_SWAPPED)
SHAPE_MISTAKE(mistake_shape_moved_twice, SHAPE_MOVED_TWICE)
