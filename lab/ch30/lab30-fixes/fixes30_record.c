/* fixes30_record.c - lab30-fixes's evidence and report (see fixes30.h); its figures
 * are in fixes30_figures.c. */
#include "fixes30.h"
#include "gltf/gltf.h"
#include "rig30_gltf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "program/evidence.h"
#include "draw/figure.h"
#include "draw/plot.h"
#include "rig30_check.h"
#include "base/report.h"
#include "base/bytes.h"
#include "base/diag.h"
#include "program/output.h"
#include "rig30.h"
#include "rig30_fixes.h"


const double fixes30_twist_deg[FIXES30_TWIST_POSES] = {0, 30, 60, 90, 120, 150, 180, 210};
const double fixes30_bend_deg[FIXES30_BEND_POSES] = {90, 135};

const char *fixes30_method_name(fixes30_method m)
{
    static const char *const names[FIXES30_METHODS] = {"LBS", "LBS + 1 twist joint", "LBS + 3 twist joints",
                                                       "pre-skin corrective", "post-skin corrective", "DQS",
                                                       "CoR"};
    return (int)m >= 0 && m < FIXES30_METHODS ? names[m] : "?";
}

/* What each costs per vertex, counted in multiply-adds (K = 2 influences). */
static const char *const costs[FIXES30_METHODS] = {
    "blend two 3x4 matrices (24 multiply-adds) and transform the point (9 + 3): about 36",
    "as LBS: each vertex still blends two joints; the skeleton has 3 joints, the palette 3 matrices",
    "as LBS: two joints a vertex; 5 joints in the skeleton and the palette",
    "LBS plus the morph: 3 multiply-adds (p + s d) before the blend: about 39",
    "LBS, then the vertex's blended quaternion (8, normalise) turns the delta (about 20) and adds it: about 65",
    "blend two dual quaternions (16), the hemisphere test (4), normalise (1 square root, 8), "
    "Kavan's transform (about 30): about 60",
    "blend two quaternions (8) and normalise, rotate p - p* (about 20), LBS of the centre (about 36): about 70; "
    "plus the precomputation, once"};

void fixes30_free(fixes30 *r)
{
    for (int i = 0; i < r->row_count; i++)
        free(r->rows[i].positions);
    for (int i = 0; i < r->anim_count; i++)
        free(r->anim[i].positions);
    for (int k = 0; k < 2; k++)
        free(r->deltas[0][k]), free(r->deltas[1][k]), free(r->unreachable[k]);
    free(r->centres[0]), free(r->centres[1]);
    free(r->middle[0]), free(r->middle[1]);
    free(r->edges);
    for (int k = 0; k < 2; k++)
        rig30_rig_free(&r->rigs[k]);
    report_checks_free(&r->checks.closed_forms);
    report_checks_free(&r->checks.bend);
}

/* The measures of a row, the JSON keys and the CSV columns after rig, angle_deg, method. */
enum { MEASURES = 9 };
static const char *const measure_keys[MEASURES] = {
    "radius_mean", "radius_min", "radius_max", "narrowest_ring_radius", "radius_error",
    "inner_distance", "bulge", "volume_ratio", "closed_form_error"};

