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
    char *section;               /* the section the next records belong to */
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
/* The report's line of a check, as report_compare, report_bound and report_count print it
 * (an "above" check as a bound with ">"). */
void report_row(FILE *out, const report_check *c);
void report_rows(FILE *out, const report_checks *c); /* every record, in order */
const char *report_kind_name(report_kind kind); /* "compare", "bound", "count", "above" */
void report_checks_free(report_checks *c);

/* ---- The older shell's collector (cli_main's step tables) -------------------------------
 * While a list collects (report_collect), every report_compare, report_bound and
 * report_count also keeps its check as a record; a check a report prints in a table of its
 * own adds its record with report_record. This is the module's one piece of state, kept
 * only for the programs still on cli_main's step tables (see DESIGN.md); a program in the
 * template's shape decides its checks with check_* above and never touches it. */
/* Records go to `into` from now on (NULL: nowhere). */
void report_collect(report_checks *into);
/* The section of the records that follow (copied). */
void report_section(const char *heading);
/* A check printed by its caller: recorded only. Returns passed. */
bool report_record(const char *what, report_kind kind, double computed, double reference, double tolerance,
                   bool passed);

#ifdef __cplusplus
}
#endif

#endif
