/* skinning30_record.c - chapter 30's evidence and report (see skinning30.h). */
#define _POSIX_C_SOURCE 200809L
#include "skinning30.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "program/evidence.h"
#include "rig30_gltf.h"
#include "base/report.h"
#include "rig30_json.h"
#include "base/bytes.h"
#include "base/diag.h"
#include "math/linalg.h"
#include "math/quat.h"
#include "mesh/mesh.h"
#include "program/output.h"
#include "rig30.h"
#include "rig30_cases.h"

void skinning30_release(void *state)
{
    skinning30 *c = state;
    for (int i = 0; i < c->pose_count; i++)
        free(c->pose[i].pose.positions);
    for (int k = 0; k < c->sweep_count; k++)
        free(c->sweep[k].pose.positions);
    free(c->edges), free(c->invalid_code), free(c->invalid_diag);
    rig30_rig_free(&c->rig);
}

void skinning30_locate(const void *state, lab_diag *d)
{
    const skinning30 *c = state;
    if (d->vertex < 0)
        return;
    int ring = d->vertex / RIG30_SEGMENTS, segment = d->vertex % RIG30_SEGMENTS;
    char where[sizeof d->where];
    int n = snprintf(where, sizeof where, "%s (ring %d, segment %d%s)", d->where, ring, segment,
                     c->has_middle_weights && ring == RIG30_MIDDLE_RING
                         ? "; --middle-weights gives all of ring 4 these weights"
                         : "");
    if (n > 0) /* a truncated location still helps more than none */
        memcpy(d->where, where, sizeof where);
}

/* The middle ring's blended matrix M = w_0 C_0 + w_1 C_1: why the ring shrinks. */
static cJSON *blend_json(const skinning30_pose *p)
{
    mat4 linear = mat4_linear_part(p->middle_blend);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "formula", "M = w_0 C_0 + w_1 C_1 (the matrix LBS applies to the ring)");
    cJSON_AddItemToObject(o, "weights", json_number_array(p->middle_weights, 2));
    cJSON_AddItemToObject(o, "M", json_mat4(p->middle_blend));
    cJSON_AddItemToObject(o, "MtM", json_mat4(mat4_mul(mat4_transpose(linear), linear)));
    json_add_number(o, "det", p->middle_det);
    cJSON_AddItemToObject(o, "singular_values", json_number_array(p->middle_singular, 3));
    cJSON_AddItemToObject(o, "singular_values_analytic", json_number_array(p->middle_singular_analytic, 3));
    return o;
}

static cJSON *pose_json(const skinning30 *r, const skinning30_pose *p)
{
    cJSON *o = cJSON_CreateObject();
    mat4 local[RIG30_JOINTS];
    double mean[RIG30_RINGS], lo[RIG30_RINGS], hi[RIG30_RINGS];
    for (int j = 0; j < RIG30_JOINTS; j++)
        local[j] = p->pose.joints[j].local;
    for (int k = 0; k < RIG30_RINGS; k++) {
        mean[k] = p->ring[k].mean;
        lo[k] = p->ring[k].min;
        hi[k] = p->ring[k].max;
    }
    json_add_number(o, "theta_deg", p->theta_deg);
    cJSON_AddItemToObject(o, "local", json_mat4_array(local, RIG30_JOINTS));
    cJSON_AddItemToObject(o, "world", json_mat4_array(p->pose.world, RIG30_JOINTS));
    cJSON_AddItemToObject(o, "skin", json_mat4_array(p->pose.palette, RIG30_JOINTS));
    cJSON_AddItemToObject(o, "positions", json_vec3_array(p->pose.positions, r->rig.bind.vertex_count));
    cJSON_AddItemToObject(o, "ring_radius", json_number_array(mean, RIG30_RINGS));
    cJSON_AddItemToObject(o, "ring_radius_min", json_number_array(lo, RIG30_RINGS));
    cJSON_AddItemToObject(o, "ring_radius_max", json_number_array(hi, RIG30_RINGS));
    cJSON_AddItemToObject(o, "ring_radius_analytic", json_number_array(p->ring_analytic, RIG30_RINGS));
    cJSON_AddItemToObject(o, "ring_child_weight", json_number_array(p->ring_weight, RIG30_RINGS));
    cJSON *per_vertex = cJSON_AddArrayToObject(o, "ring_radius_per_vertex"); /* [ring][segment] */
    for (int k = 0; k < RIG30_RINGS; k++)
        cJSON_AddItemToArray(per_vertex, json_number_array(p->ring[k].vertex, RIG30_SEGMENTS));
    json_add_number(o, "middle_ring_radius", p->ring[RIG30_MIDDLE_RING].mean);
    cJSON_AddItemToObject(o, "middle_ring_blend", blend_json(p));
    cJSON_AddNumberToObject(o, "degenerate_triangles", p->degenerate_triangles);
    cJSON_AddItemToObject(o, "analytic", rig30_json_check(&p->check));
    return o;
}

