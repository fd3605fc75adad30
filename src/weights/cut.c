/* cut.c - the K heaviest weights of a vertex (see cut.h). */
#include "weights/cut.h"

int weights_cut(const double *w, int J, int K, double *out)
{
    int nonzero = 0;
    double sum = 0.0;
    for (int j = 0; j < J; j++) {
        out[j] = 0.0;
        nonzero += w[j] != 0.0;
    }
    for (int k = 0; k < K; k++) { /* the heaviest not yet taken, the lower joint on a tie */
        int best = -1;
        for (int j = 0; j < J; j++)
            if (out[j] == 0.0 && w[j] > 0.0 && (best < 0 || w[j] > w[best]))
                best = j;
        if (best < 0)
            break;
        out[best] = w[best], sum += w[best];
    }
    for (int j = 0; j < J && sum > 0.0; j++)
        out[j] /= sum;
    return nonzero;
}