lab_error fixes30_evidence(const fixes30 *r, output_batch *out, lab_diag *d)
{
    cJSON *root = json_evidence_root("lab30-fixes");
    json_add_number(root, "bind_volume", r->bind_volume);
    cJSON *cor = cJSON_AddObjectToObject(root, "centres_of_rotation");
    json_add_number(cor, "sigma", FIXES30_COR_SIGMA);
    cJSON_AddNumberToObject(cor, "similarity_evaluations", (double)r->cor_evaluations);
    cJSON_AddNumberToObject(cor, "similarity_above_zero", (double)r->cor_contributing);
    cJSON *middle = cJSON_AddObjectToObject(root, "corrective_middle_ring_at_trained_pose");
    json_add_number(middle, "before_skinning", fixes30_row_at(r, RIG30_TWIST, 180, FIXES30_CORRECTIVE)->radius_mean);
    json_add_number(middle, "after_skinning", fixes30_row_at(r, RIG30_TWIST, 180, FIXES30_CORRECTIVE_AFTER)->radius_mean);
    cJSON_AddNumberToObject(root, "corrective_unreachable_before_skinning", r->unreachable_count);
    json_add_number(root, "corrective_gltf_readback_error_at_90", r->export_error);
    cJSON *rows = cJSON_AddArrayToObject(root, "rows");
    bytes csv = {0};
    bytes_printf(&csv, "rig,angle_deg,method");
    for (int k = 0; k < MEASURES; k++)
        bytes_printf(&csv, ",%s", measure_keys[k]);
    bytes_append(&csv, "\n", 1);
    for (int i = 0; i < r->row_count; i++) {
        const fixes30_row *w = &r->rows[i];
        if (!w->applies)
            continue;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "rig", rig30_kind_name(w->rig));
        json_add_number(o, "angle_deg", w->angle_deg);
        cJSON_AddStringToObject(o, "method", fixes30_method_name(w->method));
        const double v[MEASURES] = {w->radius_mean, w->radius_min, w->radius_max, w->narrowest, w->radius_error,
                                    w->inner, w->bulge, w->volume_ratio, w->closed_error};
        for (int k = 0; k < MEASURES; k++) /* NAN: the measure does not apply to this rig or method */
            cJSON_AddItemToObject(o, measure_keys[k], json_number_or_null(v[k]));
        cJSON_AddItemToArray(rows, o);
        bytes_printf(&csv, "%s,%g,%s", rig30_kind_name(w->rig), w->angle_deg, fixes30_method_name(w->method));
        for (int k = 0; k < MEASURES; k++) {
            bytes_append(&csv, ",", 1);
            csv_number_or_empty(&csv, v[k]);
        }
        bytes_append(&csv, "\n", 1);
    }
    /* the plot's curves: the twist every FIXES30_CURVE_STEP degrees */
    cJSON *curves = cJSON_AddObjectToObject(root, "twist_curves");
    double deg[FIXES30_CURVE_SAMPLES];
    for (int i = 0; i < FIXES30_CURVE_SAMPLES; i++)
        deg[i] = FIXES30_CURVE_STEP * i;
    cJSON_AddItemToObject(curves, "twist_deg", json_number_array(deg, FIXES30_CURVE_SAMPLES));
    for (int m = 0; m < FIXES30_METHODS; m++) {
        cJSON *c = cJSON_AddObjectToObject(curves, fixes30_method_name((fixes30_method)m));
        cJSON_AddItemToObject(c, "narrowest_ring_radius", json_number_array(r->curve[0][m], FIXES30_CURVE_SAMPLES));
        cJSON_AddItemToObject(c, "radius_error", json_number_array(r->curve[1][m], FIXES30_CURVE_SAMPLES));
    }
    lab_error e = output_batch_add_json(out, "fixes30.json", root, d);
    if (e == LAB_OK)
        e = output_batch_add(out, "fixes30.csv", &csv, d);
    bytes_free(&csv);
    return e;
}

const fixes30_row *fixes30_row_at(const fixes30 *r, rig30_kind rig, double deg, fixes30_method m)
{
    for (int i = 0; i < r->row_count; i++)
        if (r->rows[i].rig == rig && r->rows[i].angle_deg == deg && r->rows[i].method == m)
            return &r->rows[i];
    return NULL;
}

/* ---- the figures: fixes30.png, fixes30-radius.png ------------------------------------------ */

