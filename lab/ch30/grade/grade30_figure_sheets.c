/* grade30_figure_sheets.c - the pictures of the skeleton and dual quaternion sheets
 * (exercises 8 to 15, declared in grade30_table.h): a skeleton, a skin's two joints, the
 * cylinder skinned by the student's whole loop, the DQS ring through each of the student's
 * three parts, and the two turn angles against theta. The lab's side from the library. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "draw/diagram.h"
#include "draw/figure.h"
#include "draw/plot.h"
#include "math/dualquat.h"
#include "math/linalg.h"
#include "math/quat.h"
#include "mesh/scene.h"
#include "skin/blend.h"
#include "skin/pose.h"

#include "grade30.h"
#include "grade30_figure.h"
#include "grade30_table.h"
#include "rig30.h"
#include "rig30_check.h"

/* A diagram panel with the legend under its title. */
static lab_error panel(diagram *g, canvas *c, double ox, double oy, double scale, const char *title, lab_diag *d)
{
    lab_error e = diagram_init(g, c, W, H, ox, oy, scale, title, d);
    if (e == LAB_OK) {
        raster_text(c, 8, H - 30, FIGURE_TEXT_SCALE, "green: the lab's", LABS);
        raster_text(c, 220, H - 30, FIGURE_TEXT_SCALE, "red (dashed): yours", YOURS);
    }
    return e;
}

static void not_drawn(canvas *c) { raster_text(c, 8, H - 56, FIGURE_TEXT_SCALE, "yours: not drawn (see the verdict)", YOURS); }

/* ---- 8. a branching skeleton --------------------------------------------------------------- */

enum { BRANCH = 5 };
static const int branch_parent[BRANCH] = {-1, 0, 1, 1, 3};

static void branch_locals(mat4 *local)
{
    static const double at[BRANCH][3] = {{0, -1.5, 90}, {1, 0, 20}, {0.7, 0.4, -70}, {1, -0.2, 40}, {0.8, 0, 40}};
    for (int i = 0; i < BRANCH; i++)
        local[i] = mat4_mul(mat4_translate(at[i][0], at[i][1], 0), mat4_rotate_z(deg_to_rad(at[i][2])));
}

void grade30_points_skeleton(grade_fn g, const grade30_case *failing, grade30_picture_data *out)
{
    grade30_fn f = grade30_fn_of(g);
    (void)failing; /* the named pose shows this exercise's mistakes */
    mat4 local[BRANCH], world[BRANCH];
    branch_locals(local);
    out->drawn = f.skeleton_world(BRANCH, branch_parent, local, world) == -1;
    out->count = BRANCH;
    for (int i = 0; out->drawn && i < BRANCH; i++)
        out->yours[i] = mat4_transform_point(world[i], vec3_make(0, 0, 0));
}

static void bones(const diagram *g, const vec3 *p, int dash, rgb color)
{
    for (int i = 0; i < BRANCH; i++)
        if (branch_parent[i] >= 0)
            diagram_segment(g, p[branch_parent[i]].x, p[branch_parent[i]].y, p[i].x, p[i].y, dash, color);
}

lab_error grade30_draw_skeleton(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    diagram g;
    lab_error e = panel(&g, out, 250, 230, 70, "8. a branching skeleton's joints:\nparents {-1, 0, 1, 1, 3}, locals T R", d);
    if (e != LAB_OK)
        return e;
    mat4 local[BRANCH], world[BRANCH];
    branch_locals(local);
    scene_node nodes[BRANCH];
    for (int i = 0; i < BRANCH; i++)
        nodes[i] = (scene_node){NULL, branch_parent[i], local[i]};
    scene_world(nodes, BRANCH, NULL, world);
    vec3 lab[BRANCH];
    for (int i = 0; i < BRANCH; i++)
        lab[i] = mat4_transform_point(world[i], vec3_make(0, 0, 0));
    bones(&g, lab, 0, LABS);
    for (int i = 0; i < BRANCH; i++)
        diagram_point(&g, lab[i].x, lab[i].y, LABS, DIAGRAM_RIGHT, "%d", i);
    if (yours->drawn && grade30_finite_and_near(yours->yours, BRANCH))
        bones(&g, yours->yours, 4, YOURS);
    else
        not_drawn(out);
    return LAB_OK;
}

