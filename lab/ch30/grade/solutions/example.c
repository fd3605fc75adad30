/* example.c - the worked example of lab/ch30/grade/README.md: the reference solution with
 * one mistake, a missing inverse bind (C_j = G_j). make grade30
 * EXERCISES=lab/ch30/grade/solutions/example.c grades it; test_grade30 checks that the
 * page's picture, example.png, is exercise 2's picture it draws. */
#define ex30_skin_matrix reference_skin_matrix
#include "reference.c"
#undef ex30_skin_matrix

mat4 ex30_skin_matrix(mat4 world, mat4 inverse_bind)
{
    (void)inverse_bind; /* the mistake: B_j^-1 left out */
    return world;
}
