/* grade30_cases_dqs.c - the cases of the dual quaternion sheet (grade30_table.h): 11 the
 * rigid transform as a unit dual quaternion, 12 the normalisation and its refusal, 13
 * Kavan's point transform, 14 and 15 the LBS and DQS rings' turn angles. The lab's
 * answers: dualquat_from_rigid, dualquat_normalize (with the sheet's rule for a norm that
 * is not finite), dualquat_transform_point, rig30_lbs_twist_angle and
 * rig30_dqs_twist_angle (which lab30 and lab30-dqs check against the measured rings). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "math/dualquat.h"
#include "math/linalg.h"
#include "math/quat.h"

#include "grade30_random.h"
#include "grade30_table.h"
#include "rig30_check.h"

/* A generated rigid transform's parts, with its words. */
static quat rotation_words(rng *r, char *d, size_t size)
{
    vec3 ax;
    double deg;
    quat q = rotation(r, &ax, &deg);
    snprintf(d, size, "R(%.4g deg about (%.3g, %.3g, %.3g))", deg, ax.x, ax.y, ax.z);
    return q;
}

/* ---- 11. the rigid transform as a unit dual quaternion ----------------------------------- */

void grade30_dq_rigid_case(int i, uint64_t seed, grade30_case *c)
{
    grade30_case_clear(c);
    static const struct { const char *what; vec3 axis; double deg; vec3 t; } named[] = {
        {"a pure move by (1, 2, 3): q_0 = 1, q_e = (0, t/2)", {0, 0, 1}, 0, {1, 2, 3}},
        {"the chapter's child at 90 deg: T(0, 0, 2) Rz(90)", {0, 0, 1}, 90, {0, 0, 2}},
        {"a half turn about x and a move along y off the axis: T(0, 1, 0) Rx(180)", {1, 0, 0}, 180, {0, 1, 0}},
    };
    if (i < COUNT(named)) {
        snprintf(c->what, sizeof c->what, "%s", named[i].what);
        c->rotation = quat_from_axis_angle(named[i].axis, DEG(named[i].deg)), c->p = named[i].t;
        return;
    }
    rng r = stream(seed, GRADE30_DQ_FROM_RIGID, i);
    char d[200], rot[120];
    c->rotation = rotation_words(&r, rot, sizeof rot);
    c->p = offset(&r, 3);
    snprintf(d, sizeof d, "T(%.3g, %.3g, %.3g) %s", c->p.x, c->p.y, c->p.z, rot);
    words(c, d, seed);
}

grade30_answer grade30_dq_rigid_expected(const grade30_case *c)
{
    return grade30_answer_dualquat(dualquat_from_rigid(c->rotation, c->p));
}

/* ---- 12. the normalisation ---------------------------------------------------------------- */

static dualquat rigid_dq(rng *r)
{
    char ignored[120];
    quat q = rotation_words(r, ignored, sizeof ignored);
    return dualquat_from_rigid(q, offset(r, 3));
}

