/* dqs30_record.c - lab30-dqs's evidence and report (see dqs30.h). */
#include "dqs30.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "base/diag.h"
#include "base/report.h"
#include "math/linalg.h"
#include "mesh/mesh.h"
#include "program/evidence.h"
#include "program/output.h"
#include "skin/blend.h"
#include "rig30.h"
#include "rig30_cases.h"
#include "rig30_check.h"
#include "rig30_json.h"

const double dqs30_sweep_theta_deg[DQS30_SWEEP_ANGLES] = {60, 90, 120, 180};
const skin_method dqs30_methods[2] = {SKIN_LBS, SKIN_DQS};

void dqs30_free(dqs30 *r)
{
    for (int i = 0; i < r->pose_count; i++)
        free(r->pose[i].pose.positions);
    for (int i = 0; i < DQS30_ANIM_POSES; i++) /* those never reached are NULL */
        free(r->anim[i].pose.positions);
    free(r->edges);
    rig30_rig_free(&r->rigs[RIG30_TWIST]);
    rig30_rig_free(&r->rigs[RIG30_BEND]);
    report_checks *lists[] = {&r->checks.twist, &r->checks.hemisphere, &r->checks.rigid, &r->checks.sweep,
                              &r->checks.chord};
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
        report_checks_free(lists[i]);
}


/* ---- the evidence -------------------------------------------------------------------- */

/* Ring angles in degrees; null for a ring that collapsed onto the axis (no angle). */
static cJSON *degrees_array(const double *radians, int n)
{
    double deg[RIG30_RINGS];
    for (int k = 0; k < n; k++)
        deg[k] = rad_to_deg(radians[k]);
    return json_number_or_null_array(deg, n);
}

static cJSON *pose_json(const dqs30 *r, const dqs30_pose *p)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "rig", rig30_kind_name(p->rig));
    cJSON_AddStringToObject(o, "method", skin_method_name(p->method));
    json_add_number(o, "angle_deg", p->angle_deg);
    cJSON_AddItemToObject(o, "world", json_mat4_array(p->pose.world, RIG30_JOINTS));
    cJSON_AddItemToObject(o, "skin", json_mat4_array(p->pose.palette, RIG30_JOINTS));
    cJSON_AddItemToObject(o, "positions",
                          json_vec3_array(p->pose.positions, r->rigs[p->rig].bind.vertex_count));
    cJSON_AddItemToObject(o, "ring_radius", json_number_array(p->rings.radius, RIG30_RINGS));
    /* null for the bend: no closed form */
    cJSON_AddItemToObject(o, "ring_radius_analytic", json_number_or_null_array(p->rings.radius_analytic, RIG30_RINGS));
    if (p->rig == RIG30_TWIST) {
        cJSON_AddItemToObject(o, "ring_angle_deg", degrees_array(p->rings.angle, RIG30_RINGS));
        cJSON_AddItemToObject(o, "ring_angle_analytic_deg", degrees_array(p->rings.angle_analytic, RIG30_RINGS));
        cJSON_AddItemToObject(o, "analytic", rig30_json_check(&p->check));
    } else {
        cJSON *bend = cJSON_AddObjectToObject(o, "bend");
        json_add_number(bend, "inner_min_distance", p->bend.inner_min_distance);
        json_add_number(bend, "outer_max_bulge", p->bend.outer_max_bulge);
    }
    return o;
}

