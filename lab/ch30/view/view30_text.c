/* view30_text.c - the frame's text and controls (view30_frame.h): the sliders of the twist
 * and the bend, the sheet's lines under the panels (wrapped), and the help over the frame. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw/figure.h"
#include "draw/raster.h"

#include "view30_frame.h"

int view30_slider_y(int slider) { return 370 + 62 * (slider - 1); }

int view30_slider_at(int x, int y)
{
    for (int s = 1; s <= 2; s++)
        if (x >= VIEW30_SLIDER_X0 - 6 && x <= VIEW30_SLIDER_X1 + 6 && abs(y - view30_slider_y(s)) <= 9)
            return s;
    return 0;
}

double view30_slider_angle(int x)
{
    double f = (double)(x - VIEW30_SLIDER_X0) / (VIEW30_SLIDER_X1 - VIEW30_SLIDER_X0);
    return round(fmax(-1, fmin(1, 2 * f - 1)) * VIEW30_SLIDER_RANGE);
}

void view30_slider_draw(canvas *out, int s, const char *name, double deg)
{
    const int y = view30_slider_y(s), x0 = VIEW30_SLIDER_X0, x1 = VIEW30_SLIDER_X1;
    const rgb grey = {150, 150, 150}, knob = {40, 90, 200};
    char label[64];
    bool beyond = fabs(deg) > VIEW30_SLIDER_RANGE;
    snprintf(label, sizeof label, "%s %g deg%s", name, deg, beyond ? " (past the end)" : "");
    if (raster_text_width(label, 1) > VIEW30_WIDTH - x0 - 4) /* the angle's own digits, then the name */
        snprintf(label, sizeof label, "%s %g", name, deg);
    raster_text(out, x0 - 4, y - 26, 1, label, FIGURE_TEXT);
    raster_fill_rect(out, x0, y - 1, x1 - x0 + 1, 3, grey);
    static const char *const values[5] = {"-360", "", "0", "", "360"};
    for (int k = 0; k < 5; k++) {
        int x = x0 + (x1 - x0) * k / 4, w = raster_text_width(values[k], 1);
        raster_fill_rect(out, x, y + 3, 1, 4, grey);
        raster_text(out, k == 0 ? x0 - 4 : k == 4 ? x1 - w + 4 : x - w / 2, y + 9, 1, values[k], grey);
    }
    double f = (fmax(-VIEW30_SLIDER_RANGE, fmin(VIEW30_SLIDER_RANGE, deg)) / VIEW30_SLIDER_RANGE + 1) / 2;
    int kx = x0 + (int)lround(f * (x1 - x0));
    raster_fill_rect(out, kx - 3, y - 7, 7, 15, knob);
    if (beyond) /* hollow: the angle is past the track's end */
        raster_fill_rect(out, kx - 1, y - 5, 3, 11, FIGURE_BACKGROUND);
}

/* Text of the readouts' scale cut into lines of at most `width` pixels, at spaces where it
 * can (a word longer than a line is cut), into out (lines of VIEW30_TEXT); how many, at most
 * max. */
static int wrap(const char *text, int width, char (*out)[VIEW30_TEXT], int max)
{
    int n = 0;
    size_t len = strlen(text), at = 0;
    while (at < len && n < max) {
        size_t end = len, cut = at;
        char line[VIEW30_TEXT];
        for (size_t k = at; k < len; k++) { /* the longest prefix that fits */
            size_t m = k - at + 1 < sizeof line ? k - at + 1 : sizeof line - 1;
            memcpy(line, text + at, m), line[m] = 0;
            if (raster_text_width(line, 1) > width || m == sizeof line - 1) {
                end = k;
                break;
            }
            if (text[k] == ' ')
                cut = k;
        }
        if (end < len && cut > at) /* at the last space */
            end = cut;
        if (end == at)
            end = at + 1;
        snprintf(out[n++], VIEW30_TEXT, "%.*s", (int)(end - at), text + at);
        at = end;
        while (at < len && text[at] == ' ')
            at++;
    }
    return n;
}

enum { READOUT_LINES = 8 }; /* the bottom's lines at scale 1 */

