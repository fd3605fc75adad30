/* lab30-dqs.c - Chapter 30, closing section: can another rotation representation fix the
 * shrinkage? Dual quaternion skinning (DQS, Kavan et al. 2007) beside LBS.
 *
 * Concepts: blending rigid transforms as unit dual quaternions instead of matrices keeps
 * every ring's radius under a twist (no candy wrapper) and the inner side of an elbow
 * (no joint collapse), at the price of a bulge on the outer side; the hemisphere fix
 * (q and -q are the same rotation) makes DQS take the short way round; a blend whose real
 * part vanishes is an error, not NaN; DQS accepts rigid transforms only.
 *
 * Usage:  build/bin/lab30-dqs [--twist DEG[,DEG...]] [--bend DEG[,DEG...]]
 *                            [--child-scale S | SX,SY,SZ] OUTDIR
 *
 * Writes into OUTDIR (which must exist), all or nothing:
 *   dqs30.png                       rows LBS and DQS, one column per pose
 *   dqs30-<method>-<rig>NNN.png     each panel alone (method lbs|dqs, rig twist|bend)
 *   dqs30-radius.png                r'/r against the child weight w, LBS and DQS
 *   dqs30.json                      positions, ring radii and angles, analytic values,
 *                                   bend metrics, the short way, the checks
 *   dqs30-rings.csv                 method,rig,pose_deg,ring,weight,radius,... per ring
 *
 * Conventions as in lab30 (src/linalg.h). Exit codes: 0 success, 1 data rejected or a
 * self-check failed, 2 usage, 3 output directory or write failure.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "camera.h"
#include "cli.h"
#include "evidence.h"
#include "figure.h"
#include "output.h"
#include "rig30_json.h"
#include "plot.h"
#include "report.h"
#include "rig30.h"
#include "rig30_check.h"

#define LAB "lab30-dqs"
#define MAX_ANGLES 4
#define MAX_ABS_ANGLE_DEG 720.0
#define PANEL_W 260
#define PANEL_H 360
#define LABEL_H 56
#define SWEEP_SAMPLES 21                     /* w = 0, 0.05, ..., 1 */
#define SWEEP_ANGLES 4

static const double sweep_theta_deg[SWEEP_ANGLES] = {60, 90, 120, 180};
static const skin_method methods[2] = {SKIN_LBS, SKIN_DQS};

/* ---- command line ----------------------------------------------------------------- */

typedef struct {
    double twist_deg[MAX_ANGLES], bend_deg[MAX_ANGLES];
    int twist_count, bend_count;
    double child_scale[3];        /* (1, 1, 1) unless --child-scale: DQS refuses anything else */
} options;




/* ---- the computation ------------------------------------------------------------------ */

/* One skinned pose: a rig, a method, an angle, and what was measured on it. */
typedef struct {
    rig30_kind rig;
    skin_method method;
    double angle_deg;
    rig30_pose pose;
    double radius[RIG30_RINGS], radius_analytic[RIG30_RINGS];  /* analytic NAN where none */
    double angle[RIG30_RINGS], angle_analytic[RIG30_RINGS];    /* twist, radians */
    rig30_check check;                                         /* twist */
    rig30_bend_metrics bend;                                   /* bend */
} pose_result;

typedef struct {
    rig30_rig rigs[2];                     /* indexed by rig30_kind */
    mesh_edge *edges;
    int edge_count;
    pose_result pose[2 * 2 * MAX_ANGLES];
    int pose_count;
    rig30_check twist_check[2];            /* per method, over all twist poses */
    /* the short way round at 270 degrees, and a full turn without the fix */
    double short_with_fix, short_without_fix, short_analytic; /* middle ring turn, radians */
    lab_error full_turn_code;
    lab_diag full_turn_diag;
    double full_turn_with_fix_displacement;
    double sign_difference;                /* q vs -q for the child, after the fix */
    lab_error rigid_code;
    lab_diag rigid_diag;
    double sweep[2][SWEEP_ANGLES][SWEEP_SAMPLES];           /* measured r'/r */
    double sweep_analytic[2][SWEEP_ANGLES][SWEEP_SAMPLES];
    camera cam[2];                                          /* per rig */
} results;


static void results_free(results *r)
{
    for (int i = 0; i < r->pose_count; i++)
        free(r->pose[i].pose.positions);
    free(r->edges);
    rig30_rig_free(&r->rigs[RIG30_TWIST]);
    rig30_rig_free(&r->rigs[RIG30_BEND]);
}

static vec3 *new_positions(const results *r)
{
    return malloc(sizeof(vec3) * (size_t)r->rigs[RIG30_TWIST].bind.vertex_count);
}

/* A twist pose's rings against the closed forms of its method. */
static void measure_twist(const results *r, pose_result *p)
{
    const rig30_rig *rig = &r->rigs[RIG30_TWIST];
    for (int k = 0; k < RIG30_RINGS; k++) {
        double w = rig30_child_weight(&rig->influences, mesh_cylinder_index(RIG30_SEGMENTS, k, 0));
        bool dqs = p->method == SKIN_DQS;
        p->radius[k] = rig30_measure_ring(p->pose.positions, k).mean;
        p->radius_analytic[k] = RIG30_RADIUS * (dqs ? 1.0 : rig30_radius_ratio(w, p->pose.theta));
        p->angle[k] = rig30_measure_ring_angle(rig->bind.vertices, p->pose.positions, k);
        p->angle_analytic[k] = dqs ? rig30_dqs_twist_angle(w, p->pose.theta)
                                   : rig30_lbs_twist_angle(w, p->pose.theta);
    }
    rig30_check_twist(rig, &p->pose, p->method, &p->check);
}

