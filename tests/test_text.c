/* test_text.c - UTF-8 validity against the standard's table (RFC 3629, section 4) and the
 * printable escapes of names from files. */
#include <string.h>

#include "cmocka_all.h"
#include "base/text.h"

static void test_text_utf8_valid_and_invalid(void **state)
{
    (void)state;
    static const struct { const char *s; size_t n; long bad; } cases[] = {
        {"plain ascii", 11, -1},
        {"caf\xc3\xa9", 5, -1},                 /* U+00E9 */
        {"\xe2\x82\xac", 3, -1},                /* U+20AC */
        {"\xf0\x9f\x98\x80", 4, -1},            /* U+1F600 */
        {"\xf4\x8f\xbf\xbf", 4, -1},            /* U+10FFFF, the last */
        {"\xef\xbf\xbf", 3, -1},                /* U+FFFF: a noncharacter, still UTF-8 */
        {"a\x80", 2, 1},                        /* a stray continuation byte */
        {"\xc3", 1, 0},                         /* cut short */
        {"\xe2\x82", 2, 0},
        {"\xc0\xaf", 2, 0},                     /* overlong '/' */
        {"\xc1\xbf", 2, 0},
        {"\xe0\x80\xaf", 3, 0},                 /* overlong, three bytes */
        {"\xf0\x80\x80\xaf", 4, 0},             /* overlong, four bytes */
        {"\xed\xa0\x80", 3, 0},                 /* U+D800, a surrogate */
        {"\xed\xbf\xbf", 3, 0},                 /* U+DFFF */
        {"\xf4\x90\x80\x80", 4, 0},             /* U+110000, past the last */
        {"ok\xf5\x80\x80\x80", 6, 2},
        {"ok\xff", 3, 2},
        {"\xc3\xa9\xc3(", 5, 2},                /* a sequence broken by ASCII */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (text_utf8_invalid(cases[i].s, cases[i].n) != cases[i].bad)
            fail_msg("case %zu: %ld, expected %ld", i, text_utf8_invalid(cases[i].s, cases[i].n), cases[i].bad);
}

static void test_text_printable_escapes_controls_only(void **state)
{
    (void)state;
    char b[80];
    assert_string_equal(text_printable(b, sizeof b, "walk\x1b[2J\nrun\t\r\x7f\xc2\x9b caf\xc3\xa9 \"q\" \\"),
                        "walk\\x1B[2J\\nrun\\t\\r\\x7F\\u009B caf\xc3\xa9 \"q\" \\");
    assert_string_equal(text_printable(b, sizeof b, "bad \xff byte"), "bad \\xFF byte");
    assert_string_equal(text_printable(b, sizeof b, "\xc2\xa0 is U+00A0, not a control"), "\xc2\xa0 is U+00A0, not a control");
    /* cut: whole pieces and "...", never half a sequence or half an escape */
    assert_string_equal(text_printable(b, 10, "abcdefghi"), "abcdefghi"); /* fits exactly */
    assert_string_equal(text_printable(b, 10, "abcdefghij"), "abcdef...");
    assert_string_equal(text_printable(b, 10, "abcde\xc3\xa9\xc3\xa9z"), "abcde...");
    assert_string_equal(text_printable(b, 10, "abcd\x1b\x1b\x1b"), "abcd...");
    assert_string_equal(text_printable(b, 3, "abcdef"), "ab");
    assert_string_equal(text_printable(b, 1, "abc"), "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text_utf8_valid_and_invalid),
        cmocka_unit_test(test_text_printable_escapes_controls_only),
    };
    return cmocka_run_group_tests_name("text", tests, NULL, NULL);
}
