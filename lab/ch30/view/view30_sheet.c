/* view30_sheet.c - the student's sheet, watched (view30_sheet.h), through the grader's
 * engine (src/grade/): rebuilt into a shared object on its own when it is saved (build.h:
 * no shell, the compiler limited), its skinning of the cylinder run in the engine's limited
 * child (sandbox.h: the parent's deadline, the whole process group killed, nobody when
 * root), and graded by the chapter's grader (make grade30, run from an argument vector
 * under a deadline), one line an exercise. */
#define _XOPEN_SOURCE 700 /* nftw, mkdtemp */
#include <dlfcn.h>
#include <fcntl.h>
#include <ftw.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/bytes.h"
#include "base/diag.h"
#include "base/text.h"
#include "draw/png_decode.h"
#include "grade/build.h"
#include "grade/ended.h"
#include "grade/sandbox.h"
#include "math/linalg.h"
#include "math/dualquat.h"
#include "mesh/scene.h"
#include "skin/blend.h"

#include "exercises30.h"
#include "gltf/gltf.h"
#include "rig30_fixes.h"
#include "view30_sheet.h"

#define VERTS (RIG30_RINGS * RIG30_SEGMENTS)
#define GRADE30_VIEW_VERTICES 240 /* exercise 10's vertices, at most (exercises30.h) */

/* The build's compiler, folder and make variables (the Makefile's view rules). */
#ifndef VIEW30_CC
#define VIEW30_CC "cc"
#endif
#ifndef VIEW30_BUILD
#define VIEW30_BUILD "build"
#endif
#ifndef VIEW30_MAKE_VARIABLES
#define VIEW30_MAKE_VARIABLES ""
#endif


bool view30_sheet_init(view30_sheet *w, const char *path)
{
    *w = (view30_sheet){.path = path};
    /* a folder of this run's own, so that two windows never share a shared object */
    snprintf(w->dir, sizeof w->dir, "%s/view30", VIEW30_BUILD);
    if (mkdir(VIEW30_BUILD, 0777) != 0 && errno != EEXIST)
        return false;
    if (mkdir(w->dir, 0777) != 0 && errno != EEXIST)
        return false;
    snprintf(w->dir, sizeof w->dir, "%s/view30/run-XXXXXX", VIEW30_BUILD);
    return mkdtemp(w->dir) != NULL;
}

bool view30_sheet_changed(view30_sheet *w)
{
    struct stat st;
    if (stat(w->path, &st) != 0)
        return false; /* an editor may remove and rename: the next poll sees the new file */
    bool changed = st.st_mtim.tv_sec != w->seen_sec || st.st_mtim.tv_nsec != w->seen_nsec || st.st_size != w->seen_size;
    w->seen_sec = st.st_mtim.tv_sec, w->seen_nsec = st.st_mtim.tv_nsec, w->seen_size = st.st_size;
    return changed;
}

/* The compiler's first error, or the first line of the grader's output, as the panel draws it. */
static void first_error(const char *log, char *out, size_t size)
{
    char line[VIEW30_LINE];
    grade_first_error(log, line, sizeof line);
    text_printable(out, size, line);
}

bool view30_sheet_build(view30_sheet *w, view30_student *s)
{
    size_t n = strlen(w->path);
    if (n < 2 || strcmp(w->path + n - 2, ".c") != 0) { /* the shader's sheet: the grader runs it on the GPU */
        s->loaded = true, s->grade_stale = true, s->line_count = 0;
        w->generation++, w->have_so = false;
        snprintf(s->status, sizeof s->status, "version %d", w->generation);
        snprintf(s->how, sizeof s->how, "a shader: graded, not drawn");
        return true;
    }
    /* the grader's rule: the lab's warnings, shown but not fatal */
    static const char *const headers[] = {"lab/ch30/exercises30.h", "src/math/linalg.h", "src/math/quat.h",
                                          "src/math/dualquat.h", NULL};
    static grade_build b;
    grade_build_result result;
    lab_diag d = {0};
    lab_error e = grade_build_shared(&(grade_build_request){VIEW30_CC " -std=c11 -Wall -Wextra -Wpedantic -O1 -g -Isrc -Ilab/ch30",
                                                            w->path, w->dir, "sheet", headers, 60},
                                     &b, &result, &d);
    s->loaded = true;
    if (e != LAB_OK || result != GRADE_BUILD_OK) { /* keep the last version that compiled */
        snprintf(s->status, sizeof s->status, "no compile: last good one");
        s->line_count = 1;
        if (e != LAB_OK)
            diag_format(&d, s->lines[0], sizeof s->lines[0]);
        else
            text_printable(s->lines[0], sizeof s->lines[0], b.first_error);
        s->grade_stale = true;
        return false;
    }
    if (!b.reused || !w->have_so)
        w->generation++;
    snprintf(w->so, sizeof w->so, "%s", b.object);
    w->have_so = true;
    snprintf(s->status, sizeof s->status, "version %d", w->generation);
    s->line_count = 0;
    s->grade_stale = true;
    return true;
}

