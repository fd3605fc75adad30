/* lab30-gpu.c - GPU skinning beside the CPU: the same matrix palette in GLSL shaders,
 * checked against the CPU and drawn (the vertex-blending text 001 and the LBS-versus-DQS
 * text 003: RTR4's vertex shader with the bone matrices in constants or textures, a
 * compute pass that skins once for several passes, model splitting).
 *
 * Concepts: the palette a shader reads, from a uniform block or from float textures; the
 * skinned vertices captured by transform feedback or written by a compute shader; what
 * one draw can hold (GL_MAX_UNIFORM_BLOCK_SIZE in joints) and what to do beyond it (the
 * texture palette, or splitting the mesh into parts whose joints fit); the renderer, so
 * nobody mistakes Mesa's llvmpipe (the CPU running the shaders) for a GPU.
 *
 * Usage:  build/bin/lab30-gpu [--joint-budget N] OUTDIR
 *
 * Writes into OUTDIR (which must exist), all or nothing:
 *   gpu30.json   the renderer and its limits; for every rig, pose, path and method the
 *                largest |GPU - CPU float| and |GPU - CPU double| of the positions and the
 *                largest angle between GPU and CPU normals, with the shaders used; the
 *                split and the texture fallback against one draw; the refused cases
 *   gpu30.png    the GPU-skinned cylinder (twist 180) and bend (90) by LBS, through each
 *                path, beside the CPU, drawn by our own rasterizer
 *
 * Exit codes: 0 success; 1 a check failed, or the machine has no EGL display or OpenGL ES
 * 3.1 context, or the driver refused a shader (the message names what, with the driver's
 * log); 2 usage; 3 output.
 */
#define _POSIX_C_SOURCE 200809L
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
#include "program/cli.h"
#include "skin/blend.h"
#include "skin/fastskin.h"
#include "skin/normals.h"
#include "skin/packed.h"
#include "skin/rig_random.h"

#include "gpu30.h"
#include "rig30.h"
#include "rig30_check.h"

#define LAB "lab30-gpu"

/* ---- the formula, in GLSL -------------------------------------------------------------- */

/* "GPU skinning" (001, RTR4 4.4's vertex shader; 003 for DQS): the chapter's blends as the
 * shaders run them, one vertex with four joints (heaviest first) and three stored weights.
 * The library's paths wrap this text in where the palette is (palette_row(j, r): row r of
 * C_j as a 3x4 matrix; palette_real(j), palette_dual(j): q^_j's parts as (w, x, y, z)) and
 * in the entry point that captures the result; its own shaders/skin_blend.glsl is the same
 * blend, and test_lab30_gpu holds the two together. */
