/* weights30_record.c - lab30-weights's evidence: weights30.json, the CSVs, and what the
 * run frees (see weights30.h; the report is weights30_report.c). */
#include "weights30.h"

#include <stdlib.h>
#include <string.h>

#include "program/evidence.h"
#include "base/bytes.h"
#include "base/diag.h"
#include "base/report.h"
#include "weights/heat.h"
#include "program/output.h"
#include "rig30.h"
#include "skin/blend.h"

void weights30_free(weights30 *r)
{
    for (int i = 0; i < WEIGHTS30_RESULTS; i++)
        rig30_pose_free(&r->result[i].skinned);
    for (int kind = 0; kind < 2; kind++) {
        for (int model = 0; model < HEAT_MODELS; model++)
            heat_result_free(&r->rig[kind].heat[model]);
        bbw_result_free(&r->rig[kind].bbw);
        for (int set = 0; set < WEIGHTS30_SETS; set++)
            rig30_rig_free(&r->rigs[set][kind]);
    }
    for (int i = 0; i < r->asset_count; i++)
        weights30_asset_free(&r->asset[i]);
    free(r->edges);
    weights30_checks *c = &r->checks;
    report_checks *lists[] = {&c->laplacian, &c->heat, &c->bbw, &c->poses, &c->assets, &c->written};
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
        report_checks_free(lists[i]);
}

/* ---- the evidence ---------------------------------------------------------------------------- */

static cJSON *bone_json(heat_bone b)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "joint", b.joint);
    cJSON_AddItemToObject(o, "from", json_vec3(b.a));
    cJSON_AddItemToObject(o, "to", json_vec3(b.b));
    return o;
}

static cJSON *cost_json(const heat_result *h)
{
    cJSON *cost = cJSON_CreateObject();
    cJSON_AddNumberToObject(cost, "vertices", h->vertex_count);
    json_add_number(cost, "factor_nonzeros", h->factor_nonzeros);
    json_add_number(cost, "factor_flops", h->flops);
    json_add_number(cost, "factor_peak_bytes", (double)h->peak_bytes);
    cJSON_AddNumberToObject(cost, "sources_without_heat", h->sourceless); /* weight 0, no solve */
    cJSON_AddStringToObject(cost, "times", "printed in the report and measured by make bench, never written here");
    return cost;
}

static cJSON *rig_json(const weights30 *r, rig30_kind kind)
{
    const weights30_rig *w = &r->rig[kind];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "rig", rig30_kind_name(kind));
    cJSON *bones = cJSON_AddArrayToObject(o, "bones");
    for (int b = 0; b < WEIGHTS30_BONES; b++)
        cJSON_AddItemToArray(bones, bone_json(w->bones[b]));
    for (int set = 0; set < WEIGHTS30_SETS; set++) {
        char key[48];
        snprintf(key, sizeof key, "%s_child_weight", weights30_set_name((weights30_set)set));
        cJSON_AddItemToObject(o, key, json_number_array(w->child[set], WEIGHTS30_VERTS));
    }
    cJSON_AddItemToObject(o, "blender_root_weight", json_number_array(w->root, WEIGHTS30_VERTS));
    cJSON_AddItemToObject(o, "closed_form_per_ring", json_number_array(w->closed_form, RIG30_RINGS));
    cJSON_AddItemToObject(o, "continuum_per_ring", json_number_or_null_array(w->continuum, RIG30_RINGS));
    cJSON *models = cJSON_AddObjectToObject(o, "models");
    for (int model = 0; model < HEAT_MODELS; model++) {
        cJSON *m = cJSON_AddObjectToObject(models, heat_model_names[model]);
        cJSON *checks = cJSON_AddObjectToObject(m, "checks_of_the_solution");
        json_add_number(checks, "max_sum_error", w->sum_error[model]);
        json_add_number(checks, "min_weight", w->min_weight[model]);
        json_add_number(checks, "max_backward_error", w->backward_error[model]);
        json_add_number(checks, "max_ring_spread", w->ring_spread[model]);
        if (model == HEAT_PAPER) {
            json_add_number(checks, "max_closed_form_error", w->closed_form_error);
            json_add_number(checks, "closed_form_tolerance", w->closed_form_tolerance);
        } else {
            json_add_number(m, "cut_weight_sum_min", w->cut_sum_lo);
            json_add_number(m, "cut_weight_sum_max", w->cut_sum_hi);
        }
        cJSON_AddItemToObject(m, "cost", cost_json(&w->heat[model]));
        cJSON_AddNumberToObject(m, "hidden_vertices", w->heat[model].hidden);
        cJSON_AddNumberToObject(m, "obtuse_triangles", w->heat[model].obtuse_triangles);
    }
    return o;
}

