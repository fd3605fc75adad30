/* test_faults.c - end to end: the programs under the faults DESIGN.md lists, injected by
 * tests/faultshim.c (preloaded with LD_PRELOAD).
 *
 * Out of memory: for each program the suite runs it once normally, with the shim listing
 * the first allocation made from each distinct call chain (three callers deep, in the
 * program and in every child it forks: the PNG encoder's, the GPU work's). Then, for each
 * of those, two runs: that one allocation fails ("at"), and that one and every later one
 * fail ("from": the heap is gone for good, so the error path cannot allocate either). So
 * every allocation site the run reaches fails once in each way, in the context it is
 * called from, without one run per allocation (tens of thousands). Two workers share the
 * points, each in a directory of its own (two cores: half the time). lab30-gpu's driver
 * alone makes some 27,000 call chains (LLVM compiling the shaders), so there the points
 * are the first 24 allocations and 40 more spread evenly over the run, both ways.
 *
 * Every such run must end on the contract: exit 0 having written exactly the normal
 * outputs (the committed out/, byte for byte, PNGs pixel for pixel; for the benchmarks'
 * --smoke runs, whose files hold timings, as many files as their normal run), or exit 3 with the
 * out-of-memory message ("<lab>: error: out of memory, ...") and nothing written. For
 * lab30-gpu, a driver that fails or ends its process for want of memory is the driver's
 * failure: exit 1 with the GPU rule's message (or "a feature this machine does not have"
 * when EGL cannot start), nothing written. A driver can also fail silently: Mesa's
 * llvmpipe, with a calloc failing inside glBufferData (swrast_dri.so), raises no GL error
 * and skins with a palette it never received; lab30-gpu's comparison with the CPU catches
 * it, so there "a self-check failed", exit 1, is the contract too. Anything else fails the
 * test: a crash, a parse error, a failed self-check in any other program, a cut label, a
 * non-finite value, a partial output.
 *
 * lab30-weights runs a second time in its other mode, an asset given automatic weights
 * and written back (--asset assets/RiggedSimple.gltf); it has no committed outputs, so
 * there the suite's own normal run is what a run that ends well must write, byte for byte.
 *
 * FAULTS_SAMPLE=K (make test sets it) keeps K of each program's points, spread evenly from
 * the first to the last, both ways, and of the renames the first, the middle one and the
 * last; unset or 0 (make check), every point and every rename.
 *
 * A refused rename and a killed commit: over a complete first run, lab30 runs again with
 * other weights (the issue's `chattr +i` case), its Nth rename refused, or killed just
 * before it, for every N of the commit. A refused rename must exit 3 with the first run's
 * files intact and nothing hidden left; after a kill, the next commit into the directory
 * (another program's) must restore the first run and remove the leftovers.
 *
 * The shim interposes on the allocator only where the program takes malloc from the C
 * library; a sanitizer build links its own allocator into the program (and with gcc's
 * shared runtime, preloading anything before it is an error), so the suite says so and
 * skips there (CI runs it in the plain build). */
#define _XOPEN_SOURCE 700 /* realpath */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/diag.h"
#include "cmocka_all.h"
#include "testutil.h"

typedef struct {
    char program[256];           /* build/bin/<name> */
    const char *input;           /* an argument before OUTDIR, or NULL */
    const char *committed;       /* its chapter's committed outputs, out/<chapter>; or, for a run
                                    of another mode (option), the suite's own normal run's;
                                    NULL: timed */
    const char *option;          /* "--name\0value" before the input, or NULL */
    bool gpu;                    /* the driver's failures are the GPU rule's; points sampled */
    bool timed;                  /* a benchmark's --smoke run: its files hold this run's timings,
                                    so a run that ends well is known by their names, not bytes */
} program_run;

/* Every chapter program of the build's list (tests/testutil.h: LAB_ONLY narrows it), then
 * the two benchmarks' --smoke runs (not when LAB_ONLY is set). */
static program_run *programs;
static int PROGRAM_COUNT;
enum { FIRST = 24, SPREAD = 40 };

