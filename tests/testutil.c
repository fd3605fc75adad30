/* testutil.c - see testutil.h. */
#define _DEFAULT_SOURCE /* wait4, setgroups */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"
#include "programs.h"

#include <gif_lib.h>

#include "cmocka_all.h"

#include <dirent.h>
#include <grp.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stb_image.h>

#include "gltf/gltf_write.h"

int tu_ordinary_uid(void) { return geteuid() == 0 ? 65534 : (int)geteuid(); }

int tu_run_as_ordinary_user(int (*job)(void *arg), void *arg)
{
    fflush(NULL);
    pid_t child = fork();
    if (child < 0)
        return -1;
    if (child == 0) {
        if (geteuid() == 0 && (setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(65534) != 0))
            _exit(TU_NOT_ORDINARY);
        _exit(job(arg));
    }
    int status = 0;
    return waitpid(child, &status, 0) == child ? status : -1;
}

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
        alarm(TU_RUN_SECONDS); /* kept across execv: a program that hangs dies, the suite goes on */
        execv(argv[0], argv);
        _exit(127);
    }
    int status;
    struct rusage usage;
    if (wait4(pid, &status, 0, &usage) < 0 || !WIFEXITED(status))
        return -1;
    tu_last_peak_kb = usage.ru_maxrss;
    return WEXITSTATUS(status);
}

long tu_last_peak_kb;

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

/* program, the arguments, outdir, NULL: into argv (32 entries at most). */
static int run_into(const char *program, const char *const *args, const char *outdir)
{
    char *argv[32] = {(char *)program};
    int n = 1;
    for (int i = 0; args && args[i] && n < 30; i++)
        argv[n++] = (char *)args[i];
    argv[n++] = (char *)outdir;
    argv[n] = NULL;
    return tu_run(argv, NULL, NULL);
}

int tu_failing_rename(const char *from, const char *to, void *context)
{
    int *left = context;
    if ((*left)-- == 0) {
        errno = EXDEV;
        return -1;
    }
    return rename(from, to);
}

void tu_check_deterministic_and_committed(const char *program, const char *const *args_a,
                                          const char *const *args_b, const char *const *names,
                                          int count, const char *make_target)
{
    char a[64], b[64], manifest[96];
    const char *all[128]; /* the outputs and the run's manifest (src/program/manifest.h) */
    assert_true(count < 128);
    snprintf(manifest, sizeof manifest, "%s-outputs.txt", strrchr(program, '/') ? strrchr(program, '/') + 1 : program);
    for (int i = 0; i < count; i++)
        all[i] = names[i];
    all[count++] = manifest;
    names = all;
    assert_non_null(tu_make_temp_dir(a, sizeof a));
    assert_non_null(tu_make_temp_dir(b, sizeof b));
    assert_int_equal(run_into(program, args_a, a), 0);
    assert_int_equal(run_into(program, args_b ? args_b : args_a, b), 0);
    assert_int_equal(tu_count_entries(a), count); /* exactly the outputs, nothing left over */
    const char *differs = tu_first_differing_output(a, b, names, count);
    const char *committed = tu_committed_dir(make_target);
    const char *stale = differs ? NULL : tu_first_stale_output(a, committed, names, count);
    tu_remove_tree(a);
    tu_remove_tree(b);
    if (differs)
        fail_msg("%s differs between two runs of %s", differs, program);
    if (stale)
        fail_msg("%s/%s differs from a fresh run: run `make %s` and commit %s/", committed, stale, make_target,
                 committed);
}

#define LAB_PROGRAM(name, chapter, input, gpu) {name, chapter, input, gpu},
const tu_program tu_programs[] = {LAB_PROGRAM_LIST};
#undef LAB_PROGRAM
const int tu_program_count = (int)(sizeof tu_programs / sizeof tu_programs[0]);

