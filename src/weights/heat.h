/* heat.h - where weights come from: bone heat (Baran and Popovic, "Automatic Rigging and
 * Animation of 3D Characters", SIGGRAPH 2007, section 4), as the paper writes it
 * (HEAT_PAPER) and as Blender 3.4's "With Automatic Weights" computes it
 * (HEAT_BLENDER). The formulas are written out, term by term, in src/weights/heat.c.
 *
 * The paper's model. The weights of bone j solve one sparse linear system on the bind mesh:
 *
 *     -Delta w_j + H w_j = H p_j          (the paper's equation)
 *
 *   Delta = M^-1 L   the surface Laplacian of Meyer et al. (2003): L the cotangent matrix,
 *                    L_ik = (cot alpha_ik + cot beta_ik) / 2 on an edge ik and
 *                    L_ii = -sum_k L_ik; M diagonal, M_ii = vertex i's mixed Voronoi area
 *   H_ii = k c / d_i^2   d_i the distance from vertex i to its nearest visible bone, k the
 *                    number of bones at that distance (a tie), c = 1 (the paper's choice);
 *                    H_ii = 0 where no bone is visible
 *   p_j(i) = 1 / k   where bone j is one of vertex i's k nearest visible bones, else 0
 *
 * Multiplied by M, the system is symmetric positive definite and is what CHOLMOD factors
 * once (src/solve/sparse.h); each bone is one solve:
 *
 *     (-L + M H) w_j = M H p_j
 *
 * Blender's model (source/blender/editors/armature/meshlaplacian.c, Blender 3.4), point by
 * point where it differs:
 *   - its rows are M^-1 L / 4 + H (its per-vertex area is twice Meyer's and it takes
 *     0.5 / area): the paper's system with 4 H in place of H, the same as c = 4;
 *   - an edge's cotangent is divided by the number of triangles on it, not by 2: a boundary
 *     edge keeps its whole cot alpha;
 *   - the distance is d / ((cos + 1.001) / 2), cos the cosine between the vertex normal (the
 *     normalised sum of its triangles' unit normals) and the direction from the bone's
 *     closest point to the vertex: a vertex facing away from a bone is farther from it;
 *   - the nearest bone is the nearest of all bones, visible or not: k counts the bones within
 *     1e-4 of that distance that are visible (MESH_SEGMENT_FACING, src/mesh/bvh.h), so a
 *     vertex whose nearest bone is hidden gets no heat; H uses max(d, 1e-4);
 *   - each bone is a source of its own (a vertex group), solved on its own, and each of its
 *     weights cut (heat_blender_cut): below 0.025 it is dropped, from 0.025 to 0.05 it is
 *     scaled down to meet 0 at 0.025; a joint's weights are then the sum of its bones', and
 *     nothing is normalised afterwards.
 * heat_result keeps the solution before the cut.
 *
 * Open ends: an edge with one triangle (the cylinder's end rings) has one opposite angle,
 * so the paper's L keeps the one term cot alpha / 2: the discrete form of a zero-flux
 * (Neumann) boundary, heat neither enters nor leaves through the cut.
 *
 * Visible (the paper's model): the segment from a vertex to the closest point of a bone
 * crosses no triangle of the mesh (MESH_SEGMENT_ANY: the triangles around the vertex itself
 * excluded). The paper asks that the segment lie inside the character's volume; for a
 * closed mesh whose bones are inside it the two are the same test.
 *
 * Vertices no triangle uses are not on the surface the heat flows over: in both models such
 * a vertex takes its weights from the bones nearest it, p_j(i), visibility aside (Blender's
 * row for it is H w = H p). A vertex on a bone (d = 0) is refused by the paper's model
 * (LAB_ERR_HEAT_ON_BONE) and clamped by Blender's. A connected part of the surface in which
 * no vertex sees a bone (a plate outside a body that hides the bones: nothing pins its
 * weights, and its block of the system is singular) is taken out of the system: by the
 * paper's model each of its vertices takes the weights of the bones nearest it, visibility
 * aside, as a vertex no triangle uses does; by Blender's none (Blender 3.4 leaves such a
 * part without a vertex group, at the bind pose). heat_result counts the parts.
 *
 * Properties the program checks rather than enforces: because L 1 = 0 and sum_j p_j = 1
 * wherever H_ii > 0, the solution's weights sum to 1 at every vertex; because -L + M H is
 * an M-matrix when no cotangent weight is negative, they are non-negative.
 */
#ifndef HEAT_H
#define HEAT_H

#include <stdbool.h>
#include <stddef.h>

#include "mesh/mesh.h"
#include "solve/sparse.h"

#define HEAT_C 1.0           /* the paper's heat constant c (Blender's C_WEIGHT too) */
#define HEAT_TIE 1e-9        /* bones within this relative distance of the nearest tie */
/* The cost is linear in vertices x bones (a distance each, and a visibility query each in
 * the worst case, where a vertex sees no bone) and the tables are vertices x joints
 * doubles: a run beyond this many pairs is refused (LAB_ERR_LIMIT). The time at the limit
 * is measured on the chapter page. */
