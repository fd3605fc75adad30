/* lab30-normals.c - Weights, spaces and normals (the weights article, 002, and the normal
 * notes of 001), on chapter 30's cylinder.
 *
 * Concepts: the full chain  bind model space -> skin (sum w_i G_i B_i^-1) -> model ->
 * world (M_model) -> view (look_at) -> clip (orthographic or perspective) -> near clip ->
 * divide -> viewport; normals that never receive translation and follow (A^-1)^T under
 * non-uniform scale; three ways to skin a normal and how far each is from the true normal
 * of the skinned surface; weight policies (strict, normalize, fallback) as the caller's
 * explicit choice.
 *
 * Usage:  build/bin/lab30-normals [--policy strict|normalize|fallback=J]
 *                                 [--twist-weights FILE] [--bend-weights FILE] OUTDIR
 *
 * Writes into OUTDIR (which must exist), all or nothing:
 *   normals30.png                    every panel: per pose, one debug view per method and
 *                                    one perspective view of the whole chain
 *   normals30-<pose>-<view>.png      each panel alone
 *   normals30-shaded.png             the scaled child and the bend lit by each method's
 *                                    normals and by the true normal, and the rigid
 *                                    normal's error on the mesh
 *   normals30-shaded-<pose>-<view>.png  each of those panels alone
 *   normals30.json                   per pose the chain's matrices, normals per method,
 *                                    the true normals, angle errors; the weight report
 *   normals30-errors.csv             method,pose,vertex,angle_error_deg
 *   normals30-weights-twist.csv      the weights each rig used (the bind pose is the
 *   normals30-weights-bend.csv       twist rig's, the other three the bend's): templates
 *                                    for --twist-weights and --bend-weights
 *
 * Conventions as in lab30 (src/math/linalg.h). Exit codes: 0 success, 1 data rejected (weights,
 * weights file) or a self-check failed, 2 usage, 3 output directory or write failure.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "draw/camera.h"
#include "draw/figure.h"
#include "draw/raster.h"
#include "math/linalg.h"
#include "mesh/scene.h"
#include "program/cli.h"
#include "program/output.h"
#include "skin/blend.h"
#include "skin/influences.h"
#include "skin/normals.h"
#include "skin/weights_csv.h"

#include "normals30.h"
#include "rig30.h"
#include "rig30_check.h"

#define LAB "lab30-normals"

/* ---- the regression poses -------------------------------------------------------------- */

static void normals30_specs(normals30_spec out[NORMALS30_POSES])
{
    const double pi = acos(-1.0);
    out[0] = (normals30_spec){"bind", "bind pose: every S_i = I", "bind pose", RIG30_TWIST, 0, {1, 1, 1},
                         mat4_identity()};
    out[1] = (normals30_spec){"bend135", "extreme bend: elbow at 135 deg", "elbow bent 135 deg", RIG30_BEND, 135,
                         {1, 1, 1}, mat4_identity()};
    out[2] = (normals30_spec){"child-scale", "elbow rig, child bone scaled 2 along x (non-uniform)",
                         "child scaled 2 along x", RIG30_BEND, 0, {2, 1, 1}, mat4_identity()};
    out[3] = (normals30_spec){"model-scale", "elbow at 45 deg, M_model = Tx(0.5) Rz(30) S(1, 2.5, 1)",
                         "elbow 45, model scaled", RIG30_BEND, 45, {1, 1, 1},
                         mat4_mul(mat4_mul(mat4_translate(0.5, 0, 0), mat4_rotate_z(pi / 6)),
                                  mat4_scale(1, 2.5, 1))};
}

/* ---- the stages: each takes what it reads, fills what it makes, and decides the checks
 * of the numbers it made --------------------------------------------------------------- */

