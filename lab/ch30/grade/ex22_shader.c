/* ex22_shader.c - exercise 22 of chapter 30: the skinning shader, skin() in
 * lab/ch30/sheets/shader.glsl, graded on the GPU by its sheet's own runner (grade30_shader.c,
 * grade30_shader_run): its picture, its known mistakes (each named when the GPU's answer is
 * the CPU's with that mistake on every case, which the runner computes) and its
 * grade_exercise on the chapter's ordered list (GRADE30_LIST, grade30_table.h). */
#include "grade30.h"
#include "grade30_figure.h"

/* ---- the picture, the mistakes and the exercise ----------------------------------------------- */
/* The lab's cylinder at 120 degrees beside the GPU's through the student's shader (the
 * points the runner above read back). */
static lab_error draw_shader(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    return grade30_draw_cylinder("22. the lab's (CPU)", "yours (GPU shader)", yours, out, d);
}

/* In the order of the runner's slips (grade30_shader.c): named when the GPU's answer is the
 * CPU's with that mistake on every case (there is no C function to call). */
static const grade_mistake shader_mistakes[] = {
    {"the implied fourth weight left out: w3 = 1 - (w0 + w1 + w2)", NULL},
    {"p~ = (p, 0): a point carries w = 1, so the palette's translations move it", NULL},
    {"the normal not normalised: the blended 3x3 changes its length", NULL},
    {"the weights not applied: sum_i C_i p~ counts every influence fully", NULL},
    {"the normal moved like a point: a normal takes the 3x3 part only, then is normalised", NULL},
};

/* The engine never calls it: the sheet's runner (grade30_shader_run) grades the shader. */
static void call(const grade_exercise *x, grade_fn g, const grade30_case *c, grade_call *k, grade_answer *a)
{
    (void)x, (void)g, (void)c, (void)a;
    grade_call_ready(k);
}

const grade_exercise grade30_ex_shader = {
    .title = "the skinning shader: the palette in GLSL, run on the GPU",
    .function = "skin() in lab/ch30/sheets/shader.glsl",
    .page = "lab/ch30/lab30-gpu/README.md",
    .heading = "Exercise 22: the skinning shader",
    .shape = GRADE_ELSEWHERE,
    .named = 9,
    .generated = 0,
    .tolerance = 1e-6,
    GRADE30_MISTAKES(shader_mistakes),
    .picture = draw_shader,
    .sheet = GRADE30_SHEET_SHADER,
    GRADE30_COMMON,
    .call = call,
};
