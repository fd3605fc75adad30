/* grade30_check.c - the grader's machinery (grade30.h): every case of an exercise run
 * twice, each answer's distance to the lab's answer and to each known mistake's, the
 * verdict, and the verdict printed. The cases and the mistakes are the table's
 * (grade30_table.c); the child the grading runs in is grade30_sandbox.c's.
 *
 * Distances propagate NaN: a NaN or infinite answer is as far from the expected value as
 * can be, an ordinary wrong answer shown with its case. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "math/dualquat.h"
#include "math/linalg.h"

#include "grade/sandbox.h"

#include "grade30.h"
#include "grade30_grading.h"

bool exercise30_not_written;

const char *grade30_verdict_name(grade30_verdict v)
{
    static const char *const verdicts[] = {"not written yet", "correct",  "wrong",
                                           "crashed",         "too slow", "undefined behaviour",
                                           "not graded here", "does not compile"};
    return verdicts[v];
}

/* ---- values as text ------------------------------------------------------------------- */

static const char *rule_name(ex30_weights w)
{
    switch (w) {
    case EX30_WEIGHTS_VALID: return "EX30_WEIGHTS_VALID";
    case EX30_WEIGHTS_NEGATIVE: return "EX30_WEIGHTS_NEGATIVE";
    case EX30_WEIGHTS_NOT_SUMMING_TO_ONE: return "EX30_WEIGHTS_NOT_SUMMING_TO_ONE";
    case EX30_WEIGHTS_NOT_FINITE: return "EX30_WEIGHTS_NOT_FINITE";
    }
    return "(not an ex30_weights value)";
}

static void answer_text(grade30_kind kind, grade30_answer a, char *out, size_t size)
{
    switch (kind) {
    case GRADE30_MATRIX: {
        size_t used = 0;
        for (int r = 0; r < 4 && used < size; r++)
            used += (size_t)snprintf(out + used, size - used, "%s[% .9g % .9g % .9g % .9g]", r ? " " : "",
                                     a.m.m[r][0], a.m.m[r][1], a.m.m[r][2], a.m.m[r][3]);
        break;
    }
    case GRADE30_POINT: snprintf(out, size, "(%.12g, %.12g, %.12g)", a.p.x, a.p.y, a.p.z); break;
    case GRADE30_NUMBER: snprintf(out, size, "%.17g", a.x); break;
    case GRADE30_RULE:
        snprintf(out, size, "%s%s", rule_name(a.rule), a.changed ? ", and the weights were changed" : "");
        break;
    case GRADE30_DUALQUAT:
        snprintf(out, size, "real (w %.9g, %.9g, %.9g, %.9g), dual (w %.9g, %.9g, %.9g, %.9g)", a.q.real.w,
                 a.q.real.x, a.q.real.y, a.q.real.z, a.q.dual.w, a.q.dual.x, a.q.dual.y, a.q.dual.z);
        break;
    case GRADE30_ANGLE: snprintf(out, size, "%.17g rad (%.12g deg)", a.x, a.x * 180 / LAB_PI); break;
    case GRADE30_VALUES: {
        size_t used = (size_t)snprintf(out, size, "%d value%s: [", a.n, a.n == 1 ? "" : "s");
        for (int i = 0; i < a.n && i < 12 && used < size; i++)
            used += (size_t)snprintf(out + used, size - used, "%s%.12g", i ? " " : "", a.v[i]);
        if (used < size)
            snprintf(out + used, size - used, "%s]", a.n > 12 ? " ..." : "");
        break;
    }
    case GRADE30_GLSL: out[0] = '\0'; break;
    }
}

/* ---- distances ------------------------------------------------------------------------ */

/* An answer's components, as many as its kind has (the rule: one, 0 or 1), into out
 * (room for GRADE30_MAX_VALUES + 16). */
enum { COMPONENTS = GRADE30_MAX_VALUES + 16 };
static int components(grade30_kind kind, const grade30_answer *a, double *out)
{
    switch (kind) {
    case GRADE30_ANGLE: out[0] = a->x; return 1;
    case GRADE30_VALUES: memcpy(out, a->v, sizeof *out * (size_t)a->n); return a->n;
    case GRADE30_GLSL: return 0;
    case GRADE30_MATRIX: memcpy(out, &a->m.m[0][0], 16 * sizeof *out); return 16;
    case GRADE30_POINT: out[0] = a->p.x, out[1] = a->p.y, out[2] = a->p.z; return 3;
    case GRADE30_NUMBER: out[0] = a->x; return 1;
    case GRADE30_RULE: out[0] = a->rule, out[1] = a->changed; return 2;
    case GRADE30_DUALQUAT: {
        const quat *q[2] = {&a->q.real, &a->q.dual};
        for (int i = 0; i < 2; i++)
            out[4 * i] = q[i]->w, out[4 * i + 1] = q[i]->x, out[4 * i + 2] = q[i]->y, out[4 * i + 3] = q[i]->z;
        return 8;
    }
    }
    return 0;
}

