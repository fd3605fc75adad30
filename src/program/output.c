/* output.c - the all-or-nothing output batch (see output.h). */
#define _POSIX_C_SOURCE 200809L
#include "program/output.h"

#include "draw/gif_encode.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/text.h"
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

bool output_name_from_input(const char *stem, const char *suffix, char out[OUTPUT_MAX_NAME + 1])
{
    char clean[OUTPUT_MAX_NAME + 1];
    size_t n = strlen(stem), used = 0;
    bool utf8 = text_utf8_invalid(stem, n) < 0, changed = false;
    for (size_t i = 0; i < n && used < sizeof clean - 1; i++) {
        unsigned char c = (unsigned char)stem[i];
        bool bad = c < 0x20 || c == 0x7f || c == '/' || c == '\\' || (c >= 0x80 && !utf8) || (i == 0 && c == '.');
        clean[used++] = bad ? '_' : (char)c;
        changed |= bad;
    }
    clean[used] = '\0';
    if (n > OUTPUT_STEM_MAX || used == 0) { /* shortened: the start, '~' and the whole stem's hash */
        size_t keep = n ? OUTPUT_STEM_MAX - 9 : 0;
        if (keep > used)
            keep = used;
        while (keep > 0 && ((unsigned char)clean[keep] & 0xC0) == 0x80)
            keep--; /* never inside a UTF-8 sequence */
        snprintf(clean + keep, sizeof clean - keep, "~%08x", (unsigned)(bytes_hash(stem, n) & 0xffffffffu));
        changed = true;
    }
    snprintf(out, OUTPUT_MAX_NAME + 1, "%s%s", clean, suffix);
    return changed;
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
                                     output_frame_fn draw_frame, const void *context, lab_diag *d)
{
    bytes gif = {0};
    gif_writer w = {0};
    lab_error e = LAB_OK;
    for (int k = 0; e == LAB_OK && k < frames; k++) {
        canvas frame = {0};
        e = draw_frame(context, k, &frame, d);
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
        e = png_encode_all(images, n, batch->png, png, d);
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

/* dir/name, or for a temporary (tag "tmp") or a kept old file ("old") of process pid
 * dir/.name.pid.tag, or dir/.name.pid-K.tag when an earlier name was taken (attempt K). */
static void join_path_of(char *buf, size_t size, const char *dir, const char *name, const char *tag, long pid,
                         int attempt)
{
    if (!tag)
        snprintf(buf, size, "%s/%s", dir, name);
    else if (attempt == 0)
        snprintf(buf, size, "%s/.%s.%ld.%s", dir, name, pid, tag);
    else
        snprintf(buf, size, "%s/.%s.%ld-%d.%s", dir, name, pid, attempt, tag);
}

static void join_path(char *buf, size_t size, const char *dir, const char *name, const char *tag, int attempt)
{
    join_path_of(buf, size, dir, name, tag, (long)getpid(), attempt);
}

#define JOURNAL_PREFIX ".output-journal."
#define JOURNAL_MAGIC "skinlab-output-journal 2"
enum { MAX_ATTEMPTS = 1000 };

/* Writes all of b to fd. */
static int write_all(int fd, const void *data, size_t n)
{
    for (const char *p = data; n > 0;) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return -1;
        p += w, n -= (size_t)w;
    }
    return 0;
}

/* A new file at path, created for this run alone: never through a symlink, never over an
 * existing file (O_EXCL | O_NOFOLLOW), so that nothing outside OUTDIR is ever written. */
static int write_new_file(const char *path, const bytes *b)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
    if (fd < 0)
        return -1;
    if (write_all(fd, b->data, b->len) != 0 || fsync(fd) != 0) {
        int err = errno;
        close(fd);
        errno = err;
        return -1;
    }
    return close(fd);
}