/* The weights of each rig: its own profile, or its file's, through the policy. */
static lab_error load_weights(rig30_rig rigs[2], const normals30_options *o, skin_weight_report weights[2],
                              lab_diag *d)
{
    lab_error e = LAB_OK;
    for (int kind = 0; e == LAB_OK && kind < 2; kind++) {
        rig30_rig *rig = &rigs[kind];
        const char *path = o->weights_file[kind];
        skin_influences file = {0};
        e = path ? weights_csv_load(path, NORMALS30_VERTS, &file, d) : LAB_OK;
        if (e == LAB_OK) {
            e = rig30_set_influences(rig, path ? &file : &rig->influences, o->policy, &weights[kind], d);
            if (e != LAB_OK && e != LAB_ERR_OUT_OF_MEMORY && path) /* which file broke the rule */
                diag_prefix_where(d, "%s (the %s rig's weights)", path, rig30_kind_name((rig30_kind)kind));
        }
        skin_influences_free(&file);
    }
    return e;
}

/* Positions: the rig's chain with the pose's child scale, then M_model. */
static lab_error skin_positions(const rig30_rig *rig, normals30_pose *p, lab_diag *d)
{
    scene_node joints[RIG30_JOINTS];
    rig30_joints(p->spec.rig, deg_to_rad(p->spec.angle_deg), joints);
    vec3 s = p->spec.child_scale;
    joints[1].local = mat4_mul(joints[1].local, mat4_scale(s.x, s.y, s.z));
    lab_error e = rig30_pose_with(rig, joints, NULL, (skin_blend){.method = SKIN_LBS}, &p->pose, d);
    for (int v = 0; e == LAB_OK && v < NORMALS30_VERTS; v++)
        p->world_positions[v] = mat4_transform_point(p->spec.model, p->pose.positions[v]);
    return e;
}

/* "Normals" (001 and 002): three ways to skin a bind normal n with weights w_i and skin
 * matrices S_i, in model space, each renormalised; the library's normals_skin is the
 * same, tested against these lines:
 *   rigid     n' = normalize(sum w_i (S_i)3x3 n)             right for rotations only
 *   blended   n' = normalize((L^-1)^T n), L = sum w_i (S_i)3x3  the blended matrix's rule
 *   per-bone  n' = normalize(sum w_i ((S_i)3x3^-1)^T n)       each bone's rule, blended */
static lab_error skin_normal(vec3 n, const int *joint, const double *weight, int K, const mat4 *palette,
                             const mat4 *per_bone, int v, vec3 out[NORMALS_METHOD_COUNT], lab_diag *d)
{
    mat4 L = mat4_linear_part(skin_blend_matrix(joint, weight, K, palette)); /* sum w_i (S_i)3x3 */
    L.m[3][3] = 1.0;
    out[NORMALS_RIGID] = vec3_normalize(mat4_transform_direction(L, n));
    mat4 inverse_transpose;
    char where[128];
    lab_error e = mat4_linear_inverse_transpose(
        L, &inverse_transpose, diag_where(where, sizeof where, "vertex %d, L = sum w_i (S_i)3x3", v), d);
    if (e != LAB_OK) {
        d->vertex = v;
        return e;
    }
    out[NORMALS_BLENDED_INVERSE_TRANSPOSE] = vec3_normalize(mat4_transform_direction(inverse_transpose, n));
    mat4 P = mat4_linear_part(skin_blend_matrix(joint, weight, K, per_bone)); /* sum w_i ((S_i)3x3^-1)^T */
    P.m[3][3] = 1.0;
    out[NORMALS_PER_BONE_INVERSE_TRANSPOSE] = vec3_normalize(mat4_transform_direction(P, n));
    return LAB_OK;
}

/* Normals: each method in model space, then to world with (M_model^-1)^T; the truth; the
 * faces; the naive M_model n. */
