/* lab30.c - Chapter 30: how bones drive a mesh.
 *
 * Concepts: the skin matrix C_j = G_j B_j^-1, linear blend skinning p' = sum_j w_j C_j p,
 * the bind-pose check, matrix order, and the candy-wrapper collapse of a half-turn twist:
 * r'/r = sqrt(1 - 4 w (1-w) sin^2(theta/2)), zero for the middle ring at 180 degrees.
 *
 * Usage:  build/bin/lab30 [--theta DEG[,DEG...]] [--middle-weights W0,W1] OUTDIR
 *
 * Writes into OUTDIR (which must exist), all or nothing:
 *   skinning30.png                 the figure, one panel per pose
 *   skinning30-thetaNNN.png        each panel alone
 *   skinning30.json                the scene and every check (schema in design.md)
 *   skinning30-radii.csv           the radius table: every pose, every ring
 * and prints the chapter's tables on stdout, each value beside its independent check.
 *
 * Conventions: right-handed, column vectors, row-major storage, radians inside (degrees
 * on the command line and in labels); see src/linalg.h. Exit codes: 0 success, 1 data
 * rejected (or a self-check failed), 2 usage, 3 output directory or write failure.
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
#include "report.h"
#include "rig30.h"

#define LAB "lab30"
#define MAX_POSES 8
#define MAX_ABS_THETA_DEG 3600.0
#define PANEL_W 320
#define PANEL_H 440
#define LABEL_H 64


/* ---- command line ----------------------------------------------------------------- */

typedef struct {
    double theta_deg[MAX_POSES];
    int pose_count;
    int has_middle_weights;
    double middle_weights[2];
    int gltf;                    /* --gltf: also write skinning30.gltf */
    const char *outdir;
} options;

static void usage(FILE *to)
{
    fprintf(to,
            "usage: " LAB " [--theta DEG[,DEG...]] [--middle-weights W0,W1] [--gltf] OUTDIR\n"
            "  --theta LIST           child-joint twist angles in degrees, at most %d\n"
            "                         (default 0,90,180); one panel each\n"
            "  --middle-weights W0,W1 (root, child) weights of the middle ring z = 1\n"
            "                         (default 0.5,0.5); they must sum to 1 within 1e-12\n"
            "  --gltf                 also write skinning30.gltf: the rig, its skin and a\n"
            "                         0..180 deg twist animation, for any glTF viewer\n"
            "  --help                 this text\n"
            "OUTDIR must exist. Exit codes: 0 ok, 1 data rejected, 2 usage, 3 output.\n",
            MAX_POSES);
}

static int check_thetas(const options *o, char *err, size_t size)
{
    for (int i = 0; i < o->pose_count; i++) {
        if (!(fabs(o->theta_deg[i]) <= MAX_ABS_THETA_DEG)) {
            snprintf(err, size, "--theta %g is outside [-%g, %g] degrees", o->theta_deg[i],
                     MAX_ABS_THETA_DEG, MAX_ABS_THETA_DEG);
            return -1;
        }
        for (int k = 0; k < i; k++)
            if (o->theta_deg[k] == o->theta_deg[i]) {
                snprintf(err, size, "--theta %g is given twice", o->theta_deg[i]);
                return -1;
            }
    }
    return 0;
}

/* 0 to run, 1 for --help, -1 for a usage error (message in err). */
static int parse_options(int argc, char **argv, options *o, char *err, size_t size)
{
    *o = (options){{0, 90, 180}, 3, 0, {0.5, 0.5}, 0, NULL};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            return 1;
        if (!strcmp(a, "--gltf")) {
            o->gltf = 1;
            continue;
        }
        int is_theta = !strcmp(a, "--theta"), is_weights = !strcmp(a, "--middle-weights");
        if (is_theta || is_weights) {
            if (i + 1 >= argc) {
                snprintf(err, size, "%s needs a value", a);
                return -1;
            }
            const char *value = argv[++i];
            int n = cli_parse_doubles(value, is_theta ? o->theta_deg : o->middle_weights,
                               is_theta ? MAX_POSES : 2, err, size);
            if (n < 0 || (is_weights && n != 2)) {
                if (n >= 0)
                    snprintf(err, size, "--middle-weights needs two values W0,W1, got \"%s\"", value);
                return -1;
            }
            if (is_theta)
                o->pose_count = n;
            else
                o->has_middle_weights = 1;
        } else if (a[0] == '-' && a[1] != '\0') {
            snprintf(err, size, "unknown option %s", a);
            return -1;
        } else if (o->outdir) {
            snprintf(err, size, "more than one OUTDIR (\"%s\" and \"%s\")", o->outdir, a);
            return -1;
        } else {
            o->outdir = a;
        }
    }
    if (!o->outdir) {
        snprintf(err, size, "missing OUTDIR");
        return -1;
    }
    return check_thetas(o, err, size);
}

