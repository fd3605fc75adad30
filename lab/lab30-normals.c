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
 *                                 [--weights-file FILE] OUTDIR
 *
 * Writes into OUTDIR (which must exist), all or nothing:
 *   normals30.png                    every panel: per pose, one debug view per method and
 *                                    one perspective view of the whole chain
 *   normals30-<pose>-<view>.png      each panel alone
 *   normals30.json                   per pose the chain's matrices, normals per method,
 *                                    the true normals, angle errors; the weight report
 *   normals30-errors.csv             method,pose,vertex,angle_error_deg
 *   normals30-weights.csv            the weights used, in the --weights-file format
 *
 * Conventions as in lab30 (src/linalg.h). Exit codes: 0 success, 1 data rejected (weights,
 * weights file) or a self-check failed, 2 usage, 3 output directory or write failure.
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
#include "normals.h"
#include "output.h"
#include "rig30_json.h"
#include "report.h"
#include "rig30.h"
#include "rig30_check.h"
#include "weights_csv.h"

#define LAB "lab30-normals"
#define POSES 4
#define VIEWS (NORMALS_METHOD_COUNT + 1)     /* one debug view per method, one perspective */
#define PANEL_W 260
#define PANEL_H 340
#define LABEL_H 52
#define NORMAL_LENGTH 0.3
#define ERROR_SCALE_DEG 20.0
#define VERTS (RIG30_RINGS * RIG30_SEGMENTS)

/* ---- the regression poses -------------------------------------------------------------- */

typedef struct {
    const char *name, *description;
    rig30_kind rig;
    double angle_deg;
    vec3 child_scale;     /* (1, 1, 1): none */
    mat4 model;           /* M_model */
} pose_spec;

static void pose_specs(pose_spec out[POSES])
{
    const double pi = acos(-1.0);
    out[0] = (pose_spec){"bind", "bind pose: every S_i = I", RIG30_TWIST, 0, {1, 1, 1},
                         mat4_identity()};
    out[1] = (pose_spec){"bend135", "extreme bend: elbow at 135 deg", RIG30_BEND, 135, {1, 1, 1},
                         mat4_identity()};
    out[2] = (pose_spec){"child-scale", "elbow rig, child bone scaled 2 along x (non-uniform)",
                         RIG30_BEND, 0, {2, 1, 1}, mat4_identity()};
    out[3] = (pose_spec){"model-scale", "elbow at 45 deg, M_model = Tx(0.5) Rz(30) S(1, 2.5, 1)",
                         RIG30_BEND, 45, {1, 1, 1},
                         mat4_mul(mat4_mul(mat4_translate(0.5, 0, 0), mat4_rotate_z(pi / 6)),
                                  mat4_scale(1, 2.5, 1))};
}

/* ---- command line ----------------------------------------------------------------------- */

typedef struct {
    skin_weight_policy policy;
    const char *weights_file;
} options;

/* ---- the computation ---------------------------------------------------------------------- */

typedef struct {
    pose_spec spec;
    rig30_pose pose;                            /* model-space positions, world, palette */
    vec3 world_positions[VERTS];
    vec3 normals[NORMALS_METHOD_COUNT][VERTS];  /* world normals per method */
    vec3 truth[VERTS];                          /* the skinned surface's own normal */
    vec3 faces[VERTS];                          /* area-weighted face normals of the mesh */
    vec3 naive[VERTS];                          /* blended, then M3x3 instead of (M^-1)^T */
    double error[NORMALS_METHOD_COUNT][VERTS];
    normals_error summary[NORMALS_METHOD_COUNT], faces_summary, naive_summary;
    double steady_max[NORMALS_METHOD_COUNT];    /* max error where the weights do not vary */
    int steady_count;
    int folded_count;                           /* truth . blended < 0: the surface folds */
    camera ortho, perspective;
} pose_result;

typedef struct {
    rig30_rig rigs[2];
    skin_weight_report weights;
    bool weights_from_file;
    mesh_edge *edges;
    int edge_count;
    pose_result pose[POSES];
} results;

