/* ex20_cotan_row.c - exercise 20 of chapter 30, whole: the cotangent Laplacian's row of a
 * vertex (ex30_cotan_row on lab/ch30/sheets/weights.c, declared in exercises30.h). Its cases
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
#pragma weak ex30_cotan_row

/* ---- the cases and the lab's answer ----------------------------------------------------------- */
/* The neighbours of vertex v of m in order around it (each triangle (v, a, b) in its winding
 * gives a before b), from a boundary neighbour when v is on the boundary. */
static int fan_of(const mesh *m, int v, int *ring, bool *closed)
{
    int from[GRADE30_MAX_RING], to[GRADE30_MAX_RING], n = 0;
    for (int t = 0; t < m->triangle_count && n < GRADE30_MAX_RING; t++)
        for (int s = 0; s < 3; s++)
            if (m->triangles[t].v[s] == v)
                from[n] = m->triangles[t].v[(s + 1) % 3], to[n++] = m->triangles[t].v[(s + 2) % 3];
    int start = 0; /* a "from" that is no triangle's "to" starts an open fan */
    *closed = true;
    for (int a = 0; a < n; a++) {
        bool reached = false;
        for (int b = 0; b < n; b++)
            reached |= to[b] == from[a];
        if (!reached)
            start = a, *closed = false;
    }
    int count = 0, at = start;
    ring[count++] = from[at];
    for (int step = 0; step < n; step++) {
        if (!*closed || step < n - 1)
            ring[count++] = to[at];
        int next = -1;
        for (int b = 0; b < n; b++)
            if (from[b] == to[at])
                next = b;
        if (next < 0)
            break;
        at = next;
    }
    return *closed ? n : n + 1;
}

static void cylinder_fan(int ring_index, grade30_case *c)
{
    mesh m;
    if (mesh_cylinder(RIG30_RINGS, RIG30_SEGMENTS, RIG30_RADIUS, RIG30_HEIGHT, &m, NULL) != LAB_OK)
        abort();
    int v = mesh_cylinder_index(RIG30_SEGMENTS, ring_index, 0), ring[GRADE30_MAX_RING + 1];
    c->k = fan_of(&m, v, ring, &c->closed);
    c->p = m.vertices[v];
    for (int j = 0; j < c->k; j++)
        c->ring[j] = m.vertices[ring[j]];
    mesh_free(&m);
}

static void cotan_case(int i, uint64_t seed, grade30_case *c)
{
    grade30_case_clear(c);
    if (i == 0) {
        snprintf(c->what, sizeof c->what, "a regular hexagon around the vertex: every L_ik = cot 60 deg");
        c->k = 6, c->closed = true;
        for (int j = 0; j < 6; j++)
            c->ring[j] = vec3_make(cos(DEG(60 * j)), sin(DEG(60 * j)), 0);
        return;
    }
    if (i == 1 || i == 2) {
        snprintf(c->what, sizeof c->what, i == 1 ? "the chapter's cylinder, ring 4 (its middle), segment 0: six neighbours"
                                                 : "the chapter's cylinder, ring 0 (an open end), segment 0: an open fan");
        cylinder_fan(i == 1 ? 4 : 0, c);
        return;
    }
    if (i == 3) {
        snprintf(c->what, sizeof c->what, "a fan with an obtuse angle: a negative cotangent");
        c->k = 4, c->closed = true;
        c->ring[0] = vec3_make(2, 0, 0), c->ring[1] = vec3_make(0.5, 0.3, 0), c->ring[2] = vec3_make(-1, 0.2, 0),
        c->ring[3] = vec3_make(0, -1, 0.3);
        return;
    }
    rng r = stream(seed, GRADE30_COTAN_ROW, i);
    c->k = 3 + below(&r, GRADE30_MAX_RING - 2);
    c->closed = below(&r, 4) != 0;
    double span = c->closed ? 360 : uniform(&r, 60, 300), gap = span / (c->closed ? c->k : c->k - 1), at = uniform(&r, 0, 360);
    c->p = offset(&r, 1);
    for (int j = 0; j < c->k; j++) { /* around the vertex, each gap within 35% of the mean (below 180 deg) */
        double angle = at + j * gap + uniform(&r, -0.35, 0.35) * gap * (c->closed || (j > 0 && j < c->k - 1));
        double radius = uniform(&r, 0.3, 2);
        c->ring[j] = vec3_add(c->p, vec3_make(radius * cos(DEG(angle)), radius * sin(DEG(angle)), uniform(&r, -0.5, 0.5)));
    }
    char d[200];
    snprintf(d, sizeof d, "%d neighbours, %s", c->k, c->closed ? "all around (an inner vertex)" : "an open fan (a boundary vertex)");
    words(c, d, seed);
}

