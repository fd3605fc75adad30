# lab30-gpu opens EGL and GLES (with dlopen, src/gpu/gl_load.h) and needs a GPU context.
lab30-gpu.libs = $(GPU_LIBS)
lab30-gpu.gpu  := 1