static void results_free(results *r)
{
    for (int i = 0; i < POSES; i++)
        free(r->pose[i].pose.positions);
    free(r->edges);
    skin_weight_report_free(&r->weights);
    rig30_rig_free(&r->rigs[RIG30_TWIST]);
    rig30_rig_free(&r->rigs[RIG30_BEND]);
}

/* The weights of both rigs: their own profiles, or the file's, through the policy. */
static lab_error load_weights(const options *o, results *r, lab_diag *d)
{
    skin_influences file = {0};
    if (o->weights_file) {
        bytes b = {0};
        bytes_read_result read = bytes_read_file(o->weights_file, WEIGHTS_CSV_MAX_BYTES, &b);
        if (read != BYTES_READ_OK || b.len == 0) {
            bytes_free(&b);
            return diag_fail(d, LAB_ERR_WEIGHTS_FILE, o->weights_file, "%s (at most %d bytes)",
                             read == BYTES_READ_OK ? "the file is empty" : bytes_read_message(read),
                             WEIGHTS_CSV_MAX_BYTES);
        }
        lab_error e = skin_influences_init(&file, VERTS, 2, d);
        if (e == LAB_OK)
            e = weights_csv_parse((const char *)b.data, &file, d);
        bytes_free(&b);
        if (e != LAB_OK) {
            diag_prefix_where(d, "%s", o->weights_file);
            skin_influences_free(&file);
            return e;
        }
        r->weights_from_file = true;
    }
    lab_error e = LAB_OK;
    for (int kind = 0; e == LAB_OK && kind < 2; kind++) {
        rig30_rig *rig = &r->rigs[kind];
        /* one file gives both rigs the same weights; otherwise each keeps its profile */
        e = rig30_set_influences(rig, o->weights_file ? &file : &rig->influences, o->policy,
                                 kind == RIG30_TWIST ? &r->weights : NULL, d);
    }
    skin_influences_free(&file);
    return e;
}

/* Positions: the rig's chain with the pose's child scale, then M_model. */
static lab_error skin_positions(const results *r, pose_result *p, lab_diag *d)
{
    const rig30_rig *rig = &r->rigs[p->spec.rig];
    scene_node joints[RIG30_JOINTS];
    rig30_joints(p->spec.rig, deg_to_rad(p->spec.angle_deg), joints);
    vec3 s = p->spec.child_scale;
    joints[1].local = mat4_mul(joints[1].local, mat4_scale(s.x, s.y, s.z));
    lab_error e = rig30_pose_with(rig, joints, NULL, (skin_blend){.method = SKIN_LBS}, &p->pose, d);
    for (int v = 0; e == LAB_OK && v < VERTS; v++)
        p->world_positions[v] = mat4_transform_point(p->spec.model, p->pose.positions[v]);
    return e;
}

/* Normals: each method in model space, then to world; the truth; the faces; the naive. */
static lab_error skin_normals(const results *r, pose_result *p, lab_diag *d)
{
    const rig30_rig *rig = &r->rigs[p->spec.rig];
    vec3 bind[VERTS], model_space[VERTS];
    rig30_bind_normals(rig, bind);
    lab_error e = LAB_OK;
    for (int m = 0; e == LAB_OK && m < NORMALS_METHOD_COUNT; m++) {
        e = normals_skin(bind, &rig->influences, p->pose.palette, RIG30_JOINTS,
                         (normals_method)m, model_space, d);
        if (e == LAB_OK)
            e = normals_to_world(model_space, VERTS, p->spec.model, p->normals[m], d);
        if (e == LAB_OK && m == NORMALS_BLENDED_INVERSE_TRANSPOSE)
            for (int v = 0; v < VERTS; v++)
                p->naive[v] = vec3_normalize(mat4_transform_direction(p->spec.model, model_space[v]));
    }
    if (e != LAB_OK)
        return e;
    rig30_true_normals(rig, p->pose.palette, p->spec.model, p->truth);
    normals_from_faces(p->world_positions, VERTS, rig->bind.triangles, rig->bind.triangle_count,
                       p->faces);
    bool steady[VERTS];
    rig30_steady_vertices(rig, steady);
    for (int m = 0; m < NORMALS_METHOD_COUNT; m++) {
        p->summary[m] = normals_compare(p->normals[m], p->truth, VERTS, p->error[m]);
        p->steady_max[m] = 0.0;
        p->steady_count = 0;
        for (int v = 0; v < VERTS; v++)
            if (steady[v]) {
                p->steady_max[m] = fmax(p->steady_max[m], p->error[m][v]);
                p->steady_count++;
            }
    }
    p->faces_summary = normals_compare(p->faces, p->truth, VERTS, NULL);
    p->folded_count = 0;
    for (int v = 0; v < VERTS; v++)
        p->folded_count += vec3_dot(p->truth[v], p->normals[NORMALS_BLENDED_INVERSE_TRANSPOSE][v]) < 0.0;
    p->naive_summary = normals_compare(p->naive, p->truth, VERTS, NULL);
    return LAB_OK;
}

