/* weights30_record.c - lab30-weights's evidence and report (see weights30.h). */
#include "weights30.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/report.h"
#include "program/evidence.h"
#include "base/bytes.h"
#include "base/diag.h"
#include "heat30.h"
#include "program/output.h"
#include "rig30.h"
#include "skin/blend.h"

void weights30_release(void *state)
{
    weights30 *r = state;
    for (int i = 0; i < WEIGHTS30_RESULTS; i++)
        rig30_pose_free(&r->result[i].skinned);
    for (int kind = 0; kind < 2; kind++) {
        for (int model = 0; model < HEAT30_MODELS; model++)
            heat30_result_free(&r->rig[kind].heat[model]);
        bbw30_result_free(&r->rig[kind].bbw);
        for (int set = 0; set < WEIGHTS30_SETS; set++)
            rig30_rig_free(&r->rigs[set][kind]);
    }
    for (int i = 0; i < r->asset_count; i++)
        weights30_asset_free(&r->asset[i]);
    free(r->edges);
}

/* ---- the evidence ---------------------------------------------------------------------------- */

static cJSON *bone_json(heat30_bone b)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "joint", b.joint);
    cJSON_AddItemToObject(o, "from", json_vec3(b.a));
    cJSON_AddItemToObject(o, "to", json_vec3(b.b));
    return o;
}

static cJSON *cost_json(const heat30_result *h)
{
    cJSON *cost = cJSON_CreateObject();
    cJSON_AddNumberToObject(cost, "vertices", h->vertex_count);
    json_add_number(cost, "factor_nonzeros", h->factor_nonzeros);
    json_add_number(cost, "factor_flops", h->flops);
    json_add_number(cost, "factor_peak_bytes", (double)h->peak_bytes);
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
    for (int model = 0; model < HEAT30_MODELS; model++) {
        cJSON *m = cJSON_AddObjectToObject(models, heat30_model_names[model]);
        cJSON *checks = cJSON_AddObjectToObject(m, "checks_of_the_solution");
        json_add_number(checks, "max_sum_error", w->sum_error[model]);
        json_add_number(checks, "min_weight", w->min_weight[model]);
        json_add_number(checks, "max_backward_error", w->backward_error[model]);
        json_add_number(checks, "max_ring_spread", w->ring_spread[model]);
        if (model == HEAT30_PAPER) {
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
    cJSON *checks = cJSON_AddObjectToObject(o, "checks_of_the_solution");
    json_add_number(checks, "max_sum_error", x->sum_error);
    json_add_number(checks, "min_weight", x->min_weight);
    cJSON_AddNumberToObject(checks, "weights_below_minus_1e-12", x->negative_count);
    json_add_number(checks, "max_backward_error", x->backward_error);
    cJSON_AddNumberToObject(o, "weightless_vertices", x->weightless);
    cJSON *cut = cJSON_AddObjectToObject(o, "cut_to_the_heaviest");
    cJSON_AddNumberToObject(cut, "influences", a->influences);
    cJSON_AddNumberToObject(cut, "vertices_with_more", x->over_k);
    json_add_number(cut, "max_weight_change", x->cut_weight_change);
    json_add_number(cut, "max_position_change_over_size", x->cut_position_change);
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
    for (int model = 0; model < HEAT30_MODELS; model++) {
        cJSON *m = cJSON_AddObjectToObject(models, heat30_model_names[model]);
        cJSON_AddNumberToObject(m, "hidden_vertices", a->heat[model].hidden);
        cJSON_AddNumberToObject(m, "obtuse_triangles", a->heat[model].obtuse_triangles);
        cJSON_AddItemToObject(m, "cost", cost_json(&a->heat[model]));
    }
    return o;
}

lab_error weights30_evidence(void *state, lab_diag *d)
{
    weights30 *r = state;
    if (r->asset_in)
        return weights30_asset_evidence(r, d);
    cJSON *root = json_evidence_root("lab30-weights");
    json_add_number(root, "heat_c", r->heat_c);
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
                                   a->versus[WEIGHTS30_BBW - 1].weights[k], a->heat[HEAT30_BLENDER].weights[k]},
                        8);
            }
    }
    if (e == LAB_OK)
        e = output_batch_add(&r->out, "weights30.json", &json, d);
    if (e == LAB_OK)
        e = output_batch_add(&r->out, "weights30-assets.csv", &table, d);
    if (e == LAB_OK)
        e = output_batch_add(&r->out, "weights30.csv", &csv, d);
    bytes_free(&json);
    bytes_free(&csv);
    bytes_free(&table);
    return e;
}

