/* view30_scene.c - the cylinder under every method and weight set (view30_scene.h): the
 * rigs under lab30-weights' four sets, the fixes' precomputations, lab30's animation (the
 * twist camera's rule), and one state's positions with the live numbers. The frames drawn
 * from them: view30_frame.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "base/diag.h"
#include "draw/figure.h"
#include "draw/raster.h"
#include "math/dualquat.h"
#include "math/linalg.h"
#include "math/quat.h"
#include "mesh/scene.h"
#include "program/json_writer.h"
#include "skin/blend.h"
#include "skin/influences.h"
#include "solve/sparse.h"
#include "weights/bbw.h"
#include "weights/heat.h"

#include "lab30-weights/weights30.h"
#include "rig30_check.h"
#include "view30_fixes.h"
#include "view30_scene.h"

#define VERTS (RIG30_RINGS * RIG30_SEGMENTS)
#define BEND_SAMPLES 37 /* the bend camera's poses: -180 to 180 degrees every 10 */

const char *view30_method_name(view30_method m)
{
    static const char *const names[VIEW30_METHODS] = {"LBS", "DQS", "CoR", "twist joints x1", "twist joints x3",
                                                      "corrective before", "corrective after"};
    return (unsigned)m < VIEW30_METHODS ? names[m] : "?";
}

const char *view30_weights_name(view30_weights w)
{
    static const char *const names[VIEW30_WEIGHT_SETS] = {"hand", "heat", "blender", "bbw"};
    return (unsigned)w < VIEW30_WEIGHT_SETS ? names[w] : "?";
}

/* ---- the weight sets: lab30-weights' four, on both rigs ---------------------------------- */

/* The set's weights (vertex-major, 2 per vertex) into the rig, through `policy`. */
static lab_error give_weights(rig30_rig *rig, const double *W, skin_policy_kind policy, lab_diag *d)
{
    skin_influences in;
    lab_error e = skin_influences_init(&in, VERTS, RIG30_JOINTS, d);
    for (int v = 0; e == LAB_OK && v < VERTS; v++)
        for (int j = 0; j < RIG30_JOINTS; j++)
            in.joint[2 * v + j] = j, in.weight[2 * v + j] = W[2 * v + j];
    if (e == LAB_OK)
        e = rig30_set_influences(rig, &in, (skin_weight_policy){.kind = policy}, NULL, d);
    if (e == LAB_OK)
        skin_influences_free(&in);
    return e;
}

/* Bone heat (the paper's model, through the strict policy: its weights sum to 1 by the
 * system's structure; Blender's after its cut per bone, through normalize, as Blender's
 * armature divides by the sum) and bounded biharmonic weights of the end rings: the sets of
 * lab30-weights, by the library's solvers. */
static lab_error weight_set(rig30_rig *rig, view30_weights set, lab_diag *d)
{
    if (set == VIEW30_HAND)
        return LAB_OK;
    lab_error e = LAB_OK;
    if (set == VIEW30_HEAT || set == VIEW30_BLENDER) {
        heat_bone bones[WEIGHTS30_BONES];
        weights30_rig_bones(rig, bones);
        heat_model model = set == VIEW30_HEAT ? HEAT_PAPER : HEAT_BLENDER;
        heat_result h = {0};
        e = heat_solve(&rig->bind, model, bones, WEIGHTS30_BONES, RIG30_JOINTS, HEAT_C, &h, d);
        if (e == LAB_OK)
            e = give_weights(rig, h.weights, model == HEAT_BLENDER ? SKIN_POLICY_NORMALIZE : SKIN_POLICY_STRICT, d);
        heat_result_free(&h);
        return e;
    }
    sparse_triplets L = {0};
    double mass[VERTS];
    int handle[VERTS];
    for (int v = 0; v < VERTS; v++) /* the end rings: the root's, the child's */
        handle[v] = v < RIG30_SEGMENTS ? 0 : v >= VERTS - RIG30_SEGMENTS ? 1 : -1;
    bbw_result b = {0};
    e = heat_laplacian(&rig->bind, HEAT_PAPER, &L, mass, NULL, d);
    if (e == LAB_OK)
        e = bbw_solve(&L, mass, handle, RIG30_JOINTS, true, 0.0, &b, d);
    if (e == LAB_OK)
        e = give_weights(rig, b.weights, SKIN_POLICY_STRICT, d);
    bbw_result_free(&b);
    sparse_free(&L);
    return e;
}

/* ---- the scene ------------------------------------------------------------------------- */

static vec3 *new_positions(lab_diag *d, lab_error *e)
{
    vec3 *p = *e == LAB_OK ? malloc(sizeof(vec3) * VERTS) : NULL;
    if (*e == LAB_OK && !p)
        *e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "view30", "%d positions", VERTS);
    return p;
}

