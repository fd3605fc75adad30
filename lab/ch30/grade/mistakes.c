/* mistakes.c - the formulas several exercises' known mistakes share (mistakes.h), each
 * written once with the slip as a parameter: the skeleton's loop (8, 10), the palette (9,
 * 10), the DQS ring's angle (14, 15). Each exercise's own mistakes are in its file. */
#include <math.h>
#include <stdbool.h>

#include "math/quat.h"

#include "mistakes.h"

int mistake_skeleton(skeleton_slip slip, int n, const int *parent, const mat4 *local, mat4 *world)
{
    int last_bad = -1;
    for (int i = 0; i < n; i++) {
        int p = parent[i];
        bool breaks = slip == SKELETON_SELF_ALLOWED ? p < -1 || p > i : p < -1 || p >= i;
        if (breaks && slip == SKELETON_LAST_BAD) { /* every node checked, the last one kept */
            last_bad = i;
            continue;
        }
        if (breaks && slip != SKELETON_NO_RULE)
            return i;
        if (p < 0 || p >= n) /* no rule: a parent out of range taken as a root */
            world[i] = slip == SKELETON_ROOT_IDENTITY ? mat4_identity() : local[i];
        else if (slip == SKELETON_L_G)
            world[i] = mat4_mul(local[i], world[p]);
        else if (slip == SKELETON_PARENT_LOCAL)
            world[i] = mat4_mul(local[p], local[i]);
        else
            world[i] = mat4_mul(world[p], local[i]);
    }
    return slip == SKELETON_LAST_BAD ? last_bad : slip == SKELETON_ZERO_FOR_VALID ? 0 : -1;
}

/* The general inverse of an affine matrix: [A^-1, -A^-1 t]. */
mat4 mistake_affine_inverse(mat4 m)
{
    mat4 it = mat4_identity();
    (void)mat4_linear_inverse_transpose(m, &it, "inverse bind", NULL);
    mat4 inv = mat4_transpose(it);
    vec3 t = mat4_transform_direction(inv, vec3_make(m.m[0][3], m.m[1][3], m.m[2][3]));
    inv.m[0][3] = -t.x, inv.m[1][3] = -t.y, inv.m[2][3] = -t.z;
    inv.m[3][0] = inv.m[3][1] = inv.m[3][2] = 0, inv.m[3][3] = 1;
    return inv;
}
void mistake_palette(palette_slip slip, int count, const int *skin_joints, const mat4 *world, const mat4 *ibm, mat4 *out)
{
    for (int j = 0; j < count; j++) {
        mat4 g = world[slip == PALETTE_SLOT_AS_NODE ? j : skin_joints[j]], b = ibm ? ibm[j] : mat4_identity();
        out[j] = slip == PALETTE_IBM_FIRST      ? mat4_mul(b, g)
                 : slip == PALETTE_NO_IBM       ? g
                 : slip == PALETTE_IBM_INVERTED ? mat4_mul(g, mistake_affine_inverse(b))
                                                : mat4_mul(g, b);
    }
}

quat mistake_scaled(quat q, double s) { return (quat){q.w * s, q.x * s, q.y * s, q.z * s}; }
/* the DQS ring's angle, with or without its hemisphere rule */
double mistake_dqs_angle(bool hemisphere, double w, double theta)
{
    double c = cos(theta / 2), s = sin(theta / 2);
    if (hemisphere && c < 0)
        c = -c, s = -s;
    return 2 * atan2(w * s, (1 - w) + w * c);
}
