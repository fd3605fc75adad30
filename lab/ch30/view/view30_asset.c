/* view30_asset.c - a glTF asset playing (view30_asset.h): the lab's reader (compressed and
 * quantized files decoded as lab30-gltf reads them), the sampler, the skin (LBS or DQS),
 * lab30-gltf's camera rule, and the edges drawn by the lab's rasterizer. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/text.h"
#include "draw/figure.h"
#include "draw/raster.h"
#include "gltf/gltf.h"
#include "math/linalg.h"
#include "skin/blend.h"
#include "skin/influences.h"

#include "lab30-gltf/gltf30.h"
#include "view30_asset.h"
#include "view30_scene.h" /* the frame's size */

#define LABEL_LINES 3
#define CAMERA_SAMPLES 24 /* the clip's times the camera is fitted over */

/* Every primitive of every node with a mesh, and its triangles' edges (what has no surface,
 * points and lines, is drawn by none). */
static lab_error find_parts(view30_asset *a, lab_diag *d)
{
    const gltf_document *doc = &a->doc;
    int total = 0;
    for (int n = 0; n < doc->node_count; n++)
        if (doc->nodes[n].mesh >= 0)
            total += doc->meshes[doc->nodes[n].mesh].primitive_count;
    a->parts = calloc((size_t)(total ? total : 1), sizeof *a->parts);
    a->positions = calloc((size_t)(total ? total : 1), sizeof *a->positions);
    a->yours = calloc((size_t)(total ? total : 1), sizeof *a->yours);
    if (!a->parts || !a->positions || !a->yours)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "mesh primitives", "%d", total);
    lab_error e = LAB_OK;
    for (int n = 0; e == LAB_OK && n < doc->node_count; n++) {
        int m = doc->nodes[n].mesh;
        for (int p = 0; e == LAB_OK && m >= 0 && p < doc->meshes[m].primitive_count; p++) {
            view30_part *part = &a->parts[a->part_count];
            *part = (view30_part){n, m, p, gltf_primitive_vertex_count(doc, m, p), doc->nodes[n].skin >= 0, NULL, 0};
            a->positions[a->part_count++] = malloc(sizeof(vec3) * (size_t)(part->vertex_count ? part->vertex_count : 1));
            if (!a->positions[a->part_count - 1])
                e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "positions", "%d vertices", part->vertex_count);
            a->vertex_total += part->vertex_count;
            int *tri = NULL, triangles = 0;
            if (e == LAB_OK && doc->meshes[m].primitives[p].mode >= GLTF_TRIANGLES)
                e = gltf_primitive_triangles(doc, m, p, &tri, &triangles, NULL, d);
            if (e == LAB_OK && triangles > 0 && !(part->edges = malloc(sizeof(mesh_edge) * 3 * (size_t)triangles)))
                e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "edges", "%d triangles", triangles);
            for (int t = 0; e == LAB_OK && t < triangles; t++)
                for (int k = 0; k < 3; k++)
                    part->edges[part->edge_count++] = (mesh_edge){tri[3 * t + k], tri[3 * t + (k + 1) % 3]};
            free(tri);
        }
    }
    if (e == LAB_OK && a->part_count == 0)
        e = diag_fail(d, LAB_ERR_NOTHING_TO_DO, "the asset", "%s",
                      "valid glTF, but no node has a mesh: this lab draws meshes");
    /* the skins' joints, whose bones the frame draws */
    size_t nodes = (size_t)(doc->node_count ? doc->node_count : 1);
    if (e == LAB_OK && (!(a->is_joint = calloc(nodes, sizeof *a->is_joint)) ||
                        !(a->node_at = calloc(nodes, sizeof *a->node_at))))
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "the skeleton", "%d nodes", doc->node_count);
    for (int s = 0; e == LAB_OK && s < doc->skin_count; s++)
        for (int j = 0; j < doc->skins[s].joint_count; j++)
            a->is_joint[doc->skins[s].joints[j]] = true;
    return e;
}

lab_error view30_asset_open(view30_asset *a, const char *path, lab_diag *d)
{
    *a = (view30_asset){.clip = -1};
    lab_error e = gltf_load(path, &a->doc, d);
    if (e == LAB_OK)
        e = gltf_validate(&a->doc, d);
    if (e == LAB_OK)
        e = find_parts(a, d);
    if (e == LAB_OK)
        e = view30_asset_clip(a, 0, d);
    if (e != LAB_OK)
        view30_asset_free(a);
    return e;
}

