/* grade30_figure_weights.c - the pictures of the sheets of normals and policies, the packed
 * vertex and bone heat (exercises 16 to 21, declared in grade30_table.h): a ring under a
 * light, the policies' verdicts, weights as bars, a Laplacian row, and the cylinder's heat
 * weights solved from the student's rows. The lab's side from the library. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "draw/diagram.h"
#include "draw/figure.h"
#include "draw/plot.h"
#include "math/linalg.h"
#include "skin/influences.h"
#include "skin/normals.h"
#include "skin/packed.h"

#include "grade30_figure.h"
#include "grade30_table.h"
#include "rig30.h"

static lab_error blank(canvas *out, const char *title, lab_diag *d)
{
    lab_error e = canvas_init(out, W, H, FIGURE_BACKGROUND, d);
    if (e == LAB_OK) {
        raster_text(out, 8, 8, FIGURE_TEXT_SCALE, title, FIGURE_EDGE);
        raster_text(out, 8, H - 30, FIGURE_TEXT_SCALE, "green: the lab's", LABS);
        raster_text(out, 220, H - 30, FIGURE_TEXT_SCALE, "red: yours", YOURS);
    }
    return e;
}

/* Paired bars of n values from `low` to `high`: the lab's (filled) and yours (outlined), with labels. */
static void bars(canvas *out, int top, int height, const double *lab, const double *mine, bool drawn, int n, double low,
                 double high, const char *const *labels)
{
    int left = 20, width = (W - 2 * left) / (n > 0 ? n : 1), base = top + (int)(height * high / (high - low));
    raster_line(out, left, base, W - left, base, DIAGRAM_GREY);
    for (int i = 0; i < n; i++) {
        int x = left + i * width;
        double v[2] = {lab[i], drawn ? mine[i] : NAN};
        for (int k = 0; k < 2; k++) {
            if (!isfinite(v[k]))
                continue;
            double c = fmin(fmax(v[k], low), high);
            int y = top + (int)(height * (high - c) / (high - low)), x0 = x + 4 + k * (width / 2 - 2);
            int y0 = y < base ? y : base, h = abs(base - y) + 1, w = width / 2 - 6;
            if (k == 0)
                raster_fill_rect(out, x0, y0, w, h, LABS);
            else
                raster_line(out, x0, y0, x0 + w, y0, YOURS), raster_line(out, x0, y0 + h, x0 + w, y0 + h, YOURS),
                    raster_line(out, x0, y0, x0, y0 + h, YOURS), raster_line(out, x0 + w, y0, x0 + w, y0 + h, YOURS);
        }
        if (labels)
            raster_text(out, x + 4, top + height + 6, 1, labels[i], FIGURE_EDGE);
    }
}

/* ---- 16. a ring under a light ----------------------------------------------------------------- */

enum { LIT = 24 };
static const vec3 light = {0.6, -0.3, 0.74};

static void lit_rig(mat4 palette[2], vec3 *normals)
{
    palette[0] = mat4_identity();
    palette[1] = mat4_mul(mat4_rotate_z(deg_to_rad(60)), mat4_scale(2.5, 1, 0.6));
    for (int s = 0; s < LIT; s++)
        normals[s] = vec3_make(cos(2 * LAB_PI * s / LIT), sin(2 * LAB_PI * s / LIT), 0);
}

void grade30_points_skin_normal(grade_fn g, const grade30_case *failing, grade30_picture_data *out)
{
    grade30_fn f = grade30_fn_of(g);
    (void)failing; /* the named pose shows this exercise's mistakes */
    mat4 palette[2];
    vec3 n[LIT];
    lit_rig(palette, n);
    const int joint[2] = {0, 1};
    const double weight[2] = {0.5, 0.5};
    out->count = 3 * LIT, out->drawn = true;
    for (int m = 0; m < 3; m++)
        for (int s = 0; s < LIT; s++)
            out->yours[m * LIT + s] = f.skin_normal(n[s], joint, weight, 2, palette, (ex30_normal_method)m);
}

