/* lab30-palette.c - Matrix palettes as engines use them (RTR4 vertex blending; Game Engine
 * Architecture 13.5), on chapter 30's cylinder.
 *
 * Concepts: the packed vertex (float32 position and normal, four 16-bit joint indices,
 * three stored weights, the fourth implied); the matrix palette K_j = G_j B_j^-1 rebuilt
 * per frame from cached inverse binds, as float 3x4 rows; merging model-to-world into the
 * palette versus instancing, where many instances share one palette and keep their own
 * model-to-world; the fast kernels (src/fastskin.h) checked against the double path.
 *
 * Usage:  build/bin/lab30-palette [--threads N] [--simd scalar|sse2|avx2] OUTDIR
 *
 * Writes into OUTDIR (which must exist), all or nothing:
 *   palette30.png            a crowd: 20 instances of the twisted cylinder, 5 poses shared
 *                            by 4 instances each, every instance with its own model-to-world
 *   palette30.json           layouts and bytes per vertex, palette sizes, the packed path's
 *                            errors against the double path, the truncation report
 *   palette30-layouts.csv    memory per vertex for the layouts considered
 *
 * The evidence is computed on the portable scalar path, so it is the same on every
 * machine; --simd picks the level for the crowd, and the report checks it against scalar.
 * Exit codes: 0 success, 1 data rejected (an unavailable --simd level), 2 usage, 3 output.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "camera.h"
#include "cli.h"
#include "evidence.h"
#include "fastskin.h"
#include "figure.h"
#include "normals.h"
#include "output.h"
#include "rig30_json.h"
#include "report.h"
#include "rig30.h"
#include "rig30_check.h"

#define LAB "lab30-palette"
#define VERTS (RIG30_RINGS * RIG30_SEGMENTS)
#define POSES 5
#define COPIES 4                        /* instances per pose: 20 in the crowd */
#define INSTANCES (POSES * COPIES)
#define K 4                             /* the engine format: four influences */
#define FLOAT_TOLERANCE 1e-5            /* float32 against double on this unit-sized rig */

static const double pose_deg[POSES] = {0, 45, 90, 135, 180};

/* ---- command line ------------------------------------------------------------------------- */

typedef struct {
    int threads;
    simd_level level;
} options;

/* ---- the computation ------------------------------------------------------------------------ */

typedef struct {
    mat4 skin[RIG30_JOINTS];          /* K_j = G_j B_j^-1 in doubles */
    dualquat dq[RIG30_JOINTS];        /* the same, signed, for DQS */
    palette_matrix pm[RIG30_JOINTS];  /* the float palettes a frame uploads */
    palette_dualquat pd[RIG30_JOINTS];
} frame_palette;

typedef struct {
    rig30_rig rig;
    vec3 bind_normals[VERTS];
    packed_mesh packed;
    packed_report truncation;
    frame_palette frame[POSES];
    double error[2][POSES][2];        /* [method][pose][position, normal]: float vs double */
    float crowd_model[POSES][3 * VERTS];   /* skinned once per pose (shared palette) */
    mat4 world[INSTANCES];
    vec3 crowd_world[INSTANCES][VERTS];
    double instancing_difference;     /* shared palette + own world vs merged palette */
    double level_difference;          /* the chosen level against scalar */
    mesh_edge *edges;
    int edge_count;
} results;

static void results_free(results *r)
{
    packed_mesh_free(&r->packed);
    rig30_rig_free(&r->rig);
    free(r->edges);
}

/* The palette of one frame, from the joints' locals (cached inverse binds). */
static lab_error build_frame(const results *r, double theta, frame_palette *f, lab_diag *d)
{
    scene_node joints[RIG30_JOINTS];
    dualquat local[RIG30_JOINTS];
    mat4 world[RIG30_JOINTS];
    rig30_joints(RIG30_TWIST, theta, joints);
    rig30_joint_dualquats(RIG30_TWIST, theta, local);
    lab_error e = scene_evaluate(joints, RIG30_JOINTS, world, d);
    if (e == LAB_OK)
        e = skin_palette(world, r->rig.inverse_bind, RIG30_JOINTS, f->skin, d);
    if (e == LAB_OK)
        e = skin_palette_dualquats(joints, local, RIG30_JOINTS, r->rig.inverse_bind, f->dq, d);
    palette_from_mat4(f->skin, RIG30_JOINTS, NULL, f->pm);
    palette_from_dualquats(f->dq, RIG30_JOINTS, f->pd);
    return e;
}

/* The double reference for one vertex: position by skin_deform's method, normal as the
 * engine's kernel does it (blended 3x3 for LBS, blended rotation for DQS). */