/* A bend pose: the elbow metrics; DQS rings are rigid, so their analytic radius is 1. */
static void measure_bend(const results *r, pose_result *p)
{
    rig30_measure_bend(&r->rigs[RIG30_BEND], &p->pose, &p->bend);
    for (int k = 0; k < RIG30_RINGS; k++) {
        p->radius[k] = p->bend.ring_radius[k];
        p->radius_analytic[k] = p->method == SKIN_DQS ? RIG30_RADIUS : NAN;
        p->angle[k] = p->angle_analytic[k] = NAN;
    }
}

static lab_error run_pose(results *r, rig30_kind rig, skin_method method, double angle_deg,
                          lab_diag *d)
{
    pose_result *p = &r->pose[r->pose_count];
    *p = (pose_result){.rig = rig, .method = method, .angle_deg = angle_deg};
    if (!(p->pose.positions = new_positions(r)))
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "pose", "%g deg", angle_deg);
    r->pose_count++;
    skin_blend blend = {.method = method};
    lab_error e = rig30_pose_at(&r->rigs[rig], deg_to_rad(angle_deg), blend, &p->pose, d);
    if (e != LAB_OK)
        return e;
    if (rig == RIG30_TWIST) {
        measure_twist(r, p);
        rig30_check_twist(&r->rigs[RIG30_TWIST], &p->pose, method, &r->twist_check[method]);
    } else {
        measure_bend(r, p);
    }
    return LAB_OK;
}

/* The middle ring's turn at `theta` under DQS, with or without the hemisphere fix. */
static lab_error middle_turn(const results *r, double theta, bool fix, double *out, lab_diag *d)
{
    const rig30_rig *rig = &r->rigs[RIG30_TWIST];
    rig30_pose p = {.positions = new_positions(r)};
    if (!p.positions)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "short way", "%s", "positions");
    skin_blend blend = {.method = SKIN_DQS, .skip_hemisphere_fix = !fix};
    lab_error e = rig30_pose_at(rig, theta, blend, &p, d);
    if (e == LAB_OK)
        *out = rig30_measure_ring_angle(rig->bind.vertices, p.positions, RIG30_MIDDLE_RING);
    free(p.positions);
    return e;
}

/* 270 deg: the fix sends DQS the short way (-45 deg); without it the long way (+135).
 * 360 deg: without the fix the equal blend's real part vanishes; with it nothing moves. */
static lab_error hemisphere_demonstrations(results *r, lab_diag *d)
{
    double three_quarters = deg_to_rad(270), full = deg_to_rad(360);
    r->short_analytic = rig30_dqs_twist_angle(0.5, three_quarters);
    lab_error e = middle_turn(r, three_quarters, true, &r->short_with_fix, d);
    if (e == LAB_OK)
        e = middle_turn(r, three_quarters, false, &r->short_without_fix, d);
    if (e != LAB_OK)
        return e;
    double ignored;
    r->full_turn_code = middle_turn(r, full, false, &ignored, &r->full_turn_diag);
    const rig30_rig *rig = &r->rigs[RIG30_TWIST];
    rig30_pose p = {.positions = new_positions(r)};
    if (!p.positions)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "full turn", "%s", "positions");
    e = rig30_pose_at(rig, full, (skin_blend){.method = SKIN_DQS}, &p, d);
    for (int v = 0; e == LAB_OK && v < rig->bind.vertex_count; v++)
        r->full_turn_with_fix_displacement =
            fmax(r->full_turn_with_fix_displacement,
                 vec3_length(vec3_sub(p.positions[v], rig->bind.vertices[v])));
    free(p.positions);
    return e;
}

/* Runs the twist rig at `theta` with explicit inputs (locals, signed dual quaternions). */
static lab_error run_inputs(const results *r, const scene_node *joints, const dualquat *joints_dq,
                            skin_blend blend, vec3 *out, lab_diag *d)
{
    rig30_pose pose = {.positions = out};
    return rig30_pose_with(&r->rigs[RIG30_TWIST], joints, joints_dq, blend, &pose, d);
}

/* q and -q: negating the child's dual quaternion changes nothing after the fix. And DQS
 * refuses a child joint with scale, naming the joint and the scale. */
