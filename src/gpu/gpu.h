/* gpu.h - a headless OpenGL ES 3.1 context through EGL, and the checks every GPU pass
 * keeps.
 *
 * No window: EGL's surfaceless platform (EGL_MESA_platform_surfaceless) when the driver
 * has it, else the default display; a context of OpenGL ES 3.1 or later (compute shaders
 * and shader storage buffers are 3.1), made current without a surface
 * (EGL_KHR_surfaceless_context), with a 1x1 framebuffer object bound, since a draw needs
 * one even with rasterizer discard. On a machine without a GPU, Mesa's llvmpipe runs the
 * shaders on the CPU; gpu_info says which renderer it is, so nobody mistakes one for the
 * other.
 *
 * Failures are results, never aborts: no display, no context of the needed version, a
 * missing extension (LAB_ERR_UNSUPPORTED, with what was missing); a shader that does not
 * compile or link (LAB_ERR_GPU, with the driver's info log); a GL error after a pass
 * (LAB_ERR_GPU, naming the pass and the error).
 */
#ifndef GPU_H
#define GPU_H

#include <stdbool.h>

#include "base/diag.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Under the sanitizers: Mesa's llvmpipe leaks 112 bytes the first time it draws with
 * transform feedback, allocated from a driver module unloaded again at exit, so no
 * LeakSanitizer suppression can name them. The calls into the driver that allocate for
 * itself (opening and closing the context, compiling, the draws) are bracketed by
 * DRIVER_ALLOCATIONS_UNTRACKED / _TRACKED: what the driver allocates on this thread there
 * is not tracked (__lsan_disable); everything the lab allocates itself still is (DESIGN.md,
 * "Sanitizers and the GPU"). Outside sanitizer builds both do nothing. */
#if defined(__SANITIZE_ADDRESS__)
#define GPU_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GPU_LSAN 1
#endif
#endif
#ifdef GPU_LSAN
#include <sanitizer/lsan_interface.h>
#define DRIVER_ALLOCATIONS_UNTRACKED() __lsan_disable()
#define DRIVER_ALLOCATIONS_TRACKED() __lsan_enable()
#else
#define DRIVER_ALLOCATIONS_UNTRACKED() ((void)0)
#define DRIVER_ALLOCATIONS_TRACKED() ((void)0)
#endif

typedef struct {
    char renderer[128];            /* GL_RENDERER, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)" */
    char version[128];             /* GL_VERSION */
    char glsl_version[128];        /* GL_SHADING_LANGUAGE_VERSION */
    char egl_platform[48];         /* "surfaceless" or "default display" */
    int max_uniform_block_size;    /* GL_MAX_UNIFORM_BLOCK_SIZE, bytes */
    int max_texture_size;          /* GL_MAX_TEXTURE_SIZE, texels per side */
    int max_ssbo_size;             /* GL_MAX_SHADER_STORAGE_BLOCK_SIZE, bytes */
    int max_work_group_size_x;     /* GL_MAX_COMPUTE_WORK_GROUP_SIZE[0] */
    bool software;                 /* the renderer runs on the CPU (llvmpipe, softpipe) */
} gpu_info;

typedef struct gpu_context gpu_context;

/* Opens the context and reads gpu_info. *out is NULL on error. */
lab_error gpu_open(gpu_context **out, lab_diag *d);
void gpu_close(gpu_context *gpu);
const gpu_info *gpu_get_info(const gpu_context *gpu);

/* Compiles and links one program from NUL-terminated sources: a vertex and a fragment
 * shader (compute NULL), or a compute shader (vertex and fragment NULL). Each stage's
 * source is the concatenation of its parts (parts_count of them, e.g. a header of
 * #defines, the shared blend functions, the stage's main). varyings, when not NULL, are
 * captured by transform feedback into separate buffers. `name` names the program in
 * messages. Returns the GL program object in *program. */
typedef struct {
    const char *const *parts;
    int count;
} gpu_source;
lab_error gpu_program_build(gpu_context *gpu, const char *name, gpu_source vertex, gpu_source fragment,
                            gpu_source compute, const char *const *varyings, int varying_count,
                            unsigned *program, lab_diag *d);

/* LAB_ERR_GPU when GL reports an error, naming `pass` and the error; drains the queue. */
lab_error gpu_check(const char *pass, lab_diag *d);

#ifdef __cplusplus
}
#endif

#endif