void grade30_dq_normalize_case(int i, uint64_t seed, grade30_case *c)
{
    grade30_case_clear(c);
    c->q[1] = (dualquat){{7, 7, 7, 7}, {7, 7, 7, 7}}; /* what a refusal must leave in *out */
    dualquat id = dualquat_identity(), turn = dualquat_from_rigid(quat_from_axis_angle(vec3_make(0, 0, 1), DEG(90)),
                                                                  vec3_make(1, 0, 0));
    dualquat turned = dualquat_from_rigid(quat_from_axis_angle(vec3_make(0, 0, 1), DEG(360)), vec3_make(0, 0, 0));
    const struct { const char *what; dualquat b; } named[] = {
        {"0.5 I + 0.5 T(1,0,0) Rz(90): |b_0| = 0.924", dualquat_add(dualquat_scale(id, 0.5), dualquat_scale(turn, 0.5))},
        {"0.5 q^ + 0.5 (-q^) for the identity q^ (a 360 deg turn kept its sign): b_0 = 0, refused",
         dualquat_add(dualquat_scale(id, 0.5), dualquat_scale(turned, 0.5))},
        {"a unit dual quaternion already: unchanged", turn},
        {"|b_0| = 1e-10, below 1e-9: refused", dualquat_scale(turn, 1e-10)},
        {"a NaN in the real part: refused", {{NAN, 0, 0, 0}, {0, 0, 0, 0}}},
        {"an infinite real part: refused", {{INFINITY, 0, 0, 0}, {0, 1, 0, 0}}},
        {"a large blend, |b_0| = 3e8: divided", dualquat_scale(turn, 3e8)},
        {"|b_0| exactly 1e-9 (real part (1e-9, 0, 0, 0)): not above 1e-9, refused", {{1e-9, 0, 0, 0}, {0, 0.5, 0, 0}}},
        {"|b_0| the next double above 1e-9: divided", {{0x1.12e0be826d696p-30, 0, 0, 0}, {0, 0.5, 0, 0}}},
        {"a NaN in the dual part, the real part a unit: divided (only |b_0| decides)", {{0, 0, 0, 1}, {NAN, 0, 0, 0}}},
        {"an infinite dual part, the real part finite: divided", {{0.6, 0.8, 0, 0}, {0, -INFINITY, 0, 0}}},
        {"a NaN real x beside a finite w: |b_0| is NaN, refused", {{0.5, NAN, 0, 0}, {0, 0, 0, 0}}},
        {"a NaN real part and an infinite dual part: refused", {{NAN, 0, 0, 0}, {INFINITY, 0, 0, 0}}},
    };
    if (i < COUNT(named)) {
        snprintf(c->what, sizeof c->what, "%s", named[i].what);
        c->q[0] = named[i].b;
        return;
    }
    rng r = stream(seed, GRADE30_DQ_NORMALIZE, i);
    int k = 1 + below(&r, 4);
    dualquat b = {{0, 0, 0, 0}, {0, 0, 0, 0}};
    for (int j = 0; j < k; j++)
        b = dualquat_add(b, dualquat_scale(rigid_dq(&r), uniform(&r, 0.05, 1)));
    int mode = below(&r, 10);
    double scale = mode == 0 ? pow(10, -uniform(&r, 6, 12.5)) : mode == 1 ? pow(10, uniform(&r, 1, 8)) : 1;
    b = dualquat_scale(b, scale);
    if (mode == 2) /* opposite rotations, half and half: the real part cancels */
        b.real = (quat){0, 0, 0, 0};
    if (mode == 3) { /* |b_0| on the threshold, or a double either side of it */
        static const double edge[] = {1e-9, 0x1.12e0be826d696p-30, 0x1.12e0be826d694p-30};
        b.real = (quat){edge[below(&r, 3)], 0, 0, 0};
    }
    if (mode == 4) { /* a NaN or an infinity in one number of either part, or in both parts */
        static const double bad[] = {NAN, INFINITY, -INFINITY};
        quat *part[2] = {&b.real, &b.dual};
        int which = below(&r, 3); /* 0 the real part, 1 the dual part, 2 both */
        for (int p = 0; p < 2; p++)
            if (which == p || which == 2) {
                double x = bad[below(&r, 3)];
                switch (below(&r, 4)) {
                case 0: part[p]->w = x; break;
                case 1: part[p]->x = x; break;
                case 2: part[p]->y = x; break;
                default: part[p]->z = x; break;
                }
            }
    }
    c->q[0] = b;
    char d[200];
    snprintf(d, sizeof d, "a blend of %d rigid dual quaternions, |b_0| = %.3g", k, quat_norm(b.real));
    words(c, d, seed);
}

grade30_answer grade30_dq_normalize_expected(const grade30_case *c)
{
    grade30_answer a;
    grade30_answer_clear(&a);
    a.n = 9;
    dualquat out = c->q[1];
    bool refused = !isfinite(dualquat_norm(c->q[0])) || dualquat_normalize(c->q[0], &out, "b", NULL) != LAB_OK;
    if (refused)
        out = c->q[1];
    a.v[0] = !refused;
    const quat *part[2] = {&out.real, &out.dual};
    for (int p = 0; p < 2; p++)
        a.v[1 + 4 * p] = part[p]->w, a.v[2 + 4 * p] = part[p]->x, a.v[3 + 4 * p] = part[p]->y,
        a.v[4 + 4 * p] = part[p]->z;
    return a;
}

