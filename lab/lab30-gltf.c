/* lab30-gltf.c - Skin a real glTF 2.0 asset: the article's glTF rules at work.
 *
 * Concepts: JOINTS_n index skin.joints (not scene nodes); a missing inverseBindMatrices
 * means identity matrices; the skinned mesh node's own transform is ignored, so skinned
 * positions live in the space of the joints' world matrices. Loads the asset, samples its
 * first animation at the given times, evaluates the node hierarchy, builds the joint
 * matrices J_j = G(skin.joints[j]) IBM_j, and skins every skinned primitive.
 *
 * Usage:  build/bin/lab30-gltf [--time T,...] [--method lbs|dqs] [--policy strict|normalize]
 *                              ASSET OUTDIR
 *
 * Writes into OUTDIR (which must exist), all or nothing:
 *   gltf30.png            one wireframe panel per time: camera fitted to the animated bounds,
 *                         joints as blue squares, bones as red lines
 *   gltf30-panel<k>.png   each panel alone
 *   gltf30.json           per time: joint world matrices, joint (skin) matrices, positions
 *
 * Exit codes: 0 success, 1 the asset was rejected (malformed, hostile or invalid skin data;
 * the message names the JSON pointer), 2 usage, 3 output directory or write failure.
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
#include "gltf.h"
#include "output.h"

#define LAB "lab30-gltf"
#define MAX_TIMES 8
#define PANEL_W 300
#define PANEL_H 340
#define LABEL_H 36

static const rgb joint_color = {30, 80, 220}, bone_color = {220, 30, 30};

/* ---- command line ------------------------------------------------------------------------- */

typedef struct {
    double times[MAX_TIMES];
    int time_count;                  /* 0: start, quarter, half, end of the first animation */
    skin_method method;
    skin_policy_kind policy;
    const char *asset, *outdir;
} options;

static void usage(FILE *to)
{
    fprintf(to, "usage: " LAB " [--time T,...] [--method lbs|dqs] [--policy strict|normalize] ASSET OUTDIR\n"
                "  --time LIST      sample times in seconds, at most %d (default: start, quarter,\n"
                "                   half and end of the first animation)\n"
                "  --method M       lbs (default) or dqs\n"
                "  --policy P       strict (default) rejects weight sums off by more than 2e-7 per\n"
                "                   weight; normalize divides them and counts the vertices\n"
                "ASSET is a .gltf or .glb file. OUTDIR must exist.\n"
                "Exit codes: 0 ok, 1 asset rejected, 2 usage, 3 output.\n",
            MAX_TIMES);
}

static int parse_options(int argc, char **argv, options *o, char *err, size_t size)
{
    *o = (options){{0}, 0, SKIN_LBS, SKIN_POLICY_STRICT, NULL, NULL};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            return 1;
        if (!strcmp(a, "--time") || !strcmp(a, "--method") || !strcmp(a, "--policy")) {
            if (i + 1 >= argc) {
                snprintf(err, size, "%s needs a value", a);
                return -1;
            }
            const char *v = argv[++i];
            if (!strcmp(a, "--time")) {
                if ((o->time_count = cli_parse_doubles(v, o->times, MAX_TIMES, err, size)) < 0)
                    return -1;
                for (int k = 0; k < o->time_count; k++)
                    if (!isfinite(o->times[k])) {
                        snprintf(err, size, "--time %s: times must be finite", v);
                        return -1;
                    }
            } else if (!strcmp(a, "--method") && (!strcmp(v, "lbs") || !strcmp(v, "dqs"))) {
                o->method = !strcmp(v, "dqs") ? SKIN_DQS : SKIN_LBS;
            } else if (!strcmp(a, "--policy") && (!strcmp(v, "strict") || !strcmp(v, "normalize"))) {
                o->policy = !strcmp(v, "normalize") ? SKIN_POLICY_NORMALIZE : SKIN_POLICY_STRICT;
            } else {
                snprintf(err, size, "%s %s: not one of the choices", a, v);
                return -1;
            }
        } else if (a[0] == '-' && a[1] != '\0') {
            snprintf(err, size, "unknown option %s", a);
            return -1;
        } else if (!o->asset) {
            o->asset = a;
        } else if (!o->outdir) {
            o->outdir = a;
        } else {
            snprintf(err, size, "unexpected argument \"%s\"", a);
            return -1;
        }
    }
    if (!o->outdir) {
        snprintf(err, size, "missing %s", o->asset ? "OUTDIR" : "ASSET and OUTDIR");
        return -1;
    }
    return 0;
}

/* ---- the computation ------------------------------------------------------------------------- */

/* One skinned primitive of one node. */
typedef struct { int node, mesh, primitive, vertex_count; } skinned_part;

typedef struct {
    double t;
    mat4 *world;                 /* every node */
    vec3 **positions;            /* per part */
    int normalized;              /* vertices whose weights were divided (normalize policy) */
} time_result;

typedef struct {
    gltf_document doc;
    skinned_part parts[64];
    int part_count;
    time_result at[MAX_TIMES];
    int time_count;
    double start, end;
} results;

