/* Character data in kernels: a text mapped as a char array, per-line Caesar shifting, vowel and
 * digit counts through <ctype.h>-free classification, a string literal table in a declare
 * target global, and a per-word hash. */
#include <stdio.h>
#include <string.h>

#define LEN 4096

#pragma omp declare target
const char vowels[] = "aeiouAEIOU";
static int is_vowel(char c)
{
    for (int k = 0; vowels[k]; k++)
        if (vowels[k] == c)
            return 1;
    return 0;
}
#pragma omp end declare target

int main(void)
{
    static char text[LEN], out[LEN];
    const char *words[] = {"offload", "Kernel", "target", "Teams", "distribute", "42", "GPU"};
    int pos = 0;
    for (int w = 0; pos < LEN - 16; w++) {
        const char *s = words[(w * 5) % 7];
        size_t n = strlen(s);
        memcpy(text + pos, s, n);
        pos += (int)n;
        text[pos++] = (w % 9 == 8) ? '\n' : ' ';
    }
    int len = pos;
    int nv = 0, nd = 0, nu = 0;
#pragma omp target teams distribute parallel for map(to : text[0:len]) map(from : out[0:len]) \
    reduction(+ : nv, nd, nu)
    for (int i = 0; i < len; i++) {
        char c = text[i];
        nv += is_vowel(c);
        nd += c >= '0' && c <= '9';
        nu += c >= 'A' && c <= 'Z';
        if (c >= 'a' && c <= 'z')
            c = (char)('a' + (c - 'a' + 3) % 26);
        else if (c >= 'A' && c <= 'Z')
            c = (char)('A' + (c - 'A' + 23) % 26);
        out[i] = c;
    }
    unsigned h = 2166136261u;
    for (int i = 0; i < len; i++)
        h = (h ^ (unsigned char)out[i]) * 16777619u;
    printf("len=%d vowels=%d digits=%d upper=%d fnv=%u\n", len, nv, nd, nu, h);
    printf("%.40s\n", out);
    return 0;
}
