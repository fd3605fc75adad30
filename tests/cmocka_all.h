/* cmocka_all.h - cmocka with what it needs before its header, and the lab's assertions on
 * numbers, which print both values, their difference and the tolerance when they fail (a
 * bare assert_true(fabs(a - b) < tol) prints neither). */
#ifndef CMOCKA_ALL_H
#define CMOCKA_ALL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

/* |computed - expected| <= tolerance; NaN never passes. */
#define assert_near(computed, expected, tolerance) \
    tu_assert_near((double)(computed), (double)(expected), (double)(tolerance), #computed, #expected, __FILE__, \
                   __LINE__)

static inline void tu_assert_near(double computed, double expected, double tolerance, const char *computed_text,
                                  const char *expected_text, const char *file, int line)
{
    double difference = computed - expected;
    if (difference < 0)
        difference = -difference;
    if (difference <= tolerance) /* false for NaN */
        return;
    print_error("%s:%d: %s = %.17g\n    expected %s = %.17g\n    difference %.3g, tolerance %.3g\n", file, line,
                computed_text, computed, expected_text, expected, difference, tolerance);
    _fail(file, line);
}

#endif
