/* lab@NN@.c - Chapter @NN@: one bone turns a cylinder (made by `make new-chapter N=@NN@` from
 * lab/template/; replace this program's steps with the chapter's own).
 *
 * One formula and its independent check: a bone at the origin turned by theta about +z
 * carries every vertex of a 9x24 cylinder rigidly,
 *
 *     p' = Rz(theta) p                                 (the chapter's formula, as a matrix)
 *
 * and, computed without the matrix, each vertex keeps its distance r from the axis and its
 * height z while its polar angle advances by theta:
 *
 *     r' = r,  z' = z,  atan2(y', x') = atan2(y, x) + theta   (mod 360 degrees)
 *
 * Outputs in OUTDIR, all or nothing:
 *   lab@NN@.png    the cylinder at the bind pose and turned, side by side (orange: the
 *                  vertices at angle 0 and the edges between them), and each panel alone
 *   lab@NN@.json   theta, the turned positions and every check
 *   lab@NN@-checks.json  the report's checks as data (written by the shell)
 * and the report on stdout. Conventions: src/math/linalg.h (right-handed, column vectors,
 * radians inside, degrees on the command line). Exit codes: 0 success, 1 data rejected (or
 * a self-check failed), 2 usage, 3 output directory or write failure.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/diag.h"
#include "base/report.h"
#include "draw/camera.h"
#include "draw/figure.h"
#include "draw/raster.h"
#include "math/linalg.h"
#include "mesh/mesh.h"
#include "program/cli.h"
#include "program/evidence.h"
#include "program/output.h"

#define LAB "lab@NN@"
#define RINGS 9
#define SEGMENTS 24
#define TOLERANCE 1e-9
#define PANEL_W 360
#define PANEL_H 360

/* ---- the stages: each takes what it reads and fills what it makes ----------------------- */

/* The mesh: a 9x24 cylinder of radius 1, z in [0, 2], its edges, and per edge whether it
 * lies on the segment at angle 0 (drawn orange: the turn shows there). */
typedef struct {
    mesh bind;
    mesh_edge *edges;
    int edge_count;
    bool *seam;
} cylinder;

static lab_error build_mesh(cylinder *c, lab_diag *d)
{
    lab_error e = mesh_cylinder(RINGS, SEGMENTS, 1.0, 2.0, &c->bind, d);
    if (e == LAB_OK)
        e = mesh_unique_edges(c->bind.triangles, c->bind.triangle_count, &c->edges, &c->edge_count, d);
    if (e == LAB_OK && !(c->seam = calloc((size_t)c->edge_count, sizeof *c->seam)))
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "seam edges", "%d edges", c->edge_count);
    for (int i = 0; e == LAB_OK && i < c->edge_count; i++) /* both ends at segment 0 */
        for (int k = 0; k + 1 < RINGS; k++)
            c->seam[i] |= c->edges[i].a == mesh_cylinder_index(SEGMENTS, k, 0) &&
                          c->edges[i].b == mesh_cylinder_index(SEGMENTS, k + 1, 0);
    return e;
}

/* "The bone turns the mesh": p' = Rz(theta) p for every vertex, the matrix product in this
 * file's own loop. turned holds one position per vertex of bind. */
static void turn_mesh(const mesh *bind, double theta_deg, vec3 *turned)
{
    mat4 r = mat4_rotate_z(deg_to_rad(theta_deg));
    for (int v = 0; v < bind->vertex_count; v++)
        turned[v] = mat4_transform_point(r, bind->vertices[v]);
}

/* The independent check, without the matrix: radius and height kept, polar angle advanced
 * by theta (the difference wrapped into [-180, 180)). The verdicts are decided here, where
 * the numbers are made, into `checks`. */
typedef struct {
    double radius;               /* max |r' - r| */
    double height;               /* max |z' - z| */
    double angle_deg;            /* max |atan2(y', x') - atan2(y, x) - theta| (mod 360) */
} turn_errors;

static turn_errors check_rigid_turn(const mesh *bind, const vec3 *turned, double theta_deg, report_checks *checks)
{
    turn_errors err = {0, 0, 0};
    for (int v = 0; v < bind->vertex_count; v++) {
        vec3 p = bind->vertices[v], q = turned[v];
        double r = hypot(p.x, p.y), r2 = hypot(q.x, q.y);
        double turn = rad_to_deg(atan2(q.y, q.x) - atan2(p.y, p.x)) - theta_deg;
        turn -= 360.0 * floor(turn / 360.0 + 0.5); /* into [-180, 180) */
        err.radius = max_or_nan(err.radius, fabs(r2 - r));
        err.height = max_or_nan(err.height, fabs(q.z - p.z));
        err.angle_deg = max_or_nan(err.angle_deg, fabs(turn));
    }
    check_bound(checks, "max |r' - r|", err.radius, TOLERANCE);
    check_bound(checks, "max |z' - z|", err.height, TOLERANCE);
    check_bound(checks, "max angle error (deg)", err.angle_deg, 1e-6);
    return err;
}

