/* gltf_export.c - chapter 30's twist rig as a glTF 2.0 file through gltf_write (see
 * gltf_export.h). */
#include "gltf_export.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "gltf_write.h"

lab_error gltf_export_rig30(const rig30_rig *rig, bytes *out, lab_diag *d)
{
    enum { KEYS = 7 };
    int n = rig->bind.vertex_count;
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
    double times[KEYS];
    quat rotations[KEYS];
    for (int k = 0; k < KEYS; k++) {
        times[k] = (double)k / (KEYS - 1);
        rotations[k] = quat_from_axis_angle(vec3_make(0, 0, 1), acos(-1.0) * k / (KEYS - 1));
    }
    gltf_write_input in = {&rig->bind, normals, (const uint16_t(*)[4])joints, (const float(*)[4])weights,
                           skeleton, RIG30_JOINTS, rig->inverse_bind, 1, times, rotations, KEYS,
                           "skinning lab, lab30 --gltf"};
    if (e == LAB_OK)
        e = gltf_write(&in, out, d);
    free(normals), free(joints), free(weights);
    return e;
}
