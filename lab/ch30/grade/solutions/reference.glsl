// reference.glsl - one correct answer to the shader sheet (lab/ch30/sheets/shader.glsl,
// exercise 22): make grade30 SHEET=shader EXERCISES=lab/ch30/grade/solutions/reference.glsl
// The matrices are blended first, M = sum_i w_i C_i, then applied once.
void skin(uvec4 joint, vec3 stored_weights, vec3 p, vec3 n, out vec3 out_p, out vec3 out_n)
{
    vec4 w = vec4(stored_weights, 1.0 - ((stored_weights.x + stored_weights.y) + stored_weights.z));
    vec4 m0 = vec4(0.0), m1 = vec4(0.0), m2 = vec4(0.0);
    for (int i = 0; i < 4; i++) {
        m0 += w[i] * palette_row(joint[i], 0);
        m1 += w[i] * palette_row(joint[i], 1);
        m2 += w[i] * palette_row(joint[i], 2);
    }
    vec4 p1 = vec4(p, 1.0);
    out_p = vec3(dot(m0, p1), dot(m1, p1), dot(m2, p1));
    out_n = normalize(vec3(dot(m0.xyz, n), dot(m1.xyz, n), dot(m2.xyz, n)));
}