/* ---- the report ------------------------------------------------------------------------------ */

bool weights30_report_laplacian(const void *state, FILE *out)
{
    const weights30_laplacian_check *l = &((const weights30 *)state)->laplacian;
    fprintf(out, "  six equilateral triangles of side 1 around a centre: every cot is 1/sqrt(3)\n");
    bool ok = report_compare(out, "spoke L_0k = (cot a + cot b) / 2", l->spoke, l->spoke_expected, 1e-15);
    ok &= report_compare(out, "rim edge (boundary) L = cot a / 2", l->rim, l->rim_expected, 1e-15);
    ok &= report_compare(out, "centre L_00 = -sum_k L_0k", l->centre, l->centre_expected, 1e-14);
    ok &= report_compare(out, "centre's mixed Voronoi area", l->mass, l->mass_expected, 1e-15);
    ok &= report_bound(out, "max_i |sum_k L_ik| (L 1 = 0)", l->row_sum, 1e-14);
    return ok;
}

/* The checks of one model's solution on one rig (properties of the system). */
static bool report_model_checks(const weights30_rig *w, heat30_model model, FILE *out)
{
    bool ok = report_bound(out, "max_i |sum_j w_ij - 1|", w->sum_error[model], RIG30_CHECK_TOLERANCE);
    ok &= report_bound(out, "max(0, -min w_ij) (w >= 0)", fmax(0.0, -w->min_weight[model]), RIG30_CHECK_TOLERANCE);
    ok &= report_bound(out, "|Aw - b| / (|A| |w| + |b|)", w->backward_error[model], 1e-14);
    ok &= report_bound(out, "spread of a ring's weights", w->ring_spread[model], RIG30_CHECK_TOLERANCE);
    return ok;
}

bool weights30_report_heat(const void *state, FILE *out)
{
    const weights30 *r = state;
    bool ok = true;
    fprintf(out, "  heat: the paper's (-L + M H) w_j = M H p_j with c = %g; blender: Blender 3.4's variant\n"
            "  (its Laplacian a quarter of the paper's, boundary edges whole, distance over (cos + 1.001) / 2,\n"
            "  the nearest bone whether seen or not, weights below 0.05 cut and none normalised).\n"
            "  One CHOLMOD factorisation and one solve per joint each; the checks are on the solutions.\n",
            r->heat_c);
    for (int kind = 0; kind < 2; kind++) {
        const weights30_rig *w = &r->rig[kind];
        const heat30_bone *b = w->bones;
        fprintf(out, "\n  %s rig: bones (%g,%g,%g)-(%g,%g,%g) and (%g,%g,%g)-(%g,%g,%g); %d vertices see no bone\n",
                rig30_kind_name((rig30_kind)kind), b[0].a.x, b[0].a.y, b[0].a.z, b[0].b.x, b[0].b.y, b[0].b.z,
                b[1].a.x, b[1].a.y, b[1].a.z, b[1].b.x, b[1].b.y, b[1].b.z, w->heat[HEAT30_PAPER].hidden);
        fprintf(out, "  the paper's model\n");
        ok &= report_model_checks(w, HEAT30_PAPER, out);
        ok &= report_bound(out, "|w - the system's closed form|", w->closed_form_error, w->closed_form_tolerance);
        fprintf(out, "  Blender's model (%d vertices see no bone)\n", w->heat[HEAT30_BLENDER].hidden);
        ok &= report_model_checks(w, HEAT30_BLENDER, out);
        fprintf(out, "  after Blender's cut a vertex's weights sum to %.6f .. %.6f (Blender's armature divides\n"
                "  by the sum when it deforms; the poses below do the same)\n", w->cut_sum_lo, w->cut_sum_hi);
        fprintf(out, "  %-5s %-6s %-9s %-18s %-18s %-10s %-10s %-10s\n", "ring", "z", "hand w_1", "heat w_1",
                "closed form", "continuum", "blender w1", "blender w0");
        for (int ring = 0; ring < RIG30_RINGS; ring++) {
            int v = ring * RIG30_SEGMENTS;
            char continuum[16];
            snprintf(continuum, sizeof continuum, isnan(w->continuum[ring]) ? "none" : "%.6f", w->continuum[ring]);
            fprintf(out, "  %-5d %-6.3f %-9.6f %-18.15f %-18.15f %-10s %-10.6f %-10.6f\n", ring,
                    r->rigs[0][kind].bind.vertices[v].z, w->child[WEIGHTS30_HAND][v], w->child[WEIGHTS30_HEAT][v],
                    w->closed_form[ring], continuum, w->child[WEIGHTS30_BLENDER][v], w->root[v]);
        }
        for (int model = 0; model < HEAT30_MODELS; model++) {
            const heat30_result *h = &w->heat[model];
            fprintf(out, "  cost (%s): %d vertices, a Cholesky factor of %.0f nonzeros, %.0f flops, CHOLMOD's peak\n"
                    "  %zu bytes; factorisation %.3g ms, %d solves %.3g ms\n", heat30_model_names[model],
                    h->vertex_count, h->factor_nonzeros, h->flops, h->peak_bytes, 1e3 * h->factor_seconds,
                    RIG30_JOINTS, 1e3 * h->solve_seconds);
        }
    }
    return ok;
}

