/* Must stay on the host: the parallel loop writes one line per iteration to a temporary file
 * with fprintf. The file is read back sequentially afterwards and summed, so the output does not
 * depend on the order in which threads wrote their lines. */
#include <stdio.h>

#define N 2000

int main(void)
{
    FILE *f = tmpfile();
    if (!f) {
        printf("tmpfile failed\n");
        return 1;
    }
    static double v[N];
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        v[i] = (i % 17) * 0.5;
        fprintf(f, "%d %d\n", i, (i * 31) % 101);
    }
    rewind(f);
    long lines = 0, sum_i = 0, sum_v = 0;
    int a, b;
    while (fscanf(f, "%d %d", &a, &b) == 2) {
        lines++;
        sum_i += a;
        sum_v += b;
    }
    fclose(f);
    double s = 0.0;
    for (int i = 0; i < N; i++)
        s += v[i];
    printf("lines=%ld sum(i)=%ld sum(values)=%ld sum(v)=%.6f\n", lines, sum_i, sum_v, s);
    return 0;
}