static cJSON *rigs_json(const dqs30 *r)
{
    static const char *const profile[2] = {"w_1 = z/2", "w_1 = smoothstep over z in [0.5, 1.5]"};
    static const char *const local[2] = {"Tz(2) Rz(angle)", "Tz(1) Rx(angle)"};
    cJSON *o = cJSON_CreateObject();
    for (int kind = 0; kind < 2; kind++) {
        const rig30_rig *rig = &r->rigs[kind];
        double w[RIG30_RINGS];
        for (int k = 0; k < RIG30_RINGS; k++)
            w[k] = rig30_child_weight(&rig->influences, mesh_cylinder_index(RIG30_SEGMENTS, k, 0));
        cJSON *j = cJSON_AddObjectToObject(o, rig30_kind_name((rig30_kind)kind));
        cJSON_AddStringToObject(j, "child_local", local[kind]);
        cJSON_AddStringToObject(j, "weights", profile[kind]);
        cJSON_AddItemToObject(j, "ring_child_weight", json_number_array(w, RIG30_RINGS));
        cJSON_AddItemToObject(j, "bind_world", json_mat4_array(rig->bind_world, RIG30_JOINTS));
        cJSON_AddItemToObject(j, "inverse_bind", json_mat4_array(rig->inverse_bind, RIG30_JOINTS));
    }
    return o;
}

static cJSON *checks_json(const dqs30 *r)
{
    cJSON *o = cJSON_CreateObject();
    json_add_number(o, "tolerance", RIG30_CHECK_TOLERANCE);
    cJSON_AddItemToObject(o, "lbs_twist", rig30_json_check(&r->twist_check[SKIN_LBS]));
    cJSON_AddItemToObject(o, "dqs_twist", rig30_json_check(&r->twist_check[SKIN_DQS]));
    cJSON *s = cJSON_AddObjectToObject(o, "short_way_270");
    json_add_number(s, "middle_turn_with_fix_deg", rad_to_deg(r->short_with_fix));
    json_add_number(s, "middle_turn_analytic_deg", rad_to_deg(r->short_analytic));
    json_add_number(s, "middle_turn_without_fix_deg", rad_to_deg(r->short_without_fix));
    cJSON *f = cJSON_AddObjectToObject(o, "full_turn_360");
    cJSON_AddItemToObject(f, "without_fix", json_rejection(r->full_turn_code, LAB_ERR_DQ_ZERO_NORM,
                                                      &r->full_turn_diag));
    json_add_number(f, "with_fix_max_displacement", r->full_turn_with_fix_displacement);
    json_add_number(o, "sign_q_vs_minus_q_max_difference", r->sign_difference);
    cJSON_AddItemToObject(o, "rigid_only", json_rejection(r->rigid_code, LAB_ERR_NOT_RIGID, &r->rigid_diag));
    cJSON_AddStringToObject(o, "hemisphere_pivot", "the influence with the largest weight, the first on ties");
    return o;
}

static cJSON *sweep_json(const dqs30 *r)
{
    cJSON *a = cJSON_CreateArray();
    double w[DQS30_SWEEP_SAMPLES];
    for (int k = 0; k < DQS30_SWEEP_SAMPLES; k++)
        w[k] = (double)k / (DQS30_SWEEP_SAMPLES - 1);
    for (int m = 0; m < 2; m++)
        for (int t = 0; t < DQS30_SWEEP_ANGLES; t++) {
            cJSON *s = cJSON_CreateObject();
            cJSON_AddStringToObject(s, "method", skin_method_name(dqs30_methods[m]));
            json_add_number(s, "theta_deg", dqs30_sweep_theta_deg[t]);
            cJSON_AddItemToObject(s, "weight", json_number_array(w, DQS30_SWEEP_SAMPLES));
            cJSON_AddItemToObject(s, "radius_ratio", json_number_array(r->sweep[m][t], DQS30_SWEEP_SAMPLES));
            cJSON_AddItemToObject(s, "radius_ratio_analytic",
                                  json_number_array(r->sweep_analytic[m][t], DQS30_SWEEP_SAMPLES));
            cJSON_AddItemToArray(a, s);
        }
    return a;
}

