/* normals30_record.c - lab30-normals's evidence and report (see normals30.h). */
#include "normals30.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "program/evidence.h"
#include "base/report.h"
#include "rig30_json.h"
#include "skin/weights_csv.h"
#include "base/bytes.h"
#include "base/diag.h"
#include "math/linalg.h"
#include "program/output.h"
#include "rig30.h"
#include "skin/influences.h"
#include "skin/normals.h"

void normals30_free(normals30 *r)
{
    for (int i = 0; i < NORMALS30_POSES; i++)
        free(r->pose[i].pose.positions);
    free(r->edges);
    skin_weight_report_free(&r->weights[RIG30_TWIST]);
    skin_weight_report_free(&r->weights[RIG30_BEND]);
    rig30_rig_free(&r->rigs[RIG30_TWIST]);
    rig30_rig_free(&r->rigs[RIG30_BEND]);
    report_checks_free(&r->checks);
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

static cJSON *pose_json(const normals30_pose *p)
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
    cJSON_AddItemToObject(o, "world_positions", json_vec3_array(p->world_positions, NORMALS30_VERTS));
    cJSON_AddItemToObject(o, "true_normals", json_vec3_array(p->truth, NORMALS30_VERTS));
    cJSON *methods = cJSON_AddObjectToObject(o, "methods");
    for (int m = 0; m < NORMALS_METHOD_COUNT; m++) {
        cJSON *j = cJSON_AddObjectToObject(methods, normals_method_name((normals_method)m));
        cJSON_AddStringToObject(j, "formula", normals_method_formula((normals_method)m));
        cJSON_AddItemToObject(j, "normals", json_vec3_array(p->normals[m], NORMALS30_VERTS));
        cJSON_AddItemToObject(j, "angle_error_deg", json_number_array(p->error[m], NORMALS30_VERTS));
        cJSON_AddItemToObject(j, "error", summary_json(p->summary[m]));
    }
    cJSON_AddNumberToObject(o, "steady_vertex_count", p->steady_count);
    cJSON_AddNumberToObject(o, "folded_vertex_count", p->folded_count);
    for (int m = 0; m < NORMALS_METHOD_COUNT; m++) /* a maximum over no vertex is null */
        cJSON_AddItemToObject(cJSON_GetObjectItem(methods, normals_method_name((normals_method)m)),
                              "steady_max_error_deg",
                              p->steady_count ? json_number(p->steady_max[m]) : cJSON_CreateNull());
    cJSON_AddItemToObject(o, "mesh_faces_error", summary_json(p->faces_summary));
    cJSON_AddItemToObject(o, "blended_with_model_3x3_error", summary_json(p->naive_summary));
    return o;
}

/* Where a rig's weights came from: its file, or its own profile. */
static const char *weights_source(const normals30 *r, int kind)
{
    return r->options.weights_file[kind] ? r->options.weights_file[kind] : "the rig's own profile";
}

static cJSON *weights_json(const normals30 *r)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "policy", skin_policy_name(r->options.policy.kind));
    if (r->options.policy.kind == SKIN_POLICY_FALLBACK)
        cJSON_AddNumberToObject(j, "fallback_joint", r->options.policy.fallback_joint);
    json_add_number(j, "eps_w", SKIN_DEFAULT_EPS_W);
    cJSON *rigs = cJSON_AddObjectToObject(j, "rigs");
    for (int kind = 0; kind < 2; kind++) {
        const skin_weight_report *w = &r->weights[kind];
        cJSON *o = cJSON_AddObjectToObject(rigs, rig30_kind_name((rig30_kind)kind));
        cJSON_AddStringToObject(o, "source", weights_source(r, kind));
        cJSON_AddNumberToObject(o, "normalized_count", w->normalized_count);
        cJSON_AddItemToObject(o, "normalized_vertices",
                              cJSON_CreateIntArray(w->normalized_vertices ? w->normalized_vertices : (int[]){0},
                                                   w->normalized_count));
        json_add_number(o, "largest_deviation", w->largest_deviation);
        cJSON_AddNumberToObject(o, "largest_deviation_vertex", w->largest_deviation_vertex);
        cJSON_AddNumberToObject(o, "fallback_count", w->fallback_count);
        cJSON_AddItemToObject(o, "fallback_vertices",
                              cJSON_CreateIntArray(w->fallback_vertices ? w->fallback_vertices : (int[]){0},
                                                   w->fallback_count));
    }
    return j;
}

lab_error normals30_evidence(const normals30 *r, output_batch *b, lab_diag *d)
{
    cJSON *root = json_evidence_root("lab30-normals");
    cJSON_AddItemToObject(root, "weights", weights_json(r));
    cJSON *poses = cJSON_AddArrayToObject(root, "poses");
    for (int i = 0; i < NORMALS30_POSES; i++)
        cJSON_AddItemToArray(poses, pose_json(&r->pose[i]));
    bytes json = {0}, csv = {0}, weights[2] = {{0}, {0}};
    lab_error e = json_to_bytes(root, &json, d);
    cJSON_Delete(root);
    bytes_printf(&csv, "method,pose,vertex,angle_error_deg\n");
    for (int m = 0; m < NORMALS_METHOD_COUNT; m++)
        for (int i = 0; i < NORMALS30_POSES; i++)
            for (int v = 0; v < NORMALS30_VERTS; v++) {
                bytes_printf(&csv, "%s,%s,%d,", normals_method_name((normals_method)m),
                             r->pose[i].spec.name, v);
                csv_number(&csv, r->pose[i].error[m][v]);
                bytes_append(&csv, "\n", 1);
            }
    if (e == LAB_OK)
        e = output_batch_add(b, "normals30.json", &json, d);
    if (e == LAB_OK)
        e = output_batch_add(b, "normals30-errors.csv", &csv, d);
    for (int kind = 0; kind < 2; kind++) { /* each rig's weights, a template for its option */
        char name[64];
        snprintf(name, sizeof name, "normals30-weights-%s.csv", rig30_kind_name((rig30_kind)kind));
        if (e == LAB_OK)
            e = weights_csv_write(&r->rigs[kind].influences, &weights[kind], d);
        if (e == LAB_OK)
            e = output_batch_add(b, name, &weights[kind], d);
        bytes_free(&weights[kind]);
    }
    bytes_free(&json);
    bytes_free(&csv);
    return e;
}

