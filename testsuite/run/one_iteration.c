/* Loop kernels that get a one-iteration variant at -O2 (a thread per iteration, no loop):
 * collapse(2)/(3) nests whose trip counts do not divide the team size, a reduction, a
 * lastprivate variable and loop variable, `continue`, and one loop launched with more
 * threads than iterations; beside them the forms that keep the grid-stride kernel (num_teams,
 * schedule, dist_schedule), whose results must be the same. */
#include <stdio.h>

#define R 37
#define C 53
#define D 11

static int a[R][C], b[R][C], cube[D][R][D];

int main(void)
{
    int n = R, m = C;
#pragma omp target teams distribute parallel for collapse(2) map(from : a)
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            a[i][j] = i * 100 + j;
    long sum = 0;
#pragma omp target teams distribute parallel for collapse(2) reduction(+ : sum) map(to : a)
    for (int i = 1; i < n - 1; i++)
        for (int j = 2; j < m; j += 3)
            sum += a[i][j];
    int li = -1, lj = -1, lastv = -1;
#pragma omp target teams distribute parallel for collapse(2) lastprivate(li, lj, lastv) map(to : a)
    for (li = 0; li < n; li++)
        for (lj = m - 1; lj >= 0; lj -= 2)
            lastv = a[li][lj];
    printf("sum=%ld li=%d lj=%d lastv=%d\n", sum, li, lj, lastv);
#pragma omp target teams distribute parallel for collapse(3) map(from : cube)
    for (int x = 0; x < D; x++)
        for (int y = 0; y < R; y++)
            for (int z = 0; z < D; z++) {
                if ((x + y + z) % 5 == 0) {
                    cube[x][y][z] = -1;
                    continue;
                }
                cube[x][y][z] = x * 10000 + y * 100 + z;
            }
    long cs = 0;
    for (int x = 0; x < D; x++)
        for (int y = 0; y < R; y++)
            for (int z = 0; z < D; z++)
                cs += (long)cube[x][y][z] * ((x + y + z) % 7 + 1);
    printf("cube=%ld\n", cs);
    int out[R] = {0};
#pragma omp target teams distribute parallel for thread_limit(256) map(from : out)
    for (int i = R - 1; i >= 0; i--)
        out[i] = 5 + 3 * i;
    printf("out[0]=%d out[%d]=%d\n", out[0], R - 1, out[R - 1]);
    /* the grid-stride kernel: the clauses fix the league or the assignment */
#pragma omp target teams distribute parallel for collapse(2) num_teams(3) map(from : b)
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            b[i][j] = a[i][j] + 1;
    long s1 = 0, s2 = 0;
#pragma omp target teams distribute parallel for collapse(2) schedule(static, 4) \
    reduction(+ : s1) map(to : b)
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            s1 += b[i][j] % 7;
#pragma omp target teams distribute parallel for collapse(2) dist_schedule(static, 16) \
    reduction(+ : s2) map(to : b)
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            s2 += b[i][j] % 11;
    printf("b=%d s1=%ld s2=%ld\n", b[R - 1][C - 1], s1, s2);
    return 0;
}
