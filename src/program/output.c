/* output.c - the all-or-nothing output batch (see output.h). */
#define _POSIX_C_SOURCE 200809L
#include "program/output.h"

#include "draw/gif_encode.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "draw/png_encode.h"

lab_error output_check_dir(const char *dir, lab_diag *d)
{
    struct stat st;
    if (stat(dir, &st) != 0)
        return diag_fail(d, LAB_ERR_OUTPUT, dir, "output directory does not exist (%s); create it first",
                         strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return diag_fail(d, LAB_ERR_OUTPUT, dir, "output path is not a directory");
    if (access(dir, W_OK | X_OK) != 0)
        return diag_fail(d, LAB_ERR_OUTPUT, dir, "output directory is not writable (%s)",
                         strerror(errno));
    return LAB_OK;
}

static bool plain_name(const char *name)
{
    size_t n = strlen(name);
    return n > 0 && n <= OUTPUT_MAX_NAME && !strchr(name, '/') && name[0] != '.';
}

/* A new slot for `name`, or an error naming why there is none. */
static lab_error new_file(output_batch *batch, const char *name, output_file **out, lab_diag *d)
{
    if (!plain_name(name))
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "output batch",
                         "\"%s\" is not a plain file name of 1 to %d characters", name, OUTPUT_MAX_NAME);
    for (int i = 0; i < batch->count; i++)
        if (!strcmp(batch->files[i].name, name))
            return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "output batch", "\"%s\" added twice", name);
    if (batch->count == batch->cap) {
        int cap = batch->cap ? 2 * batch->cap : 8;
        output_file *files = realloc(batch->files, sizeof *files * (size_t)cap);
        if (!files)
            return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "output batch", "%d files", cap);
        batch->files = files;
        batch->cap = cap;
    }
    *out = &batch->files[batch->count++];
    memset(*out, 0, sizeof **out);
    snprintf((*out)->name, sizeof (*out)->name, "%s", name);
    return LAB_OK;
}

lab_error output_batch_add(output_batch *batch, const char *name, bytes *content, lab_diag *d)
{
    output_file *f = NULL;
    lab_error e = content->failed ? diag_fail(d, LAB_ERR_OUT_OF_MEMORY, name, "%zu bytes built",
                                              content->len)
                  : content->not_finite_line ? diag_fail(d, LAB_ERR_NOT_FINITE, name, "line %zu holds a NaN or "
                                                         "an infinity", content->not_finite_line)
                                             : new_file(batch, name, &f, d);
    if (e == LAB_OK)
        f->content = *content;
    else
        bytes_free(content);
    *content = (bytes){0};
    return e;
}

lab_error output_batch_remove(output_batch *batch, const char *name, lab_diag *d)
{
    output_file *f;
    lab_error e = new_file(batch, name, &f, d);
    if (e == LAB_OK)
        f->remove = true;
    return e;
}

lab_error output_batch_add_image(output_batch *batch, const char *name, canvas *image,
                                 lab_diag *d)
{
    output_file *f = NULL;
    lab_error e = canvas_check_whole(image, name, d);
    if (e == LAB_OK)
        e = new_file(batch, name, &f, d);
    if (e == LAB_OK)
        f->image = *image;
    else
        canvas_free(image);
    *image = (canvas){0};
    return e;
}

lab_error output_batch_add_animation(output_batch *batch, const char *name, int frames, int delay_cs,
                                     output_frame_fn draw_frame, void *state, lab_diag *d)
{
    bytes gif = {0};
    gif_writer w = {0};
    lab_error e = LAB_OK;
    for (int k = 0; e == LAB_OK && k < frames; k++) {
        canvas frame = {0};
        e = draw_frame(state, k, &frame, d);
        if (e == LAB_OK && k == 0)
            e = gif_begin(&w, frame.width, frame.height, delay_cs, &gif, d);
        if (e == LAB_OK)
            e = gif_add_frame(&w, &frame, d);
        canvas_free(&frame);
    }
    if (e == LAB_OK && frames > 0)
        e = gif_end(&w, d);
    else
        gif_abandon(&w);
    if (e == LAB_OK)
        e = output_batch_add(batch, name, &gif, d);
    bytes_free(&gif);
    return e;
}

