/* grade30_cases_blends.c - the cases of the blends (grade30_table.h): 3 LBS, 6 DQS; each
 * case's lab answer from the library's blends (skin_lbs_point, dualquat_blend). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "math/dualquat.h"
#include "math/linalg.h"
#include "math/quat.h"
#include "skin/blend.h"

#include "grade30_random.h"
#include "grade30_table.h"

/* ---- 3. the LBS blend ----------------------------------------------------------------- */

void grade30_lbs_case(int i, uint64_t seed, grade30_case *c)
{
    const mat4 hand = mat4_mul(mat4_mul(mat4_translate(0, 1, 0), mat4_rotate_z(DEG(90))), mat4_translate(0, -1, 0));
    const struct { const char *what; vec3 p; mat4 c1; double w[2]; } named[] = {
        {"the bind pose: C_0 = C_1 = I, weights 0.5, 0.5; no vertex may move", {1, 0, 1}, mat4_identity(), {0.5, 0.5}},
        {"the hand control: p = (1,1,0), C_0 = I, C_1 = Ty(1) Rz(90) Ty(-1), weights 0.5, 0.5", {1, 1, 0}, hand,
         {0.5, 0.5}},
        {"ring 2 (z = 0.5, w0 = 0.75, w1 = 0.25) at a 90 deg twist, vertex (1, 0, 0.5)", {1, 0, 0.5},
         mat4_rotate_z(DEG(90)), {0.75, 0.25}},
        {"weights 0.4 + 0.4 at the bind pose (\"Weights that do not sum to 1\"): w = 0.8, so 0.8 p", {1, 0, 1},
         mat4_identity(), {0.4, 0.4}},
    };
    grade30_case_clear(c);
    if (i < COUNT(named)) {
        snprintf(c->what, sizeof c->what, "%s", named[i].what);
        c->p = named[i].p, c->k = 2, c->palette_count = 2;
        c->joint[0] = 0, c->joint[1] = 1, c->weight[0] = named[i].w[0], c->weight[1] = named[i].w[1];
        c->palette[0] = mat4_identity(), c->palette[1] = named[i].c1;
        return;
    }
    rng r = stream(seed, 2, i);
    int n = 3 + below(&r, GRADE30_MAX_PALETTE - 2), k = 1 + below(&r, n); /* k <= n: palette[i] stays inside */
    char d[200] = "";
    for (int j = 0; j < n; j++) {
        char ignored[200] = "";
        vec3 s = scales(&r);
        c->palette[j] = mat4_mul(rigid(&r, ignored, sizeof ignored, "C"), mat4_scale(s.x, s.y, s.z));
    }
    /* joints: a permutation of distinct slots, slots with repeats, or slots that avoid 0 */
    int mode = below(&r, 3), order[GRADE30_MAX_PALETTE];
    shuffled(&r, order, n);
    double total = 0;
    for (int j = 0; j < k; j++) {
        c->joint[j] = mode == 0 ? order[j] : mode == 2 ? 1 + below(&r, n - 1) : below(&r, n);
        c->weight[j] = uniform(&r, 0.05, 1);
        total += c->weight[j];
    }
    for (int j = 0; j < k; j++)
        c->weight[j] /= total;
    c->k = k, c->palette_count = n;
    c->p = offset(&r, 2);
    size_t used = 0;
    used += (size_t)snprintf(d, sizeof d, "p = (%.3g, %.3g, %.3g), %d of %d palette matrices, joints", c->p.x, c->p.y,
                             c->p.z, k, n);
    for (int j = 0; j < k && used < sizeof d; j++)
        used += (size_t)snprintf(d + used, sizeof d - used, " %d", c->joint[j]);
    words(c, d, seed);
}

grade30_answer grade30_lbs_expected(const grade30_case *c)
{
    vec4 want = skin_lbs_point(c->p, c->joint, c->weight, c->k, c->palette); /* the library's blend */
    return grade30_answer_point(vec3_make(want.x, want.y, want.z));
}

