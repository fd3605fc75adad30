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

const char *weights30_set_name(weights30_set set)
{
    return set == WEIGHTS30_HAND ? "hand" : "heat";
}

void weights30_release(void *state)
{
    weights30 *r = state;
    for (int i = 0; i < WEIGHTS30_RESULTS; i++)
        rig30_pose_free(&r->result[i].skinned);
    for (int kind = 0; kind < 2; kind++) {
        heat30_result_free(&r->rig[kind].heat);
        for (int set = 0; set < 2; set++)
            rig30_rig_free(&r->rigs[set][kind]);
    }
    for (int i = 0; i < WEIGHTS30_ASSETS; i++)
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

static cJSON *rig_json(const weights30 *r, rig30_kind kind)
{
    const weights30_rig *w = &r->rig[kind];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "rig", rig30_kind_name(kind));
    cJSON *bones = cJSON_AddArrayToObject(o, "bones");
    for (int b = 0; b < WEIGHTS30_BONES; b++)
        cJSON_AddItemToArray(bones, bone_json(w->bones[b]));
    cJSON_AddItemToObject(o, "hand_child_weight", json_number_array(w->child[WEIGHTS30_HAND], WEIGHTS30_VERTS));
    cJSON_AddItemToObject(o, "heat_child_weight", json_number_array(w->child[WEIGHTS30_HEAT], WEIGHTS30_VERTS));
    cJSON_AddItemToObject(o, "closed_form_per_ring", json_number_array(w->closed_form, RIG30_RINGS));
    cJSON_AddItemToObject(o, "continuum_per_ring", json_number_or_null_array(w->continuum, RIG30_RINGS));
    cJSON *checks = cJSON_AddObjectToObject(o, "checks");
    json_add_number(checks, "max_sum_error", w->sum_error);
    json_add_number(checks, "min_weight", w->min_weight);
    json_add_number(checks, "max_backward_error", w->backward_error);
    json_add_number(checks, "max_ring_spread", w->ring_spread);
    json_add_number(checks, "max_closed_form_error", w->closed_form_error);
    json_add_number(checks, "closed_form_tolerance", w->closed_form_tolerance);
    cJSON *cost = cJSON_AddObjectToObject(o, "cost");
    cJSON_AddNumberToObject(cost, "vertices", w->heat.vertex_count);
    json_add_number(cost, "factor_nonzeros", w->heat.factor_nonzeros);
    json_add_number(cost, "factor_flops", w->heat.flops);
    json_add_number(cost, "factor_peak_bytes", (double)w->heat.peak_bytes);
    cJSON_AddStringToObject(cost, "times", "printed in the report and measured by make bench, never written here");
    cJSON_AddNumberToObject(o, "hidden_vertices", w->heat.hidden);
    cJSON_AddNumberToObject(o, "obtuse_triangles", w->heat.obtuse_triangles);
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

static cJSON *asset_json(const weights30_asset *a)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "asset", a->name);
    cJSON_AddNumberToObject(o, "vertices", a->vertex_count);
    cJSON_AddNumberToObject(o, "welded_vertices", a->welded.vertex_count);
    cJSON_AddNumberToObject(o, "triangles", a->triangle_count);
    cJSON_AddNumberToObject(o, "joints", a->joint_count);
    cJSON *bones = cJSON_AddArrayToObject(o, "bones");
    for (int b = 0; b < a->bone_count; b++)
        cJSON_AddItemToArray(bones, bone_json(a->bones[b]));
    cJSON_AddNumberToObject(o, "hidden_vertices", a->heat.hidden);
    cJSON_AddNumberToObject(o, "obtuse_triangles", a->heat.obtuse_triangles);
    cJSON *checks = cJSON_AddObjectToObject(o, "checks");
    json_add_number(checks, "max_sum_error", a->sum_error);
    json_add_number(checks, "min_weight", a->min_weight);
    cJSON_AddNumberToObject(checks, "weights_below_minus_1e-12", a->negative_count);
    json_add_number(checks, "max_backward_error", a->backward_error);
    cJSON *w = cJSON_AddObjectToObject(o, "against_the_artist");
    json_add_number(w, "max_weight_difference", a->max_weight_difference);
    cJSON_AddNumberToObject(w, "max_weight_difference_vertex", a->max_weight_vertex);
    cJSON_AddNumberToObject(w, "max_weight_difference_joint", a->max_weight_joint);
    json_add_number(w, "mean_weight_difference", a->mean_weight_difference);
    cJSON_AddItemToObject(w, "mean_difference_per_joint", json_number_array(a->joint_difference, a->joint_count));
    json_add_number(w, "model_size", a->size);
    json_add_number(w, "animation_start", a->t0);
    json_add_number(w, "animation_end", a->t1);
    cJSON_AddNumberToObject(w, "times_sampled", WEIGHTS30_ASSET_TIMES);
    json_add_number(w, "max_position_difference_over_size", a->max_position_difference);
    json_add_number(w, "max_position_difference_time", a->max_position_time);
    json_add_number(w, "mean_position_difference_over_size", a->mean_position_difference);
    cJSON *cost = cJSON_AddObjectToObject(o, "cost");
    json_add_number(cost, "factor_nonzeros", a->heat.factor_nonzeros);
    json_add_number(cost, "factor_flops", a->heat.flops);
    json_add_number(cost, "factor_peak_bytes", (double)a->heat.peak_bytes);
    return o;
}

