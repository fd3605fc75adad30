/* palette30_record.c - lab30-palette's evidence and report (see palette30.h). */
#include "palette30.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "program/evidence.h"
#include "base/report.h"
#include "base/bytes.h"
#include "base/diag.h"
#include "math/linalg.h"
#include "program/output.h"
#include "rig30.h"
#include "rig30_cases.h"
#include "skin/blend.h"
#include "skin/fastskin.h"
#include "skin/packed.h"

const double palette30_pose_deg[PALETTE30_POSES] = {0, 45, 90, 135, 180};

void palette30_free(palette30 *r)
{
    packed_mesh_free(&r->packed);
    rig30_rig_free(&r->rig);
    free(r->edges);
    report_checks_free(&r->checks.poses);
    report_checks_free(&r->checks.crowd);
    report_checks_free(&r->checks.candidates);
}


/* ---- the evidence ------------------------------------------------------------------------ */

typedef struct { const char *layout; const char *fields; int bytes; } layout_row;

static const layout_row layouts[] = {
    {"chapter (doubles)", "position double[3], normal double[3], 2 x (int joint, double weight)", 24 + 24 + 2 * (4 + 8)},
    {"GEA SkinnedVertex", "float position[3], normal[3], u, v; U16 joint[4]; float weight[3]", 12 + 12 + 8 + 8 + 12},
    {"packed, 4 influences", "float position[3], normal[3]; uint16 joint[4]; float weight[3]", 44},
    {"packed, positions pass", "float position[3]; uint16 joint[4]; float weight[3]", 32},
    {"packed, 2 influences", "float position[3], normal[3]; uint16 joint[2]; float weight[1]", 32},
    {"packed, 8 influences", "float position[3], normal[3]; uint16 joint[8]; float weight[7]", 68},
};
enum { LAYOUTS = sizeof layouts / sizeof layouts[0] };

static cJSON *evidence_json(const palette30 *r)
{
    cJSON *root = json_evidence_root("lab30-palette");
    cJSON *packed = cJSON_AddObjectToObject(root, "packed_vertex");
    cJSON_AddNumberToObject(packed, "influences", PALETTE30_K);
    cJSON_AddNumberToObject(packed, "bytes_per_vertex", (double)packed_bytes_per_vertex(PALETTE30_K, 1));
    cJSON_AddNumberToObject(packed, "bytes_per_vertex_positions_only", (double)packed_bytes_per_vertex(PALETTE30_K, 0));
    cJSON *lay = cJSON_AddArrayToObject(root, "layouts");
    for (int i = 0; i < LAYOUTS; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "layout", layouts[i].layout);
        cJSON_AddStringToObject(o, "fields", layouts[i].fields);
        cJSON_AddNumberToObject(o, "bytes_per_vertex", layouts[i].bytes);
        cJSON_AddItemToArray(lay, o);
    }
    cJSON *pal = cJSON_AddObjectToObject(root, "palette");
    cJSON_AddNumberToObject(pal, "joints", RIG30_JOINTS);
    cJSON_AddNumberToObject(pal, "matrix_bytes", sizeof(palette_matrix));
    cJSON_AddNumberToObject(pal, "dualquat_bytes", sizeof(palette_dualquat));
    cJSON_AddNumberToObject(pal, "bytes_per_frame", RIG30_JOINTS * (double)sizeof(palette_matrix));
    const rig30_candidates *c = &r->candidates;
    cJSON *cand = cJSON_AddObjectToObject(root, "candidates_sketch");
    json_add_number(cand, "bend_deg", rad_to_deg(c->angle));
    cJSON_AddItemToObject(cand, "p", json_vec3(c->p));
    cJSON_AddItemToObject(cand, "weights", json_number_array(c->weight, 2));
    cJSON *list = cJSON_AddArrayToObject(cand, "candidates");
    for (int j = 0; j < 2; j++)
        cJSON_AddItemToArray(list, json_vec3(c->candidate[j]));
    cJSON_AddItemToObject(cand, "lbs", json_vec3(c->lbs));
    cJSON_AddItemToObject(cand, "dqs", json_vec3(c->dqs));
    cJSON_AddItemToObject(cand, "elbow", json_vec3(c->joint));
    cJSON *errors = cJSON_AddArrayToObject(root, "errors");
    for (int m = 0; m < 2; m++)
        for (int p = 0; p < PALETTE30_POSES; p++) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "method", skin_method_name((skin_method)m));
            json_add_number(o, "theta_deg", palette30_pose_deg[p]);
            json_add_number(o, "max_position_error", r->error[m][p][0]);
            json_add_number(o, "max_normal_error", r->error[m][p][1]);
            cJSON_AddItemToArray(errors, o);
        }
    cJSON *t = cJSON_AddObjectToObject(root, "truncation");
    cJSON_AddNumberToObject(t, "truncated_vertices", r->truncation.truncated_vertices);
    json_add_number(t, "largest_dropped_weight", r->truncation.largest_dropped_weight);
    cJSON_AddNumberToObject(t, "largest_dropped_vertex", r->truncation.largest_dropped_vertex);
    cJSON *inst = cJSON_AddObjectToObject(root, "instancing");
    cJSON_AddNumberToObject(inst, "instances", PALETTE30_INSTANCES);
    cJSON_AddNumberToObject(inst, "palettes", PALETTE30_POSES);
    json_add_number(inst, "max_difference_vs_merged_palette", r->instancing_difference);
    cJSON_AddItemToObject(inst, "model_to_world", json_mat4_array(r->world, PALETTE30_INSTANCES));
    return root;
}

