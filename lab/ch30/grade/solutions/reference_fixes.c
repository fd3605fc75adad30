/* reference_fixes.c - one correct answer to the sheet of the production fixes
 * (lab/ch30/sheets/fixes.c, exercises 23 and 24), for the grader's tests and for a student
 * who wants to compare after trying:
 * make grade30 SHEET=fixes EXERCISES=lab/ch30/grade/solutions/reference_fixes.c exits 0. Each
 * formula in its own lines, as a student would write it. */
#include "exercises30.h"
#include "math/quat.h"

/* 23: the centre skinned by LBS, the rest turned about it */
vec3 ex30_cor_point(vec3 p, vec3 centre, quat rotation, const int *joint, const double *weight, int k,
                    const mat4 *palette)
{
    vec4 lbs = {0, 0, 0, 0};
    for (int i = 0; i < k; i++)
        lbs = vec4_add(lbs, vec4_scale(mat4_mul_vec4(palette[joint[i]], vec4_point(centre)), weight[i]));
    return vec3_add(quat_rotate(rotation, vec3_sub(p, centre)), vec3_make(lbs.x, lbs.y, lbs.z));
}

/* 24: the morph target before the skin, or the delta turned by R after it */
vec3 ex30_corrective_point(vec3 p, vec3 delta, double s, mat4 blend, quat rotation, bool after)
{
    if (after)
        return vec3_add(mat4_transform_point(blend, p), vec3_scale(quat_rotate(rotation, delta), s));
    return mat4_transform_point(blend, vec3_add(p, vec3_scale(delta, s)));
}
