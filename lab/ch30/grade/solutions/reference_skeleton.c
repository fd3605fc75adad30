/* reference_skeleton.c - one correct answer to the skeleton sheet (lab/ch30/sheets/skeleton.c, exercises 8 to 10), for the grader's
 * tests and for a student who wants to compare after trying:
 * make grade30 SHEET=skeleton EXERCISES=lab/ch30/grade/solutions/reference_skeleton.c exits 0. Each
 * formula in its own lines, as a student would write it. */
#include <math.h>
#include <stdbool.h>

#include "exercises30.h"
#include "math/quat.h"

/* 8: parents first, one pass; the rule checked as each node is met */
int ex30_skeleton_world(int n, const int *parent, const mat4 *local, mat4 *world)
{
    for (int i = 0; i < n; i++) {
        if (parent[i] < -1 || parent[i] >= i)
            return i;
        world[i] = parent[i] < 0 ? local[i] : mat4_mul(world[parent[i]], local[i]);
    }
    return -1;
}

/* 9: slot j is node skin_joints[j] */
void ex30_palette(int count, const int *skin_joints, const mat4 *node_world, const mat4 *inverse_bind,
                  mat4 *palette)
{
    for (int j = 0; j < count; j++)
        palette[j] = mat4_mul(node_world[skin_joints[j]], inverse_bind ? inverse_bind[j] : mat4_identity());
}

/* 10: the hierarchy, the palette, the blend */
void ex30_skin_mesh(const ex30_skin *s, vec3 *out)
{
    mat4 world[EX30_MAX_NODES], palette[EX30_MAX_NODES];
    ex30_skeleton_world(s->node_count, s->parent, s->local, world);
    ex30_palette(s->joint_count, s->skin_joints, world, s->inverse_bind, palette);
    for (int v = 0; v < s->vertex_count; v++) {
        vec4 sum = {0, 0, 0, 0};
        for (int i = 0; i < 4; i++)
            sum = vec4_add(sum, vec4_scale(mat4_mul_vec4(palette[s->joints[4 * v + i]], vec4_point(s->position[v])),
                                           s->weights[4 * v + i]));
        out[v] = vec3_make(sum.x, sum.y, sum.z);
    }
}
