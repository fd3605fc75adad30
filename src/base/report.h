/* report.h - the human report on stdout: tables of computed values beside an
 * independent check (the article's value or an analytic formula) and their difference.
 * Section headings are the shell's (cli_report numbers them from a program's steps).
 * The only module in src/ that prints, besides the shell's error line and report frame.
 */
#ifndef REPORT_H
#define REPORT_H

#include <stdbool.h>
#include <stdio.h>

/* "label  computed  reference  |diff|  ok/FAIL" with |diff| <= tolerance for ok.
 * Returns whether it passed. */
bool report_compare(FILE *out, const char *label, double computed, double reference,
                    double tolerance);
/* "label  value  < bound  ok/FAIL". Returns whether value < bound. */
bool report_bound(FILE *out, const char *label, double value, double bound);
/* Integer counts against the article. */
bool report_count(FILE *out, const char *label, long computed, long reference);

#endif