lab_error view30_scene_build(view30_scene *s, lab_diag *d)
{
    *s = (view30_scene){.axis = {{0, 0, -0.3}, {0, 0, RIG30_HEIGHT + 0.3}}};
    lab_error e = sparse_load(d);
    for (int set = 0; e == LAB_OK && set < VIEW30_WEIGHT_SETS; set++)
        for (int kind = 0; e == LAB_OK && kind < 2; kind++) {
            e = rig30_rig_build(&s->rigs[set][kind], (rig30_kind)kind, NULL, d);
            if (e == LAB_OK)
                e = weight_set(&s->rigs[set][kind], (view30_weights)set, d);
            s->centres[set][kind] = new_positions(d, &e);
            if (e == LAB_OK)
                rig30_cor_centres(&s->rigs[set][kind], s->centres[set][kind]);
            for (int order = 0; order < 2; order++) {
                s->deltas[order][set][kind] = new_positions(d, &e);
                if (e == LAB_OK)
                    e = rig30_corrective_deltas(&s->rigs[set][kind], (rig30_order)order, s->deltas[order][set][kind],
                                                NULL, d);
            }
        }
    const rig30_rig *hand = &s->rigs[VIEW30_HAND][RIG30_TWIST];
    if (e == LAB_OK)
        e = mesh_unique_edges(hand->bind.triangles, hand->bind.triangle_count, &s->edges, &s->edge_count, d);
    if (e == LAB_OK)
        e = rig30_edge_masks(hand, s->edges, s->edge_count, &s->middle, &s->band, d);
    /* lab30's animation, which its camera is fitted over with the poses it draws */
    for (int k = 0; e == LAB_OK && k < LAB30_SWEEP_FRAMES; k++) {
        rig30_pose p = {.positions = new_positions(d, &e)};
        s->sweep[k] = p.positions;
        if (e == LAB_OK)
            e = rig30_pose_at(hand, deg_to_rad(k * LAB30_SWEEP_STEP_DEG), (skin_blend){.method = SKIN_LBS}, &p, d);
    }
    /* the bend's camera: every method and set from -180 to 180 degrees, so that it holds
     * still while the student drags */
    vec3 *poses = NULL;
    const int count = BEND_SAMPLES * VIEW30_METHODS * VIEW30_WEIGHT_SETS;
    if (e == LAB_OK && !(poses = malloc(sizeof(vec3) * VERTS * (size_t)count)))
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "view30", "the bend camera's %d poses", count);
    const vec3 *sets[BEND_SAMPLES * VIEW30_METHODS * VIEW30_WEIGHT_SETS];
    int counts[BEND_SAMPLES * VIEW30_METHODS * VIEW30_WEIGHT_SETS], n = 0;
    for (int k = 0; e == LAB_OK && k < BEND_SAMPLES; k++)
        for (int m = 0; e == LAB_OK && m < VIEW30_METHODS; m++)
            for (int set = 0; e == LAB_OK && set < VIEW30_WEIGHT_SETS; set++) {
                view30_state st = {0, -180.0 + 10.0 * k, (view30_method)m, (view30_weights)set};
                view30_readout r;
                vec3 *p = poses + (size_t)n * VERTS;
                e = view30_skin(s, &st, RIG30_BEND, p, &r, d);
                if (e == LAB_OK && r.bend_applies)
                    sets[n] = p, counts[n++] = VERTS;
            }
    if (e == LAB_OK)
        e = figure_fit_camera(&s->bend_cam, vec3_make(6.0, -2.0, 2.5), vec3_make(0, 0, 1), sets, counts, n, 0.04,
                              (camera_viewport_rect){0, figure_label_height(VIEW30_LABEL_LINES), VIEW30_PANEL_W,
                                                     VIEW30_PANEL_H - figure_label_height(VIEW30_LABEL_LINES)},
                              d);
    free(poses);
    if (e != LAB_OK)
        view30_scene_free(s);
    return e;
}

void view30_scene_free(view30_scene *s)
{
    for (int set = 0; set < VIEW30_WEIGHT_SETS; set++)
        for (int kind = 0; kind < 2; kind++) {
            rig30_rig_free(&s->rigs[set][kind]);
            free(s->centres[set][kind]);
            free(s->deltas[0][set][kind]), free(s->deltas[1][set][kind]);
        }
    for (int k = 0; k < LAB30_SWEEP_FRAMES; k++)
        free(s->sweep[k]);
    free(s->edges), free(s->middle), free(s->band);
    *s = (view30_scene){0};
}

/* ---- one state ------------------------------------------------------------------------- */

/* The blended linear map of the middle ring's first vertex and its singular values: M =
 * sum_j w_j C_j where the method blends matrices (LBS, the corrective shapes' skin), the
 * blended rotation R where it blends rotations (DQS, CoR: rigid, 1 1 1); none for twist
 * joints, whose middle ring follows one helper joint. */
