/* rig30_gltf.c - chapter 30's twist rig as a glTF 2.0 file through gltf_write (see
 * rig30_gltf.h). */
#include "rig30_gltf.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "gltf/gltf_write.h"
#include "base/bytes.h"
#include "base/diag.h"
#include "math/linalg.h"
#include "math/quat.h"
#include "rig30.h"
#include "skin/influences.h"

double rig30_gltf_nlerp_deviation(double step, double radius)
{
    double worst = 0.0;
    for (int i = 0; i <= 1000; i++) { /* t in [0, 1], both keys included */
        double t = i / 1000.0;
        double nlerp = 2.0 * atan2(t * sin(step / 2), (1 - t) + t * cos(step / 2));
        worst = fmax(worst, 2.0 * radius * sin(fabs(nlerp - step * t) / 2));
    }
    return worst;
}

int rig30_gltf_key_segments(double total_angle, double radius, double tolerance)
{
    int segments = 1;
    while (segments < RIG30_GLTF_MAX_KEYS - 1 &&
           !(rig30_gltf_nlerp_deviation(total_angle / segments, radius) < tolerance))
        segments++;
    return segments;
}

/* The twist rig, with a corrective shape when deltas is not NULL. */
static lab_error export_twist(const rig30_rig *rig, const vec3 *deltas, bytes *out, lab_diag *d)
{
    int n = rig->bind.vertex_count;
    /* the keys' budget holds for the farthest vertex from the twist axis: a distance from
     * the axis is convex along p + w d, so over w in [0, 1] it is largest at an end */
    double radius = 0.0;
    for (int v = 0; v < n; v++) {
        vec3 p = rig->bind.vertices[v];
        radius = fmax(radius, hypot(p.x, p.y));
        if (deltas)
            radius = fmax(radius, hypot(p.x + deltas[v].x, p.y + deltas[v].y));
    }
    const int segments = rig30_gltf_key_segments(acos(-1.0), radius, RIG30_GLTF_NLERP_TOLERANCE), keys = segments + 1;
    vec3 *normals = malloc(sizeof *normals * (size_t)n);
    uint16_t (*joints)[4] = malloc(sizeof *joints * (size_t)n);
    float (*weights)[4] = malloc(sizeof *weights * (size_t)n);
    lab_error e = (normals && joints && weights) ? LAB_OK
                                                 : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "glTF", "%d vertices", n);
    if (e == LAB_OK)
        rig30_bind_normals(rig, normals);
    for (int v = 0; e == LAB_OK && v < n; v++) {
        const skin_influences *in = &rig->influences;
        for (int s = 0; s < 4; s++) {
            int k = v * in->per_vertex + s;
            bool used = s < in->per_vertex && in->weight[k] > 0.0;
            joints[v][s] = (uint16_t)(used ? in->joint[k] : 0);
            weights[v][s] = used ? (float)in->weight[k] : 0.0f;
        }
    }
    const gltf_write_joint skeleton[RIG30_JOINTS] = {
        {"root", -1, {0, 0, 0}, quat_identity()},
        {"child", 0, {0, 0, RIG30_HEIGHT}, quat_identity()},
    };
    double times[RIG30_GLTF_MAX_KEYS], drive[RIG30_GLTF_MAX_KEYS];
    quat rotations[RIG30_GLTF_MAX_KEYS];
    for (int k = 0; k < keys; k++) {
        times[k] = (double)k / segments;
        drive[k] = times[k]; /* the corrective's driver: theta / pi */
        rotations[k] = quat_from_axis_angle(vec3_make(0, 0, 1), acos(-1.0) * k / segments);
    }
    gltf_write_input in = {
        .bind = &rig->bind, .normals = normals, .joints = (const uint16_t(*)[4])joints,
        .weights = (const float(*)[4])weights, .skeleton = skeleton, .joint_count = RIG30_JOINTS,
        .inverse_bind = rig->inverse_bind, .animated_joint = 1,
        .key_times = times, .key_rotations = rotations, .key_count = keys,
        .generator = deltas ? "skinning lab, lab30-fixes" : "skinning lab, lab30 --gltf",
        .mesh_name = "cylinder", .mesh_node_name = deltas ? "cylinder shape weights" : "cylinder",
        .rig_name = RIG30_GLTF_RIG_NAME, .rig_rotation = rig30_gltf_z_up_to_y_up(),
        .skin_name = "cylinder skin", .animation_name = deltas ? "twist with its corrective shape" : "twist",
        .end_name = "child_end", .end_parent = 1, .end_translation = {0, 0, RIG30_GLTF_END_LENGTH},
        .target_positions = deltas, .target_weights = deltas ? drive : NULL,
        .target_name = deltas ? "twist corrective" : NULL,
    };
    if (e == LAB_OK)
        e = gltf_write(&in, out, d);
    free(normals), free(joints), free(weights);
    return e;
}

lab_error rig30_gltf_export(const rig30_rig *rig, bytes *out, lab_diag *d)
{
    return export_twist(rig, NULL, out, d);
}

lab_error rig30_gltf_export_corrective(const rig30_rig *rig, const vec3 *deltas, bytes *out, lab_diag *d)
{
    return export_twist(rig, deltas, out, d);
}

quat rig30_gltf_z_up_to_y_up(void)
{
    return quat_from_axis_angle(vec3_make(1, 0, 0), -acos(-1.0) / 2); /* +z -> +y, +y -> -z */
}