/* ---- 9. a skin's two joints through skin.joints --------------------------------------------- */

enum { SQUARE = 5 };
static const vec3 square[SQUARE] = {{-0.2, -0.2, 0}, {0.2, -0.2, 0}, {0.2, 0.2, 0}, {-0.2, 0.2, 0}, {-0.2, -0.2, 0}};
static const int skin_joints[2] = {2, 1};

/* Three nodes; slot 0 is node 2, bound at (1, 0, 0); slot 1 is node 1, bound at (0, 1, 0). */
static void skin_scene(mat4 world[3], mat4 ibm[2], vec3 bind[2])
{
    world[0] = mat4_translate(-1, 0, 0);
    world[1] = mat4_mul(mat4_translate(-0.8, 1.6, 0), mat4_rotate_z(deg_to_rad(30)));
    world[2] = mat4_mul(mat4_translate(1.5, 0.5, 0), mat4_rotate_z(deg_to_rad(-45)));
    bind[0] = vec3_make(1, 0, 0), bind[1] = vec3_make(0, 1, 0);
    ibm[0] = mat4_translate(-1, 0, 0), ibm[1] = mat4_translate(0, -1, 0);
}

static void squares_under(const mat4 palette[2], const vec3 bind[2], vec3 *out)
{
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < SQUARE; i++)
            out[j * SQUARE + i] = mat4_transform_point(palette[j], vec3_add(bind[j], square[i]));
}

void grade30_points_palette(grade_fn g, const grade30_case *failing, grade30_picture_data *out)
{
    grade30_fn f = grade30_fn_of(g);
    (void)failing; /* the named pose shows this exercise's mistakes */
    mat4 world[3], ibm[2], palette[2];
    vec3 bind[2];
    skin_scene(world, ibm, bind);
    f.palette(2, skin_joints, world, ibm, palette);
    out->drawn = true, out->count = 2 * SQUARE;
    squares_under(palette, bind, out->yours);
}

lab_error grade30_draw_palette(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    diagram g;
    lab_error e = panel(&g, out, 230, 200, 70,
                        "9. three nodes, skin.joints {2, 1}:\neach slot's square from its bind\nplace (grey)", d);
    if (e != LAB_OK)
        return e;
    mat4 world[3], ibm[2], palette[2];
    vec3 bind[2], lab[2 * SQUARE], grey[2 * SQUARE];
    skin_scene(world, ibm, bind);
    skin_palette_run(world, skin_joints, ibm, 2, palette);
    squares_under(palette, bind, lab);
    mat4 identity[2] = {mat4_identity(), mat4_identity()};
    squares_under(identity, bind, grey);
    for (int j = 0; j < 2; j++)
        for (int i = 0; i + 1 < SQUARE; i++) {
            int a = j * SQUARE + i;
            diagram_segment(&g, grey[a].x, grey[a].y, grey[a + 1].x, grey[a + 1].y, 0, DIAGRAM_GREY);
            diagram_segment(&g, lab[a].x, lab[a].y, lab[a + 1].x, lab[a + 1].y, 0, LABS);
            if (yours->drawn && grade30_finite_and_near(yours->yours, 2 * SQUARE))
                diagram_segment(&g, yours->yours[a].x, yours->yours[a].y, yours->yours[a + 1].x, yours->yours[a + 1].y, 4,
                                YOURS);
        }
    for (int j = 0; j < 2; j++)
        diagram_label(&g, lab[j * SQUARE + 2].x, lab[j * SQUARE + 2].y, LABS, DIAGRAM_RIGHT, "slot %d", j);
    if (!yours->drawn || !grade30_finite_and_near(yours->yours, 2 * SQUARE))
        not_drawn(out);
    return LAB_OK;
}

/* ---- 10. the whole loop on the cylinder ------------------------------------------------------ */

