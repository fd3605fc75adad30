/* heat30.h - where weights come from: bone heat (Baran and Popovic, "Automatic Rigging and
 * Animation of 3D Characters", SIGGRAPH 2007, section 4), the method behind Blender's
 * "With Automatic Weights". The formulas are written out, term by term, in heat30.c.
 *
 * The weights of bone j solve one sparse linear system on the bind mesh:
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
 * Open ends: an edge with one triangle (the cylinder's end rings) has one opposite angle,
 * so L keeps the one term cot alpha / 2: the discrete form of a zero-flux (Neumann)
 * boundary, heat neither enters nor leaves through the cut.
 *
 * Visible: the segment from a vertex to the closest point of a bone crosses no triangle
 * of the mesh (the triangles around the vertex itself excluded). The paper asks that the
 * segment lie inside the character's volume; for a closed mesh whose bones are inside it
 * the two are the same test.
 *
 * Properties the program checks rather than enforces: because L 1 = 0 and sum_j p_j = 1
 * wherever H_ii > 0, the weights of every vertex sum to 1; because -L + M H is an
 * M-matrix when no cotangent weight is negative, they are non-negative.
 */
#ifndef HEAT30_H
#define HEAT30_H

#include <stdbool.h>
#include <stddef.h>

#include "mesh/mesh.h"
#include "solve/sparse.h"

#define HEAT30_C 1.0           /* the paper's heat constant c */
#define HEAT30_TIE 1e-9        /* bones within this relative distance of the nearest tie */

/* A bone: the segment from a to b, whose heat goes to joint `joint`'s weights. A joint may
 * own several bones (one to each child), and a bone may be a point (a == b). */
typedef struct {
    vec3 a, b;
    int joint;
} heat30_bone;

/* The distance from p to the segment, and its closest point (may be NULL). */
double heat30_segment_distance(vec3 p, heat30_bone bone, vec3 *closest);

/* The cotangent matrix L (both halves, as triplets into a new *L), the mixed Voronoi area
 * of every vertex (mass[vertex_count], the caller's) and how many triangles are obtuse
 * (*obtuse_count, may be NULL: each gives its edges a negative cotangent). A triangle of zero area has
 * no angles to take cotangents of: LAB_ERR_MESH_ZERO_AREA names it. */
lab_error heat30_laplacian(const mesh *m, sparse_triplets *L, double *mass, int *obtuse_count, lab_diag *d);

/* The heat: H[i] = k c / d_i^2 and p[i * joint_count + j] (the caller's arrays), as above;
 * *hidden (may be NULL) counts vertices that see no bone. */
lab_error heat30_heat(const mesh *m, const heat30_bone *bones, int bone_count, int joint_count, double c,
                      double *H, double *p, int *hidden, lab_diag *d);

/* What one bone-heat run found and cost. */
typedef struct {
    int vertex_count, joint_count;
    double *weights;            /* vertex_count x joint_count, vertex-major */
    double *backward_error;     /* per joint: the solve's normwise backward error,
                                 * |A w - b| / (|A| |w| + |b|) in the infinity norms, with
                                 * A = -L + M H, b = M H p_j and |A| the largest row sum of
                                 * the triplets' absolute values (computed by our own product,
                                 * not CHOLMOD's) */
    int hidden;                 /* vertices that see no bone */
    int obtuse_triangles;       /* triangles with an angle over 90 degrees: a negative cotangent */
    double factor_nonzeros, flops;
    size_t peak_bytes;          /* CHOLMOD's, while factorising */
    double factor_seconds, solve_seconds; /* wall time: the report's, never the evidence's */
} heat30_result;

/* Bone-heat weights of every vertex of m for joint_count joints (each must own a bone).
 * Refuses a mesh whose system is not positive definite (LAB_ERR_NOT_POSITIVE_DEFINITE):
 * a vertex or a whole piece of the mesh that sees no bone has nothing to pin it. */
lab_error heat30_solve(const mesh *m, const heat30_bone *bones, int bone_count, int joint_count, double c,
                       heat30_result *out, lab_diag *d);
void heat30_result_free(heat30_result *r);

#endif
