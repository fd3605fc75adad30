/* test_sweep.c - the valid domain, tested: every chapter program run with option values
 * drawn by a seeded generator across everything the options accept (angles of both signs,
 * beyond one turn and at the seams of +-180 degrees and its odd multiples; weights from 0
 * to 1 and the article's exercise values; scales; every policy with weights files; thread
 * counts; kernel levels; joint budgets; sample times; methods), alone and combined.
 *
 * A run of valid data must exit 0 with every self-check passed ("All checks passed." and
 * no FAIL in its report) and every figure through the label guard (a cut label is exit 1);
 * a run whose data the program must refuse (a scaled joint under DQS, weights a policy
 * cannot fix) must exit 1 with the rule's message. Any other outcome fails the test with
 * the command line, so it can be run again by hand.
 *
 * SWEEP_RUNS (default 10) is the number of runs per program and SWEEP_SEED (default 30) the
 * seed: make test runs the default, make sweep a longer sweep (SWEEP_RUNS=100). Each program
 * prints how many runs it made.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_all.h"
#include "skin/fastskin.h"
#include "testutil.h"

typedef struct {
    unsigned long long state;
    int runs;                    /* per program */
    tu_run_dir dir;
} sweep;

/* ---- the generator ------------------------------------------------------------------- */

static double uniform(sweep *s) /* in [0, 1) */
{
    s->state = s->state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(s->state >> 11) / 9007199254740992.0;
}

static int below(sweep *s, int n) { return (int)(uniform(s) * n); }

/* An angle in [-limit, limit] degrees: a seam (an odd multiple of 180, exactly or a hair
 * beside it), a multiple of 90, one of the article's, or anywhere. */
static double angle(sweep *s, double limit)
{
    static const double article[] = {0, 90, 180, 120, 45, 135, 270, 360};
    static const double hair[] = {0, 1e-9, -1e-9, 0.5, -0.5};
    int odd = 2 * below(s, (int)(limit / 360.0) + 1) + 1, sign = below(s, 2) ? 1 : -1;
    double a;
    switch (below(s, 4)) {
    case 0: a = sign * (180.0 * odd + hair[below(s, 5)]); break;
    case 1: a = sign * 90.0 * below(s, (int)(limit / 90.0) + 1); break;
    case 2: a = sign * article[below(s, 8)]; break;
    default: a = -limit + 2.0 * limit * uniform(s); break;
    }
    return fmin(fmax(a, -limit), limit);
}

/* "a,b,c": count distinct angles in [-limit, limit]. */
static void angle_list(sweep *s, double limit, int count, char *out, size_t size)
{
    double chosen[8];
    int n = 0;
    size_t used = 0;
    while (n < count) {
        double a = angle(s, limit);
        bool again = false;
        for (int i = 0; i < n; i++)
            again |= chosen[i] == a;
        if (again)
            continue;
        chosen[n++] = a;
        used += (size_t)snprintf(out + used, size - used, "%s%.17g", n > 1 ? "," : "", a);
    }
}

/* A child weight: the ends, the article's halves and quarters, or anywhere in [0, 1]. */
static double weight(sweep *s)
{
    static const double special[] = {0, 1, 0.5, 0.25, 0.75};
    return below(s, 2) ? special[below(s, 5)] : uniform(s);
}

/* ---- running a program --------------------------------------------------------------- */

/* Runs argv (NULL-terminated, OUTDIR added last) and checks the outcome: exit 0 with every
 * check passed, or exit `expect` with `message` on stderr. */
static void run(sweep *s, int expect, const char *message, bool has_checks, char **argv)
{
    char *full[32];
    int n = 0;
    char line[2048];
    size_t used = 0;
    for (; argv[n]; n++) {
        full[n] = argv[n];
        used += (size_t)snprintf(line + used, sizeof line - used, "%s ", argv[n]);
    }
    full[n++] = s->dir.dir, full[n] = NULL;
    snprintf(line + used, sizeof line - used, "OUTDIR");
    int code = tu_run(full, s->dir.out_path, s->dir.err_path);
    if (code != expect) {
        char *err = tu_read_file(s->dir.err_path, NULL);
        fail_msg("%s exited %d, not %d: %s", line, code, expect, err ? err : "");
    }
    if (expect == 0 && has_checks &&
        (!tu_file_contains(s->dir.out_path, "All checks passed.") || tu_file_contains(s->dir.out_path, "FAIL")))
        fail_msg("%s: a self-check failed on valid input", line);
    if (expect != 0 && message && !tu_file_contains(s->dir.err_path, message))
        fail_msg("%s exited %d without naming its rule (\"%s\")", line, code, message);
}

