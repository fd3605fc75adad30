/* weights_csv.c - reading and writing per-vertex weights (see weights_csv.h). */
#include "skin/weights_csv.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One line without its end-of-line: [start, start + len). */
typedef struct { const char *start; size_t len; int number; } csv_line;

static bool next_line(const char **cursor, csv_line *line)
{
    if (**cursor == '\0')
        return false;
    line->start = *cursor;
    const char *end = strchr(*cursor, '\n');
    size_t len = end ? (size_t)(end - *cursor) : strlen(*cursor);
    *cursor += len + (end ? 1 : 0);
    if (len > 0 && line->start[len - 1] == '\r')
        len--;
    line->len = len;
    line->number++;
    return true;
}

static lab_error fail_line(lab_diag *d, int line, const char *what)
{
    char where[64];
    return diag_fail(d, LAB_ERR_WEIGHTS_FILE, diag_where(where, sizeof where, "line %d", line), "%s",
                     what);
}

/* Five comma-separated fields: three integers (vertex, joint0, joint1) and two numbers. */
static lab_error parse_row(const csv_line *line, long *ints, double *weights, lab_diag *d)
{
    char buf[256], msg[160];
    if (line->len >= sizeof buf)
        return fail_line(d, line->number, "line longer than 255 characters");
    memcpy(buf, line->start, line->len);
    buf[line->len] = '\0';
    int fields = 1;
    for (const char *c = buf; *c; c++)
        fields += *c == ',';
    if (fields != 5) {
        snprintf(msg, sizeof msg, "%d fields, expected 5", fields);
        return fail_line(d, line->number, msg);
    }
    static const char *const names[5] = {"vertex", "joint0", "weight0", "joint1", "weight1"};
    char *p = buf;
    for (int f = 0; f < 5; f++) {
        char *end;
        errno = 0;
        if (f == 2 || f == 4)
            weights[f / 2 - 1] = strtod(p, &end);
        else
            ints[f == 0 ? 0 : f == 1 ? 1 : 2] = strtol(p, &end, 10);
        char want = f == 4 ? '\0' : ',';
        if (end == p || *end != want || errno == ERANGE) {
            snprintf(msg, sizeof msg, "field %d (%s) is not a %s followed by %s", f + 1, names[f],
                     (f == 2 || f == 4) ? "number" : "whole number",
                     want ? "a comma" : "the end of the line");
            return fail_line(d, line->number, msg);
        }
        p = end + 1;
    }
    return LAB_OK;
}

lab_error weights_csv_parse(const char *text, skin_influences *out, lab_diag *d)
{
    int vertex_count = out->vertex_count;
    if (out->per_vertex != 2)
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "weights file", "%d influences per vertex, the "
                         "format holds 2", out->per_vertex);
    const char *cursor = text;
    csv_line line = {0};
    if (!next_line(&cursor, &line) || line.len != strlen(WEIGHTS_CSV_HEADER) ||
        strncmp(line.start, WEIGHTS_CSV_HEADER, line.len) != 0)
        return fail_line(d, 1, "the header must be " WEIGHTS_CSV_HEADER);
    char *seen = calloc((size_t)(vertex_count > 0 ? vertex_count : 1), 1);
    if (!seen)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "weights file", "%d vertices", vertex_count);
    lab_error e = LAB_OK;
    while (e == LAB_OK && next_line(&cursor, &line)) {
        long ints[3];
        double w[2];
        char msg[96];
        if (line.len == 0)
            continue; /* a blank line (a trailing one, say) carries nothing */
        e = parse_row(&line, ints, w, d);
        if (e != LAB_OK)
            break;
        if (ints[0] < 0 || ints[0] >= vertex_count) {
            snprintf(msg, sizeof msg, "vertex %ld is outside [0, %d)", ints[0], vertex_count);
            e = fail_line(d, line.number, msg);
        } else if (seen[ints[0]]) {
            snprintf(msg, sizeof msg, "vertex %ld is given twice", ints[0]);
            e = fail_line(d, line.number, msg);
        } else {
            seen[ints[0]] = 1;
            int j0 = ints[1] < INT_MIN ? INT_MIN : ints[1] > INT_MAX ? INT_MAX : (int)ints[1];
            int j1 = ints[2] < INT_MIN ? INT_MIN : ints[2] > INT_MAX ? INT_MAX : (int)ints[2];
            int v = (int)ints[0];
            out->joint[2 * v] = j0, out->weight[2 * v] = w[0];
            out->joint[2 * v + 1] = j1, out->weight[2 * v + 1] = w[1];
        }
    }
    for (int v = 0; e == LAB_OK && v < vertex_count; v++)
        if (!seen[v]) {
            char msg[64];
            snprintf(msg, sizeof msg, "vertex %d has no row", v);
            e = fail_line(d, line.number, msg);
        }
    free(seen);
    return e;
}

lab_error weights_csv_write(const skin_influences *in, bytes *out, lab_diag *d)
{
    if (in->per_vertex != 2)
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "weights file", "%d influences per vertex, the "
                         "format holds 2", in->per_vertex);
    bytes_printf(out, "%s\n", WEIGHTS_CSV_HEADER);
    char w0[32], w1[32];
    for (int v = 0; v < in->vertex_count; v++)
        bytes_printf(out, "%d,%d,%s,%d,%s\n", v, in->joint[2 * v], format_double(w0, in->weight[2 * v]),
                     in->joint[2 * v + 1], format_double(w1, in->weight[2 * v + 1]));
    return LAB_OK;
}

lab_error weights_csv_load(const char *path, int vertex_count, skin_influences *out, lab_diag *d)
{
    bytes b = {0};
    bytes_read_result read = bytes_read_file(path, WEIGHTS_CSV_MAX_BYTES, &b);
    lab_error e = LAB_OK;
    if (read != BYTES_READ_OK || b.len == 0)
        e = diag_fail(d, LAB_ERR_WEIGHTS_FILE, path, "%s (at most %d bytes)",
                      read == BYTES_READ_OK ? "the file is empty" : bytes_read_message(read),
                      WEIGHTS_CSV_MAX_BYTES);
    if (e == LAB_OK)
        e = skin_influences_init(out, vertex_count, 2, d);
    if (e == LAB_OK && (e = weights_csv_parse((const char *)b.data, out, d)) != LAB_OK) {
        diag_prefix_where(d, "%s", path);
        skin_influences_free(out);
    }
    bytes_free(&b);
    return e;
}