/* Names a vertex the way the student sees the cylinder: its ring and segment. */
static void locate_vertex(lab_diag *d, const options *o)
{
    if (d->vertex < 0)
        return;
    int ring = d->vertex / RIG30_SEGMENTS, segment = d->vertex % RIG30_SEGMENTS;
    char where[sizeof d->where];
    int n = snprintf(where, sizeof where, "%s (ring %d, segment %d%s)", d->where, ring, segment,
                     o->has_middle_weights && ring == RIG30_MIDDLE_RING
                         ? "; --middle-weights gives all of ring 4 these weights"
                         : "");
    if (n > 0) /* a truncated location still helps more than none */
        memcpy(d->where, where, sizeof where);
}

/* ---- the computation, in the order of the article ---------------------------------- */

typedef struct {
    double theta_deg;
    rig30_pose pose;
    rig30_ring_radius ring[RIG30_RINGS];
    double ring_analytic[RIG30_RINGS];   /* r * r'/r from the article's formula */
    double ring_weight[RIG30_RINGS];     /* child weight of the ring */
    int degenerate_triangles;
    rig30_check check;
} pose_result;

typedef struct {
    rig30_rig rig;
    mesh_edge *edges;
    int edge_count;
    double bind_max_error;
    pose_result pose[MAX_POSES];
    int pose_count;
    rig30_check analytic;                /* over all poses */
    rig30_hand_control hand;
    int invalid_count;
    lab_error invalid_code[32];
    lab_diag invalid_diag[32];
    camera cam;
} results;

static void results_free(results *r)
{
    for (int i = 0; i < r->pose_count; i++)
        free(r->pose[i].pose.positions);
    free(r->edges);
    rig30_rig_free(&r->rig);
}

static const skin_blend LBS = {.method = SKIN_LBS};

static double deg_to_rad(double deg) { return deg * (acos(-1.0) / 180.0); }

/* 3. At theta = 0 every C_j is I: the largest displacement of any vertex. */
static lab_error bind_pose_check(results *r, lab_diag *d)
{
    int n = r->rig.bind.vertex_count;
    rig30_pose bind = {.positions = malloc(sizeof(vec3) * (size_t)n)};
    if (!bind.positions)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "bind check", "%d vertices", n);
    lab_error e = rig30_pose_at(&r->rig, 0.0, LBS, &bind, d);
    for (int v = 0; e == LAB_OK && v < n; v++)
        r->bind_max_error = fmax(r->bind_max_error,
                                 vec3_length(vec3_sub(bind.positions[v], r->rig.bind.vertices[v])));
    free(bind.positions);
    return e;
}

