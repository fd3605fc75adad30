/* grade30_cases_frames.c - the cases of the exercises about frames (grade30_table.h): 1 the
 * world matrix, 2 the skin matrix, 7 the normal matrix; each case's lab answer from the
 * library the chapter's programs check (scene_world, skin_palette_run,
 * mat4_linear_inverse_transpose). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "math/dualquat.h"
#include "math/linalg.h"
#include "math/quat.h"
#include "mesh/scene.h"
#include "skin/pose.h"

#include "grade30_random.h"
#include "grade30_table.h"

/* ---- 1. the world matrix -------------------------------------------------------------- */

void grade30_world_case(int i, uint64_t seed, grade30_case *c)
{
    grade30_case_clear(c);
    if (i == 0) {
        snprintf(c->what, sizeof c->what, "the chapter's twist at 90 deg: G_0 = I, L_1 = Tz(2) Rz(90)");
        c->a = mat4_identity(), c->b = mat4_mul(mat4_translate(0, 0, 2), mat4_rotate_z(DEG(90)));
        return;
    }
    if (i == 1) {
        snprintf(c->what, sizeof c->what, "the hand control's chain: G_parent = Ty(1) Rz(90), L = Tx(1) Rz(30)");
        c->a = mat4_mul(mat4_translate(0, 1, 0), mat4_rotate_z(DEG(90)));
        c->b = mat4_mul(mat4_translate(1, 0, 0), mat4_rotate_z(DEG(30)));
        return;
    }
    rng r = stream(seed, 0, i);
    char d[200] = "";
    c->a = rigid(&r, d, sizeof d, "G_parent"), c->b = rigid(&r, d, sizeof d, "L");
    if (below(&r, 3) == 0) { /* a scaled parent: a joint's world may carry its parent's scale */
        vec3 s = scales(&r);
        c->a = mat4_mul(c->a, mat4_scale(s.x, s.y, s.z));
    }
    words(c, d, seed);
}

grade30_answer grade30_world_expected(const grade30_case *c)
{
    /* the lab's hierarchy product over a two-node chain, parents first */
    scene_node nodes[2] = {{.parent = SCENE_NO_PARENT, .local = c->a}, {.parent = 0, .local = c->b}};
    mat4 world[2];
    scene_world(nodes, 2, NULL, world);
    return grade30_answer_matrix(world[1]);
}

/* ---- 2. the skin matrix --------------------------------------------------------------- */

void grade30_skin_case(int i, uint64_t seed, grade30_case *c)
{
    static const struct { const char *what; double turn, bind_y, bind_z; } named[] = {
        {"the bind pose: G_1(0) = B_1 = Tz(2), so C_1 = I", 0, 0, 2},
        {"the hand control: G_1 = Ty(1) Rz(90), B_1 = Ty(1)", 90, 1, 0},
        {"the chapter's twist at 120 deg: G_1 = Tz(2) Rz(120), B_1 = Tz(2)", 120, 0, 2},
    };
    grade30_case_clear(c);
    if (i < COUNT(named)) {
        snprintf(c->what, sizeof c->what, "%s", named[i].what);
        mat4 bind = mat4_translate(0, named[i].bind_y, named[i].bind_z);
        c->a = mat4_mul(bind, mat4_rotate_z(DEG(named[i].turn)));
        c->b = mat4_translate(0, -named[i].bind_y, -named[i].bind_z);
        return;
    }
    rng r = stream(seed, 1, i);
    char d[200] = "";
    c->a = rigid(&r, d, sizeof d, "G");
    /* B = T(t) R S, so B^-1 = S^-1 R^T T(-t): an inverse bind that turns, scales and moves */
    vec3 ax, t = offset(&r, 3), s = scales(&r);
    double deg;
    mat4 turn = quat_to_mat4(rotation(&r, &ax, &deg));
    c->b = mat4_mul(mat4_mul(mat4_scale(1 / s.x, 1 / s.y, 1 / s.z), mat4_transpose(turn)),
                    mat4_translate(-t.x, -t.y, -t.z));
    size_t used = strlen(d);
    snprintf(d + used, sizeof d - used, "; B = T(%.3g, %.3g, %.3g) R(%.4g deg) S(%.3g, %.3g, %.3g)", t.x, t.y, t.z,
             deg, s.x, s.y, s.z);
    words(c, d, seed);
}

grade30_answer grade30_skin_expected(const grade30_case *c)
{
    mat4 want; /* the library's palette product */
    int node = 0;
    skin_palette_run(&c->a, &node, &c->b, 1, &want);
    return grade30_answer_matrix(want);
}

/* ---- 7. the normal matrix ------------------------------------------------------------- */

void grade30_normal_case(int i, uint64_t seed, grade30_case *c)
{
    mat4 shear = mat4_identity();
    shear.m[0][1] = 0.5;
    const struct { const char *what; mat4 m; } named[] = {
        {"a rotation Rz(30): the normal matrix is the rotation itself", mat4_rotate_z(DEG(30))},
        {"the scaled child: S(2, 1, 1)", mat4_scale(2, 1, 1)},
        {"a shear: x += 0.5 y", shear},
        {"Tz(2) Rz(45) S(1, 1, 3): translation must not reach a normal",
         mat4_mul(mat4_mul(mat4_translate(0, 0, 2), mat4_rotate_z(DEG(45))), mat4_scale(1, 1, 3))},
        {"a mirror S(-1, 2, 1): det < 0", mat4_scale(-1, 2, 1)},
    };
    grade30_case_clear(c);
    if (i < COUNT(named)) {
        snprintf(c->what, sizeof c->what, "%s", named[i].what);
        c->a = named[i].m;
        return;
    }
    rng r = stream(seed, 6, i);
    char d[200] = "";
    mat4 outer = rigid(&r, d, sizeof d, "T R"), inner = quat_to_mat4(quat_from_axis_angle(axis(&r), DEG(angle_deg(&r))));
    mat4 s = mat4_identity();
    for (int j = 0; j < 3; j++)
        s.m[j][j] = (below(&r, 3) == 0 ? -1 : 1) * uniform(&r, 0.4, 2.5);
    int sheared = below(&r, 3), from = below(&r, 3), to = (from + 1 + below(&r, 2)) % 3;
    mat4 sh = mat4_identity();
    if (sheared)
        sh.m[to][from] = uniform(&r, -1, 1);
    c->a = mat4_mul(mat4_mul(mat4_mul(outer, sh), s), inner);
    size_t used = strlen(d);
    snprintf(d + used, sizeof d - used, "; S(%.3g, %.3g, %.3g)%s", s.m[0][0], s.m[1][1], s.m[2][2],
             sheared ? ", sheared" : "");
    words(c, d, seed);
}

grade30_answer grade30_normal_expected(const grade30_case *c)
{
    mat4 want = mat4_identity();
    mat4_linear_inverse_transpose(c->a, &want, "grade30", NULL);
    return grade30_answer_matrix(want);
}
