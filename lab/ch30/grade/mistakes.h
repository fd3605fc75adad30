/* mistakes.h - the formulas several exercises' known mistakes share (mistakes.c), each with
 * its slip as a parameter; the named mistakes themselves are in each exercise's file. */
#ifndef MISTAKES30_H
#define MISTAKES30_H

#include <stdbool.h>

#include "exercises30.h"

typedef enum {
    SKELETON_RIGHT, SKELETON_NO_RULE, SKELETON_L_G, SKELETON_ROOT_IDENTITY, SKELETON_PARENT_LOCAL, SKELETON_SELF_ALLOWED,
    SKELETON_LAST_BAD, SKELETON_ZERO_FOR_VALID
} skeleton_slip;

typedef enum { PALETTE_RIGHT, PALETTE_SLOT_AS_NODE, PALETTE_IBM_FIRST, PALETTE_NO_IBM, PALETTE_IBM_INVERTED } palette_slip;

int mistake_skeleton(skeleton_slip slip, int n, const int *parent, const mat4 *local, mat4 *world);

/* The general inverse of an affine matrix: [A^-1, -A^-1 t]. */
mat4 mistake_affine_inverse(mat4 m);

void mistake_palette(palette_slip slip, int count, const int *skin_joints, const mat4 *world, const mat4 *ibm, mat4 *out);

quat mistake_scaled(quat q, double s);

/* the DQS ring's angle, with or without its hemisphere rule */
double mistake_dqs_angle(bool hemisphere, double w, double theta);

#endif