static const char skin_blend_glsl[] =
    "// lab30-gpu.c's blend (the chapter's formulas)\n"
    "vec4 vertex_weights(vec3 stored) // the implied fourth: w3 = 1 - (w0 + w1 + w2), in the CPU's order\n"
    "{\n"
    "    return vec4(stored, 1.0 - ((stored.x + stored.y) + stored.z));\n"
    "}\n"
    "#ifndef METHOD_DQS\n"
    "// LBS: M = sum_i w_i C_i; p' = M (p, 1); n' = normalize(M3x3 n)\n"
    "void skin(uvec4 joint, vec3 stored_weights, vec3 p, vec3 n, out vec3 out_p, out vec3 out_n)\n"
    "{\n"
    "    vec4 w = vertex_weights(stored_weights);\n"
    "    vec4 m0 = vec4(0.0), m1 = vec4(0.0), m2 = vec4(0.0); // the rows of M\n"
    "    for (int i = 0; i < 4; i++) {\n"
    "        m0 += w[i] * palette_row(joint[i], 0);\n"
    "        m1 += w[i] * palette_row(joint[i], 1);\n"
    "        m2 += w[i] * palette_row(joint[i], 2);\n"
    "    }\n"
    "    vec4 p1 = vec4(p, 1.0);\n"
    "    out_p = vec3(dot(m0, p1), dot(m1, p1), dot(m2, p1));\n"
    "    out_n = normalize(vec3(dot(m0.xyz, n), dot(m1.xyz, n), dot(m2.xyz, n)));\n"
    "}\n"
    "#else\n"
    "// DQS: q^ = sum_i s_i w_i q^_i with s_i = -1 where q_0i . q_00 < 0 (the heaviest's side),\n"
    "// divided by |q_0|; p' = p + 2 d0 x (d0 x p + a0 p) + 2 (a0 de - ae d0 + d0 x de) with\n"
    "// q_0 = (a0, d0), q_e = (ae, de); the normal only rotated\n"
    "void skin(uvec4 joint, vec3 stored_weights, vec3 p, vec3 n, out vec3 out_p, out vec3 out_n)\n"
    "{\n"
    "    vec4 w = vertex_weights(stored_weights);\n"
    "    vec4 pivot = palette_real(joint[0]);\n"
    "    vec4 real = vec4(0.0), dual = vec4(0.0);\n"
    "    for (int i = 0; i < 4; i++) {\n"
    "        vec4 q = palette_real(joint[i]);\n"
    "        float s = dot(q, pivot) < 0.0 ? -w[i] : w[i];\n"
    "        real += s * q;\n"
    "        dual += s * palette_dual(joint[i]);\n"
    "    }\n"
    "    float norm = length(real);\n"
    "    real /= norm;\n"
    "    dual /= norm;\n"
    "    float a0 = real.x, ae = dual.x;\n"
    "    vec3 d0 = real.yzw, de = dual.yzw;\n"
    "    out_p = p + 2.0 * cross(d0, cross(d0, p) + a0 * p) + 2.0 * (a0 * de - ae * d0 + cross(d0, de));\n"
    "    out_n = n + 2.0 * cross(d0, cross(d0, n) + a0 * n);\n"
    "}\n"
    "#endif\n";
#define SKIN_BLEND_NAME "lab30-gpu.c's blend"

/* ---- the machine --------------------------------------------------------------------------- */

/* What the GPU work holds, in the child process only. */
typedef struct {
    gpu30 *r;
    const char *blend;               /* the GLSL of skin() */
    gpu_context *gpu;
    gpu_skinner *skinner;
} gpu_session;

/* A headless OpenGL ES 3.1 context and every program, built once with the blend; each rig
 * uploaded whole and split by the budget. */
static lab_error open_gpu(gpu_session *g, lab_diag *d)
{
    gpu30 *r = g->r;
    lab_error e = gpu_open(&g->gpu, d);
    if (e == LAB_OK) {
        r->measured.info = *gpu_get_info(g->gpu);
        e = gpu_skinner_create(g->gpu, g->blend, &g->skinner, d);
    }
    for (int method = 0; e == LAB_OK && method < 2; method++) {
        r->measured.uniform_joints[method] = gpu_uniform_joints(g->skinner, (skin_method)method);
        r->measured.texture_joints[method] = gpu_texture_joints(g->skinner, (skin_method)method);
    }
    for (int k = 0; e == LAB_OK && k < GPU30_RIGS; k++) {
        e = gpu_mesh_upload(g->skinner, &r->mesh[k].packed, 0, &r->mesh[k].whole, d);
        if (e == LAB_OK)
            e = gpu_mesh_upload(g->skinner, &r->mesh[k].packed, r->joint_budget, &r->mesh[k].split, d);
    }
    return e;
}

/* ---- the rigs ------------------------------------------------------------------------------ */

/* Chapter 30's cylinder on both rigs, the random 64-joint rig, and a skeleton of 2000
 * joints, larger than a uniform block holds; each packed as engines do (K = 4). */