lab_error weights30_evidence(void *state, lab_diag *d)
{
    weights30 *r = state;
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
    for (int i = 0; i < WEIGHTS30_ASSETS; i++)
        cJSON_AddItemToArray(assets, asset_json(&r->asset[i]));
    bytes json = {0}, csv = {0}, table = {0};
    lab_error e = json_to_bytes(root, &json, d);
    cJSON_Delete(root);
    bytes_printf(&csv, "rig,vertex,ring,z,hand_child_weight,heat_child_weight\n");
    for (int kind = 0; kind < 2; kind++)
        for (int v = 0; v < WEIGHTS30_VERTS; v++) {
            bytes_printf(&csv, "%s,%d,%d,", rig30_kind_name((rig30_kind)kind), v, v / RIG30_SEGMENTS);
            csv_row(&csv,
                    (double[]){r->rigs[WEIGHTS30_HAND][kind].bind.vertices[v].z, r->rig[kind].child[WEIGHTS30_HAND][v],
                               r->rig[kind].child[WEIGHTS30_HEAT][v]},
                    3);
        }
    bytes_printf(&table, "asset,vertex,joint,artist_weight,heat_weight\n");
    for (int i = 0; i < WEIGHTS30_ASSETS; i++) {
        const weights30_asset *a = &r->asset[i];
        for (int v = 0; v < a->vertex_count; v++)
            for (int j = 0; j < a->joint_count; j++) {
                bytes_printf(&table, "%s,%d,%d,", a->name, v, j);
                size_t k = (size_t)v * a->joint_count + j;
                csv_row(&table, (double[]){a->artist[k], a->automatic[k]}, 2);
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

bool weights30_report_heat(const void *state, FILE *out)
{
    const weights30 *r = state;
    bool ok = true;
    fprintf(out, "  (-L + M H) w_j = M H p_j with c = %g; one CHOLMOD factorisation, one solve per joint\n",
            r->heat_c);
    for (int kind = 0; kind < 2; kind++) {
        const weights30_rig *w = &r->rig[kind];
        const heat30_bone *b = w->bones;
        fprintf(out, "\n  %s rig: bones (%g,%g,%g)-(%g,%g,%g) and (%g,%g,%g)-(%g,%g,%g); %d vertices see no bone\n",
                rig30_kind_name((rig30_kind)kind), b[0].a.x, b[0].a.y, b[0].a.z, b[0].b.x, b[0].b.y, b[0].b.z,
                b[1].a.x, b[1].a.y, b[1].a.z, b[1].b.x, b[1].b.y, b[1].b.z, w->heat.hidden);
        ok &= report_bound(out, "max_i |sum_j w_ij - 1|", w->sum_error, RIG30_CHECK_TOLERANCE);
        ok &= report_bound(out, "max(0, -min w_ij) (w >= 0)", fmax(0.0, -w->min_weight), RIG30_CHECK_TOLERANCE);
        ok &= report_bound(out, "|Aw - b| / (|A| |w| + |b|)", w->backward_error, 1e-14);
        ok &= report_bound(out, "spread of a ring's weights", w->ring_spread, RIG30_CHECK_TOLERANCE);
        ok &= report_bound(out, "|w - the system's closed form|", w->closed_form_error, w->closed_form_tolerance);
        fprintf(out, "  %-6s %-6s %-12s %-18s %-18s %-12s\n", "ring", "z", "hand w_1", "heat w_1", "closed form",
                "continuum");
        for (int ring = 0; ring < RIG30_RINGS; ring++) {
            int v = ring * RIG30_SEGMENTS;
            fprintf(out, "  %-6d %-6.3f %-12.6f %-18.15f %-18.15f ", ring, r->rigs[0][kind].bind.vertices[v].z,
                    w->child[WEIGHTS30_HAND][v], w->child[WEIGHTS30_HEAT][v], w->closed_form[ring]);
            if (isnan(w->continuum[ring]))
                fprintf(out, "%-12s\n", "none");
            else
                fprintf(out, "%-12.6f\n", w->continuum[ring]);
        }
        fprintf(out, "  cost: %d vertices, a Cholesky factor of %.0f nonzeros, %.0f flops, CHOLMOD's peak %zu bytes;\n"
                "  factorisation %.3g ms, %d solves %.3g ms (%.3g million vertices a second)\n",
                w->heat.vertex_count, w->heat.factor_nonzeros, w->heat.flops, w->heat.peak_bytes,
                1e3 * w->heat.factor_seconds, RIG30_JOINTS, 1e3 * w->heat.solve_seconds,
                w->heat.vertex_count / (w->heat.factor_seconds + w->heat.solve_seconds) / 1e6);
    }
    return ok;
}

bool weights30_report_poses(const void *state, FILE *out)
{
    const weights30 *r = state;
    bool ok = true;
    fprintf(out, "  middle ring: its mean radius about its own centre (closed form: the article's r'/r\n"
            "  for an LBS twist, 1 for DQS); inner: the inner elbow's closest distance to the joint;\n"
            "  volume: against the bind mesh, ends closed; narrowest \"all\": every ring within 1e-12\n");
    fprintf(out, "  %-12s %-5s %-4s %-18s %-18s %-13s %-8s %-8s\n", "pose", "w", "", "middle ring", "closed form",
            "narrowest", "inner", "volume");
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
        fprintf(out, "  %-12s %-5s %-4s %-18.15f %-18s %-13s %-8s %-8.4f\n", pose, weights30_set_name(x->set),
                skin_method_name(x->method), x->middle_radius, closed, narrowest, inner, x->volume_ratio);
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
    fprintf(out, "  each asset's bind mesh, welded where vertices share a position, and its skeleton as\n"
            "  bones; the artist's weights from its JOINTS_0 / WEIGHTS_0, used divided by their sum\n");
    for (int i = 0; i < WEIGHTS30_ASSETS; i++) {
        const weights30_asset *a = &r->asset[i];
        fprintf(out, "\n  %s: %d vertices (%d welded), %d triangles (%d obtuse), %d joints as %d bones; %d vertices\n"
                "  see no bone\n", a->name, a->vertex_count, a->welded.vertex_count, a->triangle_count,
                a->heat.obtuse_triangles, a->joint_count, a->bone_count, a->heat.hidden);
        ok &= report_bound(out, "max_i |sum_j w_ij - 1|", a->sum_error, RIG30_CHECK_TOLERANCE);
        ok &= report_bound(out, "|Aw - b| / (|A| |w| + |b|)", a->backward_error, 1e-14);
        if (a->negative_count == 0)
            fprintf(out, "  smallest weight %.3g: none below 0 (with obtuse triangles that is not guaranteed)\n",
                    a->min_weight);
        else /* a negative cotangent weight: -L + M H is no longer an M-matrix */
            fprintf(out, "  smallest weight %.3g: %d weights below -1e-12, which obtuse triangles allow (a negative\n"
                    "  cotangent makes -L + M H other than an M-matrix); kept as solved\n", a->min_weight,
                    a->negative_count);
        fprintf(out, "  weights against the artist's: largest difference %.4f (vertex %d, joint %d), mean over\n"
                "  vertices of the largest %.4f\n", a->max_weight_difference, a->max_weight_vertex,
                a->max_weight_joint, a->mean_weight_difference);
        fprintf(out, "  mean difference per joint:");
        for (int j = 0; j < a->joint_count; j++)
            fprintf(out, "%s %d: %.3f", j % 6 == 0 ? "\n   " : "", j, a->joint_difference[j]);
        fprintf(out, "\n  skinned over the animation (%d times from %g to %g s), LBS with each set: largest\n"
                "  distance %.4f of the model's size %.4f (at %g s), mean %.4f\n", WEIGHTS30_ASSET_TIMES, a->t0, a->t1,
                a->max_position_difference, a->size, a->max_position_time, a->mean_position_difference);
        fprintf(out, "  cost: a Cholesky factor of %.0f nonzeros, %.0f flops, CHOLMOD's peak %zu bytes;\n"
                "  factorisation %.3g ms, %d solves %.3g ms\n", a->heat.factor_nonzeros, a->heat.flops, a->heat.peak_bytes,
                1e3 * a->heat.factor_seconds, a->joint_count, 1e3 * a->heat.solve_seconds);
    }
    return ok;
}
