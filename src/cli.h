/* cli.h - the command-line pieces every chapter program shares (design.md's contract). */
#ifndef CLI_H
#define CLI_H

#include <stddef.h>

#include "diag.h"

/* Exit codes of the contract. */
enum { CLI_EXIT_OK = 0, CLI_EXIT_REJECTED = 1, CLI_EXIT_USAGE = 2, CLI_EXIT_OUTPUT = 3 };

/* Parses "a,b,c" into at most `max` doubles. Returns the count, or -1 with a message in
 * err when a field is not a number or there are too many. */
int cli_parse_doubles(const char *text, double *out, int max, char *err, size_t err_size);

/* Prints "<lab>: error: <rule>, <where>, <value>" to stderr and returns exit_code. */
int cli_fail(const char *lab, const lab_diag *d, int exit_code);

#endif