static cJSON *checks_json(const skinning30 *r)
{
    cJSON *o = cJSON_CreateObject();
    json_add_number(o, "tolerance", RIG30_CHECK_TOLERANCE);
    json_add_number(o, "bind_max_error", r->bind_max_error);
    cJSON_AddItemToObject(o, "hand_control", rig30_json_hand_control(&r->hand));
    cJSON *analytic = rig30_json_check(&r->analytic);
    cJSON_AddNumberToObject(analytic, "vertices_compared", r->pose_count * r->rig.bind.vertex_count);
    cJSON_AddNumberToObject(analytic, "rings_compared", r->pose_count * RIG30_RINGS);
    cJSON_AddItemToObject(o, "analytic", analytic);
    cJSON *quat = cJSON_CreateObject();
    json_add_number(quat, "max_difference", r->analytic.max_end_ring_error);
    cJSON_AddStringToObject(quat, "rings", "ring 0 (w = 0, identity) and ring 8 (w = 1, q(z, theta))");
    cJSON_AddItemToObject(o, "quaternion_end_rings", quat);
    cJSON_AddItemToObject(o, "invalid_inputs",
                          rig30_json_invalid_cases(r->invalid_code, r->invalid_diag, r->invalid_count));
    return o;
}

static lab_error add_json(const skinning30 *r, const vec3 axis[2], output_batch *b, lab_diag *d)
{
    cJSON *root = json_evidence_root("lab30");
    cJSON_AddItemToObject(root, "mesh", rig30_json_mesh(&r->rig));
    cJSON_AddItemToObject(root, "joints", rig30_json_joints(&r->rig));
    cJSON_AddItemToObject(root, "influences", rig30_json_influences(&r->rig));
    cJSON *poses = cJSON_AddArrayToObject(root, "poses");
    for (int i = 0; i < r->pose_count; i++)
        cJSON_AddItemToArray(poses, pose_json(r, &r->pose[i]));
    cJSON_AddItemToObject(root, "checks", checks_json(r));
    cJSON *cam = json_camera(&r->cam);
    cJSON_AddItemToObject(cam, "axis", json_vec3_array(axis, 2));
    cJSON_AddItemToObject(root, "camera", cam);
    return output_batch_add_json(b, "skinning30.json", root, d);
}

static lab_error add_csv(const skinning30 *r, output_batch *b, lab_diag *d)
{
    bytes csv = {0};
    bytes_printf(&csv, "theta_deg,ring,z,child_weight,radius_mean,radius_min,radius_max,"
                       "radius_analytic,abs_error\n");
    for (int i = 0; i < r->pose_count; i++)
        for (int k = 0; k < RIG30_RINGS; k++) {
            const skinning30_pose *p = &r->pose[i];
            const double fields[] = {p->theta_deg, k,
                                     r->rig.bind.vertices[mesh_cylinder_index(RIG30_SEGMENTS, k, 0)].z,
                                     p->ring_weight[k], p->ring[k].mean, p->ring[k].min,
                                     p->ring[k].max, p->ring_analytic[k],
                                     fabs(p->ring[k].mean - p->ring_analytic[k])};
            csv_row(&csv, fields, (int)(sizeof fields / sizeof fields[0]));
        }
    return output_batch_add(b, "skinning30-radii.csv", &csv, d);
}

