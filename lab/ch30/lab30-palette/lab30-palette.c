/* lab30-palette.c - Matrix palettes as engines use them (RTR4 vertex blending; Game Engine
 * Architecture 13.5), on chapter 30's cylinder.
 *
 * Concepts: the packed vertex (float32 position and normal, four 16-bit joint indices,
 * three stored weights, the fourth implied); the matrix palette K_j = G_j B_j^-1 rebuilt
 * per frame from cached inverse binds, as float 3x4 rows; merging model-to-world into the
 * palette versus instancing, where many instances share one palette and keep their own
 * model-to-world; the fast kernels (src/skin/fastskin.h) checked against the double path.
 *
 * Usage:  build/bin/lab30-palette [--threads N] [--simd scalar|sse2|avx2] OUTDIR
 *
 * Writes into OUTDIR (which must exist), all or nothing:
 *   palette30.png            a crowd: 20 instances of the twisted cylinder, 5 poses shared
 *                            by 4 instances each, every instance with its own model-to-world
 *   palette30.json           layouts and bytes per vertex, palette sizes, the packed path's
 *                            errors against the double path, the truncation report
 *   palette30-layouts.csv    memory per vertex for the layouts considered
 *   palette30-candidates.png RTR4's flowchart for one elbow vertex: its candidate positions
 *                            C_j p, their weighted sum (LBS), and where DQS puts it
 *
 * The evidence is computed on the portable scalar path, so it is the same on every
 * machine; --simd picks the level for the crowd, and the report checks it against scalar.
 * Exit codes: 0 success, 1 data rejected (an unavailable --simd level), 2 usage, 3 output.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "math/dualquat.h"
#include "math/linalg.h"
#include "math/quat.h"
#include "mesh/mesh.h"
#include "program/cli.h"
#include "program/output.h"
#include "skin/blend.h"
#include "skin/fastskin.h"
#include "skin/influences.h"
#include "skin/normals.h"
#include "skin/packed.h"

#include "palette30.h"
#include "rig30.h"
#include "rig30_cases.h"
#include "rig30_check.h"

#define LAB "lab30-palette"

/* ---- the stages: each takes what it reads, fills what it makes, and decides the checks
 * of the numbers it made --------------------------------------------------------------- */

/* The level must exist on this CPU; then the rig, packed as an engine packs it: float
 * position and normal, four 16-bit joints, three float weights (the 44-byte vertex). */
static lab_error pack_rig(const palette30_options *o, palette30 *r, lab_diag *d)
{
    if (!simd_level_available((simd_level)o->level))
        return diag_fail(d, LAB_ERR_UNSUPPORTED, "--simd", "level %s is not available on this CPU",
                         simd_level_name((simd_level)o->level));
    lab_error e = rig30_rig_build(&r->rig, RIG30_TWIST, NULL, d);
    if (e == LAB_OK)
        e = mesh_unique_edges(r->rig.bind.triangles, r->rig.bind.triangle_count, &r->edges, &r->edge_count, d);
    if (e != LAB_OK)
        return e;
    rig30_bind_normals(&r->rig, r->bind_normals);
    return packed_mesh_build(r->rig.bind.vertices, r->bind_normals, &r->rig.influences, PALETTE30_K,
                             &r->packed, &r->truncation, d);
}

/* The palette of one frame, from the joints' locals (cached inverse binds). */
static lab_error build_frame(const rig30_rig *rig, double theta, palette30_frame *f, lab_diag *d)
{
    lab_error e = rig30_palettes(rig, theta, f->skin, f->dq, d); /* K_j = G_j B_j^-1, as matrices and DQs */
    palette_from_mat4(f->skin, RIG30_JOINTS, NULL, f->pm);
    palette_columns_from_matrices(f->pm, RIG30_JOINTS, f->pc);
    palette_from_dualquats(f->dq, RIG30_JOINTS, f->pd);
    return e;
}

/* "Vertex blending" through a matrix palette (RTR4 4.4; Game Engine Architecture 13.5), in
 * floats, one packed vertex at a time: its three stored weights and the implied fourth,
 *     w_4 = 1 - w_1 - w_2 - w_3,
 * the blended 3x4 matrix B = sum_i w_i K_{j_i} of the palette entries its joints index,
 * then p' = B p~ and n' = normalize(B3x3 n). The library's fastskin kernels are the fast
 * twins, held to these lines by test_lab30_palette; this is their portable scalar path. */
