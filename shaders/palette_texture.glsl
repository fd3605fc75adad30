// palette_texture.glsl - the palette in float textures read with texelFetch (RTR4: bone
// matrices in textures, for skeletons larger than a uniform block holds). LBS: one RGBA32F
// texture, texel 3j + r is row r of joint j. DQS: RTR4's two textures, one texel a joint,
// the rotation quaternion in palette_real and the dual part in palette_dual. A texture is
// palette_width texels wide and wraps onto further rows when the palette is longer.
uniform int palette_width;
ivec2 texel(uint i) { return ivec2(int(i) % palette_width, int(i) / palette_width); }
#ifdef METHOD_DQS
uniform highp sampler2D palette_real_texture;
uniform highp sampler2D palette_dual_texture;
vec4 palette_real(uint joint) { return texelFetch(palette_real_texture, texel(joint), 0); }
vec4 palette_dual(uint joint) { return texelFetch(palette_dual_texture, texel(joint), 0); }
#else
uniform highp sampler2D palette_texture;
vec4 palette_row(uint joint, int r) { return texelFetch(palette_texture, texel(3u * joint + uint(r)), 0); }
#endif
