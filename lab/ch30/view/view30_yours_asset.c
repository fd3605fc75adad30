/* view30_yours_asset.c - the student's whole loop (exercise 10) over an asset playing
 * (view30_yours.h), in the grader engine's limited child, each part within the exercise's
 * limits drawn over the lab's. */
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
#include "gltf/gltf.h"
#include "math/linalg.h"

#include "exercises30.h"
#include "view30_yours.h"

typedef void (*mesh_fn)(const ex30_skin *, vec3 *);

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
    mesh_fn mesh = (mesh_fn)(uintptr_t)dlsym(h, "ex30_skin_mesh");
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
    if (doc->node_count > EX30_MAX_NODES || p->vertex_count > EX30_MAX_VERTICES)
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
    view30_asset_yours_clear(a, w->have_so ? "nothing skinned" : "no version compiled");
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
