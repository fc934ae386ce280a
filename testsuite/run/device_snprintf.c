/* snprintf and sprintf in a kernel: each iteration formats a line of integers, doubles
 * (e, f, g and a styles, exact decimal rounding), strings and pointers-to-null into its own
 * slice of a mapped buffer, also truncated by a small bound; the host prints the lines and
 * the lengths snprintf returned. */
#include <stdio.h>
#include <string.h>

#define N 48
#define W 160

static char line[N][W];
static char cut[N][8];
static int len[N], full[N];

int main(void)
{
    static const char *names[4] = {"alpha", "beta", "", "delta-epsilon"};
    char table[4][16];
    for (int k = 0; k < 4; k++)
        strcpy(table[k], names[k]);
#pragma omp target teams distribute parallel for map(to : table) map(from : line, cut, len, full)
    for (int i = 0; i < N; i++) {
        /* exact binary fractions and decimal ties, scaled across the exponent range */
        double x = (i - 20) * 0.375;
        double big = (i + 1) * 1e15 + 0.5;
        double tiny = (i + 1) * 1.25e-300;
        long l = (long)(i - 24) * 1000000007L;
        unsigned u = 0xdead0000u + (unsigned)i * 77u;
        switch (i % 4) {
        case 0:
            len[i] = snprintf(line[i], W, "%d|%+5d|%-6x|%#o|%08.3f|%.2e|%g|%s", i, i - 20, u, i,
                              x, big, tiny, table[i % 4]);
            break;
        case 1:
            len[i] = snprintf(line[i], W, "[%*d][%-*.*s][%ld][%lu][%.0f][%#.3g][%a]", i % 7, i,
                              6, i % 5, table[(i / 4) % 4], l, (unsigned long)l, x, big, x);
            break;
        case 2:
            len[i] = sprintf(line[i], "%c%c %hhd %hd %zu %5.1f%% %.17g %E %p", 'a' + i % 26,
                             'A' + i % 26, i * 11, i * 3000, (size_t)i * 1234567, x * 10, big,
                             tiny, (void *)0);
            break;
        default:
            len[i] = snprintf(line[i], W, "%.30f|%.15e|%G|%-10.4g|", x / 3, x / 7, big * 1e290,
                              tiny);
            break;
        }
        full[i] = snprintf(cut[i], sizeof cut[i], "%d:%s", i * 1001, table[i % 4]);
    }
    for (int i = 0; i < N; i++)
        printf("%2d %3d %s\n   %2d [%s]\n", i, len[i], line[i], full[i], cut[i]);
    return 0;
}