static int setup(void **state)
{
    static sweep s;
    const char *runs = getenv("SWEEP_RUNS"), *seed = getenv("SWEEP_SEED");
    s.runs = runs ? atoi(runs) : 10;
    s.state = seed ? strtoull(seed, NULL, 10) : 30u;
    if (s.runs < 1)
        s.runs = 1;
    void *dir = NULL;
    if (tu_run_dir_setup(&dir) != 0)
        return -1;
    s.dir = *(tu_run_dir *)dir;
    free(dir);
    *state = &s;
    return 0;
}

static int teardown(void **state)
{
    sweep *s = *state;
    tu_remove_tree(s->dir.dir);
    remove(s->dir.out_path), remove(s->dir.err_path);
    return 0;
}

static void report(const char *program, int runs) { printf("  sweep: %s, %d runs\n", program, runs); }

#define BIN(name) (char *)(LAB_BIN_DIR "/" name)

/* ---- one test per program ------------------------------------------------------------ */

static void test_sweep_lab30(void **state)
{
    sweep *s = *state;
    for (int i = 0; i < s->runs; i++) {
        char theta[512], weights[64];
        angle_list(s, 3600, 1 + below(s, 8), theta, sizeof theta);
        double w1 = weight(s);
        snprintf(weights, sizeof weights, "%.17g,%.17g", 1.0 - w1, w1);
        char *argv[8] = {BIN("lab30"), "--theta", theta};
        int n = 3;
        if (below(s, 2))
            argv[n++] = "--middle-weights", argv[n++] = weights;
        if (below(s, 4) == 0)
            argv[n++] = "--gltf";
        argv[n] = NULL;
        run(s, 0, NULL, true, argv);
    }
    report("lab30", s->runs);
}

static void test_sweep_lab30_dqs(void **state)
{
    sweep *s = *state;
    for (int i = 0; i < s->runs; i++) {
        char twist[256], bend[256], scale[96];
        angle_list(s, 720, 1 + below(s, 4), twist, sizeof twist);
        angle_list(s, 720, 1 + below(s, 4), bend, sizeof bend);
        bool scaled = below(s, 5) == 0;
        if (scaled && below(s, 2))
            snprintf(scale, sizeof scale, "%.6g", 0.25 + 3.0 * uniform(s) + (uniform(s) < 0.5 ? 0 : 1e-3));
        else if (scaled)
            snprintf(scale, sizeof scale, "%.6g,%.6g,%.6g", 2.0, 1.0 - 0.5 * uniform(s), -1.0);
        else
            snprintf(scale, sizeof scale, "1");
        char *argv[] = {BIN("lab30-dqs"), "--twist", twist, "--bend", bend, "--child-scale", scale, NULL};
        bool identity = !strcmp(scale, "1");
        /* a scaled child: DQS takes rigid transforms only, and says so (exit 1) */
        run(s, identity ? 0 : 1, identity ? NULL : "rigid", true, argv);
    }
    report("lab30-dqs", s->runs);
}

static void test_sweep_lab30_fixes(void **state)
{
    sweep *s = *state;
    char *argv[] = {BIN("lab30-fixes"), NULL}; /* no options: its poses are fixed */
    run(s, 0, NULL, true, argv);
    report("lab30-fixes", 1);
}

/* A weights file for the cylinder's 216 vertices: each row (0, w0, 1, w1). `sums`: 'one'
 * rows summing to 1, 'any' rows with any positive sum up to 2, 'zero' some rows at 0. */
static void write_weights(sweep *s, const char *path, char sums)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "vertex,joint0,weight0,joint1,weight1\n");
    for (int v = 0; v < 216; v++) {
        double w1 = weight(s), w0 = 1.0 - w1;
        if (sums != 'o') /* any sum in (0, 2] */
            w0 = uniform(s), w1 = uniform(s) + 1e-3;
        if (sums == 'z' && v % 37 == 0)
            w0 = w1 = 0.0;
        fprintf(f, "%d,0,%.17g,1,%.17g\n", v, w0, w1);
    }
    assert_int_equal(fclose(f), 0);
}