static lab_error sign_and_rigidity(results *r, lab_diag *d)
{
    double theta = deg_to_rad(150);
    scene_node joints[RIG30_JOINTS];
    dualquat dq[RIG30_JOINTS], flipped[RIG30_JOINTS];
    rig30_joints(RIG30_TWIST, theta, joints);
    rig30_joint_dualquats(RIG30_TWIST, theta, dq);
    memcpy(flipped, dq, sizeof dq);
    flipped[1] = dualquat_scale(dq[1], -1.0);
    vec3 *a = new_positions(r), *b = new_positions(r);
    lab_error e = (a && b) ? LAB_OK : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "sign", "%s", "positions");
    skin_blend dqs = {.method = SKIN_DQS};
    if (e == LAB_OK)
        e = run_inputs(r, joints, dq, dqs, a, d);
    if (e == LAB_OK)
        e = run_inputs(r, joints, flipped, dqs, b, d);
    for (int v = 0; e == LAB_OK && v < r->rigs[RIG30_TWIST].bind.vertex_count; v++)
        r->sign_difference = fmax(r->sign_difference, vec3_length(vec3_sub(a[v], b[v])));
    if (e == LAB_OK) { /* scale 2 along the child's x: fine for LBS, refused by DQS */
        joints[1].local = mat4_mul(joints[1].local, mat4_scale(2, 1, 1));
        r->rigid_code = run_inputs(r, joints, NULL, dqs, a, &r->rigid_diag);
    }
    free(a);
    free(b);
    return e;
}

static lab_error radius_sweep(results *r, lab_diag *d)
{
    for (int m = 0; m < 2; m++)
        for (int t = 0; t < SWEEP_ANGLES; t++)
            for (int k = 0; k < SWEEP_SAMPLES; k++) {
                double w = (double)k / (SWEEP_SAMPLES - 1), theta = deg_to_rad(sweep_theta_deg[t]);
                lab_error e = rig30_sweep_ring_radius(methods[m], w, theta, &r->sweep[m][t][k], d);
                if (e != LAB_OK)
                    return e;
                r->sweep_analytic[m][t][k] = methods[m] == SKIN_DQS ? 1.0 : rig30_radius_ratio(w, theta);
            }
    return LAB_OK;
}

/* --child-scale: the child joint's local gets the scale, and DQS must refuse the pose
 * (LBS would skin it). The rejection is the program's answer: exit 1, nothing written. */
static lab_error check_child_scale(const options *o, const results *r, lab_diag *d)
{
    const double *s = o->child_scale;
    if (s[0] == 1.0 && s[1] == 1.0 && s[2] == 1.0)
        return LAB_OK;
    double theta = deg_to_rad(o->twist_count ? o->twist_deg[0] : 90.0);
    scene_node joints[RIG30_JOINTS];
    rig30_joints(RIG30_TWIST, theta, joints);
    joints[1].local = mat4_mul(joints[1].local, mat4_scale(s[0], s[1], s[2]));
    vec3 *out = new_positions(r);
    lab_error e = out ? run_inputs(r, joints, NULL, (skin_blend){.method = SKIN_DQS}, out, d)
                      : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "child scale", "%s", "positions");
    free(out);
    return e;
}

static lab_error compute(const options *o, results *r, lab_diag *d)
{
    lab_error e = rig30_rig_build(&r->rigs[RIG30_TWIST], RIG30_TWIST, NULL, d);
    if (e == LAB_OK)
        e = rig30_rig_build(&r->rigs[RIG30_BEND], RIG30_BEND, NULL, d);
    if (e != LAB_OK)
        return e;
    const mesh *m = &r->rigs[RIG30_TWIST].bind;
    e = mesh_unique_edges(m->triangles, m->triangle_count, &r->edges, &r->edge_count, d);
    if (e == LAB_OK)
        e = check_child_scale(o, r, d);
    /* row-major over the figure: LBS row first, then DQS; twist columns, then bend */
    for (int mi = 0; e == LAB_OK && mi < 2; mi++) {
        for (int i = 0; e == LAB_OK && i < o->twist_count; i++)
            e = run_pose(r, RIG30_TWIST, methods[mi], o->twist_deg[i], d);
        for (int i = 0; e == LAB_OK && i < o->bend_count; i++)
            e = run_pose(r, RIG30_BEND, methods[mi], o->bend_deg[i], d);
    }
    if (e == LAB_OK)
        e = hemisphere_demonstrations(r, d);
    if (e == LAB_OK)
        e = sign_and_rigidity(r, d);
    if (e == LAB_OK)
        e = radius_sweep(r, d);
    return e;
}

/* ---- the figures --------------------------------------------------------------------- */

/* One camera per rig, fitted to every pose of that rig under both methods. */
static lab_error choose_cameras(results *r, lab_diag *d)
{
    /* the twist as in lab30; the bend from the side (+x), so the elbow shows in profile */
    const vec3 eyes[2] = {{3.0, -5.0, 4.4}, {8.0, -0.3, 1.0}};
    const vec3 targets[2] = {{0, 0, 1}, {0, -0.3, 1.0}};
    int n = r->rigs[RIG30_TWIST].bind.vertex_count;
    vec3 *all = malloc(sizeof *all * (size_t)(n * r->pose_count));
    if (!all)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "camera", "%d poses", r->pose_count);
    for (int kind = 0; kind < 2; kind++) {
        int count = 0;
        for (int i = 0; i < r->pose_count; i++)
            if ((int)r->pose[i].rig == kind) {
                memcpy(all + count, r->pose[i].pose.positions, sizeof *all * (size_t)n);
                count += n;
            }
        camera *c = &r->cam[kind];
        c->view = camera_look_at(eyes[kind], targets[kind], vec3_make(0, 0, 1));
        c->viewport = (camera_viewport_rect){0, LABEL_H, PANEL_W, PANEL_H - LABEL_H};
        c->projection = count ? camera_fit_orthographic(c->view, all, count, 0.04, c->viewport)
                              : camera_orthographic(-1, 1, -1, 1, 0.1, 10);
    }
    free(all);
    return LAB_OK;
}