static grade30_answer cotan_expected(const grade30_case *c)
{
    /* the vertex's own fan as a mesh: vertex 0 the centre, triangle t (0, t+1, t+2) */
    vec3 v[GRADE30_MAX_RING + 1];
    mesh_triangle t[GRADE30_MAX_RING];
    v[0] = c->p;
    for (int j = 0; j < c->k; j++)
        v[j + 1] = c->ring[j];
    int triangles = c->closed ? c->k : c->k - 1;
    for (int j = 0; j < triangles; j++)
        t[j] = (mesh_triangle){{0, j + 1, (j + 1) % c->k + 1}};
    mesh m = {c->k + 1, v, triangles, t};
    sparse_triplets L;
    double mass[GRADE30_MAX_RING + 1];
    if (heat_laplacian(&m, HEAT_PAPER, &L, mass, NULL, NULL) != LAB_OK)
        abort(); /* the generator keeps every triangle's area */
    grade30_answer a;
    grade30_answer_clear(&a);
    a.n = c->k + 1;
    for (int j = 0; j < c->k; j++)
        a.v[j] = sparse_entry(&L, 0, j + 1);
    a.v[c->k] = sparse_entry(&L, 0, 0);
    sparse_free(&L);
    return a;
}

static void cotan_value_name(const grade30_case *c, int i, char *out, size_t size)
{
    if (i < c->k)
        snprintf(out, size, "row[%d], L_ik for neighbour %d", i, i);
    else
        snprintf(out, size, "row[%d], the diagonal L_ii", i);
}

/* The lab's own function, in the sheet's signature: the other side of the picture (where
 * the student's picture is the lab's, the pose cannot show the mistake). */
static void lab(vec3 center, const vec3 *ring, int n, bool closed, double *row)
{
    grade30_case c = {.p = center, .k = n, .closed = closed};
    memcpy(c.ring, ring, sizeof *ring * (size_t)n);
    grade30_answer a = cotan_expected(&c);
    memcpy(row, a.v, sizeof *row * (size_t)(n + 1));
}

/* ---- the call, as a student's function is called (src/grade/arrays.h) ------------------------- */
static void call(const grade_exercise *x, grade_fn g, const grade30_case *c, grade_call *k, grade_answer *a)
{
    (void)x;
    const vec3 *ring = grade_input(k, "ring", "neighbours", c->ring, sizeof *c->ring, c->k);
    double *row = grade_output(k, "row", "entries of the row (n + 1)", sizeof *row, c->k + 1);
    if (!grade_call_ready(k))
        return;
    grade30_fn_of(g).cotan_row(c->p, ring, c->k, c->closed, row);
    for (int i = 0; i <= c->k; i++)
        grade_put(a, row[i]);
}

/* ---- the known mistakes, each named in the chapter's words ------------------------------------ */
typedef enum { COTAN_RIGHT, COTAN_NO_HALF, COTAN_AT_CENTRE, COTAN_DIAGONAL_SIGN, COTAN_OPEN_CLOSED } cotan_slip;
static double cot_at(vec3 a, vec3 b, vec3 c)
{
    vec3 u = vec3_sub(a, b), v = vec3_sub(c, b);
    return vec3_dot(u, v) / vec3_length(vec3_cross(u, v));
}
static void cotan(cotan_slip slip, vec3 center, const vec3 *ring, int n, bool closed, double *row)
{
    for (int k = 0; k <= n; k++)
        row[k] = 0;
    int triangles = closed || slip == COTAN_OPEN_CLOSED ? n : n - 1;
    double half = slip == COTAN_NO_HALF ? 1 : 0.5;
    for (int t = 0; t < triangles; t++) {
        int a = t, b = (t + 1) % n;
        if (slip == COTAN_AT_CENTRE) { /* the angle between the two edges, at the vertex itself */
            double c = cot_at(ring[a], center, ring[b]) * half;
            row[a] += c, row[b] += c;
            continue;
        }
        row[a] += cot_at(center, ring[b], ring[a]) * half;
        row[b] += cot_at(center, ring[a], ring[b]) * half;
    }
    for (int k = 0; k < n; k++)
        row[n] += slip == COTAN_DIAGONAL_SIGN ? row[k] : -row[k];
}
#define COTAN_MISTAKE(name, slip)                                                   \
    static void name(vec3 center, const vec3 *ring, int n, bool closed, double *row) \
    {                                                                               \
        cotan(slip, center, ring, n, closed, row);                                  \
    }
