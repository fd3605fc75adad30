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

/* The program's state: its option, what its steps compute, its outputs. */
typedef struct {
    double theta_deg;            /* --theta */
    const char *outdir;
    mesh bind;                   /* the cylinder */
    mesh_edge *edges;            /* its unique edges, for the figure */
    int edge_count;
    bool *seam;                  /* per edge: on the segment at angle 0, drawn orange */
    vec3 *turned;                /* p' = Rz(theta) p, one per vertex */
    double radius_error;         /* max |r' - r| */
    double height_error;         /* max |z' - z| */
    double angle_error_deg;      /* max |atan2(y', x') - atan2(y, x) - theta| (mod 360) */
    output_batch out;
} lab@NN@_state;

/* ---- the steps -------------------------------------------------------------------------- */

/* The mesh: a 9x24 cylinder of radius 1, z in [0, 2], and its edges. */
static lab_error build_mesh(void *state, lab_diag *d)
{
    lab@NN@_state *s = state;
    lab_error e = mesh_cylinder(RINGS, SEGMENTS, 1.0, 2.0, &s->bind, d);
    if (e == LAB_OK)
        e = mesh_unique_edges(s->bind.triangles, s->bind.triangle_count, &s->edges, &s->edge_count, d);
    if (e == LAB_OK && !(s->seam = calloc((size_t)s->edge_count, sizeof *s->seam)))
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "seam edges", "%d edges", s->edge_count);
    for (int i = 0; e == LAB_OK && i < s->edge_count; i++) /* both ends at segment 0: the turn shows */
        for (int k = 0; k + 1 < RINGS; k++)
            s->seam[i] |= s->edges[i].a == mesh_cylinder_index(SEGMENTS, k, 0) &&
                          s->edges[i].b == mesh_cylinder_index(SEGMENTS, k + 1, 0);
    return e;
}

/* "The bone turns the mesh": p' = Rz(theta) p for every vertex, the matrix product in this
 * file's own loop. */
static lab_error turn_mesh(void *state, lab_diag *d)
{
    lab@NN@_state *s = state;
    s->turned = malloc(sizeof *s->turned * (size_t)s->bind.vertex_count);
    if (!s->turned)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "turned positions", "%d vertices", s->bind.vertex_count);
    mat4 r = mat4_rotate_z(deg_to_rad(s->theta_deg));
    for (int v = 0; v < s->bind.vertex_count; v++)
        s->turned[v] = mat4_transform_point(r, s->bind.vertices[v]);
    return LAB_OK;
}

/* The independent check, without the matrix: radius and height kept, polar angle advanced
 * by theta (the difference wrapped into (-180, 180]). */
static lab_error check_rigid_turn(void *state, lab_diag *d)
{
    (void)d;
    lab@NN@_state *s = state;
    for (int v = 0; v < s->bind.vertex_count; v++) {
        vec3 p = s->bind.vertices[v], q = s->turned[v];
        double r = hypot(p.x, p.y), r2 = hypot(q.x, q.y);
        double turn = rad_to_deg(atan2(q.y, q.x) - atan2(p.y, p.x)) - s->theta_deg;
        turn -= 360.0 * floor(turn / 360.0 + 0.5); /* into [-180, 180) */
        s->radius_error = fmax(s->radius_error, fabs(r2 - r));
        s->height_error = fmax(s->height_error, fabs(q.z - p.z));
        s->angle_error_deg = fmax(s->angle_error_deg, fabs(turn));
    }
    return LAB_OK;
}

static bool report_rigid_turn(const void *state, FILE *out)
{
    const lab@NN@_state *s = state;
    bool ok = report_bound(out, "max |r' - r|", s->radius_error, TOLERANCE);
    ok &= report_bound(out, "max |z' - z|", s->height_error, TOLERANCE);
    ok &= report_bound(out, "max angle error (deg)", s->angle_error_deg, 1e-6);
    return ok;
}

