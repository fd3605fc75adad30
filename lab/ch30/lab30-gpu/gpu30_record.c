/* gpu30_record.c - lab30-gpu's evidence and report (see gpu30.h). */
#include "gpu30.h"

#include <math.h>
#include <stdlib.h>

#include "program/evidence.h"
#include "base/report.h"
#include "base/diag.h"
#include "gpu/gpu.h"
#include "gpu/gpu_skin.h"
#include "math/dualquat.h"
#include "math/linalg.h"
#include "mesh/mesh.h"
#include "rig30.h"
#include "skin/blend.h"
#include "skin/packed.h"
#include "skin/rig_random.h"

const double gpu30_twist_deg[GPU30_TWIST_POSES] = {0, 45, 90, 135, 180};
const double gpu30_bend_deg[GPU30_BEND_POSES] = {90, 135};

const char *gpu30_rig_name(gpu30_rig rig)
{
    static const char *const names[GPU30_RIGS] = {"twist", "bend", "random64", "random2000"};
    return (int)rig >= 0 && rig < GPU30_RIGS ? names[rig] : "?";
}

void gpu30_free(gpu30 *r)
{
    for (int k = 0; k < GPU30_RIGS; k++) {
        gpu_mesh_free(r->mesh[k].whole);
        gpu_mesh_free(r->mesh[k].split);
        packed_mesh_free(&r->mesh[k].packed);
    }
    free(r->cylinder_normals[0]), free(r->cylinder_normals[1]);
    rig_random_free(&r->random);
    rig_random_free(&r->big);
    for (int k = 0; k < 2; k++)
        rig30_rig_free(&r->rigs[k]);
    free(r->edges);
    report_checks_free(&r->checks.paths);
    report_checks_free(&r->checks.fit);
}

lab_error gpu30_buffers_alloc(int vertices, int joints, gpu30_buffers *b, lab_diag *d)
{
    size_t v = (size_t)vertices, j = (size_t)joints;
    *b = (gpu30_buffers){malloc(sizeof(vec3) * v), malloc(12 * v), malloc(12 * v), malloc(12 * v), malloc(12 * v),
                         malloc(sizeof(mat4) * j), malloc(sizeof(dualquat) * j), malloc(sizeof(palette_matrix) * j),
                         aligned_alloc(_Alignof(palette_columns), sizeof(palette_columns) * j),
                         aligned_alloc(_Alignof(palette_dualquat), sizeof(palette_dualquat) * j)};
    if (b->cpu_double && b->cpu_p && b->cpu_n && b->gpu_p && b->gpu_n && b->skin && b->dq && b->pm && b->pc && b->pd)
        return LAB_OK;
    gpu30_buffers_free(b);
    return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "GPU case", "%d vertices, %d joints", vertices, joints);
}

void gpu30_buffers_free(gpu30_buffers *b)
{
    free(b->cpu_double), free(b->cpu_p), free(b->cpu_n), free(b->gpu_p), free(b->gpu_n);
    free(b->skin), free(b->dq), free(b->pm), free(b->pc), free(b->pd);
    *b = (gpu30_buffers){0};
}

void gpu30_buffers_palettes(gpu30_buffers *b, int joints)
{
    palette_from_mat4(b->skin, joints, NULL, b->pm);
    palette_columns_from_matrices(b->pm, joints, b->pc);
    palette_from_dualquats(b->dq, joints, b->pd);
}

/* ---- the evidence ------------------------------------------------------------------------ */

static cJSON *renderer_json(const gpu30 *r)
{
    const gpu_info *i = &r->measured.info;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "GL_RENDERER", i->renderer);
    cJSON_AddStringToObject(o, "GL_VERSION", i->version);
    cJSON_AddStringToObject(o, "GL_SHADING_LANGUAGE_VERSION", i->glsl_version);
    cJSON_AddStringToObject(o, "egl_platform", i->egl_platform);
    cJSON_AddBoolToObject(o, "software_renderer", i->software);
    cJSON_AddStringToObject(o, "note", i->software ? "a software renderer: the CPU runs the shaders" : "a GPU");
    return o;
}

