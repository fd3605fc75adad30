/* skin.h - skinning, the manual: influences, the palette and the blends, in three modules.
 *
 * Chapter 30's formulas:
 *   skin matrix      C_j = G_j B_j^-1       (current world times inverse bind)
 *   LBS              p~' = sum_j w_j C_j p~  with w_j >= 0, sum_j w_j = 1
 * where p~ = (x, y, z, 1). At the bind pose G_j = B_j, every C_j = I and p' = p.
 * DQS (Kavan et al. 2007) blends the same palette as dual quaternions instead:
 *   p' = q^(p) with q^ = sum_j w_j q^_j / |sum_j w_j q_j0|   (see dualquat.h)
 * which needs rigid C_j and never shrinks a ring, but bulges at bends.
 *
 * One influence model for every program: each vertex has K influences (palette slot,
 * weight), K given by the data: 2 in chapter 30, 4 in the engine format (packed.h), four
 * per JOINTS_n / WEIGHTS_n set in glTF. A slot indexes the palette (the skin's joint
 * list), not a scene node. Validation is strict: weights finite, non-negative, summing to
 * 1 within SKIN_WEIGHT_TOLERANCE, every slot in range even when its weight is zero.
 * Nothing is normalised behind the caller's back: a silent fix would hide the export or
 * indexing error that produced the bad data. The one LBS blend and the one DQS blend (blend.h)
 * serve the chapter path, the glTF sampler and the palette lab's reference; the float
 * kernels (fastskin.h) are their fast twin and are tested against them.
 *
 * The three modules, one topic each:
 *   skin/influences.h  the influence model, strict validation, weight policies
 *   skin/blend.h       the one LBS and the one DQS blend, skin_deform over a mesh
 *   skin/pose.h        the one pose function (locals -> world -> palette) and the pose job
 * This header includes all three.
 */
#ifndef SKIN_H
#define SKIN_H

#include "skin/blend.h"
#include "skin/influences.h"
#include "skin/pose.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif
