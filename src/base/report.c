/* report.c - checks as data and their report lines (see report.h). */
#include "base/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static char *copy(const char *text)
{
    size_t n = strlen(text) + 1;
    char *c = malloc(n);
    if (c)
        memcpy(c, text, n);
    return c;
}

/* ---- records --------------------------------------------------------------------------- */

/* Adds a record to c (section copied, NULL stays NULL). Returns passed. */
static bool add(report_checks *c, const char *section, const char *what, report_kind kind, double computed,
                double reference, double tolerance, bool passed)
{
    if (c->count == c->cap) {
        int cap = c->cap ? 2 * c->cap : 32;
        report_check *grown = realloc(c->items, sizeof *grown * (size_t)cap);
        if (!grown) {
            c->out_of_memory = true;
            return passed;
        }
        c->items = grown, c->cap = cap;
    }
    report_check r = {section ? copy(section) : NULL, copy(what), kind, computed, reference, tolerance, passed};
    if ((section && !r.section) || !r.what) {
        free(r.section), free(r.what);
        c->out_of_memory = true;
        return passed;
    }
    c->items[c->count++] = r;
    return passed;
}

bool check_add(report_checks *into, const char *what, report_kind kind, double computed, double reference,
               double tolerance, bool passed)
{
    return add(into, NULL, what, kind, computed, reference, tolerance, passed);
}

/* |computed - reference| <= tolerance, written so that NaN fails (!(a > b) and friends
 * would let it pass). */
static bool compare_passes(double computed, double reference, double tolerance)
{
    return fabs(computed - reference) <= tolerance;
}

bool check_compare(report_checks *into, const char *what, double computed, double reference, double tolerance)
{
    return check_add(into, what, REPORT_COMPARE, computed, reference, tolerance,
                     compare_passes(computed, reference, tolerance));
}

bool check_bound(report_checks *into, const char *what, double value, double bound)
{
    return check_add(into, what, REPORT_BOUND, value, bound, bound, value < bound);
}

bool check_above(report_checks *into, const char *what, double value, double bound)
{
    return check_add(into, what, REPORT_ABOVE, value, bound, bound, value > bound);
}

bool check_count(report_checks *into, const char *what, long computed, long reference)
{
    return check_add(into, what, REPORT_COUNT, (double)computed, (double)reference, 0, computed == reference);
}

bool checks_passed(const report_checks *c)
{
    bool ok = !c->out_of_memory;
    for (int i = 0; i < c->count; i++)
        ok &= c->items[i].passed;
    return ok;
}

void checks_append(report_checks *into, const report_checks *from, const char *section)
{
    into->out_of_memory |= from->out_of_memory;
    for (int i = 0; i < from->count; i++) {
        const report_check *r = &from->items[i];
        add(into, section, r->what, r->kind, r->computed, r->reference, r->tolerance, r->passed);
    }
}

const char *report_kind_name(report_kind kind)
{
    return kind == REPORT_COMPARE ? "compare" : kind == REPORT_BOUND ? "bound" : kind == REPORT_ABOVE ? "above" : "count";
}

void report_checks_free(report_checks *c)
{
    for (int i = 0; i < c->count; i++)
        free(c->items[i].section), free(c->items[i].what);
    free(c->items);
    *c = (report_checks){0};
}

/* ---- rows ------------------------------------------------------------------------------- */

void report_row(FILE *out, const report_check *c)
{
    const char *verdict = c->passed ? "ok" : "FAIL";
    if (c->kind == REPORT_COMPARE)
        fprintf(out, "  %-34s %22.15g %22.15g %11.3g  %s\n", c->what, c->computed, c->reference,
                fabs(c->computed - c->reference), verdict);
    else if (c->kind == REPORT_COUNT)
        fprintf(out, "  %-34s %22ld %22ld %11s  %s\n", c->what, (long)c->computed, (long)c->reference, "", verdict);
    else
        fprintf(out, "  %-34s %22.6g   %c %-18g %11s  %s\n", c->what, c->computed,
                c->kind == REPORT_BOUND ? '<' : '>', c->reference, "", verdict);
}

void report_rows(FILE *out, const report_checks *c)
{
    for (int i = 0; i < c->count; i++)
        report_row(out, &c->items[i]);
}