/* Vertex v lies in the blended band: neither bone alone moves it. */
static bool blended(const rig30_rig *rig, int v)
{
    double w = rig30_child_weight(&rig->influences, v);
    return w > 0.0 && w < 1.0;
}

static void panel_label(const pose_result *p, char *line1, char *line2, size_t size)
{
    snprintf(line1, size, "%s %s %g deg", skin_method_name(p->method), rig30_kind_name(p->rig),
             p->angle_deg);
    if (p->rig == RIG30_TWIST && isnan(p->angle[RIG30_MIDDLE_RING]))
        snprintf(line2, size, "mid r %.3f (collapsed)", p->radius[RIG30_MIDDLE_RING]);
    else if (p->rig == RIG30_TWIST)
        snprintf(line2, size, "mid r %.3f turn %.1f", p->radius[RIG30_MIDDLE_RING],
                 rad_to_deg(p->angle[RIG30_MIDDLE_RING]));
    else
        snprintf(line2, size, "inner %.3f bulge %.3f", p->bend.inner_min_distance,
                 p->bend.outer_max_bulge);
}

static lab_error draw_panel(const results *r, const pose_result *p, canvas *c, lab_diag *d)
{
    const rig30_rig *rig = &r->rigs[p->rig];
    lab_error e = canvas_init(c, PANEL_W, PANEL_H, FIGURE_BACKGROUND, d);
    bool *middle = calloc((size_t)r->edge_count, sizeof *middle);
    bool *band = calloc((size_t)r->edge_count, sizeof *band);
    if (e == LAB_OK && (!middle || !band))
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "panel", "%d edges", r->edge_count);
    if (e == LAB_OK) {
        for (int i = 0; i < r->edge_count; i++) {
            mesh_edge edge = r->edges[i];
            middle[i] = edge.a / RIG30_SEGMENTS == RIG30_MIDDLE_RING &&
                        edge.b / RIG30_SEGMENTS == RIG30_MIDDLE_RING;
            band[i] = blended(rig, edge.a) && blended(rig, edge.b);
        }
        char line1[64], line2[64];
        panel_label(p, line1, line2, sizeof line1);
        const char *label[2] = {line1, line2};
        figure_panel panel = {.positions = p->pose.positions, .edges = r->edges,
                              .edge_count = r->edge_count, .highlight = middle, .band = band,
                              .axis_from = vec3_make(0, 0, 0), .axis_to = vec3_make(0, 0, 0),
                              .label = label, .label_lines = 2};
        figure_draw_panel(c, &r->cam[p->rig], &panel);
    }
    free(middle);
    free(band);
    return e;
}

static lab_error draw_radius_plot(const results *r, canvas *c, lab_diag *d)
{
    static const rgb colors[SWEEP_ANGLES] = {{0, 114, 178}, {0, 158, 115}, {213, 94, 0}, {204, 121, 167}};
    static const rgb dqs_color = {40, 40, 40};
    double w[SWEEP_SAMPLES];
    for (int k = 0; k < SWEEP_SAMPLES; k++)
        w[k] = (double)k / (SWEEP_SAMPLES - 1);
    plot_series series[2 * SWEEP_ANGLES];
    char labels[2 * SWEEP_ANGLES][48];
    for (int m = 0; m < 2; m++)
        for (int t = 0; t < SWEEP_ANGLES; t++) {
            int i = m * SWEEP_ANGLES + t;
            /* the four DQS curves coincide at r'/r = 1: one colour, one legend entry */
            snprintf(labels[i], sizeof labels[i], m ? "DQS, all four theta" : "LBS theta = %g",
                     sweep_theta_deg[t]);
            series[i] = (plot_series){w, r->sweep[m][t], SWEEP_SAMPLES, m ? dqs_color : colors[t],
                                      m ? 8 : 0, 2, (m && t) ? NULL : labels[i]};
        }
    plot_spec spec = {"Twist: ring radius r'/r against the child weight w", "child weight w",
                      "r'/r", 0, 1, 0.1, 0, 1.1, 0.1, series, 2 * SWEEP_ANGLES, false};
    return plot_draw(c, 960, 560, &spec, d);
}

static void panel_name(char *buf, size_t size, const pose_result *p)
{
    char method[8];
    snprintf(method, sizeof method, "%s", skin_method_name(p->method));
    for (char *ch = method; *ch; ch++)
        *ch = (char)(*ch - 'A' + 'a');
    double a = p->angle_deg;
    if (a == floor(a))
        snprintf(buf, size, "dqs30-%s-%s%s%03d.png", method, rig30_kind_name(p->rig),
                 a < 0 ? "-" : "", abs((int)a));
    else
        snprintf(buf, size, "dqs30-%s-%s%gdeg.png", method, rig30_kind_name(p->rig), a);
}

