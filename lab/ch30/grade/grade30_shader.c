/* grade30_shader.c - exercise 22's runner (grade30.h; the exercise: ex22_shader.c): the
 * student's skin() of lab/ch30/sheets/shader.glsl runs in the lab's own vertex shaders
 * (src/gpu/gpu_skin.h) on EGL and OpenGL ES 3.1, here on Mesa's llvmpipe, and its outputs
 * (captured with transform feedback, and read back from the texture and compute paths) are
 * compared with the CPU's float kernel on the same packed vertices (fastskin, scalar, unit
 * normals): positions within 1e-6 of each vertex's size (at least 1), normals within 1e-5.
 *
 * The student's text goes where the library's LBS blend goes; the DQS programs every
 * skinner also builds take the library's own blend. A #line directive numbers the
 * student's lines from 1, so the driver's log names them ("0:7(12): error: ..."), and that
 * is rewritten as "shader.glsl:7:12: error: ...".
 *
 * The driver runs in the grader engine's limited child (src/grade/sandbox.h) with the
 * parent's 20 s deadline, so that a shader that crashes the compiler, loops for ever or
 * takes the machine's memory ends the child, not the grader (as the user who runs the
 * grader, with no address-space limit: the driver's own, not the student's C, runs there).
 * Where there is no EGL display the verdict is "not graded here", with the reason: never
 * "correct". A known mistake is named when the GPU's answer matches, on every case, the
 * CPU's answer with that mistake (computed here, in doubles, from the packed floats). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/bytes.h"
#include "grade/ended.h"
#include "grade/sandbox.h"
#include "gpu/gpu.h"
#include "gpu/gpu_shaders.h"
#include "gpu/gpu_skin.h"
#include "skin/fastskin.h"
#include "skin/packed.h"
#include "skin/rig_random.h"

#include "grade30.h"
#include "grade30_figure.h"
#include "rig30.h"

enum { SHADER_SECONDS = 20, RANDOM_VERTICES = 240, RANDOM_JOINTS = 24 };

/* The cases: the chapter's cylinder at twists and bends, then two random rigs of four
 * influences (where the implied weight matters). */
static const struct { rig30_kind kind; double deg; } cylinder_cases[] = {
    {RIG30_TWIST, 0}, {RIG30_TWIST, 90}, {RIG30_TWIST, 120}, {RIG30_TWIST, 180}, {RIG30_TWIST, -270},
    {RIG30_BEND, 45}, {RIG30_BEND, 90},
};
enum { CYLINDER_CASES = (int)(sizeof cylinder_cases / sizeof cylinder_cases[0]), SHADER_CASES = CYLINDER_CASES + 2,
       FIGURE_CASE = 2 /* the twist at 120 degrees */ };

/* The known mistakes, in the order of exercise 22's named list (shader_mistakes, below). */
typedef enum { SLIP_NO_IMPLIED, SLIP_POINT_AS_DIRECTION, SLIP_NORMAL_NOT_UNIT, SLIP_WEIGHTS_NOT_APPLIED,
               SLIP_NORMAL_AS_POINT, SLIPS } slip;

/* One vertex of the packed mesh by the CPU, in doubles, with a slip. */
static void twin(slip s, const packed_mesh *m, const palette_matrix *pm, int v, double *p, double *n)
{
    double w[4] = {m->weight[3 * v], m->weight[3 * v + 1], m->weight[3 * v + 2], 0};
    w[3] = s == SLIP_NO_IMPLIED ? 0 : 1.0 - ((double)m->weight[3 * v] + m->weight[3 * v + 1] + m->weight[3 * v + 2]);
    double rows[3][4] = {{0}};
    for (int i = 0; i < 4; i++)
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 4; c++)
                rows[r][c] += (s == SLIP_WEIGHTS_NOT_APPLIED ? 1 : w[i]) * pm[m->joint[4 * v + i]].m[r][c];
    const float *x = m->position + 3 * v, *y = m->normal + 3 * v;
    double len = 0;
    for (int r = 0; r < 3; r++) {
        p[r] = rows[r][0] * x[0] + rows[r][1] * x[1] + rows[r][2] * x[2] + (s == SLIP_POINT_AS_DIRECTION ? 0 : rows[r][3]);
        n[r] = rows[r][0] * y[0] + rows[r][1] * y[1] + rows[r][2] * y[2] + (s == SLIP_NORMAL_AS_POINT ? rows[r][3] : 0);
        len += n[r] * n[r];
    }
    for (int r = 0; r < 3 && s != SLIP_NORMAL_NOT_UNIT; r++)
        n[r] /= sqrt(len);
}

typedef struct {
    const char *blend;
    const char *file;                 /* the sheet's name in the driver's messages */
    int lines;                        /* the sheet's lines */
    uint64_t seed;
    grade_result result;
    grade30_picture_data picture;
} shader_state;

