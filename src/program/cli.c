/* cli.c - the option table's parser, the generated usage, the start and end of every main
 * (see cli.h). The one place besides report.c that prints, because the contract's error
 * line and the usage text are part of the command line. */
#include "program/cli.h"

#include <cJSON.h>

#include "base/library.h"
#include "base/report.h"
#include "program/evidence.h"
#include "program/manifest.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool takes_value(const cli_option *o) { return o->kind != CLI_FLAG; }

/* ---- the usage text, generated from the table ----------------------------------------- */

/* "a|b|c" of a choice list. */
static void print_choices(FILE *to, const char *const *choices)
{
    for (int i = 0; choices[i]; i++)
        fprintf(to, "%s%s", i ? "|" : "", choices[i]);
}

static void print_value_name(FILE *to, const cli_option *o)
{
    if (o->value_name)
        fputs(o->value_name, to);
    else if (o->kind == CLI_CHOICE)
        print_choices(to, o->choices);
    else
        fputs("VALUE", to);
}

/* The rule the parser enforces, as a line under the help text. */
static void print_rule(FILE *to, const cli_option *o, int indent)
{
    if (o->kind == CLI_DOUBLES) {
        int lo = o->max_count ? o->min_count : 1, hi = o->max_count ? o->max_count : 1;
        fprintf(to, "%*s(", indent, "");
        if (o->broadcast)
            fprintf(to, "1 or %d numbers", hi);
        else if (lo == hi)
            fprintf(to, "%d number%s", hi, hi == 1 ? "" : "s");
        else
            fprintf(to, "%d to %d numbers", lo, hi);
        if (o->min < o->max)
            fprintf(to, ", each in [%g, %g]", o->min, o->max);
        fprintf(to, "%s)\n", o->distinct ? ", none twice" : "");
    } else if (o->kind == CLI_INT) {
        fprintf(to, "%*s(an integer in [%.0f, %.0f])\n", indent, "", o->min, o->max);
    }
}

void cli_usage(const cli_program *p, FILE *to)
{
    enum { COLUMN = 26 };
    fprintf(to, "usage: %s", p->name);
    for (int i = 0; i < p->option_count; i++) {
        fprintf(to, " [%s", p->options[i].name);
        if (takes_value(&p->options[i])) {
            fputc(' ', to);
            print_value_name(to, &p->options[i]);
        }
        fputc(']', to);
    }
    for (int i = 0; i < p->positional_count; i++)
        fprintf(to, " %s", p->positional[i]);
    fprintf(to, "\n%s\n", p->summary);
    for (int i = 0; i < p->option_count; i++) {
        const cli_option *o = &p->options[i];
        int n = fprintf(to, "  %s", o->name);
        if (takes_value(o)) {
            fputc(' ', to);
            print_value_name(to, o);
            n = COLUMN; /* value names vary in length: the help starts on the next line */
            fputc('\n', to);
            fprintf(to, "%*s", COLUMN, "");
        } else {
            fprintf(to, "%*s", n < COLUMN ? COLUMN - n : 1, "");
        }
        for (const char *h = o->help; *h; h++) {
            fputc(*h, to);
            if (*h == '\n')
                fprintf(to, "%*s", COLUMN, "");
        }
        fputc('\n', to);
        print_rule(to, o, COLUMN);
    }
    fprintf(to, "  --help%*sthis text\n", COLUMN - 8, "");
    if (p->notes)
        fprintf(to, "%s\n", p->notes);
    fprintf(to, "%s must exist. Exit codes: 0 ok, 1 data rejected, 2 usage, 3 output.\n",
            p->positional[p->positional_count - 1]);
}

/* ---- the parser ------------------------------------------------------------------------- */

/* Parses "a,b,c" into at most `max` doubles; the count, or -1 with a message. */
static int parse_doubles(const char *name, const char *text, double *out, int max, char *err,
                         size_t size)
{
    int n = 0;
    for (const char *p = text;;) {
        char *end;
        errno = 0;
        double x = strtod(p, &end);
        if (end == p || (*end != ',' && *end != '\0')) {
            snprintf(err, size, "%s %s: cannot read a number at \"%s\"", name, text, p);
            return -1;
        }
        if (!isfinite(x) || errno == ERANGE) {
            snprintf(err, size, "%s %s: numbers must be finite", name, text);
            return -1;
        }
        if (n == max) {
            snprintf(err, size, "%s %s: more than %d values", name, text, max);
            return -1;
        }
        out[n++] = x;
        if (*end == '\0')
            return n;
        p = end + 1;
    }
}

