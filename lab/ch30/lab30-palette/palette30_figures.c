/* palette30_figures.c - lab30-palette's figures (see palette30.h): RTR4's candidates for one
 * elbow vertex, and the crowd of instances sharing five palettes. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/diag.h"
#include "draw/camera.h"
#include "draw/diagram.h"
#include "draw/figure.h"
#include "draw/raster.h"
#include "math/linalg.h"
#include "program/output.h"

#include "palette30.h"
#include "rig30.h"
#include "rig30_cases.h"

/* The candidates in the bend's plane: horizontal y, vertical z. */
static lab_error draw_candidates(const rig30_candidates *s, canvas *c, lab_diag *d)
{
    diagram g;
    lab_error e = diagram_init(&g, c, 640, 460, 400, 420, 150,
                               "One elbow vertex at 90 deg (y right, z up):\n"
                               "LBS = 2/3 C0 p + 1/3 C1 p, on the dashed chord;\n"
                               "grey circle: p's distance to the elbow;\n"
                               "bone 1 turned 90 deg from its bind pose (dashed)", d);
    if (e != LAB_OK)
        return e;
    vec3 p = s->p, c0 = s->candidate[0], c1 = s->candidate[1], joint = s->joint, tip = s->child_tip;
    diagram_segment(&g, 0, 0, joint.y, joint.z, 0, FIGURE_EDGE); /* the two bones */
    diagram_segment(&g, joint.y, joint.z, tip.y, tip.z, 0, FIGURE_EDGE);
    diagram_segment(&g, joint.y, joint.z, 0, 2 * joint.z, 4, DIAGRAM_GREY); /* the child at bind */
    diagram_segment(&g, c0.y, c0.z, c1.y, c1.z, 6, DIAGRAM_BLUE); /* LBS lies on it */
    diagram_circle(&g, joint.y, joint.z, vec3_length(vec3_sub(p, joint)), DIAGRAM_GREY); /* p's distance */
    diagram_point(&g, p.y, p.z, FIGURE_TEXT, DIAGRAM_LEFT, "p = C0 p (w %.3g)", s->weight[0]);
    diagram_point(&g, c1.y, c1.z, DIAGRAM_BLUE, DIAGRAM_RIGHT, "C1 p (w %.3g)", s->weight[1]);
    diagram_point(&g, s->lbs.y, s->lbs.z, DIAGRAM_RED, DIAGRAM_RIGHT, "LBS");
    diagram_point(&g, s->dqs.y, s->dqs.z, DIAGRAM_GREEN, DIAGRAM_LEFT, "DQS");
    diagram_point(&g, joint.y, joint.z, FIGURE_EDGE, DIAGRAM_RIGHT, "elbow");
    diagram_label(&g, 0.5 * joint.y, 0.5 * joint.z, FIGURE_EDGE, DIAGRAM_RIGHT, "bone 0 (root)");
    diagram_label(&g, 0.5 * (joint.y + tip.y), 0.5 * (joint.z + tip.z), FIGURE_EDGE, DIAGRAM_ABOVE, "bone 1");
    return LAB_OK;
}

/* palette30-candidates.png, then palette30.png: the crowd in perspective. */
lab_error palette30_figures(const palette30 *r, output_batch *out, lab_diag *d)
{
    canvas c = {0};
    bool *middle = NULL;
    lab_error e = draw_candidates(&r->candidates, &c, d);
    if (e == LAB_OK)
        e = output_batch_add_image(out, "palette30-candidates.png", &c, d);
    canvas_free(&c);
    if (e == LAB_OK)
        e = rig30_edge_masks(&r->rig, r->edges, r->edge_count, &middle, NULL, d);
    if (e == LAB_OK)
        e = canvas_init(&c, 1100, 640, FIGURE_BACKGROUND, d);
    if (e != LAB_OK) {
        free(middle);
        return e;
    }
    /* a perspective from the front, above the crowd's near edge: near instances look larger */
    const vec3 eye = {6.4, -14.0, 13.0}, target = {6.6, 5.6, 0.6};
    camera cam = {.viewport = {0, 50, 1100, 590}};
    cam.view = camera_look_at(eye, target, vec3_make(0, 0, 1));
    double dist = vec3_length(vec3_sub(eye, target));
    cam.projection = camera_perspective(0.5, 1100.0 / 590.0, 0.1 * dist, 4.0 * dist);
    for (int i = 0; i < PALETTE30_INSTANCES; i++) {
        figure_panel panel = {.positions = r->crowd_world[i], .edges = r->edges,
                              .edge_count = r->edge_count, .highlight = middle};
        figure_draw_panel(&c, &cam, &panel);
    }
    raster_text(&c, 10, 10, FIGURE_TEXT_SCALE,
                "A crowd: 20 instances, 5 shared palettes (twist 0..180), own model-to-world", FIGURE_TEXT);
    for (int col = 0; col < PALETTE30_POSES; col++) { /* each column shares one palette: name it */
        char label[32];
        snprintf(label, sizeof label, "twist %g deg", palette30_pose_deg[col]);
        vec3 top = camera_project(&cam, vec3_make(3.2 * col, 3.6 * (PALETTE30_COPIES - 1), 2.4));
        int x = (int)top.x - raster_text_width(label, FIGURE_TEXT_SCALE) / 2;
        raster_text(&c, x < 0 ? 0 : x, (int)fmax(top.y - 40, 40), FIGURE_TEXT_SCALE, label, FIGURE_TEXT);
    }
    free(middle);
    return output_batch_add_image(out, "palette30.png", &c, d);
}