/* 5-7. One pose: skin it, measure every ring, count degenerate triangles, check it. */
static lab_error run_pose(results *r, double theta_deg, lab_diag *d)
{
    pose_result *p = &r->pose[r->pose_count];
    p->theta_deg = theta_deg;
    p->pose.positions = malloc(sizeof(vec3) * (size_t)r->rig.bind.vertex_count);
    if (!p->pose.positions)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "pose", "theta %g", theta_deg);
    r->pose_count++;
    lab_error e = rig30_pose_at(&r->rig, deg_to_rad(theta_deg), LBS, &p->pose, d);
    if (e != LAB_OK)
        return e;
    for (int ring = 0; ring < RIG30_RINGS; ring++) {
        int v = mesh_cylinder_index(RIG30_SEGMENTS, ring, 0);
        p->ring[ring] = rig30_measure_ring(p->pose.positions, ring);
        p->ring_weight[ring] = rig30_child_weight(&r->rig.influences[v]);
        p->ring_analytic[ring] =
            RIG30_RADIUS * rig30_radius_ratio(p->ring_weight[ring], p->pose.theta);
    }
    p->degenerate_triangles = mesh_count_degenerate(p->pose.positions, r->rig.bind.triangles,
                                                    r->rig.bind.triangle_count, RIG30_MIN_AREA);
    rig30_check_twist(&r->rig, &p->pose, SKIN_LBS, &p->check);
    rig30_check_twist(&r->rig, &p->pose, SKIN_LBS, &r->analytic);
    return LAB_OK;
}

static lab_error compute(const options *o, results *r, lab_diag *d)
{
    lab_error e = rig30_rig_build(&r->rig, RIG30_TWIST, o->has_middle_weights ? o->middle_weights : NULL, d);
    if (e != LAB_OK)
        return e;
    r->edges = malloc(sizeof *r->edges * 3 * (size_t)r->rig.bind.triangle_count);
    if (!r->edges)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "edges", "%d triangles", r->rig.bind.triangle_count);
    r->edge_count = mesh_unique_edges(r->rig.bind.triangles, r->rig.bind.triangle_count, r->edges);
    e = bind_pose_check(r, d);
    for (int i = 0; e == LAB_OK && i < o->pose_count; i++)
        e = run_pose(r, o->theta_deg[i], d);
    if (e == LAB_OK)
        e = rig30_hand_control_run(&r->hand, d);
    r->invalid_count = rig30_invalid_case_count();
    for (int i = 0; e == LAB_OK && i < r->invalid_count; i++)
        r->invalid_code[i] = rig30_invalid_case_run(&r->rig, i, &r->invalid_diag[i]);
    return e;
}

/* ---- the figure ---------------------------------------------------------------------- */

static const vec3 axis_from = {0, 0, -0.3}, axis_to = {0, 0, RIG30_HEIGHT + 0.3};

/* One camera for every panel: an oblique look at the middle of the cylinder, and one
 * orthographic window fitted to every pose's vertices and the axis, so nothing clips and
 * the panels compare at the same scale. */
static lab_error choose_camera(results *r, lab_diag *d)
{
    int n = r->rig.bind.vertex_count, total = n * r->pose_count + 2;
    vec3 *all = malloc(sizeof *all * (size_t)total);
    if (!all)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "camera", "%d points", total);
    for (int i = 0; i < r->pose_count; i++)
        memcpy(all + i * n, r->pose[i].pose.positions, sizeof *all * (size_t)n);
    all[total - 2] = axis_from;
    all[total - 1] = axis_to;
    r->cam.view = camera_look_at(vec3_make(3.0, -5.0, 4.4), vec3_make(0, 0, 1), vec3_make(0, 0, 1));
    r->cam.viewport = (camera_viewport_rect){0, LABEL_H, PANEL_W, PANEL_H - LABEL_H};
    r->cam.projection = camera_fit_orthographic(r->cam.view, all, total, 0.04, r->cam.viewport);
    free(all);
    return LAB_OK;
}

static int on_middle_ring(int v) { return v / RIG30_SEGMENTS == RIG30_MIDDLE_RING; }

static lab_error draw_panel(const results *r, const pose_result *p, canvas *c, lab_diag *d)
{
    lab_error e = canvas_init(c, PANEL_W, PANEL_H, FIGURE_BACKGROUND, d);
    bool *middle = calloc((size_t)r->edge_count, sizeof *middle);
    if (e == LAB_OK && !middle)
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "panel", "%d edges", r->edge_count);
    if (e == LAB_OK) {
        for (int i = 0; i < r->edge_count; i++)
            middle[i] = on_middle_ring(r->edges[i].a) && on_middle_ring(r->edges[i].b);
        char line1[64], line2[64];
        snprintf(line1, sizeof line1, "theta = %g deg", p->theta_deg);
        snprintf(line2, sizeof line2, "middle ring r = %.6g", p->ring[RIG30_MIDDLE_RING].mean);
        const char *label[2] = {line1, line2};
        figure_panel panel = {.positions = p->pose.positions, .edges = r->edges,
                              .edge_count = r->edge_count, .highlight = middle,
                              .axis_from = axis_from, .axis_to = axis_to, .label = label,
                              .label_lines = 2};
        figure_draw_panel(c, &r->cam, &panel);
    }
    free(middle);
    return e;
}