bool weights30_report_bbw(const void *state, FILE *out)
{
    const weights30 *r = state;
    bool ok = true;
    fprintf(out, "  min 1/2 w_j^T L M^-1 L w_j with 0 <= w <= 1, w = 1 on joint j's handles and 0 on the\n"
            "  others' (Jacobson et al. 2011); handles: the bottom ring (root) and the top ring (child);\n"
            "  active sets over CHOLMOD factorisations, one joint at a time, then each vertex's weights\n"
            "  divided by their sum\n");
    for (int kind = 0; kind < 2; kind++) {
        const weights30_rig *w = &r->rig[kind];
        const bbw30_result *b = &w->bbw;
        fprintf(out, "\n  %s rig\n", rig30_kind_name((rig30_kind)kind));
        ok &= report_bound(out, "harmonic: |w - z/2| (L z = 0 inside)", w->harmonic_error, RIG30_CHECK_TOLERANCE);
        ok &= report_bound(out, "|bbw - the ring-by-ring system|", w->bbw_ring_error, RIG30_CHECK_TOLERANCE);
        ok &= report_bound(out, "bounds: max(0, -min w, max w - 1)",
                           fmax(0.0, fmax(-w->bbw_min, w->bbw_max - 1.0)), RIG30_CHECK_TOLERANCE);
        ok &= report_bound(out, "KKT residual / max|Q_ik|, by Q", b->kkt, WEIGHTS30_KKT_TOLERANCE);
        ok &= report_bound(out, "the same by L (M^-1 (L w))", w->bbw_kkt_independent, WEIGHTS30_KKT_TOLERANCE);
        ok &= report_bound(out, "max_i |sum_j w_ij - 1| before dividing", b->sum_error, RIG30_CHECK_TOLERANCE);
        ok &= report_bound(out, "|Q w - b| / (|Q| |w| + |b|)", b->backward_error, 1e-14);
        fprintf(out, "  active-set rounds per joint: %d, %d; vertices held at a bound: %d; Q has %.0f entries\n",
                b->iterations[0], b->iterations[1], b->active, b->q_nonzeros);
        fprintf(out, "  %-5s %-6s %-9s %-18s %-18s %-10s\n", "ring", "z", "hand w_1", "bbw w_1", "ring system",
                "x 44");
        for (int ring = 0; ring < RIG30_RINGS; ring++) {
            int v = ring * RIG30_SEGMENTS;
            fprintf(out, "  %-5d %-6.3f %-9.6f %-18.15f %-18.15f %-10.6f\n", ring,
                    r->rigs[0][kind].bind.vertices[v].z, w->child[WEIGHTS30_HAND][v], w->child[WEIGHTS30_BBW][v],
                    w->bbw_ring[ring], 44.0 * w->bbw_ring[ring]);
        }
    }
    return ok;
}

