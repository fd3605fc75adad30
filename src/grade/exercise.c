/* exercise.c - an exercise graded by the engine (exercise.h): every case twice, each
 * answer's distance to the lab's answer and to each known mistake's, the verdict, and the
 * verdict printed. Distances propagate NaN: a NaN or infinite answer is as far from the
 * expected value as can be, an ordinary wrong answer shown with its case. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>

#include "grade/exercise.h"

bool grade_not_written;

const char *grade_verdict_name(grade_verdict v)
{
    static const char *const verdicts[] = {"not written yet", "correct",         "wrong",           "crashed",
                                           "too slow",        "undefined behaviour", "not graded here", "does not compile"};
    return verdicts[v];
}

void grade_answer_clear(grade_answer *a) { memset(a, 0, offsetof(grade_answer, v)); }

void grade_answer_copy(grade_answer *to, const grade_answer *from)
{
    memcpy(to, from, offsetof(grade_answer, v) + sizeof from->v[0] * (size_t)(from->n > 0 ? from->n : 0));
}

void grade_put(grade_answer *a, double x)
{
    if (a->n < GRADE_MAX_VALUES)
        a->v[a->n++] = x;
}

/* ---- values as text ------------------------------------------------------------------- */

static void answer_text(const grade_exercise *x, const grade_answer *a, char *out, size_t size)
{
    const double *v = a->v;
    out[0] = '\0';
    switch (a->n == 0 && x->shape != GRADE_VALUES ? GRADE_VALUES : x->shape) {
    case GRADE_MATRIX: {
        size_t used = 0;
        for (int r = 0; r < 4 && used < size && 4 * r + 3 < a->n; r++)
            used += (size_t)snprintf(out + used, size - used, "%s[% .9g % .9g % .9g % .9g]", r ? " " : "", v[4 * r],
                                     v[4 * r + 1], v[4 * r + 2], v[4 * r + 3]);
        break;
    }
    case GRADE_POINT: snprintf(out, size, "(%.12g, %.12g, %.12g)", v[0], v[1], v[2]); break;
    case GRADE_NUMBER: snprintf(out, size, "%.17g", v[0]); break;
    case GRADE_ANGLE: snprintf(out, size, "%.17g rad (%.12g deg)", v[0], v[0] * 180 / 3.14159265358979323846); break;
    case GRADE_RULE: {
        const char *name = x->rule_name ? x->rule_name((int)v[0]) : NULL;
        char number[32];
        snprintf(number, sizeof number, "%.17g", v[0]);
        snprintf(out, size, "%s%s", name ? name : number, a->changed ? ", and the weights were changed" : "");
        break;
    }
    case GRADE_DUALQUAT:
        snprintf(out, size, "real (w %.9g, %.9g, %.9g, %.9g), dual (w %.9g, %.9g, %.9g, %.9g)", v[0], v[1], v[2], v[3],
                 v[4], v[5], v[6], v[7]);
        break;
    case GRADE_VALUES: {
        size_t used = (size_t)snprintf(out, size, "%d value%s: [", a->n, a->n == 1 ? "" : "s");
        for (int i = 0; i < a->n && i < 12 && used < size; i++)
            used += (size_t)snprintf(out + used, size - used, "%s%.12g", i ? " " : "", v[i]);
        if (used < size)
            snprintf(out + used, size - used, "%s]", a->n > 12 ? " ..." : "");
        break;
    }
    case GRADE_ELSEWHERE: break;
    }
}

/* ---- distances ------------------------------------------------------------------------ */

/* The numbers compared: the values, and for a rule whether the inputs were changed. */
static int components(const grade_exercise *x, const grade_answer *a, const double **out, double *rule)
{
    if (x->shape == GRADE_RULE) {
        rule[0] = a->n > 0 ? a->v[0] : NAN, rule[1] = a->changed;
        *out = rule;
        return 2;
    }
    *out = a->v;
    return a->n;
}

/* The largest |got - want| over the components, NaN when any difference is NaN (a NaN
 * answer, or infinities that cancel); sign -1 compares got with -want. `twin`: a component
 * NaN in both counts as equal (a mistake that makes NaN explains a NaN answer). */