static lab_error build_rigs(gpu30 *r, lab_diag *d)
{
    lab_error e = rig30_build_both(r->rigs, &r->edges, &r->edge_count, d);
    for (int k = 0; e == LAB_OK && k < 2; k++) /* the figure's arrays hold the chapter's cylinder */
        if (r->rigs[k].bind.vertex_count != GPU30_FIGURE_VERTICES)
            e = diag_fail(d, LAB_ERR_LIMIT, "figure", "%d vertices, not the %d of the chapter's cylinder",
                          r->rigs[k].bind.vertex_count, GPU30_FIGURE_VERTICES);
    if (e == LAB_OK)
        e = rig_random_build(GPU30_RANDOM_VERTICES, GPU30_RANDOM_JOINTS, 4, 30, &r->random, d);
    if (e == LAB_OK)
        e = rig_random_build(GPU30_BIG_VERTICES, GPU30_BIG_JOINTS, 4, 31, &r->big, d);
    for (int k = 0; e == LAB_OK && k < 2; k++) { /* the cylinder's radial normals */
        if (!(r->cylinder_normals[k] = malloc(sizeof(vec3) * (size_t)r->rigs[k].bind.vertex_count)))
            return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "normals", "%d vertices", r->rigs[k].bind.vertex_count);
        rig30_bind_normals(&r->rigs[k], r->cylinder_normals[k]);
        r->mesh[k] = (gpu30_mesh){.vertex_count = r->rigs[k].bind.vertex_count, .joint_count = RIG30_JOINTS,
                                  .bind = r->rigs[k].bind.vertices, .influences = &r->rigs[k].influences,
                                  .normals = r->cylinder_normals[k]};
    }
    const rig_random *random[2] = {&r->random, &r->big};
    for (int k = 0; e == LAB_OK && k < 2; k++)
        r->mesh[GPU30_RANDOM + k] = (gpu30_mesh){.vertex_count = random[k]->vertex_count,
                                                 .joint_count = random[k]->joint_count, .bind = random[k]->positions,
                                                 .influences = &random[k]->in, .normals = random[k]->normals};
    for (int k = 0; e == LAB_OK && k < GPU30_RIGS; k++)
        e = packed_mesh_build(r->mesh[k].bind, r->mesh[k].normals, r->mesh[k].influences, 4, &r->mesh[k].packed,
                              NULL, d);
    return e;
}

/* ---- one pose through the CPU and the GPU ------------------------------------------------------ */

/* The palette of a case in doubles: the rig's pose, or the random rig's own. */
static lab_error case_palette(const gpu30 *r, const gpu30_case *c, mat4 *skin, dualquat *dq, lab_diag *d)
{
    if (c->rig >= GPU30_RANDOM) {
        const rig_random *g = c->rig == GPU30_RANDOM ? &r->random : &r->big;
        memcpy(skin, g->skin, sizeof(mat4) * (size_t)g->joint_count);
        memcpy(dq, g->dq, sizeof(dualquat) * (size_t)g->joint_count);
        return LAB_OK;
    }
    return rig30_palettes(&r->rigs[c->rig], deg_to_rad(c->angle_deg), skin, dq, d);
}

/* One case, one method: the double chapter path, the CPU float kernel (scalar, unit
 * normals, as the shaders normalise), then each GPU path against both. */
