// skin_compute.glsl - skinning as a compute pass: each invocation skins one vertex and
// writes it to storage buffers once, for every later pass (shadow, depth, colour) to
// reuse. The inputs are the packed streams of src/skin/packed.h, as the vertex shader's.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Positions { float positions[]; };
layout(std430, binding = 1) readonly buffer Normals { float normals[]; };
layout(std430, binding = 2) readonly buffer Joints { uint joint_pairs[]; };  // two uint16 a uint
layout(std430, binding = 3) readonly buffer Weights { float stored_weights[]; };
layout(std430, binding = 5) writeonly buffer SkinnedPositions { float skinned_positions[]; };
layout(std430, binding = 6) writeonly buffer SkinnedNormals { float skinned_normals[]; };
uniform uint vertex_count;

vec3 load3(uint v, bool is_normal)
{
    uint i = 3u * v;
    return is_normal ? vec3(normals[i], normals[i + 1u], normals[i + 2u])
                     : vec3(positions[i], positions[i + 1u], positions[i + 2u]);
}

void main()
{
    uint v = gl_GlobalInvocationID.x;
    if (v >= vertex_count)
        return;
    uint a = joint_pairs[2u * v], b = joint_pairs[2u * v + 1u];
    uvec4 joint = uvec4(a & 0xFFFFu, a >> 16, b & 0xFFFFu, b >> 16);
    vec3 w = vec3(stored_weights[3u * v], stored_weights[3u * v + 1u], stored_weights[3u * v + 2u]);
    vec3 p, n;
    skin(joint, w, load3(v, false), load3(v, true), p, n);
    for (uint c = 0u; c < 3u; c++) {
        skinned_positions[3u * v + c] = p[c];
        skinned_normals[3u * v + c] = n[c];
    }
}
