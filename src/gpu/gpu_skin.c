/* gpu_skin.c - the three GPU skinning paths (see gpu_skin.h). */
#define _POSIX_C_SOURCE 200809L
#include "gpu/gpu_skin.h"

#include "gpu/gl_load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu_shaders.h"
#include "base/timer.h"

#define WORK_GROUP 64        /* local_size_x of skin_compute.glsl */
#define SSBO_BINDINGS 7      /* skin_compute.glsl binds 0 .. 6 */
#define MAX_PROGRAMS 16

const char *gpu_path_name(gpu_path path)
{
    static const char *const names[GPU_PATH_COUNT] = {"uniform", "texture", "compute"};
    return (int)path >= 0 && path < GPU_PATH_COUNT ? names[path] : "?";
}

const char *gpu_path_shaders(gpu_path path)
{
    static const char *const files[GPU_PATH_COUNT] = {
        "shaders/skin_vertex.glsl + palette_uniform.glsl",
        "shaders/skin_vertex.glsl + palette_texture.glsl",
        "shaders/skin_compute.glsl + palette_buffer.glsl",
    };
    return (int)path >= 0 && path < GPU_PATH_COUNT ? files[path] : "?";
}

typedef struct {
    gpu_path path;
    skin_method method;
    int palette_joints;      /* the uniform block's size in joints (uniform path only) */
    GLuint program;
    GLint vertex_count, palette_width, texture[2]; /* uniform locations, -1 when unused */
} skin_program;

struct gpu_skinner {
    gpu_context *gpu;
    gpu_info info;
    skin_program programs[MAX_PROGRAMS];
    int program_count;
    GLuint palette_ubo, palette_ssbo, textures[2];
    float *texels;           /* staging for the texture path's palette */
    size_t texel_cap;        /* floats */
    const char *blend;       /* the GLSL of skin(): the caller's, or shaders/skin_blend.glsl */
};

typedef struct {
    int count;               /* vertices */
    int *vertex;             /* the mesh vertex of each part vertex; NULL: the identity */
    int joints;              /* palette entries the part draws with */
    int *joint;              /* the mesh joint of each part joint; NULL: the identity */
    GLuint vao, in[4], out[2]; /* position, normal, joint, weight; skinned position, normal */
} mesh_part;

struct gpu_mesh {
    int count, max_joint, part_count, joint_budget;
    mesh_part *parts;
};

int gpu_uniform_joints(const gpu_skinner *s, skin_method method)
{
    return s->info.max_uniform_block_size / (method == SKIN_DQS ? 32 : 48);
}

int gpu_texture_joints(const gpu_skinner *s, skin_method method)
{
    long long texels = (long long)s->info.max_texture_size * s->info.max_texture_size;
    long long joints = texels / (method == SKIN_DQS ? 1 : 3);
    return joints > 1 << 30 ? 1 << 30 : (int)joints;
}

/* ---- programs -------------------------------------------------------------------------- */

