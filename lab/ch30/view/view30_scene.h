/* view30_scene.h - what the chapter's window shows, without the window: the cylinder's two
 * rigs under every method and weight set at any angle (view30_scene.c), drawn by the lab's
 * own rasterizer and figure code into one 800 x 600 frame (view30_frame.h), and the
 * student's sheet beside the lab (view30_sheet.h). The window (view30.c and the files that
 * include SDL) only shows these frames, and an asset's (view30_asset.h), and turns keys and
 * drags into states; everything a frame holds is made here, so the suites check it without
 * a screen.
 *
 * The frame, at a state (twist angle, bend angle, method, weight set):
 *   (0, 0)     the twist, 320 x 496: lab30's panel drawing (skinning30_draw_panel) in
 *              lab30's camera rule (skinning30_fit_camera over the pose shown and lab30's
 *              animation), so that with LBS and the hand weights it is pixel for pixel
 *              skinning30-thetaNNN.png of `lab30 --theta NNN`;
 *   (320, 0)   the bend (the elbow of lab30-dqs and lab30-fixes), 320 x 496, or the
 *              student's twist when a sheet is loaded;
 *   (640, 0)   the state and the keys, 160 x 496;
 *   (0, 496)   the readouts, 800 x 104: the middle ring's radius beside its closed form, the
 *              blended matrix's singular values, the angles; or the sheet's verdicts.
 */
#ifndef VIEW30_SCENE_H
#define VIEW30_SCENE_H

#include <stdbool.h>

#include "base/bytes.h"
#include "base/diag.h"
#include "draw/camera.h"
#include "draw/raster.h"
#include "mesh/mesh.h"

#include "lab30/skinning30.h"
#include "rig30.h"
#include "rig30_fixes.h"

#define VIEW30_WIDTH 800
#define VIEW30_HEIGHT 600
#define VIEW30_PANEL_W 320
#define VIEW30_PANEL_H 496
#define VIEW30_LABEL_LINES 4 /* the label lines of a panel */
#define VIEW30_ANGLE_LIMIT 3600.0 /* degrees, either way: lab30's --theta range */

typedef enum {
    VIEW30_LBS,
    VIEW30_DQS,
    VIEW30_COR,              /* centres of rotation (Le and Hodgins 2016) */
    VIEW30_TWIST_JOINTS_1,   /* one helper joint shares the twist */
    VIEW30_TWIST_JOINTS_3,   /* three helpers */
    VIEW30_CORRECTIVE_BEFORE, /* a corrective shape before skinning (glTF's morph order) */
    VIEW30_CORRECTIVE_AFTER, /* after skinning, in the vertex's frame */
    VIEW30_METHODS
} view30_method;

typedef enum {
    VIEW30_HAND,     /* the chapter's w_1 = z/2 (the bend's smoothstep) */
    VIEW30_HEAT,     /* bone heat as the paper writes it */
    VIEW30_BLENDER,  /* bone heat as Blender computes it, cut per bone */
    VIEW30_BBW,      /* bounded biharmonic weights, the end rings as handles */
    VIEW30_WEIGHT_SETS
} view30_weights;

const char *view30_method_name(view30_method m);   /* "LBS", "twist joints x3", ... */
const char *view30_weights_name(view30_weights w); /* "hand", "heat", "blender", "bbw" */

/* What the window shows: the angles in degrees, any in [-3600, 3600]. */
typedef struct {
    double twist_deg, bend_deg;
    view30_method method;
    view30_weights weights;
} view30_state;

/* Everything the frames are drawn from, made once: the rigs under every weight set, the
 * fixes' precomputations, lab30's animation (the twist camera's rule), the bend's camera. */
typedef struct {
    rig30_rig rigs[VIEW30_WEIGHT_SETS][2];           /* [set][RIG30_TWIST or RIG30_BEND] */
    mesh_edge *edges;
    int edge_count;
    bool *middle, *band;                             /* the edges to colour */
    vec3 axis[2];                                    /* lab30's dashed axis */
    vec3 *sweep[LAB30_SWEEP_FRAMES];                 /* lab30's animation: LBS, hand, 0..360 */
    camera bend_cam;
    vec3 *centres[VIEW30_WEIGHT_SETS][2];            /* CoR's p* */
    vec3 *deltas[2][VIEW30_WEIGHT_SETS][2];          /* [order][set][rig]: the corrective shape */
} view30_scene;