static void reference_normals(const results *r, const frame_palette *f, skin_method method, vec3 *out)
{
    if (method == SKIN_LBS) {
        normals_skin(r->bind_normals, &r->rig.influences, f->skin, RIG30_JOINTS, NORMALS_RIGID, out, NULL);
        return;
    }
    for (int v = 0; v < VERTS; v++) { /* heaviest first, as packing orders them: the same pivot */
        int joint[2] = {r->rig.influences.joint[2 * v], r->rig.influences.joint[2 * v + 1]};
        double weight[2] = {r->rig.influences.weight[2 * v], r->rig.influences.weight[2 * v + 1]};
        dualquat unit;
        skin_sort_heaviest_first(joint, weight, 2);
        skin_dqs_blend(joint, weight, 2, f->dq, true, &unit, "reference", NULL);
        out[v] = quat_rotate(unit.real, r->bind_normals[v]);
    }
}

/* One pose through both paths, floats on the portable scalar level. */
static lab_error compare_pose(results *r, int pose, skin_method method, lab_diag *d)
{
    const frame_palette *f = &r->frame[pose];
    vec3 ref_p[VERTS], ref_n[VERTS];
    skin_blend blend = {.method = method, .palette_dq = f->dq};
    lab_error e = skin_deform(r->rig.bind.vertices, &r->rig.influences, f->skin, RIG30_JOINTS, blend,
                              ref_p, d);
    float pos[3 * VERTS], nor[3 * VERTS];
    fastskin_job job = {&r->packed, f->pm, f->pd, RIG30_JOINTS, method, true, 1, SIMD_SCALAR, pos, nor};
    if (e == LAB_OK)
        e = fastskin_run(&job, d);
    if (e != LAB_OK)
        return e;
    reference_normals(r, f, method, ref_n);
    for (int v = 0; v < VERTS; v++) {
        vec3 fp = vec3_make(pos[3 * v], pos[3 * v + 1], pos[3 * v + 2]);
        vec3 fn = vec3_make(nor[3 * v], nor[3 * v + 1], nor[3 * v + 2]);
        r->error[method][pose][0] = fmax(r->error[method][pose][0], vec3_length(vec3_sub(fp, ref_p[v])));
        r->error[method][pose][1] = fmax(r->error[method][pose][1], vec3_length(vec3_sub(fn, ref_n[v])));
    }
    if (method == SKIN_LBS)
        memcpy(r->crowd_model[pose], pos, sizeof pos);
    return LAB_OK;
}

/* Instance i: pose i % POSES, placed on a 5 x 4 grid, turned and scaled on its own. */
static mat4 instance_world(int i)
{
    int col = i % POSES, row = i / POSES;
    double yaw = 0.4 * row + 0.15 * col, scale = 0.8 + 0.1 * ((i * 7) % 5);
    return mat4_mul(mat4_mul(mat4_translate(3.2 * col, 3.6 * row, 0), mat4_rotate_z(yaw)),
                    mat4_scale(scale, scale, scale));
}

/* The crowd: one skinning per pose with the chosen level and threads, then each instance's
 * own model-to-world; checked against scalar and against merged palettes. */
static lab_error build_crowd(results *r, const options *o, lab_diag *d)
{
    float fast[3 * VERTS], merged[3 * VERTS];
    lab_error e = LAB_OK;
    for (int pose = 0; e == LAB_OK && pose < POSES; pose++) {
        fastskin_job job = {&r->packed, r->frame[pose].pm, NULL, RIG30_JOINTS, SKIN_LBS, false,
                            o->threads, o->level, fast, NULL};
        e = fastskin_run(&job, d);
        for (int k = 0; e == LAB_OK && k < 3 * VERTS; k++)
            r->level_difference = fmax(r->level_difference, fabs((double)fast[k] - r->crowd_model[pose][k]));
        for (int c = 0; e == LAB_OK && c < COPIES; c++) {
            int i = c * POSES + pose;
            r->world[i] = instance_world(i);
            for (int v = 0; v < VERTS; v++) {
                const float *p = &r->crowd_model[pose][3 * v];
                r->crowd_world[i][v] = mat4_transform_point(r->world[i], vec3_make(p[0], p[1], p[2]));
            }
            palette_matrix pm[RIG30_JOINTS];
            palette_from_mat4(r->frame[pose].skin, RIG30_JOINTS, &r->world[i], pm);
            fastskin_job m = {&r->packed, pm, NULL, RIG30_JOINTS, SKIN_LBS, false, 1, SIMD_SCALAR, merged, NULL};
            e = fastskin_run(&m, d);
            for (int v = 0; e == LAB_OK && v < VERTS; v++)
                r->instancing_difference = fmax(
                    r->instancing_difference,
                    vec3_length(vec3_sub(r->crowd_world[i][v],
                                         vec3_make(merged[3 * v], merged[3 * v + 1], merged[3 * v + 2]))));
        }
    }
    return e;
}

