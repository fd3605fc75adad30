/* view30_script.h - the suites' hand (view30_script.c): view30 --script FILE runs one
 * command a line once what came before it is on screen: key NAME, drag DX DY, wait SECONDS,
 * shot FILE, save, write FILE (over the watched sheet), quit; keys and drags go through
 * SDL's own event queue, as a hand's would. */
#ifndef VIEW30_SCRIPT_H
#define VIEW30_SCRIPT_H

#include <stdbool.h>
#include <stdio.h>

#include "view30_viewer.h"

/* Runs the script's next command: false at its end, at quit, or on an error (*code set). */
bool view30_script_step(view30_viewer *v, FILE *script, view30_window *w, int *code, lab_diag *d);

/* The most a script, or a file its `write` copies over the sheet, may hold. */
#define VIEW30_SCRIPT_BYTES (1 << 20)

#endif