static double largest_difference(const grade_exercise *x, const grade_answer *got, const grade_answer *want,
                                 double sign, bool twin)
{
    double ra[2], rb[2];
    const double *a, *b;
    int n = components(x, got, &a, ra);
    if (components(x, want, &b, rb) != n)
        return INFINITY; /* a count that differs: as far as can be */
    double worst = 0;
    for (int i = 0; i < n; i++) {
        /* an equal value (an infinity too), or a NaN a list returns as it came */
        double d = a[i] == sign * b[i] || ((twin || x->shape == GRADE_VALUES) && isnan(a[i]) && isnan(b[i])) ? 0
                   : x->shape == GRADE_ANGLE ? fabs(remainder(a[i] - b[i], 2 * 3.14159265358979323846)) /* up to turns */
                                             : fabs(a[i] - sign * b[i]);
        worst = isnan(d) || isnan(worst) ? NAN : fmax(worst, d);
    }
    return worst;
}

/* The distance the verdict uses: a dual quaternion up to its overall sign; NaN stays NaN. */
static double distance(const grade_exercise *x, const grade_answer *got, const grade_answer *want, bool twin)
{
    double same = largest_difference(x, got, want, 1, twin);
    if (x->shape != GRADE_DUALQUAT)
        return same;
    double opposite = largest_difference(x, got, want, -1, twin);
    return isnan(same) || isnan(opposite) ? NAN : fmin(same, opposite);
}

/* What the tolerance is relative to: the expected value's largest finite component, at
 * least 1. */
static double scale_of(const grade_exercise *x, const grade_answer *want)
{
    double rule[2], largest = 1;
    const double *c;
    int n = components(x, want, &c, rule);
    for (int i = 0; i < n; i++)
        largest = isfinite(c[i]) ? fmax(largest, fabs(c[i])) : largest;
    return largest;
}

/* Within tolerance (false for NaN), or within the exercise's own second rule. */
static bool within(const grade_exercise *x, const grade_answer *got, const grade_answer *want, double d)
{
    return d <= x->tolerance * scale_of(x, want) || (x->also_within && x->also_within(got, want));
}

/* Two calls on one case gave the same answer (NaN equal to NaN). */
static bool same_answer(const grade_exercise *x, const grade_answer *a, const grade_answer *b)
{
    double ra[2], rb[2];
    const double *p, *q;
    int n = components(x, a, &p, ra);
    if (components(x, b, &q, rb) != n)
        return false;
    for (int i = 0; i < n; i++)
        if (!(p[i] == q[i] || (isnan(p[i]) && isnan(q[i]))))
            return false;
    return true;
}

/* ---- grading -------------------------------------------------------------------------- */

static const char *words_of(const grade_case *c) { return (const char *)c; }

static void fail(grade_result *r, const grade_exercise *x, const grade_case *c, int i, int pass, const grade_answer *got,
                 const grade_answer *want, double d)
{
    r->verdict = GRADE_WRONG;
    r->failed = i + 1, r->failed_pass = pass;
    snprintf(r->failed_case, sizeof r->failed_case, "%s", words_of(c));
    answer_text(x, got, r->computed, sizeof r->computed);
    answer_text(x, want, r->expected, sizeof r->expected);
    r->difference = d;
    r->tolerance = x->tolerance;
    double rg[2], rw[2];
    const double *g, *w;
    r->failed_got = components(x, got, &g, rg), r->failed_want = components(x, want, &w, rw);
    for (int k = 0; k < 16; k++) /* the picture's numbers */
        r->got[k] = k < r->failed_got ? g[k] : 0, r->want[k] = k < r->failed_want ? w[k] : 0;
    if (x->shape != GRADE_VALUES)
        return;
    if (got->n == want->n) { /* the first value off, in words */
        double scale = scale_of(x, want);
        for (int k = 0; k < got->n; k++)
            if (!(got->v[k] == want->v[k] || (isnan(got->v[k]) && isnan(want->v[k])) ||
                  fabs(got->v[k] - want->v[k]) <= x->tolerance * scale)) {
                char name[96] = "";
                if (x->value_name)
                    x->value_name(c, k, name, sizeof name);
                snprintf(r->detail, sizeof r->detail, "the first value off is value %d%s%s%s: computed %.15g, expected %.15g",
                         k, name[0] ? " (" : "", name, name[0] ? ")" : "", got->v[k], want->v[k]);
                return;
            }
    } else if (got->n && want->n && !(got->v[0] == want->v[0]))
        snprintf(r->detail, sizeof r->detail, "it returned %.15g where %.15g was expected", got->v[0], want->v[0]);
    else
        snprintf(r->detail, sizeof r->detail, "%d values where %d were expected", got->n, want->n);
}

/* The second order: a shuffle of the cases from the seed (never the first order when
 * there are two cases or more). */
void grade_second_order(int *order, int n, uint64_t seed)
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