bool weights30_report_poses(const void *state, FILE *out)
{
    const weights30 *r = state;
    bool ok = true;
    fprintf(out, "  middle and top ring: each one's mean radius about its own centre (closed form: the\n"
            "  article's r'/r for an LBS twist, 1 for DQS); inner: the inner elbow's closest distance to\n"
            "  the joint; volume: against the bind mesh, ends closed; narrowest \"all\": every ring\n"
            "  within 1e-12\n");
    fprintf(out, "  %-12s %-7s %-4s %-18s %-18s %-8s %-13s %-8s %-8s\n", "pose", "w", "", "middle ring", "closed form",
            "top ring", "narrowest", "inner", "volume");
    for (int i = 0; i < WEIGHTS30_RESULTS; i++) {
        const weights30_result *x = &r->result[i];
        char pose[32], closed[32], inner[16];
        snprintf(pose, sizeof pose, "%s %g", rig30_kind_name(weights30_pose_kind[x->pose]), weights30_pose_deg[x->pose]);
        snprintf(closed, sizeof closed, isnan(x->closed_form_radius) ? "none" : "%.15f", x->closed_form_radius);
        snprintf(inner, sizeof inner, isnan(x->inner_elbow) ? "-" : "%.4f", x->inner_elbow);
        char narrowest[32];
        if (x->rings_equal) /* within RIG30_CHECK_TOLERANCE: no ring is the narrowest */
            snprintf(narrowest, sizeof narrowest, "all %.4f", x->narrowest_radius);
        else
            snprintf(narrowest, sizeof narrowest, "ring %d %.4f", x->narrowest_ring, x->narrowest_radius);
        fprintf(out, "  %-12s %-7s %-4s %-18.15f %-18s %-8.4f %-13s %-8s %-8.4f\n", pose, weights30_set_name(x->set),
                skin_method_name(x->method), x->middle_radius, closed, x->top_radius, narrowest, inner,
                x->volume_ratio);
    }
    fprintf(out, "\n");
    for (int i = 0; i < WEIGHTS30_RESULTS; i++) {
        const weights30_result *x = &r->result[i];
        if (isnan(x->closed_form_radius))
            continue;
        char label[64];
        snprintf(label, sizeof label, "%s %g, %s, %s: middle r'/r", rig30_kind_name(weights30_pose_kind[x->pose]),
                 weights30_pose_deg[x->pose], weights30_set_name(x->set), skin_method_name(x->method));
        ok &= report_compare(out, label, x->middle_radius, x->closed_form_radius, RIG30_CHECK_TOLERANCE);
    }
    return ok;
}