static lab_error run_case_method(gpu_session *g, gpu30_case *c, skin_method method, gpu30_buffers *b, lab_diag *d)
{
    gpu30 *r = g->r;
    const gpu30_mesh *m = &r->mesh[c->rig];
    skin_blend blend = {.method = method, .palette_dq = b->dq};
    lab_error e = skin_deform(m->bind, m->influences, b->skin, m->joint_count, blend, b->cpu_double, d);
    fastskin_job cpu = {&m->packed, b->pc, b->pd, m->joint_count, method, FASTSKIN_UNIT_NORMALS, 1, SIMD_SCALAR,
                        b->cpu_p, b->cpu_n, NULL};
    if (e == LAB_OK)
        e = fastskin_run(&cpu, d);
    for (int path = 0; e == LAB_OK && path < GPU_PATH_COUNT; path++) {
        gpu_skin_job job = {m->whole, (gpu_path)path, method, b->pm, b->pd, m->joint_count, b->gpu_p, b->gpu_n};
        e = gpu_skin_run(g->skinner, &job, NULL, d);
        double *err = c->error[path][method];
        for (int v = 0; e == LAB_OK && v < m->vertex_count; v++) {
            vec3 gp = vec3_make(b->gpu_p[3 * v], b->gpu_p[3 * v + 1], b->gpu_p[3 * v + 2]);
            vec3 cp = vec3_make(b->cpu_p[3 * v], b->cpu_p[3 * v + 1], b->cpu_p[3 * v + 2]);
            vec3 gn = vec3_make(b->gpu_n[3 * v], b->gpu_n[3 * v + 1], b->gpu_n[3 * v + 2]);
            vec3 cn = vec3_make(b->cpu_n[3 * v], b->cpu_n[3 * v + 1], b->cpu_n[3 * v + 2]);
            err[GPU30_VS_FLOAT] = max_or_nan(err[GPU30_VS_FLOAT], vec3_length(vec3_sub(gp, cp)));
            err[GPU30_VS_DOUBLE] = max_or_nan(err[GPU30_VS_DOUBLE], vec3_length(vec3_sub(gp, b->cpu_double[v])));
            err[GPU30_NORMAL_ANGLE] = max_or_nan(err[GPU30_NORMAL_ANGLE], deg_to_rad(normals_angle_deg(gn, cn)));
        }
        /* the figure: twist 180 and bend 90 by LBS, the CPU double panel first */
        int fig = c->rig == GPU30_TWIST && c->angle_deg == 180 ? 0 : c->rig == GPU30_BEND && c->angle_deg == 90 ? 1 : -1;
        if (e == LAB_OK && fig >= 0 && method == SKIN_LBS) {
            for (int k = 0; k < 2; k++) {
                vec3 *dst = r->measured.figure[fig][k == 0 ? 0 : 1 + path];
                for (int v = 0; v < m->vertex_count; v++) /* the rig's, checked in build_rigs */
                    dst[v] = k == 0 ? b->cpu_double[v]
                                       : vec3_make(b->gpu_p[3 * v], b->gpu_p[3 * v + 1], b->gpu_p[3 * v + 2]);
            }
        }
    }
    return e;
}

/* Every case (the crowd's five twists, two bends, the random rig), both methods, every path. */
static lab_error skin_every_case(gpu_session *g, lab_diag *d)
{
    gpu30 *r = g->r;
    int n = 0;
    for (int i = 0; i < GPU30_TWIST_POSES; i++)
        r->measured.cases[n++] = (gpu30_case){GPU30_TWIST, gpu30_twist_deg[i], {{{0}}}};
    for (int i = 0; i < GPU30_BEND_POSES; i++)
        r->measured.cases[n++] = (gpu30_case){GPU30_BEND, gpu30_bend_deg[i], {{{0}}}};
    r->measured.cases[n++] = (gpu30_case){GPU30_RANDOM, 0, {{{0}}}};
    lab_error e = LAB_OK;
    for (int i = 0; e == LAB_OK && i < GPU30_CASES; i++) {
        gpu30_case *c = &r->measured.cases[i];
        const gpu30_mesh *m = &r->mesh[c->rig];
        gpu30_buffers b;
        e = gpu30_buffers_alloc(m->vertex_count, m->joint_count, &b, d);
        if (e != LAB_OK)
            break;
        e = case_palette(r, c, b.skin, b.dq, d);
        gpu30_buffers_palettes(&b, m->joint_count);
        for (int method = 0; e == LAB_OK && method < 2; method++)
            e = run_case_method(g, c, (skin_method)method, &b, d);
        gpu30_buffers_free(&b);
    }
    return e;
}

/* ---- when the palette does not fit one draw ----------------------------------------------- */

/* ---- the GPU work, in a child process ------------------------------------------------------- */

/* The child's side: everything that calls the driver, then what it measured, whole. The
 * context and the GL objects live and die with the child. */
