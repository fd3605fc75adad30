/* report.c - fixed-width tables for the chapter reports (see report.h). */
#include "base/report.h"

#include <math.h>

bool report_compare(FILE *out, const char *label, double computed, double reference,
                    double tolerance)
{
    double diff = fabs(computed - reference);
    bool ok = diff <= tolerance;
    fprintf(out, "  %-34s %22.15g %22.15g %11.3g  %s\n", label, computed, reference, diff,
            ok ? "ok" : "FAIL");
    return ok;
}

bool report_bound(FILE *out, const char *label, double value, double bound)
{
    bool ok = value < bound;
    fprintf(out, "  %-34s %22.6g   < %-18g %11s  %s\n", label, value, bound, "", ok ? "ok" : "FAIL");
    return ok;
}

bool report_count(FILE *out, const char *label, long computed, long reference)
{
    bool ok = computed == reference;
    fprintf(out, "  %-34s %22ld %22ld %11s  %s\n", label, computed, reference, "", ok ? "ok" : "FAIL");
    return ok;
}