COTAN_MISTAKE(mistake_cotan_no_half, COTAN_NO_HALF)
COTAN_MISTAKE(mistake_cotan_at_centre, COTAN_AT_CENTRE)
COTAN_MISTAKE(mistake_cotan_diagonal_sign, COTAN_DIAGONAL_SIGN)
COTAN_MISTAKE(mistake_cotan_open_closed, COTAN_OPEN_CLOSED)

static const grade_mistake cotan_mistakes[] = {
    {"(cot alpha + cot beta) without its 1/2", (grade_fn)mistake_cotan_no_half},
    {"the angle at the vertex itself: the cotangents are of the angles opposite the edge", (grade_fn)mistake_cotan_at_centre},
    {"L_ii = +sum: the diagonal is minus the row's sum, so L 1 = 0", (grade_fn)mistake_cotan_diagonal_sign},
    {"an open fan closed: a boundary vertex has n - 1 triangles, its end edges one cot alpha / 2",
     (grade_fn)mistake_cotan_open_closed},
};

/* ---- the picture ------------------------------------------------------------------------------ */
static void fan(grade30_case *c) { cotan_case(3, 0, c); }

static void points_cotan(grade_fn g, const grade30_case *failing, grade30_picture_data *out)
{
    grade30_fn f = grade30_fn_of(g);
    (void)failing; /* the named pose shows this exercise's mistakes */
    grade30_case c;
    fan(&c);
    double row[GRADE30_MAX_RING + 1];
    f.cotan_row(c.p, c.ring, c.k, c.closed, row);
    out->count = c.k + 1, out->drawn = true;
    for (int i = 0; i <= c.k; i++)
        out->yours[i].x = row[i];
}

static lab_error draw_cotan(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    grade30_case c;
    fan(&c);
    grade30_answer want = cotan_expected(&c);
    double lab[GRADE30_MAX_RING + 1], mine[GRADE30_MAX_RING + 1], x[GRADE30_MAX_RING + 1], low = 0, high = 0;
    for (int i = 0; i <= c.k; i++) {
        x[i] = i, lab[i] = want.v[i], mine[i] = yours->drawn ? yours->yours[i].x : NAN;
        low = fmin(low, floor(lab[i])), high = fmax(high, ceil(lab[i]));
    }
    plot_series s[2] = {
        {x, lab, c.k + 1, LABS, 0, 2, "lab", 0, 0},
        {x, mine, c.k + 1, YOURS, 6, 1, "yours", 0, 0},
    };
    plot_spec spec = {.title = "20. a fan with an obtuse angle: L_ik\nfor neighbours 0..3, then L_ii",
                      .x_label = "entry", .y_label = "L",
                      .x_min = 0, .x_max = c.k, .x_step = 1, .y_min = low - 1, .y_max = high + 1, .y_step = 2,
                      .series = s, .series_count = 2};
    return plot_draw(out, W, H, &spec, d);
}

/* ---- the exercise ----------------------------------------------------------------------------- */
const grade_exercise grade30_ex_cotan_row = {
    .title = "the cotangent Laplacian's row of a vertex",
    .function = "ex30_cotan_row",
    .page = "lab/ch30/lab30-weights/README.md",
    .heading = "Exercise 20: the cotangent Laplacian's row",
    .reference = (grade_fn)ex30_cotan_row,
    .shape = GRADE_VALUES,
    .named = 4,
    .generated = GRADE30_GENERATED,
    .make_case = cotan_case,
    .expected = cotan_expected,
    .tolerance = 1e-9,
    GRADE30_MISTAKES(cotan_mistakes),
    .picture_points = points_cotan,
    .picture = draw_cotan,
    .value_name = cotan_value_name,
    .sheet = GRADE30_SHEET_WEIGHTS,
    GRADE30_COMMON,
    .call = call,
    .lab = (grade_fn)lab,
};
