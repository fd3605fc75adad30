/* view30_frame.c - the frames (view30_frame.h): the twist panel by lab30's drawing in
 * lab30's camera rule, the bend beside it, the student's twist, the state and the keys, the
 * live numbers under them, and their evidence as JSON. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "base/diag.h"
#include "draw/camera.h"
#include "draw/figure.h"
#include "draw/raster.h"
#include "math/dualquat.h"
#include "math/linalg.h"
#include "math/quat.h"
#include "mesh/scene.h"
#include "program/json_writer.h"
#include "skin/blend.h"
#include "skin/influences.h"

#include "rig30_check.h"
#include "view30_frame.h"

#define VERTS (RIG30_RINGS * RIG30_SEGMENTS)

/* The twist panel (320 x 496, out is new) and its numbers: lab30's drawing and camera. */
static lab_error twist_panel(const view30_scene *s, const view30_state *st, canvas *out, view30_readout *r,
                             lab_diag *d)
{
    vec3 *p = malloc(sizeof(vec3) * VERTS);
    lab_error e = p ? view30_skin(s, st, RIG30_TWIST, p, r, d)
                    : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "view30", "%d positions", VERTS);
    camera cam;
    const vec3 *poses[1 + LAB30_SWEEP_FRAMES] = {p};
    for (int k = 0; k < LAB30_SWEEP_FRAMES; k++)
        poses[1 + k] = s->sweep[k];
    if (e == LAB_OK) /* lab30's rule: the pose shown and lab30's animation */
        e = skinning30_fit_camera(s->axis, poses, 1 + LAB30_SWEEP_FRAMES, VERTS, &cam, d);
    if (e == LAB_OK) {
        skinning30_panel panel = {p, NULL, st->twist_deg, r->middle_radius, r->middle_det,
                                  {r->singular[0], r->singular[1], r->singular[2]}};
        e = skinning30_draw_panel(&s->rigs[st->weights][RIG30_TWIST], s->edges, s->edge_count, &cam, s->axis, &panel,
                                  out, d);
    }
    free(p);
    return e;
}

/* The bend's two bones, each a segment along its joint's z, named where it starts: the root
 * (joint 0, the cylinder's base) and the child (joint 1, the elbow, turned by the bend), a
 * dot and the name beside it, inside the panel. */
static void bones(const camera *cam, double theta, canvas *out)
{
    scene_node joints[RIG30_JOINTS];
    rig30_joints(RIG30_BEND, theta, joints);
    mat4 world = mat4_identity();
    static const char *const names[RIG30_JOINTS] = {"root", "child"};
    const rgb color = {40, 90, 200};
    int top = figure_label_height(VIEW30_LABEL_LINES);
    for (int j = 0; j < RIG30_JOINTS; j++) {
        world = j == 0 ? joints[0].local : mat4_mul(world, joints[j].local); /* the chain, parents first */
        /* the bone: from its joint a unit along its own z (the cylinder's axis there) */
        vec3 from = camera_project(cam, mat4_transform_point(world, vec3_make(0, 0, 0)));
        vec3 to = camera_project(cam, mat4_transform_point(world, vec3_make(0, 0, RIG30_BEND_JOINT_Z)));
        raster_segment(out, from.x, from.y, to.x, to.y, 0, 0, color);
        vec3 at = from;
        if (!isfinite(at.x) || !isfinite(at.y))
            continue;
        raster_fill_rect(out, (int)lround(at.x) - 3, (int)lround(at.y) - 3, 7, 7, color);
        int w = raster_text_width(names[j], 1), h = raster_text_height(names[j], 1);
        int x = (int)lround(fmin(fmax(at.x - w - 6, 0), out->width - w - 1));
        int y = (int)lround(fmin(fmax(at.y - h / 2, top), out->height - h - 1));
        raster_text(out, x, y, 1, names[j], color);
    }
}