static lab_error compute(const options *o, results *r, lab_diag *d)
{
    if (!simd_level_available(o->level))
        return diag_fail(d, LAB_ERR_UNSUPPORTED, "--simd", "level %s is not available on this CPU",
                         simd_level_name(o->level));
    lab_error e = rig30_rig_build(&r->rig, RIG30_TWIST, NULL, d);
    if (e != LAB_OK)
        return e;
    rig30_bind_normals(&r->rig, r->bind_normals);
    e = packed_mesh_build(r->rig.bind.vertices, r->bind_normals, &r->rig.influences, K, &r->packed,
                          &r->truncation, d);
    for (int pose = 0; e == LAB_OK && pose < POSES; pose++) {
        e = build_frame(r, deg_to_rad(pose_deg[pose]), &r->frame[pose], d);
        for (int m = 0; e == LAB_OK && m < 2; m++)
            e = compare_pose(r, pose, (skin_method)m, d);
    }
    if (e == LAB_OK)
        e = build_crowd(r, o, d);
    const mesh *mesh = &r->rig.bind;
    if (e == LAB_OK)
        e = mesh_unique_edges(mesh->triangles, mesh->triangle_count, &r->edges, &r->edge_count, d);
    return e;
}

/* ---- the figure -------------------------------------------------------------------------- */

static lab_error add_figure(const results *r, output_batch *b, lab_diag *d)
{
    canvas c = {0};
    bool *middle = calloc((size_t)r->edge_count, sizeof *middle);
    lab_error e = middle ? canvas_init(&c, 1100, 640, FIGURE_BACKGROUND, d)
                         : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "figure", "%d edges", r->edge_count);
    if (e != LAB_OK) {
        free(middle);
        return e;
    }
    for (int k = 0; k < r->edge_count; k++)
        middle[k] = r->edges[k].a / RIG30_SEGMENTS == RIG30_MIDDLE_RING &&
                    r->edges[k].b / RIG30_SEGMENTS == RIG30_MIDDLE_RING;
    /* a perspective from the front, above the crowd's near edge: near instances look larger */
    const vec3 eye = {6.4, -14.0, 13.0}, target = {6.6, 5.6, 0.6};
    camera cam = {.viewport = {0, 50, 1100, 590}};
    cam.view = camera_look_at(eye, target, vec3_make(0, 0, 1));
    double dist = vec3_length(vec3_sub(eye, target));
    cam.projection = camera_perspective(0.5, 1100.0 / 590.0, 0.1 * dist, 4.0 * dist);
    for (int i = 0; i < INSTANCES; i++) {
        figure_panel panel = {.positions = r->crowd_world[i], .edges = r->edges,
                              .edge_count = r->edge_count, .highlight = middle};
        figure_draw_panel(&c, &cam, &panel);
    }
    raster_text(&c, 10, 10, FIGURE_TEXT_SCALE,
                "A crowd: 20 instances, 5 shared palettes (twist 0..180), own model-to-world", FIGURE_TEXT);
    free(middle);
    return output_batch_add_image(b, "palette30.png", &c, d);
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

static cJSON *evidence_json(const results *r)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "lab", LAB);
    cJSON_AddItemToObject(root, "conventions", json_conventions());
    cJSON *packed = cJSON_AddObjectToObject(root, "packed_vertex");
    cJSON_AddNumberToObject(packed, "influences", K);
    cJSON_AddNumberToObject(packed, "bytes_per_vertex", (double)packed_bytes_per_vertex(K, 1));
    cJSON_AddNumberToObject(packed, "bytes_per_vertex_positions_only", (double)packed_bytes_per_vertex(K, 0));
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
    cJSON *errors = cJSON_AddArrayToObject(root, "errors");
    for (int m = 0; m < 2; m++)
        for (int p = 0; p < POSES; p++) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "method", skin_method_name((skin_method)m));
            json_add_number(o, "theta_deg", pose_deg[p]);
            json_add_number(o, "max_position_error", r->error[m][p][0]);
            json_add_number(o, "max_normal_error", r->error[m][p][1]);
            cJSON_AddItemToArray(errors, o);
        }
    cJSON *t = cJSON_AddObjectToObject(root, "truncation");
    cJSON_AddNumberToObject(t, "truncated_vertices", r->truncation.truncated_vertices);
    json_add_number(t, "largest_dropped_weight", r->truncation.largest_dropped_weight);
    cJSON_AddNumberToObject(t, "largest_dropped_vertex", r->truncation.largest_dropped_vertex);
    cJSON *inst = cJSON_AddObjectToObject(root, "instancing");
    cJSON_AddNumberToObject(inst, "instances", INSTANCES);
    cJSON_AddNumberToObject(inst, "palettes", POSES);
    json_add_number(inst, "max_difference_vs_merged_palette", r->instancing_difference);
    cJSON_AddItemToObject(inst, "model_to_world", json_mat4_array(r->world, INSTANCES));
    return root;
}