static void test_sweep_lab30_normals(void **state)
{
    sweep *s = *state;
    char file[160];
    snprintf(file, sizeof file, "%s.weights.csv", s->dir.dir);
    for (int i = 0; i < s->runs; i++) {
        static const char *const policies[] = {"strict", "normalize", "fallback=0", "fallback=1"};
        const char *policy = policies[below(s, 4)];
        char sums = "oaz"[below(s, 3)];
        int use_file = below(s, 4) != 0;
        if (use_file)
            write_weights(s, file, sums);
        /* the file goes to either rig, whose option each has */
        const char *option = below(s, 2) ? "--twist-weights" : "--bend-weights";
        char *argv[] = {BIN("lab30-normals"), "--policy", (char *)policy, use_file ? (char *)option : NULL, file,
                        NULL};
        int expect = 0;
        const char *message = NULL;
        if (use_file && sums != 'o' && !strcmp(policy, "strict"))
            expect = 1, message = "weights must sum to 1"; /* strict: every sum is checked */
        else if (use_file && sums == 'z' && !strcmp(policy, "normalize"))
            expect = 1, message = "cannot be normalised"; /* W = 0 needs a fallback joint */
        run(s, expect, message, true, argv);
    }
    remove(file);
    report("lab30-normals", s->runs);
}

static void test_sweep_lab30_palette(void **state)
{
    sweep *s = *state;
    for (int i = 0; i < s->runs; i++) {
        char threads[16];
        int t = below(s, 3) == 0 ? 64 : 1 + below(s, 8);
        snprintf(threads, sizeof threads, "%d", t);
        /* every level the option accepts: one this CPU lacks is rejected data (exit 1) */
        simd_level level = (simd_level)below(s, SIMD_LEVEL_COUNT);
        char *argv[] = {BIN("lab30-palette"), "--threads", threads, "--simd", (char *)simd_level_name(level), NULL};
        run(s, simd_level_available(level) ? 0 : 1, "is not available on this CPU", true, argv);
    }
    report("lab30-palette", s->runs);
}

static void test_sweep_lab30_gpu(void **state)
{
    sweep *s = *state;
    int runs = (s->runs + 4) / 5; /* each run opens a GL context: a fifth as many */
    for (int i = 0; i < runs; i++) {
        char budget[16];
        static const int edges[] = {4, 5, 16, 64, 1365, 1366, 1048576};
        int b = below(s, 2) ? edges[below(s, 7)] : 4 + below(s, 4096);
        snprintf(budget, sizeof budget, "%d", b);
        char *argv[] = {BIN("lab30-gpu"), "--joint-budget", budget, NULL};
        char *probe[] = {BIN("lab30-gpu"), "--joint-budget", budget, s->dir.dir, NULL};
        if (i == 0 && tu_run(probe, s->dir.out_path, s->dir.err_path) != 0 &&
            tu_file_contains(s->dir.err_path, "no EGL display"))
            skip(); /* a machine without EGL: test_gpu says so too */
        run(s, 0, NULL, true, argv);
    }
    report("lab30-gpu", runs);
}

