/* cli.h - the command-line pieces every chapter program shares (design.md's contract). */
#ifndef CLI_H
#define CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "diag.h"
#include "output.h"

/* Exit codes of the contract. */
enum { CLI_EXIT_OK = 0, CLI_EXIT_REJECTED = 1, CLI_EXIT_USAGE = 2, CLI_EXIT_OUTPUT = 3 };

/* Parses "a,b,c" into at most `max` doubles. Returns the count, or -1 with a message in
 * err when a field is not a number or there are too many. */
int cli_parse_doubles(const char *text, double *out, int max, char *err, size_t err_size);

/* Prints "<lab>: error: <rule>, <where>, <value>" to stderr and returns exit_code. */
int cli_fail(const char *lab, const lab_diag *d, int exit_code);

/* The start of every main, after parsing: parsed = 1 (--help) prints usage on stdout and
 * returns 0; parsed < 0 prints err and usage on stderr and returns 2; otherwise *outdir
 * must be an existing, writable directory (exit 3 with the contract's message when it is
 * not). Returns -1, meaning "run", or the exit code. */
int cli_start(const char *lab, int parsed, const char *err, void (*usage)(FILE *to),
              const char *const *outdir);

/* The end of every main: the outputs were built (build_error, with build_diag) and the
 * report printed (checks_ok). A build error exits 3; a failed self-check writes nothing
 * and exits 1; otherwise the batch is committed to outdir all or nothing (exit 0 or 3).
 * Frees the batch. */
int cli_finish(const char *lab, output_batch *batch, lab_error build_error,
               const lab_diag *build_diag, bool checks_ok, const char *outdir);

#endif
