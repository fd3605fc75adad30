/* cli.h - the shell every chapter program shares: a declared option table, its parser and
 * validator, the --help text generated from it, the OUTDIR check, the contract's error
 * line, the self-check verdict and the atomic commit (DESIGN.md).
 *
 * A program declares what it takes and gets parsed, range-checked values back:
 *
 *     static double theta[8] = {0, 90, 180};
 *     static int theta_count = 3;
 *     static const cli_option options[] = {
 *         {"--theta", CLI_DOUBLES, theta, .count = &theta_count, .min_count = 1,
 *          .max_count = 8, .min = -3600, .max = 3600, .distinct = true,
 *          .value_name = "DEG[,DEG...]", .help = "child-joint twist angles in degrees"},
 *     };
 *     static const cli_program program = {"lab30", "...", options, CLI_COUNT(options),
 *                                         {"OUTDIR"}, 1};
 *     const char *args[CLI_MAX_POSITIONAL];
 *     int code = cli_start(&program, argc, argv, args);
 *     if (code != CLI_RUN) return code;
 *
 * The last positional argument is OUTDIR. Every rule below is enforced before the program
 * computes anything; a broken one is a usage error (exit 2) naming the option, the value
 * and the rule.
 *
 * The rest of a main is the chapter, in the template's shape (cli_run, below): its stages
 * in the article's order, each a function with typed inputs and outputs that decides its
 * checks where it makes its numbers, then the report, whose sections the main numbers in
 * the order it prints them, then the all-or-nothing commit.
 */
#ifndef CLI_H
#define CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/diag.h"
#include "program/output.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Exit codes of the contract. */
enum { CLI_EXIT_OK = 0, CLI_EXIT_REJECTED = 1, CLI_EXIT_USAGE = 2, CLI_EXIT_OUTPUT = 3 };
#define CLI_RUN (-1)             /* cli_start: go on with the program */
#define CLI_MAX_POSITIONAL 4
/* The number of entries of a table declared in the same scope, counted by the compiler: a
 * program passes CLI_COUNT(options) and CLI_COUNT(steps), so an entry added to a table is
 * never dropped by a count kept by hand. */
#define CLI_COUNT(table) ((int)(sizeof(table) / sizeof((table)[0])))

typedef enum {
    CLI_FLAG,      /* no value; *(bool *)target = true */
    CLI_DOUBLES,   /* "a,b,c" into (double *)target: min_count..max_count finite numbers,
                    * each in [min, max] when min < max; *count = how many (may be NULL);
                    * distinct: no value twice; broadcast: a single value fills all
                    * max_count (then exactly 1 or max_count values) */
    CLI_INT,       /* a decimal integer in [min, max] into *(int *)target */
    CLI_CHOICE,    /* one of choices (NULL-terminated); *(int *)target = its index */
    CLI_STRING,    /* any text; *(const char **)target = the argument itself */
    CLI_CUSTOM     /* parse(value, target, context, err, size) returns 0 or -1 with err */
} cli_kind;

typedef struct {
    const char *name;                /* "--theta" */
    cli_kind kind;
    void *target;
    int *count;                      /* CLI_DOUBLES */
    int min_count, max_count;        /* CLI_DOUBLES; 0, 0 means exactly 1 */
    double min, max;                 /* CLI_DOUBLES, CLI_INT */
    bool distinct, broadcast;        /* CLI_DOUBLES */
    const char *const *choices;      /* CLI_CHOICE */
    int (*parse)(const char *value, void *target, const void *context, char *err, size_t size);
    const void *context;             /* CLI_CUSTOM */
    const char *value_name;          /* in the usage line, e.g. "DEG[,DEG...]" */
    const char *help;                /* one or more lines, '\n' between them */
    bool *given;                     /* set when the option appears (may be NULL) */
} cli_option;

typedef struct {
    const char *name;                /* the program, e.g. "lab30" */
    const char *summary;             /* one line: what it computes */
    const cli_option *options;
    int option_count;
    const char *positional[CLI_MAX_POSITIONAL]; /* e.g. {"ASSET", "OUTDIR"}; the last is OUTDIR */
    int positional_count;
    const char *notes;               /* lines printed after the options (may be NULL) */
} cli_program;

/* Parses argv against the table, fills the targets and args[0 <= i < positional_count].
 * --help (or -h) prints the generated usage on stdout and returns 0; a usage error prints
 * "<name>: error: <what>" and the usage on stderr and returns 2; an OUTDIR that does not
 * exist or cannot be written gives the contract's message and 3. Otherwise CLI_RUN. */
int cli_start(const cli_program *program, int argc, char **argv, const char **args);