/* "skinning30-theta090.png"; negative and fractional angles stay readable and unique. */
static void panel_name(char *buf, size_t size, double theta_deg)
{
    if (theta_deg == floor(theta_deg))
        snprintf(buf, size, "skinning30-theta%s%03d.png", theta_deg < 0 ? "-" : "",
                 abs((int)theta_deg));
    else {
        char num[32];
        format_double(num, theta_deg);
        for (char *c = num; *c; c++)
            if (*c == '.')
                *c = 'p';
        snprintf(buf, size, "skinning30-theta%s.png", num);
    }
}

static lab_error add_figures(const results *r, output_batch *b, lab_diag *d)
{
    canvas panels[MAX_POSES] = {{0}}, fig = {0};
    const canvas *images[MAX_POSES + 1];
    char names[MAX_POSES + 1][96];
    lab_error e = LAB_OK;
    for (int i = 0; e == LAB_OK && i < r->pose_count; i++) {
        e = draw_panel(r, &r->pose[i], &panels[i], d);
        panel_name(names[i], sizeof names[i], r->pose[i].theta_deg);
        images[i] = &panels[i];
    }
    if (e == LAB_OK)
        e = figure_compose(&fig, panels, r->pose_count, 12,
                           "LBS twist of a 9x24 cylinder - orange: middle ring z = 1", d);
    snprintf(names[r->pose_count], sizeof names[0], "skinning30.png");
    images[r->pose_count] = &fig;
    if (e == LAB_OK)
        e = output_batch_add_pngs(b, (const char(*)[96])names, images, r->pose_count + 1, d);
    canvas_free(&fig);
    for (int i = 0; i < r->pose_count; i++)
        canvas_free(&panels[i]);
    return e;
}

/* ---- the evidence -------------------------------------------------------------------- */

static cJSON *mesh_json(const results *r)
{
    const mesh *m = &r->rig.bind;
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "rings", RIG30_RINGS);
    cJSON_AddNumberToObject(j, "segments", RIG30_SEGMENTS);
    json_add_number(j, "radius", RIG30_RADIUS);
    json_add_number(j, "height", RIG30_HEIGHT);
    cJSON_AddItemToObject(j, "vertices", json_vec3_array(m->vertices, m->vertex_count));
    cJSON *tris = cJSON_AddArrayToObject(j, "triangles");
    for (int t = 0; t < m->triangle_count; t++)
        cJSON_AddItemToArray(tris, cJSON_CreateIntArray(m->triangles[t].v, 3));
    cJSON_AddNumberToObject(j, "unique_edges", r->rig.stats.unique_edges);
    cJSON_AddNumberToObject(j, "boundary_edges", r->rig.stats.boundary_edges);
    json_add_number(j, "degenerate_area_threshold", RIG30_MIN_AREA);
    return j;
}