static lab_error compute(const options *o, results *r, lab_diag *d)
{
    lab_error e = rig30_rig_build(&r->rigs[RIG30_TWIST], RIG30_TWIST, NULL, d);
    if (e == LAB_OK)
        e = rig30_rig_build(&r->rigs[RIG30_BEND], RIG30_BEND, NULL, d);
    if (e == LAB_OK)
        e = load_weights(o, r, d);
    if (e != LAB_OK)
        return e;
    const mesh *m = &r->rigs[RIG30_TWIST].bind;
    e = mesh_unique_edges(m->triangles, m->triangle_count, &r->edges, &r->edge_count, d);
    pose_spec specs[POSES];
    pose_specs(specs);
    for (int i = 0; e == LAB_OK && i < POSES; i++) {
        pose_result *p = &r->pose[i];
        p->spec = specs[i];
        if (!(p->pose.positions = malloc(sizeof(vec3) * VERTS)))
            return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "pose", "%s", specs[i].name);
        e = skin_positions(r, p, d);
        if (e == LAB_OK)
            e = skin_normals(r, p, d);
    }
    return e;
}

/* ---- the figures ------------------------------------------------------------------------- */

/* Ortho: an oblique look fitted to the world positions and the normals' tips; perspective:
 * the same direction from a distance that frames the model in a 45 degree field of view. */
static void choose_cameras(pose_result *p)
{
    vec3 pts[2 * VERTS], centre = {0, 0, 0};
    for (int v = 0; v < VERTS; v++) {
        pts[v] = p->world_positions[v];
        pts[VERTS + v] = vec3_add(p->world_positions[v], vec3_scale(p->truth[v], NORMAL_LENGTH));
        centre = vec3_add(centre, vec3_scale(p->world_positions[v], 1.0 / VERTS));
    }
    double radius = 0.0;
    for (int v = 0; v < 2 * VERTS; v++)
        radius = fmax(radius, vec3_length(vec3_sub(pts[v], centre)));
    vec3 dir = vec3_normalize(p->spec.rig == RIG30_BEND ? vec3_make(8, -3, 3) : vec3_make(3, -5, 4.4));
    vec3 up = {0, 0, 1};
    camera_viewport_rect rect = {0, LABEL_H, PANEL_W, PANEL_H - LABEL_H};
    p->ortho.view = camera_look_at(vec3_add(centre, vec3_scale(dir, 10.0)), centre, up);
    p->ortho.viewport = rect;
    p->ortho.projection = camera_fit_orthographic(p->ortho.view, pts, 2 * VERTS, 0.04, rect);
    const double fovy = acos(-1.0) / 4.0;
    double distance = 1.1 * radius / sin(0.5 * fovy);
    p->perspective.view = camera_look_at(vec3_add(centre, vec3_scale(dir, distance)), centre, up);
    p->perspective.viewport = rect;
    p->perspective.projection =
        camera_perspective(fovy, (double)rect.width / rect.height, 0.1 * distance, 4.0 * distance);
}