#define HEAT_MAX_PAIRS (1 << 22)

typedef enum { HEAT_PAPER, HEAT_BLENDER } heat_model;
#define HEAT_MODELS 2
extern const char *const heat_model_names[HEAT_MODELS + 1]; /* "paper", "blender", NULL */

/* Blender 3.4's constants (meshlaplacian.c: DISTANCE_EPSILON, the mindist clamp,
 * WEIGHT_LIMIT_END and WEIGHT_LIMIT_START) */
#define HEAT_BLENDER_TIE 1e-4
#define HEAT_BLENDER_MIN_DISTANCE 1e-4
#define HEAT_BLENDER_CUT_END 0.025
#define HEAT_BLENDER_CUT_START 0.05
/* Blender's cut of one weight: 0 below 0.025, (w - 0.025) / 0.025 * 0.05 up to 0.05, w above.
 * The cut is continuous at both ends (0 at 0.025, exactly 0.05 at 0.05 in doubles), so `<`
 * and `<=` at either end give the same value for every weight: an equivalent way to write
 * it, not a mistake a test can tell apart (test_heat30_models checks both ends exactly). */
double heat_blender_cut(double w);

/* A bone: the segment from a to b, whose heat goes to joint `joint`'s weights. A joint may
 * own several bones (one to each child), and a bone may be a point (a == b). */
typedef struct {
    vec3 a, b;
    int joint;
} heat_bone;

/* The distance from p to the segment, and its closest point (may be NULL). */
double heat_segment_distance(vec3 p, heat_bone bone, vec3 *closest);

/* The cotangent matrix L (both halves, as triplets into a new *L; the model's edge rule),
 * the mixed Voronoi area of every vertex (mass[vertex_count], the caller's; 0 for a vertex
 * no triangle uses) and how many triangles are obtuse (*obtuse_count, may be NULL: each
 * gives its edges a negative cotangent). A triangle of zero area has no angles to take
 * cotangents of: LAB_ERR_MESH_ZERO_AREA names it. */
lab_error heat_laplacian(const mesh *m, heat_model model, sparse_triplets *L, double *mass, int *obtuse_count,
                           lab_diag *d);

/* The heat: H[i] = k c / d_i^2 and p[i * joint_count + j] (the caller's arrays), by the
 * model's distance and visibility; *hidden (may be NULL) counts vertices of the surface
 * with no heat (H_ii = 0). */
lab_error heat_sources(const mesh *m, heat_model model, const heat_bone *bones, int bone_count, int joint_count,
                      double c, double *H, double *p, int *hidden, lab_diag *d);

/* p[i * joint_count + j] for the vertices which[i] flags: the bones nearest them by the
 * model's distance, visibility aside (k tied bones share 1/k), as a vertex no triangle uses
 * has them; the other rows untouched. */
lab_error heat_sources_nearest(const mesh *m, heat_model model, const heat_bone *bones, int bone_count, int joint_count,
                               const unsigned char *which, double *p, lab_diag *d);

/* What one bone-heat run found and cost. */
typedef struct {
    int vertex_count, joint_count;
    heat_model model;
    double *solution;           /* vertex_count x joint_count, vertex-major: the solves' */
    double *weights;            /* the same after the model's cut (Blender's), or a copy */
    double *backward_error;     /* per joint: the solve's normwise backward error,
                                 * |A w - b| / (|A| |w| + |b|) in the infinity norms, with
                                 * A = -L + M H, b = M H p_j and |A| the largest row sum of
                                 * the triplets' absolute values (computed by our own product,
                                 * not CHOLMOD's) */
    int hidden;                 /* vertices that see no bone */
    int unseen_parts, unseen_vertices; /* connected parts in which no vertex sees a bone, and
                                 * their vertices: taken out of the system (above) */
    unsigned char *unseen;      /* vertex_count flags, 1 for their vertices; NULL when none */
    int sourceless;             /* sources (joints; Blender's: bones) no vertex takes heat from:
                                 * p_s = 0, so w_s = 0 exactly, given without a solve */
    int obtuse_triangles;       /* triangles with an angle over 90 degrees: a negative cotangent */
    double factor_nonzeros, flops;
    size_t peak_bytes;          /* CHOLMOD's, while factorising */
    double factor_seconds, solve_seconds; /* wall time: the report's, never the evidence's */
} heat_result;

/* Bone-heat weights of every vertex of m for joint_count joints (each must own a bone),
 * by the model. A source no vertex takes heat from (p_s = 0: a bone every vertex has a nearer
 * one than, or cannot see) has weight 0 everywhere, given without its solve, so that its cost
 * is its distances alone. A part that sees no bone is weighted as the model says (above).
 * Refuses more than HEAT_MAX_PAIRS vertex-bone pairs (LAB_ERR_LIMIT) and (the paper's
 * model) a vertex on a bone. */
lab_error heat_solve(const mesh *m, heat_model model, const heat_bone *bones, int bone_count, int joint_count,
                       double c, heat_result *out, lab_diag *d);
void heat_result_free(heat_result *r);

#endif