/* The bend: the elbow in its own camera, its inner approach and outer bulge. */
static lab_error bend_panel(const view30_scene *s, const view30_state *st, canvas *out, view30_readout *r,
                            lab_diag *d)
{
    vec3 p[VERTS];
    lab_error e = view30_skin(s, st, RIG30_BEND, p, r, d);
    if (e == LAB_OK)
        e = canvas_init(out, VIEW30_PANEL_W, VIEW30_PANEL_H, FIGURE_BACKGROUND, d);
    if (e != LAB_OK)
        return e;
    char l1[64], l2[64], l3[64], l4[64];
    snprintf(l1, sizeof l1, "bend = %g deg", st->bend_deg);
    snprintf(l2, sizeof l2, "%s", view30_method_name(st->method));
    if (r->bend_applies) {
        snprintf(l3, sizeof l3, "inner distance = %.4g", r->inner);
        snprintf(l4, sizeof l4, "outer bulge = %.4g", r->bulge);
    } else {
        snprintf(l3, sizeof l3, "does not apply:");
        snprintf(l4, sizeof l4, "no twist to share");
    }
    const char *label[VIEW30_LABEL_LINES] = {l1, l2, l3, l4};
    const vec3 joint = vec3_make(0, 0, RIG30_BEND_JOINT_Z);
    figure_panel panel = {.positions = p, .edges = s->edges, .edge_count = s->edge_count, .highlight = s->middle,
                          .band = s->band, .axis_from = joint, .axis_to = joint, .label = label,
                          .label_lines = VIEW30_LABEL_LINES};
    figure_draw_panel(out, &s->bend_cam, &panel);
    bones(&s->bend_cam, deg_to_rad(st->bend_deg), out);
    return LAB_OK;
}

/* A number for the readouts: "none" for NAN, 0 for what is 0 in exact arithmetic. */
static const char *number(char *buf, size_t size, double x, const char *format)
{
    if (isnan(x))
        return snprintf(buf, size, "none"), buf;
    return format_or_zero(buf, size, x, format, FORMAT_ZERO_BRIEF);
}

/* The mistake in the second panel: the grader's own picture of the first exercise that is
 * not correct (its pose beside the lab's and the failing case, or the failing case alone
 * where the pose hides it), shrunk to the panel. */
static void mistake_panel(const view30_student *student, canvas *out)
{
    const view30_verdict *v = &student->verdicts[student->wrong - 1];
    char l1[VIEW30_LINE], l2[VIEW30_LINE];
    int number = 0;
    sscanf(v->line, "%d.", &number);
    snprintf(l1, sizeof l1, "the mistake: exercise %d", number);
    const char *verdict = strrchr(v->line, ':'); /* "wrong", "crashed", "undefined behaviour", ... */
    snprintf(l2, sizeof l2, "%.20s", verdict ? verdict + 2 : "");
    const char *label[VIEW30_LABEL_LINES] = {l1, l2, "the grader's picture (v)", "green the lab's, red yours"};
    if (!student->mistake.width) /* the reason is on stdout */
        label[2] = "no picture (v: yours)", label[3] = "";
    for (int k = 0; k < VIEW30_LABEL_LINES; k++)
        figure_draw_label(out, k, label[k]);
    if (!student->mistake.width)
        return;
    /* the largest box of the picture's shape that fits under the labels */
    int top = figure_label_height(VIEW30_LABEL_LINES) + 4, room_w = VIEW30_PANEL_W - 8, room_h = VIEW30_PANEL_H - top - 4;
    int w = room_w, h = (int)((long long)student->mistake.height * room_w / student->mistake.width);
    if (h > room_h)
        h = room_h, w = (int)((long long)student->mistake.width * room_h / student->mistake.height);
    w = w < 1 ? 1 : w, h = h < 1 ? 1 : h; /* a sliver of a picture is still a pixel */
    canvas_blit_scaled(out, &student->mistake, 4 + (room_w - w) / 2, top, w, h);
}

