/* normals.h - skinning normals three ways, world normals, and how far each is off.
 *
 * A normal is a direction perpendicular to the surface: it never receives translation,
 * and under a linear map A it transforms by (A^-1)^T (tangents t go to A t; n . t = 0
 * stays true only for n' = (A^-1)^T n). For a skinned vertex with skin matrices S_i and
 * weights w_i (the weights article, 002):
 *   rigid     n' = normalize(sum w_i (S_i)3x3 n)            exact for rotations only
 *   blended   L = sum w_i (S_i)3x3, n' = normalize((L^-1)^T n)   handles non-uniform scale;
 *             a singular L (zero scale) is an error naming the vertex
 *   per-bone  n' = normalize(sum w_i ((S_i)3x3^-1)^T n)     another approximation: not
 *             the same as "blended" once the S_i differ
 * All three ignore the gradient of the weights over the surface, which the true normal
 * of the skinned surface contains. World normals: n_world = normalize(((M)3x3^-1)^T n).
 */
#ifndef NORMALS_H
#define NORMALS_H

#include "mesh/mesh.h"
#include "skin/skin.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    NORMALS_RIGID = 0,
    NORMALS_BLENDED_INVERSE_TRANSPOSE,
    NORMALS_PER_BONE_INVERSE_TRANSPOSE,
    NORMALS_METHOD_COUNT
} normals_method;

const char *normals_method_name(normals_method method);   /* "rigid", "blended", "per-bone" */
const char *normals_method_formula(normals_method method);

/* Skins the unit normals of influences->vertex_count vertices with `method`; out
 * (caller-owned, one per vertex) holds unit normals. Validates the influences (strict:
 * apply a weight policy first) and the palette. */
lab_error normals_skin(const vec3 *normals, const skin_influences *influences,
                       const mat4 *palette, int joint_count, normals_method method, vec3 *out,
                       lab_diag *d);

/* n_world = normalize(((M)3x3^-1)^T n); a singular model matrix is an error. */
lab_error normals_to_world(const vec3 *normals, int count, mat4 model, vec3 *out, lab_diag *d);

/* Area-weighted vertex normals of a triangle mesh at `positions`: the sum of the face
 * cross products (twice the area times the unit normal) around each vertex, normalised.
 * A vertex with no area around it gets (0, 0, 0). */
void normals_from_faces(const vec3 *positions, int vertex_count, const mesh_triangle *triangles,
                        int triangle_count, vec3 *out);

/* The angle between two directions in degrees, atan2(|a x b|, a . b): accurate near 0. */
double normals_angle_deg(vec3 a, vec3 b);

typedef struct {
    double mean_deg, max_deg;
    int max_vertex;
} normals_error;

/* Angles between a[i] and truth[i]; per-vertex values into out_deg when not NULL. */
normals_error normals_compare(const vec3 *a, const vec3 *truth, int count, double *out_deg);

#ifdef __cplusplus
}
#endif

#endif