static lab_error add_json(const dqs30 *r, output_batch *b, lab_diag *d)
{
    cJSON *root = json_evidence_root("lab30-dqs");
    cJSON *mesh = cJSON_AddObjectToObject(root, "mesh");
    cJSON_AddNumberToObject(mesh, "rings", RIG30_RINGS);
    cJSON_AddNumberToObject(mesh, "segments", RIG30_SEGMENTS);
    json_add_number(mesh, "radius", RIG30_RADIUS);
    json_add_number(mesh, "height", RIG30_HEIGHT);
    cJSON_AddItemToObject(mesh, "vertices", json_vec3_array(r->rigs[0].bind.vertices,
                                                             r->rigs[0].bind.vertex_count));
    cJSON_AddItemToObject(root, "rigs", rigs_json(r));
    cJSON *poses = cJSON_AddArrayToObject(root, "poses");
    for (int i = 0; i < r->pose_count; i++)
        cJSON_AddItemToArray(poses, pose_json(r, &r->pose[i]));
    cJSON_AddItemToObject(root, "checks", checks_json(r));
    cJSON_AddItemToObject(root, "sweep", sweep_json(r));
    cJSON *chord = cJSON_AddObjectToObject(root, "chord_sketch");
    cJSON_AddStringToObject(chord, "setup", "v = (1, 0, 0); bones turn +90 and -90 deg about z; w = 1/2 each");
    cJSON_AddItemToObject(chord, "v", json_vec3(r->chord.v));
    cJSON_AddItemToObject(chord, "M1_v", json_vec3(r->chord.by_first));
    cJSON_AddItemToObject(chord, "M2_v", json_vec3(r->chord.by_second));
    cJSON_AddItemToObject(chord, "lbs", json_vec3(r->chord.lbs));
    cJSON_AddItemToObject(chord, "dqs", json_vec3(r->chord.dqs));
    json_add_number(chord, "lbs_distance_from_centre", r->chord.lbs_distance);
    json_add_number(chord, "lbs_distance_analytic", r->chord.lbs_distance_analytic);
    json_add_number(chord, "dqs_distance_from_centre", r->chord.dqs_distance);
    cJSON *cams = cJSON_AddObjectToObject(root, "cameras");
    cJSON_AddItemToObject(cams, "twist", json_camera(&r->cam[0]));
    cJSON_AddItemToObject(cams, "bend", json_camera(&r->cam[1])); /* every bend pose and frame */
    return output_batch_add_json(b, "dqs30.json", root, d);
}

static void ring_row(bytes *csv, const char *method, const char *rig, double pose_deg, int ring,
                    double weight, double radius, double radius_analytic, double angle,
                    double angle_analytic)
{
    const double fields[] = {pose_deg, ring, weight, radius, radius_analytic,
                             fabs(radius - radius_analytic), rad_to_deg(angle),
                             rad_to_deg(angle_analytic), rad_to_deg(rig30_angle_difference(angle, angle_analytic))};
    bytes_printf(csv, "%s,%s,", method, rig);
    /* empty where undefined: no closed form for the bend, no angle for a collapsed ring */
    csv_row_or_empty(csv, fields, (int)(sizeof fields / sizeof fields[0]));
}

static lab_error add_csv(const dqs30 *r, output_batch *b, lab_diag *d)
{
    bytes csv = {0};
    bytes_printf(&csv, "method,rig,pose_deg,ring,weight,radius,radius_analytic,radius_error,"
                       "angle_deg,angle_analytic_deg,angle_error_deg\n");
    for (int i = 0; i < r->pose_count; i++) {
        const dqs30_pose *p = &r->pose[i];
        const rig30_rig *rig = &r->rigs[p->rig];
        for (int k = 0; k < RIG30_RINGS; k++)
            ring_row(&csv, skin_method_name(p->method), rig30_kind_name(p->rig), p->angle_deg, k,
                    rig30_child_weight(&rig->influences, mesh_cylinder_index(RIG30_SEGMENTS, k, 0)),
                    p->rings.radius[k], p->rings.radius_analytic[k], p->rings.angle[k], p->rings.angle_analytic[k]);
    }
    for (int m = 0; m < 2; m++)
        for (int t = 0; t < DQS30_SWEEP_ANGLES; t++)
            for (int k = 0; k < DQS30_SWEEP_SAMPLES; k++)
                ring_row(&csv, skin_method_name(dqs30_methods[m]), "sweep", dqs30_sweep_theta_deg[t], k,
                        (double)k / (DQS30_SWEEP_SAMPLES - 1), r->sweep[m][t][k], r->sweep_analytic[m][t][k],
                        NAN, NAN);
    return output_batch_add(b, "dqs30-rings.csv", &csv, d);
}

