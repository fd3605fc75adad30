/* test_docs.c - the pages are a manual, so they are tested like code:
 *
 *   - every command in a ```sh block of the front page (README.md) and of every chapter page
 *     (every .md file in a folder lab/<chapter>) runs as pasted, in order, in a scratch copy of the source tree,
 *     and exits as the page says (0, or N where the line ends in "# exits N"). The copy
 *     shares this build's directory, build/bin/ in a command means this build's programs
 *     (build/asan/bin/ under the sanitizers), and make is given this build's compiler and
 *     directory (LAB_MAKE_VARIABLES). Three make targets are not run but
 *     dry-run (make -n, what it prints parsed by sh -n), since running them here would not
 *     end as a test should: `make test` is this run, `make bench` takes minutes, `make
 *     fuzz` a minute of libFuzzer;
 *   - every relative link and image of those pages and of DESIGN.md and CHANGES.md points
 *     at a file that exists;
 *   - `make help` names every chapter program;
 *   - src/ holds no chapter's code and includes no chapter's header, the include graph of
 *     src/ and lab/ has no cycle, and no folder includes one above it (the floors: base;
 *     math and solve; mesh; skin and draw; program; gpu and glTF; a chapter's shared files;
 *     its programs' folders, each of which includes no other program's);
 *   - out/bench/RESULTS.md is what scripts/bench-results.sh makes of the committed CSVs.
 *
 * The tests run in the source tree (make test runs them from the repository's root).
 */
#define _GNU_SOURCE /* strcasestr */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmocka_all.h"
#include "testutil.h"

/* "build/bin" -> "build": the build directory the programs under test live in */
static const char *build_dir(void)
{
    static char dir[256];
    snprintf(dir, sizeof dir, "%s", LAB_BIN_DIR);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    return dir;
}

/* Whether a chapter of the build's list is selected (LAB_ONLY, tests/testutil.h). */
static bool chapter_selected(const char *chapter)
{
    for (int i = 0; i < tu_program_count; i++)
        if (!strcmp(tu_programs[i].chapter, chapter) && tu_program_selected(&tu_programs[i]))
            return true;
    return false;
}

/* Every file under dir, its subfolders included (names starting with '.' skipped), whose
 * name ends in one of suffixes (NULL-terminated): appended to paths[*count], at most max. */
static void collect_files(const char *dir, const char *const *suffixes, char (*paths)[256], int *count, int max)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    for (struct dirent *f; (f = readdir(d));) {
        if (f->d_name[0] == '.')
            continue;
        char path[256];
        int k = snprintf(path, sizeof path, "%s/%s", dir, f->d_name);
        assert_true(k > 0 && (size_t)k < sizeof path);
        struct stat st;
        assert_int_equal(stat(path, &st), 0);
        size_t len = strlen(f->d_name);
        if (S_ISDIR(st.st_mode)) {
            collect_files(path, suffixes, paths, count, max);
            continue;
        }
        for (const char *const *x = suffixes; *x; x++)
            if (len > strlen(*x) && !strcmp(f->d_name + len - strlen(*x), *x)) {
                if (*count == max)
                    fail_msg("more than %d files under %s: raise the limit", max, dir);
                snprintf(paths[(*count)++], 256, "%s", path);
                break;
            }
    }
    closedir(d);
}

/* The pages a student follows: the front page and every page under each chapter's folder
 * (its README.md and its programs'), for the chapters of the build's list; with LAB_ONLY,
 * only the selected chapters' pages. */
static int list_pages(char pages[][256], int max)
{
    int n = 0;
    const char *only = getenv("LAB_ONLY");
    if (!only || !*only)
        snprintf(pages[n++], 256, "README.md");
    for (int i = 0; i < tu_program_count; i++) {
        const char *chapter = tu_programs[i].chapter;
        bool seen = false;
        for (int k = 0; k < i; k++)
            seen |= !strcmp(tu_programs[k].chapter, chapter);
        if (seen || !chapter_selected(chapter))
            continue;
        static const char *const md[] = {".md", NULL};
        char folder[128];
        snprintf(folder, sizeof folder, "lab/%s", chapter);
        collect_files(folder, md, pages, &n, max);
    }
    return n;
}

/* The line with "build/bin/" and "build/tests/" pointing at this build's directory. */
static void rewrite_build_paths(const char *line, char *out, size_t size)
{
    const char *build = build_dir();
    size_t o = 0;
    for (const char *p = line; *p && o + 1 < size;) {
        bool word_start = p == line || p[-1] == ' ' || p[-1] == '=' || p[-1] == '(';
        if (word_start && (!strncmp(p, "build/bin/", 10) || !strncmp(p, "build/tests/", 12))) {
            int k = snprintf(out + o, size - o, "%s/", build);
            o += k > 0 ? (size_t)k : 0;
            p += 6; /* past "build/" */
            continue;
        }
        out[o++] = *p++;
    }
    out[o < size ? o : size - 1] = '\0';
}