static void draw_label(canvas *c, const char *line1, const char *line2)
{
    raster_text(c, 8, 8, FIGURE_TEXT_SCALE, line1, FIGURE_TEXT);
    raster_text(c, 8, 30, FIGURE_TEXT_SCALE, line2, FIGURE_TEXT);
}

static void draw_wireframe(canvas *c, const camera *cam, const results *r, const vec3 *world)
{
    figure_panel panel = {.positions = world, .edges = r->edges, .edge_count = r->edge_count};
    figure_draw_panel(c, cam, &panel);
}

/* The debug view: wireframe, and each vertex's normal as a short segment coloured by its
 * angle to the true normal. */
static void draw_method_panel(canvas *c, const results *r, const pose_result *p, int m)
{
    vec3 tips[VERTS];
    rgb colors[VERTS];
    for (int v = 0; v < VERTS; v++) {
        tips[v] = vec3_add(p->world_positions[v], vec3_scale(p->normals[m][v], NORMAL_LENGTH));
        colors[v] = figure_error_color(p->error[m][v], ERROR_SCALE_DEG);
    }
    draw_wireframe(c, &p->ortho, r, p->world_positions);
    figure_draw_lines(c, &p->ortho, p->world_positions, tips, colors, VERTS);
    char line1[64], line2[64];
    snprintf(line1, sizeof line1, "%s: %s", p->spec.name, normals_method_name((normals_method)m));
    snprintf(line2, sizeof line2, "mean %.2f max %.2f", p->summary[m].mean_deg,
             p->summary[m].max_deg);
    draw_label(c, line1, line2);
    figure_error_bar(c, 24, PANEL_H - 14, PANEL_W - 110, 8, ERROR_SCALE_DEG);
}

