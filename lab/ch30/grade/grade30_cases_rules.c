/* grade30_cases_rules.c - the cases of the closed form and the rules (grade30_table.h): 4 the
 * ring radius (rig30_radius_ratio), 5 the weight rules (skin_validate_influences). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "math/dualquat.h"
#include "math/linalg.h"
#include "math/quat.h"
#include "skin/influences.h"
#include "rig30_check.h"

#include "grade30_random.h"
#include "grade30_table.h"

/* ---- 4. the ring radius --------------------------------------------------------------- */

void grade30_radius_case(int i, uint64_t seed, grade30_case *c)
{
    static const struct { const char *what; double w, theta_deg; } named[] = {
        {"the middle ring (w = 0.5) at 180 deg: the collapse, r' = 0", 0.5, 180},
        {"the middle ring (w = 0.5) at 90 deg: sqrt(1/2)", 0.5, 90},
        {"a quarter weight: w = 0.25 at 120 deg: sqrt(7)/4", 0.25, 120},
        {"ring 1 (w = 0.125) at -270 deg", 0.125, -270},
        {"the ends (w = 0 and 1) keep r' = r at any twist: w = 1 at 123 deg", 1, 123},
    };
    grade30_case_clear(c);
    if (i < COUNT(named)) {
        snprintf(c->what, sizeof c->what, "%s", named[i].what);
        c->w = named[i].w, c->theta = DEG(named[i].theta_deg);
        return;
    }
    static const double weights[] = {0, 1, 0.5, 0.25, 0.125, 0.875};
    rng r = stream(seed, 3, i);
    c->w = below(&r, 5) == 0 ? weights[below(&r, COUNT(weights))] : uniform(&r, 0, 1);
    double deg = angle_deg(&r);
    c->theta = DEG(deg);
    char d[96];
    snprintf(d, sizeof d, "w = %.17g, theta = %.17g deg (%.17g rad)", c->w, deg, c->theta);
    words(c, d, seed);
}

grade30_answer grade30_radius_expected(const grade30_case *c)
{
    return grade30_answer_number(rig30_radius_ratio(c->w, c->theta));
}

/* ---- 5. the weight rules -------------------------------------------------------------- */

void grade30_weights_case(int i, uint64_t seed, grade30_case *c)
{
    static const struct { const char *what; double w[2]; } named[] = {
        {"the middle ring's weights 0.5, 0.5", {0.5, 0.5}},
        {"a quarter weight: 0.75, 0.25", {0.75, 0.25}},
        {"weights 0.4, 0.4 (sum 0.8, \"Weights that do not sum to 1\")", {0.4, 0.4}},
        {"weights -0.5, 1.5: sum 1, one negative", {-0.5, 1.5}},
        {"weights 0.5, 0.5 + 1e-13: within 1e-12 of 1", {0.5, 0.5 + 1e-13}},
        {"weights 0.5, 0.5 + 1e-11: beyond 1e-12", {0.5, 0.5 + 1e-11}},
        {"weights 0, 1: an end ring, valid", {0, 1}},
        /* 1 + 1e-12 itself rounds to 1 + 4504 * 2^-52, so |sum - 1| <= 1e-12 and sum <= 1 + 1e-12
         * differ on that one double: the cases stand either side of it, where every form agrees */
        {"weights 0.5, 0.5 + 4503 * 2^-52: the sum the last double within 1e-12 above 1", {0.5, 0.5 + 4503 * 0x1p-52}},
        {"weights 0.5, 0.5 + 4505 * 2^-52: the sum beyond 1e-12 above 1 in every form", {0.5, 0.5 + 4505 * 0x1p-52}},
        {"weights 0.5, 0.5 - 9007 * 2^-53: the sum the last double within 1e-12 below 1", {0.5, 0.5 - 9007 * 0x1p-53}},
        {"weights 0.5, 0.5 - 9008 * 2^-53: the sum the first double beyond 1e-12 below 1", {0.5, 0.5 - 9008 * 0x1p-53}},
    };
    grade30_case_clear(c);
    if (i < COUNT(named)) {
        snprintf(c->what, sizeof c->what, "%s", named[i].what);
        c->k = 2, c->weight[0] = named[i].w[0], c->weight[1] = named[i].w[1];
        return;
    }
    rng r = stream(seed, 4, i);
    int k = below(&r, GRADE30_MAX_K + 1), kind = i % 8;
    double total = 0;
    for (int j = 0; j < k; j++)
        total += c->weight[j] = uniform(&r, 0.05, 1);
    for (int j = 0; j < k; j++)
        c->weight[j] /= total;
    int at = k ? below(&r, k) : 0, other = k > 1 ? (at + 1 + below(&r, k - 1)) % k : at;
    static const char *const kinds[] = {"valid",           "one negative, the sum kept", "off the sum",
                                        "a NaN",           "an infinity",                "-0.0 among valid ones",
                                        "two rules broken", "the sum at the tolerance's edge"};
    if (k > 0)
        switch (kind) {
        case 1: c->weight[other] += c->weight[at] + 0.25, c->weight[at] = -0.25; break;
        case 2: {
            double by = (below(&r, 2) ? 1 : -1) * (below(&r, 2) ? uniform(&r, 1e-11, 1e-6) : uniform(&r, 0.01, 0.5));
            for (int j = 0; j < k; j++)
                c->weight[j] *= 1 + by;
            break;
        }
        case 3: c->weight[at] = NAN; break;
        case 4: c->weight[at] = below(&r, 2) ? INFINITY : -INFINITY; break;
        case 5: c->weight[other] += c->weight[at], c->weight[at] = -0.0; break;
        case 6: /* a negative and an off sum, or a NaN beside a negative, in either order */
            c->weight[at] = -uniform(&r, 0.01, 1);
            if (k > 1)
                c->weight[other] = below(&r, 2) ? NAN : c->weight[other] * 3;
            break;
        case 7: {
            double by = (below(&r, 2) ? 1 : -1) * (below(&r, 2) ? 4e-13 : 4e-12);
            for (int j = 0; j < k; j++)
                c->weight[j] *= 1 + by;
            break;
        }
        default: break;
        }
    c->k = k;
    char d[200];
    size_t used = (size_t)snprintf(d, sizeof d, "%s, k = %d:", k ? kinds[kind] : "no influences", k);
    for (int j = 0; j < k && used < sizeof d; j++)
        used += (size_t)snprintf(d + used, sizeof d - used, " %.17g", c->weight[j]);
    words(c, d, seed);
}

/* The lab's strict validation of one vertex of k influences (every slot joint 0 of a
 * one-joint palette, so only the weights' rules speak). */
grade30_answer grade30_weights_expected(const grade30_case *c)
{
    if (c->k == 0)
        return grade30_answer_rule(EX30_WEIGHTS_NOT_SUMMING_TO_ONE);
    int joint[GRADE30_MAX_K] = {0};
    double weight[GRADE30_MAX_K];
    memcpy(weight, c->weight, sizeof weight);
    skin_influences in = {.vertex_count = 1, .per_vertex = c->k, .joint = joint, .weight = weight};
    switch (skin_validate_influences(&in, 1, NULL)) {
    case LAB_OK: return grade30_answer_rule(EX30_WEIGHTS_VALID);
    case LAB_ERR_WEIGHT_NOT_FINITE: return grade30_answer_rule(EX30_WEIGHTS_NOT_FINITE);
    case LAB_ERR_WEIGHT_NEGATIVE: return grade30_answer_rule(EX30_WEIGHTS_NEGATIVE);
    default: return grade30_answer_rule(EX30_WEIGHTS_NOT_SUMMING_TO_ONE);
    }
}
