/* lab30-weights.c - Where weights come from: automatic weights beside the chapter's hand
 * weights (chapter 30 sets w_1 = z/2 by hand and says it does not generate weights; the
 * weights article, 002, asks where real tools get theirs).
 *
 * Concepts. Bone heat (Baran and Popovic, SIGGRAPH 2007, section 4): each bone's weights
 * are the steady state of heat that diffuses over the surface from the vertices nearest to
 * that bone,
 *
 *     (-L + M H) w_j = M H p_j                         (paper_heat below; src/weights/heat.h)
 *
 * with L the cotangent Laplacian, M the vertices' mixed Voronoi areas, H_ii = k c / d_i^2
 * (d_i: the distance to the nearest visible bone, k bones tied at it) and p_j(i) = 1 / k
 * where bone j is one of them. One sparse Cholesky factorisation (CHOLMOD), one solve per
 * bone. The weights then sum to 1 and are non-negative by the structure of the system;
 * the program checks both instead of normalising. Blender's "With Automatic Weights" is a
 * variant of it, not the paper's system: src/weights/heat.h lists every difference, and the program
 * computes both (the sets "heat" and "blender"; make blender-check compares the second
 * with Blender itself).
 *
 * On the chapter's cylinder the paper's system has a closed form: by symmetry every ring
 * has one weight, and the rows of a ring reduce to the three-point second difference in z,
 * (w_{r+1} - 2 w_r + w_{r-1}) / h^2 = k^2 (w_r - p_r), k^2 = c / R^2, whose solutions are
 * cosh(mu z) with cosh(mu h) = 1 + k^2 h^2 / 2 (the open ends mirror: w_{-1} = w_1). The
 * program compares every vertex with it, and with the continuum's cosh(k z).
 *
 * Bounded biharmonic weights (Jacobson et al., SIGGRAPH 2011; src/weights/bbw.h): each joint's
 * weights minimise 1/2 w^T L M^-1 L w with 0 <= w <= 1 and w fixed on the handles (here
 * the end rings), by active sets over CHOLMOD factorisations. The harmonic weights of the
 * same handles are exactly z/2; the biharmonic ones are the S-curve of a 9 x 9 ring
 * system the program solves on its own.
 *
 * Then every method on two assets an artist weighted, the Khronos samples RiggedSimple and
 * RiggedFigure, beside the artist's weights, skinned over the asset's animation, and cut to
 * the 4 (or 8) influences an engine keeps. --asset IN does that for any skinned asset and
 * writes it back with its new JOINTS_n / WEIGHTS_n (src/gltf/gltf_rewrite.h).
 *
 * Usage:  build/bin/lab30-weights [--heat-c C] [--assets DIR] [--influences 4|8] OUTDIR
 *         build/bin/lab30-weights --asset IN [--weights heat|blender|bbw] [--influences 4|8] OUTDIR
 *         (either: [--max-pairs N] [--max-vertices N] [--bbw-budget N], the cost an asset may have; --asset:
 *         [--skin S], which skin's meshes)
 *
 * Writes into OUTDIR (which must exist), all or nothing:
 *   weights30.png                  the child joint's weight on the mesh, every set, twist
 *                                  and bend rigs, with a colour bar
 *   weights30-profile.png          the child weight along z: every set, the closed forms
 *   weights30-poses.png            every set skinned at twist 90, 180 and bend 90, 135 with
 *                                  LBS and DQS
 *   weights30-<pose>-<set>-<method>.png   each pose panel alone
 *   weights30.json                 the weights, the checks, the measures, the cost
 *   weights30.csv                  rig,vertex,ring,z,hand_child_weight,heat_child_weight,
 *                                  blender_root_weight,blender_child_weight
 *   weights30-assets.png           each asset's weights, the artist's and every automatic
 *                                  set's, and where each differs from the artist's
 *   weights30-assets.csv           asset,vertex,joint,x,y,z,artist_weight,heat_weight,
 *                                  blender_weight,bbw_weight,blender_cut_weight
 * With --asset: NAME-SET.glb (the asset re-weighted), weights30-asset.json and
 * weights30-asset.csv (vertex,joint,weight: the weights written, in double).
 *
 * Conventions as in lab30 (src/math/linalg.h). Exit codes: 0 success, 1 an asset refused
 * or a self-check failed, 2 usage, 3 output directory, write failure or out of memory.
 */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/report.h"