static int list_programs(void **state)
{
    (void)state;
    static const char *const benchmarks[] = {"bench-skinning", "bench-weights"};
    programs = calloc((size_t)tu_program_count + 3, sizeof *programs);
    if (!programs)
        return -1;
    for (int i = 0; i < tu_program_count; i++) {
        const tu_program *t = &tu_programs[i];
        if (!tu_program_selected(t))
            continue;
        program_run *p = &programs[PROGRAM_COUNT++];
        *p = (program_run){.input = t->input, .committed = tu_committed_dir(t->name), .gpu = t->gpu};
        snprintf(p->program, sizeof p->program, "%s/%s", LAB_BIN_DIR, t->name);
    }
    const char *only = getenv("LAB_ONLY");
    for (int i = 0; i < 2 && !(only && *only); i++) {
        program_run *p = &programs[PROGRAM_COUNT++];
        *p = (program_run){.input = "--smoke", .timed = true};
        snprintf(p->program, sizeof p->program, "%s/%s", LAB_BIN_DIR, benchmarks[i]);
    }
    /* lab30-weights' other mode: an asset given automatic weights and written back */
    for (int i = 0; i < tu_program_count; i++)
        if (tu_program_selected(&tu_programs[i]) && !strcmp(tu_programs[i].name, "lab30-weights")) {
            program_run *p = &programs[PROGRAM_COUNT++];
            *p = (program_run){.option = "--asset\0" "assets/RiggedSimple.gltf"};
            snprintf(p->program, sizeof p->program, "%s/%s", LAB_BIN_DIR, tu_programs[i].name);
        }
    return 0;
}

static int free_programs(void **state)
{
    (void)state;
    free(programs);
    return 0;
}

static const program_run *find_run(const char *name)
{
    for (int i = 0; i < PROGRAM_COUNT; i++)
        if (!strcmp(strrchr(programs[i].program, '/') + 1, name))
            return &programs[i];
    return NULL;
}

static int run_with_options(const program_run *p, const char *option, const char *dir, const char *err_path);

static int run_with(const program_run *p, const char *dir, const char *err_path)
{
    return run_with_options(p, p->option, dir, err_path);
}

/* The same, with one option and its value (option NULL: none) before the input. */
static int run_with_options(const program_run *p, const char *option, const char *dir, const char *err_path)
{
    char *argv[6] = {(char *)p->program};
    int n = 1;
    if (option) {
        const char *value = option + strlen(option) + 1; /* "--name\0value" */
        argv[n++] = (char *)option;
        argv[n++] = (char *)value;
    }
    if (p->input)
        argv[n++] = (char *)p->input;
    argv[n++] = (char *)dir;
    argv[n] = NULL;
    return tu_run(argv, NULL, err_path);
}

/* Whether every file in dir equals its committed twin in committed_dir (PNGs by their
 * pixels). */
static bool same_as_committed(const char *dir, const char *committed_dir, int *files)
{
    DIR *d = opendir(dir);
    bool same = d != NULL;
    *files = 0;
    for (struct dirent *e; same && (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        char committed[512];
        snprintf(committed, sizeof committed, "%s/%s", committed_dir, e->d_name);
        const char *fresh = tu_path(dir, e->d_name);
        size_t n = strlen(e->d_name);
        same = n > 4 && !strcmp(e->d_name + n - 4, ".png") ? tu_same_pixels(fresh, committed)
                                                             : tu_same_bytes(fresh, committed);
        if (!same)
            fprintf(stderr, "  %s differs from %s\n", fresh, committed);
        (*files)++;
    }
    if (d)
        closedir(d);
    return same;
}

/* Every entry of `from` renamed into `to` (one file system: the suite's temporary folders). */
static void move_entries(const char *from, const char *to)
{
    DIR *d = opendir(from);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            char target[512];
            snprintf(target, sizeof target, "%s/%s", to, e->d_name);
            assert_int_equal(rename(tu_path(from, e->d_name), target), 0);
        }
    closedir(d);
}

static void empty_dir(const char *dir)
{
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            unlink(tu_path(dir, e->d_name));
    if (d)
        closedir(d);
}

/* Built with AddressSanitizer: the programs bring its allocator (the shim cannot reach it;
 * with gcc's shared runtime, preloading anything before it is an error). */
#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif

/* The shim's absolute path (for LD_PRELOAD); in a sanitizer build the test says why it
 * skips, and skips. */
