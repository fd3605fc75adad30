/* grade30_cases_weights.c - the cases of the sheets of normals and policies, the packed
 * vertex and bone heat (grade30_table.h): 16 a normal skinned three ways, 17 the weight
 * policies, 18 the four heaviest influences, 19 the implied last weight, 20 the cotangent
 * Laplacian's row, 21 the heat system's row. The lab's answers: normals_skin,
 * skin_apply_weight_policy, skin_sort_heaviest_first, packed_weights_at (float) beside the
 * integer rule, heat_laplacian on the vertex's fan, and heat_laplacian with heat_sources on
 * the chapter's cylinder. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "math/linalg.h"
#include "mesh/mesh.h"
#include "skin/influences.h"
#include "skin/normals.h"
#include "skin/packed.h"
#include "solve/sparse.h"
#include "weights/heat.h"

#include "grade30_random.h"
#include "grade30_table.h"

/* k weights from 0.05 to 1, divided by their sum. */
static void weights(rng *r, double *w, int k)
{
    double total = 0;
    for (int j = 0; j < k; j++)
        total += (w[j] = uniform(r, 0.05, 1));
    for (int j = 0; j < k; j++)
        w[j] /= total;
}

/* ---- 16. a normal skinned three ways ----------------------------------------------------- */

static const char *const method_names[] = {"rigid", "blended inverse transpose", "per-bone inverse transpose"};

/* Whether every linear part the methods invert is far from singular. */
static bool invertible(const grade30_case *c)
{
    mat4 sum = mat4_scale_by(mat4_identity(), 0);
    double sv[3];
    for (int i = 0; i < c->k; i++) {
        mat4_linear_singular_values(c->palette[c->joint[i]], sv);
        if (!(sv[2] > 0.05))
            return false;
        sum = mat4_add(sum, mat4_scale_by(c->palette[c->joint[i]], c->weight[i]));
    }
    mat4_linear_singular_values(sum, sv);
    return sv[2] > 0.05;
}

void grade30_normal_skin_case(int i, uint64_t seed, grade30_case *c)
{
    grade30_case_clear(c);
    rng r = stream(seed, GRADE30_SKIN_NORMAL, i);
    if (i < 6) { /* the chapter's: a turn (the three agree), an uneven scale (they part), each method */
        bool scaled = i >= 3;
        c->method = i % 3, c->k = 2, c->palette_count = 2;
        c->joint[0] = 0, c->joint[1] = 1, c->weight[0] = 0.5, c->weight[1] = 0.5;
        c->palette[0] = mat4_identity();
        c->palette[1] = scaled ? mat4_mul(mat4_rotate_z(DEG(60)), mat4_scale(3, 1, 0.5)) : mat4_rotate_z(DEG(90));
        c->p = vec3_normalize(vec3_make(1, 1, 0.5));
        snprintf(c->what, sizeof c->what, "%s: n = (1, 1, 0.5)/|.|, weights 0.5, 0.5, C_1 = %s", method_names[c->method],
                 scaled ? "Rz(60) S(3, 1, 0.5): the methods part" : "Rz(90): the three agree");
        return;
    }
    do {
        c->palette_count = 2 + below(&r, GRADE30_MAX_PALETTE - 1);
        c->k = 1 + below(&r, c->palette_count);
        for (int j = 0; j < c->palette_count; j++) {
            char ignored[200] = "";
            vec3 s = scales(&r);
            c->palette[j] = mat4_mul(rigid(&r, ignored, sizeof ignored, "C"), mat4_scale(s.x, s.y, s.z));
            if (below(&r, 4) == 0) /* a shear */
                c->palette[j].m[0][1] += uniform(&r, -1, 1);
        }
        for (int j = 0; j < c->k; j++)
            c->joint[j] = below(&r, c->palette_count);
        weights(&r, c->weight, c->k);
    } while (!invertible(c));
    c->method = below(&r, 3);
    c->p = vec3_normalize(offset(&r, 1));
    char d[200];
    snprintf(d, sizeof d, "%s, %d influences of %d palette matrices (scaled, some sheared)", method_names[c->method],
             c->k, c->palette_count);
    words(c, d, seed);
}

grade30_answer grade30_normal_skin_expected(const grade30_case *c)
{
    skin_influences in = {1, c->k, (int *)c->joint, (double *)c->weight};
    vec3 out;
    if (normals_skin(&c->p, &in, c->palette, c->palette_count, (normals_method)c->method, &out, NULL) != LAB_OK)
        abort(); /* the generator keeps every case valid */
    return grade30_answer_point(out);
}

