/* gpu30_measured.c - what lab30-gpu's GPU work measures beyond the chapter's cases (see
 * gpu30.h): RTR4's model splitting and the texture fallback when a palette does not fit one
 * uniform block, the refusals; and the checks of everything the child measured. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/bytes.h"
#include "base/child.h"
#include "base/diag.h"
#include "gpu/gpu.h"
#include "gpu/gpu_skin.h"
#include "math/dualquat.h"
#include "math/linalg.h"
#include "mesh/mesh.h"
#include "skin/blend.h"
#include "skin/fastskin.h"
#include "skin/normals.h"
#include "skin/packed.h"
#include "skin/rig_random.h"
#include "gpu30.h"
#include "rig30.h"
#include "rig30_check.h"

/* The largest |a - b| over n points of 3 floats. */
static double largest_difference(const float *a, const float *b, int n)
{
    double worst = 0.0;
    for (int k = 0; k < 3 * n; k++)
        worst = max_or_nan(worst, fabs((double)a[k] - b[k]));
    return worst;
}

/* RTR4's model splitting and the texture fallback on the random 64-joint rig with a
 * per-draw budget; on the 2000-joint skeleton the uniform path without a split is refused,
 * naming the limit, and the texture path and the split serve it; a budget below four
 * joints is refused. */
lab_error gpu30_split_oversized_palettes(gpu30 *r, gpu_skinner *skinner, lab_diag *d)
{
    lab_error e = LAB_OK;
    for (int k = 0; e == LAB_OK && k < 2; k++) {
        const gpu30_mesh *m = &r->mesh[GPU30_RANDOM + k];
        const rig_random *g = k == 0 ? &r->random : &r->big;
        r->measured.split_parts[k] = gpu_mesh_parts(m->split);
        gpu30_buffers b;
        e = gpu30_buffers_alloc(m->vertex_count, m->joint_count, &b, d);
        if (e != LAB_OK)
            break;
        memcpy(b.skin, g->skin, sizeof(mat4) * (size_t)m->joint_count);
        memcpy(b.dq, g->dq, sizeof(dualquat) * (size_t)m->joint_count);
        gpu30_buffers_palettes(&b, m->joint_count);
        for (int method = 0; e == LAB_OK && method < 2; method++) {
            /* one draw: the uniform block for the random rig, the texture for the big one */
            gpu_skin_job one = {m->whole, k == 0 ? GPU_PATH_UNIFORM : GPU_PATH_TEXTURE, (skin_method)method, b.pm, b.pd,
                                m->joint_count, b.gpu_p, b.gpu_n};
            /* the split, in uniform blocks while its parts fit them (a budget may exceed one) */
            r->measured.split_path[k] = gpu_mesh_largest_part(m->split) <= gpu_uniform_joints(skinner, (skin_method)method)
                                   ? GPU_PATH_UNIFORM
                                   : GPU_PATH_TEXTURE;
            gpu_skin_job split = {m->split, r->measured.split_path[k], (skin_method)method, b.pm, b.pd, m->joint_count,
                                  b.cpu_p, b.cpu_n};
            e = gpu_skin_run(skinner, &one, NULL, d);
            if (e == LAB_OK)
                e = gpu_skin_run(skinner, &split, NULL, d);
            if (e != LAB_OK)
                break;
            r->measured.split_difference[k][method] = largest_difference(b.gpu_p, b.cpu_p, m->vertex_count);
            if (k == 0) { /* the fallback: the same palette from a texture */
                gpu_skin_job texture = one;
                texture.path = GPU_PATH_TEXTURE;
                texture.out_position = b.cpu_p;
                texture.out_normal = b.cpu_n;
                e = gpu_skin_run(skinner, &texture, NULL, d);
                r->measured.fallback_difference[method] = largest_difference(b.gpu_p, b.cpu_p, m->vertex_count);
            } else { /* the big skeleton against the CPU float kernel */
                fastskin_job cpu = {&m->packed, b.pc, b.pd, m->joint_count, (skin_method)method, FASTSKIN_UNIT_NORMALS,
                                    1, SIMD_SCALAR, b.cpu_p, b.cpu_n, NULL};
                e = fastskin_run(&cpu, d);
                r->measured.big_vs_float[method] = largest_difference(b.gpu_p, b.cpu_p, m->vertex_count);
                gpu_skin_job uniform = one; /* 2000 joints in one uniform block: refused */
                uniform.path = GPU_PATH_UNIFORM;
                if (e == LAB_OK && method == SKIN_LBS) {
                    r->measured.refused_uniform = gpu_skin_run(skinner, &uniform, NULL, &r->measured.refused_uniform_diag);
                    e = diag_resource_failure(r->measured.refused_uniform, &r->measured.refused_uniform_diag, d);
                }
            }
        }
        gpu30_buffers_free(&b);
    }
    gpu_mesh *tiny = NULL; /* a budget that cannot hold one vertex's four joints */
    if (e == LAB_OK) {
        r->measured.refused_budget = gpu_mesh_upload(skinner, &r->mesh[GPU30_RANDOM].packed, 3, &tiny, &r->measured.refused_budget_diag);
        e = diag_resource_failure(r->measured.refused_budget, &r->measured.refused_budget_diag, d);
    }
    gpu_mesh_free(tiny);
    return e;
}