static lab_error build_program(gpu_skinner *s, gpu_path path, skin_method method, int palette_joints,
                               const skin_program **out, lab_diag *d)
{
    for (int i = 0; i < s->program_count; i++) {
        const skin_program *p = &s->programs[i];
        if (p->path == path && p->method == method && (path != GPU_PATH_UNIFORM || p->palette_joints == palette_joints)) {
            *out = p;
            return LAB_OK;
        }
    }
    if (s->program_count == MAX_PROGRAMS)
        return diag_fail(d, LAB_ERR_LIMIT, "GPU programs", "%d variants at most", MAX_PROGRAMS);
    char header[256], name[96];
    snprintf(header, sizeof header,
             "#version 310 es\nprecision highp float;\nprecision highp int;\n%s#define PALETTE_JOINTS %d\n",
             method == SKIN_DQS ? "#define METHOD_DQS 1\n" : "", palette_joints > 0 ? palette_joints : 1);
    snprintf(name, sizeof name, "%s %s program", gpu_path_name(path), skin_method_name(method));
    static const char fragment_header[] = "#version 310 es\nprecision mediump float;\n";
    const char *palette = path == GPU_PATH_UNIFORM ? shader_palette_uniform_glsl
                          : path == GPU_PATH_TEXTURE ? shader_palette_texture_glsl
                                                     : shader_palette_buffer_glsl;
    const char *entry = path == GPU_PATH_COMPUTE ? shader_skin_compute_glsl : shader_skin_vertex_glsl;
    const char *stage[4] = {header, palette, s->blend, entry};
    const char *fragment[2] = {fragment_header, shader_discard_frag};
    const char *varyings[2] = {"skinned_position", "skinned_normal"};
    const gpu_source none = {NULL, 0}, main_stage = {stage, 4}, discard = {fragment, 2};
    skin_program p = {path, method, palette_joints, 0, -1, -1, {-1, -1}};
    lab_error e = path == GPU_PATH_COMPUTE
                      ? gpu_program_build(s->gpu, name, none, none, main_stage, NULL, 0, &p.program, d)
                      : gpu_program_build(s->gpu, name, main_stage, discard, none, varyings, 2, &p.program, d);
    if (e != LAB_OK)
        return e;
    if (path == GPU_PATH_UNIFORM)
        glUniformBlockBinding(p.program, glGetUniformBlockIndex(p.program, "Palette"), 0);
    p.vertex_count = glGetUniformLocation(p.program, "vertex_count");
    p.palette_width = glGetUniformLocation(p.program, "palette_width");
    const char *textures[2] = {method == SKIN_DQS ? "palette_real_texture" : "palette_texture", "palette_dual_texture"};
    for (int t = 0; t < 2; t++)
        p.texture[t] = glGetUniformLocation(p.program, textures[t]);
    e = gpu_check(name, d);
    if (e != LAB_OK) {
        glDeleteProgram(p.program);
        return e;
    }
    s->programs[s->program_count] = p;
    *out = &s->programs[s->program_count++];
    return LAB_OK;
}

lab_error gpu_skinner_create(gpu_context *gpu, const char *blend, gpu_skinner **out, lab_diag *d)
{
    *out = NULL;
    gpu_skinner *s = calloc(1, sizeof *s);
    if (!s)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "GPU skinner", "%zu bytes", sizeof *s);
    s->gpu = gpu;
    s->blend = blend ? blend : shader_skin_blend_glsl;
    s->info = *gpu_get_info(gpu);
    GLint blocks = 0;
    glGetIntegerv(GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS, &blocks);
    lab_error e = LAB_OK;
    if (blocks < SSBO_BINDINGS)
        e = diag_fail(d, LAB_ERR_UNSUPPORTED, "GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS",
                      "%d; the compute pass binds %d storage buffers", blocks, SSBO_BINDINGS);
    if (e == LAB_OK) {
        glGenBuffers(1, &s->palette_ubo);
        glBindBuffer(GL_UNIFORM_BUFFER, s->palette_ubo);
        glBufferData(GL_UNIFORM_BUFFER, s->info.max_uniform_block_size, NULL, GL_DYNAMIC_DRAW);
        glGenBuffers(1, &s->palette_ssbo);
        glGenTextures(2, s->textures);
        for (int t = 0; t < 2; t++) {
            glBindTexture(GL_TEXTURE_2D, s->textures[t]);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        }
        e = gpu_check("GPU skinner setup", d);
    }
    /* every path and method once, so a driver that cannot build one says so at once */
    for (int path = 0; e == LAB_OK && path < GPU_PATH_COUNT; path++)
        for (int method = 0; e == LAB_OK && method < 2; method++) {
            const skin_program *p;
            e = build_program(s, (gpu_path)path, (skin_method)method,
                              path == GPU_PATH_UNIFORM ? gpu_uniform_joints(s, (skin_method)method) : 0, &p, d);
        }
    if (e != LAB_OK) {
        gpu_skinner_free(s);
        return e;
    }
    *out = s;
    return LAB_OK;
}