void grade30_dq_normalize_value_name(const grade30_case *c, int i, char *out, size_t size)
{
    (void)c;
    static const char *const names[] = {"the returned bool", "out's real w", "out's real x", "out's real y",
                                        "out's real z", "out's dual w", "out's dual x", "out's dual y", "out's dual z"};
    snprintf(out, size, "%s", i >= 0 && i < 9 ? names[i] : "?");
}

/* ---- 13. Kavan's point transform ---------------------------------------------------------- */

void grade30_dq_transform_case(int i, uint64_t seed, grade30_case *c)
{
    grade30_case_clear(c);
    static const struct { const char *what; vec3 axis; double deg; vec3 t, p; } named[] = {
        {"the identity: p stays", {0, 0, 1}, 0, {0, 0, 0}, {1, 2, 3}},
        {"a pure move by (1, 2, 3) of p = (1, 0, 0)", {0, 0, 1}, 0, {1, 2, 3}, {1, 0, 0}},
        {"T(1, 0, 0) Rz(90) on p = (1, 0, 0): (1, 1, 0)", {0, 0, 1}, 90, {1, 0, 0}, {1, 0, 0}},
    };
    if (i < COUNT(named)) {
        snprintf(c->what, sizeof c->what, "%s", named[i].what);
        c->q[0] = dualquat_from_rigid(quat_from_axis_angle(named[i].axis, DEG(named[i].deg)), named[i].t);
        c->p = named[i].p;
        return;
    }
    rng r = stream(seed, GRADE30_DQ_TRANSFORM, i);
    char d[200], rot[120];
    quat q = rotation_words(&r, rot, sizeof rot);
    vec3 t = offset(&r, 3);
    c->q[0] = dualquat_from_rigid(q, t);
    if (below(&r, 2)) /* -q^: the same transform */
        c->q[0] = dualquat_scale(c->q[0], -1);
    c->p = offset(&r, 2);
    snprintf(d, sizeof d, "T(%.3g, %.3g, %.3g) %s on p = (%.3g, %.3g, %.3g)", t.x, t.y, t.z, rot, c->p.x, c->p.y, c->p.z);
    words(c, d, seed);
}

grade30_answer grade30_dq_transform_expected(const grade30_case *c)
{
    return grade30_answer_point(dualquat_transform_point(c->q[0], c->p));
}

/* ---- 14, 15. the rings' turn angles ------------------------------------------------------- */

/* Whether a ring of child weight w under theta has an angle to grade: LBS, not collapsed
 * (radius ratio above 1e-6); DQS, not at an odd multiple of pi. */
static bool gradable(bool dqs, double w, double theta)
{
    if (dqs)
        return fabs(cos(theta / 2)) > 1e-6;
    return hypot((1 - w) + w * cos(theta), w * sin(theta)) > 1e-6;
}

static void turn_case(bool dqs, int i, uint64_t seed, grade30_case *c)
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
    } while (!gradable(dqs, c->w, c->theta));
    char d[200];
    snprintf(d, sizeof d, "w = %.6g, theta = %.6g deg", c->w, c->theta * 180 / LAB_PI);
    words(c, d, seed);
}

void grade30_lbs_turn_case(int i, uint64_t seed, grade30_case *c) { turn_case(false, i, seed, c); }
void grade30_dqs_turn_case(int i, uint64_t seed, grade30_case *c) { turn_case(true, i, seed, c); }

grade30_answer grade30_lbs_turn_expected(const grade30_case *c)
{
    return grade30_answer_number(rig30_lbs_twist_angle(c->w, c->theta));
}

grade30_answer grade30_dqs_turn_expected(const grade30_case *c)
{
    return grade30_answer_number(rig30_dqs_twist_angle(c->w, c->theta));
}
