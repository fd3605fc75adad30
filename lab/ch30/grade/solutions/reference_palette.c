/* reference_palette.c - one correct answer to the packed vertex's sheet (lab/ch30/sheets/palette.c, exercises 18 and 19), for the grader's
 * tests and for a student who wants to compare after trying:
 * make grade30 SHEET=palette EXERCISES=lab/ch30/grade/solutions/reference_palette.c exits 0. Each
 * formula in its own lines, as a student would write it. */
#include <math.h>
#include <stdbool.h>

#include "exercises30.h"
#include "math/quat.h"

/* 18: a selection of the heaviest, then the division */
int ex30_keep_heaviest(const int *joint, const double *weight, int k, int *out_joint, double *out_weight)
{
    bool taken[8] = {false};
    int kept = k < 4 ? k : 4;
    double sum = 0;
    for (int s = 0; s < kept; s++) {
        int best = -1;
        for (int i = 0; i < k; i++)
            if (!taken[i] && (best < 0 || weight[i] > weight[best] || (weight[i] == weight[best] && joint[i] < joint[best])))
                best = i;
        taken[best] = true;
        out_joint[s] = joint[best], out_weight[s] = weight[best];
        sum += weight[best];
    }
    for (int s = 0; s < kept; s++)
        out_weight[s] /= sum;
    return kept;
}

/* 19: the implied weight in integers */
void ex30_unpack_weights(const unsigned short stored[3], double w[4])
{
    int implied = 65535 - stored[0] - stored[1] - stored[2];
    for (int i = 0; i < 3; i++)
        w[i] = stored[i] / 65535.0;
    w[3] = implied / 65535.0;
}
