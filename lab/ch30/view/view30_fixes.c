/* view30_fixes.c - the fixes as lab30-fixes writes them (view30_fixes.h): the program's file
 * compiled in, its main renamed, and its three fixes handed on unchanged. */
#define main lab30_fixes_main
#include "lab30-fixes/lab30-fixes.c"
#undef main

#include "view30_fixes.h"

lab_error view30_fix_twist_joints(const rig30_rig *twist, int k, double theta, vec3 *out, double *closed_error,
                                  lab_diag *d)
{
    return fixes_twist_joints(twist, k, theta, out, closed_error, d);
}

lab_error view30_fix_corrective(const rig30_rig *rig, rig30_order order, const vec3 *deltas, double theta,
                                vec3 *out, lab_diag *d)
{
    return fixes_corrective(rig, order, deltas, theta, out, d);
}

lab_error view30_fix_cor(const rig30_rig *rig, const vec3 *centres, double theta, vec3 *out, lab_diag *d)
{
    return fixes_cor(rig, centres, theta, out, d);
}
