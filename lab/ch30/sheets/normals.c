/* normals.c - chapter 30's sheet of normals and weight policies (exercises 16 and 17,
 * taught on lab/ch30/lab30-normals/README.md#exercises-normals-and-policies).
 * exercises30.h says what each takes and returns. Then
 *
 *     make grade30 SHEET=normals */
#include <math.h>

#include "exercises30.h"

/* Rigid, blended inverse transpose, per bone; then normalise. */
vec3 ex30_skin_normal(vec3 n, const int *joint, const double *weight, int k, const mat4 *palette,
                      ex30_normal_method method)
{
    (void)joint, (void)weight, (void)k, (void)palette, (void)method;
    NOT_WRITTEN_YET();
    return n;
}

/* strict, normalize, fallback=J. */
ex30_policy_result ex30_apply_policy(int *joint, double *weight, int k, ex30_policy policy, int fallback_joint)
{
    (void)joint, (void)weight, (void)k, (void)policy, (void)fallback_joint;
    NOT_WRITTEN_YET();
    return EX30_POLICY_KEPT;
}