static lab_error add_figures(const results *r, const options *o, output_batch *b, lab_diag *d)
{
    enum { MAX_PANELS = 2 * 2 * MAX_ANGLES };
    canvas panels[MAX_PANELS] = {{0}}, fig = {0}, plot = {0};
    lab_error e = LAB_OK;
    for (int i = 0; e == LAB_OK && i < r->pose_count; i++)
        e = draw_panel(r, &r->pose[i], &panels[i], d);
    if (e == LAB_OK)
        e = figure_compose_grid(&fig, panels, r->pose_count, o->twist_count + o->bend_count, 12,
                                "Top: LBS, bottom: DQS. Orange: ring w = 1/2, teal: blended band",
                                d);
    if (e == LAB_OK)
        e = draw_radius_plot(r, &plot, d);
    if (e == LAB_OK)
        e = output_batch_add_image(b, "dqs30.png", &fig, d);
    if (e == LAB_OK)
        e = output_batch_add_image(b, "dqs30-radius.png", &plot, d);
    for (int i = 0; i < r->pose_count; i++) {
        char name[OUTPUT_MAX_NAME + 1];
        panel_name(name, sizeof name, &r->pose[i]);
        if (e == LAB_OK)
            e = output_batch_add_image(b, name, &panels[i], d);
        canvas_free(&panels[i]);
    }
    canvas_free(&fig);
    canvas_free(&plot);
    return e;
}

/* ---- the evidence -------------------------------------------------------------------- */

static cJSON *degrees_array(const double *radians, int n)
{
    double deg[RIG30_RINGS];
    for (int k = 0; k < n; k++)
        deg[k] = rad_to_deg(radians[k]);
    return json_number_array(deg, n);
}

static cJSON *pose_json(const results *r, const pose_result *p)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "rig", rig30_kind_name(p->rig));
    cJSON_AddStringToObject(o, "method", skin_method_name(p->method));
    json_add_number(o, "angle_deg", p->angle_deg);
    cJSON_AddItemToObject(o, "world", json_mat4_array(p->pose.world, RIG30_JOINTS));
    cJSON_AddItemToObject(o, "skin", json_mat4_array(p->pose.palette, RIG30_JOINTS));
    cJSON_AddItemToObject(o, "positions",
                          json_vec3_array(p->pose.positions, r->rigs[p->rig].bind.vertex_count));
    cJSON_AddItemToObject(o, "ring_radius", json_number_array(p->radius, RIG30_RINGS));
    cJSON_AddItemToObject(o, "ring_radius_analytic", json_number_array(p->radius_analytic, RIG30_RINGS));
    if (p->rig == RIG30_TWIST) {
        cJSON_AddItemToObject(o, "ring_angle_deg", degrees_array(p->angle, RIG30_RINGS));
        cJSON_AddItemToObject(o, "ring_angle_analytic_deg", degrees_array(p->angle_analytic, RIG30_RINGS));
        cJSON_AddItemToObject(o, "analytic", rig30_json_check(&p->check));
    } else {
        cJSON *bend = cJSON_AddObjectToObject(o, "bend");
        json_add_number(bend, "inner_min_distance", p->bend.inner_min_distance);
        json_add_number(bend, "outer_max_bulge", p->bend.outer_max_bulge);
    }
    return o;
}

static cJSON *rigs_json(const results *r)
{
    static const char *const profile[2] = {"w_1 = z/2", "w_1 = smoothstep over z in [0.5, 1.5]"};
    static const char *const local[2] = {"Tz(2) Rz(angle)", "Tz(1) Rx(angle)"};
    cJSON *o = cJSON_CreateObject();
    for (int kind = 0; kind < 2; kind++) {
        const rig30_rig *rig = &r->rigs[kind];
        double w[RIG30_RINGS];
        for (int k = 0; k < RIG30_RINGS; k++)
            w[k] = rig30_child_weight(&rig->influences, mesh_cylinder_index(RIG30_SEGMENTS, k, 0));
        cJSON *j = cJSON_AddObjectToObject(o, rig30_kind_name((rig30_kind)kind));
        cJSON_AddStringToObject(j, "child_local", local[kind]);
        cJSON_AddStringToObject(j, "weights", profile[kind]);
        cJSON_AddItemToObject(j, "ring_child_weight", json_number_array(w, RIG30_RINGS));
        cJSON_AddItemToObject(j, "bind_world", json_mat4_array(rig->bind_world, RIG30_JOINTS));
        cJSON_AddItemToObject(j, "inverse_bind", json_mat4_array(rig->inverse_bind, RIG30_JOINTS));
    }
    return o;
}