static void middle_map(const rig30_rig *rig, view30_method m, double theta, view30_readout *r, lab_diag *d)
{
    r->middle_det = NAN;
    r->singular[0] = r->singular[1] = r->singular[2] = NAN;
    if (m == VIEW30_TWIST_JOINTS_1 || m == VIEW30_TWIST_JOINTS_3)
        return;
    mat4 palette[RIG30_JOINTS], M;
    dualquat dq[RIG30_JOINTS];
    if (rig30_palettes(rig, theta, palette, dq, d) != LAB_OK)
        return;
    const skin_influences *in = &rig->influences;
    int v = mesh_cylinder_index(RIG30_SEGMENTS, RIG30_MIDDLE_RING, 0), K = in->per_vertex;
    if (m == VIEW30_DQS || m == VIEW30_COR) {
        quat q;
        if (rig30_blended_rotation(in, v, dq, &q, d) != LAB_OK)
            return;
        M = quat_to_mat4(q);
    } else {
        M = skin_blend_matrix(in->joint + v * K, in->weight + v * K, K, palette);
    }
    r->middle_det = mat4_linear_det(M);
    mat4_linear_singular_values(M, r->singular);
}

lab_error view30_skin(const view30_scene *s, const view30_state *st, rig30_kind kind, vec3 *out,
                      view30_readout *r, lab_diag *d)
{
    const rig30_rig *rig = &s->rigs[st->weights][kind];
    const double deg = kind == RIG30_TWIST ? st->twist_deg : st->bend_deg, theta = deg_to_rad(deg);
    lab_error e = LAB_OK;
    double pair_error = NAN;
    bool applies = true;
    switch (st->method) {
    case VIEW30_LBS:
    case VIEW30_DQS: {
        rig30_pose p = {.positions = out};
        e = rig30_pose_at(rig, theta, (skin_blend){.method = st->method == VIEW30_DQS ? SKIN_DQS : SKIN_LBS}, &p, d);
        break;
    }
    case VIEW30_COR:
        e = view30_fix_cor(rig, s->centres[st->weights][kind], theta, out, d);
        break;
    case VIEW30_TWIST_JOINTS_1:
    case VIEW30_TWIST_JOINTS_3:
        if (kind == RIG30_TWIST) /* they share a twist; the elbow has none to share */
            e = view30_fix_twist_joints(rig, st->method == VIEW30_TWIST_JOINTS_1 ? 1 : 3, theta, out, &pair_error, d);
        else
            applies = false, memcpy(out, rig->bind.vertices, sizeof(vec3) * VERTS);
        break;
    default: {
        rig30_order order = st->method == VIEW30_CORRECTIVE_BEFORE ? FIXES30_BEFORE_SKINNING : FIXES30_AFTER_SKINNING;
        e = view30_fix_corrective(rig, order, s->deltas[order][st->weights][kind], theta, out, d);
    }
    }
    if (e != LAB_OK || !r)
        return e;
    if (kind == RIG30_BEND) {
        r->bend_deg = st->bend_deg, r->bend_applies = applies;
        rig30_pose p = {.positions = out};
        rig30_joints(RIG30_BEND, theta, p.joints);
        rig30_bend_metrics b;
        e = scene_evaluate(p.joints, RIG30_JOINTS, p.world, d); /* the bones where the pose put them */
        if (e != LAB_OK)
            return e;
        rig30_measure_bend(rig, &p, &b);
        r->inner = applies ? b.inner_min_distance : NAN, r->bulge = applies ? b.outer_max_bulge : NAN;
        return LAB_OK;
    }
    /* the twist's middle ring, against the method's closed form where it has one */
    r->twist_deg = st->twist_deg;
    r->middle_radius = rig30_measure_ring(out, RIG30_MIDDLE_RING).mean;
    r->middle_weight = rig30_child_weight(&rig->influences, mesh_cylinder_index(RIG30_SEGMENTS, RIG30_MIDDLE_RING, 0));
    const double w = r->middle_weight, lbs = RIG30_RADIUS * rig30_radius_ratio(w, theta);
    switch (st->method) {
    case VIEW30_LBS: /* r'/r = sqrt(1 - 4 w (1-w) sin^2(theta/2)) */
        r->middle_closed = lbs;
        break;
    case VIEW30_DQS: /* a rigid blend keeps the radius */
        r->middle_closed = RIG30_RADIUS;
        break;
    case VIEW30_TWIST_JOINTS_1:
    case VIEW30_TWIST_JOINTS_3: /* the chapter's formula pair by pair: the measured ring
                                 * against it within the largest error over all vertices */
        r->middle_closed = pair_error <= RIG30_CHECK_TOLERANCE ? r->middle_radius : NAN;
        break;
    case VIEW30_CORRECTIVE_BEFORE: /* at w = 1/2 the trained pose's M is singular: no delta */
        r->middle_closed = w == 0.5 ? lbs : NAN;
        break;
    case VIEW30_CORRECTIVE_AFTER: /* |cos(theta/2)| + theta/180deg at w = 1/2 (rig30_fixes.h) */
        r->middle_closed = w == 0.5 ? RIG30_RADIUS * (fabs(cos(theta / 2.0)) + theta / acos(-1.0)) : NAN;
        break;
    default: /* CoR: no closed form */
        r->middle_closed = NAN;
    }
    middle_map(rig, st->method, theta, r, d);
    return LAB_OK;
}