static cJSON *result_json(const weights30_result *x)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "rig", rig30_kind_name(weights30_pose_kind[x->pose]));
    json_add_number(o, "angle_deg", weights30_pose_deg[x->pose]);
    cJSON_AddStringToObject(o, "weights", weights30_set_name(x->set));
    cJSON_AddStringToObject(o, "method", skin_method_name(x->method));
    json_add_number(o, "middle_ring_radius", x->middle_radius);
    json_add_number(o, "top_ring_radius", x->top_radius);
    cJSON_AddItemToObject(o, "middle_ring_radius_closed_form", json_number_or_null(x->closed_form_radius));
    cJSON_AddBoolToObject(o, "rings_all_equal", x->rings_equal); /* within 1e-12: no narrowest ring */
    if (x->rings_equal)
        cJSON_AddNullToObject(o, "narrowest_ring");
    else
        cJSON_AddNumberToObject(o, "narrowest_ring", x->narrowest_ring);
    json_add_number(o, "narrowest_ring_radius", x->narrowest_radius);
    cJSON_AddItemToObject(o, "inner_elbow_distance", json_number_or_null(x->inner_elbow));
    json_add_number(o, "bind_volume_ratio", x->volume_ratio);
    cJSON_AddItemToObject(o, "positions", json_vec3_array(x->skinned.positions, WEIGHTS30_VERTS));
    return o;
}

static cJSON *versus_json(const weights30_asset *a, weights30_set set)
{
    const weights30_versus *x = &a->versus[set - 1];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "weights", weights30_set_name(set));
    if (x->not_computed[0]) { /* --asset: bbw over its budget while another set is written */
        cJSON_AddStringToObject(o, "not_computed", x->not_computed);
        return o;
    }
    cJSON *checks = cJSON_AddObjectToObject(o, "checks_of_the_solution");
    json_add_number(checks, "max_sum_error", x->sum_error);
    json_add_number(checks, "min_weight", x->min_weight);
    cJSON_AddNumberToObject(checks, "weights_below_minus_1e-12", x->negative_count);
    json_add_number(checks, "max_backward_error", x->backward_error);
    cJSON_AddNumberToObject(o, "weightless_vertices", x->weightless);
    if (set == WEIGHTS30_BBW) { /* what the active set cost, against --bbw-budget */
        int rounds = 0;
        for (int j = 0; j < a->joint_count; j++)
            rounds += a->bbw.iterations[j];
        cJSON_AddNumberToObject(o, "active_set_rounds", rounds);
        cJSON_AddNumberToObject(o, "handles", a->handle_count);
        cJSON_AddNumberToObject(o, "parts_given_a_handle", a->handle_parts);
        json_add_number(o, "operations", a->bbw.work);
    }
    cJSON *cut = cJSON_AddObjectToObject(o, "cut_to_the_heaviest");
    cJSON_AddNumberToObject(cut, "influences", a->influences);
    cJSON_AddNumberToObject(cut, "vertices_with_more", x->over_k);
    json_add_number(cut, "max_weight_change", x->cut_weight_change);
    json_add_number(cut, "max_position_change_over_size", x->cut_position_change);
    if (a->influences > 4) /* some engines read only the first set (three.js's glTF loader) */
        json_add_number(cut, "first_set_only_max_position_change_over_size", x->first_set_change);
    cJSON *w = cJSON_AddObjectToObject(o, "against_the_artist");
    json_add_number(w, "max_weight_difference", x->max_weight_difference);
    cJSON_AddNumberToObject(w, "max_weight_difference_vertex", x->max_weight_vertex);
    cJSON_AddNumberToObject(w, "max_weight_difference_joint", x->max_weight_joint);
    json_add_number(w, "mean_weight_difference", x->mean_weight_difference);
    cJSON_AddItemToObject(w, "mean_difference_per_joint", json_number_array(x->joint_difference, a->joint_count));
    json_add_number(w, "max_position_difference_over_size", x->max_position_difference);
    json_add_number(w, "max_position_difference_time", x->max_position_time);
    json_add_number(w, "mean_position_difference_over_size", x->mean_position_difference);
    return o;
}

