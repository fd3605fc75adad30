/* linalg.c - vectors and row-major 4x4 matrices (conventions in linalg.h). */
#include "math/linalg.h"

#include <math.h>

double deg_to_rad(double deg) { return deg * (LAB_PI / 180.0); }
double rad_to_deg(double rad) { return rad * (180.0 / LAB_PI); }

vec3 vec3_make(double x, double y, double z) { return (vec3){x, y, z}; }
vec3 vec3_add(vec3 a, vec3 b) { return (vec3){a.x + b.x, a.y + b.y, a.z + b.z}; }
vec3 vec3_sub(vec3 a, vec3 b) { return (vec3){a.x - b.x, a.y - b.y, a.z - b.z}; }
vec3 vec3_scale(vec3 a, double s) { return (vec3){a.x * s, a.y * s, a.z * s}; }
double vec3_dot(vec3 a, vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
double vec3_length(vec3 a) { return sqrt(vec3_dot(a, a)); }

vec3 vec3_cross(vec3 a, vec3 b)
{
    return (vec3){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

vec3 vec3_normalize(vec3 a)
{
    double len = vec3_length(a);
    return len > 0.0 ? vec3_scale(a, 1.0 / len) : a;
}

bool vec3_is_finite(vec3 a) { return isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }

vec4 vec4_point(vec3 p) { return (vec4){p.x, p.y, p.z, 1.0}; }
vec4 vec4_add(vec4 a, vec4 b) { return (vec4){a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w}; }
vec4 vec4_scale(vec4 a, double s) { return (vec4){a.x * s, a.y * s, a.z * s, a.w * s}; }

mat4 mat4_identity(void)
{
    return (mat4){{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}};
}

mat4 mat4_mul(mat4 a, mat4 b)
{
    mat4 r;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            double s = 0.0;
            for (int k = 0; k < 4; k++)
                s += a.m[i][k] * b.m[k][j];
            r.m[i][j] = s;
        }
    return r;
}

vec4 mat4_mul_vec4(mat4 a, vec4 v)
{
    const double in[4] = {v.x, v.y, v.z, v.w};
    double out[4];
    for (int i = 0; i < 4; i++)
        out[i] = a.m[i][0] * in[0] + a.m[i][1] * in[1] + a.m[i][2] * in[2] + a.m[i][3] * in[3];
    return (vec4){out[0], out[1], out[2], out[3]};
}

vec3 mat4_transform_point(mat4 a, vec3 p)
{
    vec4 r = mat4_mul_vec4(a, vec4_point(p));
    return (vec3){r.x, r.y, r.z};
}

mat4 mat4_scale_by(mat4 a, double s)
{
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            a.m[i][j] *= s;
    return a;
}

mat4 mat4_add(mat4 a, mat4 b)
{
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            a.m[i][j] += b.m[i][j];
    return a;
}

mat4 mat4_translate(double x, double y, double z)
{
    mat4 r = mat4_identity();
    r.m[0][3] = x;
    r.m[1][3] = y;
    r.m[2][3] = z;
    return r;
}

/* The three rotations share one pattern: a 2x2 block [c -s; s c] on the plane
 * perpendicular to the axis, laid out so that the rotation is counter-clockwise. */
static mat4 rotation_in_plane(int a, int b, double radians)
{
    mat4 r = mat4_identity();
    double c = cos(radians), s = sin(radians);
    r.m[a][a] = c;
    r.m[a][b] = -s;
    r.m[b][a] = s;
    r.m[b][b] = c;
    return r;
}

mat4 mat4_rotate_x(double radians) { return rotation_in_plane(1, 2, radians); } /* y -> z */
mat4 mat4_rotate_y(double radians) { return rotation_in_plane(2, 0, radians); } /* z -> x */
mat4 mat4_rotate_z(double radians) { return rotation_in_plane(0, 1, radians); } /* x -> y */

mat4 mat4_scale(double sx, double sy, double sz)
{
    mat4 r = mat4_identity();
    r.m[0][0] = sx;
    r.m[1][1] = sy;
    r.m[2][2] = sz;
    return r;
}

/* fmax returns the other argument when one is NaN: a largest difference built on it would
 * call a NaN answer close. */
double max_or_nan(double a, double b) { return isnan(a) || isnan(b) ? NAN : fmax(a, b); }

double vec3_max_abs_diff(vec3 a, vec3 b)
{
    return max_or_nan(fabs(a.x - b.x), max_or_nan(fabs(a.y - b.y), fabs(a.z - b.z)));
}

double mat4_max_abs(mat4 a)
{
    double mx = 0.0;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            mx = max_or_nan(mx, fabs(a.m[i][j]));
    return mx;
}

double mat4_max_abs_diff(mat4 a, mat4 b)
{
    return mat4_max_abs(mat4_add(a, mat4_scale_by(b, -1.0)));
}

vec3 mat4_transform_direction(mat4 a, vec3 v)
{
    return vec3_make(a.m[0][0] * v.x + a.m[0][1] * v.y + a.m[0][2] * v.z,
                     a.m[1][0] * v.x + a.m[1][1] * v.y + a.m[1][2] * v.z,
                     a.m[2][0] * v.x + a.m[2][1] * v.y + a.m[2][2] * v.z);
}

mat4 mat4_linear_part(mat4 a)
{
    a.m[0][3] = a.m[1][3] = a.m[2][3] = 0.0;
    return a;
}

/* Column k of the 3x3 part. */
static vec3 column(mat4 a, int k) { return vec3_make(a.m[0][k], a.m[1][k], a.m[2][k]); }

mat4 mat4_transpose(mat4 a)
{
    mat4 t;
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            t.m[r][c] = a.m[c][r];
    return t;
}

double mat4_linear_det(mat4 a) { return vec3_dot(column(a, 0), vec3_cross(column(a, 1), column(a, 2))); }

void mat4_linear_singular_values(mat4 a, double out[3])
{
    double s[3][3]; /* S = A^T A, symmetric, turned diagonal by Jacobi rotations */
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            s[i][j] = vec3_dot(column(a, i), column(a, j));
    for (int sweep = 0; sweep < 50; sweep++) {
        double off = fabs(s[0][1]) + fabs(s[0][2]) + fabs(s[1][2]);
        if (off == 0.0)
            break;
        for (int p = 0; p < 2; p++)
            for (int q = p + 1; q < 3; q++) {
                if (s[p][q] == 0.0)
                    continue;
                /* the rotation in the (p, q) plane that zeroes s[p][q] */
                double theta = (s[q][q] - s[p][p]) / (2.0 * s[p][q]);
                double t = (theta >= 0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
                double c = 1.0 / sqrt(t * t + 1.0), sn = t * c;
                for (int k = 0; k < 3; k++) { /* columns p, q */
                    double kp = s[k][p], kq = s[k][q];
                    s[k][p] = c * kp - sn * kq;
                    s[k][q] = sn * kp + c * kq;
                }
                for (int k = 0; k < 3; k++) { /* rows p, q */
                    double pk = s[p][k], qk = s[q][k];
                    s[p][k] = c * pk - sn * qk;
                    s[q][k] = sn * pk + c * qk;
                }
                s[p][q] = s[q][p] = 0.0;
            }
    }
    for (int i = 0; i < 3; i++)
        out[i] = sqrt(fmax(s[i][i], 0.0)); /* rounding may leave -1e-17 */
    for (int i = 0; i < 2; i++) /* largest first */
        for (int j = 0; j < 2 - i; j++)
            if (out[j] < out[j + 1]) {
                double tmp = out[j];
                out[j] = out[j + 1];
                out[j + 1] = tmp;
            }
}

lab_error mat4_linear_inverse_transpose(mat4 a, mat4 *out, const char *where, lab_diag *d)
{
    vec3 c0 = column(a, 0), c1 = column(a, 1), c2 = column(a, 2);
    double det = vec3_dot(c0, vec3_cross(c1, c2));
    double scale = fmax(vec3_length(c0), fmax(vec3_length(c1), vec3_length(c2)));
    if (!(fabs(det) > 1e-12 * scale * scale * scale))
        return diag_fail(d, LAB_ERR_SINGULAR, where, "det %.6g (column lengths %.6g, %.6g, %.6g)",
                         det, vec3_length(c0), vec3_length(c1), vec3_length(c2));
    /* the columns of cof(A) are the cross products of A's other two columns */
    const vec3 cof[3] = {vec3_cross(c1, c2), vec3_cross(c2, c0), vec3_cross(c0, c1)};
    mat4 r = mat4_identity();
    for (int k = 0; k < 3; k++) {
        r.m[0][k] = cof[k].x / det;
        r.m[1][k] = cof[k].y / det;
        r.m[2][k] = cof[k].z / det;
    }
    *out = r;
    return LAB_OK;
}

bool mat4_is_affine(mat4 a)
{
    const double last[4] = {0, 0, 0, 1};
    for (int j = 0; j < 4; j++)
        if (!(fabs(a.m[3][j] - last[j]) <= MAT4_AFFINE_TOLERANCE))
            return false;
    return true;
}

lab_error mat4_validate(mat4 a, const char *where, lab_diag *d)
{
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            if (!isfinite(a.m[i][j]))
                return diag_fail(d, LAB_ERR_MATRIX_NOT_FINITE, where, "m[%d][%d] = %g", i, j,
                                 a.m[i][j]);
    if (!mat4_is_affine(a))
        return diag_fail(d, LAB_ERR_MATRIX_NOT_AFFINE, where, "last row (%.15g, %.15g, %.15g, %.15g)",
                         a.m[3][0], a.m[3][1], a.m[3][2], a.m[3][3]);
    if (mat4_max_abs(a) > MAT4_MAGNITUDE_BOUND)
        return diag_fail(d, LAB_ERR_MATRIX_TOO_LARGE, where, "largest |element| %.15g > bound %g",
                         mat4_max_abs(a), MAT4_MAGNITUDE_BOUND);
    return LAB_OK;
}

lab_error mat4_invert_translation(mat4 a, mat4 *out, const char *where, lab_diag *d)
{
    lab_error e = mat4_validate(a, where, d);
    if (e != LAB_OK)
        return e;
    const double exact = 1e-15;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double expected = (i == j) ? 1.0 : 0.0;
            if (!(fabs(a.m[i][j] - expected) <= exact))
                return diag_fail(d, LAB_ERR_NOT_PURE_TRANSLATION, where,
                                 "3x3 part has m[%d][%d] = %.15g, not %g (rotation or scale)",
                                 i, j, a.m[i][j], expected);
        }
    *out = mat4_translate(-a.m[0][3], -a.m[1][3], -a.m[2][3]);
    return LAB_OK;
}
