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
 *   skinning30.json, -radii.csv    the scene and every check; the radius table
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

#include "program/cli.h"
#include "draw/diagram.h"
#include "draw/figure.h"
#include "record30.h"
#include "rig30_check.h"

#define LAB "lab30"
#define PANEL_W 320
#define PANEL_H 496
#define LABEL_H figure_label_height(4) /* four label lines */

/* ---- the rig, step by step ------------------------------------------------------------ */

/* "Mesh coordinates and joint coordinates": the bind mesh, chapter 12's checks on it, and
 * the weights w_1 = z/2 (child), w_0 = 1 - z/2 (root); --middle-weights replaces ring 4's. */
static lab_error build_mesh_and_weights(void *state, lab_diag *d)
{
    chapter30 *c = state;
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
    rig30_rig *rig = &((chapter30 *)state)->rig;
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
static lab_error bind_pose_check(void *state, lab_diag *d)
{
    chapter30 *c = state;
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
static lab_error hand_control(void *state, lab_diag *d)
{
    chapter30 *c = state;
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
static lab_error twist_pose(chapter30 *c, double theta_deg, lab_diag *d)
{
    lab30_pose *p = &c->pose[c->pose_count];
    p->theta_deg = theta_deg;
    lab_error e = rig30_pose_alloc(&c->rig, &p->pose, d);
    if (e != LAB_OK)
        return e;
    c->pose_count++;
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
    rig30_check_twist(&c->rig, &p->pose, SKIN_LBS, &c->analytic);
    return LAB_OK;
}

/* Every pose the run asks for (--theta; the article's 0, 90 and 180 degrees by default). */
static lab_error twist_poses(void *state, lab_diag *d)
{
    chapter30 *c = state;
    lab_error e = LAB_OK;
    for (int i = 0; e == LAB_OK && i < c->theta_count; i++)
        e = twist_pose(c, c->theta_deg[i], d);
    return e;
}

/* Each invalid input through the real pipeline: it must be refused by its own rule. */
static lab_error invalid_inputs(void *state, lab_diag *d)
{
    chapter30 *c = state;
    c->invalid_count = rig30_invalid_case_count();
    c->invalid_code = calloc((size_t)c->invalid_count, sizeof *c->invalid_code);
    c->invalid_diag = calloc((size_t)c->invalid_count, sizeof *c->invalid_diag);
    if (!c->invalid_code || !c->invalid_diag)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "invalid inputs", "%d cases", c->invalid_count);
    for (int i = 0; i < c->invalid_count; i++)
        c->invalid_code[i] = rig30_invalid_case_run(&c->rig, i, &c->invalid_diag[i]);
    return LAB_OK;
}


/* ---- the figure ---------------------------------------------------------------------- */

/* One camera for every panel: an oblique look at the middle of the cylinder, and one
 * orthographic window fitted to every pose's vertices and the axis, so nothing clips and
 * the panels compare at the same scale. */
static lab_error choose_camera(void *state, lab_diag *d)
{
    chapter30 *c = state;
    const vec3 *sets[LAB30_MAX_POSES + 1] = {c->axis};
    int count[LAB30_MAX_POSES + 1] = {2};
    for (int i = 0; i < c->pose_count; i++)
        sets[i + 1] = c->pose[i].pose.positions, count[i + 1] = c->rig.bind.vertex_count;
    return figure_fit_camera(&c->cam, vec3_make(3.0, -5.0, 4.4), vec3_make(0, 0, 1), sets, count,
                             c->pose_count + 1, 0.04, (camera_viewport_rect){0, LABEL_H, PANEL_W, PANEL_H - LABEL_H}, d);
}

/* The bind mesh's edges at the skinned positions; the middle ring in orange. */
static lab_error draw_panel(const chapter30 *c, const lab30_pose *p, canvas *out, lab_diag *d)
{
    bool *middle = NULL; /* the middle ring's edges, in orange */
    lab_error e = rig30_edge_masks(&c->rig, c->edges, c->edge_count, &middle, NULL, d);
    if (e == LAB_OK)
        e = canvas_init(out, PANEL_W, PANEL_H, FIGURE_BACKGROUND, d);
    if (e == LAB_OK) {
        char line1[64], line2[64], line3[64], line4[64];
        snprintf(line1, sizeof line1, "theta = %g deg", p->theta_deg);
        snprintf(line2, sizeof line2, "middle ring r = %.6g", p->ring[RIG30_MIDDLE_RING].mean);
        /* the blended matrix's singular values: how much it squashes the ring's plane */
        snprintf(line3, sizeof line3, "det M = %.3g", p->middle_det);
        snprintf(line4, sizeof line4, "sv(M) %.3g %.3g %.3g", p->middle_singular[0], p->middle_singular[1],
                 p->middle_singular[2]);
        const char *label[4] = {line1, line2, line3, line4};
        figure_panel panel = {.positions = p->pose.positions, .edges = c->edges,
                              .edge_count = c->edge_count, .highlight = middle,
                              .axis_from = c->axis[0], .axis_to = c->axis[1], .label = label,
                              .label_lines = 4};
        figure_draw_panel(out, &c->cam, &panel);
    }
    free(middle);
    return e;
}

/* Section 4 drawn in the xy plane: p, its two candidates C_0 p = p and C_1 p, their blend
 * (the midpoint), and where the two wrong orders put it. 100 pixels a unit. */
static void draw_hand_control(const rig30_hand_control *h, const diagram *g)
{
    diagram_axes(g, -1.6, 2.4, -0.4, 2.6, 1.0, "x", "y");
    diagram_segment(g, h->point.x, h->point.y, h->child_moves_it.x, h->child_moves_it.y, 6, DIAGRAM_BLUE);
    const struct { vec3 at; rgb color; diagram_side side; const char *label; } marks[] = {
        {h->point, FIGURE_TEXT, DIAGRAM_RIGHT, "p = C0 p"},
        {h->in_bind_frame, DIAGRAM_GREY, DIAGRAM_ABOVE, "B1^-1 p"}, /* on the x axis: its label above */
        {h->child_moves_it, DIAGRAM_BLUE, DIAGRAM_RIGHT, "C1 p"},
        {h->computed[HAND_CORRECT], DIAGRAM_GREEN, DIAGRAM_RIGHT, "G1 B1^-1: blend"},
        {h->computed[HAND_NO_INVERSE_BIND], DIAGRAM_RED, DIAGRAM_LEFT, "G1 alone"},
        {h->computed[HAND_REVERSED_ORDER], DIAGRAM_RED, DIAGRAM_LEFT, "B1^-1 G1"},
    };
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        diagram_point(g, marks[i].at.x, marks[i].at.y, marks[i].color, marks[i].side, "%s", marks[i].label);
}

/* The weights on the bind mesh: each edge coloured by its ends' child weight w_1 = z/2. */
static lab_error draw_weights(const chapter30 *c, canvas *out, lab_diag *d)
{
    int n = c->edge_count;
    vec3 *a = malloc(sizeof *a * (size_t)(n ? n : 1)), *b = malloc(sizeof *b * (size_t)(n ? n : 1));
    rgb *color = malloc(sizeof *color * (size_t)(n ? n : 1));
    lab_error e = a && b && color ? canvas_init(out, PANEL_W, PANEL_H, FIGURE_BACKGROUND, d)
                                  : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "weights panel", "%d edges", n);
    for (int i = 0; e == LAB_OK && i < n; i++) {
        a[i] = c->rig.bind.vertices[c->edges[i].a], b[i] = c->rig.bind.vertices[c->edges[i].b];
        double w = 0.5 * (rig30_child_weight(&c->rig.influences, c->edges[i].a) +
                          rig30_child_weight(&c->rig.influences, c->edges[i].b));
        color[i] = figure_error_color(w, 1.0);
    }
    if (e == LAB_OK) {
        figure_draw_lines(out, &c->cam, a, b, color, n);
        raster_text(out, 8, 8, FIGURE_TEXT_SCALE, "child weight w1 = z/2", FIGURE_TEXT);
        for (int k = 0; k < 20; k++) /* the colour bar: w1 from 0 to 1 */
            raster_fill_rect(out, 40 + 12 * k, 40, 12, 14, figure_error_color((k + 0.5) / 20.0, 1.0));
        raster_text(out, 8, 62, FIGURE_TEXT_SCALE, "0 root", FIGURE_TEXT);
        raster_text(out, PANEL_W - 8 - raster_text_width("1 child", FIGURE_TEXT_SCALE), 62, FIGURE_TEXT_SCALE,
                    "1 child", FIGURE_TEXT);
    }
    free(a), free(b), free(color);
    return e;
}

/* Exercise 2 as a picture, titled as what it is: a demonstration of data lab30 refuses.
 * At the bind pose every C_j = I, so LBS gives p~' = (w_0 + w_1) p~: weights 0.4 + 0.4 on
 * the middle ring put it at 0.8 p (the homogeneous w is 0.8), off the bind mesh it must
 * reproduce. Beside it the bind pose with the chapter's weights, which sum to 1. */
static lab_error draw_refused_weights(const chapter30 *c, canvas *out, lab_diag *d)
{
    const int n = c->rig.bind.vertex_count, joint[2] = {0, 1};
    const double refused[2] = {0.4, 0.4};
    const mat4 bind_palette[2] = {mat4_identity(), mat4_identity()}; /* C_j = I at the bind pose */
    vec3 *shrunk = malloc(sizeof *shrunk * (size_t)n);
    bool *middle = NULL;
    lab_error e = shrunk ? rig30_edge_masks(&c->rig, c->edges, c->edge_count, &middle, NULL, d)
                         : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "refused weights", "%d vertices", n);
    for (int v = 0; e == LAB_OK && v < n; v++) {
        vec3 p = c->rig.bind.vertices[v];
        vec4 q = skin_lbs_point(p, joint, refused, 2, bind_palette); /* (0.8 p, w = 0.8) */
        shrunk[v] = v / RIG30_SEGMENTS == RIG30_MIDDLE_RING ? vec3_make(q.x, q.y, q.z) : p;
    }
    canvas panels[2] = {{0}};
    const char *labels[2][4] = {{"the chapter's weights", "w0 + w1 = 1 everywhere", "bind pose: p' = p", ""},
                                {"middle ring: 0.4 + 0.4", "= 0.8: refused (exit 1)", "bind pose: p' = 0.8 p", ""}};
    for (int k = 0; e == LAB_OK && k < 2; k++) {
        e = canvas_init(&panels[k], PANEL_W, PANEL_H, FIGURE_BACKGROUND, d);
        figure_panel panel = {.positions = k ? shrunk : c->rig.bind.vertices, .edges = c->edges,
                              .edge_count = c->edge_count, .highlight = middle, .axis_from = c->axis[0],
                              .axis_to = c->axis[1], .label = labels[k], .label_lines = 4};
        if (e == LAB_OK)
            figure_draw_panel(&panels[k], &c->cam, &panel);
    }
    if (e == LAB_OK)
        e = figure_compose(out, panels, 2, 12,
                           "Exercise 2, a demonstration of refused data:\nweights that do not sum to 1, "
                           "seen at the bind pose", d);
    canvas_free(&panels[0]), canvas_free(&panels[1]);
    free(shrunk), free(middle);
    return e;
}