static cJSON *checks_json(const results *r)
{
    cJSON *o = cJSON_CreateObject();
    json_add_number(o, "tolerance", RIG30_CHECK_TOLERANCE);
    cJSON_AddItemToObject(o, "lbs_twist", rig30_json_check(&r->twist_check[SKIN_LBS]));
    cJSON_AddItemToObject(o, "dqs_twist", rig30_json_check(&r->twist_check[SKIN_DQS]));
    cJSON *s = cJSON_AddObjectToObject(o, "short_way_270");
    json_add_number(s, "middle_turn_with_fix_deg", rad_to_deg(r->short_with_fix));
    json_add_number(s, "middle_turn_analytic_deg", rad_to_deg(r->short_analytic));
    json_add_number(s, "middle_turn_without_fix_deg", rad_to_deg(r->short_without_fix));
    cJSON *f = cJSON_AddObjectToObject(o, "full_turn_360");
    cJSON_AddItemToObject(f, "without_fix", json_rejection(r->full_turn_code, LAB_ERR_DQ_ZERO_NORM,
                                                      &r->full_turn_diag));
    json_add_number(f, "with_fix_max_displacement", r->full_turn_with_fix_displacement);
    json_add_number(o, "sign_q_vs_minus_q_max_difference", r->sign_difference);
    cJSON_AddItemToObject(o, "rigid_only", json_rejection(r->rigid_code, LAB_ERR_NOT_RIGID, &r->rigid_diag));
    cJSON_AddStringToObject(o, "hemisphere_pivot", "the influence with the largest weight, the first on ties");
    return o;
}

static cJSON *sweep_json(const results *r)
{
    cJSON *a = cJSON_CreateArray();
    double w[SWEEP_SAMPLES];
    for (int k = 0; k < SWEEP_SAMPLES; k++)
        w[k] = (double)k / (SWEEP_SAMPLES - 1);
    for (int m = 0; m < 2; m++)
        for (int t = 0; t < SWEEP_ANGLES; t++) {
            cJSON *s = cJSON_CreateObject();
            cJSON_AddStringToObject(s, "method", skin_method_name(methods[m]));
            json_add_number(s, "theta_deg", sweep_theta_deg[t]);
            cJSON_AddItemToObject(s, "weight", json_number_array(w, SWEEP_SAMPLES));
            cJSON_AddItemToObject(s, "radius_ratio", json_number_array(r->sweep[m][t], SWEEP_SAMPLES));
            cJSON_AddItemToObject(s, "radius_ratio_analytic",
                                  json_number_array(r->sweep_analytic[m][t], SWEEP_SAMPLES));
            cJSON_AddItemToArray(a, s);
        }
    return a;
}

static lab_error add_json(const results *r, output_batch *b, lab_diag *d)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "lab", LAB);
    cJSON_AddItemToObject(root, "conventions", json_conventions());
    cJSON *mesh = cJSON_AddObjectToObject(root, "mesh");
    cJSON_AddNumberToObject(mesh, "rings", RIG30_RINGS);
    cJSON_AddNumberToObject(mesh, "segments", RIG30_SEGMENTS);
    json_add_number(mesh, "radius", RIG30_RADIUS);
    json_add_number(mesh, "height", RIG30_HEIGHT);
    cJSON_AddItemToObject(mesh, "vertices", json_vec3_array(r->rigs[0].bind.vertices,
                                                             r->rigs[0].bind.vertex_count));
    cJSON_AddItemToObject(root, "rigs", rigs_json(r));
    cJSON *poses = cJSON_AddArrayToObject(root, "poses");
    for (int i = 0; i < r->pose_count; i++)
        cJSON_AddItemToArray(poses, pose_json(r, &r->pose[i]));
    cJSON_AddItemToObject(root, "checks", checks_json(r));
    cJSON_AddItemToObject(root, "sweep", sweep_json(r));
    cJSON *cams = cJSON_AddObjectToObject(root, "cameras");
    cJSON_AddItemToObject(cams, "twist", json_camera(&r->cam[RIG30_TWIST]));
    cJSON_AddItemToObject(cams, "bend", json_camera(&r->cam[RIG30_BEND]));
    return output_batch_add_json(b, "dqs30.json", root, d);
}

static void ring_row(bytes *csv, const char *method, const char *rig, double pose_deg, int ring,
                    double weight, double radius, double radius_analytic, double angle,
                    double angle_analytic)
{
    const double fields[] = {pose_deg, ring, weight, radius, radius_analytic,
                             fabs(radius - radius_analytic), rad_to_deg(angle),
                             rad_to_deg(angle_analytic), rad_to_deg(fabs(angle - angle_analytic))};
    bytes_printf(csv, "%s,%s,", method, rig);
    csv_row(csv, fields, (int)(sizeof fields / sizeof fields[0])); /* NAN stays empty */
}

static lab_error add_csv(const results *r, output_batch *b, lab_diag *d)
{
    bytes csv = {0};
    bytes_printf(&csv, "method,rig,pose_deg,ring,weight,radius,radius_analytic,radius_error,"
                       "angle_deg,angle_analytic_deg,angle_error_deg\n");
    for (int i = 0; i < r->pose_count; i++) {
        const pose_result *p = &r->pose[i];
        const rig30_rig *rig = &r->rigs[p->rig];
        for (int k = 0; k < RIG30_RINGS; k++)
            ring_row(&csv, skin_method_name(p->method), rig30_kind_name(p->rig), p->angle_deg, k,
                    rig30_child_weight(&rig->influences, mesh_cylinder_index(RIG30_SEGMENTS, k, 0)),
                    p->radius[k], p->radius_analytic[k], p->angle[k], p->angle_analytic[k]);
    }
    for (int m = 0; m < 2; m++)
        for (int t = 0; t < SWEEP_ANGLES; t++)
            for (int k = 0; k < SWEEP_SAMPLES; k++)
                ring_row(&csv, skin_method_name(methods[m]), "sweep", sweep_theta_deg[t], k,
                        (double)k / (SWEEP_SAMPLES - 1), r->sweep[m][t][k], r->sweep_analytic[m][t][k],
                        NAN, NAN);
    return output_batch_add(b, "dqs30-rings.csv", &csv, d);
}

