/* text.h - text that came from a file, made safe to keep and to print.
 *
 * JSON (RFC 8259, section 8.1) is UTF-8, so every string a glTF asset holds must be valid
 * UTF-8; and a name printed on a terminal must not be able to move the cursor, clear the
 * screen or end a line (an ESC sequence, a newline, the C1 control CSI). The reader checks
 * the first (text_utf8_invalid); every place that prints a name from a file escapes it
 * (text_printable).
 */
#ifndef TEXT_H
#define TEXT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The offset of the first byte of s[0..n) that does not belong to a valid UTF-8 sequence
 * (a stray continuation byte, a truncated sequence, an overlong form, a surrogate
 * U+D800..U+DFFF, a code point above U+10FFFF), or -1 when all of it is valid. */
long text_utf8_invalid(const char *s, size_t n);

/* s with every control character escaped: \n, \r and \t as in C, any other C0 control, DEL
 * or byte of no valid UTF-8 sequence as \xNN, and the C1 controls U+0080..U+009F as \u0080..\u009F
 * (quotes and backslashes stay: the text is shown, not parsed).
 * Writes at most size - 1 bytes and a NUL; a string that does not fit ends in "..." and is
 * never cut inside a UTF-8 sequence or an escape. Returns buf. */
char *text_printable(char *buf, size_t size, const char *s);

#ifdef __cplusplus
}
#endif

#endif
