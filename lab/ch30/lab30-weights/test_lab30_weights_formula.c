/* test_lab30_weights_formula.c - the library's bone heat held to the program's lines:
 * lab30-weights.c writes the paper's system (-L + M H) w_j = M H p_j and its solve
 * (paper_heat); src/weights/heat_solve.c's heat_solve with HEAT_PAPER must give the same
 * weights, to the last bit, and the same backward errors, on both of the chapter's rigs at
 * the paper's c = 1, at both ends of --heat-c's range and at seeded values between. */
#define _POSIX_C_SOURCE 200809L
/* The formula is the program's own: its file is compiled into this suite, main renamed. */
#define main lab30_weights_main
#include "lab30-weights.c"
#undef main

#include "cmocka_all.h"

static void test_paper_heat_matches_the_library(void **state)
{
    (void)state;
    double c[6] = {1.0, 0.1, 100.0};
    unsigned long long x = 2007;
    for (int i = 3; i < 6; i++) { /* seeded, log-uniform over [0.1, 100] */
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        c[i] = 0.1 * pow(1000.0, (double)(x >> 11) / 9007199254740992.0);
    }
    for (int kind = 0; kind < 2; kind++) {
        rig30_rig rig;
        assert_int_equal(rig30_rig_build(&rig, (rig30_kind)kind, NULL, NULL), LAB_OK);
        heat_bone bones[WEIGHTS30_BONES];
        weights30_rig_bones(&rig, bones);
        for (int i = 0; i < 6; i++) {
            heat_result mine, library;
            assert_int_equal(paper_heat(&rig.bind, bones, c[i], &mine, NULL), LAB_OK);
            assert_int_equal(heat_solve(&rig.bind, HEAT_PAPER, bones, WEIGHTS30_BONES, RIG30_JOINTS, c[i], &library, NULL),
                             LAB_OK);
            int differ = 0;
            for (int k = 0; k < WEIGHTS30_VERTS * RIG30_JOINTS; k++)
                differ += mine.solution[k] != library.solution[k] || mine.weights[k] != library.weights[k];
            for (int j = 0; j < RIG30_JOINTS; j++)
                differ += mine.backward_error[j] != library.backward_error[j];
            differ += mine.hidden != library.hidden || mine.obtuse_triangles != library.obtuse_triangles;
            if (differ)
                fail_msg("%s rig, c = %.17g: %d values of the program's solve differ from heat_solve's",
                         rig30_kind_name((rig30_kind)kind), c[i], differ);
            heat_result_free(&mine), heat_result_free(&library);
        }
        rig30_rig_free(&rig);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_paper_heat_matches_the_library),
    };
    return cmocka_run_group_tests_name("lab30-weights' bone heat against the library's", tests, NULL, NULL);
}
