/* cli.c - shared command-line helpers (see cli.h). The one place besides report.c that
 * prints, because the contract's error line is part of the command line. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>

int cli_parse_doubles(const char *text, double *out, int max, char *err, size_t err_size)
{
    int n = 0;
    const char *p = text;
    for (;;) {
        char *end;
        double x = strtod(p, &end);
        if (end == p || (*end != ',' && *end != '\0')) {
            snprintf(err, err_size, "cannot read a number at \"%s\"", p);
            return -1;
        }
        if (n == max) {
            snprintf(err, err_size, "more than %d values in \"%s\"", max, text);
            return -1;
        }
        out[n++] = x;
        if (*end == '\0')
            return n;
        p = end + 1;
    }
}

int cli_fail(const char *lab, const lab_diag *d, int exit_code)
{
    char msg[700];
    diag_format(d, msg, sizeof msg);
    fprintf(stderr, "%s: error: %s\n", lab, msg);
    return exit_code;
}

int cli_start(const char *lab, int parsed, const char *err, void (*usage)(FILE *to),
              const char *const *outdir)
{
    if (parsed == 1) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    if (parsed < 0) {
        fprintf(stderr, "%s: error: %s\n", lab, err);
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    lab_diag d = {0};
    if (output_check_dir(*outdir, &d) != LAB_OK)
        return cli_fail(lab, &d, CLI_EXIT_OUTPUT);
    return -1;
}

int cli_finish(const char *lab, output_batch *batch, lab_error build_error,
               const lab_diag *build_diag, bool checks_ok, const char *outdir)
{
    int code = CLI_EXIT_OK;
    lab_diag d = {0};
    if (build_error != LAB_OK)
        code = cli_fail(lab, build_diag, CLI_EXIT_OUTPUT);
    else if (!checks_ok) {
        fprintf(stderr, "%s: error: a self-check failed (see the report), nothing written\n", lab);
        code = CLI_EXIT_REJECTED;
    } else if (output_batch_commit(batch, outdir, &d) != LAB_OK)
        code = cli_fail(lab, &d, CLI_EXIT_OUTPUT);
    output_batch_free(batch);
    return code;
}
