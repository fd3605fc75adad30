/* scene.c - one pass over a parents-first node list (chapter 16's evaluate_scene). */
#include "mesh/scene.h"

#include <stdio.h>

lab_error scene_validate(const scene_node *nodes, int count, lab_diag *d)
{
    char where[128];
    for (int i = 0; i < count; i++) {
        const char *name = nodes[i].name ? nodes[i].name : "?";
        int p = nodes[i].parent;
        if (p != SCENE_NO_PARENT && (p < 0 || p >= i))
            return diag_fail(d, LAB_ERR_PARENT_ORDER,
                             diag_where(where, sizeof where, "joint %d (%s)", i, name),
                             "parent index %d, must be -1 or in [0, %d)", p, i);
        lab_error e = mat4_validate(nodes[i].local,
                                    diag_where(where, sizeof where, "local matrix of joint %d (%s)",
                                               i, name),
                                    d);
        if (e != LAB_OK)
            return e;
    }
    return LAB_OK;
}

lab_error scene_evaluate(const scene_node *nodes, int count, mat4 *out_world, lab_diag *d)
{
    lab_error e = scene_validate(nodes, count, d);
    if (e == LAB_OK)
        scene_world(nodes, count, NULL, out_world);
    return e;
}

void scene_world(const scene_node *nodes, int count, const int *order, mat4 *out_world)
{
    for (int k = 0; k < count; k++) {
        int i = order ? order[k] : k, p = nodes[i].parent;
        out_world[i] = (p == SCENE_NO_PARENT) ? nodes[i].local : mat4_mul(out_world[p], nodes[i].local);
    }
}