void gpu_skinner_free(gpu_skinner *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->program_count; i++)
        glDeleteProgram(s->programs[i].program);
    glDeleteBuffers(1, &s->palette_ubo);
    glDeleteBuffers(1, &s->palette_ssbo);
    glDeleteTextures(2, s->textures);
    free(s->texels);
    free(s);
}

/* ---- meshes ----------------------------------------------------------------------------- */

/* Uploads one part's streams (vertices `vertex`, or all when NULL; joints remapped through
 * `local` when not NULL) and makes its vertex array and output buffers. */
static lab_error upload_part(const packed_mesh *m, mesh_part *part, const int *local, lab_diag *d)
{
    size_t n = (size_t)part->count;
    float *position = malloc(12 * n + 1), *normal = malloc(12 * n + 1), *weight = malloc(12 * n + 1);
    uint16_t *joint = malloc(8 * n + 1);
    lab_error e = position && normal && weight && joint ? LAB_OK
                                                         : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "GPU mesh", "%zu vertices", n);
    for (size_t i = 0; e == LAB_OK && i < n; i++) {
        size_t v = part->vertex ? (size_t)part->vertex[i] : i;
        memcpy(position + 3 * i, m->position + 3 * v, 12);
        if (m->normal)
            memcpy(normal + 3 * i, m->normal + 3 * v, 12);
        else
            memset(normal + 3 * i, 0, 12);
        memcpy(weight + 3 * i, m->weight + 3 * v, 12);
        for (int k = 0; k < 4; k++) {
            int j = m->joint[4 * v + (size_t)k];
            joint[4 * i + (size_t)k] = (uint16_t)(local ? local[j] : j);
        }
    }
    if (e == LAB_OK) {
        const void *data[4] = {position, normal, joint, weight};
        const size_t bytes[4] = {12 * n, 12 * n, 8 * n, 12 * n};
        glGenVertexArrays(1, &part->vao);
        glBindVertexArray(part->vao);
        glGenBuffers(4, part->in);
        for (int b = 0; b < 4; b++) {
            glBindBuffer(GL_ARRAY_BUFFER, part->in[b]);
            glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(bytes[b] ? bytes[b] : 4), data[b], GL_STATIC_DRAW);
            glEnableVertexAttribArray((GLuint)b);
            if (b == 2)
                glVertexAttribIPointer(2, 4, GL_UNSIGNED_SHORT, 0, NULL);
            else
                glVertexAttribPointer((GLuint)b, 3, GL_FLOAT, GL_FALSE, 0, NULL);
        }
        glBindVertexArray(0);
        glGenBuffers(2, part->out);
        for (int b = 0; b < 2; b++) {
            glBindBuffer(GL_COPY_WRITE_BUFFER, part->out[b]);
            glBufferData(GL_COPY_WRITE_BUFFER, (GLsizeiptr)(n > 0 ? 12 * n : 4), NULL, GL_DYNAMIC_READ);
        }
        e = gpu_check("GPU mesh upload", d);
    }
    free(position), free(normal), free(weight), free(joint);
    return e;
}

/* The split (RTR4's model splitting): vertices in order, a new part whenever the next
 * vertex's joints would take the part past the budget. Zero-weight slots take the
 * vertex's slot-0 joint, so they never cost a palette entry. */