void view30_asset_free(view30_asset *a)
{
    for (int p = 0; p < a->part_count; p++)
        free(a->parts[p].edges), free(a->positions[p]), free(a->yours ? a->yours[p] : NULL);
    free(a->parts), free(a->positions), free(a->is_joint), free(a->node_at), free(a->yours);
    gltf_free(&a->doc);
    *a = (view30_asset){.clip = -1};
}

/* Every part at time t: the clip's locals, world matrices, each part's morph weights, then
 * its skin (glTF's J_j = G(skin.joints[j]) IBM_j and the blend, gltf_skin_primitive) or its
 * node's placement. */
static lab_error pose(view30_asset *a, double t, skin_method method, lab_diag *d)
{
    const gltf_document *doc = &a->doc;
    int n = doc->node_count;
    mat4 *locals = malloc(sizeof(mat4) * (size_t)(n ? n : 1)), *world = malloc(sizeof(mat4) * (size_t)(n ? n : 1));
    double *morph = NULL;
    lab_error e = locals && world ? gltf_sample_locals(doc, a->clip, t, locals, d)
                                  : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "nodes", "%d", n);
    if (e == LAB_OK)
        e = gltf_world_matrices(doc, locals, world, d);
    for (int k = 0; e == LAB_OK && a->node_at && k < n; k++) /* the skeleton's joints, where they are now */
        a->node_at[k] = vec3_make(world[k].m[0][3], world[k].m[1][3], world[k].m[2][3]);
    for (int p = 0; e == LAB_OK && p < a->part_count; p++) {
        const view30_part *part = &a->parts[p];
        int targets = gltf_node_target_count(doc, part->node);
        free(morph);
        morph = targets > 0 ? malloc(sizeof(double) * (size_t)targets) : NULL;
        if (targets > 0 && !morph)
            e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "morph weights", "%d targets", targets);
        if (e == LAB_OK && targets > 0)
            e = gltf_sample_morph_weights(doc, a->clip, t, part->node, morph, d);
        if (e == LAB_OK && part->skinned)
            e = gltf_skin_primitive(doc, part->node, part->primitive, world, morph, method, SKIN_POLICY_STRICT,
                                    a->positions[p], NULL, d);
        else if (e == LAB_OK)
            e = gltf_place_primitive(doc, part->node, part->primitive, world, morph, a->positions[p], d);
    }
    free(morph), free(locals), free(world);
    return e;
}

static camera_viewport_rect asset_viewport(void)
{
    int top = figure_label_height(LABEL_LINES);
    return (camera_viewport_rect){0, top, VIEW30_WIDTH, VIEW30_HEIGHT - top};
}

lab_error view30_asset_clip(view30_asset *a, int k, lab_diag *d)
{
    int clips = a->doc.animation_count;
    a->clip = clips > 0 ? ((k % clips) + clips) % clips : -1;
    a->start = a->end = 0.0;
    lab_error e = a->clip >= 0 ? gltf_animation_range(&a->doc, a->clip, &a->start, &a->end, d) : LAB_OK;
    vec3 *pts = e == LAB_OK ? malloc(sizeof(vec3) * (size_t)(a->vertex_total ? a->vertex_total : 1) * CAMERA_SAMPLES)
                            : NULL;
    if (e == LAB_OK && !pts)
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "camera", "%d vertices x %d times", a->vertex_total, CAMERA_SAMPLES);
    int n = 0;
    for (int s = 0; e == LAB_OK && s < CAMERA_SAMPLES; s++) { /* both methods move the same joints */
        e = pose(a, a->start + (a->end - a->start) * s / (CAMERA_SAMPLES - 1), SKIN_LBS, d);
        for (int p = 0; e == LAB_OK && p < a->part_count; p++)
            for (int v = 0; v < a->parts[p].vertex_count; v++)
                pts[n++] = a->positions[p][v];
    }
    if (e == LAB_OK)
        gltf30_camera_over(pts, n, asset_viewport(), &a->cam);
    free(pts);
    return e;
}

/* The skins' skeletons over the mesh: a bone from each joint's parent joint to it, a dot
 * at each joint, and its name beside it where a->joint_names (inside the frame, under the
 * labels: a name that would leave it is moved in). */