/* The checks of what the GPU measured: every case, path and method against the CPU float
 * and double paths and by the normal's angle; then the split, the fallback and the big
 * skeleton against one draw and the CPU; then the two refusals (a palette over a uniform
 * block, a budget under four joints). */
void gpu30_check_measured(const gpu30 *r, report_checks *paths, report_checks *fit)
{
    static const char *const against[] = {"vs CPU float", "vs CPU double", "normal angle (rad)"};
    static const double bound[] = {GPU30_FLOAT_BOUND, GPU30_DOUBLE_BOUND, GPU30_NORMAL_BOUND};
    const gpu30_measured *m = &r->measured;
    char what[128];
    for (int c = 0; c < GPU30_CASES; c++)
        for (int path = 0; path < GPU_PATH_COUNT; path++)
            for (int k = 0; k < 2; k++)
                for (int q = 0; q < 3; q++) {
                    snprintf(what, sizeof what, "%s %g deg %s %s %s", gpu30_rig_name(m->cases[c].rig), m->cases[c].angle_deg,
                             gpu_path_name((gpu_path)path), skin_method_name((skin_method)k), against[q]);
                    check_bound(paths, what, m->cases[c].error[path][k][q], bound[q]);
                }
    for (int k = 0; k < 2; k++)
        for (int method = 0; method < 2; method++) {
            snprintf(what, sizeof what, "%s split (%s) vs one draw (%s)", skin_method_name((skin_method)method),
                     gpu_path_name(m->split_path[k]), k == 0 ? "uniform" : "texture");
            check_bound(fit, what, m->split_difference[k][method], GPU30_FLOAT_BOUND);
        }
    for (int method = 0; method < 2; method++) {
        snprintf(what, sizeof what, "%s random64 texture fallback vs uniform", skin_method_name((skin_method)method));
        check_bound(fit, what, m->fallback_difference[method], GPU30_FLOAT_BOUND);
        snprintf(what, sizeof what, "%s random2000 texture vs CPU float", skin_method_name((skin_method)method));
        check_bound(fit, what, m->big_vs_float[method], GPU30_FLOAT_BOUND);
    }
    bool refused = m->refused_uniform == LAB_ERR_LIMIT;
    check_add(fit, "2000 joints in one uniform block refused", REPORT_COUNT, refused, 1, 0, refused);
    refused = m->refused_budget == LAB_ERR_LIMIT;
    check_add(fit, "a joint budget of 3 refused", REPORT_COUNT, refused, 1, 0, refused);
}