static cJSON *joints_json(const results *r)
{
    cJSON *a = cJSON_CreateArray();
    for (int j = 0; j < RIG30_JOINTS; j++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", r->rig.bind_joints[j].name);
        cJSON_AddNumberToObject(o, "parent", r->rig.bind_joints[j].parent);
        cJSON_AddItemToObject(o, "bind_world", json_mat4(r->rig.bind_world[j]));
        cJSON_AddItemToObject(o, "inverse_bind", json_mat4(r->rig.inverse_bind[j]));
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

static cJSON *influences_json(const results *r)
{
    cJSON *a = cJSON_CreateArray();
    for (int v = 0; v < r->rig.bind.vertex_count; v++) {
        const skin_influence *in = &r->rig.influences[v];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToObject(o, "joints", cJSON_CreateIntArray(in->joint, SKIN_SLOTS));
        cJSON_AddItemToObject(o, "weights", json_number_array(in->weight, SKIN_SLOTS));
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

static cJSON *check_json(const rig30_check *c)
{
    cJSON *o = cJSON_CreateObject();
    json_add_number(o, "max_position_error", c->max_position_error);
    json_add_number(o, "max_radius_error", c->max_radius_error);
    json_add_number(o, "max_height_error", c->max_height_error);
    return o;
}

static cJSON *pose_json(const results *r, const pose_result *p)
{
    cJSON *o = cJSON_CreateObject();
    mat4 local[RIG30_JOINTS];
    double mean[RIG30_RINGS], lo[RIG30_RINGS], hi[RIG30_RINGS];
    for (int j = 0; j < RIG30_JOINTS; j++)
        local[j] = p->pose.joints[j].local;
    for (int k = 0; k < RIG30_RINGS; k++) {
        mean[k] = p->ring[k].mean;
        lo[k] = p->ring[k].min;
        hi[k] = p->ring[k].max;
    }
    json_add_number(o, "theta_deg", p->theta_deg);
    cJSON_AddItemToObject(o, "local", json_mat4_array(local, RIG30_JOINTS));
    cJSON_AddItemToObject(o, "world", json_mat4_array(p->pose.world, RIG30_JOINTS));
    cJSON_AddItemToObject(o, "skin", json_mat4_array(p->pose.palette, RIG30_JOINTS));
    cJSON_AddItemToObject(o, "positions", json_vec3_array(p->pose.positions, r->rig.bind.vertex_count));
    cJSON_AddItemToObject(o, "ring_radius", json_number_array(mean, RIG30_RINGS));
    cJSON_AddItemToObject(o, "ring_radius_min", json_number_array(lo, RIG30_RINGS));
    cJSON_AddItemToObject(o, "ring_radius_max", json_number_array(hi, RIG30_RINGS));
    cJSON_AddItemToObject(o, "ring_radius_analytic", json_number_array(p->ring_analytic, RIG30_RINGS));
    cJSON_AddItemToObject(o, "ring_child_weight", json_number_array(p->ring_weight, RIG30_RINGS));
    json_add_number(o, "middle_ring_radius", p->ring[RIG30_MIDDLE_RING].mean);
    cJSON_AddNumberToObject(o, "degenerate_triangles", p->degenerate_triangles);
    cJSON_AddItemToObject(o, "analytic", check_json(&p->check));
    return o;
}

static cJSON *hand_json(const rig30_hand_control *h)
{
    static const char *const keys[HAND_ROWS] = {"correct", "missing_inverse_bind", "reversed_order"};
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "point", json_vec3(vec3_make(1, 1, 0)));
    cJSON_AddStringToObject(o, "bind_child", "Ty(1)");
    cJSON_AddStringToObject(o, "world_child", "Ty(1) Rz(90 deg)");
    cJSON_AddItemToObject(o, "weights", json_number_array((const double[]){0.5, 0.5}, 2));
    for (int k = 0; k < HAND_ROWS; k++) {
        cJSON *row = cJSON_CreateObject();
        cJSON_AddStringToObject(row, "computation", h->name[k]);
        cJSON_AddItemToObject(row, "position", json_vec3(h->computed[k]));
        cJSON_AddItemToObject(row, "article", json_vec3(h->article[k]));
        json_add_number(row, "difference_from_article",
                        vec3_length(vec3_sub(h->computed[k], h->article[k])));
        json_add_number(row, "error_vs_correct", h->error_vs_correct[k]);
        cJSON_AddItemToObject(o, keys[k], row);
    }
    return o;
}

static cJSON *invalid_json(const results *r)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < r->invalid_count; i++) {
        const rig30_invalid_case *c = rig30_invalid_case_get(i);
        char msg[600];
        diag_format(&r->invalid_diag[i], msg, sizeof msg);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "case", c->name);
        cJSON_AddStringToObject(o, "category", c->category);
        cJSON_AddBoolToObject(o, "rejected", r->invalid_code[i] == c->expected);
        cJSON_AddStringToObject(o, "rule", lab_error_rule(c->expected));
        cJSON_AddStringToObject(o, "message", r->invalid_code[i] == LAB_OK ? "accepted" : msg);
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

static cJSON *checks_json(const results *r)
{
    cJSON *o = cJSON_CreateObject();
    json_add_number(o, "tolerance", RIG30_CHECK_TOLERANCE);
    json_add_number(o, "bind_max_error", r->bind_max_error);
    cJSON_AddItemToObject(o, "hand_control", hand_json(&r->hand));
    cJSON *analytic = check_json(&r->analytic);
    cJSON_AddNumberToObject(analytic, "vertices_compared", r->pose_count * r->rig.bind.vertex_count);
    cJSON_AddNumberToObject(analytic, "rings_compared", r->pose_count * RIG30_RINGS);
    cJSON_AddItemToObject(o, "analytic", analytic);
    cJSON *quat = cJSON_CreateObject();
    json_add_number(quat, "max_difference", r->analytic.max_end_ring_error);
    cJSON_AddStringToObject(quat, "rings", "ring 0 (w = 0, identity) and ring 8 (w = 1, q(z, theta))");
    cJSON_AddItemToObject(o, "quaternion_end_rings", quat);
    cJSON_AddItemToObject(o, "invalid_inputs", invalid_json(r));
    return o;
}

static cJSON *camera_json(const camera *c)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "view", json_mat4(c->view));
    cJSON_AddItemToObject(o, "projection", json_mat4(c->projection));
    cJSON_AddItemToObject(o, "viewport", cJSON_CreateIntArray((const int[]){c->viewport.x,
                                            c->viewport.y, c->viewport.width, c->viewport.height}, 4));
    cJSON_AddItemToObject(o, "axis", json_vec3_array((const vec3[]){axis_from, axis_to}, 2));
    return o;
}

