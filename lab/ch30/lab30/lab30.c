/* lab30.c - Chapter 30: how bones drive a mesh.
 *
 * Concepts: the skin matrix C_j = G_j B_j^-1, linear blend skinning p' = sum_j w_j C_j p,
 * the bind-pose check, matrix order, and the candy-wrapper collapse of a half-turn twist:
 * r'/r = sqrt(1 - 4 w (1-w) sin^2(theta/2)), zero for the middle ring at 180 degrees.
 *
 * Usage:  build/bin/lab30 [--theta DEG[,DEG...]] [--middle-weights W0,W1] [--gltf] OUTDIR
 *
 * Writes into OUTDIR (which must exist), all or nothing:
 *   skinning30.png, -thetaNNN.png  the figure, one panel per pose, and each panel alone
 *   skinning30-hand.png            the hand control (section 4) in the xy plane
 *   skinning30-weights.png         the bind mesh coloured by the child weight
 *   skinning30-refused-weights.png question C: what weights 0.4 + 0.4 would do (refused data)
 *   skinning30.json, -radii.csv    the scene and every check; the radius table
 * (the figures are drawn in skinning30_figures.c; the JSON, CSV and report in skinning30_record.c)
 *   skinning30.gltf                with --gltf: the rig and a twist animation
 * and prints the chapter's tables on stdout, each value beside its independent check.
 * Conventions: right-handed, column vectors, row-major storage, radians inside (degrees
 * on the command line and in labels); see src/math/linalg.h. Exit codes: 0 success, 1 data
 * rejected (or a self-check failed), 2 usage, 3 output directory or write failure.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "math/linalg.h"
#include "mesh/mesh.h"
#include "mesh/scene.h"
#include "program/cli.h"
#include "skin/blend.h"
#include "skin/influences.h"
#include "skin/pose.h"

#include "rig30.h"
#include "rig30_cases.h"
#include "rig30_check.h"
#include "skinning30.h"

#define LAB "lab30"

/* ---- the rig, step by step ------------------------------------------------------------ */

/* "Mesh coordinates and joint coordinates": the bind mesh, chapter 12's checks on it, and
 * the weights w_1 = z/2 (child), w_0 = 1 - z/2 (root); --middle-weights replaces ring 4's. */
static lab_error build_mesh_and_weights(void *state, lab_diag *d)
{
    skinning30 *c = state;
    rig30_rig *rig = &c->rig;
    rig->kind = RIG30_TWIST;
    lab_error e = mesh_cylinder(RIG30_RINGS, RIG30_SEGMENTS, RIG30_RADIUS, RIG30_HEIGHT, &rig->bind, d);
    if (e == LAB_OK)
        e = mesh_check(&rig->bind, RIG30_MIN_AREA, &rig->stats, d);
    if (e == LAB_OK)
        e = mesh_unique_edges(rig->bind.triangles, rig->bind.triangle_count, &c->edges, &c->edge_count, d);
    if (e == LAB_OK)
        e = rig30_weights(RIG30_TWIST, &rig->bind, &rig->influences, d);
    if (e == LAB_OK && c->has_middle_weights)
        rig30_set_middle_ring(&rig->influences, c->middle_weights);
    /* w_j >= 0 and sum_j w_j = 1 within 1e-12, never normalised behind the student's back */
    if (e == LAB_OK)
        e = skin_validate_influences(&rig->influences, RIG30_JOINTS, d);
    return e;
}

/* "Hierarchy evaluation and vertex blending are two steps": at theta = 0 the locals give
 * the bind pose, B_0 = G_0(0) = I and B_1 = G_1(0) = Tz(2); the inverse bind comes from
 * the helper that inverts pure translations only. */
static lab_error bind_skeleton(void *state, lab_diag *d)
{
    rig30_rig *rig = &((skinning30 *)state)->rig;
    rig30_joints(RIG30_TWIST, 0.0, rig->bind_joints);
    lab_error e = scene_evaluate(rig->bind_joints, RIG30_JOINTS, rig->bind_world, d);
    if (e == LAB_OK)
        e = skin_inverse_binds(rig->bind_world, RIG30_JOINTS, rig->inverse_bind, d);
    return e;
}