/* The largest |got - want| over the components, NaN when any difference is NaN (a NaN
 * answer, or infinities that cancel); sign -1 compares got with -want. `twin`: a component
 * NaN in both counts as equal (a mistake that makes NaN explains a NaN answer). */
static double largest_difference(grade30_kind kind, const grade30_answer *got, const grade30_answer *want, double sign,
                                 bool twin)
{
    static double a[COMPONENTS], b[COMPONENTS];
    double worst = 0;
    int n = components(kind, got, a);
    if (components(kind, want, b) != n)
        return INFINITY; /* a count that differs: as far as can be */
    for (int i = 0; i < n; i++) {
        /* an equal value (an infinity too), or a NaN a weight exercise returns as it came */
        double d = a[i] == sign * b[i] || ((twin || kind == GRADE30_VALUES) && isnan(a[i]) && isnan(b[i])) ? 0
                   : kind == GRADE30_ANGLE     ? fabs(remainder(a[i] - b[i], 2 * LAB_PI)) /* up to whole turns */
                                               : fabs(a[i] - sign * b[i]);
        worst = max_or_nan(worst, d);
    }
    return worst;
}

/* The distance the verdict uses: a dual quaternion up to its overall sign (q^ and -q^ are
 * one rigid transform); NaN stays NaN. */
static double distance(grade30_kind kind, const grade30_answer *got, const grade30_answer *want, bool twin)
{
    double same = largest_difference(kind, got, want, 1, twin);
    if (kind != GRADE30_DUALQUAT)
        return same;
    double opposite = largest_difference(kind, got, want, -1, twin);
    return isnan(same) || isnan(opposite) ? NAN : fmin(same, opposite);
}

/* What the tolerance is relative to: the expected value's largest component, at least 1. */
static double scale_of(grade30_kind kind, const grade30_answer *want)
{
    static double c[COMPONENTS];
    double largest = 1;
    int n = components(kind, want, c);
    for (int i = 0; i < n; i++) /* a value that is not finite (a NaN input returned) sets no scale */
        largest = isfinite(c[i]) ? fmax(largest, fabs(c[i])) : largest;
    return largest;
}

/* Within tolerance (false for NaN). The ring radius also takes an answer whose square is
 * within 4e-15 of the expected square: near the collapse, r' = sqrt(x) of an x that
 * rounding moved by 1e-16 moves by 1e-16 / (2 sqrt(x)), whichever correct form computed it. */
static bool within(const grade30_entry *x, const grade30_answer *got, const grade30_answer *want, double d)
{
    if (d <= x->tolerance * scale_of(x->kind, want))
        return true;
    return x->kind == GRADE30_NUMBER && got->x >= 0 && fabs(got->x * got->x - want->x * want->x) <= 4e-15;
}

/* Two calls on one case gave the same answer (NaN equal to NaN). */
static bool same_answer(grade30_kind kind, const grade30_answer *a, const grade30_answer *b)
{
    static double x[COMPONENTS], y[COMPONENTS];
    int n = components(kind, a, x);
    if (components(kind, b, y) != n)
        return false;
    for (int i = 0; i < n; i++)
        if (!(x[i] == y[i] || (isnan(x[i]) && isnan(y[i]))))
            return false;
    return true;
}

/* ---- grading -------------------------------------------------------------------------- */

