/* scene.h - the scene graph of chapter 16: nodes with a parent and a local matrix.
 *
 * World matrices follow the hierarchy: G_0 = L_0 for a root, G_i = G_parent(i) L_i.
 * Nodes are listed parents first, so one pass in index order evaluates every node; a
 * parent listed after its child (or a node that is its own parent) is an error, because
 * the pass would read a world matrix that was not computed yet.
 */
#ifndef SCENE_H
#define SCENE_H

#include "math/linalg.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SCENE_NO_PARENT (-1)

typedef struct {
    const char *name;
    int parent;  /* SCENE_NO_PARENT, or an index < this node's index */
    mat4 local;  /* L_i, relative to the parent */
} scene_node;

/* Checks the ordering rule and every local matrix (finite, affine, bounded).
 * An empty scene (count 0) is valid. */
lab_error scene_validate(const scene_node *nodes, int count, lab_diag *d);

/* out_world[0 <= i < count] = G_i. Validates first and writes nothing on error. */
lab_error scene_evaluate(const scene_node *nodes, int count, mat4 *out_world, lab_diag *d);

/* The hierarchy's product alone, G_i = G_parent(i) L_i, visiting the nodes in `order`
 * (count indices, each parent before its children; NULL: index order, the parents-first
 * list scene_validate checks). No checks: scene_evaluate validates first, and the glTF
 * sampler runs it on a node forest its own validation checked, in the order it found. */
void scene_world(const scene_node *nodes, int count, const int *order, mat4 *out_world);

#ifdef __cplusplus
}
#endif

#endif