static int set_doubles(const cli_option *o, const char *value, char *err, size_t size)
{
    int lo = o->max_count ? o->min_count : 1, hi = o->max_count ? o->max_count : 1;
    double parsed[64];
    if (hi > 64) {
        snprintf(err, size, "%s: the table allows %d values, the parser at most 64", o->name, hi);
        return -1;
    }
    int n = parse_doubles(o->name, value, parsed, hi, err, size);
    if (n < 0)
        return -1;
    if (o->broadcast ? (n != 1 && n != hi) : (n < lo || n > hi)) {
        if (o->broadcast)
            snprintf(err, size, "%s %s: give 1 value or %d", o->name, value, hi);
        else
            snprintf(err, size, "%s %s: give %d to %d values", o->name, value, lo, hi);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (o->min < o->max && !(parsed[i] >= o->min && parsed[i] <= o->max)) {
            snprintf(err, size, "%s %g is outside [%g, %g]", o->name, parsed[i], o->min, o->max);
            return -1;
        }
        for (int k = 0; o->distinct && k < i; k++)
            if (parsed[k] == parsed[i]) {
                snprintf(err, size, "%s %g is given twice", o->name, parsed[i]);
                return -1;
            }
    }
    double *target = o->target;
    for (int i = 0; i < hi; i++)
        if (i < n || o->broadcast)
            target[i] = parsed[i < n ? i : 0];
    if (o->count)
        *o->count = n;
    return 0;
}

static int set_value(const cli_option *o, const char *value, char *err, size_t size)
{
    switch (o->kind) {
    case CLI_DOUBLES:
        return set_doubles(o, value, err, size);
    case CLI_INT: {
        char *end;
        errno = 0;
        long n = strtol(value, &end, 10);
        if (end == value || *end != '\0' || errno == ERANGE || !(n >= o->min && n <= o->max)) {
            snprintf(err, size, "%s %s: expected an integer in [%.0f, %.0f]", o->name, value, o->min, o->max);
            return -1;
        }
        *(int *)o->target = (int)n;
        return 0;
    }
    case CLI_CHOICE:
        for (int i = 0; o->choices[i]; i++)
            if (!strcmp(value, o->choices[i])) {
                *(int *)o->target = i;
                return 0;
            }
        {
            int n = snprintf(err, size, "%s %s: expected one of ", o->name, value);
            for (int i = 0; o->choices[i] && n > 0 && (size_t)n < size; i++)
                n += snprintf(err + n, size - (size_t)n, "%s%s", i ? ", " : "", o->choices[i]);
        }
        return -1;
    case CLI_STRING:
        *(const char **)o->target = value;
        return 0;
    case CLI_CUSTOM:
        return o->parse(value, o->target, o->context, err, size);
    case CLI_FLAG:
        break;
    }
    *(bool *)o->target = true;
    return 0;
}

static const cli_option *find_option(const cli_program *p, const char *name)
{
    for (int k = 0; k < p->option_count; k++)
        if (!strcmp(name, p->options[k].name))
            return &p->options[k];
    return NULL;
}

/* Whether option o already stands in argv[1 .. upto), read the way parse reads it (an
 * option's value is skipped, so a value that looks like an option is not one). */
static bool given_before(const cli_program *p, char **argv, int upto, const cli_option *o)
{
    for (int i = 1; i < upto; i++) {
        const cli_option *q = argv[i][0] == '-' ? find_option(p, argv[i]) : NULL;
        if (q == o)
            return true;
        if (q && takes_value(q))
            i++;
    }
    return false;
}

/* 0 to run, 1 for --help, -1 for a usage error (message in err). */
static int parse(const cli_program *p, int argc, char **argv, const char **args, char *err,
                 size_t size)
{
    int positional = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            return 1;
        if (a[0] == '-' && a[1] != '\0') {
            const cli_option *o = find_option(p, a);
            if (!o) {
                snprintf(err, size, "unknown option %s", a);
                return -1;
            }
            if (given_before(p, argv, i, o)) { /* the later value would silently win */
                snprintf(err, size, "%s is given twice: each option is given once%s", a,
                         o->kind == CLI_DOUBLES && o->max_count > 1 ? ", with its values separated by commas" : "");
                return -1;
            }
            if (takes_value(o) && i + 1 >= argc) {
                snprintf(err, size, "%s needs a value", a);
                return -1;
            }
            if (set_value(o, takes_value(o) ? argv[++i] : NULL, err, size) != 0)
                return -1;
            if (o->given)
                *o->given = true;
        } else if (positional == p->positional_count) {
            snprintf(err, size, "unexpected argument \"%s\" (after %s)", a,
                     p->positional[p->positional_count - 1]);
            return -1;
        } else {
            args[positional++] = a;
        }
    }
    if (positional < p->positional_count) {
        int n = snprintf(err, size, "missing");
        for (int k = positional; k < p->positional_count && n > 0 && (size_t)n < size; k++)
            n += snprintf(err + n, size - (size_t)n, "%s%s", k > positional ? " and " : " ",
                          p->positional[k]);
        return -1;
    }
    return 0;
}