static char *shim_or_skip(void)
{
#ifdef SANITIZED
    fprintf(stderr, "skipped: a sanitizer build brings its own allocator and cannot take the preloaded shim; "
                    "the plain build runs this\n");
    skip();
#endif
    char *shim = realpath(FAULTSHIM, NULL);
    assert_non_null(shim);
    return shim;
}

/* The allocations to fail: one line per number in the shim's SITES_FILE, or, for a GPU
 * program, FIRST and SPREAD over `total`. Returns how many are in *out (malloc'd). */
static int failure_points(const program_run *p, const char *sites_file, long total, long **out)
{
    int n = 0;
    if (p->gpu) {
        *out = malloc(sizeof **out * (FIRST + SPREAD));
        for (int k = 0; *out && k < FIRST + SPREAD; k++)
            (*out)[n++] = k < FIRST ? k + 1 : FIRST + 1 + (total - FIRST - 1) * (k - FIRST) / (SPREAD - 1);
        return n;
    }
    char *text = tu_read_file(sites_file, NULL);
    int lines = 0;
    for (const char *c = text; c && *c; c++)
        lines += *c == '\n';
    *out = malloc(sizeof **out * (size_t)(lines + 1));
    for (char *c = text, *end; *out && c && *c; c = end) {
        long v = strtol(c, &end, 10);
        if (end == c)
            break;
        (*out)[n++] = v;
    }
    free(text);
    return n;
}

/* FAULTS_SAMPLE=K: K of the n points, the first, the last and the rest evenly between. */
static int sample_points(long *point, int n)
{
    const char *env = getenv("FAULTS_SAMPLE");
    int k = env ? atoi(env) : 0;
    if (k <= 0 || k >= n)
        return n;
    if (k == 1)
        return 1;
    for (int i = 0; i < k; i++)
        point[i] = point[(long)i * (n - 1) / (k - 1)]; /* ascending: never overwrites one still to read */
    return k;
}

/* The program's own error line in its stderr: the one line that starts "<lab>: error: ",
 * which must also be the last. Lines before it come from a child process that a library
 * ended (libstb's "Assertion `p' failed.", glibc's "Unexpected error." when even the
 * assertion's message cannot be allocated); they are the library's, and allowed. NULL
 * when there is no such line, more than one, or text after it. */
static const char *error_line(const char *msg, const char *name)
{
    char prefix[96];
    snprintf(prefix, sizeof prefix, "%s: error: ", name);
    const char *line = NULL;
    for (const char *at = msg; at && *at;) {
        if (!strncmp(at, prefix, strlen(prefix))) {
            if (line)
                return NULL;
            line = at;
        }
        const char *nl = strchr(at, '\n');
        if (line && line != at)
            return NULL; /* a line after the error */
        at = nl ? nl + 1 : NULL;
    }
    return line;
}

/* Whether a run that had allocations fail ended on the contract (see the top). */
static bool on_contract(const program_run *p, int rc, const char *dir, const char *err_path, int normal_files)
{
    int files = 0;
    if (rc == 0 && p->timed) /* the batch is all or nothing: as many files as the normal run */
        return tu_count_entries(dir) == normal_files;
    if (rc == 0)
        return same_as_committed(dir, p->committed, &files) && files == normal_files;
    if (tu_count_entries(dir) != 0)
        return false;
    char *msg = tu_read_file(err_path, NULL);
    const char *name = strrchr(p->program, '/') + 1;
    const char *line = msg ? error_line(msg, name) : NULL;
    const char *rule = line ? line + strlen(name) + strlen(": error: ") : "";
    bool ok = line && ((rc == 3 && !strncmp(rule, "out of memory, ", 15)) ||
                       (rc == 1 && p->gpu && (strstr(rule, lab_error_rule(LAB_ERR_GPU)) == rule ||
                                              strstr(rule, lab_error_rule(LAB_ERR_UNSUPPORTED)) == rule ||
                                              !strcmp(rule, "a self-check failed (see the report), nothing written\n"))));
    free(msg);
    return ok;
}

/* Fails points 2i + worker (FAIL_AT) and the same (FAIL_FROM), i.e. this worker's half of
 * every point both ways, in its own directory; returns how many runs left the contract,
 * each printed with its command's settings. */