static void results_free(results *r)
{
    for (int k = 0; k < r->time_count; k++) {
        for (int p = 0; p < r->part_count; p++)
            free(r->at[k].positions ? r->at[k].positions[p] : NULL);
        free(r->at[k].positions);
        free(r->at[k].world);
    }
    gltf_free(&r->doc);
}

static void find_parts(results *r)
{
    for (int n = 0; n < r->doc.node_count; n++) {
        const gltf_node *node = &r->doc.nodes[n];
        if (node->mesh < 0 || node->skin < 0)
            continue;
        for (int p = 0; p < r->doc.meshes[node->mesh].primitive_count && r->part_count < 64; p++)
            r->parts[r->part_count++] =
                (skinned_part){n, node->mesh, p, gltf_primitive_vertex_count(&r->doc, node->mesh, p)};
    }
}

static lab_error sample_time(results *r, const options *o, time_result *at, lab_diag *d)
{
    int n = r->doc.node_count;
    mat4 *locals = malloc(sizeof(mat4) * (size_t)(n ? n : 1));
    at->world = malloc(sizeof(mat4) * (size_t)(n ? n : 1));
    at->positions = calloc((size_t)(r->part_count ? r->part_count : 1), sizeof(vec3 *));
    lab_error e = (locals && at->world && at->positions) ? gltf_sample_locals(&r->doc, 0, at->t, locals, d)
                                                         : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "nodes", "%d", n);
    if (e == LAB_OK)
        gltf_world_matrices(&r->doc, locals, at->world);
    for (int p = 0; e == LAB_OK && p < r->part_count; p++) {
        int count;
        at->positions[p] = malloc(sizeof(vec3) * (size_t)r->parts[p].vertex_count);
        e = at->positions[p] ? gltf_skin_primitive(&r->doc, r->parts[p].node, r->parts[p].primitive, at->world,
                                                   o->method, o->policy, at->positions[p], &count, d)
                             : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "positions", "part %d", p);
        at->normalized += e == LAB_OK ? count : 0;
    }
    free(locals);
    return e;
}

static lab_error compute(const options *o, results *r, lab_diag *d)
{
    lab_error e = gltf_load(o->asset, &r->doc, d);
    if (e == LAB_OK)
        e = gltf_validate(&r->doc, d);
    if (e != LAB_OK)
        return e;
    find_parts(r);
    if (r->part_count == 0)
        return diag_fail(d, LAB_ERR_GLTF, o->asset, "%s", "no node has both a mesh and a skin");
    gltf_animation_range(&r->doc, 0, &r->start, &r->end);
    double span = r->end - r->start;
    const double quarters[4] = {r->start, r->start + 0.25 * span, r->start + 0.5 * span, r->end};
    r->time_count = o->time_count ? o->time_count : (span > 0 ? 4 : 1);
    for (int k = 0; e == LAB_OK && k < r->time_count; k++) {
        r->at[k].t = o->time_count ? o->times[k] : quarters[k];
        e = sample_time(r, o, &r->at[k], d);
    }
    return e;
}

/* ---- the figure ------------------------------------------------------------------------------ */

/* All skinned positions and joint origins over every time: the animated bounds. */
static vec3 *animated_points(const results *r, int *count)
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

/* Looks along the bounds' thinnest axis, tilted a little, with the longest axis up. */
static lab_error fit_camera(const results *r, camera *cam, lab_diag *d)
{
    int n;
    vec3 *pts = animated_points(r, &n);
    if (!pts)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "camera", "%s", "points");
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
    cam->viewport = (camera_viewport_rect){0, LABEL_H, PANEL_W, PANEL_H - LABEL_H};
    cam->projection = camera_fit_orthographic(cam->view, pts, n, 0.06, cam->viewport);
    free(pts);
    return LAB_OK;
}

/* The primitive's triangles as edges: indices, or consecutive triples without them. */
static int part_edges(const results *r, const skinned_part *part, mesh_edge **out)
{
    const gltf_primitive *p = &r->doc.meshes[part->mesh].primitives[part->primitive];
    int count = p->indices >= 0 ? r->doc.accessors[p->indices].count : part->vertex_count;
    double *idx = malloc(sizeof(double) * (size_t)(count ? count : 1));
    *out = malloc(sizeof(mesh_edge) * (size_t)(count ? count : 1));
    if (!idx || !*out) {
        free(idx);
        return 0;
    }
    if (p->indices >= 0)
        gltf_accessor_read(&r->doc, p->indices, idx, NULL);
    else
        for (int k = 0; k < count; k++)
            idx[k] = k;
    int n = 0;
    for (int t = 0; t + 2 < count; t += 3)
        for (int k = 0; k < 3; k++)
            (*out)[n++] = (mesh_edge){(int)idx[t + k], (int)idx[t + (k + 1) % 3]};
    free(idx);
    return n;
}

