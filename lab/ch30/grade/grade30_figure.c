/* grade30_figure.c - the student's skinned cylinder beside the lab's (see grade30.h): the
 * twist rig's locals, then the student's world matrices, skin matrices and blend on every
 * vertex, in a child process; the panels drawn here, the lab's from rig30_pose_at. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "base/child.h"
#include "base/diag.h"
#include "draw/camera.h"
#include "draw/figure.h"
#include "draw/raster.h"
#include "math/linalg.h"
#include "mesh/mesh.h"
#include "base/report.h"
#include "program/cli.h"
#include "program/output.h"
#include "skin/blend.h"

#include "grade30.h"
#include "rig30.h"

enum { PANEL_W = 380, PANEL_H = 420, VERTICES = RIG30_RINGS * RIG30_SEGMENTS };

typedef struct {
    const grade30_exercises *ex;
    const rig30_rig *rig;
    double theta;
} pose_state;

/* In the child: the student's chain on every vertex; the result is the 216 positions, or
 * nothing when an exercise the chain needs is not written. */
static lab_error student_pose(void *state, bytes *result, lab_diag *d)
{
    (void)d;
    const pose_state *s = state;
    grade30_child_limits();
    scene_node joints[RIG30_JOINTS];
    rig30_joints(RIG30_TWIST, s->theta, joints);
    mat4 world[RIG30_JOINTS], palette[RIG30_JOINTS];
    exercise30_not_written = false;
    world[0] = joints[0].local; /* the root has no parent */
    world[1] = s->ex->world_matrix(world[0], joints[1].local);
    for (int j = 0; j < RIG30_JOINTS; j++)
        palette[j] = s->ex->skin_matrix(world[j], s->rig->inverse_bind[j]);
    const skin_influences *in = &s->rig->influences;
    vec3 positions[VERTICES];
    for (int v = 0; v < VERTICES && !exercise30_not_written; v++)
        positions[v] = s->ex->lbs_point(s->rig->bind.vertices[v], in->joint + v * in->per_vertex,
                                        in->weight + v * in->per_vertex, in->per_vertex, palette);
    if (!exercise30_not_written)
        bytes_append(result, positions, sizeof positions);
    return result->failed ? LAB_ERR_OUT_OF_MEMORY : LAB_OK;
}

/* Whether every position is finite (a wrong answer may not be). */
static bool finite_positions(const vec3 *p, int n)
{
    for (int i = 0; i < n; i++)
        if (!vec3_is_finite(p[i]))
            return false;
    return true;
}

static lab_error draw(canvas *c, const camera *cam, const vec3 *positions, const mesh_edge *edges, int edge_count,
                      const bool *middle, const char *const *label, int lines, lab_diag *d)
{
    lab_error e = canvas_init(c, PANEL_W, PANEL_H, FIGURE_BACKGROUND, d);
    if (e == LAB_OK && positions)
        figure_draw_panel(c, cam, &(figure_panel){.positions = positions, .edges = edges, .edge_count = edge_count,
                                                   .highlight = middle, .axis_from = {0, 0, -0.3},
                                                   .axis_to = {0, 0, RIG30_HEIGHT + 0.3}, .label = label,
                                                   .label_lines = lines});
    else if (e == LAB_OK)
        for (int k = 0; k < lines; k++)
            figure_draw_label(c, k, label[k]);
    return e;
}

lab_error grade30_figure(const grade30_exercises *ex, double theta_deg, const struct report_checks *checks,
                         const char *dir, lab_diag *d)
{
    rig30_rig rig = {0};
    rig30_pose lab = {0};
    mesh_edge *edges = NULL;
    bool *middle = NULL, *band = NULL;
    int edge_count = 0;
    bytes got = {0};
    canvas panels[2] = {{0}}, fig = {0};
    output_batch out = {0};
    lab_diag crash = {0};
    double theta = deg_to_rad(theta_deg);
    lab_error e = rig30_rig_build(&rig, RIG30_TWIST, NULL, d);
    if (e == LAB_OK)
        e = rig30_pose_alloc(&rig, &lab, d);
    if (e == LAB_OK)
        e = rig30_pose_at(&rig, theta, (skin_blend){.method = SKIN_LBS}, &lab, d);
    if (e == LAB_OK)
        e = mesh_unique_edges(rig.bind.triangles, rig.bind.triangle_count, &edges, &edge_count, d);
    if (e == LAB_OK)
        e = rig30_edge_masks(&rig, edges, edge_count, &middle, &band, d);
    pose_state s = {ex, &rig, theta};
    if (e == LAB_OK) { /* a child that ends is the student's crash, drawn as such */
        e = child_run("your skinning of the cylinder", student_pose, &s, &got, LAB_ERR_INVALID_ARGUMENT, &crash);
        if (e == LAB_ERR_OUT_OF_MEMORY)
            e = diag_resource_failure(e, &crash, d);
        else if (e != LAB_OK || (got.len && (got.len != sizeof(vec3) * VERTICES ||
                                             !finite_positions((const vec3 *)got.data, VERTICES))))
            got.len = 0, e = LAB_OK;
    }
    const vec3 *student = got.len ? (const vec3 *)got.data : NULL;
    camera cam = {0};
    if (e == LAB_OK) { /* one camera for both, fitted to what both show */
        const vec3 *sets[] = {lab.positions, student ? student : lab.positions};
        const int counts[] = {VERTICES, VERTICES};
        int top = figure_label_height(2);
        e = figure_fit_camera(&cam, vec3_make(3, -4, 2.5), vec3_make(0, 0, 1), sets, counts, 2, 0.1,
                              (camera_viewport_rect){0, top, PANEL_W, PANEL_H - top}, d);
    }
    char title[96], yours[96];
    snprintf(title, sizeof title, "the lab's at %.6g deg", theta_deg);
    snprintf(yours, sizeof yours, "yours at %.6g deg", theta_deg);
    const char *lab_label[] = {title, "orange: the middle ring"};
    const char *your_label[] = {yours, student ? "orange: the middle ring" : "not drawn: see 1-3 above"};
    if (e == LAB_OK)
        e = draw(&panels[0], &cam, lab.positions, edges, edge_count, middle, lab_label, 2, d);
    if (e == LAB_OK)
        e = draw(&panels[1], &cam, student, edges, edge_count, middle, your_label, 2, d);
    if (e == LAB_OK)
        e = figure_compose(&fig, panels, 2, 12, "grade30: LBS with your exercises 1-3", d);
    output_name names[2] = {"grade30-lab.png", "grade30-yours.png"};
    e = output_batch_add_figure(&out, e, "grade30.png", &fig, panels, names, 2, d);
    if (e == LAB_OK && checks)
        e = cli_add_checks("grade30", checks, &out, d);
    if (e == LAB_OK)
        e = output_batch_commit(&out, dir, d);
    output_batch_free(&out);
    bytes_free(&got);
    free(edges), free(middle), free(band);
    rig30_pose_free(&lab);
    rig30_rig_free(&rig);
    return e;
}
