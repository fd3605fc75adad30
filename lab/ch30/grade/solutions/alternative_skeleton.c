/* alternative_skeleton.c - a second correct answer to the skeleton sheet, written apart from
 * reference_skeleton.c in other forms (products as loops, the whole loop with its own
 * hierarchy and palette inline, each influence's point transformed and then weighted):
 * test_grade30_make grades it correct through make grade30 SHEET=skeleton. */
#include <stdlib.h>
#include "exercises30.h"
static mat4 product(mat4 a, mat4 b)
{
    mat4 c;
    for (int r = 0; r < 4; r++)
        for (int k = 0; k < 4; k++) {
            double s = 0;
            for (int j = 0; j < 4; j++) s += a.m[r][j] * b.m[j][k];
            c.m[r][k] = s;
        }
    return c;
}
int ex30_skeleton_world(int n, const int *parent, const mat4 *local, mat4 *world)
{
    for (int i = 0; i < n; i++) {
        int p = parent[i];
        if (p == -1) { world[i] = local[i]; continue; }
        if (p < 0 || !(p < i)) return i;
        world[i] = product(world[p], local[i]);
    }
    return -1;
}
void ex30_palette(int count, const int *skin_joints, const mat4 *node_world, const mat4 *inverse_bind, mat4 *palette)
{
    for (int j = 0; j < count; j++)
        palette[j] = inverse_bind == NULL ? node_world[skin_joints[j]] : product(node_world[skin_joints[j]], inverse_bind[j]);
}
void ex30_skin_mesh(const ex30_skin *s, vec3 *out)
{
    mat4 *world = malloc(sizeof *world * (size_t)s->node_count), *c = malloc(sizeof *c * (size_t)s->joint_count);
    if (!world || !c) abort();
    for (int i = 0; i < s->node_count; i++)
        world[i] = s->parent[i] < 0 ? s->local[i] : product(world[s->parent[i]], s->local[i]);
    for (int j = 0; j < s->joint_count; j++)
        c[j] = s->inverse_bind ? product(world[s->skin_joints[j]], s->inverse_bind[j]) : world[s->skin_joints[j]];
    for (int v = 0; v < s->vertex_count; v++) {
        double x = 0, y = 0, z = 0;
        vec3 p = s->position[v];
        for (int i = 0; i < 4; i++) {
            double w = s->weights[4 * v + i];
            const mat4 *m = &c[s->joints[4 * v + i]];
            x += w * (m->m[0][0] * p.x + m->m[0][1] * p.y + m->m[0][2] * p.z + m->m[0][3]);
            y += w * (m->m[1][0] * p.x + m->m[1][1] * p.y + m->m[1][2] * p.z + m->m[1][3]);
            z += w * (m->m[2][0] * p.x + m->m[2][1] * p.y + m->m[2][2] * p.z + m->m[2][3]);
        }
        out[v] = vec3_make(x, y, z);
    }
    free(world), free(c);
}