/* The exit status a page promises for a command: "# exits N" at its end, else 0. */
static int expected_status(const char *line)
{
    const char *c = strstr(line, "# exits ");
    return c ? atoi(c + 8) : 0;
}

/* make test, make bench and make fuzz are dry-run (see the banner). */
static bool dry_run_only(const char *line)
{
    static const char *const long_targets[] = {"test", "bench", "fuzz"};
    if (strncmp(line, "make ", 5))
        return false;
    for (size_t i = 0; i < sizeof long_targets / sizeof long_targets[0]; i++) {
        size_t n = strlen(long_targets[i]);
        if (!strncmp(line + 5, long_targets[i], n) && (line[5 + n] == ' ' || line[5 + n] == '\0'))
            return true;
    }
    return false;
}

static int run_shell(const char *dir, const char *command, const char *log)
{
    char script[8192];
    int n = snprintf(script, sizeof script, "cd '%s' && %s", dir, command);
    assert_true(n > 0 && (size_t)n < sizeof script);
    char *const argv[] = {"/bin/sh", "-c", script, NULL};
    return tu_run(argv, log, log);
}

/* Runs every ```sh command of one page in `copy`; returns how many ran. */
static int run_page(const char *copy, const char *page, const char *log)
{
    char path[512];
    int k = snprintf(path, sizeof path, "%s/%s", copy, page);
    assert_true(k > 0 && (size_t)k < sizeof path);
    char *text = tu_read_file(path, NULL);
    assert_non_null(text);
    int ran = 0;
    bool in_sh = false;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (!strncmp(line, "```", 3)) {
            in_sh = !in_sh && !strcmp(line, "```sh");
            continue;
        }
        if (!in_sh || line[strspn(line, " ")] == '\0' || line[strspn(line, " ")] == '#')
            continue;
        char command[4096];
        int k = 0;
        if (dry_run_only(line)) {
            /* what it would run, parsed by the shell that would run it (a quote a recipe
             * leaves open fails here, not minutes into a student's make bench) */
            int goals = (int)strcspn(line + 5, "#"); /* the page's comment is not the command's */
            k = snprintf(command, sizeof command,
                         "make -n " LAB_MAKE_VARIABLES " %.*s > dry-run.sh && sh -n dry-run.sh", goals, line + 5);
        } else if (!strncmp(line, "make ", 5)) { /* this build's compiler and directory */
            char rest[2048];
            rewrite_build_paths(line + 5, rest, sizeof rest);
            k = snprintf(command, sizeof command, "make " LAB_MAKE_VARIABLES " %s", rest);
        } else {
            rewrite_build_paths(line, command, sizeof command);
        }
        assert_true(k >= 0 && (size_t)k < sizeof command);
        int expect = expected_status(line), status = run_shell(copy, command, log);
        if (status != expect) {
            char *output = tu_read_file(log, NULL);
            fail_msg("%s: \"%s\" exited %d, the page says %d; its output:\n%s", page, line, status, expect,
                     output ? output : "(none)");
        }
        ran++;
    }
    free(text);
    return ran;
}

static void test_docs_every_command_runs_as_pasted(void **state)
{
    (void)state;
    char copy[64], log[128], here[1024], command[4096];
    assert_non_null(tu_make_temp_dir(copy, sizeof copy));
    snprintf(log, sizeof log, "%s.log", copy);
    assert_non_null(getcwd(here, sizeof here));
    /* the source tree as a user's clone has it (mtimes kept, so nothing rebuilds), its
     * build directory shared */
    int k = snprintf(command, sizeof command,
             "tar -C '%s' --exclude=./build --exclude=./.git --exclude=./ex -cf - . | tar -C '%s' -xf - && "
             "ln -s '%s/build' '%s/build'",
             here, copy, here, copy);
    assert_true(k > 0 && (size_t)k < sizeof command);
    assert_int_equal(run_shell(".", command, log), 0);
    char pages[64][256];
    int n = list_pages(pages, 64), total = 0;
    assert_true(n >= 1);
    for (int i = 0; i < n; i++) {
        int ran = run_page(copy, pages[i], log);
        printf("  %s: %d command%s\n", pages[i], ran, ran == 1 ? "" : "s");
        total += ran;
    }
    const char *only = getenv("LAB_ONLY");
    assert_true(total >= (only && *only ? 1 : 20)); /* the pages do show commands */
    snprintf(command, sizeof command, "rm -rf '%s' '%s'", copy, log);
    assert_int_equal(run_shell(".", command, NULL), 0);
}

