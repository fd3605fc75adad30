/* report.h - checks as data, and their lines in the human report on stdout: each computed
 * value beside its independent check (the article's value or an analytic formula), their
 * difference and the verdict. A program's stage decides its checks (check_*) where it makes
 * the numbers; the shell (src/program/cli.h) numbers the sections, records the checks
 * under them and writes <program>-checks.json; the report's bodies print the rows. No
 * state: every list is the caller's.
 */
#ifndef REPORT_H
#define REPORT_H

#include <stdbool.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Checks as data. A check is a record: the section it is in, what it checks, the computed
 * and the independent value, the tolerance (a bound: the bound; a count: 0), and the
 * verdict. */
/* compare: |computed - reference| <= tolerance; bound: computed < reference; above: computed >
 * reference; count: computed == reference. NaN fails every kind. */
typedef enum { REPORT_COMPARE, REPORT_BOUND, REPORT_COUNT, REPORT_ABOVE } report_kind;
typedef struct {
    char *section;               /* "5. Ring radius ..."; NULL until the shell stamps it */
    char *what;                  /* the check's label */
    report_kind kind;
    double computed, reference, tolerance;
    bool passed;
} report_check;
typedef struct report_checks {
    report_check *items;
    int count, cap;
    bool out_of_memory;          /* a record could not be kept: the list is incomplete */
} report_checks;

/* ---- Verdicts where the numbers are made ----------------------------------------------
 * A program's stage decides its checks into a list it returns (the caller owns it, zeroed
 * to start): each call adds one record and returns whether it passed.
 *
 *     report_checks checks = {0};
 *     check_bound(&checks, "largest displacement (216 vertices)", error, 1e-12);
 *
 * The shell (src/program/cli.h, cli_section) gives the records their section, prints the
 * verdict line and writes <program>-checks.json; the report's printers print a record with
 * report_row and decide nothing. A record that cannot be kept sets out_of_memory, which
 * the shell turns into the contract's exit 3. */
bool check_compare(report_checks *into, const char *what, double computed, double reference, double tolerance);
bool check_bound(report_checks *into, const char *what, double value, double bound);
bool check_above(report_checks *into, const char *what, double value, double bound);
bool check_count(report_checks *into, const char *what, long computed, long reference);
/* A check with a rule of the stage's own (a table's row, a refusal): recorded as given. */
bool check_add(report_checks *into, const char *what, report_kind kind, double computed, double reference,
               double tolerance, bool passed);
/* Whether every record passed and none was lost. */
bool checks_passed(const report_checks *c);
/* Appends copies of from's records to into, each under `section` (copied). */
void checks_append(report_checks *into, const report_checks *from, const char *section);
/* The report's line of a check: "what  computed  reference  |diff|  ok/FAIL" for a
 * comparison, "what  value  < bound  ok/FAIL" for a bound (">" above), "what  computed
 * reference  ok/FAIL" for a count. */
void report_row(FILE *out, const report_check *c);
void report_rows(FILE *out, const report_checks *c); /* every record, in order */
const char *report_kind_name(report_kind kind); /* "compare", "bound", "count", "above" */
void report_checks_free(report_checks *c);

#ifdef __cplusplus
}
#endif

#endif
