// skin_blend.glsl - the chapter's two blends, once, for every GPU path.
//
// The shader that includes this file first declares how its palette is read:
//   vec4 palette_row(uint joint, int r)  row r (0..2) of joint's 3x4 skin matrix C_j (LBS)
//   vec4 palette_real(uint joint)        joint's rotation quaternion (w, x, y, z) (DQS)
//   vec4 palette_dual(uint joint)        joint's dual part (w, x, y, z) (DQS)
// Each vertex has four influences, heaviest first (src/skin/packed.h): the joints, and the
// weights with the fourth implied, w3 = 1 - (w0 + w1 + w2), summed in the CPU's order.

vec4 vertex_weights(vec3 stored)
{
    return vec4(stored, 1.0 - ((stored.x + stored.y) + stored.z));
}

#ifndef METHOD_DQS
// Linear blend skinning: M = sum w_i C_i; the point moves by M (w = 1), the normal by
// M's 3x3 (w = 0) and is normalised, as the CPU kernels' FASTSKIN_UNIT_NORMALS.
void skin_lbs(uvec4 joint, vec4 w, vec3 p, vec3 n, out vec3 out_p, out vec3 out_n)
{
    vec4 r0 = vec4(0.0), r1 = vec4(0.0), r2 = vec4(0.0);
    for (int i = 0; i < 4; i++) {
        r0 += w[i] * palette_row(joint[i], 0);
        r1 += w[i] * palette_row(joint[i], 1);
        r2 += w[i] * palette_row(joint[i], 2);
    }
    vec4 p1 = vec4(p, 1.0);
    out_p = vec3(dot(r0, p1), dot(r1, p1), dot(r2, p1));
    out_n = normalize(vec3(dot(r0.xyz, n), dot(r1.xyz, n), dot(r2.xyz, n)));
}
#else

// Dual quaternion skinning (Kavan et al.): blend the dual quaternions, each flipped into
// the pivot's hemisphere (slot 0, the heaviest), normalise by |q_0|, then
//   p' = p + 2 d0 x (d0 x p + a0 p) + 2 (a0 de - ae d0 + d0 x de)
// with q_0 = (a0, d0) and q_e = (ae, de); the normal is only rotated.
void skin_dqs(uvec4 joint, vec4 w, vec3 p, vec3 n, out vec3 out_p, out vec3 out_n)
{
    vec4 pivot = palette_real(joint[0]);
    vec4 real = vec4(0.0), dual = vec4(0.0);
    for (int i = 0; i < 4; i++) {
        vec4 q = palette_real(joint[i]);
        float s = dot(q, pivot) < 0.0 ? -w[i] : w[i];
        real += s * q;
        dual += s * palette_dual(joint[i]);
    }
    float norm = length(real);
    real /= norm;
    dual /= norm;
    float a0 = real.x, ae = dual.x;
    vec3 d0 = real.yzw, de = dual.yzw;
    out_p = p + 2.0 * cross(d0, cross(d0, p) + a0 * p) + 2.0 * (a0 * de - ae * d0 + cross(d0, de));
    out_n = n + 2.0 * cross(d0, cross(d0, n) + a0 * n);
}
#endif

void skin(uvec4 joint, vec3 stored_weights, vec3 p, vec3 n, out vec3 out_p, out vec3 out_n)
{
#ifdef METHOD_DQS
    skin_dqs(joint, vertex_weights(stored_weights), p, n, out_p, out_n);
#else
    skin_lbs(joint, vertex_weights(stored_weights), p, n, out_p, out_n);
#endif
}
