/* view30_yours.c - the student's twist (view30_yours.h): the sheet's exercises for the
 * selected method skin the cylinder's twist rig of the selected weights, in the grader
 * engine's limited child (src/grade/sandbox.h), on inputs the lab prepares. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/diag.h"
#include "grade/ended.h"
#include "grade/sandbox.h"
#include "math/dualquat.h"
#include "math/linalg.h"
#include "mesh/scene.h"
#include "skin/blend.h"

#include "exercises30.h"
#include "rig30_fixes.h"
#include "view30_yours.h"

#define VERTS (RIG30_RINGS * RIG30_SEGMENTS)

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