cJSON *weights30_asset_json(const weights30_asset *a)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "asset", a->name);
    cJSON_AddNumberToObject(o, "vertices", a->vertex_count);
    cJSON *parts = cJSON_AddArrayToObject(o, "primitives"); /* the parts, their vertices one after another */
    for (int p = 0; p < a->part_count; p++) {
        cJSON *part = cJSON_CreateObject();
        cJSON_AddNumberToObject(part, "mesh", a->parts[p].mesh);
        cJSON_AddNumberToObject(part, "primitive", a->parts[p].primitive);
        cJSON_AddNumberToObject(part, "first_vertex", a->part_first[p]);
        cJSON_AddItemToArray(parts, part);
    }
    cJSON_AddNumberToObject(o, "welded_vertices", a->welded.vertex_count);
    cJSON_AddNumberToObject(o, "triangles", a->triangle_count);
    cJSON_AddNumberToObject(o, "triangles_repeating_an_index", a->repeated);
    cJSON_AddNumberToObject(o, "triangles_folded_by_welding", a->folded);
    cJSON_AddNumberToObject(o, "joints", a->joint_count);
    cJSON *bones = cJSON_AddArrayToObject(o, "bones");
    for (int b = 0; b < a->bone_count; b++)
        cJSON_AddItemToArray(bones, bone_json(a->bones[b]));
    json_add_number(o, "model_size", a->size);
    json_add_number(o, "animation_start", a->t0);
    json_add_number(o, "animation_end", a->t1);
    cJSON_AddNumberToObject(o, "times_sampled", WEIGHTS30_ASSET_TIMES);
    cJSON *sets = cJSON_AddArrayToObject(o, "automatic_weights");
    for (int set = 1; set < WEIGHTS30_SETS; set++)
        cJSON_AddItemToArray(sets, versus_json(a, (weights30_set)set));
    cJSON *models = cJSON_AddObjectToObject(o, "models");
    for (int model = 0; model < HEAT_MODELS; model++) {
        cJSON *m = cJSON_AddObjectToObject(models, heat_model_names[model]);
        cJSON_AddNumberToObject(m, "hidden_vertices", a->heat[model].hidden);
        cJSON_AddNumberToObject(m, "parts_that_see_no_bone", a->heat[model].unseen_parts);
        cJSON_AddNumberToObject(m, "their_vertices", a->heat[model].unseen_vertices);
        cJSON_AddNumberToObject(m, "obtuse_triangles", a->heat[model].obtuse_triangles);
        cJSON_AddItemToObject(m, "cost", cost_json(&a->heat[model]));
    }
    return o;
}