static lab_error split_mesh(const packed_mesh *m, int budget, gpu_mesh *g, int **locals, lab_diag *d)
{
    int *part_of = malloc(sizeof(int) * (size_t)(m->count ? m->count : 1));
    int *local = malloc(sizeof(int) * (size_t)(m->max_joint + 1));
    int *used = malloc(sizeof(int) * (size_t)budget);
    if (!part_of || !local || !used) {
        free(part_of), free(local), free(used);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "GPU mesh split", "%d vertices", m->count);
    }
    for (int j = 0; j <= m->max_joint; j++)
        local[j] = -1;
    int parts = 0, count = 0;
    for (int v = 0; v < m->count; v++) {
        float w[4];
        packed_vertex_weights(m, v, w);
        int distinct = 0, joints[4];
        for (int k = 0; k < 4; k++) {
            int j = w[k] != 0.0f || k == 0 ? m->joint[4 * (size_t)v + (size_t)k] : m->joint[4 * (size_t)v];
            bool seen = false;
            for (int i = 0; i < distinct; i++)
                seen = seen || joints[i] == j;
            if (!seen)
                joints[distinct++] = j;
        }
        int need = 0;
        for (int i = 0; i < distinct; i++)
            need += local[joints[i]] < 0;
        if (parts == 0 || count + need > budget) { /* a new part: every joint is new to it */
            for (int i = 0; i < count; i++)
                local[used[i]] = -1;
            count = 0;
            parts++;
        }
        for (int i = 0; i < distinct; i++)
            if (local[joints[i]] < 0) {
                local[joints[i]] = count;
                used[count++] = joints[i];
            }
        part_of[v] = parts - 1;
    }
    free(used);
    /* the parts' vertex and joint tables, and each part's joint remapping */
    g->parts = calloc((size_t)(parts ? parts : 1), sizeof *g->parts);
    *locals = malloc(sizeof(int) * (size_t)(parts ? parts : 1) * (size_t)(m->max_joint + 1));
    lab_error e = g->parts && *locals ? LAB_OK : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "GPU mesh split", "%d parts", parts);
    g->part_count = e == LAB_OK ? parts : 0;
    for (int p = 0; e == LAB_OK && p < parts; p++) {
        mesh_part *part = &g->parts[p];
        int *map = *locals + (size_t)p * (size_t)(m->max_joint + 1);
        for (int j = 0; j <= m->max_joint; j++)
            map[j] = -1;
        part->vertex = malloc(sizeof(int) * (size_t)(m->count ? m->count : 1));
        part->joint = malloc(sizeof(int) * (size_t)budget);
        if (!part->vertex || !part->joint) {
            e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "GPU mesh split", "part %d", p);
            break;
        }
        for (int v = 0; v < m->count; v++) {
            if (part_of[v] != p)
                continue;
            float w[4];
            packed_vertex_weights(m, v, w);
            for (int k = 0; k < 4; k++) {
                int j = m->joint[4 * (size_t)v + (size_t)k];
                if (w[k] == 0.0f && k > 0)
                    continue; /* a zero-weight slot costs no palette entry (gpu_mesh_upload) */
                if (map[j] < 0) {
                    map[j] = part->joints;
                    part->joint[part->joints++] = j;
                }
            }
            part->vertex[part->count++] = v;
        }
    }
    free(part_of), free(local);
    return e;
}

lab_error gpu_mesh_upload(gpu_skinner *s, const packed_mesh *m, int joint_budget, gpu_mesh **out, lab_diag *d)
{
    (void)s;
    *out = NULL;
    if (m->influences != 4 || m->joint_format != PACKED_JOINT_U16 || m->weight_format != PACKED_WEIGHT_FLOAT ||
        m->position16)
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "GPU mesh", "%s",
                         "the GPU paths take the 44-byte vertex: K = 4, uint16 joints, float weights and positions");
    if (joint_budget != 0 && joint_budget < 4)
        return diag_fail(d, LAB_ERR_LIMIT, "joint budget",
                         "%d joints a draw cannot serve a vertex of 4 influences: the budget must be at least 4",
                         joint_budget);
    gpu_mesh *g = calloc(1, sizeof *g);
    if (!g)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "GPU mesh", "%zu bytes", sizeof *g);
    g->count = m->count;
    g->max_joint = m->max_joint;
    g->joint_budget = joint_budget;
    lab_error e = LAB_OK;
    int *locals = NULL;
    if (joint_budget == 0) {
        g->parts = calloc(1, sizeof *g->parts);
        e = g->parts ? LAB_OK : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "GPU mesh", "%s", "one part");
        if (e == LAB_OK) {
            g->part_count = 1;
            g->parts[0].count = m->count;
            g->parts[0].joints = m->max_joint + 1;
        }
    } else {
        e = split_mesh(m, joint_budget, g, &locals, d);
    }
    for (int p = 0; e == LAB_OK && p < g->part_count; p++) {
        int *map = locals ? locals + (size_t)p * (size_t)(m->max_joint + 1) : NULL;
        if (map) /* a zero-weight slot's joint: the part's first, weight 0 makes it inert */
            for (int j = 0; j <= m->max_joint; j++)
                if (map[j] < 0)
                    map[j] = 0;
        e = upload_part(m, &g->parts[p], map, d);
    }
    free(locals);
    if (e != LAB_OK) {
        gpu_mesh_free(g);
        return e;
    }
    *out = g;
    return LAB_OK;
}