lab_error grade30_draw_skin_normal(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    lab_error e = blank(out, "16. a ring's normals under a light,\nC_1 = Rz(60) S(2.5, 1, 0.6), w 0.5 0.5\nthe lab's row above yours", d);
    mat4 palette[2];
    vec3 n[LIT], lab[LIT];
    lit_rig(palette, n);
    skin_influences in = {LIT, 2, malloc(sizeof(int) * 2 * LIT), malloc(sizeof(double) * 2 * LIT)};
    if (e == LAB_OK && (!in.joint || !in.weight))
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "grade30", "a picture");
    for (int s = 0; e == LAB_OK && s < LIT; s++)
        in.joint[2 * s] = 0, in.joint[2 * s + 1] = 1, in.weight[2 * s] = in.weight[2 * s + 1] = 0.5;
    static const char *const names[] = {"rigid", "blended", "per-bone"};
    vec3 l = vec3_normalize(light);
    for (int m = 0; e == LAB_OK && m < 3; m++) {
        e = normals_skin(n, &in, palette, 2, (normals_method)m, lab, d);
        int top = 100 + m * 90, size = (W - 110) / LIT;
        raster_text(out, 8, top + 12, FIGURE_TEXT_SCALE, names[m], FIGURE_EDGE);
        for (int s = 0; e == LAB_OK && s < LIT; s++) {
            double shade[2] = {figure_lambert(lab[s], l), NAN};
            const vec3 *mine = &yours->yours[m * LIT + s];
            if (yours->drawn && vec3_is_finite(*mine))
                shade[1] = figure_lambert(*mine, l) * fmin(1, vec3_length(*mine)); /* a normal not unit shows darker or lighter */
            for (int k = 0; k < 2; k++) {
                int g = isfinite(shade[k]) ? (int)(40 + 215 * fmin(fmax(shade[k], 0), 1)) : 0;
                rgb c = isfinite(shade[k]) ? (rgb){(unsigned char)g, (unsigned char)g, (unsigned char)g} : YOURS;
                raster_fill_rect(out, 100 + s * size, top + k * (size + 4), size - 1, size, c);
            }
        }
    }
    free(in.joint), free(in.weight);
    return e;
}

/* ---- 17. the policies' verdicts ----------------------------------------------------------------- */

static const struct { const char *words; double w[2]; } policy_sets[] = {
    {"0.5 + 0.5", {0.5, 0.5}}, {"0.4 + 0.4", {0.4, 0.4}}, {"0 + 0", {0, 0}},
    {"NaN + 1", {NAN, 1}},     {"-0.1 + 1.1", {-0.1, 1.1}}, {"-0 + 1", {-0.0, 1}},
};
#define POLICY_SETS ((int)(sizeof policy_sets / sizeof policy_sets[0]))
static const char *const result_words[] = {"kept", "normalized", "fell back", "not finite", "negative", "not summing", "weightless"};

void grade30_points_policy(grade_fn g, const grade30_case *failing, grade30_picture_data *out)
{
    grade30_fn f = grade30_fn_of(g);
    (void)failing; /* the named pose shows this exercise's mistakes */
    out->count = 3 * POLICY_SETS, out->drawn = true;
    for (int p = 0; p < 3; p++)
        for (int i = 0; i < POLICY_SETS; i++) {
            int joint[2] = {2, 3};
            double w[2] = {policy_sets[i].w[0], policy_sets[i].w[1]};
            out->yours[p * POLICY_SETS + i].x = f.apply_policy(joint, w, 2, (ex30_policy)p, 1);
        }
}

lab_error grade30_draw_policy(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    lab_error e = blank(out, "17. weight sets under each policy\n(fallback=1): the lab's verdict, and\nyours in red where it differs", d);
    static const char *const heads[] = {"strict", "normalize", "fallback"};
    for (int p = 0; e == LAB_OK && p < 3; p++)
        raster_text(out, 130 + p * 125, 90, FIGURE_TEXT_SCALE, heads[p], FIGURE_EDGE);
    for (int i = 0; e == LAB_OK && i < POLICY_SETS; i++) {
        int y = 118 + i * 40;
        raster_text(out, 8, y, FIGURE_TEXT_SCALE, policy_sets[i].words, FIGURE_EDGE);
        for (int p = 0; p < 3; p++) {
            grade30_case c = {.k = 2, .method = p, .fallback = 1, .joint = {2, 3}, .weight = {policy_sets[i].w[0], policy_sets[i].w[1]}};
            int lab = (int)grade30_policy_expected(&c).v[0];
            double mine = yours->drawn ? yours->yours[p * POLICY_SETS + i].x : NAN;
            raster_text(out, 130 + p * 125, y, 1, result_words[lab], LABS);
            if (!(mine == lab))
                raster_text(out, 130 + p * 125, y + 14, 1,
                            mine >= 0 && mine <= 6 && mine == (int)mine ? result_words[(int)mine] : "(not a result)", YOURS);
        }
    }
    return e;
}