/* ---- 17. the weight policies -------------------------------------------------------------- */

static const char *const policy_names[] = {"strict", "normalize", "fallback"};

void grade30_policy_case(int i, uint64_t seed, grade30_case *c)
{
    grade30_case_clear(c);
    static const struct { const char *what; int policy, k; double w[3]; } named[] = {
        {"strict, weights 0.5 + 0.5: kept", EX30_STRICT, 2, {0.5, 0.5}},
        {"strict, 0.4 + 0.4: refused, nothing changed", EX30_STRICT, 2, {0.4, 0.4}},
        {"normalize, 0.4 + 0.4: divided by W = 0.8", EX30_NORMALIZE, 2, {0.4, 0.4}},
        {"normalize, 0 + 0: weightless, refused", EX30_NORMALIZE, 2, {0, 0}},
        {"fallback=1, 0 + 0: bound to joint 1", EX30_FALLBACK, 2, {0, 0}},
        {"fallback=1, one weight of exactly 1e-6 (W <= 1e-6): bound to joint 1", EX30_FALLBACK, 1, {1e-6}},
        {"normalize, 0.5 and NaN: refused as not finite", EX30_NORMALIZE, 2, {0.5, NAN}},
        {"fallback=1, -0.0 + 1: kept (-0.0 is not below 0)", EX30_FALLBACK, 2, {-0.0, 1}},
        {"normalize, 0.6 - 0.1 + 0.5 (sums to 1): refused as negative", EX30_NORMALIZE, 3, {0.6, -0.1, 0.5}},
        {"normalize, 0.5 + (0.5 + 2e-12): divided (|W - 1| > 1e-12)", EX30_NORMALIZE, 2, {0.5, 0.5 + 2e-12}},
        {"strict, 0.25 + (0.75 + 4e-13): kept (|W - 1| <= 1e-12)", EX30_STRICT, 2, {0.25, 0.75 + 4e-13}},
        {"strict, 0.5 + (0.5 + 1e-9): refused (a tolerance is 1e-12, not float's)", EX30_STRICT, 2, {0.5, 0.5 + 1e-9}},
        {"normalize, W = 1 + 4503 * 2^-52 (the last double within 1e-12 above 1): kept", EX30_NORMALIZE, 2,
         {0.5, 0.5 + 4503 * 0x1p-52}},
        {"normalize, W = 1 + 4505 * 2^-52 (beyond 1e-12 in every form; 1 + 1e-12 rounds to 4504): divided",
         EX30_NORMALIZE, 2, {0.5, 0.5 + 4505 * 0x1p-52}},
        {"fallback=1, one weight the double above 1e-6: not weightless, normalised", EX30_FALLBACK, 1,
         {0x1.0c6f7a0b5ed8ep-20}},
        {"normalize, NaN then -1: two rules broken, the first weight (not finite) decides", EX30_NORMALIZE, 3,
         {NAN, -1, 2}},
    };
    if (i < COUNT(named)) {
        snprintf(c->what, sizeof c->what, "%s", named[i].what);
        c->method = named[i].policy, c->k = named[i].k, c->fallback = 1;
        for (int j = 0; j < c->k; j++)
            c->joint[j] = j + 2, c->weight[j] = named[i].w[j];
        return;
    }
    rng r = stream(seed, GRADE30_POLICY, i);
    c->method = below(&r, 3), c->k = 1 + below(&r, GRADE30_MAX_K), c->fallback = below(&r, 8);
    for (int j = 0; j < c->k; j++)
        c->joint[j] = below(&r, 8);
    weights(&r, c->weight, c->k);
    int mode = below(&r, 8);
    const char *how = "valid";
    if (mode == 0 || mode == 1) { /* off the sum */
        double f = uniform(&r, 0.3, 1.7);
        for (int j = 0; j < c->k; j++)
            c->weight[j] *= f;
        how = "off their sum";
    } else if (mode == 2) { /* nearly weightless, or weightless */
        double f = below(&r, 2) ? 0 : uniform(&r, 1e-9, 9e-7);
        for (int j = 0; j < c->k; j++)
            c->weight[j] *= f;
        how = "weightless (W <= 1e-6)";
    } else if (mode == 3) { /* one weight breaks a rule */
        static const double bad[] = {NAN, INFINITY, -INFINITY, -0.25, -1e-300};
        c->weight[below(&r, c->k)] = bad[below(&r, COUNT(bad))];
        if (below(&r, 2)) /* and another, later or earlier */
            c->weight[below(&r, c->k)] = bad[below(&r, COUNT(bad))];
        how = "with a weight that breaks a rule";
    } else if (mode == 4) { /* off by less than the tolerance */
        c->weight[0] += 3e-13;
        how = "off their sum by 3e-13";
    } else if (mode == 6) { /* off by more than the tolerance, but little: 1e-11 to 1e-7 */
        c->weight[below(&r, c->k)] += (below(&r, 2) ? 1 : -1) * pow(10, -uniform(&r, 7, 11));
        how = "off their sum by 1e-11 to 1e-7";
    } else if (mode == 5 && c->k > 1) {
        c->weight[below(&r, c->k)] = -0.0;
        how = "with a -0.0";
    }
    char d[200];
    if (c->method == EX30_FALLBACK)
        snprintf(d, sizeof d, "fallback=%d, %d weights %s", c->fallback, c->k, how);
    else
        snprintf(d, sizeof d, "%s, %d weights %s", policy_names[c->method], c->k, how);
    words(c, d, seed);
}

