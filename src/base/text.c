/* text.c - UTF-8 validity and printable escapes (see text.h). */
#include "base/text.h"

#include <stdio.h>
#include <string.h>

/* The length of the valid UTF-8 sequence at s (n bytes left), or 0 when it is not one. */
static size_t sequence_length(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    if (c < 0x80)
        return 1;
    size_t len = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (len == 0 || len > n)
        return 0;
    for (size_t k = 1; k < len; k++)
        if ((s[k] & 0xC0) != 0x80)
            return 0;
    /* the second byte's range rules out overlong forms, surrogates and code points past U+10FFFF */
    if ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] > 0x9F) || (c == 0xF0 && s[1] < 0x90) ||
        (c == 0xF4 && s[1] > 0x8F))
        return 0;
    return len;
}

long text_utf8_invalid(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        size_t len = sequence_length(u + i, n - i);
        if (len == 0)
            return (long)i;
        i += len;
    }
    return -1;
}

/* The escaped form of the character at s + i (n bytes in all) into piece; returns the
 * bytes of s it stands for. */
static size_t escape_at(const char *s, size_t i, size_t n, char piece[8])
{
    const unsigned char *u = (const unsigned char *)s;
    size_t len = sequence_length(u + i, n - i), step = len ? len : 1;
    unsigned c = u[i];
    if (c == '\n' || c == '\r' || c == '\t')
        snprintf(piece, 8, "\\%c", c == '\n' ? 'n' : c == '\r' ? 'r' : 't');
    else if (c < 0x20 || c == 0x7F || len == 0) /* a control, or a byte of no valid sequence */
        snprintf(piece, 8, "\\x%02X", c);
    else if (c == 0xC2 && u[i + 1] <= 0x9F) /* U+0080..U+009F: the C1 controls */
        snprintf(piece, 8, "\\u%04X", (unsigned)u[i + 1]);
    else
        memcpy(piece, s + i, step), piece[step] = '\0';
    return step;
}

char *text_printable(char *buf, size_t size, const char *s)
{
    if (size == 0)
        return buf;
    size_t n = strlen(s), total = 0, used = 0;
    char piece[8];
    for (size_t i = 0; i < n;) { /* the whole escaped length: does it fit? */
        i += escape_at(s, i, n, piece);
        total += strlen(piece);
    }
    /* when it does not, whole pieces go in while "..." still fits after them */
    size_t room = total <= size - 1 || size - 1 < 3 ? size - 1 : size - 1 - 3;
    for (size_t i = 0; i < n;) {
        size_t step = escape_at(s, i, n, piece), m = strlen(piece);
        if (used + m > room)
            break;
        memcpy(buf + used, piece, m);
        used += m;
        i += step;
    }
    if (total > size - 1 && size - 1 >= 3)
        memcpy(buf + used, "...", 3), used += 3;
    buf[used] = '\0';
    return buf;
}
