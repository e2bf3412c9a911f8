/* hiredis 2a7b8fa's sdstrim, reduced: the dead copy into `start` removed. */
char *trim(char *s, int len) {
    char *end, *sp;
    sp = s;
    end = s + len - 1;
    while (sp <= end && *sp == ' ') sp++;
    return s;
}
