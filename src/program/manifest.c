/* manifest.c - a program's own outputs in a shared folder (see manifest.h). */
#define _POSIX_C_SOURCE 200809L
#include "program/manifest.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool in_batch(const output_batch *batch, const char *name)
{
    for (int i = 0; i < batch->count; i++)
        if (!strcmp(batch->files[i].name, name))
            return true;
    return false;
}

/* A name an output of the lab can have: 1 to OUTPUT_MAX_NAME printable characters, no '/',
 * no leading '.' (output_batch_add's rule, and no control character). */
static bool is_output_name(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > OUTPUT_MAX_NAME || strchr(name, '/') || name[0] == '.')
        return false;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)name[i] < 0x20 || name[i] == 0x7f)
            return false;
    return true;
}

typedef struct {
    unsigned long long size, hash;
    char *name;
} entry;

/* The manifest's entries, when it is this program's in the lab's format; else NULL with
 * *why saying why it is ignored. */
static entry *parse(char *text, const char *program, int *count, const char **why)
{
    char head[128];
    snprintf(head, sizeof head, MANIFEST_MAGIC " %s\n", program);
    *count = 0;
    if (strncmp(text, head, strlen(head))) {
        *why = "not this program's manifest in the lab's format";
        return NULL;
    }
    int cap = 0;
    entry *list = NULL;
    for (char *line = text + strlen(head); line && *line;) {
        char *end = strchr(line, '\n');
        if (!end) {
            *why = "its last line is cut short";
            free(list);
            *count = 0;
            return NULL;
        }
        *end = '\0';
        if (line[0] != '#' && line[0] != '\0') {
            entry e = {0};
            int used = 0;
            if (sscanf(line, "%llu %llx %n", &e.size, &e.hash, &used) != 2 || used == 0 || !is_output_name(line + used)) {
                *why = "a line is not \"SIZE HASH NAME\" with a plain name";
                free(list);
                *count = 0;
                return NULL;
            }
            e.name = line + used;
            if (*count == cap) {
                cap = cap ? 2 * cap : 32;
                entry *more = realloc(list, sizeof *list * (size_t)cap);
                if (!more) {
                    free(list);
                    *why = NULL; /* out of memory */
                    return NULL;
                }
                list = more;
            }
            list[(*count)++] = e;
        }
        line = end + 1;
    }
    if (!list)
        list = malloc(1);
    if (!list)
        *why = NULL;
    return list;
}

static void note(output_batch *batch, const char *fmt, const char *a, const char *b)
{
    bytes_printf(&batch->notes, fmt, a, b);
}

lab_error manifest_prepare(output_batch *batch, const char *dir, const char *program, lab_diag *d)
{
    char name[OUTPUT_MAX_NAME + 1], path[4200];
    snprintf(name, sizeof name, "%s-outputs.txt", program);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    lab_error e = output_batch_encode(batch, d); /* the PNGs' sizes and hashes */
    if (e != LAB_OK)
        return e;
    bytes old = {0}, text = {0};
    /* the manifest itself, never through a symlink */
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    struct stat st;
    if (fd < 0 && errno == ELOOP) {
        note(batch, "  kept every file its manifest %s lists: %s\n", name, "a symbolic link, not a manifest the program wrote");
    } else if (fd < 0 && errno != ENOENT) {
        e = diag_fail(d, LAB_ERR_OUTPUT, path, "the outputs' manifest: cannot open the file (%s)", strerror(errno));
    } else if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
        e = diag_fail(d, LAB_ERR_OUTPUT, path, "the outputs' manifest: %s",
                      bytes_read_message(BYTES_READ_NOT_REGULAR));
    } else if (fd >= 0 && st.st_size > MANIFEST_MAX_BYTES) {
        note(batch, "  kept every file its manifest %s lists: %s\n", name, "larger than a manifest can be");
    } else if (fd >= 0) {
        bytes_read_result r = bytes_read_file(path, MANIFEST_MAX_BYTES, &old);
        if (r == BYTES_READ_OUT_OF_MEMORY)
            e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, path, "reading the outputs' manifest");
        else if (r != BYTES_READ_OK)
            note(batch, "  kept every file its manifest %s lists: %s\n", name, bytes_read_message(r));
    }
    if (fd >= 0)
        close(fd);
    int count = 0;
    const char *why = "";
    entry *list = e == LAB_OK && old.len ? parse((char *)old.data, program, &count, &why) : NULL;
    if (e == LAB_OK && old.len && !list && !why)
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, path, "the outputs' manifest's %d lines", count);
    else if (e == LAB_OK && old.len && !list)
        note(batch, "  kept every file its manifest %s lists: %s\n", name, why);
    /* each earlier output: removed only when it is still exactly what this program wrote */
    for (int i = 0; e == LAB_OK && list && i < count; i++) {
        const entry *x = &list[i];
        char file[4200];
        snprintf(file, sizeof file, "%s/%s", dir, x->name);
        if (!strcmp(x->name, name) || in_batch(batch, x->name) || lstat(file, &st) != 0)
            continue;
        if (!S_ISREG(st.st_mode))
            note(batch, "  kept %s: %s\n", x->name, "not a regular file now");
        else if (!output_is_own(file, x->size, x->hash))
            note(batch, "  kept %s: %s\n", x->name, "changed since this program wrote it");
        else
            e = output_batch_remove(batch, x->name, d);
    }
    bytes_printf(&text, MANIFEST_MAGIC " %s\n"
                        "# %s's outputs in this folder from its last run, each with its size and content hash:\n"
                        "# its next run removes those it does not write again while they are still exactly\n"
                        "# as written, and nothing else (src/program/manifest.h)\n",
                 program, program);
    for (int i = 0; i < batch->count; i++)
        if (!batch->files[i].remove)
            bytes_printf(&text, "%zu %016llx %s\n", batch->files[i].content.len,
                         (unsigned long long)bytes_hash(batch->files[i].content.data, batch->files[i].content.len),
                         batch->files[i].name);
    if (e == LAB_OK && batch->notes.failed)
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, path, "the outputs' manifest's notes");
    if (e == LAB_OK)
        e = output_batch_add(batch, name, &text, d);
    free(list);
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
    if (batch->notes.len) {
        fprintf(out, "\nEarlier outputs kept, not removed (a file is removed only while it is exactly what the "
                     "program wrote):\n%s",
                (const char *)batch->notes.data);
        n++;
    }
    return n;
}
