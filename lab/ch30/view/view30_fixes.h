/* view30_fixes.h - the production fixes the window draws, as lab30-fixes writes them: the
 * program's own lines (fixes_twist_joints, fixes_corrective, fixes_cor in
 * lab/ch30/lab30-fixes/lab30-fixes.c, each under the article's formula), reached through
 * view30_fixes.c, which compiles that file with its main renamed, as its suites do. One
 * piece of code: what the window shows is what lab30-fixes measures. Into out[vertex_count]
 * at angle theta (radians):
 *   twist joints: k helpers (0 .. FIXES30_MAX_HELPERS) share the twist; *closed_error (may
 *     be NULL) the largest |r - rig30_radius_ratio(w, theta/(k+1))|, pair by pair;
 *   a corrective shape in `order`, deltas from rig30_corrective_deltas, s = theta / trained;
 *   centres of rotation from rig30_cor_centres. */
#ifndef VIEW30_FIXES_H
#define VIEW30_FIXES_H

#include "base/diag.h"
#include "math/linalg.h"

#include "rig30.h"
#include "rig30_fixes.h"

lab_error view30_fix_twist_joints(const rig30_rig *twist, int k, double theta, vec3 *out, double *closed_error,
                                  lab_diag *d);
lab_error view30_fix_corrective(const rig30_rig *rig, rig30_order order, const vec3 *deltas, double theta,
                                vec3 *out, lab_diag *d);
lab_error view30_fix_cor(const rig30_rig *rig, const vec3 *centres, double theta, vec3 *out, lab_diag *d);

#endif
