/* failing.c - a wrong answer's first failing case, drawn (failing.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "draw/diagram.h"
#include "draw/figure.h"
#include "draw/plot.h"
#include "grade/failing.h"

/* text cut to `width` pixels at the figures' scale, with "..." where it was cut */
static void fit(char *text, int width)
{
    size_t n = strlen(text);
    while (n > 3 && raster_text_width(text, FIGURE_TEXT_SCALE) > width) {
        n--;
        memcpy(text + n - 3, "...", 4);
    }
}

/* The power of ten the numbers up to m are shown in: 0 for 1 <= m < 10^4 (and m = 0). */
static int exponent_of(double m) { return m > 0 && (m < 1 || m >= 1e4) ? (int)floor(log10(m)) : 0; }

/* A step of 1, 2, 2.5 or 5 times a power of ten, about a quarter of span (> 0). */
static double nice_step(double span)
{
    double raw = span / 4, power = pow(10, floor(log10(raw))), step = power;
    static const double nice[] = {1, 2, 2.5, 5, 10};
    for (int k = 0; k < 5 && step < raw; k++)
        step = nice[k] * power;
    return step;
}

/* The numbers, value by value: the first 16 of each, one that is not finite at the top edge. */
static lab_error values_picture(const char *title, const char *words, const grade_result *r, canvas *out, lab_diag *d)
{
    int n = r->failed_got > r->failed_want ? r->failed_got : r->failed_want;
    n = n > 16 ? 16 : n < 1 ? 1 : n;
    int lab_n = r->failed_want < n ? r->failed_want : n, yours_n = r->failed_got < n ? r->failed_got : n;
    double m = 0;
    for (int k = 0; k < n; k++) {
        if (k < lab_n && isfinite(r->want[k]))
            m = fmax(m, fabs(r->want[k]));
        if (k < yours_n && isfinite(r->got[k]))
            m = fmax(m, fabs(r->got[k]));
    }
    int exponent = exponent_of(m);
    double unit = pow(10, exponent), index[16], lab[16], yours[16], lo = 0, hi = 0;
    for (int k = 0; k < n; k++) {
        index[k] = k;
        lab[k] = k < lab_n && isfinite(r->want[k]) ? r->want[k] / unit : NAN;
        yours[k] = k < yours_n && isfinite(r->got[k]) ? r->got[k] / unit : NAN;
        lo = fmin(lo, fmin(isnan(lab[k]) ? 0 : lab[k], isnan(yours[k]) ? 0 : yours[k]));
        hi = fmax(hi, fmax(isnan(lab[k]) ? 0 : lab[k], isnan(yours[k]) ? 0 : yours[k]));
    }
    if (hi - lo < 1e-300)
        lo = -1, hi = 1;
    double step = nice_step(hi - lo), y_min = floor(lo / step) * step, y_max = ceil(hi / step) * step;
    for (int k = 0; k < n; k++) /* a number that is not finite: at the top edge */
        lab[k] = isnan(lab[k]) ? y_max : lab[k], yours[k] = isnan(yours[k]) ? y_max : yours[k];
    char units[32] = "";
    if (exponent)
        snprintf(units, sizeof units, "x 1e%d", exponent);
    const plot_series series[] = {
        {index, lab, lab_n, {0, 140, 60}, 0, 2, "the lab's", 8, 1},
        {index, yours, yours_n, {200, 30, 30}, 4, 1, "yours", 4, 1},
    };
    const plot_spec spec = {title, words, exponent ? units : NULL, 0, n > 1 ? n - 1 : 1, n > 8 ? 3 : 1,
                            y_min, y_max, step, series, 2, false, false};
    return plot_draw(out, GRADE_PICTURE_W, GRADE_PICTURE_H, &spec, d);
}

/* The places an answer stands for: a point itself, or a frame's origin and its three axes'
 * tips; how many (0 when the answer is not one, or a number is not finite). */
static int places(grade_shape shape, const double *v, int n, double p[4][3])
{
    int count = shape == GRADE_POINT && n == 3 ? 1 : shape == GRADE_MATRIX && n == 16 ? 4 : 0;
    for (int k = 0; k < n && count; k++)
        if (!isfinite(v[k]))
            return 0;
    if (count == 1)
        p[0][0] = v[0], p[0][1] = v[1], p[0][2] = v[2];
    for (int i = 0; i < 3 && count == 4; i++) { /* row i of the matrix: v[4 i ..] */
        p[0][i] = v[4 * i + 3];
        for (int a = 0; a < 3; a++)
            p[1 + a][i] = v[4 * i + 3] + v[4 * i + a];
    }
    return count;
}

