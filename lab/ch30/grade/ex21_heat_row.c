/* ex21_heat_row.c - exercise 21 of chapter 30, whole: the heat system's row, (-L + M H) w_j =
 * M H p_j (ex30_heat_row on lab/ch30/sheets/weights.c, declared in exercises30.h). Its cases
 * (the chapter's named ones, then generated ones from the seed), the lab's answer on a case,
 * the call of the student's function, the mistakes the pages warn about (each written as a
 * student would), its picture, and the exercise as the engine takes it (src/grade/exercise.h),
 * on the chapter's ordered list (GRADE30_LIST, grade30_table.h). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/diag.h"
#include "draw/plot.h"
#include "math/linalg.h"
#include "mesh/mesh.h"
#include "solve/sparse.h"
#include "weights/heat.h"

#include "grade30_figure.h"
#include "grade30_random.h"
#include "grade30_table.h"
#include "rig30.h"

/* The sheet's function, weak: the grader links no sheet (each is a shared object of its
 * own, opened by name in the grading child), so `reference` is NULL there; the suites link
 * the reference solutions. */
#pragma weak ex30_heat_row

/* The chapter's cylinder's heat system under the paper's model (the bend's two bones, c = 1):
 * what exercise 21's named cases and its picture take (below). */
enum { GRADE30_CYLINDER_VERTICES = 216, GRADE30_HEAT_OFF = 216 * 16 }; /* L's triplets off the diagonal: 2,304 */
typedef struct {
    double laplacian[GRADE30_CYLINDER_VERTICES], area[GRADE30_CYLINDER_VERTICES], heat[GRADE30_CYLINDER_VERTICES];
    double p[2 * GRADE30_CYLINDER_VERTICES], z[GRADE30_CYLINDER_VERTICES], distance[GRADE30_CYLINDER_VERTICES];
    int ties[GRADE30_CYLINDER_VERTICES];
    int off_count, off_row[GRADE30_HEAT_OFF], off_col[GRADE30_HEAT_OFF]; /* L's entries off the diagonal */
    double off_value[GRADE30_HEAT_OFF];
} grade30_heat_system;

/* ---- the cases and the lab's answer ----------------------------------------------------------- */
/* The chapter's cylinder under the paper's model with the bend's two bones, (0,0,0) to
 * (0,0,1) and (0,0,1) to (0,0,2), c = 1: built once a process. */
static const grade30_heat_system *heat_cylinder(void)
{
    static grade30_heat_system s;
    static bool built;
    if (built)
        return &s;
    mesh m;
    sparse_triplets L;
    heat_bone bones[2] = {{{0, 0, 0}, {0, 0, 1}, 0}, {{0, 0, 1}, {0, 0, 2}, 1}};
    int n = RIG30_RINGS * RIG30_SEGMENTS, hidden = 0;
    if (mesh_cylinder(RIG30_RINGS, RIG30_SEGMENTS, RIG30_RADIUS, RIG30_HEIGHT, &m, NULL) != LAB_OK ||
        heat_laplacian(&m, HEAT_PAPER, &L, s.area, NULL, NULL) != LAB_OK ||
        heat_sources(&m, HEAT_PAPER, bones, 2, 2, 1.0, s.heat, s.p, &hidden, NULL) != LAB_OK || hidden)
        abort();
    for (int i = 0; i < n; i++) {
        s.laplacian[i] = sparse_entry(&L, i, i);
        s.z[i] = m.vertices[i].z;
        double d0 = heat_segment_distance(m.vertices[i], bones[0], NULL), d1 = heat_segment_distance(m.vertices[i], bones[1], NULL);
        s.distance[i] = fmin(d0, d1);
        s.ties[i] = (s.p[2 * i] > 0) + (s.p[2 * i + 1] > 0);
    }
    for (size_t e = 0; e < L.count; e++) /* the off-diagonal entries, for the picture's solve */
        if (L.row[e] != L.col[e]) {
            if (s.off_count == GRADE30_HEAT_OFF)
                abort(); /* the grader's own array too small: never drop an entry */
            s.off_row[s.off_count] = L.row[e], s.off_col[s.off_count] = L.col[e], s.off_value[s.off_count++] = L.value[e];
        }
    sparse_free(&L);
    mesh_free(&m);
    built = true;
    return &s;
}

