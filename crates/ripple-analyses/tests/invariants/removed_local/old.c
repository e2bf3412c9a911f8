/* hiredis 2a7b8fa's sdstrim, reduced: a dead copy of the input into `start`. */
char *trim(char *s, int len) {
    char *start, *end, *sp;
    sp = start = s;
    end = s + len - 1;
    while (sp <= end && *sp == ' ') sp++;
    return start;
}
