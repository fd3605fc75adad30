// skin_vertex.glsl - the vertex shader of RTR4's skinning: one vertex in, its skinned
// position and normal out, captured by transform feedback (rasterizer discarded) so the
// lab can read them back. The inputs are the packed streams of src/skin/packed.h.
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in uvec4 joints;   // four uint16 indices
layout(location = 3) in vec3 weights;   // three stored weights; the fourth is implied
out vec3 skinned_position;
out vec3 skinned_normal;

void main()
{
    skin(joints, weights, position, normal, skinned_position, skinned_normal);
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
    gl_PointSize = 1.0;
}