/* One panel: the mesh at `positions`, labelled; the camera, fitted to both poses, leaves
 * the label's lines free. */
static lab_error draw_panel(canvas *c, const cylinder *cyl, const vec3 *turned, const vec3 *positions,
                            const char *label, lab_diag *d)
{
    const char *lines[] = {label};
    int top = figure_label_height(1);
    const vec3 *sets[] = {cyl->bind.vertices, turned};
    const int counts[] = {cyl->bind.vertex_count, cyl->bind.vertex_count};
    camera cam;
    lab_error e = figure_fit_camera(&cam, vec3_make(3, -4, 3), vec3_make(0, 0, 1), sets, counts, 2, 0.1,
                                    (camera_viewport_rect){0, top, PANEL_W, PANEL_H - top}, d);
    if (e == LAB_OK)
        e = canvas_init(c, PANEL_W, PANEL_H, FIGURE_BACKGROUND, d);
    if (e == LAB_OK)
        figure_draw_panel(c, &cam, &(figure_panel){.positions = positions, .edges = cyl->edges,
                                                    .edge_count = cyl->edge_count, .highlight = cyl->seam,
                                                    .axis_from = vec3_make(0, 0, 0), .axis_to = vec3_make(0, 0, 2),
                                                    .label = lines, .label_lines = 1});
    return e;
}

/* lab@NN@.png: the bind pose and the turned pose side by side, and each panel alone. */
static lab_error add_figure(const cylinder *cyl, const vec3 *turned, double theta_deg, output_batch *out,
                            lab_diag *d)
{
    char label[64];
    snprintf(label, sizeof label, "turned by %.6g deg", theta_deg);
    canvas panels[2] = {{0}}, fig = {0};
    lab_error e = draw_panel(&panels[0], cyl, turned, cyl->bind.vertices, "bind pose", d);
    if (e == LAB_OK)
        e = draw_panel(&panels[1], cyl, turned, turned, label, d);
    if (e == LAB_OK)
        e = figure_compose(&fig, panels, 2, 12, "Chapter @NN@: p' = Rz(theta) p", d);
    output_name names[2] = {"lab@NN@-bind.png", "lab@NN@-turned.png"};
    return output_batch_add_figure(out, e, "lab@NN@.png", &fig, panels, names, 2, d);
}

/* lab@NN@.json: theta, the turned positions and the check's numbers. */
static lab_error add_evidence(double theta_deg, const vec3 *turned, int count, const turn_errors *err,
                              output_batch *out, lab_diag *d)
{
    cJSON *root = json_evidence_root(LAB);
    json_add_number(root, "theta_deg", theta_deg);
    cJSON_AddItemToObject(root, "turned", json_vec3_array(turned, count));
    cJSON *checks = cJSON_AddObjectToObject(root, "checks");
    json_add_number(checks, "radius_error", err->radius);
    json_add_number(checks, "height_error", err->height);
    json_add_number(checks, "angle_error_deg", err->angle_deg);
    return output_batch_add_json(out, "lab@NN@.json", root, d);
}

/* ---- main: the stages in the article's order, then the report --------------------------- */

int main(int argc, char **argv)
{
    double theta_deg = 90;
    const cli_option options[] = {
        {"--theta", CLI_DOUBLES, &theta_deg, .min = -3600, .max = 3600, .value_name = "DEG",
         .help = "the bone's turn about +z in degrees (default 90)"},
    };
    const cli_program program = {LAB, "Chapter @NN@: one bone turns a 9x24 cylinder, checked without the matrix.",
                                 options, CLI_COUNT(options), {"OUTDIR"}, 1, NULL};
    cli_run run;
    int code = cli_begin(&run, &program, argc, argv);
    if (code != CLI_RUN)
        return code;

    cylinder cyl = {.edges = NULL};
    vec3 *turned = NULL;
    report_checks checks = {0};
    turn_errors err = {0, 0, 0};
    lab_error e = build_mesh(&cyl, &run.diag);
    if (e == LAB_OK && !(turned = malloc(sizeof *turned * (size_t)cyl.bind.vertex_count)))
        e = diag_fail(&run.diag, LAB_ERR_OUT_OF_MEMORY, "turned positions", "%d vertices", cyl.bind.vertex_count);
    if (e == LAB_OK) {
        turn_mesh(&cyl.bind, theta_deg, turned);
        err = check_rigid_turn(&cyl.bind, turned, theta_deg, &checks);
        e = add_figure(&cyl, turned, theta_deg, &run.out, &run.diag);
    }
    if (e == LAB_OK)
        e = add_evidence(theta_deg, turned, cyl.bind.vertex_count, &err, &run.out, &run.diag);

    if (e == LAB_OK && cli_report(&run, "Chapter @NN@: one bone turns a cylinder")) {
        cli_section(&run, "p' = Rz(theta) p against r' = r, z' = z, angle + theta", &checks);
        report_rows(stdout, &checks);
    }
    code = cli_end(&run, e);

    report_checks_free(&checks);
    free(turned);
    mesh_free(&cyl.bind);
    free(cyl.edges);
    free(cyl.seam);
    return code;
}