/* The whole chain in perspective, with the world axes (x red, y green, z blue). */
static void draw_perspective_panel(canvas *c, const results *r, const pose_result *p)
{
    draw_wireframe(c, &p->perspective, r, p->world_positions);
    const vec3 origin[3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    const vec3 axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    const rgb colors[3] = {{220, 0, 0}, {0, 160, 0}, {0, 0, 220}};
    figure_draw_lines(c, &p->perspective, origin, axes, colors, 3);
    draw_label(c, p->spec.name, "whole chain, perspective");
}

static lab_error add_figures(const results *r, output_batch *b, lab_diag *d)
{
    enum { PANELS = POSES * VIEWS };
    canvas panels[PANELS] = {{0}}, fig = {0};
    lab_error e = LAB_OK;
    for (int i = 0; e == LAB_OK && i < POSES; i++)
        for (int view = 0; e == LAB_OK && view < VIEWS; view++) {
            int k = i * VIEWS + view;
            const pose_result *p = &r->pose[i];
            e = canvas_init(&panels[k], PANEL_W, PANEL_H, FIGURE_BACKGROUND, d);
            if (e != LAB_OK)
                break;
            if (view < NORMALS_METHOD_COUNT)
                draw_method_panel(&panels[k], r, p, view);
            else
                draw_perspective_panel(&panels[k], r, p);
        }
    if (e == LAB_OK)
        e = figure_compose_grid(&fig, panels, PANELS, VIEWS, 12,
                                "Normals: colour = angle to the true normal (0 green .. 20+ deg red)",
                                d);
    if (e == LAB_OK)
        e = output_batch_add_image(b, "normals30.png", &fig, d);
    for (int k = 0; k < PANELS; k++) {
        char name[OUTPUT_MAX_NAME + 1];
        int view = k % VIEWS;
        snprintf(name, sizeof name, "normals30-%s-%s.png", r->pose[k / VIEWS].spec.name,
                 view < NORMALS_METHOD_COUNT ? normals_method_name((normals_method)view) : "perspective");
        if (e == LAB_OK)
            e = output_batch_add_image(b, name, &panels[k], d);
        canvas_free(&panels[k]);
    }
    canvas_free(&fig);
    return e;
}

/* ---- the evidence ------------------------------------------------------------------------ */

static cJSON *summary_json(normals_error s)
{
    cJSON *o = cJSON_CreateObject();
    json_add_number(o, "mean_deg", s.mean_deg);
    json_add_number(o, "max_deg", s.max_deg);
    cJSON_AddNumberToObject(o, "max_vertex", s.max_vertex);
    return o;
}

static cJSON *pose_json(const pose_result *p)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "pose", p->spec.name);
    cJSON_AddStringToObject(o, "description", p->spec.description);
    cJSON_AddStringToObject(o, "rig", rig30_kind_name(p->spec.rig));
    json_add_number(o, "angle_deg", p->spec.angle_deg);
    cJSON_AddItemToObject(o, "child_scale", json_vec3(p->spec.child_scale));
    cJSON *chain = cJSON_AddObjectToObject(o, "chain");
    cJSON_AddItemToObject(chain, "world_joints", json_mat4_array(p->pose.world, RIG30_JOINTS));
    cJSON_AddItemToObject(chain, "skin", json_mat4_array(p->pose.palette, RIG30_JOINTS));
    cJSON_AddItemToObject(chain, "model", json_mat4(p->spec.model));
    cJSON_AddItemToObject(chain, "orthographic", json_camera(&p->ortho));
    cJSON_AddItemToObject(chain, "perspective", json_camera(&p->perspective));
    cJSON_AddItemToObject(o, "world_positions", json_vec3_array(p->world_positions, VERTS));
    cJSON_AddItemToObject(o, "true_normals", json_vec3_array(p->truth, VERTS));
    cJSON *methods = cJSON_AddObjectToObject(o, "methods");
    for (int m = 0; m < NORMALS_METHOD_COUNT; m++) {
        cJSON *j = cJSON_AddObjectToObject(methods, normals_method_name((normals_method)m));
        cJSON_AddStringToObject(j, "formula", normals_method_formula((normals_method)m));
        cJSON_AddItemToObject(j, "normals", json_vec3_array(p->normals[m], VERTS));
        cJSON_AddItemToObject(j, "angle_error_deg", json_number_array(p->error[m], VERTS));
        cJSON_AddItemToObject(j, "error", summary_json(p->summary[m]));
    }
    cJSON_AddNumberToObject(o, "steady_vertex_count", p->steady_count);
    cJSON_AddNumberToObject(o, "folded_vertex_count", p->folded_count);
    for (int m = 0; m < NORMALS_METHOD_COUNT; m++)
        json_add_number(cJSON_GetObjectItem(methods, normals_method_name((normals_method)m)),
                        "steady_max_error_deg", p->steady_max[m]);
    cJSON_AddItemToObject(o, "mesh_faces_error", summary_json(p->faces_summary));
    cJSON_AddItemToObject(o, "blended_with_model_3x3_error", summary_json(p->naive_summary));
    return o;
}

static cJSON *weights_json(const results *r, const options *o)
{
    const skin_weight_report *w = &r->weights;
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "policy", skin_policy_name(o->policy.kind));
    if (o->policy.kind == SKIN_POLICY_FALLBACK)
        cJSON_AddNumberToObject(j, "fallback_joint", o->policy.fallback_joint);
    json_add_number(j, "eps_w", SKIN_DEFAULT_EPS_W);
    cJSON_AddStringToObject(j, "source", r->weights_from_file ? o->weights_file : "the rigs' own profiles");
    cJSON_AddNumberToObject(j, "normalized_count", w->normalized_count);
    cJSON_AddItemToObject(j, "normalized_vertices", cJSON_CreateIntArray(w->normalized_vertices ? w->normalized_vertices : (int[]){0}, w->normalized_count));
    json_add_number(j, "largest_deviation", w->largest_deviation);
    cJSON_AddNumberToObject(j, "largest_deviation_vertex", w->largest_deviation_vertex);
    cJSON_AddNumberToObject(j, "fallback_count", w->fallback_count);
    cJSON_AddItemToObject(j, "fallback_vertices", cJSON_CreateIntArray(w->fallback_vertices ? w->fallback_vertices : (int[]){0}, w->fallback_count));
    return j;
}