lab_error output_batch_add_figure(output_batch *batch, lab_error status, const char *figure_name,
                                  canvas *figure, canvas *panels, output_name *names, int count,
                                  lab_diag *d)
{
    lab_error e = status;
    if (e == LAB_OK)
        e = output_batch_add_image(batch, figure_name, figure, d);
    for (int i = 0; i < count; i++) {
        if (e == LAB_OK)
            e = output_batch_add_image(batch, names[i], &panels[i], d);
        canvas_free(&panels[i]);
    }
    canvas_free(figure);
    return e;
}

/* Encodes every image still pending, all at once. */
static lab_error encode_images(output_batch *batch, lab_diag *d)
{
    int n = 0;
    const canvas **images = malloc(sizeof *images * (size_t)(batch->count ? batch->count : 1));
    bytes *png = calloc((size_t)(batch->count ? batch->count : 1), sizeof *png);
    int *slot = malloc(sizeof *slot * (size_t)(batch->count ? batch->count : 1));
    lab_error e = images && png && slot ? LAB_OK
                                        : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "PNG encoder", "%d files", batch->count);
    for (int i = 0; e == LAB_OK && i < batch->count; i++)
        if (batch->files[i].image.width > 0) {
            slot[n] = i;
            images[n++] = &batch->files[i].image;
        }
    if (e == LAB_OK)
        e = png_encode_all(images, n, png, d);
    for (int k = 0; k < n; k++) {
        output_file *f = &batch->files[slot[k]];
        if (e == LAB_OK) {
            f->content = png[k];
            canvas_free(&f->image);
        } else {
            bytes_free(&png[k]);
        }
    }
    free(images), free(png), free(slot);
    return e;
}

/* dir/NAME, or dir/.NAME.PID.tag for a temporary or a kept old file. */
/* dir/name, or dir/.name.PID.tag for a temporary (tag "tmp") or a kept old file ("old")
 * of the process pid. */
static void join_path_of(char *buf, size_t size, const char *dir, const char *name, const char *tag, long pid)
{
    if (tag)
        snprintf(buf, size, "%s/.%s.%ld.%s", dir, name, pid, tag);
    else
        snprintf(buf, size, "%s/%s", dir, name);
}

static void join_path(char *buf, size_t size, const char *dir, const char *name, const char *tag)
{
    join_path_of(buf, size, dir, name, tag, (long)getpid());
}

#define JOURNAL_PREFIX ".output-journal."

static int write_file(const char *path, const bytes *b)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return -1;
    size_t done = 0;
    while (done < b->len) {
        ssize_t w = write(fd, b->data + done, b->len - done);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            int err = errno;
            close(fd);
            errno = err;
            return -1;
        }
        done += (size_t)w;
    }
    if (fsync(fd) != 0) {
        int err = errno;
        close(fd);
        errno = err;
        return -1;
    }
    return close(fd);
}

/* Removes the files [from, to) of one tag ("tmp" or "old"). */
static void remove_tagged(const output_batch *batch, const char *dir, const char *tag, int from, int to)
{
    char path[4200];
    for (int i = from; i < to; i++) {
        join_path(path, sizeof path, dir, batch->files[i].name, tag);
        unlink(path);
    }
}

static int do_rename(const output_batch *batch, const char *from, const char *to)
{
    return batch->rename_file ? batch->rename_file(from, to, batch->rename_context) : rename(from, to);
}

/* Step 4 failed at file `failed`: files [0, failed) get their old contents back (a removed
 * one comes back; a removal of a file that was not there had nothing to undo). */
