/* fixes30_prepare.c - what two of lab30-fixes' methods are prepared from before any pose
 * (see fixes30.h): the corrective shapes trained in both orders (rig30_fixes.h), and the
 * centres of rotation precomputed, with what that cost. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/bytes.h"
#include "base/diag.h"
#include "base/timer.h"
#include "math/dualquat.h"
#include "math/quat.h"
#include "gltf/gltf.h"
#include "math/linalg.h"
#include "program/output.h"
#include "mesh/scene.h"
#include "skin/blend.h"
#include "skin/influences.h"
#include "skin/pose.h"
#include "fixes30.h"
#include "rig30.h"
#include "rig30_check.h"
#include "rig30_fixes.h"
#include "rig30_gltf.h"

/* The corrective shape trained at each rig's trained pose, in both orders: deltas[order][rig];
 * where the blended matrix is singular no delta before skinning reaches the target. */
lab_error fixes30_train_corrective(const rig30_rig rigs[2], vec3 *deltas[2][2], bool *unreachable[2],
                                   int *unreachable_count, lab_diag *d)
{
    int n = rigs[RIG30_TWIST].bind.vertex_count;
    for (int k = 0; k < 2; k++) {
        unreachable[k] = malloc(sizeof(bool) * (size_t)n);
        for (int order = 0; order < 2; order++)
            deltas[order][k] = malloc(sizeof(vec3) * (size_t)n);
        if (!deltas[0][k] || !deltas[1][k] || !unreachable[k])
            return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "fixes", "%d vertices", n);
        /* trained once, in both orders */
        lab_error e = rig30_corrective_deltas(&rigs[k], FIXES30_BEFORE_SKINNING, deltas[0][k], unreachable[k], d);
        if (e == LAB_OK)
            e = rig30_corrective_deltas(&rigs[k], FIXES30_AFTER_SKINNING, deltas[1][k], NULL, d);
        if (e != LAB_OK)
            return e;
        for (int v = 0; v < n; v++)
            *unreachable_count += unreachable[k][v];
    }
    return LAB_OK;
}

/* Each rig's centres of rotation, with what the precomputation cost: the similarity
 * evaluations, those above zero, and the time (reported, never evidence). */
lab_error fixes30_precompute_centres(const rig30_rig rigs[2], vec3 *centres[2], long *evaluations, long *contributing,
                                     double *seconds, lab_diag *d)
{
    int n = rigs[RIG30_TWIST].bind.vertex_count;
    for (int k = 0; k < 2; k++)
        if (!(centres[k] = malloc(sizeof(vec3) * (size_t)n)))
            return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "fixes", "%d vertices", n);
    double t0 = timer_seconds();
    for (int k = 0; k < 2; k++) {
        *contributing += rig30_cor_centres(&rigs[k], centres[k]);
        *evaluations += (long)rigs[k].bind.vertex_count * rigs[k].bind.triangle_count;
    }
    *seconds = timer_seconds() - t0;
    return LAB_OK;
}