static void draw_skeleton(canvas *c, const camera *cam, const results *r, const time_result *at)
{
    for (int p = 0; p < r->part_count; p++) {
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

static lab_error add_figures(const results *r, output_batch *b, lab_diag *d)
{
    camera cam;
    lab_error e = fit_camera(r, &cam, d);
    canvas panels[MAX_TIMES] = {{0}}, fig = {0};
    const canvas *images[MAX_TIMES + 1];
    char names[MAX_TIMES + 1][96];
    for (int k = 0; e == LAB_OK && k < r->time_count; k++) {
        e = canvas_init(&panels[k], PANEL_W, PANEL_H, FIGURE_BACKGROUND, d);
        for (int p = 0; e == LAB_OK && p < r->part_count; p++) {
            mesh_edge *edges;
            int n = part_edges(r, &r->parts[p], &edges);
            figure_panel panel = {.positions = r->at[k].positions[p], .edges = edges, .edge_count = n};
            figure_draw_panel(&panels[k], &cam, &panel);
            free(edges);
        }
        if (e != LAB_OK)
            break;
        draw_skeleton(&panels[k], &cam, r, &r->at[k]);
        char label[64];
        snprintf(label, sizeof label, "t = %g s", r->at[k].t);
        raster_text(&panels[k], 8, 8, FIGURE_TEXT_SCALE, label, FIGURE_TEXT);
        snprintf(names[k], sizeof names[k], "gltf30-panel%d.png", k);
        images[k] = &panels[k];
    }
    if (e == LAB_OK)
        e = figure_compose(&fig, panels, r->time_count, 12, "Skinned glTF: blue joints, red bones", d);
    snprintf(names[r->time_count], sizeof names[0], "gltf30.png");
    images[r->time_count] = &fig;
    if (e == LAB_OK)
        e = output_batch_add_pngs(b, (const char(*)[96])names, images, r->time_count + 1, d);
    canvas_free(&fig);
    for (int k = 0; k < r->time_count; k++)
        canvas_free(&panels[k]);
    return e;
}

/* ---- the evidence ------------------------------------------------------------------------------ */

static cJSON *time_json(const results *r, const options *o, const time_result *at)
{
    cJSON *t = cJSON_CreateObject();
    json_add_number(t, "time", at->t);
    cJSON_AddNumberToObject(t, "normalized_vertices", at->normalized);
    cJSON *parts = cJSON_AddArrayToObject(t, "parts");
    for (int p = 0; p < r->part_count; p++) {
        const skinned_part *part = &r->parts[p];
        const gltf_skin *s = &r->doc.skins[r->doc.nodes[part->node].skin];
        cJSON *j = cJSON_CreateObject();
        cJSON_AddNumberToObject(j, "node", part->node);
        cJSON_AddNumberToObject(j, "mesh", part->mesh);
        cJSON_AddNumberToObject(j, "primitive", part->primitive);
        cJSON *worlds = cJSON_AddArrayToObject(j, "joint_world");
        for (int k = 0; k < s->joint_count; k++)
            cJSON_AddItemToArray(worlds, json_mat4(at->world[s->joints[k]]));
        cJSON_AddItemToObject(j, "positions", json_vec3_array(at->positions[p], part->vertex_count));
        cJSON_AddItemToArray(parts, j);
    }
    (void)o;
    return t;
}

static lab_error add_json(const results *r, const options *o, output_batch *b, lab_diag *d)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "lab", LAB);
    cJSON_AddItemToObject(root, "conventions", json_conventions());
    const char *slash = strrchr(o->asset, '/');
    cJSON_AddStringToObject(root, "asset", slash ? slash + 1 : o->asset);
    cJSON_AddStringToObject(root, "method", skin_method_name(o->method));
    cJSON_AddStringToObject(root, "policy", skin_policy_name(o->policy));
    cJSON_AddStringToObject(root, "space", "the joints' world space: the skinned mesh node's transform is ignored");
    cJSON *range = cJSON_AddArrayToObject(root, "animation_range");
    cJSON_AddItemToArray(range, json_number(r->start));
    cJSON_AddItemToArray(range, json_number(r->end));
    cJSON *times = cJSON_AddArrayToObject(root, "times");
    for (int k = 0; k < r->time_count; k++)
        cJSON_AddItemToArray(times, time_json(r, o, &r->at[k]));
    bytes text = {0};
    lab_error e = json_to_bytes(root, &text, d);
    cJSON_Delete(root);
    if (e == LAB_OK)
        e = output_batch_add(b, "gltf30.json", &text, d);
    bytes_free(&text);
    return e;
}

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
    if (e != LAB_OK) {
        results_free(r);
        free(r);
        return cli_fail(LAB, &d, CLI_EXIT_REJECTED);
    }
    output_batch batch = {0};
    e = add_figures(r, &batch, &d);
    if (e == LAB_OK)
        e = add_json(r, &opt, &batch, &d);
    printf("%s: %d skinned primitive(s), animation %g..%g s, %s, policy %s\n", opt.asset, r->part_count,
           r->start, r->end, skin_method_name(opt.method), skin_policy_name(opt.policy));
    for (int k = 0; k < r->time_count; k++)
        printf("  t = %-8g %d vertices whose weights were normalised\n", r->at[k].t, r->at[k].normalized);
    int code = cli_finish(LAB, &batch, e, &d, true, opt.outdir);
    results_free(r);
    free(r);
    return code;
}
