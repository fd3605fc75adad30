/* cut.h - automatic weights cut to what an engine keeps: each vertex's K heaviest weights.
 *
 * Bone heat and bounded biharmonic weights (heat.h, bbw.h) give a vertex a weight for
 * every joint; a vertex format keeps K of them (glTF: 4 per JOINTS_n / WEIGHTS_n set).
 *
 *     double w[J] = {...}, kept[J];
 *     int nonzero = weights_cut(w, J, 4, kept);   kept: the 4 heaviest, summing to 1
 */
#ifndef WEIGHTS_CUT_H
#define WEIGHTS_CUT_H

#ifdef __cplusplus
extern "C" {
#endif

/* The K heaviest of one vertex's J weights (ties: the lower joint), divided by their sum,
 * into out (J entries, dense); the others 0; out all 0 when no weight is above 0. Returns
 * how many weights were non-zero before the cut (more than K: the cut changed the vertex). */
int weights_cut(const double *w, int J, int K, double *out);

#ifdef __cplusplus
}
#endif

#endif
