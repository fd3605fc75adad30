/* testutil.c - see testutil.h. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <dirent.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stb_image.h>

char *tu_make_temp_dir(char *buf, size_t size)
{
    snprintf(buf, size, "/tmp/skinlab-test-XXXXXX");
    return mkdtemp(buf);
}

void tu_remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    char path[4096];
    while ((e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
            tu_remove_tree(path);
        else
            unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

char *tu_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n - 1 == 0) {
            char *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf)
        buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

bool tu_write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fputs(text, f) >= 0;
    return fclose(f) == 0 && ok;
}

bool tu_exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

int tu_count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

int tu_run_dir_setup(void **state)
{
    tu_run_dir *ctx = calloc(1, sizeof *ctx);
    if (!ctx || !tu_make_temp_dir(ctx->dir, sizeof ctx->dir)) {
        free(ctx);
        return -1;
    }
    snprintf(ctx->out_path, sizeof ctx->out_path, "%s.stdout", ctx->dir);
    snprintf(ctx->err_path, sizeof ctx->err_path, "%s.stderr", ctx->dir);
    *state = ctx;
    return 0;
}

int tu_run_dir_teardown(void **state)
{
    tu_run_dir *ctx = *state;
    tu_remove_tree(ctx->dir);
    remove(ctx->out_path);
    remove(ctx->err_path);
    free(ctx);
    return 0;
}

static void redirect(const char *path, int fd)
{
    int f = open(path ? path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (f >= 0) {
        dup2(f, fd);
        close(f);
    }
}

int tu_run(char *const argv[], const char *stdout_path, const char *stderr_path)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        redirect(stdout_path, STDOUT_FILENO);
        redirect(stderr_path, STDERR_FILENO);
        execv(argv[0], argv);
        _exit(127);
    }
    int status;
    if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
        return -1;
    return WEXITSTATUS(status);
}

int tu_run_program(const char *program, const char *out_path, const char *err_path, ...)
{
    char *argv[32] = {(char *)program};
    int n = 1;
    va_list args;
    va_start(args, err_path);
    for (char *a; n < 31 && (a = va_arg(args, char *)) != NULL;)
        argv[n++] = a;
    va_end(args);
    argv[n] = NULL;
    return tu_run(argv, out_path, err_path);
}

const char *tu_path(const char *dir, const char *name)
{
    static char buf[8][512];
    static int next;
    char *p = buf[next++ % 8];
    snprintf(p, sizeof buf[0], "%s/%s", dir, name);
    return p;
}

bool tu_file_contains(const char *path, const char *needle)
{
    char *text = tu_read_file(path, NULL);
    bool found = text && strstr(text, needle);
    free(text);
    return found;
}

bool tu_same_bytes(const char *a, const char *b)
{
    size_t la, lb;
    char *x = tu_read_file(a, &la), *y = tu_read_file(b, &lb);
    bool same = x && y && la == lb && !memcmp(x, y, la);
    free(x);
    free(y);
    return same;
}

bool tu_same_pixels(const char *a, const char *b)
{
    tu_image x, y;
    if (!tu_image_load(a, &x))
        return false;
    if (!tu_image_load(b, &y)) {
        tu_image_free(&x);
        return false;
    }
    bool same = x.width == y.width && x.height == y.height &&
                !memcmp(x.rgb, y.rgb, (size_t)x.width * (size_t)x.height * 3);
    tu_image_free(&x);
    tu_image_free(&y);
    return same;
}

const char *tu_first_stale_output(const char *dir, const char *committed_dir,
                                  const char *const *names, int count)
{
    for (int i = 0; i < count; i++) {
        const char *fresh = tu_path(dir, names[i]), *committed = tu_path(committed_dir, names[i]);
        bool png = strstr(names[i], ".png") != NULL;
        if (!(png ? tu_same_pixels(committed, fresh) : tu_same_bytes(committed, fresh)))
            return names[i];
    }
    return NULL;
}

const char *tu_first_differing_output(const char *dir_a, const char *dir_b,
                                      const char *const *names, int count)
{
    for (int i = 0; i < count; i++)
        if (!tu_same_bytes(tu_path(dir_a, names[i]), tu_path(dir_b, names[i])))
            return names[i];
    return NULL;
}

bool tu_image_load(const char *path, tu_image *out)
{
    int channels;
    out->rgb = stbi_load(path, &out->width, &out->height, &channels, 3);
    return out->rgb != NULL;
}

void tu_image_free(tu_image *img)
{
    stbi_image_free(img->rgb);
    img->rgb = NULL;
}

cJSON *tu_json_load(const char *path)
{
    char *text = tu_read_file(path, NULL);
    if (!text)
        return NULL;
    cJSON *root = cJSON_Parse(text);
    free(text);
    return root;
}

double tu_json_number(const cJSON *item)
{
    return cJSON_IsNumber(item) ? item->valuedouble : -1e300;
}

cJSON *tu_obj(const cJSON *o, const char *key) { return cJSON_GetObjectItemCaseSensitive(o, key); }

bool tu_shared_asset_missing(const char *path)
{
    if (tu_exists(path))
        return false;
    const char *ci = getenv("CI");
    fprintf(stderr, "%s is missing: %s\n", path,
            ci && *ci ? "CI must have ../shared beside the clone" : "skipping the test that needs it");
    return !(ci && *ci);
}