/* ---- the student's skinning, in a child with a deadline ---------------------------------- */

/* What the child is given: the sheet, the method, the rig of the selected weights at the
 * angle, and what the lab prepares for the method's exercise (its per-vertex inputs). */
typedef struct {
    int object_fd;                   /* the sheet's shared object, open */
    view30_method method;
    const rig30_rig *rig;
    double theta;
    mat4 palette[RIG30_JOINTS];      /* the lab's C_j = G_j B_j^-1 */
    dualquat dq[RIG30_JOINTS];       /* and as unit dual quaternions */
    const quat *rotation;            /* CoR, corrective after: each vertex's blended rotation */
    const vec3 *bind_normals;        /* the cylinder's, radial: exercise 16's input */
    const vec3 *centres, *deltas;    /* CoR's p*; the corrective shape's d */
    double s;                        /* the corrective shape's weight, theta / trained */
} skin_request;

typedef struct {
    grade_shared_head head;
    bool done, not_written;
    bool shaded;                     /* out holds exercise 16's normals of the lab's LBS */
    char error[VIEW30_LINE];         /* the sheet could not be opened */
    char how[VIEW30_LINE];           /* "by exercises 1-3", or why none */
    bool drawn;
    vec3 out[VERTS];
} skin_record;

typedef mat4 (*world_fn)(mat4, mat4);
typedef mat4 (*skin_fn)(mat4, mat4);
typedef vec3 (*lbs_fn)(vec3, const int *, const double *, int, const mat4 *);
typedef void (*mesh_fn)(const ex30_skin *, vec3 *);
typedef dualquat (*blend_fn)(const dualquat *, const double *, int);
typedef dualquat (*rigid_fn)(quat, vec3);
typedef bool (*normalize_fn)(dualquat, dualquat *);
typedef vec3 (*transform_fn)(dualquat, vec3);
typedef vec3 (*cor_fn)(vec3, vec3, quat, const int *, const double *, int, const mat4 *);
typedef vec3 (*corrective_fn)(vec3, vec3, double, mat4, quat, bool);
typedef vec3 (*normal_fn)(vec3, const int *, const double *, int, const mat4 *, ex30_normal_method);

/* The sheet's function called name, or NULL (a function's address, as the loader gives it). */
static void *function(void *h, const char *name) { return dlsym(h, name); }

/* LBS: the chapter's chain by exercises 1 to 3 (G_1 = G_0 L_1, C_j = G_j B_j^-1, p' = sum_j
 * w_j C_j p), or the whole loop of exercise 10. */