/* Every ](target) of a page that is not a URL or an anchor names an existing file,
 * relative to the page. */
static void check_links(const char *page)
{
    char *text = tu_read_file(page, NULL);
    assert_non_null(text);
    char dir[256];
    snprintf(dir, sizeof dir, "%s", page);
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[1] = '\0';
    else
        dir[0] = '\0';
    for (char *at = strstr(text, "]("); at; at = strstr(at + 2, "](")) {
        char target[512];
        size_t n = strcspn(at + 2, ")# ");
        if (n == 0 || n >= sizeof target || !strncmp(at + 2, "http", 4))
            continue;
        memcpy(target, at + 2, n), target[n] = '\0';
        char path[1024];
        snprintf(path, sizeof path, "%s%s", dir, target);
        if (!tu_exists(path))
            fail_msg("%s links to %s, which does not exist", page, target);
    }
    free(text);
}

static void test_docs_links_point_at_files(void **state)
{
    (void)state;
    char pages[64][256];
    int n = list_pages(pages, 64);
    for (int i = 0; i < n; i++)
        check_links(pages[i]);
    check_links("DESIGN.md");
    check_links("CHANGES.md");
    check_links("out/bench/RESULTS.md");
}

static void test_docs_make_help_names_every_program(void **state)
{
    (void)state;
    char dir[64], log[128];
    assert_non_null(tu_make_temp_dir(dir, sizeof dir));
    snprintf(log, sizeof log, "%s/help.txt", dir);
    assert_int_equal(run_shell(".", "make -s help", log), 0);
    char *help = tu_read_file(log, NULL);
    assert_non_null(help);
    for (int i = 0; i < tu_program_count; i++) {
        char target[128];
        snprintf(target, sizeof target, "make %s ", tu_programs[i].name);
        if (!strstr(help, target))
            fail_msg("make help does not name \"%s\"", target);
    }
    /* and the list is the build's: each chapter folder's programs, found by rule */
    assert_non_null(tu_find_program("lab30"));
    free(help);
    tu_remove_tree(dir);
}

/* ---- the layout ---------------------------------------------------------------------- */

enum { MAX_FILES = 512 };
typedef struct {
    char path[MAX_FILES][256];   /* every .c and .h under src/ and lab/ */
    int count;
    int *edge;                   /* edge[a * MAX_FILES + b]: file a includes file b */
} include_graph;

static void collect(include_graph *g, const char *dir)
{
    static const char *const sources[] = {".c", ".h", NULL};
    collect_files(dir, sources, g->path, &g->count, MAX_FILES);
}

static int find_file(const include_graph *g, const char *path)
{
    for (int i = 0; i < g->count; i++)
        if (!strcmp(g->path[i], path))
            return i;
    return -1;
}

/* The file `name` of an #include "name" in file `from`: its own folder first, then the
 * include paths -Isrc and, for a chapter's file (lab/<chapter>/...), -Ilab/<chapter>. */
static int resolve(const include_graph *g, const char *from, const char *name)
{
    char dir[256], path[512];
    snprintf(dir, sizeof dir, "%s", from);
    *strrchr(dir, '/') = '\0';
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int i = find_file(g, path);
    if (i < 0) {
        snprintf(path, sizeof path, "src/%s", name);
        i = find_file(g, path);
    }
    if (i < 0 && !strncmp(from, "lab/", 4)) {
        size_t chapter = 4 + strcspn(from + 4, "/");
        snprintf(path, sizeof path, "%.*s/%s", (int)chapter, from, name);
        i = find_file(g, path);
    }
    return i;
}

/* The floors of the include graph (DESIGN.md, "Layout"), lowest first. A file includes only
 * files of its own folder or of a lower floor: nothing includes upwards, and no two folders
 * of one floor include each other. */
static const struct { const char *folder; int floor; } floors[] = {
    {"src/base/", 0}, {"src/math/", 1}, {"src/solve/", 1}, {"src/mesh/", 2}, {"src/skin/", 3},
    {"src/draw/", 3}, {"src/weights/", 3}, {"src/program/", 4}, {"src/grade/", 5}, {"src/gpu/", 5}, {"src/gltf/", 5},
};
enum { CHAPTER_FLOOR = 6, PROGRAM_FLOOR = 7 };

/* A file's floor: its src/ folder's; a chapter's shared files (lab/<chapter>/x.c) stand on
 * CHAPTER_FLOOR, a program's (lab/<chapter>/<program>/x.c) on PROGRAM_FLOOR, and a
 * program's fixtures (lab/<chapter>/<program>/<folder>/x.c: the grader's solutions) and the
 * chapter's window (lab/<chapter>/view/x.c, which draws with its programs' figures) on the
 * floor above it. -1: unknown. */