int cli_start(const cli_program *p, int argc, char **argv, const char **args)
{
    char err[512];
    int parsed = parse(p, argc, argv, args, err, sizeof err);
    if (parsed == 1) {
        cli_usage(p, stdout);
        return fflush(stdout) == 0 && !ferror(stdout) ? CLI_EXIT_OK : CLI_EXIT_OUTPUT;
    }
    if (parsed < 0) {
        fprintf(stderr, "%s: error: %s\n", p->name, err);
        cli_usage(p, stderr);
        return CLI_EXIT_USAGE;
    }
    lab_diag d = {0};
    if (output_check_dir(args[p->positional_count - 1], &d) != LAB_OK)
        return cli_fail(p->name, &d, CLI_EXIT_OUTPUT);
    return CLI_RUN;
}

/* "<N>. section" or, continuing, "<N><letter>. section", into heading. */
static void number_heading(char *heading, size_t size, int *number, int *letter, const char *section,
                           bool continues)
{
    if (continues && *number > 0)
        snprintf(heading, size, "%d%c. %s", *number, 'a' + ++*letter, section);
    else
        snprintf(heading, size, "%d. %s", ++*number, section), *letter = 0;
}

lab_error cli_add_checks(const char *name, const report_checks *checks, output_batch *batch, lab_diag *d)
{
    if (checks->out_of_memory)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "the report's checks", "%d records", checks->count);
    cJSON *root = json_evidence_root(name), *list = cJSON_CreateArray();
    int passed = 0;
    for (int i = 0; i < checks->count; i++) {
        const report_check *c = &checks->items[i];
        cJSON *item = cJSON_CreateObject();
        cJSON_AddStringToObject(item, "section", c->section);
        cJSON_AddStringToObject(item, "what", c->what);
        cJSON_AddStringToObject(item, "kind", report_kind_name(c->kind));
        cJSON_AddItemToObject(item, "computed", json_number_or_null(c->computed));
        cJSON_AddItemToObject(item, c->kind == REPORT_BOUND || c->kind == REPORT_ABOVE ? "bound" : "independent", json_number_or_null(c->reference));
        if (c->kind == REPORT_COMPARE)
            cJSON_AddItemToObject(item, "tolerance", json_number_or_null(c->tolerance));
        cJSON_AddStringToObject(item, "verdict", c->passed ? "ok" : "FAIL");
        cJSON_AddItemToArray(list, item);
        passed += c->passed;
    }
    json_add_number(root, "checks_passed", passed);
    json_add_number(root, "checks_failed", checks->count - passed);
    cJSON_AddItemToObject(root, "checks", list);
    char file[OUTPUT_MAX_NAME + 1];
    snprintf(file, sizeof file, "%s-checks.json", name);
    return output_batch_add_json(batch, file, root, d);
}

/* cli_finish; with `manifest`, the program's own outputs (src/program/manifest.h) too. */
static int finish(const char *name, output_batch *batch, lab_error build_error, const lab_diag *build_diag,
                  bool checks_ok, const char *outdir, bool manifest)
{
    int code = CLI_EXIT_OK;
    lab_diag d = {0};
    if (build_error != LAB_OK) {
        code = cli_fail(name, build_diag, CLI_EXIT_OUTPUT);
    } else if (!checks_ok) {
        fprintf(stderr, "%s: error: a self-check failed (see the report), nothing written\n", name);
        code = CLI_EXIT_REJECTED;
    } else if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "%s: error: the report could not be written to standard output (%s), "
                        "nothing written\n", name, strerror(errno));
        code = CLI_EXIT_OUTPUT;
    } else if ((manifest && manifest_prepare(batch, outdir, name, &d) != LAB_OK) ||
               output_batch_commit(batch, outdir, &d) != LAB_OK) {
        code = cli_fail(name, &d, CLI_EXIT_OUTPUT);
    } else if (manifest && manifest_report_removed(batch, stdout) > 0 && fflush(stdout) != 0) {
        /* the outputs stand; only the list of what was removed is lost */
        fprintf(stderr, "%s: error: the list of removed earlier outputs could not be written to standard "
                        "output (%s); the outputs were written\n", name, strerror(errno));
        code = CLI_EXIT_OUTPUT;
    }
    output_batch_free(batch);
    return code;
}