static bool lbs(void *h, const skin_request *q, skin_record *r)
{
    world_fn world = (world_fn)(uintptr_t)function(h, "ex30_world_matrix");
    skin_fn skin = (skin_fn)(uintptr_t)function(h, "ex30_skin_matrix");
    lbs_fn blend = (lbs_fn)(uintptr_t)function(h, "ex30_lbs_point");
    mesh_fn mesh = (mesh_fn)(uintptr_t)function(h, "ex30_skin_mesh");
    scene_node joints[RIG30_JOINTS];
    rig30_joints(RIG30_TWIST, q->theta, joints);
    const skin_influences *in = &q->rig->influences;
    const int K = in->per_vertex;
    if (world && skin && blend) {
        snprintf(r->how, sizeof r->how, "by exercises 1-3");
        mat4 G[RIG30_JOINTS], C[RIG30_JOINTS];
        G[0] = joints[0].local;
        G[1] = world(G[0], joints[1].local);
        for (int j = 0; j < RIG30_JOINTS; j++)
            C[j] = skin(G[j], q->rig->inverse_bind[j]);
        for (int v = 0; v < VERTS; v++)
            r->out[v] = blend(q->rig->bind.vertices[v], in->joint + v * K, in->weight + v * K, K, C);
        return true;
    }
    if (mesh && K <= 4) { /* the rig as one glTF skin: four influences a vertex, the rest 0 */
        snprintf(r->how, sizeof r->how, "by exercise 10");
        static int vj[4 * VERTS];
        static double vw[4 * VERTS];
        int parent[RIG30_JOINTS], slots[RIG30_JOINTS];
        mat4 local[RIG30_JOINTS];
        for (int j = 0; j < RIG30_JOINTS; j++)
            parent[j] = joints[j].parent, local[j] = joints[j].local, slots[j] = j;
        for (int v = 0; v < VERTS; v++)
            for (int s = 0; s < 4; s++)
                vj[4 * v + s] = s < K ? in->joint[K * v + s] : 0, vw[4 * v + s] = s < K ? in->weight[K * v + s] : 0;
        const ex30_skin rig = {RIG30_JOINTS, parent, local, RIG30_JOINTS, slots, q->rig->inverse_bind, VERTS,
                               q->rig->bind.vertices, vj, vw};
        mesh(&rig, r->out);
        return true;
    }
    normal_fn normal = (normal_fn)(uintptr_t)function(h, "ex30_skin_normal");
    if (normal) { /* the normals sheet: the lab's LBS, lit by your normals (the blended way) */
        snprintf(r->how, sizeof r->how, "lit by exercise 16");
        for (int v = 0; v < VERTS; v++)
            r->out[v] = normal(q->bind_normals[v], in->joint + v * K, in->weight + v * K, K, q->palette,
                               EX30_NORMAL_BLENDED);
        r->shaded = true;
        return true;
    }
    snprintf(r->how, sizeof r->how, "not on this sheet");
    return false;
}

/* DQS: exercise 6's blend (normalised and applied by the lab), or exercises 11 to 13 (each
 * joint's dual quaternion, the normalisation and the transform; the lab's blend). */
static bool dqs(void *h, const skin_request *q, skin_record *r)
{
    blend_fn blend = (blend_fn)(uintptr_t)function(h, "ex30_dqs_blend");
    rigid_fn rigid = (rigid_fn)(uintptr_t)function(h, "ex30_dq_from_rigid");
    normalize_fn normalize = (normalize_fn)(uintptr_t)function(h, "ex30_dq_normalize");
    transform_fn transform = (transform_fn)(uintptr_t)function(h, "ex30_dq_transform_point");
    const skin_influences *in = &q->rig->influences;
    const int K = in->per_vertex;
    dualquat joint[RIG30_JOINTS];
    bool own = !blend && rigid && normalize && transform;
    if (!blend && !own) {
        snprintf(r->how, sizeof r->how, "not on this sheet");
        return false;
    }
    snprintf(r->how, sizeof r->how, own ? "by exercises 11-13" : "by exercise 6");
    for (int j = 0; own && j < RIG30_JOINTS; j++)
        joint[j] = rigid(q->dq[j].real, vec3_make(q->palette[j].m[0][3], q->palette[j].m[1][3], q->palette[j].m[2][3]));
    for (int v = 0; v < VERTS; v++) {
        dualquat each[RIG30_JOINTS + 8], b, n;
        for (int i = 0; i < K && i < RIG30_JOINTS + 8; i++)
            each[i] = (own ? joint : q->dq)[in->joint[v * K + i]];
        b = own ? dualquat_blend(each, in->weight + v * K, K, true) : blend(each, in->weight + v * K, K);
        bool kept = own ? normalize(b, &n) : dualquat_normalize(b, &n, "your blend", NULL) == LAB_OK;
        r->out[v] = !kept ? vec3_make(NAN, NAN, NAN) : own ? transform(n, q->rig->bind.vertices[v])
                                                           : dualquat_transform_point(n, q->rig->bind.vertices[v]);
    }
    return true;
}