static lab_error skin_normals(const rig30_rig *rig, normals30_pose *p, lab_diag *d)
{
    vec3 bind[NORMALS30_VERTS], model_space[NORMALS_METHOD_COUNT][NORMALS30_VERTS];
    rig30_bind_normals(rig, bind);
    mat4 per_bone[RIG30_JOINTS]; /* ((S_i)3x3^-1)^T, once per pose */
    char where[128];
    lab_error e = LAB_OK;
    for (int j = 0; e == LAB_OK && j < RIG30_JOINTS; j++)
        e = mat4_linear_inverse_transpose(p->pose.palette[j], &per_bone[j],
                                          diag_where(where, sizeof where, "skin matrix C_%d of joint %d", j, j), d);
    const skin_influences *in = &rig->influences;
    const int K = in->per_vertex;
    for (int v = 0; e == LAB_OK && v < NORMALS30_VERTS; v++) {
        vec3 n[NORMALS_METHOD_COUNT];
        e = skin_normal(bind[v], in->joint + v * K, in->weight + v * K, K, p->pose.palette, per_bone, v, n, d);
        for (int m = 0; e == LAB_OK && m < NORMALS_METHOD_COUNT; m++)
            model_space[m][v] = n[m];
    }
    for (int m = 0; e == LAB_OK && m < NORMALS_METHOD_COUNT; m++)
        e = normals_to_world(model_space[m], NORMALS30_VERTS, p->spec.model, p->normals[m], d);
    if (e != LAB_OK)
        return e;
    for (int v = 0; v < NORMALS30_VERTS; v++)
        p->naive[v] = vec3_normalize(
            mat4_transform_direction(p->spec.model, model_space[NORMALS_BLENDED_INVERSE_TRANSPOSE][v]));
    rig30_true_normals(rig, p->pose.palette, p->spec.model, p->truth);
    normals_from_faces(p->world_positions, NORMALS30_VERTS, rig->bind.triangles, rig->bind.triangle_count,
                       p->faces);
    bool steady[NORMALS30_VERTS];
    rig30_steady_vertices(rig, steady);
    for (int m = 0; m < NORMALS_METHOD_COUNT; m++) {
        p->summary[m] = normals_compare(p->normals[m], p->truth, NORMALS30_VERTS, p->error[m]);
        p->steady_max[m] = 0.0;
        p->steady_count = 0;
        for (int v = 0; v < NORMALS30_VERTS; v++)
            if (steady[v]) {
                p->steady_max[m] = max_or_nan(p->steady_max[m], p->error[m][v]);
                p->steady_count++;
            }
    }
    p->faces_summary = normals_compare(p->faces, p->truth, NORMALS30_VERTS, NULL);
    p->folded_count = 0;
    for (int v = 0; v < NORMALS30_VERTS; v++)
        p->folded_count += vec3_dot(p->truth[v], p->normals[NORMALS_BLENDED_INVERSE_TRANSPOSE][v]) < 0.0;
    p->naive_summary = normals_compare(p->naive, p->truth, NORMALS30_VERTS, NULL);
    return LAB_OK;
}

/* The regression poses: each skinned, then its normals by every method. The check: at the
 * bind pose every method gives the true normal. */
static lab_error skin_poses(const rig30_rig rigs[2], normals30_pose poses[NORMALS30_POSES], report_checks *checks,
                            lab_diag *d)
{
    normals30_spec specs[NORMALS30_POSES];
    normals30_specs(specs);
    lab_error e = LAB_OK;
    for (int i = 0; e == LAB_OK && i < NORMALS30_POSES; i++) {
        normals30_pose *p = &poses[i];
        p->spec = specs[i];
        e = rig30_pose_alloc(&rigs[p->spec.rig], &p->pose, d);
        if (e == LAB_OK)
            e = skin_positions(&rigs[p->spec.rig], p, d);
        if (e == LAB_OK)
            e = skin_normals(&rigs[p->spec.rig], p, d);
        for (int m = 0; e == LAB_OK && normals30_is_bind_pose(&p->spec) && m < NORMALS_METHOD_COUNT; m++)
            check_bound(checks, normals_method_name((normals_method)m), p->summary[m].max_deg, 1e-9);
    }
    return e;
}

/* ---- main ------------------------------------------------------------------------------------ */