const tu_program *tu_find_program(const char *name)
{
    for (int i = 0; i < tu_program_count; i++)
        if (!strcmp(tu_programs[i].name, name))
            return &tu_programs[i];
    return NULL;
}

/* Whether `word` is one of the comma-separated items of list. */
static bool listed(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *at = list; *at;) {
        size_t len = strcspn(at, ",");
        if (len == n && !strncmp(at, word, n))
            return true;
        at += len + (at[len] == ',');
    }
    return false;
}

bool tu_program_selected(const tu_program *p)
{
    const char *only = getenv("LAB_ONLY");
    return !only || !*only || listed(only, p->name) || listed(only, p->chapter);
}

const char *tu_committed_dir(const char *program)
{
    const tu_program *p = tu_find_program(program);
    assert_non_null(p); /* a program of the generated list */
    static char dirs[16][64]; /* one per chapter: the same program gives the same pointer */
    static int used;
    for (int i = 0; i < used; i++)
        if (!strcmp(dirs[i] + strlen(COMMITTED_OUT_DIR) + 1, p->chapter))
            return dirs[i];
    assert_true(used < 16 && strlen(COMMITTED_OUT_DIR) + 1 + strlen(p->chapter) < sizeof dirs[0]);
    snprintf(dirs[used], sizeof dirs[0], "%s/%s", COMMITTED_OUT_DIR, p->chapter);
    return dirs[used++];
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

bool tu_image_find(const tu_image *big, const tu_image *small, int *x, int *y)
{
    size_t row = 3 * (size_t)small->width;
    for (int oy = 0; oy + small->height <= big->height; oy++)
        for (int ox = 0; ox + small->width <= big->width; ox++) {
            int r = 0;
            while (r < small->height &&
                   !memcmp(big->rgb + 3 * ((size_t)(oy + r) * big->width + ox), small->rgb + row * r, row))
                r++;
            if (r == small->height) {
                *x = ox, *y = oy;
                return true;
            }
        }
    return false;
}

bool tu_gif_load(const char *path, tu_gif *out)
{
    *out = (tu_gif){0};
    int err = 0;
    GifFileType *gif = DGifOpenFileName(path, &err);
    if (!gif)
        return false;
    bool ok = DGifSlurp(gif) == GIF_OK && gif->ImageCount > 0;
    if (ok) {
        out->width = gif->SWidth, out->height = gif->SHeight, out->frame_count = gif->ImageCount;
        out->frames = calloc((size_t)gif->ImageCount, sizeof *out->frames);
        out->delay_cs = calloc((size_t)gif->ImageCount, sizeof *out->delay_cs);
        ok = out->frames && out->delay_cs;
    }
    for (int k = 0; ok && k < gif->ImageCount; k++) {
        const SavedImage *im = &gif->SavedImages[k];
        const ColorMapObject *map = im->ImageDesc.ColorMap ? im->ImageDesc.ColorMap : gif->SColorMap;
        int w = im->ImageDesc.Width, h = im->ImageDesc.Height;
        ok = map && w == out->width && h == out->height && im->ImageDesc.Left == 0 && im->ImageDesc.Top == 0;
        tu_image *f = &out->frames[k];
        f->width = w, f->height = h;
        f->rgb = ok ? malloc(3 * (size_t)w * h) : NULL;
        ok = ok && f->rgb;
        for (size_t i = 0; ok && i < (size_t)w * h; i++) {
            int c = im->RasterBits[i];
            ok = c < map->ColorCount;
            if (ok)
                f->rgb[3 * i] = map->Colors[c].Red, f->rgb[3 * i + 1] = map->Colors[c].Green,
                f->rgb[3 * i + 2] = map->Colors[c].Blue;
        }
        GraphicsControlBlock gcb;
        ok = ok && DGifSavedExtensionToGCB(gif, k, &gcb) == GIF_OK;
        if (ok)
            out->delay_cs[k] = gcb.DelayTime;
        for (int e = 0; ok && e < im->ExtensionBlockCount; e++)
            if (im->ExtensionBlocks[e].Function == APPLICATION_EXT_FUNC_CODE && im->ExtensionBlocks[e].ByteCount == 11 &&
                !memcmp(im->ExtensionBlocks[e].Bytes, "NETSCAPE2.0", 11))
                out->loops = true;
    }
    for (int e = 0; ok && e < gif->ExtensionBlockCount; e++) /* extensions after the last image */
        if (gif->ExtensionBlocks[e].Function == APPLICATION_EXT_FUNC_CODE && gif->ExtensionBlocks[e].ByteCount == 11 &&
            !memcmp(gif->ExtensionBlocks[e].Bytes, "NETSCAPE2.0", 11))
            out->loops = true;
    DGifCloseFile(gif, &err);
    if (!ok)
        tu_gif_free(out);
    return ok;
}

void tu_check_animation(const char *path, int frames, int delay_cs, tu_gif *out)
{
    size_t size = 0;
    free(tu_read_file(path, &size));
    assert_true(size > 0 && size <= 2 * 1024 * 1024);
    assert_true(tu_gif_load(path, out));
    assert_int_equal(out->frame_count, frames);
    assert_true(out->loops);
    for (int k = 0; k < out->frame_count; k++)
        assert_int_equal(out->delay_cs[k], delay_cs);
}

void tu_gif_free(tu_gif *g)
{
    for (int k = 0; g->frames && k < g->frame_count; k++)
        free(g->frames[k].rgb);
    free(g->frames);
    free(g->delay_cs);
    *g = (tu_gif){0};
}

int tu_image_count_color(const tu_image *img, unsigned char r, unsigned char g, unsigned char b)
{
    int n = 0;
    for (int i = 0; i < img->width * img->height; i++)
        n += img->rgb[3 * i] == r && img->rgb[3 * i + 1] == g && img->rgb[3 * i + 2] == b;
    return n;
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

cJSON *tu_json_get(const cJSON *o, const char *key)
{
    cJSON *item = tu_obj(o, key);
    if (!item)
        fail_msg("JSON has no key %s", key);
    return item;
}

double tu_json_num(const cJSON *o, const char *key) { return tu_json_number(tu_json_get(o, key)); }

/* Appends little-endian float32 / uint16 values (the glTF byte order). */
static void put_floats(bytes *b, const float *v, int n)
{
    for (int i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, &v[i], 4);
        const unsigned char le[4] = {(unsigned char)u, (unsigned char)(u >> 8), (unsigned char)(u >> 16),
                                     (unsigned char)(u >> 24)};
        bytes_append(b, le, 4);
    }
}

static void put_u16(bytes *b, const uint16_t *v, int n)
{
    for (int i = 0; i < n; i++) {
        const unsigned char le[2] = {(unsigned char)v[i], (unsigned char)(v[i] >> 8)};
        bytes_append(b, le, 2);
    }
}

static void put_buffer(bytes *json, const bytes *bin, bool last)
{
    bytes_printf(json, "    {\"uri\": \"data:application/gltf-buffer;base64,");
    base64_append(json, bin->data, bin->len);
    bytes_printf(json, "\", \"byteLength\": %zu}%s\n", bin->len, last ? "" : ",");
}

static char simple_skin_dir[64];
static void remove_simple_skin(void) { tu_remove_tree(simple_skin_dir); }

const char *tu_simple_skin(void)
{
    static char path[128];
    if (path[0])
        return path;
    if (!tu_make_temp_dir(simple_skin_dir, sizeof simple_skin_dir))
        return NULL;
    snprintf(path, sizeof path, "%s/SimpleSkin.gltf", simple_skin_dir);
    if (!tu_write_simple_skin(path)) {
        path[0] = '\0';
        return NULL;
    }
    atexit(remove_simple_skin);
    return path;
}

bool tu_write_simple_skin(const char *path)
{
    /* The tutorial's numbers: two triangles per row of a 1 x 2 strip of 10 vertices... */
    static const uint16_t indices[24] = {0, 1, 3, 0, 3, 2, 2, 3, 5, 2, 5, 4,
                                         4, 5, 7, 4, 7, 6, 6, 7, 9, 6, 9, 8};
    static const float positions[30] = {0, 0, 0, 1, 0, 0, 0, 0.5f, 0, 1, 0.5f, 0, 0, 1, 0,
                                        1, 1, 0, 0, 1.5f, 0, 1, 1.5f, 0, 0, 2, 0, 1, 2, 0};
    /* ...joints (0, 1) everywhere and the weights of joint 1 rising by 1/4 a row... */
    static const float weights[40] = {1, 0, 0, 0, 1, 0, 0, 0, 0.75f, 0.25f, 0, 0, 0.75f, 0.25f, 0, 0,
                                      0.5f, 0.5f, 0, 0, 0.5f, 0.5f, 0, 0, 0.25f, 0.75f, 0, 0,
                                      0.25f, 0.75f, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0};
    /* ...both inverse binds T(-0.5, -1, 0), column-major... */
    static const float inverse_bind[32] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -0.5f, -1, 0, 1,
                                           1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -0.5f, -1, 0, 1};
    /* ...and joint 1 turning about z to +90 deg and back, then to -90 deg and back. */
    static const float times[12] = {0, 0.5f, 1, 1.5f, 2, 2.5f, 3, 3.5f, 4, 4.5f, 5, 5.5f};
    static const float z[12] = {0, 0.383f, 0.707f, 0.707f, 0.383f, 0, 0, -0.383f, -0.707f, -0.707f, -0.383f, 0};
    static const float w[12] = {1, 0.924f, 0.707f, 0.707f, 0.924f, 1, 1, 0.924f, 0.707f, 0.707f, 0.924f, 1};
    bytes geometry = {0}, skin = {0}, binds = {0}, animation = {0}, json = {0};
    put_u16(&geometry, indices, 24);
    put_floats(&geometry, positions, 30);
    for (int v = 0; v < 10; v++) { /* joints and weights interleaved, 16 bytes apart */
        static const uint16_t joints[4] = {0, 1, 0, 0};
        put_u16(&skin, joints, 4);
        bytes_append(&skin, (const unsigned char[8]){0}, 8);
    }
    for (int v = 0; v < 10; v++)
        put_floats(&skin, &weights[4 * v], 4);
    put_floats(&binds, inverse_bind, 32);
    put_floats(&animation, times, 12);
    for (int k = 0; k < 12; k++)
        put_floats(&animation, (const float[4]){0, 0, z[k], w[k]}, 4);
    bytes_printf(&json,
        "{\n  \"asset\": {\"version\": \"2.0\"},\n  \"scenes\": [{\"nodes\": [0]}],\n"
        "  \"nodes\": [{\"skin\": 0, \"mesh\": 0, \"children\": [1]},\n"
        "            {\"children\": [2], \"translation\": [0.0, 1.0, 0.0]},\n"
        "            {\"rotation\": [0.0, 0.0, 0.0, 1.0]}],\n"
        "  \"meshes\": [{\"primitives\": [{\"attributes\": {\"POSITION\": 1, \"JOINTS_0\": 2, "
        "\"WEIGHTS_0\": 3}, \"indices\": 0}]}],\n"
        "  \"skins\": [{\"inverseBindMatrices\": 4, \"joints\": [1, 2]}],\n"
        "  \"animations\": [{\"channels\": [{\"sampler\": 0, \"target\": {\"node\": 2, \"path\": \"rotation\"}}],\n"
        "                  \"samplers\": [{\"input\": 5, \"interpolation\": \"LINEAR\", \"output\": 6}]}],\n"
        "  \"bufferViews\": [\n"
        "    {\"buffer\": 0, \"byteOffset\": 0, \"byteLength\": 48, \"target\": 34963},\n"
        "    {\"buffer\": 0, \"byteOffset\": 48, \"byteLength\": 120, \"target\": 34962},\n"
        "    {\"buffer\": 1, \"byteOffset\": 0, \"byteLength\": 320, \"byteStride\": 16},\n"
        "    {\"buffer\": 2, \"byteOffset\": 0, \"byteLength\": 128},\n"
        "    {\"buffer\": 3, \"byteOffset\": 0, \"byteLength\": 240}],\n"
        "  \"accessors\": [\n"
        "    {\"bufferView\": 0, \"componentType\": 5123, \"count\": 24, \"type\": \"SCALAR\", \"max\": [9], \"min\": [0]},\n"
        "    {\"bufferView\": 1, \"componentType\": 5126, \"count\": 10, \"type\": \"VEC3\", "
        "\"max\": [1.0, 2.0, 0.0], \"min\": [0.0, 0.0, 0.0]},\n"
        "    {\"bufferView\": 2, \"componentType\": 5123, \"count\": 10, \"type\": \"VEC4\"},\n"
        "    {\"bufferView\": 2, \"byteOffset\": 160, \"componentType\": 5126, \"count\": 10, \"type\": \"VEC4\"},\n"
        "    {\"bufferView\": 3, \"componentType\": 5126, \"count\": 2, \"type\": \"MAT4\"},\n"
        "    {\"bufferView\": 4, \"componentType\": 5126, \"count\": 12, \"type\": \"SCALAR\", "
        "\"max\": [5.5], \"min\": [0.0]},\n"
        "    {\"bufferView\": 4, \"byteOffset\": 48, \"componentType\": 5126, \"count\": 12, \"type\": \"VEC4\"}],\n"
        "  \"buffers\": [\n");
    put_buffer(&json, &geometry, false);
    put_buffer(&json, &skin, false);
    put_buffer(&json, &binds, false);
    put_buffer(&json, &animation, true);
    bytes_printf(&json, "  ]\n}\n");
    bool ok = !json.failed && tu_write_file(path, (const char *)json.data);
    bytes_free(&geometry), bytes_free(&skin), bytes_free(&binds), bytes_free(&animation), bytes_free(&json);
    return ok;
}

