// Program: option parsing with getopt_long and getopt (glibc's permutation, abbreviations, optional and required arguments, flags, errors), then the operands.
// RUN: args=-v -n 3 file1 --name=abc file2 -- -x
// RUN: args=file1 --verb -c --count 7 -vv file2
// RUN: args=--nam xyz --lev --level=4 -q -n
// RUN: args=--bogus -z --name --verbose=1 -ofile extra
// RUN: args=-vn5 --color --no file
// RUN: args=-
// RUN:
#include <getopt.h>
#include <stdio.h>
#include <unistd.h>

static int color = 0;

int main(int argc, char **argv) {
    static struct option longopts[] = {
        {"verbose", no_argument, NULL, 'v'},
        {"count", required_argument, NULL, 'c'},
        {"name", required_argument, NULL, 'N'},
        {"level", optional_argument, NULL, 'l'},
        {"color", no_argument, &color, 1},
        {"no-color", no_argument, &color, 2},
        {"nothing", no_argument, NULL, 'x'},
        {0, 0, 0, 0},
    };
    int c, index = -1, verbose = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":vn:c:o::q", longopts, &index)) != -1) {
        switch (c) {
        case 'v': verbose++; printf("v (%d)\n", verbose); break;
        case 'n': case 'c': printf("%c=%s\n", c, optarg); break;
        case 'N': printf("name=%s (index %d)\n", optarg, index); break;
        case 'l': printf("level=%s\n", optarg ? optarg : "(none)"); break;
        case 'o': printf("o=%s\n", optarg ? optarg : "(none)"); break;
        case 'q': printf("q\n"); break;
        case 0: printf("flag: color=%d (index %d)\n", color, index); break;
        case ':': printf("missing argument for %c (optind %d)\n", optopt ? optopt : '-', optind); break;
        case '?': printf("unknown %c (optind %d)\n", optopt ? optopt : '-', optind); break;
        default: printf("other %d\n", c);
        }
    }
    printf("optind %d of %d\n", optind, argc);
    for (int i = optind; i < argc; i++) printf("operand %s\n", argv[i]);
    for (int i = 1; i < argc; i++) printf("argv[%d] %s\n", i, argv[i]);
    // Plain getopt from the start again, stopping at the first operand ('+').
    optind = 0;
    opterr = 1;
    while ((c = getopt(argc, argv, "+vn:q")) != -1)
        printf("getopt %c %s\n", c, (c == 'n' && optarg) ? optarg : "");
    printf("stopped at %d\n", optind);
    return 0;
}