/* One row per method, one column per twist: the narrowest ring's radius or the radius error. */
static void twist_table(const fixes30 *r, FILE *out, bool error)
{
    fprintf(out, "  %-24s", "method");
    for (int p = 0; p < FIXES30_TWIST_POSES; p++)
        fprintf(out, " %7g", fixes30_twist_deg[p]);
    fprintf(out, "\n");
    for (int m = 0; m < FIXES30_METHODS; m++) {
        fprintf(out, "  %-24s", fixes30_method_name((fixes30_method)m));
        for (int p = 0; p < FIXES30_TWIST_POSES; p++) {
            const fixes30_row *w = fixes30_row_at(r, RIG30_TWIST, fixes30_twist_deg[p], (fixes30_method)m);
            fprintf(out, " %7.4f", error ? w->radius_error : w->narrowest);
        }
        fprintf(out, "\n");
    }
}

void fixes30_report_twist(const fixes30 *r, FILE *out)
{
    twist_table(r, out, false);
    fprintf(out, "\n  and the largest |r - 1| over every vertex\n");
    twist_table(r, out, true);
}

/* The rows in the order lab30-fixes.c decided them: per method r against r'/r, the narrowest
 * rings of k = 1 and 3, the trained poses of both orders, the post-skin middle ring, the
 * glTF read back, DQS and CoR at 180, CoR's middle ring (a line of its own). */
static void rows(FILE *out, const report_checks *c, int *next, int n)
{
    for (int i = 0; i < n && *next < c->count; i++)
        report_row(out, &c->items[(*next)++]);
}

void fixes30_report_closed_forms(const fixes30 *r, FILE *out)
{
    const report_checks *c = &r->checks.closed_forms;
    int next = 0;
    rows(out, c, &next, FIXES30_TWIST3 - FIXES30_LBS + 1);
    fprintf(out, "  (the chapter's formula at every vertex, every twist; with twist joints pair by pair)\n");
    rows(out, c, &next, 2);
    fprintf(out, "  (180 degrees shared by k + 1 pairs: the middle of each pair turns by 90/(k+1) either way,\n"
                 "  cos(90/(k+1)); the middle ring itself is a joint for k = 1 and 3, so it stays round)\n");
    rows(out, c, &next, 5);
    fprintf(out, "  (t: the target, each vertex moved by its own share of the joint's rotation, C_1(w1 trained) p;\n"
                 "  at the twist's 180 that is radius 1. The post-skin middle ring against |cos(theta/2)| +\n"
                 "  theta/180: LBS's radius plus the delta, both along the blended rotation of p.)\n"
                 "  Pre-skin (a morph target, glTF's order), %d vertices cannot be trained and the check above\n"
                 "  leaves them out: the twist's middle ring at 180 (radius %.3g there), where\n"
                 "  M(180) = 0.5 I + 0.5 Rz(180) is singular (det 0): no delta applied before skinning moves a\n"
                 "  vertex off the axis. Post-skin, the delta is added to M p, turned by the vertex's blended\n"
                 "  rotation, so every vertex reaches it (middle ring %.6f); glTF has no such order. Between\n"
                 "  the bind and the trained pose the shapes, driven linearly, balloon the cylinder; beyond it\n"
                 "  (twist 210, bend 135) the driver weight exceeds 1.\n",
            r->unreachable_count, fixes30_row_at(r, RIG30_TWIST, 180, FIXES30_CORRECTIVE)->radius_mean,
            fixes30_row_at(r, RIG30_TWIST, 180, FIXES30_CORRECTIVE_AFTER)->radius_mean);
    rows(out, c, &next, 1);
    fprintf(out, "  (fixes30-corrective.gltf, the pre-skin shape as a morph target, against the double path)\n");
    rows(out, c, &next, 2);
    fprintf(out, "  CoR middle ring at 180: %.6f (no collapse)\n",
            fixes30_row_at(r, RIG30_TWIST, 180, FIXES30_COR)->radius_mean);
}

