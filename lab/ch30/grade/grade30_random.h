/* grade30_random.h - the grader's seeded generator (each exercise's cases, exNN_*.c):
 * splitmix64, one stream a case, and the draws the cases are made of (axes, angles at and
 * between the seams, rigid transforms, scales), each case's words. Static inline: only the
 * files that make cases include it. */
#ifndef GRADE30_RANDOM_H
#define GRADE30_RANDOM_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "math/linalg.h"
#include "math/quat.h"

#include "grade30_table.h"

#define DEG(x) deg_to_rad(x)
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))


typedef struct { uint64_t s; } rng;

static inline uint64_t next(rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Case i of exercise x under seed: its own stream, so a case is the same whatever else runs. */
static inline rng stream(uint64_t seed, int x, int i)
{
    rng r = {seed * 0x100000001B3ull ^ ((uint64_t)(x + 1) << 40) ^ (uint64_t)i};
    next(&r);
    return r;
}

static inline double uniform(rng *r, double a, double b) { return a + (b - a) * (double)(next(r) >> 11) * 0x1.0p-53; }
static inline int below(rng *r, int n) { return (int)(next(r) % (uint64_t)n); }

/* An axis: each of +-x, +-y, +-z a sixteenth of the time, else any direction. */
static inline vec3 axis(rng *r)
{
    static const vec3 principal[6] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {-1, 0, 0}, {0, -1, 0}, {0, 0, -1}};
    int pick = below(r, 16);
    if (pick < 6)
        return principal[pick];
    for (;;) {
        vec3 v = vec3_make(uniform(r, -1, 1), uniform(r, -1, 1), uniform(r, -1, 1));
        double n = vec3_length(v);
        if (n > 0.2 && n <= 1)
            return vec3_scale(v, 1 / n);
    }
}

/* An angle in degrees: a seam (0, +-90, +-180, 270, 360) a quarter of the time, else any
 * within two turns either way. */
static inline double angle_deg(rng *r)
{
    static const double seams[] = {0, 90, -90, 180, -180, 270, 360, -360};
    return below(r, 4) == 0 ? seams[below(r, COUNT(seams))] : uniform(r, -720, 720);
}

static inline quat rotation(rng *r, vec3 *ax, double *deg)
{
    *ax = axis(r);
    *deg = angle_deg(r);
    return quat_from_axis_angle(*ax, DEG(*deg));
}

/* order[0..n) a permutation of 0..n-1 drawn from the stream (Fisher-Yates, from the top). */
static inline void shuffled(rng *r, int *order, int n)
{
    for (int j = 0; j < n; j++)
        order[j] = j;
    for (int j = n - 1; j > 0; j--) {
        int m = below(r, j + 1), t = order[j];
        order[j] = order[m], order[m] = t;
    }
}

static inline vec3 offset(rng *r, double size)
{
    return vec3_make(uniform(r, -size, size), uniform(r, -size, size), uniform(r, -size, size));
}

/* A rigid transform T(t) R, words for it appended to `words`. */
static inline mat4 rigid(rng *r, char *words, size_t size, const char *name)
{
    vec3 ax, t = offset(r, 3);
    double deg;
    quat q = rotation(r, &ax, &deg);
    size_t used = strlen(words);
    snprintf(words + used, size - used, "%s%s = T(%.3g, %.3g, %.3g) R(%.4g deg about (%.3g, %.3g, %.3g))",
             used ? "; " : "", name, t.x, t.y, t.z, deg, ax.x, ax.y, ax.z);
    return mat4_mul(mat4_translate(t.x, t.y, t.z), quat_to_mat4(q));
}

/* Scales of 0.5 to 2 (the same on every axis half the time). */
static inline vec3 scales(rng *r)
{
    double s = uniform(r, 0.5, 2);
    return below(r, 2) ? vec3_make(s, s, s) : vec3_make(s, uniform(r, 0.5, 2), uniform(r, 0.5, 2));
}

static inline void words(grade30_case *c, const char *detail, uint64_t seed)
{
    char head[64];
    snprintf(head, sizeof head, "generated (seed %llu): ", (unsigned long long)seed);
    size_t used = strlen(head);
    snprintf(c->what, sizeof c->what, "%s%.*s", head, (int)(sizeof c->what - 1 - used), detail);
}


#endif
