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

/* ---- the stages, in the article's order: each takes what it reads, fills what it makes,
 * and decides the checks of the numbers it made -------------------------------------- */

/* "Mesh coordinates and joint coordinates": the bind mesh, chapter 12's checks on it, and
 * the weights w_1 = z/2 (child), w_0 = 1 - z/2 (root); --middle-weights replaces ring 4's. */
static lab_error build_mesh_and_weights(const skinning30_options *o, rig30_rig *rig, mesh_edge **edges,
                                        int *edge_count, report_checks *checks, lab_diag *d)
{
    rig->kind = RIG30_TWIST;
    lab_error e = mesh_cylinder(RIG30_RINGS, RIG30_SEGMENTS, RIG30_RADIUS, RIG30_HEIGHT, &rig->bind, d);
    if (e == LAB_OK)
        e = mesh_check(&rig->bind, RIG30_MIN_AREA, &rig->stats, d);
    if (e == LAB_OK)
        e = mesh_unique_edges(rig->bind.triangles, rig->bind.triangle_count, edges, edge_count, d);
    if (e == LAB_OK)
        e = rig30_weights(RIG30_TWIST, &rig->bind, &rig->influences, d);
    if (e == LAB_OK && o->has_middle_weights)
        rig30_set_middle_ring(&rig->influences, o->middle_weights);
    /* w_j >= 0 and sum_j w_j = 1 within 1e-12, never normalised behind the student's back */
    if (e == LAB_OK)
        e = skin_validate_influences(&rig->influences, RIG30_JOINTS, d);
    if (e == LAB_OK) { /* the article's counts */
        check_count(checks, "vertices", rig->bind.vertex_count, 216);
        check_count(checks, "triangles", rig->bind.triangle_count, 384);
        check_count(checks, "unique edges", rig->stats.unique_edges, 600);
        check_count(checks, "boundary edges", rig->stats.boundary_edges, 48);
    }
    return e;
}

/* "Hierarchy evaluation and vertex blending are two steps": at theta = 0 the locals give
 * the bind pose, B_0 = G_0(0) = I and B_1 = G_1(0) = Tz(2); the inverse bind comes from
 * the helper that inverts pure translations only. */
