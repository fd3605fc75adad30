/* gl_load.c - EGL and OpenGL ES through dlopen (see gl_load.h). */
#define GL_LOAD_TABLE_ITSELF
#include "gpu/gl_load.h"

#include <stdbool.h>

#include "base/library.h"

gl_load_table gl_loaded;

/* The library file names: the ABI versions Debian's libegl1 and libgles2 install. */
#define EGL_LIBRARY "libEGL.so.1"
#define GLES_LIBRARY "libGLESv2.so.2"

static lab_error load_table(lab_diag *d)
{
    /* The driver's end of the process stays its own: the GPU work runs in a child, whose
     * end its parent reports (src/base/child.h). */
    void *egl, *gles;
    lab_error e = library_open(EGL_LIBRARY, LIBRARY_START_AS_IS, &egl, d);
    if (e == LAB_OK)
        e = library_open(GLES_LIBRARY, LIBRARY_START_AS_IS, &gles, d);
#define GL_LOAD_TAKE(library, library_name, type, name)                                            \
    if (e == LAB_OK)                                                                               \
        e = library_function(library, library_name, #name, &gl_loaded.name, sizeof gl_loaded.name, d);
#define GL_LOAD_EGL(type, name) GL_LOAD_TAKE(egl, EGL_LIBRARY, type, name)
#define GL_LOAD_GLES(type, name) GL_LOAD_TAKE(gles, GLES_LIBRARY, type, name)
    GL_LOAD_EGL_FUNCTIONS(GL_LOAD_EGL)
    GL_LOAD_GLES_FUNCTIONS(GL_LOAD_GLES)
#undef GL_LOAD_GLES
#undef GL_LOAD_EGL
#undef GL_LOAD_TAKE
    return e;
}

lab_error gl_load(lab_diag *d)
{
    static bool tried;
    static lab_error result;
    static lab_diag why;
    if (!tried) {
        tried = true;
        result = load_table(&why);
    }
    if (result != LAB_OK && d)
        *d = why;
    return result;
}