static int floor_of(const char *path)
{
    for (size_t i = 0; i < sizeof floors / sizeof floors[0]; i++)
        if (!strncmp(path, floors[i].folder, strlen(floors[i].folder)))
            return floors[i].floor;
    if (strncmp(path, "lab/", 4))
        return -1;
    int slashes = 0;
    for (const char *c = path; *c; c++)
        slashes += *c == '/';
    const char *view = strstr(path, "/view/"); /* the window: above the programs it shows */
    if (slashes == 3 && view && view == strchr(path + 4, '/'))
        return PROGRAM_FLOOR + 1;
    return slashes == 2 ? CHAPTER_FLOOR : slashes == 3 ? PROGRAM_FLOOR : slashes == 4 ? PROGRAM_FLOOR + 1 : -1;
}

/* The folder of a path, with its final '/'. */
static size_t folder_length(const char *path) { return (size_t)(strrchr(path, '/') - path) + 1; }

static bool on_cycle(const include_graph *g, int v, int *mark, int *stack, int depth)
{
    mark[v] = 1; /* on the path */
    stack[depth] = v;
    for (int w = 0; w < g->count; w++) {
        if (!g->edge[v * MAX_FILES + w])
            continue;
        if (mark[w] == 1) {
            fprintf(stderr, "include cycle:");
            for (int k = 0; k <= depth; k++)
                fprintf(stderr, " %s ->", g->path[stack[k]]);
            fprintf(stderr, " %s\n", g->path[w]);
            return true;
        }
        if (mark[w] == 0 && on_cycle(g, w, mark, stack, depth + 1))
            return true;
    }
    mark[v] = 2; /* done */
    return false;
}

static void test_docs_library_is_chapter_free_and_acyclic(void **state)
{
    (void)state;
    static include_graph g;
    g.count = 0;
    collect(&g, "src");
    int library = g.count;
    collect(&g, "lab");
    g.edge = calloc((size_t)MAX_FILES * MAX_FILES, sizeof *g.edge);
    assert_non_null(g.edge);
    for (int i = 0; i < g.count; i++) {
        if (i < library && strstr(strrchr(g.path[i], '/'), "30"))
            fail_msg("%s: a chapter's module in src/", g.path[i]);
        if (i < library && strchr(g.path[i] + 4, '/') == NULL)
            fail_msg("%s: src/ is organised in folders", g.path[i]);
        char *text = tu_read_file(g.path[i], NULL);
        assert_non_null(text);
        for (char *at = strstr(text, "#include \""); at; at = strstr(at + 1, "#include \"")) {
            char name[128];
            size_t n = strcspn(at + 10, "\"");
            assert_true(n < sizeof name);
            memcpy(name, at + 10, n), name[n] = '\0';
            int j = resolve(&g, g.path[i], name);
            if (j < 0) { /* a chapter's header through -Ilab/<chapter> */
                if (i < library)
                    fail_msg("%s includes \"%s\", which is not in src/", g.path[i], name);
                continue;
            }
            if (i < library && j >= library)
                fail_msg("%s includes %s: the library must not depend on a chapter", g.path[i], g.path[j]);
            bool same_folder = folder_length(g.path[i]) == folder_length(g.path[j]) &&
                               !strncmp(g.path[i], g.path[j], folder_length(g.path[i]));
            int from = floor_of(g.path[i]), to = floor_of(g.path[j]);
            if (from < 0)
                fail_msg("%s: a folder of no floor (add it to test_docs.c's floors and DESIGN.md)", g.path[i]);
            if (!same_folder && to >= from)
                fail_msg("%s includes %s: a folder includes only its own files and lower floors' (floor %d, "
                         "not %d)", g.path[i], g.path[j], from, to);
            g.edge[i * MAX_FILES + j] = 1;
        }
        free(text);
    }
    /* a module is its .h and .c together: x.c including y.h and y.c including x.h is a
     * cycle between modules even though no header includes itself */
    for (int i = 0; i < g.count; i++) {
        size_t len = strlen(g.path[i]);
        if (g.path[i][len - 1] != 'c')
            continue;
        char header[256];
        snprintf(header, sizeof header, "%.*sh", (int)(len - 1), g.path[i]);
        int h = find_file(&g, header);
        if (h >= 0) /* the header stands for its module: what the .c includes, the module includes */
            for (int w = 0; w < g.count; w++)
                if (g.edge[i * MAX_FILES + w] && w != h)
                    g.edge[h * MAX_FILES + w] = 1;
    }
    int mark[MAX_FILES] = {0}, stack[MAX_FILES];
    for (int v = 0; v < g.count; v++)
        if (mark[v] == 0)
            assert_false(on_cycle(&g, v, mark, stack, 0));
    free(g.edge);
}