/* ---- the report ---------------------------------------------------------------------- */

static bool print_twist(const results *r)
{
    bool ok = true;
    report_heading(stdout, "1. Twist (chapter 30's rig): ring radius and turn, each method against "
                           "its closed form");
    printf("  LBS: r'/r = sqrt(1 - 4w(1-w) sin^2(t/2)), turn atan2(w sin t, (1-w) + w cos t)\n");
    printf("  DQS: r'/r = 1, turn phi with tan(phi/2) = w sin(t/2) / ((1-w) + w cos(t/2)), t in "
           "[-180, 180]\n");
    printf("  %-24s %10s %10s %9s %10s %10s %9s\n", "method theta ring (w)", "radius", "analytic",
           "|diff|", "turn deg", "analytic", "|diff|");
    for (int i = 0; i < r->pose_count; i++) {
        const pose_result *p = &r->pose[i];
        if (p->rig != RIG30_TWIST)
            continue;
        for (int k = 0; k < RIG30_RINGS; k++) {
            const rig30_rig *rig = &r->rigs[RIG30_TWIST];
            double w = rig30_child_weight(&rig->influences, mesh_cylinder_index(RIG30_SEGMENTS, k, 0));
            double dr = fabs(p->radius[k] - p->radius_analytic[k]);
            double da = fabs(p->angle[k] - p->angle_analytic[k]);
            bool row_ok = dr <= RIG30_CHECK_TOLERANCE && (isnan(p->angle[k]) || da <= 1e-9);
            ok &= row_ok;
            printf("  %s %5g ring %d (%.3f) %10.6f %10.6f %9.2g %10.4f %10.4f %9.2g  %s\n",
                   skin_method_name(p->method), p->angle_deg, k, w, p->radius[k],
                   p->radius_analytic[k], dr, rad_to_deg(p->angle[k]),
                   rad_to_deg(p->angle_analytic[k]), isnan(p->angle[k]) ? NAN : rad_to_deg(da),
                   row_ok ? "ok" : "FAIL");
        }
    }
    printf("  (a turn of nan: the ring collapsed onto the axis and has no direction)\n");
    for (int m = 0; m < 2; m++) {
        const rig30_check *c = &r->twist_check[m];
        char label[64];
        snprintf(label, sizeof label, "%s every vertex vs closed form", skin_method_name(methods[m]));
        ok &= report_bound(stdout, label, c->max_position_error, RIG30_CHECK_TOLERANCE);
        snprintf(label, sizeof label, "%s end rings vs quaternion", skin_method_name(methods[m]));
        ok &= report_bound(stdout, label, c->max_end_ring_error, RIG30_CHECK_TOLERANCE);
    }
    return ok;
}

static bool print_hemisphere(const results *r)
{
    bool ok = true;
    report_heading(stdout, "2. The short way round (270 deg) and a full turn (360 deg)");
    printf("  At 270 deg the child's rotation quaternion is (cos 135, 0, 0, sin 135): its real\n"
           "  part is negative, opposite the root's (1, 0, 0, 0). The hemisphere fix negates it;\n"
           "  -q is the rotation by -90 deg, the same rotation as +270. Blending from there, the\n"
           "  middle ring turns by -45 deg: DQS goes the short way round. Without the fix it\n"
           "  blends the long way and turns the ring by +135 deg.\n");
    ok &= report_compare(stdout, "middle ring turn, fix (deg)", rad_to_deg(r->short_with_fix),
                         rad_to_deg(r->short_analytic), 1e-9);
    printf("  %-34s %22.15g %22s\n", "middle ring turn, no fix (deg)", rad_to_deg(r->short_without_fix),
           "(the long way)");
    ok &= fabs(rad_to_deg(r->short_without_fix) - 135.0) < 1e-9;
    char msg[700];
    diag_format(&r->full_turn_diag, msg, sizeof msg);
    bool detected = r->full_turn_code == LAB_ERR_DQ_ZERO_NORM;
    ok &= detected;
    printf("  360 deg without the fix: q_child = (-1, 0, 0, 0), so the equal blend of the middle\n"
           "  ring is 0.5 (1) + 0.5 (-1) = 0 and has no rotation. Detected, not NaN:\n  %s\n  -> %s\n",
           detected ? "rejected" : "NOT DETECTED", msg);
    ok &= report_bound(stdout, "360 deg with the fix: max movement", r->full_turn_with_fix_displacement,
                       RIG30_CHECK_TOLERANCE);
    ok &= report_bound(stdout, "q vs -q for the child (150 deg)", r->sign_difference,
                       RIG30_CHECK_TOLERANCE);
    return ok;
}