/* A point or a frame, the lab's beside yours, in the plane of the two axes along which they
 * differ most (x and y where they do not). */
static lab_error places_picture(const char *title, const char *words, double lab[4][3], double yours[4][3], int count,
                                canvas *out, lab_diag *d)
{
    double along[3] = {0, 0, 0}, m = 0;
    for (int k = 0; k < count; k++)
        for (int i = 0; i < 3; i++) {
            along[i] += (yours[k][i] - lab[k][i]) * (yours[k][i] - lab[k][i]);
            m = fmax(m, fmax(fabs(lab[k][i]), fabs(yours[k][i])));
        }
    int drop = 2; /* the axis left out: the one along which they differ least */
    for (int i = 1; i >= 0; i--)
        if (along[i] < along[drop])
            drop = i;
    int a = drop == 0 ? 1 : 0, b = drop == 2 ? 1 : 2;
    static const char *const names[3] = {"x", "y", "z"};
    int exponent = exponent_of(m);
    double unit = pow(10, exponent), extent = m > 0 ? m / unit : 1;
    double step = nice_step(2 * extent), edge = ceil(extent / step) * step;
    /* the plane's square: its tick labels to the left and below, the title's three lines above */
    double size = fmin(GRADE_PICTURE_W - 140, GRADE_PICTURE_H - 150), scale = size / (2 * edge);
    char heading[480], legend[64];
    snprintf(heading, sizeof heading, "%s\n%s\n%s", title, words,
             count == 1 ? "green the lab's point, red yours" : "green the lab's frame, red yours");
    diagram g;
    lab_error e = diagram_init(&g, out, GRADE_PICTURE_W, GRADE_PICTURE_H, 90 + size / 2, 100 + size / 2, scale,
                               heading, d);
    if (e != LAB_OK)
        return e;
    diagram_axes(&g, -edge, edge, -edge, edge, step, names[a], names[b]);
    if (exponent) {
        snprintf(legend, sizeof legend, "in units of 1e%d", exponent);
        raster_text(out, GRADE_PICTURE_W - 8 - raster_text_width(legend, FIGURE_TEXT_SCALE),
                    GRADE_PICTURE_H - 4 - raster_text_height(legend, FIGURE_TEXT_SCALE), FIGURE_TEXT_SCALE, legend,
                    FIGURE_TEXT);
    }
    double(*side[2])[3] = {lab, yours};
    for (int s = 0; s < 2; s++) {
        rgb color = s ? DIAGRAM_RED : DIAGRAM_GREEN;
        double ox = side[s][0][a] / unit, oy = side[s][0][b] / unit;
        for (int k = 1; k < count; k++) /* a frame's axes from its origin */
            diagram_segment(&g, ox, oy, side[s][k][a] / unit, side[s][k][b] / unit, s ? 6 : 0, color);
        /* the marker's label on the side towards the middle */
        diagram_point(&g, ox, oy, color, ox > 0 ? DIAGRAM_LEFT : DIAGRAM_RIGHT, "%s", s ? "yours" : "lab");
    }
    if (count == 1)
        diagram_segment(&g, lab[0][a] / unit, lab[0][b] / unit, yours[0][a] / unit, yours[0][b] / unit, 4,
                        DIAGRAM_GREY);
    return LAB_OK;
}

lab_error grade_failing_picture(int x, const grade_exercise *e, const grade_result *r, canvas *out, lab_diag *d)
{
    char title[160], words[240];
    snprintf(title, sizeof title, "%d. the first failing case, %d of %d", x + 1, r->failed, e->named + e->generated);
    /* where the exercise's pose is the same through yours, this panel stands alone: it says why */
    snprintf(words, sizeof words, "%s%s", r->pose_hides ? "(the pose hides it) " : "", r->failed_case);
    double lab[4][3], yours[4][3];
    int count = r->failed_got == r->failed_want ? places(e->shape, r->want, r->failed_want, lab) : 0;
    if (count && places(e->shape, r->got, r->failed_got, yours) == count) {
        fit(words, GRADE_PICTURE_W - 16);
        return places_picture(title, words, lab, yours, count, out, d);
    }
    fit(words, GRADE_PICTURE_W - 120);
    return values_picture(title, words, r, out, d);
}