static void fail(grade30_result *r, const grade30_entry *x, const grade30_case *c, int i, int pass,
                 const grade30_answer *got, const grade30_answer *want, double d)
{
    r->verdict = GRADE30_WRONG;
    r->failed = i + 1, r->failed_pass = pass;
    snprintf(r->failed_case, sizeof r->failed_case, "%s", c->what);
    answer_text(x->kind, *got, r->computed, sizeof r->computed);
    answer_text(x->kind, *want, r->expected, sizeof r->expected);
    r->difference = d;
    r->tolerance = x->tolerance;
    if (x->kind == GRADE30_VALUES && got->n == want->n) { /* the first value off, in words */
        double scale = scale_of(x->kind, want);
        for (int i = 0; i < got->n; i++)
            if (!(got->v[i] == want->v[i] || (isnan(got->v[i]) && isnan(want->v[i])) ||
                  fabs(got->v[i] - want->v[i]) <= x->tolerance * scale)) {
                char name[96] = "";
                if (x->value_name)
                    x->value_name(c, i, name, sizeof name);
                snprintf(r->detail, sizeof r->detail, "the first value off is value %d%s%s%s: computed %.15g, expected %.15g",
                         i, name[0] ? " (" : "", name, name[0] ? ")" : "", got->v[i], want->v[i]);
                break;
            }
    } else if (x->kind == GRADE30_VALUES && got->n && want->n && !(got->v[0] == want->v[0]))
        snprintf(r->detail, sizeof r->detail, "it returned %.15g where %.15g was expected", got->v[0], want->v[0]);
    else if (x->kind == GRADE30_VALUES)
        snprintf(r->detail, sizeof r->detail, "%d values where %d were expected", got->n, want->n);
}

/* The second order: a shuffle of the cases from the seed (never the first order when
 * there are two cases or more). */
static void second_order(int *order, int n, uint64_t seed)
{
    uint64_t s = seed ^ 0x5DEECE66Dull;
    for (int i = 0; i < n; i++)
        order[i] = n - 1 - i;
    for (int i = n - 1; i > 0; i--) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        int j = (int)((s >> 33) % (uint64_t)(i + 1)), t = order[i];
        order[i] = order[j], order[j] = t;
    }
    if (n > 1 && order[0] == 0) {
        int t = order[0];
        order[0] = order[n - 1], order[n - 1] = t;
    }
}

bool grade30_grade_all(const grade30_entry *x, grade30_fn f, uint64_t seed, grade30_result *out,
                       grade30_shared *progress)
{
    *out = (grade30_result){.verdict = GRADE30_CORRECT, .mistake = -1};
    int n = x->named + x->generated;
    grade30_case *cases = malloc(sizeof *cases * (size_t)n);
    grade30_answer *first = malloc(sizeof *first * (size_t)n);
    int *order = malloc(sizeof *order * (size_t)n);
    bool matches[16], ok = cases && first && order && x->mistake_count <= 16;
    int depends = -1; /* the first case whose answer differed between the two passes */
    char depends_before[320] = "";
    for (int m = 0; m < x->mistake_count; m++)
        matches[m] = true;
    if (ok) /* each case is made when the first pass comes to it: a body not written yet costs one */
        second_order(order, n, seed);
    for (int pass = 1; ok && pass <= 2; pass++)
        for (int step = 0; ok && step < n; step++) {
            int i = pass == 1 ? step : order[step];
            if (pass == 1)
                x->make_case(i, seed, &cases[i]);
            if (progress)
                progress->pass = pass, progress->case_index = i;
            exercise30_not_written = false;
            grade30_answer got = grade30_call(x, f, &cases[i], &ok);
            if (grade_started_a_process(progress ? &progress->head : NULL)) {
                *out = (grade30_result){.verdict = GRADE30_WRONG, .failed = i + 1, .failed_pass = pass, .mistake = -1};
                snprintf(out->failed_case, sizeof out->failed_case, "%s", cases[i].what);
                snprintf(out->detail, sizeof out->detail,
                         "it started a process (fork): a formula computes its answer from its arguments alone");
                goto done;
            }
            if (!ok)
                break;
            if (exercise30_not_written) {
                *out = (grade30_result){.verdict = GRADE30_NOT_WRITTEN, .mistake = -1};
                goto done;
            }
            if (got.input_changed[0] && x->kind != GRADE30_RULE && out->verdict == GRADE30_CORRECT) {
                grade30_answer want = x->expected(&cases[i]);
                fail(out, x, &cases[i], i, pass, &got, &want, distance(x->kind, &got, &want, false));
                snprintf(out->detail, sizeof out->detail,
                         "it changed its input %s: an input is const, read and never written (the caller's data)",
                         got.input_changed);
            }
            if (pass == 2 && !same_answer(x->kind, &got, &first[i]) && depends < 0) {
                depends = i;
                answer_text(x->kind, first[i], depends_before, sizeof depends_before);
            }
            if (pass == 2) { /* the same case again, after other calls: the same answer */
                if (!same_answer(x->kind, &got, &first[i]) && out->verdict == GRADE30_CORRECT) {
                    grade30_answer want = x->expected(&cases[i]);
                    fail(out, x, &cases[i], i, 2, &got, &want, distance(x->kind, &got, &want, false));
                    char before[320];
                    answer_text(x->kind, first[i], before, sizeof before);
                    snprintf(out->detail, sizeof out->detail,
                             "its answer depends on earlier calls: the first time this case gave %.200s", before);
                }
                continue;
            }
            grade30_answer_copy(&first[i], &got);
            grade30_answer want = x->expected(&cases[i]);
            double d = distance(x->kind, &got, &want, false);
            for (int m = 0; ok && m < x->mistake_count; m++) {
                if (!matches[m])
                    continue;
                grade30_answer twin = grade30_call(x, x->mistakes[m].fn, &cases[i], &ok);
                matches[m] = distance(x->kind, &got, &twin, true) <= 1e-9 * scale_of(x->kind, &twin) &&
                             got.changed == twin.changed;
            }
            out->cases++;
            if (!within(x, &got, &want, d) && out->verdict == GRADE30_CORRECT)
                fail(out, x, &cases[i], i, 1, &got, &want, d);
        }
    /* a wrong answer that also changed between the passes: state kept between calls (a
     * static cache, a counter) is named, whatever case it first showed in */
    if (ok && out->verdict == GRADE30_WRONG && depends >= 0 && out->failed_pass == 1 && !strstr(out->detail, "depends")) {
        char had[sizeof out->detail];
        snprintf(had, sizeof had, "%s", out->detail);
        snprintf(out->detail, sizeof out->detail,
                 "its answer depends on earlier calls: case %d gave %.120s the first time, another answer after other "
                 "calls (a static variable?)%s%.200s",
                 depends + 1, depends_before, had[0] ? "; " : "", had);
    }
    /* a name only when that mistake explains every case */
    if (ok && out->verdict == GRADE30_WRONG && out->failed_pass == 1)
        for (int m = 0; m < x->mistake_count && out->mistake < 0; m++)
            if (matches[m])
                out->mistake = m;
done:
    free(cases), free(first), free(order);
    return ok;
}