void grade30_points_mesh(grade_fn g, const grade30_case *failing, grade30_picture_data *out)
{
    grade30_fn f = grade30_fn_of(g);
    (void)failing; /* the named pose shows this exercise's mistakes */
    rig30_rig rig = {0};
    out->count = RIG30_RINGS * RIG30_SEGMENTS;
    if (rig30_rig_build(&rig, RIG30_TWIST, NULL, NULL) != LAB_OK)
        return;
    scene_node joints[RIG30_JOINTS];
    rig30_joints(RIG30_TWIST, deg_to_rad(120), joints);
    int parent[RIG30_JOINTS], slots[RIG30_JOINTS], *vj = malloc(sizeof *vj * 4 * (size_t)out->count);
    mat4 local[RIG30_JOINTS];
    double *vw = malloc(sizeof *vw * 4 * (size_t)out->count);
    for (int j = 0; j < RIG30_JOINTS; j++)
        parent[j] = joints[j].parent, local[j] = joints[j].local, slots[j] = j;
    for (int v = 0; vj && vw && v < out->count; v++)
        for (int s = 0; s < 4; s++)
            vj[4 * v + s] = s < 2 ? rig.influences.joint[2 * v + s] : 0, vw[4 * v + s] = s < 2 ? rig.influences.weight[2 * v + s] : 0;
    if (vj && vw) {
        const ex30_skin skin = {RIG30_JOINTS, parent, local, RIG30_JOINTS, slots, rig.inverse_bind,
                                out->count, rig.bind.vertices, vj, vw};
        f.skin_mesh(&skin, out->yours);
        out->drawn = true;
    }
    free(vj), free(vw);
    rig30_rig_free(&rig);
}

lab_error grade30_draw_mesh(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    return grade30_draw_cylinder("10. the lab's loop", "yours (your loop)", yours, out, d);
}

/* ---- 11 to 13. the DQS ring through each part ------------------------------------------------- */

static const double ring_w[2] = {0.6, 0.4};

/* Exercise 6's ring with one part the student's: the joints' dual quaternions, the
 * normalisation, or the point transform; the rest the lab's. */
typedef enum { YOUR_JOINTS, YOUR_NORMALISATION, YOUR_TRANSFORM } ring_part;

static void dq_ring(grade30_fn f, ring_part part, grade30_picture_data *out)
{
    dualquat q[2], unit;
    grade30_ring_joints(q);
    if (part == YOUR_JOINTS) /* the same two: the root, and -q^ of T(0.5, 0, 0) Rz(160) */
        q[0] = f.dq_from_rigid(quat_identity(), vec3_make(0, 0, 0)),
        q[1] = dualquat_scale(f.dq_from_rigid(quat_from_axis_angle(vec3_make(0, 0, 1), deg_to_rad(160)), vec3_make(0.5, 0, 0)), -1);
    dualquat blend = dualquat_blend(q, ring_w, 2, true);
    out->count = GRADE30_RING + 1;
    out->drawn = part == YOUR_NORMALISATION ? f.dq_normalize(blend, &unit)
                                            : dualquat_normalize(blend, &unit, "grade30", NULL) == LAB_OK;
    for (int i = 0; out->drawn && i <= GRADE30_RING; i++) {
        vec3 p = grade30_ring_point(i % GRADE30_RING);
        out->yours[i] = part == YOUR_TRANSFORM ? f.dq_transform_point(unit, p) : dualquat_transform_point(unit, p);
    }
}
void grade30_points_dq_rigid(grade_fn g, const grade30_case *failing, grade30_picture_data *out) { (void)failing; dq_ring(grade30_fn_of(g), YOUR_JOINTS, out); }
void grade30_points_dq_normalize(grade_fn g, const grade30_case *failing, grade30_picture_data *out) { (void)failing; dq_ring(grade30_fn_of(g), YOUR_NORMALISATION, out); }
void grade30_points_dq_transform(grade_fn g, const grade30_case *failing, grade30_picture_data *out) { (void)failing; dq_ring(grade30_fn_of(g), YOUR_TRANSFORM, out); }