/* One call of f on c through the engine's call arrays; ok false when an array could not be
 * made. */
static void call(const grade_exercise *x, grade_fn f, const grade_case *c, grade_answer *a, bool *ok)
{
    grade_answer_clear(a);
    grade_call k = {0};
    x->call(x, f, c, &k, a);
    *ok = !k.failed;
    if (*ok && grade_call_changed(&k, a->input_changed, sizeof a->input_changed))
        a->changed = true;
    grade_call_end(&k);
}

/* ---- the answers: from the function itself, or from the grading child's stream ---------- */

/* What a call gave besides its answer. */
typedef struct {
    bool not_written, started_a_process;
} call_flags;

/* The answer to case i of pass `pass` into got; false when there is none (the stream ended,
 * or came back out of order). */
typedef bool (*answer_source)(void *ctx, const grade_exercise *x, int pass, int i, const grade_case *c,
                              grade_answer *got, call_flags *flags, bool *ok);

/* A function in this process. */
typedef struct {
    grade_fn f;
    const grade_shared_head *shared;
} direct_source;

static bool direct_answer(void *ctx, const grade_exercise *x, int pass, int i, const grade_case *c, grade_answer *got,
                          call_flags *flags, bool *ok)
{
    const direct_source *src = ctx;
    (void)pass, (void)i;
    grade_not_written = false;
    call(x, src->f, c, got, ok);
    flags->started_a_process = grade_started_a_process(src->shared);
    flags->not_written = grade_not_written;
    return true;
}

/* The stream the grading child writes: a record a call, in the order the two passes make. */
enum { RECORD_MAGIC = 0x44415247 /* "GRAD" */ };
typedef struct {
    uint32_t magic;
    int32_t pass, case_index;         /* pass 0: the sheet opened, no call yet */
    uint8_t not_written, started_a_process, changed, pad;
    char input_changed[48];
    int32_t n;                        /* then n doubles */
} record_head;

typedef struct {
    const unsigned char *data;
    size_t len, at;
} stream_source;

static bool stream_answer(void *ctx, const grade_exercise *x, int pass, int i, const grade_case *c, grade_answer *got,
                          call_flags *flags, bool *ok)
{
    stream_source *src = ctx;
    (void)x, (void)c;
    *ok = true;
    record_head h;
    if (src->len - src->at < sizeof h)
        return false;
    memcpy(&h, src->data + src->at, sizeof h);
    if (h.magic != RECORD_MAGIC || h.pass != pass || h.case_index != i || h.n < 0 || h.n > GRADE_MAX_VALUES ||
        src->len - src->at - sizeof h < sizeof(double) * (size_t)h.n)
        return false; /* not what the grading child writes: the answers stop here */
    grade_answer_clear(got);
    got->n = h.n;
    memcpy(got->v, src->data + src->at + sizeof h, sizeof(double) * (size_t)h.n);
    got->changed = h.changed != 0;
    memcpy(got->input_changed, h.input_changed, sizeof got->input_changed);
    got->input_changed[sizeof got->input_changed - 1] = '\0';
    flags->not_written = h.not_written != 0, flags->started_a_process = h.started_a_process != 0;
    src->at += sizeof h + sizeof(double) * (size_t)h.n;
    return true;
}

/* ---- the judgement ----------------------------------------------------------------------- */

/* Every case of x, answered by `next`, twice, into *out; *stopped the call whose answer did
 * not come (pass 1 or 2 and the case, from 0), pass 0 when every one came. */