static int fail_points(const program_run *p, const long *point, int points, long total, int normal_files, int worker,
                       const char *dir, const char *err_path)
{
    int failures = 0;
    for (int k = 0; k < 2 * points; k++) {
        if ((k / 2) % 2 != worker)
            continue;
        const char *mode = k % 2 ? "FAIL_FROM" : "FAIL_AT";
        char value[32];
        snprintf(value, sizeof value, "%ld", point[k / 2]);
        setenv(mode, value, 1);
        int rc = run_with(p, dir, err_path);
        unsetenv(mode);
        if (!on_contract(p, rc, dir, err_path, normal_files)) {
            char *msg = tu_read_file(err_path, NULL);
            fprintf(stderr, "%s, %s=%ld of %ld: exit %d, %d files\n  %s\n", p->program, mode, point[k / 2], total, rc,
                    tu_count_entries(dir), msg ? msg : "");
            free(msg);
            failures++;
        }
        empty_dir(dir);
    }
    return failures;
}

static void test_allocation_failures_end_on_contract(void **state)
{
    tu_run_dir *ctx = *state;
    char *shim = shim_or_skip();
    const char *count_file = ctx->out_path; /* the programs' stdout goes to /dev/null here */
    char sites_file[sizeof ctx->out_path + 8];
    snprintf(sites_file, sizeof sites_file, "%s.sites", ctx->out_path);
    setenv("LD_PRELOAD", shim, 1);
    int failures = 0;
    for (int i = 0; i < PROGRAM_COUNT; i++) {
        program_run run = programs[i];
        const program_run *p = &run;
        char reference[64] = "";
        setenv("COUNT_FILE", count_file, 1);
        setenv("SITES_FILE", sites_file, 1);
        assert_int_equal(run_with(p, ctx->dir, ctx->err_path), 0);
        unsetenv("COUNT_FILE");
        unsetenv("SITES_FILE");
        int normal_files = 0;
        if (p->timed) {
            assert_true((normal_files = tu_count_entries(ctx->dir)) > 0);
        } else if (!p->committed) { /* another mode: this normal run's files are the reference */
            assert_non_null(tu_make_temp_dir(reference, sizeof reference));
            move_entries(ctx->dir, reference);
            run.committed = reference;
            assert_true((normal_files = tu_count_entries(reference)) > 0);
        } else {
            assert_true(same_as_committed(ctx->dir, p->committed, &normal_files));
        }
        empty_dir(ctx->dir);
        char *text = tu_read_file(count_file, NULL);
        long total = text ? atol(text) : 0;
        free(text);
        if (total == 0) { /* the program brings its own allocator (a sanitizer build) */
            unsetenv("LD_PRELOAD");
            free(shim);
            skip();
        }
        long *point = NULL;
        int points = failure_points(p, sites_file, total, &point);
        remove(sites_file);
        assert_true(points > (p->gpu ? FIRST : 10)); /* the shim listed the call chains (ch30's programs: 165 to 531) */
        int all = points;
        points = sample_points(point, points);
        /* two workers, each its own directory: this machine's two cores halve the time */
        char dir2[64], err2[80];
        assert_non_null(tu_make_temp_dir(dir2, sizeof dir2));
        snprintf(err2, sizeof err2, "%s.err", dir2);
        fflush(stderr);
        pid_t child = fork();
        assert_true(child >= 0);
        if (child == 0)
            _exit(fail_points(p, point, points, total, normal_files, 1, dir2, err2) > 0);
        failures += fail_points(p, point, points, total, normal_files, 0, ctx->dir, ctx->err_path);
        int status = 0;
        assert_int_equal(waitpid(child, &status, 0), child);
        failures += !WIFEXITED(status) || WEXITSTATUS(status) != 0;
        remove(err2);
        tu_remove_tree(dir2);
        if (reference[0])
            tu_remove_tree(reference);
        free(point);
        printf("  faults: %s%s%s%s%s, %d of %d allocation sites (%ld allocations), each failed at and from\n",
               strrchr(p->program, '/') + 1, p->option ? " " : "", p->option ? p->option : "", p->option ? " " : "",
               p->option ? p->option + strlen(p->option) + 1 : "", points, all, total);
        fflush(stdout);
    }
    unsetenv("LD_PRELOAD");
    free(shim);
    assert_int_equal(failures, 0);
}