/* ---- 18, 19. weights as bars ----------------------------------------------------------------- */

static const int heavy_joint[7] = {6, 2, 5, 0, 3, 1, 4};
static const double heavy_weight[7] = {0.05, 0.3, 0.1, 0.2, 0.1, 0.15, 0.1};

void grade30_points_heaviest(grade_fn g, const grade30_case *failing, grade30_picture_data *out)
{
    grade30_fn f = grade30_fn_of(g);
    (void)failing; /* the named pose shows this exercise's mistakes */
    int j[4] = {-1, -1, -1, -1};
    double w[4] = {NAN, NAN, NAN, NAN};
    int kept = f.keep_heaviest(heavy_joint, heavy_weight, 7, j, w);
    out->count = 8, out->drawn = kept == 4;
    for (int i = 0; i < 8; i++)
        out->yours[i].x = 0;
    for (int i = 0; out->drawn && i < 4; i++) /* per joint: the kept weight, 0 where dropped */
        if (j[i] >= 0 && j[i] < 8)
            out->yours[j[i]].x += w[i];
}

lab_error grade30_draw_heaviest(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    lab_error e = blank(out, "18. seven influences, four kept and\nrenormalised (0.1 on joints 3, 4, 5:\nthe lower joint wins), per joint", d);
    grade30_case c = {.k = 7};
    memcpy(c.joint, heavy_joint, sizeof heavy_joint), memcpy(c.weight, heavy_weight, sizeof heavy_weight);
    grade30_answer want = grade30_heaviest_expected(&c);
    double lab[7] = {0}, mine[7];
    for (int i = 0; i < 4; i++)
        lab[(int)want.v[1 + i]] = want.v[5 + i];
    for (int i = 0; i < 7; i++)
        mine[i] = yours->yours[i].x;
    static const char *const names[] = {"joint 0", "1", "2", "3", "4", "5", "6"};
    if (e == LAB_OK)
        bars(out, 90, 220, lab, mine, yours->drawn, 7, 0, 0.5, names);
    return e;
}

static const unsigned short unpack_sets[3][3] = {{65535, 0, 0}, {10000, 20000, 30000}, {0, 0, 0}};

void grade30_points_unpack(grade_fn g, const grade30_case *failing, grade30_picture_data *out)
{
    grade30_fn f = grade30_fn_of(g);
    (void)failing; /* the named pose shows this exercise's mistakes */
    out->count = 12, out->drawn = true;
    for (int s = 0; s < 3; s++) {
        double w[4];
        f.unpack_weights(unpack_sets[s], w);
        for (int i = 0; i < 4; i++)
            out->yours[4 * s + i].x = w[i];
    }
}

lab_error grade30_draw_unpack(const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    lab_error e = blank(out, "19. three UNORM16 vertices, 4 weights:\n(65535, 0, 0), (10000, 20000, 30000)\nand (0, 0, 0)", d);
    double lab[12], mine[12];
    for (int s = 0; s < 3; s++) {
        grade30_case c = {0};
        memcpy(c.stored, unpack_sets[s], sizeof c.stored);
        grade30_answer a = grade30_unpack_expected(&c);
        for (int i = 0; i < 4; i++)
            lab[4 * s + i] = a.v[i], mine[4 * s + i] = yours->yours[4 * s + i].x;
    }
    static const char *const names[] = {"w0", "w1", "w2", "w3", "w0", "w1", "w2", "w3", "w0", "w1", "w2", "w3"};
    if (e == LAB_OK)
        bars(out, 90, 220, lab, mine, yours->drawn, 12, 0, 1, names);
    return e;
}