static void palette_lbs(const packed_mesh *m, const palette_columns *K, float *out_p, float *out_n)
{
    const int k = m->influences; /* the 44-byte vertex: float weights, 16-bit joints */
    for (int v = 0; v < m->count; v++) {
        float w[PACKED_MAX_INFLUENCES], sum = 0.0f, b[4][4] = {{0}};
        for (int i = 0; i < k - 1; i++) {
            w[i] = m->weight[v * (k - 1) + i];
            sum += w[i];
        }
        w[k - 1] = 1.0f - sum; /* the implied weight */
        for (int i = 0; i < k; i++) { /* B, column by column */
            const palette_columns *entry = &K[m->joint[v * k + i]];
            for (int c = 0; c < 4; c++)
                for (int r = 0; r < 3; r++)
                    b[c][r] += w[i] * entry->c[c][r];
        }
        const float *p = m->position + 3 * v, *n = m->normal + 3 * v;
        float *op = out_p + 3 * v, *on = out_n + 3 * v;
        for (int r = 0; r < 3; r++) {
            op[r] = b[0][r] * p[0] + b[1][r] * p[1] + b[2][r] * p[2] + b[3][r];
            on[r] = b[0][r] * n[0] + b[1][r] * n[1] + b[2][r] * n[2];
        }
        float length = sqrtf(on[0] * on[0] + on[1] * on[1] + on[2] * on[2]);
        for (int r = 0; length > 0.0f && r < 3; r++)
            on[r] /= length;
    }
}

/* The double reference for one vertex: position by skin_deform's method, normal as the
 * engine's kernel does it (blended 3x3 for LBS, blended rotation for DQS). */
static lab_error reference_normals(const palette30 *r, const palette30_frame *f, skin_method method, vec3 *out,
                                   lab_diag *d)
{
    if (method == SKIN_LBS)
        return normals_skin(r->bind_normals, &r->rig.influences, f->skin, RIG30_JOINTS, NORMALS_RIGID, out, d);
    for (int v = 0; v < PALETTE30_VERTS; v++) { /* heaviest first, as packing orders them: the same pivot */
        int joint[2] = {r->rig.influences.joint[2 * v], r->rig.influences.joint[2 * v + 1]};
        double weight[2] = {r->rig.influences.weight[2 * v], r->rig.influences.weight[2 * v + 1]};
        dualquat unit;
        skin_sort_heaviest_first(joint, weight, 2);
        lab_error e = skin_dqs_blend(joint, weight, 2, f->dq, true, &unit, "reference", d);
        if (e != LAB_OK)
            return e;
        out[v] = quat_rotate(unit.real, r->bind_normals[v]);
    }
    return LAB_OK;
}

/* One pose through both paths in floats, against the double path: LBS by this program's
 * palette_lbs, DQS by the library's scalar kernel (lab30-dqs writes DQS out). */
static lab_error compare_pose(palette30 *r, int pose, skin_method method, lab_diag *d)
{
    const palette30_frame *f = &r->frame[pose];
    vec3 ref_p[PALETTE30_VERTS], ref_n[PALETTE30_VERTS];
    skin_blend blend = {.method = method, .palette_dq = f->dq};
    lab_error e = skin_deform(r->rig.bind.vertices, &r->rig.influences, f->skin, RIG30_JOINTS, blend,
                              ref_p, d);
    float pos[3 * PALETTE30_VERTS], nor[3 * PALETTE30_VERTS];
    fastskin_job job = {&r->packed, f->pc, f->pd, RIG30_JOINTS, method, FASTSKIN_UNIT_NORMALS, 1, SIMD_SCALAR, pos, nor, NULL};
    if (e == LAB_OK && method == SKIN_LBS)
        palette_lbs(&r->packed, f->pc, pos, nor);
    else if (e == LAB_OK)
        e = fastskin_run(&job, d);
    if (e == LAB_OK)
        e = reference_normals(r, f, method, ref_n, d);
    if (e != LAB_OK)
        return e;
    for (int v = 0; v < PALETTE30_VERTS; v++) {
        vec3 fp = vec3_make(pos[3 * v], pos[3 * v + 1], pos[3 * v + 2]);
        vec3 fn = vec3_make(nor[3 * v], nor[3 * v + 1], nor[3 * v + 2]);
        r->error[method][pose][0] = max_or_nan(r->error[method][pose][0], vec3_length(vec3_sub(fp, ref_p[v])));
        r->error[method][pose][1] = max_or_nan(r->error[method][pose][1], vec3_length(vec3_sub(fn, ref_n[v])));
    }
    if (method == SKIN_LBS)
        memcpy(r->crowd_model[pose], pos, sizeof pos);
    return LAB_OK;
}