/* The first attempt K whose name (tag, or the journal when tag is NULL) is free now. */
static int free_attempt(const char *dir, const char *name, const char *tag)
{
    char path[4200];
    struct stat st;
    for (int k = 0; k < MAX_ATTEMPTS; k++) {
        if (tag)
            join_path(path, sizeof path, dir, name, tag, k);
        else if (k == 0)
            snprintf(path, sizeof path, "%s/" JOURNAL_PREFIX "%ld", dir, (long)getpid());
        else
            snprintf(path, sizeof path, "%s/" JOURNAL_PREFIX "%ld-%d", dir, (long)getpid(), k);
        if (lstat(path, &st) != 0 && errno == ENOENT)
            return k;
    }
    return -1;
}

bool output_is_own(const char *path, uint64_t size, uint64_t hash)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0)
        return false;
    struct stat st;
    bool same = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size == size;
    uint64_t h = 0xcbf29ce484222325ull, left = size;
    unsigned char chunk[1 << 16];
    while (same && left > 0) {
        ssize_t got = read(fd, chunk, left < sizeof chunk ? (size_t)left : sizeof chunk);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            same = false;
            break;
        }
        for (ssize_t i = 0; i < got; i++)
            h = (h ^ chunk[i]) * 0x100000001b3ull;
        left -= (uint64_t)got;
    }
    close(fd);
    return same && h == hash;
}

/* A file's size and hash as it is now, through no symlink; false when it is not a regular
 * file or cannot be read. */
static bool size_and_hash(const char *path, uint64_t *size, uint64_t *hash)
{
    struct stat st;
    if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return false;
    *size = (uint64_t)st.st_size;
    bytes b = {0};
    bool ok = bytes_read_file(path, (size_t)st.st_size, &b) == BYTES_READ_OK && b.len == (size_t)st.st_size;
    *hash = ok ? bytes_hash(b.data, b.len) : 0;
    bytes_free(&b);
    return ok;
}

static int do_rename(const output_batch *batch, const char *from, const char *to)
{
    return batch->rename_file ? batch->rename_file(from, to, batch->rename_context) : rename(from, to);
}

/* ---- the journal ------------------------------------------------------------------------
 *
 * Before it writes anything else, a commit creates its journal, .output-journal.PID (or
 * .output-journal.PID-K), and appends to it as it goes:
 *
 *     skinlab-output-journal 2
 *     W SIZE HASH K NAME    a file it writes: its temporary is .NAME.PID[-K].tmp
 *     R NAME                an earlier output it removes
 *     O SIZE HASH K NAME    NAME's previous file, kept as .NAME.PID[-K].old
 *     N NAME                NAME renamed into place (or removed)
 *     C                     the commit point: every rename done
 *
 * A later commit into the same folder recovers a journal whose process is gone: before C
 * it puts back every file whose N line it finds, the previous one from its .old when that
 * file still has the hash of the O line, or removes the new one when it still has the W
 * line's hash; after C it only removes the leftovers. Every temporary and every .old is
 * removed only when it still has its line's size and hash, and a file no journal names,
 * or a journal not in this format, is never touched. */

typedef struct {
    int fd;
    bool failed;
} journal;

static void journal_line(journal *j, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void journal_line(journal *j, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof line || write_all(j->fd, line, (size_t)n) != 0)
        j->failed = true;
}