/* --policy: "strict", "normalize" or "fallback=J" (J a joint of the rig) into a
 * skin_weight_policy; -1 with a message in err when the text is none of them. */
static int parse_policy(const char *value, void *target, const void *context, char *err, size_t size)
{
    (void)context;
    skin_weight_policy *out = target;
    *out = (skin_weight_policy){0};
    if (!strcmp(value, "strict"))
        return 0;
    if (!strcmp(value, "normalize")) {
        out->kind = SKIN_POLICY_NORMALIZE;
        return 0;
    }
    char *end;
    long j = strncmp(value, "fallback=", 9) ? -1 : strtol(value + 9, &end, 10);
    if (j >= 0 && end != value + 9 && *end == '\0' && j < RIG30_JOINTS) {
        *out = (skin_weight_policy){.kind = SKIN_POLICY_FALLBACK, .fallback_joint = (int)j};
        return 0;
    }
    if (!strncmp(value, "fallback=", 9))
        snprintf(err, size, "%s: J must be a joint of the rig, 0 to %d", value, RIG30_JOINTS - 1);
    else
        snprintf(err, size, "%s: expected strict, normalize or fallback=J", value);
    return -1;
}


int main(int argc, char **argv)
{
    static normals30 r;
    normals30_options *o = &r.options;
    const cli_option options[] = {
        {"--policy", CLI_CUSTOM, &o->policy, .parse = parse_policy,
         .value_name = "strict|normalize|fallback=J",
         .help = "how weights that do not sum to 1 are treated (default strict):\n"
                 "strict rejects them; normalize divides by the sum W and reports\n"
                 "it (W <= 1e-6 is rejected); fallback=J does the same but binds a\n"
                 "vertex with W <= 1e-6 fully to joint J (0 or 1)"},
        {"--twist-weights", CLI_STRING, &o->weights_file[RIG30_TWIST], .value_name = "FILE",
         .help = "the twist rig's per-vertex weights (the bind pose), CSV\n" WEIGHTS_CSV_HEADER "\n"
                 "(normals30-weights-twist.csv from a run is a template)"},
        {"--bend-weights", CLI_STRING, &o->weights_file[RIG30_BEND], .value_name = "FILE",
         .help = "the bend rig's per-vertex weights (the other three poses), same\n"
                 "format (normals30-weights-bend.csv from a run is a template)"},
    };
    const cli_program program = {LAB, "Weights, spaces and normals on chapter 30's rigs.", options, CLI_COUNT(options),
                                 {"OUTDIR"}, 1, NULL};
    cli_run run;
    int code = cli_begin(&run, &program, argc, argv);
    if (code != CLI_RUN)
        return code;

    lab_diag *d = &run.diag;
    /* the twist and the elbow, their weights through the chosen policy, then the space chain
     * and three normals per pose */
    lab_error e = rig30_build_both(r.rigs, &r.edges, &r.edge_count, d);
    if (e == LAB_OK)
        e = load_weights(r.rigs, o, r.weights, d);
    if (e == LAB_OK)
        e = skin_poses(r.rigs, r.pose, &r.checks, d);
    /* each method's normals coloured by their error, the light each gives (normals30_figures.c),
     * and the evidence (normals30_record.c) */
    if (e == LAB_OK) {
        normals30_choose_cameras(r.pose);
        e = normals30_figures(&r, &run.out, d);
    }
    if (e == LAB_OK)
        e = normals30_shaded_figure(&r, &run.out, d);
    if (e == LAB_OK)
        e = normals30_evidence(&r, &run.out, d);

    if (e == LAB_OK &&
        cli_report(&run, "Weights, spaces and normals: the chain to the screen and three ways to skin a normal")) {
        cli_section(&run, "Weights", NULL);
        normals30_report_weights(&r, stdout);
        cli_section(&run, "Three ways to skin a normal, against the truth, pose by pose", &r.checks);
        normals30_report_poses(&r, stdout);
    }
    code = cli_end(&run, e);
    normals30_free(&r);
    return code;
}