static lab_error add_json(const results *r, output_batch *b, lab_diag *d)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "lab", LAB);
    cJSON_AddItemToObject(root, "conventions", json_conventions());
    cJSON_AddItemToObject(root, "mesh", mesh_json(r));
    cJSON_AddItemToObject(root, "joints", joints_json(r));
    cJSON_AddItemToObject(root, "influences", influences_json(r));
    cJSON *poses = cJSON_AddArrayToObject(root, "poses");
    for (int i = 0; i < r->pose_count; i++)
        cJSON_AddItemToArray(poses, pose_json(r, &r->pose[i]));
    cJSON_AddItemToObject(root, "checks", checks_json(r));
    cJSON_AddItemToObject(root, "camera", camera_json(&r->cam));
    bytes text = {0};
    lab_error e = json_to_bytes(root, &text, d);
    cJSON_Delete(root);
    if (e == LAB_OK)
        return output_batch_add(b, "skinning30.json", &text, d);
    bytes_free(&text);
    return e;
}

static lab_error add_csv(const results *r, output_batch *b, lab_diag *d)
{
    bytes csv = {0};
    bytes_printf(&csv, "theta_deg,ring,z,child_weight,radius_mean,radius_min,radius_max,"
                       "radius_analytic,abs_error\n");
    for (int i = 0; i < r->pose_count; i++)
        for (int k = 0; k < RIG30_RINGS; k++) {
            const pose_result *p = &r->pose[i];
            const double fields[] = {p->theta_deg, k,
                                     r->rig.bind.vertices[mesh_cylinder_index(RIG30_SEGMENTS, k, 0)].z,
                                     p->ring_weight[k], p->ring[k].mean, p->ring[k].min,
                                     p->ring[k].max, p->ring_analytic[k],
                                     fabs(p->ring[k].mean - p->ring_analytic[k])};
            for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
                if (f)
                    bytes_append(&csv, ",", 1);
                csv_number(&csv, fields[f]);
            }
            bytes_append(&csv, "\n", 1);
        }
    return output_batch_add(b, "skinning30-radii.csv", &csv, d);
}

static lab_error add_gltf(const results *r, output_batch *b, lab_diag *d)
{
    bytes text = {0};
    lab_error e = rig30_export_gltf(&r->rig, &text, d);
    if (e == LAB_OK)
        e = output_batch_add(b, "skinning30.gltf", &text, d);
    bytes_free(&text);
    return e;
}

