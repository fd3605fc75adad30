/* gl_load.c - EGL and OpenGL ES through dlopen (see gl_load.h). */
#define GL_LOAD_TABLE_ITSELF
#include "gpu/gl_load.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <string.h>

gl_load_table gl_loaded;

/* The library file names: the ABI versions Debian's libegl1 and libgles2 install. */
#define EGL_LIBRARY "libEGL.so.1"
#define GLES_LIBRARY "libGLESv2.so.2"

static lab_error load_table(lab_diag *d)
{
    void *egl = dlopen(EGL_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!egl)
        return diag_fail(d, LAB_ERR_UNSUPPORTED, EGL_LIBRARY, "cannot be loaded: %s", dlerror());
    void *gles = dlopen(GLES_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!gles)
        return diag_fail(d, LAB_ERR_UNSUPPORTED, GLES_LIBRARY, "cannot be loaded: %s", dlerror());
    void *entry;
    /* ISO C has no conversion from void * to a function pointer; POSIX guarantees dlsym's
     * result converts, and memcpy says so without a cast the compiler would flag. */
#define GL_LOAD_TAKE(library, library_name, type, name)                                            \
    if (!(entry = dlsym(library, #name)))                                                          \
        return diag_fail(d, LAB_ERR_UNSUPPORTED, library_name, "has no %s", #name);              \
    memcpy(&gl_loaded.name, &entry, sizeof gl_loaded.name);
#define GL_LOAD_EGL(type, name) GL_LOAD_TAKE(egl, EGL_LIBRARY, type, name)
#define GL_LOAD_GLES(type, name) GL_LOAD_TAKE(gles, GLES_LIBRARY, type, name)
    GL_LOAD_EGL_FUNCTIONS(GL_LOAD_EGL)
    GL_LOAD_GLES_FUNCTIONS(GL_LOAD_GLES)
#undef GL_LOAD_GLES
#undef GL_LOAD_EGL
#undef GL_LOAD_TAKE
    return LAB_OK;
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