lab_error skinning30_evidence(void *state, lab_diag *d)
{
    const skinning30 *c = state;
    output_batch *b = &((skinning30 *)state)->out;
    lab_error e = add_json(c, c->axis, b, d);
    if (e == LAB_OK)
        e = add_csv(c, b, d);
    bytes gltf = {0};
    if (e == LAB_OK && c->gltf)
        e = rig30_gltf_export(&c->rig, &gltf, d);
    if (e == LAB_OK && c->gltf)
        e = output_batch_add(b, "skinning30.gltf", &gltf, d);
    bytes_free(&gltf);
    return e;
}

/* What the article prints, for the report's comparisons at its own three poses. */
static const double article_bind_error = 5.55112e-17;
static bool is_article_run(const skinning30 *r)
{
    return !r->has_middle_weights && r->pose_count == 3 && r->pose[0].theta_deg == 0 &&
           r->pose[1].theta_deg == 90 && r->pose[2].theta_deg == 180;
}

bool skinning30_report_mesh(const void *state, FILE *out)
{
    const skinning30 *r = state;
    bool ok = true;
    fprintf(out, "  %-34s %22s %22s\n", "quantity", "computed", "article");
    ok &= report_count(out, "vertices", r->rig.bind.vertex_count, 216);
    ok &= report_count(out, "triangles", r->rig.bind.triangle_count, 384);
    ok &= report_count(out, "unique edges", r->rig.stats.unique_edges, 600);
    ok &= report_count(out, "boundary edges", r->rig.stats.boundary_edges, 48);
    return ok;
}

bool skinning30_report_skeleton(const void *state, FILE *out)
{
    const skinning30 *r = state;
    fprintf(out, "  L_0 = I, L_1 = Tz(2) Rz(theta); G_0 = L_0, G_1 = G_0 L_1 (scene_evaluate)\n");
    fprintf(out, "  B_1 = Tz(%g), inverse bind from the pure-translation helper: Tz(%g)\n",
            r->rig.bind_world[1].m[2][3], r->rig.inverse_bind[1].m[2][3]);
    fprintf(out, "  weights w_1 = z/2 (child), w_0 = 1 - z/2 (root)");
    if (r->has_middle_weights)
        fprintf(out, "; middle ring (z = 1) set to w_0 = %g, w_1 = %g", r->middle_weights[0],
                r->middle_weights[1]);
    fprintf(out, "\n");
    return true;
}

bool skinning30_report_bind_pose(const void *state, FILE *out)
{
    const skinning30 *r = state;
    bool ok = report_bound(out, "largest displacement (216 vertices)", r->bind_max_error, RIG30_CHECK_TOLERANCE);
    fprintf(out, "  (the article saw %g)\n", article_bind_error);
    return ok;
}

