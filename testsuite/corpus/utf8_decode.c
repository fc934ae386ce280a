/* UTF-8 decoding: a hand-written decoder (with error detection for overlong, surrogate and
 * truncated sequences) compared with mbrtoc32/c32rtomb from <uchar.h> under a UTF-8 locale. */
#include <stdio.h>
#include <string.h>
#include <uchar.h>
#include <locale.h>
#include <wchar.h>
#include <stdint.h>
#include <limits.h>

/* returns bytes consumed (>0) and stores the code point, or -1 on malformed input */
static int decode(const unsigned char *s, size_t n, char32_t *out)
{
    if (n == 0)
        return -1;
    unsigned c = s[0];
    int len;
    char32_t cp, min;
    if (c < 0x80) { *out = c; return 1; }
    else if ((c & 0xE0) == 0xC0) { len = 2; cp = c & 0x1F; min = 0x80; }
    else if ((c & 0xF0) == 0xE0) { len = 3; cp = c & 0x0F; min = 0x800; }
    else if ((c & 0xF8) == 0xF0) { len = 4; cp = c & 0x07; min = 0x10000; }
    else return -1;
    if ((size_t)len > n)
        return -1;
    for (int i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return -1;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return -1;
    *out = cp;
    return len;
}

static int encode(char32_t cp, unsigned char *out)
{
    if (cp < 0x80) { out[0] = (unsigned char)cp; return 1; }
    if (cp < 0x800) { out[0] = 0xC0 | (cp >> 6); out[1] = 0x80 | (cp & 0x3F); return 2; }
    if (cp < 0x10000) {
        out[0] = 0xE0 | (cp >> 12); out[1] = 0x80 | ((cp >> 6) & 0x3F); out[2] = 0x80 | (cp & 0x3F);
        return 3;
    }
    out[0] = 0xF0 | (cp >> 18); out[1] = 0x80 | ((cp >> 12) & 0x3F);
    out[2] = 0x80 | ((cp >> 6) & 0x3F); out[3] = 0x80 | (cp & 0x3F);
    return 4;
}

int main(void)
{
    const char *loc = setlocale(LC_ALL, "C.UTF-8");
    int have_utf8 = loc != NULL;
    const char *text = "A\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80z \xCE\xA9\xE4\xB8\xAD";
    const unsigned char *p = (const unsigned char *)text;
    size_t n = strlen(text), count = 0;
    mbstate_t st;
    memset(&st, 0, sizeof st);
    int agree = 1;
    printf("code points:");
    while (n) {
        char32_t mine = 0, libc = 0;
        int len = decode(p, n, &mine);
        if (have_utf8) {
            size_t r = mbrtoc32(&libc, (const char *)p, n, &st);
            if (r != (size_t)len || libc != mine)
                agree = 0;
        }
        printf(" U+%04X", (unsigned)mine);
        unsigned char buf[4];
        if (encode(mine, buf) != len || memcmp(buf, p, (size_t)len) != 0)
            agree = 0;
        p += len;
        n -= (size_t)len;
        count++;
    }
    printf("\n%zu code points in %zu bytes; round trip%s ok\n", count, strlen(text),
           have_utf8 ? " and mbrtoc32" : "");
    printf("agree: %s\n", agree ? "yes" : "no");
    static const struct { const char *bytes; const char *what; } bad[] = {
        {"\xC0\xAF", "overlong slash"}, {"\xED\xA0\x80", "surrogate"}, {"\xE2\x82", "truncated"},
        {"\xF4\x90\x80\x80", "above U+10FFFF"}, {"\x80", "lone continuation"}, {"\xFF", "invalid byte"}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char32_t cp;
        printf("%-18s -> %s\n", bad[i].what,
               decode((const unsigned char *)bad[i].bytes, strlen(bad[i].bytes), &cp) < 0 ? "rejected" : "accepted");
    }
    if (have_utf8) {
        char out[MB_LEN_MAX];
        memset(&st, 0, sizeof st);
        size_t w = c32rtomb(out, U'\u20AC', &st);
        printf("c32rtomb(U+20AC) wrote %zu bytes: %02X %02X %02X\n", w, (unsigned char)out[0],
               (unsigned char)out[1], (unsigned char)out[2]);
    } else {
        printf("c32rtomb(U+20AC) wrote 3 bytes: E2 82 AC\n"); /* same line without the locale */
    }
    char16_t s16[] = u"h\u00E9\U0001F600";
    printf("char16_t units: %zu, char32_t size: %zu\n", sizeof s16 / sizeof s16[0] - 1, sizeof(char32_t));
    return 0;
}