int gpu_mesh_parts(const gpu_mesh *m) { return m->part_count; }

void gpu_mesh_free(gpu_mesh *g)
{
    if (!g)
        return;
    for (int p = 0; p < g->part_count; p++) {
        mesh_part *part = &g->parts[p];
        glDeleteVertexArrays(1, &part->vao);
        glDeleteBuffers(4, part->in);
        glDeleteBuffers(2, part->out);
        free(part->vertex);
        free(part->joint);
    }
    free(g->parts);
    free(g);
}

/* ---- running ---------------------------------------------------------------------------- */

/* The most joints any part of the mesh draws with. */
int gpu_mesh_largest_part(const gpu_mesh *g)
{
    int largest = 0;
    for (int p = 0; p < g->part_count; p++)
        largest = g->parts[p].joints > largest ? g->parts[p].joints : largest;
    return largest;
}

lab_error gpu_skin_validate(const gpu_skinner *s, const gpu_skin_job *job, lab_diag *d)
{
    const gpu_mesh *g = job->mesh;
    if (!g || (int)job->path < 0 || job->path >= GPU_PATH_COUNT || !job->out_position || !job->out_normal ||
        (job->method == SKIN_DQS ? (const void *)job->dualquats : (const void *)job->matrices) == NULL)
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "GPU job", "%s", "a mesh, a palette, a path or an output is missing");
    if (job->joint_count <= g->max_joint)
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "GPU palette", "%d entries, the mesh uses joint %d",
                         job->joint_count, g->max_joint);
    int largest = gpu_mesh_largest_part(g);
    if (job->path == GPU_PATH_UNIFORM && largest > gpu_uniform_joints(s, job->method))
        return diag_fail(d, LAB_ERR_LIMIT, "uniform palette",
                         "%d joints a draw, the uniform block holds %d (GL_MAX_UNIFORM_BLOCK_SIZE %d bytes, %d a joint): "
                         "use the texture path, or split the mesh with a joint budget",
                         largest, gpu_uniform_joints(s, job->method), s->info.max_uniform_block_size,
                         job->method == SKIN_DQS ? 32 : 48);
    if (job->path == GPU_PATH_TEXTURE && largest > gpu_texture_joints(s, job->method))
        return diag_fail(d, LAB_ERR_LIMIT, "texture palette", "%d joints, a texture holds %d (GL_MAX_TEXTURE_SIZE %d)",
                         largest, gpu_texture_joints(s, job->method), s->info.max_texture_size);
    if (job->path == GPU_PATH_COMPUTE &&
        (long long)largest * (job->method == SKIN_DQS ? 32 : 48) > s->info.max_ssbo_size)
        return diag_fail(d, LAB_ERR_LIMIT, "storage palette", "%d joints, GL_MAX_SHADER_STORAGE_BLOCK_SIZE is %d bytes",
                         largest, s->info.max_ssbo_size);
    return LAB_OK;
}

/* The part's palette, gathered (split) or whole, as vec4s: 3 a joint (LBS) or 2 (DQS). */
static const float *part_palette(const gpu_skin_job *job, const mesh_part *part, float *scratch)
{
    const int per = job->method == SKIN_DQS ? 8 : 12;
    const float *all = job->method == SKIN_DQS ? job->dualquats[0].real : job->matrices[0].m[0];
    if (!part->joint)
        return all;
    for (int j = 0; j < part->joints; j++)
        memcpy(scratch + (size_t)j * per, all + (size_t)part->joint[j] * per, sizeof(float) * per);
    return scratch;
}