bool skinning30_report_hand_control(const void *state, FILE *out)
{
    const skinning30 *r = state;
    bool ok = true;
    fprintf(out, "  %-26s %-32s %-18s %s\n", "computation", "blended position", "article",
            "error vs correct");
    for (int k = 0; k < HAND_ROWS; k++) {
        vec3 c = r->hand.computed[k], a = r->hand.article[k];
        char article[48];
        snprintf(article, sizeof article, "(%g, %g, %g)", a.x, a.y, a.z);
        bool row_ok = vec3_length(vec3_sub(c, a)) <= RIG30_CHECK_TOLERANCE;
        report_record(r->hand.name[k], REPORT_COMPARE, vec3_length(vec3_sub(c, a)), 0, RIG30_CHECK_TOLERANCE, row_ok);
        ok &= row_ok;
        fprintf(out, "  %-26s (%8.5f, %8.5f, %8.5f)   %-18s %.4f  %s\n", r->hand.name[k], c.x, c.y,
                c.z, article, r->hand.error_vs_correct[k], row_ok ? "ok" : "FAIL");
    }
    const rig30_hand_control *h = &r->hand;
    fprintf(out, "  on the way: B_1^-1 p = (%.5f, %.5f, %.5f) (article: (1, 0, 0)), C_1 p = (%.5f, %.5f, %.5f) "
                 "(article: (0, 2, 0))\n", h->in_bind_frame.x, h->in_bind_frame.y, h->in_bind_frame.z,
            h->child_moves_it.x, h->child_moves_it.y, h->child_moves_it.z);
    double bind_frame = vec3_length(vec3_sub(h->in_bind_frame, vec3_make(1, 0, 0)));
    double moved = vec3_length(vec3_sub(h->child_moves_it, vec3_make(0, 2, 0)));
    ok &= report_record("B_1^-1 p against the article's (1, 0, 0)", REPORT_COMPARE, bind_frame, 0,
                        RIG30_CHECK_TOLERANCE, bind_frame <= RIG30_CHECK_TOLERANCE);
    ok &= report_record("C_1 p against the article's (0, 2, 0)", REPORT_COMPARE, moved, 0, RIG30_CHECK_TOLERANCE,
                        moved <= RIG30_CHECK_TOLERANCE);
    fprintf(out, "  GEA writes row vectors: p^T C_1^T = (%.5f, %.5f, %.5f), the same point as C_1 p "
                 "(|difference| %g)\n", h->row_vector.x, h->row_vector.y, h->row_vector.z, h->row_column_difference);
    ok &= report_record("row vectors against column vectors", REPORT_COMPARE, h->row_column_difference, 0,
                        RIG30_CHECK_TOLERANCE, h->row_column_difference <= RIG30_CHECK_TOLERANCE);
    fprintf(out, "  the cylinder cannot catch a reversed order: B^-1 G skins it to within %g of G B^-1\n"
                 "  (Tz(2) and Rz(theta) commute); the hand control above catches it: %.4f\n",
            h->cylinder_reversed_difference, h->error_vs_correct[HAND_REVERSED_ORDER]);
    return ok;
}

bool skinning30_report_radii(const void *state, FILE *out)
{
    const skinning30 *r = state;
    bool ok = true;
    fprintf(out, "  %-34s %22s %22s %11s\n", "theta, ring (child weight)", "measured (mean)",
            "analytic", "|diff|");
    for (int i = 0; i < r->pose_count; i++)
        for (int k = 0; k < RIG30_RINGS; k++) {
            const skinning30_pose *p = &r->pose[i];
            char label[64];
            snprintf(label, sizeof label, "%g deg, ring %d (w = %g)%s", p->theta_deg, k,
                     p->ring_weight[k], k == RIG30_MIDDLE_RING ? " middle" : "");
            ok &= report_compare(out, label, p->ring[k].mean, p->ring_analytic[k],
                                 RIG30_CHECK_TOLERANCE);
        }
    if (!is_article_run(r))
        return ok;
    /* The article printed one vertex's radius, the mean is ours: segment 0, p = (1, 0, 1),
     * goes to (1 - w + w cos t, w sin t, 1), at 180 deg exactly (0, 0.5 sin(pi), 1). */
    fprintf(out, "  the article's middle-ring values are the radius of one vertex, segment 0; to "
                 "their printed digits:\n");
    static const double article[3] = {1, 0.707106781186548, 6.12323399573677e-17};
    static const double digits[3] = {0.5, 5e-16, 5e-31}; /* half a unit of the last printed digit */
    for (int i = 0; i < 3; i++) {
        char label[64];
        snprintf(label, sizeof label, "%g deg, segment 0 vs article", r->pose[i].theta_deg);
        ok &= report_compare(out, label, r->pose[i].ring[RIG30_MIDDLE_RING].vertex[0], article[i], digits[i]);
    }
    return ok;
}

