/* rig30_json.h - the evidence every chapter-30 program records about its rig, as JSON
 * objects in the schema of DESIGN.md (numbers in round-trip form, matrices as 4 rows).
 * Each function returns a new cJSON item for the caller to attach; a failed allocation
 * makes json_to_bytes refuse the document (evidence.h).
 */
#ifndef RIG30_JSON_H
#define RIG30_JSON_H

#include <cJSON.h>

#include "rig30.h"
#include "rig30_cases.h"
#include "rig30_check.h"

/* {rings, segments, radius, height, vertices, triangles, unique_edges, boundary_edges,
 *  degenerate_area_threshold} */
cJSON *rig30_json_mesh(const rig30_rig *rig);
/* [{name, parent, bind_world, inverse_bind}] */
cJSON *rig30_json_joints(const rig30_rig *rig);
/* [{joints, weights}], one per vertex */
cJSON *rig30_json_influences(const rig30_rig *rig);
/* {max_position_error, max_radius_error (per vertex), max_mean_radius_error (ring means),
 *  max_height_error, max_end_ring_error} */
cJSON *rig30_json_check(const rig30_check *c);
/* {point, bind_child, world_child, weights, correct, missing_inverse_bind, reversed_order} */
cJSON *rig30_json_hand_control(const rig30_hand_control *h);
/* [{case, category, rejected, rule, message}]: what case i of rig30_cases gave. */
cJSON *rig30_json_invalid_cases(const lab_error *code, const lab_diag *diag, int count);

#endif