/* Whether process pid is gone (so its hidden files are left over, not in use). */
static bool process_gone(long pid)
{
    return pid > 0 && kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* One line of a journal, parsed; false when it is not one of the format's. */
typedef struct {
    char kind;
    unsigned long long size, hash;
    int attempt;
    const char *name;
} journal_entry;

static bool parse_entry(char *line, journal_entry *e)
{
    *e = (journal_entry){.kind = line[0]};
    int used = 0;
    if ((line[0] == 'W' || line[0] == 'O') &&
        sscanf(line + 1, " %llu %llx %d %n", &e->size, &e->hash, &e->attempt, &used) == 3 && used > 0 &&
        e->attempt >= 0 && e->attempt < MAX_ATTEMPTS)
        e->name = line + 1 + used;
    else if ((line[0] == 'R' || line[0] == 'N') && line[1] == ' ')
        e->name = line + 2;
    else
        return line[0] == 'C' && line[1] == '\0';
    return plain_name(e->name);
}

/* The entry of kind `kind` for name, or NULL. */
static const journal_entry *find_entry(const journal_entry *list, int n, char kind, const char *name)
{
    for (int i = 0; i < n; i++)
        if (list[i].kind == kind && !strcmp(list[i].name, name))
            return &list[i];
    return NULL;
}

/* Recovers the journal of process pid (see above). A journal in another format, or one
 * that cannot be read whole, is left as it is. */
static void recover_journal(const char *dir, const char *path, long pid)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0)
        return;
    struct stat st;
    bool regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= (1 << 22);
    close(fd);
    bytes text = {0};
    if (!regular || bytes_read_file(path, 1 << 22, &text) != BYTES_READ_OK ||
        strncmp((const char *)text.data, JOURNAL_MAGIC "\n", strlen(JOURNAL_MAGIC) + 1)) {
        bytes_free(&text);
        return;
    }
    int count = 0, cap = 0;
    journal_entry *list = NULL;
    bool committed = false, whole = true;
    for (char *line = (char *)text.data + strlen(JOURNAL_MAGIC) + 1; whole && line && *line;) {
        char *end = strchr(line, '\n');
        if (!end) /* a last line cut short by the kill: the lines before it stand */
            break;
        *end = '\0';
        journal_entry e;
        if (!parse_entry(line, &e)) {
            whole = false;
            break;
        }
        committed |= e.kind == 'C';
        if (count == cap) {
            cap = cap ? 2 * cap : 32;
            journal_entry *more = realloc(list, sizeof *list * (size_t)cap);
            if (!more) {
                whole = false;
                break;
            }
            list = more;
        }
        list[count++] = e;
        line = end + 1;
    }
    if (whole) {
        char final[4200], side[4200];
        for (int i = 0; i < count && !committed; i++) { /* put back what was renamed */
            if (list[i].kind != 'N')
                continue;
            const journal_entry *w = find_entry(list, count, 'W', list[i].name);
            const journal_entry *o = find_entry(list, count, 'O', list[i].name);
            join_path_of(final, sizeof final, dir, list[i].name, NULL, pid, 0);
            if (o) {
                join_path_of(side, sizeof side, dir, o->name, "old", pid, o->attempt);
                if (output_is_own(side, o->size, o->hash))
                    rename(side, final);
            } else if (w && output_is_own(final, w->size, w->hash)) {
                unlink(final);
            }
        }
        for (int i = 0; i < count; i++) { /* the leftovers that are still ours */
            if (list[i].kind != 'W' && list[i].kind != 'O')
                continue;
            join_path_of(side, sizeof side, dir, list[i].name, list[i].kind == 'W' ? "tmp" : "old", pid,
                         list[i].attempt);
            if (output_is_own(side, list[i].size, list[i].hash))
                unlink(side);
        }
        unlink(path);
    }
    free(list);
    bytes_free(&text);
}

/* The journals of commits whose processes are gone, recovered; another live run's are left
 * alone, and so is every other file. */
static void recover_killed_runs(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        const char *n = e->d_name;
        if (strncmp(n, JOURNAL_PREFIX, strlen(JOURNAL_PREFIX)))
            continue;
        char *end;
        long pid = strtol(n + strlen(JOURNAL_PREFIX), &end, 10);
        if (end == n + strlen(JOURNAL_PREFIX) || (*end && *end != '-'))
            continue;
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", dir, n);
        if (process_gone(pid))
            recover_journal(dir, path, pid);
    }
    closedir(d);
}

/* The error of a system call that just failed: the C library or the kernel ran out of
 * memory for it (ENOMEM: stdio's buffer, a kernel structure) is out of memory, exit 3
 * with that message like every other failed allocation; anything else is an output error. */