grade30_answer grade30_policy_expected(const grade30_case *c)
{
    int joint[GRADE30_MAX_K];
    double weight[GRADE30_MAX_K];
    memcpy(joint, c->joint, sizeof joint), memcpy(weight, c->weight, sizeof weight);
    skin_influences in = {1, c->k, joint, weight};
    skin_weight_policy policy = {(skin_policy_kind)c->method, c->fallback, 0, 0};
    skin_weight_report report = {0};
    lab_diag d = {0};
    lab_error e = skin_apply_weight_policy(&in, 8, policy, &report, &d);
    ex30_policy_result result = e == LAB_ERR_WEIGHT_NOT_FINITE      ? EX30_POLICY_NOT_FINITE
                                : e == LAB_ERR_WEIGHT_NEGATIVE      ? EX30_POLICY_NEGATIVE
                                : e == LAB_ERR_WEIGHT_SUM           ? EX30_POLICY_NOT_SUMMING_TO_ONE
                                : e == LAB_ERR_WEIGHT_SUM_ZERO      ? EX30_POLICY_WEIGHTLESS
                                : e != LAB_OK                       ? (abort(), EX30_POLICY_KEPT)
                                : report.fallback_count             ? EX30_POLICY_FELL_BACK
                                : report.normalized_count           ? EX30_POLICY_NORMALIZED
                                                                    : EX30_POLICY_KEPT;
    skin_weight_report_free(&report);
    grade30_answer a;
    grade30_answer_clear(&a);
    a.n = 1 + 2 * c->k;
    a.v[0] = result;
    for (int j = 0; j < c->k; j++)
        a.v[1 + j] = joint[j], a.v[1 + c->k + j] = weight[j];
    return a;
}

void grade30_policy_value_name(const grade30_case *c, int i, char *out, size_t size)
{
    if (i == 0)
        snprintf(out, size, "the returned ex30_policy_result");
    else if (i <= c->k)
        snprintf(out, size, "joint[%d] after the call", i - 1);
    else
        snprintf(out, size, "weight[%d] after the call", i - 1 - c->k);
}

/* ---- 18. the four heaviest ------------------------------------------------------------- */

void grade30_heaviest_case(int i, uint64_t seed, grade30_case *c)
{
    grade30_case_clear(c);
    static const struct { const char *what; int k, joint[8]; double w[8]; } named[] = {
        {"two influences, 0.75 on joint 1: kept as they are", 2, {1, 0}, {0.75, 0.25}},
        {"five, the lightest (0.1) dropped: the kept four divided by 0.9", 5, {0, 1, 2, 3, 4}, {0.3, 0.25, 0.2, 0.15, 0.1}},
        {"six equal weights on joints 5, 3, 1, 0, 2, 4: the lower joints win the ties", 6, {5, 3, 1, 0, 2, 4},
         {1 / 6.0, 1 / 6.0, 1 / 6.0, 1 / 6.0, 1 / 6.0, 1 / 6.0}},
        {"four out of order: 0.1, 0.4, 0.2, 0.3, heaviest first", 4, {7, 6, 5, 4}, {0.1, 0.4, 0.2, 0.3}},
        {"eight, the heaviest last", 8, {0, 1, 2, 3, 4, 5, 6, 7}, {0.02, 0.03, 0.05, 0.05, 0.1, 0.15, 0.2, 0.4}},
    };
    if (i < COUNT(named)) {
        snprintf(c->what, sizeof c->what, "%s", named[i].what);
        c->k = named[i].k;
        memcpy(c->joint, named[i].joint, sizeof c->joint), memcpy(c->weight, named[i].w, sizeof c->weight);
        return;
    }
    rng r = stream(seed, GRADE30_KEEP_HEAVIEST, i);
    c->k = 1 + below(&r, GRADE30_MAX_K);
    int order[16];
    shuffled(&r, order, 16);
    bool ties = below(&r, 3) == 0;
    double total = 0;
    for (int j = 0; j < c->k; j++) {
        c->joint[j] = order[j];
        c->weight[j] = ties ? 1 + below(&r, 3) : uniform(&r, 0.01, 1);
        if (below(&r, 8) == 0)
            c->weight[j] = 0;
        total += c->weight[j];
    }
    if (total == 0)
        c->weight[0] = total = 1;
    for (int j = 0; j < c->k; j++)
        c->weight[j] /= total;
    char d[200];
    snprintf(d, sizeof d, "%d influences on joints {%d, ...}%s", c->k, c->joint[0], ties ? ", with ties" : "");
    words(c, d, seed);
}

