/* arrays.h - the arrays of a call to a student's function, made by the grader engine once
 * for every exercise: each input a fresh heap copy of exactly its size, compared with the
 * case after the call (a write into a const input is a wrong answer, named by element);
 * each output a heap allocation of exactly its size, every byte 0xff (an element left
 * unwritten reads as NaN or -1, never as a plausible answer; one write past it is a
 * sanitizer's report). A bad access the sanitizer reports is named after the nearest of
 * them ("reads joint[4], past the 4 influences", "reads world[-2], before the 5 nodes").
 *
 *     grade_call call = {0};
 *     const int *joint = grade_input(&call, "joint", "influences", c->joint, sizeof *joint, c->k);
 *     vec3 *out = grade_output(&call, "out", "vertices", sizeof *out, c->n);
 *     if (grade_call_ready(&call)) {
 *         f(joint, c->k, out);
 *         grade_call_changed(&call, why, sizeof why);   (an input it wrote, in words)
 *     }
 *     grade_call_end(&call);                               (frees every array)
 *
 * A call registers itself as the one under way (grade_call_ready) until grade_call_end:
 * the sanitizer's death callback, which takes no argument, reads it. One call at a time.
 */
#ifndef GRADE_ARRAYS_H
#define GRADE_ARRAYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { GRADE_CALL_ARRAYS = 12 };

typedef enum { GRADE_IN, GRADE_INOUT, GRADE_OUT } grade_array_role;

typedef struct {
    const char *name, *noun;      /* "local", "nodes" */
    grade_array_role role;
    const void *original;         /* the case's array (GRADE_IN: compared after the call) */
    void *given;                  /* what the call is given */
    size_t element;
    int count;
} grade_array;

typedef struct {
    grade_array array[GRADE_CALL_ARRAYS];
    int count;
    bool failed;                  /* an allocation failed, or more than GRADE_CALL_ARRAYS */
} grade_call;

/* A copy of count elements of `element` bytes at src, exactly that size on the heap; NULL
 * for src NULL (an absent optional array). src is compared with the copy after the call, so
 * it must live until grade_call_changed: the case's own arrays, never a local of the
 * function that registers it. */
void *grade_input(grade_call *call, const char *name, const char *noun, const void *src, size_t element, int count);
/* The same, for an array the function may change (its answer): not compared. */
void *grade_inout(grade_call *call, const char *name, const char *noun, const void *src, size_t element, int count);
/* count elements, every byte 0xff, exactly that size (at least one element). */
void *grade_output(grade_call *call, const char *name, const char *noun, size_t element, int count);

/* Whether every array was made; the call is then the one under way. */
bool grade_call_ready(grade_call *call);

/* After the call: false when every input is as the case gave it; else true, with the first
 * element changed in words into out ("local[3]"). */
bool grade_call_changed(const grade_call *call, char *out, size_t size);

/* Frees every array; no call is under way. */
void grade_call_end(grade_call *call);

/* The bad access at `at` in the words of the call under way: "reads joint[4], past the 4
 * influences". The array is the one the sanitizer attributes the address to, when that is
 * one of the call's; else the one the address is a whole number of elements from (as an
 * index computed from its base lands: world[-2] is 2 elements before world, whatever lies
 * nearer), within 8 elements or 256 bytes, the nearest such; else the nearest within that;
 * else "reads memory at 0x..., outside every array of the case" (at 0: "reads address 0 (a
 * null pointer)"). */
void grade_name_access(uintptr_t at, bool write, char *out, size_t size);

#endif