/* make bench writes out/bench/RESULTS.md from its CSVs: the committed file must be what
 * the script makes of the committed CSVs, byte for byte. */
static void test_docs_results_file_is_generated(void **state)
{
    (void)state;
    char dir[64], command[512];
    assert_non_null(tu_make_temp_dir(dir, sizeof dir));
    snprintf(command, sizeof command,
             "cp " COMMITTED_OUT_DIR "/bench/skinning.csv " COMMITTED_OUT_DIR "/bench/targets.csv "
             COMMITTED_OUT_DIR "/bench/compression.csv "
             COMMITTED_OUT_DIR "/bench/machine.csv " COMMITTED_OUT_DIR "/bench/cpu.csv "
             COMMITTED_OUT_DIR "/bench/instructions.csv "
             COMMITTED_OUT_DIR "/bench/gpu.csv " COMMITTED_OUT_DIR "/bench/weights.csv '%s' && "
             "sh scripts/bench-results.sh '%s'",
             dir, dir);
    assert_int_equal(run_shell(".", command, NULL), 0);
    assert_true(tu_same_bytes(tu_path(dir, "RESULTS.md"), COMMITTED_OUT_DIR "/bench/RESULTS.md"));
    /* a missing CSV is refused, naming it, and writes nothing */
    snprintf(command, sizeof command, "rm '%s/gpu.csv' '%s/RESULTS.md' && sh scripts/bench-results.sh '%s'", dir, dir,
             dir);
    assert_int_not_equal(run_shell(".", command, NULL), 0);
    assert_false(tu_exists(tu_path(dir, "RESULTS.md")));
    tu_remove_tree(dir);
}

/* The pages a student reads: the front page, DESIGN.md and every page under lab/. */
static int collect_pages(char (*paths)[256], int max)
{
    int count = 0;
    static const char *const md[] = {".md", NULL};
    snprintf(paths[count++], 256, "README.md");
    snprintf(paths[count++], 256, "DESIGN.md");
    collect_files("lab", md, paths, &count, max);
    return count;
}

/* One package list: every "lib...-dev" a page names in backquotes is a line of
 * scripts/packages.txt, which the build and CI read. */
static void test_docs_pages_name_only_listed_packages(void **state)
{
    (void)state;
    char *list = tu_read_file("scripts/packages.txt", NULL);
    assert_non_null(list);
    static char paths[64][256];
    int count = collect_pages(paths, 64);
    int named = 0;
    for (int i = 0; i < count; i++) {
        char *text = tu_read_file(paths[i], NULL);
        assert_non_null(text);
        for (char *at = strstr(text, "`lib"); at; at = strstr(at + 1, "`lib")) {
            size_t n = strcspn(at + 1, "` ,)");
            if (n < 5 || n > 60 || strncmp(at + 1 + n - 4, "-dev", 4))
                continue;
            char line[80];
            snprintf(line, sizeof line, "\n%.*s ", (int)n, at + 1);
            if (!strstr(list, line))
                fail_msg("%s names `%.*s`, which scripts/packages.txt does not list", paths[i], (int)n, at + 1);
            named++;
        }
        free(text);
    }
    free(list);
    printf("  %d packages named on the pages, each listed\n", named);
}

/* Pages say what is built: a sentence with "not built" or "not yet" may not name a feature
 * the tree has (tests/built-features.txt, each line checked against its program's --help). */