static lab_error add_evidence(const results *r, output_batch *b, lab_diag *d)
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

static bool print_report(const results *r, const options *o)
{
    bool ok = true;
    printf("Matrix palettes as engines use them: the cylinder through packed float32 vertices\n");
    report_heading(stdout, "1. Layouts: bytes per vertex");
    for (int i = 0; i < LAYOUTS; i++)
        printf("  %-24s %3d  %s\n", layouts[i].layout, layouts[i].bytes, layouts[i].fields);
    printf("  palette: %d joints x %zu bytes (float 3x4 rows) = %zu bytes per frame; dual quaternions %zu bytes each\n",
           RIG30_JOINTS, sizeof(palette_matrix), RIG30_JOINTS * sizeof(palette_matrix), sizeof(palette_dualquat));
    printf("  packing the cylinder to 4 influences: %d vertices truncated\n", r->truncation.truncated_vertices);
    report_heading(stdout, "2. Packed float path (scalar level) against the double path");
    for (int m = 0; m < 2; m++)
        for (int p = 0; p < POSES; p++) {
            char label[64];
            snprintf(label, sizeof label, "%s %3g deg position", skin_method_name((skin_method)m), pose_deg[p]);
            ok &= report_bound(stdout, label, r->error[m][p][0], FLOAT_TOLERANCE);
            snprintf(label, sizeof label, "%s %3g deg normal", skin_method_name((skin_method)m), pose_deg[p]);
            ok &= report_bound(stdout, label, r->error[m][p][1], FLOAT_TOLERANCE);
        }
    report_heading(stdout, "3. The crowd: instancing against merged palettes, and the kernel level");
    ok &= report_bound(stdout, "shared palette + own world vs W K_j", r->instancing_difference, FLOAT_TOLERANCE);
    char label[64];
    snprintf(label, sizeof label, "%s, %d threads vs scalar", simd_level_name(o->level), o->threads);
    ok &= report_bound(stdout, label, r->level_difference, FLOAT_TOLERANCE);
    printf("  %d instances share %d palettes (%d x %zu bytes per frame instead of %d x %zu)\n", INSTANCES,
           POSES, POSES, RIG30_JOINTS * sizeof(palette_matrix), INSTANCES, RIG30_JOINTS * sizeof(palette_matrix));
    printf("\n%s\n", ok ? "All checks passed." : "SOME CHECKS FAILED.");
    return ok;
}

static int parse_options(int argc, char **argv, options *o, const char **outdir)
{
    static const char *const levels[] = {"scalar", "sse2", "avx2", NULL}; /* simd_level order */
    *o = (options){2, simd_best_level()};
    int level = (int)o->level;
    const cli_option table[] = {
        {"--threads", CLI_INT, &o->threads, .min = 1, .max = FASTSKIN_MAX_THREADS, .value_name = "N",
         .help = "worker threads for the crowd (default 2)"},
        {"--simd", CLI_CHOICE, &level, .choices = levels,
         .help = "kernel level for the crowd (default: the best available)"},
    };
    const cli_program program = {LAB, "Matrix palettes: chapter 30's cylinder in the engine's packed float format.",
                                 table, 2, {"OUTDIR"}, 1, NULL};
    int code = cli_start(&program, argc, argv, outdir);
    o->level = (simd_level)level;
    return code;
}

int main(int argc, char **argv)
{
    options opt;
    const char *outdir;
    int code = parse_options(argc, argv, &opt, &outdir);
    if (code != CLI_RUN)
        return code;
    lab_diag d = {0};
    results *r = calloc(1, sizeof *r);
    if (!r)
        return CLI_EXIT_REJECTED;
    lab_error e = compute(&opt, r, &d);
    if (e != LAB_OK) {
        results_free(r);
        free(r);
        return cli_fail(LAB, &d, CLI_EXIT_REJECTED);
    }
    output_batch batch = {0};
    e = add_figure(r, &batch, &d);
    if (e == LAB_OK)
        e = add_evidence(r, &batch, &d);
    bool ok = print_report(r, &opt);
    code = cli_finish(LAB, &batch, e, &d, ok, outdir);
    results_free(r);
    free(r);
    return code;
}
