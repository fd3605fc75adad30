/* grade30_check.c - the grader's machinery (see grade30.h): each case's outcome against
 * its expected value and against the known mistakes' values (grade30_grading.h), the
 * verdict, the child each exercise runs in, and the printed verdict. The cases themselves
 * are in grade30_cases.c. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/bytes.h"
#include "base/child.h"
#include "base/diag.h"
#include "math/dualquat.h"
#include "math/linalg.h"

#include "grade30.h"
#include "grade30_grading.h"

bool exercise30_not_written;
unsigned grade30_seconds = 10;

static const char *const names[GRADE30_EXERCISE_COUNT] = {
    "1. the world matrix G_i = G_parent L_i",
    "2. the skin matrix C_j = G_j B_j^-1",
    "3. the LBS blend p~' = sum_j w_j C_j p~",
    "4. the ring radius r'/r = sqrt(1 - 4 w (1-w) sin^2(theta/2))",
    "5. the weight rules (w_j >= 0, sum 1 within 1e-12; refuse, never repair)",
    "6. the DQS blend with the hemisphere rule",
    "7. the normal matrix (M_3x3^-1)^T",
};
static const char *const sections[GRADE30_EXERCISE_COUNT] = {
    "\"Hierarchy evaluation and vertex blending are two steps\"",
    "\"Mesh coordinates and joint coordinates\"",
    "\"Vertex blending\"",
    "\"The average of two rigid rotations is not rigid\"",
    "\"Vertex blending\": the weights' rules, and exercise 2",
    "\"Dual quaternion skinning\" (the LBS-versus-DQS text)",
    "\"Normals are not points\" (the weights, spaces and normals text)",
};

const char *grade30_name(grade30_exercise x) { return names[x]; }
const char *grade30_section(grade30_exercise x) { return sections[x]; }

const char *grade30_verdict_name(grade30_verdict v)
{
    static const char *const verdicts[] = {"not written yet", "correct", "wrong", "crashed"};
    return verdicts[v];
}

/* ---- values as text, and their distance ----------------------------------------------- */

static void mat4_text(mat4 m, char *out, size_t size)
{
    size_t used = 0;
    for (int r = 0; r < 4 && used < size; r++)
        used += (size_t)snprintf(out + used, size - used, "%s[% .6g % .6g % .6g % .6g]", r ? " " : "", m.m[r][0],
                                 m.m[r][1], m.m[r][2], m.m[r][3]);
}

static void vec3_text(vec3 p, char *out, size_t size) { snprintf(out, size, "(%.9g, %.9g, %.9g)", p.x, p.y, p.z); }

static void dualquat_text(dualquat q, char *out, size_t size)
{
    snprintf(out, size, "real (w %.6g, %.6g, %.6g, %.6g), dual (w %.6g, %.6g, %.6g, %.6g)", q.real.w, q.real.x,
             q.real.y, q.real.z, q.dual.w, q.dual.x, q.dual.y, q.dual.z);
}

const char *weights_name(ex30_weights w)
{
    switch (w) {
    case EX30_WEIGHTS_VALID: return "EX30_WEIGHTS_VALID";
    case EX30_WEIGHTS_NEGATIVE: return "EX30_WEIGHTS_NEGATIVE";
    case EX30_WEIGHTS_NOT_SUMMING_TO_ONE: return "EX30_WEIGHTS_NOT_SUMMING_TO_ONE";
    }
    return "(not an ex30_weights value)";
}

static double vec3_distance(vec3 a, vec3 b)
{
    return fmax(fabs(a.x - b.x), fmax(fabs(a.y - b.y), fabs(a.z - b.z)));
}

/* The largest difference of the eight components, up to the overall sign: q^ and -q^ are
 * the same rigid transform. */
static double dualquat_distance(dualquat a, dualquat b)
{
    const double pa[8] = {a.real.w, a.real.x, a.real.y, a.real.z, a.dual.w, a.dual.x, a.dual.y, a.dual.z};
    const double pb[8] = {b.real.w, b.real.x, b.real.y, b.real.z, b.dual.w, b.dual.x, b.dual.y, b.dual.z};
    double same = 0, opposite = 0;
    for (int i = 0; i < 8; i++) {
        same = fmax(same, fabs(pa[i] - pb[i]));
        opposite = fmax(opposite, fabs(pa[i] + pb[i]));
    }
    return fmin(same, opposite);
}

/* NaN compares as far as can be. */
static double distance_or_inf(double d) { return isnan(d) ? INFINITY : d; }

/* ---- one case ------------------------------------------------------------------------- */

/* True when the body said it is not written (the verdict is then set). */
bool not_written(grading *g)
{
    if (!exercise30_not_written)
        return false;
    g->r->verdict = GRADE30_NOT_WRITTEN;
    g->stop = true;
    return true;
}

/* One case's outcome: the answer's distance to the expected value and to each twin. */
void outcome(grading *g, const char *what, double diff, double tolerance, const char *computed,
                    const char *expected, const mistake *m, const double *twin_diff, int n)
{
    grade30_result *r = g->r;
    if (g->mistakes == 0) {
        g->mistakes = n;
        for (int i = 0; i < n; i++)
            g->mistake[i] = m[i].name, g->matches[i] = true;
    }
    for (int i = 0; i < n && i < g->mistakes; i++)
        g->matches[i] &= distance_or_inf(twin_diff[i]) <= TIGHT;
    if (g->failed)
        return;
    r->cases++;
    diff = distance_or_inf(diff);
    if (diff <= tolerance)
        return;
    g->failed = true;
    r->verdict = GRADE30_WRONG;
    snprintf(r->failed_case, sizeof r->failed_case, "%s", what);
    snprintf(r->computed, sizeof r->computed, "%s", computed);
    snprintf(r->expected, sizeof r->expected, "%s", expected);
    r->difference = diff;
    r->tolerance = tolerance;
}

