/* <string.h> and <ctype.h> functions in kernels: each thread builds, measures, searches,
 * compares and case-maps short strings in its own slice of a mapped buffer; the host prints
 * per-thread results. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define N 64
#define W 32

static char buf[N][W];
static int len[N], cmp[N], pos[N], same[N], kinds[N];

int main(void)
{
    const char *words[4] = {"alpha", "beta", "gamma", "delta"};
    char table[4][8];
    for (int k = 0; k < 4; k++)
        strcpy(table[k], words[k]);
#pragma omp target teams distribute parallel for map(to : table) map(from : buf, len, cmp, pos, same, kinds)
    for (int i = 0; i < N; i++) {
        char *s = buf[i];
        memset(s, 0, W);
        strcpy(s, table[i % 4]);
        strncat(s, table[(i / 4) % 4], (size_t)(i % 5));
        len[i] = (int)strlen(s);
        cmp[i] = strcmp(s, table[(i + 1) % 4]);
        cmp[i] = (cmp[i] > 0) - (cmp[i] < 0);
        const char *hit = strstr(s, "ta");
        pos[i] = hit ? (int)(hit - s) : -1;
        char copy[W];
        memcpy(copy, s, W);
        memmove(copy + 1, copy, W - 1);
        same[i] = memcmp(copy + 1, s, W - 1) == 0 && strchr(s, 'm') == strrchr(s, 'm');
        /* Upper-case every other letter, append the thread number, classify the bytes. */
        for (int k = 0; s[k]; k += 2)
            s[k] = (char)toupper((unsigned char)s[k]);
        int n = (int)strlen(s);
        s[n] = (char)('0' + i % 10);
        s[n + 1] = 0;
        int digits = 0, upper = 0, alpha = 0;
        for (int k = 0; s[k]; k++) {
            digits += isdigit((unsigned char)s[k]) != 0;
            upper += isupper((unsigned char)s[k]) != 0;
            alpha += isalpha((unsigned char)s[k]) != 0 && tolower(s[k]) != toupper(s[k]);
        }
        kinds[i] = digits * 100 + upper * 10 + alpha % 10;
    }
    for (int i = 0; i < N; i += 5)
        printf("%2d %-12s len=%d cmp=%d pos=%d same=%d kinds=%d\n", i, buf[i], len[i], cmp[i],
               pos[i], same[i], kinds[i]);
    return 0;
}