lab_error dqs30_evidence(const dqs30 *r, output_batch *b, lab_diag *d)
{
    lab_error e = add_json(r, b, d);
    if (e == LAB_OK)
        e = add_csv(r, b, d);
    return e;
}

/* ---- the report: tables, and the rows of the checks lab30-dqs.c decided ------------------ */

/* One row per ring of every twist pose; its verdicts are the ring's radius check and, where
 * the ring did not collapse, its turn check, in the order lab30-dqs.c decided them. */
void dqs30_report_twist(const dqs30 *r, FILE *out)
{
    const report_checks *checks = &r->checks.twist;
    int next = 0;
    fprintf(out, "  LBS: r'/r = sqrt(1 - 4w(1-w) sin^2(t/2)), turn atan2(w sin t, (1-w) + w cos t)\n"
                 "  DQS: r'/r = 1, turn phi with tan(phi/2) = w sin(t/2) / ((1-w) + w cos(t/2)), t in [-180, 180]\n");
    fprintf(out, "  %-24s %10s %10s %9s %10s %10s %9s\n", "method theta ring (w)", "radius", "analytic",
           "|diff|", "turn deg", "analytic", "|diff|");
    for (int i = 0; i < r->pose_count; i++) {
        const dqs30_pose *p = &r->pose[i];
        if (p->rig != RIG30_TWIST)
            continue;
        for (int k = 0; k < RIG30_RINGS && next < checks->count; k++) {
            double w = rig30_child_weight(&r->rigs[RIG30_TWIST].influences, mesh_cylinder_index(RIG30_SEGMENTS, k, 0));
            double dr = fabs(p->rings.radius[k] - p->rings.radius_analytic[k]);
            double da = rig30_angle_difference(p->rings.angle[k], p->rings.angle_analytic[k]);
            /* a collapsed ring has no direction: its turn and the turn's error are undefined (null in the JSON) */
            bool collapsed = isnan(p->rings.angle[k]), row_ok = checks->items[next++].passed;
            char turn[32] = "undefined", turn_error[32] = "undefined";
            if (!collapsed && next < checks->count) {
                row_ok &= checks->items[next++].passed;
                snprintf(turn, sizeof turn, "%.4f", rad_to_deg(p->rings.angle[k]));
                snprintf(turn_error, sizeof turn_error, "%.2g", rad_to_deg(da));
            }
            fprintf(out, "  %s %5g ring %d (%.3f) %10.6f %10.6f %9.2g %10s %10.4f %9s  %s\n",
                   skin_method_name(p->method), p->angle_deg, k, w, p->rings.radius[k],
                   p->rings.radius_analytic[k], dr, turn, rad_to_deg(p->rings.angle_analytic[k]), turn_error,
                   row_ok ? "ok" : "FAIL");
        }
    }
    fprintf(out, "  (a turn \"undefined\": the ring collapsed onto the axis, as its closed-form radius 0 says, and\n"
                 "  a point has no direction to turn; such a row passes on its radius alone)\n");
    for (; next < checks->count; next++) /* every vertex and the end rings, per method */
        report_row(out, &checks->items[next]);
}

/* The rows: the turn with and without the fix, the refusal (a line of its own), the full
 * turn's movement, q against -q. */
