/* json_memory.h - every cJSON allocation of the process, counted, so that running out of
 * memory inside cJSON is told apart from bad data.
 *
 * cJSON reports a failed allocation only through the NULL of the one call that made it:
 * cJSON_Parse returns NULL for a syntax error and for an exhausted heap alike, and
 * cJSON_AddItemToObject(o, key, NULL) quietly adds nothing. So every cJSON allocation goes
 * through this module's allocator (installed before main, and again by each call here),
 * which counts the failures of its thread. A reader compares the count before and after a
 * parse; a writer refuses a document built while the count grew (json_to_bytes).
 *
 *     long before = json_memory_failures();
 *     cJSON *root = cJSON_ParseWithLength(text, size);
 *     if (!root && json_memory_failures() != before)
 *         return LAB_ERR_OUT_OF_MEMORY;   (not a syntax error)
 */
#ifndef JSON_MEMORY_H
#define JSON_MEMORY_H

#ifdef __cplusplus
extern "C" {
#endif

/* The cJSON allocations of this thread that failed since it started (never decreases). */
long json_memory_failures(void);

/* Tests: the n-th next cJSON allocation of this thread fails (0: the next one), and every
 * one after it succeeds again; -1 stops failing. */
void json_fail_allocation_after(long n);

#ifdef __cplusplus
}
#endif

#endif