static void test_docs_no_page_calls_a_built_feature_missing(void **state)
{
    (void)state;
    char *list = tu_read_file("tests/built-features.txt", NULL);
    assert_non_null(list);
    char phrase[32][64], program[32][64], word[32][64];
    int features = 0;
    for (char *line = strtok(list, "\n"); line && features < 32; line = strtok(NULL, "\n")) {
        if (line[0] == '#')
            continue;
        char *bar1 = strchr(line, '|'), *bar2 = bar1 ? strchr(bar1 + 1, '|') : NULL;
        assert_non_null(bar2);
        char *fields[3] = {line, bar1 + 1, bar2 + 1};
        char (*out[3])[64] = {&phrase[features], &program[features], &word[features]};
        *bar1 = *bar2 = '\0';
        for (int f = 0; f < 3; f++) {
            char *t = fields[f];
            while (*t == ' ')
                t++;
            size_t n = strlen(t);
            while (n > 0 && t[n - 1] == ' ')
                n--;
            snprintf(*out[f], 64, "%.*s", (int)n, t);
        }
        features++;
    }
    free(list);
    assert_true(features > 5);
    /* the list against the tree: each program's --help names the feature's word */
    for (int i = 0; i < features; i++) {
        char path[128], help[320];
        snprintf(path, sizeof path, "%s/%s", LAB_BIN_DIR, program[i]);
        snprintf(help, sizeof help, "%s/help.txt", build_dir());
        assert_int_equal(tu_run_program(path, help, NULL, "--help", (char *)NULL), 0);
        char *text = tu_read_file(help, NULL);
        assert_non_null(text);
        if (!strcasestr(text, word[i]))
            fail_msg("tests/built-features.txt: %s --help does not say \"%s\"", program[i], word[i]);
        free(text);
        unlink(help);
    }
    static char paths[64][256];
    int count = collect_pages(paths, 64);
    for (int p = 0; p < count; p++) {
        char *text = tu_read_file(paths[p], NULL);
        assert_non_null(text);
        for (char *c = text; *c; c++) /* one line of prose */
            if (*c == '\n')
                *c = ' ';
        static const char *const claims[] = {"not built", "not yet"};
        for (int k = 0; k < 2; k++)
            for (char *at = strcasestr(text, claims[k]); at; at = strcasestr(at + 1, claims[k])) {
                char *start = at, *end = at; /* the sentence around it */
                while (start > text && !(start[-1] == '.' && start[0] == ' ') && start[-1] != ':' && at - start < 400)
                    start--;
                while (*end && !(end[0] == '.' && (end[1] == ' ' || !end[1])) && end - at < 400)
                    end++;
                for (int i = 0; i < features; i++) {
                    char *hit = strcasestr(start, phrase[i]); /* as a word: "glTF", not "gltf30.json" */
                    while (hit && hit < end && ((hit > text && isalnum((unsigned char)hit[-1])) ||
                                                isalnum((unsigned char)hit[strlen(phrase[i])])))
                        hit = strcasestr(hit + 1, phrase[i]);
                    if (hit && hit < end)
                        fail_msg("%s: \"%.*s\" calls %s missing, which %s has", paths[p], (int)(end - start), start,
                                 phrase[i], program[i]);
                }
            }
        free(text);
    }
}

/* Headers an engine can include from C++: every public header of src/ compiles alone as
 * C++17 with this build's C++ compiler, and an engine-style C++ program over the library
 * (tests/cxx_engine.cc, built by the Makefile) links and runs. */
static void test_docs_headers_compile_as_cxx(void **state)
{
    (void)state;
    static char paths[128][256];
    int count = 0;
    static const char *const h[] = {".h", NULL};
    collect_files("src", h, paths, &count, 128);
    assert_true(count > 20);
    char log[320];
    snprintf(log, sizeof log, "%s/cxx-header.log", build_dir());
    for (int i = 0; i < count; i++) {
        char command[1024];
        snprintf(command, sizeof command,
                 "printf '#include \"%s\"\\n' | %s -std=c++17 -Wall -Wextra -Wpedantic -Werror -fsyntax-only -Isrc %s -x c++ -",
                 paths[i] + 4, LAB_CXX, LAB_DEPS_CFLAGS);
        char *argv[] = {"/bin/sh", "-c", command, NULL};
        if (tu_run(argv, log, log) != 0) {
            char *text = tu_read_file(log, NULL);
            fail_msg("%s does not compile as C++17:\n%s", paths[i], text ? text : "");
        }
    }
    unlink(log);
    char engine[320], out[320];
    snprintf(engine, sizeof engine, "%s/tests/cxx-engine", build_dir());
    snprintf(out, sizeof out, "%s/cxx-engine.log", build_dir());
    assert_int_equal(tu_run_program(engine, out, NULL, (char *)NULL), 0);
    assert_true(tu_file_contains(out, "cxx-engine: ok"));
    unlink(out);
    printf("  %d headers compile as C++17; the C++ engine links and runs\n", count);
}

/* No call cycle between files: from every object of src/ and lab/ (the suites' aside), the
 * functions it defines and the ones it calls (nm), a graph of which file calls which; no
 * set of files calls round in a circle (DESIGN.md: a program's stages call down, never
 * back up into the file that called them). */
