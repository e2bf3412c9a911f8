// Program: CRC-32 (table-driven and bitwise), Adler-32 and FNV-1a checksums over strings and stdin.
// RUN: stdin="The quick brown fox jumps over the lazy dog"
// RUN: stdin=prog_wordcount.1.in
#include <stdio.h>
#include <stdint.h>
#include <string.h>

static uint32_t table[256];

static void make_table(void) {
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        table[n] = c;
    }
}

static uint32_t crc32_table(const unsigned char *p, size_t n) {
    uint32_t c = 0xFFFFFFFFu;
    while (n--) c = table[(c ^ *p++) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

static uint32_t crc32_bitwise(const unsigned char *p, size_t n) {
    uint32_t c = ~0u;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1)));
    }
    return ~c;
}

static uint32_t adler32(const unsigned char *p, size_t n) {
    uint32_t a = 1, b = 0;
    for (size_t i = 0; i < n; i++) {
        a = (a + p[i]) % 65521;
        b = (b + a) % 65521;
    }
    return (b << 16) | a;
}

static uint64_t fnv1a64(const unsigned char *p, size_t n) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

int main(void) {
    make_table();
    const char *tests[] = {"", "a", "abc", "123456789", "message digest"};
    for (int i = 0; i < 5; i++) {
        const unsigned char *s = (const unsigned char *)tests[i];
        size_t n = strlen(tests[i]);
        printf("%-16s crc %08x/%08x adler %08x fnv %016llx\n", tests[i], crc32_table(s, n),
               crc32_bitwise(s, n), adler32(s, n), (unsigned long long)fnv1a64(s, n));
    }
    unsigned char buf[4096];
    size_t n = 0;
    int c;
    while (n < sizeof buf && (c = getchar()) != EOF) buf[n++] = (unsigned char)c;
    printf("stdin: %zu bytes crc %08x adler %08x\n", n, crc32_table(buf, n), adler32(buf, n));
    return 0;
}