static grade_judgement judge(const grade_exercise *x, uint64_t seed, answer_source next, void *ctx, grade_result *out,
                             int *stopped_pass, int *stopped_case)
{
    *out = (grade_result){.verdict = GRADE_CORRECT, .mistake = -1};
    *stopped_pass = 0, *stopped_case = 0;
    int n = x->named + x->generated;
    char *cases = malloc(x->case_size * (size_t)n);
    grade_answer *first = malloc(sizeof *first * (size_t)n), *got = malloc(sizeof *got), *want = malloc(sizeof *want),
                 *twin = malloc(sizeof *twin);
    int *order = malloc(sizeof *order * (size_t)n);
    bool matches[32], ok = cases && first && got && want && twin && order && x->mistake_count <= 32;
    grade_judgement j = GRADE_JUDGED;
    for (int m = 0; m < x->mistake_count && m < 32; m++)
        matches[m] = true;
    int depends = -1; /* the first case whose answer differed between the two passes */
    char depends_before[320] = "";
    if (ok)
        grade_second_order(order, n, seed);
    for (int pass = 1; ok && pass <= 2; pass++)
        for (int step = 0; ok && step < n; step++) {
            int i = pass == 1 ? step : order[step];
            grade_case *c = (grade_case *)(cases + x->case_size * (size_t)i);
            if (pass == 1) /* each case made when the first pass comes to it */
                x->make_case(i, seed, c);
            call_flags flags = {0};
            if (!next(ctx, x, pass, i, c, got, &flags, &ok)) {
                *stopped_pass = pass, *stopped_case = i;
                j = GRADE_JUDGE_STOPPED;
                goto done;
            }
            if (!ok)
                break;
            if (flags.started_a_process) {
                *out = (grade_result){.verdict = GRADE_WRONG, .failed = i + 1, .failed_pass = pass, .mistake = -1};
                snprintf(out->failed_case, sizeof out->failed_case, "%s", words_of(c));
                snprintf(out->detail, sizeof out->detail,
                         "it started a process (fork): a formula computes its answer from its arguments alone");
                goto done;
            }
            if (flags.not_written) {
                *out = (grade_result){.verdict = GRADE_NOT_WRITTEN, .mistake = -1};
                goto done;
            }
            if (got->input_changed[0] && x->shape != GRADE_RULE && out->verdict == GRADE_CORRECT) {
                *want = x->expected(c);
                fail(out, x, c, i, pass, got, want, distance(x, got, want, false));
                snprintf(out->detail, sizeof out->detail,
                         "it changed its input %s: an input is const, read and never written (the caller's data)",
                         got->input_changed);
            }
            if (pass == 2) { /* the same case again, after other calls: the same answer */
                if (!same_answer(x, got, &first[i]) && depends < 0) {
                    depends = i;
                    answer_text(x, &first[i], depends_before, sizeof depends_before);
                }
                if (!same_answer(x, got, &first[i]) && out->verdict == GRADE_CORRECT) {
                    *want = x->expected(c);
                    fail(out, x, c, i, 2, got, want, distance(x, got, want, false));
                    snprintf(out->detail, sizeof out->detail,
                             "its answer depends on earlier calls: the first time this case gave %.200s", depends_before);
                }
                continue;
            }
            grade_answer_copy(&first[i], got);
            *want = x->expected(c);
            double d = distance(x, got, want, false);
            for (int m = 0; ok && m < x->mistake_count; m++) { /* the lab's mistakes, called here */
                if (!matches[m])
                    continue;
                call(x, x->mistakes[m].fn, c, twin, &ok);
                matches[m] = distance(x, got, twin, true) <= 1e-9 * scale_of(x, twin) && got->changed == twin->changed;
            }
            out->cases++;
            if (!within(x, got, want, d) && out->verdict == GRADE_CORRECT)
                fail(out, x, c, i, 1, got, want, d);
        }
    /* a wrong answer that also changed between the passes: state kept between calls (a
     * static cache, a counter) is named, whatever case it first showed in */
    if (ok && out->verdict == GRADE_WRONG && depends >= 0 && out->failed_pass == 1 && !strstr(out->detail, "depends")) {
        char had[sizeof out->detail];
        snprintf(had, sizeof had, "%s", out->detail);
        snprintf(out->detail, sizeof out->detail,
                 "its answer depends on earlier calls: case %d gave %.120s the first time, another answer after other "
                 "calls (a static variable?)%s%.200s",
                 depends + 1, depends_before, had[0] ? "; " : "", had);
    }
    /* a name only when that mistake explains every case */
    if (ok && out->verdict == GRADE_WRONG && out->failed_pass == 1)
        for (int m = 0; m < x->mistake_count && out->mistake < 0; m++)
            if (matches[m])
                out->mistake = m;
done:
    free(cases), free(first), free(got), free(want), free(twin), free(order);
    return ok ? j : GRADE_JUDGE_NO_MEMORY;
}

bool grade_exercise_grade(const grade_exercise *x, grade_fn f, uint64_t seed, grade_result *out)
{
    direct_source src = {f, NULL};
    int pass, i;
    return judge(x, seed, direct_answer, &src, out, &pass, &i) == GRADE_JUDGED;
}

