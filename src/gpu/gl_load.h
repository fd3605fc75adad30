/* gl_load.h - EGL and OpenGL ES 3.1, loaded when the first context opens, not when the
 * program starts.
 *
 * A program linked against libEGL and libGLESv2 loads them, and glvnd's dispatch library
 * with them, before main; their constructors allocate, and abort the process when an
 * allocation fails ("Could not allocate dispatch index array"), before the program can do
 * anything about it. So nothing here is linked: gl_load() opens libEGL.so.1 and
 * libGLESv2.so.2 with dlopen and takes every entry point the lab calls into one table,
 * and this header makes each name (glCreateShader, eglInitialize) a call through it. A
 * program whose GPU work runs in a child process (lab30-gpu) then has no driver code in
 * its own process at all; a machine without the libraries gets an error that names them,
 * not a loader failure.
 *
 * Include this header instead of <EGL/egl.h> and <GLES3/gl31.h>. The lists below are the
 * whole API the lab uses: a call to anything else does not compile (there are no
 * prototypes), so the list cannot silently fall behind the code. */
#ifndef GL_LOAD_H
#define GL_LOAD_H

#ifdef __cplusplus
extern "C" {
#endif

#define EGL_EGL_PROTOTYPES 0
#define GL_GLES_PROTOTYPES 0
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl31.h>

#include "base/diag.h"

/* X(type, name) for each EGL entry point the lab calls. */
#define GL_LOAD_EGL_FUNCTIONS(X) \
    X(PFNEGLBINDAPIPROC, eglBindAPI) \
    X(PFNEGLCHOOSECONFIGPROC, eglChooseConfig) \
    X(PFNEGLCREATECONTEXTPROC, eglCreateContext) \
    X(PFNEGLDESTROYCONTEXTPROC, eglDestroyContext) \
    X(PFNEGLGETDISPLAYPROC, eglGetDisplay) \
    X(PFNEGLGETERRORPROC, eglGetError) \
    X(PFNEGLGETPROCADDRESSPROC, eglGetProcAddress) \
    X(PFNEGLINITIALIZEPROC, eglInitialize) \
    X(PFNEGLMAKECURRENTPROC, eglMakeCurrent) \
    X(PFNEGLQUERYSTRINGPROC, eglQueryString) \
    X(PFNEGLRELEASETHREADPROC, eglReleaseThread) \
    X(PFNEGLTERMINATEPROC, eglTerminate)

/* X(type, name) for each OpenGL ES entry point the lab calls. */
#define GL_LOAD_GLES_FUNCTIONS(X) \
    X(PFNGLACTIVETEXTUREPROC, glActiveTexture) \
    X(PFNGLATTACHSHADERPROC, glAttachShader) \
    X(PFNGLBEGINTRANSFORMFEEDBACKPROC, glBeginTransformFeedback) \
    X(PFNGLBINDBUFFERPROC, glBindBuffer) \
    X(PFNGLBINDBUFFERBASEPROC, glBindBufferBase) \
    X(PFNGLBINDFRAMEBUFFERPROC, glBindFramebuffer) \
    X(PFNGLBINDRENDERBUFFERPROC, glBindRenderbuffer) \
    X(PFNGLBINDTEXTUREPROC, glBindTexture) \
    X(PFNGLBINDVERTEXARRAYPROC, glBindVertexArray) \
    X(PFNGLBUFFERDATAPROC, glBufferData) \
    X(PFNGLBUFFERSUBDATAPROC, glBufferSubData) \
    X(PFNGLCHECKFRAMEBUFFERSTATUSPROC, glCheckFramebufferStatus) \
    X(PFNGLCOMPILESHADERPROC, glCompileShader) \
    X(PFNGLCREATEPROGRAMPROC, glCreateProgram) \
    X(PFNGLCREATESHADERPROC, glCreateShader) \
    X(PFNGLDELETEBUFFERSPROC, glDeleteBuffers) \
    X(PFNGLDELETEFRAMEBUFFERSPROC, glDeleteFramebuffers) \
    X(PFNGLDELETEPROGRAMPROC, glDeleteProgram) \
    X(PFNGLDELETERENDERBUFFERSPROC, glDeleteRenderbuffers) \
    X(PFNGLDELETESHADERPROC, glDeleteShader) \
    X(PFNGLDELETETEXTURESPROC, glDeleteTextures) \
    X(PFNGLDELETEVERTEXARRAYSPROC, glDeleteVertexArrays) \
    X(PFNGLDISABLEPROC, glDisable) \
    X(PFNGLDISPATCHCOMPUTEPROC, glDispatchCompute) \
    X(PFNGLDRAWARRAYSPROC, glDrawArrays) \
    X(PFNGLENABLEPROC, glEnable) \
    X(PFNGLENABLEVERTEXATTRIBARRAYPROC, glEnableVertexAttribArray) \
    X(PFNGLENDTRANSFORMFEEDBACKPROC, glEndTransformFeedback) \
    X(PFNGLFINISHPROC, glFinish) \
    X(PFNGLFRAMEBUFFERRENDERBUFFERPROC, glFramebufferRenderbuffer) \
    X(PFNGLGENBUFFERSPROC, glGenBuffers) \
    X(PFNGLGENFRAMEBUFFERSPROC, glGenFramebuffers) \
    X(PFNGLGENRENDERBUFFERSPROC, glGenRenderbuffers) \
    X(PFNGLGENTEXTURESPROC, glGenTextures) \
    X(PFNGLGENVERTEXARRAYSPROC, glGenVertexArrays) \
    X(PFNGLGETERRORPROC, glGetError) \
    X(PFNGLGETINTEGERI_VPROC, glGetIntegeri_v) \
    X(PFNGLGETINTEGERVPROC, glGetIntegerv) \
    X(PFNGLGETPROGRAMINFOLOGPROC, glGetProgramInfoLog) \
    X(PFNGLGETPROGRAMIVPROC, glGetProgramiv) \
    X(PFNGLGETSHADERINFOLOGPROC, glGetShaderInfoLog) \
    X(PFNGLGETSHADERIVPROC, glGetShaderiv) \
    X(PFNGLGETSTRINGPROC, glGetString) \
    X(PFNGLGETUNIFORMBLOCKINDEXPROC, glGetUniformBlockIndex) \
    X(PFNGLGETUNIFORMLOCATIONPROC, glGetUniformLocation) \
    X(PFNGLLINKPROGRAMPROC, glLinkProgram) \
    X(PFNGLMAPBUFFERRANGEPROC, glMapBufferRange) \
    X(PFNGLMEMORYBARRIERPROC, glMemoryBarrier) \
    X(PFNGLRENDERBUFFERSTORAGEPROC, glRenderbufferStorage) \
    X(PFNGLSHADERSOURCEPROC, glShaderSource) \
    X(PFNGLTEXIMAGE2DPROC, glTexImage2D) \
    X(PFNGLTEXPARAMETERIPROC, glTexParameteri) \
    X(PFNGLTRANSFORMFEEDBACKVARYINGSPROC, glTransformFeedbackVaryings) \
    X(PFNGLUNIFORM1IPROC, glUniform1i) \
    X(PFNGLUNIFORM1UIPROC, glUniform1ui) \
    X(PFNGLUNIFORMBLOCKBINDINGPROC, glUniformBlockBinding) \
    X(PFNGLUNMAPBUFFERPROC, glUnmapBuffer) \
    X(PFNGLUSEPROGRAMPROC, glUseProgram) \
    X(PFNGLVERTEXATTRIBIPOINTERPROC, glVertexAttribIPointer) \
    X(PFNGLVERTEXATTRIBPOINTERPROC, glVertexAttribPointer)

#define GL_LOAD_MEMBER(type, name) type name;
typedef struct {
    GL_LOAD_EGL_FUNCTIONS(GL_LOAD_MEMBER)
    GL_LOAD_GLES_FUNCTIONS(GL_LOAD_MEMBER)
} gl_load_table;
#undef GL_LOAD_MEMBER

extern gl_load_table gl_loaded;

/* Opens the libraries and fills gl_loaded, once per process (later calls return the first
 * call's result). LAB_ERR_UNSUPPORTED naming the library or the entry point that is
 * missing, with the loader's message. Not thread-safe: call it from one thread (gpu_open
 * does). The libraries stay loaded until the process ends. */
lab_error gl_load(lab_diag *d);

/* Every name, a call through the table (a macro does not expand inside itself, so
 * gl_loaded.glCreateShader is the member). gl_load.c, which fills the members by these
 * names, defines GL_LOAD_TABLE_ITSELF to see them unexpanded. */
#ifndef GL_LOAD_TABLE_ITSELF
#define eglBindAPI (gl_loaded.eglBindAPI)
#define eglChooseConfig (gl_loaded.eglChooseConfig)
#define eglCreateContext (gl_loaded.eglCreateContext)
#define eglDestroyContext (gl_loaded.eglDestroyContext)
#define eglGetDisplay (gl_loaded.eglGetDisplay)
#define eglGetError (gl_loaded.eglGetError)
#define eglGetProcAddress (gl_loaded.eglGetProcAddress)
#define eglInitialize (gl_loaded.eglInitialize)
#define eglMakeCurrent (gl_loaded.eglMakeCurrent)
#define eglQueryString (gl_loaded.eglQueryString)
#define eglReleaseThread (gl_loaded.eglReleaseThread)
#define eglTerminate (gl_loaded.eglTerminate)
#define glActiveTexture (gl_loaded.glActiveTexture)
#define glAttachShader (gl_loaded.glAttachShader)
#define glBeginTransformFeedback (gl_loaded.glBeginTransformFeedback)
#define glBindBuffer (gl_loaded.glBindBuffer)
#define glBindBufferBase (gl_loaded.glBindBufferBase)
#define glBindFramebuffer (gl_loaded.glBindFramebuffer)
#define glBindRenderbuffer (gl_loaded.glBindRenderbuffer)
#define glBindTexture (gl_loaded.glBindTexture)
#define glBindVertexArray (gl_loaded.glBindVertexArray)
#define glBufferData (gl_loaded.glBufferData)
#define glBufferSubData (gl_loaded.glBufferSubData)
#define glCheckFramebufferStatus (gl_loaded.glCheckFramebufferStatus)
#define glCompileShader (gl_loaded.glCompileShader)
#define glCreateProgram (gl_loaded.glCreateProgram)
#define glCreateShader (gl_loaded.glCreateShader)
#define glDeleteBuffers (gl_loaded.glDeleteBuffers)
#define glDeleteFramebuffers (gl_loaded.glDeleteFramebuffers)
#define glDeleteProgram (gl_loaded.glDeleteProgram)
#define glDeleteRenderbuffers (gl_loaded.glDeleteRenderbuffers)
#define glDeleteShader (gl_loaded.glDeleteShader)
#define glDeleteTextures (gl_loaded.glDeleteTextures)
#define glDeleteVertexArrays (gl_loaded.glDeleteVertexArrays)
#define glDisable (gl_loaded.glDisable)
#define glDispatchCompute (gl_loaded.glDispatchCompute)
#define glDrawArrays (gl_loaded.glDrawArrays)
#define glEnable (gl_loaded.glEnable)
#define glEnableVertexAttribArray (gl_loaded.glEnableVertexAttribArray)
#define glEndTransformFeedback (gl_loaded.glEndTransformFeedback)
#define glFinish (gl_loaded.glFinish)
#define glFramebufferRenderbuffer (gl_loaded.glFramebufferRenderbuffer)
#define glGenBuffers (gl_loaded.glGenBuffers)
#define glGenFramebuffers (gl_loaded.glGenFramebuffers)
#define glGenRenderbuffers (gl_loaded.glGenRenderbuffers)
#define glGenTextures (gl_loaded.glGenTextures)
#define glGenVertexArrays (gl_loaded.glGenVertexArrays)
#define glGetError (gl_loaded.glGetError)
#define glGetIntegeri_v (gl_loaded.glGetIntegeri_v)
#define glGetIntegerv (gl_loaded.glGetIntegerv)
#define glGetProgramInfoLog (gl_loaded.glGetProgramInfoLog)
#define glGetProgramiv (gl_loaded.glGetProgramiv)
#define glGetShaderInfoLog (gl_loaded.glGetShaderInfoLog)
#define glGetShaderiv (gl_loaded.glGetShaderiv)
#define glGetString (gl_loaded.glGetString)
#define glGetUniformBlockIndex (gl_loaded.glGetUniformBlockIndex)
#define glGetUniformLocation (gl_loaded.glGetUniformLocation)
#define glLinkProgram (gl_loaded.glLinkProgram)
#define glMapBufferRange (gl_loaded.glMapBufferRange)
#define glMemoryBarrier (gl_loaded.glMemoryBarrier)
#define glRenderbufferStorage (gl_loaded.glRenderbufferStorage)
#define glShaderSource (gl_loaded.glShaderSource)
#define glTexImage2D (gl_loaded.glTexImage2D)
#define glTexParameteri (gl_loaded.glTexParameteri)
#define glTransformFeedbackVaryings (gl_loaded.glTransformFeedbackVaryings)
#define glUniform1i (gl_loaded.glUniform1i)
#define glUniform1ui (gl_loaded.glUniform1ui)
#define glUniformBlockBinding (gl_loaded.glUniformBlockBinding)
#define glUnmapBuffer (gl_loaded.glUnmapBuffer)
#define glUseProgram (gl_loaded.glUseProgram)
#define glVertexAttribIPointer (gl_loaded.glVertexAttribIPointer)
#define glVertexAttribPointer (gl_loaded.glVertexAttribPointer)
#endif

#ifdef __cplusplus
}
#endif

#endif