#include "base/timer.h"
#include "math/linalg.h"
#include "mesh/mesh.h"
#include "program/cli.h"
#include "skin/influences.h"
#include "solve/sparse.h"

#include "weights/heat.h"
#include "rig30.h"
#include "rig30_check.h"
#include "weights30.h"

#define LAB "lab30-weights"

/* ---- the rigs and their bones ------------------------------------------------------------ */

/* Both of chapter 30's rigs once a weight set: the first keeps the hand weights, the
 * others will take the automatic weights. */
static lab_error build_rigs(rig30_rig rigs[WEIGHTS30_SETS][2], mesh_edge **edges, int *edge_count, lab_diag *d)
{
    lab_error e = rig30_build_both(rigs[WEIGHTS30_HAND], edges, edge_count, d);
    for (int set = WEIGHTS30_HAND + 1; set < WEIGHTS30_SETS; set++)
        for (int kind = 0; e == LAB_OK && kind < 2; kind++)
            e = rig30_rig_build(&rigs[set][kind], (rig30_kind)kind, NULL, d);
    return e;
}

/* ---- 2. bone heat on the chapter's rigs ------------------------------------------------------ */

/* Bone heat as the paper writes it (Baran and Popovic 2007, section 4), on the bind mesh:
 *
 *     (-L + M H) w_j = M H p_j
 *
 * L and M the cotangent Laplacian and the mixed Voronoi areas, H_ii = k c / d_i^2 and
 * p_j(i) = 1/k from the nearest visible bones (heat_laplacian, heat_sources: the terms),
 * then one Cholesky factorisation of A = -L + M H and one solve per joint, each solve's
 * backward error |A w - b| / (|A| |w| + |b|) by our own product. The library's heat_solve
 * (src/weights/heat_solve.c) is the general twin, Blender's model too; test_lab30_weights
 * holds it to these lines. Every vertex of the cylinder sees a bone, so no part of its
 * surface is left without heat (heat_solve takes such a part out of its system). */
static lab_error paper_heat(const mesh *m, const heat_bone *bones, double c, heat_result *out, lab_diag *d)
{
    const int n = m->vertex_count, J = RIG30_JOINTS;
    *out = (heat_result){.vertex_count = n, .joint_count = J, .model = HEAT_PAPER};
    sparse_triplets A = {0};
    sparse_cholesky f = {0};
    double *mass = malloc(sizeof(double) * (size_t)n), *H = malloc(sizeof(double) * (size_t)n);
    double *p = malloc(sizeof(double) * (size_t)n * J), *b = malloc(sizeof(double) * (size_t)n);
    double *w = malloc(sizeof(double) * (size_t)n);
    out->solution = malloc(sizeof(double) * (size_t)n * J);
    out->weights = malloc(sizeof(double) * (size_t)n * J);
    out->backward_error = malloc(sizeof(double) * J);
    lab_error e = mass && H && p && b && w && out->solution && out->weights && out->backward_error
                      ? heat_laplacian(m, HEAT_PAPER, &A, mass, &out->obtuse_triangles, d) /* L, M */
                      : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "bone heat", "%d vertices, %d joints", n, J);
    if (e == LAB_OK) /* H, p */
        e = heat_sources(m, HEAT_PAPER, bones, WEIGHTS30_BONES, J, c, H, p, &out->hidden, d);
    if (e == LAB_OK) { /* A = -L + M H */
        for (size_t k = 0; k < A.count; k++)
            A.value[k] = -A.value[k];
        for (int i = 0; e == LAB_OK && i < n; i++)
            e = sparse_add(&A, i, i, mass[i] > 0.0 ? mass[i] * H[i] : 1.0, d);
    }
    double a_norm = 0.0; /* |A|: the largest absolute row sum */
    for (int i = 0; e == LAB_OK && i < n; i++)
        b[i] = 0.0;
    for (size_t k = 0; e == LAB_OK && k < A.count; k++)
        b[A.row[k]] += fabs(A.value[k]);
    for (int i = 0; e == LAB_OK && i < n; i++)
        a_norm = fmax(a_norm, b[i]);
    double t0 = timer_seconds();
    if (e == LAB_OK) /* -L + M H is symmetric positive definite: one Cholesky factor */
        e = sparse_cholesky_factor(&A, &f, d);
    out->factor_seconds = timer_seconds() - t0;
    t0 = timer_seconds();
    for (int j = 0; e == LAB_OK && j < J; j++) {
        double b_norm = 0.0, w_norm = 0.0;
        for (int i = 0; i < n; i++) { /* b_j = M H p_j */
            b[i] = mass[i] > 0.0 ? mass[i] * H[i] * p[(size_t)i * J + j] : p[(size_t)i * J + j];
            b_norm = fmax(b_norm, fabs(b[i]));
        }
        e = sparse_cholesky_solve(&f, b, w, d);
        for (int i = 0; e == LAB_OK && i < n; i++) {
            w_norm = fmax(w_norm, fabs(w[i]));
            out->solution[(size_t)i * J + j] = out->weights[(size_t)i * J + j] = w[i];
        }
        double residual = e == LAB_OK ? sparse_residual(&A, w, b) : 0.0;
        if (residual < 0.0)
            e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "bone heat", "the residual's scratch vector");
        out->backward_error[j] = residual / (a_norm * w_norm + b_norm);
    }
    out->solve_seconds = timer_seconds() - t0;
    out->factor_nonzeros = f.factor_nonzeros, out->flops = f.flops, out->peak_bytes = f.peak_bytes;
    sparse_cholesky_free(&f);
    sparse_free(&A);
    free(mass), free(H), free(p), free(b), free(w);
    if (e != LAB_OK)
        heat_result_free(out);
    return e;
}