/* Each pose's palette, and the packed float path against the double one: the checks. */
static lab_error compare_poses(palette30 *r, report_checks *checks, lab_diag *d)
{
    lab_error e = LAB_OK;
    for (int pose = 0; e == LAB_OK && pose < PALETTE30_POSES; pose++) {
        e = build_frame(&r->rig, deg_to_rad(palette30_pose_deg[pose]), &r->frame[pose], d);
        for (int m = 0; e == LAB_OK && m < 2; m++)
            e = compare_pose(r, pose, (skin_method)m, d);
    }
    for (int m = 0; e == LAB_OK && m < 2; m++)
        for (int p = 0; p < PALETTE30_POSES; p++) {
            char label[64];
            snprintf(label, sizeof label, "%s %3g deg position", skin_method_name((skin_method)m), palette30_pose_deg[p]);
            check_bound(checks, label, r->error[m][p][0], PALETTE30_TOLERANCE);
            snprintf(label, sizeof label, "%s %3g deg normal", skin_method_name((skin_method)m), palette30_pose_deg[p]);
            check_bound(checks, label, r->error[m][p][1], PALETTE30_TOLERANCE);
        }
    return e;
}

/* Instance i: pose i % PALETTE30_POSES, placed on a 5 x 4 grid, turned and scaled on its own. */
static mat4 instance_world(int i)
{
    int col = i % PALETTE30_POSES, row = i / PALETTE30_POSES;
    double yaw = 0.4 * row + 0.15 * col, scale = 0.8 + 0.1 * ((i * 7) % 5);
    return mat4_mul(mat4_mul(mat4_translate(3.2 * col, 3.6 * row, 0), mat4_rotate_z(yaw)),
                    mat4_scale(scale, scale, scale));
}

/* The crowd: one skinning per pose with the chosen level and threads, then each instance's
 * own model-to-world; checked against scalar and against merged palettes W K_j. */
static lab_error build_crowd(const palette30_options *o, palette30 *r, report_checks *checks, lab_diag *d)
{
    float fast[3 * PALETTE30_VERTS], merged[3 * PALETTE30_VERTS];
    fastskin_pool *pool = NULL; /* threads started once for the whole crowd */
    lab_error e = fastskin_pool_create(o->threads - 1, &pool, d);
    for (int pose = 0; e == LAB_OK && pose < PALETTE30_POSES; pose++) {
        fastskin_job job = {&r->packed, r->frame[pose].pc, NULL, RIG30_JOINTS, SKIN_LBS, FASTSKIN_NO_NORMALS,
                            o->threads, (simd_level)o->level, fast, NULL, pool};
        e = fastskin_run(&job, d);
        for (int k = 0; e == LAB_OK && k < 3 * PALETTE30_VERTS; k++)
            r->level_difference = max_or_nan(r->level_difference, fabs((double)fast[k] - r->crowd_model[pose][k]));
        for (int c = 0; e == LAB_OK && c < PALETTE30_COPIES; c++) {
            int i = c * PALETTE30_POSES + pose;
            r->world[i] = instance_world(i);
            for (int v = 0; v < PALETTE30_VERTS; v++) {
                const float *p = &r->crowd_model[pose][3 * v];
                r->crowd_world[i][v] = mat4_transform_point(r->world[i], vec3_make(p[0], p[1], p[2]));
            }
            palette_matrix pm[RIG30_JOINTS];
            palette_columns pc[RIG30_JOINTS];
            palette_from_mat4(r->frame[pose].skin, RIG30_JOINTS, &r->world[i], pm);
            palette_columns_from_matrices(pm, RIG30_JOINTS, pc);
            fastskin_job m = {&r->packed, pc, NULL, RIG30_JOINTS, SKIN_LBS, FASTSKIN_NO_NORMALS, 1, SIMD_SCALAR,
                              merged, NULL, NULL};
            e = fastskin_run(&m, d);
            for (int v = 0; e == LAB_OK && v < PALETTE30_VERTS; v++)
                r->instancing_difference = max_or_nan(
                    r->instancing_difference,
                    vec3_length(vec3_sub(r->crowd_world[i][v],
                                         vec3_make(merged[3 * v], merged[3 * v + 1], merged[3 * v + 2]))));
        }
    }
    fastskin_pool_destroy(pool);
    if (e == LAB_OK) {
        char label[64];
        check_bound(checks, "shared palette + own world vs W K_j", r->instancing_difference, PALETTE30_TOLERANCE);
        snprintf(label, sizeof label, "%s, %d threads vs scalar", simd_level_name((simd_level)o->level), o->threads);
        check_bound(checks, label, r->level_difference, PALETTE30_TOLERANCE);
    }
    return e;
}

