/* exercises.c - chapter @NN@'s sheet: write each body, then `make grade@NN@`
 * (grade/README.md says how to read the verdicts). exercises@NN@.h says what each function
 * takes and returns. */
#include <math.h>

#include "exercises@NN@.h"

/* p' = Rz(theta) p. */
vec3 ex@NN@_turn(vec3 p, double theta)
{
    (void)theta;
    NOT_WRITTEN_YET();
    return p;
}