/* ---- a program in the template's shape ------------------------------------------------ */

int cli_begin(cli_run *run, const cli_program *program, int argc, char **argv)
{
    *run = (cli_run){.program = program};
    return cli_start(program, argc, argv, run->args);
}

const char *cli_outdir(const cli_run *run) { return run->args[run->program->positional_count - 1]; }

bool cli_report(cli_run *run, const char *title)
{
    run->checks = calloc(1, sizeof *run->checks);
    printf("%s\n", title);
    return run->checks != NULL;
}

static void section(cli_run *run, const char *title, bool continues, const report_checks *checks)
{
    char heading[512];
    number_heading(heading, sizeof heading, &run->number, &run->letter, title, continues);
    printf("\n%s\n", heading);
    if (run->checks && checks)
        checks_append(run->checks, checks, heading);
    run->checks_failed |= checks && !checks_passed(checks);
}

void cli_section(cli_run *run, const char *heading, const report_checks *checks)
{
    section(run, heading, false, checks);
}

void cli_subsection(cli_run *run, const char *heading, const report_checks *checks)
{
    section(run, heading, true, checks);
}

void cli_section_checks(cli_run *run, const report_checks *checks)
{
    const char *heading = run->checks && run->checks->count ? run->checks->items[run->checks->count - 1].section : "";
    if (run->checks)
        checks_append(run->checks, checks, heading ? heading : "");
    run->checks_failed |= !checks_passed(checks);
}

int cli_end(cli_run *run, lab_error e)
{
    const char *name = run->program->name;
    int code;
    if (e != LAB_OK) {
        code = cli_fail(name, &run->diag, cli_exit_code(e));
    } else if (!run->checks) {
        lab_diag d = {0};
        diag_fail(&d, LAB_ERR_OUT_OF_MEMORY, "the report's checks", "a list");
        code = cli_fail(name, &d, CLI_EXIT_OUTPUT);
    } else {
        bool ok = !run->checks_failed && !run->checks->out_of_memory;
        if (!run->without_checks)
            printf("\n%s\n", ok ? "All checks passed." : "SOME CHECKS FAILED.");
        lab_diag d = {0};
        lab_error built = run->without_checks || !ok ? LAB_OK : cli_add_checks(name, run->checks, &run->out, &d);
        if (run->checks->out_of_memory && built == LAB_OK) /* a lost record: never a failed check */
            built = diag_fail(&d, LAB_ERR_OUT_OF_MEMORY, "the report's checks", "%d records", run->checks->count);
        code = finish(name, &run->out, built, &d, ok, cli_outdir(run), true);
    }
    output_batch_free(&run->out);
    if (run->checks)
        report_checks_free(run->checks);
    free(run->checks);
    run->checks = NULL;
    return code;
}

/* The one exit that src/ gives itself (a library ending the process while it starts,
 * src/base/library.h) is the contract's out of memory. */
_Static_assert((int)LIBRARY_EXIT_OUT_OF_MEMORY == (int)CLI_EXIT_OUTPUT, "library.h's exit is the contract's out of memory");

int cli_exit_code(lab_error e)
{
    if (e == LAB_ERR_USAGE) /* an option's value the input turned out not to have */
        return CLI_EXIT_USAGE;
    return e == LAB_ERR_OUT_OF_MEMORY || e == LAB_ERR_OUTPUT ? CLI_EXIT_OUTPUT : CLI_EXIT_REJECTED;
}

int cli_fail(const char *name, const lab_diag *d, int exit_code)
{
    char msg[700];
    diag_format(d, msg, sizeof msg);
    fprintf(stderr, "%s: error: %s\n", name, msg);
    return exit_code;
}

int cli_finish(const char *name, output_batch *batch, lab_error build_error,
               const lab_diag *build_diag, bool checks_ok, const char *outdir)
{
    return finish(name, batch, build_error, build_diag, checks_ok, outdir, false);
}
