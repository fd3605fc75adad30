/* json_memory.c - cJSON's allocations, counted (see json_memory.h). */
#include "base/json_memory.h"

#include <cJSON.h>
#include <stdlib.h>

static _Thread_local long failures;
static _Thread_local long allocations_before_failure = -1; /* tests: fail the n-th next */

static void *json_malloc(size_t size)
{
    void *p = NULL;
    if (allocations_before_failure != 0)
        p = malloc(size);
    if (allocations_before_failure >= 0)
        allocations_before_failure--;
    if (!p)
        failures++;
    return p;
}

#if defined(__GNUC__)
__attribute__((constructor))
#endif
static void install_hooks(void)
{
    cJSON_Hooks hooks = {json_malloc, free};
    cJSON_InitHooks(&hooks);
}

/* Where constructors do not run (not GNU C), each call installs the hooks; with GNU C they
 * were installed before main, once. */
static void ensure_hooks(void)
{
#if !defined(__GNUC__)
    install_hooks();
#endif
}

long json_memory_failures(void)
{
    ensure_hooks();
    return failures;
}

void json_fail_allocation_after(long n)
{
    ensure_hooks();
    allocations_before_failure = n;
}