/* One panel: the mesh at `positions`, labelled; the camera leaves the label's lines free. */
static lab_error draw_panel(canvas *c, const lab@NN@_state *s, const vec3 *positions, const char *label,
                            lab_diag *d)
{
    const char *lines[] = {label};
    int top = figure_label_height(1);
    const vec3 *sets[] = {s->bind.vertices, s->turned};
    const int counts[] = {s->bind.vertex_count, s->bind.vertex_count};
    camera cam;
    lab_error e = figure_fit_camera(&cam, vec3_make(3, -4, 3), vec3_make(0, 0, 1), sets, counts, 2, 0.1,
                                    (camera_viewport_rect){0, top, PANEL_W, PANEL_H - top}, d);
    if (e == LAB_OK)
        e = canvas_init(c, PANEL_W, PANEL_H, FIGURE_BACKGROUND, d);
    if (e == LAB_OK)
        figure_draw_panel(c, &cam, &(figure_panel){.positions = positions, .edges = s->edges,
                                                    .edge_count = s->edge_count, .highlight = s->seam, .axis_from = vec3_make(0, 0, 0),
                                                    .axis_to = vec3_make(0, 0, 2), .label = lines,
                                                    .label_lines = 1});
    return e;
}

static lab_error add_figure(void *state, lab_diag *d)
{
    lab@NN@_state *s = state;
    char turned[64];
    snprintf(turned, sizeof turned, "turned by %.6g deg", s->theta_deg);
    canvas panels[2] = {{0}}, fig = {0};
    lab_error e = draw_panel(&panels[0], s, s->bind.vertices, "bind pose", d);
    if (e == LAB_OK)
        e = draw_panel(&panels[1], s, s->turned, turned, d);
    if (e == LAB_OK)
        e = figure_compose(&fig, panels, 2, 12, "Chapter @NN@: p' = Rz(theta) p", d);
    output_name names[2] = {"lab@NN@-bind.png", "lab@NN@-turned.png"};
    return output_batch_add_figure(&s->out, e, "lab@NN@.png", &fig, panels, names, 2, d);
}

static lab_error add_evidence(void *state, lab_diag *d)
{
    lab@NN@_state *s = state;
    cJSON *root = json_evidence_root(LAB);
    json_add_number(root, "theta_deg", s->theta_deg);
    cJSON_AddItemToObject(root, "turned", json_vec3_array(s->turned, s->bind.vertex_count));
    cJSON *checks = cJSON_AddObjectToObject(root, "checks");
    json_add_number(checks, "radius_error", s->radius_error);
    json_add_number(checks, "height_error", s->height_error);
    json_add_number(checks, "angle_error_deg", s->angle_error_deg);
    return output_batch_add_json(&s->out, "lab@NN@.json", root, d);
}

static void release(void *state)
{
    lab@NN@_state *s = state;
    mesh_free(&s->bind);
    free(s->edges);
    free(s->seam);
    free(s->turned);
}

/* ---- main ------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static lab@NN@_state s;
    static const cli_option options[] = {
        {"--theta", CLI_DOUBLES, &s.theta_deg, .min = -3600, .max = 3600, .value_name = "DEG",
         .help = "the bone's turn about +z in degrees (default 90)"},
    };
    s.theta_deg = 90;
    const cli_program program = {LAB, "Chapter @NN@: one bone turns a 9x24 cylinder, checked without the matrix.",
                                 options, CLI_COUNT(options), {"OUTDIR"}, 1, NULL};
    static const cli_step steps[] = {
        {.run = build_mesh},
        {.run = turn_mesh},
        {.run = check_rigid_turn, .section = "p' = Rz(theta) p against r' = r, z' = z, angle + theta",
         .report = report_rigid_turn},
        {.run = add_figure},
        {.run = add_evidence},
    };
    static const cli_chapter chapter = {steps, CLI_COUNT(steps), "Chapter @NN@: one bone turns a cylinder", false,
                                        NULL, release};
    return cli_main(&program, argc, argv, &chapter, &s, &s.out, &s.outdir);
}
