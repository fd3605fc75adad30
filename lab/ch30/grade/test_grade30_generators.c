/* test_grade30_generators.c - the generated cases of the sheets' exercises (8 to 24) cover
 * what the grader's page promises: skeletons with a parent listed after its child and below
 * -1, several roots, skins without inverse binds and with JOINTS slots that are not nodes,
 * the cylinder, an asset and generated scenes; dual quaternions refused at 0, below the
 * threshold and not finite, tiny ones kept, negated ones; angles beyond a half turn; every
 * normal method and policy and each policy's result; ties, more and fewer than four
 * influences; open and closed fans; bones sharing a vertex's nearest distance. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_all.h"

#include "grade30.h"
#include "math/quat.h"

#define SEED 30

/* The generated cases cover what the grader's page promises for the sheets. */
static void test_grade30_generators_cover_the_page(void **state)
{
    (void)state;
    int broken[2] = {0}, roots = 0, no_ibm = 0, slots_not_nodes = 0, big = 0, refused[3] = {0}, tiny_kept = 0,
        negated = 0, beyond = 0, methods[3] = {0}, results[7] = {0}, policies[3] = {0}, ties = 0, over_four = 0,
        under_four = 0, fans[2] = {0}, shared_bones = 0, sources[3] = {0};
    static grade30_case c;
    for (int x = GRADE30_SKELETON_WORLD; x < GRADE30_EXERCISE_COUNT; x++) {
        const grade30_entry *e = grade30_exercises[x];
        if (e->shape == GRADE_ELSEWHERE)
            continue;
        for (int i = 0; i < e->named + e->generated; i++) {
            e->make_case(i, SEED, &c);
            grade30_answer a = e->expected(&c);
            switch ((grade30_exercise)x) {
            case GRADE30_SKELETON_WORLD:
                if (a.v[0] >= 0)
                    broken[c.parent[(int)a.v[0]] < -1]++; /* a parent after its child, or below -1 */
                for (int j = 1; j < c.nodes; j++)
                    roots += c.parent[j] == -1;
                break;
            case GRADE30_PALETTE:
            case GRADE30_SKIN_MESH:
                no_ibm += c.no_inverse_bind;
                for (int j = 0; j < c.joints; j++)
                    slots_not_nodes += c.skin_joints[j] != j;
                big += c.vertices > 100;
                sources[c.source]++;
                break;
            case GRADE30_DQ_NORMALIZE: {
                double n = quat_norm(c.q[0].real);
                refused[!isfinite(n) ? 2 : n == 0 ? 0 : 1] += a.v[0] == 0;
                tiny_kept += a.v[0] == 1 && n < 1e-6;
                break;
            }
            case GRADE30_DQ_TRANSFORM: negated += c.q[0].real.w < 0; break;
            case GRADE30_LBS_TURN:
            case GRADE30_DQS_TURN: beyond += fabs(c.theta) > LAB_PI; break;
            case GRADE30_SKIN_NORMAL: methods[c.method]++; break;
            case GRADE30_POLICY: results[(int)a.v[0]]++, policies[c.method]++; break;
            case GRADE30_KEEP_HEAVIEST:
                over_four += c.k > 4, under_four += c.k < 4;
                for (int j = 0; j < c.k; j++)
                    for (int m = 0; m < j; m++)
                        ties += c.weight[j] == c.weight[m] && c.weight[j] > 0;
                break;
            case GRADE30_COTAN_ROW: fans[c.closed]++; break;
            case GRADE30_HEAT_ROW: shared_bones += c.ties > 1; break;
            default: break;
            }
        }
    }
    assert_true(broken[0] > 0 && broken[1] > 0 && roots > 0 && no_ibm > 0 && slots_not_nodes > 0 && big > 0);
    assert_true(sources[GRADE30_FROM_CYLINDER] > 0 && sources[GRADE30_FROM_ASSET] > 0 && sources[0] > 0);
    assert_true(refused[0] > 0 && refused[1] > 0 && refused[2] > 0 && tiny_kept > 0 && negated > 0 && beyond > 0);
    for (int k = 0; k < 3; k++)
        assert_true(methods[k] > 0 && policies[k] > 0);
    for (int k = 0; k < 7; k++)
        if (results[k] == 0)
            fail_msg("no case of the policies' result %d", k);
    assert_true(ties > 0 && over_four > 0 && under_four > 0 && fans[0] > 0 && fans[1] > 0 && shared_bones > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_grade30_generators_cover_the_page)};
    return cmocka_run_group_tests_name("the sheets' generators", tests, NULL, NULL);
}
