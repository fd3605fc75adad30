/* fixes.c - chapter 30's sheet of the production fixes (exercises 23 and 24, taught on
 * lab/ch30/lab30-fixes/README.md#exercises-the-fixes): a vertex moved about its centre of
 * rotation, and a corrective shape before and after skinning. exercises30.h says what each
 * takes and returns. Then
 *
 *     make grade30 SHEET=fixes */
#include "exercises30.h"
#include "math/quat.h"

/* p' = R (p - p*) + sum_i w_i C_i p*~ */
vec3 ex30_cor_point(vec3 p, vec3 centre, quat rotation, const int *joint, const double *weight, int k,
                    const mat4 *palette)
{
    (void)centre, (void)rotation, (void)joint, (void)weight, (void)k, (void)palette;
    NOT_WRITTEN_YET();
    return p;
}

/* before: p' = M (p + s d); after: p' = M p + s R d */
vec3 ex30_corrective_point(vec3 p, vec3 delta, double s, mat4 blend, quat rotation, bool after)
{
    (void)delta, (void)s, (void)blend, (void)rotation, (void)after;
    NOT_WRITTEN_YET();
    return p;
}
