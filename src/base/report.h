/* report.h - the human report on stdout: tables of computed values beside an
 * independent check (the article's value or an analytic formula) and their difference.
 * Section headings are the shell's (cli_report numbers them from a program's steps).
 * The only module in src/ that prints, besides the shell's error line and report frame.
 */
#ifndef REPORT_H
#define REPORT_H

#include <stdbool.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* "label  computed  reference  |diff|  ok/FAIL" with |diff| <= tolerance for ok.
 * Returns whether it passed. */
bool report_compare(FILE *out, const char *label, double computed, double reference,
                    double tolerance);
/* "label  value  < bound  ok/FAIL". Returns whether value < bound. */
bool report_bound(FILE *out, const char *label, double value, double bound);
/* Integer counts against the article. */
bool report_count(FILE *out, const char *label, long computed, long reference);

/* Checks as data. While a list collects (report_collect), every report_compare,
 * report_bound and report_count also keeps its check as a record: the section it is in,
 * what it checks, the computed and the independent value, the tolerance (report_bound: the
 * bound; report_count: 0), and the verdict; a check a report prints in a table of its own
 * adds its record with report_record. The shell collects a program's whole report and
 * writes the records as <program>-checks.json (src/program/cli.h). This is the module's one
 * piece of state: where records go while a report is printed. */
/* compare: |computed - reference| <= tolerance; bound: computed < reference; above: computed >
 * reference; count: computed == reference. */
typedef enum { REPORT_COMPARE, REPORT_BOUND, REPORT_COUNT, REPORT_ABOVE } report_kind;
typedef struct {
    char *section;               /* "5. Ring radius ..." */
    char *what;                  /* the check's label */
    report_kind kind;
    double computed, reference, tolerance;
    bool passed;
} report_check;
typedef struct report_checks {
    report_check *items;
    int count, cap;
    bool out_of_memory;          /* a record could not be kept: the list is incomplete */
    char *section;               /* the section the next records belong to */
} report_checks;
/* Records go to `into` from now on (NULL: nowhere). */
void report_collect(report_checks *into);
/* The section of the records that follow (copied). */
void report_section(const char *heading);
/* A check printed by its caller: recorded only. Returns passed. */
bool report_record(const char *what, report_kind kind, double computed, double reference, double tolerance,
                   bool passed);
const char *report_kind_name(report_kind kind); /* "compare", "bound", "count", "above" */
void report_checks_free(report_checks *c);

#ifdef __cplusplus
}
#endif

#endif