static void test_docs_no_call_cycle_between_files(void **state)
{
    (void)state;
    static char objects[400][256];
    int n = 0;
    static const char *const o[] = {".o", NULL};
    char dir[320];
    for (int k = 0; k < 2; k++) {
        snprintf(dir, sizeof dir, "%s/obj/%s", build_dir(), k ? "lab" : "src");
        int before = n;
        collect_files(dir, o, objects, &n, 400);
        for (int i = before; i < n; i++) /* the suites and the AVX-512 twin are not the lab's files */
            if (strstr(objects[i], "/test_") || strstr(objects[i], "_twin.o"))
                memmove(objects[i], objects[n - 1], sizeof objects[i]), n--, i--;
    }
    assert_true(n > 50);
    /* each object's defined and undefined symbols, one string each */
    char **defined = calloc((size_t)n, sizeof *defined), **called = calloc((size_t)n, sizeof *called);
    bool *edge = calloc((size_t)n * (size_t)n, sizeof *edge);
    assert_non_null(defined), assert_non_null(called), assert_non_null(edge);
    char log[320];
    snprintf(log, sizeof log, "%s/nm.txt", build_dir());
    for (int i = 0; i < n; i++) {
        char *argv[] = {"/usr/bin/nm", "-P", objects[i], NULL};
        assert_int_equal(tu_run(argv, log, NULL), 0);
        char *text = tu_read_file(log, NULL);
        assert_non_null(text);
        size_t cap = strlen(text) + 2;
        defined[i] = calloc(cap, 1), called[i] = calloc(cap, 1);
        assert_non_null(defined[i]), assert_non_null(called[i]);
        for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
            char name[256], type;
            if (sscanf(line, "%255s %c", name, &type) != 2)
                continue;
            char *into = type == 'U' ? called[i] : strchr("TDBR", type) ? defined[i] : NULL;
            if (into)
                strcat(into, " "), strcat(into, name);
        }
        strcat(defined[i], " "), strcat(called[i], " ");
        free(text);
    }
    unlink(log);
    for (int i = 0; i < n; i++)
        for (char *at = called[i] + 1; *at; at = strchr(at, ' ') + 1) {
            char token[260];
            size_t len = strcspn(at, " ");
            snprintf(token, sizeof token, " %.*s ", (int)len, at);
            for (int j = 0; j < n; j++)
                if (j != i && strstr(defined[j], token))
                    edge[(size_t)i * (size_t)n + (size_t)j] = true;
            if (!at[len])
                break;
        }
    /* strongly connected sets of files: Floyd-Warshall's closure, n is small */
    bool *reach = malloc((size_t)n * (size_t)n);
    assert_non_null(reach);
    memcpy(reach, edge, (size_t)n * (size_t)n);
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++)
            if (reach[(size_t)i * (size_t)n + (size_t)k])
                for (int j = 0; j < n; j++)
                    reach[(size_t)i * (size_t)n + (size_t)j] |= reach[(size_t)k * (size_t)n + (size_t)j];
    int cycles = 0;
    for (int i = 0; i < n; i++) {
        if (!reach[(size_t)i * (size_t)n + (size_t)i])
            continue;
        fprintf(stderr, "call cycle through %s:", objects[i]);
        for (int j = 0; j < n; j++)
            if (j != i && reach[(size_t)i * (size_t)n + (size_t)j] && reach[(size_t)j * (size_t)n + (size_t)i])
                fprintf(stderr, " %s", objects[j]);
        fprintf(stderr, "\n");
        cycles++;
    }
    for (int i = 0; i < n; i++)
        free(defined[i]), free(called[i]);
    free(defined), free(called), free(edge), free(reach);
    printf("  %d objects: no call cycle\n", n);
    assert_int_equal(cycles, 0);
}

/* No state in the library but the listed (DESIGN.md, "No global state"): from every object
 * of src/, the mutable variables that live as long as the process (nm's b and B: statics
 * and globals, zero-initialised), each of which must be one of these, with its reason. A
 * new one fails until it is argued for here and in DESIGN.md. */
