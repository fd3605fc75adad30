/* rig30_test.h - what chapter 30's suites of the rig share (test_rig30.c,
 * test_rig30_beyond_lbs.c): the twist rig built for a test (cmocka setup and teardown) and
 * one LBS pose of it. Tests only. */
#ifndef RIG30_TEST_H
#define RIG30_TEST_H

#include <stdlib.h>

#include "cmocka_all.h"

#include "base/diag.h"
#include "skin/blend.h"

#include "rig30.h"

static const double pi = 3.141592653589793;

static inline int setup_rig(void **state)
{
    rig30_rig *rig = malloc(sizeof *rig);
    if (!rig || rig30_rig_build(rig, RIG30_TWIST, NULL, NULL) != LAB_OK)
        return -1;
    *state = rig;
    return 0;
}

static inline int teardown_rig(void **state)
{
    rig30_rig_free(*state);
    free(*state);
    return 0;
}

static inline rig30_pose pose_at(const rig30_rig *rig, double theta)
{
    rig30_pose p = {.positions = malloc(sizeof(vec3) * (size_t)rig->bind.vertex_count)};
    assert_int_equal(rig30_pose_at(rig, theta, (skin_blend){.method = SKIN_LBS}, &p, NULL), LAB_OK);
    return p;
}

#endif
