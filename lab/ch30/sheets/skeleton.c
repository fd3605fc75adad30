/* skeleton.c - chapter 30's skeleton sheet: the loops an engine runs over a skeleton and a
 * mesh (exercises 8 to 10, taught on lab/ch30/lab30-gltf/README.md#exercises-the-skeleton).
 * exercises30.h says what each takes and returns. Replace NOT_WRITTEN_YET(); and the
 * placeholder with your code, then
 *
 *     make grade30 SHEET=skeleton
 *
 * Exercise 10 skins the chapter's cylinder and RiggedSimple (assets/) with your loop and
 * compares every vertex with the lab's. */
#include <stdlib.h>

#include "exercises30.h"

/* "The hierarchy over a skeleton": world[i] = world[parent[i]] local[i], parents first. */
int ex30_skeleton_world(int n, const int *parent, const mat4 *local, mat4 *world)
{
    (void)n, (void)parent, (void)local, (void)world;
    NOT_WRITTEN_YET();
    return -1;
}

/* "The palette through skin.joints": C_j = G_{skin_joints[j]} IBM_j. */
void ex30_palette(int count, const int *skin_joints, const mat4 *node_world, const mat4 *inverse_bind,
                  mat4 *palette)
{
    (void)count, (void)skin_joints, (void)node_world, (void)inverse_bind, (void)palette;
    NOT_WRITTEN_YET();
}

/* The whole loop: world matrices, the palette, then LBS over JOINTS_0 and WEIGHTS_0. */
void ex30_skin_mesh(const ex30_skin *skin, vec3 *out)
{
    for (int v = 0; v < skin->vertex_count; v++)
        out[v] = skin->position[v];
    NOT_WRITTEN_YET();
}