static const int heat_rings[] = {0, 2, 4, 6, 8};

static void heat_row_case(int i, uint64_t seed, grade30_case *c)
{
    grade30_case_clear(c);
    if (i < 2 * COUNT(heat_rings)) {
        const grade30_heat_system *s = heat_cylinder();
        int ring = heat_rings[i / 2], bone = i % 2, v = mesh_cylinder_index(RIG30_SEGMENTS, ring, 0);
        snprintf(c->what, sizeof c->what, "the chapter's cylinder (the bend's bones, c = 1), ring %d, bone %d%s", ring, bone,
                 ring == 4 ? ": at the joint, both bones as near (k = 2)" : "");
        c->laplacian_ii = s->laplacian[v], c->area = s->area[v], c->distance = s->distance[v], c->ties = s->ties[v];
        c->nearest = s->p[2 * v + bone] > 0, c->c = 1;
        c->source = GRADE30_FROM_CYLINDER, c->source_index = 2 * v + bone;
        return;
    }
    rng r = stream(seed, GRADE30_HEAT_ROW, i);
    c->laplacian_ii = -uniform(&r, 0.5, 12), c->area = uniform(&r, 0.005, 0.5), c->distance = uniform(&r, 0.05, 3);
    c->ties = 1 + below(&r, 3), c->nearest = below(&r, 2);
    int pick = below(&r, 3);
    c->c = pick == 0 ? 1 : pick == 1 ? 4 : uniform(&r, 0.1, 10);
    char d[200];
    snprintf(d, sizeof d, "L_ii = %.4g, M_ii = %.4g, d = %.4g, k = %d, %s, c = %.4g", c->laplacian_ii, c->area,
             c->distance, c->ties, c->nearest ? "bone j among the nearest" : "bone j not the nearest", c->c);
    words(c, d, seed);
}

static grade30_answer heat_row_expected(const grade30_case *c)
{
    grade30_answer a;
    grade30_answer_clear(&a);
    a.n = 2;
    if (c->source == GRADE30_FROM_CYLINDER) { /* the library's H and p */
        const grade30_heat_system *s = heat_cylinder();
        int v = c->source_index / 2;
        a.v[0] = -s->laplacian[v] + s->area[v] * s->heat[v];
        a.v[1] = s->area[v] * s->heat[v] * s->p[c->source_index];
        return a;
    }
    double h = c->ties * c->c / (c->distance * c->distance);
    a.v[0] = -c->laplacian_ii + c->area * h;
    a.v[1] = c->nearest ? c->area * h / c->ties : 0;
    return a;
}

static void heat_row_value_name(const grade30_case *c, int i, char *out, size_t size)
{
    (void)c;
    snprintf(out, size, "%s", i == 0 ? "*diagonal, A_ii" : "*rhs, b_i");
}

/* The lab's own function, in the sheet's signature: the other side of the picture (where
 * the student's picture is the lab's, the pose cannot show the mistake). */
static void lab(double laplacian_ii, double area, double distance, int k, bool nearest, double c, double *diagonal,
                double *rhs)
{
    grade30_case g = {.laplacian_ii = laplacian_ii, .area = area, .distance = distance, .ties = k, .nearest = nearest,
                      .c = c};
    grade30_answer a = heat_row_expected(&g);
    *diagonal = a.v[0], *rhs = a.v[1];
}

/* ---- the call, as a student's function is called (src/grade/arrays.h) ------------------------- */
static void call(const grade_exercise *x, grade_fn g, const grade30_case *c, grade_call *k, grade_answer *a)
{
    (void)x;
    double *diagonal = grade_output(k, "diagonal", "numbers (one: *diagonal)", sizeof *diagonal, 1);
    double *rhs = grade_output(k, "rhs", "numbers (one: *rhs)", sizeof *rhs, 1);
    if (!grade_call_ready(k))
        return;
    grade30_fn_of(g).heat_row(c->laplacian_ii, c->area, c->distance, c->ties, c->nearest, c->c, diagonal, rhs);
    grade_put(a, *diagonal), grade_put(a, *rhs);
}