static void skeleton(const view30_asset *a, canvas *out)
{
    const gltf_document *doc = &a->doc;
    const rgb bone = {0, 150, 136};
    int top = figure_label_height(LABEL_LINES);
    for (int n = 0; a->is_joint && n < doc->node_count; n++) {
        if (!a->is_joint[n])
            continue;
        int p = doc->nodes[n].parent;
        if (p >= 0 && a->is_joint[p])
            figure_draw_lines(out, &a->cam, &a->node_at[p], &a->node_at[n], &bone, 1);
        vec3 at = camera_project(&a->cam, a->node_at[n]);
        if (!isfinite(at.x) || !isfinite(at.y))
            continue;
        raster_fill_rect(out, (int)lround(at.x) - 2, (int)lround(at.y) - 2, 5, 5, bone);
        if (!a->joint_names)
            continue;
        char name[48];
        text_printable(name, sizeof name, doc->nodes[n].name ? doc->nodes[n].name : "");
        if (!name[0])
            snprintf(name, sizeof name, "node %d", n);
        int w = raster_text_width(name, 1), h = raster_text_height(name, 1);
        int x = (int)lround(fmin(fmax(at.x + 5, 0), out->width - w - 1));
        int y = (int)lround(fmin(fmax(at.y - h, top), out->height - h - 1));
        raster_text(out, x, y, 1, name, FIGURE_TEXT);
    }
}

lab_error view30_asset_frame(view30_asset *a, double t, skin_method method, bool paused, canvas *out, lab_diag *d)
{
    lab_error e = pose(a, t, method, d);
    int edges = 0;
    for (int p = 0; p < a->part_count; p++)
        edges += a->parts[p].edge_count;
    vec3 *from = e == LAB_OK ? malloc(sizeof(vec3) * (size_t)(edges ? edges : 1)) : NULL;
    vec3 *to = e == LAB_OK ? malloc(sizeof(vec3) * (size_t)(edges ? edges : 1)) : NULL;
    rgb *color = e == LAB_OK ? malloc(sizeof(rgb) * (size_t)(edges ? edges : 1)) : NULL;
    if (e == LAB_OK && !(from && to && color))
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "edges", "%d", edges);
    if (e == LAB_OK)
        e = canvas_init(out, VIEW30_WIDTH, VIEW30_HEIGHT, FIGURE_BACKGROUND, d);
    if (e == LAB_OK) {
        int k = 0;
        for (int p = 0; p < a->part_count; p++)
            for (int i = 0; i < a->parts[p].edge_count; i++, k++) {
                from[k] = a->positions[p][a->parts[p].edges[i].a], to[k] = a->positions[p][a->parts[p].edges[i].b];
                color[k] = a->parts[p].skinned ? FIGURE_EDGE : FIGURE_AXIS;
            }
        figure_draw_lines(out, &a->cam, from, to, color, edges);
        for (int p = 0; a->yours && p < a->part_count; p++) /* yours over the lab's, red and dashed */
            for (int i = 0; a->yours[p] && i < a->parts[p].edge_count; i++) {
                vec3 s0, s1;
                if (camera_project_segment(&a->cam, a->yours[p][a->parts[p].edges[i].a],
                                           a->yours[p][a->parts[p].edges[i].b], &s0, &s1))
                    raster_segment(out, s0.x, s0.y, s1.x, s1.y, 4, 3, (rgb){200, 30, 30});
            }
        skeleton(a, out);
        char l1[160], l2[160];
        const char *name = a->clip >= 0 && a->doc.animations[a->clip].name ? a->doc.animations[a->clip].name : "";
        char shown[64];
        if (a->clip >= 0)
            snprintf(l1, sizeof l1, "clip %d of %d %s  t = %.3f s of %.3f to %.3f%s", a->clip + 1,
                     a->doc.animation_count, text_printable(shown, sizeof shown, name), t, a->start, a->end,
                     paused ? "  (paused)" : "");
        else
            snprintf(l1, sizeof l1, "no animation: the bind pose");
        snprintf(l2, sizeof l2, "%s   %d parts, %d vertices", method == SKIN_DQS ? "DQS" : "LBS", a->part_count,
                 a->vertex_total);
        figure_draw_label(out, 0, l1);
        figure_draw_label(out, 1, l2);
        if (a->yours_words[0]) {
            char l3[160];
            snprintf(l3, sizeof l3, "yours (red, dashed): %s", a->yours_words);
            figure_draw_label(out, 2, l3);
        } else {
            figure_draw_label(out, 2, "c clip  space  , .  m LBS/DQS  j names  p save  q quit");
        }
    }
    free(from), free(to), free(color);
    return e;
}

void view30_asset_yours_clear(view30_asset *a, const char *words)
{
    for (int p = 0; a->yours && p < a->part_count; p++)
        free(a->yours[p]), a->yours[p] = NULL;
    snprintf(a->yours_words, sizeof a->yours_words, "%s", words);
}