static cJSON *limits_json(const gpu30 *r)
{
    const gpu_info *i = &r->measured.info;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "GL_MAX_UNIFORM_BLOCK_SIZE", i->max_uniform_block_size);
    cJSON_AddNumberToObject(o, "uniform_joints_per_draw_lbs", r->measured.uniform_joints[SKIN_LBS]);
    cJSON_AddNumberToObject(o, "uniform_joints_per_draw_dqs", r->measured.uniform_joints[SKIN_DQS]);
    cJSON_AddNumberToObject(o, "GL_MAX_TEXTURE_SIZE", i->max_texture_size);
    cJSON_AddNumberToObject(o, "texture_joints_lbs", r->measured.texture_joints[SKIN_LBS]);
    cJSON_AddNumberToObject(o, "texture_joints_dqs", r->measured.texture_joints[SKIN_DQS]);
    cJSON_AddNumberToObject(o, "GL_MAX_SHADER_STORAGE_BLOCK_SIZE", i->max_ssbo_size);
    return o;
}

static cJSON *results_json(const gpu30 *r, const char *blend)
{
    cJSON *list = cJSON_CreateArray();
    for (int i = 0; i < GPU30_CASES; i++) {
        const gpu30_case *c = &r->measured.cases[i];
        for (int path = 0; path < GPU_PATH_COUNT; path++)
            for (int m = 0; m < 2; m++) {
                cJSON *o = cJSON_CreateObject();
                cJSON_AddStringToObject(o, "rig", gpu30_rig_name(c->rig));
                json_add_number(o, "angle_deg", c->angle_deg);
                cJSON_AddNumberToObject(o, "vertices", r->mesh[c->rig].vertex_count);
                cJSON_AddNumberToObject(o, "joints", r->mesh[c->rig].joint_count);
                cJSON_AddStringToObject(o, "path", gpu_path_name((gpu_path)path));
                cJSON_AddStringToObject(o, "method", skin_method_name((skin_method)m));
                char shaders[160];
                snprintf(shaders, sizeof shaders, "%s + %s", gpu_path_shaders((gpu_path)path), blend);
                cJSON_AddStringToObject(o, "shaders", shaders);
                json_add_number(o, "max_position_vs_cpu_float", c->error[path][m][GPU30_VS_FLOAT]);
                json_add_number(o, "max_position_vs_cpu_double", c->error[path][m][GPU30_VS_DOUBLE]);
                json_add_number(o, "max_normal_angle_vs_cpu_float", c->error[path][m][GPU30_NORMAL_ANGLE]);
                cJSON_AddItemToArray(list, o);
            }
    }
    return list;
}

static cJSON *fit_json(const gpu30 *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "joint_budget", r->joint_budget);
    for (int k = 0; k < 2; k++) {
        cJSON *s = cJSON_AddObjectToObject(o, k == 0 ? "split_random64" : "split_random2000");
        cJSON_AddNumberToObject(s, "joints", r->mesh[GPU30_RANDOM + k].joint_count);
        cJSON_AddNumberToObject(s, "parts", r->measured.split_parts[k]);
        cJSON_AddStringToObject(s, "path", gpu_path_name(r->measured.split_path[k]));
        cJSON_AddStringToObject(s, "compared_with", k == 0 ? "one draw, uniform block" : "one draw, texture palette");
        json_add_number(s, "max_difference_lbs", r->measured.split_difference[k][SKIN_LBS]);
        json_add_number(s, "max_difference_dqs", r->measured.split_difference[k][SKIN_DQS]);
    }
    cJSON *f = cJSON_AddObjectToObject(o, "texture_fallback_random64");
    json_add_number(f, "max_difference_vs_uniform_lbs", r->measured.fallback_difference[SKIN_LBS]);
    json_add_number(f, "max_difference_vs_uniform_dqs", r->measured.fallback_difference[SKIN_DQS]);
    cJSON *b = cJSON_AddObjectToObject(o, "random2000_texture_vs_cpu_float");
    json_add_number(b, "max_position_lbs", r->measured.big_vs_float[SKIN_LBS]);
    json_add_number(b, "max_position_dqs", r->measured.big_vs_float[SKIN_DQS]);
    cJSON_AddItemToObject(o, "uniform_block_2000_joints", json_rejection(r->measured.refused_uniform, LAB_ERR_LIMIT,
                                                                         &r->measured.refused_uniform_diag));
    cJSON_AddItemToObject(o, "joint_budget_3", json_rejection(r->measured.refused_budget, LAB_ERR_LIMIT, &r->measured.refused_budget_diag));
    return o;
}