static lab_error failed_call(void)
{
    return errno == ENOMEM ? LAB_ERR_OUT_OF_MEMORY : LAB_ERR_OUTPUT;
}

lab_error output_batch_encode(output_batch *batch, lab_diag *d) { return encode_images(batch, d); }

/* Step 4 failed at file `failed`: files [0, failed) get their old contents back (a removed
 * one comes back; a removal of a file that was not there had nothing to undo). */
static void roll_back(const output_batch *batch, const char *dir, int failed)
{
    char old[4200], final[4200];
    for (int i = 0; i < failed; i++) {
        const output_file *f = &batch->files[i];
        join_path(final, sizeof final, dir, f->name, NULL, 0);
        join_path(old, sizeof old, dir, f->name, "old", f->old_attempt);
        if (f->kept_old)
            rename(old, final);
        else if (!f->remove)
            unlink(final);
    }
}

lab_error output_batch_commit(output_batch *batch, const char *dir, lab_diag *d)
{
    char tmp[4200], final[4200], old[4200], journal_path[4200];
    lab_error e = output_check_dir(dir, d);
    if (e == LAB_OK)
        recover_killed_runs(dir);
    if (e == LAB_OK)
        e = encode_images(batch, d);
    if (e != LAB_OK)
        return e;
    int n = batch->count;
    for (int i = 0; i < n; i++) {
        output_file *f = &batch->files[i];
        f->hash = bytes_hash(f->content.data, f->content.len);
        f->tmp_attempt = f->remove ? 0 : free_attempt(dir, f->name, "tmp");
        f->kept_old = false;
        if (f->tmp_attempt < 0)
            return diag_fail(d, LAB_ERR_OUTPUT, f->name, "no free name for its temporary in %s", dir);
    }
    /* 0. the journal, created for this run alone, before anything else */
    int jk = free_attempt(dir, NULL, NULL);
    if (jk == 0)
        snprintf(journal_path, sizeof journal_path, "%s/" JOURNAL_PREFIX "%ld", dir, (long)getpid());
    else
        snprintf(journal_path, sizeof journal_path, "%s/" JOURNAL_PREFIX "%ld-%d", dir, (long)getpid(), jk);
    journal j = {.fd = jk < 0 ? -1 : open(journal_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644)};
    if (j.fd < 0)
        return diag_fail(d, jk < 0 ? LAB_ERR_OUTPUT : failed_call(), journal_path,
                         "creating the commit's journal failed: %s", jk < 0 ? "no free name" : strerror(errno));
    journal_line(&j, JOURNAL_MAGIC "\n");
    for (int i = 0; i < n; i++) {
        const output_file *f = &batch->files[i];
        if (f->remove)
            journal_line(&j, "R %s\n", f->name);
        else
            journal_line(&j, "W %zu %016llx %d %s\n", f->content.len, (unsigned long long)f->hash, f->tmp_attempt,
                         f->name);
    }
    if (j.failed || fsync(j.fd) != 0)
        e = diag_fail(d, failed_call(), journal_path, "writing the commit's journal failed: %s", strerror(errno));
    int written = 0, kept = 0;
    for (; e == LAB_OK && written < n; written++) { /* 1. temporaries */
        const output_file *f = &batch->files[written];
        if (f->remove)
            continue;
        join_path(tmp, sizeof tmp, dir, f->name, "tmp", f->tmp_attempt);
        if (batch->before_create)
            batch->before_create(tmp, batch->rename_context);
        if (write_new_file(tmp, &f->content) != 0) {
            bool mine = errno != EEXIST && errno != ELOOP;
            e = diag_fail(d, failed_call(), f->name, "writing %s failed: %s", tmp, strerror(errno));
            written += mine; /* a partial temporary of ours may exist */
            break;
        }
    }
    for (int i = 0; e == LAB_OK && i < n; i++) { /* 2. nothing rename() cannot replace */
        struct stat st;
        join_path(final, sizeof final, dir, batch->files[i].name, NULL, 0);
        if (!batch->files[i].remove && lstat(final, &st) == 0 && S_ISDIR(st.st_mode))
            e = diag_fail(d, LAB_ERR_OUTPUT, batch->files[i].name, "%s is a directory", final);
    }
    for (; e == LAB_OK && kept < n; kept++) { /* 3. keep the old files, as hard links */
        output_file *f = &batch->files[kept];
        uint64_t size, hash;
        join_path(final, sizeof final, dir, f->name, NULL, 0);
        if (!size_and_hash(final, &size, &hash)) { /* none, or not a regular file: nothing to keep */
            struct stat st;
            if (lstat(final, &st) == 0 && !S_ISREG(st.st_mode) && f->remove)
                f->remove_skipped = true; /* a removal acts on a regular file only */
            continue;
        }
        f->old_attempt = free_attempt(dir, f->name, "old");
        join_path(old, sizeof old, dir, f->name, "old", f->old_attempt);
        if (f->old_attempt < 0 || link(final, old) != 0) {
            e = diag_fail(d, f->old_attempt < 0 ? LAB_ERR_OUTPUT : failed_call(), f->name,
                          "keeping the old file as %s failed: %s", old, f->old_attempt < 0 ? "no free name" : strerror(errno));
            break;
        }
        f->kept_old = true;
        journal_line(&j, "O %llu %016llx %d %s\n", (unsigned long long)size, (unsigned long long)hash, f->old_attempt,
                     f->name);
    }
    if (e == LAB_OK && (j.failed || fsync(j.fd) != 0))
        e = diag_fail(d, failed_call(), journal_path, "writing the commit's journal failed: %s", strerror(errno));
    for (int i = 0; e == LAB_OK && i < n; i++) { /* 4. into place, and the stale files out */
        output_file *f = &batch->files[i];
        join_path(tmp, sizeof tmp, dir, f->name, "tmp", f->tmp_attempt);
        join_path(final, sizeof final, dir, f->name, NULL, 0);
        journal_line(&j, "N %s\n", f->name); /* before the act: recovery checks the hash anyway */
        bool failed = f->remove ? f->kept_old && unlink(final) != 0 && errno != ENOENT
                                : do_rename(batch, tmp, final) != 0;
        if (failed) {
            e = diag_fail(d, failed_call(), f->name,
                          "%s failed (%s); the %d files renamed or removed before it were rolled back",
                          f->remove ? "removing an earlier output" : "renaming into place", strerror(errno), i);
            roll_back(batch, dir, i);
        }
    }
    if (e == LAB_OK) {
        journal_line(&j, "C\n"); /* the commit point */
        if (fsync(j.fd) != 0)
            j.failed = true;
    }
    for (int i = 0; e == LAB_OK && i < n; i++)
        batch->files[i].existed = batch->files[i].kept_old;
    for (int i = 0; e != LAB_OK && i < written; i++) { /* our temporaries of a failed commit */
        if (batch->files[i].remove)
            continue;
        join_path(tmp, sizeof tmp, dir, batch->files[i].name, "tmp", batch->files[i].tmp_attempt);
        unlink(tmp);
    }
    for (int i = 0; i < kept; i++) /* 5. the old files, of a commit done or rolled back */
        if (batch->files[i].kept_old) {
            join_path(old, sizeof old, dir, batch->files[i].name, "old", batch->files[i].old_attempt);
            unlink(old);
        }
    close(j.fd);
    unlink(journal_path);
    return e;
}

void output_batch_free(output_batch *batch)
{
    for (int i = 0; i < batch->count; i++) {
        bytes_free(&batch->files[i].content);
        canvas_free(&batch->files[i].image);
    }
    free(batch->files);
    bytes_free(&batch->notes);
    *batch = (output_batch){0};
}
