// palette_buffer.glsl - the palette in a shader storage buffer, for the compute pass: the
// same vec4s as the uniform block, any length.
layout(std430, binding = 4) readonly buffer Palette { vec4 palette[]; };
#ifdef METHOD_DQS
vec4 palette_real(uint joint) { return palette[2u * joint]; }
vec4 palette_dual(uint joint) { return palette[2u * joint + 1u]; }
#else
vec4 palette_row(uint joint, int r) { return palette[3u * joint + uint(r)]; }
#endif