/* Both models on both rigs, each set's rig given its weights; the paper's against its
 * closed form vertex by vertex. The checks, per rig: the paper's model's four and its
 * closed form, then Blender's four. */
static lab_error bone_heat(const weights30_options *o, rig30_rig rigs[WEIGHTS30_SETS][2], weights30_rig rig[2],
                           report_checks *checks, lab_diag *d)
{
    lab_error e = LAB_OK;
    for (int kind = 0; e == LAB_OK && kind < 2; kind++) {
        weights30_rig *w = &rig[kind];
        weights30_rig_bones(&rigs[WEIGHTS30_HAND][kind], w->bones);
        for (int v = 0; v < WEIGHTS30_VERTS; v++)
            w->child[WEIGHTS30_HAND][v] = rig30_child_weight(&rigs[WEIGHTS30_HAND][kind].influences, v);
        for (int model = 0; e == LAB_OK && model < HEAT_MODELS; model++) {
            weights30_set set = weights30_set_of_model((heat_model)model);
            const mesh *m = &rigs[set][kind].bind;
            e = model == HEAT_PAPER ? paper_heat(m, w->bones, o->heat_c, &w->heat[model], d)
                                    : heat_solve(m, HEAT_BLENDER, w->bones, WEIGHTS30_BONES, RIG30_JOINTS, o->heat_c,
                                                 &w->heat[model], d); /* Blender's variant: heat.h */
            if (e != LAB_OK)
                break;
            weights30_measure_solution(w, (heat_model)model);
            const double *W = w->heat[model].weights;
            for (int v = 0; v < WEIGHTS30_VERTS; v++)
                w->child[set][v] = W[2 * v + 1];
            /* into the set's rig: the paper's weights through the strict policy (they sum to
             * 1 by the system's structure); Blender's after its cut through normalize, as
             * Blender's armature divides by the weights' sum when it deforms */
            skin_influences in;
            e = skin_influences_init(&in, WEIGHTS30_VERTS, RIG30_JOINTS, d);
            for (int v = 0; e == LAB_OK && v < WEIGHTS30_VERTS; v++)
                for (int j = 0; j < RIG30_JOINTS; j++)
                    in.joint[2 * v + j] = j, in.weight[2 * v + j] = W[2 * v + j];
            skin_weight_policy policy = {.kind = model == HEAT_BLENDER ? SKIN_POLICY_NORMALIZE : SKIN_POLICY_STRICT};
            if (e == LAB_OK)
                e = rig30_set_influences(&rigs[set][kind], &in, policy, NULL, d);
            skin_influences_free(&in);
        }
        if (e != LAB_OK)
            break;
        const double *B = w->heat[HEAT_BLENDER].weights;
        w->cut_sum_lo = INFINITY, w->cut_sum_hi = -INFINITY;
        for (int v = 0; v < WEIGHTS30_VERTS; v++) {
            w->root[v] = B[2 * v];
            w->cut_sum_lo = fmin(w->cut_sum_lo, B[2 * v] + B[2 * v + 1]);
            w->cut_sum_hi = fmax(w->cut_sum_hi, B[2 * v] + B[2 * v + 1]);
        }
        /* the paper's model against its closed form, vertex by vertex */
        weights30_heat_closed_forms((rig30_kind)kind, o->heat_c, w->closed_form, w->continuum);
        /* the system's condition grows like 1 / c as the heat weakens */
        w->closed_form_tolerance = RIG30_CHECK_TOLERANCE / 10.0 * fmax(1.0, 1.0 / o->heat_c);
        for (int v = 0; v < WEIGHTS30_VERTS; v++)
            w->closed_form_error = max_or_nan(w->closed_form_error, fabs(w->child[WEIGHTS30_HEAT][v] -
                                                                         w->closed_form[v / RIG30_SEGMENTS]));
        weights30_check_model(w, HEAT_PAPER, checks);
        check_bound(checks, "|w - the system's closed form|", w->closed_form_error, w->closed_form_tolerance);
        weights30_check_model(w, HEAT_BLENDER, checks);
    }
    return e;
}

