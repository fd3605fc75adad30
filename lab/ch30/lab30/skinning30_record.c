/* skinning30_record.c - chapter 30's evidence and report (see skinning30.h), and the
 * invalid inputs run through the pipeline, whose refusals they record. */
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

void skinning30_free(skinning30 *c)
{
    for (int i = 0; i < c->pose_count; i++)
        free(c->pose[i].pose.positions);
    for (int k = 0; k < c->sweep_count; k++)
        free(c->sweep[k].pose.positions);
    free(c->edges), free(c->invalid_code), free(c->invalid_diag);
    rig30_rig_free(&c->rig);
    skinning30_checks *k = &c->checks;
    report_checks *lists[] = {&k->mesh, &k->bind_pose, &k->hand, &k->radii, &k->blend, &k->analytic, &k->invalid};
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
        report_checks_free(lists[i]);
}

void skinning30_locate(const skinning30_options *o, lab_diag *d)
{
    if (d->vertex < 0)
        return;
    int ring = d->vertex / RIG30_SEGMENTS, segment = d->vertex % RIG30_SEGMENTS;
    char where[sizeof d->where];
    int n = snprintf(where, sizeof where, "%s (ring %d, segment %d%s)", d->where, ring, segment,
                     o->has_middle_weights && ring == RIG30_MIDDLE_RING
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

lab_error skinning30_evidence(const skinning30 *c, output_batch *b, lab_diag *d)
{
    lab_error e = add_json(c, c->axis, b, d);
    if (e == LAB_OK)
        e = add_csv(c, b, d);
    bytes gltf = {0};
    if (e == LAB_OK && c->options.gltf)
        e = rig30_gltf_export(&c->rig, &gltf, d);
    if (e == LAB_OK && c->options.gltf)
        e = output_batch_add(b, "skinning30.gltf", &gltf, d);
    bytes_free(&gltf);
    return e;
}

/* ---- the report's bodies: tables, and the rows of the checks lab30.c decided ------------ */

static const double article_bind_error = 5.55112e-17; /* what the article prints */

bool skinning30_is_article_run(const skinning30_options *o)
{
    return !o->has_middle_weights && o->theta_count == 3 && o->theta_deg[0] == 0 && o->theta_deg[1] == 90 &&
           o->theta_deg[2] == 180;
}

void skinning30_report_mesh(const skinning30 *c, FILE *out)
{
    fprintf(out, "  %-34s %22s %22s\n", "quantity", "computed", "article");
    report_rows(out, &c->checks.mesh);
}

void skinning30_report_skeleton(const skinning30 *c, FILE *out)
{
    fprintf(out, "  L_0 = I, L_1 = Tz(2) Rz(theta); G_0 = L_0, G_1 = G_0 L_1 (scene_evaluate)\n");
    fprintf(out, "  B_1 = Tz(%g), inverse bind from the pure-translation helper: Tz(%g)\n",
            c->rig.bind_world[1].m[2][3], c->rig.inverse_bind[1].m[2][3]);
    fprintf(out, "  weights w_1 = z/2 (child), w_0 = 1 - z/2 (root)");
    if (c->options.has_middle_weights)
        fprintf(out, "; middle ring (z = 1) set to w_0 = %g, w_1 = %g", c->options.middle_weights[0],
                c->options.middle_weights[1]);
    fprintf(out, "\n");
}

void skinning30_report_bind_pose(const skinning30 *c, FILE *out)
{
    report_rows(out, &c->checks.bind_pose);
    fprintf(out, "  (the article saw %g)\n", article_bind_error);
}

/* The hand control's rows are its own table: one line per computation, whose verdict is
 * the check of the same index. */
void skinning30_report_hand_control(const skinning30 *c, FILE *out)
{
    const rig30_hand_control *h = &c->hand;
    const report_checks *checks = &c->checks.hand;
    fprintf(out, "  %-26s %-32s %-18s %s\n", "computation", "blended position", "article",
            "error vs correct");
    for (int k = 0; k < HAND_ROWS && k < checks->count; k++) {
        vec3 p = h->computed[k], a = h->article[k];
        char article[48];
        snprintf(article, sizeof article, "(%g, %g, %g)", a.x, a.y, a.z);
        fprintf(out, "  %-26s (%8.5f, %8.5f, %8.5f)   %-18s %.4f  %s\n", h->name[k], p.x, p.y,
                p.z, article, h->error_vs_correct[k], checks->items[k].passed ? "ok" : "FAIL");
    }
    fprintf(out, "  on the way: B_1^-1 p = (%.5f, %.5f, %.5f) (article: (1, 0, 0)), C_1 p = (%.5f, %.5f, %.5f) "
                 "(article: (0, 2, 0))\n", h->in_bind_frame.x, h->in_bind_frame.y, h->in_bind_frame.z,
            h->child_moves_it.x, h->child_moves_it.y, h->child_moves_it.z);
    fprintf(out, "  GEA writes row vectors: p^T C_1^T = (%.5f, %.5f, %.5f), the same point as C_1 p "
                 "(|difference| %g)\n", h->row_vector.x, h->row_vector.y, h->row_vector.z, h->row_column_difference);
    fprintf(out, "  the cylinder cannot catch a reversed order: B^-1 G skins it to within %g of G B^-1\n"
                 "  (Tz(2) and Rz(theta) commute); the hand control above catches it: %.4f\n",
            h->cylinder_reversed_difference, h->error_vs_correct[HAND_REVERSED_ORDER]);
}

void skinning30_report_radii(const skinning30 *c, FILE *out)
{
    const report_checks *checks = &c->checks.radii;
    int rings = c->pose_count * RIG30_RINGS; /* the rows of every pose's rings, then the article's */
    fprintf(out, "  %-34s %22s %22s %11s\n", "theta, ring (child weight)", "measured (mean)",
            "analytic", "|diff|");
    for (int i = 0; i < rings && i < checks->count; i++)
        report_row(out, &checks->items[i]);
    if (!skinning30_is_article_run(&c->options))
        return;
    fprintf(out, "  the article's middle-ring values are the radius of one vertex, segment 0; to "
                 "their printed digits:\n");
    for (int i = rings; i < checks->count; i++)
        report_row(out, &checks->items[i]);
}

/* Why: the ring's blended matrix is a weighted sum of rigid matrices, and not rigid. */
void skinning30_report_blend(const skinning30 *c, FILE *out)
{
    for (int i = 0; i < c->pose_count; i++) {
        const skinning30_pose *p = &c->pose[i];
        const mat4 m = p->middle_blend;
        mat4 gram = mat4_mul(mat4_transpose(mat4_linear_part(m)), mat4_linear_part(m));
        fprintf(out, "  theta = %g deg, w = (%g, %g):\n", p->theta_deg, p->middle_weights[0], p->middle_weights[1]);
        for (int row = 0; row < 3; row++)
            fprintf(out, "    M  [%9.6f %9.6f %9.6f]   M^T M [%9.6f %9.6f %9.6f]\n", m.m[row][0], m.m[row][1],
                    m.m[row][2], gram.m[row][0], gram.m[row][1], gram.m[row][2]);
        char det[48];
        fprintf(out, "    det M = %s; a rigid matrix has 1, and M^T M = I\n",
                format_or_zero(det, sizeof det, p->middle_det, "%.6g", FORMAT_ZERO_NOTE));
        for (int s = 3 * i; s < 3 * i + 3 && s < c->checks.blend.count; s++) /* its 3 singular values */
            report_row(out, &c->checks.blend.items[s]);
    }
}

void skinning30_report_analytic(const skinning30 *c, FILE *out)
{
    report_rows(out, &c->checks.analytic);
    if (skinning30_is_article_run(&c->options))
        fprintf(out, "  (the article saw 0, 2.22045e-16 for the radii of its 27 rings, 0 and 3.14018e-16;\n"
                     "   its radius figure %s our per-vertex one to its printed digits)\n",
                fabs(c->analytic.max_radius_error - 2.22045e-16) < 5e-22 ? "matches" : "differs from");
    if (skinning30_is_article_run(&c->options) && fabs(c->analytic.max_end_ring_error - 3.14018e-16) >= 5e-22)
        fprintf(out, "  (our end-ring figure differs from the article's 3.14018e-16: both are rounding on an\n"
                     "   exact 0, and the last bits follow the order of the quaternion rotation's operations)\n");
}

void skinning30_report_degenerate(const skinning30 *c, FILE *out)
{
    for (int i = 0; i < c->pose_count; i++)
        fprintf(out, "  theta = %-8g %4d of %d\n", c->pose[i].theta_deg,
                c->pose[i].degenerate_triangles, c->rig.bind.triangle_count);
}

/* One line per invalid input with the message it was refused with; its verdict is the
 * check of the same index. */
void skinning30_report_invalid_inputs(const skinning30 *c, FILE *out)
{
    for (int i = 0; i < c->invalid_count && i < c->checks.invalid.count; i++) {
        const rig30_invalid_case *k = rig30_invalid_case_get(i);
        bool rejected = c->checks.invalid.items[i].passed;
        char msg[600];
        diag_format(&c->invalid_diag[i], msg, sizeof msg);
        fprintf(out, "  %2d %-46s %s\n     %s\n", i + 1, k->name, rejected ? "rejected" : "NOT REJECTED",
                c->invalid_code[i] == LAB_OK ? "(accepted)" : msg);
    }
}

/* Each invalid input through the real pipeline: it must be refused by its own rule (the
 * check: 1 when it was). */
lab_error skinning30_refuse_invalid_inputs(const rig30_rig *rig, int *count, lab_error **code, lab_diag **diag,
                                           report_checks *checks, lab_diag *d)
{
    *count = rig30_invalid_case_count();
    *code = calloc((size_t)*count, sizeof **code);
    *diag = calloc((size_t)*count, sizeof **diag);
    if (!*code || !*diag)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "invalid inputs", "%d cases", *count);
    lab_error e = LAB_OK;
    for (int i = 0; e == LAB_OK && i < *count; i++) {
        (*code)[i] = rig30_invalid_case_run(rig, i, &(*diag)[i]);
        e = diag_resource_failure((*code)[i], &(*diag)[i], d);
    }
    for (int i = 0; e == LAB_OK && i < *count; i++) {
        const rig30_invalid_case *c = rig30_invalid_case_get(i);
        bool rejected = (*code)[i] == c->expected;
        check_add(checks, c->name, REPORT_COUNT, rejected, 1, 0, rejected);
    }
    return e;
}