/* The texture path's textures for one palette: LBS one of 3 texels a joint, DQS two of
 * one; rows of at most GL_MAX_TEXTURE_SIZE texels. */
static lab_error upload_textures(gpu_skinner *s, const gpu_skin_job *job, const float *palette, int joints,
                                 int *width, lab_diag *d)
{
    const int per_joint = job->method == SKIN_DQS ? 1 : 3, textures = job->method == SKIN_DQS ? 2 : 1;
    long long texels = (long long)joints * per_joint;
    int w = texels < s->info.max_texture_size ? (int)(texels ? texels : 1) : s->info.max_texture_size;
    int h = (int)((texels + w - 1) / w);
    size_t need = (size_t)w * (size_t)h * 4;
    if (need > s->texel_cap) {
        float *t = realloc(s->texels, sizeof(float) * need);
        if (!t)
            return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "texture palette", "%d joints", joints);
        s->texels = t;
        s->texel_cap = need;
    }
    for (int t = 0; t < textures; t++) {
        memset(s->texels, 0, sizeof(float) * need);
        for (int j = 0; j < joints; j++) /* DQS: real parts in texture 0, dual parts in 1 */
            memcpy(s->texels + (size_t)j * per_joint * 4,
                   palette + (size_t)j * (job->method == SKIN_DQS ? 8 : 12) + (size_t)t * 4,
                   sizeof(float) * 4 * per_joint);
        glActiveTexture(GL_TEXTURE0 + (GLenum)t);
        glBindTexture(GL_TEXTURE_2D, s->textures[t]);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, w, h, 0, GL_RGBA, GL_FLOAT, s->texels);
    }
    *width = w;
    return gpu_check("texture palette upload", d);
}

/* One part's palette upload for the job's path; returns the texture width when textured. */
static lab_error upload_palette(gpu_skinner *s, const gpu_skin_job *job, const mesh_part *part, float *scratch,
                                int *width, lab_diag *d)
{
    const float *palette = part_palette(job, part, scratch);
    GLsizeiptr bytes = (GLsizeiptr)part->joints * (job->method == SKIN_DQS ? 32 : 48);
    if (job->path == GPU_PATH_TEXTURE)
        return upload_textures(s, job, palette, part->joints, width, d);
    if (job->path == GPU_PATH_UNIFORM) {
        glBindBuffer(GL_UNIFORM_BUFFER, s->palette_ubo);
        glBufferSubData(GL_UNIFORM_BUFFER, 0, bytes, palette);
    } else {
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, s->palette_ssbo);
        glBufferData(GL_SHADER_STORAGE_BUFFER, bytes, palette, GL_DYNAMIC_DRAW);
    }
    return gpu_check("palette upload", d);
}

static lab_error draw_part(const gpu_skinner *s, const skin_program *p, const gpu_skin_job *job,
                           const mesh_part *part, int width, lab_diag *d)
{
    glUseProgram(p->program);
    if (job->path == GPU_PATH_COMPUTE) {
        for (int b = 0; b < 4; b++)
            glBindBufferBase(GL_SHADER_STORAGE_BUFFER, (GLuint)b, part->in[b]);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 4, s->palette_ssbo);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 5, part->out[0]);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 6, part->out[1]);
        glUniform1ui(p->vertex_count, (GLuint)part->count);
        glDispatchCompute((GLuint)((part->count + WORK_GROUP - 1) / WORK_GROUP), 1, 1);
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
        return gpu_check("compute dispatch", d);
    }
    if (job->path == GPU_PATH_UNIFORM)
        glBindBufferBase(GL_UNIFORM_BUFFER, 0, s->palette_ubo);
    else {
        glUniform1i(p->palette_width, width);
        for (int t = 0; t < 2; t++)
            if (p->texture[t] >= 0)
                glUniform1i(p->texture[t], t);
    }
    glBindVertexArray(part->vao);
    glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, part->out[0]);
    glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 1, part->out[1]);
    glEnable(GL_RASTERIZER_DISCARD);
    DRIVER_ALLOCATIONS_UNTRACKED();
    glBeginTransformFeedback(GL_POINTS);
    glDrawArrays(GL_POINTS, 0, part->count);
    glEndTransformFeedback();
    DRIVER_ALLOCATIONS_TRACKED();
    glDisable(GL_RASTERIZER_DISCARD);
    glBindVertexArray(0);
    return gpu_check(job->path == GPU_PATH_UNIFORM ? "uniform-palette draw" : "texture-palette draw", d);
}

