/* make-simple-skin.c - writes the glTF tutorial's SimpleSkin (tu_write_simple_skin) to the
 * path given, for the fuzzer's seed corpus. */
#include <stdio.h>

#include "testutil.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: make-simple-skin PATH\n");
        return 2;
    }
    if (!tu_write_simple_skin(argv[1])) {
        fprintf(stderr, "make-simple-skin: cannot write %s\n", argv[1]);
        return 3;
    }
    return 0;
}