lab_error gpu30_evidence(const gpu30 *r, const char *blend, output_batch *out, lab_diag *d)
{
    cJSON *root = json_evidence_root("lab30-gpu");
    cJSON_AddItemToObject(root, "renderer", renderer_json(r));
    cJSON_AddItemToObject(root, "limits", limits_json(r));
    cJSON *b = cJSON_AddObjectToObject(root, "bounds");
    json_add_number(b, "position_vs_cpu_float", GPU30_FLOAT_BOUND);
    json_add_number(b, "position_vs_cpu_double", GPU30_DOUBLE_BOUND);
    json_add_number(b, "normal_angle_vs_cpu_float", GPU30_NORMAL_BOUND);
    cJSON_AddItemToObject(root, "results", results_json(r, blend));
    cJSON_AddItemToObject(root, "when_the_palette_does_not_fit", fit_json(r));
    return output_batch_add_json(out, "gpu30.json", root, d);
}

/* ---- the report ---------------------------------------------------------------------------- */

/* The split and the fallback's rows, then the two refusals, each a line of its own whose
 * verdict is its check. */
void gpu30_report_fit(const gpu30 *r, FILE *out)
{
    const report_checks *c = &r->checks.fit;
    int next = 0;
    for (int k = 0; k < 2; k++) {
        fprintf(out, "  %s (%d joints) split by a budget of %d joints a draw: %d parts\n",
                gpu30_rig_name((gpu30_rig)(GPU30_RANDOM + k)), r->mesh[GPU30_RANDOM + k].joint_count, r->joint_budget,
                r->measured.split_parts[k]);
        for (int m = 0; m < 2 && next < c->count; m++)
            report_row(out, &c->items[next++]);
    }
    for (int i = 0; i < 4 && next < c->count; i++)
        report_row(out, &c->items[next++]);
    char msg[700];
    diag_format(&r->measured.refused_uniform_diag, msg, sizeof msg);
    fprintf(out, "  2000 joints in one uniform block: %s\n    %s\n",
            next < c->count && c->items[next].passed ? "refused" : "NOT REFUSED", msg);
    diag_format(&r->measured.refused_budget_diag, msg, sizeof msg);
    fprintf(out, "  a joint budget of 3: %s\n    %s\n",
            next + 1 < c->count && c->items[next + 1].passed ? "refused" : "NOT REFUSED", msg);
}

void gpu30_report_renderer(const gpu30 *r, FILE *out)
{
    const gpu_info *i = &r->measured.info;
    fprintf(out, "  GL_RENDERER   %s%s\n  GL_VERSION    %s\n  GLSL          %s\n  EGL           %s\n", i->renderer,
            i->software ? "  (software: the CPU runs the shaders)" : "", i->version, i->glsl_version, i->egl_platform);
    fprintf(out, "  GL_MAX_UNIFORM_BLOCK_SIZE %d bytes: %d joints a draw for LBS (48 bytes each), %d for DQS (32)\n",
            i->max_uniform_block_size, r->measured.uniform_joints[SKIN_LBS], r->measured.uniform_joints[SKIN_DQS]);
    fprintf(out, "  GL_MAX_TEXTURE_SIZE %d: a texture palette holds %d joints (LBS), %d (DQS)\n", i->max_texture_size,
            r->measured.texture_joints[SKIN_LBS], r->measured.texture_joints[SKIN_DQS]);
}

/* One line per case, path and method; its verdict is its three checks (against the CPU
 * float, the CPU double, the normal's angle), in the order lab30-gpu.c decided them. */
void gpu30_report_paths(const gpu30 *r, FILE *out)
{
    const report_checks *c = &r->checks.paths;
    int next = 0;
    fprintf(out, "  bounds: |GPU - CPU float| < %g, |GPU - CPU double| < %g, normal angle < %g rad\n",
            GPU30_FLOAT_BOUND, GPU30_DOUBLE_BOUND, GPU30_NORMAL_BOUND);
    for (int k = 0; k < GPU30_CASES; k++) {
        const gpu30_case *g = &r->measured.cases[k];
        for (int path = 0; path < GPU_PATH_COUNT; path++)
            for (int m = 0; m < 2; m++) {
                const double *e = g->error[path][m];
                bool pass = next + 3 <= c->count;
                for (int q = 0; q < 3 && next < c->count; q++)
                    pass &= c->items[next++].passed;
                fprintf(out, "  %-8s %3g deg  %-7s %s  vs float %-12.6g vs double %-12.6g normal %-12.6g %s\n",
                        gpu30_rig_name(g->rig), g->angle_deg, gpu_path_name((gpu_path)path), skin_method_name((skin_method)m),
                        e[GPU30_VS_FLOAT], e[GPU30_VS_DOUBLE], e[GPU30_NORMAL_ANGLE], pass ? "ok" : "FAIL");
            }
    }
}
