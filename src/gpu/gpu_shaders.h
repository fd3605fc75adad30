/* gpu_shaders.h - the GLSL sources of shaders/, embedded at build time by
 * scripts/embed-shaders.sh (build/gen/shaders.c). */
#ifndef GPU_SHADERS_H
#define GPU_SHADERS_H

#ifdef __cplusplus
extern "C" {
#endif

extern const char shader_skin_blend_glsl[];
extern const char shader_palette_uniform_glsl[];
extern const char shader_palette_texture_glsl[];
extern const char shader_palette_buffer_glsl[];
extern const char shader_skin_vertex_glsl[];
extern const char shader_skin_compute_glsl[];
extern const char shader_discard_frag[];

#ifdef __cplusplus
}
#endif

#endif