/* CHOLMOD's start, allocation by allocation: lab30-weights opens CHOLMOD first (src/solve/
 * sparse.h), so a run refused right after it (an --asset that does not exist) makes few
 * allocations besides the loader's and its libraries' constructors' (libgfortran's and
 * libgomp's, which end the process when they cannot allocate). Every one of them fails
 * at and from; each run must end as the normal run does (exit 1, the missing file named)
 * or on the out-of-memory contract, and both of the guard's ways must be met: the
 * loader's refusal and a library's own end turned into exit 3. */
static void test_cholmod_start_ends_on_contract(void **state)
{
    tu_run_dir *ctx = *state;
    const program_run *weights = find_run("lab30-weights");
    if (!weights) {
        fprintf(stderr, "skipped: LAB_ONLY leaves out lab30-weights, whose runs this test makes\n");
        skip();
        return;
    }
    char *shim = shim_or_skip();
    static const char missing[] = "--asset\0" "/nonexistent-asset.glb";
    setenv("LD_PRELOAD", shim, 1);
    setenv("COUNT_FILE", ctx->out_path, 1);
    assert_int_equal(run_with_options(weights, missing, ctx->dir, ctx->err_path), 1);
    unsetenv("COUNT_FILE");
    char *text = tu_read_file(ctx->out_path, NULL);
    long total = text ? atol(text) : 0;
    free(text);
    assert_true(total > 20); /* the loader's and the constructors' allocations are counted */
    int failures = 0, loader = 0, started = 0;
    for (long n = 1; n <= total; n++)
        for (int from = 0; from < 2; from++) {
            char value[32];
            snprintf(value, sizeof value, "%ld", n);
            setenv(from ? "FAIL_FROM" : "FAIL_AT", value, 1);
            int rc = run_with_options(weights, missing, ctx->dir, ctx->err_path);
            unsetenv(from ? "FAIL_FROM" : "FAIL_AT");
            char *msg = tu_read_file(ctx->err_path, NULL);
            const char *line = msg ? error_line(msg, "lab30-weights") : NULL;
            const char *rule = line ? line + strlen("lab30-weights: error: ") : "";
            bool ok = line && tu_count_entries(ctx->dir) == 0 &&
                      ((rc == 1 && strstr(rule, "/nonexistent-asset.glb, cannot open the file")) ||
                       (rc == 3 && !strncmp(rule, "out of memory, ", 15)));
            loader += ok && strstr(rule, "the loader could not allocate") != NULL;
            started += ok && strstr(rule, "its start-up code could not allocate") != NULL;
            if (!ok) {
                fprintf(stderr, "lab30-weights --asset (missing), %s=%ld of %ld: exit %d\n  %s\n",
                        from ? "FAIL_FROM" : "FAIL_AT", n, total, rc, msg ? msg : "");
                failures++;
            }
            free(msg);
            empty_dir(ctx->dir);
        }
    unsetenv("LD_PRELOAD");
    free(shim);
    printf("  faults: CHOLMOD's start, %ld allocations each failed at and from: %d refused by the loader, "
           "%d ended by a library's start-up, all on the contract\n", total, loader, started);
    assert_int_equal(failures, 0);
    assert_true(loader > 0 && started > 0);
}

/* The entries of dir whose names start with '.', other than "." and "..". */
static int hidden_entries(const char *dir)
{
    int n = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        n += e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (d)
        closedir(d);
    return n;
}