/* The student's twist (or why there is none) in the second panel, or the mistake. */
static lab_error student_panel(const view30_scene *s, const view30_student *student, canvas *out, lab_diag *d)
{
    lab_error e = canvas_init(out, VIEW30_PANEL_W, VIEW30_PANEL_H, FIGURE_BACKGROUND, d);
    if (e != LAB_OK)
        return e;
    if (student->show_mistake && student->wrong > 0) {
        mistake_panel(student, out);
        return LAB_OK;
    }
    char l1[VIEW30_LINE], l4[64];
    snprintf(l1, sizeof l1, "yours: %s", view30_method_name(student->positions_method));
    const char *label[VIEW30_LABEL_LINES] = {l1, student->how[0] ? student->how : "", student->status, ""};
    if (student->has_positions) {
        snprintf(l4, sizeof l4, "theta = %g deg", student->positions_deg);
        label[3] = l4;
        camera cam;
        const vec3 *poses[1 + LAB30_SWEEP_FRAMES] = {student->positions};
        for (int k = 0; k < LAB30_SWEEP_FRAMES; k++)
            poses[1 + k] = s->sweep[k];
        bool finite = true;
        for (int v = 0; v < VERTS; v++)
            finite = finite && isfinite(student->positions[v].x) && isfinite(student->positions[v].y) &&
                     isfinite(student->positions[v].z);
        if (!finite)
            label[3] = "not finite: not drawn", poses[0] = s->sweep[0];
        lab_diag quiet = {0};
        if (skinning30_fit_camera(s->axis, poses, 1 + LAB30_SWEEP_FRAMES, VERTS, &cam, &quiet) != LAB_OK) {
            label[3] = "cannot be fitted: not drawn";
            finite = false;
        }
        figure_panel panel = {.positions = finite ? student->positions : NULL, .edges = s->edges,
                              .edge_count = finite ? s->edge_count : 0, .highlight = s->middle,
                              .axis_from = s->axis[0], .axis_to = s->axis[1], .label = label,
                              .label_lines = VIEW30_LABEL_LINES};
        if (finite && student->shaded) { /* the lab's surface, lit by your normals (a NaN one: black) */
            const mesh *bind = &s->rigs[VIEW30_HAND][RIG30_TWIST].bind;
            figure_surface surface = {student->positions, student->normals, NULL, bind->triangles,
                                      bind->triangle_count, vec3_normalize(vec3_make(0.6, -0.7, 0.4)),
                                      (rgb){230, 230, 230}};
            figure_draw_surface(out, &cam, &surface);
            for (int k = 0; k < VIEW30_LABEL_LINES; k++)
                figure_draw_label(out, k, label[k]);
        } else if (finite)
            figure_draw_panel(out, &cam, &panel);
        else
            for (int k = 0; k < VIEW30_LABEL_LINES; k++)
                figure_draw_label(out, k, label[k]);
    } else {
        for (int k = 0; k < VIEW30_LABEL_LINES; k++)
            figure_draw_label(out, k, label[k]);
    }
    return LAB_OK;
}

lab_error view30_frame(const view30_scene *s, const view30_state *st, const view30_student *student, canvas *out,
                       view30_readout *r, lab_diag *d)
{
    *r = (view30_readout){0};
    canvas twist = {0}, second = {0};
    lab_error e = twist_panel(s, st, &twist, r, d);
    view30_readout bend = {0};
    if (e == LAB_OK) /* the bend's numbers always; its panel unless the sheet's is shown */
        e = student && student->loaded ? student_panel(s, student, &second, d) : bend_panel(s, st, &second, &bend, d);
    if (e == LAB_OK && student && student->loaded) {
        vec3 p[VERTS];
        e = view30_skin(s, st, RIG30_BEND, p, &bend, d);
    }
    r->bend_deg = bend.bend_deg, r->inner = bend.inner, r->bulge = bend.bulge, r->bend_applies = bend.bend_applies;
    if (e == LAB_OK)
        e = canvas_init(out, VIEW30_WIDTH, VIEW30_HEIGHT, FIGURE_BACKGROUND, d);
    if (e == LAB_OK) {
        canvas_blit(out, &twist, 0, 0);
        canvas_blit(out, &second, VIEW30_PANEL_W, 0);
        /* a label cut in a panel is cut in the frame: the panels' counts are the frame's */
        for (const canvas *panel = &twist; panel; panel = panel == &twist ? &second : NULL)
            if (panel->text_outside && out->text_outside++ == 0)
                snprintf(out->first_outside, sizeof out->first_outside, "%s", panel->first_outside);
        out->out_of_memory = out->out_of_memory || twist.out_of_memory || second.out_of_memory;
        raster_fill_rect(out, 2 * VIEW30_PANEL_W, 0, 1, VIEW30_PANEL_H, (rgb){200, 200, 200});
        raster_fill_rect(out, 0, VIEW30_PANEL_H, VIEW30_WIDTH, 1, (rgb){200, 200, 200});
        /* the state and the keys, small */
        char state[512];
        snprintf(state, sizeof state,
                 "method: %s\nweights: %s\n\nkeys\n"
                 "left/right  twist -/+5\nup/down     bend +/-5\ndrag x      twist\ndrag y      bend\n"
                 "m  method\nw  weights\n0  angles to 0\nv  yours/mistake\np  save PNG+JSON\nh  help\nq  quit\n\n"
                 "or drag the sliders:",
                 view30_method_name(st->method), view30_weights_name(st->weights));
        raster_text(out, 2 * VIEW30_PANEL_W + 8, 8, 1, state, FIGURE_TEXT);
        view30_slider_draw(out, 1, "twist", st->twist_deg);
        view30_slider_draw(out, 2, "bend", st->bend_deg);
        char line[4][160], a[32], b[32], c[3][24], w[32];
        if (student && student->loaded) {
            view30_student_lines(student, out);
        } else { /* four lines that fit at every angle the options accept (test_view30) */
            snprintf(line[0], sizeof line[0], "twist %g: middle ring r = %s", st->twist_deg,
                     number(a, sizeof a, r->middle_radius, "%.6g"));
            snprintf(line[1], sizeof line[1], "  closed form %s (w = %s)", number(b, sizeof b, r->middle_closed, "%.6g"),
                     number(w, sizeof w, r->middle_weight, "%.4g"));
            snprintf(line[2], sizeof line[2], "  blended map: det %s, sv %s %s %s",
                     number(a, sizeof a, r->middle_det, "%.4g"), number(c[0], sizeof c[0], r->singular[0], "%.4g"),
                     number(c[1], sizeof c[1], r->singular[1], "%.4g"), number(c[2], sizeof c[2], r->singular[2], "%.4g"));
            if (r->bend_applies)
                snprintf(line[3], sizeof line[3], "bend %g: inner %s, bulge %s", st->bend_deg,
                         number(a, sizeof a, r->inner, "%.4g"), number(b, sizeof b, r->bulge, "%.4g"));
            else
                snprintf(line[3], sizeof line[3], "bend %g: %s does not apply", st->bend_deg,
                         view30_method_name(st->method));
            for (int k = 0; k < 4; k++)
                raster_text(out, 8, VIEW30_PANEL_H + 6 + 24 * k, FIGURE_TEXT_SCALE, line[k], FIGURE_TEXT);
        }
    }
    canvas_free(&twist), canvas_free(&second);
    if (e != LAB_OK)
        canvas_free(out);
    return e;
}