/* ---- the report ---------------------------------------------------------------------- */

static const double article_bind_error = 5.55112e-17;

static bool print_mesh(const results *r)
{
    bool ok = true;
    report_heading(stdout, "1. Mesh: 9 rings x 24 vertices, z in [0, 2], radius 1, open ends "
                           "(chapter 12 checks passed on the bind mesh)");
    printf("  %-34s %22s %22s\n", "quantity", "computed", "article");
    ok &= report_count(stdout, "vertices", r->rig.bind.vertex_count, 216);
    ok &= report_count(stdout, "triangles", r->rig.bind.triangle_count, 384);
    ok &= report_count(stdout, "unique edges", r->rig.stats.unique_edges, 600);
    ok &= report_count(stdout, "boundary edges", r->rig.stats.boundary_edges, 48);
    return ok;
}

static void print_skeleton(const results *r, const options *o)
{
    report_heading(stdout, "2. Skeleton and weights");
    printf("  L_0 = I, L_1 = Tz(2) Rz(theta); G_0 = L_0, G_1 = G_0 L_1 (scene_evaluate)\n");
    printf("  B_1 = Tz(%g), inverse bind from the pure-translation helper: Tz(%g)\n",
           r->rig.bind_world[1].m[2][3], r->rig.inverse_bind[1].m[2][3]);
    printf("  weights w_1 = z/2 (child), w_0 = 1 - z/2 (root)");
    if (o->has_middle_weights)
        printf("; middle ring (z = 1) set to w_0 = %g, w_1 = %g", o->middle_weights[0],
               o->middle_weights[1]);
    printf("\n");
}

static bool print_bind_and_hand(const results *r)
{
    bool ok = true;
    report_heading(stdout, "3. Bind pose: every C_j = I, so no vertex may move");
    ok &= report_bound(stdout, "largest displacement (216 vertices)", r->bind_max_error,
                       RIG30_CHECK_TOLERANCE);
    printf("  (the article saw %g)\n", article_bind_error);
    report_heading(stdout, "4. Hand control: p = (1,1,0), B_1 = Ty(1), G_1 = Ty(1) Rz(90 deg), "
                           "equal weights");
    printf("  %-26s %-32s %-18s %s\n", "computation", "blended position", "article",
           "error vs correct");
    for (int k = 0; k < HAND_ROWS; k++) {
        vec3 c = r->hand.computed[k], a = r->hand.article[k];
        char article[48];
        snprintf(article, sizeof article, "(%g, %g, %g)", a.x, a.y, a.z);
        bool row_ok = vec3_length(vec3_sub(c, a)) <= RIG30_CHECK_TOLERANCE;
        ok &= row_ok;
        printf("  %-26s (%8.5f, %8.5f, %8.5f)   %-18s %.4f  %s\n", r->hand.name[k], c.x, c.y, c.z,
               article, r->hand.error_vs_correct[k], row_ok ? "ok" : "FAIL");
    }
    return ok;
}

static bool print_radii(const results *r)
{
    bool ok = true;
    report_heading(stdout, "5. Ring radius r' against r'/r = sqrt(1 - 4 w (1-w) sin^2(theta/2))");
    printf("  %-34s %22s %22s %11s\n", "theta, ring (child weight)", "measured (mean)",
           "analytic", "|diff|");
    for (int i = 0; i < r->pose_count; i++)
        for (int k = 0; k < RIG30_RINGS; k++) {
            const pose_result *p = &r->pose[i];
            char label[64];
            snprintf(label, sizeof label, "%g deg, ring %d (w = %g)%s", p->theta_deg, k,
                     p->ring_weight[k], k == RIG30_MIDDLE_RING ? " middle" : "");
            ok &= report_compare(stdout, label, p->ring[k].mean, p->ring_analytic[k],
                                 RIG30_CHECK_TOLERANCE);
        }
    printf("  article, middle ring: 1 at 0 deg, 0.707106781186548 at 90 deg, "
           "6.12323399573677e-17 at 180 deg\n");
    return ok;
}