/* ---- 6. the DQS blend ----------------------------------------------------------------- */

void grade30_dqs_case(int i, uint64_t seed, grade30_case *c)
{
    grade30_case_clear(c);
    const dualquat turned = dualquat_from_rigid(quat_from_axis_angle(vec3_make(0, 0, 1), DEG(90)), vec3_make(0, 0, 0));
    const dualquat far = dualquat_from_rigid(quat_from_axis_angle(vec3_make(0, 0, 1), DEG(200)), vec3_make(0, 0, 0));
    const dualquat half = dualquat_from_rigid((quat){0, 1, 0, 0}, vec3_make(0, 0, 2)); /* w exactly 0 */
    const struct { const char *what; dualquat q1; double w[2]; } named[] = {
        {"the twist at 90 deg, weights 0.5, 0.5 (both in one hemisphere)", turned, {0.5, 0.5}},
        {"the same joint given as -q^ (the same rotation), weights 0.75, 0.25", dualquat_scale(turned, -1),
         {0.75, 0.25}},
        {"a 200 deg twist, weights 0.25, 0.75: the pivot is the heavier joint", far, {0.25, 0.75}},
        {"a half turn about x, moved by Tz(2): real parts at dot 0 exactly, so s = 1", half, {0.6, 0.4}},
    };
    if (i < COUNT(named)) {
        snprintf(c->what, sizeof c->what, "%s", named[i].what);
        c->k = 2, c->q[0] = dualquat_identity(), c->q[1] = named[i].q1;
        c->weight[0] = named[i].w[0], c->weight[1] = named[i].w[1];
        return;
    }
    rng r = stream(seed, 5, i);
    int k = 1 + below(&r, GRADE30_MAX_K);
    double total = 0;
    for (int j = 0; j < k; j++) {
        vec3 ax;
        double deg;
        quat turn = rotation(&r, &ax, &deg);
        c->q[j] = dualquat_from_rigid(turn, offset(&r, 3));
        if (below(&r, 2))
            c->q[j] = dualquat_scale(c->q[j], -1);
        total += c->weight[j] = uniform(&r, 0.05, 1);
    }
    int kind = k > 1 ? below(&r, 3) : 0, a = below(&r, k), b = k > 1 ? (a + 1 + below(&r, k - 1)) % k : a;
    if (kind == 1) { /* equal largest weights: the pivot is the first of them */
        double top = 0;
        for (int j = 0; j < k; j++)
            top = fmax(top, c->weight[j]);
        total += 2 * top + 0.5 - c->weight[a] - c->weight[b];
        c->weight[a] = c->weight[b] = top + 0.25;
    } else if (kind == 2) { /* real parts at a negative dot whose w's share a sign, one the pivot */
        vec3 u = axis(&r);
        double s = sqrt(1 - 0.3 * 0.3);
        c->q[a] = dualquat_from_rigid((quat){0.3, s * u.x, s * u.y, s * u.z}, offset(&r, 3));
        c->q[b] = dualquat_from_rigid((quat){0.3, -s * u.x, -s * u.y, -s * u.z}, offset(&r, 3));
        total += 2 - c->weight[a];
        c->weight[a] = 2;
    }
    for (int j = 0; j < k; j++)
        c->weight[j] /= total;
    c->k = k;
    static const char *const kinds[] = {"rotations and translations", "equal largest weights",
                                        "two real parts at a negative dot with w's of one sign"};
    char d[200];
    size_t used = (size_t)snprintf(d, sizeof d, "%s, k = %d, weights", kinds[kind], k);
    for (int j = 0; j < k && used < sizeof d; j++)
        used += (size_t)snprintf(d + used, sizeof d - used, " %.4g", c->weight[j]);
    words(c, d, seed);
}

grade30_answer grade30_dqs_expected(const grade30_case *c)
{
    return grade30_answer_dualquat(dualquat_blend(c->q, c->weight, c->k, true));
}