/* The live numbers of one state. NAN where a method has no such number. */
typedef struct {
    double twist_deg, bend_deg;
    double middle_radius;        /* the twist's middle ring, mean distance from the axis */
    double middle_closed;        /* its closed form for the method, NAN where none */
    double middle_weight;        /* the middle ring's child weight in the set */
    double middle_det;           /* det of the middle ring's blended linear map */
    double singular[3];          /* its singular values, largest first (NAN: the method has
                                  * no single blended matrix there) */
    double inner, bulge;         /* the bend: the inner side's nearest approach to the joint,
                                  * the outer side's bulge */
    bool bend_applies;           /* twist joints apply to the twist only */
} view30_readout;

/* Builds the scene: both rigs under the four weight sets (bone heat and BBW solved with
 * CHOLMOD, src/solve/sparse.h), the fixes' centres and deltas, lab30's animation. */
lab_error view30_scene_build(view30_scene *s, lab_diag *d);
void view30_scene_free(view30_scene *s);

/* The skinned positions of rig `kind` at the state (out: 216 positions) and, for the
 * twist, the middle ring's numbers. */
lab_error view30_skin(const view30_scene *s, const view30_state *st, rig30_kind kind, vec3 *out,
                      view30_readout *r, lab_diag *d);

/* The student's sheet, graded and skinned (view30_sheet.c): verdict lines and, where
 * the sheet's exercises 1 to 3 ran, the cylinder's twist by the student's formulas. */
#define VIEW30_VERDICT_LINES 8
#define VIEW30_LINE 96
#define VIEW30_EXERCISES 24 /* a sheet's exercises, at most */
#define VIEW30_DETAIL 10    /* the lines under one verdict, at most */
#define VIEW30_TEXT 400     /* one of the grader's lines */

/* One exercise's whole verdict, as the grader printed it: its line ("3. the LBS blend ...:
 * wrong") and every line under it (the case, computed, expected, the difference, the known
 * mistake, the heading to read); never what the student's body printed. */
typedef struct {
    char line[VIEW30_TEXT];
    char detail[VIEW30_DETAIL][VIEW30_TEXT];
    int details;
} view30_verdict;

typedef struct {
    bool loaded;                                 /* a sheet is being watched */
    char lines[VIEW30_VERDICT_LINES][VIEW30_TEXT]; /* the grader's one line an exercise, or
                                                  * the compiler's first error */
    int line_count;
    bool has_positions;                          /* the student's skinning ran */
    vec3 positions[RIG30_RINGS * RIG30_SEGMENTS];
    double positions_deg;                        /* the state they are at: the twist, */
    view30_method positions_method;              /* the method, */
    view30_weights positions_weights;            /* the weights */
    char how[VIEW30_LINE];                       /* the method's exercises that drew it ("by
                                                  * exercise 6"), or "not on this sheet" */
    bool shaded;                                 /* positions are the lab's, shaded by the
                                                  * normals below (exercise 16's) */
    vec3 normals[RIG30_RINGS * RIG30_SEGMENTS];
    char status[VIEW30_LINE];                    /* "version 3", "crashed: ...", ... */
    bool grade_stale;                            /* the verdicts are of an older version */
    char sheet_name[32];                         /* the sheet the grader took it for ("dqs") */
    view30_verdict verdicts[VIEW30_EXERCISES];   /* the last grade's, whole */
    int verdict_count;
    int wrong;                                   /* verdicts[wrong - 1] is the first that is
                                                  * not correct (nor not written yet); 0: none */
    canvas mistake;                              /* the grader's picture of it (grade30-N.png;
                                                  * empty where it could not be read: stderr
                                                  * says why) */
    bool show_mistake;                           /* the second panel shows it (key v) */
} view30_student;

#endif