void view30_student_lines(const view30_student *student, canvas *out)
{
    char lines[READOUT_LINES][VIEW30_TEXT];
    int n = 0;
    if (student->show_mistake && student->wrong > 0) { /* the whole verdict, wrapped */
        const view30_verdict *v = &student->verdicts[student->wrong - 1];
        n = wrap(v->line, VIEW30_WIDTH - 16, lines, READOUT_LINES);
        for (int k = 0; k < v->details && n < READOUT_LINES; k++) {
            char indented[VIEW30_TEXT + 4];
            snprintf(indented, sizeof indented, "  %s", v->detail[k]);
            n += wrap(indented, VIEW30_WIDTH - 16, lines + n, READOUT_LINES - n);
        }
    } else {
        for (int k = 0; k < student->line_count && n < READOUT_LINES; k++)
            n += wrap(student->lines[k], VIEW30_WIDTH - 16, lines + n, READOUT_LINES - n);
    }
    for (int k = 0; k < n; k++)
        raster_text(out, 8, VIEW30_PANEL_H + 6 + 12 * k, 1, lines[k], FIGURE_TEXT);
}

/* The help: every key and what the panels show, over the frame. */
static const char *const help_lines[] = {
    "view30: chapter 30 in a window (h or F1: this help)",
    "",
    "drag           twist by x, bend by y (a degree a pixel)",
    "sliders        drag a knob: the twist or the bend, -360 to 360",
    "left/right     twist -5/+5 deg (shift: 1)",
    "up/down        bend +5/-5 deg (shift: 1)",
    "m / M          next / previous method: LBS, DQS, CoR,",
    "               twist joints x1, x3, corrective before/after",
    "w / W          next / previous weights: hand, heat, blender, bbw",
    "0              both angles back to 0",
    "v              with a sheet: your twist, or the mistake",
    "p              save the frame (PNG) and its numbers (JSON)",
    "F12            save the window's own pixels",
    "q, Escape      quit",
    "",
    "left: the twist, as lab30 draws it",
    "middle: the bend, its bones in blue (root, child);",
    "with --sheet, yours, or the mistake (v)",
    "bottom: the middle ring's radius beside its closed form,",
    "the blended map's det and singular values; or the grader's",
    "verdicts (with a mistake: its whole verdict)",
    "asset: c clip, space pause, , . scrub, m LBS/DQS, j joint names",
};

void view30_help_overlay(canvas *frame)
{
    /* two columns where a line has them (a key, then what it does: the font is
     * proportional, so the second column has its own x) */
    int lines = (int)(sizeof help_lines / sizeof help_lines[0]), key_w = 0, w = 0;
    for (int k = 0; k < lines; k++) {
        const char *gap = strstr(help_lines[k], "  ");
        if (gap) {
            char key[64];
            snprintf(key, sizeof key, "%.*s", (int)(gap - help_lines[k]), help_lines[k]);
            int kw = raster_text_width(key, 1);
            key_w = kw > key_w ? kw : key_w;
        }
    }
    for (int k = 0; k < lines; k++) {
        const char *gap = strstr(help_lines[k], "  ");
        int lw = gap ? key_w + 16 + raster_text_width(gap + strspn(gap, " "), 1) : raster_text_width(help_lines[k], 1);
        w = lw > w ? lw : w;
    }
    int h = lines * 14, x = (frame->width - w) / 2 - 12, y = (frame->height - h) / 2 - 12;
    raster_fill_rect(frame, x - 2, y - 2, w + 28, h + 28, (rgb){60, 60, 60});
    raster_fill_rect(frame, x, y, w + 24, h + 24, (rgb){250, 250, 240});
    for (int k = 0; k < lines; k++) {
        const char *gap = strstr(help_lines[k], "  ");
        char key[64];
        snprintf(key, sizeof key, "%.*s", gap ? (int)(gap - help_lines[k]) : 63, help_lines[k]);
        raster_text(frame, x + 12, y + 12 + 14 * k, 1, key, FIGURE_TEXT);
        if (gap)
            raster_text(frame, x + 12 + key_w + 16, y + 12 + 14 * k, 1, gap + strspn(gap, " "), FIGURE_TEXT);
    }
}
