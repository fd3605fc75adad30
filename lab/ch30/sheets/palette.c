/* palette.c - chapter 30's sheet of the packed vertex (exercises 18 and 19, taught on
 * lab/ch30/lab30-palette/README.md#exercises-the-packed-vertex): the four heaviest
 * influences, and the implied last weight. exercises30.h says what each takes and
 * returns. Then
 *
 *     make grade30 SHEET=palette */
#include "exercises30.h"

/* The min(k, 4) heaviest, heaviest first (ties: the lower joint), divided by their sum. */
int ex30_keep_heaviest(const int *joint, const double *weight, int k, int *out_joint, double *out_weight)
{
    (void)joint, (void)weight, (void)k, (void)out_joint, (void)out_weight;
    NOT_WRITTEN_YET();
    return 0;
}

/* w_i = stored[i] / 65535; w_3 = (65535 - the stored sum) / 65535. */
void ex30_unpack_weights(const unsigned short stored[3], double w[4])
{
    (void)stored;
    w[0] = w[1] = w[2] = w[3] = 0;
    NOT_WRITTEN_YET();
}
