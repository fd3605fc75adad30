/* alternative_palette.c - a second correct answer to the packed vertex's sheet, written apart
 * from reference_palette.c in other forms (an insertion sort of a copy, a multiplication by
 * the sum's reciprocal, the implied weight as 1 minus the stored ones in doubles):
 * test_grade30_make grades it correct through make grade30 SHEET=palette. */
#include "exercises30.h"
int ex30_keep_heaviest(const int *joint, const double *weight, int k, int *out_joint, double *out_weight)
{
    int j[8];
    double w[8];
    for (int i = 0; i < k; i++) {
        int at = i;
        while (at > 0 && (w[at - 1] < weight[i] || (w[at - 1] == weight[i] && j[at - 1] > joint[i]))) {
            j[at] = j[at - 1], w[at] = w[at - 1];
            at--;
        }
        j[at] = joint[i], w[at] = weight[i];
    }
    int kept = k > 4 ? 4 : k;
    double sum = 0;
    for (int i = 0; i < kept; i++) sum += w[i];
    for (int i = 0; i < kept; i++) out_joint[i] = j[i], out_weight[i] = w[i] * (1 / sum);
    return kept;
}
void ex30_unpack_weights(const unsigned short stored[3], double w[4])
{
    const double unit = 1.0 / 65535;
    w[0] = stored[0] * unit, w[1] = stored[1] * unit, w[2] = stored[2] * unit;
    w[3] = 1 - (w[0] + w[1] + w[2]);
}
