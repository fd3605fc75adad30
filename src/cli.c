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