/* ---- 3. bounded biharmonic weights ------------------------------------------------------ */

/* ---- 4. every weight set at the chapter's poses ---------------------------------------------- */

/* ---- main: CHOLMOD first, then the chapter's run or, with --asset, the asset's ------------ */

int main(int argc, char **argv)
{
    static weights30 r = {
        .options = {.heat_c = HEAT_C, .max_pairs = WEIGHTS30_MAX_PAIRS, .max_vertices = WEIGHTS30_MAX_VERTICES,
                    .bbw_budget = WEIGHTS30_BBW_BUDGET, .skin = -1}};
    weights30_options *o = &r.options;
    static const char *const influences[] = {"4", "8", NULL};
    static const char *const sets[] = {"heat", "blender", "bbw", NULL};
    const cli_option options[] = {
        {"--heat-c", CLI_DOUBLES, &o->heat_c, .min = 0.1, .max = 100, .value_name = "C",
         .help = "the heat constant c of H_ii = c / d_i^2, 0.1 to 100 (default 1, the\n"
                 "paper's): larger c pins each vertex to its nearest bone, smaller c\n"
                 "lets the heat spread further along the surface (below 0.1 the\n"
                 "system's condition, about 1/c, eats the 1e-12 the checks allow)"},
        {"--assets", CLI_STRING, &o->assets_dir, .value_name = "DIR",
         .help = "where RiggedSimple.gltf and RiggedFigure.gltf are (default: the\n"
                 "repository's assets/, found from this program's own location)"},
        {"--influences", CLI_CHOICE, &o->influence_choice, .choices = influences, .value_name = "K",
         .help = "each vertex's automatic weights cut to its K heaviest, 4 (one\n"
                 "JOINTS_0 / WEIGHTS_0 set, default) or 8 (two sets), and divided by\n"
                 "their sum: the report states what the cut changes"},
        {"--asset", CLI_STRING, &o->asset_in, .value_name = "IN",
         .help = "instead of the chapter's run: give the skinned asset IN (.gltf or\n"
                 ".glb) automatic weights and write it to OUTDIR as NAME-SET.glb (its\n"
                 "nodes, skin and animations kept, new JOINTS_n / WEIGHTS_n)"},
        {"--weights", CLI_CHOICE, &o->asset_weights, .choices = sets, .value_name = "SET",
         .help = "which automatic weights --asset writes: heat (the paper's bone heat,\n"
                 "default), blender (Blender's) or bbw (bounded biharmonic)"},
        {"--skin", CLI_INT, &o->skin, .min = 0, .max = 1 << 20, .value_name = "S",
         .help = "which skin --asset weights, its meshes' every primitive (default: the\n"
                 "one skin the asset's skinned nodes use; with several, choose): the\n"
                 "other skins' meshes keep their weights"},
        {"--max-pairs", CLI_INT, &o->max_pairs, .min = 1, .max = HEAT_MAX_PAIRS, .value_name = "N",
         .help = "the most vertices x bones an asset may have (default 1048576, up to\n"
                 "4194304): each pair is a distance, a ray where unseen and a weight in\n"
                 "every table; an asset over it is refused before any work"},
        {"--max-vertices", CLI_INT, &o->max_vertices, .min = 1, .max = INT_MAX / 4, .value_name = "N",
         .help = "the most vertices an asset may have, as decoded (default 65536):\n"
                 "a compressed file holds many in few bytes, and the solves grow faster\n"
                 "than the mesh; an asset over it is refused before any work"},
        {"--bbw-budget", CLI_DOUBLES, &o->bbw_budget, .min = 1, .max = 1e15, .value_name = "N",
         .help = "the most operations the bounded biharmonic weights' active set may\n"
                 "spend, its factorisations' flops and 4 for each entry of Q a round\n"
                 "(default 268435456, about 0.3 s): past it the run is refused, naming\n"
                 "the joint and the round"},
    };
    const cli_program program = {LAB, "Automatic weights (bone heat, Blender's, bounded biharmonic) beside chapter 30's "
                                 "hand weights.", options, CLI_COUNT(options), {"OUTDIR"}, 1, NULL};
    cli_run run;
    int code = cli_begin(&run, &program, argc, argv);
    if (code != CLI_RUN)
        return code;

    lab_diag *d = &run.diag;
    weights30_checks *checks = &r.checks;
    /* CHOLMOD first, before any work: a machine without it, or without the memory its
     * libraries need to start (src/solve/sparse.h), costs nothing */
    lab_error e = sparse_load(d);
    if (!o->asset_in) { /* the chapter's run: the cylinder, then the artists' samples */
        if (e == LAB_OK)
            e = build_rigs(r.rigs, &r.edges, &r.edge_count, d);
        if (e == LAB_OK) /* 1. weights30_closed.c */
            e = weights30_check_laplacian(&r.laplacian, &checks->laplacian, d);
        if (e == LAB_OK) /* 2. */
            e = bone_heat(o, r.rigs, r.rig, &checks->heat, d);
        if (e == LAB_OK) /* 3. */
            e = weights30_biharmonic(r.rigs[WEIGHTS30_BBW], r.rig, &checks->bbw, d);
        if (e == LAB_OK) /* 4. */
            e = weights30_skin_poses(&r, &checks->poses, d);
        if (e == LAB_OK) /* 5. weights30_engine.c, weights30_assets.c */
            e = weights30_read_assets(o, &r, d);
        if (e == LAB_OK) {
            weights30_check_assets(&r, &checks->assets);
            e = weights30_figures(&r, &run.out, d); /* weights30_figures.c */
        }
        if (e == LAB_OK)
            e = weights30_evidence(&r, &run.out, d); /* weights30_record.c */
    } else { /* --asset IN: the one asset re-weighted, written and read back */
        if (e == LAB_OK)
            e = weights30_read_assets(o, &r, d);
        if (e == LAB_OK) {
            weights30_check_assets(&r, &checks->assets);
            e = weights30_write_asset(o, &r, &checks->written, &run.out, d);
        }
        if (e == LAB_OK)
            e = weights30_asset_evidence(&r, &run.out, d);
    }

    if (e == LAB_OK &&
        cli_report(&run, "Where weights come from: automatic weights beside the chapter's hand weights")) {
        if (!o->asset_in) {
            cli_section(&run, "The cotangent Laplacian on a regular hexagon", &checks->laplacian);
            weights30_report_laplacian(&r, stdout);
            cli_section(&run, "Bone heat on the twist and the bend rigs", &checks->heat);
            weights30_report_heat(&r, stdout);
            cli_section(&run, "Bounded biharmonic weights on the twist and the bend rigs", &checks->bbw);
            weights30_report_bbw(&r, stdout);
            cli_section(&run, "Every weight set at the chapter's poses", &checks->poses);
            weights30_report_poses(&r, stdout);
        }
        cli_section(&run, "Automatic weights against an artist's", &checks->assets);
        weights30_report_assets(&r, stdout);
        if (o->asset_in) {
            cli_section(&run, "The asset with automatic weights, written and read back", &checks->written);
            weights30_report_written(&r, stdout);
        }
    }
    code = cli_end(&run, e);
    weights30_free(&r);
    return code;
}