bool weights30_report_assets(const void *state, FILE *out)
{
    const weights30 *r = state;
    bool ok = true;
    fprintf(out, "  each asset's bind mesh and its skeleton as bones: bone heat (the paper's) on the mesh\n"
            "  welded where vertices share a position, Blender's on the vertices as glTF splits them (as\n"
            "  Blender's importer keeps them); the artist's weights from JOINTS_0 / WEIGHTS_0, used\n"
            "  divided by their sum\n");
    for (int i = 0; i < r->asset_count; i++) {
        const weights30_asset *a = &r->asset[i];
        fprintf(out, "\n  %s: %d vertices (%d welded), %d triangles (%d more repeat an index and draw nothing; %d\n"
                "  folded by welding), %d joints as %d bones\n", a->name, a->vertex_count, a->welded.vertex_count,
                a->triangle_count, a->repeated, a->folded, a->joint_count, a->bone_count);
        for (int set = 1; set < WEIGHTS30_SETS; set++) {
            const weights30_versus *x = &a->versus[set - 1];
            const heat30_result *h = &a->heat[set == WEIGHTS30_BLENDER ? HEAT30_BLENDER : HEAT30_PAPER];
            if (set == WEIGHTS30_BBW) {
                const bbw30_result *b = &a->bbw;
                int most = 0, total = 0;
                for (int j = 0; j < a->joint_count; j++)
                    most = b->iterations[j] > most ? b->iterations[j] : most, total += b->iterations[j];
                fprintf(out, "  bbw: %d handle vertices (each joint's nearest within 1.1 times the nearest one's\n"
                        "  distance); active-set rounds %d in all, %d at most for one joint; %d vertex values held\n"
                        "  at a bound at the end\n", a->handle_count, total, most, b->active);
                ok &= report_bound(out, "KKT residual / max|Q_ik|, by Q", b->kkt, WEIGHTS30_KKT_TOLERANCE);
                ok &= report_bound(out, "the same by L (M^-1 (L w))", a->bbw_kkt_independent, WEIGHTS30_KKT_TOLERANCE);
                fprintf(out, "  the joints' minimisers summed to 1 within %.3g before the division\n", b->sum_error);
            } else {
                fprintf(out, "  %s: %d obtuse triangles, %d vertices see no bone\n", weights30_set_name((weights30_set)set),
                        h->obtuse_triangles, h->hidden);
            }
            if (set != WEIGHTS30_BBW)
                ok &= report_bound(out, "max_i |sum_j w_ij - 1|", x->sum_error, RIG30_CHECK_TOLERANCE);
            ok &= report_bound(out, "|Aw - b| / (|A| |w| + |b|)", x->backward_error, 1e-14);
            if (x->negative_count == 0)
                fprintf(out, "  smallest weight %.3g: none below 0 (with obtuse triangles that is not guaranteed)\n",
                        x->min_weight);
            else /* a negative cotangent weight: -L + M H is no longer an M-matrix */
                fprintf(out, "  smallest weight %.3g: %d weights below -1e-12, which obtuse triangles allow (a negative\n"
                        "  cotangent makes -L + M H other than an M-matrix); kept as solved\n", x->min_weight,
                        x->negative_count);
            if (set == WEIGHTS30_BLENDER)
                fprintf(out, "  after the cut, %d vertices keep no weight (Blender leaves them at the bind pose)\n",
                        x->weightless);
            fprintf(out, "  against the artist's: largest difference %.4f (vertex %d, joint %d), mean over\n"
                    "  vertices of the largest %.4f\n", x->max_weight_difference, x->max_weight_vertex,
                    x->max_weight_joint, x->mean_weight_difference);
            fprintf(out, "  mean difference per joint:");
            for (int j = 0; j < a->joint_count; j++)
                fprintf(out, "%s %d: %.3f", j % 6 == 0 ? "\n   " : "", j, x->joint_difference[j]);
            fprintf(out, "\n  skinned over the animation (%d times from %g to %g s), LBS: largest distance %.4f\n"
                    "  of the model's size %.4f (at %g s), mean %.4f\n", WEIGHTS30_ASSET_TIMES, a->t0, a->t1,
                    x->max_position_difference, a->size, x->max_position_time, x->mean_position_difference);
            fprintf(out, "  cut to the %d heaviest a vertex (%d vertices had more): weights change by %.3g at most,\n"
                    "  positions over the animation by %.3g of the model's size at most\n", a->influences, x->over_k,
                    x->cut_weight_change, x->cut_position_change);
            if (set != WEIGHTS30_BBW)
                fprintf(out, "  cost: a Cholesky factor of %.0f nonzeros, %.0f flops, CHOLMOD's peak %zu bytes;\n"
                        "  factorisation %.3g ms, %d solves %.3g ms\n", h->factor_nonzeros, h->flops, h->peak_bytes,
                        1e3 * h->factor_seconds, a->joint_count, 1e3 * h->solve_seconds);
        }
    }
    return ok;
}

