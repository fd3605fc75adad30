/* gltf30_figures.c - lab30-gltf's figure (see gltf30.h): each sampled time as a
 * wireframe of every skinned primitive, the skeleton over it, the vertices two joints pull
 * equally in orange, and how far the joints have turned. What it shows is computed in
 * lab30-gltf.c; this file only draws it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "draw/camera.h"
#include "draw/figure.h"
#include "draw/raster.h"
#include "gltf/gltf.h"
#include "math/linalg.h"
#include "mesh/mesh.h"
#include "program/output.h"
#include "skin/influences.h"

#include "gltf30.h"

#define PANEL_W 300
#define PANEL_H 340
#define LABEL_H figure_label_height(2) /* two label lines */

static const rgb joint_color = {30, 80, 220}, bone_color = {220, 30, 30};

/* All skinned positions and joint origins over every time: the animated bounds. */
static vec3 *animated_points(const gltf30 *r, int *count)
{
    int n = 0;
    for (int p = 0; p < r->part_count; p++)
        n += r->parts[p].vertex_count * r->time_count;
    n += r->doc.node_count * r->time_count;
    vec3 *pts = malloc(sizeof(vec3) * (size_t)(n ? n : 1));
    if (!pts)
        return NULL;
    int k = 0;
    for (int t = 0; t < r->time_count; t++) {
        for (int p = 0; p < r->part_count; p++)
            for (int v = 0; v < r->parts[p].vertex_count; v++)
                pts[k++] = r->at[t].positions[p][v];
        for (int j = 0; j < r->doc.node_count; j++)
            pts[k++] = mat4_transform_point(r->at[t].world[j], vec3_make(0, 0, 0));
    }
    *count = k;
    return pts;
}

void gltf30_camera_over(const vec3 *pts, int n, camera_viewport_rect viewport, camera *cam)
{
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = 0; i < n; i++) {
        const double c[3] = {pts[i].x, pts[i].y, pts[i].z};
        for (int a = 0; a < 3; a++)
            lo[a] = fmin(lo[a], c[a]), hi[a] = fmax(hi[a], c[a]);
    }
    int thin = 0, longest = 0;
    for (int a = 1; a < 3; a++) {
        if (hi[a] - lo[a] < hi[thin] - lo[thin]) thin = a;
        if (hi[a] - lo[a] > hi[longest] - lo[longest]) longest = a;
    }
    if (longest == thin)
        longest = (thin + 1) % 3;
    double dir[3] = {0.35, 0.35, 0.35}, up[3] = {0, 0, 0};
    dir[thin] = 1.0;
    up[longest] = 1.0;
    vec3 centre = vec3_make(0.5 * (lo[0] + hi[0]), 0.5 * (lo[1] + hi[1]), 0.5 * (lo[2] + hi[2]));
    vec3 eye = vec3_add(centre, vec3_scale(vec3_normalize(vec3_make(dir[0], dir[1], dir[2])), 10.0));
    cam->view = camera_look_at(eye, centre, vec3_make(up[0], up[1], up[2]));
    cam->viewport = viewport;
    cam->projection = camera_fit_orthographic(cam->view, pts, n, 0.06, cam->viewport);
}

/* Over every skinned position and joint origin of every time sampled. */
static lab_error fit_camera(const gltf30 *r, camera *cam, lab_diag *d)
{
    int n;
    vec3 *pts = animated_points(r, &n);
    if (!pts)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "camera", "%s", "points");
    gltf30_camera_over(pts, n, (camera_viewport_rect){0, LABEL_H, PANEL_W, PANEL_H - LABEL_H}, cam);
    free(pts);
    return LAB_OK;
}

/* The primitive's edges by its mode: each triangle's three (strips and fans as the
 * specification assembles them, gltf_primitive_triangles), each line's one; points have
 * none. *out (free() it) holds *edge_count edges. */
