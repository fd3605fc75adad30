/* grade30_cases_heat.c - the cases of the bone heat sheet (grade30_table.h): 20 the
 * cotangent Laplacian's row of a vertex, 21 the heat system's row. The lab's answers:
 * heat_laplacian (src/weights/heat.c) on the vertex's own fan for 20; for 21 on the
 * chapter's cylinder, heat_laplacian's diagonal and areas with heat_sources' H and p, and
 * on generated rows the system's terms as exercises30.h writes them. The cylinder's
 * system (grade30_heat_cylinder) is also what exercise 21's picture solves. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "math/linalg.h"
#include "mesh/mesh.h"
#include "solve/sparse.h"
#include "weights/heat.h"

#include "grade30_random.h"
#include "grade30_table.h"
#include "rig30.h"

/* ---- 20. the cotangent Laplacian's row ----------------------------------------------------- */

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

void grade30_cotan_case(int i, uint64_t seed, grade30_case *c)
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

grade30_answer grade30_cotan_expected(const grade30_case *c)
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

void grade30_cotan_value_name(const grade30_case *c, int i, char *out, size_t size)
{
    if (i < c->k)
        snprintf(out, size, "row[%d], L_ik for neighbour %d", i, i);
    else
        snprintf(out, size, "row[%d], the diagonal L_ii", i);
}

/* ---- 21. the heat system's row ------------------------------------------------------------- */

/* The chapter's cylinder under the paper's model with the bend's two bones, (0,0,0) to
 * (0,0,1) and (0,0,1) to (0,0,2), c = 1: built once a process. */
const grade30_heat_system *grade30_heat_cylinder(void)
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

void grade30_heat_row_case(int i, uint64_t seed, grade30_case *c)
{
    grade30_case_clear(c);
    if (i < 2 * COUNT(heat_rings)) {
        const grade30_heat_system *s = grade30_heat_cylinder();
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

grade30_answer grade30_heat_row_expected(const grade30_case *c)
{
    grade30_answer a;
    grade30_answer_clear(&a);
    a.n = 2;
    if (c->source == GRADE30_FROM_CYLINDER) { /* the library's H and p */
        const grade30_heat_system *s = grade30_heat_cylinder();
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

void grade30_heat_row_value_name(const grade30_case *c, int i, char *out, size_t size)
{
    (void)c;
    snprintf(out, size, "%s", i == 0 ? "*diagonal, A_ii" : "*rhs, b_i");
}