/* ---- the known mistakes, each named in the chapter's words ------------------------------------ */
typedef enum { HEAT_RIGHT, HEAT_NO_K, HEAT_NOT_SQUARED, HEAT_RHS_NO_SHARE, HEAT_LAPLACIAN_SIGN, HEAT_RHS_EVERY_BONE } heat_slip;
static void heat(heat_slip slip, double l, double area, double d, int k, bool nearest, double c, double *diag, double *rhs)
{
    double h = (slip == HEAT_NO_K ? 1 : k) * c / (slip == HEAT_NOT_SQUARED ? d : d * d);
    *diag = (slip == HEAT_LAPLACIAN_SIGN ? l : -l) + area * h;
    *rhs = nearest || slip == HEAT_RHS_EVERY_BONE ? area * h / (slip == HEAT_RHS_NO_SHARE ? 1 : k) : 0;
}
#define HEAT_MISTAKE(name, slip)                                                                             \
    static void name(double l, double area, double d, int k, bool nearest, double c, double *diag, double *rhs) \
    {                                                                                                        \
        heat(slip, l, area, d, k, nearest, c, diag, rhs);                                                    \
    }
HEAT_MISTAKE(mistake_heat_no_k, HEAT_NO_K)
HEAT_MISTAKE(mistake_heat_not_squared, HEAT_NOT_SQUARED)
HEAT_MISTAKE(mistake_heat_rhs_no_share, HEAT_RHS_NO_SHARE)
HEAT_MISTAKE(mistake_heat_laplacian_sign, HEAT_LAPLACIAN_SIGN)
HEAT_MISTAKE(mistake_heat_rhs_every_bone, HEAT_RHS_EVERY_BONE)

static const grade_mistake heat_row_mistakes[] = {
    {"H without k: H_ii = k c / d^2 when k bones tie", (grade_fn)mistake_heat_no_k},
    {"d for d^2: the heat falls with the squared distance", (grade_fn)mistake_heat_not_squared},
    {"p_j = 1 where k bones tie: they share it, p_j = 1/k", (grade_fn)mistake_heat_rhs_no_share},
    {"+L for -L: the system is (-L + M H) w = M H p", (grade_fn)mistake_heat_laplacian_sign},
    {"the heat of every bone: b_i = M H p_j(i) is 0 for a bone that is not the nearest", (grade_fn)mistake_heat_rhs_every_bone},
};

/* ---- the picture ------------------------------------------------------------------------------ */
enum { N = GRADE30_CYLINDER_VERTICES };

/* Solves A x = b in place (A n x n, row-major); false when a pivot is not finite or zero. */
static bool solve(double *a, double *b, int n)
{
    for (int k = 0; k < n; k++) {
        int p = k;
        for (int i = k + 1; i < n; i++)
            if (fabs(a[i * n + k]) > fabs(a[p * n + k]))
                p = i;
        if (!(fabs(a[p * n + k]) > 0) || !isfinite(a[p * n + k]))
            return false;
        if (p != k) {
            for (int j = 0; j < n; j++) {
                double t = a[k * n + j];
                a[k * n + j] = a[p * n + j], a[p * n + j] = t;
            }
            double t = b[k];
            b[k] = b[p], b[p] = t;
        }
        for (int i = k + 1; i < n; i++) {
            double m = a[i * n + k] / a[k * n + k];
            for (int j = k; j < n; j++)
                a[i * n + j] -= m * a[k * n + j];
            b[i] -= m * b[k];
        }
    }
    for (int k = n - 1; k >= 0; k--) {
        for (int j = k + 1; j < n; j++)
            b[k] -= a[k * n + j] * b[j];
        b[k] /= a[k * n + k];
    }
    return true;
}

/* The child bone's weights w_1 along segment 0, one a ring, from the rows `row` gives:
 * A = -L off the diagonal (the lab's), diagonal and right-hand side from row(i). */