static lab_error add_evidence(const results *r, const options *o, output_batch *b, lab_diag *d)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "lab", LAB);
    cJSON_AddItemToObject(root, "conventions", json_conventions());
    cJSON_AddItemToObject(root, "weights", weights_json(r, o));
    cJSON *poses = cJSON_AddArrayToObject(root, "poses");
    for (int i = 0; i < POSES; i++)
        cJSON_AddItemToArray(poses, pose_json(&r->pose[i]));
    bytes json = {0}, csv = {0}, weights = {0};
    lab_error e = json_to_bytes(root, &json, d);
    cJSON_Delete(root);
    bytes_printf(&csv, "method,pose,vertex,angle_error_deg\n");
    for (int m = 0; m < NORMALS_METHOD_COUNT; m++)
        for (int i = 0; i < POSES; i++)
            for (int v = 0; v < VERTS; v++) {
                bytes_printf(&csv, "%s,%s,%d,", normals_method_name((normals_method)m),
                             r->pose[i].spec.name, v);
                csv_number(&csv, r->pose[i].error[m][v]);
                bytes_append(&csv, "\n", 1);
            }
    if (e == LAB_OK)
        e = weights_csv_write(&r->rigs[RIG30_TWIST].influences, &weights, d);
    if (e == LAB_OK)
        e = output_batch_add(b, "normals30.json", &json, d);
    if (e == LAB_OK)
        e = output_batch_add(b, "normals30-errors.csv", &csv, d);
    if (e == LAB_OK)
        e = output_batch_add(b, "normals30-weights.csv", &weights, d);
    bytes_free(&json);
    bytes_free(&csv);
    bytes_free(&weights);
    return e;
}

/* ---- the report ---------------------------------------------------------------------------- */

static void print_weights(const results *r, const options *o)
{
    const skin_weight_report *w = &r->weights;
    report_heading(stdout, "Weights");
    printf("  source: %s; policy: %s", r->weights_from_file ? o->weights_file : "the rigs' own profiles",
           skin_policy_name(o->policy.kind));
    if (o->policy.kind == SKIN_POLICY_FALLBACK)
        printf(" (joint %d)", o->policy.fallback_joint);
    printf(", eps_w = %g\n", SKIN_DEFAULT_EPS_W);
    printf("  normalised: %d vertices; largest |W - 1| = %.6g", w->normalized_count,
           w->largest_deviation);
    if (w->largest_deviation_vertex >= 0)
        printf(" at vertex %d", w->largest_deviation_vertex);
    printf("; bound to the fallback joint: %d vertices\n", w->fallback_count);
    for (int k = 0; k < w->normalized_count && k < 8; k++)
        printf("%s%d%s", k ? ", " : "  normalised vertices: ", w->normalized_vertices[k],
               k + 1 == w->normalized_count ? "\n" : "");
    if (w->normalized_count > 8)
        printf(", ... (all %d in normals30.json)\n", w->normalized_count);
    for (int k = 0; k < w->fallback_count && k < 8; k++)
        printf("%s%d%s", k ? ", " : "  bound to the fallback joint: vertices ", w->fallback_vertices[k],
               k + 1 == w->fallback_count ? "\n" : "");
    if (w->fallback_count > 8)
        printf(", ... (all %d in normals30.json)\n", w->fallback_count);
}