/* CoR and the corrective shape: exercises 23 and 24, vertex by vertex, on the lab's inputs. */
static bool fixes(void *h, const skin_request *q, skin_record *r)
{
    const skin_influences *in = &q->rig->influences;
    const int K = in->per_vertex;
    if (q->method == VIEW30_COR) {
        cor_fn cor = (cor_fn)(uintptr_t)function(h, "ex30_cor_point");
        snprintf(r->how, sizeof r->how, cor ? "by exercise 23" : "not on this sheet");
        for (int v = 0; cor && v < VERTS; v++)
            r->out[v] = cor(q->rig->bind.vertices[v], q->centres[v], q->rotation[v], in->joint + v * K,
                            in->weight + v * K, K, q->palette);
        return cor != NULL;
    }
    corrective_fn corrective = (corrective_fn)(uintptr_t)function(h, "ex30_corrective_point");
    snprintf(r->how, sizeof r->how, corrective ? "by exercise 24" : "not on this sheet");
    for (int v = 0; corrective && v < VERTS; v++)
        r->out[v] = corrective(q->rig->bind.vertices[v], q->deltas[v], q->s,
                               skin_blend_matrix(in->joint + v * K, in->weight + v * K, K, q->palette), q->rotation[v],
                               q->method == VIEW30_CORRECTIVE_AFTER);
    return corrective != NULL;
}

/* In the engine's child: the sheet's exercises for the method skin the twist rig. An endless
 * loop ends at the parent's deadline. */
static void skin_job(void *arg, grade_shared_head *head)
{
    const skin_request *q = arg;
    skin_record *r = (skin_record *)head;
    void *h = grade_object_open(q->object_fd, r->error, sizeof r->error);
    if (!h) {
        r->done = true;
        return;
    }
    grade_sandbox_seal(); /* the sheet is open: no file more */
    grade_not_written = false;
    switch (q->method) {
    case VIEW30_LBS: r->drawn = lbs(h, q, r); break;
    case VIEW30_DQS: r->drawn = dqs(h, q, r); break;
    case VIEW30_COR:
    case VIEW30_CORRECTIVE_BEFORE:
    case VIEW30_CORRECTIVE_AFTER: r->drawn = fixes(h, q, r); break;
    default: snprintf(r->how, sizeof r->how, "no exercise for it");
    }
    r->not_written = grade_not_written;
    r->done = grade_in_child();
}

/* The lab's inputs to the method's exercise at the state. */
static lab_error prepare(const view30_scene *scene, const view30_state *st, skin_request *q, quat *rotation,
                         lab_diag *d)
{
    q->method = st->method, q->rig = &scene->rigs[st->weights][RIG30_TWIST], q->theta = deg_to_rad(st->twist_deg);
    q->centres = scene->centres[st->weights][RIG30_TWIST];
    rig30_order order = st->method == VIEW30_CORRECTIVE_BEFORE ? FIXES30_BEFORE_SKINNING : FIXES30_AFTER_SKINNING;
    q->deltas = scene->deltas[order][st->weights][RIG30_TWIST];
    q->s = q->theta / rig30_trained_angle(RIG30_TWIST);
    q->rotation = rotation;
    static vec3 bind_normals[VERTS];
    rig30_bind_normals(q->rig, bind_normals);
    q->bind_normals = bind_normals;
    lab_error e = rig30_palettes(q->rig, q->theta, q->palette, q->dq, d);
    for (int v = 0; e == LAB_OK && v < VERTS; v++)
        e = rig30_blended_rotation(&q->rig->influences, v, q->dq, &rotation[v], d);
    return e;
}