/* What the child shares with the grader: the engine's head, then the verdict. */
typedef struct {
    grade_shared_head head;
    bool done;
    lab_error error;                  /* the GPU work's own failure (not the shader's verdict) */
    char error_words[400];
    grade_result result;
    grade30_picture_data picture;
} shader_record;

/* The driver's log with the student's lines: Mesa writes "0:LINE(COL)" (the source string
 * number the #line directive gives is not shown); a LINE within the student's `lines` becomes
 * "shader.glsl:LINE:COL", one past them is the lab's code after the file. */
static void student_lines(const char *log, const char *file, int lines, char *out, size_t size)
{
    size_t n = 0;
    for (const char *c = log; *c && n + 1 < size;) {
        unsigned source, line, col;
        int used = 0;
        if ((c == log || c[-1] == ' ') && sscanf(c, "%u:%u(%u)%n", &source, &line, &col, &used) == 3 && used > 0) {
            int w = (int)line <= lines ? snprintf(out + n, size - n, "%s:%u:%u", file, line, col)
                                      : snprintf(out + n, size - n, "(the lab's shader after %s)", file);
            n += w > 0 ? (size_t)w : 0;
            c += used;
        } else
            out[n++] = *c++;
    }
    out[n < size ? n : size - 1] = '\0';
}

/* One case's rig: its packed mesh and its palette as the GPU takes it. */
static lab_error case_rig(int i, uint64_t seed, packed_mesh *m, palette_matrix **pm, int *joints, char *what,
                          size_t size, lab_diag *d)
{
    if (i < CYLINDER_CASES) {
        rig30_rig rig;
        lab_error e = rig30_rig_build(&rig, cylinder_cases[i].kind, NULL, d);
        vec3 *normals = e == LAB_OK ? malloc(sizeof *normals * (size_t)rig.bind.vertex_count) : NULL;
        mat4 skin[RIG30_JOINTS];
        if (e == LAB_OK && !normals)
            e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "grade30", "the cylinder's normals");
        if (e == LAB_OK) {
            rig30_bind_normals(&rig, normals);
            e = rig30_palettes(&rig, deg_to_rad(cylinder_cases[i].deg), skin, NULL, d);
        }
        if (e == LAB_OK)
            e = packed_mesh_build(rig.bind.vertices, normals, &rig.influences, 4, m, NULL, d);
        if (e == LAB_OK && !(*pm = malloc(sizeof **pm * RIG30_JOINTS)))
            e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "grade30", "a palette");
        if (e == LAB_OK)
            palette_from_mat4(skin, RIG30_JOINTS, NULL, *pm), *joints = RIG30_JOINTS;
        snprintf(what, size, "the chapter's cylinder, the %s at %g deg (2 influences a vertex)",
                 rig30_kind_name(cylinder_cases[i].kind), cylinder_cases[i].deg);
        free(normals);
        rig30_rig_free(&rig);
        return e;
    }
    rig_random rig;
    unsigned long long s = seed * 1000003ull + (unsigned long long)i;
    lab_error e = rig_random_build(RANDOM_VERTICES, RANDOM_JOINTS, 4, s, &rig, d);
    bool built = e == LAB_OK;
    if (e == LAB_OK)
        e = packed_mesh_build(rig.positions, rig.normals, &rig.in, 4, m, NULL, d);
    if (e == LAB_OK && !(*pm = malloc(sizeof **pm * RANDOM_JOINTS)))
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "grade30", "a palette");
    if (e == LAB_OK)
        palette_from_mat4(rig.skin, RANDOM_JOINTS, NULL, *pm), *joints = RANDOM_JOINTS;
    snprintf(what, size, "generated (seed %llu): %d vertices, %d joints, four influences a vertex", s, RANDOM_VERTICES,
             RANDOM_JOINTS);
    if (built)
        rig_random_free(&rig);
    return e;
}

