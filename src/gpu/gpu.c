/* gpu.c - the headless GLES context (see gpu.h). */
#define _POSIX_C_SOURCE 200809L
#include "gpu/gpu.h"

#include "gpu/gl_load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gpu_context {
    EGLDisplay display;
    EGLContext context;
    GLuint framebuffer, renderbuffer;
    gpu_info info;
};

static bool has_extension(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *at = list; at && (at = strstr(at, name)) != NULL; at += n)
        if ((at == list || at[-1] == ' ') && (at[n] == ' ' || at[n] == '\0'))
            return true;
    return false;
}

static const char *egl_error_name(EGLint e)
{
    switch (e) {
    case EGL_NOT_INITIALIZED: return "EGL_NOT_INITIALIZED";
    case EGL_BAD_ACCESS: return "EGL_BAD_ACCESS";
    case EGL_BAD_ALLOC: return "EGL_BAD_ALLOC";
    case EGL_BAD_ATTRIBUTE: return "EGL_BAD_ATTRIBUTE";
    case EGL_BAD_CONFIG: return "EGL_BAD_CONFIG";
    case EGL_BAD_CONTEXT: return "EGL_BAD_CONTEXT";
    case EGL_BAD_DISPLAY: return "EGL_BAD_DISPLAY";
    case EGL_BAD_MATCH: return "EGL_BAD_MATCH";
    case EGL_BAD_PARAMETER: return "EGL_BAD_PARAMETER";
    default: return "an EGL error";
    }
}

static const char *gl_error_name(GLenum e)
{
    switch (e) {
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    default: return "a GL error";
    }
}

lab_error gpu_check(const char *pass, lab_diag *d)
{
    GLenum first = glGetError();
    if (first == GL_NO_ERROR)
        return LAB_OK;
    while (glGetError() != GL_NO_ERROR) {
    }
    return diag_fail(d, LAB_ERR_GPU, pass, "%s (0x%04x)", gl_error_name(first), first);
}

/* The display: the surfaceless platform where the client library offers it. */
static EGLDisplay open_display(gpu_info *info)
{
    const char *client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    if (has_extension(client, "EGL_MESA_platform_surfaceless") && has_extension(client, "EGL_EXT_platform_base")) {
        PFNEGLGETPLATFORMDISPLAYEXTPROC get_platform_display =
            (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
        EGLDisplay display = get_platform_display
                                 ? get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL)
                                 : EGL_NO_DISPLAY;
        if (display != EGL_NO_DISPLAY) {
            snprintf(info->egl_platform, sizeof info->egl_platform, "surfaceless");
            return display;
        }
    }
    snprintf(info->egl_platform, sizeof info->egl_platform, "default display");
    return eglGetDisplay(EGL_DEFAULT_DISPLAY);
}

static void copy_string(char *dst, size_t size, GLenum name)
{
    const GLubyte *s = glGetString(name);
    snprintf(dst, size, "%s", s ? (const char *)s : "?");
}