lab_error palette30_evidence(const palette30 *r, output_batch *b, lab_diag *d)
{
    cJSON *root = evidence_json(r);
    bytes json = {0}, csv = {0};
    lab_error e = json_to_bytes(root, &json, d);
    cJSON_Delete(root);
    bytes_printf(&csv, "layout,fields,bytes_per_vertex\n");
    for (int i = 0; i < LAYOUTS; i++)
        bytes_printf(&csv, "%s,\"%s\",%d\n", layouts[i].layout, layouts[i].fields, layouts[i].bytes);
    if (e == LAB_OK)
        e = output_batch_add(b, "palette30.json", &json, d);
    if (e == LAB_OK)
        e = output_batch_add(b, "palette30-layouts.csv", &csv, d);
    bytes_free(&json);
    bytes_free(&csv);
    return e;
}

/* ---- the report ---------------------------------------------------------------------------- */

static void print_point(FILE *out, const char *label, vec3 p)
{
    fprintf(out, "  %-34s (%.15g, %.15g, %.15g)\n", label, p.x, p.y, p.z);
}

void palette30_report_candidates(const palette30 *r, FILE *out)
{
    const rig30_candidates *c = &r->candidates;
    fprintf(out, "  The bend rig at %g deg; vertex p on the inner side, weights %.6g (root), %.6g (child).\n"
            "  The palette takes p to one candidate position per joint, C_j p; LBS is their weighted sum.\n",
            rad_to_deg(c->angle), c->weight[0], c->weight[1]);
    print_point(out, "p", c->p);
    print_point(out, "candidate C_0 p", c->candidate[0]);
    print_point(out, "candidate C_1 p", c->candidate[1]);
    print_point(out, "LBS (sum_j w_j C_j p)", c->lbs);
    print_point(out, "DQS", c->dqs);
    report_rows(out, &r->checks.candidates);
    fprintf(out, "  distance from the elbow: p %.6f, LBS %.6f, DQS %.6f (DQS keeps it)\n",
            vec3_length(vec3_sub(c->p, c->joint)), vec3_length(vec3_sub(c->lbs, c->joint)),
            vec3_length(vec3_sub(c->dqs, c->joint)));
}

void palette30_report_layouts(const palette30 *r, FILE *out)
{
    for (int i = 0; i < LAYOUTS; i++)
        fprintf(out, "  %-24s %3d  %s\n", layouts[i].layout, layouts[i].bytes, layouts[i].fields);
    fprintf(out, "  palette: %d joints x %zu bytes (float 3x4 rows) = %zu bytes per frame; dual quaternions %zu bytes each\n",
           RIG30_JOINTS, sizeof(palette_matrix), RIG30_JOINTS * sizeof(palette_matrix), sizeof(palette_dualquat));
    fprintf(out, "  packing the cylinder to 4 influences: %d vertices truncated\n", r->truncation.truncated_vertices);
}

void palette30_report_poses(const palette30 *r, FILE *out) { report_rows(out, &r->checks.poses); }

void palette30_report_crowd(const palette30 *r, FILE *out)
{
    report_rows(out, &r->checks.crowd);
    fprintf(out, "  %d instances share %d palettes (%d x %zu bytes per frame instead of %d x %zu)\n", PALETTE30_INSTANCES,
           PALETTE30_POSES, PALETTE30_POSES, RIG30_JOINTS * sizeof(palette_matrix), PALETTE30_INSTANCES, RIG30_JOINTS * sizeof(palette_matrix));
}