/* Every case on every path against the CPU; the first difference decides. */
static lab_error grade_cases(shader_state *st, gpu_skinner *skinner, lab_diag *d)
{
    grade_result *r = &st->result;
    bool matches[SLIPS];
    for (int s = 0; s < SLIPS; s++)
        matches[s] = true;
    lab_error e = LAB_OK;
    for (int i = 0; e == LAB_OK && i < SHADER_CASES; i++) {
        packed_mesh m = {0};
        palette_matrix *pm = NULL;
        gpu_mesh *mesh = NULL;
        int joints = 0;
        char what[200];
        e = case_rig(i, st->seed, &m, &pm, &joints, what, sizeof what, d);
        size_t n = (size_t)m.count;
        float *gp = e == LAB_OK ? malloc(12 * n) : NULL, *gn = gp ? malloc(12 * n) : NULL;
        float *cp = gn ? malloc(12 * n) : NULL, *cn = cp ? malloc(12 * n) : NULL;
        palette_columns *pc = e == LAB_OK ? aligned_alloc(_Alignof(palette_columns), sizeof *pc * (size_t)joints) : NULL;
        if (e == LAB_OK && (!cn || !pc))
            e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "grade30", "%zu vertices", n);
        if (e == LAB_OK)
            palette_columns_from_matrices(pm, joints, pc);
        fastskin_job cpu = {&m, pc, NULL, joints, SKIN_LBS, FASTSKIN_UNIT_NORMALS, 1, SIMD_SCALAR, cp, cn, NULL};
        if (e == LAB_OK)
            e = fastskin_run(&cpu, d);
        if (e == LAB_OK)
            e = gpu_mesh_upload(skinner, &m, 0, &mesh, d);
        for (int path = 0; e == LAB_OK && path < GPU_PATH_COUNT; path++) {
            gpu_skin_job job = {mesh, (gpu_path)path, SKIN_LBS, pm, NULL, joints, gp, gn};
            e = gpu_skin_run(skinner, &job, NULL, d);
            for (size_t v = 0; e == LAB_OK && v < n; v++) {
                double dp = 0, dn = 0, size = 1, tp[3], tn[3];
                for (int k = 0; k < 3; k++) {
                    dp = max_or_nan(dp, fabs((double)gp[3 * v + k] - cp[3 * v + k]));
                    dn = max_or_nan(dn, fabs((double)gn[3 * v + k] - cn[3 * v + k]));
                    size = fmax(size, fabs(cp[3 * v + k]));
                }
                for (int s = 0; s < SLIPS; s++) {
                    twin((slip)s, &m, pm, (int)v, tp, tn);
                    for (int k = 0; k < 3 && matches[s]; k++)
                        matches[s] = fabs(gp[3 * v + k] - tp[k]) <= 1e-5 * fmax(1, fabs(tp[k])) &&
                                     fabs(gn[3 * v + k] - tn[k]) <= 1e-5 * fmax(1, fabs(tn[k]));
                }
                bool ok = dp <= 1e-6 * size && dn <= 1e-5;
                if (!ok && r->verdict == GRADE_CORRECT) {
                    r->verdict = GRADE_WRONG, r->failed = i + 1, r->failed_pass = 1;
                    r->difference = isnan(dp) || isnan(dn) ? NAN : fmax(dp / size, dn), r->tolerance = 1e-6;
                    snprintf(r->failed_case, sizeof r->failed_case, "%.160s; the %s path", what, gpu_path_name((gpu_path)path));
                    snprintf(r->computed, sizeof r->computed, "vertex %zu: p' = (%.9g, %.9g, %.9g), n' = (%.7g, %.7g, %.7g)", v,
                             gp[3 * v], gp[3 * v + 1], gp[3 * v + 2], gn[3 * v], gn[3 * v + 1], gn[3 * v + 2]);
                    snprintf(r->expected, sizeof r->expected, "vertex %zu: p' = (%.9g, %.9g, %.9g), n' = (%.7g, %.7g, %.7g)", v,
                             cp[3 * v], cp[3 * v + 1], cp[3 * v + 2], cn[3 * v], cn[3 * v + 1], cn[3 * v + 2]);
                    snprintf(r->detail, sizeof r->detail,
                             "positions within 1e-6 of the vertex's size (at least 1), normals within 1e-5, of the CPU's "
                             "float kernel on the same packed vertex: here %.3g and %.3g", dp / size, dn);
                }
            }
            if (e == LAB_OK && i == FIGURE_CASE && path == GPU_PATH_UNIFORM) {
                st->picture.count = (int)n, st->picture.drawn = n <= GRADE30_PICTURE_POINTS;
                for (size_t v = 0; st->picture.drawn && v < n; v++)
                    st->picture.yours[v] = vec3_make(gp[3 * v], gp[3 * v + 1], gp[3 * v + 2]);
            }
        }
        r->cases += e == LAB_OK;
        gpu_mesh_free(mesh);
        packed_mesh_free(&m);
        free(pm), free(pc), free(gp), free(gn), free(cp), free(cn);
    }
    for (int s = 0; s < SLIPS && r->verdict == GRADE_WRONG && r->mistake < 0; s++)
        if (matches[s])
            r->mistake = s;
    return e;
}