/* Why: the ring's blended matrix is a weighted sum of rigid matrices, and not rigid. */
bool skinning30_report_blend(const void *state, FILE *out)
{
    const skinning30 *r = state;
    bool ok = true;
    for (int i = 0; i < r->pose_count; i++) {
        const skinning30_pose *p = &r->pose[i];
        const mat4 m = p->middle_blend;
        mat4 gram = mat4_mul(mat4_transpose(mat4_linear_part(m)), mat4_linear_part(m));
        fprintf(out, "  theta = %g deg, w = (%g, %g):\n", p->theta_deg, p->middle_weights[0], p->middle_weights[1]);
        for (int row = 0; row < 3; row++)
            fprintf(out, "    M  [%9.6f %9.6f %9.6f]   M^T M [%9.6f %9.6f %9.6f]\n", m.m[row][0], m.m[row][1],
                    m.m[row][2], gram.m[row][0], gram.m[row][1], gram.m[row][2]);
        char det[48];
        fprintf(out, "    det M = %s; a rigid matrix has 1, and M^T M = I\n",
                format_or_zero(det, sizeof det, p->middle_det, "%.6g", FORMAT_ZERO_NOTE));
        for (int s = 0; s < 3; s++) {
            char label[64];
            snprintf(label, sizeof label, "  singular value %d (1, r'/r, r'/r)", s + 1);
            ok &= report_compare(out, label, p->middle_singular[s], p->middle_singular_analytic[s],
                                 RIG30_CHECK_TOLERANCE);
        }
    }
    return ok;
}

bool skinning30_report_analytic(const void *state, FILE *out)
{
    const skinning30 *r = state;
    bool ok = true;
    char label[64];
    snprintf(label, sizeof label, "max position error (%d vertices)",
             r->pose_count * r->rig.bind.vertex_count);
    ok &= report_bound(out, label, r->analytic.max_position_error, RIG30_CHECK_TOLERANCE);
    snprintf(label, sizeof label, "max radius error (%d vertices)", r->pose_count * r->rig.bind.vertex_count);
    ok &= report_bound(out, label, r->analytic.max_radius_error, RIG30_CHECK_TOLERANCE);
    snprintf(label, sizeof label, "max ring-mean radius error (%d)", r->pose_count * RIG30_RINGS);
    ok &= report_bound(out, label, r->analytic.max_mean_radius_error, RIG30_CHECK_TOLERANCE);
    ok &= report_bound(out, "max height error", r->analytic.max_height_error, RIG30_CHECK_TOLERANCE);
    ok &= report_bound(out, "end rings vs quaternion rotation", r->analytic.max_end_ring_error,
                       RIG30_CHECK_TOLERANCE);
    if (is_article_run(r))
        fprintf(out, "  (the article saw 0, 2.22045e-16 for the radii of its 27 rings, 0 and 3.14018e-16;\n"
                     "   its radius figure %s our per-vertex one to its printed digits)\n",
                fabs(r->analytic.max_radius_error - 2.22045e-16) < 5e-22 ? "matches" : "differs from");
    if (is_article_run(r) && fabs(r->analytic.max_end_ring_error - 3.14018e-16) >= 5e-22)
        fprintf(out, "  (our end-ring figure differs from the article's 3.14018e-16: both are rounding on an\n"
                     "   exact 0, and the last bits follow the order of the quaternion rotation's operations)\n");
    return ok;
}

bool skinning30_report_degenerate(const void *state, FILE *out)
{
    const skinning30 *r = state;
    for (int i = 0; i < r->pose_count; i++)
        fprintf(out, "  theta = %-8g %4d of %d\n", r->pose[i].theta_deg,
                r->pose[i].degenerate_triangles, r->rig.bind.triangle_count);
    return true;
}

bool skinning30_report_invalid_inputs(const void *state, FILE *out)
{
    const skinning30 *r = state;
    bool ok = true;
    for (int i = 0; i < r->invalid_count; i++) {
        const rig30_invalid_case *c = rig30_invalid_case_get(i);
        bool rejected = r->invalid_code[i] == c->expected;
        char msg[600];
        diag_format(&r->invalid_diag[i], msg, sizeof msg);
        fprintf(out, "  %2d %-46s %s\n     %s\n", i + 1, c->name, rejected ? "rejected" : "NOT REJECTED",
                r->invalid_code[i] == LAB_OK ? "(accepted)" : msg);
        ok &= report_record(c->name, REPORT_COUNT, rejected, 1, 0, rejected); /* 1: refused by its own rule */
    }
    return ok;
}
