/* schedule clauses inside target regions: static, static with chunks 1 and 7, on `target
 * parallel for` and in `parallel for` nested in `target teams`; all give the same results. */
#include <stdio.h>

#define N 3001

int main(void)
{
    static long r[4][N];
#pragma omp target parallel for schedule(static) map(from : r[0:1])
    for (int i = 0; i < N; i++)
        r[0][i] = (long)i * i % 1009;
#pragma omp target parallel for schedule(static, 1) map(from : r[1:1])
    for (int i = 0; i < N; i++)
        r[1][i] = (long)i * i % 1009;
#pragma omp target teams distribute parallel for schedule(static, 7) map(from : r[2:1])
    for (int i = 0; i < N; i++)
        r[2][i] = (long)i * i % 1009;
#pragma omp target teams map(from : r[3:1])
    {
#pragma omp distribute
        for (int blk = 0; blk < 3; blk++) {
            int lo = blk * 1001, hi = lo + 1000 < N ? lo + 1001 : N;
#pragma omp parallel for schedule(static, 3)
            for (int i = lo; i < hi; i++)
                r[3][i] = (long)i * i % 1009;
        }
    }
    int same = 1;
    long s = 0;
    for (int i = 0; i < N; i++) {
        s += r[0][i];
        for (int k = 1; k < 4; k++)
            same &= r[k][i] == r[0][i];
    }
    printf("s=%ld same=%d r[2][3000]=%ld\n", s, same, r[2][N - 1]);
    long red = 0;
#pragma omp target parallel for schedule(static, 5) reduction(+ : red)
    for (int i = 0; i < N; i += 2)
        red += i;
    printf("red=%ld\n", red);
    return 0;
}
