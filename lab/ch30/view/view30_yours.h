/* view30_yours.h - the student's drawings in the window: the sheet's exercises for the
 * selected method skinning the cylinder's twist (view30_yours.c), and the sheet's whole
 * loop over an asset playing (view30_yours_asset.c); each in the grader engine's limited
 * child, from the shared object view30_sheet.h built, so that a crash or a loop ends the
 * child, never the window. */
#ifndef VIEW30_YOURS_H
#define VIEW30_YOURS_H

#include "view30_asset.h"
#include "view30_scene.h"
#include "view30_sheet.h"

/* The twist at the state (its angle, its method, its weights' rig) by the sheet's
 * exercises for the method, in a child process stopped after VIEW30_SHEET_DEADLINE_S:
 * s->positions, s->how (which exercises drew it, or that the sheet has none for the
 * method), or s->status says why none:
 *   LBS        exercises 1 to 3 (the world matrix, the skin matrix, the blend), or 10 (the
 *              whole loop over the rig as one glTF skin), or 16 (the lab's LBS positions,
 *              s->shaded by the student's skinned normals in s->normals);
 *   DQS        exercise 6 (the blend; the lab normalises and moves the point), or 11 to 13
 *              (each joint's dual quaternion, the normalisation, the transform; the lab's
 *              blend);
 *   CoR        exercise 23, on the lab's centres and blended rotations;
 *   corrective exercise 24, on the lab's deltas, blended matrices and rotations;
 *   twist joints: no exercise. */
void view30_sheet_skin(const view30_sheet *w, const view30_scene *scene, const view30_state *st, view30_student *s);
/* An asset's skinned parts at time t by the sheet's whole loop (exercise 10, in the same
 * limited child): a->yours, and a->yours_words ("by exercise 10", or why not: the sheet
 * has none, not written yet, the asset outside the exercise's limits of 16 nodes, 16
 * joints, 240 vertices and four influences, a crash, a loop). */
void view30_sheet_skin_asset(const view30_sheet *w, view30_asset *a, double t);

#endif