static void print_bend(const results *r)
{
    report_heading(stdout, "3. Bend (an elbow at z = 1 about x; weights smoothstep over z in "
                           "[0.5, 1.5])");
    printf("  inner: min distance of the inner side from the joint (1 at bind; LBS collapse)\n"
           "  bulge: max distance of the outer side beyond the bind radius from the bones (DQS)\n");
    printf("  %-18s %8s %8s   ring cross-section radius about the bent axis, rings 0..8\n",
           "method beta", "inner", "bulge");
    for (int i = 0; i < r->pose_count; i++) {
        const pose_result *p = &r->pose[i];
        if (p->rig != RIG30_BEND)
            continue;
        printf("  %s %-13g %8.4f %8.4f  ", skin_method_name(p->method), p->angle_deg,
               p->bend.inner_min_distance, p->bend.outer_max_bulge);
        for (int k = 0; k < RIG30_RINGS; k++)
            printf(" %.4f", p->radius[k]);
        printf("\n");
    }
}

static bool print_rigid_and_sweep(const results *r)
{
    bool ok = true;
    char msg[700];
    report_heading(stdout, "4. DQS takes rigid transforms only (scaling must be handled separately)");
    diag_format(&r->rigid_diag, msg, sizeof msg);
    bool rejected = r->rigid_code == LAB_ERR_NOT_RIGID;
    ok &= rejected;
    printf("  child joint scaled by 2 along x: %s\n  -> %s\n", rejected ? "rejected" : "NOT REJECTED",
           msg);
    report_heading(stdout, "5. Radius against weight (dqs30-radius.png): measured on a skinned ring");
    double worst = 0.0;
    for (int m = 0; m < 2; m++)
        for (int t = 0; t < SWEEP_ANGLES; t++)
            for (int k = 0; k < SWEEP_SAMPLES; k++)
                worst = fmax(worst, fabs(r->sweep[m][t][k] - r->sweep_analytic[m][t][k]));
    ok &= report_bound(stdout, "max |measured - analytic|", worst, RIG30_CHECK_TOLERANCE);
    for (int t = 0; t < SWEEP_ANGLES; t++)
        printf("  theta %3g: LBS at w = 1/2 %.6f (|cos(theta/2)| = %.6f), DQS %.6f\n",
               sweep_theta_deg[t], r->sweep[0][t][SWEEP_SAMPLES / 2],
               fabs(cos(deg_to_rad(sweep_theta_deg[t]) / 2)), r->sweep[1][t][SWEEP_SAMPLES / 2]);
    return ok;
}

static bool print_report(const results *r)
{
    printf("Chapter 30, closing section: dual quaternion skinning (DQS) beside LBS\n");
    bool ok = print_twist(r);
    ok &= print_hemisphere(r);
    print_bend(r);
    ok &= print_rigid_and_sweep(r);
    printf("\n%s\n", ok ? "All checks passed." : "SOME CHECKS FAILED.");
    return ok;
}

/* ---- main ---------------------------------------------------------------------------- */

static int parse_options(int argc, char **argv, options *o, const char **outdir)
{
    *o = (options){{90, 180, 270}, {90, 135}, 3, 2, {1, 1, 1}};
    const cli_option table[] = {
        {"--twist", CLI_DOUBLES, o->twist_deg, .count = &o->twist_count, .min_count = 1,
         .max_count = MAX_ANGLES, .min = -720, .max = 720, .distinct = true,
         .value_name = "DEG[,DEG...]", .help = "twist angles of chapter 30's rig (default 90,180,270)"},
        {"--bend", CLI_DOUBLES, o->bend_deg, .count = &o->bend_count, .min_count = 1,
         .max_count = MAX_ANGLES, .min = -720, .max = 720, .distinct = true,
         .value_name = "DEG[,DEG...]", .help = "elbow bend angles about x (default 90,135)"},
        {"--child-scale", CLI_DOUBLES, o->child_scale, .max_count = 3, .broadcast = true,
         .value_name = "S|SX,SY,SZ",
         .help = "scale the child joint (one factor, or one per axis); DQS takes\n"
                 "rigid transforms only and rejects it (exit 1)"},
    };
    const cli_program program = {LAB, "Chapter 30, closing section: dual quaternion skinning beside LBS.",
                                 table, 3, {"OUTDIR"}, 1, NULL};
    return cli_start(&program, argc, argv, outdir);
}

int main(int argc, char **argv)
{
    options opt;
    const char *outdir;
    int code = parse_options(argc, argv, &opt, &outdir);
    if (code != CLI_RUN)
        return code;
    lab_diag d = {0};

    results *r = calloc(1, sizeof *r);
    if (!r)
        return CLI_EXIT_REJECTED;
    lab_error e = compute(&opt, r, &d);
    if (e == LAB_OK)
        e = choose_cameras(r, &d);
    if (e != LAB_OK) {
        results_free(r);
        free(r);
        return cli_fail(LAB, &d, CLI_EXIT_REJECTED);
    }
    output_batch batch = {0};
    e = add_figures(r, &opt, &batch, &d);
    if (e == LAB_OK)
        e = add_json(r, &batch, &d);
    if (e == LAB_OK)
        e = add_csv(r, &batch, &d);
    bool ok = print_report(r);
    code = cli_finish(LAB, &batch, e, &d, ok, outdir);
    results_free(r);
    free(r);
    return code;
}