/* One pose through the whole chain, each formula of the article on its own line. The
 * palette and the blend are the library's skin_pose_run written out; test_lab30 checks
 * every vertex of every pose against it. */
static lab_error skin_twist(const rig30_rig *rig, double theta, rig30_pose *p, lab_diag *d)
{
    p->theta = theta;
    /* "Hierarchy evaluation and vertex blending are two steps": L_0 = I, L_1 = Tz(2) Rz(theta) */
    rig30_joints(RIG30_TWIST, theta, p->joints);
    /* G_0 = L_0, G_1 = G_0 L_1 (chapter 16's scene_evaluate, parents first) */
    lab_error e = scene_evaluate(p->joints, RIG30_JOINTS, p->world, d);
    if (e != LAB_OK)
        return e;
    /* "Mesh coordinates and joint coordinates": the skin matrix C_j = G_j B_j^-1 (B_j^-1 acts
     * first: it takes p from the mesh's bind space into joint j's frame) */
    for (int j = 0; j < RIG30_JOINTS; j++)
        p->palette[j] = mat4_mul(p->world[j], rig->inverse_bind[j]);
    /* "Vertex blending": LBS, p~' = sum_j w_j C_j p~ with p~ = (x, y, z, 1); the weights
     * sum to 1, so the w of the sum is 1 */
    const skin_influences *in = &rig->influences;
    const int K = in->per_vertex;
    for (int v = 0; v < rig->bind.vertex_count; v++) {
        vec4 bind = vec4_point(rig->bind.vertices[v]), sum = {0, 0, 0, 0};
        for (int k = 0; k < K; k++) {
            int j = in->joint[v * K + k];
            double w = in->weight[v * K + k];
            sum = vec4_add(sum, vec4_scale(mat4_mul_vec4(p->palette[j], bind), w)); /* + w_j C_j p~ */
        }
        p->positions[v] = vec3_make(sum.x, sum.y, sum.z);
    }
    return LAB_OK;
}

/* "The bind pose is the first numeric check": every C_j = I, so no vertex may move. */
static lab_error check_bind_pose(void *state, lab_diag *d)
{
    skinning30 *c = state;
    rig30_pose bind;
    lab_error e = rig30_pose_alloc(&c->rig, &bind, d);
    if (e == LAB_OK)
        e = skin_twist(&c->rig, 0.0, &bind, d);
    if (e == LAB_OK) /* the largest |p' - p| over the 216 vertices */
        c->bind_max_error = rig30_max_distance(bind.positions, c->rig.bind.vertices, c->rig.bind.vertex_count);
    rig30_pose_free(&bind);
    return e;
}

/* The article's hand control: matrix order and the inverse bind on one point, and why the
 * cylinder alone cannot catch a reversed order (Tz(2) and Rz(theta) commute). */
static lab_error run_hand_control(void *state, lab_diag *d)
{
    skinning30 *c = state;
    lab_error e = rig30_hand_control_run(&c->hand, d);
    for (int i = 0; e == LAB_OK && i < c->theta_count; i++) {
        double difference;
        e = rig30_reversed_order_on_cylinder(&c->rig, deg_to_rad(c->theta_deg[i]), &difference, d);
        c->hand.cylinder_reversed_difference = fmax(c->hand.cylinder_reversed_difference, difference);
    }
    return e;
}

/* "The average of two rigid rotations is not rigid": skin one pose, measure every ring
 * against r'/r = sqrt(1 - 4 w (1-w) sin^2(theta/2)), count degenerate triangles, and
 * compare every vertex with the weighted 2-D rotation (rig30_check, no matrices). */