static bool print_analytic(const results *r)
{
    bool ok = true;
    char label[64];
    report_heading(stdout, "6. Independent analytic check (weighted 2-D rotation, no matrices)");
    snprintf(label, sizeof label, "max position error (%d vertices)",
             r->pose_count * r->rig.bind.vertex_count);
    ok &= report_bound(stdout, label, r->analytic.max_position_error, RIG30_CHECK_TOLERANCE);
    snprintf(label, sizeof label, "max radius error (%d rings)", r->pose_count * RIG30_RINGS);
    ok &= report_bound(stdout, label, r->analytic.max_radius_error, RIG30_CHECK_TOLERANCE);
    ok &= report_bound(stdout, "max height error", r->analytic.max_height_error,
                       RIG30_CHECK_TOLERANCE);
    ok &= report_bound(stdout, "end rings vs quaternion rotation", r->analytic.max_end_ring_error,
                       RIG30_CHECK_TOLERANCE);
    printf("  (the article saw 0, 2.22045e-16, 0 and 3.14018e-16)\n");
    return ok;
}

static bool print_degenerate_and_invalid(const results *r)
{
    bool ok = true;
    report_heading(stdout, "7. Degenerate triangles (area <= 1e-12) at the deformed positions, "
                           "bind topology kept");
    for (int i = 0; i < r->pose_count; i++)
        printf("  theta = %-8g %4d of %d%s\n", r->pose[i].theta_deg, r->pose[i].degenerate_triangles,
               r->rig.bind.triangle_count,
               r->pose[i].theta_deg == 180 ? "   (article: 48 at 180 deg)" : "");
    report_heading(stdout, "8. Invalid inputs: each must be rejected by its own rule");
    for (int i = 0; i < r->invalid_count; i++) {
        const rig30_invalid_case *c = rig30_invalid_case_get(i);
        bool rejected = r->invalid_code[i] == c->expected;
        char msg[600];
        diag_format(&r->invalid_diag[i], msg, sizeof msg);
        printf("  %2d %-46s %s\n     %s\n", i + 1, c->name, rejected ? "rejected" : "NOT REJECTED",
               r->invalid_code[i] == LAB_OK ? "(accepted)" : msg);
        ok &= rejected;
    }
    return ok;
}

static bool print_report(const results *r, const options *o)
{
    printf("Chapter 30: how bones drive a mesh - linear blend skinning of a twisted cylinder\n");
    bool ok = true;
    if (!o->has_middle_weights)
        ok &= print_mesh(r);
    print_skeleton(r, o);
    ok &= print_bind_and_hand(r);
    ok &= print_radii(r);
    ok &= print_analytic(r);
    ok &= print_degenerate_and_invalid(r);
    printf("\n%s\n", ok ? "All checks passed." : "SOME CHECKS FAILED.");
    return ok;
}

/* ---- main: the article's order ----------------------------------------------------- */

int main(int argc, char **argv)
{
    options opt;
    char err[256];
    int early = cli_start(LAB, parse_options(argc, argv, &opt, err, sizeof err), err, usage, &opt.outdir);
    if (early >= 0)
        return early;
    lab_diag d = {0};

    results *r = calloc(1, sizeof *r);
    if (!r)
        return CLI_EXIT_REJECTED;
    lab_error e = compute(&opt, r, &d);
    if (e == LAB_OK)
        e = choose_camera(r, &d);
    if (e != LAB_OK) {
        results_free(r);
        free(r);
        locate_vertex(&d, &opt);
        return cli_fail(LAB, &d, CLI_EXIT_REJECTED);
    }

    output_batch batch = {0};
    e = add_figures(r, &batch, &d);
    if (e == LAB_OK)
        e = add_json(r, &batch, &d);
    if (e == LAB_OK)
        e = add_csv(r, &batch, &d);
    if (e == LAB_OK && opt.gltf)
        e = add_gltf(r, &batch, &d);
    bool ok = print_report(r, &opt);
    int code = cli_finish(LAB, &batch, e, &d, ok, opt.outdir);
    results_free(r);
    free(r);
    return code;
}