/* The child's side: the driver, the cases, the verdict. */
static void shader_job(void *arg, grade_shared_head *head)
{
    shader_state *st = arg;
    shader_record *rec = (shader_record *)head;
    gpu_context *gpu = NULL;
    gpu_skinner *skinner = NULL;
    lab_diag why = {0};
    st->result = (grade_result){.verdict = GRADE_CORRECT, .mistake = -1};
    lab_error e = LAB_OK;
    if (gpu_open(&gpu, &why) != LAB_OK) {
        char msg[400];
        diag_format(&why, msg, sizeof msg);
        st->result.verdict = GRADE_NOT_GRADED;
        snprintf(st->result.detail, sizeof st->result.detail, "no EGL display with OpenGL ES 3.1 on this machine: %s", msg);
    } else if (gpu_skinner_create(gpu, st->blend, &skinner, &why) != LAB_OK) {
        char msg[480];
        diag_format(&why, msg, sizeof msg);
        const char *log = strstr(msg, "does not compile: ");
        st->result.verdict = GRADE_WRONG;
        student_lines(log ? log + strlen("does not compile: ") : msg, st->file, st->lines, st->result.computed,
                      sizeof st->result.computed);
        snprintf(st->result.detail, sizeof st->result.detail, "it does not compile; the driver says: %s", st->result.computed);
        st->result.computed[0] = '\0';
    } else {
        lab_diag d = {0};
        e = grade_cases(st, skinner, &d);
        if (e != LAB_OK)
            diag_format(&d, rec->error_words, sizeof rec->error_words);
    }
    gpu_skinner_free(skinner);
    gpu_close(gpu);
    rec->error = e;
    rec->result = st->result;
    rec->picture = st->picture;
    rec->done = grade_in_child();
}

lab_error grade30_shader_run(const char *path, uint64_t seed, grade_result *out, grade30_picture_data *picture,
                             lab_diag *d)
{
    *out = (grade_result){.verdict = GRADE_NOT_WRITTEN, .mistake = -1};
    *picture = (grade30_picture_data){0};
    bytes text = {0};
    bytes_read_result read = bytes_read_file(path, 1 << 20, &text);
    if (read == BYTES_READ_OUT_OF_MEMORY)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, path, "the shader sheet");
    if (read != BYTES_READ_OK) {
        out->verdict = GRADE_NOT_GRADED;
        snprintf(out->detail, sizeof out->detail, "%s could not be read: %s", path, bytes_read_message(read));
        bytes_free(&text);
        return LAB_OK;
    }
    if (strstr((const char *)text.data, "NOT_WRITTEN_YET")) {
        bytes_free(&text);
        return LAB_OK;
    }
    /* the library's blend for DQS; the student's lines, numbered from 1, for LBS */
    int lines = 1;
    for (const char *c = (const char *)text.data; *c; c++)
        lines += *c == '\n';
    const char *file = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    bytes blend = {0};
    bytes_printf(&blend, "#ifdef METHOD_DQS\n%s\n#else\n#line 1 1\n%s\n#endif\n", shader_skin_blend_glsl, (const char *)text.data);
    bytes_free(&text);
    if (blend.failed) {
        bytes_free(&blend);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, path, "the shader's text");
    }
    shader_state st = {(const char *)blend.data, file, lines, seed, {0}, {0}};
    shader_record *rec = (shader_record *)grade_shared_new(sizeof *rec);
    if (!rec) {
        bytes_free(&blend);
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, path, "no memory to share with the shader's child");
    }
    static grade_end end;
    const grade_limits limits = {SHADER_SECONDS, 0, 0, 0, false, false}; /* the driver: no filter */
    lab_error e = grade_sandbox_run("the shader exercise (EGL, GLES and the driver)", &limits, shader_job, &st,
                                    &rec->head, &end, d);
    if (e == LAB_OK && rec->done && rec->error == LAB_OK) {
        *out = rec->result;
        *picture = rec->picture;
    } else if (e == LAB_OK && rec->done && rec->error == LAB_ERR_OUT_OF_MEMORY) {
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, path, "%s", rec->error_words);
    } else if (e == LAB_OK && !rec->done && WIFEXITED(end.status) && WEXITSTATUS(end.status) == 3) {
        /* the library's out-of-memory guard, or the contract's code, in the child */
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, path, "the shader's child ran out of memory");
    } else if (e == LAB_OK) { /* the child ended running the shader, or the GPU work failed: the shader's verdict */
        char how[400];
        bool slow = false;
        if (rec->done)
            snprintf(how, sizeof how, "the GPU work failed: %.300s", rec->error_words);
        else {
            char words[300];
            slow = grade_ended(&rec->head, &end, path, words, sizeof words) == GRADE_ENDED_TOO_SLOW;
            snprintf(how, sizeof how, "the driver's process ended: %s", words);
        }
        *out = (grade_result){.verdict = slow ? GRADE_TOO_SLOW : GRADE_CRASHED, .mistake = -1};
        snprintf(out->detail, sizeof out->detail, "%.400s running your shader", how);
    }
    grade_shared_free(&rec->head, sizeof *rec);
    bytes_free(&blend);
    return e;
}