lab_error weights30_evidence(const weights30 *r, output_batch *out, lab_diag *d)
{
    cJSON *root = json_evidence_root("lab30-weights");
    json_add_number(root, "heat_c", r->options.heat_c);
    const weights30_laplacian_check *l = &r->laplacian;
    cJSON *hex = cJSON_AddObjectToObject(root, "laplacian_hexagon");
    json_add_number(hex, "spoke", l->spoke);
    json_add_number(hex, "spoke_closed_form", l->spoke_expected);
    json_add_number(hex, "rim", l->rim);
    json_add_number(hex, "rim_closed_form", l->rim_expected);
    json_add_number(hex, "centre", l->centre);
    json_add_number(hex, "centre_closed_form", l->centre_expected);
    json_add_number(hex, "centre_area", l->mass);
    json_add_number(hex, "centre_area_closed_form", l->mass_expected);
    json_add_number(hex, "max_row_sum", l->row_sum);
    cJSON *rigs = cJSON_AddArrayToObject(root, "rigs");
    for (int kind = 0; kind < 2; kind++)
        cJSON_AddItemToArray(rigs, rig_json(r, (rig30_kind)kind));
    cJSON *poses = cJSON_AddArrayToObject(root, "poses");
    for (int i = 0; i < WEIGHTS30_RESULTS; i++)
        cJSON_AddItemToArray(poses, result_json(&r->result[i]));
    cJSON *assets = cJSON_AddArrayToObject(root, "assets");
    for (int i = 0; i < r->asset_count; i++)
        cJSON_AddItemToArray(assets, weights30_asset_json(&r->asset[i]));
    bytes json = {0}, csv = {0}, table = {0};
    lab_error e = json_to_bytes(root, &json, d);
    cJSON_Delete(root);
    bytes_printf(&csv, "rig,vertex,ring,z,hand_child_weight,heat_child_weight,blender_root_weight,blender_child_weight\n");
    for (int kind = 0; kind < 2; kind++)
        for (int v = 0; v < WEIGHTS30_VERTS; v++) {
            const weights30_rig *w = &r->rig[kind];
            bytes_printf(&csv, "%s,%d,%d,", rig30_kind_name((rig30_kind)kind), v, v / RIG30_SEGMENTS);
            csv_row(&csv,
                    (double[]){r->rigs[WEIGHTS30_HAND][kind].bind.vertices[v].z, w->child[WEIGHTS30_HAND][v],
                               w->child[WEIGHTS30_HEAT][v], w->root[v], w->child[WEIGHTS30_BLENDER][v]},
                    5);
        }
    /* the asset's weights: the artist's, each automatic set as it deforms (heat, blender, bbw),
     * and Blender's after its cut but before Blender's armature divides by their sum */
    bytes_printf(&table, "asset,vertex,joint,x,y,z,artist_weight,heat_weight,blender_weight,bbw_weight,blender_cut_weight\n");
    for (int i = 0; i < WEIGHTS30_ASSETS; i++) {
        const weights30_asset *a = &r->asset[i];
        for (int v = 0; v < a->vertex_count; v++)
            for (int j = 0; j < a->joint_count; j++) {
                bytes_printf(&table, "%s,%d,%d,", a->name, v, j);
                size_t k = (size_t)v * a->joint_count + j;
                csv_row(&table,
                        (double[]){a->bind[v].x, a->bind[v].y, a->bind[v].z, a->artist[k],
                                   a->versus[WEIGHTS30_HEAT - 1].weights[k], a->versus[WEIGHTS30_BLENDER - 1].weights[k],
                                   a->versus[WEIGHTS30_BBW - 1].weights[k], a->heat[HEAT_BLENDER].weights[k]},
                        8);
            }
    }
    if (e == LAB_OK)
        e = output_batch_add(out, "weights30.json", &json, d);
    if (e == LAB_OK)
        e = output_batch_add(out, "weights30-assets.csv", &table, d);
    if (e == LAB_OK)
        e = output_batch_add(out, "weights30.csv", &csv, d);
    bytes_free(&json);
    bytes_free(&csv);
    bytes_free(&table);
    return e;
}