void fixes30_report_bend(const fixes30 *r, FILE *out)
{
    for (int p = 0; p < FIXES30_BEND_POSES; p++)
        for (int m = 0; m < FIXES30_METHODS; m++) {
            const fixes30_row *w = fixes30_row_at(r, RIG30_BEND, fixes30_bend_deg[p], (fixes30_method)m);
            if (w->applies)
                fprintf(out, "  %3g deg  %-24s inner %.6f  bulge %.6f  volume %.4f\n", fixes30_bend_deg[p],
                        fixes30_method_name((fixes30_method)m), w->inner, w->bulge, w->volume_ratio);
        }
    const fixes30_row *cb = fixes30_row_at(r, RIG30_BEND, 90, FIXES30_COR);
    const fixes30_row *db = fixes30_row_at(r, RIG30_BEND, 90, FIXES30_DQS);
    fprintf(out, "  CoR bulge at 90: %.6f, DQS's %.6f: %s\n", cb->bulge, db->bulge,
            r->checks.bend.count && r->checks.bend.items[0].passed ? "smaller, ok" : "NOT SMALLER");
    fprintf(out, "  A correction to the LBS-versus-DQS text (003), which says DQS keeps volume: measured on the\n"
                 "  closed cylinder, DQS keeps %.3f of the bind volume at a 90 deg bend and %.3f at 135 (LBS %.3f\n"
                 "  and %.3f). DQS keeps each ring's radius, not the volume of the elbow.\n",
            db->volume_ratio, fixes30_row_at(r, RIG30_BEND, 135, FIXES30_DQS)->volume_ratio,
            fixes30_row_at(r, RIG30_BEND, 90, FIXES30_LBS)->volume_ratio,
            fixes30_row_at(r, RIG30_BEND, 135, FIXES30_LBS)->volume_ratio);
}

void fixes30_report_costs(const fixes30 *r, FILE *out)
{
    for (int m = 0; m < FIXES30_METHODS; m++)
        fprintf(out, "  %-24s %s\n", fixes30_method_name((fixes30_method)m), costs[m]);
    fprintf(out, "  CoR precomputation: %ld similarity evaluations (every vertex against every triangle, both rigs,\n"
                 "  O(V T)); %.1f ms here. Each centre is independent of the others (it parallelises over\n"
                 "  vertices), and only %ld of the evaluations are above zero: the pairs where the vertex and\n"
                 "  the triangle both weight the two joints, all a sparse precomputation would visit.\n",
            r->cor_evaluations, 1e3 * r->cor_seconds, r->cor_contributing);
}

/* The corrective shape as a glTF morph target (fixes30-corrective.gltf); then read back by
 * our own glTF reader, as lab30-gltf reads it, and skinned at t = 0.5 (90 degrees, weight
 * 0.5) against `expect`, the double path's (fixes_corrective at 90 degrees), seen in
 * glTF's frame (+Y up): (x, z, -y). */
lab_error fixes30_export_corrective(const rig30_rig *twist, const vec3 *deltas, const vec3 *expect,
                                    double *export_error,
                                    output_batch *out, lab_diag *d)
{
    const int n = twist->bind.vertex_count, cylinder = RIG30_JOINTS; /* the node after the joints */
    bytes text = {0};
    gltf_document doc = {0};
    vec3 *got = malloc(sizeof(vec3) * (size_t)n);
    lab_error e = got ? rig30_gltf_export_corrective(twist, deltas, &text, d)
                                : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "corrective export", "%d vertices", n);
    if (e == LAB_OK)
        e = gltf_parse(text.data, text.len, NULL, &doc, d);
    if (e == LAB_OK)
        e = gltf_validate(&doc, d);
    if (e == LAB_OK)
        e = gltf_skin_at(&doc, 0, 0.5, cylinder, 0, SKIN_LBS, SKIN_POLICY_STRICT, got, NULL, NULL, d);
    for (int v = 0; e == LAB_OK && v < n; v++)
        *export_error = max_or_nan(*export_error,
                                   vec3_length(vec3_sub(got[v], vec3_make(expect[v].x, expect[v].z, -expect[v].y))));
    if (e == LAB_OK)
        e = output_batch_add(out, "fixes30-corrective.gltf", &text, d);
    bytes_free(&text);
    gltf_free(&doc);
    free(got);
    return e;
}