/* ---- A program in the template's shape ------------------------------------------------
 * A main that reads top to bottom, as lab/template/labNN/labNN.c does: its options, then
 * cli_begin, then its stages in the article's order, each a function whose inputs and
 * outputs are its parameters (no state bag), each deciding its checks where it makes its
 * numbers (report.h's check_*), then its figures and evidence into run.out, then the
 * report, then cli_end:
 *
 *     cli_run run;
 *     int code = cli_begin(&run, &program, argc, argv);
 *     if (code != CLI_RUN)
 *         return code;
 *     turned t = {0};
 *     lab_error e = turn_mesh(&bind, theta, &t, &run.diag);     (a stage: typed in and out)
 *     if (e == LAB_OK)
 *         e = add_figure(&bind, &t, &run.out, &run.diag);
 *     if (e == LAB_OK && cli_report(&run, "Chapter NN: ...")) {
 *         cli_section(&run, "p' = Rz(theta) p ...", &t.checks); (the heading; checks recorded)
 *         report_rows(stdout, &t.checks);                       (the body: tables, rows)
 *     }
 *     code = cli_end(&run, e);
 *     turned_free(&t);
 *     return code;
 *
 * Sections are numbered in the order the main prints them (1, 2, 3; cli_subsection: 2b,
 * 2c), so the article's order is written once, in main. The report goes to stdout only
 * when every stage succeeded; a stage's error prints the contract's line and nothing else. */
typedef struct {
    const cli_program *program;
    const char *args[CLI_MAX_POSITIONAL]; /* the positional arguments, OUTDIR last */
    lab_diag diag;                        /* what and where, when a stage fails */
    output_batch out;                     /* what the run writes, all or nothing */
    struct report_checks *checks;         /* every section's checks, in the report's order */
    bool checks_failed;                   /* a section's check failed */
    bool without_checks;                  /* a report that only describes: no verdict line */
    int number, letter;                   /* the last section's number and letter */
} cli_run;

/* cli_start on the program's table; run is ready for the stages when it returns CLI_RUN,
 * and otherwise holds nothing (return the code). */
int cli_begin(cli_run *run, const cli_program *program, int argc, char **argv);
/* The run's OUTDIR (its last positional argument). */
const char *cli_outdir(const cli_run *run);
/* Starts the report on stdout with its title; false when the checks' list could not be
 * allocated (cli_end then exits 3). */
bool cli_report(cli_run *run, const char *title);
/* "\n<N>. heading\n" on stdout; the section's checks (may be NULL) are recorded under it
 * for -checks.json and the verdict. The body is the program's to print. */
void cli_section(cli_run *run, const char *heading, const struct report_checks *checks);
/* The same, numbered after the section before: "2b. heading". */
void cli_subsection(cli_run *run, const char *heading, const struct report_checks *checks);
/* More checks under the section printed last. */
void cli_section_checks(cli_run *run, const struct report_checks *checks);
/* The end of every main in this shape. e != LAB_OK: the stage's error line (its exit code,
 * cli_exit_code) and nothing written. Otherwise the verdict line ("All checks passed." or
 * "SOME CHECKS FAILED."), <name>-checks.json and the all-or-nothing commit with the
 * manifest, as cli_finish says. Frees what the run holds; returns the exit code. */
int cli_end(cli_run *run, lab_error e);

/* A report's checks as data (src/base/report.h): <name>-checks.json in batch, every record
 * with its section, what it checks, the computed and the independent value, the tolerance
 * or bound, and its verdict. cli_end writes one for every program whose report checks. */
struct report_checks;
lab_error cli_add_checks(const char *name, const struct report_checks *checks, output_batch *batch, lab_diag *d);

/* The generated usage text. */
void cli_usage(const cli_program *program, FILE *to);

/* The contract's exit code for an error that stopped the computation: 3 for an output or
 * resource failure (out of memory, a write), 2 for an option naming what the input does
 * not have (LAB_ERR_USAGE), 1 for rejected data. */
int cli_exit_code(lab_error e);

/* Prints "<name>: error: <rule>, <where>, <value>" to stderr and returns exit_code. */
int cli_fail(const char *name, const lab_diag *d, int exit_code);

/* The end of every main: the outputs were built (build_error, with build_diag) and the
 * report printed (checks_ok). A build error exits 3; a failed self-check writes nothing
 * and exits 1; a report that could not be written to stdout (a full disk, a closed pipe)
 * exits 3 with nothing written; otherwise the batch is committed to outdir all or nothing
 * (exit 0 or 3). Frees the batch. cli_end's commit also writes the manifest
 * `<name>-outputs.txt` and removes the program's earlier outputs that it did not write
 * again (src/program/manifest.h), listed on stdout after the report; a bench, which
 * calls this itself, writes fixed names and no manifest. */
int cli_finish(const char *name, output_batch *batch, lab_error build_error,
               const lab_diag *build_diag, bool checks_ok, const char *outdir);

#ifdef __cplusplus
}
#endif

#endif