static void roll_back(const output_batch *batch, const char *dir, const bool *had_old, int failed)
{
    char old[4200], final[4200];
    for (int i = 0; i < failed; i++) {
        join_path(final, sizeof final, dir, batch->files[i].name, NULL);
        join_path(old, sizeof old, dir, batch->files[i].name, "old");
        if (had_old[i])
            rename(old, final);
        else if (!batch->files[i].remove)
            unlink(final);
    }
}

/* ---- a run killed while it committed ------------------------------------------------------ */

/* Whether process pid is gone (so its hidden files are left over, not in use). */
static bool process_gone(long pid)
{
    return pid > 0 && kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* The journal a commit writes before its first rename: one line per file, "1 NAME" when
 * the file existed before (its old contents are kept as .NAME.PID.old), "0 NAME" when
 * it did not. It is removed the moment the last rename succeeded (the commit point). */
static int write_journal(const output_batch *batch, const char *dir, const bool *had_old)
{
    bytes text = {0};
    for (int i = 0; i < batch->count; i++)
        if (had_old[i] || !batch->files[i].remove) /* a removal with nothing to remove has no undo */
            bytes_printf(&text, "%d %s\n", had_old[i] ? 1 : 0, batch->files[i].name);
    char path[4200];
    snprintf(path, sizeof path, "%s/" JOURNAL_PREFIX "%ld", dir, (long)getpid());
    int rc = text.failed ? -1 : write_file(path, &text);
    bytes_free(&text);
    return rc;
}

/* Undoes the commit of a process killed before its commit point: every file it renamed
 * into place gets its old contents back, or goes when it had none. */
static void undo_journal(const char *dir, const char *journal, long pid)
{
    bytes text = {0};
    if (bytes_read_file(journal, 1u << 20, &text) == BYTES_READ_OK) {
        char final[4200], old[4200];
        for (char *line = (char *)text.data; line && *line;) {
            char *end = strchr(line, '\n');
            if (end)
                *end = '\0';
            if ((line[0] == '0' || line[0] == '1') && line[1] == ' ' && plain_name(line + 2)) {
                join_path_of(final, sizeof final, dir, line + 2, NULL, pid);
                join_path_of(old, sizeof old, dir, line + 2, "old", pid);
                if (line[0] == '1')
                    rename(old, final); /* fails harmlessly when that rename had not happened */
                else
                    unlink(final);      /* the new file, when it was renamed into place */
            }
            line = end ? end + 1 : NULL;
        }
    }
    bytes_free(&text);
    unlink(journal);
}

/* The leftovers of commits whose processes are gone: their journals are undone first, then
 * their temporaries and kept old files are removed. Another live run's files are left
 * alone. */
static void recover_killed_runs(const char *dir)
{
    for (int pass = 0; pass < 2; pass++) { /* journals, then the rest */
        DIR *d = opendir(dir);
        if (!d)
            return;
        for (struct dirent *e; (e = readdir(d)) != NULL;) {
            const char *n = e->d_name;
            char path[4200];
            snprintf(path, sizeof path, "%s/%s", dir, n);
            if (pass == 0 && !strncmp(n, JOURNAL_PREFIX, strlen(JOURNAL_PREFIX))) {
                long pid = strtol(n + strlen(JOURNAL_PREFIX), NULL, 10);
                if (process_gone(pid))
                    undo_journal(dir, path, pid);
                continue;
            }
            const char *dot = strrchr(n, '.'), *pid_at = NULL;
            if (pass != 1 || n[0] != '.' || !dot || (strcmp(dot, ".tmp") && strcmp(dot, ".old")))
                continue;
            for (const char *p = dot - 1; p > n && *p >= '0' && *p <= '9'; p--)
                pid_at = p;
            if (pid_at && pid_at[-1] == '.' && process_gone(strtol(pid_at, NULL, 10)))
                unlink(path);
        }
        closedir(d);
    }
}

/* The error of a system call that just failed: the C library or the kernel ran out of
 * memory for it (ENOMEM: stdio's buffer, a kernel structure) is out of memory, exit 3
 * with that message like every other failed allocation; anything else is an output error. */
static lab_error failed_call(void)
{
    return errno == ENOMEM ? LAB_ERR_OUT_OF_MEMORY : LAB_ERR_OUTPUT;
}

lab_error output_batch_commit(output_batch *batch, const char *dir, lab_diag *d)
{
    char tmp[4200], final[4200], old[4200];
    lab_error e = output_check_dir(dir, d);
    if (e == LAB_OK)
        recover_killed_runs(dir);
    if (e == LAB_OK)
        e = encode_images(batch, d);
    if (e != LAB_OK)
        return e;
    int n = batch->count;
    bool *had_old = calloc((size_t)(n ? n : 1), sizeof *had_old);
    if (!had_old)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "output batch", "%d files", n);
    int written = 0, kept = 0;
    for (; e == LAB_OK && written < n; written++) { /* 1. temporaries */
        if (batch->files[written].remove)
            continue;
        join_path(tmp, sizeof tmp, dir, batch->files[written].name, "tmp");
        if (write_file(tmp, &batch->files[written].content) != 0) {
            e = diag_fail(d, failed_call(), batch->files[written].name, "writing %s failed: %s", tmp,
                          strerror(errno));
            written++; /* a partial temporary may exist */
            break;
        }
    }
    for (int i = 0; e == LAB_OK && i < n; i++) { /* 2. nothing rename() cannot replace */
        struct stat st;
        join_path(final, sizeof final, dir, batch->files[i].name, NULL);
        if (!batch->files[i].remove && lstat(final, &st) == 0 && S_ISDIR(st.st_mode))
            e = diag_fail(d, LAB_ERR_OUTPUT, batch->files[i].name, "%s is a directory", final);
    }
    for (; e == LAB_OK && kept < n; kept++) { /* 3. keep the old files */
        join_path(final, sizeof final, dir, batch->files[kept].name, NULL);
        join_path(old, sizeof old, dir, batch->files[kept].name, "old");
        unlink(old);
        had_old[kept] = link(final, old) == 0;
        if (!had_old[kept] && errno != ENOENT)
            e = diag_fail(d, failed_call(), batch->files[kept].name,
                          "keeping the old file as %s failed: %s", old, strerror(errno));
    }
    char journal[4200];
    snprintf(journal, sizeof journal, "%s/" JOURNAL_PREFIX "%ld", dir, (long)getpid());
    if (e == LAB_OK && write_journal(batch, dir, had_old) != 0)
        e = diag_fail(d, failed_call(), journal, "writing the commit's journal failed: %s", strerror(errno));
    for (int i = 0; e == LAB_OK && i < n; i++) { /* 4. into place, and the stale files out */
        output_file *f = &batch->files[i];
        join_path(tmp, sizeof tmp, dir, f->name, "tmp");
        join_path(final, sizeof final, dir, f->name, NULL);
        if (f->remove ? had_old[i] && unlink(final) != 0 && errno != ENOENT : do_rename(batch, tmp, final) != 0) {
            e = diag_fail(d, failed_call(), f->name,
                          "%s failed (%s); the %d files renamed or removed before it were rolled back",
                          f->remove ? "removing an earlier output" : "renaming into place", strerror(errno), i);
            roll_back(batch, dir, had_old, i);
        }
    }
    for (int i = 0; e == LAB_OK && i < n; i++)
        batch->files[i].existed = had_old[i];
    unlink(journal); /* the commit point: from here the new run stands (or was rolled back) */
    if (e != LAB_OK)
        remove_tagged(batch, dir, "tmp", 0, written);
    remove_tagged(batch, dir, "old", 0, kept); /* 5. */
    free(had_old);
    return e;
}

void output_batch_free(output_batch *batch)
{
    for (int i = 0; i < batch->count; i++) {
        bytes_free(&batch->files[i].content);
        canvas_free(&batch->files[i].image);
    }
    free(batch->files);
    *batch = (output_batch){0};
}