static lab_error part_edges(const gltf30 *r, const gltf30_part *part, mesh_edge **out,
                            int *edge_count, lab_diag *d)
{
    const gltf_primitive *p = &r->doc.meshes[part->mesh].primitives[part->primitive];
    int *tri = NULL, triangles = 0;
    *out = NULL, *edge_count = 0;
    if (p->mode >= GLTF_TRIANGLES) {
        lab_error e = gltf_primitive_triangles(&r->doc, part->mesh, part->primitive, &tri, &triangles, NULL, d);
        *out = e == LAB_OK ? malloc(sizeof(mesh_edge) * ((size_t)triangles * 3 + 1)) : NULL;
        if (e == LAB_OK && !*out)
            e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "edges", "%d triangles", triangles);
        for (int t = 0; e == LAB_OK && t < triangles; t++)
            for (int k = 0; k < 3; k++)
                (*out)[(*edge_count)++] = (mesh_edge){tri[3 * t + k], tri[3 * t + (k + 1) % 3]};
        free(tri);
        return e;
    }
    int count = p->indices >= 0 ? r->doc.accessors[p->indices].count : part->vertex_count;
    double *idx = malloc(sizeof(double) * ((size_t)count + 1));
    *out = malloc(sizeof(mesh_edge) * ((size_t)count + 1));
    lab_error e = idx && *out ? LAB_OK : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "edges", "%d indices", count);
    if (e == LAB_OK && p->indices >= 0)
        e = gltf_accessor_read(&r->doc, p->indices, idx, d);
    for (int k = 0; e == LAB_OK && p->indices < 0 && k < count; k++)
        idx[k] = k;
    int step = p->mode == GLTF_LINES ? 2 : 1; /* LINES in pairs; strips and loops run on */
    for (int k = 0; e == LAB_OK && p->mode != GLTF_POINTS && k + 1 < count; k += step)
        (*out)[(*edge_count)++] = (mesh_edge){(int)idx[k], (int)idx[k + 1]};
    if (e == LAB_OK && p->mode == GLTF_LINE_LOOP && count > 2)
        (*out)[(*edge_count)++] = (mesh_edge){(int)idx[count - 1], (int)idx[0]};
    free(idx);
    return e;
}

static void draw_skeleton(canvas *c, const camera *cam, const gltf30 *r, const gltf30_time *at)
{
    for (int p = 0; p < r->part_count; p++) {
        if (!r->parts[p].skinned)
            continue; /* a mesh without a skin has no joints to draw or turn */
        const gltf_skin *s = &r->doc.skins[r->doc.nodes[r->parts[p].node].skin];
        for (int j = 0; j < s->joint_count; j++) {
            int node = s->joints[j], parent = r->doc.nodes[node].parent;
            vec3 a = mat4_transform_point(at->world[node], vec3_make(0, 0, 0));
            if (parent >= 0) {
                vec3 b = mat4_transform_point(at->world[parent], vec3_make(0, 0, 0));
                figure_draw_lines(c, cam, &a, &b, &bone_color, 1);
            }
            vec3 q = camera_project(cam, a);
            if (q.x > -10 && q.y > -10 && q.x < c->width + 10 && q.y < c->height + 10)
                raster_fill_rect(c, (int)floor(q.x) - 2, (int)floor(q.y) - 2, 5, 5, joint_color);
        }
    }
}

/* What time t means for the rig: the largest angle any skinned joint's world rotation has
 * turned since the first time shown, the angle of R_j(t) R_j(t0)^T (columns normalised, so
 * that a scale does not count as a turn): trace(R_t R_0^T) = sum of R_t[i][k] R_0[i][k]. */
static double largest_turn(const gltf30 *r, const gltf30_time *at, const gltf30_time *first)
{
    double deg = 0.0;
    for (int p = 0; p < r->part_count; p++) {
        if (!r->parts[p].skinned)
            continue; /* a mesh without a skin has no joints to draw or turn */
        const gltf_skin *s = &r->doc.skins[r->doc.nodes[r->parts[p].node].skin];
        for (int j = 0; j < s->joint_count; j++) {
            const mat4 *a = &at->world[s->joints[j]], *b = &first->world[s->joints[j]];
            double trace = 0.0;
            for (int k = 0; k < 3; k++) {
                double la = vec3_length(vec3_make(a->m[0][k], a->m[1][k], a->m[2][k]));
                double lb = vec3_length(vec3_make(b->m[0][k], b->m[1][k], b->m[2][k]));
                for (int i = 0; i < 3; i++)
                    trace += a->m[i][k] * b->m[i][k] / (la * lb);
            }
            double angle = rad_to_deg(acos(fmin(fmax(0.5 * (trace - 1.0), -1.0), 1.0)));
            deg = isfinite(angle) ? fmax(deg, angle) : deg;
        }
    }
    return deg;
}

