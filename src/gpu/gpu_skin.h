/* gpu_skin.h - the matrix palette skinned by GLSL shaders, three ways engines do it, fed
 * from the same packed streams (packed.h, K = 4) and float palettes as the CPU kernels.
 *
 *   GPU_PATH_UNIFORM  a vertex shader with the palette in a uniform block; its outputs
 *                     are captured with transform feedback, rasterizer discarded
 *   GPU_PATH_TEXTURE  the same vertex shader reading the palette from float textures with
 *                     texelFetch, for skeletons larger than a uniform block holds (DQS:
 *                     RTR4's two textures, rotation and dual part)
 *   GPU_PATH_COMPUTE  a compute shader over shader storage buffers that writes skinned
 *                     positions and normals once, for several passes to reuse
 * LBS and DQS for each. The shaders are the files in shaders/ (embedded at build time):
 * skin_blend.glsl holds the two blends once (a caller may give its own: lab30-gpu writes
 * them in its own lines); palette_uniform.glsl, palette_texture.glsl and
 * palette_buffer.glsl say where the palette is; skin_vertex.glsl and skin_compute.glsl are
 * the two entry points.
 *
 * Model splitting (RTR4): a mesh uploaded with a joint budget B is split into sub-meshes
 * whose vertices use at most B joints in all; each draws with its own small palette, so a
 * uniform block of B joints serves any skeleton. Without a budget the uniform path takes
 * what GL_MAX_UNIFORM_BLOCK_SIZE holds and refuses a larger palette, naming the limit.
 *
 * Jobs validate, then run, on buffers the caller owns; every GL error is checked after
 * setup and after each pass.
 */
#ifndef GPU_SKIN_H
#define GPU_SKIN_H

#include "gpu/gpu.h"
#include "skin/packed.h"
#include "skin/skin.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { GPU_PATH_UNIFORM = 0, GPU_PATH_TEXTURE, GPU_PATH_COMPUTE, GPU_PATH_COUNT } gpu_path;

const char *gpu_path_name(gpu_path path);      /* "uniform", "texture", "compute" */
/* The shader files a path's program is built from around the blend, for the evidence. */
const char *gpu_path_shaders(gpu_path path);

/* Programs, built once per context, every path and method at once. blend is the GLSL that
 * defines the skinning itself,
 *     void skin(uvec4 joint, vec3 stored_weights, vec3 p, vec3 n, out vec3 out_p, out vec3 out_n)
 * for one vertex's four joints (heaviest first) and three stored weights (the fourth
 * implied), over the palette accessors the path declares before it (palette_row(joint, r)
 * for LBS; palette_real(joint) and palette_dual(joint) for DQS, where METHOD_DQS is
 * defined); NULL: the library's shaders/skin_blend.glsl. A blend the driver refuses is
 * refused with the driver's log (gpu_program_build). The text must outlive the skinner. */
typedef struct gpu_skinner gpu_skinner;
lab_error gpu_skinner_create(gpu_context *gpu, const char *blend, gpu_skinner **out, lab_diag *d);
void gpu_skinner_free(gpu_skinner *s);

/* The joints one draw of the uniform path holds for `method`: GL_MAX_UNIFORM_BLOCK_SIZE
 * divided by 48 bytes (LBS) or 32 (DQS). */
int gpu_uniform_joints(const gpu_skinner *s, skin_method method);
/* The joints the texture path holds: rows of GL_MAX_TEXTURE_SIZE texels, 3 a joint (LBS)
 * or 1 (DQS). */
int gpu_texture_joints(const gpu_skinner *s, skin_method method);

/* A packed mesh (K = 4) on the GPU, uploaded once. joint_budget 0: one draw; B >= 4: split
 * into sub-meshes of at most B joints each (refused below 4, the joints one vertex may
 * need). */
typedef struct gpu_mesh gpu_mesh;
lab_error gpu_mesh_upload(gpu_skinner *s, const packed_mesh *m, int joint_budget, gpu_mesh **out, lab_diag *d);
void gpu_mesh_free(gpu_mesh *m);
int gpu_mesh_parts(const gpu_mesh *m);         /* the draws (sub-meshes) it takes */
int gpu_mesh_largest_part(const gpu_mesh *m);  /* the most joints one of its draws uses */

typedef struct {
    const gpu_mesh *mesh;
    gpu_path path;
    skin_method method;
    const palette_matrix *matrices;      /* LBS: joint_count entries */
    const palette_dualquat *dualquats;   /* DQS: joint_count entries */
    int joint_count;
    float *out_position, *out_normal;    /* 3 floats a vertex each, caller-owned */
} gpu_skin_job;

/* Seconds spent, each step finished (glFinish) before the next is timed. */
typedef struct {
    double upload;      /* the per-frame palette: buffer or texture updates */
    double run;         /* the draws or the dispatch */
    double readback;    /* mapping the outputs and copying them out */
} gpu_timing;

/* Checks the job against the mesh and the limits: the palette covers every joint the mesh
 * uses; the uniform path's palette (or each split part's) fits its block; the texture
 * path's palette fits a texture. */
lab_error gpu_skin_validate(const gpu_skinner *s, const gpu_skin_job *job, lab_diag *d);
/* Validates, then skins; timing may be NULL. */
lab_error gpu_skin_run(gpu_skinner *s, const gpu_skin_job *job, gpu_timing *timing, lab_diag *d);

#ifdef __cplusplus
}
#endif

#endif
