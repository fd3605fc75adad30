/* grade30_cases.h - what several exercises' cases share (grade30_cases.c); the seeded
 * generator they draw from is grade30_random.h. */
#ifndef GRADE30_CASES_H
#define GRADE30_CASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "grade30_random.h"
#include "grade30_table.h"

/* A generated rigid transform's parts, with its words. */
quat grade30_rotation_words(rng *r, char *d, size_t size);

/* Whether a ring of child weight w under theta has an angle to grade: LBS, not collapsed
 * (radius ratio above 1e-6); DQS, not at an odd multiple of pi. */
bool grade30_gradable(bool dqs, double w, double theta);

void grade30_turn_case(bool dqs, int i, uint64_t seed, grade30_case *c);

/* The local of a generated node: T R S, scales of 0.5 to 2. */
mat4 grade30_local_of(rng *r);

/* Parents first: node 0 a root, each later one a root a sixth of the time. */
void grade30_parents(rng *r, int n, int *parent);

void grade30_worlds(const grade30_case *c, mat4 *world);

/* k weights from 0.05 to 1, divided by their sum. */
void grade30_weights(rng *r, double *w, int k);

/* Exercise 10's named scenes (grade30_scenes.c): how many, scene i into *c, and the lab's
 * own path on one (c->vertices positions into out). */
int grade30_scene_cases(void);
void grade30_scene_case(int i, grade30_case *c);
void grade30_scene_answer(const grade30_case *c, vec3 *out);

#endif
