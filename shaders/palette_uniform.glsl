// palette_uniform.glsl - the palette in a uniform block (RTR4: bone matrices in
// constants). PALETTE_JOINTS entries, fixed when the shader is built from
// GL_MAX_UNIFORM_BLOCK_SIZE (or a smaller per-draw budget): 3 vec4 rows a joint for LBS
// (48 bytes), a real and a dual vec4 for DQS (32 bytes), as src/skin/packed.h lays them out.
#ifdef METHOD_DQS
layout(std140) uniform Palette { vec4 palette[2 * PALETTE_JOINTS]; };
vec4 palette_real(uint joint) { return palette[2u * joint]; }
vec4 palette_dual(uint joint) { return palette[2u * joint + 1u]; }
#else
layout(std140) uniform Palette { vec4 palette[3 * PALETTE_JOINTS]; };
vec4 palette_row(uint joint, int r) { return palette[3u * joint + uint(r)]; }
#endif