/* ---- printing ------------------------------------------------------------------------- */

void grade30_anchor(const char *heading, char *out, size_t size)
{
    size_t n = 0;
    for (const char *c = heading; *c && n + 1 < size; c++) {
        unsigned char u = (unsigned char)*c;
        if (isalnum(u) || u == '-' || u == '_')
            out[n++] = (char)tolower(u);
        else if (u == ' ')
            out[n++] = '-';
    }
    out[n] = '\0';
}

void grade30_print(int x, const grade30_result *r, FILE *out)
{
    const grade30_entry *e = &grade30_table[x];
    fprintf(out, "%d. %s: %s", x + 1, e->title, grade30_verdict_name(r->verdict));
    if (r->verdict == GRADE30_CORRECT) {
        fprintf(out, e->kind == GRADE30_GLSL ? " (%d cases, on each of the GPU's 3 paths)\n" : " (%d cases, each twice)\n",
                r->cases);
        return;
    }
    if (r->verdict == GRADE30_NOT_WRITTEN) {
        fprintf(out, "\n");
        return;
    }
    fprintf(out, "\n");
    if (r->failed)
        fprintf(out, "    case %d of %d%s: %s\n", r->failed, e->named + e->generated,
                r->failed_pass == 2 ? ", in the second order" : "", r->failed_case);
    if (r->detail[0])
        fprintf(out, "    %s\n", r->detail);
    if (r->verdict == GRADE30_WRONG && r->computed[0]) {
        fprintf(out, "    computed: %s\n    expected: %s\n", r->computed, r->expected);
        if (e->kind != GRADE30_RULE)
            fprintf(out, "    difference %.3g, tolerance %.3g%s\n", r->difference, r->tolerance,
                    e->kind == GRADE30_NUMBER ? ""
                    : e->kind == GRADE30_ANGLE ? " (up to whole turns)"
                                               : " times the largest |expected| (at least 1)");
    }
    if (r->verdict == GRADE30_WRONG && r->mistake >= 0)
        fprintf(out, "    the known mistake: %s\n", e->mistakes[r->mistake].name);
    char anchor[128];
    grade30_anchor(e->heading, anchor, sizeof anchor);
    fprintf(out, "    read: %s#%s (\"%s\")\n", e->page, anchor, e->heading);
}
