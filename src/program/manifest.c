/* manifest.c - a program's own outputs in a shared folder (see manifest.h). */
#define _POSIX_C_SOURCE 200809L
#include "program/manifest.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static bool in_batch(const output_batch *batch, const char *name)
{
    for (int i = 0; i < batch->count; i++)
        if (!strcmp(batch->files[i].name, name))
            return true;
    return false;
}

/* Whether a manifest line names a file this program may have written: a plain name (no
 * '/', no leading '.', not too long) that is a regular file in dir now. */
static bool earlier_output(const char *dir, const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > OUTPUT_MAX_NAME || strchr(name, '/') || name[0] == '.' || name[0] == '#')
        return false;
    char path[4200];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return lstat(path, &st) == 0 && S_ISREG(st.st_mode);
}

lab_error manifest_prepare(output_batch *batch, const char *dir, const char *program, lab_diag *d)
{
    char name[OUTPUT_MAX_NAME + 1], path[4200];
    snprintf(name, sizeof name, "%s-outputs.txt", program);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    bytes old = {0}, text = {0};
    bytes_read_result read = bytes_read_file(path, MANIFEST_MAX_BYTES, &old);
    lab_error e = LAB_OK;
    if (read == BYTES_READ_OUT_OF_MEMORY)
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, path, "reading the outputs' manifest");
    else if (read == BYTES_READ_CANNOT_OPEN && errno != ENOENT)
        e = diag_fail(d, LAB_ERR_OUTPUT, path, "the outputs' manifest: %s (%s)", bytes_read_message(read),
                      strerror(errno));
    else if (read != BYTES_READ_OK && read != BYTES_READ_CANNOT_OPEN)
        e = diag_fail(d, LAB_ERR_OUTPUT, path, "the outputs' manifest: %s (at most %u bytes)",
                      bytes_read_message(read), MANIFEST_MAX_BYTES);
    int written = batch->count;
    for (char *line = read == BYTES_READ_OK ? (char *)old.data : NULL; e == LAB_OK && line && *line;) {
        char *end = strchr(line, '\n');
        if (end)
            *end = '\0';
        if (strcmp(line, name) && !in_batch(batch, line) && earlier_output(dir, line))
            e = output_batch_remove(batch, line, d);
        line = end ? end + 1 : NULL;
    }
    bytes_printf(&text, "# %s's outputs in this folder, from its last run; its next run removes\n"
                        "# those it does not write again, and nothing else (src/program/manifest.h)\n",
                 program);
    for (int i = 0; i < written; i++)
        bytes_printf(&text, "%s\n", batch->files[i].name);
    if (e == LAB_OK)
        e = output_batch_add(batch, name, &text, d);
    bytes_free(&old);
    bytes_free(&text);
    return e;
}

int manifest_report_removed(const output_batch *batch, FILE *out)
{
    int n = 0;
    for (int i = 0; i < batch->count; i++)
        if (batch->files[i].remove && batch->files[i].existed)
            fprintf(out, "%s  removed %s\n",
                    n++ ? "" : "\nEarlier outputs of this program that this run did not write "
                               "(its last manifest listed them):\n",
                    batch->files[i].name);
    return n;
}