static bool profile(void (*row)(int v, const grade30_heat_system *s, grade30_fn f, double *diag, double *rhs), grade30_fn f,
                    double *out)
{
    const grade30_heat_system *s = heat_cylinder();
    double *a = calloc((size_t)N * N, sizeof *a), *b = malloc(sizeof *b * N);
    bool ok = a && b;
    for (int e = 0; ok && e < s->off_count; e++)
        a[s->off_row[e] * N + s->off_col[e]] -= s->off_value[e];
    for (int v = 0; ok && v < N; v++)
        row(v, s, f, &a[v * N + v], &b[v]);
    ok = ok && solve(a, b, N);
    for (int r = 0; ok && r < RIG30_RINGS; r++)
        out[r] = b[mesh_cylinder_index(RIG30_SEGMENTS, r, 0)];
    free(a), free(b);
    return ok;
}

static void lab_row(int v, const grade30_heat_system *s, grade30_fn f, double *diag, double *rhs)
{
    (void)f;
    *diag = -s->laplacian[v] + s->area[v] * s->heat[v];
    *rhs = s->area[v] * s->heat[v] * s->p[2 * v + 1];
}

static void your_row(int v, const grade30_heat_system *s, grade30_fn f, double *diag, double *rhs)
{
    f.heat_row(s->laplacian[v], s->area[v], s->distance[v], s->ties[v], s->p[2 * v + 1] > 0, 1.0, diag, rhs);
}

static void points_heat_row(grade_fn g, const grade30_case *failing, grade30_picture_data *out)
{
    grade30_fn f = grade30_fn_of(g);
    (void)failing; /* the named pose shows this exercise's mistakes */
    double w[RIG30_RINGS];
    out->count = RIG30_RINGS;
    out->drawn = profile(your_row, f, w);
    for (int r = 0; out->drawn && r < RIG30_RINGS; r++)
        out->yours[r].x = w[r];
}

static lab_error draw_heat_row(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    double z[RIG30_RINGS], lab[RIG30_RINGS], mine[RIG30_RINGS];
    grade30_fn none = {0};
    if (!profile(lab_row, none, lab))
        return diag_fail(d, LAB_ERR_SINGULAR, "grade30", "the cylinder's heat system");
    for (int r = 0; r < RIG30_RINGS; r++)
        z[r] = RIG30_HEIGHT * r / (RIG30_RINGS - 1), mine[r] = yours->drawn ? yours->yours[r].x : NAN;
    plot_series s[2] = {
        {z, lab, RIG30_RINGS, LABS, 0, 2, "lab", 0, 0},
        {z, mine, RIG30_RINGS, YOURS, 6, 1, "yours", 0, 0},
    };
    plot_spec spec = {.title = yours->drawn ? "21. the child bone's heat weight on\nthe cylinder, from your rows (c = 1)"
                                            : "21. the child bone's heat weight\n(yours: the system has no solution)",
                      .x_label = "z", .y_label = "w_1",
                      .x_min = 0, .x_max = 2, .x_step = 0.5, .y_min = -0.1, .y_max = 1.1, .y_step = 0.25,
                      .series = s, .series_count = 2};
    return plot_draw(out, W, H, &spec, d);
}

/* ---- the exercise ----------------------------------------------------------------------------- */
const grade_exercise grade30_ex_heat_row = {
    .title = "the heat system's row, (-L + M H) w_j = M H p_j",
    .function = "ex30_heat_row",
    .page = "lab/ch30/lab30-weights/README.md",
    .heading = "Exercise 21: the heat system's row",
    .reference = (grade_fn)ex30_heat_row,
    .shape = GRADE_VALUES,
    .named = 10,
    .generated = GRADE30_GENERATED,
    .make_case = heat_row_case,
    .expected = heat_row_expected,
    .tolerance = 1e-12,
    GRADE30_MISTAKES(heat_row_mistakes),
    .picture_points = points_heat_row,
    .picture = draw_heat_row,
    .value_name = heat_row_value_name,
    .sheet = GRADE30_SHEET_WEIGHTS,
    GRADE30_COMMON,
    .call = call,
    .lab = (grade_fn)lab,
};