/* After the last case: the first mistake that explains every answer. */
static void finish(grading *g)
{
    if (g->stop || !g->failed)
        return;
    for (int i = 0; i < g->mistakes && !g->r->mistake; i++)
        if (g->matches[i])
            g->r->mistake = g->mistake[i];
}

void check_mat4(grading *g, const char *what, mat4 got, mat4 want, double tolerance, const mistake *m, int n)
{
    double twin[MAX_MISTAKES];
    for (int i = 0; i < n; i++)
        twin[i] = mat4_max_abs_diff(got, m[i].m);
    char a[320], b[320];
    mat4_text(got, a, sizeof a), mat4_text(want, b, sizeof b);
    outcome(g, what, mat4_max_abs_diff(got, want), tolerance, a, b, m, twin, n);
}

void check_vec3(grading *g, const char *what, vec3 got, vec3 want, double tolerance, const mistake *m, int n)
{
    double twin[MAX_MISTAKES];
    for (int i = 0; i < n; i++)
        twin[i] = vec3_distance(got, m[i].p);
    char a[320], b[320];
    vec3_text(got, a, sizeof a), vec3_text(want, b, sizeof b);
    outcome(g, what, vec3_distance(got, want), tolerance, a, b, m, twin, n);
}

void check_double(grading *g, const char *what, double got, double want, double tolerance, const mistake *m,
                         int n)
{
    double twin[MAX_MISTAKES];
    for (int i = 0; i < n; i++)
        twin[i] = fabs(got - m[i].x);
    char a[64], b[64];
    snprintf(a, sizeof a, "%.17g", got), snprintf(b, sizeof b, "%.17g", want);
    outcome(g, what, fabs(got - want), tolerance, a, b, m, twin, n);
}

void check_dualquat(grading *g, const char *what, dualquat got, dualquat want, double tolerance,
                           const mistake *m, int n)
{
    double twin[MAX_MISTAKES];
    for (int i = 0; i < n; i++)
        twin[i] = dualquat_distance(got, m[i].q);
    char a[320], b[320];
    dualquat_text(got, a, sizeof a), dualquat_text(want, b, sizeof b);
    outcome(g, what, dualquat_distance(got, want), tolerance, a, b, m, twin, n);
}

void grade30_check(const grade30_exercises *ex, grade30_exercise x, grade30_result *out)
{
    *out = (grade30_result){.verdict = GRADE30_CORRECT};
    grading g = {.r = out};
    grade30_cases[x](ex, &g);
    finish(&g);
}

/* ---- in a child ----------------------------------------------------------------------- */

void grade30_child_limits(void)
{
    static const int crashes[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    for (size_t i = 0; i < sizeof crashes / sizeof crashes[0]; i++)
        signal(crashes[i], SIG_DFL); /* a handler the parent installed (a test runner's) must not catch it */
    alarm(grade30_seconds);          /* an endless loop ends the child (SIGALRM) */
}

typedef struct { const grade30_exercises *ex; grade30_exercise x; } child_state;

static lab_error check_in_child(void *state, bytes *result, lab_diag *d)
{
    (void)d;
    const child_state *s = state;
    grade30_child_limits();
    grade30_result r;
    grade30_check(s->ex, s->x, &r);
    bytes_append(result, &r, sizeof r);
    return result->failed ? LAB_ERR_OUT_OF_MEMORY : LAB_OK;
}

lab_error grade30_run(const grade30_exercises *ex, grade30_exercise x, grade30_result *out, lab_diag *d)
{
    child_state s = {ex, x};
    bytes result = {0};
    lab_diag crash = {0};
    /* the crash code only marks a child that ended: its diag says how */
    lab_error e = child_run(names[x], check_in_child, &s, &result, LAB_ERR_INVALID_ARGUMENT, &crash);
    if (e == LAB_OK && result.len == sizeof *out) {
        memcpy(out, result.data, sizeof *out);
    } else if (e == LAB_ERR_OUT_OF_MEMORY) {
        bytes_free(&result);
        return diag_resource_failure(e, &crash, d);
    } else { /* the student's code ended the child */
        *out = (grade30_result){.verdict = GRADE30_CRASHED};
        snprintf(out->failed_case, sizeof out->failed_case, "%.159s", crash.value); /* how the child ended */
    }
    bytes_free(&result);
    return LAB_OK;
}

void grade30_print(grade30_exercise x, const grade30_result *r, FILE *out)
{
    fprintf(out, "%s: %s", names[x], grade30_verdict_name(r->verdict));
    if (r->verdict == GRADE30_CORRECT)
        fprintf(out, " (%d cases)\n", r->cases);
    else if (r->verdict == GRADE30_NOT_WRITTEN)
        fprintf(out, "\n");
    else if (r->verdict == GRADE30_CRASHED)
        fprintf(out, "\n    the child that ran it ended: %s (a crash, or more than %u s)\n", r->failed_case,
                grade30_seconds);
    else {
        fprintf(out, "\n    case %d: %s\n", r->cases, r->failed_case);
        fprintf(out, "    computed: %s\n    expected: %s\n", r->computed, r->expected);
        if (r->tolerance > 0)
            fprintf(out, "    difference %.3g, tolerance %.3g\n", r->difference, r->tolerance);
        fprintf(out, "    section: %s\n", sections[x]);
        if (r->mistake)
            fprintf(out, "    the known mistake: %s\n", r->mistake);
    }
}