static void test_sweep_lab30_gltf(void **state)
{
    sweep *s = *state;
    char exported[160];
    snprintf(exported, sizeof exported, "%s.export", s->dir.dir);
    char mk[400];
    snprintf(mk, sizeof mk, "mkdir -p '%s' && %s/lab30 --gltf '%s' > /dev/null", exported, LAB_BIN_DIR, exported);
    char *sh[] = {"/bin/sh", "-c", mk, NULL};
    assert_int_equal(tu_run(sh, NULL, NULL), 0);
    char asset[200];
    snprintf(asset, sizeof asset, "%s/skinning30.gltf", exported);
    for (int i = 0; i < s->runs; i++) {
        /* the chapter's export, the tutorial's SimpleSkin and an artist's RiggedSimple
         * (its float matrices are rigid to float precision: DQS takes them) */
        const char *assets[] = {asset, "assets/SimpleSkin.gltf", "assets/RiggedSimple.gltf"};
        int a = below(s, 3);
        char times[256];
        size_t used = 0;
        for (int k = 0, n = 1 + below(s, 8); k < n; k++) {
            double t = below(s, 3) == 0 ? -1.0 + 8.0 * uniform(s) : 0.25 * below(s, 24);
            used += (size_t)snprintf(times + used, sizeof times - used, "%s%.17g", k ? "," : "", t);
        }
        const char *method = below(s, 2) ? "lbs" : "dqs";
        const char *policy = below(s, 2) ? "strict" : "normalize";
        /* each asset's one animation, by index or by name, or by default */
        const char *anim_names[3] = {"twist", "0", "0"}, *anim = below(s, 3) == 0 ? anim_names[a] : NULL;
        char *argv[] = {BIN("lab30-gltf"), "--time", times, "--method", (char *)method, "--policy", (char *)policy,
                        (char *)assets[a], anim ? "--anim" : NULL, (char *)anim, NULL};
        run(s, 0, NULL, false, argv);
    }
    snprintf(mk, sizeof mk, "rm -rf '%s'", exported);
    assert_int_equal(tu_run(sh, NULL, NULL), 0);
    report("lab30-gltf", s->runs);
}

/* --heat-c over its whole range, log-uniformly, with both ends and the paper's values. */
static void test_sweep_lab30_weights(void **state)
{
    sweep *s = *state;
    for (int i = 0; i < s->runs; i++) {
        static const double special[] = {0.1, 100, 1, 0.22};
        double c = below(s, 3) ? exp(log(0.1) + uniform(s) * log(1000.0)) : special[below(s, 4)];
        char value[40];
        snprintf(value, sizeof value, "%.17g", fmin(fmax(c, 0.1), 100.0));
        char *argv[] = {BIN("lab30-weights"), "--heat-c", value, NULL};
        run(s, 0, NULL, true, argv);
    }
    report("lab30-weights", s->runs);
}

/* ---- every program of the build's list -------------------------------------------------- */

/* The programs above have sweepers of their own; any other program of the build's list (a
 * new chapter's) is run here with its default options, which must pass every self-check,
 * until it gets a sweeper of its own. */
static const char *const swept[] = {"lab30", "lab30-dqs", "lab30-fixes", "lab30-normals",
                                    "lab30-palette", "lab30-gpu", "lab30-gltf", "lab30-weights"};

static void test_sweep_every_other_program_at_its_defaults(void **state)
{
    sweep *s = *state;
    int ran = 0;
    for (int i = 0; i < tu_program_count; i++) {
        const tu_program *p = &tu_programs[i];
        bool has_sweeper = false;
        for (size_t k = 0; k < sizeof swept / sizeof swept[0]; k++)
            has_sweeper |= !strcmp(swept[k], p->name);
        if (has_sweeper || !tu_program_selected(p))
            continue;
        char program[256];
        snprintf(program, sizeof program, "%s/%s", LAB_BIN_DIR, p->name);
        char *argv[] = {program, (char *)p->input, NULL};
        run(s, 0, NULL, true, argv);
        report(p->name, 1);
        ran++;
    }
    printf("  sweep: %d program%s at their defaults\n", ran, ran == 1 ? "" : "s");
}

/* Each sweeper above runs only when its program is selected (LAB_ONLY, tests/testutil.h). */
#define SWEEPER(test, program) {#test, selected(program) ? test : skipped, NULL, NULL, NULL}
static void skipped(void **state) { (void)state; skip(); }
static bool selected(const char *name)
{
    const tu_program *p = tu_find_program(name);
    return p && tu_program_selected(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        SWEEPER(test_sweep_lab30, "lab30"),
        SWEEPER(test_sweep_lab30_dqs, "lab30-dqs"),
        SWEEPER(test_sweep_lab30_fixes, "lab30-fixes"),
        SWEEPER(test_sweep_lab30_normals, "lab30-normals"),
        SWEEPER(test_sweep_lab30_palette, "lab30-palette"),
        SWEEPER(test_sweep_lab30_gpu, "lab30-gpu"),
        SWEEPER(test_sweep_lab30_gltf, "lab30-gltf"),
        SWEEPER(test_sweep_lab30_weights, "lab30-weights"),
        cmocka_unit_test(test_sweep_every_other_program_at_its_defaults),
    };
    return cmocka_run_group_tests_name("every program across its valid options (seeded)", tests, setup, teardown);
}