void view30_sheet_skin(const view30_sheet *w, const view30_scene *scene, const view30_state *st, view30_student *s)
{
    s->positions_deg = st->twist_deg, s->positions_method = st->method, s->positions_weights = st->weights;
    s->has_positions = false;
    if (!w->have_so) /* nothing compiled yet, or the shader's sheet (s->how says so) */
        return;
    int fd = open(w->so, O_RDONLY);
    skin_record *r = fd < 0 ? NULL : (skin_record *)grade_shared_new(sizeof *r);
    static quat rotation[VERTS];
    skin_request q = {.object_fd = fd};
    lab_diag d = {0};
    lab_error e = r ? prepare(scene, st, &q, rotation, &d) : LAB_OK;
    if (!r || e != LAB_OK) {
        snprintf(s->status, sizeof s->status, "did not run: see stderr");
        char how[400];
        diag_format(&d, how, sizeof how);
        fprintf(stderr, "view30: your skinning: %s: %s\n", w->so, fd < 0 ? strerror(errno) : r ? how : "no shared memory");
        if (fd >= 0)
            close(fd);
        if (r)
            grade_shared_free(&r->head, sizeof *r);
        return;
    }
    grade_limits limits = grade_limits_default(VIEW30_SHEET_DEADLINE_S);
    static grade_end end;
    e = grade_sandbox_run("your skinning", &limits, skin_job, &q, &r->head, &end, &d);
    close(fd);
    char how[400];
    snprintf(s->how, sizeof s->how, "%s", r->how[0] ? r->how : "yours");
    if (e != LAB_OK) {
        snprintf(s->status, sizeof s->status, "did not run: see stderr");
        diag_format(&d, how, sizeof how);
        fprintf(stderr, "view30: your skinning: %s\n", how);
    } else if (r->done && r->error[0]) {
        snprintf(s->status, sizeof s->status, "did not run: see stderr");
        fprintf(stderr, "view30: your skinning: the sheet %s\n", r->error);
    } else if (r->done && r->not_written) {
        snprintf(s->status, sizeof s->status, "not written yet");
    } else if (r->done) {
        s->shaded = r->shaded;
        if (r->shaded) { /* the lab's LBS, your normals */
            memcpy(s->normals, r->out, sizeof r->out);
            e = view30_skin(scene, &(view30_state){st->twist_deg, 0, VIEW30_LBS, st->weights}, RIG30_TWIST,
                            s->positions, NULL, &d);
        } else {
            memcpy(s->positions, r->out, sizeof r->out);
        }
        s->has_positions = r->drawn && e == LAB_OK;
        snprintf(s->status, sizeof s->status, "version %d", w->generation);
    } else { /* the child did not finish: the engine's words for how it ended */
        grade_ending ending = grade_ended(&r->head, &end, w->path, how, sizeof how);
        if (ending == GRADE_ENDED_TOO_SLOW)
            snprintf(s->status, sizeof s->status, "stopped at %d s: a loop?", VIEW30_SHEET_DEADLINE_S);
        else if (ending == GRADE_ENDED_FORBIDDEN) /* "it called kill" */
            snprintf(s->status, sizeof s->status, "stopped: %.60s", how);
        else if (ending == GRADE_ENDED_CRASHED && WIFSIGNALED(end.status))
            snprintf(s->status, sizeof s->status, "crashed: signal %d", WTERMSIG(end.status));
        else if (ending == GRADE_ENDED_CRASHED)
            snprintf(s->status, sizeof s->status, "ended: exit status %d", WIFEXITED(end.status) ? WEXITSTATUS(end.status) : 0);
        else
            snprintf(s->status, sizeof s->status, "ended: see stderr");
        fprintf(stderr, "view30: your skinning: %s\n", how);
    }
    grade_shared_free(&r->head, sizeof *r);
}

/* ---- your whole loop over an asset (exercise 10) ------------------------------------------ */

/* One skinned part as exercise 10 takes it: the nodes parents first, the skin's joints and
 * inverse binds, the bind positions with four influences each (the rest 0). */
typedef struct {
    int part;
    ex30_skin skin;
    int parent[EX30_MAX_NODES], skin_joints[EX30_MAX_NODES];
    mat4 local[EX30_MAX_NODES];
    gltf_skin_input in;
    int *joints;
    double *weights;
} asset_part;

typedef struct {
    int object_fd;
    const asset_part *parts;
    int count;
} asset_request;

typedef struct {
    grade_shared_head head;
    bool done, not_written, has_loop;
    char error[VIEW30_LINE];
    vec3 out[];                      /* every part's vertices, one part after another */
} asset_record;

static void asset_job(void *arg, grade_shared_head *head)
{
    const asset_request *q = arg;
    asset_record *r = (asset_record *)head;
    void *h = grade_object_open(q->object_fd, r->error, sizeof r->error);
    if (!h) {
        r->done = true;
        return;
    }
    grade_sandbox_seal();
    mesh_fn mesh = (mesh_fn)(uintptr_t)function(h, "ex30_skin_mesh");
    r->has_loop = mesh != NULL;
    grade_not_written = false;
    vec3 *out = r->out;
    for (int k = 0; mesh && k < q->count; k++) {
        mesh(&q->parts[k].skin, out);
        out += q->parts[k].skin.vertex_count;
    }
    r->not_written = grade_not_written;
    r->done = grade_in_child();
}

