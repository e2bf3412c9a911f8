// Program: base64 encode and decode with padding and validation, round-tripping strings and binary data.
// RUN: args=encode Man
// RUN: args=decode TWFu SGVsbG8sIFdvcmxkIQ== bad@@
#include <stdio.h>
#include <string.h>

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static size_t encode(const unsigned char *in, size_t n, char *out) {
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = in[i] << 16;
        if (i + 1 < n) v |= in[i + 1] << 8;
        if (i + 2 < n) v |= in[i + 2];
        out[o++] = alphabet[(v >> 18) & 63];
        out[o++] = alphabet[(v >> 12) & 63];
        out[o++] = i + 1 < n ? alphabet[(v >> 6) & 63] : '=';
        out[o++] = i + 2 < n ? alphabet[v & 63] : '=';
    }
    out[o] = '\0';
    return o;
}

static int value(char c) {
    const char *p = c ? strchr(alphabet, c) : NULL;
    return p ? (int)(p - alphabet) : -1;
}

static long decode(const char *in, unsigned char *out) {
    size_t n = strlen(in);
    if (n % 4) return -1;
    long o = 0;
    for (size_t i = 0; i < n; i += 4) {
        int v[4];
        for (int k = 0; k < 4; k++) {
            v[k] = in[i + k] == '=' ? 0 : value(in[i + k]);
            if (v[k] < 0) return -1;
        }
        unsigned w = (unsigned)v[0] << 18 | (unsigned)v[1] << 12 | (unsigned)v[2] << 6 | (unsigned)v[3];
        out[o++] = (unsigned char)(w >> 16);
        if (in[i + 2] != '=') out[o++] = (unsigned char)(w >> 8);
        if (in[i + 3] != '=') out[o++] = (unsigned char)w;
    }
    return o;
}

int main(int argc, char **argv) {
    const char *samples[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
    char enc[128];
    unsigned char dec[128];
    for (int i = 0; i < 7; i++) {
        encode((const unsigned char *)samples[i], strlen(samples[i]), enc);
        long n = decode(enc, dec);
        printf("\"%s\" -> \"%s\" -> %ld bytes, round trip %d\n", samples[i], enc, n,
               n == (long)strlen(samples[i]) && memcmp(dec, samples[i], (size_t)n) == 0);
    }
    unsigned char bin[256];
    for (int i = 0; i < 256; i++) bin[i] = (unsigned char)(i * 7 + 3);
    static char big[400];
    size_t len = encode(bin, 256, big);
    printf("binary: %zu chars, starts %.16s ends %s\n", len, big, big + len - 8);
    static unsigned char back[300];
    printf("binary round trip %d\n", decode(big, back) == 256 && memcmp(back, bin, 256) == 0);
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[1], "encode") == 0) {
            encode((const unsigned char *)argv[i], strlen(argv[i]), enc);
            printf("encode %s = %s\n", argv[i], enc);
        } else {
            long n = decode(argv[i], dec);
            if (n < 0) printf("decode %s: invalid\n", argv[i]);
            else printf("decode %s = %.*s\n", argv[i], (int)n, (const char *)dec);
        }
    }
    return 0;
}
