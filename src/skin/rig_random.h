/* rig_random.h - a deterministic random rig, for what the chapter's two-joint cylinder
 * cannot show: a skeleton of many joints and vertices with several influences each.
 *
 * The palette: joint_count rigid transforms with moderate rotations (axis random, angle
 * in [-1, 1] rad) and translations in [0, 1)^3, as dual quaternions and as the same
 * matrices. The mesh: points in [-1, 1)^3 with the normal +x, and K influences each on
 * random joints, weights 0.05 + [0, 1) normalised to sum 1. Everything comes from one
 * 64-bit LCG seeded by the caller, so the same seed gives the same rig on every machine.
 */
#ifndef RIG_RANDOM_H
#define RIG_RANDOM_H

#include "math/dualquat.h"
#include "skin/skin.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    unsigned long long state;
} rig_random_lcg;

/* A double in [0, 1). */
double rig_random_uniform(rig_random_lcg *g);

/* joint_count entries of each (either may be NULL). */
void rig_random_palette(rig_random_lcg *g, int joint_count, mat4 *skin, dualquat *dq);

typedef struct {
    int vertex_count, joint_count, influences;
    vec3 *positions, *normals;
    skin_influences in;
    mat4 *skin;
    dualquat *dq;
} rig_random;

/* A whole rig: the palette first, then the vertices. */
lab_error rig_random_build(int vertex_count, int joint_count, int influences, unsigned long long seed,
                           rig_random *out, lab_diag *d);
void rig_random_free(rig_random *r);

#ifdef __cplusplus
}
#endif

#endif
