/* gpu30.h - lab30-gpu's state, evidence (gpu30.json) and report. */
#ifndef GPU30_H
#define GPU30_H

#include <stdbool.h>
#include <stdio.h>

#include "gpu/gpu_skin.h"
#include "base/report.h"
#include "program/output.h"
#include "rig30.h"
#include "skin/rig_random.h"

#define GPU30_TWIST_POSES 5        /* the palette lab's crowd: twists 0, 45, 90, 135, 180 */
#define GPU30_BEND_POSES 2         /* the bend at 90 and 135 */
#define GPU30_CASES (GPU30_TWIST_POSES + GPU30_BEND_POSES + 1) /* + the random rig */
#define GPU30_RANDOM_VERTICES 4096
#define GPU30_RANDOM_JOINTS 64
#define GPU30_BIG_VERTICES 1024    /* a skeleton larger than any uniform block here */
#define GPU30_BIG_JOINTS 2000
#define GPU30_MAX_JOINTS GPU30_BIG_JOINTS
#define GPU30_DEFAULT_BUDGET 16    /* the split's per-draw joints */
#define GPU30_FLOAT_BOUND 1e-6     /* |GPU - CPU float|, positions */
#define GPU30_DOUBLE_BOUND 1e-5    /* |GPU - CPU double|, positions */
#define GPU30_NORMAL_BOUND 1e-5    /* angle between GPU and CPU float normals, radians */
extern const double gpu30_twist_deg[GPU30_TWIST_POSES];
extern const double gpu30_bend_deg[GPU30_BEND_POSES];

typedef enum { GPU30_TWIST = 0, GPU30_BEND, GPU30_RANDOM, GPU30_BIG, GPU30_RIGS } gpu30_rig;
const char *gpu30_rig_name(gpu30_rig rig);

typedef enum { GPU30_VS_FLOAT = 0, GPU30_VS_DOUBLE, GPU30_NORMAL_ANGLE, GPU30_MEASURES } gpu30_measure;

typedef struct {
    gpu30_rig rig;
    double angle_deg;                            /* the pose (random rig: 0, its own palette) */
    double error[GPU_PATH_COUNT][2][GPU30_MEASURES]; /* [path][method][measure] */
} gpu30_case;

/* One rig on both sides: the double data, the packed floats, and the uploaded meshes. */
typedef struct {
    int vertex_count, joint_count;
    const vec3 *bind;                /* points into the rig30 or random rig */
    const skin_influences *influences;
    const vec3 *normals;             /* cylinder_normals, or the random rig's */
    packed_mesh packed;
    gpu_mesh *whole, *split;         /* one draw; split by the joint budget */
} gpu30_mesh;

#define GPU30_FIGURE_VERTICES (RIG30_RINGS * RIG30_SEGMENTS)

/* What the GPU work measures. It runs in a child process, where a driver that aborts or
 * crashes cannot take the program with it; the child sends this struct back whole. */
typedef struct {
    gpu_info info;
    int uniform_joints[2], texture_joints[2]; /* [method]: the palette one draw holds, each way */
    gpu30_case cases[GPU30_CASES];
    /* when the palette does not fit a uniform block */
    int split_parts[2];                      /* random and big rig, split by the budget */
    double split_difference[2][2];           /* [random, big][method]: split vs one draw (texture on big) */
    gpu_path split_path[2];                  /* the split's draws: uniform blocks while its parts fit */
    double fallback_difference[2];           /* [method]: texture vs uniform, random rig */
    double big_vs_float[2];                  /* [method]: big rig, texture path vs CPU float */
    lab_error refused_budget, refused_uniform;
    lab_diag refused_budget_diag, refused_uniform_diag;
    /* the figure: twist 180 and bend 90 by LBS, CPU double then the three GPU paths */
    vec3 figure[2][1 + GPU_PATH_COUNT][GPU30_FIGURE_VERTICES];
} gpu30_measured;

/* Each report section's checks, decided where the numbers are made (lab30-gpu.c). */
typedef struct {
    report_checks paths, fit;
} gpu30_checks;

/* What lab30-gpu.c's stages made; the figure, the evidence and the report read it. */
typedef struct {
    int joint_budget;                /* --joint-budget */
    rig30_rig rigs[2];
    mesh_edge *edges;
    int edge_count;
    rig_random random, big;
    vec3 *cylinder_normals[2];       /* each chapter rig's radial bind normals */
    gpu30_mesh mesh[GPU30_RIGS];
    gpu30_measured measured;         /* on the GPU, in a child process (lab30-gpu.c) */
    gpu30_checks checks;
} gpu30;

/* The scratch of one case: the CPU double and float results, the GPU's, and the palettes
 * in doubles and as the kernels and shaders take them. */
typedef struct {
    vec3 *cpu_double;
    float *cpu_p, *cpu_n, *gpu_p, *gpu_n;
    mat4 *skin;
    dualquat *dq;
    palette_matrix *pm;
    palette_columns *pc;
    palette_dualquat *pd;
} gpu30_buffers;
lab_error gpu30_buffers_alloc(int vertices, int joints, gpu30_buffers *b, lab_diag *d);
void gpu30_buffers_free(gpu30_buffers *b);
/* The float palettes of b->skin and b->dq (joints entries). */
void gpu30_buffers_palettes(gpu30_buffers *b, int joints);

/* gpu30.png: the twist at 180 and the bend at 90 by LBS, the CPU double result and each
 * GPU path (gpu30_figures.c). */
lab_error gpu30_figure(const gpu30 *r, output_batch *out, lab_diag *d);
/* gpu30.json (gpu30_record.c); blend names the GLSL of the blend the shaders ran. */
lab_error gpu30_evidence(const gpu30 *r, const char *blend, output_batch *out, lab_diag *d);
/* The report's bodies (lab30-gpu.c prints the headings): tables, and the rows of the
 * checks its stages decided. */
void gpu30_report_renderer(const gpu30 *r, FILE *out);
void gpu30_report_paths(const gpu30 *r, FILE *out);
void gpu30_report_fit(const gpu30 *r, FILE *out);
/* Frees what the stages allocated in r. */
void gpu30_free(gpu30 *r);

/* gpu30_measured.c: inside the GPU child, the split, the fallback and the refusals into
 * r->measured; then, in the parent, every measured value's check. */
/* RTR4's model splitting and the texture fallback on the random 64-joint rig with a
 * per-draw budget; on the 2000-joint skeleton the uniform path without a split is refused,
 * naming the limit, and the texture path and the split serve it; a budget below four
 * joints is refused. */
lab_error gpu30_split_oversized_palettes(gpu30 *r, gpu_skinner *skinner, lab_diag *d);
/* The checks of what the GPU measured: every case, path and method against the CPU float
 * and double paths and by the normal's angle; then the split, the fallback and the big
 * skeleton against one draw and the CPU; then the two refusals (a palette over a uniform
 * block, a budget under four joints). */
void gpu30_check_measured(const gpu30 *r, report_checks *paths, report_checks *fit);

#endif