static void test_docs_no_state_but_the_listed(void **state)
{
    (void)state;
    static const char *const allowed[] = {
        "base/child.o in_job",               /* a forked job's child knows it is one (child.h) */
        "base/json_memory.o failures",       /* cJSON's allocator hooks are process-wide; thread-local count */
        "base/library.o alternate_stack",    /* the signal guard while a library starts (library.h) */
        "base/library.o last_words", "base/library.o last_words_length", "base/library.o registered",
        "base/library.o starting",
        "gltf/gltf_accessor.o reads",        /* thread-local count of accessor reads (a cost bound's test) */
        "gltf/gltf_draco.o draco", "gltf/gltf_draco.o loaded",      /* a library opened once a process */
        "gltf/gltf_meshopt.o meshopt", "gltf/gltf_meshopt.o loaded",
        "gltf/gltf_draco_bridge.o _ZStL8__ioinit", /* the C++ runtime's own */
        "grade/arrays.o under_way",          /* the call a sanitizer's death callback (no argument) names */
        "grade/exercise.o grade_not_written", /* a sheet's NOT_WRITTEN_YET(), resolved by name from its object */
        "grade/sandbox.o child_record",      /* a sandbox's child knows its shared record (sandbox.h) */
        "grade/sandbox.o child_pid",         /* and that it is the child, in its own memory */
        "grade/sandbox.o child_filtered",    /* and whether its filter is on (the seal stacks on it) */
        "gpu/gl_load.o gl_loaded", "gpu/gl_load.o result", "gpu/gl_load.o tried", "gpu/gl_load.o why", /* EGL/GLES, once */
        "program/evidence.o failures_seen",  /* thread-local: cJSON failures already reported */
        "solve/sparse.o cholmod", "solve/sparse.o loaded", /* CHOLMOD, opened once a process */
    };
    static char objects[200][256];
    int n = 0, found = 0;
    static const char *const o[] = {".o", NULL};
    char dir[320], log[320];
    snprintf(dir, sizeof dir, "%s/obj/src", build_dir());
    collect_files(dir, o, objects, &n, 200);
    assert_true(n > 40);
    snprintf(log, sizeof log, "%s/nm-state.txt", build_dir());
    int unlisted = 0;
    for (int i = 0; i < n; i++) {
        char *argv[] = {"/usr/bin/nm", "-P", objects[i], NULL};
        assert_int_equal(tu_run(argv, log, NULL), 0);
        char *text = tu_read_file(log, NULL);
        assert_non_null(text);
        const char *rel = strstr(objects[i], "/obj/src/") + strlen("/obj/src/");
        for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
            char name[256], type;
            if (sscanf(line, "%255s %c", name, &type) != 2 || (type != 'b' && type != 'B') || !strncmp(name, "__", 2))
                continue; /* the compiler's and the sanitizers' own names start with "__" */
            /* a function's static: gcc writes "registered.0", clang "library_begin.registered" */
            char *dot = strrchr(name, '.');
            const char *var = name;
            if (dot && strspn(dot + 1, "0123456789") == strlen(dot + 1))
                *dot = '\0';
            else if (dot)
                var = dot + 1;
            char key[600];
            snprintf(key, sizeof key, "%s %s", rel, var);
            bool listed = false;
            for (size_t k = 0; k < sizeof allowed / sizeof allowed[0]; k++)
                listed |= !strcmp(key, allowed[k]);
            found++;
            if (!listed) {
                fprintf(stderr, "state in the library: %s (argue for it in test_docs.c and DESIGN.md, or make it "
                                "the caller's)\n", key);
                unlisted++;
            }
        }
        free(text);
    }
    unlink(log);
    printf("  %d objects: %d variables of process state, each listed with its reason\n", n, found);
    assert_int_equal(unlisted, 0);
}

/* Every program in the template's shape (DESIGN.md, "A program"): its main file starts the
 * shell with cli_begin and ends with cli_end, and no file of its folder passes the
 * program's state as void * (a stage's inputs and outputs are its parameters; a callback's
 * context, named so, is the one use left). */
static void test_docs_programs_in_the_template_shape(void **state)
{
    (void)state;
    int checked = 0;
    for (int i = 0; i < tu_program_count; i++) {
        const tu_program *p = &tu_programs[i];
        char folder[300], main_file[400];
        snprintf(folder, sizeof folder, "lab/%s/%s", p->chapter, p->name);
        snprintf(main_file, sizeof main_file, "%s/%s.c", folder, p->name);
        char *text = tu_read_file(main_file, NULL);
        if (!text)
            fail_msg("%s: no such file", main_file);
        if (!strstr(text, "cli_begin(") || !strstr(text, "cli_end("))
            fail_msg("%s: a program's main starts with cli_begin and ends with cli_end (lab/template/)", main_file);
        free(text);
        static char files[64][256];
        int n = 0;
        static const char *const c[] = {".c", ".h", NULL};
        collect_files(folder, c, files, &n, 64);
        for (int k = 0; k < n; k++) {
            char *body = tu_read_file(files[k], NULL);
            assert_non_null(body);
            if (!strstr(files[k], "/test_") && strstr(body, "void *state"))
                fail_msg("%s: a program's state passed as void * (give the stage its typed inputs and outputs)",
                         files[k]);
            free(body);
        }
        checked++;
    }
    assert_true(checked > 0);
    printf("  %d programs in the template's shape\n", checked);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_docs_library_is_chapter_free_and_acyclic),
        cmocka_unit_test(test_docs_pages_name_only_listed_packages),
        cmocka_unit_test(test_docs_no_page_calls_a_built_feature_missing),
        cmocka_unit_test(test_docs_headers_compile_as_cxx),
        cmocka_unit_test(test_docs_no_call_cycle_between_files),
        cmocka_unit_test(test_docs_no_state_but_the_listed),
        cmocka_unit_test(test_docs_programs_in_the_template_shape),
        cmocka_unit_test(test_docs_links_point_at_files),
        cmocka_unit_test(test_docs_make_help_names_every_program),
        cmocka_unit_test(test_docs_results_file_is_generated),
        cmocka_unit_test(test_docs_every_command_runs_as_pasted),
    };
    return cmocka_run_group_tests_name("the pages and the layout", tests, NULL, NULL);
}