static lab_error add_figures(void *state, lab_diag *d)
{
    chapter30 *c = state;
    canvas panels[LAB30_MAX_POSES] = {{0}}, fig = {0};
    lab_error e = LAB_OK;
    for (int i = 0; e == LAB_OK && i < c->pose_count; i++)
        e = draw_panel(c, &c->pose[i], &panels[i], d);
    if (e == LAB_OK)
        e = figure_compose(&fig, panels, c->pose_count, 12,
                           "LBS twist of a 9x24 cylinder. Orange: the middle ring z = 1; dashed: the axis.\n"
                           "M = w0 C0 + w1 C1, the middle ring's blended matrix; sv(M): its singular values", d);
    output_name names[LAB30_MAX_POSES];
    for (int i = 0; i < c->pose_count; i++) { /* "skinning30-theta090.png" */
        char angle[40];
        snprintf(names[i], sizeof names[i], "skinning30-theta%s.png",
                 figure_angle_tag(angle, sizeof angle, c->pose[i].theta_deg));
    }
    e = output_batch_add_figure(&c->out, e, "skinning30.png", &fig, panels, names, c->pose_count, d);
    canvas hand = {0}, weights = {0}, refused = {0};
    diagram plane;
    if (e == LAB_OK)
        e = diagram_init(&plane, &hand, 460, 410, 210, 330, 100, "Hand control: B1 = Ty(1),\nG1 = Ty(1) Rz(90), w = 1/2", d);
    if (e == LAB_OK)
        draw_hand_control(&c->hand, &plane);
    if (e == LAB_OK)
        e = output_batch_add_image(&c->out, "skinning30-hand.png", &hand, d);
    if (e == LAB_OK)
        e = draw_weights(c, &weights, d);
    if (e == LAB_OK)
        e = output_batch_add_image(&c->out, "skinning30-weights.png", &weights, d);
    if (e == LAB_OK)
        e = draw_refused_weights(c, &refused, d);
    if (e == LAB_OK)
        e = output_batch_add_image(&c->out, "skinning30-refused-weights.png", &refused, d);
    canvas_free(&hand), canvas_free(&weights), canvas_free(&refused);
    return e;
}

