/* report.c - fixed-width tables for the chapter reports (see report.h). */
#include "base/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static report_checks *collecting;

static char *copy(const char *text)
{
    size_t n = strlen(text) + 1;
    char *c = malloc(n);
    if (c)
        memcpy(c, text, n);
    return c;
}

void report_collect(report_checks *into) { collecting = into; }

void report_section(const char *heading)
{
    if (!collecting)
        return;
    free(collecting->section);
    collecting->section = copy(heading);
    collecting->out_of_memory |= collecting->section == NULL;
}

bool report_record(const char *what, report_kind kind, double computed, double reference, double tolerance,
                   bool passed)
{
    report_checks *c = collecting;
    if (!c)
        return passed;
    if (c->count == c->cap) {
        int cap = c->cap ? 2 * c->cap : 32;
        report_check *grown = realloc(c->items, sizeof *grown * (size_t)cap);
        if (!grown) {
            c->out_of_memory = true;
            return passed;
        }
        c->items = grown, c->cap = cap;
    }
    report_check r = {copy(c->section ? c->section : ""), copy(what), kind, computed, reference, tolerance, passed};
    if (!r.section || !r.what) {
        free(r.section), free(r.what);
        c->out_of_memory = true;
        return passed;
    }
    c->items[c->count++] = r;
    return passed;
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
    free(c->section);
    *c = (report_checks){0};
}

bool report_compare(FILE *out, const char *label, double computed, double reference,
                    double tolerance)
{
    double diff = fabs(computed - reference);
    bool ok = diff <= tolerance;
    fprintf(out, "  %-34s %22.15g %22.15g %11.3g  %s\n", label, computed, reference, diff,
            ok ? "ok" : "FAIL");
    return report_record(label, REPORT_COMPARE, computed, reference, tolerance, ok);
}

bool report_bound(FILE *out, const char *label, double value, double bound)
{
    bool ok = value < bound;
    fprintf(out, "  %-34s %22.6g   < %-18g %11s  %s\n", label, value, bound, "", ok ? "ok" : "FAIL");
    return report_record(label, REPORT_BOUND, value, bound, bound, ok);
}

bool report_count(FILE *out, const char *label, long computed, long reference)
{
    bool ok = computed == reference;
    fprintf(out, "  %-34s %22ld %22ld %11s  %s\n", label, computed, reference, "", ok ? "ok" : "FAIL");
    return report_record(label, REPORT_COUNT, (double)computed, (double)reference, 0, ok);
}
