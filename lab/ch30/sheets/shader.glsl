// shader.glsl - chapter 30's shader sheet (exercise 22, taught on
// lab/ch30/lab30-gpu/README.md#exercise-22-the-skinning-shader): the matrix palette in
// the GLSL vertex shader, as lab30-gpu runs it (OpenGL ES 3.1; here on Mesa's llvmpipe).
//
// Write skin(): one vertex's LBS over its four influences, heaviest first.
//   joint           the four palette slots
//   stored_weights  the first three weights; the fourth is implied, 1 - (w0 + w1 + w2)
//   p, n            the bind position and unit normal
//   out_p           sum_i w_i C_i (p, 1)
//   out_n           normalize(sum_i w_i (C_i)3x3 n)
// The palette is read with palette_row(joint[i], r): row r (0, 1 or 2) of C_i as a 3x4
// matrix, a vec4 (the fourth row of a skin matrix is (0, 0, 0, 1)). The grader runs your
// skin() in the lab's vertex shader, captures its outputs with transform feedback, and
// compares them with the CPU's within 1e-6 of each vertex's size. The driver's messages
// name this file's lines.
//
// Delete the line below when you write the body; then: make grade30 SHEET=shader
// NOT_WRITTEN_YET
void skin(uvec4 joint, vec3 stored_weights, vec3 p, vec3 n, out vec3 out_p, out vec3 out_n)
{
    out_p = p;
    out_n = n;
}
