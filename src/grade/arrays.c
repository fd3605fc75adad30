/* arrays.c - the arrays of a call to a student's function (arrays.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grade/arrays.h"

/* AddressSanitizer's own attribution of an address to an allocation, present only in a
 * sanitized build: the allocation whose redzone holds the address, as its report says. */
extern const char *__asan_locate_address(void *addr, char *name, size_t name_size, void **region_address,
                                         size_t *region_size) __attribute__((weak));

/* The call under way, for the sanitizer's death callback (which takes no argument). */
static const grade_call *under_way;

static void *add(grade_call *call, const char *name, const char *noun, grade_array_role role, const void *src,
                 size_t element, int count)
{
    if (call->count >= GRADE_CALL_ARRAYS) {
        call->failed = true;
        return NULL;
    }
    /* an input of no elements is still an allocation (malloc(0)): a read of it is a read
     * past it; an absent input (src NULL) is NULL */
    size_t n = (size_t)(count > 0 ? count : role == GRADE_OUT ? 1 : 0);
    void *p = role == GRADE_OUT || src ? malloc(element * n) : NULL;
    if (!p && (role == GRADE_OUT || (src && n > 0))) {
        call->failed = true;
        return NULL;
    }
    if (role == GRADE_OUT)
        memset(p, 0xff, element * n);
    else if (p && n > 0)
        memcpy(p, src, element * n);
    call->array[call->count++] = (grade_array){name, noun, role, src, p, element, count};
    return p;
}

void *grade_input(grade_call *call, const char *name, const char *noun, const void *src, size_t element, int count)
{
    return add(call, name, noun, GRADE_IN, src, element, src ? count : 0);
}

void *grade_inout(grade_call *call, const char *name, const char *noun, const void *src, size_t element, int count)
{
    return add(call, name, noun, GRADE_INOUT, src, element, src ? count : 0);
}

void *grade_output(grade_call *call, const char *name, const char *noun, size_t element, int count)
{
    return add(call, name, noun, GRADE_OUT, NULL, element, count);
}

bool grade_call_ready(grade_call *call)
{
    if (!call->failed)
        under_way = call;
    return !call->failed;
}

bool grade_call_changed(const grade_call *call, char *out, size_t size)
{
    for (int i = 0; i < call->count; i++) {
        const grade_array *a = &call->array[i];
        if (a->role != GRADE_IN || !a->given)
            continue;
        for (int k = 0; k < a->count; k++) /* bit for bit: a NaN written back as it came is unchanged */
            if (memcmp((const char *)a->given + a->element * (size_t)k, (const char *)a->original + a->element * (size_t)k,
                       a->element) != 0) {
                snprintf(out, size, "%s[%d]", a->name, k);
                return true;
            }
    }
    return false;
}

void grade_call_end(grade_call *call)
{
    if (under_way == call)
        under_way = NULL;
    for (int i = 0; i < call->count; i++)
        free(call->array[i].given);
    *call = (grade_call){0};
}

/* The element of array a that `at` falls in or beside, in words. */
static void name_in(const grade_array *a, uintptr_t at, const char *how, char *out, size_t size)
{
    uintptr_t base = (uintptr_t)a->given;
    long index = at >= base ? (long)((at - base) / a->element) : -1 - (long)((base - at - 1) / a->element);
    snprintf(out, size, "%s %s[%ld], %s the %d %s", how, a->name, index, index < 0 ? "before" : "past", a->count,
             a->noun);
}

void grade_name_access(uintptr_t at, bool write, char *out, size_t size)
{
    const char *how = write ? "writes" : "reads";
    const grade_call *call = under_way;
    if (at == 0) {
        snprintf(out, size, "%s address 0 (a null pointer)", how);
        return;
    }
    /* the allocation the sanitizer attributes the address to, when it is one of the call's */
    void *region = NULL;
    size_t region_size = 0;
    char kind[64];
    if (call && __asan_locate_address && __asan_locate_address((void *)at, kind, sizeof kind, &region, &region_size))
        for (int i = 0; i < call->count; i++)
            if (region && call->array[i].given == region) {
                name_in(&call->array[i], at, how, out, size);
                return;
            }
    /* else the array the address is an element of, as an index computed from its base lands
     * (a whole number of elements before or past it), the nearest such within 8 elements or
     * 256 bytes; else the array whose ends are nearest within that */
    int nearest = -1;
    bool nearest_aligned = false;
    uintptr_t best = 0;
    for (int i = 0; call && i < call->count; i++) {
        const grade_array *a = &call->array[i];
        if (!a->given)
            continue;
        uintptr_t base = (uintptr_t)a->given, end = base + a->element * (size_t)(a->count > 0 ? a->count : 1);
        uintptr_t off = at < base ? base - at : at >= end ? at - end : 0;
        uintptr_t reach = a->element * 8 > 256 ? a->element * 8 : 256;
        bool aligned = (at < base ? base - at : at - base) % a->element == 0;
        if (off > reach)
            continue;
        if (nearest < 0 || (aligned && !nearest_aligned) || (aligned == nearest_aligned && off < best))
            nearest = i, nearest_aligned = aligned, best = off;
    }
    if (nearest < 0)
        snprintf(out, size, "%s memory at %#lx, outside every array of the case", how, (unsigned long)at);
    else
        name_in(&call->array[nearest], at, how, out, size);
}
