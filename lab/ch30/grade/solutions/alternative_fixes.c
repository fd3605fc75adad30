/* alternative_fixes.c - a second correct answer to the sheet of the production fixes,
 * written apart from reference_fixes.c in other forms (the rotation as a matrix, the
 * blended matrix formed and applied once; the morph target's two terms skinned apart, the
 * translation once): test_grade30_make grades it correct through make grade30 SHEET=fixes. */
#include "exercises30.h"
#include "math/quat.h"

vec3 ex30_cor_point(vec3 p, vec3 centre, quat rotation, const int *joint, const double *weight, int k,
                    const mat4 *palette)
{
    mat4 r = quat_to_mat4(rotation), m = mat4_scale_by(mat4_identity(), 0);
    for (int i = 0; i < k; i++)
        m = mat4_add(m, mat4_scale_by(palette[joint[i]], weight[i]));
    vec3 turned = mat4_transform_direction(r, vec3_sub(p, centre));
    return vec3_add(turned, mat4_transform_point(m, centre));
}

vec3 ex30_corrective_point(vec3 p, vec3 delta, double s, mat4 blend, quat rotation, bool after)
{
    vec3 skinned = mat4_transform_point(blend, p);
    vec3 d = after ? mat4_transform_direction(quat_to_mat4(rotation), delta) : mat4_transform_direction(blend, delta);
    return vec3_add(skinned, vec3_scale(d, s));
}
