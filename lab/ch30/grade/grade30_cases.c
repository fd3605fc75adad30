/* grade30_cases.c - what several exercises' cases share (grade30_cases.h): the words of a
 * generated rotation (11 to 13), the turn angles' cases (14, 15), a generated skeleton's
 * locals, parents and worlds (8 to 10), generated weights (16, 17). Each exercise's own cases
 * are in its file (exNN_*.c). */
#include <math.h>
#include <stdio.h>

#include "math/linalg.h"
#include "math/quat.h"
#include "mesh/scene.h"
#include "solve/sparse.h"

#include "grade30_random.h"
#include "grade30_table.h"

/* A generated rigid transform's parts, with its words. */
quat grade30_rotation_words(rng *r, char *d, size_t size)
{
    vec3 ax;
    double deg;
    quat q = rotation(r, &ax, &deg);
    snprintf(d, size, "R(%.4g deg about (%.3g, %.3g, %.3g))", deg, ax.x, ax.y, ax.z);
    return q;
}

/* Whether a ring of child weight w under theta has an angle to grade: LBS, not collapsed
 * (radius ratio above 1e-6); DQS, not at an odd multiple of pi. */
bool grade30_gradable(bool dqs, double w, double theta)
{
    if (dqs)
        return fabs(cos(theta / 2)) > 1e-6;
    return hypot((1 - w) + w * cos(theta), w * sin(theta)) > 1e-6;
}

void grade30_turn_case(bool dqs, int i, uint64_t seed, grade30_case *c)
{
    grade30_case_clear(c);
    static const struct { const char *what; double w, deg; bool dqs_only, lbs_only; } named[] = {
        {"the middle ring (w = 1/2) at a 90 deg twist", 0.5, 90, false, false},
        {"ring 2 (w = 1/4) at 120 deg", 0.25, 120, false, false},
        {"the middle ring near the collapse, 179 deg", 0.5, 179, false, false},
        {"w = 3/4 at -200 deg", 0.75, -200, false, false},
        {"the child's own ring (w = 1) at 270 deg: LBS follows the bone, -90 deg up to a turn", 1, 270, false, true},
        {"the middle ring at 270 deg: DQS takes the short way, t = -90 deg", 0.5, 270, true, false},
        {"the root's ring (w = 0) at 150 deg: no turn", 0, 150, false, false},
    };
    int named_here = 0;
    for (int j = 0; j < COUNT(named); j++) {
        if ((dqs && named[j].lbs_only) || (!dqs && named[j].dqs_only))
            continue;
        if (named_here++ == i) {
            snprintf(c->what, sizeof c->what, "%s", named[j].what);
            c->w = named[j].w, c->theta = DEG(named[j].deg);
            return;
        }
    }
    rng r = stream(seed, dqs ? GRADE30_DQS_TURN : GRADE30_LBS_TURN, i);
    do {
        int pick = below(&r, 8);
        c->w = pick == 0 ? 0 : pick == 1 ? 1 : pick == 2 ? 0.5 : uniform(&r, 0, 1);
        c->theta = DEG(angle_deg(&r));
    } while (!grade30_gradable(dqs, c->w, c->theta));
    char d[200];
    snprintf(d, sizeof d, "w = %.6g, theta = %.6g deg", c->w, c->theta * 180 / LAB_PI);
    words(c, d, seed);
}

/* The local of a generated node: T R S, scales of 0.5 to 2. */
mat4 grade30_local_of(rng *r)
{
    char ignored[200] = "";
    vec3 s = scales(r);
    return mat4_mul(rigid(r, ignored, sizeof ignored, "L"), mat4_scale(s.x, s.y, s.z));
}

/* Parents first: node 0 a root, each later one a root a sixth of the time. */
void grade30_parents(rng *r, int n, int *parent)
{
    for (int i = 0; i < n; i++)
        parent[i] = i == 0 || below(r, 6) == 0 ? -1 : below(r, i);
}

void grade30_worlds(const grade30_case *c, mat4 *world)
{
    scene_node nodes[EX30_MAX_NODES] = {{0}};
    for (int i = 0; i < c->nodes; i++)
        nodes[i] = (scene_node){NULL, c->parent[i], c->local[i]};
    scene_world(nodes, c->nodes, NULL, world);
}

/* k weights from 0.05 to 1, divided by their sum. */
void grade30_weights(rng *r, double *w, int k)
{
    double total = 0;
    for (int j = 0; j < k; j++)
        total += (w[j] = uniform(r, 0.05, 1));
    for (int j = 0; j < k; j++)
        w[j] /= total;
}