/* The part's input for exercise 10, or false (why into words) where the asset is outside
 * the exercise's limits: 16 nodes, 16 joints, 240 vertices, four influences a vertex. */
static bool asset_input(const view30_asset *a, int part, const mat4 *locals, asset_part *q, char *words, size_t size)
{
    const gltf_document *doc = &a->doc;
    const view30_part *p = &a->parts[part];
    lab_diag d = {0};
    *q = (asset_part){.part = part};
    if (doc->node_count > EX30_MAX_NODES || p->vertex_count > GRADE30_VIEW_VERTICES)
        return snprintf(words, size, "too large for exercise 10"), false;
    if (gltf_skin_input_read(doc, p->node, p->primitive, NULL, SKIN_POLICY_STRICT, &q->in, &d) != LAB_OK)
        return snprintf(words, size, "its skin cannot be read"), false;
    if (q->in.joint_count > EX30_MAX_NODES || q->in.influences.per_vertex > 4 || q->in.vertex_count < 1)
        return gltf_skin_input_free(&q->in), snprintf(words, size, "too large for exercise 10"), false;
    /* the nodes parents first: a node after its parent, in the document's order otherwise */
    int order[EX30_MAX_NODES], at[EX30_MAX_NODES], n = 0;
    for (int i = 0; i < doc->node_count; i++)
        at[i] = -1;
    while (n < doc->node_count)
        for (int i = 0; i < doc->node_count; i++)
            if (at[i] < 0 && (doc->nodes[i].parent < 0 || at[doc->nodes[i].parent] >= 0))
                at[i] = n, order[n++] = i;
    for (int k = 0; k < n; k++)
        q->parent[k] = doc->nodes[order[k]].parent < 0 ? -1 : at[doc->nodes[order[k]].parent],
        q->local[k] = locals[order[k]];
    for (int j = 0; j < q->in.joint_count; j++)
        q->skin_joints[j] = at[q->in.joints[j]];
    int v = q->in.vertex_count, K = q->in.influences.per_vertex;
    q->joints = calloc(4 * (size_t)v, sizeof *q->joints), q->weights = calloc(4 * (size_t)v, sizeof *q->weights);
    if (!q->joints || !q->weights) {
        free(q->joints), free(q->weights), gltf_skin_input_free(&q->in);
        return snprintf(words, size, "no memory"), false;
    }
    for (int i = 0; i < v; i++)
        for (int s = 0; s < K; s++)
            q->joints[4 * i + s] = q->in.influences.joint[K * i + s], q->weights[4 * i + s] = q->in.influences.weight[K * i + s];
    q->skin = (ex30_skin){n, q->parent, q->local, q->in.joint_count, q->skin_joints, q->in.inverse_bind, v, q->in.bind,
                          q->joints, q->weights};
    return true;
}

