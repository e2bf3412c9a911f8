// Varargs forwarding: a my_printf wrapper over vprintf, logging to stdout via vfprintf, vsnprintf/vsprintf into buffers.
#include <stdio.h>
#include <stdarg.h>
#include <string.h>

static int lines;

static int my_printf(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    printf("[%02d] ", ++lines);
    int n = vprintf(fmt, ap);
    va_end(ap);
    return n;
}

static void log_to(FILE *out, const char *level, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(out, "%s: ", level);
    vfprintf(out, fmt, ap);
    fputc('\n', out);
    va_end(ap);
}

static char *format(char *buf, size_t size, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return buf;
}

static int measure(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    return n;
}

static void append(char *buf, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsprintf(buf + strlen(buf), fmt, ap);
    va_end(ap);
}

int main(void) {
    int n = my_printf("hello %s, %d + %d = %d\n", "world", 2, 3, 2 + 3);
    my_printf("previous call printed %d chars\n", n);
    my_printf("%5.2f|%-6s|%c|%x|%lu\n", 3.14159, "ab", 'q', 255u, 123456789UL);
    log_to(stdout, "info", "value=%d name=%s", 42, "ripple");
    log_to(stderr, "debug", "this goes to stderr %d", 1);
    log_to(stdout, "warn", "%s", "done with stderr");
    char buf[16];
    printf("formatted '%s'\n", format(buf, sizeof buf, "%d-%d-%d", 2024, 1, 31));
    printf("truncated '%s'\n", format(buf, sizeof buf, "%s", "a very long string indeed"));
    printf("would need %d chars\n", measure("%s=%08.3f", "pi", 3.14159));
    char acc[64] = "";
    for (int i = 0; i < 5; i++) append(acc, "%d%s", i * i, i < 4 ? "," : "");
    printf("accumulated %s\n", acc);
    return 0;
}