/* null where the method has no such number */
static void number_or_null(json_writer *w, const char *key, double x)
{
    if (isfinite(x))
        json_writer_number(w, key, x);
    else
        json_writer_null(w, key);
}

lab_error view30_evidence(const view30_state *st, const view30_readout *r, const view30_student *student, bytes *out,
                          lab_diag *d)
{
    json_writer w;
    json_writer_begin(&w, out);
    json_writer_string(&w, "program", "view30");
    json_writer_object(&w, "state");
    json_writer_number(&w, "twist_deg", st->twist_deg);
    json_writer_number(&w, "bend_deg", st->bend_deg);
    json_writer_string(&w, "method", view30_method_name(st->method));
    json_writer_string(&w, "weights", view30_weights_name(st->weights));
    json_writer_end(&w);
    json_writer_object(&w, "twist");
    number_or_null(&w, "middle_ring_radius", r->middle_radius);
    number_or_null(&w, "middle_ring_closed_form", r->middle_closed);
    number_or_null(&w, "middle_ring_child_weight", r->middle_weight);
    number_or_null(&w, "blended_det", r->middle_det);
    json_writer_array(&w, "blended_singular_values");
    for (int k = 0; k < 3; k++)
        number_or_null(&w, NULL, r->singular[k]);
    json_writer_end(&w);
    json_writer_end(&w);
    json_writer_object(&w, "bend");
    number_or_null(&w, "inner_distance", r->inner);
    number_or_null(&w, "outer_bulge", r->bulge);
    json_writer_end(&w);
    if (student && student->loaded) { /* the sheet's last grade, whole */
        json_writer_object(&w, "sheet");
        json_writer_string(&w, "status", student->status);
        json_writer_string(&w, "graded_as", student->sheet_name);
        json_writer_string(&w, "shown", student->show_mistake && student->wrong ? "the mistake" : "yours");
        json_writer_string(&w, "yours_method", view30_method_name(student->positions_method));
        json_writer_string(&w, "yours_by", student->how);
        json_writer_int(&w, "yours_drawn", student->has_positions);
        json_writer_array(&w, "verdicts");
        for (int k = 0; k < student->verdict_count; k++) {
            json_writer_object(&w, NULL);
            json_writer_string(&w, "verdict", student->verdicts[k].line);
            json_writer_array(&w, "lines");
            for (int j = 0; j < student->verdicts[k].details; j++)
                json_writer_string(&w, NULL, student->verdicts[k].detail[j]);
            json_writer_end(&w);
            json_writer_end(&w);
        }
        json_writer_end(&w);
        json_writer_end(&w);
    }
    return json_writer_finish(&w, d);
}