lab_error grade30_draw_dq_rigid(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    return grade30_draw_ring("11. exercise 6's ring: the joints' dual\nquaternions yours, the blend the lab's\ngrey: the bind pose",
                             yours, out, d);
}
lab_error grade30_draw_dq_normalize(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    return grade30_draw_ring("12. exercise 6's ring, normalised by\nyours (blended, moved by the lab)\ngrey: the bind pose", yours, out, d);
}
lab_error grade30_draw_dq_transform(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    return grade30_draw_ring("13. exercise 6's ring, each point moved\nby yours (blend: the lab's)\ngrey: the bind pose",
                             yours, out, d);
}

/* ---- 14, 15. the turn angles against theta ---------------------------------------------------- */

enum { TURN_STEPS = 120 };
static const double turn_weights[2] = {0.5, 0.25};
static double turn_theta_deg(int i) { return -360 + 720.0 * i / (TURN_STEPS - 1); }

static void turn_points(grade30_fn f, grade30_picture_data *out)
{
    out->count = 2 * TURN_STEPS, out->drawn = true;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < TURN_STEPS; i++)
            out->yours[k * TURN_STEPS + i].x = f.turn_angle(turn_weights[k], deg_to_rad(turn_theta_deg(i)));
}
void grade30_points_lbs_turn(grade_fn g, const grade30_case *failing, grade30_picture_data *out) { (void)failing; turn_points(grade30_fn_of(g), out); }
void grade30_points_dqs_turn(grade_fn g, const grade30_case *failing, grade30_picture_data *out) { (void)failing; turn_points(grade30_fn_of(g), out); }

/* An angle in degrees within (-180, 180] (the grade takes it up to whole turns). */
static double wrapped_deg(double radians) { return -remainder(-radians, 2 * LAB_PI) * 180 / LAB_PI; }

static lab_error turn_plot(bool dqs, const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    double theta[TURN_STEPS], lab[2][TURN_STEPS], mine[2][TURN_STEPS];
    for (int i = 0; i < TURN_STEPS; i++) {
        theta[i] = turn_theta_deg(i);
        for (int k = 0; k < 2; k++) {
            double t = deg_to_rad(theta[i]), w = turn_weights[k];
            lab[k][i] = wrapped_deg(dqs ? rig30_dqs_twist_angle(w, t) : rig30_lbs_twist_angle(w, t));
            mine[k][i] = yours->drawn ? wrapped_deg(yours->yours[k * TURN_STEPS + i].x) : NAN;
        }
    }
    plot_series s[4] = {
        {theta, lab[0], TURN_STEPS, LABS, 0, 2, "lab, w = 1/2", 0, 0},
        {theta, lab[1], TURN_STEPS, LABS, 6, 2, "lab, w = 1/4", 0, 0},
        {theta, mine[0], TURN_STEPS, YOURS, 0, 1, "yours, 1/2", 0, 0},
        {theta, mine[1], TURN_STEPS, YOURS, 6, 1, "yours, 1/4", 0, 0},
    };
    plot_spec spec = {.title = dqs ? "15. the DQS ring's turn against theta" : "14. the LBS ring's turn against theta",
                      .x_label = "theta (deg)", .y_label = "turn (deg)",
                      .x_min = -360, .x_max = 360, .x_step = 180, .y_min = -180, .y_max = 180, .y_step = 90,
                      .series = s, .series_count = 4};
    return plot_draw(out, W, H, &spec, d);
}
lab_error grade30_draw_lbs_turn(const grade30_picture_data *yours, canvas *out, lab_diag *d) { return turn_plot(false, yours, out, d); }
lab_error grade30_draw_dqs_turn(const grade30_picture_data *yours, canvas *out, lab_diag *d) { return turn_plot(true, yours, out, d); }

/* ---- 22. the shader's cylinder ----------------------------------------------------------------- */

lab_error grade30_draw_shader(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    return grade30_draw_cylinder("22. the lab's palette (CPU)", "yours (GPU, shader)", yours, out, d);
}