/* ---- the report ---------------------------------------------------------------------------- */

/* Up to eight vertices of a list, then where the rest are. */
static void print_vertices(FILE *out, const char *title, const int *v, int count)
{
    for (int k = 0; k < count && k < 8; k++)
        fprintf(out, "%s%d", k ? ", " : title, v[k]);
    if (count > 8)
        fprintf(out, ", ... (all %d in normals30.json)", count);
    if (count)
        fprintf(out, "\n");
}

void normals30_report_weights(const normals30 *r, FILE *out)
{
    fprintf(out, "  policy: %s", skin_policy_name(r->options.policy.kind));
    if (r->options.policy.kind == SKIN_POLICY_FALLBACK)
        fprintf(out, " (joint %d)", r->options.policy.fallback_joint);
    fprintf(out, ", eps_w = %g\n", SKIN_DEFAULT_EPS_W);
    for (int kind = 0; kind < 2; kind++) {
        const skin_weight_report *w = &r->weights[kind];
        fprintf(out, "  the %s rig's weights: %s\n", rig30_kind_name((rig30_kind)kind), weights_source(r, kind));
        fprintf(out, "    normalised: %d vertices; bound to the fallback joint: %d vertices\n",
                w->normalized_count, w->fallback_count);
        /* over every vertex of the input, the ones bound to the fallback joint too (W = 0 there) */
        fprintf(out, "    the input's largest |W - 1|, over every vertex: ");
        if (r->options.policy.kind == SKIN_POLICY_STRICT) /* strict checks each sum and measures none */
            fprintf(out, "at most %g (strict checked each sum)\n", SKIN_WEIGHT_TOLERANCE);
        else if (w->largest_deviation == 0.0)
            fprintf(out, "0 (every sum is exactly 1)\n");
        else
            fprintf(out, "%.6g at vertex %d\n", w->largest_deviation, w->largest_deviation_vertex);
        print_vertices(out, "    normalised vertices: ", w->normalized_vertices, w->normalized_count);
        print_vertices(out, "    bound to the fallback joint: vertices ", w->fallback_vertices, w->fallback_count);
    }
}

/* One pose's table; the bind pose's rows of checks follow it (*next: the next check). */
static void print_pose(const normals30_pose *p, const report_checks *checks, int *next, FILE *out)
{
    fprintf(out, "\n  %s: %s\n", p->spec.name, p->spec.description);
    if (p->steady_count)
        fprintf(out, "  steady: the %d vertices whose weights equal their neighbours' (no weight gradient)\n",
                p->steady_count);
    else
        fprintf(out, "  steady: none; every vertex's weights differ from a neighbour's\n");
    fprintf(out, "  %-10s %-44s %9s %9s %7s %12s\n", "method", "n' =", "mean deg", "max deg", "vertex",
           "max, steady");
    for (int m = 0; m < NORMALS_METHOD_COUNT; m++) {
        fprintf(out, "  %-10s %-44s %9.4f %9.4f %7d ", normals_method_name((normals_method)m),
               normals_method_formula((normals_method)m), p->summary[m].mean_deg,
               p->summary[m].max_deg, p->summary[m].max_vertex);
        if (p->steady_count) /* a maximum over no vertex is none, never 0 */
            fprintf(out, "%12.4f\n", p->steady_max[m]);
        else
            fprintf(out, "%12s\n", "none");
    }
    fprintf(out, "  %-10s %-44s %9.4f %9.4f %7d\n", "faces", "area-weighted face normals of the mesh",
           p->faces_summary.mean_deg, p->faces_summary.max_deg, p->faces_summary.max_vertex);
    if (p->folded_count)
        fprintf(out, "  folded: at %d vertices the skinned surface turns back on itself (LBS at the\n"
               "  elbow's inner side): the true normal points inward, so every method is off by up\n"
               "  to 180 deg there. That is the surface, not a normal formula.\n",
               p->folded_count);
    if (mat4_max_abs_diff(p->spec.model, mat4_identity()) > 0.0)
        fprintf(out, "  %-10s %-44s %9.4f %9.4f %7d\n", "wrong", "blended, then M3x3 n (not (M^-1)^T n)",
               p->naive_summary.mean_deg, p->naive_summary.max_deg, p->naive_summary.max_vertex);
    if (normals30_is_bind_pose(&p->spec))
        for (int m = 0; m < NORMALS_METHOD_COUNT && *next < checks->count; m++)
            report_row(out, &checks->items[(*next)++]);
}

void normals30_report_poses(const normals30 *r, FILE *out)
{
    fprintf(out, "  truth: the normal of the skinned surface itself, from its two tangents with the\n"
           "  weight gradient included (rig30_true_normals); angles in degrees\n");
    int next = 0;
    for (int i = 0; i < NORMALS30_POSES; i++)
        print_pose(&r->pose[i], &r->checks, &next, out);
}