/* ---- main: the article's steps, in its order ------------------------------------------- */

int main(int argc, char **argv)
{
    static chapter30 c = {.theta_deg = {0, 90, 180}, .theta_count = 3, .middle_weights = {0.5, 0.5},
                          .axis = {{0, 0, -0.3}, {0, 0, RIG30_HEIGHT + 0.3}}};
    const cli_option options[] = {
        {"--theta", CLI_DOUBLES, c.theta_deg, .count = &c.theta_count, .min_count = 1,
         .max_count = LAB30_MAX_POSES, .min = -3600, .max = 3600, .distinct = true,
         .value_name = "DEG[,DEG...]",
         .help = "child-joint twist angles in degrees (default 0,90,180); one panel each"},
        {"--middle-weights", CLI_DOUBLES, c.middle_weights, .min_count = 2, .max_count = 2,
         .value_name = "W0,W1", .given = &c.has_middle_weights,
         .help = "(root, child) weights of the middle ring z = 1 (default 0.5,0.5);\n"
                 "they must sum to 1 within 1e-12"},
        {"--gltf", CLI_FLAG, &c.gltf,
         .help = "also write skinning30.gltf: the rig, its skin and a 0..180 deg\n"
                 "twist animation, for any glTF viewer"},
    };
    const cli_program program = {LAB, "Chapter 30: linear blend skinning of a twisted 9x24 cylinder.",
                                 options, 3, {"OUTDIR"}, 1, NULL};
    /* The article's steps in its order, each with the report section that shows it. */
    static const cli_step steps[] = {
        {.run = build_mesh_and_weights, .report = record30_report_mesh, /* "Mesh coordinates and ..." */
         .section = "Mesh: 9 rings x 24 vertices, z in [0, 2], radius 1, open ends (chapter 12 checks passed "
                    "on the bind mesh)"},
        {.run = bind_skeleton, .section = "Skeleton and weights", .report = record30_report_skeleton},
        {.run = bind_pose_check, .section = "Bind pose: every C_j = I, so no vertex may move",
         .report = record30_report_bind_pose},
        {.run = hand_control, .report = record30_report_hand_control,
         .section = "Hand control: p = (1,1,0), B_1 = Ty(1), G_1 = Ty(1) Rz(90 deg), equal weights"},
        {.run = twist_poses, .report = record30_report_radii, /* "The average of two rigid rotations ..." */
         .section = "Ring radius r' against r'/r = sqrt(1 - 4 w (1-w) sin^2(theta/2))"},
        {.section = "Why: the middle ring's blended matrix M = w0 C_0 + w1 C_1 is not rigid",
         .report = record30_report_blend, .continues = true},
        {.section = "Independent analytic check (weighted 2-D rotation, no matrices)",
         .report = record30_report_analytic},
        {.section = "Degenerate triangles (area <= 1e-12) at the deformed positions, bind topology kept "
                    "(our count: the article prints none)",
         .report = record30_report_degenerate},
        {.run = invalid_inputs, .section = "Invalid inputs: each must be rejected by its own rule",
         .report = record30_report_invalid_inputs},
        {.run = choose_camera}, /* the figure */
        {.run = add_figures},
        {.run = record30_evidence}, /* every number, as JSON and CSV */
    };
    static const cli_chapter chapter = {steps, sizeof steps / sizeof steps[0],
                                        "Chapter 30: how bones drive a mesh - linear blend skinning of a twisted cylinder",
                                        false, record30_locate, record30_release};
    return cli_main(&program, argc, argv, &chapter, &c, &c.out, &c.outdir);
}
