/* reference.c - a correct sheet of chapter @NN@, which the grader's suite grades correct
 * (test_grade@NN@.c). Written from exercises@NN@.h alone, apart from the exercise's answer. */
#include <math.h>

#include "exercises@NN@.h"

vec3 ex@NN@_turn(vec3 p, double theta)
{
    double c = cos(theta), s = sin(theta);
    return vec3_make(c * p.x - s * p.y, s * p.x + c * p.y, p.z);
}