static lab_error bind_skeleton(rig30_rig *rig, lab_diag *d)
{
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
static lab_error check_bind_pose(const rig30_rig *rig, double *max_error, report_checks *checks, lab_diag *d)
{
    rig30_pose bind;
    lab_error e = rig30_pose_alloc(rig, &bind, d);
    if (e == LAB_OK)
        e = skin_twist(rig, 0.0, &bind, d);
    if (e == LAB_OK) { /* the largest |p' - p| over the 216 vertices */
        *max_error = rig30_max_distance(bind.positions, rig->bind.vertices, rig->bind.vertex_count);
        check_bound(checks, "largest displacement (216 vertices)", *max_error, RIG30_CHECK_TOLERANCE);
    }
    rig30_pose_free(&bind);
    return e;
}

/* |a - b| <= the chapter's tolerance, recorded as a comparison of the distance with 0. */
static void check_distance(report_checks *checks, const char *what, double distance)
{
    check_add(checks, what, REPORT_COMPARE, distance, 0, RIG30_CHECK_TOLERANCE, distance <= RIG30_CHECK_TOLERANCE);
}

/* The article's hand control: matrix order and the inverse bind on one point, and why the
 * cylinder alone cannot catch a reversed order (Tz(2) and Rz(theta) commute). */
static lab_error run_hand_control(const rig30_rig *rig, const skinning30_options *o, rig30_hand_control *h,
                                  report_checks *checks, lab_diag *d)
{
    lab_error e = rig30_hand_control_run(h, d);
    for (int i = 0; e == LAB_OK && i < o->theta_count; i++) {
        double difference;
        e = rig30_reversed_order_on_cylinder(rig, deg_to_rad(o->theta_deg[i]), &difference, d);
        h->cylinder_reversed_difference = fmax(h->cylinder_reversed_difference, difference);
    }
    if (e != LAB_OK)
        return e;
    for (int k = 0; k < HAND_ROWS; k++) /* each computation against the article's table */
        check_distance(checks, h->name[k], vec3_length(vec3_sub(h->computed[k], h->article[k])));
    check_distance(checks, "B_1^-1 p against the article's (1, 0, 0)",
                   vec3_length(vec3_sub(h->in_bind_frame, vec3_make(1, 0, 0))));
    check_distance(checks, "C_1 p against the article's (0, 2, 0)",
                   vec3_length(vec3_sub(h->child_moves_it, vec3_make(0, 2, 0))));
    check_distance(checks, "row vectors against column vectors", h->row_column_difference);
    return LAB_OK;
}

/* "The average of two rigid rotations is not rigid": skin one pose, measure every ring
 * against r'/r = sqrt(1 - 4 w (1-w) sin^2(theta/2)), count degenerate triangles, and
 * compare every vertex with the weighted 2-D rotation (rig30_check, no matrices). *count
 * is incremented once p holds memory to free. */
static lab_error twist_pose(const rig30_rig *rig, double theta_deg, skinning30_pose *p, int *count, lab_diag *d)
{
    p->theta_deg = theta_deg;
    lab_error e = rig30_pose_alloc(rig, &p->pose, d);
    if (e != LAB_OK)
        return e;
    (*count)++; /* freed with the others from here on */
    e = skin_twist(rig, deg_to_rad(theta_deg), &p->pose, d);
    if (e != LAB_OK)
        return e;
    for (int ring = 0; ring < RIG30_RINGS; ring++) {
        p->ring[ring] = rig30_measure_ring(p->pose.positions, ring);
        p->ring_weight[ring] = rig30_child_weight(&rig->influences, mesh_cylinder_index(RIG30_SEGMENTS, ring, 0));
        p->ring_analytic[ring] = RIG30_RADIUS * rig30_radius_ratio(p->ring_weight[ring], p->pose.theta);
    }
    p->degenerate_triangles = mesh_count_degenerate(p->pose.positions, rig->bind.triangles,
                                                    rig->bind.triangle_count, RIG30_MIN_AREA);
    /* Why the ring shrinks: M = w_0 C_0 + w_1 C_1 is not rigid; its singular values say
     * how much it squashes each direction (1, 0, 0 at 180 degrees: the ring's plane is gone) */
    int v = mesh_cylinder_index(RIG30_SEGMENTS, RIG30_MIDDLE_RING, 0), k = rig->influences.per_vertex;
    p->middle_weights[0] = skin_joint_weight(&rig->influences, v, 0);
    p->middle_weights[1] = skin_joint_weight(&rig->influences, v, 1);
    p->middle_blend = skin_blend_matrix(rig->influences.joint + v * k, rig->influences.weight + v * k, k,
                                        p->pose.palette);
    p->middle_det = mat4_linear_det(p->middle_blend);
    mat4_linear_singular_values(p->middle_blend, p->middle_singular);
    double ratio = rig30_radius_ratio(p->middle_weights[1], p->pose.theta);
    p->middle_singular_analytic[0] = 1.0, p->middle_singular_analytic[1] = p->middle_singular_analytic[2] = ratio;
    rig30_check_twist(rig, &p->pose, SKIN_LBS, &p->check);
    return LAB_OK;
}

/* Every pose the run asks for (--theta; the article's 0, 90 and 180 degrees by default),
 * and their checks: each ring's mean radius against the closed form (and, at the article's
 * poses, one vertex against the digits it prints), the middle ring's singular values, and
 * every vertex against the weighted 2-D rotation. */
static lab_error twist_poses(const rig30_rig *rig, const skinning30_options *o, skinning30_pose *poses,
                             int *count, rig30_check *analytic, skinning30_checks *checks, lab_diag *d)
{
    lab_error e = LAB_OK;
    for (int i = 0; e == LAB_OK && i < o->theta_count; i++) {
        e = twist_pose(rig, o->theta_deg[i], &poses[i], count, d);
        if (e == LAB_OK)
            rig30_check_twist(rig, &poses[i].pose, SKIN_LBS, analytic);
    }
    if (e != LAB_OK)
        return e;
    char label[64];
    for (int i = 0; i < *count; i++)
        for (int k = 0; k < RIG30_RINGS; k++) {
            const skinning30_pose *p = &poses[i];
            snprintf(label, sizeof label, "%g deg, ring %d (w = %g)%s", p->theta_deg, k,
                     p->ring_weight[k], k == RIG30_MIDDLE_RING ? " middle" : "");
            check_compare(&checks->radii, label, p->ring[k].mean, p->ring_analytic[k], RIG30_CHECK_TOLERANCE);
        }
    /* The article printed one vertex's radius, the mean is ours: segment 0, p = (1, 0, 1),
     * goes to (1 - w + w cos t, w sin t, 1), at 180 deg exactly (0, 0.5 sin(pi), 1); to half
     * a unit of the last digit it prints. */
    static const double article[3] = {1, 0.707106781186548, 6.12323399573677e-17};
    static const double digits[3] = {0.5, 5e-16, 5e-31};
    for (int i = 0; skinning30_is_article_run(o) && i < 3; i++) {
        snprintf(label, sizeof label, "%g deg, segment 0 vs article", poses[i].theta_deg);
        check_compare(&checks->radii, label, poses[i].ring[RIG30_MIDDLE_RING].vertex[0], article[i], digits[i]);
    }
    for (int i = 0; i < *count; i++)
        for (int s = 0; s < 3; s++) {
            snprintf(label, sizeof label, "  singular value %d (1, r'/r, r'/r)", s + 1);
            check_compare(&checks->blend, label, poses[i].middle_singular[s], poses[i].middle_singular_analytic[s],
                          RIG30_CHECK_TOLERANCE);
        }
    int vertices = *count * rig->bind.vertex_count;
    snprintf(label, sizeof label, "max position error (%d vertices)", vertices);
    check_bound(&checks->analytic, label, analytic->max_position_error, RIG30_CHECK_TOLERANCE);
    snprintf(label, sizeof label, "max radius error (%d vertices)", vertices);
    check_bound(&checks->analytic, label, analytic->max_radius_error, RIG30_CHECK_TOLERANCE);
    snprintf(label, sizeof label, "max ring-mean radius error (%d)", *count * RIG30_RINGS);
    check_bound(&checks->analytic, label, analytic->max_mean_radius_error, RIG30_CHECK_TOLERANCE);
    check_bound(&checks->analytic, "max height error", analytic->max_height_error, RIG30_CHECK_TOLERANCE);
    check_bound(&checks->analytic, "end rings vs quaternion rotation", analytic->max_end_ring_error,
                RIG30_CHECK_TOLERANCE);
    return LAB_OK;
}

/* The animation's frames: the same pose, every 5 degrees of a whole turn. */
static lab_error sweep_twist(const rig30_rig *rig, skinning30_pose *frames, int *count, lab_diag *d)
{
    lab_error e = LAB_OK;
    for (int k = 0; e == LAB_OK && k < LAB30_SWEEP_FRAMES; k++)
        e = twist_pose(rig, k * LAB30_SWEEP_STEP_DEG, &frames[k], count, d);
    return e;
}

/* ---- main: the stages in the article's order, then the figures, the evidence and the
 * report ------------------------------------------------------------------------------ */

int main(int argc, char **argv)
{
    skinning30 c = {.options = {.theta_deg = {0, 90, 180}, .theta_count = 3, .middle_weights = {0.5, 0.5}},
                    .axis = {{0, 0, -0.3}, {0, 0, RIG30_HEIGHT + 0.3}}};
    skinning30_options *o = &c.options;
    const cli_option options[] = {
        {"--theta", CLI_DOUBLES, o->theta_deg, .count = &o->theta_count, .min_count = 1,
         .max_count = LAB30_MAX_POSES, .min = -3600, .max = 3600, .distinct = true,
         .value_name = "DEG[,DEG...]",
         .help = "child-joint twist angles in degrees (default 0,90,180); one panel each"},
        {"--middle-weights", CLI_DOUBLES, o->middle_weights, .min_count = 2, .max_count = 2,
         .value_name = "W0,W1", .given = &o->has_middle_weights,
         .help = "(root, child) weights of the middle ring z = 1 (default 0.5,0.5);\n"
                 "each non-negative, the two summing to 1 within 1e-12"},
        {"--gltf", CLI_FLAG, &o->gltf,
         .help = "also write skinning30.gltf: the rig, its skin and a 0..180 deg\n"
                 "twist animation, for any glTF viewer"},
    };
    const cli_program program = {LAB, "Chapter 30: linear blend skinning of a twisted 9x24 cylinder.",
                                 options, CLI_COUNT(options), {"OUTDIR"}, 1, NULL};
    cli_run run;
    int code = cli_begin(&run, &program, argc, argv);
    if (code != CLI_RUN)
        return code;

    lab_diag *d = &run.diag;
    skinning30_checks *checks = &c.checks;
    lab_error e = build_mesh_and_weights(o, &c.rig, &c.edges, &c.edge_count, &checks->mesh, d);
    if (e == LAB_OK)
        e = bind_skeleton(&c.rig, d);
    if (e == LAB_OK)
        e = check_bind_pose(&c.rig, &c.bind_max_error, &checks->bind_pose, d);
    if (e == LAB_OK)
        e = run_hand_control(&c.rig, o, &c.hand, &checks->hand, d);
    if (e == LAB_OK)
        e = twist_poses(&c.rig, o, c.pose, &c.pose_count, &c.analytic, checks, d);
    if (e == LAB_OK)
        e = skinning30_refuse_invalid_inputs(&c.rig, &c.invalid_count, &c.invalid_code, &c.invalid_diag, &checks->invalid, d);
    if (e == LAB_OK)
        e = sweep_twist(&c.rig, c.sweep, &c.sweep_count, d);
    /* the figures (skinning30_figures.c), every number as JSON and CSV (skinning30_record.c),
     * and the twist from 0 to 360 degrees, 73 frames */
    if (e == LAB_OK)
        e = skinning30_choose_camera(&c, &c.cam, d);
    if (e == LAB_OK)
        e = skinning30_figures(&c, &run.out, d);
    if (e == LAB_OK)
        e = skinning30_evidence(&c, &run.out, d);
    if (e == LAB_OK)
        e = skinning30_animation(&c, &run.out, d);
    if (e != LAB_OK)
        skinning30_locate(o, d);

    /* The report: each section's heading, its checks, and its body. */
    if (e == LAB_OK &&
        cli_report(&run, "Chapter 30: how bones drive a mesh - linear blend skinning of a twisted cylinder")) {
        cli_section(&run, "Mesh: 9 rings x 24 vertices, z in [0, 2], radius 1, open ends (chapter 12 checks "
                          "passed on the bind mesh)", &checks->mesh);
        skinning30_report_mesh(&c, stdout);
        cli_section(&run, "Skeleton and weights", NULL);
        skinning30_report_skeleton(&c, stdout);
        cli_section(&run, "Bind pose: every C_j = I, so no vertex may move", &checks->bind_pose);
        skinning30_report_bind_pose(&c, stdout);
        cli_section(&run, "Hand control: p = (1,1,0), B_1 = Ty(1), G_1 = Ty(1) Rz(90 deg), equal weights",
                    &checks->hand);
        skinning30_report_hand_control(&c, stdout);
        cli_section(&run, "Ring radius r' against r'/r = sqrt(1 - 4 w (1-w) sin^2(theta/2))", &checks->radii);
        skinning30_report_radii(&c, stdout);
        cli_subsection(&run, "Why: the middle ring's blended matrix M = w0 C_0 + w1 C_1 is not rigid",
                       &checks->blend);
        skinning30_report_blend(&c, stdout);
        cli_section(&run, "Independent analytic check (weighted 2-D rotation, no matrices)", &checks->analytic);
        skinning30_report_analytic(&c, stdout);
        cli_section(&run, "Degenerate triangles (area <= 1e-12) at the deformed positions, bind topology kept "
                          "(our count: the article prints none)", NULL);
        skinning30_report_degenerate(&c, stdout);
        cli_section(&run, "Invalid inputs: each must be rejected by its own rule", &checks->invalid);
        skinning30_report_invalid_inputs(&c, stdout);
    }
    code = cli_end(&run, e);
    skinning30_free(&c);
    return code;
}