static lab_error twist_pose(skinning30 *c, double theta_deg, skinning30_pose *p, int *count, lab_diag *d)
{
    p->theta_deg = theta_deg;
    lab_error e = rig30_pose_alloc(&c->rig, &p->pose, d);
    if (e != LAB_OK)
        return e;
    (*count)++; /* freed with the others from here on */
    e = skin_twist(&c->rig, deg_to_rad(theta_deg), &p->pose, d);
    if (e != LAB_OK)
        return e;
    for (int ring = 0; ring < RIG30_RINGS; ring++) {
        p->ring[ring] = rig30_measure_ring(p->pose.positions, ring);
        p->ring_weight[ring] = rig30_child_weight(&c->rig.influences, mesh_cylinder_index(RIG30_SEGMENTS, ring, 0));
        p->ring_analytic[ring] = RIG30_RADIUS * rig30_radius_ratio(p->ring_weight[ring], p->pose.theta);
    }
    p->degenerate_triangles = mesh_count_degenerate(p->pose.positions, c->rig.bind.triangles,
                                                    c->rig.bind.triangle_count, RIG30_MIN_AREA);
    /* Why the ring shrinks: M = w_0 C_0 + w_1 C_1 is not rigid; its singular values say
     * how much it squashes each direction (1, 0, 0 at 180 degrees: the ring's plane is gone) */
    int v = mesh_cylinder_index(RIG30_SEGMENTS, RIG30_MIDDLE_RING, 0), k = c->rig.influences.per_vertex;
    p->middle_weights[0] = skin_joint_weight(&c->rig.influences, v, 0);
    p->middle_weights[1] = skin_joint_weight(&c->rig.influences, v, 1);
    p->middle_blend = skin_blend_matrix(c->rig.influences.joint + v * k, c->rig.influences.weight + v * k, k,
                                        p->pose.palette);
    p->middle_det = mat4_linear_det(p->middle_blend);
    mat4_linear_singular_values(p->middle_blend, p->middle_singular);
    double ratio = rig30_radius_ratio(p->middle_weights[1], p->pose.theta);
    p->middle_singular_analytic[0] = 1.0, p->middle_singular_analytic[1] = p->middle_singular_analytic[2] = ratio;
    rig30_check_twist(&c->rig, &p->pose, SKIN_LBS, &p->check);
    return LAB_OK;
}

/* Every pose the run asks for (--theta; the article's 0, 90 and 180 degrees by default). */
static lab_error twist_poses(void *state, lab_diag *d)
{
    skinning30 *c = state;
    lab_error e = LAB_OK;
    for (int i = 0; e == LAB_OK && i < c->theta_count; i++) {
        e = twist_pose(c, c->theta_deg[i], &c->pose[i], &c->pose_count, d);
        if (e == LAB_OK)
            rig30_check_twist(&c->rig, &c->pose[i].pose, SKIN_LBS, &c->analytic);
    }
    return e;
}

/* The animation's frames: the same pose, every 5 degrees of a whole turn. */
static lab_error sweep_twist(void *state, lab_diag *d)
{
    skinning30 *c = state;
    lab_error e = LAB_OK;
    for (int k = 0; e == LAB_OK && k < LAB30_SWEEP_FRAMES; k++)
        e = twist_pose(c, k * LAB30_SWEEP_STEP_DEG, &c->sweep[k], &c->sweep_count, d);
    return e;
}

/* Each invalid input through the real pipeline: it must be refused by its own rule. */
static lab_error refuse_invalid_inputs(void *state, lab_diag *d)
{
    skinning30 *c = state;
    c->invalid_count = rig30_invalid_case_count();
    c->invalid_code = calloc((size_t)c->invalid_count, sizeof *c->invalid_code);
    c->invalid_diag = calloc((size_t)c->invalid_count, sizeof *c->invalid_diag);
    if (!c->invalid_code || !c->invalid_diag)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "invalid inputs", "%d cases", c->invalid_count);
    lab_error e = LAB_OK;
    for (int i = 0; e == LAB_OK && i < c->invalid_count; i++) {
        c->invalid_code[i] = rig30_invalid_case_run(&c->rig, i, &c->invalid_diag[i]);
        e = diag_resource_failure(c->invalid_code[i], &c->invalid_diag[i], d);
    }
    return e;
}


