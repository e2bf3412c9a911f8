// Program: a state-machine tokenizer for a small C-like language (identifiers, numbers, strings, operators, comments).
// RUN: stdin=prog_tokenizer.1.in
// RUN: stdin="x = \"unterminated\n"
#include <stdio.h>
#include <ctype.h>
#include <string.h>

enum state { START, IDENT, NUMBER, STRING, SLASH, LINE_COMMENT, BLOCK_COMMENT, BLOCK_STAR };

static const char *keywords[] = {"if", "else", "while", "return", "int"};

static void emit(const char *kind, const char *text, int line) {
    printf("%3d %-8s %s\n", line, kind, text);
}

static void emit_word(const char *w, int line) {
    for (int i = 0; i < 5; i++)
        if (strcmp(w, keywords[i]) == 0) { emit("keyword", w, line); return; }
    emit("ident", w, line);
}

int main(void) {
    enum state st = START;
    char buf[128];
    int len = 0, line = 1, c, tokens = 0;
    while (1) {
        c = getchar();
        switch (st) {
        case START:
        start:
            if (c == EOF) goto done;
            if (c == '\n') line++;
            else if (isalpha(c) || c == '_') { st = IDENT; len = 0; buf[len++] = (char)c; }
            else if (isdigit(c)) { st = NUMBER; len = 0; buf[len++] = (char)c; }
            else if (c == '"') { st = STRING; len = 0; }
            else if (c == '/') st = SLASH;
            else if (!isspace(c)) {
                char op[3] = {(char)c, 0, 0};
                int next = getchar();
                if ((strchr("=!<>", c) && next == '=') || (strchr("&|+-", c) && next == c)) op[1] = (char)next;
                else ungetc(next, stdin);
                emit("op", op, line);
                tokens++;
            }
            break;
        case IDENT:
        case NUMBER:
            if (isalnum(c) || c == '_' || (st == NUMBER && c == '.')) {
                if (len < 127) buf[len++] = (char)c;
                break;
            }
            buf[len] = '\0';
            if (st == IDENT) emit_word(buf, line); else emit("number", buf, line);
            tokens++;
            st = START;
            goto start;
        case STRING:
            if (c == EOF || c == '\n') { printf("%3d error: unterminated string\n", line); return 1; }
            if (c == '"') { buf[len] = '\0'; emit("string", buf, line); tokens++; st = START; }
            else if (len < 127) buf[len++] = (char)c;
            break;
        case SLASH:
            if (c == '/') st = LINE_COMMENT;
            else if (c == '*') st = BLOCK_COMMENT;
            else { emit("op", "/", line); tokens++; st = START; goto start; }
            break;
        case LINE_COMMENT:
            if (c == '\n' || c == EOF) { st = START; goto start; }
            break;
        case BLOCK_COMMENT:
        case BLOCK_STAR:
            if (c == EOF) { printf("error: unterminated comment\n"); return 1; }
            if (c == '\n') line++;
            st = c == '*' ? BLOCK_STAR : (st == BLOCK_STAR && c == '/') ? START : BLOCK_COMMENT;
            break;
        }
    }
done:
    printf("%d tokens, %d lines\n", tokens, line);
    return 0;
}