grade30_answer grade30_heaviest_expected(const grade30_case *c)
{
    int joint[GRADE30_MAX_K];
    double weight[GRADE30_MAX_K], sum = 0;
    memcpy(joint, c->joint, sizeof joint), memcpy(weight, c->weight, sizeof weight);
    skin_sort_heaviest_first(joint, weight, c->k); /* the engines' order (packed.h) */
    int kept = c->k < 4 ? c->k : 4;
    for (int j = 0; j < kept; j++)
        sum += weight[j];
    grade30_answer a;
    grade30_answer_clear(&a);
    a.n = 1 + 2 * kept;
    a.v[0] = kept;
    for (int j = 0; j < kept; j++)
        a.v[1 + j] = joint[j], a.v[1 + kept + j] = weight[j] / sum;
    return a;
}

void grade30_heaviest_value_name(const grade30_case *c, int i, char *out, size_t size)
{
    int kept = c->k < 4 ? c->k : 4;
    if (i == 0)
        snprintf(out, size, "the returned count");
    else if (i <= kept)
        snprintf(out, size, "out_joint[%d]", i - 1);
    else
        snprintf(out, size, "out_weight[%d]", i - 1 - kept);
}

/* ---- 19. the implied last weight ----------------------------------------------------------- */

void grade30_unpack_case(int i, uint64_t seed, grade30_case *c)
{
    grade30_case_clear(c);
    static const struct { const char *what; unsigned short s[3]; } named[] = {
        {"one joint takes all: 65535, 0, 0", {65535, 0, 0}},
        {"32768 + 32767: the implied fourth is 0", {32768, 32767, 0}},
        {"nothing stored: the fourth takes all", {0, 0, 0}},
        {"10000, 20000, 30000: the fourth 5535/65535", {10000, 20000, 30000}},
    };
    if (i < COUNT(named)) {
        snprintf(c->what, sizeof c->what, "%s", named[i].what);
        memcpy(c->stored, named[i].s, sizeof c->stored);
        return;
    }
    rng r = stream(seed, GRADE30_UNPACK_WEIGHTS, i);
    int left = 65535;
    for (int j = 0; j < 3; j++) {
        int s = below(&r, left + 1);
        c->stored[j] = (unsigned short)s, left -= s;
    }
    char d[200];
    snprintf(d, sizeof d, "stored %u, %u, %u", c->stored[0], c->stored[1], c->stored[2]);
    words(c, d, seed);
}

grade30_answer grade30_unpack_expected(const grade30_case *c)
{
    grade30_answer a;
    grade30_answer_clear(&a);
    a.n = 4;
    int implied = 65535 - c->stored[0] - c->stored[1] - c->stored[2]; /* in integers, as the kernels */
    for (int j = 0; j < 3; j++)
        a.v[j] = c->stored[j] / 65535.0;
    a.v[3] = implied / 65535.0;
    /* the kernels' own reading (float) agrees to float precision */
    uint16_t w16[3] = {c->stored[0], c->stored[1], c->stored[2]};
    packed_mesh m = {.count = 1, .influences = 4, .weight_format = PACKED_WEIGHT_UNORM16, .weight16 = w16};
    float w[4];
    packed_weights_at(&m, 0, 4, PACKED_WEIGHT_UNORM16, w);
    for (int j = 0; j < 4; j++)
        if (!(fabs(w[j] - a.v[j]) <= 1e-7))
            abort();
    return a;
}