/* RTR4's flowchart for one vertex: the palette takes it to n candidate positions C_j p,
 * then the weights blend them. One bend-rig vertex on the inner side, weights 2/3 and 1/3,
 * the elbow at 90 degrees; the blend against the sum by hand. */
static lab_error candidate_positions(rig30_candidates *c, report_checks *checks, lab_diag *d)
{
    lab_error e = rig30_candidates_run(deg_to_rad(90), c, d);
    if (e == LAB_OK)
        check_bound(checks, "|LBS - 2/3 C_0 p - 1/3 C_1 p|", vec3_length(vec3_sub(c->lbs, c->lbs_by_hand)),
                    PALETTE30_TOLERANCE);
    return e;
}


/* ---- main: the stages in the report's order, then the figures, the evidence and the
 * report ------------------------------------------------------------------------------ */

int main(int argc, char **argv)
{
    const char *levels[SIMD_LEVEL_COUNT + 1] = {NULL}; /* simd_level order */
    for (int l = 0; l < SIMD_LEVEL_COUNT; l++)
        levels[l] = simd_level_name((simd_level)l);
    static palette30 r = {.options = {.threads = 2}};
    palette30_options *o = &r.options;
    /* The crowd's level: avx2 where the CPU has it, not the library's default for LBS
     * positions (avx512 on a CPU with it). The record of the checks names the level and its
     * difference from scalar (avx2 5.96e-8, avx512 1.19e-7), and the committed record must
     * be what a fresh run writes on any machine with AVX2. */
    o->level = (int)(simd_level_available(SIMD_AVX2) ? SIMD_AVX2 : simd_best_level());
    const cli_option options[] = {
        {"--threads", CLI_INT, &o->threads, .min = 1, .max = FASTSKIN_MAX_THREADS, .value_name = "N",
         .help = "worker threads for the crowd (default 2)"},
        {"--simd", CLI_CHOICE, &o->level, .choices = levels,
         .help = "kernel level for the crowd (default avx2 where the CPU has it, else\n"
                 "the best it has: the committed record of the checks is made with it)"},
    };
    const cli_program program = {LAB, "Matrix palettes: chapter 30's cylinder in the engine's packed float format.",
                                 options, CLI_COUNT(options), {"OUTDIR"}, 1, NULL};
    cli_run run;
    int code = cli_begin(&run, &program, argc, argv);
    if (code != CLI_RUN)
        return code;

    lab_diag *d = &run.diag;
    palette30_checks *checks = &r.checks;
    lab_error e = pack_rig(o, &r, d); /* 4 joints, 3 weights, floats */
    if (e == LAB_OK) /* K_j = G_j B_j^-1 per frame, the packed path against the double one */
        e = compare_poses(&r, &checks->poses, d);
    if (e == LAB_OK) /* 20 instances share 5 palettes */
        e = build_crowd(o, &r, &checks->crowd, d);
    if (e == LAB_OK) /* C_j p, then the blend */
        e = candidate_positions(&r.candidates, &checks->candidates, d);
    if (e == LAB_OK)
        e = palette30_figures(&r, &run.out, d);
    if (e == LAB_OK)
        e = palette30_evidence(&r, &run.out, d);

    if (e == LAB_OK &&
        cli_report(&run, "Matrix palettes as engines use them: the cylinder through packed float32 vertices")) {
        cli_section(&run, "Layouts: bytes per vertex", NULL);
        palette30_report_layouts(&r, stdout);
        cli_section(&run, "Packed float path (scalar level) against the double path", &checks->poses);
        palette30_report_poses(&r, stdout);
        cli_section(&run, "The crowd: instancing against merged palettes, and the kernel level", &checks->crowd);
        palette30_report_crowd(&r, stdout);
        cli_section(&run, "RTR4's flowchart for one vertex (palette30-candidates.png)", &checks->candidates);
        palette30_report_candidates(&r, stdout);
    }
    code = cli_end(&run, e);
    palette30_free(&r);
    return code;
}
