/* grade30_cases_fixes.c - the cases of the sheet of the production fixes (grade30_table.h):
 * 23 a vertex moved about its centre of rotation, 24 a corrective shape before and after
 * skinning. The lab's answers from the library (quat_rotate, skin_lbs_point,
 * mat4_transform_point): the two lines lab30-fixes writes in fixes_cor and
 * fixes_corrective. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "math/linalg.h"
#include "math/quat.h"
#include "skin/blend.h"

#include "grade30_random.h"
#include "grade30_table.h"

/* A rigid palette of n matrices (the skin matrices a rig's joints give), words aside. */
static void palette_of(rng *r, grade30_case *c, int n)
{
    char ignored[200] = "";
    c->palette_count = n;
    for (int j = 0; j < n; j++)
        c->palette[j] = rigid(r, ignored, sizeof ignored, "C");
}

/* ---- 23. centres of rotation --------------------------------------------------------------- */

void grade30_cor_case(int i, uint64_t seed, grade30_case *c)
{
    grade30_case_clear(c);
    if (i < 2) { /* the twist at 180: the middle ring's vertex and its centre on the axis */
        snprintf(c->what, sizeof c->what, "%s",
                 i == 0 ? "the twist at 180 deg, the middle ring (w = 1/2): p = (1, 0, 1), p* = (0, 0, 1), R = Rz(90)"
                        : "the twist at 180 deg, ring 2 (w = 1/4): p = (0, 1, 0.5), p* = (0, 0, 0.5), R = Rz(45)");
        c->p = i == 0 ? vec3_make(1, 0, 1) : vec3_make(0, 1, 0.5);
        c->centre = vec3_make(0, 0, c->p.z);
        c->rotation = quat_from_axis_angle(vec3_make(0, 0, 1), DEG(i == 0 ? 90 : 45));
        c->k = 2, c->palette_count = 2, c->joint[0] = 0, c->joint[1] = 1;
        c->weight[1] = i == 0 ? 0.5 : 0.25, c->weight[0] = 1 - c->weight[1];
        c->palette[0] = mat4_identity(), c->palette[1] = mat4_rotate_z(DEG(180));
        return;
    }
    rng r = stream(seed, GRADE30_COR_POINT, i);
    palette_of(&r, c, 2 + below(&r, GRADE30_MAX_PALETTE - 1));
    c->k = 1 + below(&r, c->palette_count);
    double total = 0;
    for (int j = 0; j < c->k; j++)
        c->joint[j] = below(&r, c->palette_count), total += (c->weight[j] = uniform(&r, 0.05, 1));
    for (int j = 0; j < c->k; j++)
        c->weight[j] /= total;
    vec3 ax;
    double deg;
    c->rotation = rotation(&r, &ax, &deg);
    c->p = offset(&r, 2), c->centre = offset(&r, 2);
    char d[200];
    snprintf(d, sizeof d, "p = (%.3g, %.3g, %.3g), p* = (%.3g, %.3g, %.3g), R %.4g deg, %d of %d matrices", c->p.x, c->p.y,
             c->p.z, c->centre.x, c->centre.y, c->centre.z, deg, c->k, c->palette_count);
    words(c, d, seed);
}

grade30_answer grade30_cor_expected(const grade30_case *c)
{
    vec4 lbs = skin_lbs_point(c->centre, c->joint, c->weight, c->k, c->palette);
    return grade30_answer_point(vec3_add(quat_rotate(c->rotation, vec3_sub(c->p, c->centre)), vec3_make(lbs.x, lbs.y, lbs.z)));
}

/* ---- 24. a corrective shape ---------------------------------------------------------------- */

void grade30_corrective_case(int i, uint64_t seed, grade30_case *c)
{
    grade30_case_clear(c);
    if (i < 4) { /* the twist's middle ring at 180 deg: M squashes x, R turns by 90 */
        static const char *const what[] = {
            "before skinning, s = 1 (the trained pose): p = (1, 0, 1), d = (0, 1, 0), M the middle ring's blend at 180",
            "after skinning, s = 1: the delta turned by R = Rz(90)",
            "after skinning, s = 7/6 (the twist at 210): a weight above 1",
            "before skinning, s = -0.5: a weight below 0",
        };
        snprintf(c->what, sizeof c->what, "%s", what[i]);
        c->p = vec3_make(1, 0, 1), c->delta = vec3_make(0, 1, 0.2);
        c->a = mat4_add(mat4_scale_by(mat4_identity(), 0.5), mat4_scale_by(mat4_rotate_z(DEG(180)), 0.5));
        c->a.m[3][3] = 1, c->a.m[0][3] = 0.25; /* and moved, so that a translation taken twice shows */
        c->rotation = quat_from_axis_angle(vec3_make(0, 0, 1), DEG(90));
        c->after = i == 1 || i == 2, c->s = i == 2 ? 7.0 / 6 : i == 3 ? -0.5 : 1;
        return;
    }
    rng r = stream(seed, GRADE30_CORRECTIVE, i);
    char ignored[200] = "";
    vec3 sc = scales(&r), ax;
    double deg;
    c->a = mat4_mul(rigid(&r, ignored, sizeof ignored, "M"), mat4_scale(sc.x, sc.y, sc.z));
    c->rotation = rotation(&r, &ax, &deg);
    c->p = offset(&r, 2), c->delta = offset(&r, 0.5), c->s = uniform(&r, -1, 2), c->after = below(&r, 2);
    char d[200];
    snprintf(d, sizeof d, "%s skinning, s = %.4g, p = (%.3g, %.3g, %.3g), d = (%.3g, %.3g, %.3g), R %.4g deg",
             c->after ? "after" : "before", c->s, c->p.x, c->p.y, c->p.z, c->delta.x, c->delta.y, c->delta.z, deg);
    words(c, d, seed);
}

grade30_answer grade30_corrective_expected(const grade30_case *c)
{
    vec3 p = c->after ? vec3_add(mat4_transform_point(c->a, c->p), vec3_scale(quat_rotate(c->rotation, c->delta), c->s))
                      : mat4_transform_point(c->a, vec3_add(c->p, vec3_scale(c->delta, c->s)));
    return grade30_answer_point(p);
}