void dqs30_report_hemisphere(const dqs30 *r, FILE *out)
{
    const report_checks *c = &r->checks.hemisphere;
    fprintf(out, "  At 270 deg the child's rotation quaternion is (cos 135, 0, 0, sin 135): its real\n"
           "  part is negative, opposite the root's (1, 0, 0, 0). The hemisphere fix negates it;\n"
           "  -q is the rotation by -90 deg, the same rotation as +270. Blending from there, the\n"
           "  middle ring turns by -45 deg: DQS goes the short way round. Without the fix it\n"
           "  blends the long way and turns the ring by +135 deg.\n");
    for (int i = 0; i < 2 && i < c->count; i++)
        report_row(out, &c->items[i]);
    fprintf(out, "  (without the fix: the long way round)\n");
    char msg[700];
    diag_format(&r->full_turn_diag, msg, sizeof msg);
    fprintf(out, "  360 deg without the fix: q_child = (-1, 0, 0, 0), so the equal blend of the middle\n"
           "  ring is 0.5 (1) + 0.5 (-1) = 0 and has no rotation. Detected, not NaN:\n  %s\n  -> %s\n",
           c->count > 2 && c->items[2].passed ? "rejected" : "NOT DETECTED", msg);
    for (int i = 3; i < c->count; i++)
        report_row(out, &c->items[i]);
    fprintf(out, "  A correction to the LBS-versus-DQS text (003), which calls unit dual quaternions one-to-one\n"
                 "  with rigid transforms: the map is two-to-one. q and -q are the same transform: negating the\n"
                 "  child's dual quaternion moved no vertex by more than %.3g (above); the hemisphere rule exists\n"
                 "  because of it.\n",
            r->sign_difference);
}

void dqs30_report_bend(const dqs30 *r, FILE *out)
{
    fprintf(out, "  inner: min distance of the inner side from the joint (1 at bind; LBS collapse)\n"
           "  bulge: max distance of the outer side beyond the bind radius from the bones (DQS)\n");
    fprintf(out, "  %-18s %8s %8s   ring cross-section radius about the bent axis, rings 0..8\n",
           "method beta", "inner", "bulge");
    for (int i = 0; i < r->pose_count; i++) {
        const dqs30_pose *p = &r->pose[i];
        if (p->rig != RIG30_BEND)
            continue;
        fprintf(out, "  %s %-13g %8.4f %8.4f  ", skin_method_name(p->method), p->angle_deg,
               p->bend.inner_min_distance, p->bend.outer_max_bulge);
        for (int k = 0; k < RIG30_RINGS; k++)
            fprintf(out, " %.4f", p->rings.radius[k]);
        fprintf(out, "\n");
    }
}

void dqs30_report_rigid(const dqs30 *r, FILE *out)
{
    char msg[700];
    diag_format(&r->rigid_diag, msg, sizeof msg);
    bool rejected = r->checks.rigid.count > 0 && r->checks.rigid.items[0].passed;
    fprintf(out, "  child joint scaled by 2 along x: %s\n  -> %s\n", rejected ? "rejected" : "NOT REJECTED", msg);
}

void dqs30_report_sweep(const dqs30 *r, FILE *out)
{
    report_rows(out, &r->checks.sweep);
    for (int t = 0; t < DQS30_SWEEP_ANGLES; t++)
        fprintf(out, "  theta %3g: LBS at w = 1/2 %.6f (|cos(theta/2)| = %.6f), DQS %.6f\n",
               dqs30_sweep_theta_deg[t], r->sweep[0][t][DQS30_SWEEP_SAMPLES / 2],
               fabs(cos(deg_to_rad(dqs30_sweep_theta_deg[t]) / 2)), r->sweep[1][t][DQS30_SWEEP_SAMPLES / 2]);
}

void dqs30_report_chord(const dqs30 *r, FILE *out)
{
    const rig30_chord *c = &r->chord;
    fprintf(out, "  v = (1, 0, 0), w = 1/2 each: M1 v = (%.3g, %.3g, %.3g), M2 v = (%.3g, %.3g, %.3g).\n"
           "  LBS lands on the chord's midpoint; DQS blends the two rotations and stays on the circle.\n"
           "  (The closed form |cos 90 deg| is 0; in doubles cos(pi/2) is 6.12e-17.)\n",
           c->by_first.x, c->by_first.y, c->by_first.z, c->by_second.x, c->by_second.y, c->by_second.z);
    report_rows(out, &r->checks.chord);
}