lab_error gpu_open(gpu_context **out, lab_diag *d)
{
    *out = NULL;
    DRIVER_ALLOCATIONS_UNTRACKED(); /* loading runs the libraries' constructors */
    lab_error loaded = gl_load(d);
    DRIVER_ALLOCATIONS_TRACKED();
    if (loaded != LAB_OK)
        return loaded;
    gpu_context *g = calloc(1, sizeof *g);
    if (!g)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "GPU context", "%zu bytes", sizeof *g);
    DRIVER_ALLOCATIONS_UNTRACKED();
    g->display = open_display(&g->info);
    EGLint major = 0, minor = 0;
    lab_error e = LAB_OK;
    if (g->display == EGL_NO_DISPLAY || !eglInitialize(g->display, &major, &minor)) {
        DRIVER_ALLOCATIONS_TRACKED();
        free(g);
        return diag_fail(d, LAB_ERR_UNSUPPORTED, "EGL",
                         "no EGL display (%s): install Mesa's drivers (libegl-mesa0, libgl1-mesa-dri), "
                         "or a GPU driver with EGL",
                         egl_error_name(eglGetError()));
    }
    const char *extensions = eglQueryString(g->display, EGL_EXTENSIONS);
    EGLConfig config = NULL;
    EGLint configs = 0;
    const EGLint config_attributes[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_NONE};
    if (!has_extension(extensions, "EGL_KHR_surfaceless_context"))
        e = diag_fail(d, LAB_ERR_UNSUPPORTED, "EGL", "EGL %d.%d has no EGL_KHR_surfaceless_context", major, minor);
    else if (!eglBindAPI(EGL_OPENGL_ES_API))
        e = diag_fail(d, LAB_ERR_UNSUPPORTED, "EGL", "no OpenGL ES API (%s)", egl_error_name(eglGetError()));
    else if (!has_extension(extensions, "EGL_KHR_no_config_context") &&
             (!eglChooseConfig(g->display, config_attributes, &config, 1, &configs) || configs < 1))
        e = diag_fail(d, LAB_ERR_UNSUPPORTED, "EGL", "%s", "no config renders OpenGL ES 3");
    if (e == LAB_OK) {
        const EGLint context_attributes[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 1, EGL_NONE};
        g->context = eglCreateContext(g->display, configs ? config : EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT,
                                      context_attributes);
        if (g->context == EGL_NO_CONTEXT)
            e = diag_fail(d, LAB_ERR_UNSUPPORTED, "EGL", "no OpenGL ES 3.1 context (%s)",
                          egl_error_name(eglGetError()));
        else if (!eglMakeCurrent(g->display, EGL_NO_SURFACE, EGL_NO_SURFACE, g->context))
            e = diag_fail(d, LAB_ERR_UNSUPPORTED, "EGL", "the context cannot be made current without a surface (%s)",
                          egl_error_name(eglGetError()));
    }
    if (e == LAB_OK) {
        gpu_info *i = &g->info;
        copy_string(i->renderer, sizeof i->renderer, GL_RENDERER);
        copy_string(i->version, sizeof i->version, GL_VERSION);
        copy_string(i->glsl_version, sizeof i->glsl_version, GL_SHADING_LANGUAGE_VERSION);
        glGetIntegerv(GL_MAX_UNIFORM_BLOCK_SIZE, &i->max_uniform_block_size);
        glGetIntegerv(GL_MAX_TEXTURE_SIZE, &i->max_texture_size);
        glGetIntegerv(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &i->max_ssbo_size);
        glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_SIZE, 0, &i->max_work_group_size_x);
        i->software = strstr(i->renderer, "llvmpipe") || strstr(i->renderer, "softpipe");
        /* a draw needs a framebuffer even when rasterization is discarded */
        glGenFramebuffers(1, &g->framebuffer);
        glGenRenderbuffers(1, &g->renderbuffer);
        glBindRenderbuffer(GL_RENDERBUFFER, g->renderbuffer);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 1, 1);
        glBindFramebuffer(GL_FRAMEBUFFER, g->framebuffer);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, g->renderbuffer);
        e = gpu_check("GPU context setup", d);
        if (e == LAB_OK && glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
            e = diag_fail(d, LAB_ERR_GPU, "GPU context setup", "%s", "the 1x1 framebuffer is not complete");
    }
    DRIVER_ALLOCATIONS_TRACKED();
    if (e != LAB_OK) {
        gpu_close(g);
        return e;
    }
    *out = g;
    return LAB_OK;
}