/* ---- main: the article's steps, in its order ------------------------------------------- */

int main(int argc, char **argv)
{
    static skinning30 c = {.theta_deg = {0, 90, 180}, .theta_count = 3, .middle_weights = {0.5, 0.5},
                          .axis = {{0, 0, -0.3}, {0, 0, RIG30_HEIGHT + 0.3}}};
    const cli_option options[] = {
        {"--theta", CLI_DOUBLES, c.theta_deg, .count = &c.theta_count, .min_count = 1,
         .max_count = LAB30_MAX_POSES, .min = -3600, .max = 3600, .distinct = true,
         .value_name = "DEG[,DEG...]",
         .help = "child-joint twist angles in degrees (default 0,90,180); one panel each"},
        {"--middle-weights", CLI_DOUBLES, c.middle_weights, .min_count = 2, .max_count = 2,
         .value_name = "W0,W1", .given = &c.has_middle_weights,
         .help = "(root, child) weights of the middle ring z = 1 (default 0.5,0.5);\n"
                 "each non-negative, the two summing to 1 within 1e-12"},
        {"--gltf", CLI_FLAG, &c.gltf,
         .help = "also write skinning30.gltf: the rig, its skin and a 0..180 deg\n"
                 "twist animation, for any glTF viewer"},
    };
    const cli_program program = {LAB, "Chapter 30: linear blend skinning of a twisted 9x24 cylinder.",
                                 options, CLI_COUNT(options), {"OUTDIR"}, 1, NULL};
    /* The article's steps in its order, each with the report section that shows it. */
    static const cli_step steps[] = {
        {.run = build_mesh_and_weights, .report = skinning30_report_mesh, /* "Mesh coordinates and ..." */
         .section = "Mesh: 9 rings x 24 vertices, z in [0, 2], radius 1, open ends (chapter 12 checks passed "
                    "on the bind mesh)"},
        {.run = bind_skeleton, .section = "Skeleton and weights", .report = skinning30_report_skeleton},
        {.run = check_bind_pose, .section = "Bind pose: every C_j = I, so no vertex may move",
         .report = skinning30_report_bind_pose},
        {.run = run_hand_control, .report = skinning30_report_hand_control,
         .section = "Hand control: p = (1,1,0), B_1 = Ty(1), G_1 = Ty(1) Rz(90 deg), equal weights"},
        {.run = twist_poses, .report = skinning30_report_radii, /* "The average of two rigid rotations ..." */
         .section = "Ring radius r' against r'/r = sqrt(1 - 4 w (1-w) sin^2(theta/2))"},
        {.section = "Why: the middle ring's blended matrix M = w0 C_0 + w1 C_1 is not rigid",
         .report = skinning30_report_blend, .continues = true},
        {.section = "Independent analytic check (weighted 2-D rotation, no matrices)",
         .report = skinning30_report_analytic},
        {.section = "Degenerate triangles (area <= 1e-12) at the deformed positions, bind topology kept "
                    "(our count: the article prints none)",
         .report = skinning30_report_degenerate},
        {.run = refuse_invalid_inputs, .section = "Invalid inputs: each must be rejected by its own rule",
         .report = skinning30_report_invalid_inputs},
        {.run = sweep_twist}, /* the animation's poses */
        {.run = skinning30_choose_camera}, /* the figure (skinning30_figures.c) */
        {.run = skinning30_figures},
        {.run = skinning30_evidence}, /* every number, as JSON and CSV */
        {.run = skinning30_animation},   /* the twist from 0 to 360 degrees, 73 frames */
    };
    static const cli_chapter chapter = {steps, CLI_COUNT(steps),
                                        "Chapter 30: how bones drive a mesh - linear blend skinning of a twisted cylinder",
                                        false, skinning30_locate, skinning30_release};
    return cli_main(&program, argc, argv, &chapter, &c, &c.out, &c.outdir);
}