static void keep_fuzz_file(const char *folder, const char *name, const unsigned char *options, const void *data,
                           size_t size)
{
    const char *seeds = getenv("FUZZ_SEEDS_DIR");
    if (!seeds)
        return;
    char path[512];
    snprintf(path, sizeof path, "%s/%s/%s", seeds, folder, name);
    FILE *f = fopen(path, "wb");
    if (!f || (options && fputc(*options, f) == EOF) || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
        fprintf(stderr, "testutil: cannot write the fuzz seed %s\n", path);
        abort();
    }
}

void tu_keep_fuzz_seed(const char *name, unsigned char options, const void *data, size_t size)
{
    keep_fuzz_file("corpus", name, &options, data, size);
}

void tu_keep_fuzz_asset(const char *name, const void *data, size_t size)
{
    keep_fuzz_file("assets", name, NULL, data, size);
}

void tu_gltf_validate(const tu_run_dir *ctx, const char *file, bool warnings_ok)
{
    int rc = tu_run_program("/usr/bin/env", ctx->out_path, ctx->err_path, "node", "tests/gltf-validate.js",
                            GLTF_VALIDATOR_DIR, file, (char *)NULL);
    char *report = tu_read_file(ctx->out_path, NULL);
    bool ok = report && strstr(report, ": 0 errors, ") &&
              (warnings_ok ? rc == 0 || rc == 1 : rc == 0 && strstr(report, ": 0 errors, 0 warnings"));
    if (!ok)
        fail_msg("validator on %s, exit %d: %s", file, rc, report ? report : "(no output)");
    free(report);
}