/* The edges whose both ends are pulled equally by their two heaviest joints (within 1e-6):
 * where LBS collapses first, in orange as lab30 draws its middle ring (which is exactly
 * that ring on the chapter's export). *out is new (free() it); NULL without influences. */
static lab_error equal_pull_edges(const gltf30 *r, const gltf30_part *part, const mesh_edge *edges, int n,
                                  bool **out, lab_diag *d)
{
    skin_influences in;
    *out = NULL;
    lab_error e = gltf_primitive_influences(&r->doc, part->mesh, part->primitive, &in, d);
    if (e != LAB_OK || in.per_vertex == 0)
        return e;
    bool *equal = malloc(sizeof *equal * (size_t)(in.vertex_count ? in.vertex_count : 1));
    *out = malloc(sizeof **out * (size_t)(n ? n : 1));
    if (!equal || !*out) {
        free(equal), free(*out), *out = NULL;
        skin_influences_free(&in);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "equal weights", "%d vertices", in.vertex_count);
    }
    for (int v = 0; v < in.vertex_count; v++) {
        double first = 0.0, second = 0.0; /* the two heaviest weights */
        for (int k = 0; k < in.per_vertex; k++) {
            double w = in.weight[(size_t)v * in.per_vertex + k];
            second = w > first ? first : fmax(second, w);
            first = fmax(first, w);
        }
        equal[v] = second > 0.0 && first - second <= 1e-6;
    }
    for (int i = 0; i < n; i++)
        (*out)[i] = equal[edges[i].a] && equal[edges[i].b];
    free(equal);
    skin_influences_free(&in);
    return LAB_OK;
}

lab_error gltf30_figures(const gltf30 *r, output_batch *out, lab_diag *d)
{
    camera cam;
    lab_error e = fit_camera(r, &cam, d);
    canvas panels[GLTF30_MAX_TIMES] = {{0}}, fig = {0};
    long orange = 0; /* edges drawn in orange: the legend names only what is drawn */
    bool skinned = false;
    for (int p = 0; p < r->part_count; p++)
        skinned |= r->parts[p].skinned;
    for (int k = 0; e == LAB_OK && k < r->time_count; k++) {
        e = canvas_init(&panels[k], PANEL_W, PANEL_H, FIGURE_BACKGROUND, d);
        for (int p = 0; e == LAB_OK && p < r->part_count; p++) {
            mesh_edge *edges;
            int n;
            bool *equal = NULL;
            e = part_edges(r, &r->parts[p], &edges, &n, d);
            if (e == LAB_OK)
                e = equal_pull_edges(r, &r->parts[p], edges, n, &equal, d);
            figure_panel panel = {.positions = r->at[k].positions[p], .edges = edges, .edge_count = n,
                                  .highlight = equal};
            if (e == LAB_OK)
                figure_draw_panel(&panels[k], &cam, &panel);
            for (int i = 0; e == LAB_OK && equal && i < n; i++)
                orange += equal[i];
            free(edges), free(equal);
        }
        if (e != LAB_OK)
            break;
        draw_skeleton(&panels[k], &cam, r, &r->at[k]);
        char label[64], turn[64];
        snprintf(label, sizeof label, "t = %g s", r->at[k].t);
        snprintf(turn, sizeof turn, "joints turned %.3g deg", largest_turn(r, &r->at[k], &r->at[0]));
        figure_draw_label(&panels[k], 0, label);
        figure_draw_label(&panels[k], 1, turn);
    }
    char title[400]; /* the asset, its animation and the colours of what is drawn */
    const char *slash = strrchr(r->options.asset, '/');
    snprintf(title, sizeof title, "%.60s, animation %g..%g s%s%s\n%s%s", slash ? slash + 1 : r->options.asset, r->start,
             r->end, skinned ? ": blue joints, red bones" : "",
             orange ? "; orange: vertices\ntwo joints pull equally, where LBS collapses first." : ".",
             orange ? "\n" : "",
             skinned ? "Under each time, the largest angle a joint has turned since the first time shown" : "");
    if (e == LAB_OK)
        e = figure_compose(&fig, panels, r->time_count, 12, title, d);
    output_name names[GLTF30_MAX_TIMES];
    for (int k = 0; k < r->time_count; k++)
        snprintf(names[k], sizeof names[k], "gltf30-panel%d.png", k);
    return output_batch_add_figure(out, e, "gltf30.png", &fig, panels, names, r->time_count, d);
}