grade_judgement grade_exercise_judge(const grade_exercise *x, uint64_t seed, const void *stream, size_t len,
                                     grade_result *out, int *stopped_pass, int *stopped_case)
{
    stream_source src = {stream, len, 0};
    record_head opened;
    if (len < sizeof opened || (memcpy(&opened, stream, sizeof opened), opened.magic != RECORD_MAGIC) ||
        opened.pass != 0 || opened.n != 0) { /* not even the sheet opened */
        *out = (grade_result){.verdict = GRADE_CORRECT, .mistake = -1};
        *stopped_pass = 0, *stopped_case = 0;
        return GRADE_JUDGE_STOPPED;
    }
    src.at = sizeof opened;
    return judge(x, seed, stream_answer, &src, out, stopped_pass, stopped_case);
}

/* The child's side: a record written whole, or the child ends (a pipe the student's code
 * closed or filled is the end of its answers). */
static void put_record(int fd, const record_head *h, const double *v)
{
    const unsigned char *parts[2] = {(const unsigned char *)h, (const unsigned char *)v};
    size_t sizes[2] = {sizeof *h, sizeof(double) * (size_t)h->n};
    for (int p = 0; p < 2; p++)
        for (size_t done = 0; done < sizes[p];) {
            ssize_t w = write(fd, parts[p] + done, sizes[p] - done);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                _exit(4);
            done += (size_t)w;
        }
}

void grade_exercise_answer(const grade_exercise *x, grade_fn f, uint64_t seed, int fd, const grade_shared_head *shared,
                           void (*before_calls)(void))
{
    record_head h = {RECORD_MAGIC, 0, 0, 0, 0, 0, 0, "", 0};
    put_record(fd, &h, NULL); /* the sheet is open */
    int n = x->named + x->generated;
    char *cases = malloc(x->case_size * (size_t)n);
    int *order = malloc(sizeof *order * (size_t)n);
    grade_answer *got = malloc(sizeof *got);
    if (!cases || !order || !got)
        _exit(3); /* the child's memory: the parent names it */
    grade_second_order(order, n, seed);
    for (int i = 0; i < n; i++) /* every case first: some read the lab's files (an asset) */
        x->make_case(i, seed, (grade_case *)(cases + x->case_size * (size_t)i));
    if (before_calls)
        before_calls();
    for (int pass = 1; pass <= 2; pass++)
        for (int step = 0; step < n; step++) {
            int i = pass == 1 ? step : order[step];
            grade_case *c = (grade_case *)(cases + x->case_size * (size_t)i);
            bool ok = true;
            grade_not_written = false;
            call(x, f, c, got, &ok);
            if (!ok)
                _exit(3);
            h = (record_head){RECORD_MAGIC, pass, i, grade_not_written, grade_started_a_process(shared), got->changed,
                              0, "", got->n};
            memcpy(h.input_changed, got->input_changed, sizeof h.input_changed);
            put_record(fd, &h, got->v);
            if (h.not_written || h.started_a_process)
                goto done;
        }
done:
    free(cases), free(order), free(got);
}

/* ---- printing ------------------------------------------------------------------------- */

void grade_anchor(const char *heading, char *out, size_t size)
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

void grade_print(int x, const grade_exercise *e, const grade_result *r, FILE *out)
{
    fprintf(out, "%d. %s: %s", x + 1, e->title, grade_verdict_name(r->verdict));
    if (r->verdict == GRADE_CORRECT) {
        fprintf(out, e->shape == GRADE_ELSEWHERE ? " (%d cases, on each of the GPU's 3 paths)\n" : " (%d cases, each twice)\n",
                r->cases);
        return;
    }
    fprintf(out, "\n");
    if (r->verdict == GRADE_NOT_WRITTEN)
        return;
    if (r->failed)
        fprintf(out, "    case %d of %d%s: %s\n", r->failed, e->named + e->generated,
                r->failed_pass == 2 ? ", in the second order" : "", r->failed_case);
    if (r->detail[0])
        fprintf(out, "    %s\n", r->detail);
    if (r->verdict == GRADE_WRONG && r->computed[0]) {
        fprintf(out, "    computed: %s\n    expected: %s\n", r->computed, r->expected);
        if (e->shape != GRADE_RULE)
            fprintf(out, "    difference %.3g, tolerance %.3g%s\n", r->difference, r->tolerance,
                    e->shape == GRADE_NUMBER  ? ""
                    : e->shape == GRADE_ANGLE ? " (up to whole turns)"
                                              : " times the largest |expected| (at least 1)");
    }
    if (r->verdict == GRADE_WRONG && r->mistake >= 0)
        fprintf(out, "    the known mistake: %s\n", e->mistakes[r->mistake].name);
    char anchor[128];
    grade_anchor(e->heading, anchor, sizeof anchor);
    fprintf(out, "    read: %s#%s (\"%s\")\n", e->page, anchor, e->heading);
}
