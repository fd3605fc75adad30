/* linalg.h - vectors and 4x4 matrices on doubles.
 *
 * CONVENTIONS (each one is pinned by a test in tests/test_linalg.c)
 *   - Right-handed coordinates; rotations are counter-clockwise about +axis when seen
 *     from the tip of the axis (Rz(90 deg) sends +x to +y).
 *   - Column vectors: a point is transformed as p' = M p.
 *   - Storage is row-major, m[row][col]; the translation lives in m[0..2][3].
 *   - mat4_mul(A, B) is A*B, so B acts first: mat4_mul(T, R) rotates, then translates.
 *   - Angles are radians. Degrees appear only at the command line and in labels.
 *   - glTF stores matrices column-major: convert at that boundary, never in here.
 */
#ifndef LINALG_H
#define LINALG_H

#include <stdbool.h>

#include "base/diag.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct { double x, y, z; } vec3;
typedef struct { double x, y, z, w; } vec4;
typedef struct { double m[4][4]; } mat4; /* m[row][col] */

/* Elements of a rig's matrices may not exceed this magnitude: beyond it a product loses
 * the absolute precision (1e-12) that chapter 30's checks rely on, so such data is
 * rejected as corrupt instead of being skinned. */
#define MAT4_MAGNITUDE_BOUND 1.0e6
/* How far the last row of an affine matrix may be from 0 0 0 1. */
#define MAT4_AFFINE_TOLERANCE 1.0e-12

#define LAB_PI 3.14159265358979323846
double deg_to_rad(double deg);   /* deg * (pi / 180) */
double rad_to_deg(double rad);   /* rad * (180 / pi) */

/* The larger of a and b, NaN when either is NaN (fmax would return the other one). Every
 * "largest difference" below is built on it, so a NaN anywhere makes the result NaN and
 * no comparison with a tolerance can pass it. */
double max_or_nan(double a, double b);

vec3 vec3_make(double x, double y, double z);
vec3 vec3_add(vec3 a, vec3 b);
vec3 vec3_sub(vec3 a, vec3 b);
vec3 vec3_scale(vec3 a, double s);
double vec3_dot(vec3 a, vec3 b);
vec3 vec3_cross(vec3 a, vec3 b);
double vec3_length(vec3 a);
vec3 vec3_normalize(vec3 a); /* a / |a|; the zero vector stays zero */
bool vec3_is_finite(vec3 a);
double vec3_max_abs_diff(vec3 a, vec3 b);   /* largest |a - b| over x, y, z; NaN propagates */

vec4 vec4_point(vec3 p);     /* (x, y, z, 1) */
vec4 vec4_add(vec4 a, vec4 b);
vec4 vec4_scale(vec4 a, double s);

mat4 mat4_identity(void);
mat4 mat4_mul(mat4 a, mat4 b);                  /* a*b: b acts first */
vec4 mat4_mul_vec4(mat4 a, vec4 v);             /* a v */
vec3 mat4_transform_point(mat4 a, vec3 p);      /* a (p, 1), affine part only */
mat4 mat4_scale_by(mat4 a, double s);           /* every element times s */
mat4 mat4_add(mat4 a, mat4 b);
mat4 mat4_translate(double x, double y, double z);
mat4 mat4_rotate_x(double radians);
mat4 mat4_rotate_y(double radians);
mat4 mat4_rotate_z(double radians);
mat4 mat4_scale(double sx, double sy, double sz);
double mat4_max_abs(mat4 a);                    /* largest |m[r][c]|; NaN when any is NaN */
double mat4_max_abs_diff(mat4 a, mat4 b);       /* largest |a - b| over the elements; NaN propagates */

vec3 mat4_transform_direction(mat4 a, vec3 v);  /* the 3x3 part only: no translation */
mat4 mat4_linear_part(mat4 a);                  /* the 3x3 part, translation dropped */
mat4 mat4_transpose(mat4 a);
double mat4_linear_det(mat4 a);                 /* determinant of the 3x3 part */
/* The singular values of the 3x3 part, largest first: the square roots of the eigenvalues
 * of A^T A, found by cyclic Jacobi rotations (a symmetric 3x3 converges to 1e-15 in a few
 * sweeps). A rigid A has 1, 1, 1; a blend that flattens a direction has a 0. */
void mat4_linear_singular_values(mat4 a, double out[3]);
/* The inverse transpose of the 3x3 part, (A^-1)^T = cof(A) / det(A), translation zero:
 * the matrix that carries normals so they stay perpendicular to transformed tangents.
 * Refuses (LAB_ERR_SINGULAR) when |det| <= 1e-12 times the cube of the largest column
 * length, i.e. when a direction has been squashed flat. */
lab_error mat4_linear_inverse_transpose(mat4 a, mat4 *out, const char *where, lab_diag *d);

bool mat4_is_affine(mat4 a);                    /* last row 0 0 0 1 within tolerance */

/* Checks the three rules every rig matrix obeys: finite, affine, elements within
 * MAT4_MAGNITUDE_BOUND. `where` names the matrix in the diag ("world matrix of joint 1"). */
lab_error mat4_validate(mat4 a, const char *where, lab_diag *d);

/* Inverse of a pure translation T(t), which is T(-t). Anything else (rotation, scale,
 * shear, projection) is refused with LAB_ERR_NOT_PURE_TRANSLATION: this helper must not
 * pose as a general inverse. The 3x3 part must equal I exactly (within 1e-15). */
lab_error mat4_invert_translation(mat4 a, mat4 *out, const char *where, lab_diag *d);

#ifdef __cplusplus
}
#endif

#endif