static lab_error gpu_work(void *context, bytes *result, lab_diag *d)
{
    gpu_session *g = context;
    gpu30 *r = g->r;
    lab_error e = open_gpu(g, d);
    if (e == LAB_OK)
        e = skin_every_case(g, d);
    if (e == LAB_OK)
        e = gpu30_split_oversized_palettes(g->r, g->skinner, d);
    if (e == LAB_OK)
        bytes_append(result, &r->measured, sizeof r->measured);
    for (int k = 0; k < GPU30_RIGS; k++) {
        gpu_mesh_free(r->mesh[k].whole), gpu_mesh_free(r->mesh[k].split);
        r->mesh[k].whole = r->mesh[k].split = NULL;
    }
    gpu_skinner_free(g->skinner), gpu_close(g->gpu);
    g->skinner = NULL, g->gpu = NULL;
    return e;
}

/* A driver that aborts or crashes (inside glvnd, LLVM or Mesa, say when an allocation
 * fails there) takes only the child down: the program reports it as LAB_ERR_GPU, with the
 * signal, and writes nothing. The measures come back whole into r->measured. */
static lab_error skin_on_gpu(gpu30 *r, const char *blend, lab_diag *d)
{
    gpu_session g = {r, blend, NULL, NULL};
    bytes result = {0};
    lab_error e = child_run("the GPU work (EGL, GLES and the driver)", gpu_work, &g, &result, LAB_ERR_GPU, d);
    if (e == LAB_OK && result.len != sizeof r->measured)
        e = diag_fail(d, LAB_ERR_GPU, "the GPU work", "%zu bytes measured, not %zu", result.len, sizeof r->measured);
    if (e == LAB_OK)
        memcpy(&r->measured, result.data, sizeof r->measured);
    bytes_free(&result);
    return e;
}

/* ---- main: the stages, then the figure, the evidence and the report ------------------- */

int main(int argc, char **argv)
{
    static gpu30 r = {.joint_budget = GPU30_DEFAULT_BUDGET};
    const cli_option options[] = {
        {"--joint-budget", CLI_INT, &r.joint_budget, .min = 4, .max = 1 << 20, .value_name = "N",
         .help = "joints one draw of a split mesh may use (default 16): the random rigs are split\n"
                 "into parts of at most N joints, each drawn with its own small palette"},
    };
    const cli_program program = {LAB, "GPU skinning: the palette in GLSL, checked against the CPU.", options, CLI_COUNT(options),
                                 {"OUTDIR"}, 1, NULL};
    cli_run run;
    int code = cli_begin(&run, &program, argc, argv);
    if (code != CLI_RUN)
        return code;

    lab_diag *d = &run.diag;
    /* the cylinder's two rigs, a random 64-joint rig, a 2000-joint one; then, in a child:
     * EGL, GLES 3.1, the shaders with this file's blend, every path and method */
    lab_error e = build_rigs(&r, d);
    if (e == LAB_OK)
        e = skin_on_gpu(&r, skin_blend_glsl, d);
    if (e == LAB_OK) {
        gpu30_check_measured(&r, &r.checks.paths, &r.checks.fit);
        e = gpu30_figure(&r, &run.out, d); /* gpu30_figures.c */
    }
    if (e == LAB_OK)
        e = gpu30_evidence(&r, SKIN_BLEND_NAME, &run.out, d);

    if (e == LAB_OK && cli_report(&run, "GPU skinning beside the CPU: the same palette in GLSL shaders")) {
        cli_section(&run, "The renderer and its limits", NULL);
        gpu30_report_renderer(&r, stdout);
        cli_section(&run, "Every path and method against the CPU (positions; normals by angle)", &r.checks.paths);
        gpu30_report_paths(&r, stdout);
        cli_section(&run, "When the palette does not fit one draw", &r.checks.fit);
        gpu30_report_fit(&r, stdout);
    }
    code = cli_end(&run, e);
    gpu30_free(&r);
    return code;
}