void gpu_close(gpu_context *g)
{
    if (!g)
        return;
    DRIVER_ALLOCATIONS_UNTRACKED();
    if (g->context != EGL_NO_CONTEXT && g->context) {
        glDeleteFramebuffers(1, &g->framebuffer);
        glDeleteRenderbuffers(1, &g->renderbuffer);
        eglMakeCurrent(g->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(g->display, g->context);
    }
    eglTerminate(g->display);
    eglReleaseThread();
    DRIVER_ALLOCATIONS_TRACKED();
    free(g);
}

const gpu_info *gpu_get_info(const gpu_context *gpu) { return &gpu->info; }

/* Whether a shader compiled (program: linked); when not, the driver's info log in `log`
 * on one line, for the one-line error message. */
static bool built(GLuint object, bool program, char *log, GLsizei size)
{
    GLint ok = GL_FALSE;
    (program ? glGetProgramiv : glGetShaderiv)(object, program ? GL_LINK_STATUS : GL_COMPILE_STATUS, &ok);
    if (ok)
        return true;
    log[0] = '\0';
    (program ? glGetProgramInfoLog : glGetShaderInfoLog)(object, size, NULL, log);
    for (char *c = log; *c; c++)
        if (*c == '\n' || *c == '\r')
            *c = ' ';
    return false;
}

/* One stage, or 0 with the driver's info log in d. */
static GLuint compile_stage(GLenum type, const char *program_name, gpu_source source, lab_diag *d)
{
    static const char *const stage_names[3] = {"vertex", "fragment", "compute"};
    const char *stage = type == GL_VERTEX_SHADER ? stage_names[0] : type == GL_FRAGMENT_SHADER ? stage_names[1] : stage_names[2];
    DRIVER_ALLOCATIONS_UNTRACKED(); /* the compiler's own caches */
    GLuint shader = glCreateShader(type);
    if (shader) {
        glShaderSource(shader, source.count, (const GLchar *const *)source.parts, NULL);
        glCompileShader(shader);
    }
    DRIVER_ALLOCATIONS_TRACKED();
    if (!shader) {
        diag_fail(d, LAB_ERR_GPU, program_name, "glCreateShader(%s) failed", stage);
        return 0;
    }
    char log[200];
    if (!built(shader, false, log, sizeof log)) {
        char where[192];
        diag_fail(d, LAB_ERR_GPU, diag_where(where, sizeof where, "%s, %s shader", program_name, stage),
                  "does not compile: %s", log);
        glDeleteShader(shader);
        return 0;
    }
    return shader;
}

lab_error gpu_program_build(gpu_context *gpu, const char *name, gpu_source vertex, gpu_source fragment,
                            gpu_source compute, const char *const *varyings, int varying_count,
                            unsigned *program, lab_diag *d)
{
    (void)gpu;
    *program = 0;
    GLuint stages[2] = {0, 0};
    int count = 0;
    if (compute.count > 0) {
        stages[count] = compile_stage(GL_COMPUTE_SHADER, name, compute, d);
        if (!stages[count++])
            return LAB_ERR_GPU;
    } else {
        stages[count] = compile_stage(GL_VERTEX_SHADER, name, vertex, d);
        if (!stages[count++])
            return LAB_ERR_GPU;
        stages[count] = compile_stage(GL_FRAGMENT_SHADER, name, fragment, d);
        if (!stages[count++]) {
            glDeleteShader(stages[0]);
            return LAB_ERR_GPU;
        }
    }
    GLuint p = glCreateProgram();
    for (int i = 0; i < count; i++)
        glAttachShader(p, stages[i]);
    if (varying_count > 0)
        glTransformFeedbackVaryings(p, varying_count, (const GLchar *const *)varyings, GL_SEPARATE_ATTRIBS);
    DRIVER_ALLOCATIONS_UNTRACKED();
    glLinkProgram(p);
    DRIVER_ALLOCATIONS_TRACKED();
    for (int i = 0; i < count; i++)
        glDeleteShader(stages[i]); /* flagged: freed with the program */
    char log[200];
    if (!built(p, true, log, sizeof log)) {
        glDeleteProgram(p);
        return diag_fail(d, LAB_ERR_GPU, name, "does not link: %s", log);
    }
    lab_error e = gpu_check(name, d);
    if (e != LAB_OK) {
        glDeleteProgram(p);
        return e;
    }
    *program = p;
    return LAB_OK;
}