void view30_sheet_skin_asset(const view30_sheet *w, view30_asset *a, double t)
{
    for (int p = 0; p < a->part_count; p++)
        free(a->yours[p]), a->yours[p] = NULL;
    snprintf(a->yours_words, sizeof a->yours_words, "%s", w->have_so ? "nothing skinned" : "no version compiled");
    if (!w->have_so)
        return;
    int n = a->doc.node_count;
    mat4 *locals = malloc(sizeof(mat4) * (size_t)(n ? n : 1));
    asset_part *parts = calloc((size_t)(a->part_count ? a->part_count : 1), sizeof *parts);
    lab_diag d = {0};
    int count = 0, vertices = 0;
    if (!locals || !parts || gltf_sample_locals(&a->doc, a->clip, t, locals, &d) != LAB_OK)
        snprintf(a->yours_words, sizeof a->yours_words, "the pose cannot be sampled");
    else
        for (int p = 0; p < a->part_count; p++)
            if (a->parts[p].skinned && asset_input(a, p, locals, &parts[count], a->yours_words, sizeof a->yours_words))
                vertices += parts[count++].skin.vertex_count;
    int fd = count ? open(w->so, O_RDONLY) : -1;
    size_t size = sizeof(asset_record) + sizeof(vec3) * (size_t)vertices;
    asset_record *r = fd >= 0 ? (asset_record *)grade_shared_new(size) : NULL;
    if (r) {
        asset_request q = {fd, parts, count};
        grade_limits limits = grade_limits_default(VIEW30_SHEET_DEADLINE_S);
        static grade_end end;
        char how[400];
        if (grade_sandbox_run("your loop over the asset", &limits, asset_job, &q, &r->head, &end, &d) != LAB_OK)
            snprintf(a->yours_words, sizeof a->yours_words, "did not run: see stderr");
        else if (r->done && r->error[0])
            snprintf(a->yours_words, sizeof a->yours_words, "did not run: see stderr");
        else if (r->done && !r->has_loop)
            snprintf(a->yours_words, sizeof a->yours_words, "not on this sheet");
        else if (r->done && r->not_written)
            snprintf(a->yours_words, sizeof a->yours_words, "not written yet");
        else if (r->done) {
            const vec3 *at = r->out;
            for (int k = 0; k < count; k++) {
                size_t bytes = sizeof(vec3) * (size_t)parts[k].skin.vertex_count;
                if ((a->yours[parts[k].part] = malloc(bytes)))
                    memcpy(a->yours[parts[k].part], at, bytes);
                at += parts[k].skin.vertex_count;
            }
            snprintf(a->yours_words, sizeof a->yours_words, "by exercise 10");
        } else {
            grade_ending ending = grade_ended(&r->head, &end, w->path, how, sizeof how);
            snprintf(a->yours_words, sizeof a->yours_words, "%s",
                     ending == GRADE_ENDED_TOO_SLOW ? "stopped: a loop?" : "it crashed: see stderr");
            fprintf(stderr, "view30: your loop over the asset: %s\n", how);
        }
        grade_shared_free(&r->head, size);
    }
    if (fd >= 0)
        close(fd);
    for (int k = 0; k < count; k++)
        free(parts[k].joints), free(parts[k].weights), gltf_skin_input_free(&parts[k].in);
    free(parts), free(locals);
}

/* ---- the grader's verdicts ----------------------------------------------------------------- */

bool view30_sheet_grade_start(view30_sheet *w, view30_student *s)
{
    view30_sheet_grade_stop(w);
    /* make, from an argument vector: the sheet's path is one word whatever it holds */
    char variables[] = VIEW30_MAKE_VARIABLES, exercises[700], dir[600], *argv[16];
    int words = 0;
    argv[words++] = "make", argv[words++] = "-s", argv[words++] = "--no-print-directory";
    for (char *v = strtok(variables, " "); v && words < 10; v = strtok(NULL, " "))
        argv[words++] = v;
    snprintf(exercises, sizeof exercises, "EXERCISES=%s", w->path);
    snprintf(dir, sizeof dir, "GRADE_DIR=%s/grade", w->dir);
    /* no SHEET: the grader grades the file alone, as the sheet it is for (its name, else
     * the exercises' functions it defines) */
    argv[words++] = "grade30", argv[words++] = exercises, argv[words++] = dir;
    argv[words] = NULL;
    lab_diag d = {0};
    const grade_command_limits limits = {120, 0};
    if (grade_command_start(&w->grade, argv, &limits, w->grade_log, sizeof w->grade_log, &d) != LAB_OK) {
        s->line_count = 1;
        diag_format(&d, s->lines[0], sizeof s->lines[0]);
        s->grade_stale = false;
        return false;
    }
    w->grading = true;
    return true;
}

void view30_sheet_grade_stop(view30_sheet *w)
{
    if (w->grading)
        grade_command_stop(&w->grade);
    w->grading = false;
}

/* Whether line is an exercise's verdict: "N. title: verdict". */
static bool verdict_line(const char *line)
{
    int n = 0;
    while (line[n] >= '0' && line[n] <= '9')
        n++;
    return n > 0 && line[n] == '.' && line[n + 1] == ' ' && strstr(line, ": ");
}

