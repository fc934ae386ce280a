/* <stdlib.h> functions in a kernel: each thread parses numbers out of a string with strtol
 * (several bases), sorts them with qsort, looks them up with bsearch and sums a calloc'ed
 * scratch array; the host prints per-thread results. */
#include <stdio.h>
#include <stdlib.h>

#define N 48

static long parsed[N][4], found[N];
static int zeros[N];

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

int main(void)
{
    static const char text[] = "  -42 0x1f 017 +9000000000000000000000 ";
#pragma omp target teams distribute parallel for map(to : text) map(from : parsed, found, zeros)
    for (int i = 0; i < N; i++) {
        long v[4];
        const char *p = text;
        char *end;
        for (int k = 0; k < 4; k++) {
            v[k] = strtol(p, &end, k == 3 ? 10 : 0) + (k == 0 ? i : 0);
            p = end;
        }
        qsort(v, 4, sizeof v[0], cmp_long);
        for (int k = 0; k < 4; k++)
            parsed[i][k] = v[k];
        long key = 15 + (i % 3);
        long *hit = bsearch(&key, v, 4, sizeof v[0], cmp_long);
        found[i] = hit ? (long)(hit - v) : -1;
        int *scratch = calloc((size_t)(i % 7 + 1), sizeof(int));
        int z = 0;
        for (int k = 0; scratch && k < i % 7 + 1; k++)
            z += scratch[k] == 0;
        free(scratch);
        zeros[i] = z + atoi(" 100") * (scratch != 0);
    }
    for (int i = 0; i < N; i += 7)
        printf("%2d: %ld %ld %ld %ld found=%ld zeros=%d\n", i, parsed[i][0], parsed[i][1],
               parsed[i][2], parsed[i][3], found[i], zeros[i]);
    return 0;
}
