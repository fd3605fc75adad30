/* library.h - a shared library opened at run time (dlopen), its failures as lab_errors.
 *
 * The lab opens its heavy libraries at run time instead of linking them: EGL and GLES,
 * which only the GPU work needs (src/gpu/gl_load.h); CHOLMOD, which only the sparse solves
 * need (src/solve/sparse.h); libmeshoptimizer and the lab's own Draco bridge (libdraco
 * behind a C interface, build/lib/libskinlab-draco.so), which only a compressed glTF asset
 * needs, and which only a child process opens (src/gltf/gltf.h): a program or a run that
 * reads no such asset never loads them. Linked, CHOLMOD's BLAS and LAPACK bring libgfortran and
 * libgomp, whose constructors allocate before main and end the process when they cannot,
 * where no program can answer. Opened here, they run inside library_open, within main:
 *
 *     void *h;
 *     lab_error e = library_open("libcholmod.so.3", LIBRARY_START_ENDS_FOR_MEMORY, &h, d);
 *     if (e == LAB_OK)
 *         e = library_function(h, "libcholmod.so.3", "cholmod_start", &start, sizeof start, d);
 *
 * What can go wrong, and what it becomes:
 * - The loader cannot allocate (its message, dlerror(), says "cannot allocate", "Cannot
 *   allocate memory", "cannot create shared object descriptor" or "out of memory"; these
 *   are every message of glibc's loader that a failed allocation produces, measured by
 *   failing each allocation of a load in turn): LAB_ERR_OUT_OF_MEMORY.
 * - Anything else the loader refuses (the file is not installed, a function is missing):
 *   LAB_ERR_UNSUPPORTED, with the loader's words.
 * - The library's start-up code ends the process. With LIBRARY_START_ENDS_FOR_MEMORY the
 *   caller states that this library's constructors end it only when an allocation fails
 *   (CHOLMOD's: libgfortran prints "Operating system error: Cannot allocate memory" and
 *   exits 1, or, when even its error path cannot allocate, recurses until SIGSEGV; libgomp
 *   prints "Out of memory allocating N bytes" and exits 1; a C++ library's constructor
 *   ends in std::terminate and abort). While the library starts, such an end (exit,
 *   SIGSEGV, SIGBUS, SIGABRT) is turned into the contract's: the line
 *   "<program>: error: out of memory, <file>, its start-up code could not allocate" on
 *   stderr and exit LIBRARY_EXIT_OUT_OF_MEMORY. This is the one place in src/ that ends a
 *   process: the library has already ended it, and the guard only gives the contract's
 *   code and the reason. The guard is armed for that one call and disarmed after it.
 * - glibc's loader itself ends the process, exit 127, where it cannot allocate in a few
 *   places (a dlopened C++ library's thread-local data: "cannot allocate memory for
 *   thread-local data"); no guard can catch that, so a library that needs it (libstdc++'s
 *   users: libdraco, libmeshoptimizer) is opened in a child process, whose end its parent
 *   reads (src/base/child.h).
 * - With LIBRARY_START_AS_IS, a library's own end stays its own (the GPU work runs in a
 *   child process, whose end its parent reports: src/base/child.h).
 *
 * A library is opened once a process: library_open opens it again (dlopen counts the
 * references) and a caller keeps its handle for the process's life. Not thread-safe
 * against itself: open libraries from one thread.
 */
#ifndef LIBRARY_H
#define LIBRARY_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The contract's exit code for out of memory (DESIGN.md); src/program/cli.c checks that
 * it is the one cli_exit_code gives LAB_ERR_OUT_OF_MEMORY. */
enum { LIBRARY_EXIT_OUT_OF_MEMORY = 3 };

typedef enum {
    LIBRARY_START_AS_IS,          /* the library's own end of the process stays its own */
    LIBRARY_START_ENDS_FOR_MEMORY /* its start-up ends the process only when it cannot allocate */
} library_start;

/* dlopen(file, RTLD_NOW | RTLD_LOCAL) into *handle, the failures sorted as above. */
lab_error library_open(const char *file, library_start start, void **handle, lab_diag *d);

/* The path of a library the lab builds, beside the running program: its folder's
 * ../lib/name (build/bin/lab30-gltf opens build/lib/libskinlab-draco.so; the suites in
 * build/tests/ the same file). False when /proc/self/exe cannot be read or out is short. */
bool library_beside_program(const char *name, char *out, size_t size);

/* The function `name` of an open library, copied into the function pointer at `out`
 * (`size` bytes: sizeof the pointer), as POSIX allows for what dlsym returns. A missing
 * function is LAB_ERR_UNSUPPORTED naming it and the file. */
lab_error library_function(void *handle, const char *file, const char *name, void *out, size_t size,
                           lab_diag *d);

#ifdef __cplusplus
}
#endif

#endif