static void test_refused_and_killed_renames_lose_nothing(void **state)
{
    tu_run_dir *ctx = *state;
    char *shim = shim_or_skip();
    const program_run *lab30 = find_run("lab30"), *other = find_run("lab30-dqs");
    if (!lab30 || !other) { /* LAB_ONLY left them out */
        fprintf(stderr, "skipped: LAB_ONLY leaves out lab30 or lab30-dqs, whose runs this test makes\n");
        skip();
    }
    static const char weights[] = "--middle-weights\0" "0.75,0.25"; /* other bytes than out/ */
    setenv("LD_PRELOAD", shim, 1);
    setenv("COUNT_FILE", ctx->out_path, 1);
    assert_int_equal(run_with_options(lab30, weights, ctx->dir, ctx->err_path), 0);
    unsetenv("COUNT_FILE");
    char *text = tu_read_file(ctx->out_path, NULL);
    long allocations = 0, renames = 0;
    assert_true(text && sscanf(text, "%ld %ld", &allocations, &renames) == 2);
    free(text);
    assert_true(renames >= 8); /* one per file */
    empty_dir(ctx->dir);
    int other_files = 0;
    unsetenv("LD_PRELOAD");
    assert_int_equal(run_with(other, ctx->dir, ctx->err_path), 0);
    assert_true(same_as_committed(ctx->dir, other->committed, &other_files));
    empty_dir(ctx->dir);
    int failures = 0;
    /* FAULTS_SAMPLE: the first rename, the middle one and the last; otherwise every one */
    const char *sample = getenv("FAULTS_SAMPLE");
    long step = sample && atoi(sample) > 0 && renames > 3 ? (renames - 1) / 2 : 1;
    for (int mode = 0; mode < 2; mode++)
        for (long n = 1; n <= renames; n = n + step > renames && n < renames ? renames : n + step) {
            unsetenv("LD_PRELOAD");
            int files = 0, first_files = 0;
            assert_int_equal(run_with(lab30, ctx->dir, ctx->err_path), 0); /* the first run */
            assert_true(same_as_committed(ctx->dir, lab30->committed, &first_files));
            char value[32];
            snprintf(value, sizeof value, "%ld", n);
            setenv("LD_PRELOAD", shim, 1);
            setenv(mode == 0 ? "FAIL_RENAME_AT" : "KILL_AT_RENAME", value, 1);
            int rc = run_with_options(lab30, weights, ctx->dir, ctx->err_path);
            unsetenv("FAIL_RENAME_AT");
            unsetenv("KILL_AT_RENAME");
            unsetenv("LD_PRELOAD");
            bool ok = mode == 0 ? rc == 3 : rc == -1; /* refused: exit 3; killed: no exit */
            if (mode == 1 && ok) /* the next commit, another program's, recovers first */
                ok = run_with(other, ctx->dir, ctx->err_path) == 0;
            ok = ok && same_as_committed(ctx->dir, lab30->committed, &files) && hidden_entries(ctx->dir) == 0;
            ok = ok && files == first_files + (mode == 1 ? other_files : 0);
            if (!ok) {
                char *msg = tu_read_file(ctx->err_path, NULL);
                fprintf(stderr, "lab30, rename %ld of %ld %s: exit %d, %d files, %d hidden\n  %s\n", n, renames,
                        mode == 0 ? "refused" : "killed", rc, files, hidden_entries(ctx->dir), msg ? msg : "");
                free(msg);
                failures++;
            }
            empty_dir(ctx->dir);
        }
    free(shim);
    assert_int_equal(failures, 0);
}

/* A compressed asset's decoder opened, allocation by allocation: Draco's (the lab's bridge
 * over libdraco, with libstdc++) and libmeshoptimizer are opened only in a child process of
 * the reader (src/gltf/gltf.h), and only by an asset that uses them. Each allocation of a
 * run of lab30-gltf on a Draco file and on a meshopt file (the chapter's export compressed
 * by draco_transcoder and gltfpack) fails at and from; each run must end as the normal run
 * does or on the out-of-memory contract, exit 3 with its line, never a crash or the
 * loader's exit 127. Every point of the Draco run (its load and decode reached at each);
 * of the meshopt run (2,000 allocations, 40 ms a run), FAULTS_SAMPLE=K points evenly spread,
 * at most 60 (make test 6, make check 60), so that make check stays within CI's time. */