/* The grade's lines into the student's verdicts, whole (a verdict's own lines are indented
 * four spaces; what a body printed, "  | ", and the summary are not its), the one-line list,
 * the first exercise that is not correct, and the sheet the grader took the file for. */
static void read_verdicts(char *log, view30_student *s)
{
    s->verdict_count = s->wrong = s->line_count = 0;
    s->sheet_name[0] = 0;
    view30_verdict *v = NULL;
    for (char *line = strtok(log, "\n"); line; line = strtok(NULL, "\n")) {
        if (strncmp(line, "sheet ", 6) == 0 && strchr(line, '(') && !s->sheet_name[0])
            sscanf(line + 6, "%31[^ (]", s->sheet_name);
        if (verdict_line(line) && s->verdict_count < VIEW30_EXERCISES) {
            v = &s->verdicts[s->verdict_count++];
            memset(v, 0, sizeof *v);
            text_printable(v->line, sizeof v->line, line);
            if (!s->wrong && !strstr(line, ": correct") && !strstr(line, ": not written yet"))
                s->wrong = s->verdict_count;
            if (s->line_count < VIEW30_VERDICT_LINES)
                text_printable(s->lines[s->line_count++], sizeof s->lines[0], line);
        } else if (v && strncmp(line, "    ", 4) == 0 && v->details < VIEW30_DETAIL) {
            text_printable(v->detail[v->details++], sizeof v->detail[0], line + 4);
        } else if (strncmp(line, "    ", 4) != 0 && strncmp(line, "  |", 3) != 0) {
            v = NULL; /* the summary, a sheet's heading, what a body printed: no verdict's */
        }
    }
}

/* The grader's picture of the first exercise that is not correct (its grade30-N.png in
 * this run's grade folder), or why there is none. */
static void read_mistake(const view30_sheet *w, view30_student *s)
{
    canvas_free(&s->mistake);
    if (!s->wrong)
        return;
    int number = 0;
    sscanf(s->verdicts[s->wrong - 1].line, "%d.", &number);
    char path[700];
    snprintf(path, sizeof path, "%s/grade/grade30-%d.png", w->dir, number);
    lab_diag d = {0};
    if (png_decode_file(path, 4096, &s->mistake, &d) != LAB_OK) {
        char why[400];
        diag_format(&d, why, sizeof why);
        fprintf(stderr, "view30: the grader's picture of the mistake: %s\n", why);
    }
}

bool view30_sheet_grade_poll(view30_sheet *w, view30_student *s)
{
    if (!w->grading || !grade_command_poll(&w->grade))
        return false;
    w->grading = false;
    s->grade_stale = false;
    int status = w->grade.status;
    if (w->grade.late) {
        s->line_count = 1, s->verdict_count = s->wrong = 0;
        snprintf(s->lines[0], sizeof s->lines[0], "the grader did not finish in 120 s");
        return true;
    }
    char *log = malloc(sizeof w->grade_log);
    if (log) { /* the log stays whole for stdout: the verdicts are read from a copy */
        memcpy(log, w->grade_log, sizeof w->grade_log);
        read_verdicts(log, s);
        free(log);
    } else {
        s->verdict_count = s->wrong = s->line_count = 0;
    }
    read_mistake(w, s);
    s->show_mistake = s->wrong > 0;
    if (s->line_count == 0) {
        s->line_count = 1;
        first_error(w->grade_log, s->lines[0], sizeof s->lines[0]);
        if (!s->lines[0][0] && WIFSIGNALED(status)) {
            char how[96];
            grade_signal_words(WTERMSIG(status), how, sizeof how);
            snprintf(s->lines[0], sizeof s->lines[0], "the grader was ended by %.60s", how);
        } else if (!s->lines[0][0])
            snprintf(s->lines[0], sizeof s->lines[0], "the grader said nothing (exit status %d)",
                     WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
    return true;
}

/* Removes one entry of the run's folder, never following a link. */
static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *at)
{
    (void)st, (void)at;
    if (flag == FTW_DP)
        rmdir(path);
    else
        unlink(path);
    return 0;
}

void view30_sheet_free(view30_sheet *w)
{
    view30_sheet_grade_stop(w); /* nothing of a grade under way is left behind */
    /* the folder mkdtemp made for this run, and what the run put in it */
    if (w->dir[0])
        nftw(w->dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    w->have_so = false;
}