/* Maps a part's two outputs and scatters them to the job's arrays. */
static lab_error read_part(const gpu_skin_job *job, const mesh_part *part, lab_diag *d)
{
    float *dst[2] = {job->out_position, job->out_normal};
    for (int b = 0; b < 2; b++) {
        glBindBuffer(GL_COPY_READ_BUFFER, part->out[b]);
        const float *src = glMapBufferRange(GL_COPY_READ_BUFFER, 0, (GLsizeiptr)(12 * (size_t)part->count), GL_MAP_READ_BIT);
        if (!src && part->count > 0)
            return gpu_check("readback", d) != LAB_OK ? LAB_ERR_GPU
                                                      : diag_fail(d, LAB_ERR_GPU, "readback", "%s", "glMapBufferRange failed");
        if (!part->vertex)
            memcpy(dst[b], src, 12 * (size_t)part->count);
        else
            for (int i = 0; i < part->count; i++)
                memcpy(dst[b] + 3 * (size_t)part->vertex[i], src + 3 * (size_t)i, 12);
        if (src && !glUnmapBuffer(GL_COPY_READ_BUFFER))
            return diag_fail(d, LAB_ERR_GPU, "readback", "%s", "the buffer's contents were lost while mapped");
    }
    return gpu_check("readback", d);
}

lab_error gpu_skin_run(gpu_skinner *s, const gpu_skin_job *job, gpu_timing *timing, lab_diag *d)
{
    lab_error e = gpu_skin_validate(s, job, d);
    if (e != LAB_OK)
        return e;
    const gpu_mesh *g = job->mesh;
    const skin_program *p = NULL;
    /* the uniform block's array: the budget, but never more than the block holds (a
     * budget above it is still met when every part fits, which validation checked) */
    int capacity = gpu_uniform_joints(s, job->method);
    int palette_joints = job->path != GPU_PATH_UNIFORM ? 0
                         : g->joint_budget && g->joint_budget < capacity ? g->joint_budget
                                                                         : capacity;
    e = build_program(s, job->path, job->method, palette_joints, &p, d);
    if (e != LAB_OK)
        return e;
    int largest = gpu_mesh_largest_part(g);
    float *scratch = malloc(sizeof(float) * 12 * (size_t)(largest ? largest : 1));
    if (!scratch)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "GPU palette", "%d joints", largest);
    gpu_timing t = {0, 0, 0};
    /* one part at a time: its palette, then its draw; split meshes upload a small palette
     * before each draw, as a split model does */
    for (int q = 0; e == LAB_OK && q < g->part_count; q++) {
        int width = 0;
        double t0 = timer_seconds();
        e = upload_palette(s, job, &g->parts[q], scratch, &width, d);
        glFinish();
        double t1 = timer_seconds();
        if (e == LAB_OK)
            e = draw_part(s, p, job, &g->parts[q], width, d);
        glFinish();
        t.upload += t1 - t0;
        t.run += timer_seconds() - t1;
    }
    double t2 = timer_seconds();
    for (int q = 0; e == LAB_OK && q < g->part_count; q++)
        e = read_part(job, &g->parts[q], d);
    t.readback = timer_seconds() - t2;
    free(scratch);
    if (timing)
        *timing = t;
    return e;
}