static bool print_pose(const pose_result *p, int index)
{
    char heading[160];
    snprintf(heading, sizeof heading, "%d. %s: %s", index + 1, p->spec.name, p->spec.description);
    report_heading(stdout, heading);
    printf("  steady: the %d vertices whose weights equal their neighbours' (no weight gradient)\n",
           p->steady_count);
    printf("  %-10s %-44s %9s %9s %7s %12s\n", "method", "n' =", "mean deg", "max deg", "vertex",
           "max, steady");
    for (int m = 0; m < NORMALS_METHOD_COUNT; m++)
        printf("  %-10s %-44s %9.4f %9.4f %7d %12.4f\n", normals_method_name((normals_method)m),
               normals_method_formula((normals_method)m), p->summary[m].mean_deg,
               p->summary[m].max_deg, p->summary[m].max_vertex, p->steady_max[m]);
    printf("  %-10s %-44s %9.4f %9.4f %7d\n", "faces", "area-weighted face normals of the mesh",
           p->faces_summary.mean_deg, p->faces_summary.max_deg, p->faces_summary.max_vertex);
    if (p->folded_count)
        printf("  folded: at %d vertices the skinned surface turns back on itself (LBS at the\n"
               "  elbow's inner side): the true normal points inward, so every method is off by up\n"
               "  to 180 deg there. That is the surface, not a normal formula.\n",
               p->folded_count);
    if (mat4_max_abs_diff(p->spec.model, mat4_identity()) > 0.0)
        printf("  %-10s %-44s %9.4f %9.4f %7d\n", "wrong", "blended, then M3x3 n (not (M^-1)^T n)",
               p->naive_summary.mean_deg, p->naive_summary.max_deg, p->naive_summary.max_vertex);
    if (p->spec.angle_deg == 0 && p->spec.child_scale.x == 1 && p->spec.child_scale.y == 1 &&
        p->spec.child_scale.z == 1) {
        bool ok = true;
        for (int m = 0; m < NORMALS_METHOD_COUNT; m++)
            ok &= report_bound(stdout, normals_method_name((normals_method)m), p->summary[m].max_deg, 1e-9);
        return ok;
    }
    return true;
}

static bool print_report(const results *r, const options *o)
{
    printf("Weights, spaces and normals: the chain to the screen and three ways to skin a normal\n");
    printf("  truth: the normal of the skinned surface itself, from its two tangents with the\n"
           "  weight gradient included (rig30_true_normals); angles in degrees\n");
    print_weights(r, o);
    bool ok = true;
    for (int i = 0; i < POSES; i++)
        ok &= print_pose(&r->pose[i], i);
    printf("\n%s\n", ok ? "All checks passed." : "SOME CHECKS FAILED.");
    return ok;
}

/* ---- main ------------------------------------------------------------------------------------ */

static int parse_policy(const char *value, void *target, const void *context, char *err, size_t size)
{
    (void)context;
    return skin_policy_parse(value, RIG30_JOINTS, target, err, size);
}

static int parse_options(int argc, char **argv, options *o, const char **outdir)
{
    *o = (options){{0}, NULL};
    const cli_option table[] = {
        {"--policy", CLI_CUSTOM, &o->policy, .parse = parse_policy,
         .value_name = "strict|normalize|fallback=J",
         .help = "how weights that do not sum to 1 are treated (default strict):\n"
                 "strict rejects them; normalize divides by the sum W and reports\n"
                 "it (W <= 1e-6 is rejected); fallback=J does the same but binds a\n"
                 "vertex with W <= 1e-6 fully to joint J (0 or 1)"},
        {"--weights-file", CLI_STRING, &o->weights_file, .value_name = "FILE",
         .help = "per-vertex weights, CSV " WEIGHTS_CSV_HEADER "\n"
                 "(normals30-weights.csv from a run is a template)"},
    };
    const cli_program program = {LAB, "Weights, spaces and normals on chapter 30's rigs.", table, 2,
                                 {"OUTDIR"}, 1, NULL};
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
    if (e != LAB_OK) {
        results_free(r);
        free(r);
        return cli_fail(LAB, &d, CLI_EXIT_REJECTED);
    }
    for (int i = 0; i < POSES; i++)
        choose_cameras(&r->pose[i]);
    output_batch batch = {0};
    e = add_figures(r, &batch, &d);
    if (e == LAB_OK)
        e = add_evidence(r, &opt, &batch, &d);
    bool ok = print_report(r, &opt);
    code = cli_finish(LAB, &batch, e, &d, ok, outdir);
    results_free(r);
    free(r);
    return code;
}
