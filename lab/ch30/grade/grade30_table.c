/* grade30_table.c - chapter 30's exercises in their one order (GRADE30_LIST, grade30_table.h):
 * exercise x + 1 is grade30_exercises[x], each defined whole in its file (exNN_name.c). */
#include "grade30_table.h"

#define GRADE30_ENTRY(NAME, name) &grade30_ex_##name,
const grade_exercise *const grade30_exercises[GRADE30_EXERCISE_COUNT] = {GRADE30_LIST(GRADE30_ENTRY)};
#undef GRADE30_ENTRY