static void test_compressed_decoders_end_on_contract(void **state)
{
    tu_run_dir *ctx = *state;
    const program_run *gltf = find_run("lab30-gltf");
    if (!gltf) {
        fprintf(stderr, "skipped: LAB_ONLY leaves out lab30-gltf, whose runs this test makes\n");
        skip();
        return;
    }
    char *shim = shim_or_skip();
    char assets[64], draco[128], meshopt[128];
    assert_non_null(tu_make_temp_dir(assets, sizeof assets));
    snprintf(draco, sizeof draco, "%s/draco.glb", assets);
    snprintf(meshopt, sizeof meshopt, "%s/meshopt.glb", assets);
    char *make_draco[] = {"/usr/bin/draco_transcoder", "-i", COMMITTED_OUT_DIR "/ch30/skinning30.gltf", "-o", draco, NULL};
    char *make_meshopt[] = {"/usr/bin/gltfpack", "-i", COMMITTED_OUT_DIR "/ch30/skinning30.gltf", "-o", meshopt, "-c", NULL};
    assert_int_equal(tu_run(make_draco, NULL, NULL), 0);
    assert_int_equal(tu_run(make_meshopt, NULL, NULL), 0);
    const char *files[2] = {draco, meshopt};
    for (int a = 0; a < 2; a++) {
        program_run run = {.input = files[a]};
        snprintf(run.program, sizeof run.program, "%s", gltf->program);
        /* the normal run, counted */
        setenv("LD_PRELOAD", shim, 1);
        setenv("COUNT_FILE", ctx->out_path, 1);
        int normal = run_with_options(&run, NULL, ctx->dir, ctx->err_path);
        unsetenv("COUNT_FILE");
        char *normal_err = tu_read_file(ctx->err_path, NULL);
        const char *normal_line = normal_err ? error_line(normal_err, "lab30-gltf") : NULL;
        char *text = tu_read_file(ctx->out_path, NULL);
        long total = text ? atol(text) : 0;
        free(text);
        empty_dir(ctx->dir);
        assert_true(total > 50);
        long *point = malloc(sizeof *point * (size_t)total);
        assert_non_null(point);
        for (long n = 0; n < total; n++)
            point[n] = n + 1;
        int points = a == 0 ? (int)total : sample_points(point, (int)total);
        if (a == 1 && points > 60) { /* the meshopt run: at most 60 points, evenly spread (40 ms a run) */
            for (int i = 0; i < 60; i++)
                point[i] = point[(long)i * (points - 1) / 59];
            points = 60;
        }
        int failures = 0, decoders = 0;
        for (int i = 0; i < points; i++)
            for (int from = 0; from < 2; from++) {
                char value[32];
                snprintf(value, sizeof value, "%ld", point[i]);
                setenv(from ? "FAIL_FROM" : "FAIL_AT", value, 1);
                int rc = run_with_options(&run, NULL, ctx->dir, ctx->err_path);
                unsetenv(from ? "FAIL_FROM" : "FAIL_AT");
                char *msg = tu_read_file(ctx->err_path, NULL);
                const char *line = msg ? error_line(msg, "lab30-gltf") : NULL;
                const char *rule = line ? line + strlen("lab30-gltf: error: ") : "";
                bool ok = (rc == normal && (normal == 0 || (line && normal_line && !strcmp(line, normal_line)))) ||
                          (rc == 3 && line && !strncmp(rule, "out of memory, ", 15));
                decoders += ok && rc == 3 && strstr(rule, "the decoder's child could not allocate") != NULL;
                if (!ok) {
                    fprintf(stderr, "lab30-gltf %s, %s=%ld of %ld: exit %d\n  %s\n", files[a], from ? "FAIL_FROM" : "FAIL_AT",
                            point[i], total, rc, msg ? msg : "");
                    failures++;
                }
                free(msg);
                empty_dir(ctx->dir);
            }
        unsetenv("LD_PRELOAD");
        printf("  faults: lab30-gltf on %s, %d of %ld allocations failed at and from: %d ended in the decoder's child, "
               "all on the contract\n", a == 0 ? "a Draco file" : "a meshopt file", points, total, decoders);
        free(point);
        free(normal_err);
        assert_int_equal(failures, 0);
        if (points == total)
            assert_true(decoders > 0); /* the loads were reached */
    }
    unlink(draco), unlink(meshopt), rmdir(assets);
    free(shim);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_allocation_failures_end_on_contract, tu_run_dir_setup,
                                        tu_run_dir_teardown),
        cmocka_unit_test_setup_teardown(test_refused_and_killed_renames_lose_nothing, tu_run_dir_setup,
                                        tu_run_dir_teardown),
        cmocka_unit_test_setup_teardown(test_cholmod_start_ends_on_contract, tu_run_dir_setup, tu_run_dir_teardown),
        cmocka_unit_test_setup_teardown(test_compressed_decoders_end_on_contract, tu_run_dir_setup,
                                        tu_run_dir_teardown),
    };
    return cmocka_run_group_tests_name("faults, every program", tests, list_programs, free_programs);
}
